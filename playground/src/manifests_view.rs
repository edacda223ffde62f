//! The Manifests view: several documents in one stream (custom resources with their CRDs,
//! built-in API versions, lists), checked as `kubedv check` checks a repository for the release
//! picked, each problem linked to its line.

use kubedv_core::check::{self, Checker, Status};
use kubedv_input::positions::{self, Positions};
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

/// Checks every document of the stream: CRDs first (a CRD and its resources may be in any
/// order), built-in kinds with the release's catalog (when loaded), then each document or list
/// item; positions from the YAML events.
fn check_stream(text: &str, minor: u32, catalog: Option<&str>) -> (Vec<Row>, String) {
    let pieces = positions::split(text);
    let parsed: Vec<_> = pieces.iter().map(|p| (p, kubedv_input::document(p.text))).collect();
    let mut checker = Checker::new(minor, false);
    let catalog = catalog.and_then(|c| kubedv_core::builtin::Catalog::parse(c).ok());
    let mut api_versions: Vec<&str> = Vec::new();
    for (_, doc) in &parsed {
        if let Ok(v) = doc {
            if v.get("kind").and_then(|k| k.as_str()) == Some("CustomResourceDefinition") {
                let _ = checker.add_crd(v);
            }
            let items = check::list_items(v).map_or_else(|| vec![v], |items| items.iter().collect());
            api_versions.extend(items.iter().filter_map(|i| i.get("apiVersion").and_then(|a| a.as_str())));
        }
    }
    api_versions.sort_unstable();
    api_versions.dedup();
    for package in catalog.iter().flat_map(|c| api_versions.iter().filter_map(|av| c.serving(av))) {
        let deps = catalog.as_ref().map(|c| c.dependencies(package)).unwrap_or_default();
        let _ = checker.add_types(package.source, &deps, Some(package.group), true);
    }
    if let Some(catalog) = &catalog {
        checker.serve_builtin_groups(catalog.packages.iter().map(|p| p.group));
    }
    let (mut rows, mut counts) = (Vec::new(), [0usize; 4]);
    for (piece, doc) in &parsed {
        let value = match doc {
            Err(e) => {
                counts[3] += 1;
                let line = piece.line + e.line.unwrap_or(1) - 1;
                let message = positions::shift_lines(&e.message, piece.line - 1);
                rows.push(Row { line, class: "error", text: format!("document: {message}") });
                continue;
            }
            Ok(v) => v,
        };
        let items: Vec<(String, &serde_json::Value)> = match check::list_items(value) {
            Some(items) => items.iter().enumerate().map(|(i, v)| (format!("items[{i}]"), v)).collect(),
            None => vec![(String::new(), value)],
        };
        let at = Positions::of(piece.text);
        let line_of = |prefix: &str, field: &str| piece.line + at.locate_in(prefix, field).map_or(1, |(l, _)| l) - 1;
        for (prefix, v) in items {
            // As `kubedv check`: a document without apiVersion or kind cannot be decoded.
            if let Some(why) = check::unreadable(v) {
                counts[3] += 1;
                rows.push(Row { line: line_of(&prefix, ""), class: "error", text: format!("document: {why}") });
                continue;
            }
            let report = checker.check(v, None);
            let name = v.get("metadata").and_then(|m| m.get("name")).and_then(|n| n.as_str()).unwrap_or("");
            let kind = v.get("kind").and_then(|k| k.as_str()).unwrap_or("document");
            let title = if name.is_empty() { kind.to_string() } else { format!("{kind}/{name}") };
            // A body the Go types cannot hold: refused before validation, naming the first
            // such value in the document.
            if let Some((line, u)) =
                report.undecodable.iter().map(|u| (line_of(&prefix, &u.field), u)).min_by_key(|p| p.0)
            {
                counts[3] += 1;
                rows.push(Row { line, class: "error", text: format!("{title}: {}", u.message) });
                continue;
            }
            for e in &report.errors {
                rows.push(Row {
                    line: line_of(&prefix, &check::source_path(v, &e.field)),
                    class: "error",
                    text: format!("{title}: {}", e.text()),
                });
            }
            for w in &report.warnings {
                let line = line_of(&prefix, w.field.as_deref().unwrap_or(""));
                rows.push(Row { line, class: "warning", text: format!("{title}: warning: {}", w.message) });
            }
            counts[match report.status {
                Status::Valid => 0,
                Status::Invalid => 1,
                Status::Skipped => {
                    let why = report.why.unwrap_or_default();
                    rows.push(Row {
                        line: line_of(&prefix, ""),
                        class: "skipped",
                        text: format!("{title}: skipped: {why}"),
                    });
                    2
                }
            }] += 1;
        }
    }
    let total: usize = counts.iter().sum();
    let summary = format!(
        "{total} document{}: {} valid, {} invalid, {} skipped, {} unreadable",
        if total == 1 { "" } else { "s" },
        counts[0],
        counts[1],
        counts[2],
        counts[3]
    );
    (rows, summary)
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
    let newest = kubedv_core::declarative::shadow::NEWEST_MINOR;
    let minor =
        version.strip_prefix("1.").and_then(|m| m.parse().ok()).filter(|m| (16..=newest).contains(m)).unwrap_or(newest);
    let catalog = crate::catalog::use_catalog(minor);
    let (rows, summary) = check_stream(&debounced, minor, catalog.as_deref().map(String::as_str));
    let marks: Vec<Mark> =
        rows.iter().filter(|r| r.class == "error").map(|r| Mark { line: r.line, message: r.text.clone() }).collect();
    html! {
        <section class="view manifests">
            <h2>{ "Manifests: every document checked as kubedv check does (CRDs, built-in kinds, API lifecycle)" }</h2>
            <label>{ "Kubernetes " }
                <select id="manifests-version" onchange={on_version}>
                    { for (16..=newest).rev().map(|m| {
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

    /// The same verdicts as `kubedv check` on the same documents (cli/tests/check.rs), at the
    /// lines of the stream.
    #[test]
    fn the_example_stream_is_checked_per_document() {
        let (rows, summary) = check_stream(EXAMPLE, 37, None);
        assert_eq!(summary, "11 documents: 3 valid, 5 invalid, 1 skipped, 2 unreadable");
        let too_big = rows.iter().find(|r| r.text.contains("Widget/too-big")).expect("too-big");
        assert_eq!(too_big.text, "Widget/too-big: spec: Invalid value: size must not exceed max");
        assert_eq!(EXAMPLE.lines().nth(too_big.line - 1), Some("spec:"));
        let (rows, _) = check_stream(EXAMPLE, 24, None);
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
            let _ = check_stream(text, 37, None);
        }
    }

    /// Built-in kinds with the release's catalog: the same verdicts as `kubedv check` on
    /// cli/tests/fixtures/builtin (cli/tests/check.rs), at the stream's lines.
    #[test]
    fn built_in_kinds_are_checked_with_the_catalog() {
        let catalog = crate::catalog::gunzip(include_bytes!("../../catalog/1.37.gz")).expect("catalog");
        let text = concat!(
            include_str!("../../cli/tests/fixtures/builtin/apps.yaml"),
            "---\n",
            include_str!("../../cli/tests/fixtures/builtin/other.yaml")
        );
        // The example stream's ConfigMap is a built-in kind: checked once the catalog is loaded.
        assert_eq!(
            check_stream(EXAMPLE, 37, Some(&catalog)).1,
            "11 documents: 4 valid, 5 invalid, 0 skipped, 2 unreadable"
        );
        let (rows, summary) = check_stream(text, 37, Some(&catalog));
        assert_eq!(summary, "6 documents: 1 valid, 4 invalid, 0 skipped, 1 unreadable");
        let first = &rows[0];
        assert_eq!(first.line, 18);
        assert_eq!(first.text, "Deployment/web: Deployment in version \"v1\" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field ContainerPort.spec.template.spec.containers.ports.containerPort of type int32");
        assert!(rows.iter().any(|r| r.text == "ResourceClaim/gpu: spec.devices.requests[0].exactly.allocationMode: Unsupported value: \"Sometimes\": supported values: \"All\", \"ExactCount\""));
    }
}
