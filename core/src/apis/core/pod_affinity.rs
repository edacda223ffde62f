//! Affinity of a PodSpec, after `pkg/apis/core/validation/validation.go`: `validateAffinity`,
//! `validateNodeAffinity`, `ValidateNodeSelector`, `ValidateNodeSelectorTerm`,
//! `ValidateNodeSelectorRequirement`, `ValidateNodeFieldSelectorRequirement`,
//! `ValidatePreferredSchedulingTerms`, `validatePodAffinity`, `validatePodAntiAffinity`,
//! `validatePodAffinityTerms`, `validateWeightedPodAffinityTerms`, `validatePodAffinityTerm`,
//! `ValidatePodAffinityTermSelector`, `ValidateMatchLabelKeysAndMismatchLabelKeys`,
//! `validateLabelKeys`; the update helpers of `pkg/api/pod/util.go`
//! (`hasInvalidLabelValueInAffinitySelector`, `hasInvalidLabelValueInRequiredNodeAffinity`)
//! and the pod strategy's `mutatePodAffinity` (`applyMatchLabelKeysAndMismatchLabelKeys`,
//! `applyLabelKeysToLabelSelector`); the node affinity warnings of `pkg/api/node`
//! (`GetWarningsForNodeSelectorTerm`).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{Map, Value as Json};

use super::super::json::{field, get, int, list, str, string_map};
use super::common::{validate_label_name, validate_label_selector};
use super::pod_common::*;
use crate::content;
use crate::field::{Error, Path};

const REQUIRED: &str = "requiredDuringSchedulingIgnoredDuringExecution";
const PREFERRED: &str = "preferredDuringSchedulingIgnoredDuringExecution";

/// A `field.Invalid` whose value is a named string type (`NodeSelectorOperator`…): Go's
/// `ErrorBody` prints it with `json.Marshal`.
pub fn invalid_named(path: &Path<'_>, value: &str, detail: &str) -> Error {
    let mut e = Error::invalid(path, value, detail);
    e.rendered_value = Some(crate::field::go_json(&Json::from(value)));
    e
}

/// `validateAffinity`.
pub fn validate_affinity(spec: &Json, opts: &PodOpts, path: &Path<'_>, errors: &mut Vec<Error>) {
    let Some(affinity) = get(spec, "affinity") else { return };
    if let Some(na) = get(affinity, "nodeAffinity") {
        validate_node_affinity(na, opts, &path.child("nodeAffinity"), errors);
    }
    let allow = opts.allow_invalid_label_value_in_selector;
    for key in ["podAffinity", "podAntiAffinity"] {
        let Some(pa) = get(affinity, key) else { continue };
        let pp = path.child(key);
        if let Some(terms) = get(pa, REQUIRED).and_then(Json::as_array) {
            let rp = pp.child(REQUIRED);
            for (i, term) in terms.iter().enumerate() {
                validate_pod_affinity_term(term, allow, &rp.index(i), errors);
            }
        }
        if let Some(terms) = get(pa, PREFERRED).and_then(Json::as_array) {
            let wp = pp.child(PREFERRED);
            for (j, weighted) in terms.iter().enumerate() {
                let at = wp.index(j);
                let weight = int(weighted, "weight").unwrap_or(0);
                if weight <= 0 || weight > 100 {
                    errors.push(Error::invalid(&at.child("weight"), weight, "must be in the range 1-100"));
                }
                validate_pod_affinity_term(
                    field(weighted, "podAffinityTerm"),
                    allow,
                    &at.child("podAffinityTerm"),
                    errors,
                );
            }
        }
    }
}

/// `validateNodeAffinity`.
fn validate_node_affinity(na: &Json, opts: &PodOpts, path: &Path<'_>, errors: &mut Vec<Error>) {
    if let Some(selector) = get(na, REQUIRED) {
        validate_node_selector(
            selector,
            opts.allow_invalid_label_value_in_required_node_affinity,
            &path.child(REQUIRED),
            errors,
        );
    }
    let preferred = list(na, PREFERRED);
    if !preferred.is_empty() {
        validate_preferred_scheduling_terms(preferred, &path.child(PREFERRED), errors);
    }
}

