//! FlowSchema validation, after `pkg/apis/flowcontrol/validation/validation.go`
//! (`ValidateFlowSchema`, `ValidateFlowSchemaUpdate`, `ValidateFlowSchemaSpec`,
//! `ValidateFlowSchemaPolicyRulesWithSubjects`, `ValidateFlowSchemaSubject`,
//! `ValidateServiceAccountSubject`, `ValidateUserSubject`, `ValidateGroupSubject`,
//! `ValidateFlowSchemaNonResourcePolicyRule`, `ValidateFlowSchemaResourcePolicyRule`,
//! `ValidateFlowSchemaStatus`, `ValidateFlowSchemaCondition`, `ValidateNonResourceURLPath`), with
//! the mandatory objects of apiserver `pkg/apis/flowcontrol/bootstrap/default.go`.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{json, Value as Json};

use super::render;
use crate::apis::apps::common::{not_supported_rendered, with_rendered};
use crate::apis::core::common::{forbidden, is_dns1123_label, is_dns1123_subdomain, required};
use crate::apis::json::{field, get, int, list, str};
use crate::field::{go_json, Error, Path};

const DISTINGUISHER_METHODS: &[&str] = &["ByNamespace", "ByUser"];
const VERBS: &[&str] = &["create", "delete", "deletecollection", "get", "list", "patch", "proxy", "update", "watch"];
const SUBJECT_KINDS: &[&str] = &["Group", "ServiceAccount", "User"];
const MAX_MATCHING_PRECEDENCE: i64 = 10000;
const NS_ERR_INTRO: &str = "each member of this list must be '*' or a DNS-1123 label; ";

/// A value of a named string type: `field.Error` prints it with `json.Marshal`.
pub(crate) fn typed(e: Error, value: &str) -> Error {
    with_rendered(e, go_json(&Json::from(value)))
}

/// The `spec` of a mandatory FlowSchema (`exempt`, `catch-all`), in `v1`.
fn mandatory_spec(name: &str) -> Option<Json> {
    let rules = |groups: &[&str]| {
        let subjects: Vec<Json> = groups.iter().map(|g| json!({"kind": "Group", "group": {"name": g}})).collect();
        json!([{
            "subjects": subjects,
            "resourceRules": [{"verbs": ["*"], "apiGroups": ["*"], "resources": ["*"], "namespaces": ["*"], "clusterScope": true}],
            "nonResourceRules": [{"verbs": ["*"], "nonResourceURLs": ["*"]}],
        }])
    };
    match name {
        "exempt" => Some(json!({
            "priorityLevelConfiguration": {"name": "exempt"},
            "matchingPrecedence": 1,
            "rules": rules(&["system:masters"]),
        })),
        "catch-all" => Some(json!({
            "priorityLevelConfiguration": {"name": "catch-all"},
            "matchingPrecedence": 10000,
            "distinguisherMethod": {"type": "ByUser"},
            "rules": rules(&["system:unauthenticated", "system:authenticated"]),
        })),
        _ => None,
    }
}

/// `ValidateFlowSchema` (metadata aside); `ValidateFlowSchemaUpdate` is the same.
pub(crate) fn validate(fs: &Json) -> Vec<Error> {
    let mut errors = Vec::new();
    let name = str(field(fs, "metadata"), "name");
    let root = Path::root();
    let spec_path = root.child("spec");
    let spec = field(fs, "spec");
    validate_spec(name, spec, &spec_path, &mut errors);
    if let Some(mandatory) = mandatory_spec(name) {
        if render::flow_schema_spec(spec, true) != render::flow_schema_spec(&mandatory, true) {
            let detail = format!("spec of '{name}' must equal the fixed value");
            errors.push(with_rendered(
                Error::invalid(&spec_path, spec.clone(), detail),
                render::flow_schema_spec(spec, false),
            ));
        }
    }
    validate_status(field(fs, "status"), &root.child("status"), &mut errors);
    errors
}

/// `ValidateFlowSchemaSpec`.
fn validate_spec(name: &str, spec: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let mp = int(spec, "matchingPrecedence").unwrap_or(0);
    let mp_path = path.child("matchingPrecedence");
    if mp <= 0 {
        errors.push(Error::invalid(&mp_path, mp, "must be a positive value"));
    }
    if mp > MAX_MATCHING_PRECEDENCE {
        errors.push(Error::invalid(&mp_path, mp, format!("must not be greater than {MAX_MATCHING_PRECEDENCE}")));
    }
    if mp == 1 && name != "exempt" {
        errors.push(Error::invalid(&mp_path, mp, "only the schema named 'exempt' may have matchingPrecedence 1"));
    }
    if let Some(dm) = get(spec, "distinguisherMethod") {
        if !DISTINGUISHER_METHODS.contains(&str(dm, "type")) {
            let dmp = path.child("distinguisherMethod");
            errors.push(not_supported_rendered(
                &dmp.child("type"),
                dm.clone(),
                render::distinguisher_method(dm),
                DISTINGUISHER_METHODS,
            ));
        }
    }
    let plc = path.child("priorityLevelConfiguration");
    let plc_name = str(field(spec, "priorityLevelConfiguration"), "name");
    if !plc_name.is_empty() {
        for msg in is_dns1123_subdomain(plc_name) {
            errors.push(Error::invalid(&plc.child("name"), plc_name, msg));
        }
    } else {
        errors.push(required(&plc.child("name"), "must reference a priority level"));
    }
    let rules = path.child("rules");
    for (i, rule) in list(spec, "rules").iter().enumerate() {
        validate_policy_rules_with_subjects(rule, &rules.index(i), errors);
    }
}

