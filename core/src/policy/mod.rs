//! Admission policies offline: ValidatingAdmissionPolicy and its bindings evaluated against a
//! request as the API server does it (apiserver `pkg/admission/plugin/policy/validating/
//! dispatcher.go`), with its matching, params, CEL environment, budgets and texts.
//!
//! ```
//! use kubedv_core::policy::{PolicySet, Request};
//! use serde_json::json;
//! let docs = [
//!     json!({"apiVersion": "admissionregistration.k8s.io/v1", "kind": "ValidatingAdmissionPolicy",
//!            "metadata": {"name": "max-replicas"},
//!            "spec": {"matchConstraints": {"resourceRules": [{"apiGroups": ["apps"], "apiVersions": ["v1"],
//!                       "operations": ["CREATE", "UPDATE"], "resources": ["deployments"]}]},
//!                     "validations": [{"expression": "object.spec.replicas <= 5"}]}}),
//!     json!({"apiVersion": "admissionregistration.k8s.io/v1", "kind": "ValidatingAdmissionPolicyBinding",
//!            "metadata": {"name": "max-replicas"},
//!            "spec": {"policyName": "max-replicas", "validationActions": ["Deny"]}}),
//! ];
//! let set = PolicySet::new(&docs);
//! let mut req = Request { object: Some(json!({"apiVersion": "apps/v1", "kind": "Deployment",
//!     "metadata": {"name": "web"}, "spec": {"replicas": 7}})), ..Request::default() };
//! req.infer();
//! let outcome = set.evaluate(&req, &[], &[]);
//! assert!(!outcome.allowed);
//! assert_eq!(outcome.denials[0].text, "ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas' \
//!     denied request: failed expression: object.spec.replicas <= 5");
//! ```
//!
//! Where the API server's order is not defined (policies come from a Go map, params from a
//! lister), policies and bindings are taken by name and params in the order given.

mod apply;
mod compile;
mod matching;
pub mod model;
mod mutating;
mod params;
mod patch;
mod request;
mod selector;
pub mod suite;
mod typecheck;
mod validating;
pub mod validation;

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;
use serde_json::{json, Map, Value as Json};

use crate::cel::k8s::authz::{self, ResourceCheck, Rule, User};
use crate::cel::{from_json, Value};
use crate::diag::Severity;
use crate::field::go_quote;

pub use matching::is_exempt;
pub use model::{Binding, Policy, PolicyKind};
pub use request::{cluster_scoped, resource_of, split_api_version, Gvk, Gvr, Request, UserInfo};
pub use selector::Selector;
pub use validating::{MATCH_CONDITIONS_BUDGET, OUT_OF_BUDGET, RUNTIME_BUDGET};

use matching::Match;
use validating::{Action, Annotation, CompiledPolicy, Outcome as Verdict};

/// A problem with a policy or binding document that the API server would refuse.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Problem {
    /// `error`: the API server would refuse the document; `warning`: it would accept it, but
    /// it does nothing here (a binding whose policy is not given).
    pub severity: Severity,
    /// Which document (`ValidatingAdmissionPolicy "p"`).
    pub document: String,
    /// The field (`spec.validations[0].expression`), if one.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub field: String,
    /// What is wrong.
    pub message: String,
}

/// A denial, as the API server returns it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Denial {
    /// The policy.
    pub policy: String,
    /// The binding (none for an error about the policy itself).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub binding: Option<String>,
    /// The decision's message.
    pub message: String,
    /// The status reason (`Invalid`, `Forbidden`, `Unauthorized`, `RequestEntityTooLarge`).
    pub reason: String,
    /// The HTTP status code that reason gives.
    pub code: u16,
    /// `ValidatingAdmissionPolicy 'p' with binding 'b' denied request: <message>`.
    pub text: String,
}

