//! ValidatingWebhookConfiguration and MutatingWebhookConfiguration, after Kubernetes'
//! `pkg/apis/admissionregistration/validation/validation.go` (`validateXWebhookConfiguration`,
//! `validateXWebhook`, `validateAdmissionReviewVersions`, the update options), `v1/defaults.go`
//! and `validation/warnings.go`. Rules and match conditions are the checks the admission
//! policies share ([`crate::policy::validation`]); URLs and service references are apiserver's
//! `pkg/util/webhook` ([`crate::crd::webhook`]).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{Map, Value as Json};

use crate::apis::json::{field, get, list, opt_str, str};
use crate::field::{Error, ErrorType, Path};
use crate::policy::validation::{
    default_rule, set_if_absent, validate_label_selector, validate_match_conditions, validate_rule_with_operations,
    Options, Preexisting,
};

/// `AcceptedAdmissionReviewVersions`.
const ACCEPTED_ADMISSION_REVIEW_VERSIONS: [&str; 2] = ["v1", "v1beta1"];

/// `SetObjectDefaults_ValidatingWebhookConfiguration` / `_MutatingWebhookConfiguration` of
/// admissionregistration/v1: `SetDefaults_XWebhook`, `SetDefaults_ServiceReference`,
/// `SetDefaults_Rule`.
pub fn default(mutating: bool, object: &mut Json) {
    let Some(Json::Array(hooks)) = object.get_mut("webhooks") else { return };
    for hook in hooks.iter_mut() {
        set_if_absent(hook, "failurePolicy", Json::from("Fail"));
        set_if_absent(hook, "matchPolicy", Json::from("Equivalent"));
        set_if_absent(hook, "namespaceSelector", Json::Object(Map::new()));
        set_if_absent(hook, "objectSelector", Json::Object(Map::new()));
        set_if_absent(hook, "timeoutSeconds", Json::from(10));
        if mutating {
            set_if_absent(hook, "reinvocationPolicy", Json::from("Never"));
        }
        if let Some(service) = hook.get_mut("clientConfig").and_then(|c| c.get_mut("service")) {
            if service.is_object() {
                set_if_absent(service, "port", Json::from(443));
            }
        }
        if let Some(Json::Array(rules)) = hook.get_mut("rules") {
            rules.iter_mut().for_each(default_rule);
        }
    }
}

/// `validateAdmissionReviewVersions`.
fn validate_admission_review_versions(
    versions: &[Json],
    require_recognized: bool,
    path: &Path<'_>,
    errors: &mut Vec<Error>,
) {
    if versions.is_empty() {
        let detail = format!("must specify one of {}", ACCEPTED_ADMISSION_REVIEW_VERSIONS.join(", "));
        errors.push(Error::new(ErrorType::Required, path, None, detail));
        return;
    }
    let mut seen: Vec<&str> = Vec::new();
    let mut accepted = false;
    for (i, v) in versions.iter().enumerate() {
        let v = v.as_str().unwrap_or("");
        if seen.contains(&v) {
            errors.push(Error::invalid(&path.index(i), v, "duplicate version"));
            continue;
        }
        seen.push(v);
        for msg in crate::cel::k8s::is_dns1035_label(v) {
            errors.push(Error::invalid(&path.index(i), v, msg));
        }
        accepted |= ACCEPTED_ADMISSION_REVIEW_VERSIONS.contains(&v);
    }
    if require_recognized && !accepted {
        errors.push(Error::invalid(
            path,
            Json::Array(versions.to_vec()),
            format!("must include at least one of {}", ACCEPTED_ADMISSION_REVIEW_VERSIONS.join(", ")),
        ));
    }
}

/// util/validation `IsFullyQualifiedName`.
fn validate_fully_qualified_name(name: &str, path: &Path<'_>, errors: &mut Vec<Error>) {
    if name.is_empty() {
        errors.push(Error::new(ErrorType::Required, path, None, ""));
        return;
    }
    let errs = crate::policy::validation::is_dns1123_subdomain(name);
    if !errs.is_empty() {
        errors.push(Error::invalid(path, name, errs.join(",")));
    } else if name.split('.').count() < 3 {
        errors.push(Error::invalid(path, name, "should be a domain with at least three segments separated by dots"));
    }
}

