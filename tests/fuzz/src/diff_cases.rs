//! `kubedv-fuzz cases PATH N SEED`: the structured generators' inputs as the oracle's cases
//! (JSON lines), for the differential fuzzer (`cargo xtask fuzz-diff`): kubedv and Kubernetes
//! answer each, `kubedv-diff judge` compares them.
//!
//! - `yaml`: mutated manifest streams (the `yaml` round's), read as kubectl reads a file;
//! - `crd`: a random schema under `spec`, or a released CRD mutated, made for real, then an
//!   object drawn from the schema created (or an update of another) — the API server's
//!   verdict on both;
//! - `go`: a mutated table's Go types and random objects, through validation-gen's code;
//! - `cel`: an expression of the CEL conformance tests or of apiserver's CEL library tests
//!   (`tests/corpus/cel`), mutated with CEL tokens three times in four, with a random `self`
//!   half the time, compiled, estimated and evaluated in Kubernetes' CEL environment as a CRD
//!   rule's (`oracle cel`);
//! - `policy`: the CLI's example admission policies (validating with params and three
//!   bindings; mutating), mutated three times in four with policy tokens, created with the
//!   params' CRD and a namespace labelled `environment: test`, `production` or nothing, then a
//!   Deployment created or updated in it (`oracle apiserver`, which waits for the policies);
//! - `builtin`: built-in objects of the modeled kinds, mutated, created or updated
//!   ([`crate::builtin_cases`]); `builtin-ROOM` one API group's (the rooms of
//!   `kubedv_core::apis`: `builtin-core`, `builtin-apps`, `builtin-networking`...).
//!
//! Each case has a group of its own (`fN.fuzz.oracle.kubedv.dev`) so cases never share a CRD.

use kubedv_core::declarative::Schema;
use serde_json::{json, Value};

use crate::cel_round::{cel_seeds, CEL_TOKENS};
use crate::crd_round::{random_schema, real_crds, sample};
use crate::manifest_round::{MANIFESTS, YAML_TOKENS};
use crate::{mutate, mutate_with, random_json, seeds, Rng};

pub(crate) const DIFF_PATHS: &[&str] = &["yaml", "crd", "go", "cel", "policy", "builtin", "builtin-ROOM"];

pub(crate) fn cases(path: &str, n: usize, seed: u64) -> Result<Vec<Value>, String> {
    let mut rng = Rng::seeded(seed);
    let mut out = Vec::with_capacity(n);
    match path {
        "yaml" => {
            for i in 0..n {
                let base = MANIFESTS[rng.below(MANIFESTS.len())];
                out.push(json!({"id": format!("{seed}-{i}"), "text": mutate_with(&mut rng, base, YAML_TOKENS)}));
            }
        }
        "crd" => {
            let real = real_crds();
            for i in 0..n {
                let mut c = crd_case(&mut rng, &real, &format!("f{i}.fuzz.oracle.kubedv.dev"));
                c["id"] = json!(format!("{seed}-{i}"));
                out.push(c);
            }
        }
        "cel" => {
            let seeds = cel_diff_seeds()?;
            for i in 0..n {
                let base = &seeds[rng.below(seeds.len())];
                let expr = if rng.below(4) == 0 { base.clone() } else { mutate_with(&mut rng, base, CEL_TOKENS) };
                let mut c = json!({"id": format!("{seed}-{i}"), "expr": expr});
                if rng.below(2) == 0 {
                    c["self"] = random_json(&mut rng, 0);
                }
                out.push(c);
            }
        }
        "policy" => {
            let crd_path =
                std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../oracle/cases/policy/replicalimit-crd.yaml");
            let crd_text = std::fs::read_to_string(&crd_path).map_err(|e| format!("{}: {e}", crd_path.display()))?;
            let crd = kubedv_input::documents(&crd_text).map_err(|e| e.to_string())?.remove(0);
            let mut i = 0;
            while out.len() < n {
                if let Some(mut c) = policy_case(&mut rng, &crd) {
                    c["id"] = json!(format!("{seed}-{i}"));
                    out.push(c);
                }
                i += 1;
            }
        }
        "go" => {
            let corpus = seeds();
            let mut i = 0;
            while out.len() < n {
                let base = &corpus[rng.below(corpus.len())];
                let src = mutate(&mut rng, base);
                let schema = Schema::compile(&src);
                let root = match schema.root_candidates().as_slice() {
                    [one] => one.to_string(),
                    _ => continue,
                };
                let (a, b) = (random_json(&mut rng, 0), random_json(&mut rng, 0));
                out.push(json!({
                    "id": format!("{seed}-{i}"),
                    "types": src,
                    "root": root,
                    "cases": [
                        {"object": a, "old": null, "options": ["X"], "subresource": ""},
                        {"object": b, "old": a, "options": [], "subresource": ""},
                    ],
                    "names": ["create", "update"],
                    "defaults": false,
                }));
                i += 1;
            }
        }
        _ if path == "builtin" || path.starts_with("builtin-") => {
            let group = match path.strip_prefix("builtin-") {
                None => None,
                Some(name) => Some(
                    kubedv_core::apis::rooms()
                        .find(|r| r.0 == name)
                        .map(|r| r.1)
                        .ok_or_else(|| format!("no room {name:?} in kubedv_core::apis"))?,
                ),
            };
            let bases = crate::builtin_cases::bases(group);
            if bases.is_empty() {
                return Err(String::from("no built-in objects under tests/corpus/manifests"));
            }
            for i in 0..n {
                let mut c = crate::builtin_cases::case(&mut rng, &bases, i);
                c["id"] = json!(format!("{seed}-{i}"));
                out.push(c);
            }
        }
        _ => return Err(format!("no differential path {path:?}; the paths are {}", DIFF_PATHS.join(", "))),
    }
    Ok(out)
}

