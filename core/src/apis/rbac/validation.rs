//! RBAC validation, after `pkg/apis/rbac/validation/validation.go` (`ValidateRole`,
//! `ValidateClusterRole`, `ValidatePolicyRule`, `ValidateRoleBinding`,
//! `ValidateClusterRoleBinding`, `ValidateRoleBindingSubject` and their `…Update`) and
//! `pkg/registry/rbac/clusterrole/strategy.go` (`hasInvalidLabelValueInLabelSelector`).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value as Json;

use super::GROUP;
use crate::apis::apps::selector;
use crate::apis::json::{field, get, list, str};
use crate::content;
use crate::field::{go_json, Error, ErrorType, Path};

fn required(path: &Path<'_>, detail: &str) -> Error {
    Error::new(ErrorType::Required, path, None, detail)
}

/// `ValidateRBACName`: `path.IsValidPathSegmentName`.
fn rbac_name(name: &str) -> Vec<String> {
    content::is_path_segment_name(name)
}

/// `ValidateRole` (its metadata aside); `ValidateRoleUpdate` adds only metadata checks.
pub(crate) fn validate_role(role: &Json, errors: &mut Vec<Error>) {
    let rules = Path::root();
    let rules = rules.child("rules");
    for (i, rule) in list(role, "rules").iter().enumerate() {
        validate_policy_rule(rule, true, &rules.index(i), errors);
    }
}

/// `ValidateClusterRole` (its metadata aside) with `AllowInvalidLabelValueInSelector` as given;
/// `ValidateClusterRoleUpdate` adds only metadata checks.
pub(crate) fn validate_cluster_role(role: &Json, allow_invalid_label_value: bool, errors: &mut Vec<Error>) {
    let root = Path::root();
    let rules = root.child("rules");
    for (i, rule) in list(role, "rules").iter().enumerate() {
        validate_policy_rule(rule, false, &rules.index(i), errors);
    }
    let Some(aggregation) = get(role, "aggregationRule") else { return };
    let aggregation_path = root.child("aggregationRule");
    let selectors_path = aggregation_path.child("clusterRoleSelectors");
    let selectors = list(aggregation, "clusterRoleSelectors");
    if selectors.is_empty() {
        errors
            .push(required(&selectors_path, "at least one clusterRoleSelector required if aggregationRule is non-nil"));
    }
    for (i, s) in selectors.iter().enumerate() {
        let at = selectors_path.index(i);
        selector::validate(Some(s), allow_invalid_label_value, &at, errors);
        if selector::as_selector(Some(s)).is_err() {
            // The selector the failed conversion returns is a nil labels.Selector.
            errors.push(Error::invalid(&at, Json::Null, "invalid label selector."));
        }
    }
}

/// clusterrole strategy `hasInvalidLabelValueInLabelSelector`: whether any of the old role's
/// aggregation selectors fails `ValidateLabelSelector`.
pub(crate) fn has_invalid_label_value_in_label_selector(role: &Json) -> bool {
    let Some(aggregation) = get(role, "aggregationRule") else { return false };
    list(aggregation, "clusterRoleSelectors").iter().any(|s| {
        let mut errs = Vec::new();
        selector::validate(Some(s), false, &Path::root(), &mut errs);
        !errs.is_empty()
    })
}

/// `ValidatePolicyRule` (less its check superseded by a declarative rule).
pub(crate) fn validate_policy_rule(rule: &Json, namespaced: bool, path: &Path<'_>, errors: &mut Vec<Error>) {
    // `verbs must contain at least one value` (Required) is MarkCoveredByDeclarative: the
    // enforced beta `+k8s:required` of `verbs` supersedes it (apiserver
    // `FilterCoveredHandwrittenErrors`), and the declarative error is the one returned.
    let urls = list(rule, "nonResourceURLs");
    if !urls.is_empty() {
        let urls_json = Json::Array(urls.to_vec());
        let urls_path = path.child("nonResourceURLs");
        if namespaced {
            errors.push(Error::invalid(
                &urls_path,
                urls_json.clone(),
                "namespaced rules cannot apply to non-resource URLs",
            ));
        }
        let resources = ["apiGroups", "resources", "resourceNames"];
        if resources.iter().any(|k| !list(rule, k).is_empty()) {
            errors.push(Error::invalid(
                &urls_path,
                urls_json,
                "rules cannot apply to both regular resources and non-resource URLs",
            ));
        }
        return;
    }
    if list(rule, "apiGroups").is_empty() {
        errors.push(required(&path.child("apiGroups"), "resource rules must supply at least one api group"));
    }
    if list(rule, "resources").is_empty() {
        errors.push(required(&path.child("resources"), "resource rules must supply at least one resource"));
    }
}

