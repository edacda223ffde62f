//! What the admission policies and the webhook configurations share in
//! admissionregistration validation.go: reading the decoded object, the compiler
//! (`createCompiler`, the stateless one), rules (`validateRuleWithOperations`, `validateRule`,
//! `validateResources`, `validateNamedRuleWithOperations`), `validateMatchResources` and
//! `validateMatchConditions`.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value as Json;

use super::super::compile::{creation_error, Declarations, Env, Returns};
use crate::cel::checker::CelType;
use crate::field::{Error, ErrorType, Path};

// ---- reading the decoded object as Go reads its typed fields ----

pub(super) fn get<'a>(v: &'a Json, key: &str) -> Option<&'a Json> {
    v.get(key).filter(|x| !x.is_null())
}

pub(super) fn text<'a>(v: &'a Json, key: &str) -> &'a str {
    v.get(key).and_then(Json::as_str).unwrap_or("")
}

pub(super) fn opt_text<'a>(v: &'a Json, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Json::as_str)
}

pub(super) fn items<'a>(v: &'a Json, key: &str) -> &'a [Json] {
    v.get(key).and_then(Json::as_array).map_or(&[], Vec::as_slice)
}

pub(super) fn strings<'a>(v: &'a Json, key: &str) -> Vec<&'a str> {
    items(v, key).iter().map(|s| s.as_str().unwrap_or("")).collect()
}

pub(super) fn string_list(list: &[&str]) -> Json {
    Json::Array(list.iter().map(|s| Json::from(*s)).collect())
}

pub(super) static NULL: Json = Json::Null;

pub(super) fn field<'a>(v: &'a Json, key: &str) -> &'a Json {
    v.get(key).unwrap_or(&NULL)
}

// ---- small helpers from apimachinery ----

pub(super) fn required(path: &Path<'_>, detail: &str) -> Error {
    Error::new(ErrorType::Required, path, None, detail)
}

pub(super) fn duplicate(path: &Path<'_>, value: &str) -> Error {
    Error::new(ErrorType::Duplicate, path, Some(Json::from(value)), "")
}

pub(super) fn forbidden(path: &Path<'_>, detail: &str) -> Error {
    Error::new(ErrorType::Forbidden, path, None, detail)
}

/// util/validation `IsDNS1123Subdomain` (its length message counts characters).
pub fn is_dns1123_subdomain(value: &str) -> Vec<String> {
    crate::cel::k8s::named_format("dns1123Subdomain").map_or_else(Vec::new, |f| f.validate(value))
}

/// `ValidateQualifiedName`.
pub fn validate_qualified_name(value: &str, path: &Path<'_>, errors: &mut Vec<Error>) {
    for msg in crate::content::is_label_key(value) {
        errors.push(Error::invalid(path, value, msg).with_origin("format=qualified-name"));
    }
}

/// meta/v1 `ValidateLabelSelector` (`AllowInvalidLabelValueInSelector` as given).
pub fn validate_label_selector(
    selector: &Json,
    allow_invalid_label_value: bool,
    path: &Path<'_>,
    errors: &mut Vec<Error>,
) {
    crate::metav1::validate_label_selector(Some(selector), allow_invalid_label_value, path, errors);
}

pub(super) fn has_wildcard(list: &[&str]) -> bool {
    list.contains(&"*")
}

// ---- the compiler ----

/// The expressions of the old object of an update (`preexistingExpressions`): compiled in the
/// StoredExpressions environment when they are unchanged.
#[derive(Clone, Debug, Default)]
pub struct Preexisting {
    /// `matchConditionExpressions`.
    pub match_conditions: Vec<String>,
    /// `validationExpressions`.
    pub validations: Vec<String>,
    /// `validationMessageExpressions`.
    pub messages: Vec<String>,
    /// `auditAnnotationValuesExpressions`.
    pub audit_annotations: Vec<String>,
    /// `applyConfigurationExpressions`.
    pub apply_configurations: Vec<String>,
    /// `jsonPatchExpressions`.
    pub json_patches: Vec<String>,
}

/// `validationOptions`.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// `ignoreMatchConditions`.
    pub ignore_match_conditions: bool,
    /// `allowParamsInMatchConditions`.
    pub allow_params_in_match_conditions: bool,
    /// `requireNoSideEffects`.
    pub require_no_side_effects: bool,
    /// `requireRecognizedAdmissionReviewVersion`.
    pub require_recognized_admission_review_version: bool,
    /// `requireUniqueWebhookNames`.
    pub require_unique_webhook_names: bool,
    /// `allowInvalidLabelValueInSelector`.
    pub allow_invalid_label_value_in_selector: bool,
    /// `preexistingExpressions`.
    pub preexisting: Preexisting,
    /// The API server's release (1.`minor`): its environments.
    pub minor: u32,
}

