//! Topology spread constraints of a PodSpec, after `pkg/apis/core/validation/validation.go`:
//! `validateTopologySpreadConstraints`, `validateMinDomains`, `ValidateTopologyKey`,
//! `ValidateWhenUnsatisfiable`, `ValidateSpreadConstraintNotRepeat`,
//! `validateNodeInclusionPolicy`, `ValidateMatchLabelKeysInTopologySpread` (and, the
//! MatchLabelKeysInPodTopologySpread and …SelectorMerge gates being on at 1.37,
//! `ValidateMatchLabelKeysAndMismatchLabelKeys`); `pkg/api/pod/util.go`'s
//! `hasInvalidTopologySpreadConstraintLabelSelector` and
//! `hasInvalidTopologySpreadConstrainMatchLabelKeys`; and the pod strategy's
//! `mutateTopologySpreadConstraints` (`applyMatchLabelKeys`).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value as Json;

use super::super::json::{get, int, list, str, string_map};
use super::common::{validate_label_name, validate_label_selector};
use super::pod_affinity::{apply_label_keys, validate_match_label_keys_and_mismatch_label_keys};
use super::pod_common::*;
use crate::field::{Error, Path};

/// `validateTopologySpreadConstraints`.
pub fn validate_topology_spread_constraints(spec: &Json, opts: &PodOpts, path: &Path<'_>, errors: &mut Vec<Error>) {
    let constraints = list(spec, "topologySpreadConstraints");
    for (i, c) in constraints.iter().enumerate() {
        let at = path.index(i);
        let max_skew = int(c, "maxSkew").unwrap_or(0);
        if max_skew <= 0 {
            errors.push(
                Error::invalid(&at.child("maxSkew"), max_skew, "must be greater than zero").with_origin("minimum"),
            );
        }
        let key = str(c, "topologyKey");
        if key.is_empty() {
            errors.push(required(&at.child("topologyKey"), "can not be empty"));
        }
        let action = str(c, "whenUnsatisfiable");
        if !["DoNotSchedule", "ScheduleAnyway"].contains(&action) {
            errors.push(Error::not_supported(
                &at.child("whenUnsatisfiable"),
                action,
                &["DoNotSchedule", "ScheduleAnyway"],
            ));
        }
        let repeated = constraints
            .get(i + 1..)
            .unwrap_or(&[])
            .iter()
            .any(|r| str(r, "topologyKey") == key && str(r, "whenUnsatisfiable") == action);
        if repeated {
            errors.push(duplicate(&at.child("{topologyKey, whenUnsatisfiable}"), format!("{{{key}, {action}}}")));
        }
        if let Some(min) = int(c, "minDomains") {
            let mp = at.child("minDomains");
            if min <= 0 {
                errors.push(Error::invalid(&mp, min, "must be greater than zero").with_origin("minimum"));
            }
            if action != "DoNotSchedule" {
                let msg = format!("can only use minDomains if whenUnsatisfiable=DoNotSchedule, not {action}");
                errors.push(Error::invalid(&mp, min, msg).with_origin("dependsOn"));
            }
        }
        for policy in ["nodeAffinityPolicy", "nodeTaintsPolicy"] {
            if let Some(p) = c.get(policy).and_then(Json::as_str) {
                if !["Honor", "Ignore"].contains(&p) {
                    let mut e = Error::not_supported(&at.child(policy), p, &["Honor", "Ignore"]);
                    e.rendered_value = Some(crate::field::go_json(&Json::from(p)));
                    errors.push(e);
                }
            }
        }
        let keys = strings(c, "matchLabelKeys");
        let selector = get(c, "labelSelector");
        if opts.old_pod_violates_match_label_keys_validation {
            validate_match_label_keys_in_topology_spread(&at.child("matchLabelKeys"), &keys, selector, errors);
        } else {
            validate_match_label_keys_and_mismatch_label_keys(&at, &keys, &[], selector, errors);
        }
        if !opts.allow_invalid_topology_spread_constraint_label_selector {
            validate_label_selector(selector, false, &at.child("labelSelector"), errors);
        }
    }
}

/// `ValidateMatchLabelKeysInTopologySpread` (the legacy check, kept for old pods that fail
/// the new one).
fn validate_match_label_keys_in_topology_spread(
    path: &Path<'_>,
    keys: &[&str],
    selector: Option<&Json>,
    errors: &mut Vec<Error>,
) {
    if keys.is_empty() {
        return;
    }
    let mut selector_keys: Vec<&str> = Vec::new();
    match selector {
        Some(sel) => {
            selector_keys.extend(string_map(sel, "matchLabels").into_iter().map(|(k, _)| k));
            selector_keys.extend(list(sel, "matchExpressions").iter().map(|e| str(e, "key")));
        }
        None => errors.push(forbidden(path, "must not be specified when labelSelector is not set")),
    }
    for (i, key) in keys.iter().enumerate() {
        validate_label_name(key, &path.index(i), errors);
        if selector_keys.contains(key) {
            errors.push(
                Error::invalid(&path.index(i), *key, "exists in both matchLabelKeys and labelSelector")
                    .with_origin("duplicatedLabelKeys"),
            );
        }
    }
}

/// pod util `hasInvalidTopologySpreadConstraintLabelSelector`.
pub fn has_invalid_label_selector(spec: &Json) -> bool {
    list(spec, "topologySpreadConstraints").iter().any(|c| {
        let mut errs = Vec::new();
        validate_label_selector(get(c, "labelSelector"), false, &Path::root(), &mut errs);
        !errs.is_empty()
    })
}

