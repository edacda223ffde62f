//! `builtin`: built-in kinds kubedv models whole ([`kubedv_core::apis`]) created through the
//! API server: the real projects' manifests of `tests/corpus/manifests` and the targeted cases
//! of `tests/oracle/cases/builtin` (each document of a file is one request; a file named
//! `X-update.yaml` replaces, document by document, the objects of `X.old` beside it, which the
//! oracle stores for real first).
//! Documents of other kinds in the same files are left out (issue 43 models them).

use serde_json::{json, Value};

use super::crds::request_items;
use super::files;
use crate::{Case, Suite};

pub const SUITE: Suite = Suite {
    name: "builtin",
    mode: "apiserver",
    about: "built-in kinds of real manifests and targeted cases, created (and updated) through the API server",
    cases,
    items: request_items,
};

/// A document of a kind kubedv models whole, in a version 1.37 serves (a removed version is
/// the lifecycle's to judge: the API server's client finds no resource for it).
pub fn modeled(doc: &Value) -> bool {
    let api_version = doc["apiVersion"].as_str().unwrap_or_default();
    let (group, version) = api_version.rsplit_once('/').unwrap_or(("", api_version));
    let kind = doc["kind"].as_str().unwrap_or_default();
    let removed = kubedv_core::lifecycle::lookup(group, version, kind)
        .and_then(|api| api.status(super::verdict::MINOR))
        .is_some_and(|s| matches!(s, kubedv_core::lifecycle::Status::Removed(_)));
    kubedv_core::apis::handles(group, kind) && !removed
}

/// A document's items when it is a `List`, else the document.
fn expand(doc: Value) -> Vec<Value> {
    match kubedv_core::check::list_items(&doc) {
        Some(items) => items.to_vec(),
        None => vec![doc],
    }
}

fn cases() -> Result<Vec<Case>, String> {
    cases_in(&["tests/corpus/manifests", "tests/oracle/cases/builtin"])
}

/// The requests of the manifest files under `roots` (directories or files, relative to the
/// repository's root), made as this suite makes them.
pub fn cases_in(roots: &[&str]) -> Result<Vec<Case>, String> {
    let mut out = Vec::new();
    for (path, text) in files(roots, &[".yaml", ".yml", ".json"])? {
        let Ok(docs) = kubedv_input::documents(&text) else {
            // A file kubedv cannot read is the yaml suite's to compare.
            continue;
        };
        let docs: Vec<Value> = docs.into_iter().flat_map(expand).collect();
        let olds: Vec<Value> = match path.strip_suffix("-update.yaml") {
            Some(stem) => {
                let text = std::fs::read_to_string(crate::root().join(format!("{stem}.old")))
                    .map_err(|e| format!("{stem}.old: {e}"))?;
                kubedv_input::documents(&text)
                    .map_err(|e| format!("{stem}.old: {e}"))?
                    .into_iter()
                    .flat_map(expand)
                    .collect()
            }
            None => Vec::new(),
        };
        for (i, object) in docs.into_iter().enumerate() {
            if !modeled(&object) {
                continue;
            }
            // `strict.yaml`: sent as `kubectl apply` sends requests; the others as API clients do.
            let validation = if path.ends_with("/strict.yaml") { "Strict" } else { "Warn" };
            let mut input = json!({"object": object, "fieldValidation": validation});
            if let Some(old) = olds.get(i) {
                input["old"] = old.clone();
            }
            out.push(Case { id: format!("{path}#{i}"), input });
        }
    }
    Ok(out)
}
