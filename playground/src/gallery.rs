//! The examples gallery: realistic cases from every view, each a sentence on what it shows
//! and a button that opens it (the view's editors loaded as `use_persisted` reads them).

use yew::prelude::*;

use crate::app::OpenTab;
use crate::hooks::persist;
use crate::{cel_view, crd_view, examples, policies_view};

/// One case: the tab it opens, its title, what it shows, and the state it loads.
pub struct Entry {
    pub tab: &'static str,
    pub title: &'static str,
    pub about: &'static str,
    pub state: Vec<(&'static str, &'static str)>,
}

/// What each declarative example shows (as many as the examples: the compiler checks).
const DECLARATIVE_ABOUT: [&str; examples::EXAMPLES.len()] = [
    "Required fields, Kubernetes name formats, an enum and an alpha rule that is only shadowed: the errors the API server returns and the one it only compares.",
    "Lists of structs and maps: each container's name and image, label keys and values, port ranges — errors at their list index.",
    "Validation options discovered from +k8s:ifEnabled / +k8s:enumExclude: tick an option to see the enum accept its excluded value.",
];

const CEL_ABOUT: [&str; cel_view::EXAMPLES.len()] = [
    "A typed comparison between two fields, with its runtime cost and Kubernetes' static estimate from the schema.",
    "all() over a list of containers: the estimate multiplies by the schema's maxItems, as the API server does at CRD creation.",
    "A transition rule: oldSelf is the previous object, so replicas may only grow.",
    "The Kubernetes quantity library: 512Mi is less than 1Gi, compared exactly.",
    "The IP and CIDR libraries: is the node's address inside the pod range, and is it IPv4?",
    "Named formats: format.dns1123Label().validate() returns Kubernetes' messages for a bad name.",
    "Property names that are not CEL identifiers are escaped (image-tag → image__dash__tag); date-time strings become timestamps.",
    "A nested all() over an unbounded list: the estimate exceeds the limit and the API server would refuse the CRD.",
];

const CRD_ABOUT: [&str; crd_view::EXAMPLES.len()] = [
    "A cert-manager-style Certificate whose x-kubernetes-validations rules fail, with their messages.",
    "Schema errors (types, enums, patterns) come first and block the CEL rules, as the API server does.",
    "The same Certificate, valid: no errors.",
    "A Gateway-API-style HTTPRoute: wildcard hostnames, path rules, backend weights and a duplicate list-map key.",
    "An update: transition rules compare the object with its old version (immutable selector, a mode that cannot go back).",
    "A CRD whose rule's estimated cost is over the limit: the API server refuses the CRD itself.",
];

const POLICY_ABOUT: [&str; policies_view::EXAMPLES.len()] = [
    "A ValidatingAdmissionPolicy with params and two bindings: the test namespace's binding denies five replicas with the API server's message and status.",
    "The same policy in a production namespace: its binding warns and audits instead of denying.",
    "A Warn + Audit binding with a message expression: the warning text and the validation_failure audit annotation.",
    "MutatingAdmissionPolicies: a label added with an ApplyConfiguration, an annotation with a JSONPatch, the result as a patch.",
    "The authorizer library: a check answered from the allowed list, for a user's group.",
];

/// Every case in the gallery.
pub fn entries() -> Vec<Entry> {
    let mut out = Vec::new();
    for (ex, about) in examples::EXAMPLES.iter().zip(DECLARATIVE_ABOUT) {
        out.push(Entry {
            tab: "declarative",
            title: ex.name,
            about,
            state: vec![("types", ex.types), ("object", ex.object), ("root", ""), ("update", ""), ("handwritten", "")],
        });
    }
    out.push(Entry {
        tab: "declarative",
        title: "Update: an immutable field and ratcheting",
        about: "On update an immutable field may not change, while an invalid value that did not change is not reported again (ratcheting).",
        state: vec![
            ("types", UPDATE_TYPES),
            ("object", "name: data\nstorageClass: fast\nsizeGi: -1\n"),
            ("old", "name: data\nstorageClass: standard\nsizeGi: -1\n"),
            ("update", "on"),
            ("root", ""),
            ("handwritten", ""),
        ],
    });
    out.push(Entry {
        tab: "declarative",
        title: "Shadow comparison with handwritten validation",
        about: "Handwritten errors beside alpha, beta and stable declarative rules: the alpha one only compared, the beta one replacing its handwritten twin, a covered handwritten error with no declarative match counted as a mismatch.",
        state: vec![
            ("types", SHADOW_TYPES),
            ("object", "color: magenta\ncount: -1\nowner: ''\n"),
            ("handwritten", SHADOW_HANDWRITTEN),
            ("update", ""),
            ("root", ""),
        ],
    });
    for ((title, expr, this, old, schema), about) in cel_view::EXAMPLES.iter().zip(CEL_ABOUT) {
        out.push(Entry {
            tab: "cel",
            title,
            about,
            state: vec![("cel.expr", expr), ("cel.self", this), ("cel.old", old), ("cel.schema", schema)],
        });
    }
    for ((title, crd, object, old), about) in crd_view::EXAMPLES.iter().zip(CRD_ABOUT) {
        out.push(Entry {
            tab: "crd",
            title,
            about,
            state: vec![("crd.crd", crd), ("crd.object", object), ("crd.old", old)],
        });
    }
    for ((title, policies, request), about) in policies_view::EXAMPLES.iter().zip(POLICY_ABOUT) {
        out.push(Entry {
            tab: "policies",
            title,
            about,
            state: vec![("policy.policies", policies), ("policy.request", request)],
        });
    }
    out.push(Entry {
        tab: "cri",
        title: "CRI skew: an old containerd under a new kubelet",
        about: "containerd 1.6 implements the Kubernetes 1.23 CRI: too old for kubelet 1.33 and for crictl 1.29, with the policy's reason for each pair.",
        state: vec![("cri.kubelet", "1.33.0"), ("cri.runtime", "containerd=1.6.0"), ("cri.clients", "crictl=1.29.0")],
    });
    out.push(Entry {
        tab: "cri",
        title: "CRI feature maturity: beta before the runtimes are ready",
        about: "Can a CRI feature go beta, enabled by default, while CRI-O has only merged it? The feature policy's verdict and why.",
        state: vec![("cri.stage", "beta-on"), ("cri.containerd", "released-ga"), ("cri.crio", "merged")],
    });
    out.push(Entry {
        tab: "tags",
        title: "Tag docs: every list tag",
        about: "The catalog filtered to the list tags (listType, listMapKey, unique, minItems...), each with a Try it button.",
        state: vec![("tags.query", "list")],
    });
    out
}

