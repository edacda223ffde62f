//! The admission registration objects, read from JSON: ValidatingAdmissionPolicy and its
//! binding (`admissionregistration.k8s.io/v1`), MutatingAdmissionPolicy and its binding
//! (`v1beta1`, `v1`), with the defaults the API server applies when they are created
//! (`pkg/apis/admissionregistration/v1/defaults.go`: `failurePolicy: Fail`, `matchPolicy:
//! Equivalent`, empty selectors, `scope: "*"`, `parameterNotFoundAction: Deny`,
//! `reinvocationPolicy: Never`).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde::Deserialize;
use serde_json::Value as Json;

use super::matching::Matcher;

/// Which kind of policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PolicyKind {
    /// `ValidatingAdmissionPolicy`.
    Validating,
    /// `MutatingAdmissionPolicy`.
    Mutating,
}

impl PolicyKind {
    /// The kind's name.
    pub fn name(self) -> &'static str {
        match self {
            PolicyKind::Validating => "ValidatingAdmissionPolicy",
            PolicyKind::Mutating => "MutatingAdmissionPolicy",
        }
    }

    /// The kind of a policy document, if it is one.
    pub fn of_policy(api_version: &str, kind: &str) -> Option<PolicyKind> {
        match (api_version, kind) {
            (
                "admissionregistration.k8s.io/v1" | "admissionregistration.k8s.io/v1beta1",
                "ValidatingAdmissionPolicy",
            ) => Some(PolicyKind::Validating),
            (
                "admissionregistration.k8s.io/v1"
                | "admissionregistration.k8s.io/v1beta1"
                | "admissionregistration.k8s.io/v1alpha1",
                "MutatingAdmissionPolicy",
            ) => Some(PolicyKind::Mutating),
            _ => None,
        }
    }

    /// The kind of a binding document, if it is one.
    pub fn of_binding(api_version: &str, kind: &str) -> Option<PolicyKind> {
        let kind = kind.strip_suffix("Binding")?;
        PolicyKind::of_policy(api_version, kind)
    }
}

/// `failurePolicy`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
pub enum FailurePolicy {
    /// Errors deny the request (the default).
    #[default]
    Fail,
    /// Errors are ignored.
    Ignore,
}

/// `matchPolicy`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
pub enum MatchPolicy {
    /// Only the listed group/version/resource.
    Exact,
    /// Also the same resource through another group/version (the default).
    #[default]
    Equivalent,
}

/// A rule of `resourceRules` / `excludeResourceRules`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct NamedRule {
    /// Names the rule is limited to (empty: any).
    pub resource_names: Vec<String>,
    /// `CREATE`, `UPDATE`, `DELETE`, `CONNECT` or `*`.
    pub operations: Vec<String>,
    /// API groups (`*`: any).
    pub api_groups: Vec<String>,
    /// API versions (`*`: any).
    pub api_versions: Vec<String>,
    /// Resources, with `resource/subresource` forms and `*`.
    pub resources: Vec<String>,
    /// `Cluster`, `Namespaced` or `*` (the default).
    pub scope: Option<String>,
}

/// `matchConstraints` / `matchResources`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct MatchResources {
    /// Which namespaces' objects (`{}` by default).
    pub namespace_selector: Option<Json>,
    /// Which objects, by their labels or their old labels (`{}` by default).
    pub object_selector: Option<Json>,
    /// What the policy applies to.
    pub resource_rules: Vec<NamedRule>,
    /// What it never applies to.
    pub exclude_resource_rules: Vec<NamedRule>,
    /// `Exact` or `Equivalent`.
    pub match_policy: Option<MatchPolicy>,
}

/// A named expression (`matchConditions`, `variables`).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct NamedExpression {
    /// The name.
    pub name: String,
    /// The CEL expression.
    pub expression: String,
}

/// One of `validations`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Validation {
    /// The CEL expression.
    pub expression: String,
    /// The message when it is false.
    pub message: Option<String>,
    /// The status reason (`Unauthorized`, `Forbidden`, `Invalid`, `RequestEntityTooLarge`).
    pub reason: Option<String>,
    /// A CEL expression giving the message.
    pub message_expression: Option<String>,
}

/// One of `auditAnnotations`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct AuditAnnotation {
    /// The key (the policy's name and `/` are prefixed).
    pub key: String,
    /// A CEL expression giving the value (null: no annotation).
    pub value_expression: String,
}