/// `ValidateNodeSelector`.
pub fn validate_node_selector(selector: &Json, allow_invalid_value: bool, path: &Path<'_>, errors: &mut Vec<Error>) {
    let tp = path.child("nodeSelectorTerms");
    let terms = list(selector, "nodeSelectorTerms");
    if terms.is_empty() {
        errors.push(required(&tp, "must have at least one node selector term"));
        return;
    }
    for (i, term) in terms.iter().enumerate() {
        validate_node_selector_term(term, allow_invalid_value, &tp.index(i), errors);
    }
}

/// `ValidateNodeSelectorTerm`.
pub fn validate_node_selector_term(term: &Json, allow_invalid_value: bool, path: &Path<'_>, errors: &mut Vec<Error>) {
    let ep = path.child("matchExpressions");
    for (j, req) in list(term, "matchExpressions").iter().enumerate() {
        validate_node_selector_requirement(req, allow_invalid_value, &ep.index(j), errors);
    }
    let fp = path.child("matchFields");
    for (j, req) in list(term, "matchFields").iter().enumerate() {
        validate_node_field_selector_requirement(req, &fp.index(j), errors);
    }
}

/// `ValidateNodeSelectorRequirement`.
fn validate_node_selector_requirement(req: &Json, allow_invalid_value: bool, path: &Path<'_>, errors: &mut Vec<Error>) {
    let values = list(req, "values");
    let op = str(req, "operator");
    match op {
        "In" | "NotIn" => {
            if values.is_empty() {
                errors.push(required(&path.child("values"), "must be specified when `operator` is 'In' or 'NotIn'"));
            }
        }
        "Exists" | "DoesNotExist" => {
            if !values.is_empty() {
                errors.push(forbidden(
                    &path.child("values"),
                    "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
                ));
            }
        }
        "Gt" | "Lt" => {
            if values.len() != 1 {
                errors.push(required(
                    &path.child("values"),
                    "must be specified single value when `operator` is 'Lt' or 'Gt'",
                ));
            }
        }
        other => errors.push(invalid_named(&path.child("operator"), other, "not a valid selector operator")),
    }
    validate_label_name(str(req, "key"), &path.child("key"), errors);
    if !allow_invalid_value {
        let vp = path.child("values");
        for (i, v) in values.iter().enumerate() {
            let v = v.as_str().unwrap_or("");
            for msg in content::is_label_value(v) {
                errors.push(Error::invalid(&vp.index(i), v, msg).with_origin("format=k8s-label-value"));
            }
        }
    }
}

/// `ValidateNodeFieldSelectorRequirement` (the one field: `metadata.name`, checked by
/// `ValidateNodeName`).
fn validate_node_field_selector_requirement(req: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let values = list(req, "values");
    match str(req, "operator") {
        "In" | "NotIn" => {
            if values.len() != 1 {
                errors.push(required(
                    &path.child("values"),
                    "must be only one value when `operator` is 'In' or 'NotIn' for node field selector",
                ));
            }
        }
        other => errors.push(invalid_named(&path.child("operator"), other, "not a valid selector operator")),
    }
    let key = str(req, "key");
    if key != "metadata.name" {
        errors.push(Error::invalid(&path.child("key"), key, "not a valid field selector key"));
    } else {
        let vp = path.child("values");
        for (i, v) in values.iter().enumerate() {
            let v = v.as_str().unwrap_or("");
            for msg in is_dns1123_subdomain(v) {
                errors.push(Error::invalid(&vp.index(i), v, msg));
            }
        }
    }
}

/// `ValidatePreferredSchedulingTerms`.
fn validate_preferred_scheduling_terms(terms: &[Json], path: &Path<'_>, errors: &mut Vec<Error>) {
    for (i, term) in terms.iter().enumerate() {
        let at = path.index(i);
        let weight = int(term, "weight").unwrap_or(0);
        if weight <= 0 || weight > 100 {
            errors.push(Error::invalid(&at.child("weight"), weight, "must be in the range 1-100"));
        }
        validate_node_selector_term(field(term, "preference"), true, &at.child("preference"), errors);
    }
}

