//! What the API server refuses when an admission policy or its binding is created or updated:
//! kubernetes `pkg/apis/admissionregistration/validation/validation.go` for
//! ValidatingAdmissionPolicy, MutatingAdmissionPolicy and their bindings (with the checks the
//! webhook configurations share: rules, match conditions), and their defaulting
//! (`pkg/apis/admissionregistration/{v1,v1beta1,v1alpha1}/defaults.go`), on the decoded object
//! (a `serde_json::Value` in the served version, whose field names are the internal type's).
//!
//! This is the one copy of these checks: `kubedv policy` ([`super::PolicySet`],
//! [`super::creation_errors`]) and the API server's path for built-in kinds
//! (`crate::apis::admissionregistration`) both call it. Expressions are compiled as the
//! validation compiles them (`createCompiler`, `getStrictStatelessCELCompiler`): in the
//! *NewExpressions* environment of the server, or the *StoredExpressions* one for an expression
//! the old object of an update already had, and refused with the compiler's detail.
//!
//! In a build without the `apis` feature, label selectors are not validated here.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{Map, Value as Json};

mod common;

use super::compile::{creation_error, Returns};
use crate::field::{Error, Path};
use common::{
    duplicate, env, field, forbidden, get, items, opt_text, required, string_list, strings, text,
    validate_match_resources, Compiler, NULL,
};
pub use common::{
    is_dns1123_subdomain, validate_label_selector, validate_match_conditions, validate_qualified_name,
    validate_rule_with_operations, Options, Preexisting,
};

const MAX_AUDIT_ANNOTATIONS: usize = 20;
const MAX_AUDIT_ANNOTATION_VALUE_EXPRESSION_LENGTH: usize = 5 * 1024;
/// `StaticConfigSuffix` (static_suffix.go).
pub const STATIC_CONFIG_SUFFIX: &str = ".static.k8s.io";

// ---- policies ----

/// `validateParamKind`, with `parseGroupVersion`.
fn validate_param_kind(pk: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let api_version = text(pk, "apiVersion");
    let at = path.child("apiVersion");
    if api_version.is_empty() {
        errors.push(required(&at, ""));
    } else if api_version.matches('/').count() > 1 {
        errors.push(Error::invalid(&at, api_version, format!("unexpected GroupVersion string: {api_version}")));
    } else {
        let (group, version) = match api_version {
            "/" => ("", ""),
            gv => gv.split_once('/').unwrap_or(("", gv)),
        };
        if !group.is_empty() {
            let errs = is_dns1123_subdomain(group);
            if !errs.is_empty() {
                errors.push(Error::invalid(&at, group, errs.join(",")));
            }
        }
        if version.is_empty() {
            errors.push(Error::invalid(&at, api_version, "version must be specified"));
        } else {
            let errs = crate::cel::k8s::is_dns1035_label(version);
            if !errs.is_empty() {
                errors.push(Error::invalid(&at, version, errs.join(",")));
            }
        }
    }
    let kind = text(pk, "kind");
    if kind.is_empty() {
        errors.push(required(&path.child("kind"), ""));
    } else {
        let errs = crate::cel::k8s::is_dns1035_label(&kind.to_lowercase());
        if !errs.is_empty() {
            errors.push(Error::invalid(
                &path.child("kind"),
                kind,
                format!("may have mixed case, but should otherwise match: {}", errs.join(",")),
            ));
        }
    }
}

fn validate_failure_policy(spec: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    match opt_text(spec, "failurePolicy") {
        None => errors.push(required(&path.child("failurePolicy"), "")),
        Some("Fail" | "Ignore") => {}
        Some(other) => errors.push(Error::not_supported(&path.child("failurePolicy"), other, &["Fail", "Ignore"])),
    }
}

/// `hasNewlines`.
fn has_newlines(s: &str) -> bool {
    s.contains(['\n', '\r'])
}

/// `isCELIdentifier`.
fn is_cel_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c == '_' || c.is_ascii_alphabetic())
        && chars.all(|c| c == '_' || c.is_ascii_alphanumeric())
        && !matches!(name, "true" | "false" | "null" | "in")
        && !crate::cel::RESERVED.contains(&name)
}