/// The status the API server answers with (the first denial's).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Status {
    /// `deployments.apps "web" is forbidden: ValidatingAdmissionPolicy ...`.
    pub message: String,
    /// The reason.
    pub reason: String,
    /// The code.
    pub code: u16,
}

/// One validation's result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ValidationResult {
    /// The expression.
    pub expression: String,
    /// `true`, `false` or `"error"`.
    pub result: Json,
    /// The message when it denied or failed.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub message: String,
    /// Runtime cost (with its message expression and the variables it computed).
    pub cost: u64,
}

/// One policy × binding (× params object) considered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Evaluation {
    /// The policy.
    pub policy: String,
    /// The binding.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub binding: Option<String>,
    /// The params object (`namespace/name`), when the binding has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub params: Option<String>,
    /// Whether the policy was evaluated for the request.
    pub matched: bool,
    /// Why (or why not).
    pub why: String,
    /// The validations' results.
    pub validations: Vec<ValidationResult>,
}

/// What the API server decides about a request.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Outcome {
    /// No denial.
    pub allowed: bool,
    /// Every denial, in evaluation order (the API server reports the first).
    pub denials: Vec<Denial>,
    /// The status returned, for a denied request.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<Status>,
    /// Warnings (`Validation failed for ValidatingAdmissionPolicy ...`).
    pub warnings: Vec<String>,
    /// Audit annotations.
    pub audit_annotations: BTreeMap<String, String>,
    /// What was evaluated, and why.
    pub evaluations: Vec<Evaluation>,
    /// The object after mutation (mutating policies), if any.
    pub patched: Option<Json>,
    /// The JSON Patch from the request's object to `patched`.
    pub patch: Vec<Json>,
    /// What kubedv could not evaluate as the API server would (the verdict is then unknown).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unsupported: Vec<String>,
}

/// Policies and bindings, compiled once for many requests.
pub struct PolicySet {
    validating: Vec<CompiledPolicy>,
    mutating: Vec<mutating::CompiledMutatingPolicy>,
    /// CustomResourceDefinitions given with the policies: the schemas of their kinds.
    crds: Vec<Json>,
    bindings: Vec<Binding>,
    /// Documents the API server would refuse, and expressions that do not compile.
    pub problems: Vec<Problem>,
    /// The CEL environment's compatibility version (1.N) the expressions are compiled in.
    compatibility: u32,
}

/// `apiVersion`, `kind`.
fn type_of(doc: &Json) -> (&str, &str) {
    let s = |k: &str| doc.get(k).and_then(Json::as_str).unwrap_or("");
    (s("apiVersion"), s("kind"))
}

/// What the API server of Kubernetes 1.`minor` refuses when a policy or binding document is
/// created (its field errors), or `None` for another document. `kubedv check` reports these at
/// their lines. The expressions are new ones: compiled in the CEL environment of the server's
/// minimum compatibility version ([`crate::cel::environment`]).
pub fn creation_errors(doc: &Json, minor: u32) -> Option<Vec<crate::field::Error>> {
    let (v, k) = type_of(doc);
    if PolicyKind::of_policy(v, k).is_none() && PolicyKind::of_binding(v, k).is_none() {
        return None;
    }
    validation::creation_errors(doc, minor)
}

/// The problems of a document the API server would refuse to create: its metadata, checked as
/// `kubedv check` checks it (`ValidateObjectMeta(..., false, NameIsDNSSubdomain, ...)` for the
/// four kinds: a name that is not a DNS subdomain was a fuzz find of the oracle's `policy`
/// path), before [`validation::creation_errors`].
fn refusals(doc: &Json, minor: u32, document: &str) -> Vec<Problem> {
    let (_, kind) = type_of(doc);
    let spec = validation::creation_errors(doc, minor).unwrap_or_default();
    let errors = crate::objectmeta::builtin_create_errors("admissionregistration.k8s.io", kind, doc, spec);
    errors
        .into_iter()
        .map(|e| Problem {
            severity: Severity::Error,
            document: String::from(document),
            field: e.field.clone(),
            message: e.body(),
        })
        .collect()
}

