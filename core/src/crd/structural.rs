//! The structural-schema rules the API server applies to a CRD's schema before it serves it
//! (apiextensions-apiserver `pkg/apiserver/schema/validation.go` and `complete.go`).

use alloc::format;
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
    // `additionalProperties: true` or `false` is set too (a JSONSchemaPropsOrBool without a
    // schema: the structural schema's `AdditionalProperties` is not nil).
    if level == Level::Root && schema.get("additionalProperties").is_some_and(|a| !a.is_null()) {
        errors.push(Error::new(
            ErrorType::Forbidden,
            &path.child("additionalProperties"),
            None,
            "must not be used at the root",
        ));
    }
    if let Some(ap) = additional {
        structural(&path.child("additionalProperties"), ap, Level::Field, errors);
    }
    if schema.get("$ref").is_some() {
        errors.push(Error::new(ErrorType::Forbidden, &path.child("$ref"), None, "$ref is not supported"));
    }
    // validateExtensions.
    for (key, set) in [("x-kubernetes-preserve-unknown-fields", preserve), ("x-kubernetes-embedded-resource", embedded)]
    {
        if int_or_string && set {
            let detail = "must be false if x-kubernetes-int-or-string is true";
            errors.push(Error::new(ErrorType::Invalid, &path.child(key), Some(Json::Bool(true)), detail));
        }
    }
    value_validation(path, schema, int_or_string_any_of(schema), int_or_string_all_of(schema), errors);
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

/// `ValidateStructural`: the invariants, then the completeness of the root's value
/// validations, all sorted by their text as Go sorts them.
pub fn validate(path: &Path<'_>, schema: &Json, errors: &mut Vec<Error>) {
    let mut found = Vec::new();
    structural(path, schema, Level::Root, &mut found);
    let root = path.render();
    completeness_of_junctors(schema, schema, &root, &root, &mut found);
    crate::sort::sort_by_key(&mut found, Error::text);
    errors.extend(found);
}

/// `intOrStringAnyOf`: exactly `[{type: integer}, {type: string}]`.
fn is_int_or_string_pair(any_of: Option<&Json>) -> bool {
    let only_type = |v: &Json, t: &str| {
        v.as_object().is_some_and(|m| m.len() == 1 && m.get("type").and_then(Json::as_str) == Some(t))
    };
    any_of
        .and_then(Json::as_array)
        .is_some_and(|a| a.len() == 2 && only_type(&a[0], "integer") && only_type(&a[1], "string"))
}

fn int_or_string_any_of(schema: &Json) -> bool {
    is_int_or_string_pair(schema.get("anyOf"))
}

fn int_or_string_all_of(schema: &Json) -> bool {
    schema
        .get("allOf")
        .and_then(Json::as_array)
        .and_then(|a| a.first())
        .is_some_and(|first| is_int_or_string_pair(first.get("anyOf")))
}

/// `validateValueValidation`: the junctors' nested schemas (an int-or-string `anyOf` pattern
/// skipped), then the pattern, which must compile.
fn value_validation(
    path: &Path<'_>,
    v: &Json,
    skip_any_of: bool,
    skip_first_all_of_any_of: bool,
    errors: &mut Vec<Error>,
) {
    let branches = |key: &str| v.get(key).and_then(Json::as_array).map_or(&[][..], |a| a.as_slice());
    if !skip_any_of {
        let p = path.child("anyOf");
        for (i, b) in branches("anyOf").iter().enumerate() {
            nested(&p.index(i), b, false, errors);
        }
    }
    let p = path.child("allOf");
    for (i, b) in branches("allOf").iter().enumerate() {
        nested(&p.index(i), b, skip_first_all_of_any_of && i == 0, errors);
    }
    let p = path.child("oneOf");
    for (i, b) in branches("oneOf").iter().enumerate() {
        nested(&p.index(i), b, false, errors);
    }
    if let Some(not) = v.get("not").filter(|n| n.is_object()) {
        nested(&path.child("not"), not, false, errors);
    }
    if let Some(pattern) = v.get("pattern").and_then(Json::as_str).filter(|p| super::FULL && !p.is_empty()) {
        if let Some(e) = crate::cel::library::go_regex_error(pattern) {
            let detail = format!("must be a valid regular expression, but isn't: {e}");
            errors.push(Error::invalid(&path.child("pattern"), pattern, detail));
        }
    }
}

