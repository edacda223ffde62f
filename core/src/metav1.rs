//! apimachinery's `pkg/apis/meta/v1/validation` (and `pkg/api/validation`'s
//! `ValidateAnnotations`): labels, annotations and label selectors, as every built-in kind's
//! validation, ObjectMeta's checks and the admission policies' use them.

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{Map, Value as Json};

use crate::content;
use crate::field::{Error, ErrorType, Path};

/// `metav1.ObjectMeta`'s JSON fields in declaration order (how `json.Marshal` prints one).
pub const OBJECT_META_FIELDS: &[&str] = &[
    "name",
    "generateName",
    "namespace",
    "selfLink",
    "uid",
    "resourceVersion",
    "generation",
    "creationTimestamp",
    "deletionTimestamp",
    "deletionGracePeriodSeconds",
    "labels",
    "annotations",
    "ownerReferences",
    "finalizers",
    "managedFields",
];

fn list<'a>(v: &'a Json, key: &str) -> &'a [Json] {
    v.get(key).and_then(Json::as_array).map_or(&[], Vec::as_slice)
}

fn str<'a>(v: &'a Json, key: &str) -> &'a str {
    v.get(key).and_then(Json::as_str).unwrap_or("")
}

fn object<'a>(v: &'a Json, key: &str) -> Option<&'a Map<String, Json>> {
    v.get(key).and_then(Json::as_object)
}

fn required(path: &Path<'_>, detail: &str) -> Error {
    Error::new(ErrorType::Required, path, None, detail)
}

fn forbidden(path: &Path<'_>, detail: &str) -> Error {
    Error::new(ErrorType::Forbidden, path, None, detail)
}

/// meta/v1 `ValidateLabelName` (origin `format=k8s-label-key`).
pub fn validate_label_name(key: &str, path: &Path<'_>, errors: &mut Vec<Error>) {
    for msg in content::is_label_key(key) {
        errors.push(Error::invalid(path, key, msg).with_origin("format=k8s-label-key"));
    }
}

/// meta/v1 `ValidateLabels` (Go walks the map in random order; this walks it sorted).
pub fn validate_labels(labels: Option<&Map<String, Json>>, path: &Path<'_>, errors: &mut Vec<Error>) {
    let Some(labels) = labels else { return };
    for (k, v) in labels {
        validate_label_name(k, path, errors);
        let v = v.as_str().unwrap_or("");
        for msg in content::is_label_value(v) {
            errors.push(Error::invalid(path, v, msg).with_origin("format=k8s-label-value"));
        }
    }
}

/// apimachinery `ValidateAnnotations`: keys are qualified names in any case (`strings.ToLower`:
/// ASCII lowering decides the same, a non-ASCII key is invalid anyway); 256 KiB in all.
pub fn validate_annotations(annotations: Option<&Map<String, Json>>, path: &Path<'_>, errors: &mut Vec<Error>) {
    let mut size = 0usize;
    for (k, v) in annotations.into_iter().flatten() {
        for msg in content::is_label_key(&k.to_ascii_lowercase()) {
            errors.push(Error::invalid(path, k.as_str(), msg).with_origin("format=k8s-label-key"));
        }
        size = size.saturating_add(k.len()).saturating_add(v.as_str().map_or(0, str::len));
    }
    if size > 256 * 1024 {
        errors.push(Error::too_long(path, 256 * 1024));
    }
}

/// meta/v1 `ValidateLabelSelector` with `AllowUnknownOperatorInRequirement: false`.
pub fn validate_label_selector(
    selector: Option<&Json>,
    allow_invalid_label_value: bool,
    path: &Path<'_>,
    errors: &mut Vec<Error>,
) {
    let Some(selector) = selector.filter(|s| !s.is_null()) else { return };
    validate_labels(object(selector, "matchLabels"), &path.child("matchLabels"), errors);
    let exprs = path.child("matchExpressions");
    for (i, expr) in list(selector, "matchExpressions").iter().enumerate() {
        validate_label_selector_requirement(expr, false, allow_invalid_label_value, &exprs.index(i), errors);
    }
}

/// meta/v1 `ValidateLabelSelectorRequirement` (`LabelSelectorValidationOptions`: an unknown
/// operator allowed, invalid label values allowed).
pub fn validate_label_selector_requirement(
    expr: &Json,
    allow_unknown_operator: bool,
    allow_invalid_label_value: bool,
    at: &Path<'_>,
    errors: &mut Vec<Error>,
) {
    let values = list(expr, "values");
    let operator = str(expr, "operator");
    match operator {
        "In" | "NotIn" => {
            if values.is_empty() {
                errors.push(required(&at.child("values"), "must be specified when `operator` is 'In' or 'NotIn'"));
            }
        }
        "Exists" | "DoesNotExist" => {
            if !values.is_empty() {
                errors.push(forbidden(
                    &at.child("values"),
                    "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
                ));
            }
        }
        _ if allow_unknown_operator => {}
        _ => errors.push(Error::invalid(&at.child("operator"), operator, "not a valid selector operator")),
    }
    validate_label_name(str(expr, "key"), &at.child("key"), errors);
    if !allow_invalid_label_value {
        let vp = at.child("values");
        for (j, v) in values.iter().enumerate() {
            let v = v.as_str().unwrap_or("");
            for msg in content::is_label_value(v) {
                errors.push(Error::invalid(&vp.index(j), v, msg));
            }
        }
    }
}
