//! OpenAPI value validation of a custom resource, as the API server runs it (kube-openapi's
//! validator and apiextensions-apiserver `pkg/apiserver/validation/validation.go`
//! `kubeOpenAPIResultToFieldErrors`): the messages are go-openapi's (`spec.replicas in body
//! should be less than or equal to 10`), the error types the API server maps them to.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value as Json;

use crate::field::{Error, ErrorType, Path};

/// Appends the OpenAPI errors of `value` under `schema`.
pub fn validate(path: &Path<'_>, name: &str, value: &Json, schema: &Json, errors: &mut Vec<Error>) {
    if value.is_null() {
        if !flag(schema, "nullable")
            && !flag(schema, "x-kubernetes-int-or-string")
            && !flag(schema, "x-kubernetes-preserve-unknown-fields")
        {
            if let Some(t) = schema.get("type").and_then(Json::as_str) {
                errors.push(type_error(path, name, value, t));
            }
        }
        return;
    }
    if flag(schema, "x-kubernetes-int-or-string") {
        if !(value.is_string() || value.as_i64().is_some() || value.as_u64().is_some()) {
            errors.push(type_error(path, name, value, "integer,string"));
            return;
        }
    } else if let Some(t) = schema.get("type").and_then(Json::as_str) {
        if !has_type(value, t) {
            errors.push(type_error(path, name, value, t));
            return;
        }
    }
    if let Some(options) = schema.get("enum").and_then(Json::as_array) {
        if !options.iter().any(|o| o == value) {
            let supported: Vec<String> = options
                .iter()
                .map(|o| match o {
                    Json::String(s) => s.clone(),
                    other => serde_json::to_string(other).unwrap_or_default(),
                })
                .collect();
            let quoted: Vec<String> = supported.iter().map(|s| crate::field::go_quote(s)).collect();
            errors.push(Error::new(
                ErrorType::NotSupported,
                path,
                Some(value.clone()),
                format!("supported values: {}", quoted.join(", ")),
            ));
        }
    }
    match value {
        Json::Number(n) => numeric(path, name, value, n.as_f64().unwrap_or(0.0), schema, errors),
        Json::String(s) => string(path, name, value, s, schema, errors),
        Json::Array(items) => array(path, name, value, items, schema, errors),
        Json::Object(fields) => object(path, name, fields, schema, errors),
        _ => {}
    }
}

fn flag(schema: &Json, key: &str) -> bool {
    schema.get(key).and_then(Json::as_bool).unwrap_or(false)
}

fn has_type(value: &Json, t: &str) -> bool {
    match t {
        "object" => value.is_object(),
        "array" => value.is_array(),
        "string" => value.is_string(),
        "boolean" => value.is_boolean(),
        "number" => value.is_number(),
        "integer" => {
            value.as_i64().is_some() || value.as_u64().is_some() || value.as_f64().is_some_and(|f| libm::trunc(f) == f)
        }
        _ => true,
    }
}

/// A value's type as go-openapi names it in messages.
fn json_type(value: &Json) -> &'static str {
    match value {
        Json::Null => "null",
        Json::Bool(_) => "boolean",
        Json::Number(n) if n.as_i64().is_some() || n.as_u64().is_some() => "integer",
        Json::Number(_) => "number",
        Json::String(_) => "string",
        Json::Array(_) => "array",
        Json::Object(_) => "object",
    }
}

/// `InvalidType`: `spec.replicas in body must be of type integer: "string"` (field.TypeInvalid).
fn type_error(path: &Path<'_>, name: &str, value: &Json, t: &str) -> Error {
    let detail = format!("{name} in body must be of type {t}: \"{}\"", json_type(value));
    Error::new(ErrorType::TypeInvalid, path, Some(value.clone()), detail)
}

fn invalid(path: &Path<'_>, value: &Json, detail: String) -> Error {
    Error::new(ErrorType::Invalid, path, Some(value.clone()), detail)
}

fn number_text(f: f64) -> String {
    crate::field::go_float(f)
}