/// A policy case, or `None` when the mutated stream is not documents the API server can be
/// asked to create (unreadable, or a document without a name, or of another kind or version).
fn policy_case(rng: &mut Rng, crd: &Value) -> Option<Value> {
    use crate::policy_round::{POLICIES, POLICY_TOKENS};
    let base = POLICIES[rng.below(POLICIES.len())];
    let text = if rng.below(4) == 0 { String::from(base) } else { mutate_with(rng, base, POLICY_TOKENS) };
    let docs = kubedv_input::documents(&text).ok()?;
    let known = [
        "ValidatingAdmissionPolicy",
        "ValidatingAdmissionPolicyBinding",
        "MutatingAdmissionPolicy",
        "MutatingAdmissionPolicyBinding",
        "ReplicaLimit",
    ];
    // A version no API server serves is refused before any policy rule runs: not asked.
    let served = [
        "admissionregistration.k8s.io/v1",
        "admissionregistration.k8s.io/v1beta1",
        "admissionregistration.k8s.io/v1alpha1",
        "rules.example.com/v1",
    ];
    let well_formed = |d: &Value| {
        d["apiVersion"].as_str().is_some_and(|v| served.contains(&v))
            && d["metadata"]["name"].as_str().is_some_and(|n| !n.is_empty())
            && d["kind"].as_str().is_some_and(|k| known.contains(&k))
    };
    if docs.is_empty() || !docs.iter().all(well_formed) {
        return None;
    }
    let (policies, params): (Vec<Value>, Vec<Value>) =
        docs.into_iter().partition(kubedv_core::policy::is_policy_document);
    let (ns, labels) = match rng.below(3) {
        0 => ("policy-fuzz-test", json!({"environment": "test"})),
        1 => ("policy-fuzz-production", json!({"environment": "production"})),
        _ => ("policy-fuzz-none", json!({})),
    };
    let namespace = json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns, "labels": labels}});
    let deployment = |rng: &mut Rng| {
        let mut meta = json!({"name": "web", "namespace": ns});
        if rng.below(2) == 0 {
            let environment = ["test", "production", "x"][rng.below(3)];
            meta["labels"] = json!({ "environment": environment });
        }
        json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": meta,
            "spec": {"replicas": rng.below(200), "selector": {"matchLabels": {"app": "web"}},
                "template": {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "web", "image": "nginx"}]}}}})
    };
    let mut setup = vec![crd.clone(), namespace];
    setup.extend(params);
    setup.extend(policies);
    let mut case = json!({"setup": setup, "object": deployment(rng), "fieldValidation": "Strict"});
    if rng.below(3) == 0 {
        case["old"] = deployment(rng);
    }
    Some(case)
}

/// The `cel` path's seeds: the conformance tests' expressions and apiserver's CEL library
/// tests' (`tests/corpus/cel/apiserver-library.jsonl`).
fn cel_diff_seeds() -> Result<Vec<String>, String> {
    let mut seeds = cel_seeds();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/cel/apiserver-library.jsonl");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let v: Value = serde_json::from_str(line).map_err(|e| format!("{}: {e}", path.display()))?;
        seeds.extend(v["expr"].as_str().map(String::from));
    }
    Ok(seeds)
}

/// A CRD in `group` and a request for one of its objects: half the time a random schema under
/// `spec`, else a released CRD, its schema sometimes mutated.
fn crd_case(rng: &mut Rng, real: &[Value], group: &str) -> Value {
    let (mut doc, version) = if rng.below(2) == 0 {
        let root = json!({"type": "object", "properties": {"spec": random_schema(rng, 0)}});
        let doc = json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition", "metadata": {"name": ""},
            "spec": {"group": "", "scope": "Namespaced", "names": {"kind": "W", "plural": "ws"},
                "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": root}}]}});
        (doc, 0)
    } else {
        let mut doc = real[rng.below(real.len())].clone();
        let versions = doc["spec"]["versions"].as_array().map_or(0, Vec::len);
        let v = rng.below(versions.max(1));
        if rng.below(2) == 0 {
            crate::crd_round::mutate_schema(rng, &mut doc["spec"]["versions"][v]["schema"]["openAPIV3Schema"], 0);
        }
        (doc, v)
    };
    let plural = doc["spec"]["names"]["plural"].as_str().unwrap_or("ws").to_string();
    doc["metadata"] = json!({"name": format!("{plural}.{group}")});
    doc["spec"]["group"] = json!(group);
    let schema = doc["spec"]["versions"][version]["schema"]["openAPIV3Schema"].clone();
    let name = doc["spec"]["versions"][version]["name"].as_str().unwrap_or("v1").to_string();
    let kind = doc["spec"]["names"]["kind"].as_str().unwrap_or("W").to_string();
    let object = |rng: &mut Rng| {
        let mut o = sample(rng, &schema, 0);
        if !o.is_object() {
            o = json!({});
        }
        o["apiVersion"] = json!(format!("{group}/{name}"));
        o["kind"] = json!(kind);
        o["metadata"] = json!({"name": "x", "namespace": "fuzz"});
        o
    };
    let mut case = json!({"setup": [doc], "object": object(rng), "fieldValidation": "Warn"});
    if rng.below(3) == 0 {
        case["old"] = object(rng);
    }
    case
}
