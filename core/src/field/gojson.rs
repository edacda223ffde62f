//! JSON as Go's `encoding/json` writes it: object keys in sorted order (as serde_json's map
//! keeps them), strings HTML-safe (`<` → `\u003c`). Kubernetes' errors print non-scalar bad
//! values this way (field.Error ErrorBody: json.Marshal).

use alloc::string::String;
use core::fmt::Write;

use serde_json::Value;

/// The JSON Go prints for an untyped value (a map, a list, a scalar).
pub fn go_json(value: &Value) -> String {
    let mut out = String::new();
    write_raw(&mut out, value);
    out
}

pub(crate) fn write_raw(out: &mut String, v: &Value) {
    match v {
        Value::String(s) => write_string(out, s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_raw(out, item);
            }
            out.push(']');
        }
        Value::Object(m) => write_object(out, m, write_raw),
        other => {
            let _ = write!(out, "{other}");
        }
    }
}

/// `{"key":value,...}` in the map's (sorted) order, each value written by `value`.
pub(crate) fn write_object(
    out: &mut String,
    m: &serde_json::Map<String, Value>,
    mut value: impl FnMut(&mut String, &Value),
) {
    out.push('{');
    for (i, (k, item)) in m.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_string(out, k);
        out.push(':');
        value(out, item);
    }
    out.push('}');
}

/// encoding/json's string encoding (HTML-safe).
pub(crate) fn write_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}
