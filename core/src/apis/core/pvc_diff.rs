//! The diff the PersistentVolumeClaim update error prints: apimachinery
//! `pkg/util/diff.Diff` (`json.MarshalIndent(x, "", " ")` of both values, then
//! github.com/pmezard/go-difflib's `UnifiedDiff` with 3 lines of context, the one
//! [`super::pod_diff`] ports).

use alloc::string::String;
use alloc::vec::Vec;

/// A JSON value with its object keys in a chosen order (a Go struct's field order).
#[derive(Clone, Debug, PartialEq)]
pub enum GoJson {
    /// `null`.
    Null,
    /// A string (encoded as Go's encoder does).
    Str(String),
    /// An array.
    Arr(Vec<GoJson>),
    /// An object, in the given order.
    Obj(Vec<(String, GoJson)>),
}

/// `json.MarshalIndent(v, "", " ")`.
pub fn marshal_indent(v: &GoJson) -> String {
    let mut out = String::new();
    write(&mut out, v, 0);
    out
}

fn newline(out: &mut String, depth: usize) {
    out.push('\n');
    for _ in 0..depth {
        out.push(' ');
    }
}

fn write(out: &mut String, v: &GoJson, depth: usize) {
    // Iterative over siblings; nesting depth is that of a PVC spec (a few levels).
    match v {
        GoJson::Null => out.push_str("null"),
        GoJson::Str(s) => crate::field::gojson::write_string(out, s),
        GoJson::Arr(items) => {
            if items.is_empty() {
                out.push_str("[]");
                return;
            }
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, depth + 1);
                if depth < 16 {
                    write(out, item, depth + 1);
                }
            }
            newline(out, depth);
            out.push(']');
        }
        GoJson::Obj(fields) => {
            if fields.is_empty() {
                out.push_str("{}");
                return;
            }
            out.push('{');
            for (i, (k, item)) in fields.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, depth + 1);
                crate::field::gojson::write_string(out, k);
                out.push_str(": ");
                if depth < 16 {
                    write(out, item, depth + 1);
                }
            }
            newline(out, depth);
            out.push('}');
        }
    }
}

/// `diff.Diff(a, b)` of two marshalled values: go-difflib's unified diff, as the Pod update
/// refusal prints it ([`super::pod_diff::unified_diff`]).
pub fn diff(a: &GoJson, b: &GoJson) -> String {
    super::pod_diff::unified_diff(&marshal_indent(a), &marshal_indent(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unified() {
        let unified_diff = super::super::pod_diff::unified_diff;
        let a = "{\n \"a\": 1,\n \"b\": 2,\n \"c\": 3\n}";
        let b = "{\n \"a\": 1,\n \"b\": 5,\n \"c\": 3\n}";
        assert_eq!(unified_diff(a, b), "@@ -1,5 +1,5 @@\n {\n  \"a\": 1,\n- \"b\": 2,\n+ \"b\": 5,\n  \"c\": 3\n }\n");
        let v = GoJson::Obj(alloc::vec![
            (String::from("A"), GoJson::Arr(alloc::vec![GoJson::Str(String::from("x"))])),
            (String::from("B"), GoJson::Obj(Vec::new())),
            (String::from("C"), GoJson::Null),
        ]);
        assert_eq!(marshal_indent(&v), "{\n \"A\": [\n  \"x\"\n ],\n \"B\": {},\n \"C\": null\n}");
    }
}
