//! `policy`: admission policies in the real API server. Each case of the policy test suites in
//! `tests/oracle/cases/policy` and `cli/tests/fixtures/policy` (the format `kubedv policy test`
//! runs, `kubedv_core::policy::suite`; the policies are the Kubernetes documentation's,
//! `tests/corpus/policies`, its integration test's, and the CLI's examples) that creates or
//! updates an object is one request: the
//! API server is given the suite's CRDs, the case's namespace, the params, the policies and
//! their bindings, waits until its admission plugins act on them, and is sent the case's object
//! (an update of its `oldObject` when there is one) as a server-side dry run; kubedv is given
//! the same documents and request as `kubedv policy` is, and `kubedv check`'s verdict on the
//! object the mutating policies made (validation runs between mutating and validating
//! admission). The suite's own `expect` is `kubedv policy test`'s business, not compared here.
//!
//! The request comes from the oracle's user (`kubedv-oracle` in `system:masters`, whom the
//! authorizer allows everything) as a dry run. The compared shape: `{"denied": {message,
//! reason, code}}` for a Status without causes (an admission policy's denial),
//! `{"errors": [...]}` (sorted causes) for validation's refusal, or `{"allowed": true}`; with
//! the warnings (sorted), and, when a mutating policy is set up, the object the API server
//! returned, in the shape of kubedv's mutated object ([`project`]: what defaulting adds is not
//! compared, what the policies made is). `{"setup": [...]}` when a policy or binding is
//! refused; kubedv's `{"unsupported": [...]}` when it says it cannot evaluate the request.

use kubedv_core::cel::k8s::authz::Rule;
use kubedv_core::policy::{cluster_scoped, is_policy_document, PolicySet, Request, UserInfo};
use serde_json::{json, Value};

use super::files;
use super::verdict::{self, sorted, MINOR};
use crate::{Case, Item, Suite};

pub const SUITE: Suite = Suite {
    name: "policy",
    mode: "apiserver",
    about:
        "admission policies (the Kubernetes documentation's) and requests, through the API server's admission plugins",
    cases,
    items,
};

const DIR: &str = "tests/oracle/cases/policy";

fn read(path: &str) -> Result<Vec<Value>, String> {
    let text = std::fs::read_to_string(crate::root().join(path)).map_err(|e| format!("{path}: {e}"))?;
    kubedv_input::documents(&text).map_err(|e| format!("{path}: {e}"))
}

/// `dir/name`, with `..` segments resolved (the suites name files relative to themselves).
fn join(dir: &str, name: &str) -> String {
    let mut parts: Vec<&str> = dir.split('/').collect();
    for seg in name.split('/') {
        match seg {
            ".." => {
                parts.pop();
            }
            "." => {}
            s => parts.push(s),
        }
    }
    parts.join("/")
}

fn file_docs(suite: &Value, key: &str, dir: &str) -> Result<Vec<Value>, String> {
    let mut out = Vec::new();
    for f in suite[key].as_array().into_iter().flatten() {
        let name = f.as_str().ok_or_else(|| format!("{key}: expected file names"))?;
        out.extend(read(&join(dir, name))?);
    }
    Ok(out)
}

fn kind(doc: &Value) -> &str {
    doc["kind"].as_str().unwrap_or_default()
}

/// A CRD for each custom param kind the documents use without giving its CRD (the CLI's
/// examples give `kubedv policy` none): any content kept, namespaced when the params name a
/// namespace, the resource named as kubedv guesses it.
fn param_crds(docs: &[Value]) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::new();
    for d in docs {
        let (group, version) = d["apiVersion"].as_str().unwrap_or_default().rsplit_once('/').unwrap_or_default();
        let k = kind(d);
        let has_crd = |c: &Value| c["spec"]["group"] == group && c["spec"]["names"]["kind"] == k;
        if !group.contains('.') || is_policy_document(d) || docs.iter().chain(&out).any(has_crd) {
            continue;
        }
        let plural = kubedv_core::policy::resource_of(k);
        let scope = if d["metadata"]["namespace"].is_string() { "Namespaced" } else { "Cluster" };
        out.push(json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": format!("{plural}.{group}")},
            "spec": {"group": group, "scope": scope, "names": {"kind": k, "plural": plural},
                "versions": [{"name": version, "served": true, "storage": true,
                    "schema": {"openAPIV3Schema": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}]}}));
    }
    out
}

