//! `crd-corpus`: every released CRD of `tests/corpus/crds`, created (server-side dry run), as
//! `kubedv check` judges it. `crd-objects`: the corpus' custom resources
//! (`tests/corpus/crds/objects`), each created under its CRD (made for real first); a file
//! named `*-update.yaml` replaces the object of the `*-valid.yaml` beside it.

use serde_json::{json, Value};

use super::files;
use super::verdict::{self, Request};
use crate::{Case, Item, Suite};

pub const CORPUS: Suite = Suite {
    name: "crd-corpus",
    mode: "apiserver",
    about: "every released CRD of tests/corpus/crds created: refusals and warnings",
    cases: corpus_cases,
    items: request_items,
};

pub const CATALOG: Suite = Suite {
    name: "crd-catalog",
    mode: "apiserver",
    about: "every CRD of the ecosystem catalog (crds/catalog) created: refusals and warnings",
    cases: catalog_cases,
    items: request_items,
};

pub const CATALOG_OBJECTS: Suite = Suite {
    name: "crd-catalog-objects",
    mode: "apiserver",
    about: "real custom resources of the catalog's projects (tests/corpus/crd-catalog-objects): kubedv routes each to the CRD catalog, the API server gets that CRD created first",
    cases: catalog_object_cases,
    items: request_items,
};

pub const OBJECTS: Suite = Suite {
    name: "crd-objects",
    mode: "apiserver",
    about: "the custom resources of tests/corpus/crds/objects created (or updated) under their CRD",
    cases: object_cases,
    items: request_items,
};

/// The documents of a YAML file, as kubedv reads them.
fn documents(text: &str) -> Result<Vec<Value>, String> {
    kubedv_input::documents(text).map_err(|e| e.to_string())
}

/// The corpus' CRDs: (file, index, CRD).
fn corpus() -> Result<Vec<(String, usize, Value)>, String> {
    let mut out = Vec::new();
    for (path, text) in files(&["tests/corpus/crds"], &[".yaml"])? {
        if path.contains("/objects/") {
            continue;
        }
        for (i, d) in documents(&text).map_err(|e| format!("{path}: {e}"))?.into_iter().enumerate() {
            if kubedv_input::manifests::is_crd(&d) {
                out.push((path.clone(), i, d));
            }
        }
    }
    Ok(out)
}

/// The catalog's CRDs, each file once (a release often repeats the one before byte for byte:
/// the first path in sorted order names it).
fn catalog_cases() -> Result<Vec<Case>, String> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for (path, text) in files(&["crds/catalog"], &[".yaml", ".yml"])? {
        if !seen.insert(text.clone()) {
            continue;
        }
        for (i, d) in documents(&text).map_err(|e| format!("{path}: {e}"))?.into_iter().enumerate() {
            if kubedv_input::manifests::is_crd(&d) {
                out.push(Case { id: format!("{path}#{i}"), input: json!({"object": d, "fieldValidation": "Warn"}) });
            }
        }
    }
    Ok(out)
}