/// `validateVariable` (the composited compiler always: a policy with variables has one).
fn validate_variable(
    compiler: &mut Compiler,
    v: &Json,
    params: bool,
    opts: &Options,
    path: &Path<'_>,
    errors: &mut Vec<Error>,
) {
    let name = text(v, "name");
    if name.trim().is_empty() {
        errors.push(required(&path.child("name"), "name is not specified"));
    } else if !is_cel_identifier(name) {
        errors.push(Error::invalid(&path.child("name"), name, "must be a valid CEL identifier"));
    }
    let expression = text(v, "expression");
    if expression.trim().is_empty() {
        errors.push(required(&path.child("expression"), "expression is not specified"));
    } else {
        let stored = opts.preexisting.validations.iter().any(|e| e == expression);
        let env = env(params, true, false, opts.compatibility(stored));
        if let Some(e) = compiler.compile_and_store(env, name, expression) {
            errors.push(creation_error(&path.child("expression").render(), expression, &e));
        }
    }
}

/// `validateValidation`, with `validateValidationExpression` and `validateMessageExpression`.
fn validate_validation(
    compiler: &Compiler,
    v: &Json,
    params: bool,
    opts: &Options,
    path: &Path<'_>,
    errors: &mut Vec<Error>,
) {
    let expression = text(v, "expression");
    let message = text(v, "message");
    let message_expression = text(v, "messageExpression");
    let (trimmed_msg, trimmed_me) = (message.trim(), message_expression.trim());
    if expression.trim().is_empty() {
        errors.push(required(&path.child("expression"), "expression is not specified"));
    } else {
        let stored = opts.preexisting.validations.iter().any(|e| e == expression);
        if let Some(e) =
            compiler.compile(env(params, true, false, opts.compatibility(stored)), expression, Returns::Bool)
        {
            errors.push(creation_error(&path.child("expression").render(), expression, &e));
        }
    }
    if !message_expression.is_empty() && trimmed_me.is_empty() {
        errors.push(Error::invalid(
            &path.child("messageExpression"),
            message_expression,
            "must be non-empty if specified",
        ));
    } else if !trimmed_me.is_empty() {
        let stored = opts.preexisting.messages.iter().any(|e| e == message_expression);
        let env = env(opts.allow_params_in_match_conditions, false, false, opts.compatibility(stored));
        if let Some(e) = compiler.compile(env, message_expression, Returns::String) {
            errors.push(creation_error(&path.child("messageExpression").render(), message_expression, &e));
        }
    }
    if !message.is_empty() && trimmed_msg.is_empty() {
        errors.push(Error::invalid(&path.child("message"), message, "must be non-empty if specified"));
    } else if has_newlines(trimmed_msg) {
        errors.push(Error::invalid(&path.child("message"), message, "must not contain line breaks"));
    }
    if let Some(reason) = opt_text(v, "reason") {
        if !matches!(reason, "Forbidden" | "Invalid" | "RequestEntityTooLarge") {
            errors.push(Error::not_supported(
                &path.child("reason"),
                reason,
                &["Forbidden", "Invalid", "RequestEntityTooLarge"],
            ));
        }
    }
}

/// `validateAuditAnnotation`.
fn validate_audit_annotation(
    compiler: &Compiler,
    name: &str,
    a: &Json,
    params: bool,
    opts: &Options,
    path: &Path<'_>,
    errors: &mut Vec<Error>,
) {
    let key = text(a, "key");
    if !name.is_empty() {
        validate_qualified_name(&format!("{name}/{key}"), &path.child("key"), errors);
    } else {
        errors.push(Error::invalid(&path.child("key"), key, "requires metadata.name be non-empty"));
    }
    let value = text(a, "valueExpression");
    let trimmed = value.trim();
    let at = path.child("valueExpression");
    if trimmed.is_empty() {
        errors.push(required(&at, "valueExpression is not specified"));
    } else if trimmed.len() > MAX_AUDIT_ANNOTATION_VALUE_EXPRESSION_LENGTH {
        errors.push(required(
            &at,
            &format!("must not exceed {MAX_AUDIT_ANNOTATION_VALUE_EXPRESSION_LENGTH} bytes in length"),
        ));
    } else {
        let stored = opts.preexisting.audit_annotations.iter().any(|e| e == value);
        if let Some(e) =
            compiler.compile(env(params, true, false, opts.compatibility(stored)), trimmed, Returns::StringOrNull)
        {
            errors.push(creation_error(&at.render(), value, &e));
        }
    }
}

