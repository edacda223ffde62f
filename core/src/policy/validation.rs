//! What the API server refuses when a ValidatingAdmissionPolicy or its binding is created
//! (kubernetes `pkg/apis/admissionregistration/validation/validation.go`:
//! `validateValidatingAdmissionPolicySpec`, `validateValidation`, `validateVariable`,
//! `validateAuditAnnotation`, `validateMatchConditions`, `validateParamRef`,
//! `validateValidationActions`), as field errors with its texts. Expressions that do not
//! compile are `Invalid value: "<expression>": <the compiler's detail>`.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value as Json;

use super::compile::creation_error;
use super::model::{Binding, MatchResources, NamedRule};
use super::validating::CompiledPolicy;
use crate::field::{Error, ErrorType, Path};

const MAX_AUDIT_ANNOTATIONS: usize = 20;
const MAX_AUDIT_ANNOTATION_VALUE_EXPRESSION_LENGTH: usize = 5 * 1024;
const MAX_MATCH_CONDITIONS: usize = 64;

fn required(path: &str, detail: &str) -> Error {
    Error::new(ErrorType::Required, &Path::named(path), None, detail)
}

fn invalid(path: &str, value: impl Into<Json>, detail: &str) -> Error {
    Error::new(ErrorType::Invalid, &Path::named(path), Some(value.into()), detail)
}

fn duplicate(path: &str, value: &str) -> Error {
    Error::new(ErrorType::Duplicate, &Path::named(path), Some(Json::from(value)), "")
}

fn not_supported(path: &str, value: &str, supported: &[&str]) -> Error {
    Error::not_supported(&Path::named(path), value, supported)
}

/// `isCELIdentifier`.
fn is_cel_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c == '_' || c.is_ascii_alphabetic())
        && chars.all(|c| c == '_' || c.is_ascii_alphanumeric())
        && !matches!(name, "true" | "false" | "null" | "in")
        && !crate::cel::RESERVED.contains(&name)
}

fn has_newlines(s: &str) -> bool {
    s.contains(['\n', '\r'])
}

