//! The `policy` group: PodDisruptionBudget (policy/v1), after Kubernetes'
//! `pkg/apis/policy/validation` (`ValidatePodDisruptionBudget`,
//! `ValidatePodDisruptionBudgetSpec`), `pkg/apis/policy/helper.go` (`StripPDBV1beta1Label`)
//! and `pkg/registry/policy/poddisruptionbudget/strategy.go` (`PrepareForCreate`,
//! `PrepareForUpdate`, `dropDisabledFields`, `Validate`, `ValidateUpdate`,
//! `hasInvalidLabelValueInLabelSelector`). policy/v1 has no defaults; neither create nor update
//! warns.

#[cfg(test)]
mod tests;

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{json, Map, Value as Json};

use super::Group;
use crate::apis::apps::common::{invalid_rendered, render_opt_int_or_string, same, IntOrString};
use crate::apis::apps::deployment::{not_more_than_100_percent, positive_int_or_percent};
use crate::apis::apps::selector;
use crate::apis::json::{field, get, opt_str, struct_mut};
use crate::field::{go_json, Error, Path};

/// The kinds this room models.
pub const KINDS: &[&str] = &["PodDisruptionBudget"];

/// `PDBV1beta1Label`.
const PDB_V1BETA1_LABEL: &str = "pdb.kubernetes.io/deprecated-v1beta1-empty-selector-match";

/// `supportedUnhealthyPodEvictionPolicies.List()` (sorted).
const EVICTION_POLICIES: [&str; 2] = ["AlwaysAllow", "IfHealthyBudget"];

/// `SetObjectDefaults_X` of the served version: policy/v1 has none.
pub fn default(_version: &str, _kind: &str, _object: &mut Json) {}

/// The strategy, validation and warnings of one request.
pub fn admit(group: &Group<'_>, object: &mut Json, old: Option<&Json>) -> (Vec<Error>, Vec<String>) {
    let mut errors = Vec::new();
    if group.kind != "PodDisruptionBudget" {
        return (errors, Vec::new());
    }
    prepare(object, old);
    // Validate: invalid label values refused; ValidateUpdate: allowed when the old selector
    // has one (hasInvalidLabelValueInLabelSelector).
    let allow = old.is_some_and(|old| {
        let Some(sel) = get(field(old, "spec"), "selector") else { return false };
        let mut errs = Vec::new();
        selector::validate(Some(sel), false, &Path::root(), &mut errs);
        !errs.is_empty()
    });
    validate_spec(field(object, "spec"), allow, &Path::root().child("spec"), &mut errors);
    (errors, Vec::new())
}

/// `PrepareForCreate` / `PrepareForUpdate`: the status reset (or the old one kept), the
/// generation, and `dropDisabledFields`.
fn prepare(object: &mut Json, old: Option<&Json>) {
    let changed = old.is_some_and(|old| !same(field(object, "spec"), field(old, "spec")));
    if let Json::Object(map) = object {
        match old.map(|o| o.get("status")) {
            None => {
                map.insert(String::from("status"), Json::Object(Map::new()));
            }
            Some(Some(s)) => {
                map.insert(String::from("status"), s.clone());
            }
            Some(None) => {
                map.remove("status");
            }
        }
    }
    let generation = match old {
        None => 1,
        Some(old) => {
            field(field(old, "metadata"), "generation").as_i64().unwrap_or(0).saturating_add(i64::from(changed))
        }
    };
    if let Some(Json::Object(meta)) = struct_mut(object, "metadata") {
        meta.insert(String::from("generation"), json!(generation));
    }
    drop_disabled_fields(object, old);
}

/// The strategy's `dropDisabledFields`: unless the selector is unchanged or is exactly the
/// match-all (`{}`) or match-none selector, `StripPDBV1beta1Label`.
fn drop_disabled_fields(object: &mut Json, old: Option<&Json>) {
    let selector = get(field(object, "spec"), "selector");
    if let Some(old) = old {
        let before = get(field(old, "spec"), "selector");
        let equal = match (selector, before) {
            (None, None) => true,
            (Some(a), Some(b)) => same(a, b),
            _ => false,
        };
        if equal {
            return;
        }
    }
    let Some(sel) = selector else { return };
    let match_none = json!({"matchExpressions": [{"key": PDB_V1BETA1_LABEL, "operator": "Exists"}]});
    if same(sel, &json!({})) || same(sel, &match_none) {
        return;
    }
    let Some(Json::Object(sel)) = object.get_mut("spec").and_then(|s| s.get_mut("selector")) else { return };
    if let Some(Json::Array(exprs)) = sel.get_mut("matchExpressions") {
        exprs.retain(|e| e.get("key").and_then(Json::as_str) != Some(PDB_V1BETA1_LABEL));
        if exprs.is_empty() {
            sel.remove("matchExpressions");
        }
    }
}

/// `ValidatePodDisruptionBudgetSpec`.
fn validate_spec(spec: &Json, allow_invalid_label_value: bool, path: &Path<'_>, errors: &mut Vec<Error>) {
    let min = get(spec, "minAvailable");
    let max = get(spec, "maxUnavailable");
    if min.is_some() && max.is_some() {
        errors.push(invalid_rendered(
            path,
            spec.clone(),
            render_spec(spec),
            "minAvailable and maxUnavailable cannot be both set",
        ));
    }
    for (key, value) in [("minAvailable", min), ("maxUnavailable", max)] {
        if let Some(v) = value {
            let at = path.child(key);
            let v = IntOrString::of(Some(v));
            positive_int_or_percent(v, &at, errors);
            not_more_than_100_percent(v, &at, errors);
        }
    }
    selector::validate(get(spec, "selector"), allow_invalid_label_value, &path.child("selector"), errors);
    if let Some(policy) = opt_str(spec, "unhealthyPodEvictionPolicy") {
        if !EVICTION_POLICIES.contains(&policy) {
            errors.push(Error::not_supported(&path.child("unhealthyPodEvictionPolicy"), policy, &EVICTION_POLICIES));
        }
    }
}

/// `json.Marshal` of the internal `PodDisruptionBudgetSpec` (no JSON tags: Go's field names,
/// in declaration order, nil pointers `null`).
fn render_spec(spec: &Json) -> String {
    let policy =
        opt_str(spec, "unhealthyPodEvictionPolicy").map_or_else(|| String::from("null"), |p| go_json(&Json::from(p)));
    format!(
        "{{\"MinAvailable\":{},\"Selector\":{},\"MaxUnavailable\":{},\"UnhealthyPodEvictionPolicy\":{}}}",
        render_opt_int_or_string(get(spec, "minAvailable")),
        selector::render(get(spec, "selector")),
        render_opt_int_or_string(get(spec, "maxUnavailable")),
        policy
    )
}
