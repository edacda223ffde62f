//! The `authorization.k8s.io` group: the access reviews, which the API server answers on create
//! without storing them (kubernetes `pkg/registry/authorization/*/rest.go`), after
//! `pkg/apis/authorization/validation/validation.go`. They get no ObjectMeta checks: a review's
//! metadata must be empty instead. `SelfSubjectRulesReview` has no validation; one without a
//! namespace is refused as a Bad Request ([`refusal`]).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{Map, Value as Json};

use super::Group;
use crate::apis::core::common::{forbidden, required, validate_label_selector_requirement};
use crate::apis::json::{field, get, list, str};
use crate::field::{go_json, Error, Path};

#[cfg(test)]
mod tests;

/// The kinds this room models.
pub const KINDS: &[&str] =
    &["SubjectAccessReview", "SelfSubjectAccessReview", "LocalSubjectAccessReview", "SelfSubjectRulesReview"];

/// No kind has defaults.
pub fn default(_version: &str, _kind: &str, _object: &mut Json) {}

/// `ValidateSubjectAccessReview`, `ValidateSelfSubjectAccessReview`,
/// `ValidateLocalSubjectAccessReview` (the declarative rules of the same `…Create` functions
/// run apart). No strategy, no warnings.
pub fn admit(group: &Group<'_>, object: &mut Json, _old: Option<&Json>) -> (Vec<Error>, Vec<String>) {
    let mut errors = Vec::new();
    let spec = field(object, "spec");
    let spec_path = Path::named("spec");
    let meta = object.get("metadata").and_then(Json::as_object);
    match group.kind {
        "SubjectAccessReview" => {
            subject_access_review_spec(spec, true, &spec_path, &mut errors);
            meta_must_be_empty(meta, false, &mut errors);
        }
        "SelfSubjectAccessReview" => {
            subject_access_review_spec(spec, false, &spec_path, &mut errors);
            meta_must_be_empty(meta, false, &mut errors);
        }
        "LocalSubjectAccessReview" => {
            subject_access_review_spec(spec, true, &spec_path, &mut errors);
            meta_must_be_empty(meta, true, &mut errors);
            let namespace = meta.and_then(|m| m.get("namespace")).and_then(Json::as_str).unwrap_or("");
            if let Some(resource) = get(spec, "resourceAttributes") {
                let ns = str(resource, "namespace");
                if ns != namespace {
                    let path = Path::named("spec.resourceAttributes.namespace");
                    errors.push(Error::invalid(&path, ns, "must match metadata.namespace"));
                }
            }
            if let Some(non_resource) = get(spec, "nonResourceAttributes") {
                let path = Path::named("spec.nonResourceAttributes");
                let error = Error::invalid(&path, non_resource.clone(), "disallowed on this kind of request");
                errors.push(with_rendered(error, non_resource_attributes(Some(non_resource))));
            }
        }
        _ => {}
    }
    (errors, Vec::new())
}

/// The Bad Request of `selfsubjectrulesreview.REST.Create` for a review without a namespace.
pub fn refusal(kind: &str, object: &Json) -> Option<String> {
    (kind == "SelfSubjectRulesReview" && str(field(object, "spec"), "namespace").is_empty())
        .then(|| String::from("no namespace on request"))
}

/// `ValidateSubjectAccessReviewSpec` (`with_subject`) or `ValidateSelfSubjectAccessReviewSpec`.
fn subject_access_review_spec(spec: &Json, with_subject: bool, path: &Path<'_>, errors: &mut Vec<Error>) {
    let resource = get(spec, "resourceAttributes");
    let non_resource = get(spec, "nonResourceAttributes");
    if resource.is_some() == non_resource.is_some() {
        let detail = "exactly one of nonResourceAttributes or resourceAttributes must be specified";
        let error = Error::invalid(path, non_resource.cloned().unwrap_or(Json::Null), detail).with_origin("union");
        errors.push(with_rendered(error, non_resource_attributes(non_resource)));
    }
    if with_subject && str(spec, "user").is_empty() && list(spec, "groups").is_empty() {
        errors.push(Error::invalid(&path.child("user"), "", "at least one of user or group must be specified"));
    }
    if let Some(resource) = resource {
        // The path is built from the string "spec.resourceAttributes", as Go's is.
        let path = Path::named("spec.resourceAttributes");
        let field_path = path.child("fieldSelector");
        if let Some(selector) = get(resource, "fieldSelector") {
            selector_attributes(selector, &field_path, errors, |req, at, errors| {
                // metav1validation.ValidateFieldSelectorRequirement, unknown operators allowed.
                if str(req, "key").is_empty() {
                    errors.push(required(&at.child("key"), "must be specified"));
                }
                let values = list(req, "values");
                match str(req, "operator") {
                    "In" | "NotIn" if values.is_empty() => errors
                        .push(required(&at.child("values"), "must be specified when `operator` is 'In' or 'NotIn'")),
                    "Exists" | "DoesNotExist" if !values.is_empty() => errors.push(forbidden(
                        &at.child("values"),
                        "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
                    )),
                    _ => {}
                }
            });
        }
        let label_path = path.child("labelSelector");
        if let Some(selector) = get(resource, "labelSelector") {
            selector_attributes(selector, &label_path, errors, |req, at, errors| {
                validate_label_selector_requirement(req, true, false, at, errors);
            });
        }
    }
}

