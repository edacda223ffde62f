//! The CRD view: a CustomResourceDefinition, a custom resource and (for an update) its old
//! version → the errors the API server would return, or why it would refuse the CRD.

use kubedv_core::crd::Crd;
use kubedv_input::ParseError;
use yew::prelude::*;

use crate::editor::{goto, parse_marks, use_focus, Editor};
use crate::hooks::{text_input, use_debounced, use_persisted};
use crate::locate;
use crate::picker::example_picker;

/// The CLI's CRD fixtures (the realistic CRDs the tests use).
macro_rules! fixture {
    ($name:literal) => {
        include_str!(concat!("../../cli/tests/fixtures/crd/", $name))
    };
}

/// (title, CRD, object, old object).
pub const EXAMPLES: &[(&str, &str, &str, &str)] = &[
    ("Certificate: rules fail", fixture!("certificate.yaml"), fixture!("certificate-bad.yaml"), ""),
    (
        "Certificate: schema errors block the rules",
        fixture!("certificate.yaml"),
        fixture!("certificate-schema-bad.yaml"),
        "",
    ),
    ("Certificate: valid", fixture!("certificate.yaml"), fixture!("certificate-good.yaml"), ""),
    (
        "HTTPRoute: wildcards, paths, weights, duplicate headers",
        fixture!("httproute.yaml"),
        fixture!("httproute-bad.yaml"),
        "",
    ),
    (
        "Policy update: transition rules",
        fixture!("policy.yaml"),
        fixture!("policy-new.yaml"),
        fixture!("policy-old.yaml"),
    ),
    ("A rule over the cost limit", fixture!("expensive.yaml"), fixture!("certificate-good.yaml"), ""),
];

/// One list of field errors, each linking to its field's line in `text`.
fn error_list(errors: &[kubedv_core::field::Error], text: &str, show: &Callback<usize>) -> Html {
    html! {
        <ul class="errors">{ for errors.iter().map(|e| html! {
            <li>{ goto(html! { { e.text() } }, locate::line_of(text, &e.field), show) }</li>
        }) }</ul>
    }
}

#[function_component(CrdView)]
pub fn crd_view() -> Html {
    let crd = use_persisted("crd.crd", EXAMPLES[0].1);
    let object = use_persisted("crd.object", EXAMPLES[0].2);
    let old = use_persisted("crd.old", EXAMPLES[0].3);
    let d_crd = use_debounced((*crd).clone(), 200);
    let d_object = use_debounced((*object).clone(), 200);
    let d_old = use_debounced((*old).clone(), 200);
    let (crd_focus, show_crd_line) = use_focus();
    let (object_focus, show_object_line) = use_focus();

    let load = {
        let (crd, object, old) = (crd.clone(), object.clone(), old.clone());
        Callback::from(move |i: usize| {
            if let Some((_, c, o, p)) = EXAMPLES.get(i) {
                crd.set((*c).into());
                object.set((*o).into());
                old.set((*p).into());
            }
        })
    };
    let current = EXAMPLES.iter().position(|(_, c, o, p)| *c == *crd && *o == *object && *p == *old);

    let crd_doc = kubedv_input::document(&d_crd);
    let obj = kubedv_input::document(&d_object);
    let old_obj = if d_old.trim().is_empty() { Ok(serde_json::Value::Null) } else { kubedv_input::document(&d_old) };
    let result = (|| -> Result<Html, Html> {
        let unreadable = |what: &str, e: &ParseError, show: Option<&Callback<usize>>| match show {
            Some(show) => html! { <p class="error">{ goto(html! { { format!("{what}: {e}") } }, e.line, show) }</p> },
            None => html! { <p class="error">{ format!("{what}: {e}") }</p> },
        };
        let doc = crd_doc.as_ref().map_err(|e| unreadable("CRD", e, Some(&show_crd_line)))?;
        let loaded = match Crd::load(doc, None) {
            Ok(c) => c,
            Err(errors) => {
                return Ok(html! {
                    <div id="crd-refused">
                        <p class="error">{ "The API server would refuse this CRD:" }</p>
                        { error_list(&errors, &d_crd, &show_crd_line) }
                    </div>
                })
            }
        };
        let obj = obj.as_ref().map_err(|e| unreadable("object", e, Some(&show_object_line)))?;
        let old_obj = old_obj.as_ref().map_err(|e| unreadable("old object", e, None))?;
        let outcome = loaded.check(obj, (!old_obj.is_null()).then_some(old_obj), &Default::default());
        let errors = &outcome.errors;
        Ok(html! {
            <>
                <p class="summary">{ format!("{} {} · {} rules compiled", loaded.kind, loaded.version, loaded.rules().len()) }</p>
                if let Some(refusal) = &outcome.refusal {
                    <p class="error">{ format!("the API server refuses this update (Bad Request): {refusal}") }</p>
                } else if errors.is_empty() {
                    <p class="ok">{ "no errors: the API server accepts this object" }</p>
                } else {
                    { error_list(errors, &d_object, &show_object_line) }
                }
                { for outcome.warnings.iter().map(|w| html! { <p class="warnings">{ format!("Warning: {w}") }</p> }) }
            </>
        })
    })();
    let result = result.unwrap_or_else(|e| e);

    html! {
        <section class="view crd">
            <h2>{ "Custom resources against a CRD: OpenAPI schema and x-kubernetes-validations" }</h2>
            { example_picker("crd-example", EXAMPLES.iter().map(|e| e.0), current, load) }
            <div class="columns">
                <Editor id="crd-crd" label="CustomResourceDefinition (YAML or JSON)" value={(*crd).clone()}
                    oninput={text_input(&crd)} marks={parse_marks(&crd_doc)} focus={crd_focus} />
                <Editor id="crd-object" label="Custom resource" value={(*object).clone()}
                    oninput={text_input(&object)} marks={parse_marks(&obj)} focus={object_focus} />
                <Editor id="crd-old" label="Old object (an update; empty for a create)" value={(*old).clone()}
                    oninput={text_input(&old)} marks={parse_marks(&old_obj)} />
            </div>
            <div id="crd-result" class="result">{ result }</div>
        </section>
    }
}
