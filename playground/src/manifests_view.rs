//! The Manifests view: several documents in one stream (custom resources with their CRDs,
//! built-in API versions, lists), checked as `kubedv check` checks a repository for the release
//! picked, each problem linked to its line.

use kubedv_input::crd_catalog::Index;
use kubedv_input::manifests::{check_files, crd_catalog_needs, CrdCatalog, File, Options, Refused};
use web_sys::HtmlSelectElement;
use yew::prelude::*;

use crate::editor::{goto, use_focus, Editor, Mark};
use crate::hooks::{text_input, use_debounced, use_persisted};

/// The CLI's repository fixture: a CRD, its resources (one too big, one broken, one of a
/// deprecated version, one of a version not served) and removed API versions.
const EXAMPLE: &str = concat!(
    include_str!("../../cli/tests/fixtures/repo/crds/widget.yaml"),
    "---\n",
    include_str!("../../cli/tests/fixtures/repo/base/widgets.yaml"),
    "---\n",
    include_str!("../../cli/tests/fixtures/repo/base/legacy.yaml"),
);

/// One problem at a line of the stream.
struct Row {
    line: usize,
    class: &'static str,
    text: String,
}

fn options(minor: u32, catalog: Option<&str>) -> Options<'_> {
    Options {
        minor,
        strict: false,
        field_validation: Default::default(),
        crds: Vec::new(),
        types: Vec::new(),
        old: Vec::new(),
        catalog,
        crd_catalog: None,
    }
}

/// The CRD catalog projects the stream's custom resources need (kubedv-input's routing, as the
/// CLI's): those to fetch.
fn needs(text: &str, minor: u32, catalog: Option<&str>, index: &Index) -> Vec<String> {
    crd_catalog_needs(&[File { path: "manifests", text }], &options(minor, catalog), index, &[]).unwrap_or_default()
}

/// The CRD catalog's index and how to read a fetched project's file.
type CrdCatalogIn<'a> = (&'a Index, &'a dyn Fn(&str) -> Result<String, String>);

/// Checks every document of the stream as `kubedv check` does (kubedv-input's
/// [`check_files`]: CRDs among the documents, the CRD catalog's for custom resources none of
/// them serves, built-in kinds with the release's catalog when loaded, lists item by item),
/// each problem at its line. `crd_catalog`: the index and how to read a fetched project.
fn check_stream(
    text: &str,
    minor: u32,
    catalog: Option<&str>,
    crd_catalog: Option<CrdCatalogIn<'_>>,
) -> (Vec<Row>, String) {
    let mut options = options(minor, catalog);
    options.crd_catalog = crd_catalog.map(|(index, load)| CrdCatalog { index, pins: &[], load });
    let outcome = match check_files(&[File { path: "manifests", text }], &options) {
        Ok(outcome) => outcome,
        Err(Refused(why)) => return (vec![Row { line: 1, class: "error", text: why }], String::new()),
    };
    let mut rows = Vec::new();
    for d in &outcome.documents {
        let title = d.title();
        let why = d.why.as_deref().unwrap_or("");
        match d.status {
            "unreadable" => rows.push(Row { line: d.at.0, class: "error", text: format!("{title}: {why}") }),
            "skipped" => rows.push(Row { line: d.at.0, class: "skipped", text: format!("{title}: skipped: {why}") }),
            _ => {}
        }
        for e in &d.errors {
            rows.push(Row { line: e.line, class: "error", text: format!("{title}: {}", e.error.text()) });
        }
        for w in &d.warnings {
            rows.push(Row { line: w.line, class: "warning", text: format!("{title}: warning: {}", w.message) });
        }
    }
    (rows, outcome.summary.line())
}

