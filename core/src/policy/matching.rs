//! Which requests a policy or binding applies to, as the API server decides it (apiserver
//! `pkg/admission/plugin/policy/matching/matching.go`, and the webhook predicates it uses:
//! `predicates/namespace`, `predicates/object`, `predicates/rules`).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{Map, Value as Json};

use super::model::{MatchPolicy, MatchResources, NamedRule};
use super::request::{Gvk, Gvr, Request};
use super::selector::Selector;
use crate::field::go_quote;

/// Why a request matched or not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Match {
    /// It matched, as this resource and kind (the equivalent ones when `matchPolicy:
    /// Equivalent` matched through another version).
    Yes { resource: Gvr, kind: Gvk, why: String },
    /// It did not, and why.
    No(String),
    /// Matching failed (a selector that does not parse, a namespace that is needed but not
    /// given): the API server's error text.
    Error(String),
}

/// Compiled `MatchResources`.
#[derive(Clone, Debug)]
pub struct Matcher {
    namespace: Result<Selector, String>,
    object: Result<Selector, String>,
    rules: Vec<NamedRule>,
    exclude: Vec<NamedRule>,
    policy: MatchPolicy,
}

impl Matcher {
    /// Compiles a `MatchResources` (unset fields as the API server defaults them).
    pub fn new(m: &MatchResources) -> Matcher {
        Matcher {
            namespace: Selector::parse(m.namespace_selector.as_ref()),
            object: Selector::parse(m.object_selector.as_ref()),
            rules: m.resource_rules.clone(),
            exclude: m.exclude_resource_rules.clone(),
            policy: m.match_policy.unwrap_or_default(),
        }
    }

    /// The selector problems, for reporting a policy that the API server would refuse.
    pub fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        if let Err(e) = &self.namespace {
            out.push(format!("namespaceSelector: {e}"));
        }
        if let Err(e) = &self.object {
            out.push(format!("objectSelector: {e}"));
        }
        out
    }

    /// `Matcher.Matches`: the namespace selector, the object selector, the excluded rules, the
    /// rules (an empty list matches everything), then the selectors' errors.
    pub fn matches(&self, req: &Request, equivalents: &dyn Fn(&Gvr) -> Vec<Gvr>) -> Match {
        let ns = self.match_namespace(req);
        if let Ok(false) = ns {
            let mut why =
                format!("the labels of namespace {} do not match namespaceSelector", go_quote(&req.namespace));
            if req.namespace_object.is_none() {
                why.push_str(" (the namespace object was not given: it is taken to have no labels)");
            }
            return Match::No(why);
        }
        let obj = self.match_object(req);
        if let Ok(false) = obj {
            return Match::No(String::from("neither the object's nor the old object's labels match objectSelector"));
        }
        if let Some((res, _)) = rules_match(&self.exclude, self.policy, req, equivalents) {
            return Match::No(format!("excluded by excludeResourceRules ({})", gvr_text(&res, &req.sub_resource)));
        }
        let (resource, kind, why) = if self.rules.is_empty() {
            (req.resource.clone(), req.kind.clone(), String::from("no resourceRules: every request"))
        } else {
            match rules_match(&self.rules, self.policy, req, equivalents) {
                Some((res, equivalent)) => {
                    let why = match equivalent {
                        false => format!("resourceRules match {}", gvr_text(&res, &req.sub_resource)),
                        true => format!(
                            "resourceRules match the equivalent {} (matchPolicy: Equivalent)",
                            gvr_text(&res, &req.sub_resource)
                        ),
                    };
                    let kind = if equivalent {
                        Gvk { group: res.group.clone(), version: res.version.clone(), kind: req.kind.kind.clone() }
                    } else {
                        req.kind.clone()
                    };
                    (res, kind, why)
                }
                None => {
                    return Match::No(format!(
                        "no resourceRule matches {} {}",
                        req.operation,
                        gvr_text(&req.resource, &req.sub_resource)
                    ))
                }
            }
        };
        if let Err(e) = ns {
            return Match::Error(e);
        }
        if let Err(e) = obj {
            return Match::Error(e);
        }
        Match::Yes { resource, kind, why }
    }

    /// `MatchNamespaceSelector`: requests without a namespace (other than for namespaces
    /// themselves) match; a Namespace being created or updated is matched by its own labels.
    fn match_namespace(&self, req: &Request) -> Result<bool, String> {
        if req.namespace.is_empty() && req.resource.resource != "namespaces" {
            return Ok(true);
        }
        let selector = self.namespace.as_ref().map_err(|e| format!("Internal error occurred: {e}"))?;
        if selector.is_everything() {
            return Ok(true);
        }
        if req.resource.resource == "namespaces"
            && req.sub_resource.is_empty()
            && (req.operation == "CREATE" || req.operation == "UPDATE")
        {
            return Ok(selector.matches(labels(req.object.as_ref())));
        }
        // The API server reads the namespace; offline, one not given has no labels.
        Ok(selector.matches(labels(req.namespace_object.as_ref())))
    }

    /// `MatchObjectSelector`: the object's or the old object's labels.
    fn match_object(&self, req: &Request) -> Result<bool, String> {
        let selector = self.object.as_ref().map_err(|e| format!("Internal error occurred: {e}"))?;
        if selector.is_everything() {
            return Ok(true);
        }
        let one = |o: Option<&Json>| o.is_some_and(|o| selector.matches(labels(Some(o))));
        Ok(one(req.object.as_ref()) || one(req.old_object.as_ref()))
    }
}