const UPDATE_TYPES: &str = r#"package v1

// A volume claim: its storage class is fixed once created.
type Volume struct {
	TypeMeta int

	// +k8s:required
	// +k8s:format=k8s-short-name
	Name string `json:"name"`

	// +k8s:optional
	// +k8s:immutable
	StorageClass string `json:"storageClass"`

	// +k8s:optional
	// +k8s:minimum=1
	SizeGi int32 `json:"sizeGi"`
}
"#;

const SHADOW_TYPES: &str = r#"package v1

type Thing struct {
	TypeMeta int

	// +k8s:optional
	// +k8s:alpha(since: "1.36")=+k8s:maxLength=5
	Color string `json:"color"`

	// +k8s:optional
	// +k8s:beta(since: "1.36")=+k8s:minimum=0
	Count int32 `json:"count"`

	// +k8s:required
	Owner string `json:"owner"`
}
"#;

const SHADOW_HANDWRITTEN: &str = "color: Too long: may not be more than 5 characters [origin=maxLength, covered]
count: Invalid value: -1: must be greater than or equal to 0 [origin=minimum, covered]
color: Unsupported value: \"magenta\": supported values: \"blue\", \"red\" [origin=enum, covered]
";

#[function_component(Gallery)]
pub fn gallery() -> Html {
    let open = use_context::<OpenTab>();
    let entries = entries();
    html! {
        <section class="view">
            <h2>{ "Examples" }</h2>
            <p class="summary">{ format!("{} realistic cases across the views; Open loads one (your current input in that view is replaced — share a link first to keep it).", entries.len()) }</p>
            <ul class="gallery">
                { for entries.into_iter().enumerate().map(|(i, entry)| {
                    let onclick = {
                        let open = open.clone();
                        let (tab, state) = (entry.tab, entry.state);
                        Callback::from(move |_| {
                            for (key, value) in &state {
                                persist(key, value);
                            }
                            if let Some(open) = &open {
                                open.0.emit(tab);
                            }
                        })
                    };
                    html! {
                        <li class="card">
                            <span class="badge">{ tab_label(entry.tab) }</span>
                            <h3>{ entry.title }</h3>
                            <p>{ entry.about }</p>
                            <button id={format!("gallery-{i}")} {onclick} aria-label={format!("Open: {}", entry.title)}>{ "Open" }</button>
                        </li>
                    }
                }) }
            </ul>
        </section>
    }
}

fn tab_label(tab: &str) -> &'static str {
    crate::app::TABS.iter().find(|(id, _)| *id == tab).map_or("", |(_, label)| *label)
}

#[cfg(test)]
mod tests {
    /// Every declarative example compiles as validation-gen would accept it at the newest
    /// version, lint included (a field with validation says +k8s:optional or +k8s:required).
    #[test]
    fn declarative_examples_compile_clean() {
        for e in super::entries().iter().filter(|e| e.tab == "declarative") {
            let types = e.state.iter().find(|(k, _)| *k == "types").map(|(_, v)| *v).unwrap_or("");
            let schema = kubedv_core::declarative::Schema::compile(types);
            let errors: Vec<String> =
                schema.diagnostics.iter().filter(|d| d.is_error()).map(ToString::to_string).collect();
            assert!(errors.is_empty(), "{}: {errors:#?}", e.title);
        }
        // The first example is shown at every release the version picker offers (the browser
        // test switches it to 1.33 and 1.36): lint-clean with each release's tag levels.
        for minor in 33..=37 {
            let schema = kubedv_core::declarative::Schema::compile_with(crate::examples::WIDGET_TYPES, &[], minor);
            let errors: Vec<String> =
                schema.diagnostics.iter().filter(|d| d.is_error()).map(ToString::to_string).collect();
            assert!(errors.is_empty(), "1.{minor}: {errors:#?}");
        }
    }
}