#[function_component(ManifestsView)]
pub fn manifests_view() -> Html {
    let text = use_persisted("manifests.text", EXAMPLE);
    let version = use_persisted("manifests.version", "1.37");
    let debounced = use_debounced((*text).clone(), 200);
    let (focus, show_line) = use_focus();
    let on_version = {
        let version = version.clone();
        Callback::from(move |e: Event| version.set(e.target_unchecked_into::<HtmlSelectElement>().value()))
    };
    use kubedv_core::release::{parse, NEWEST_MINOR, OLDEST_LIFECYCLE_MINOR};
    let minor = parse(&version, OLDEST_LIFECYCLE_MINOR).unwrap_or(NEWEST_MINOR);
    let catalog = crate::catalog::use_catalog(minor);
    let catalog = catalog.as_deref().map(String::as_str);
    // The CRD catalog: its index, then the projects the stream needs; until they have all
    // arrived, their custom resources wait (skipped, and said so).
    let index = crate::catalog::use_crd_index();
    let needed = index.as_deref().map(|i| needs(&debounced, minor, catalog, i)).unwrap_or_default();
    let _arrived = crate::catalog::use_crd_projects(needed.clone());
    let ready = crate::catalog::crd_projects_loaded(&needed);
    let load = crate::catalog::crd_project;
    let crd_catalog = index.as_deref().filter(|_| ready).map(|i| (i, &load as &dyn Fn(&str) -> Result<String, String>));
    let (mut rows, summary) = check_stream(&debounced, minor, catalog, crd_catalog);
    if !ready {
        let text = format!("fetching the CRD catalog's {}", needed.join(", "));
        rows.insert(0, Row { line: 1, class: "skipped", text });
    }
    let marks: Vec<Mark> =
        rows.iter().filter(|r| r.class == "error").map(|r| Mark { line: r.line, message: r.text.clone() }).collect();
    html! {
        <section class="view manifests">
            <h2>{ "Manifests: every document checked as kubedv check does (CRDs, built-in kinds, API lifecycle)" }</h2>
            <label>{ "Kubernetes " }
                <select id="manifests-version" onchange={on_version}>
                    { for (OLDEST_LIFECYCLE_MINOR..=NEWEST_MINOR).rev().map(|m| {
                        let v = format!("1.{m}");
                        html! { <option value={v.clone()} selected={*version == v}>{ v.clone() }</option> }
                    }) }
                </select>
            </label>
            <Editor id="manifests" label="Documents (YAML, separated by ---; CRDs among them are used)" value={(*text).clone()}
                oninput={text_input(&text)} marks={marks} focus={focus} />
            <div id="manifests-result" class="result">
                <p class="summary">{ summary }</p>
                <ul class="errors">{ for rows.iter().map(|r| html! {
                    <li class={r.class}>{ goto(html! { { format!("{}: {}", r.line, r.text) } }, Some(r.line), &show_line) }</li>
                }) }</ul>
            </div>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same verdicts as `kubedv check` on the same documents (cli/tests/suite/check.rs), at the
    /// lines of the stream.
    #[test]
    fn the_example_stream_is_checked_per_document() {
        let (rows, summary) = check_stream(EXAMPLE, 37, None, None);
        assert_eq!(summary, "11 documents: 3 valid, 4 invalid, 1 skipped, 3 unreadable");
        let too_big = rows.iter().find(|r| r.text.contains("Widget/too-big")).expect("too-big");
        assert_eq!(too_big.text, "Widget/too-big: spec: Invalid value: size must not exceed max");
        assert_eq!(EXAMPLE.lines().nth(too_big.line - 1), Some("spec:"));
        let (rows, _) = check_stream(EXAMPLE, 24, None, None);
        assert!(rows
            .iter()
            .any(|r| r.class == "warning" && r.text.contains("is deprecated in v1.21+, unavailable in v1.25+")));
    }

    #[test]
    fn odd_text_never_panics() {
        for text in [
            "",
            "---",
            "kind: List\nitems: 3\n",
            "- a\n- b\n",
            "{",
            "apiVersion: v1\nkind: List\nitems: [1, {kind: X}]\n",
        ] {
            let _ = check_stream(text, 37, None, None);
        }
    }

    /// Built-in kinds with the release's catalog: the same verdicts as `kubedv check` on
    /// cli/tests/fixtures/builtin (cli/tests/suite/check.rs), at the stream's lines.
    #[test]
    fn built_in_kinds_are_checked_with_the_catalog() {
        let catalog = crate::catalog::gunzip(include_bytes!("../../catalog/1.37.gz")).expect("catalog");
        let text = concat!(
            include_str!("../../cli/tests/fixtures/builtin/apps.yaml"),
            "---\n",
            include_str!("../../cli/tests/fixtures/builtin/other.yaml")
        );
        // The example stream's ConfigMap is a built-in kind: checked once the catalog is loaded,
        // through the API server's whole path (no "declarative rules only" line, as the CLI's
        // summary).
        assert_eq!(
            check_stream(EXAMPLE, 37, Some(&catalog), None).1,
            "11 documents: 4 valid, 4 invalid, 0 skipped, 3 unreadable"
        );
        let (rows, summary) = check_stream(text, 37, Some(&catalog), None);
        assert_eq!(summary.lines().next(), Some("6 documents: 1 valid, 4 invalid, 0 skipped, 1 unreadable"));
        let first = &rows[0];
        assert_eq!(first.line, 18);
        assert_eq!(first.text, "Deployment/web: Deployment in version \"v1\" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field ContainerPort.spec.template.spec.containers.ports.containerPort of type int32");
        assert!(rows.iter().any(|r| r.text == "ResourceClaim/gpu: spec.devices.requests[0].exactly.allocationMode: Unsupported value: \"Sometimes\": supported values: \"All\", \"ExactCount\""));
    }

    /// Custom resources with the CRD catalog: the verdicts of `kubedv check` on
    /// cli/tests/fixtures/catalog/app.yaml (cli/tests/suite/crd_catalog.rs), loading only the
    /// projects the stream needs.
    #[test]
    fn custom_resources_are_checked_with_the_crd_catalog() {
        let text = include_str!("../../cli/tests/fixtures/catalog/app.yaml");
        let index = Index::parse(include_str!("../../catalog/crds/index.txt")).expect("index");
        let needed = needs(text, 37, None, &index);
        assert_eq!(needed, ["cert-manager", "gateway-api-standard", "prometheus-operator"]);
        let load = |name: &str| -> Result<String, String> {
            let bytes = match name {
                "cert-manager" => &include_bytes!("../../catalog/crds/cert-manager.json.gz")[..],
                "gateway-api-standard" => &include_bytes!("../../catalog/crds/gateway-api-standard.json.gz")[..],
                "prometheus-operator" => &include_bytes!("../../catalog/crds/prometheus-operator.json.gz")[..],
                _ => return Err(String::from("not needed")),
            };
            crate::catalog::gunzip(bytes).ok_or_else(|| String::from("gzip"))
        };
        let (rows, summary) = check_stream(text, 37, None, Some((&index, &load)));
        assert_eq!(summary.lines().next(), Some("4 documents: 0 valid, 3 invalid, 1 skipped, 0 unreadable"));
        assert_eq!(rows[0].line, 15);
        assert_eq!(rows[0].text, "Certificate/web (CRD of cert-manager@v1.21.1): spec.privateKey.algorithm: Unsupported value: \"RSB\": supported values: \"RSA\", \"ECDSA\", \"Ed25519\"");
    }
}