/// `validateNestedValueValidation`: inside `allOf`/`anyOf`/`oneOf`/`not` only value
/// validations may appear.
fn nested(path: &Path<'_>, v: &Json, skip_any_of: bool, errors: &mut Vec<Error>) {
    value_validation(path, v, skip_any_of, false, errors);
    if let Some(items) = v.get("items").filter(|i| i.is_object()) {
        nested(&path.child("items"), items, false, errors);
    }
    if let Some(props) = v.get("properties").and_then(Json::as_object) {
        let p = path.child("properties");
        for (k, prop) in props {
            nested(&p.key(k), prop, false, errors);
        }
    }
    let set = |key: &str| v.get(key).is_some_and(|x| !x.is_null());
    let on = |key: &str| v.get(key).and_then(Json::as_bool) == Some(true);
    let text = |key: &str| v.get(key).and_then(Json::as_str).is_some_and(|s| !s.is_empty());
    let forbid = |key: &str, detail: &str, errors: &mut Vec<Error>| {
        errors.push(Error::new(ErrorType::Forbidden, &path.child(key), None, detail));
    };
    if text("type") {
        forbid("type", "must be empty to be structural", errors);
    }
    match v.get("additionalProperties") {
        // `false` is dropped when the schema is read.
        Some(Json::Bool(false)) | Some(Json::Null) | None => {}
        Some(_) => forbid("additionalProperties", "must be undefined to be structural", errors),
    }
    if set("default") {
        forbid("default", "must be undefined to be structural", errors);
    }
    if text("title") {
        forbid("title", "must be empty to be structural", errors);
    }
    if text("description") {
        forbid("description", "must be empty to be structural", errors);
    }
    if on("nullable") {
        forbid("nullable", "must be false to be structural", errors);
    }
    for key in ["x-kubernetes-preserve-unknown-fields", "x-kubernetes-embedded-resource", "x-kubernetes-int-or-string"]
    {
        if on(key) {
            forbid(key, "must be false to be structural", errors);
        }
    }
    if v.get("x-kubernetes-list-map-keys").and_then(Json::as_array).is_some_and(|k| !k.is_empty()) {
        forbid("x-kubernetes-list-map-keys", "must be empty to be structural", errors);
    }
    for key in ["x-kubernetes-list-type", "x-kubernetes-map-type"] {
        if set(key) {
            forbid(key, "must be undefined to be structural", errors);
        }
    }
    if v.get("x-kubernetes-validations").and_then(Json::as_array).is_some_and(|r| !r.is_empty()) {
        forbid("x-kubernetes-validations", "must be empty to be structural", errors);
    }
    if v.get("properties").and_then(|p| p.get("metadata")).is_some() {
        let at = path.child("properties");
        errors.push(Error::new(
            ErrorType::Forbidden,
            &at.key("metadata"),
            None,
            "must not be specified in a nested context",
        ));
    }
}

/// `validateValueValidationCompleteness` of a node's junctors against the structural node
/// `s` (at `s_path`); `v_path` is where the value validation stands.
fn completeness_of_junctors(v: &Json, s: &Json, s_path: &str, v_path: &str, errors: &mut Vec<Error>) {
    if let Some(not) = v.get("not").filter(|n| n.is_object()) {
        completeness(not, Some(s), s_path, &format!("{v_path}.not"), errors);
    }
    for key in ["allOf", "anyOf", "oneOf"] {
        for (i, b) in v.get(key).and_then(Json::as_array).into_iter().flatten().enumerate() {
            completeness(b, Some(s), s_path, &format!("{v_path}.{key}[{i}]"), errors);
        }
    }
}

/// `validateNestedValueValidationCompleteness`: every property and items a junctor
/// constrains must exist in the structural schema.
fn completeness(v: &Json, s: Option<&Json>, s_path: &str, v_path: &str, errors: &mut Vec<Error>) {
    let Some(s) = s else {
        let detail = format!("because it is defined in {v_path}");
        errors.push(Error::new(ErrorType::Required, &Path::named(s_path), None, detail));
        return;
    };
    completeness_of_junctors(v, s, s_path, v_path, errors);
    if let Some(items) = v.get("items").filter(|i| i.is_object()) {
        let s_items = s.get("items").filter(|i| i.is_object());
        completeness(items, s_items, &format!("{s_path}.items"), &format!("{v_path}.items"), errors);
    }
    for (k, prop) in v.get("properties").and_then(Json::as_object).into_iter().flatten() {
        let s_prop = s.get("properties").and_then(|p| p.get(k));
        let (sp, vp) = (format!("{s_path}.properties[{k}]"), format!("{v_path}.properties[{k}]"));
        match s_prop {
            None => errors.push(Error::new(
                ErrorType::Required,
                &Path::named(&sp),
                None,
                format!("because it is defined in {vp}"),
            )),
            Some(sf) => completeness(prop, Some(sf), &sp, &vp, errors),
        }
    }
}