/// `validatePodAffinityTerm`.
fn validate_pod_affinity_term(term: &Json, allow_invalid_value: bool, path: &Path<'_>, errors: &mut Vec<Error>) {
    validate_pod_affinity_term_selector(term, allow_invalid_value, path, errors);
    for ns in list(term, "namespaces") {
        let ns = ns.as_str().unwrap_or("");
        for msg in is_dns1123_label(ns) {
            errors.push(Error::invalid(&path.child("namespace"), ns, msg));
        }
    }
    let match_keys = strings(term, "matchLabelKeys");
    let mismatch_keys = strings(term, "mismatchLabelKeys");
    validate_match_label_keys_and_mismatch_label_keys(
        path,
        &match_keys,
        &mismatch_keys,
        get(term, "labelSelector"),
        errors,
    );
    let tk = str(term, "topologyKey");
    if tk.is_empty() {
        errors.push(required(&path.child("topologyKey"), "can not be empty"));
    }
    validate_label_name(tk, &path.child("topologyKey"), errors);
}

/// `ValidatePodAffinityTermSelector`.
pub fn validate_pod_affinity_term_selector(
    term: &Json,
    allow_invalid_value: bool,
    path: &Path<'_>,
    errors: &mut Vec<Error>,
) {
    validate_label_selector(get(term, "labelSelector"), allow_invalid_value, &path.child("labelSelector"), errors);
    validate_label_selector(
        get(term, "namespaceSelector"),
        allow_invalid_value,
        &path.child("namespaceSelector"),
        errors,
    );
}

/// `validateLabelKeys`.
fn validate_label_keys(path: &Path<'_>, keys: &[&str], selector: Option<&Json>, errors: &mut Vec<Error>) {
    if keys.is_empty() {
        return;
    }
    if selector.is_none() {
        errors.push(forbidden(path, "must not be specified when labelSelector is not set"));
        return;
    }
    for (i, key) in keys.iter().enumerate() {
        validate_label_name(key, &path.index(i), errors);
    }
}

/// `ValidateMatchLabelKeysAndMismatchLabelKeys`. Go reports a key found in both
/// `matchLabelKeys` and the selector at `<path>[i]` (its `fldPath.Index(i)`, sic).
pub fn validate_match_label_keys_and_mismatch_label_keys(
    path: &Path<'_>,
    match_keys: &[&str],
    mismatch_keys: &[&str],
    selector: Option<&Json>,
    errors: &mut Vec<Error>,
) {
    validate_label_keys(&path.child("matchLabelKeys"), match_keys, selector, errors);
    validate_label_keys(&path.child("mismatchLabelKeys"), mismatch_keys, selector, errors);
    if let Some(sel) = selector {
        let mut seen: Vec<&str> = string_map(sel, "matchLabels").into_iter().map(|(k, _)| k).collect();
        for expr in list(sel, "matchExpressions") {
            let key = str(expr, "key");
            // labelKeysMap[key] = the last index of key in matchLabelKeys.
            if let Some(i) = match_keys.iter().rposition(|k| *k == key) {
                if seen.contains(&key) {
                    errors.push(
                        Error::invalid(&path.index(i), key, "exists in both matchLabelKeys and labelSelector")
                            .with_origin("duplicatedLabelKeys"),
                    );
                }
            }
            seen.push(key);
        }
    }
    let mp = path.child("matchLabelKeys");
    for (i, k) in match_keys.iter().enumerate() {
        if mismatch_keys.contains(k) {
            errors.push(
                Error::invalid(&mp.index(i), *k, "exists in both matchLabelKeys and mismatchLabelKeys")
                    .with_origin("duplicatedMismatchLabelKeys"),
            );
        }
    }
}

/// The pod affinity terms of a spec, each with whether it is weighted.
fn pod_affinity_terms(spec: &Json) -> Vec<&Json> {
    let affinity = field(spec, "affinity");
    let mut out = Vec::new();
    for key in ["podAffinity", "podAntiAffinity"] {
        let a = field(affinity, key);
        out.extend(list(a, REQUIRED));
        out.extend(list(a, PREFERRED).iter().map(|w| field(w, "podAffinityTerm")));
    }
    out
}

/// pod util `hasInvalidLabelValueInAffinitySelector`.
pub fn has_invalid_label_value_in_affinity_selector(spec: &Json) -> bool {
    pod_affinity_terms(spec).into_iter().any(|t| {
        let mut errs = Vec::new();
        validate_pod_affinity_term_selector(t, false, &Path::root(), &mut errs);
        !errs.is_empty()
    })
}