/// The refusals of `ValidateValidatingAdmissionPolicy` (after the API server's defaults).
pub fn validate_policy(p: &CompiledPolicy) -> Vec<Error> {
    let spec = &p.policy.spec;
    let mut errs = Vec::new();
    if let Some(pk) = &spec.param_kind {
        if pk.api_version.is_empty() {
            errs.push(required("spec.paramKind.apiVersion", ""));
        }
        if pk.kind.is_empty() {
            errs.push(required("spec.paramKind.kind", ""));
        }
    }
    match &spec.match_constraints {
        None => errs.push(required("spec.matchConstraints", "")),
        Some(m) => {
            errs.extend(validate_match_resources(m, "spec.matchConstraints"));
            if m.resource_rules.is_empty() {
                errs.push(required("spec.matchConstraints.resourceRules", ""));
            }
        }
    }
    if spec.match_conditions.len() > MAX_MATCH_CONDITIONS {
        errs.push(Error::new(
            ErrorType::TooMany,
            &Path::named("spec.matchConditions"),
            Some(Json::from(spec.match_conditions.len())),
            format!("must have at most {MAX_MATCH_CONDITIONS} items"),
        ));
    }
    let mut names: Vec<&str> = Vec::new();
    for (i, (m, (_, compiled))) in spec.match_conditions.iter().zip(&p.match_conditions).enumerate() {
        let at = format!("spec.matchConditions[{i}]");
        if m.expression.trim().is_empty() {
            errs.push(required(&format!("{at}.expression"), ""));
        } else if let Err(e) = &compiled.program {
            errs.push(creation_error(&format!("{at}.expression"), m.expression.trim(), e));
        }
        if m.name.is_empty() {
            errs.push(required(&format!("{at}.name"), ""));
        } else if names.contains(&m.name.as_str()) {
            errs.push(duplicate(&format!("{at}.name"), &m.name));
        } else {
            names.push(&m.name);
        }
    }
    for (i, (v, compiled)) in spec.variables.iter().zip(&p.variables).enumerate() {
        let at = format!("spec.variables[{i}]");
        if v.name.trim().is_empty() {
            errs.push(required(&format!("{at}.name"), "name is not specified"));
        } else if !is_cel_identifier(&v.name) {
            errs.push(invalid(&format!("{at}.name"), v.name.as_str(), "name is not a valid CEL identifier"));
        }
        if v.expression.trim().is_empty() {
            errs.push(required(&format!("{at}.expression"), "expression is not specified"));
        } else if let Err(e) = &compiled.expr.program {
            errs.push(creation_error(&format!("{at}.expression"), v.expression.as_str(), e));
        }
    }
    if spec.validations.is_empty() && spec.audit_annotations.is_empty() {
        let why = "validations or auditAnnotations must contain at least one item";
        errs.push(required("spec.validations", why));
        errs.push(required("spec.auditAnnotations", why));
        return errs;
    }
    for (i, (v, c)) in spec.validations.iter().zip(&p.validations).enumerate() {
        let at = format!("spec.validations[{i}]");
        if v.expression.trim().is_empty() {
            errs.push(required(&format!("{at}.expression"), "expression is not specified"));
        } else if let Err(e) = &c.expr.program {
            errs.push(creation_error(&format!("{at}.expression"), v.expression.as_str(), e));
        }
        let me = v.message_expression.as_deref().unwrap_or("");
        if !me.is_empty() && me.trim().is_empty() {
            errs.push(invalid(&format!("{at}.messageExpression"), me, "must be non-empty if specified"));
        } else if let Some(Err(e)) = c.message_expr.as_ref().map(|m| &m.program) {
            errs.push(creation_error(&format!("{at}.messageExpression"), me, e));
        }
        let message = v.message.as_deref().unwrap_or("");
        if !message.is_empty() && message.trim().is_empty() {
            errs.push(invalid(&format!("{at}.message"), message, "message must be non-empty if specified"));
        } else if has_newlines(message.trim()) {
            errs.push(invalid(&format!("{at}.message"), message, "message must not contain line breaks"));
        }
        if let Some(r) = &v.reason {
            // `supportedValidationPolicyReason`: the API documentation also names Unauthorized,
            // the validation code does not accept it.
            if !matches!(r.as_str(), "Forbidden" | "Invalid" | "RequestEntityTooLarge") {
                errs.push(not_supported(
                    &format!("{at}.reason"),
                    r,
                    &["Forbidden", "Invalid", "RequestEntityTooLarge"],
                ));
            }
        }
    }
    if spec.audit_annotations.len() > MAX_AUDIT_ANNOTATIONS {
        errs.push(invalid(
            "spec.auditAnnotations",
            Json::Null,
            &format!("must not have more than {MAX_AUDIT_ANNOTATIONS} auditAnnotations"),
        ));
    }
    let mut keys: Vec<&str> = Vec::new();
    for (i, (a, (_, c))) in spec.audit_annotations.iter().zip(&p.audit_annotations).enumerate() {
        let at = format!("spec.auditAnnotations[{i}]");
        let value = a.value_expression.trim();
        if value.is_empty() {
            errs.push(required(&format!("{at}.valueExpression"), "valueExpression is not specified"));
        } else if value.len() > MAX_AUDIT_ANNOTATION_VALUE_EXPRESSION_LENGTH {
            errs.push(required(
                &format!("{at}.valueExpression"),
                &format!("must not exceed {MAX_AUDIT_ANNOTATION_VALUE_EXPRESSION_LENGTH} bytes in length"),
            ));
        } else if let Err(e) = &c.program {
            errs.push(creation_error(&format!("{at}.valueExpression"), a.value_expression.as_str(), e));
        }
        if keys.contains(&a.key.as_str()) {
            errs.push(duplicate(&format!("{at}.key"), &a.key));
        }
        keys.push(&a.key);
    }
    errs
}

/// `validateMatchResources`: each rule of `resourceRules` and `excludeResourceRules`.
pub fn validate_match_resources(m: &MatchResources, at: &str) -> Vec<Error> {
    let mut errs = Vec::new();
    for (list, rules) in [("resourceRules", &m.resource_rules), ("excludeResourceRules", &m.exclude_resource_rules)] {
        for (i, rule) in rules.iter().enumerate() {
            errs.extend(validate_rule_with_operations(rule, &format!("{at}.{list}[{i}]")));
        }
    }
    errs
}

/// `validateRuleWithOperations` and `validateRule` (subresources allowed).
fn validate_rule_with_operations(rule: &NamedRule, at: &str) -> Vec<Error> {
    let mut errs = Vec::new();
    let star = |items: &[String]| items.iter().any(|i| i == "*");
    let list = |items: &[String]| Json::from(items.to_vec());
    if rule.operations.is_empty() {
        errs.push(required(&format!("{at}.operations"), ""));
    }
    if rule.operations.len() > 1 && star(&rule.operations) {
        errs.push(invalid(
            &format!("{at}.operations"),
            list(&rule.operations),
            "if '*' is present, must not specify other operations",
        ));
    }
    for (i, op) in rule.operations.iter().enumerate() {
        if !matches!(op.as_str(), "*" | "CREATE" | "UPDATE" | "DELETE" | "CONNECT") {
            errs.push(not_supported(
                &format!("{at}.operations[{i}]"),
                op,
                &["*", "CONNECT", "CREATE", "DELETE", "UPDATE"],
            ));
        }
    }
    if rule.api_groups.is_empty() {
        errs.push(required(&format!("{at}.apiGroups"), ""));
    }
    if rule.api_groups.len() > 1 && star(&rule.api_groups) {
        errs.push(invalid(
            &format!("{at}.apiGroups"),
            list(&rule.api_groups),
            "if '*' is present, must not specify other API groups",
        ));
    }
    if rule.api_versions.is_empty() {
        errs.push(required(&format!("{at}.apiVersions"), ""));
    }
    if rule.api_versions.len() > 1 && star(&rule.api_versions) {
        errs.push(invalid(
            &format!("{at}.apiVersions"),
            list(&rule.api_versions),
            "if '*' is present, must not specify other API versions",
        ));
    }
    for (i, v) in rule.api_versions.iter().enumerate() {
        if v.is_empty() {
            errs.push(required(&format!("{at}.apiVersions[{i}]"), ""));
        }
    }
    errs.extend(validate_resources(&rule.resources, &format!("{at}.resources")));
    if let Some(scope) = &rule.scope {
        if !matches!(scope.as_str(), "*" | "Cluster" | "Namespaced") {
            errs.push(not_supported(&format!("{at}.scope"), scope, &["*", "Cluster", "Namespaced"]));
        }
    }
    errs
}

