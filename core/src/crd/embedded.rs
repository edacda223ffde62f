//! The checks of `x-kubernetes-embedded-resource` objects (apiextensions-apiserver
//! `pkg/apiserver/schema/objectmeta/validation.go`).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value as Json;

use crate::field::{Error, ErrorType, Path};
use crate::objectmeta::{self, NameRule};

fn flag(schema: &Json, key: &str) -> bool {
    schema.get(key).and_then(Json::as_bool).unwrap_or(false)
}

/// The checks of `x-kubernetes-embedded-resource` objects (apiextensions-apiserver
/// `pkg/apiserver/schema/objectmeta/validation.go`): `apiVersion` and `kind` are required
/// strings in the right form; `metadata.name` is a path segment name.
pub fn embedded_resources(path: &Path<'_>, value: &Json, schema: &Json, errors: &mut Vec<Error>) {
    if let (Json::Object(fields), true) = (value, flag(schema, "x-kubernetes-embedded-resource")) {
        embedded(path, fields, errors);
    }
    super::openapi::each_child(path, value, schema, |p, v, s| embedded_resources(p, v, s, errors));
}

fn embedded(path: &Path<'_>, fields: &serde_json::Map<String, Json>, errors: &mut Vec<Error>) {
    for required in ["apiVersion", "kind"] {
        if !fields.contains_key(required) {
            errors.push(Error::new(ErrorType::Required, &path.child(required), None, ""));
        }
    }
    for (k, v) in fields {
        let p = path.child(k);
        match (k.as_str(), v) {
            ("apiVersion" | "kind", Json::String(s)) if s.is_empty() => {
                errors.push(Error::invalid(&p, v.clone(), String::from("must not be empty")))
            }
            ("apiVersion" | "kind", Json::String(_)) | ("metadata", Json::Object(_)) => {}
            ("apiVersion" | "kind", other) => {
                errors.push(Error::invalid(&p, other.clone(), String::from("must be a string")))
            }
            _ => {}
        }
        match (k.as_str(), v) {
            ("apiVersion", Json::String(s)) if s.matches('/').count() > 1 => {
                errors.push(Error::invalid(&p, v.clone(), format!("unexpected GroupVersion string: {s}")));
            }
            ("kind", Json::String(s)) if !s.is_empty() => {
                let errs = crate::cel::k8s::is_dns1035_label(&s.to_ascii_lowercase());
                if !errs.is_empty() {
                    errors.push(Error::invalid(
                        &p,
                        v.clone(),
                        format!("may have mixed case, but should otherwise match: {}", errs.join(",")),
                    ));
                }
            }
            ("metadata", Json::Object(meta)) => objectmeta::validate(&p, meta, NameRule::PathSegment, true, errors),
            _ => {}
        }
    }
}