/// A policy or binding kubedv cannot read (a value of the wrong type or outside an enum): the
/// API server's refusal when it has one (`spec.failurePolicy: Unsupported value: "Fal"`, a fuzz
/// find of the oracle's `policy` path), else why kubedv cannot read it.
fn unreadable(doc: &Json, minor: u32, kind: &str, why: String) -> Vec<Problem> {
    let refused = refusals(doc, minor, kind);
    if !refused.is_empty() {
        return refused;
    }
    Vec::from([Problem { severity: Severity::Error, document: String::from(kind), field: String::new(), message: why }])
}

/// Whether a document is a policy, a binding, or a CRD (whose schema ApplyConfiguration
/// mutations of its kind merge with).
pub fn is_policy_document(doc: &Json) -> bool {
    let (v, k) = type_of(doc);
    PolicyKind::of_policy(v, k).is_some() || PolicyKind::of_binding(v, k).is_some() || k == "CustomResourceDefinition"
}

impl PolicySet {
    /// Reads the policies and bindings among `docs` (other documents are ignored: pass them as
    /// params) and compiles their expressions as the newest Kubernetes kubedv models compiles
    /// a new policy's ([`PolicySet::new_at`]).
    pub fn new(docs: &[Json]) -> PolicySet {
        PolicySet::new_at(docs, crate::declarative::shadow::NEWEST_MINOR)
    }

    /// [`PolicySet::new`] as the API server of Kubernetes 1.`minor` does: the expressions are
    /// compiled as new ones, in the CEL environment of its minimum compatibility version
    /// ([`crate::cel::environment`]), so what it would refuse to create is a problem.
    pub fn new_at(docs: &[Json], minor: u32) -> PolicySet {
        let mut set = PolicySet {
            validating: Vec::new(),
            mutating: Vec::new(),
            crds: Vec::new(),
            bindings: Vec::new(),
            problems: Vec::new(),
            compatibility: crate::cel::environment::new_expressions(minor),
        };
        // The refusals of each binding, reported in the bindings' order.
        let mut refused: Vec<(String, Vec<Problem>)> = Vec::new();
        for doc in docs {
            let (v, k) = type_of(doc);
            if k == "CustomResourceDefinition" {
                set.crds.push(doc.clone());
            } else if let Some(kind) = PolicyKind::of_policy(v, k) {
                match Policy::read(doc, kind) {
                    Ok(p) => {
                        let document = format!("{} {}", p.kind.name(), go_quote(&p.name));
                        set.problems.extend(refusals(doc, minor, &document));
                        match kind {
                            PolicyKind::Validating => set.add_policy(p),
                            PolicyKind::Mutating => set.add_mutating(p),
                        }
                    }
                    Err(e) => set.problems.extend(unreadable(doc, minor, k, e)),
                }
            } else if let Some(kind) = PolicyKind::of_binding(v, k) {
                match Binding::read(doc, kind) {
                    Ok(b) => {
                        let document = format!("{}Binding {}", b.kind.name(), go_quote(&b.name));
                        refused.push((b.name.clone(), refusals(doc, minor, &document)));
                        set.bindings.push(b);
                    }
                    Err(e) => set.problems.extend(unreadable(doc, minor, k, e)),
                }
            }
        }
        // The policy's status: type-checking warnings against the kinds whose schemas are given.
        for p in &set.validating {
            for (field, message) in typecheck::check(&p.policy, &set.crds) {
                set.problems.push(Problem {
                    severity: Severity::Warning,
                    document: format!("ValidatingAdmissionPolicy {} (status.typeChecking)", go_quote(&p.policy.name)),
                    field,
                    message,
                });
            }
        }
        set.validating.sort_by(|a, b| a.policy.name.cmp(&b.policy.name));
        set.mutating.sort_by(|a, b| a.policy.name.cmp(&b.policy.name));
        set.bindings.sort_by(|a, b| a.name.cmp(&b.name));
        for b in &set.bindings {
            let doc = format!("{}Binding {}", b.kind.name(), go_quote(&b.name));
            if let Some(i) = refused.iter().position(|(name, _)| *name == b.name) {
                set.problems.extend(refused.remove(i).1);
            }
            if !b.spec.policy_name.is_empty() && !set.has_policy(b.kind, &b.spec.policy_name) {
                set.problems.push(Problem {
                    severity: Severity::Warning,
                    document: doc,
                    field: "spec.policyName".into(),
                    message: format!(
                        "no {} {} is given; the API server skips a binding whose policy does not exist",
                        b.kind.name(),
                        go_quote(&b.spec.policy_name)
                    ),
                });
            }
        }
        set
    }