fn numeric(path: &Path<'_>, name: &str, value: &Json, v: f64, schema: &Json, errors: &mut Vec<Error>) {
    if let Some(max) = schema.get("maximum").and_then(Json::as_f64) {
        let exclusive = flag(schema, "exclusiveMaximum");
        if (exclusive && v >= max) || v > max {
            let rel = if exclusive { "less than" } else { "less than or equal to" };
            errors.push(invalid(path, value, format!("{name} in body should be {rel} {}", number_text(max))));
        }
    }
    if let Some(min) = schema.get("minimum").and_then(Json::as_f64) {
        let exclusive = flag(schema, "exclusiveMinimum");
        if (exclusive && v <= min) || v < min {
            let rel = if exclusive { "greater than" } else { "greater than or equal to" };
            errors.push(invalid(path, value, format!("{name} in body should be {rel} {}", number_text(min))));
        }
    }
    if let Some(m) = schema.get("multipleOf").and_then(Json::as_f64) {
        if m > 0.0 && libm::fmod(v, m) != 0.0 {
            errors.push(invalid(path, value, format!("{name} in body should be a multiple of {}", number_text(m))));
        }
    }
    if let Some(format) = schema.get("format").and_then(Json::as_str) {
        let ok = match format {
            "int32" => v >= f64::from(i32::MIN) && v <= f64::from(i32::MAX),
            _ => true,
        };
        if !ok {
            errors.push(invalid(
                path,
                value,
                format!("{name} in body must be of type {format}: \"{}\"", number_text(v)),
            ));
        }
    }
}

fn string(path: &Path<'_>, name: &str, value: &Json, s: &str, schema: &Json, errors: &mut Vec<Error>) {
    let chars = s.chars().count() as i64;
    if let Some(max) = schema.get("maxLength").and_then(Json::as_i64) {
        if chars > max {
            errors.push(Error::too_long(path, max));
        }
    }
    if let Some(min) = schema.get("minLength").and_then(Json::as_i64) {
        if chars < min {
            errors.push(invalid(path, value, format!("{name} in body should be at least {min} chars long")));
        }
    }
    if let Some(pattern) = schema.get("pattern").and_then(Json::as_str) {
        match crate::cel::library::Regex::new(pattern) {
            Ok(re) if !re.is_match(s) => {
                errors.push(invalid(path, value, format!("{name} in body should match '{pattern}'")))
            }
            _ => {}
        }
    }
    if let Some(format) = schema.get("format").and_then(Json::as_str) {
        if !format_ok(format, s) {
            errors.push(invalid(
                path,
                value,
                format!("{name} in body must be of type {format}: {}", crate::field::go_quote(s)),
            ));
        }
    }
}

/// The formats the API server checks (kube-openapi strfmt); unknown formats pass.
fn format_ok(format: &str, s: &str) -> bool {
    use crate::cel::k8s;
    match format {
        "date" => k8s::is_full_date(s),
        "date-time" | "datetime" => k8s::is_datetime(s),
        "byte" => crate::cel::functions::base64_decode(s).is_some(),
        "uuid" => k8s::is_uuid(s),
        "duration" => crate::cel::time::parse_duration(s).is_some(),
        "ipv4" => crate::cel::k8s::Ip::parse(s).is_ok_and(|ip| ip.is_v4()),
        "ipv6" => crate::cel::k8s::Ip::parse(s).is_ok_and(|ip| !ip.is_v4()),
        "cidr" => crate::cel::k8s::Cidr::parse(s).is_ok(),
        "uri" => crate::cel::k8s::Url::parse_request_uri(s).is_ok(),
        _ => true,
    }
}

/// `maxItems` / `maxProperties`: field.TooMany with the count (the API server says "items" for both).
fn too_many(path: &Path<'_>, n: i64, max: Option<&Json>, errors: &mut Vec<Error>) {
    if let Some(max) = max.and_then(Json::as_i64).filter(|max| n > *max) {
        errors.push(Error::new(
            ErrorType::TooMany,
            path,
            Some(Json::from(n)),
            format!("must have at most {max} items"),
        ));
    }
}

fn array(path: &Path<'_>, name: &str, value: &Json, items: &[Json], schema: &Json, errors: &mut Vec<Error>) {
    let n = items.len() as i64;
    too_many(path, n, schema.get("maxItems"), errors);
    if let Some(min) = schema.get("minItems").and_then(Json::as_i64) {
        if n < min {
            errors.push(invalid(path, value, format!("{name} in body should have at least {min} items")));
        }
    }
    if flag(schema, "uniqueItems") && items.iter().enumerate().any(|(i, a)| items[..i].contains(a)) {
        errors.push(invalid(path, value, format!("{name} in body shouldn't contain duplicates")));
    }
    if let Some(item_schema) = schema.get("items") {
        for (i, item) in items.iter().enumerate() {
            let p = path.index(i);
            validate(&p, &format!("{name}[{i}]"), item, item_schema, errors);
        }
    }
}