/// The name of an object (`metadata.name`).
fn name_of(object: &Json) -> &str {
    text(field(object, "metadata"), "name")
}

/// `validateMatchConstraints` of both policy kinds: required, with one resource rule at least.
fn validate_match_constraints<'a>(spec: &'a Json, path: &Path<'_>, errors: &mut Vec<Error>) -> Option<&'a Json> {
    match get(spec, "matchConstraints") {
        None => {
            errors.push(required(&path.child("matchConstraints"), ""));
            None
        }
        Some(mc) => {
            validate_match_resources(Some(mc), &path.child("matchConstraints"), errors);
            if items(mc, "resourceRules").is_empty() {
                errors.push(required(&path.child("matchConstraints").child("resourceRules"), ""));
            }
            Some(mc)
        }
    }
}

/// `validateValidatingAdmissionPolicySpec` (metadata aside).
pub fn validate_validating_policy(policy: &Json, mut opts: Options, errors: &mut Vec<Error>) {
    let spec = field(policy, "spec");
    let path = Path::root();
    let path = path.child("spec");
    let variables = items(spec, "variables");
    let mut compiler = Compiler::new(!variables.is_empty());
    validate_failure_policy(spec, &path, errors);
    let param_kind = get(spec, "paramKind");
    if let Some(pk) = param_kind {
        opts.allow_params_in_match_conditions = true;
        validate_param_kind(pk, &path.child("paramKind"), errors);
    }
    let params = param_kind.is_some();
    validate_match_constraints(spec, &path, errors);
    if !opts.ignore_match_conditions {
        validate_match_conditions(items(spec, "matchConditions"), &opts, &path.child("matchConditions"), errors);
    }
    let vp = path.child("variables");
    for (i, v) in variables.iter().enumerate() {
        validate_variable(&mut compiler, v, params, &opts, &vp.index(i), errors);
    }
    let validations = items(spec, "validations");
    let audits = items(spec, "auditAnnotations");
    if validations.is_empty() && audits.is_empty() {
        let why = "validations or auditAnnotations must contain at least one item";
        errors.push(required(&path.child("validations"), why));
        errors.push(required(&path.child("auditAnnotations"), why));
        return;
    }
    let vp = path.child("validations");
    for (i, v) in validations.iter().enumerate() {
        validate_validation(&compiler, v, params, &opts, &vp.index(i), errors);
    }
    if get(spec, "auditAnnotations").is_some() {
        let ap = path.child("auditAnnotations");
        if audits.len() > MAX_AUDIT_ANNOTATIONS {
            // The internal type has no JSON tags: Go's json.Marshal prints its field names.
            let value: Vec<Json> = audits
                .iter()
                .map(|a| {
                    let mut m = Map::new();
                    m.insert(String::from("Key"), Json::from(text(a, "key")));
                    m.insert(String::from("ValueExpression"), Json::from(text(a, "valueExpression")));
                    Json::Object(m)
                })
                .collect();
            errors.push(Error::invalid(
                &ap,
                Json::Array(value),
                format!("must not have more than {MAX_AUDIT_ANNOTATIONS} auditAnnotations"),
            ));
        }
        let name = name_of(policy);
        let mut keys: Vec<&str> = Vec::new();
        for (i, a) in audits.iter().enumerate() {
            validate_audit_annotation(&compiler, name, a, params, &opts, &ap.index(i), errors);
            let key = text(a, "key");
            if keys.contains(&key) {
                errors.push(duplicate(&ap.index(i).child("key"), key));
            }
            keys.push(key);
        }
    }
}

