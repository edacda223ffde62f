//! CEL types and values from an OpenAPI (structural) schema, as Kubernetes declares `self` for
//! CRD validation rules (apiserver `pkg/cel/common/schemas.go` `SchemaDeclType`,
//! `pkg/cel/common/values.go` `UnstructuredToVal`, `pkg/cel/escaping.go`).

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::rc::Rc;
use alloc::string::String;

use serde_json::Value as Json;

use crate::cel::check::{CelType, ObjectType};
pub use crate::cel::common::escape;
use crate::cel::value::time::{parse_duration, Timestamp};
use crate::cel::value::{base64_decode, from_json, Key, List, ListKind, Map, RawFields, Value};

fn string_type(schema: &Json) -> CelType {
    match schema.get("format").and_then(Json::as_str) {
        Some("byte") => CelType::Bytes,
        Some("duration") => CelType::Duration,
        Some("date") | Some("date-time") => CelType::Timestamp,
        _ => CelType::String,
    }
}

fn is_true(schema: &Json, key: &str) -> bool {
    schema.get(key).and_then(Json::as_bool).unwrap_or(false)
}

/// apiextensions `model.WithTypeAndObjectMeta`: what every resource root (a CRD's, an embedded
/// resource's) shows CEL. A schema that declares `kind` and `apiVersion` strings and a
/// `metadata` object with `name` and `generateName` strings is kept as it is (its other
/// `metadata` fields included); any other gets `kind` and `apiVersion` strings and a `metadata`
/// of `name` and `generateName` alone, their lengths capped at the API server's limits (253 and
/// 252) or the schema's own shorter `maxLength`.
pub(crate) fn with_type_and_object_meta(schema: &Json) -> Json {
    fn ty(s: Option<&Json>) -> Option<&str> {
        s.and_then(|s| s.get("type")).and_then(Json::as_str)
    }
    let prop = |s: &Json, k: &str| s.get("properties").and_then(|p| p.get(k)).cloned();
    let meta = prop(schema, "metadata");
    let meta_prop = |k: &str| meta.as_ref().and_then(|m| prop(m, k));
    if ty(prop(schema, "kind").as_ref()) == Some("string")
        && ty(prop(schema, "apiVersion").as_ref()) == Some("string")
        && ty(meta.as_ref()) == Some("object")
        && ty(meta_prop("name").as_ref()) == Some("string")
        && ty(meta_prop("generateName").as_ref()) == Some("string")
    {
        return schema.clone();
    }
    // A string schema, its length capped (model.cappedLengthStringType).
    let string = |max: Option<u64>| {
        let mut s = serde_json::Map::new();
        s.insert("type".into(), Json::from("string"));
        if let Some(max) = max {
            s.insert("maxLength".into(), Json::from(max));
        }
        Json::Object(s)
    };
    let capped = |k: &str, max: u64| {
        let own = meta_prop(k).and_then(|e| e.get("maxLength").and_then(Json::as_u64));
        string(Some(own.map_or(max, |m| m.min(max))))
    };
    let mut meta_props = serde_json::Map::new();
    meta_props.insert("name".into(), capped("name", 253));
    meta_props.insert("generateName".into(), capped("generateName", 252));
    let mut metadata = serde_json::Map::new();
    metadata.insert("type".into(), Json::from("object"));
    metadata.insert("properties".into(), Json::Object(meta_props));
    let mut s = schema.clone();
    if let Some(obj) = s.as_object_mut() {
        obj.entry("type").or_insert_with(|| Json::from("object"));
        let props = obj.entry("properties").or_insert_with(|| Json::Object(serde_json::Map::new()));
        if let Some(props) = props.as_object_mut() {
            props.insert("kind".into(), string(None));
            props.insert("apiVersion".into(), string(None));
            props.insert("metadata".into(), Json::Object(metadata));
        }
    }
    s
}

/// The CEL type of values of a schema (`SchemaDeclType`); `None` when they are not exposed to
/// CEL (arrays without items, maps without a value schema).
pub fn decl_type(schema: &Json, resource_root: bool) -> Option<CelType> {
    if is_true(schema, "x-kubernetes-int-or-string") {
        return Some(CelType::Dyn);
    }
    let owned;
    let schema = if resource_root {
        owned = with_type_and_object_meta(schema);
        &owned
    } else {
        schema
    };
    match schema.get("type").and_then(Json::as_str) {
        Some("array") => {
            let items = schema.get("items")?;
            let t = decl_type(items, is_true(items, "x-kubernetes-embedded-resource"))?;
            Some(CelType::List(Rc::new(t)))
        }
        Some("object") => {
            if let Some(ap) = schema.get("additionalProperties").filter(|a| a.is_object()) {
                let t = decl_type(ap, is_true(ap, "x-kubernetes-embedded-resource"))?;
                return Some(CelType::Map(Rc::new(CelType::String), Rc::new(t)));
            }
            let mut fields = BTreeMap::new();
            if let Some(props) = schema.get("properties").and_then(Json::as_object) {
                for (name, prop) in props {
                    if let (Some(t), Some(escaped)) =
                        (decl_type(prop, is_true(prop, "x-kubernetes-embedded-resource")), escape(name))
                    {
                        fields.insert(escaped, t);
                    }
                }
            }
            Some(CelType::Object(Rc::new(ObjectType { name: String::from("object"), fields })))
        }
        Some("string") => Some(string_type(schema)),
        Some("boolean") => Some(CelType::Bool),
        Some("number") => Some(CelType::Double),
        Some("integer") => Some(CelType::Int),
        _ => None,
    }
}