/// `validateFieldSelectorAttributes` / `validateLabelSelectorAttributes`: a raw selector or
/// requirements, not both, each requirement checked by `requirement`.
fn selector_attributes(
    selector: &Json,
    path: &Path<'_>,
    errors: &mut Vec<Error>,
    requirement: impl Fn(&Json, &Path<'_>, &mut Vec<Error>),
) {
    let raw = str(selector, "rawSelector");
    let requirements = list(selector, "requirements");
    if !raw.is_empty() && !requirements.is_empty() {
        errors.push(Error::invalid(
            &path.child("rawSelector"),
            raw,
            "may not specified at the same time as requirements",
        ));
    }
    if raw.is_empty() && requirements.is_empty() {
        let detail = format!("when {} is specified, requirements or rawSelector is required", path.render());
        errors.push(required(&path.child("requirements"), &detail));
    }
    let at = path.child("requirements");
    for (i, r) in requirements.iter().enumerate() {
        requirement(r, &at.index(i), errors);
    }
}

/// The review's metadata must be empty (but for `managedFields`, and `namespace` for a local
/// review): `field.Invalid(metadata, sar.ObjectMeta, ...)`. The API server prints the
/// `managedFields` it has just set (its manager and the request's time), which a manifest
/// cannot give: kubedv prints the metadata without them.
///
/// The cluster-scoped reviews' namespace is cleared before validation (the API server serves
/// them without one: a namespace in the body is neither refused nor printed; found by the
/// differential fuzzer).
fn meta_must_be_empty(meta: Option<&Map<String, Json>>, local: bool, errors: &mut Vec<Error>) {
    let Some(meta) = meta else { return };
    let mut meta = meta.clone();
    if !local {
        meta.remove("namespace");
    }
    let set = |k: &str| meta.get(k).is_some_and(|v| !is_zero(v));
    let ignored = |k: &str| k == "managedFields" || (local && k == "namespace");
    if !meta.keys().any(|k| !ignored(k) && set(k)) {
        return;
    }
    let detail = if local { "must be empty except for namespace" } else { "must be empty" };
    let rendered = object_meta(&meta);
    let error = Error::invalid(&Path::named("metadata"), Json::Object(meta), detail);
    errors.push(with_rendered(error, rendered));
}

/// Whether a metadata value is Go's zero value (an empty string, list or map, 0, false).
fn is_zero(v: &Json) -> bool {
    match v {
        Json::Null => true,
        Json::String(s) => s.is_empty(),
        Json::Array(a) => a.is_empty(),
        Json::Object(m) => m.is_empty(),
        Json::Number(n) => n.as_f64() == Some(0.0),
        Json::Bool(b) => !b,
    }
}

/// `json.Marshal` of a `metav1.ObjectMeta`: its fields in declaration order, empty ones omitted.
fn object_meta(meta: &Map<String, Json>) -> String {
    // Without the managedFields the API server has just added (see above).
    let fields: Vec<String> = crate::metav1::OBJECT_META_FIELDS
        .iter()
        .filter(|k| **k != "managedFields")
        .filter_map(|k| {
            meta.get(*k).filter(|v| !is_zero(v)).map(|v| format!("{}:{}", go_json(&Json::from(*k)), go_json(v)))
        })
        .collect();
    format!("{{{}}}", fields.join(","))
}

/// `json.Marshal` of an internal `*authorization.NonResourceAttributes` (no JSON tags).
fn non_resource_attributes(attributes: Option<&Json>) -> String {
    match attributes {
        None => String::from("null"),
        Some(a) => format!(
            "{{\"Path\":{},\"Verb\":{}}}",
            go_json(&Json::from(str(a, "path"))),
            go_json(&Json::from(str(a, "verb")))
        ),
    }
}

fn with_rendered(mut error: Error, rendered: String) -> Error {
    error.rendered_value = Some(rendered);
    error
}
