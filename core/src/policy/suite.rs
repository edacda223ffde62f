//! Policy test suites: cases of a request and the verdict expected, so that policy authors keep
//! their policies' tests beside them and run them in CI (`kubedv policy test`).
//!
//! A suite is a document (YAML or JSON):
//!
//! ```yaml
//! policies: [policy.yaml, binding.yaml]   # files, relative to the suite (params may be there too)
//! params: [limits.yaml]
//! cases:
//! - name: seven replicas are too many
//!   object: {apiVersion: apps/v1, kind: Deployment, metadata: {name: web}, spec: {replicas: 7}}
//!   # oldObject, operation, namespaceObject, userInfo {username, groups}, allow [checks],
//!   # params [objects], subResource, resource, namespace, dryRun
//!   expect:
//!     allowed: false
//!     denial: "ValidatingAdmissionPolicy 'max' with binding 'max' denied request: ..."
//!     reason: Invalid          # and code: 422
//!     warnings: []             # exactly these
//!     auditAnnotations: {}     # at least these keys with these values
//!     patched: {...}           # the object after the mutating policies
//! ```
//!
//! Files (`policies`, `params`, `objectFile`, `oldObjectFile`, `namespaceObjectFile`) are read
//! by the caller; this module takes the documents.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value as Json;

use super::{Outcome, Request, UserInfo};
use crate::cel::k8s::authz::Rule;

/// One case, read.
pub struct Case {
    /// Its name.
    pub name: String,
    /// The request.
    pub request: Request,
    /// Params objects for this case only.
    pub params: Vec<Json>,
    /// The authorizer's allowed checks.
    pub allow: Vec<Rule>,
    /// What is expected.
    pub expect: Json,
}

fn str_field(c: &Json, k: &str) -> String {
    String::from(c.get(k).and_then(Json::as_str).unwrap_or(""))
}

/// Reads a case (`cases[i]`), with its files already inlined.
pub fn read_case(c: &Json, index: usize) -> Result<Case, String> {
    let name = match c.get("name").and_then(Json::as_str) {
        Some(n) => String::from(n),
        None => format!("case {}", index + 1),
    };
    let bad = |m: String| format!("{name}: {m}");
    let obj = |k: &str| c.get(k).filter(|v| !v.is_null()).cloned();
    let user = c.get("userInfo");
    let groups = user
        .and_then(|u| u.get("groups"))
        .and_then(Json::as_array)
        .map(|g| g.iter().filter_map(Json::as_str).map(String::from).collect())
        .unwrap_or_default();
    let mut request = Request {
        operation: str_field(c, "operation").to_ascii_uppercase(),
        sub_resource: str_field(c, "subResource"),
        namespace: str_field(c, "namespace"),
        user: UserInfo {
            username: String::from(user.and_then(|u| u.get("username")).and_then(Json::as_str).unwrap_or("")),
            groups,
            ..UserInfo::default()
        },
        dry_run: c.get("dryRun").and_then(Json::as_bool).unwrap_or(false),
        object: obj("object"),
        old_object: obj("oldObject"),
        namespace_object: obj("namespaceObject"),
        ..Request::default()
    };
    request.resource.resource = str_field(c, "resource");
    if request.object.is_none() && request.old_object.is_none() {
        return Err(bad(String::from("a case needs an object (or an oldObject for a DELETE)")));
    }
    if !matches!(request.operation.as_str(), "" | "CREATE" | "UPDATE" | "DELETE" | "CONNECT") {
        return Err(bad(format!("operation {:?}: expected CREATE, UPDATE, DELETE or CONNECT", request.operation)));
    }
    request.infer();
    let allow = c
        .get("allow")
        .and_then(Json::as_array)
        .map_or(&[][..], |a| &a[..])
        .iter()
        .map(|a| {
            a.as_str().ok_or_else(|| String::from("allow: checks are strings")).and_then(Rule::parse).map_err(&bad)
        })
        .collect::<Result<Vec<_>, _>>()?;
    let params = c.get("params").and_then(Json::as_array).cloned().unwrap_or_default();
    let expect = c.get("expect").cloned().ok_or_else(|| bad(String::from("no expect")))?;
    Ok(Case { name, request, params, allow, expect })
}

/// How the outcome differs from what the case expects (empty: it passes).
pub fn compare(expect: &Json, got: &Outcome) -> Vec<String> {
    let mut out = Vec::new();
    for u in &got.unsupported {
        out.push(format!("kubedv cannot evaluate this case as the API server would: {u}"));
    }
    if let Some(allowed) = expect.get("allowed").and_then(Json::as_bool) {
        if allowed != got.allowed {
            let why = got.denials.first().map_or_else(String::new, |d| format!(": {}", d.text));
            out.push(format!("expected the request to be {}, it was {}{why}", verdict(allowed), verdict(got.allowed)));
        }
    }
    let first = got.denials.first();
    if let Some(text) = expect.get("denial").and_then(Json::as_str) {
        match first {
            Some(d) if d.text == text => {}
            Some(d) => out.push(format!("expected the denial {text:?}, got {:?}", d.text)),
            None => out.push(format!("expected the denial {text:?}, got none")),
        }
    }
    if let Some(reason) = expect.get("reason").and_then(Json::as_str) {
        let have = first.map_or("", |d| d.reason.as_str());
        if have != reason {
            out.push(format!("expected reason {reason}, got {}", if have.is_empty() { "none" } else { have }));
        }
    }
    if let Some(code) = expect.get("code").and_then(Json::as_u64) {
        let have = first.map_or(0, |d| u64::from(d.code));
        if have != code {
            out.push(format!("expected code {code}, got {have}"));
        }
    }
    if let Some(warnings) = expect.get("warnings").and_then(Json::as_array) {
        let want: Vec<&str> = warnings.iter().filter_map(Json::as_str).collect();
        let have: Vec<&str> = got.warnings.iter().map(String::as_str).collect();
        if want != have {
            out.push(format!("expected warnings {want:?}, got {have:?}"));
        }
    }
    if let Some(want) = expect.get("patched") {
        match &got.patched {
            Some(have) if have == want => {}
            Some(have) => out.push(format!(
                "expected the mutated object {want}, got {have} (patch {})",
                Json::from(got.patch.clone())
            )),
            None => out.push(String::from("expected a mutated object, the mutating policies changed nothing")),
        }
    }
    if let Some(annotations) = expect.get("auditAnnotations").and_then(Json::as_object) {
        for (k, v) in annotations {
            let want = v.as_str().unwrap_or("");
            match got.audit_annotations.get(k) {
                Some(have) if have == want => {}
                Some(have) => out.push(format!("expected audit annotation {k} = {want:?}, got {have:?}")),
                None => out.push(format!("expected audit annotation {k} = {want:?}, got none")),
            }
        }
    }
    out
}

fn verdict(allowed: bool) -> &'static str {
    if allowed {
        "allowed"
    } else {
        "denied"
    }
}