impl Options {
    /// The options of a create (`ValidateX`) on Kubernetes 1.`minor`.
    pub fn create(minor: u32) -> Options {
        Options {
            require_no_side_effects: true,
            require_recognized_admission_review_version: true,
            require_unique_webhook_names: true,
            minor,
            ..Options::default()
        }
    }

    /// The compatibility version of an expression: the server's own for a stored one.
    pub(super) fn compatibility(&self, stored: bool) -> u32 {
        match stored {
            true => self.minor,
            false => crate::cel::environment::new_expressions(self.minor),
        }
    }
}

/// `CompileCELExpression` of one expression: its error detail, if any, and its output type.
pub(super) fn compile(decls: &Declarations, source: &str, returns: Returns) -> (Option<String>, CelType) {
    let c = decls.compile(source, returns);
    (c.program.err(), c.output)
}

/// A policy's compiler (`createCompiler`): stateless, or composited with the variables so far.
pub(super) struct Compiler {
    composited: bool,
    variables: Vec<(String, CelType)>,
}

impl Compiler {
    pub(super) fn new(composited: bool) -> Compiler {
        Compiler { composited, variables: Vec::new() }
    }

    pub(super) fn decls(&self, env: Env) -> Declarations {
        if !self.composited {
            return Declarations::stateless(env);
        }
        let mut d = Declarations::new(env);
        for (name, t) in &self.variables {
            d.add_variable(name, t.clone());
        }
        d
    }

    /// `CompileCELExpression`, returning the detail of a refusal.
    pub(super) fn compile(&self, env: Env, source: &str, returns: Returns) -> Option<String> {
        compile(&self.decls(env), source, returns).0
    }

    /// `CompileAndStoreVariable`.
    pub(super) fn compile_and_store(&mut self, env: Env, name: &str, source: &str) -> Option<String> {
        let (err, t) = compile(&self.decls(env), source, Returns::Any);
        self.variables.push((String::from(name), t));
        err
    }
}

pub(super) fn env(params: bool, authorizer: bool, patch_types: bool, compatibility: u32) -> Env {
    Env { params, authorizer, patch_types, compatibility }
}

// ---- rules ----

/// `validateResources`.
pub(super) fn validate_resources(resources: &[&str], path: &Path<'_>, errors: &mut Vec<Error>) {
    if resources.is_empty() {
        errors.push(required(path, ""));
    }
    let (mut wildcard_subs, mut wildcard_res): (Vec<&str>, Vec<&str>) = (Vec::new(), Vec::new());
    let (mut double, mut single, mut plain) = (false, false, false);
    for (i, rs) in resources.iter().copied().enumerate() {
        if rs.is_empty() {
            errors.push(required(&path.index(i), ""));
            continue;
        }
        double |= rs == "*/*";
        single |= rs == "*";
        let Some((res, sub)) = rs.split_once('/') else {
            plain = rs != "*";
            continue;
        };
        if wildcard_subs.contains(&res) {
            errors.push(Error::invalid(&path.index(i), rs, format!("if '{res}/*' is present, must not specify {rs}")));
        }
        if wildcard_res.contains(&sub) {
            errors.push(Error::invalid(&path.index(i), rs, format!("if '*/{sub}' is present, must not specify {rs}")));
        }
        if sub == "*" {
            wildcard_subs.push(res);
        }
        if res == "*" {
            wildcard_res.push(sub);
        }
    }
    if resources.len() > 1 && double {
        errors.push(Error::invalid(
            path,
            string_list(resources),
            "if '*/*' is present, must not specify other resources",
        ));
    }
    if single && plain {
        errors.push(Error::invalid(
            path,
            string_list(resources),
            "if '*' is present, must not specify other resources without subresources",
        ));
    }
}

