//! The authorizer library (apiserver `pkg/cel/library/authz.go`) over a deterministic
//! authorizer: a list of allowed checks instead of a cluster's RBAC.
//!
//! `authorizer.group('apps').resource('deployments').namespace('ns').check('create')` builds
//! the attributes `authorizer.AttributesRecord` would hold (`ResourceRequest: true`,
//! `APIVersion: "*"`, the request's user or a service account's) and asks the [`Rules`]; a
//! decision is `allowed()` only when a rule allows it, as with RBAC ("no opinion" otherwise).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::cel::common::ceil_factor;
pub use crate::cel::value::k8s::authz::{authorizer, request_resource, Authz, ResourceCheck, Rule, Rules, User};
use crate::cel::value::k8s::authz::{decide, value, Attributes};
use crate::cel::value::{actual_size, Fail, Value};

/// apimachinery `IsDNS1123Subdomain` (service account names), without the messages.
fn dns_subdomain(s: &str) -> bool {
    s.len() <= 253
        && !s.is_empty()
        && s.split('.').all(|l| {
            !l.is_empty()
                && l.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
                && !l.starts_with('-')
                && !l.ends_with('-')
        })
}

/// `IsDNS1123Label` (namespace names).
fn dns_label(s: &str) -> bool {
    s.len() <= 63 && !s.contains('.') && dns_subdomain(s)
}

/// A method of the library, as authz.go defines it (errors are its `types.NewErr` texts).
pub fn method(a: &Authz, name: &str, args: &[Value]) -> Option<Result<Value, Fail>> {
    let s = |i: usize| match args.get(i) {
        Some(Value::String(s)) => Some(String::from(&**s)),
        _ => None,
    };
    Some(Ok(match (a, name, args.len()) {
        (Authz::Authorizer(r, u), "path", 1) => {
            let p = s(0)?;
            if p.trim().is_empty() {
                return Some(Err(String::from("path must not be empty")));
            }
            value(Authz::Path(r.clone(), u.clone(), p))
        }
        (Authz::Authorizer(r, u), "group", 1) => value(Authz::Group(r.clone(), u.clone(), s(0)?)),
        (Authz::Authorizer(r, _), "serviceAccount", 2) => {
            let (ns, sa) = (s(0)?, s(1)?);
            // ValidateServiceAccountName, then ValidateNamespaceName.
            if !dns_subdomain(&sa) {
                return Some(Err(String::from("Invalid service account name")));
            }
            if !dns_label(&ns) {
                return Some(Err(String::from("Invalid service account namespace")));
            }
            let user = User {
                name: format!("system:serviceaccount:{ns}:{sa}"),
                groups: Vec::from([String::from("system:serviceaccounts"), format!("system:serviceaccounts:{ns}")]),
            };
            value(Authz::Authorizer(r.clone(), user))
        }
        (Authz::Group(r, u, g), "resource", 1) => {
            let res = s(0)?;
            if res.trim().is_empty() {
                return Some(Err(String::from("resource must not be empty")));
            }
            value(Authz::Resource(
                r.clone(),
                u.clone(),
                ResourceCheck { group: g.clone(), resource: res, ..Default::default() },
            ))
        }
        (Authz::Resource(r, u, c), "subresource" | "namespace" | "name" | "fieldSelector" | "labelSelector", 1) => {
            let mut c = c.clone();
            let v = s(0)?;
            match name {
                "subresource" => c.subresource = v,
                "namespace" => c.namespace = v,
                "name" => c.name = v,
                "fieldSelector" => c.field_selector = v,
                _ => c.label_selector = v,
            }
            value(Authz::Resource(r.clone(), u.clone(), c))
        }
        (Authz::Path(r, u, p), "check", 1) => {
            decide(r, u, &Attributes { path: Some(p.clone()), verb: s(0)?, ..Default::default() })
        }
        (Authz::Resource(r, u, c), "check", 1) => decide(
            r,
            u,
            &Attributes {
                path: None,
                group: c.group.clone(),
                resource: c.resource.clone(),
                subresource: c.subresource.clone(),
                namespace: c.namespace.clone(),
                name: c.name.clone(),
                verb: s(0)?,
            },
        ),
        (Authz::Decision { allowed, .. }, "allowed", 0) => Value::Bool(*allowed),
        (Authz::Decision { reason, .. }, "reason", 0) => Value::from(reason.as_str()),
        (Authz::Decision { .. }, "errored", 0) => Value::Bool(false),
        (Authz::Decision { .. }, "error", 0) => Value::from(""),
        _ => return None,
    }))
}

/// The runtime cost of a method (apiserver `pkg/cel/library/cost.go`): a check is 350,000 so
/// that an expression can make only two; selectors cost by their length.
pub fn cost(name: &str, args: &[Value]) -> Option<u64> {
    Some(match name {
        "check" => CHECK_COST,
        "serviceAccount" | "path" | "group" | "resource" | "subresource" | "namespace" | "name" | "allowed"
        | "reason" | "error" | "errored" => 1,
        "fieldSelector" | "labelSelector" => selector_cost(args.first().map_or(0, actual_size)),
        _ => return None,
    })
}

/// An authorization check's fixed cost (library cost.go: two checks per expression).
pub const CHECK_COST: u64 = 350_000;

/// cost.go `selectorCostEstimate` of a selector of `len` characters (its runtime cost too):
/// a list creation, a traversal, and per requirement (one per two characters) a list and a
/// struct creation.
pub fn selector_cost(len: u64) -> u64 {
    10u64.saturating_add(ceil_factor(len, 0.1)).saturating_add(ceil_factor(ceil_factor(len, 0.5), 50.0))
}
