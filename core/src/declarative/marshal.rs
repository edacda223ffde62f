//! A value as Go's `encoding/json` marshals the declared Go type: structs print their fields
//! in declaration order with zero values (unless `omitempty`), nil slices, maps and pointers
//! print `null`, map keys are sorted, and strings are HTML-escaped (`<` → `\u003c`). This is
//! what Kubernetes' errors show for struct values (field.Error ErrorBody: json.Marshal).

use alloc::string::String;
use core::fmt::Write;

use serde_json::Value;

use super::schema::{Kind, Schema, TypeId};
use crate::field::gojson::{write_object, write_raw, write_string};

const MAX_DEPTH: usize = 128;

/// The JSON Go would print for `value` decoded into type `ty`.
pub(crate) fn go_json(schema: &Schema, ty: TypeId, value: Option<&Value>) -> String {
    let mut out = String::new();
    write_value(&mut out, schema, ty, value.filter(|v| !v.is_null()), 0);
    out
}

fn write_value(out: &mut String, schema: &Schema, ty: TypeId, v: Option<&Value>, depth: usize) {
    if depth > MAX_DEPTH {
        out.push_str("null");
        return;
    }
    let (base, is_ptr) = schema.deref(ty);
    if is_ptr && v.is_none() {
        out.push_str("null");
        return;
    }
    match schema.kind(base) {
        Kind::Struct(_) => {
            out.push('{');
            let mut first = true;
            write_members(out, schema, base, v.and_then(Value::as_object), &mut first, depth);
            out.push('}');
        }
        Kind::Slice(elem) => match v.and_then(Value::as_array) {
            None => out.push_str("null"),
            Some(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write_value(out, schema, *elem, Some(item).filter(|v| !v.is_null()), depth + 1);
                }
                out.push(']');
            }
        },
        Kind::Map(_, val) => match v.and_then(Value::as_object) {
            None => out.push_str("null"),
            // serde_json's map is ordered by key, as Go sorts map keys.
            Some(m) => write_object(out, m, |out, item| {
                write_value(out, schema, *val, Some(item).filter(|v| !v.is_null()), depth + 1)
            }),
        },
        Kind::String => write_string(out, v.and_then(Value::as_str).unwrap_or("")),
        Kind::Bool => out.push_str(if v.and_then(Value::as_bool).unwrap_or(false) { "true" } else { "false" }),
        Kind::Int { .. } | Kind::Float => match v {
            Some(Value::Number(n)) => {
                let _ = write!(out, "{n}");
            }
            _ => out.push('0'),
        },
        Kind::Bytes => match v.and_then(Value::as_str) {
            Some(s) => write_string(out, s),
            None => out.push_str("null"),
        },
        // An absent value of a type that marshals itself prints its zero value, as strict
        // decoding makes it (a Quantity "0", an IntOrString 0, a Time null).
        Kind::Opaque if v.is_none() => write_raw(out, &schema.zero(base)),
        // A Quantity prints as `Quantity.String()` (its canonical text: "1000m" is "1"); the
        // parser is in the `apis` feature (built-in kinds), elsewhere the text is kept.
        #[cfg(feature = "apis")]
        Kind::Opaque if schema.types[base].well_known == Some("resource.Quantity") => {
            match v.and_then(crate::quantity::from_json) {
                Some(q) => write_string(out, &q.canonical()),
                None => write_raw(out, v.unwrap_or(&Value::Null)),
            }
        }
        Kind::Opaque | Kind::Pointer(_) | Kind::Alias(_) | Kind::Pending => match v {
            Some(v) => write_raw(out, v),
            None => out.push_str("null"),
        },
    }
}

/// A struct's members, flattening embedded (inline) structs, skipping `omitempty` zeros.
fn write_members(
    out: &mut String,
    schema: &Schema,
    ty: TypeId,
    obj: Option<&serde_json::Map<String, Value>>,
    first: &mut bool,
    depth: usize,
) {
    let Kind::Struct(fields) = schema.kind(ty) else { return };
    for f in fields {
        let (base, _) = schema.deref(f.ty);
        if f.inline && matches!(schema.kind(base), Kind::Struct(_)) && depth < MAX_DEPTH {
            write_members(out, schema, base, obj, first, depth + 1);
            continue;
        }
        let v = obj.and_then(|m| m.get(&f.json_name)).filter(|v| !v.is_null());
        if f.omitempty && is_empty(schema, f.ty, v) {
            continue;
        }
        if !*first {
            out.push(',');
        }
        *first = false;
        write_string(out, &f.json_name);
        out.push(':');
        write_value(out, schema, f.ty, v, depth + 1);
    }
}

/// encoding/json's `isEmptyValue`: false, 0, "", nil pointers, empty slices and maps.
fn is_empty(schema: &Schema, ty: TypeId, v: Option<&Value>) -> bool {
    let Some(v) = v else { return true };
    let (base, is_ptr) = schema.deref(ty);
    if is_ptr {
        return false;
    }
    match (schema.kind(base), v) {
        (Kind::Struct(_), _) => false,
        (_, Value::String(s)) => s.is_empty(),
        (_, Value::Bool(b)) => !b,
        (_, Value::Number(n)) => n.as_f64() == Some(0.0),
        (_, Value::Array(a)) => a.is_empty(),
        (_, Value::Object(m)) => m.is_empty(),
        (_, Value::Null) => true,
    }
}