    /// `EquivalentResourcesFor`, offline: the other served versions of a CRD given, or of a
    /// built-in kind in the newest release modeled (check::lifecycle), same group and resource.
    fn equivalents(&self, kind: &str, r: &Gvr) -> Vec<Gvr> {
        let gvr = |v: &str| Gvr { group: r.group.clone(), version: String::from(v), resource: r.resource.clone() };
        let crd = self.crds.iter().find(|c| {
            c.pointer("/spec/group").and_then(Json::as_str) == Some(r.group.as_str())
                && c.pointer("/spec/names/plural").and_then(Json::as_str) == Some(r.resource.as_str())
        });
        let mut out: Vec<Gvr> = match crd {
            Some(c) => c
                .pointer("/spec/versions")
                .and_then(Json::as_array)
                .into_iter()
                .flatten()
                .filter(|v| v.get("served").and_then(Json::as_bool) != Some(false))
                .filter_map(|v| v.get("name").and_then(Json::as_str))
                .map(gvr)
                .collect(),
            None => crate::lifecycle::APIS
                .iter()
                .filter(|a| a.group == r.group && a.kind == kind)
                .filter(|a| {
                    !matches!(
                        a.status(crate::declarative::shadow::NEWEST_MINOR),
                        Some(crate::lifecycle::Status::Removed(_))
                    )
                })
                .map(|a| gvr(a.version))
                .collect(),
        };
        out.retain(|g| g != r);
        out.sort_by(|a, b| a.version.cmp(&b.version));
        out
    }

    /// The OpenAPI schema of a custom resource's kind and version, from the CRDs given.
    /// The params as the API server stores them when a CRD given says their kind's scope: a
    /// namespaced object without a namespace is created in `default` (kubectl's namespace when
    /// its context names none), a cluster-scoped one loses the namespace it names
    /// (`rest.BeforeCreate`). `None` when nothing changes.
    fn as_stored(&self, params: &[Json]) -> Option<Vec<Json>> {
        let scope = |o: &Json| {
            let (v, k) = type_of(o);
            let group = v.rsplit_once('/').map_or("", |(g, _)| g);
            let crd = self.crds.iter().find(|c| {
                c.pointer("/spec/group").and_then(Json::as_str) == Some(group)
                    && c.pointer("/spec/names/kind").and_then(Json::as_str) == Some(k)
            })?;
            Some(crd.pointer("/spec/scope").and_then(Json::as_str) == Some("Namespaced"))
        };
        let namespace =
            |o: &Json| o.pointer("/metadata/namespace").and_then(Json::as_str).is_some_and(|n| !n.is_empty());
        let changes = |o: &Json| scope(o).is_some_and(|namespaced| namespaced != namespace(o));
        if !params.iter().any(changes) {
            return None;
        }
        let stored = params.iter().map(|o| {
            let mut o = o.clone();
            if let (true, Some(namespaced), Some(m)) =
                (changes(&o), scope(&o), o.get_mut("metadata").and_then(Json::as_object_mut))
            {
                match namespaced {
                    true => m.insert(String::from("namespace"), Json::from("default")),
                    false => m.remove("namespace"),
                };
            }
            o
        });
        Some(stored.collect())
    }

