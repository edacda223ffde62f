//! The declarative validation view: types.go and an object in, Kubernetes' errors out, as
//! the generated code would report them on create.

use std::rc::Rc;

use kubedv_core::declarative::shadow::{self, Enforcement};
use kubedv_core::declarative::{Options, Report, Schema};
use kubedv_core::field::Stability;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::editor::{goto, parse_marks, use_focus, Editor, Mark};
use crate::examples::{EXAMPLES, WIDGET_OBJECT, WIDGET_TYPES};
use crate::hooks::{text_input, use_debounced, use_persisted};
use crate::locate;

/// Typing pauses this long before the result updates.
const DEBOUNCE_MS: u32 = 150;

#[function_component(Declarative)]
pub fn declarative() -> Html {
    let types = use_persisted("types", WIDGET_TYPES);
    let object = use_persisted("object", WIDGET_OBJECT);
    let root = use_persisted("root", "");
    let enabled = use_state(Vec::<String>::new);
    let update = use_persisted("update", "");
    let old = use_persisted("old", WIDGET_OBJECT);
    let version = use_persisted("k8s-version", "1.37");
    let beta = use_persisted("gate-beta", "on");
    let takeover = use_persisted("gate-takeover", "");
    let handwritten = use_persisted("handwritten", "");
    let subresource = use_persisted("subresource", "/");

    let types_now = use_debounced((*types).clone(), DEBOUNCE_MS);
    let object_now = use_debounced((*object).clone(), DEBOUNCE_MS);
    let old_now = use_debounced((*old).clone(), DEBOUNCE_MS);
    let handwritten_now = use_debounced((*handwritten).clone(), DEBOUNCE_MS);
    // Compile once per change of the types (or of the catalog their k8s.io/api imports come
    // from), validate on every change of the object.
    let minor = shadow::parse_version(Some(&version)).unwrap_or(shadow::NEWEST_MINOR);
    let imports_api = types_now.contains("\"k8s.io/api/");
    let catalog = crate::catalog::use_catalog(if imports_api { minor } else { 0 });
    let catalog_id = catalog.as_ref().map(|c| Rc::as_ptr(c) as usize);
    let schema: Rc<Schema> = use_memo((types_now, minor, catalog_id), move |(src, minor, _)| {
        let parsed = catalog.as_deref().and_then(|c| kubedv_core::builtin::Catalog::parse(c).ok());
        let deps = parsed.as_ref().map(|c| c.dependencies_of_source(src)).unwrap_or_default();
        Schema::compile_with(src, &deps, *minor)
    });
    let parsed = use_memo(object_now.clone(), |text| kubedv_input::document(text));
    let (types_focus, show_types_line) = use_focus();
    let (object_focus, show_object_line) = use_focus();

    let on_root = {
        let root = root.clone();
        Callback::from(move |e: Event| root.set(e.target_unchecked_into::<HtmlSelectElement>().value()))
    };
    let load = |i: usize| {
        let (types, object, root) = (types.clone(), object.clone(), root.clone());
        Callback::from(move |_| {
            types.set(EXAMPLES[i].types.into());
            object.set(EXAMPLES[i].object.into());
            root.set(String::new());
        })
    };

    let on_subresource = {
        let subresource = subresource.clone();
        Callback::from(move |e: Event| subresource.set(e.target_unchecked_into::<HtmlSelectElement>().value()))
    };
    let candidates: Vec<String> = schema.root_candidates().iter().map(|s| s.to_string()).collect();
    let names: Vec<String> = schema.type_names().iter().map(|s| s.to_string()).collect();
    let chosen = if names.contains(&root) { (*root).clone() } else { candidates.first().cloned().unwrap_or_default() };

    let option_boxes = schema.options().iter().map(|o| {
        let on = enabled.contains(o);
        let toggle = {
            let (enabled, o) = (enabled.clone(), o.clone());
            Callback::from(move |e: Event| {
                let checked = e.target_unchecked_into::<HtmlInputElement>().checked();
                let mut v = (*enabled).clone();
                v.retain(|x| x != &o);
                if checked {
                    v.push(o.clone());
                }
                enabled.set(v);
            })
        };
        html! {
            <label class="option">
                <input type="checkbox" id={format!("option-{o}")} checked={on} onchange={toggle} />
                { o.clone() }
            </label>
        }
    });

    let toggle = |state: &UseStateHandle<String>| {
        let state = state.clone();
        Callback::from(move |e: Event| {
            let on = e.target_unchecked_into::<HtmlInputElement>().checked();
            state.set(if on { "on".into() } else { String::new() });
        })
    };
    let on_version = {
        let version = version.clone();
        Callback::from(move |e: Event| version.set(e.target_unchecked_into::<HtmlSelectElement>().value()))
    };
    // 1.36+ have stability levels and DeclarativeValidationBeta; before, Takeover decided.
    let modern = !matches!(version.as_str(), "1.33" | "1.34" | "1.35");
    let mut gates = Vec::new();
    if modern {
        gates.push(("DeclarativeValidationBeta", !beta.is_empty()));
    } else {
        gates.push(("DeclarativeValidationTakeover", !takeover.is_empty()));
    }
    let config = Enforcement::from_request(Some(&version), &gates, true).unwrap_or_default();
    // The subresources the chosen type answers (+k8s:supportsSubresource); "/" is the resource.
    let subresources = schema.type_named(&chosen).map(|id| schema.subresource_paths(id)).unwrap_or_default();
    let chosen_subresource =
        if subresources.contains(&subresource) { (*subresource).clone() } else { String::from("/") };
    let request = Request {
        subresource: &chosen_subresource,
        root: &chosen,
        object_text: &object_now,
        object: &parsed,
        old: (!update.is_empty()).then_some(old_now.as_str()),
        enabled: &enabled,
        config: &config,
        handwritten: &handwritten_now,
    };
    let result = run(&schema, &request, &Goto { types: show_types_line, object: show_object_line });
    let types_marks: Vec<Mark> =
        schema.diagnostics.iter().map(|d| Mark { line: d.line as usize, message: d.to_string() }).collect();
    let object_marks = parse_marks(&parsed);

    html! {
        <section class="view">
            <div class="examples">
                <span>{ "Examples:" }</span>
                { for EXAMPLES.iter().enumerate().map(|(i, ex)| {
                    let loaded = ex.types == *types && ex.object == *object;
                    html! {
                        <button id={format!("example-{i}")} class={classes!(loaded.then_some("active"))}
                            aria-pressed={loaded.to_string()} onclick={load(i)}>{ ex.name }</button>
                    }
                }) }
            </div>
            <div class="editors">
                <Editor id="types" label="types.go (with +k8s: tags)" value={(*types).clone()} oninput={text_input(&types)}
                    marks={types_marks} tags=true focus={types_focus} />
                <Editor id="object" label="object (YAML or JSON)" value={(*object).clone()} oninput={text_input(&object)}
                    marks={object_marks} focus={object_focus} />
            </div>
            <div class="controls">
                <label for="root">{ "Validate as" }</label>
                <select id="root" onchange={on_root}>
                    { for names.iter().map(|n| html! { <option value={n.clone()} selected={*n == chosen}>{ n.clone() }</option> }) }
                </select>
                if subresources.len() > 1 {
                    <label for="subresource">{ "Subresource" }</label>
                    <select id="subresource" onchange={on_subresource}>
                        { for subresources.iter().map(|p| html! {
                            <option value={p.clone()} selected={*p == chosen_subresource}>
                                { if p == "/" { String::from("/ (the resource)") } else { p.clone() } }
                            </option>
                        }) }
                    </select>
                }
                if schema.options().is_empty() {
                    <span class="meta">{ "no validation options in these types" }</span>
                } else {
                    <span class="meta">{ "Options:" }</span>
                    { for option_boxes }
                }
            </div>
            <div class="controls">
                <label class="option">
                    <input type="checkbox" id="update-toggle" checked={!update.is_empty()} onchange={toggle(&update)} />
                    { "update (validate against an old object)" }
                </label>
                <label for="k8s-version">{ "Kubernetes" }</label>
                <select id="k8s-version" onchange={on_version}>
                    { for ["1.37", "1.36", "1.35", "1.34", "1.33"].iter().map(|v| html! { <option value={*v} selected={version.as_str() == *v}>{ *v }</option> }) }
                </select>
                if modern {
                    <label class="option"><input type="checkbox" id="gate-beta" checked={!beta.is_empty()} onchange={toggle(&beta)} />{ "DeclarativeValidationBeta" }</label>
                } else {
                    <label class="option"><input type="checkbox" id="gate-takeover" checked={!takeover.is_empty()} onchange={toggle(&takeover)} />{ "DeclarativeValidationTakeover" }</label>
                }
            </div>
            if !update.is_empty() {
                <Editor id="old" label="old object (YAML or JSON)" value={(*old).clone()} oninput={text_input(&old)} class="short" />
            }
            <details open={!handwritten.is_empty()}>
                <summary>{ "Shadow comparison with handwritten errors" }</summary>
                <label for="handwritten">{ "handwritten errors, one Kubernetes error line each, optionally ending in [origin=NAME, covered]" }</label>
                <textarea id="handwritten" class="short" spellcheck="false" value={(*handwritten).clone()} oninput={text_input(&handwritten)} />
            </details>
            <div id="decl-result" class="result">{ result }</div>
        </section>
    }
}