const MUTATING_OPERATIONS: [&str; 4] = ["*", "CONNECT", "CREATE", "UPDATE"];

/// The operations a mutating policy or binding may match (`supportedMutatingOperations`).
fn validate_mutating_operations(mr: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let at = path.child("resourceRules");
    let at = at.child("operations");
    for rule in items(mr, "resourceRules") {
        for op in strings(rule, "operations") {
            if !MUTATING_OPERATIONS.contains(&op) {
                errors.push(Error::not_supported(&at, op, &MUTATING_OPERATIONS));
            }
        }
    }
}

/// `validateMutatingAdmissionPolicySpec` (metadata aside).
pub fn validate_mutating_policy(policy: &Json, mut opts: Options, errors: &mut Vec<Error>) {
    let spec = field(policy, "spec");
    let path = Path::root();
    let path = path.child("spec");
    let mut compiler = Compiler::new(true);
    validate_failure_policy(spec, &path, errors);
    let param_kind = get(spec, "paramKind");
    if let Some(pk) = param_kind {
        opts.allow_params_in_match_conditions = true;
        validate_param_kind(pk, &path.child("paramKind"), errors);
    }
    let params = param_kind.is_some();
    if let Some(mc) = validate_match_constraints(spec, &path, errors) {
        validate_mutating_operations(mc, &path.child("matchConstraints"), errors);
    }
    if !opts.ignore_match_conditions {
        validate_match_conditions(items(spec, "matchConditions"), &opts, &path.child("matchConditions"), errors);
    }
    let vp = path.child("variables");
    for (i, v) in items(spec, "variables").iter().enumerate() {
        validate_variable(&mut compiler, v, params, &opts, &vp.index(i), errors);
    }
    let mutations = items(spec, "mutations");
    if mutations.is_empty() {
        errors.push(required(&path.child("mutations"), "mutations must contain at least one item"));
    } else {
        let mp = path.child("mutations");
        for (i, m) in mutations.iter().enumerate() {
            validate_mutation(&compiler, m, params, &opts, &mp.index(i), errors);
        }
    }
    match text(spec, "reinvocationPolicy") {
        "" => errors.push(required(&path.child("reinvocationPolicy"), "")),
        "Never" | "IfNeeded" => {}
        other => errors.push(Error::not_supported(&path.child("reinvocationPolicy"), other, &["IfNeeded", "Never"])),
    }
}

/// `validateMutation`, with `validateJSONPatch` and `validateApplyConfiguration`.
fn validate_mutation(
    compiler: &Compiler,
    m: &Json,
    params: bool,
    opts: &Options,
    path: &Path<'_>,
    errors: &mut Vec<Error>,
) {
    let patch_type = text(m, "patchType");
    let (json_patch, apply) = (get(m, "jsonPatch"), get(m, "applyConfiguration"));
    let expression = |what: &Json, key: &str, returns: Returns, errors: &mut Vec<Error>| {
        let at = path.child(key);
        let at = at.child("expression");
        let source = text(what, "expression");
        let trimmed = source.trim();
        if trimmed.is_empty() {
            errors.push(required(&at, ""));
            return;
        }
        // validation.go looks both kinds up among the old ApplyConfiguration expressions.
        let stored = opts.preexisting.apply_configurations.iter().any(|e| e == source);
        if let Some(e) = compiler.compile(env(params, true, true, opts.compatibility(stored)), trimmed, returns) {
            errors.push(creation_error(&at.render(), trimmed, &e));
        }
    };
    match patch_type {
        "" => errors.push(required(&path.child("patchType"), "")),
        "JSONPatch" => {
            match json_patch {
                None => {
                    errors.push(required(&path.child("jsonPatch"), "must be specified when patchType is JSONPatch"))
                }
                Some(jp) => expression(jp, "jsonPatch", Returns::JsonPatches, errors),
            }
            if apply.is_some() {
                errors.push(Error::invalid(
                    &path.child("applyConfiguration"),
                    "{applyConfiguration}",
                    "must not be specified when patchType is JSONPatch",
                ));
            }
        }
        "ApplyConfiguration" => {
            match apply {
                None => errors.push(required(
                    &path.child("applyConfiguration"),
                    "must be specified when patchType is ApplyConfiguration",
                )),
                Some(ac) => expression(ac, "applyConfiguration", Returns::ApplyObject, errors),
            }
            if json_patch.is_some() {
                errors.push(Error::invalid(
                    &path.child("jsonPatch"),
                    "{jsonPatch}",
                    "must not be specified when patchType is ApplyConfiguration",
                ));
            }
        }
        other => {
            errors.push(Error::not_supported(&path.child("patchType"), other, &["ApplyConfiguration", "JSONPatch"]))
        }
    }
}

