//! Schema types with the sizes Kubernetes assumes for them: from `maxLength`, `maxItems` and
//! `maxProperties`, or, without them, from the request size limit divided by each element's
//! smallest serialized size (apiserver `pkg/cel/common/schemas.go`).

use alloc::collections::BTreeMap;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value as Json;

use crate::cel::common::escape;

/// `celconfig.MaxRequestSizeBytes`: 3 MiB.
pub const MAX_REQUEST_SIZE: u64 = 3 * 1024 * 1024;
/// The largest serialized string in a request (without the quotes).
const MAX_STRING: u64 = MAX_REQUEST_SIZE - 2;
/// A size nothing bounds (cel-go uses the largest integer: costs over it saturate).
pub(super) const UNBOUNDED: u64 = u64::MAX;

/// A schema type with the size bounds Kubernetes assumes for it.
#[derive(Clone, Debug)]
pub struct SizedType {
    /// The most elements (string bytes, list items, map entries) a value can have.
    pub max_elements: u64,
    /// The smallest serialized size of a value, in bytes.
    pub min_size: u64,
    /// Object fields by escaped name.
    pub fields: BTreeMap<String, Rc<SizedType>>,
    /// List items or map values.
    pub elem: Option<Rc<SizedType>>,
    /// A map (iterating yields its keys), not a list.
    pub map: bool,
    /// What kind of value it is, for the functions whose cost depends on it.
    pub hint: Hint,
    /// A bool, number, duration or timestamp: cel-go's `isScalar`, whose optionals have a known
    /// size (1) where other optionals have none.
    pub scalar: bool,
}

/// The kinds of values whose costs differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hint {
    /// A string.
    Str,
    /// Bytes.
    Bytes,
    /// A list or map.
    Container,
    /// A URL (`url()`): its equality traverses its text.
    Url,
    /// Anything else (numbers, booleans, timestamps, durations, objects, types).
    Other,
    /// Not known.
    Unknown,
}

impl SizedType {
    fn scalar(min_size: u64) -> SizedType {
        SizedType {
            max_elements: 0,
            min_size,
            fields: BTreeMap::new(),
            elem: None,
            map: false,
            hint: Hint::Other,
            scalar: true,
        }
    }
}

fn int(schema: &Json, key: &str) -> Option<u64> {
    schema.get(key).and_then(Json::as_i64).map(|v| v.max(0) as u64)
}

fn flag(schema: &Json, key: &str) -> bool {
    schema.get(key).and_then(Json::as_bool).unwrap_or(false)
}

/// The sized type of a schema (`SchemaDeclType` with its size estimates).
pub fn sized_type(schema: &Json) -> Option<SizedType> {
    if flag(schema, "x-kubernetes-int-or-string") {
        let max = int(schema, "maxLength").map_or(MAX_STRING, |n| n.saturating_mul(4));
        return Some(SizedType { max_elements: max, hint: Hint::Unknown, scalar: false, ..SizedType::scalar(1) });
    }
    match schema.get("type").and_then(Json::as_str) {
        Some("array") => {
            let item = Rc::new(sized_type(schema.get("items")?)?);
            let max = int(schema, "maxItems").unwrap_or(MAX_STRING / item.min_size.saturating_add(1));
            Some(SizedType {
                max_elements: max,
                min_size: 2,
                fields: BTreeMap::new(),
                elem: Some(item),
                map: false,
                hint: Hint::Container,
                scalar: false,
            })
        }
        Some("object") => {
            if let Some(ap) = schema.get("additionalProperties").filter(|a| a.is_object()) {
                let value = Rc::new(sized_type(ap)?);
                let max = int(schema, "maxProperties").unwrap_or(MAX_STRING / value.min_size.saturating_add(6));
                return Some(SizedType {
                    max_elements: max,
                    min_size: 2,
                    fields: BTreeMap::new(),
                    elem: Some(value),
                    map: true,
                    hint: Hint::Container,
                    scalar: false,
                });
            }
            let required: Vec<&str> = schema
                .get("required")
                .and_then(Json::as_array)
                .map_or(Vec::new(), |r| r.iter().filter_map(Json::as_str).collect());
            let mut fields = BTreeMap::new();
            let mut min_size: u64 = 2;
            if let Some(props) = schema.get("properties").and_then(Json::as_object) {
                for (name, prop) in props {
                    let Some(t) = sized_type(prop) else { continue };
                    if required.contains(&name.as_str()) && prop.get("default").is_none() {
                        min_size =
                            min_size.saturating_add(name.len() as u64).saturating_add(t.min_size).saturating_add(4);
                    }
                    if let Some(escaped) = escape(name) {
                        fields.insert(escaped, Rc::new(t));
                    }
                }
            }
            Some(SizedType {
                max_elements: 0,
                min_size,
                fields,
                elem: None,
                map: false,
                hint: Hint::Other,
                scalar: false,
            })
        }
        Some("string") => {
            let (min, max, hint) = match schema.get("format").and_then(Json::as_str) {
                Some("byte") => (2, int(schema, "maxLength").unwrap_or(MAX_STRING), Hint::Bytes),
                Some("duration") => (3, 32, Hint::Other),
                Some("date") => (12, 12, Hint::Other),
                Some("date-time") => (21, 32, Hint::Other),
                _ => {
                    let enum_max = schema
                        .get("enum")
                        .and_then(Json::as_array)
                        .map(|e| e.iter().filter_map(Json::as_str).map(|s| s.len() as u64).max().unwrap_or(0));
                    let max = match (int(schema, "maxLength"), enum_max) {
                        (Some(n), _) => n.saturating_mul(4),
                        (None, Some(e)) => e,
                        (None, None) => MAX_STRING,
                    };
                    (2, max, Hint::Str)
                }
            };
            // Durations, dates and date-times are CEL durations and timestamps: scalars.
            Some(SizedType { max_elements: max, hint, scalar: hint == Hint::Other, ..SizedType::scalar(min) })
        }
        Some("boolean") => Some(SizedType::scalar(4)),
        Some("number") | Some("integer") => Some(SizedType::scalar(1)),
        _ => None,
    }
}