fn cases() -> Result<Vec<Case>, String> {
    let mut out = Vec::new();
    for (path, _) in files(&[DIR, "cli/tests/fixtures/policy"], &[".yaml", ".json"])? {
        let suite = read(&path)?.into_iter().next().unwrap_or(Value::Null);
        let Some(list) = suite["cases"].as_array() else {
            // A file the suites name (a CRD, a namespace, a binding), not a suite.
            continue;
        };
        let dir = path.rsplit_once('/').map_or(DIR, |(d, _)| d);
        let mut policies = file_docs(&suite, "policies", dir)?;
        policies.extend(file_docs(&suite, "params", dir)?);
        policies.extend(param_crds(&policies));
        // Created in this order: CRDs (the param kinds), params, then policies and bindings.
        let crds = policies.iter().filter(|d| kubedv_input::manifests::is_crd(d));
        let params = policies.iter().filter(|d| !kubedv_input::manifests::is_crd(d) && !is_policy_document(d));
        // (`is_policy_document` counts a CRD in: `kubedv policy` reads their schemas.)
        let admission = policies.iter().filter(|d| is_policy_document(d) && !kubedv_input::manifests::is_crd(d));
        for (i, c) in list.iter().enumerate() {
            // A case's object, old object and namespace, given or in a file beside the suite.
            let doc = |key: &str| -> Result<Value, String> {
                match c[format!("{key}File")].as_str() {
                    Some(f) => Ok(read(&join(dir, f))?.into_iter().next().unwrap_or(Value::Null)),
                    None => Ok(c[key].clone()),
                }
            };
            let (object, old, namespace) = (doc("object")?, doc("oldObject")?, doc("namespaceObject")?);
            if object.is_null() {
                // A DELETE (or CONNECT): the oracle sends creates and updates only.
                continue;
            }
            let mut setup: Vec<Value> = crds.clone().cloned().collect();
            if !namespace.is_null() {
                setup.push(namespace);
            }
            setup.extend(params.clone().cloned());
            setup.extend(c["params"].as_array().into_iter().flatten().cloned());
            setup.extend(admission.clone().cloned());
            let mut input = json!({"setup": setup, "object": object, "fieldValidation": "Strict"});
            if !old.is_null() {
                input["old"] = old;
            }
            let name = c["name"].as_str().unwrap_or_default();
            out.push(Case { id: format!("{path}#{i} {name}"), input });
        }
    }
    Ok(out)
}

/// Drops what a run makes up from a returned object's metadata.
fn without_run_fields(mut obj: Value) -> Value {
    if let Some(m) = obj.get_mut("metadata").and_then(Value::as_object_mut) {
        for k in ["uid", "resourceVersion", "creationTimestamp", "generation", "managedFields"] {
            m.remove(k);
        }
    }
    obj
}

/// The oracle's answer in the compared shape.
fn oracle(answer: &Value, mutating: bool) -> Value {
    if answer.get("setupStatus").is_some() || answer.get("setupError").is_some() {
        return verdict::oracle(answer);
    }
    let warnings: Vec<String> =
        answer["warnings"].as_array().into_iter().flatten().filter_map(|w| w.as_str().map(String::from)).collect();
    let status = &answer["status"];
    // An admission policy's denial is a Status whose one cause is the message without the
    // resource's prefix (no field); validation's has a cause per field error.
    let causes = status["details"]["causes"].as_array().map_or(&[][..], Vec::as_slice);
    let mut out = match causes {
        _ if status.is_null() => json!({"allowed": true}),
        [] | [_] if causes.iter().all(|c| c["field"].as_str().unwrap_or_default().is_empty()) => {
            json!({"denied": {"message": status["message"], "reason": status["reason"], "code": status["code"]}})
        }
        _ => json!({"errors": verdict::oracle(answer)["errors"]}),
    };
    out["warnings"] = sorted(warnings);
    if mutating && status.is_null() {
        out["object"] = without_run_fields(answer["object"].clone());
    }
    out
}

/// The namespace object of the request: the case's (setup) or the `default` namespace, as the
/// API server stores it (defaulted: its `kubernetes.io/metadata.name` label).
fn namespace_object(setup: &[Value], name: &str) -> Value {
    let mut ns = setup
        .iter()
        .find(|d| kind(d) == "Namespace" && d["metadata"]["name"] == name)
        .cloned()
        .unwrap_or_else(|| json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name}}));
    kubedv_core::apis::default("", "v1", "Namespace", &mut ns);
    ns
}