// ---- bindings ----

/// `validateParamRef`.
fn validate_param_ref(pr: Option<&Json>, path: &Path<'_>, errors: &mut Vec<Error>) {
    let Some(pr) = pr else { return };
    let name = text(pr, "name");
    let selector = get(pr, "selector");
    let exclusive = "name and selector are mutually exclusive";
    if !name.is_empty() {
        for msg in crate::content::is_path_segment_name(name) {
            errors.push(Error::invalid(&path.child("name"), name, msg));
        }
        if selector.is_some() {
            errors.push(forbidden(&path.child("name"), exclusive));
        }
    }
    if let Some(s) = selector {
        validate_label_selector(s, false, &path.child("selector"), errors);
        if !name.is_empty() {
            errors.push(forbidden(&path.child("selector"), exclusive));
        }
    }
    if name.is_empty() && selector.is_none() {
        errors.push(required(path, "one of name or selector must be specified"));
    }
    match text(pr, "parameterNotFoundAction") {
        "" => errors.push(required(&path.child("parameterNotFoundAction"), "")),
        "Deny" | "Allow" => {}
        other => errors.push(Error::not_supported(&path.child("parameterNotFoundAction"), other, &["Deny", "Allow"])),
    }
}

/// `validateValidationActions`.
fn validate_validation_actions(actions: &[&str], path: &Path<'_>, errors: &mut Vec<Error>) {
    let mut seen: Vec<&str> = Vec::new();
    for (i, action) in actions.iter().copied().enumerate() {
        if !matches!(action, "Deny" | "Warn" | "Audit") {
            errors.push(Error::not_supported(&path.index(i), action, &["Audit", "Deny", "Warn"]));
        }
        if seen.contains(&action) {
            errors.push(duplicate(&path.index(i), action));
        }
        seen.push(action);
    }
    if seen.contains(&"Deny") && seen.contains(&"Warn") {
        errors.push(Error::invalid(
            path,
            string_list(actions),
            "must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)",
        ));
    }
    if seen.is_empty() {
        // `Required(path, "at least one validation action is required")`, marked covered by
        // the declarative `+k8s:required`, whose error the API server returns in its place.
        errors.push(required(path, ""));
    }
}

/// The policy name of a binding: required, a DNS subdomain.
fn validate_policy_name(spec: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let name = text(spec, "policyName");
    if name.is_empty() {
        errors.push(required(&path.child("policyName"), ""));
    } else {
        for msg in is_dns1123_subdomain(name) {
            errors.push(Error::invalid(&path.child("policyName"), name, msg));
        }
    }
}

/// `validateValidatingAdmissionPolicyBindingSpec`.
pub fn validate_validating_binding(binding: &Json, errors: &mut Vec<Error>) {
    let spec = field(binding, "spec");
    let path = Path::root();
    let path = path.child("spec");
    validate_policy_name(spec, &path, errors);
    validate_param_ref(get(spec, "paramRef"), &path.child("paramRef"), errors);
    validate_match_resources(get(spec, "matchResources"), &path.child("matchResources"), errors);
    validate_validation_actions(&strings(spec, "validationActions"), &path.child("validationActions"), errors);
}

/// `validateMutatingAdmissionPolicyBindingSpec`.
pub fn validate_mutating_binding(binding: &Json, errors: &mut Vec<Error>) {
    let spec = field(binding, "spec");
    let path = Path::root();
    let path = path.child("spec");
    validate_policy_name(spec, &path, errors);
    validate_param_ref(get(spec, "paramRef"), &path.child("paramRef"), errors);
    let mr = get(spec, "matchResources");
    validate_match_resources(mr, &path.child("matchResources"), errors);
    if let Some(mr) = mr {
        validate_mutating_operations(mr, &path.child("matchResources"), errors);
    }
}