fn labels(o: Option<&Json>) -> Option<&Map<String, Json>> {
    o?.pointer("/metadata/labels")?.as_object()
}

fn gvr_text(r: &Gvr, sub: &str) -> String {
    let mut s = match r.group.as_str() {
        "" => format!("{}/{}", r.version, r.resource),
        g => format!("{g}/{}/{}", r.version, r.resource),
    };
    if !sub.is_empty() {
        s.push('/');
        s.push_str(sub);
    }
    s
}

/// `matchesResourceRules`: the request's own resource first, then (Equivalent) the equivalent
/// resources in order. Returns the resource matched and whether it was an equivalent.
fn rules_match(
    rules: &[NamedRule],
    policy: MatchPolicy,
    req: &Request,
    equivalents: &dyn Fn(&Gvr) -> Vec<Gvr>,
) -> Option<(Gvr, bool)> {
    let named = |rule: &NamedRule| rule.resource_names.is_empty() || rule.resource_names.contains(&req.name);
    if rules.iter().any(|rule| rule_matches(rule, req, &req.resource) && named(rule)) {
        return Some((req.resource.clone(), false));
    }
    if policy == MatchPolicy::Exact {
        return None;
    }
    let others = equivalents(&req.resource);
    for rule in rules {
        for eq in others.iter().filter(|e| **e != req.resource) {
            if rule_matches(rule, req, eq) && named(rule) {
                return Some((eq.clone(), true));
            }
        }
    }
    None
}

fn exact_or_wildcard(items: &[String], requested: &str) -> bool {
    items.iter().any(|i| i == "*" || i == requested)
}

/// `rules.Matcher.Matches`: scope, operation, group, version, resource.
fn rule_matches(rule: &NamedRule, req: &Request, resource: &Gvr) -> bool {
    let is_namespace = resource.group.is_empty() && resource.version == "v1" && resource.resource == "namespaces";
    let scope = match rule.scope.as_deref() {
        None | Some("*") => true,
        Some("Namespaced") => !is_namespace && !req.namespace.is_empty(),
        Some("Cluster") => is_namespace || req.namespace.is_empty(),
        Some(_) => false,
    };
    let operation = rule.operations.iter().any(|op| op == "*" || *op == req.operation);
    let group = exact_or_wildcard(&rule.api_groups, &resource.group);
    let version = exact_or_wildcard(&rule.api_versions, &resource.version);
    let res = rule.resources.iter().any(|r| {
        let (res, sub) = r.split_once('/').unwrap_or((r, ""));
        (res == "*" || res == resource.resource) && (sub == "*" || sub == req.sub_resource)
    });
    scope && operation && group && version && res
}

/// `IsExemptAdmissionConfigurationResource`: admission policies never apply to the admission
/// configuration objects themselves.
pub fn is_exempt(kind: &Gvk) -> bool {
    kind.group == "admissionregistration.k8s.io"
        && matches!(
            kind.kind.as_str(),
            "ValidatingWebhookConfiguration"
                | "MutatingWebhookConfiguration"
                | "ValidatingAdmissionPolicy"
                | "ValidatingAdmissionPolicyBinding"
                | "MutatingAdmissionPolicy"
                | "MutatingAdmissionPolicyBinding"
        )
}
