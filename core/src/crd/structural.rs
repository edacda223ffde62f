//! The structural-schema rules the API server applies to a CRD's schema before it serves it
//! (apiextensions-apiserver `pkg/apiserver/schema/validation.go`).

use alloc::vec::Vec;

use serde_json::Value as Json;

use crate::field::{Error, ErrorType, Path};

/// Where a schema node sits, for the structural rules' messages.
#[derive(Clone, Copy, PartialEq)]
pub enum Level {
    Root,
    Item,
    Field,
}

/// The structural-schema invariants the API server enforces (apiextensions-apiserver
/// pkg/apiserver/schema/validation.go `validateStructuralInvariants`, in its order): types,
/// `items`, `additionalProperties` and `properties` exclusive, `$ref`, embedded resources,
/// `kind`/`apiVersion`/`metadata` at resource roots, and the extensions' combinations.
pub fn structural(path: &Path<'_>, schema: &Json, level: Level, errors: &mut Vec<Error>) {
    let t = schema.get("type").and_then(Json::as_str).filter(|t| !t.is_empty());
    let on = |key: &str| schema.get(key).and_then(Json::as_bool) == Some(true);
    let (int_or_string, preserve, embedded) = (
        on("x-kubernetes-int-or-string"),
        on("x-kubernetes-preserve-unknown-fields"),
        on("x-kubernetes-embedded-resource"),
    );
    let additional = schema.get("additionalProperties").filter(|a| a.is_object());
    let properties = schema.get("properties").and_then(Json::as_object);
    if t == Some("array") && schema.get("items").is_none() {
        errors.push(Error::new(ErrorType::Required, &path.child("items"), None, "must be specified"));
    }
    if let Some(items) = schema.get("items").filter(|i| i.is_object()) {
        structural(&path.child("items"), items, Level::Item, errors);
    }
    if let Some(props) = properties {
        let p = path.child("properties");
        for (k, v) in props {
            structural(&p.key(k), v, Level::Field, errors);
        }
    }
    if let Some(ap) = additional {
        if level == Level::Root {
            errors.push(Error::new(
                ErrorType::Forbidden,
                &path.child("additionalProperties"),
                None,
                "must not be used at the root",
            ));
        }
        structural(&path.child("additionalProperties"), ap, Level::Field, errors);
    }
    if schema.get("$ref").is_some() {
        errors.push(Error::new(ErrorType::Forbidden, &path.child("$ref"), None, "$ref is not supported"));
    }
    if properties.is_some() && additional.is_some() {
        errors.push(Error::new(
            ErrorType::Forbidden,
            &path.child("additionalProperties"),
            None,
            "additionalProperties and properties are mutual exclusive",
        ));
    }
    // validateExtensions.
    for (key, set) in [("x-kubernetes-preserve-unknown-fields", preserve), ("x-kubernetes-embedded-resource", embedded)]
    {
        if int_or_string && set {
            let detail = "must be false if x-kubernetes-int-or-string is true";
            errors.push(Error::new(ErrorType::Invalid, &path.child(key), Some(Json::Bool(true)), detail));
        }
    }
    let check_metadata = level == Level::Root || embedded;
    const EMBEDDED_OBJECT: &str = "must be object if x-kubernetes-embedded-resource is true";
    match t {
        None if embedded => errors.push(Error::new(ErrorType::Required, &path.child("type"), None, EMBEDDED_OBJECT)),
        Some(t) if embedded && t != "object" => {
            errors.push(Error::new(ErrorType::Invalid, &path.child("type"), Some(Json::from(t)), EMBEDDED_OBJECT))
        }
        None if !int_or_string && !preserve => {
            let detail = match level {
                Level::Root => "must not be empty at the root",
                Level::Item => "must not be empty for specified array items",
                Level::Field => "must not be empty for specified object fields",
            };
            errors.push(Error::new(ErrorType::Required, &path.child("type"), None, detail));
        }
        _ => {}
    }
    if embedded && additional.is_some() {
        let detail = "must not be used if x-kubernetes-embedded-resource is set";
        errors.push(Error::new(ErrorType::Forbidden, &path.child("additionalProperties"), None, detail));
    }
    if level == Level::Root && t.is_some_and(|t| t != "object") {
        errors.push(Error::new(
            ErrorType::Invalid,
            &path.child("type"),
            t.map(Json::from),
            "must be object at the root",
        ));
    }
    let props = path.child("properties");
    for name in ["kind", "apiVersion"] {
        if let Some(p) = properties.and_then(|ps| ps.get(name)).filter(|_| check_metadata) {
            let ty = p.get("type").and_then(Json::as_str).unwrap_or("");
            if ty != "string" {
                errors.push(Error::new(
                    ErrorType::Invalid,
                    &props.key(name).child("type"),
                    Some(Json::from(ty)),
                    "must be string",
                ));
            }
        }
    }
    if let Some(metadata) = properties.and_then(|ps| ps.get("metadata")) {
        structural_metadata(&props.key("metadata"), metadata, check_metadata, level, errors);
    }
    if embedded && !preserve && properties.is_none_or(|p| p.is_empty()) {
        let detail =
            "must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields";
        errors.push(Error::new(ErrorType::Required, &path.child("properties"), None, detail));
    }
}

/// `validateStructuralMetadataInvariants`: `metadata` is an object, and at the root it may
/// only constrain `name` and `generateName` (the API server validates the rest itself).
fn structural_metadata(path: &Path<'_>, metadata: &Json, check_metadata: bool, level: Level, errors: &mut Vec<Error>) {
    let ty = metadata.get("type").and_then(Json::as_str).unwrap_or("");
    if check_metadata && ty != "object" {
        errors.push(Error::new(ErrorType::Invalid, &path.child("type"), Some(Json::from(ty)), "must be object"));
    }
    if level != Level::Root {
        return;
    }
    let Some(fields) = metadata.as_object() else { return };
    // What remains once type, default and a name/generateName-only `properties` are dropped
    // must be empty (false flags and empty strings are Go's zero values).
    let only_names =
        |p: &Json| p.as_object().is_some_and(|p| !p.is_empty() && p.keys().all(|k| k == "name" || k == "generateName"));
    let anything_else = fields.iter().any(|(k, v)| match k.as_str() {
        "type" | "default" => false,
        "properties" => !only_names(v),
        _ => !matches!(v, Json::Bool(false) | Json::Null) && v.as_str() != Some(""),
    });
    if anything_else {
        let detail = "must not specify anything other than name and generateName, but metadata is implicitly specified";
        errors.push(Error::new(ErrorType::Forbidden, path, None, detail));
    }
}