/// What to validate and how.
struct Request<'a> {
    root: &'a str,
    subresource: &'a str,
    object_text: &'a str,
    object: &'a Result<serde_json::Value, kubedv_input::ParseError>,
    old: Option<&'a str>,
    enabled: &'a [String],
    config: &'a Enforcement,
    handwritten: &'a str,
}

/// Shows a line of the types or the object editor (clicked diagnostics and errors).
struct Goto {
    types: Callback<usize>,
    object: Callback<usize>,
}

/// Validates the object, rendering what a reviewer needs; every diagnostic and error links to
/// its line.
fn run(schema: &Schema, req: &Request<'_>, to: &Goto) -> Html {
    let (root, enabled) = (req.root, req.enabled);
    let types_diag = |d: &kubedv_core::diag::Diagnostic| {
        html! { <li class="diag">{ goto(html! { { format!("types.go:{d}") } }, (d.line > 0).then_some(d.line as usize), &to.types) }</li> }
    };
    let field_line = |field: &str| locate::line_of(req.object_text, field);
    if schema.has_errors() {
        return html! {
            <div class="diagnostics">
                <p class="bad">{ "types.go cannot be used (validation-gen would refuse it):" }</p>
                <ul>{ for schema.diagnostics.iter().map(types_diag) }</ul>
            </div>
        };
    }
    let warnings = html! {
        <ul class="warnings">{ for schema.diagnostics.iter().map(types_diag) }</ul>
    };
    let Some(root_id) = schema.type_named(root) else {
        return html! { <p class="meta">{ "Declare a type to validate." }</p> };
    };
    let value = match req.object {
        Ok(v) => v,
        Err(e) => {
            return html! { <><p class="bad" id="object-error">{ goto(html! { { format!("object: {e}") } }, e.line, &to.object) }</p>{ warnings }</> }
        }
    };
    let old = match req.old.map(parse_object).transpose() {
        Ok(old) => old,
        Err(e) => return html! { <p class="bad">{ format!("old {e}") }</p> },
    };
    let handwritten = match shadow::parse_handwritten(req.handwritten) {
        Ok(h) => h,
        Err(e) => return html! { <p class="bad">{ format!("handwritten errors: {e}") }</p> },
    };
    let options = Options { enabled: enabled.to_vec(), ..Options::default() };
    let request = kubedv_core::declarative::Request::new(root_id, value, req.config)
        .old(old.as_ref())
        .subresource(Some(req.subresource))
        .options(&options)
        .compare_with((!handwritten.is_empty()).then_some(handwritten.as_slice()));
    let (report, comparison): (Report, _) = match schema.check(&request) {
        Ok(verdict) => (verdict.report, verdict.shadow),
        Err(kubedv_core::declarative::Refusal::Update(why)) => return html! { <p class="bad">{ why }</p> },
    };
    if !report.diagnostics.is_empty() {
        return html! {
            <>
                <p class="bad">{ "The object does not decode into the types (the API server would reject it before validation):" }</p>
                <ul>{ for report.diagnostics.iter().map(|d| html! {
                    <li class="diag">{ goto(html! { { d.to_string() } }, d.field.as_deref().and_then(field_line), &to.object) }</li>
                }) }</ul>
                { warnings }
            </>
        };
    }
    let enforced: Vec<_> = report.errors.iter().filter(|e| e.enforced).collect();
    let shadowed: Vec<_> = report.errors.iter().filter(|e| !e.enforced).collect();
    let summary = if report.errors.is_empty() {
        "no errors: the API server accepts this object".to_string()
    } else {
        format!("{} returned by the API server, {} shadow-only", enforced.len(), shadowed.len())
    };
    html! {
        <>
            <p class={if report.errors.is_empty() { "ok" } else { "summary" }}>{ summary }</p>
            <ul class="errors">
                { for enforced.iter().map(|e| html! {
                    <li class="error enforced">{ goto(html! { { e.text() } }, field_line(&e.field), &to.object) }
                        <div class="meta">{ format!("{} · origin {} · {}", e.kind.name(), if e.origin.is_empty() { "-" } else { &e.origin }, stability(e.stability)) }</div>
                    </li>
                }) }
                { for shadowed.iter().map(|e| html! {
                    <li class="error shadowed">{ goto(html! { { format!("shadowed: {}", e.text()) } }, field_line(&e.field), &to.object) }
                        <div class="meta">{ format!("{} · {}", e.kind.name(), req.config.verdict(e).1) }</div>
                    </li>
                }) }
            </ul>
            if let Some(comparison) = comparison {
                <div id="shadow-result">
                    <p class="summary" id="shadow-summary">{ format!(
                        "shadow: {} matched, {} unmatched handwritten, {} extra declarative: the mismatch metric grows by {}; the API server returns {} error(s)",
                        comparison.matched.len(), comparison.unmatched_handwritten.len(), comparison.extra_declarative.len(),
                        comparison.mismatches, comparison.returned.len()
                    ) }</p>
                    <table class="shadow" id="shadow-table">
                        <thead><tr><th>{ "handwritten" }</th><th>{ "declarative" }</th><th>{ "verdict" }</th></tr></thead>
                        <tbody>
                            { for comparison.matched.iter().map(|m| html! {
                                <tr class="matched">
                                    <td>{ m.handwritten.error.text() }</td>
                                    <td>{ format!("{} ({})", m.declarative.text(), stability(m.declarative.stability)) }</td>
                                    <td>{ "matched" }</td>
                                </tr>
                            }) }
                            { for comparison.unmatched_handwritten.iter().map(|h| html! {
                                <tr class="unmatched">
                                    <td>{ h.error.text() }</td><td>{ "—" }</td>
                                    <td>{ "unmatched: covered, but no declarative error matches it (a mismatch)" }</td>
                                </tr>
                            }) }
                            { for comparison.extra_declarative.iter().map(|d| html! {
                                <tr class="extra">
                                    <td>{ "—" }</td><td>{ format!("{} ({})", d.text(), stability(d.stability)) }</td>
                                    <td>{ "extra: no covered handwritten error matches it (a mismatch)" }</td>
                                </tr>
                            }) }
                        </tbody>
                    </table>
                    <p class="summary">{ "The API server returns:" }</p>
                    <ol id="shadow-returned" class="errors">
                        { for comparison.returned.iter().map(|e| html! { <li>{ e.text() }</li> }) }
                    </ol>
                    <p class="summary">{ "Why, step by step:" }</p>
                    <ul class="warnings">{ for comparison.explanations.iter().map(|x| html! { <li class="diag">{ x.clone() }</li> }) }</ul>
                </div>
            }
            { warnings }
        </>
    }
}

fn stability(s: Stability) -> &'static str {
    match s {
        Stability::Alpha => "alpha",
        Stability::Beta => "beta",
        Stability::Stable => "stable",
    }
}

/// JSON, or YAML (the first document), read as the CLI and the npm package read it.
pub(crate) fn parse_object(text: &str) -> Result<serde_json::Value, String> {
    kubedv_input::document(text).map_err(|e| format!("object: {e}"))
}