    fn schema_of(&self, kind: &Gvk) -> Option<&Json> {
        let crd = self.crds.iter().find(|c| {
            c.pointer("/spec/group").and_then(Json::as_str) == Some(kind.group.as_str())
                && c.pointer("/spec/names/kind").and_then(Json::as_str) == Some(kind.kind.as_str())
        })?;
        let versions = crd.pointer("/spec/versions")?.as_array()?;
        let version = versions.iter().find(|v| v.get("name").and_then(Json::as_str) == Some(kind.version.as_str()))?;
        version.pointer("/schema/openAPIV3Schema")
    }

    fn has_policy(&self, kind: PolicyKind, name: &str) -> bool {
        match kind {
            PolicyKind::Validating => self.validating.iter().any(|p| p.policy.name == name),
            PolicyKind::Mutating => self.mutating.iter().any(|p| p.policy.name == name),
        }
    }

    fn add_mutating(&mut self, p: Policy) {
        let compiled = mutating::CompiledMutatingPolicy::new(p, self.compatibility);
        self.mutating.push(compiled);
    }

    fn add_policy(&mut self, p: Policy) {
        let doc = format!("{} {}", p.kind.name(), go_quote(&p.name));
        let compiled = CompiledPolicy::new(p, self.compatibility);
        if let Some(m) = &compiled.policy.matcher {
            for e in m.problems() {
                self.problems.push(Problem {
                    severity: Severity::Error,
                    document: doc.clone(),
                    field: "spec.matchConstraints".into(),
                    message: e,
                });
            }
        }
        self.validating.push(compiled);
    }

    /// The policies and bindings read.
    pub fn counts(&self) -> (usize, usize) {
        (self.validating.len() + self.mutating.len(), self.bindings.len())
    }

    /// Evaluates a request (see [`Request::infer`]) with the params objects available and
    /// the authorizer's allowed checks.
    pub fn evaluate(&self, req: &Request, params: &[Json], allowed: &[Rule]) -> Outcome {
        let mut out = Outcome { allowed: true, ..Outcome::default() };
        if is_exempt(&req.kind) {
            return out;
        }
        let rules: authz::Rules = Rc::from(allowed);
        let stored = self.as_stored(params);
        let params = stored.as_deref().unwrap_or(params);
        // Mutating admission runs first; the validating policies see what it made.
        let schema = self.schema_of(&req.kind);
        let equivalents = |r: &Gvr| self.equivalents(&req.kind.kind, r);
        let patched =
            mutating::mutate(&self.mutating, &self.bindings, req, params, &rules, schema, &equivalents, &mut out);
        if let Some(first) = out.denials.first() {
            // The generic dispatcher's status: the first error as it is, code 403.
            out.allowed = false;
            out.status = Some(Status { message: first.text.clone(), reason: first.reason.clone(), code: first.code });
            return out;
        }
        let mutated;
        let req = match &patched {
            Some(object) => {
                out.patch = patch::diff(req.object.as_ref().unwrap_or(&Json::Null), object);
                out.patched = Some(object.clone());
                mutated = Request { object: Some(object.clone()), ..req.clone() };
                &mutated
            }
            None => req,
        };
        let mut failures: Vec<Failure> = Vec::new();
        for p in &self.validating {
            self.dispatch(p, req, params, &rules, &mut out, &mut failures);
        }
        if !failures.is_empty() {
            failures.truncate(50);
            out.audit_annotations
                .insert(String::from("validation.policy.admission.k8s.io/validation_failure"), go_json_text(&failures));
        }
        if let Some(first) = out.denials.first() {
            out.allowed = false;
            out.status =
                Some(Status { message: forbidden(req, &first.text), reason: first.reason.clone(), code: first.code });
        }
        out
    }