/// A JSON value as CEL sees it under a schema (`UnstructuredToVal`): declared object fields by
/// their escaped names (undeclared ones hidden), numbers as the schema's type, formatted strings
/// as timestamps, durations or bytes.
pub fn value(json: &Json, schema: &Json, resource_root: bool) -> Value {
    if is_true(schema, "x-kubernetes-int-or-string") {
        return from_json(json);
    }
    let owned;
    let schema = if resource_root {
        owned = with_type_and_object_meta(schema);
        &owned
    } else {
        schema
    };
    match (schema.get("type").and_then(Json::as_str), json) {
        (_, Json::Null) => Value::Null,
        (Some("array"), Json::Array(items)) => match schema.get("items") {
            Some(item_schema) => {
                let embedded = is_true(item_schema, "x-kubernetes-embedded-resource");
                let values: alloc::vec::Vec<Value> = items.iter().map(|v| value(v, item_schema, embedded)).collect();
                let kind = match schema.get("x-kubernetes-list-type").and_then(Json::as_str) {
                    Some("set") => ListKind::Set,
                    Some("map") => {
                        let keys = schema.get("x-kubernetes-list-map-keys").and_then(Json::as_array);
                        ListKind::Map(
                            keys.map_or(alloc::vec::Vec::new(), |k| {
                                k.iter().filter_map(Json::as_str).map(Rc::from).collect()
                            })
                            .into(),
                        )
                    }
                    _ => ListKind::Atomic,
                };
                Value::List(List::with_kind(values.into(), kind))
            }
            None => from_json(json),
        },
        (Some("object"), Json::Object(fields)) => {
            let mut map = Map::default();
            map.data = true;
            if let Some(ap) = schema.get("additionalProperties").filter(|a| a.is_object()) {
                let embedded = is_true(ap, "x-kubernetes-embedded-resource");
                for (k, v) in fields {
                    map.insert(Key::String(Rc::from(k.as_str())), value(v, ap, embedded));
                }
            } else {
                // apiserver's unstructuredMap over an object with properties (or none, with
                // x-kubernetes-preserve-unknown-fields): CEL finds declared, non-null fields;
                // size and equality see every field of the object.
                let props = schema.get("properties").and_then(Json::as_object);
                let mut raw = RawFields { size: fields.len(), ..RawFields::default() };
                for (k, v) in fields {
                    let Some(prop) = props.and_then(|p| p.get(k)) else {
                        raw.hidden.push((Rc::from(k.as_str()), from_json(v)));
                        continue;
                    };
                    let embedded = is_true(prop, "x-kubernetes-embedded-resource");
                    match (escape(k), v) {
                        (Some(escaped), Json::Null) => raw.nulls.push(Rc::from(escaped.as_str())),
                        (Some(escaped), _) => {
                            map.insert(Key::String(Rc::from(escaped.as_str())), value(v, prop, embedded))
                        }
                        (None, _) => raw.hidden.push((Rc::from(k.as_str()), value(v, prop, embedded))),
                    }
                }
                map.set_raw(raw);
            }
            Value::Map(Rc::new(map))
        }
        (Some("number"), Json::Number(n)) => Value::Double(n.as_f64().unwrap_or(f64::NAN)),
        (Some("string"), Json::String(s)) => match schema.get("format").and_then(Json::as_str) {
            Some("byte") => match base64_decode(s) {
                Some(b) => Value::Bytes(b.into()),
                None => Value::from(s.as_str()),
            },
            Some("duration") => parse_duration(s).map(Value::Duration).unwrap_or_else(|| Value::from(s.as_str())),
            Some("date") => Timestamp::parse(&format!("{s}T00:00:00Z"))
                .map(Value::Timestamp)
                .unwrap_or_else(|| Value::from(s.as_str())),
            Some("date-time") => Timestamp::parse(s).map(Value::Timestamp).unwrap_or_else(|| Value::from(s.as_str())),
            _ => Value::from(s.as_str()),
        },
        _ => from_json(json),
    }
}