/// pod util `hasInvalidLabelValueInRequiredNodeAffinity`.
pub fn has_invalid_label_value_in_required_node_affinity(spec: &Json) -> bool {
    let required = field(field(field(spec, "affinity"), "nodeAffinity"), REQUIRED);
    list(required, "nodeSelectorTerms").iter().any(|t| {
        list(t, "matchExpressions")
            .iter()
            .any(|e| list(e, "values").iter().any(|v| !content::is_label_value(v.as_str().unwrap_or("")).is_empty()))
    })
}

/// pod strategy `applyLabelKeysToLabelSelector`.
pub fn apply_label_keys(selector: &mut Json, keys: &[String], operator: &str, labels: &Map<String, Json>) {
    let Json::Object(sel) = selector else { return };
    for key in keys {
        let Some(value) = labels.get(key) else { continue };
        let slot = sel.entry(String::from("matchExpressions")).or_insert(Json::Array(Vec::new()));
        if slot.is_null() {
            *slot = Json::Array(Vec::new());
        }
        if let Json::Array(exprs) = slot {
            exprs.push(serde_json::json!({ "key": key, "operator": operator, "values": [value] }));
        }
    }
}

fn owned_strings(v: &Json, key: &str) -> Vec<String> {
    list(v, key).iter().map(|s| String::from(s.as_str().unwrap_or(""))).collect()
}

/// pod strategy `applyMatchLabelKeysAndMismatchLabelKeys`.
fn apply_to_term(term: &mut Json, labels: &Map<String, Json>) {
    let match_keys = owned_strings(term, "matchLabelKeys");
    let mismatch_keys = owned_strings(term, "mismatchLabelKeys");
    if match_keys.is_empty() && mismatch_keys.is_empty() {
        return;
    }
    let Some(selector) = term.get_mut("labelSelector").filter(|s| !s.is_null()) else { return };
    apply_label_keys(selector, &match_keys, "In", labels);
    apply_label_keys(selector, &mismatch_keys, "NotIn", labels);
}

/// pod strategy `mutatePodAffinity` (MatchLabelKeysInPodAffinity on): the pod's own label
/// values of `matchLabelKeys` / `mismatchLabelKeys` merged into each term's selector.
pub fn mutate_pod_affinity(pod: &mut Json) {
    let labels =
        pod.get("metadata").and_then(|m| m.get("labels")).and_then(Json::as_object).cloned().unwrap_or_default();
    let Some(affinity) = pod.get_mut("spec").and_then(|s| s.get_mut("affinity")).filter(|a| !a.is_null()) else {
        return;
    };
    for key in ["podAffinity", "podAntiAffinity"] {
        let Some(a) = affinity.get_mut(key).filter(|a| !a.is_null()) else { continue };
        if let Some(Json::Array(terms)) = a.get_mut(PREFERRED) {
            for w in terms.iter_mut() {
                if let Some(t) = w.get_mut("podAffinityTerm") {
                    apply_to_term(t, &labels);
                }
            }
        }
        if let Some(Json::Array(terms)) = a.get_mut(REQUIRED) {
            for t in terms.iter_mut() {
                apply_to_term(t, &labels);
            }
        }
    }
}