    fn dispatch(
        &self,
        p: &CompiledPolicy,
        req: &Request,
        params: &[Json],
        rules: &authz::Rules,
        out: &mut Outcome,
        failures: &mut Vec<Failure>,
    ) {
        let name = p.policy.name.as_str();
        let bindings: Vec<&Binding> =
            self.bindings.iter().filter(|b| b.kind == PolicyKind::Validating && b.spec.policy_name == name).collect();
        if bindings.is_empty() {
            note(out, name, None, false, String::from("no binding names this policy"));
            return;
        }
        let fail = p.policy.failure_policy() == model::FailurePolicy::Fail;
        // Configuration errors deny unless failurePolicy is Ignore, whatever the actions.
        let config_error = |out: &mut Outcome, binding: Option<&str>, err: String| {
            note(out, name, binding, false, format!("error: {err}"));
            if fail {
                let prefix =
                    if binding.is_some() { "failed to configure binding" } else { "failed to configure policy" };
                out.denials.push(denial(name, binding, format!("{prefix}: {err}"), String::new()));
            }
        };
        let Some(constraints) = &p.policy.matcher else {
            config_error(out, None, String::from("policy contained no match constraints, a required field"));
            return;
        };
        let equivalents = |r: &Gvr| self.equivalents(&req.kind.kind, r);
        let (resource, kind) = match constraints.matches(req, &equivalents) {
            Match::No(why) => return note(out, name, None, false, format!("matchConstraints: {why}")),
            Match::Error(e) => return config_error(out, None, e),
            Match::Yes { resource, kind, .. } => (resource, kind),
        };
        // Matched through an equivalent version: the object is "converted" to it (its
        // apiVersion, as a CRD's `None` conversion does; kubedv converts nothing else).
        let converted;
        let req = if kind != req.kind {
            converted = converted_to(req, &kind);
            &converted
        } else {
            req
        };
        let mut collector: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for b in bindings {
            let bname = b.name.as_str();
            let why = match &b.matcher {
                None => String::from("matchConstraints match; the binding has no matchResources"),
                Some(m) => match m.matches(req, &equivalents) {
                    Match::No(why) => {
                        note(out, name, Some(bname), false, format!("matchResources: {why}"));
                        continue;
                    }
                    Match::Error(e) => {
                        config_error(out, Some(bname), e);
                        continue;
                    }
                    Match::Yes { why, .. } => format!("matchConstraints and matchResources match ({why})"),
                },
            };
            let list = match params::collect(
                p.policy.spec.param_kind.as_ref(),
                b.spec.param_ref.as_ref(),
                &req.namespace,
                params,
            ) {
                Ok(l) => l,
                Err(e) => {
                    config_error(out, Some(bname), e);
                    continue;
                }
            };
            if list.is_empty() {
                note(out, name, Some(bname), false, format!("{why}; no params found (parameterNotFoundAction: Allow)"));
                continue;
            }
            for param in list {
                let (with, without) = bindings_for(req, &kind, &resource, param, rules);
                let v = validating::validate(p, &with, &without);
                let mut e = Evaluation {
                    policy: String::from(name),
                    binding: Some(String::from(bname)),
                    params: param.map(object_ref),
                    matched: v.not_matched.is_none(),
                    why: match &v.not_matched {
                        Some(c) => format!("{why}; matchCondition {} is false", go_quote(c)),
                        None => why.clone(),
                    },
                    validations: Vec::new(),
                };
                for d in &v.decisions {
                    e.validations.push(ValidationResult {
                        expression: p.validations.get(d.index).map_or_else(String::new, |x| x.expr.source.clone()),
                        result: match d.result {
                            Verdict::True => Json::Bool(true),
                            Verdict::False => Json::Bool(false),
                            Verdict::Error => Json::from("error"),
                        },
                        message: d.message.clone(),
                        cost: d.cost,
                    });
                    if d.action != Action::Deny {
                        continue;
                    }
                    for action in &b.spec.validation_actions {
                        match action.as_str() {
                            "Deny" => out.denials.push(denial(name, Some(bname), d.message.clone(), d.reason.clone())),
                            "Warn" => out.warnings.push(format!(
                                "Validation failed for ValidatingAdmissionPolicy '{name}' with binding '{bname}': {}",
                                d.message
                            )),
                            "Audit" => failures.push(Failure {
                                message: d.message.clone(),
                                policy: b.spec.policy_name.clone(),
                                binding: String::from(bname),
                                expression_index: d.index,
                                validation_actions: b.spec.validation_actions.clone(),
                            }),
                            _ => {}
                        }
                    }
                }
                for a in v.annotations {
                    match a {
                        Annotation::Publish(key, mut value) => {
                            truncate_bytes(&mut value, 10 * 1024);
                            let values = collector.entry(key).or_default();
                            if !values.contains(&value) {
                                values.push(value);
                            }
                        }
                        // An audit annotation's error denies, whatever the actions.
                        Annotation::Error(m) => out.denials.push(denial(name, Some(bname), m, String::new())),
                        Annotation::Exclude => {}
                    }
                }
                out.evaluations.push(e);
            }
        }
        for (key, values) in collector {
            out.audit_annotations.insert(format!("{name}/{key}"), values.join(", "));
        }
    }
}

