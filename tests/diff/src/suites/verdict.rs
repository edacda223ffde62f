//! The verdict on one API request, as compared: what the API server answered (its Status and
//! warnings) and what `kubedv check` says of the same documents (for the update of a custom
//! resource, what `kubedv crd --old` says: the CRD engine's update verdict).
//!
//! The compared shape: `{"errors": [...], "warnings": [...]}` (each sorted: the order of a
//! Status' causes follows Go map iteration in places, so order is not compared), or
//! `{"setup": [...]}` when a CRD the request needs was refused (its errors), or
//! `{"skipped": why}` when kubedv did not judge the document. A body refused before validation
//! (undecodable, or unknown fields under Strict) is compared as the Bad Request's message.
//! An error is `field: message` as the Status' cause gives it (Kubernetes' `field.Error`
//! text); a Status without causes gives its message.

use kubedv_input::manifests::{check_files, Checked, File, Options};
use serde_json::{json, Value};

/// The Kubernetes release the suites model.
pub const MINOR: u32 = 37;

/// The release's built-in kinds catalog (`catalog/1.37.gz`), as `kubedv check` loads it: the
/// CRDs of a request are judged as a built-in kind (apiextensions.k8s.io) of it.
fn catalog() -> &'static str {
    static CATALOG: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    CATALOG.get_or_init(|| {
        use std::io::Read;
        let path = crate::root().join(format!("catalog/1.{MINOR}.gz"));
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut text = String::new();
        flate2::read::GzDecoder::new(&bytes[..])
            .read_to_string(&mut text)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        text
    })
}

/// Texts sorted (the order of causes and warnings is not compared), as JSON.
pub(super) fn sorted(mut v: Vec<String>) -> Value {
    v.sort();
    json!(v)
}

fn status_texts(status: &Value) -> Vec<String> {
    if status.is_null() {
        return Vec::new();
    }
    match status["details"]["causes"].as_array() {
        Some(causes) if !causes.is_empty() => causes
            .iter()
            .map(|c| match c["field"].as_str() {
                Some(f) if !f.is_empty() => format!("{f}: {}", c["message"].as_str().unwrap_or_default()),
                _ => c["message"].as_str().unwrap_or_default().to_string(),
            })
            .collect(),
        _ => vec![status["message"].as_str().unwrap_or_default().to_string()],
    }
}

/// The API server's answer (`oracle apiserver`) in the compared shape.
pub fn oracle(answer: &Value) -> Value {
    if let Some(status) = answer.get("setupStatus") {
        return json!({"setup": sorted(status_texts(status))});
    }
    if let Some(e) = answer.get("setupError") {
        // No resource serves the object's kind and version: kubectl's REST mapping error
        // (apimachinery NoKindMatchError), which `kubedv check` gives as the document's refusal.
        if let Some(m) = e.as_str().and_then(|e| e.strip_prefix("no resource serves the object: ")) {
            if m.starts_with("no matches for kind ") {
                return json!({"errors": [m], "warnings": []});
            }
        }
        return json!({"setupError": e});
    }
    let warnings: Vec<String> =
        answer["warnings"].as_array().into_iter().flatten().filter_map(|w| w.as_str().map(String::from)).collect();
    json!({"errors": sorted(status_texts(&answer["status"])), "warnings": sorted(warnings)})
}

/// One request as `kubedv check` judges it: `setup` documents first (CRDs among them are
/// served), then `object`; with `old`, an update of it.
pub struct Request<'a> {
    /// The request's `fieldValidation`.
    pub field_validation: kubedv_core::check::FieldValidation,
    pub setup: &'a [Value],
    pub object: &'a Value,
    pub old: Option<&'a Value>,
    /// kubedv routes custom resources to the CRD catalog (`catalog/crds`) instead of being
    /// given the setup's CRDs (which the API server is given: the CRD the catalog routes to).
    pub crd_catalog: bool,
}

/// The committed CRD catalog (`catalog/crds/`), as the CLI embeds it.
pub fn crd_catalog_index() -> &'static kubedv_input::crd_catalog::Index {
    static INDEX: std::sync::OnceLock<kubedv_input::crd_catalog::Index> = std::sync::OnceLock::new();
    INDEX.get_or_init(|| {
        let path = crate::root().join("catalog/crds/index.txt");
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        kubedv_input::crd_catalog::Index::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    })
}

/// A project's file of the committed CRD catalog.
pub fn crd_catalog_project(name: &str) -> Result<String, String> {
    use std::io::Read;
    let path = crate::root().join(format!("catalog/crds/{name}.json.gz"));
    let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut text = String::new();
    flate2::read::GzDecoder::new(&bytes[..]).read_to_string(&mut text).map_err(|e| e.to_string())?;
    Ok(text)
}