/// `ValidateFlowSchemaPolicyRulesWithSubjects`.
fn validate_policy_rules_with_subjects(rule: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let subjects = list(rule, "subjects");
    if !subjects.is_empty() {
        let sp = path.child("subjects");
        for (i, subject) in subjects.iter().enumerate() {
            validate_subject(subject, &sp.index(i), errors);
        }
    } else {
        errors.push(required(&path.child("subjects"), "subjects must contain at least one value"));
    }
    let resource_rules = list(rule, "resourceRules");
    let non_resource_rules = list(rule, "nonResourceRules");
    if resource_rules.is_empty() && non_resource_rules.is_empty() {
        errors.push(required(path, "at least one of resourceRules and nonResourceRules has to be non-empty"));
    }
    let rp = path.child("resourceRules");
    for (i, r) in resource_rules.iter().enumerate() {
        validate_resource_policy_rule(r, &rp.index(i), errors);
    }
    let np = path.child("nonResourceRules");
    for (i, r) in non_resource_rules.iter().enumerate() {
        validate_non_resource_policy_rule(r, &np.index(i), errors);
    }
}

const NOT_USER: &str = "user is forbidden when subject kind is not 'User'";
const NOT_GROUP: &str = "group is forbidden when subject kind is not 'Group'";
const NOT_SA: &str = "serviceAccount is forbidden when subject kind is not 'ServiceAccount'";

/// `ValidateFlowSchemaSubject`.
fn validate_subject(subject: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let (user, group, sa) = (get(subject, "user"), get(subject, "group"), get(subject, "serviceAccount"));
    match str(subject, "kind") {
        "ServiceAccount" => {
            validate_service_account_subject(sa, &path.child("serviceAccount"), errors);
            if user.is_some() {
                errors.push(forbidden(&path.child("user"), NOT_USER));
            }
            if group.is_some() {
                errors.push(forbidden(&path.child("group"), NOT_GROUP));
            }
        }
        "User" => {
            validate_named_subject(user, "user is required when subject kind is 'User'", &path.child("user"), errors);
            if sa.is_some() {
                errors.push(forbidden(&path.child("serviceAccount"), NOT_SA));
            }
            if group.is_some() {
                errors.push(forbidden(&path.child("group"), NOT_GROUP));
            }
        }
        "Group" => {
            validate_named_subject(
                group,
                "group is required when subject kind is 'Group'",
                &path.child("group"),
                errors,
            );
            if sa.is_some() {
                errors.push(forbidden(&path.child("serviceAccount"), NOT_SA));
            }
            if user.is_some() {
                errors.push(forbidden(&path.child("user"), NOT_USER));
            }
        }
        kind => errors.push(typed(Error::not_supported(&path.child("kind"), kind, SUBJECT_KINDS), kind)),
    }
}

/// `ValidateServiceAccountSubject`.
fn validate_service_account_subject(subject: Option<&Json>, path: &Path<'_>, errors: &mut Vec<Error>) {
    let Some(subject) = subject else {
        errors.push(required(path, "serviceAccount is required when subject kind is 'ServiceAccount'"));
        return;
    };
    let name = str(subject, "name");
    if name.is_empty() {
        errors.push(required(&path.child("name"), ""));
    } else if name != "*" {
        for msg in is_dns1123_subdomain(name) {
            errors.push(Error::invalid(&path.child("name"), name, msg));
        }
    }
    let namespace = str(subject, "namespace");
    if !namespace.is_empty() {
        for msg in is_dns1123_label(namespace) {
            errors.push(Error::invalid(&path.child("namespace"), namespace, msg));
        }
    } else {
        errors.push(required(&path.child("namespace"), "must specify namespace for service account"));
    }
}

/// `ValidateUserSubject` and `ValidateGroupSubject`.
fn validate_named_subject(subject: Option<&Json>, missing: &str, path: &Path<'_>, errors: &mut Vec<Error>) {
    let Some(subject) = subject else {
        errors.push(required(path, missing));
        return;
    };
    if str(subject, "name").is_empty() {
        errors.push(required(&path.child("name"), ""));
    }
}

fn strs(v: &Json, key: &str) -> Vec<String> {
    list(v, key).iter().map(|s| String::from(s.as_str().unwrap_or(""))).collect()
}

/// A `[]string` as `field.Error` prints it.
fn list_value(items: &[String]) -> Json {
    Json::Array(items.iter().map(|s| Json::from(s.as_str())).collect())
}

