//! Schema and object builders shared by the CRD cost tests, after the helpers of
//! apiextensions-apiserver `pkg/apiserver/schema/cel/validation_test.go`.
#![allow(dead_code)]

use serde_json::{json, Value as Json};

pub fn t(ty: &str) -> Json {
    json!({"type": ty})
}
pub fn f(ty: &str, format: &str) -> Json {
    json!({"type": ty, "format": format})
}
pub fn list(items: Json) -> Json {
    json!({"type": "array", "x-kubernetes-list-type": "atomic", "items": items})
}
/// `listSetType(items)`.
pub fn set_of(items: Json) -> Json {
    json!({"type": "array", "x-kubernetes-list-type": "set", "items": items})
}

pub fn map_of(values: Json) -> Json {
    json!({"type": "object", "additionalProperties": values})
}
/// `schemas(...)`: an object whose properties `val1`, `val2`, ... have these schemas.
pub fn schemas(vals: &[Json]) -> Json {
    let props: serde_json::Map<String, Json> =
        vals.iter().enumerate().map(|(i, s)| (format!("val{}", i + 1), s.clone())).collect();
    json!({"type": "object", "properties": props})
}
/// `objs(...)`.
pub fn objs(vals: &[Json]) -> Json {
    let m: serde_json::Map<String, Json> =
        vals.iter().enumerate().map(|(i, v)| (format!("val{}", i + 1), v.clone())).collect();
    Json::Object(m)
}
/// `ValsEqualThemselvesAndDataLiteral`.
pub fn vals_equal(v1: &str, v2: &str, lit: &str) -> String {
    format!("{v1} == {lit} && {lit} == {v1} && {v1} == {v2}")
}