/// `validateResources`.
fn validate_resources(resources: &[String], at: &str) -> Vec<Error> {
    let mut errs = Vec::new();
    if resources.is_empty() {
        errs.push(required(at, ""));
    }
    let (mut wildcard_subs, mut wildcard_res): (Vec<&str>, Vec<&str>) = (Vec::new(), Vec::new());
    let (mut double, mut single, mut plain) = (false, false, false);
    for (i, rs) in resources.iter().enumerate() {
        if rs.is_empty() {
            errs.push(required(&format!("{at}[{i}]"), ""));
            continue;
        }
        double |= rs == "*/*";
        single |= rs == "*";
        let Some((res, sub)) = rs.split_once('/') else {
            plain = rs != "*";
            continue;
        };
        if wildcard_subs.contains(&res) {
            errs.push(invalid(
                &format!("{at}[{i}]"),
                rs.as_str(),
                &format!("if '{res}/*' is present, must not specify {rs}"),
            ));
        }
        if wildcard_res.contains(&sub) {
            errs.push(invalid(
                &format!("{at}[{i}]"),
                rs.as_str(),
                &format!("if '*/{sub}' is present, must not specify {rs}"),
            ));
        }
        if sub == "*" {
            wildcard_subs.push(res);
        }
        if res == "*" {
            wildcard_res.push(sub);
        }
    }
    let all = Json::from(resources.to_vec());
    if resources.len() > 1 && double {
        errs.push(invalid(at, all.clone(), "if '*/*' is present, must not specify other resources"));
    }
    if single && plain {
        errs.push(invalid(at, all, "if '*' is present, must not specify other resources without subresources"));
    }
    errs
}

/// The refusals of `ValidateValidatingAdmissionPolicyBinding`.
pub fn validate_binding(b: &Binding) -> Vec<Error> {
    let spec = &b.spec;
    let mut errs = Vec::new();
    if spec.policy_name.is_empty() {
        errs.push(required("spec.policyName", ""));
    }
    if let Some(pr) = &spec.param_ref {
        let name = pr.name.as_deref().unwrap_or("");
        if !name.is_empty() && pr.selector.is_some() {
            let both = "name and selector are mutually exclusive";
            errs.push(Error::new(ErrorType::Forbidden, &Path::named("spec.paramRef.name"), None, both));
            errs.push(Error::new(ErrorType::Forbidden, &Path::named("spec.paramRef.selector"), None, both));
        }
        if name.is_empty() && pr.selector.is_none() {
            errs.push(required("spec.paramRef", "one of name or selector must be specified"));
        }
        match pr.parameter_not_found_action.as_deref() {
            None | Some("") => errs.push(required("spec.paramRef.parameterNotFoundAction", "")),
            Some("Deny" | "Allow") => {}
            Some(other) => errs.push(not_supported("spec.paramRef.parameterNotFoundAction", other, &["Deny", "Allow"])),
        }
    }
    if let Some(m) = &spec.match_resources {
        errs.extend(validate_match_resources(m, "spec.matchResources"));
    }
    let mut seen: Vec<&str> = Vec::new();
    for (i, action) in spec.validation_actions.iter().enumerate() {
        let at = format!("spec.validationActions[{i}]");
        if !matches!(action.as_str(), "Deny" | "Warn" | "Audit") {
            errs.push(not_supported(&at, action, &["Audit", "Deny", "Warn"]));
        }
        if seen.contains(&action.as_str()) {
            errs.push(duplicate(&at, action));
        }
        seen.push(action);
    }
    if seen.contains(&"Deny") && seen.contains(&"Warn") {
        errs.push(invalid(
            "spec.validationActions",
            Json::from(spec.validation_actions.clone()),
            "must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)",
        ));
    }
    if seen.is_empty() {
        errs.push(required("spec.validationActions", "at least one validation action is required"));
    }
    errs
}