/// A value reached by selecting a map's key as a field (`m.key`): cel-go's path names the key,
/// which Kubernetes' size estimator cannot follow (apiextensions compilation.go `EstimateSize`
/// knows declared fields, `@items`, `@values` and `@keys`), so nothing at or below it has a
/// size from the schema: a scalar has its type's (1, `computeTypeSize`), anything else none.
/// (`m['key']` is `@values` there, and keeps the schema's sizes.)
pub(super) fn unresolved(t: &SizedType) -> SizedType {
    let mut fields = BTreeMap::new();
    for (k, v) in &t.fields {
        fields.insert(k.clone(), Rc::new(unresolved(v)));
    }
    SizedType {
        max_elements: if t.scalar { 1 } else { UNBOUNDED },
        fields,
        elem: t.elem.as_deref().map(|e| Rc::new(unresolved(e))),
        ..t.clone()
    }
}

/// The size and kind of a selected schema value, or of an optional of it (`.?f`, `[?i]`):
/// cel-go's `computeTypeSize` knows an optional scalar's size (1, `isScalar`), no other.
pub(super) fn sized(ty: Option<&Rc<SizedType>>, optional: bool) -> (u64, Hint) {
    match ty {
        Some(t) if !optional => (t.max_elements, t.hint),
        Some(t) if t.scalar => (1, Hint::Other),
        _ => (UNBOUNDED, Hint::Unknown),
    }
}

/// A list of `n` strings (or bytes: `hint`) of no known size.
pub(super) fn strings(n: u64, hint: Hint) -> Rc<SizedType> {
    literal(n, hint, false)
}

/// A list (or a map: `map`) literal of `n` items (values) the checker types alike: strings or
/// bytes (`hint`) of no known size, or scalars (`Hint::Other`: numbers, booleans), which
/// cel-go's checker types so that comparing two of them costs 1 (`{"a": 0}[k] <= {"b": 1}[j]`,
/// Envoy Gateway's TLS version rule).
pub(super) fn literal(n: u64, hint: Hint, map: bool) -> Rc<SizedType> {
    let scalar = hint == Hint::Other;
    let elem = SizedType {
        max_elements: if scalar { 1 } else { UNBOUNDED },
        min_size: 0,
        fields: BTreeMap::new(),
        elem: None,
        map: false,
        hint,
        scalar,
    };
    Rc::new(SizedType {
        max_elements: n,
        min_size: 0,
        fields: BTreeMap::new(),
        elem: Some(Rc::new(elem)),
        map,
        hint: Hint::Container,
        scalar: false,
    })
}