// ---- the four kinds: create, update ----

/// The expressions of an old policy (`findValidatingPolicyPreexistingExpressions`,
/// `findMutatingPolicyPreexistingExpressions`).
fn preexisting(old: &Json) -> Preexisting {
    let spec = field(old, "spec");
    let mut p = Preexisting::default();
    let owned = |v: &Json, k: &str| String::from(text(v, k));
    p.match_conditions = items(spec, "matchConditions").iter().map(|m| owned(m, "expression")).collect();
    for v in items(spec, "validations") {
        p.validations.push(owned(v, "expression"));
        if !text(v, "messageExpression").is_empty() {
            p.messages.push(owned(v, "messageExpression"));
        }
    }
    p.audit_annotations = items(spec, "auditAnnotations").iter().map(|a| owned(a, "valueExpression")).collect();
    for m in items(spec, "mutations") {
        if let Some(ac) = get(m, "applyConfiguration") {
            p.apply_configurations.push(owned(ac, "expression"));
        }
        if let Some(jp) = get(m, "jsonPatch") {
            p.json_patches.push(owned(jp, "expression"));
        }
    }
    p
}

/// `ignoreValidatingAdmissionPolicyMatchConditions` (and the mutating one): the same
/// `paramKind` and match conditions.
fn same_param_kind_and_conditions(new: &Json, old: &Json) -> bool {
    let (a, b) = (field(new, "spec"), field(old, "spec"));
    semantic_eq(field(a, "paramKind"), field(b, "paramKind"))
        && semantic_eq(field(a, "matchConditions"), field(b, "matchConditions"))
}

/// `equality.Semantic.DeepEqual` on decoded values: an absent field, `null` and an empty list
/// are the same zero value where Go's types hold them alike.
pub fn semantic_eq(a: &Json, b: &Json) -> bool {
    let empty = |v: &Json| v.is_null() || v.as_array().is_some_and(Vec::is_empty);
    match (a, b) {
        _ if empty(a) && empty(b) => true,
        (Json::Object(x), Json::Object(y)) => {
            x.iter().all(|(k, v)| semantic_eq(v, y.get(k).unwrap_or(&NULL)))
                && y.iter().all(|(k, v)| x.contains_key(k) || semantic_eq(v, &NULL))
        }
        (Json::Array(x), Json::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| semantic_eq(p, q)),
        _ => a == b,
    }
}

/// `ValidateStaticSuffix`: the strategies' `Validate` (not `ValidateUpdate`) on Kubernetes
/// 1.37+ (`ManifestBasedAdmissionControlConfig`).
pub fn validate_static_suffix(object: &Json, minor: u32, errors: &mut Vec<Error>) {
    let name = name_of(object);
    if minor >= 37 && name.ends_with(STATIC_CONFIG_SUFFIX) {
        errors.push(Error::invalid(
            &Path::named("metadata.name"),
            name,
            format!(
                "names ending with \"{STATIC_CONFIG_SUFFIX}\" are reserved for static manifest-based configurations and cannot be managed via the API"
            ),
        ));
    }
}

/// `WarningsForStaticSuffix`.
pub fn static_suffix_warnings(object: &Json) -> Vec<String> {
    match name_of(object).ends_with(STATIC_CONFIG_SUFFIX) {
        true => alloc::vec![format!(
            "metadata.name: names ending with \"{STATIC_CONFIG_SUFFIX}\" are reserved for static manifest-based configurations and cannot be managed via the API"
        )],
        false => Vec::new(),
    }
}