fn note(out: &mut Outcome, policy: &str, binding: Option<&str>, matched: bool, why: String) {
    out.evaluations.push(Evaluation {
        policy: String::from(policy),
        binding: binding.map(String::from),
        params: None,
        matched,
        why,
        validations: Vec::new(),
    });
}

/// The request with its objects at another version of their kind (apiVersion only).
fn converted_to(req: &Request, kind: &Gvk) -> Request {
    let api_version = Json::from(crate::lifecycle::group_version(&kind.group, &kind.version));
    let convert = |o: &Option<Json>| {
        o.clone().map(|mut o| {
            if let Some(m) = o.as_object_mut() {
                m.insert(String::from("apiVersion"), api_version.clone());
            }
            o
        })
    };
    Request { object: convert(&req.object), old_object: convert(&req.old_object), ..req.clone() }
}

fn truncate_bytes(s: &mut String, max: usize) {
    if s.len() > max {
        let mut end = max;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        s.truncate(end);
    }
}

fn object_ref(o: &Json) -> String {
    let m = |k: &str| o.pointer(&format!("/metadata/{k}")).and_then(Json::as_str).unwrap_or("");
    match m("namespace") {
        "" => String::from(m("name")),
        ns => format!("{ns}/{}", m("name")),
    }
}

/// `reasonToCode`.
fn code(reason: &str) -> u16 {
    match reason {
        "Forbidden" => 403,
        "Unauthorized" => 401,
        "RequestEntityTooLarge" => 413,
        _ => 422,
    }
}

fn denial(policy: &str, binding: Option<&str>, message: String, reason: String) -> Denial {
    let reason = if reason.is_empty() { String::from("Invalid") } else { reason };
    let text = match binding {
        Some(b) => format!("ValidatingAdmissionPolicy '{policy}' with binding '{b}' denied request: {message}"),
        None => format!("ValidatingAdmissionPolicy '{policy}' denied request: {message}"),
    };
    Denial {
        policy: String::from(policy),
        binding: binding.map(String::from),
        code: code(&reason),
        message,
        reason,
        text,
    }
}