fn has_wildcard(items: &[String]) -> bool {
    items.iter().any(|s| s == "*")
}

/// The verbs' checks `ValidateFlowSchemaNonResourcePolicyRule` and
/// `ValidateFlowSchemaResourcePolicyRule` share.
fn validate_verbs(verbs: &[String], path: &Path<'_>, errors: &mut Vec<Error>) {
    let vp = path.child("verbs");
    if verbs.is_empty() {
        errors.push(required(&vp, "verbs must contain at least one value"));
    } else if has_wildcard(verbs) {
        if verbs.len() > 1 {
            errors.push(Error::invalid(&vp, list_value(verbs), "if '*' is present, must not specify other verbs"));
        }
    } else if !verbs.iter().all(|v| VERBS.contains(&v.as_str())) {
        let value = list_value(verbs);
        errors.push(not_supported_rendered(&vp, value.clone(), go_json(&value), VERBS));
    }
}

/// `ValidateFlowSchemaNonResourcePolicyRule`.
fn validate_non_resource_policy_rule(rule: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    validate_verbs(&strs(rule, "verbs"), path, errors);
    let urls = strs(rule, "nonResourceURLs");
    let up = path.child("nonResourceURLs");
    if urls.is_empty() {
        errors.push(required(&up, "nonResourceURLs must contain at least one value"));
    } else if has_wildcard(&urls) {
        if urls.len() > 1 {
            errors.push(Error::invalid(
                &up,
                list_value(&urls),
                "if '*' is present, must not specify other non-resource URLs",
            ));
        }
    } else {
        for (i, url) in urls.iter().enumerate() {
            if let Some(e) = validate_non_resource_url_path(url, &up.index(i)) {
                errors.push(e);
            }
        }
    }
}

/// `ValidateFlowSchemaResourcePolicyRule`.
fn validate_resource_policy_rule(rule: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    validate_verbs(&strs(rule, "verbs"), path, errors);
    let groups = strs(rule, "apiGroups");
    if groups.is_empty() {
        errors.push(required(&path.child("apiGroups"), "resource rules must supply at least one api group"));
    } else if groups.len() > 1 && has_wildcard(&groups) {
        errors.push(Error::invalid(
            &path.child("apiGroups"),
            list_value(&groups),
            "if '*' is present, must not specify other api groups",
        ));
    }
    let resources = strs(rule, "resources");
    if resources.is_empty() {
        errors.push(required(&path.child("resources"), "resource rules must supply at least one resource"));
    } else if resources.len() > 1 && has_wildcard(&resources) {
        errors.push(Error::invalid(
            &path.child("resources"),
            list_value(&resources),
            "if '*' is present, must not specify other resources",
        ));
    }
    let namespaces = strs(rule, "namespaces");
    let np = path.child("namespaces");
    let cluster_scope = crate::apis::json::bool(rule, "clusterScope") == Some(true);
    if namespaces.is_empty() && !cluster_scope {
        errors.push(required(&np, "resource rules that are not cluster scoped must supply at least one namespace"));
    } else if has_wildcard(&namespaces) {
        if namespaces.len() > 1 {
            errors.push(Error::invalid(
                &np,
                list_value(&namespaces),
                "if '*' is present, must not specify other namespaces",
            ));
        }
    } else {
        for (i, ns) in namespaces.iter().enumerate() {
            for msg in is_dns1123_label(ns) {
                errors.push(Error::invalid(&np.index(i), ns.as_str(), format!("{NS_ERR_INTRO}{msg}")));
            }
        }
    }
}

/// `ValidateFlowSchemaStatus` with `ValidateFlowSchemaCondition` (also
/// `ValidatePriorityLevelConfigurationStatus`, the same checks).
pub(crate) fn validate_status(status: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let mut keys: Vec<&str> = Vec::new();
    let cp = path.child("conditions");
    for (i, condition) in list(status, "conditions").iter().enumerate() {
        let at = cp.index(i);
        let ty = str(condition, "type");
        if keys.contains(&ty) {
            errors.push(typed(crate::apis::core::common::duplicate(&at.child("type"), ty), ty));
        }
        keys.push(ty);
        if ty.is_empty() {
            errors.push(required(&at.child("type"), ""));
        }
    }
}

/// `ValidateNonResourceURLPath`.
fn validate_non_resource_url_path(path: &str, fld: &Path<'_>) -> Option<Error> {
    let invalid = |detail: &str| Some(Error::invalid(fld, path, detail));
    if path.is_empty() {
        return invalid("must not be empty");
    }
    if path == "/" {
        return None;
    }
    if !path.starts_with('/') {
        return invalid("must start with slash");
    }
    if path.contains(' ') {
        return invalid("must not contain white-space");
    }
    if path.contains("//") {
        return invalid("must not contain double slash");
    }
    let wildcards = path.matches('*').count();
    if wildcards > 1 || (wildcards == 1 && !path.ends_with("/*")) {
        return invalid("wildcard can only do suffix matching");
    }
    None
}