/// The corpus of real custom resources (`tests/corpus/crd-catalog-objects/<project>/`) and
/// targeted mistakes (`tests/oracle/cases/crd-catalog/`): every custom resource the CRD catalog serves, as a
/// create under `kubedv check`'s defaults (fieldValidation Strict, as `kubectl apply`). The API
/// server is given the raw CRD (`crds/catalog/<project>/<release>/`) of the release the catalog
/// routes to; kubedv routes by itself (the case says `crdCatalog`).
fn catalog_object_cases() -> Result<Vec<Case>, String> {
    let index = super::verdict::crd_catalog_index();
    let mut raw: std::collections::BTreeMap<(String, String), Vec<Value>> = Default::default();
    let mut out = Vec::new();
    for (path, text) in
        files(&["tests/corpus/crd-catalog-objects", "tests/oracle/cases/crd-catalog"], &[".yaml", ".yml", ".json"])?
    {
        // A file kubedv cannot read is the `yaml` suite's difference (which reads every corpus
        // file as kubectl does), not this suite's.
        let Ok(docs) = documents(&text) else { continue };
        for (i, object) in docs.into_iter().enumerate() {
            let api_version = object["apiVersion"].as_str().unwrap_or_default();
            let Some((group, version)) = api_version.split_once('/') else { continue };
            let kind = object["kind"].as_str().unwrap_or_default();
            let Some(row) = index.route(group, version, kind, &[]) else { continue };
            let release = raw.entry((row.project.clone(), row.release.clone())).or_insert_with(|| {
                let dir = format!("crds/catalog/{}/{}", row.project, row.release);
                files(&[dir.as_str()], &[".yaml", ".yml"])
                    .unwrap_or_default()
                    .iter()
                    .flat_map(|(_, t)| documents(t).unwrap_or_default())
                    .filter(kubedv_input::manifests::is_crd)
                    .collect()
            });
            let Some(crd) = release.iter().find(|c| c["spec"]["group"] == group && c["spec"]["names"]["kind"] == kind)
            else {
                return Err(format!("{path}: no raw CRD of {} serves {group} {kind}", row.source()));
            };
            let input = json!({"setup": [crd], "object": object, "fieldValidation": "Strict", "crdCatalog": true});
            out.push(Case { id: format!("{path}#{i}"), input });
        }
    }
    Ok(out)
}

fn corpus_cases() -> Result<Vec<Case>, String> {
    Ok(corpus()?
        .into_iter()
        .map(|(path, i, crd)| Case {
            id: format!("{path}#{i}"),
            input: json!({"object": crd, "fieldValidation": "Warn"}),
        })
        .collect())
}

/// The CRD serving an object's group and kind: a standard channel's before an experimental one.
fn crd_for<'a>(crds: &'a [(String, usize, Value)], object: &Value) -> Option<&'a Value> {
    let api_version = object["apiVersion"].as_str().unwrap_or_default();
    let group = api_version.rsplit_once('/').map_or("", |(g, _)| g);
    let kind = object["kind"].as_str().unwrap_or_default();
    let mut matching = crds
        .iter()
        .filter(|(_, _, c)| c["spec"]["group"] == group && c["spec"]["names"]["kind"] == kind)
        .collect::<Vec<_>>();
    matching.sort_by_key(|(path, _, _)| path.contains("experimental"));
    matching.first().map(|(_, _, c)| c)
}

fn object_cases() -> Result<Vec<Case>, String> {
    let crds = corpus()?;
    let mut out = Vec::new();
    for (path, text) in files(&["tests/corpus/crds/objects"], &[".yaml"])? {
        let old = match path.strip_suffix("-update.yaml") {
            Some(stem) => {
                let text = std::fs::read_to_string(crate::root().join(format!("{stem}-valid.yaml")))
                    .map_err(|e| format!("{stem}-valid.yaml: {e}"))?;
                documents(&text)?.into_iter().next()
            }
            None => None,
        };
        for (i, object) in documents(&text).map_err(|e| format!("{path}: {e}"))?.into_iter().enumerate() {
            let Some(crd) = crd_for(&crds, &object) else {
                return Err(format!("{path}: no CRD of the corpus serves {} {}", object["apiVersion"], object["kind"]));
            };
            let mut input = json!({"setup": [crd], "object": object, "fieldValidation": "Warn"});
            if let Some(old) = &old {
                input["old"] = old.clone();
            }
            out.push(Case { id: format!("{path}#{i}"), input });
        }
    }
    Ok(out)
}

/// One API request's verdict: kubedv's against the API server's.
pub fn request_items(case: &Case, answer: &Value) -> Vec<Item> {
    let input = &case.input;
    let setup: Vec<Value> = input["setup"].as_array().cloned().unwrap_or_default();
    // The oracle's default is Strict, as kubectl's.
    let field_validation =
        kubedv_core::check::FieldValidation::parse(input["fieldValidation"].as_str().unwrap_or("Strict"))
            .unwrap_or_default();
    let request = Request {
        field_validation,
        setup: &setup,
        object: &input["object"],
        old: input.get("old"),
        crd_catalog: input["crdCatalog"].as_bool() == Some(true),
    };
    vec![Item { id: case.id.clone(), kubedv: verdict::kubedv(&request), oracle: verdict::oracle(answer) }]
}