/// One of a MutatingAdmissionPolicy's `mutations`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Mutation {
    /// `ApplyConfiguration` or `JSONPatch`.
    pub patch_type: String,
    /// `{expression}` for ApplyConfiguration.
    pub apply_configuration: Option<ExpressionHolder>,
    /// `{expression}` for JSONPatch.
    pub json_patch: Option<ExpressionHolder>,
}

/// `{expression: ...}`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct ExpressionHolder {
    /// The CEL expression.
    pub expression: String,
}

/// `paramKind`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ParamKind {
    /// `group/version`.
    pub api_version: String,
    /// The kind.
    pub kind: String,
}

/// A policy's spec (the fields of both kinds).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct PolicySpec {
    /// The kind of the params object, if the policy has params.
    pub param_kind: Option<ParamKind>,
    /// What the policy can apply to.
    pub match_constraints: Option<MatchResources>,
    /// Validations (VAP).
    pub validations: Vec<Validation>,
    /// Mutations (MAP).
    pub mutations: Vec<Mutation>,
    /// `Fail` (default) or `Ignore`.
    pub failure_policy: Option<FailurePolicy>,
    /// Audit annotations (VAP).
    pub audit_annotations: Vec<AuditAnnotation>,
    /// Conditions that must all hold for the policy to run.
    pub match_conditions: Vec<NamedExpression>,
    /// Composited variables, evaluated lazily in order.
    pub variables: Vec<NamedExpression>,
    /// `Never` (default) or `IfNeeded` (MAP).
    pub reinvocation_policy: Option<String>,
}

/// `paramRef`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ParamRef {
    /// One params object by name.
    pub name: Option<String>,
    /// Its namespace (for namespaced params: default the request's namespace).
    pub namespace: Option<String>,
    /// Every params object its labels select.
    pub selector: Option<Json>,
    /// `Allow` or `Deny`.
    pub parameter_not_found_action: Option<String>,
}

/// A binding's spec (the fields of both kinds).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct BindingSpec {
    /// The policy bound.
    pub policy_name: String,
    /// Where the params come from.
    pub param_ref: Option<ParamRef>,
    /// Narrows what the policy applies to (unset: all it matches).
    pub match_resources: Option<MatchResources>,
    /// `Deny`, `Warn`, `Audit` (VAP).
    pub validation_actions: Vec<String>,
}

/// A policy document.
#[derive(Clone, Debug)]
pub struct Policy {
    /// Which kind.
    pub kind: PolicyKind,
    /// `metadata.name`.
    pub name: String,
    /// The spec.
    pub spec: PolicySpec,
    /// `spec.matchConstraints`, compiled once.
    pub matcher: Option<Matcher>,
}

/// A binding document.
#[derive(Clone, Debug)]
pub struct Binding {
    /// Which kind of policy it binds.
    pub kind: PolicyKind,
    /// `metadata.name`.
    pub name: String,
    /// The spec.
    pub spec: BindingSpec,
    /// `spec.matchResources`, compiled once.
    pub matcher: Option<Matcher>,
}

fn name_of(doc: &Json) -> String {
    String::from(doc.pointer("/metadata/name").and_then(Json::as_str).unwrap_or(""))
}

fn spec<'de, T: Deserialize<'de>>(doc: &'de Json, what: &str, name: &str) -> Result<T, String> {
    match doc.get("spec") {
        None | Some(Json::Null) => Err(format!("{what} {name:?} has no spec")),
        Some(s) => T::deserialize(s).map_err(|e| format!("{what} {name:?}: spec: {e}")),
    }
}

impl Policy {
    /// Reads a policy document of `kind`.
    pub fn read(doc: &Json, kind: PolicyKind) -> Result<Policy, String> {
        let name = name_of(doc);
        let spec: PolicySpec = spec(doc, kind.name(), &name)?;
        let matcher = spec.match_constraints.as_ref().map(Matcher::new);
        Ok(Policy { kind, name, spec, matcher })
    }

    /// `failurePolicy`, defaulted.
    pub fn failure_policy(&self) -> FailurePolicy {
        self.spec.failure_policy.unwrap_or_default()
    }
}

impl Binding {
    /// Reads a binding document of `kind`.
    pub fn read(doc: &Json, kind: PolicyKind) -> Result<Binding, String> {
        let name = name_of(doc);
        let what = format!("{}Binding", kind.name());
        let spec: BindingSpec = spec(doc, &what, &name)?;
        let matcher = spec.match_resources.as_ref().map(Matcher::new);
        Ok(Binding { kind, name, spec, matcher })
    }
}