/// `validateValidatingWebhook` / `validateMutatingWebhook`.
fn validate_webhook(hook: &Json, mutating: bool, opts: &Options, path: &Path<'_>, errors: &mut Vec<Error>) {
    validate_fully_qualified_name(str(hook, "name"), &path.child("name"), errors);
    let rules = path.child("rules");
    for (i, rule) in list(hook, "rules").iter().enumerate() {
        validate_rule_with_operations(rule, &rules.index(i), errors);
    }
    if let Some(fp) = opt_str(hook, "failurePolicy") {
        if !matches!(fp, "Fail" | "Ignore") {
            errors.push(Error::not_supported(&path.child("failurePolicy"), fp, &["Fail", "Ignore"]));
        }
    }
    if let Some(mp) = opt_str(hook, "matchPolicy") {
        if !matches!(mp, "Exact" | "Equivalent") {
            errors.push(Error::not_supported(&path.child("matchPolicy"), mp, &["Equivalent", "Exact"]));
        }
    }
    let allowed: &[&str] = match opts.require_no_side_effects {
        true => &["None", "NoneOnDryRun"],
        false => &["None", "NoneOnDryRun", "Some", "Unknown"],
    };
    match opt_str(hook, "sideEffects") {
        None => errors.push(Error::new(
            ErrorType::Required,
            &path.child("sideEffects"),
            None,
            format!("must specify one of {}", allowed.join(", ")),
        )),
        Some(se) if !allowed.contains(&se) => {
            errors.push(Error::not_supported(&path.child("sideEffects"), se, allowed))
        }
        Some(_) => {}
    }
    if let Some(t) = crate::apis::json::int(hook, "timeoutSeconds") {
        if !(1..=30).contains(&t) {
            errors.push(Error::invalid(
                &path.child("timeoutSeconds"),
                t,
                "the timeout value must be between 1 and 30 seconds",
            ));
        }
    }
    for key in ["namespaceSelector", "objectSelector"] {
        if let Some(s) = get(hook, key) {
            validate_label_selector(s, opts.allow_invalid_label_value_in_selector, &path.child(key), errors);
        }
    }
    if mutating {
        if let Some(rp) = opt_str(hook, "reinvocationPolicy") {
            if !matches!(rp, "Never" | "IfNeeded") {
                errors.push(Error::not_supported(&path.child("reinvocationPolicy"), rp, &["IfNeeded", "Never"]));
            }
        }
    }
    let cc = field(hook, "clientConfig");
    let cp = path.child("clientConfig");
    match (opt_str(cc, "url"), get(cc, "service")) {
        (None, None) | (Some(_), Some(_)) => {
            errors.push(Error::new(ErrorType::Required, &cp, None, "exactly one of url or service is required"))
        }
        (Some(url), None) => crate::crd::webhook::url(&cp.child("url").render(), url, errors),
        (None, Some(service)) => crate::crd::webhook::service(&cp.child("service").render(), service, errors),
    }
    if !opts.ignore_match_conditions {
        validate_match_conditions(list(hook, "matchConditions"), opts, &path.child("matchConditions"), errors);
    }
}

/// `validateValidatingWebhookConfiguration` / `validateMutatingWebhookConfiguration`
/// (metadata aside).
pub fn validate(object: &Json, mutating: bool, opts: &Options, errors: &mut Vec<Error>) {
    let root = Path::root();
    let hooks = root.child("webhooks");
    let mut names: Vec<&str> = Vec::new();
    for (i, hook) in list(object, "webhooks").iter().enumerate() {
        let at = hooks.index(i);
        validate_webhook(hook, mutating, opts, &at, errors);
        validate_admission_review_versions(
            list(hook, "admissionReviewVersions"),
            opts.require_recognized_admission_review_version,
            &at.child("admissionReviewVersions"),
            errors,
        );
        let name = str(hook, "name");
        if opts.require_unique_webhook_names && !name.is_empty() {
            if names.contains(&name) {
                errors.push(Error::new(ErrorType::Duplicate, &at.child("name"), Some(Json::from(name)), ""));
            } else {
                names.push(name);
            }
        }
    }
}