/// `ValidateRoleBinding` (`namespaced`) or `ValidateClusterRoleBinding` (metadata aside) on
/// create; `ValidateRoleBindingUpdate` / `ValidateClusterRoleBindingUpdate` on update (the
/// roleRef is immutable).
pub(crate) fn validate_role_binding(binding: &Json, old: Option<&Json>, namespaced: bool, errors: &mut Vec<Error>) {
    let root = Path::root();
    let ref_path = root.child("roleRef");
    let role_ref = field(binding, "roleRef");
    let api_group = str(role_ref, "apiGroup");
    if api_group != GROUP {
        errors.push(Error::not_supported(&ref_path.child("apiGroup"), api_group, &[GROUP]));
    }
    let kind = str(role_ref, "kind");
    let kinds: &[&str] = if namespaced { &["Role", "ClusterRole"] } else { &["ClusterRole"] };
    if !kinds.contains(&kind) {
        errors.push(Error::not_supported(&ref_path.child("kind"), kind, kinds));
    }
    let name = str(role_ref, "name");
    if name.is_empty() {
        errors.push(required(&ref_path.child("name"), ""));
    } else {
        for msg in rbac_name(name) {
            errors.push(Error::invalid(&ref_path.child("name"), name, msg));
        }
    }
    let subjects = root.child("subjects");
    for (i, subject) in list(binding, "subjects").iter().enumerate() {
        validate_role_binding_subject(subject, namespaced, &subjects.index(i), errors);
    }
    if let Some(old) = old {
        let old_ref = field(old, "roleRef");
        let fields = ["apiGroup", "kind", "name"];
        if fields.iter().any(|k| str(role_ref, k) != str(old_ref, k)) {
            // json.Marshal of the internal rbac.RoleRef (no json tags).
            let rendered = format!(
                "{{\"APIGroup\":{},\"Kind\":{},\"Name\":{}}}",
                go_json(&Json::from(api_group)),
                go_json(&Json::from(kind)),
                go_json(&Json::from(name))
            );
            let mut e = Error::invalid(&ref_path, role_ref.clone(), "field is immutable").with_origin("immutable");
            e.rendered_value = Some(rendered);
            errors.push(e);
        }
    }
}

/// `ValidateRoleBindingSubject`.
pub(crate) fn validate_role_binding_subject(
    subject: &Json,
    namespaced: bool,
    path: &Path<'_>,
    errors: &mut Vec<Error>,
) {
    let name = str(subject, "name");
    if name.is_empty() {
        errors.push(required(&path.child("name"), ""));
    }
    let api_group = str(subject, "apiGroup");
    match str(subject, "kind") {
        "ServiceAccount" => {
            if !name.is_empty() {
                for msg in crate::apis::core::common::is_dns1123_subdomain(name) {
                    errors.push(Error::invalid(&path.child("name"), name, msg));
                }
            }
            if !api_group.is_empty() {
                errors.push(Error::not_supported(&path.child("apiGroup"), api_group, &[""]));
            }
            if !namespaced && str(subject, "namespace").is_empty() {
                errors.push(required(&path.child("namespace"), ""));
            }
        }
        "User" | "Group" => {
            if api_group != GROUP {
                errors.push(Error::not_supported(&path.child("apiGroup"), api_group, &[GROUP]));
            }
        }
        kind => {
            errors.push(Error::not_supported(&path.child("kind"), kind, &["ServiceAccount", "User", "Group"]));
        }
    }
}