/// `validateRule` (subresources allowed).
pub(super) fn validate_rule(rule: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let groups = strings(rule, "apiGroups");
    let versions = strings(rule, "apiVersions");
    if groups.is_empty() {
        errors.push(required(&path.child("apiGroups"), ""));
    }
    if groups.len() > 1 && has_wildcard(&groups) {
        errors.push(Error::invalid(
            &path.child("apiGroups"),
            string_list(&groups),
            "if '*' is present, must not specify other API groups",
        ));
    }
    if versions.is_empty() {
        errors.push(required(&path.child("apiVersions"), ""));
    }
    if versions.len() > 1 && has_wildcard(&versions) {
        errors.push(Error::invalid(
            &path.child("apiVersions"),
            string_list(&versions),
            "if '*' is present, must not specify other API versions",
        ));
    }
    let vp = path.child("apiVersions");
    for (i, v) in versions.iter().enumerate() {
        if v.is_empty() {
            errors.push(required(&vp.index(i), ""));
        }
    }
    validate_resources(&strings(rule, "resources"), &path.child("resources"), errors);
    if let Some(scope) = opt_text(rule, "scope") {
        if !matches!(scope, "*" | "Cluster" | "Namespaced") {
            errors.push(Error::not_supported(&path.child("scope"), scope, &["*", "Cluster", "Namespaced"]));
        }
    }
}

/// `validateRuleWithOperations`.
pub fn validate_rule_with_operations(rule: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let ops = strings(rule, "operations");
    let op_path = path.child("operations");
    if ops.is_empty() {
        errors.push(required(&op_path, ""));
    }
    if ops.len() > 1 && has_wildcard(&ops) {
        errors.push(Error::invalid(
            &op_path,
            string_list(&ops),
            "if '*' is present, must not specify other operations",
        ));
    }
    for (i, op) in ops.iter().enumerate() {
        if !matches!(*op, "*" | "CREATE" | "UPDATE" | "DELETE" | "CONNECT") {
            errors.push(Error::not_supported(&op_path.index(i), op, &["*", "CONNECT", "CREATE", "DELETE", "UPDATE"]));
        }
    }
    validate_rule(rule, path, errors);
}

/// `validateNamedRuleWithOperations`.
pub(super) fn validate_named_rule_with_operations(rule: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let names_path = path.child("resourceNames");
    let mut seen: Vec<&str> = Vec::new();
    for (i, name) in strings(rule, "resourceNames").into_iter().enumerate() {
        for msg in crate::content::is_path_segment_name(name) {
            errors.push(Error::invalid(&names_path.index(i), name, msg));
        }
        if seen.contains(&name) {
            errors.push(duplicate(&names_path.index(i), name));
        } else {
            seen.push(name);
        }
    }
    validate_rule_with_operations(rule, path, errors);
}

/// `validateMatchResources`.
pub(super) fn validate_match_resources(mc: Option<&Json>, path: &Path<'_>, errors: &mut Vec<Error>) {
    let Some(mc) = mc else { return };
    match opt_text(mc, "matchPolicy") {
        None => errors.push(required(&path.child("matchPolicy"), "")),
        Some("Exact" | "Equivalent") => {}
        Some(other) => errors.push(Error::not_supported(&path.child("matchPolicy"), other, &["Equivalent", "Exact"])),
    }
    for key in ["namespaceSelector", "objectSelector"] {
        match get(mc, key) {
            None => errors.push(required(&path.child(key), "")),
            Some(s) => validate_label_selector(s, false, &path.child(key), errors),
        }
    }
    for key in ["resourceRules", "excludeResourceRules"] {
        let p = path.child(key);
        for (i, rule) in items(mc, key).iter().enumerate() {
            validate_named_rule_with_operations(rule, &p.index(i), errors);
        }
    }
}

// ---- match conditions ----

/// `validateMatchConditions`, with `validateMatchCondition` and
/// `validateMatchConditionsExpression` (the stateless compiler, with the authorizer).
pub fn validate_match_conditions(list: &[Json], opts: &Options, path: &Path<'_>, errors: &mut Vec<Error>) {
    if list.len() > 64 {
        errors.push(Error::too_many(path, list.len(), 64));
    }
    let mut names: Vec<&str> = Vec::new();
    for (i, mc) in list.iter().enumerate() {
        let at = path.index(i);
        let expression = text(mc, "expression").trim();
        if expression.is_empty() {
            errors.push(required(&at.child("expression"), ""));
        } else {
            let stored = opts.preexisting.match_conditions.iter().any(|e| e == expression);
            let env = env(opts.allow_params_in_match_conditions, true, false, opts.compatibility(stored));
            if let (Some(e), _) = compile(&Declarations::stateless(env), expression, Returns::Bool) {
                errors.push(creation_error(&at.child("expression").render(), expression, &e));
            }
        }
        let name = text(mc, "name");
        if name.is_empty() {
            errors.push(required(&at.child("name"), ""));
        } else {
            validate_qualified_name(name, &at.child("name"), errors);
        }
        if !name.is_empty() {
            if names.contains(&name) {
                errors.push(duplicate(&at.child("name"), name));
            } else {
                names.push(name);
            }
        }
    }
}