/// apimachinery `NewForbidden(resource, name, err)`'s message: `deployments.apps "web" is
/// forbidden: ...` (the name from the request, else the object's name or generateName, else
/// `Unknown`).
fn forbidden(req: &Request, text: &str) -> String {
    let resource = match req.resource.group.as_str() {
        "" => req.resource.resource.clone(),
        g => format!("{}.{g}", req.resource.resource),
    };
    let obj = req.object.as_ref().or(req.old_object.as_ref());
    let meta = |k: &str| obj.and_then(|o| o.pointer(&format!("/metadata/{k}"))).and_then(Json::as_str).unwrap_or("");
    let name = [req.name.as_str(), meta("name"), meta("generateName")]
        .into_iter()
        .find(|n| !n.is_empty())
        .unwrap_or("Unknown");
    if resource.is_empty() {
        return format!("forbidden: {text}");
    }
    format!("{resource} {} is forbidden: {text}", go_quote(name))
}

/// An entry of the `validation_failure` audit annotation (`ValidationFailureValue`, its
/// fields in Go's order).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Failure {
    message: String,
    policy: String,
    binding: String,
    expression_index: usize,
    validation_actions: Vec<String>,
}

/// Go's `encoding/json` text: HTML characters escaped.
fn go_json_text(v: &impl Serialize) -> String {
    serde_json::to_string(v).unwrap_or_default().replace('<', "\\u003c").replace('>', "\\u003e").replace('&', "\\u0026")
}

/// `namespaceObject`: only `metadata` (without managed fields and owner references), `spec`
/// and `status` (condition.go).
fn namespace_value(ns: &Json) -> Json {
    let mut out = Map::new();
    if let Some(meta) = ns.get("metadata").and_then(Json::as_object) {
        let keep = [
            "name",
            "generateName",
            "namespace",
            "uid",
            "resourceVersion",
            "generation",
            "creationTimestamp",
            "deletionTimestamp",
            "deletionGracePeriodSeconds",
            "labels",
            "annotations",
            "finalizers",
        ];
        let m: Map<String, Json> =
            meta.iter().filter(|(k, _)| keep.contains(&k.as_str())).map(|(k, v)| (k.clone(), v.clone())).collect();
        out.insert("metadata".into(), Json::Object(m));
    }
    for k in ["spec", "status"] {
        if let Some(v) = ns.get(k) {
            out.insert(k.into(), v.clone());
        }
    }
    Json::Object(out)
}

/// The variables of a policy's evaluation: with the authorizer (validations, conditions) and
/// without (messages, audit annotations).
fn bindings_for(
    req: &Request,
    kind: &Gvk,
    resource: &Gvr,
    param: Option<&Json>,
    rules: &authz::Rules,
) -> (validating::Bindings, validating::Bindings) {
    let mut b: validating::Bindings = BTreeMap::new();
    let opt = |o: &Option<Json>| o.as_ref().map_or(Value::Null, from_json);
    b.insert("object", opt(&req.object));
    b.insert("oldObject", opt(&req.old_object));
    b.insert("params", param.map_or(Value::Null, from_json));
    b.insert("request", from_json(&req.to_cel_json(kind, resource)));
    let is_namespace = req.kind.group.is_empty() && req.kind.version == "v1" && req.kind.kind == "Namespace";
    let ns = if is_namespace || req.namespace.is_empty() {
        Value::Null
    } else {
        match &req.namespace_object {
            Some(ns) => from_json(&namespace_value(ns)),
            None => from_json(&json!({"metadata": {"name": req.namespace}})),
        }
    };
    b.insert("namespaceObject", ns);
    let without = b.clone();
    let user = User { name: req.user.username.clone(), groups: req.user.groups.clone() };
    b.insert("authorizer", authz::authorizer(rules.clone(), user.clone()));
    let check = ResourceCheck {
        group: req.resource.group.clone(),
        resource: req.resource.resource.clone(),
        subresource: req.sub_resource.clone(),
        namespace: req.namespace.clone(),
        name: req.name.clone(),
        ..Default::default()
    };
    b.insert("authorizer.requestResource", authz::request_resource(rules.clone(), user, check));
    (b, without)
}