/// `x-kubernetes-list-type` duplicates (set: values; map: keys), a separate pass after the
/// OpenAPI checks (apiextensions-apiserver `structurallisttype.ValidateListSetsAndMaps`).
pub fn list_types(path: &Path<'_>, value: &Json, schema: &Json, errors: &mut Vec<Error>) {
    match value {
        Json::Object(fields) => {
            let props = schema.get("properties").and_then(Json::as_object);
            let additional = schema.get("additionalProperties").filter(|a| a.is_object());
            for (k, v) in fields {
                if let Some(s) = props.and_then(|p| p.get(k)).or(additional) {
                    list_types(&path.child(k), v, s, errors);
                }
            }
        }
        Json::Array(items) => {
            if let Some(item_schema) = schema.get("items") {
                for (i, item) in items.iter().enumerate() {
                    list_types(&path.index(i), item, item_schema, errors);
                }
            }
            duplicates(path, items, schema, errors);
        }
        _ => {}
    }
}

fn duplicates(path: &Path<'_>, items: &[Json], schema: &Json, errors: &mut Vec<Error>) {
    match schema.get("x-kubernetes-list-type").and_then(Json::as_str) {
        Some("set") => {
            for (i, item) in items.iter().enumerate() {
                if items[..i].contains(item) {
                    errors.push(Error::new(ErrorType::Duplicate, &path.index(i), Some(item.clone()), ""));
                }
            }
        }
        Some("map") => {
            let keys: Vec<&str> = schema
                .get("x-kubernetes-list-map-keys")
                .and_then(Json::as_array)
                .map_or(Vec::new(), |k| k.iter().filter_map(Json::as_str).collect());
            let key_of = |item: &Json| {
                let mut key = serde_json::Map::new();
                for k in &keys {
                    if let Some(v) = item.get(*k) {
                        key.insert(String::from(*k), v.clone());
                    }
                }
                key
            };
            for (i, item) in items.iter().enumerate() {
                let k = key_of(item);
                if items[..i].iter().any(|other| key_of(other) == k) {
                    // listtype/validation.go: the key(s) as a Go map, printed with %#v.
                    let mut e = Error::new(ErrorType::Duplicate, &path.index(i), Some(Json::Object(k.clone())), "");
                    e.rendered_value = Some(go_sharp_v(&Json::Object(k)));
                    errors.push(e);
                }
            }
        }
        _ => {}
    }
}

/// Go's `%#v` of a decoded JSON value (`map[string]interface {}{"name":"x"}`).
fn go_sharp_v(v: &Json) -> String {
    match v {
        Json::Null => String::from("interface {}(nil)"),
        Json::Bool(b) => format!("{b}"),
        Json::Number(n) => match n.as_i64() {
            Some(i) => format!("{i}"),
            None => crate::field::go_float(n.as_f64().unwrap_or(0.0)),
        },
        Json::String(s) => crate::field::go_quote(s),
        Json::Array(items) => {
            format!("[]interface {{}}{{{}}}", items.iter().map(go_sharp_v).collect::<Vec<_>>().join(", "))
        }
        Json::Object(m) => {
            let parts: Vec<String> =
                m.iter().map(|(k, v)| format!("{}:{}", crate::field::go_quote(k), go_sharp_v(v))).collect();
            format!("map[string]interface {{}}{{{}}}", parts.join(", "))
        }
    }
}

fn object(path: &Path<'_>, name: &str, fields: &serde_json::Map<String, Json>, schema: &Json, errors: &mut Vec<Error>) {
    let n = fields.len() as i64;
    too_many(path, n, schema.get("maxProperties"), errors);
    if let Some(min) = schema.get("minProperties").and_then(Json::as_i64) {
        if n < min {
            errors.push(invalid(
                path,
                &Json::Object(fields.clone()),
                format!("{name} in body should have at least {min} properties"),
            ));
        }
    }
    let child_name = |k: &str| if name.is_empty() { String::from(k) } else { format!("{name}.{k}") };
    if let Some(required) = schema.get("required").and_then(Json::as_array) {
        for r in required.iter().filter_map(Json::as_str) {
            if !fields.contains_key(r) {
                errors.push(Error::new(ErrorType::Required, &path.child(r), None, ""));
            }
        }
    }
    let props = schema.get("properties").and_then(Json::as_object);
    let additional = schema.get("additionalProperties").filter(|a| a.is_object());
    for (k, v) in fields {
        if let Some(prop) = props.and_then(|p| p.get(k)) {
            validate(&path.child(k), &child_name(k), v, prop, errors);
        } else if let Some(ap) = additional {
            validate(&path.child(k), &child_name(k), v, ap, errors);
        }
        // Other fields are pruned by the API server (not errors).
    }
}

