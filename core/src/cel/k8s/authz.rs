//! The authorizer library (apiserver `pkg/cel/library/authz.go`) over a deterministic
//! authorizer: a list of allowed checks instead of a cluster's RBAC.
//!
//! `authorizer.group('apps').resource('deployments').namespace('ns').check('create')` builds
//! the attributes `authorizer.AttributesRecord` would hold (`ResourceRequest: true`,
//! `APIVersion: "*"`, the request's user or a service account's) and asks the [`Rules`]; a
//! decision is `allowed()` only when a rule allows it, as with RBAC ("no opinion" otherwise).

use alloc::format;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;

use super::super::functions::Fail;
use super::super::value::Value;
use super::Object;

/// One allowed check; `None` fields match anything (as `*`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rule {
    /// The user's name.
    pub user: Option<String>,
    /// One of the user's groups.
    pub user_group: Option<String>,
    /// The verb (`get`, `create`, ...).
    pub verb: Option<String>,
    /// The API group (`""` for core).
    pub api_group: Option<String>,
    /// The resource.
    pub resource: Option<String>,
    /// The subresource.
    pub subresource: Option<String>,
    /// The namespace.
    pub namespace: Option<String>,
    /// The object's name.
    pub name: Option<String>,
    /// A non-resource path (`/healthz`); a rule with a path matches only path checks.
    pub path: Option<String>,
    /// The reason the decision gives (`reason()`).
    pub reason: Option<String>,
}

impl Rule {
    /// Reads a rule written as `key=value` pairs separated by commas (`user=alice,verb=get,
    /// apiGroup=apps,resource=deployments`); keys are those of [`Rule`] in camel case, `*`
    /// or an absent key matches anything.
    pub fn parse(text: &str) -> Result<Rule, String> {
        let mut rule = Rule::default();
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let Some((k, v)) = part.split_once('=') else {
                return Err(format!("{part:?} is not key=value (keys: user, userGroup, verb, apiGroup, resource, subresource, namespace, name, path, reason)"));
            };
            let v = (v != "*").then(|| String::from(v));
            let slot = match k.trim() {
                "user" => &mut rule.user,
                "userGroup" => &mut rule.user_group,
                "verb" => &mut rule.verb,
                "apiGroup" => &mut rule.api_group,
                "resource" => &mut rule.resource,
                "subresource" => &mut rule.subresource,
                "namespace" => &mut rule.namespace,
                "name" => &mut rule.name,
                "path" => &mut rule.path,
                "reason" => &mut rule.reason,
                other => return Err(format!("unknown key {other:?} in an authorizer rule (keys: user, userGroup, verb, apiGroup, resource, subresource, namespace, name, path, reason)")),
            };
            *slot = v;
        }
        Ok(rule)
    }

    fn allows(&self, user: &User, a: &Attributes) -> bool {
        let any = |want: &Option<String>, have: &str| want.as_deref().is_none_or(|w| w == have);
        let user_ok = any(&self.user, &user.name)
            && self.user_group.as_deref().is_none_or(|g| user.groups.iter().any(|x| x == g));
        let target_ok = match &a.path {
            Some(p) => self
                .path
                .as_deref()
                .is_some_and(|want| want == p || want.strip_suffix('*').is_some_and(|pre| p.starts_with(pre))),
            None => {
                self.path.is_none()
                    && any(&self.api_group, &a.group)
                    && any(&self.resource, &a.resource)
                    && any(&self.subresource, &a.subresource)
                    && any(&self.namespace, &a.namespace)
                    && any(&self.name, &a.name)
            }
        };
        user_ok && any(&self.verb, &a.verb) && target_ok
    }
}

/// The allowed checks.
pub type Rules = Rc<[Rule]>;

/// Who is asking.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct User {
    /// The user name.
    pub name: String,
    /// The groups.
    pub groups: Vec<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Attributes {
    path: Option<String>,
    group: String,
    resource: String,
    subresource: String,
    namespace: String,
    name: String,
    verb: String,
}

/// A value of the library: the authorizer and its builders, and a decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Authz {
    /// `kubernetes.authorization.Authorizer`.
    Authorizer(Rules, User),
    /// `kubernetes.authorization.PathCheck`.
    Path(Rules, User, String),
    /// `kubernetes.authorization.GroupCheck`.
    Group(Rules, User, String),
    /// `kubernetes.authorization.ResourceCheck`.
    Resource(Rules, User, ResourceCheck),
    /// `kubernetes.authorization.Decision`.
    Decision {
        /// `allowed()`.
        allowed: bool,
        /// `reason()`.
        reason: String,
    },
}

/// What a resource check names.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ResourceCheck {
    /// API group.
    pub group: String,
    /// Resource.
    pub resource: String,
    /// Subresource.
    pub subresource: String,
    /// Namespace.
    pub namespace: String,
    /// Name.
    pub name: String,
    /// `fieldSelector(...)`.
    pub field_selector: String,
    /// `labelSelector(...)`.
    pub label_selector: String,
}

impl Authz {
    /// The CEL type name.
    pub fn type_name(&self) -> &'static str {
        match self {
            Authz::Authorizer(..) => "kubernetes.authorization.Authorizer",
            Authz::Path(..) => "kubernetes.authorization.PathCheck",
            Authz::Group(..) => "kubernetes.authorization.GroupCheck",
            Authz::Resource(..) => "kubernetes.authorization.ResourceCheck",
            Authz::Decision { .. } => "kubernetes.authorization.Decision",
        }
    }
}

fn value(a: Authz) -> Value {
    Value::Object(Rc::new(Object::Authz(a)))
}

/// The `authorizer` variable for a user.
pub fn authorizer(rules: Rules, user: User) -> Value {
    value(Authz::Authorizer(rules, user))
}

/// The `authorizer.requestResource` variable: a resource check of the request's resource.
pub fn request_resource(rules: Rules, user: User, check: ResourceCheck) -> Value {
    value(Authz::Resource(rules, user, check))
}

fn decide(rules: &Rules, user: &User, a: &Attributes) -> Value {
    let hit = rules.iter().find(|r| r.allows(user, a));
    value(Authz::Decision { allowed: hit.is_some(), reason: hit.and_then(|r| r.reason.clone()).unwrap_or_default() })
}

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
        "fieldSelector" | "labelSelector" => selector_cost(args.first().map_or(0, super::super::cost::actual_size)),
        _ => return None,
    })
}

/// An authorization check's fixed cost (library cost.go: two checks per expression).
pub const CHECK_COST: u64 = 350_000;

/// cost.go `selectorCostEstimate` of a selector of `len` characters (its runtime cost too):
/// a list creation, a traversal, and per requirement (one per two characters) a list and a
/// struct creation.
pub fn selector_cost(len: u64) -> u64 {
    use super::super::cost::ceil_factor;
    10u64.saturating_add(ceil_factor(len, 0.1)).saturating_add(ceil_factor(ceil_factor(len, 0.5), 50.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_parse() {
        let r = Rule::parse("user=alice, verb=create,apiGroup=apps,resource=deployments,namespace=*").unwrap();
        assert_eq!(r.user.as_deref(), Some("alice"));
        assert_eq!(r.namespace, None);
        assert!(Rule::parse("colour=blue").unwrap_err().contains("unknown key \"colour\""));
    }
}
