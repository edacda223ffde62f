//! Unknown fields, as the API server's strict field validation finds them while decoding a
//! request into the Go types (sigs.k8s.io/json `UnmarshalStrict`): JSON keys that match no
//! field (case-sensitively; promoted fields of embedded structs count), reported with their
//! path, `spec.template.spec.containers[0].redinessProbe`. With `fieldValidation=Warn` (the
//! default for API clients) each is the warning `unknown field "<path>"`; with `Strict`
//! (kubectl's default) the request fails with `strict decoding error: unknown field "<path>"`.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value;

use super::schema::{Kind, Schema, TypeId};

/// How deeply the walk follows the object (deeper values are left to validation's own limit).
const MAX_DEPTH: usize = 64;

impl Schema {
    /// The paths of the object's keys that no field of the types declares, in key order.
    pub fn unknown_fields(&self, root: TypeId, object: &Value) -> Vec<String> {
        let mut out = Vec::new();
        walk(self, root, object, String::new(), 0, &mut out);
        out
    }
}

fn walk(schema: &Schema, ty: TypeId, value: &Value, path: String, depth: usize, out: &mut Vec<String>) {
    if depth > MAX_DEPTH {
        return;
    }
    let base = schema.deref(ty).0;
    let join = |key: &str| if path.is_empty() { String::from(key) } else { format!("{path}.{key}") };
    match (schema.kind(base), value) {
        (Kind::Struct(fields), Value::Object(map)) => {
            for (key, v) in map {
                match super::validate::member(schema, fields, key) {
                    Some(f) => walk(schema, f.ty, v, join(key), depth + 1, out),
                    None => out.push(join(key)),
                }
            }
        }
        (Kind::Slice(elem), Value::Array(items)) => {
            for (i, item) in items.iter().enumerate() {
                walk(schema, *elem, item, format!("{path}[{i}]"), depth + 1, out);
            }
        }
        (Kind::Map(_, elem), Value::Object(map)) => {
            for (key, v) in map {
                walk(schema, *elem, v, join(key), depth + 1, out);
            }
        }
        _ => {}
    }
}