/// node `GetWarningsForNodeSelectorTerm`, with `deprecated` the node-label deprecation
/// message of a key.
pub fn node_selector_term_warnings(
    term: &Json,
    check_label_value: bool,
    path: &str,
    deprecated: impl Fn(&str) -> Option<&'static str>,
) -> Vec<String> {
    let mut w = Vec::new();
    for (i, expr) in list(term, "matchExpressions").iter().enumerate() {
        let key = str(expr, "key");
        if let Some(msg) = deprecated(key) {
            w.push(format!("{path}.matchExpressions[{i}].key: {key} is {msg}"));
        }
        if check_label_value {
            for (j, v) in list(expr, "values").iter().enumerate() {
                let v = v.as_str().unwrap_or("");
                for msg in content::is_label_value(v) {
                    w.push(format!("{path}.matchExpressions[{i}].values[{j}]: {v} is invalid, {msg}"));
                }
            }
        }
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn texts(affinity: Json) -> Vec<String> {
        let spec = json!({ "affinity": affinity });
        let mut errors = Vec::new();
        validate_affinity(&spec, &PodOpts::default(), &Path::named("spec").child("affinity"), &mut errors);
        errors.iter().map(Error::text).collect()
    }

    // TestValidateAffinity (error cases of TestValidatePod's affinity table).
    #[test]
    fn node_affinity() {
        assert!(texts(json!({"nodeAffinity": {REQUIRED: {"nodeSelectorTerms": [{"matchExpressions": [{"key": "k", "operator": "In", "values": ["v"]}]}]}}})).is_empty());
        assert_eq!(
            texts(json!({"nodeAffinity": {REQUIRED: {"nodeSelectorTerms": []}}})),
            ["spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: Required value: must have at least one node selector term"]
        );
        assert_eq!(
            texts(json!({"nodeAffinity": {REQUIRED: {"nodeSelectorTerms": [{"matchExpressions": [{"key": "k", "operator": "Foo", "values": ["v"]}]}]}}})),
            ["spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].operator: Invalid value: \"Foo\": not a valid selector operator"]
        );
        assert_eq!(
            texts(json!({"nodeAffinity": {REQUIRED: {"nodeSelectorTerms": [{"matchFields": [{"key": "metadata.namespace", "operator": "In", "values": ["a", "b"]}]}]}}})),
            [
                "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].values: Required value: must be only one value when `operator` is 'In' or 'NotIn' for node field selector",
                "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].key: Invalid value: \"metadata.namespace\": not a valid field selector key",
            ]
        );
        assert_eq!(
            texts(json!({"nodeAffinity": {PREFERRED: [{"weight": 199, "preference": {"matchExpressions": [{"key": "k", "operator": "Exists", "values": ["v"]}]}}]}})),
            [
                "spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 199: must be in the range 1-100",
                "spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
            ]
        );
    }

    // TestValidatePod: pod affinity terms (topologyKey, namespaces, matchLabelKeys).
    #[test]
    fn pod_affinity() {
        assert_eq!(
            texts(json!({"podAffinity": {REQUIRED: [{"labelSelector": {"matchLabels": {"a": "b"}}, "namespaces": ["Bad_NS"], "topologyKey": ""}]}})),
            [
                "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].namespace: Invalid value: \"Bad_NS\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
                "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Required value: can not be empty",
                "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Invalid value: \"\": name part must be non-empty",
                "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
            ]
        );
        assert_eq!(
            texts(json!({"podAntiAffinity": {PREFERRED: [{"weight": 10, "podAffinityTerm": {"topologyKey": "zone", "matchLabelKeys": ["x"], "mismatchLabelKeys": ["x"]}}]}})),
            [
                "spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.matchLabelKeys: Forbidden: must not be specified when labelSelector is not set",
                "spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.mismatchLabelKeys: Forbidden: must not be specified when labelSelector is not set",
                "spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.matchLabelKeys[0]: Invalid value: \"x\": exists in both matchLabelKeys and mismatchLabelKeys",
            ]
        );
        // The create strategy merged `key in (value)` into the selector: a key also in the
        // selector is reported at the term's path index (Go's fldPath.Index(i)).
        let mut pod = json!({"metadata": {"labels": {"app": "a"}}, "spec": {"affinity": {"podAffinity": {REQUIRED: [
            {"labelSelector": {"matchLabels": {"app": "a"}}, "topologyKey": "zone", "matchLabelKeys": ["app"]}
        ]}}}});
        mutate_pod_affinity(&mut pod);
        assert_eq!(
            texts(pod["spec"]["affinity"].clone()),
            ["spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0][0]: Invalid value: \"app\": exists in both matchLabelKeys and labelSelector"]
        );
    }

    // TestWarnings (node affinity terms).
    #[test]
    fn warnings() {
        let term =
            json!({"matchExpressions": [{"key": "beta.kubernetes.io/os", "operator": "In", "values": ["-bad"]}]});
        let dep = |k: &str| {
            (k == "beta.kubernetes.io/os").then_some("deprecated since v1.14; use \"kubernetes.io/os\" instead")
        };
        assert_eq!(
            node_selector_term_warnings(&term, true, "spec.x", dep),
            [
                "spec.x.matchExpressions[0].key: beta.kubernetes.io/os is deprecated since v1.14; use \"kubernetes.io/os\" instead",
                "spec.x.matchExpressions[0].values[0]: -bad is invalid, a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
            ]
        );
    }
}