fn kubedv(input: &Value) -> Value {
    let setup: Vec<Value> = input["setup"].as_array().cloned().unwrap_or_default();
    let object = &input["object"];
    let old = input.get("old");
    let policies: Vec<Value> =
        setup.iter().filter(|d| is_policy_document(d) || kubedv_input::manifests::is_crd(d)).cloned().collect();
    let params: Vec<Value> = setup
        .iter()
        .filter(|d| !is_policy_document(d) && !kubedv_input::manifests::is_crd(d) && kind(d) != "Namespace")
        .cloned()
        .collect();
    let ns = object["metadata"]["namespace"].as_str().unwrap_or("default");
    let mut request = Request {
        operation: String::from(if old.is_some() { "UPDATE" } else { "CREATE" }),
        user: UserInfo {
            username: String::from("kubedv-oracle"),
            uid: String::from("kubedv-oracle"),
            groups: vec![String::from("system:masters"), String::from("system:authenticated")],
            ..UserInfo::default()
        },
        dry_run: true,
        object: Some(object.clone()),
        old_object: old.cloned(),
        // A cluster-scoped object's request has none.
        namespace_object: (!cluster_scoped(kind(object))).then(|| namespace_object(&setup, ns)),
        ..Request::default()
    };
    request.infer();
    let set = PolicySet::new_at(&policies, MINOR);
    // A param the API server refuses to store (created before the policies, as `kubedv check`
    // judges it under its CRD; a POST without `fieldValidation`: Warn): the setup stops there.
    let crds: Vec<Value> = setup.iter().filter(|d| kubedv_input::manifests::is_crd(d)).cloned().collect();
    for param in &params {
        let warn = kubedv_core::check::FieldValidation::Warn;
        let request =
            verdict::Request { field_validation: warn, setup: &crds, object: param, old: None, crd_catalog: false };
        let judged = verdict::kubedv(&request);
        if judged["errors"].as_array().is_some_and(|e| !e.is_empty()) {
            return json!({"setup": judged["errors"]});
        }
    }
    // A policy or binding the API server refuses: the setup stops there, with its errors (the
    // first refused document in the order they are created).
    for doc in setup.iter().filter(|d| is_policy_document(d)) {
        let name = serde_json::to_string(&doc["metadata"]["name"]).unwrap_or_default();
        let label = format!("{} {name}", kind(doc));
        let refused: Vec<String> = set
            .problems
            .iter()
            .filter(|p| p.severity == kubedv_core::diag::Severity::Error)
            .filter(|p| p.document == label || p.document == kind(doc))
            .map(|p| if p.field.is_empty() { p.message.clone() } else { format!("{}: {}", p.field, p.message) })
            .collect();
        if !refused.is_empty() {
            return json!({"setup": sorted(refused)});
        }
    }
    // system:masters: every resource check and every path allowed.
    let any_path = Rule { path: Some(String::from("*")), ..Rule::default() };
    let allow_all = [Rule::default(), any_path];
    let outcome = set.evaluate(&request, &params, &allow_all);
    if !outcome.unsupported.is_empty() {
        // kubedv says it cannot evaluate the request as the API server would.
        return json!({"unsupported": outcome.unsupported});
    }
    let mutating = setup.iter().any(|d| kind(d) == "MutatingAdmissionPolicy");
    let mut warnings = outcome.warnings.clone();
    let check = checked(&outcome, object, old);
    let texts = |v: &Value| -> Vec<String> {
        v.as_array().into_iter().flatten().filter_map(|w| w.as_str().map(String::from)).collect()
    };
    if let Some(status) = &outcome.status {
        // Mutating admission refused: validation never ran. Validating admission refused: it
        // ran, and passed, and its warnings were given.
        if !status.message.contains("MutatingAdmissionPolicy") {
            warnings.extend(texts(&check["warnings"]));
        }
        let denied = json!({"message": status.message, "reason": status.reason, "code": status.code});
        return json!({"denied": denied, "warnings": sorted(warnings)});
    }
    let mutated = outcome.patched.as_ref().unwrap_or(object);
    warnings.extend(texts(&check["warnings"]));
    let mut out = match check["errors"].as_array() {
        Some(errors) if !errors.is_empty() => {
            // Validation refused: validating admission never ran, its warnings are not given.
            warnings = texts(&check["warnings"]);
            json!({"errors": errors})
        }
        Some(_) => json!({"allowed": true}),
        None => check.clone(),
    };
    out["warnings"] = sorted(warnings);
    if mutating && out.get("allowed").is_some() {
        out["object"] = mutated.clone();
    }
    out
}

/// `have` (the object the API server returned) in the shape of `shape` (the body as the
/// mutating policies made it, before defaulting): an object's keys are `shape`'s, an array's
/// items are `have`'s (their count compared), each brought to the shape of the item at the
/// same index. What defaulting and the strategy add (a Pod's `resources: {}`, its priority) is
/// left out; what the policies added or changed is compared.
fn project(have: &Value, shape: &Value) -> Value {
    match (have, shape) {
        (Value::Object(h), Value::Object(s)) => {
            Value::Object(s.keys().map(|k| (k.clone(), h.get(k).map_or(Value::Null, |v| project(v, &s[k])))).collect())
        }
        (Value::Array(h), Value::Array(s)) => Value::Array(
            h.iter().enumerate().map(|(i, v)| s.get(i).map_or_else(|| v.clone(), |s| project(v, s))).collect(),
        ),
        _ => have.clone(),
    }
}

/// `kubedv check`'s verdict on the object the mutating policies made.
fn checked(outcome: &kubedv_core::policy::Outcome, object: &Value, old: Option<&Value>) -> Value {
    let request = verdict::Request {
        field_validation: kubedv_core::check::FieldValidation::Strict,
        setup: &[],
        object: outcome.patched.as_ref().unwrap_or(object),
        old,
        crd_catalog: false,
    };
    verdict::kubedv(&request)
}

pub fn items(case: &Case, answer: &Value) -> Vec<Item> {
    let mutating = case.input["setup"].as_array().into_iter().flatten().any(|d| kind(d) == "MutatingAdmissionPolicy");
    let kubedv = kubedv(&case.input);
    let mut oracle = oracle(answer, mutating);
    if let (Some(have), Some(shape)) = (oracle.get("object"), kubedv.get("object")) {
        oracle["object"] = project(have, shape);
    }
    vec![Item { id: case.id.clone(), kubedv, oracle }]
}