/// pod util `hasInvalidTopologySpreadConstrainMatchLabelKeys`.
pub fn has_invalid_match_label_keys(spec: &Json) -> bool {
    list(spec, "topologySpreadConstraints").iter().any(|c| {
        let mut errs = Vec::new();
        let keys = strings(c, "matchLabelKeys");
        validate_match_label_keys_and_mismatch_label_keys(
            &Path::root(),
            &keys,
            &[],
            get(c, "labelSelector"),
            &mut errs,
        );
        !errs.is_empty()
    })
}

/// pod strategy `mutateTopologySpreadConstraints` (both gates on): the pod's own label values
/// of `matchLabelKeys` merged into each constraint's selector as `key In (value)`.
pub fn mutate_topology_spread_constraints(pod: &mut Json) {
    let labels =
        pod.get("metadata").and_then(|m| m.get("labels")).and_then(Json::as_object).cloned().unwrap_or_default();
    let Some(Json::Array(constraints)) = pod.get_mut("spec").and_then(|s| s.get_mut("topologySpreadConstraints"))
    else {
        return;
    };
    for c in constraints.iter_mut() {
        let keys: Vec<String> =
            list(c, "matchLabelKeys").iter().map(|k| String::from(k.as_str().unwrap_or(""))).collect();
        if keys.is_empty() {
            continue;
        }
        if let Some(selector) = c.get_mut("labelSelector").filter(|s| !s.is_null()) {
            apply_label_keys(selector, &keys, "In", &labels);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn texts(constraints: Json) -> Vec<String> {
        let spec = json!({ "topologySpreadConstraints": constraints });
        let mut errors = Vec::new();
        let path = Path::named("spec");
        validate_topology_spread_constraints(
            &spec,
            &PodOpts::default(),
            &path.child("topologySpreadConstraints"),
            &mut errors,
        );
        errors.iter().map(Error::text).collect()
    }

    // TestValidateTopologySpreadConstraints.
    #[test]
    fn constraints() {
        let ok = json!({"maxSkew": 1, "topologyKey": "k8s.io/zone", "whenUnsatisfiable": "DoNotSchedule", "labelSelector": {}});
        assert!(texts(json!([ok])).is_empty());
        assert_eq!(
            texts(json!([{"maxSkew": 0, "topologyKey": "k8s.io/zone", "whenUnsatisfiable": "DoNotSchedule"}])),
            ["spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero"]
        );
        assert_eq!(
            texts(json!([{"maxSkew": 1, "topologyKey": "", "whenUnsatisfiable": "DoNotSchedule"}])),
            ["spec.topologySpreadConstraints[0].topologyKey: Required value: can not be empty"]
        );
        assert_eq!(
            texts(json!([{"maxSkew": 1, "topologyKey": "k8s.io/zone", "whenUnsatisfiable": "N/A"}])),
            ["spec.topologySpreadConstraints[0].whenUnsatisfiable: Unsupported value: \"N/A\": supported values: \"DoNotSchedule\", \"ScheduleAnyway\""]
        );
        assert_eq!(
            texts(json!([
                {"maxSkew": 1, "topologyKey": "k8s.io/zone", "whenUnsatisfiable": "DoNotSchedule"},
                {"maxSkew": 2, "topologyKey": "k8s.io/zone", "whenUnsatisfiable": "DoNotSchedule"}
            ])),
            ["spec.topologySpreadConstraints[0].{topologyKey, whenUnsatisfiable}: Duplicate value: \"{k8s.io/zone, DoNotSchedule}\""]
        );
        assert_eq!(
            texts(json!([{"maxSkew": 1, "topologyKey": "k8s.io/zone", "whenUnsatisfiable": "ScheduleAnyway", "minDomains": -1}])),
            [
                "spec.topologySpreadConstraints[0].minDomains: Invalid value: -1: must be greater than zero",
                "spec.topologySpreadConstraints[0].minDomains: Invalid value: -1: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway",
            ]
        );
        assert_eq!(
            texts(json!([{"maxSkew": 1, "topologyKey": "k8s.io/zone", "whenUnsatisfiable": "DoNotSchedule", "nodeAffinityPolicy": "Foo"}])),
            ["spec.topologySpreadConstraints[0].nodeAffinityPolicy: Unsupported value: \"Foo\": supported values: \"Honor\", \"Ignore\""]
        );
        assert_eq!(
            texts(json!([{"maxSkew": 1, "topologyKey": "k8s.io/zone", "whenUnsatisfiable": "DoNotSchedule", "matchLabelKeys": ["foo"]}])),
            ["spec.topologySpreadConstraints[0].matchLabelKeys: Forbidden: must not be specified when labelSelector is not set"]
        );
        assert_eq!(
            texts(json!([{"maxSkew": 1, "topologyKey": "k8s.io/zone", "whenUnsatisfiable": "DoNotSchedule",
                "labelSelector": {"matchExpressions": [{"key": "foo", "operator": "In", "values": ["a"]}], "matchLabels": {"foo": "a"}},
                "matchLabelKeys": ["foo"]}])),
            ["spec.topologySpreadConstraints[0][0]: Invalid value: \"foo\": exists in both matchLabelKeys and labelSelector"]
        );
    }
}