/// The checks of `x-kubernetes-embedded-resource` objects (apiextensions-apiserver
/// `pkg/apiserver/schema/objectmeta/validation.go`): `apiVersion` and `kind` are required
/// strings in the right form; `metadata.name` is a path segment name.
pub fn embedded_resources(path: &Path<'_>, value: &Json, schema: &Json, errors: &mut Vec<Error>) {
    match value {
        Json::Object(fields) => {
            if flag(schema, "x-kubernetes-embedded-resource") {
                embedded(path, fields, errors);
            }
            let props = schema.get("properties").and_then(Json::as_object);
            let additional = schema.get("additionalProperties").filter(|a| a.is_object());
            for (k, v) in fields {
                if let Some(s) = props.and_then(|p| p.get(k)) {
                    embedded_resources(&path.child(k), v, s, errors);
                } else if let Some(ap) = additional {
                    embedded_resources(&path.key(k), v, ap, errors);
                }
            }
        }
        Json::Array(items) => {
            if let Some(item_schema) = schema.get("items") {
                for (i, item) in items.iter().enumerate() {
                    embedded_resources(&path.index(i), item, item_schema, errors);
                }
            }
        }
        _ => {}
    }
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
                errors.push(invalid(&p, v, String::from("must not be empty")))
            }
            ("apiVersion" | "kind", Json::String(_)) | ("metadata", Json::Object(_)) => {}
            ("apiVersion" | "kind", other) => errors.push(invalid(&p, other, String::from("must be a string"))),
            _ => {}
        }
        match (k.as_str(), v) {
            ("apiVersion", Json::String(s)) if s.matches('/').count() > 1 => {
                errors.push(invalid(&p, v, format!("unexpected GroupVersion string: {s}")));
            }
            ("kind", Json::String(s)) if !s.is_empty() => {
                let errs = crate::cel::k8s::is_dns1035_label(&s.to_ascii_lowercase());
                if !errs.is_empty() {
                    errors.push(invalid(
                        &p,
                        v,
                        format!("may have mixed case, but should otherwise match: {}", errs.join(",")),
                    ));
                }
            }
            ("metadata", Json::Object(meta)) => object_meta(&p, meta, errors),
            _ => {}
        }
    }
}

/// The parts of apimachinery's `ValidateObjectMeta` that apply to an embedded object's metadata:
/// name (a path segment here), namespace (a DNS label), label keys and values, annotation keys.
fn object_meta(path: &Path<'_>, meta: &serde_json::Map<String, Json>, errors: &mut Vec<Error>) {
    use crate::content;
    if let Some(Json::String(name)) = meta.get("name") {
        for msg in content::is_path_segment_name(name) {
            errors.push(invalid(&path.child("name"), &Json::from(name.as_str()), msg));
        }
    }
    if let Some(Json::String(ns)) = meta.get("namespace") {
        // ValidateNamespaceName is NameIsDNSLabel.
        let dns_label = crate::cel::k8s::named_format("dns1123Label").map_or(Vec::new(), |f| f.validate(ns));
        for msg in dns_label {
            errors.push(invalid(&path.child("namespace"), &Json::from(ns.as_str()), msg));
        }
    }
    if let Some(Json::Object(labels)) = meta.get("labels") {
        let at = path.child("labels");
        for (k, v) in labels {
            for msg in content::is_label_key(k) {
                errors.push(invalid(&at, &Json::from(k.as_str()), msg));
            }
            if let Json::String(v) = v {
                for msg in content::is_label_value(v) {
                    errors.push(invalid(&at, &Json::from(v.as_str()), msg));
                }
            }
        }
    }
    if let Some(Json::Object(annotations)) = meta.get("annotations") {
        let at = path.child("annotations");
        for k in annotations.keys() {
            for msg in content::is_label_key(k) {
                errors.push(invalid(&at, &Json::from(k.as_str()), msg));
            }
        }
    }
}
