//! Go's view of "the same value", for ratcheting: apimachinery's semantic DeepEqual on the
//! decoded types (nil and empty slices and maps are equal; an absent field equals its zero
//! value), and the correlation of list items with their old counterparts (each.go: listType=map
//! items by key, listType=set items by value, atomic lists never).

use alloc::vec::Vec;
use serde_json::Value;

use super::schema::{Kind, ListSpec, Schema, TypeId};

/// How deep equality may recurse (JSON deeper than this is refused by the walker anyway).
const MAX_DEPTH: usize = 128;

/// How many comparisons one equality may make: embedded types that embed each other fan out
/// exponentially (found by the fuzzer); past the budget, JSON equality decides.
const MAX_STEPS: usize = 100_000;

/// Whether two JSON values decode to semantically equal Go values of type `ty`.
pub(crate) fn go_equal(schema: &Schema, ty: TypeId, a: Option<&Value>, b: Option<&Value>) -> bool {
    let mut steps = 0;
    equal(schema, ty, a, b, 0, &mut steps)
}

fn present(v: Option<&Value>) -> Option<&Value> {
    v.filter(|v| !v.is_null())
}

fn equal(schema: &Schema, ty: TypeId, a: Option<&Value>, b: Option<&Value>, depth: usize, steps: &mut usize) -> bool {
    *steps += 1;
    if depth > MAX_DEPTH || *steps > MAX_STEPS {
        return a == b;
    }
    let (a, b) = (present(a), present(b));
    let (base, is_ptr) = schema.deref(ty);
    if is_ptr && (a.is_none() || b.is_none()) {
        return a.is_none() && b.is_none();
    }
    match schema.kind(base) {
        Kind::Slice(elem) => {
            let (x, y) = (items(a), items(b));
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| equal(schema, *elem, Some(p), Some(q), depth + 1, steps))
        }
        Kind::Map(_, v) => {
            let empty = serde_json::Map::new();
            let x = a.and_then(Value::as_object).unwrap_or(&empty);
            let y = b.and_then(Value::as_object).unwrap_or(&empty);
            x.len() == y.len()
                && x.iter()
                    .all(|(k, p)| y.get(k).is_some_and(|q| equal(schema, *v, Some(p), Some(q), depth + 1, steps)))
        }
        Kind::Struct(fields) => {
            let (x, y) = (a.and_then(Value::as_object), b.and_then(Value::as_object));
            fields.iter().all(|f| {
                if *steps > MAX_STEPS {
                    return a == b;
                }
                if f.inline {
                    equal(schema, f.ty, a, b, depth + 1, steps)
                } else {
                    let (p, q) = (x.and_then(|m| m.get(&f.json_name)), y.and_then(|m| m.get(&f.json_name)));
                    equal(schema, f.ty, p, q, depth + 1, steps)
                }
            })
        }
        // Scalars: absent is the zero value.
        Kind::String => a.and_then(Value::as_str).unwrap_or("") == b.and_then(Value::as_str).unwrap_or(""),
        Kind::Bool => a.and_then(Value::as_bool).unwrap_or(false) == b.and_then(Value::as_bool).unwrap_or(false),
        Kind::Int { .. } | Kind::Float => number(a) == number(b),
        Kind::Bytes => a.and_then(Value::as_str).unwrap_or("") == b.and_then(Value::as_str).unwrap_or(""),
        Kind::Opaque | Kind::Pointer(_) | Kind::Alias(_) | Kind::Pending => a == b,
    }
}

fn items(v: Option<&Value>) -> &[Value] {
    v.and_then(Value::as_array).map_or(&[], Vec::as_slice)
}

fn number(v: Option<&Value>) -> f64 {
    v.and_then(Value::as_f64).unwrap_or(0.0)
}

/// Whether two list items are the same item: equal keys (map) or equal values (set).
pub(crate) fn same_item(schema: &Schema, elem: TypeId, spec: &ListSpec, a: &Value, b: &Value) -> bool {
    if spec.set {
        return go_equal(schema, elem, Some(a), Some(b));
    }
    let (base, _) = schema.deref(elem);
    let Kind::Struct(fields) = schema.kind(base) else { return false };
    spec.keys.iter().all(|key| {
        let ty = super::validate::member(schema, fields, key).map(|f| f.ty);
        ty.is_some_and(|ty| go_equal(schema, ty, a.get(key), b.get(key)))
    })
}

/// The old item correlated with `item`, if the list's identity allows correlation.
pub(crate) fn correlate<'a>(
    schema: &Schema,
    elem: TypeId,
    spec: Option<&ListSpec>,
    item: &Value,
    old_items: Option<&'a Vec<Value>>,
) -> Option<Option<&'a Value>> {
    let spec = spec?;
    let found = old_items?.iter().find(|o| same_item(schema, elem, spec, item, o))?;
    Some(Some(found))
}