/// The handwritten validation of a policy or binding (metadata aside) on Kubernetes
/// 1.`minor`: `ValidateX` with the strategy's static-suffix check on create (`old` is `None`),
/// `ValidateXUpdate` on update. `None` for another kind.
pub fn validate(kind: &str, object: &Json, old: Option<&Json>, minor: u32) -> Option<Vec<Error>> {
    let mut errors = Vec::new();
    let opts = match old {
        None => Options::create(minor),
        Some(old) => Options {
            ignore_match_conditions: same_param_kind_and_conditions(object, old),
            preexisting: preexisting(old),
            minor,
            ..Options::default()
        },
    };
    match kind {
        "ValidatingAdmissionPolicy" => validate_validating_policy(object, opts, &mut errors),
        "MutatingAdmissionPolicy" => validate_mutating_policy(object, opts, &mut errors),
        "ValidatingAdmissionPolicyBinding" => validate_validating_binding(object, &mut errors),
        "MutatingAdmissionPolicyBinding" => validate_mutating_binding(object, &mut errors),
        _ => return None,
    }
    if old.is_none() {
        validate_static_suffix(object, minor, &mut errors);
    }
    Some(errors)
}

// ---- defaults ----

/// Sets `key` when it is absent or `null` (Go: `if x == nil`).
pub fn set_if_absent(v: &mut Json, key: &str, value: Json) {
    if let Json::Object(map) = v {
        if map.get(key).is_none_or(Json::is_null) {
            map.insert(String::from(key), value);
        }
    }
}

/// `SetDefaults_Rule`: `scope: "*"`.
pub fn default_rule(rule: &mut Json) {
    set_if_absent(rule, "scope", Json::from("*"));
}

/// `SetDefaults_MatchResources` and the rules'.
fn default_match_resources(mr: &mut Json) {
    set_if_absent(mr, "matchPolicy", Json::from("Equivalent"));
    set_if_absent(mr, "namespaceSelector", Json::Object(Map::new()));
    set_if_absent(mr, "objectSelector", Json::Object(Map::new()));
    for key in ["resourceRules", "excludeResourceRules"] {
        if let Some(Json::Array(rules)) = mr.get_mut(key) {
            rules.iter_mut().for_each(default_rule);
        }
    }
}

/// `SetObjectDefaults_X` of the policy kinds and their bindings, in admissionregistration
/// `v1`, `v1beta1` and `v1alpha1` (which alone defaults a binding's
/// `paramRef.parameterNotFoundAction` to `Deny`).
pub fn default(version: &str, kind: &str, object: &mut Json) {
    let Some(spec) = object.get_mut("spec").filter(|s| s.is_object()) else {
        if matches!(kind, "ValidatingAdmissionPolicy" | "MutatingAdmissionPolicy") {
            if let Json::Object(map) = object {
                let mut spec = Map::new();
                spec.insert(String::from("failurePolicy"), Json::from("Fail"));
                map.insert(String::from("spec"), Json::Object(spec));
            }
        }
        return;
    };
    match kind {
        "ValidatingAdmissionPolicy" | "MutatingAdmissionPolicy" => {
            set_if_absent(spec, "failurePolicy", Json::from("Fail"));
            if let Some(mc) = spec.get_mut("matchConstraints").filter(|m| m.is_object()) {
                default_match_resources(mc);
            }
        }
        "ValidatingAdmissionPolicyBinding" | "MutatingAdmissionPolicyBinding" => {
            if version == "v1alpha1" {
                if let Some(pr) = spec.get_mut("paramRef").filter(|p| p.is_object()) {
                    set_if_absent(pr, "parameterNotFoundAction", Json::from("Deny"));
                }
            }
            if let Some(mr) = spec.get_mut("matchResources").filter(|m| m.is_object()) {
                default_match_resources(mr);
            }
        }
        _ => {}
    }
}

/// What the API server of Kubernetes 1.`minor` refuses when this policy or binding document
/// is created (defaulted as the API server defaults it; metadata aside). `None` for another
/// document.
pub fn creation_errors(doc: &Json, minor: u32) -> Option<Vec<Error>> {
    let api_version = text(doc, "apiVersion");
    let version = api_version.strip_prefix("admissionregistration.k8s.io/")?;
    let kind = text(doc, "kind");
    let mut object = doc.clone();
    default(version, kind, &mut object);
    validate(kind, &object, None, minor)
}
