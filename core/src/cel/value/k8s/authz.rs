//! The authorizer library's values (apiserver `pkg/cel/library/authz.go`) over a deterministic
//! authorizer: a list of allowed checks ([`Rules`]) instead of a cluster's RBAC, the builders a
//! check is made with, and the decision, `allowed()` only when a rule allows the check (RBAC's
//! "no opinion" otherwise). The methods are the library's (`cel::k8s::authz`).

use alloc::format;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;

use super::Object;
use crate::cel::value::Value;

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

/// What a check asks (`authorizer.AttributesRecord`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Attributes {
    pub(crate) path: Option<String>,
    pub(crate) group: String,
    pub(crate) resource: String,
    pub(crate) subresource: String,
    pub(crate) namespace: String,
    pub(crate) name: String,
    pub(crate) verb: String,
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

pub(crate) fn value(a: Authz) -> Value {
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

/// The decision the rules give a check.
pub(crate) fn decide(rules: &Rules, user: &User, a: &Attributes) -> Value {
    let hit = rules.iter().find(|r| r.allows(user, a));
    value(Authz::Decision { allowed: hit.is_some(), reason: hit.and_then(|r| r.reason.clone()).unwrap_or_default() })
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