/// The options of `ValidateXWebhookConfigurationUpdate`, from the old webhooks.
pub fn update_options(new: &Json, old: &Json, minor: u32) -> Options {
    let (new_hooks, old_hooks) = (list(new, "webhooks"), list(old, "webhooks"));
    // ignoreXWebhookMatchConditions: the same number of webhooks, each with the same conditions.
    let ignore = new_hooks.len() == old_hooks.len()
        && new_hooks.iter().zip(old_hooks).all(|(a, b)| field(a, "matchConditions") == field(b, "matchConditions"));
    // xHasNoSideEffects.
    let no_side_effects = old_hooks.iter().all(|h| matches!(opt_str(h, "sideEffects"), Some("None" | "NoneOnDryRun")));
    // xHasAcceptedAdmissionReviewVersions.
    let recognized = old_hooks.iter().all(|h| {
        let versions = list(h, "admissionReviewVersions");
        versions.is_empty()
            || versions.iter().any(|v| ACCEPTED_ADMISSION_REVIEW_VERSIONS.contains(&v.as_str().unwrap_or("")))
    });
    // xHasUniqueWebhookNames.
    let mut names: Vec<&str> = Vec::new();
    let unique = old_hooks.iter().all(|h| {
        let name = str(h, "name");
        let fresh = !names.contains(&name);
        names.push(name);
        fresh
    });
    // xWebhookHasInvalidLabelValueInSelector.
    let invalid_labels = old_hooks.iter().any(|h| {
        ["namespaceSelector", "objectSelector"].iter().any(|k| {
            get(h, k).is_some_and(|s| {
                let mut errs = Vec::new();
                validate_label_selector(s, false, &Path::root(), &mut errs);
                !errs.is_empty()
            })
        })
    });
    // findXPreexistingExpressions.
    let match_conditions =
        old_hooks.iter().flat_map(|h| list(h, "matchConditions")).map(|m| String::from(str(m, "expression"))).collect();
    Options {
        ignore_match_conditions: ignore,
        allow_params_in_match_conditions: false,
        require_no_side_effects: no_side_effects,
        require_recognized_admission_review_version: recognized,
        require_unique_webhook_names: unique,
        allow_invalid_label_value_in_selector: invalid_labels,
        preexisting: Preexisting { match_conditions, ..Preexisting::default() },
        minor,
    }
}

/// `exclusion.Excluded()`: the resources admission webhooks never see.
const EXCLUDED: [(&str, &str); 6] = [
    ("authentication.k8s.io", "selfsubjectreviews"),
    ("authentication.k8s.io", "tokenreviews"),
    ("authorization.k8s.io", "localsubjectaccessreviews"),
    ("authorization.k8s.io", "selfsubjectaccessreviews"),
    ("authorization.k8s.io", "selfsubjectrulesreviews"),
    ("authorization.k8s.io", "subjectaccessreviews"),
];

/// `WarningsForXWebhookRules` (`ExcludeAdmissionWebhookVirtualResources`, on since 1.37):
/// rules naming a resource admission webhooks never see.
pub fn rule_warnings(object: &Json) -> Vec<String> {
    let mut warnings = Vec::new();
    for (i, hook) in list(object, "webhooks").iter().enumerate() {
        for (j, rule) in list(hook, "rules").iter().enumerate() {
            let groups: Vec<&str> = list(rule, "apiGroups").iter().map(|g| g.as_str().unwrap_or("")).collect();
            let resources: Vec<&str> = list(rule, "resources").iter().map(|r| r.as_str().unwrap_or("")).collect();
            if groups.contains(&"*") || resources.contains(&"*") {
                continue;
            }
            let mut seen: Vec<(&str, &str)> = Vec::new();
            for g in &groups {
                for r in &resources {
                    if EXCLUDED.contains(&(*g, *r)) && !seen.contains(&(*g, *r)) {
                        seen.push((*g, *r));
                        let gr = if g.is_empty() { String::from(*r) } else { format!("{r}.{g}") };
                        warnings.push(format!(
                            "webhooks[{i}].rules[{j}]: {gr} is excluded from admission webhooks; this rule will have no effect"
                        ));
                    }
                }
            }
        }
    }
    warnings
}