fn texts(errors: &[kubedv_input::manifests::Located]) -> Vec<String> {
    errors.iter().filter(|e| e.error.enforced).map(|e| e.error.text()).collect()
}

fn judged(d: &Checked, update: bool) -> Value {
    // A body a checker judged undecodable is the API server's Bad Request: its message.
    if d.status == "unreadable" && d.checked_by.is_some() {
        let warnings = d.warnings.iter().map(|w| w.message.clone()).collect();
        return json!({"errors": [d.why.clone().unwrap_or_default()], "warnings": sorted(warnings)});
    }
    if d.status == "skipped" || d.status == "unreadable" {
        return json!({"skipped": d.why.clone().unwrap_or_default()});
    }
    // An update's verdict: every error of the update request.
    let errors = match update {
        true => d.update_verdict.iter().filter(|e| e.enforced).map(|e| e.text()).collect(),
        false => texts(&d.errors),
    };
    let warnings = d.warnings.iter().map(|w| w.message.clone()).collect();
    json!({"errors": sorted(errors), "warnings": sorted(warnings)})
}

pub fn kubedv(r: &Request<'_>) -> Value {
    // An update's old object is created for real first (a POST without `fieldValidation`: the
    // API server's default, Warn): refused, the request is not sent. (A custom resource's old
    // object the CRD refuses is stored under a permissive copy of it instead.)
    let custom = r.setup.iter().any(kubedv_input::manifests::is_crd);
    if let (Some(old), false) = (r.old, custom) {
        let warn = kubedv_core::check::FieldValidation::Warn;
        let create =
            Request { field_validation: warn, setup: r.setup, object: old, old: None, crd_catalog: r.crd_catalog };
        let first = kubedv(&create);
        match first.get("errors").and_then(Value::as_array) {
            Some(errors) if !errors.is_empty() => return json!({"setup": first["errors"].clone()}),
            _ => {}
        }
    }
    let setup: Vec<&Value> =
        r.setup.iter().filter(|d| !(r.crd_catalog && kubedv_input::manifests::is_crd(d))).collect();
    let mut bodies: Vec<String> = setup.iter().map(|d| d.to_string()).collect();
    bodies.push(r.object.to_string());
    let paths: Vec<String> = (0..bodies.len()).map(|i| format!("doc{i}.json")).collect();
    let files: Vec<File<'_>> = paths.iter().zip(&bodies).map(|(path, text)| File { path, text }).collect();
    let old_text = r.old.map(Value::to_string);
    let options = Options {
        minor: MINOR,
        strict: false,
        field_validation: r.field_validation,
        crds: Vec::new(),
        types: Vec::new(),
        old: old_text.as_deref().map(|text| File { path: "old.json", text }).into_iter().collect(),
        catalog: Some(catalog()),
        crd_catalog: r.crd_catalog.then(|| kubedv_input::manifests::CrdCatalog {
            index: crd_catalog_index(),
            pins: &[],
            load: &crd_catalog_project,
        }),
    };
    let outcome = match check_files(&files, &options) {
        Ok(o) => o,
        Err(e) => return json!({"refused": e.0}),
    };
    for d in &outcome.documents[..outcome.documents.len() - 1] {
        let errors = texts(&d.errors);
        if !errors.is_empty() {
            return json!({"setup": sorted(errors)});
        }
    }
    let last = outcome.documents.last().expect("the request's document");
    match (r.old, r.setup.iter().rev().find(|d| kubedv_input::manifests::is_crd(d))) {
        // An update of a custom resource: the API server's verdict on the update is the CRD
        // engine's (`kubedv crd --old`); `kubedv check --old` reports the create's errors and,
        // apart, the errors only the update gives, without the update's warnings.
        (Some(old), Some(crd)) if last.checked_by == Some("crd") => update_verdict(crd, r.object, old),
        _ => judged(last, r.old.is_some()),
    }
}

fn update_verdict(crd: &Value, object: &Value, old: &Value) -> Value {
    let version = object["apiVersion"].as_str().and_then(|a| a.rsplit_once('/')).map(|(_, v)| v);
    let crd = match kubedv_core::crd::Crd::load_at(crd, version, MINOR) {
        Ok(c) => c,
        Err(errors) => return json!({"setup": sorted(errors.iter().map(|e| e.text()).collect())}),
    };
    let outcome = crd.check(object, Some(old), &kubedv_core::crd::Options::default());
    if let Some(refusal) = outcome.refusal {
        return json!({"errors": [refusal], "warnings": []});
    }
    let errors = outcome.errors.iter().filter(|e| e.enforced).map(|e| e.text()).collect();
    json!({"errors": sorted(errors), "warnings": sorted(outcome.warnings)})
}
