//! Go's `encoding/json` of the internal `core` types (`pkg/apis/core/types.go`), which
//! Kubernetes prints in two places validation reaches: a `field.Error` whose bad value is a
//! struct (apimachinery 1.37 `ErrorBody`: `json.Marshal`; e.g. `field.Invalid(path,
//! securityContext, …)`), and the spec diff of `ValidatePodUpdate` (apimachinery
//! `diff.Diff`: `json.MarshalIndent(x, "", " ")`). Internal types carry no JSON tags: every
//! field is printed, under its Go name, in declaration order, zero values included (`""`,
//! `0`, `false`, `null` for nil pointers, slices and maps); embedded structs are flattened;
//! `resource.Quantity` prints its canonical text, `intstr.IntOrString` its int or string;
//! `metav1.LabelSelector` and `metav1.ObjectMeta` keep their own (v1) tags with `omitempty`.
//!
//! The internal types are described in [`super::pod_schema`], each field with its v1 JSON
//! name (the decoded object is read by it).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value as Json;

use super::super::quantity;
use crate::field::go_json;

use super::pod_schema::{fields, T};
use T::*;

/// A value ready to print: scalar text, a list, an object.
enum G {
    Raw(String),
    List(Vec<G>),
    Obj(Vec<(String, G)>),
}

const NULL: &str = "null";

fn raw(s: &str) -> G {
    G::Raw(String::from(s))
}

fn string(s: &str) -> G {
    G::Raw(go_json(&Json::from(s)))
}

/// Options of one rendering.
#[derive(Clone, Copy)]
struct Opts {
    /// The object was read back from storage (protobuf): empty slices and maps are nil.
    stored: bool,
}

/// Any JSON value as Go prints a `map[string]interface{}`-like value (depth-capped).
fn plain(v: &Json, depth: usize) -> G {
    match v {
        Json::Array(items) if depth < 64 => G::List(items.iter().map(|i| plain(i, depth + 1)).collect()),
        Json::Object(m) if depth < 64 => G::Obj(m.iter().map(|(k, i)| (k.clone(), plain(i, depth + 1))).collect()),
        other => G::Raw(go_json(other)),
    }
}

fn is_empty(v: Option<&Json>) -> bool {
    match v {
        None | Some(Json::Null) => true,
        Some(Json::String(s)) => s.is_empty(),
        Some(Json::Array(a)) => a.is_empty(),
        Some(Json::Object(m)) => m.is_empty(),
        Some(Json::Number(n)) => n.as_f64() == Some(0.0),
        Some(Json::Bool(b)) => !b,
    }
}

/// `metav1.LabelSelector` with its tags (`matchLabels,omitempty`, `matchExpressions,omitempty`;
/// requirements `key`, `operator`, `values,omitempty`).
fn selector(v: &Json) -> G {
    let mut out = Vec::new();
    if !is_empty(v.get("matchLabels")) {
        out.push((String::from("matchLabels"), plain(v.get("matchLabels").unwrap_or(&Json::Null), 1)));
    }
    if let Some(Json::Array(exprs)) = v.get("matchExpressions").filter(|e| !is_empty(Some(e))) {
        let list = exprs
            .iter()
            .map(|e| {
                let mut r = Vec::new();
                r.push((String::from("key"), string(e.get("key").and_then(Json::as_str).unwrap_or(""))));
                r.push((String::from("operator"), string(e.get("operator").and_then(Json::as_str).unwrap_or(""))));
                if !is_empty(e.get("values")) {
                    r.push((String::from("values"), plain(e.get("values").unwrap_or(&Json::Null), 2)));
                }
                G::Obj(r)
            })
            .collect();
        out.push((String::from("matchExpressions"), G::List(list)));
    }
    G::Obj(out)
}

/// `metav1.ObjectMeta`'s fields (v1 tags, omitempty; `creationTimestamp` is `omitzero` in
/// apimachinery v0.37, so a zero time is left out too).
fn meta_fields(v: Option<&Json>, out: &mut Vec<(String, G)>) {
    for key in crate::metav1::OBJECT_META_FIELDS {
        let x = v.and_then(|m| m.get(*key));
        if !is_empty(x) {
            out.push((String::from(*key), plain(x.unwrap_or(&Json::Null), 2)));
        }
    }
}

fn build(v: Option<&Json>, t: &T, o: Opts) -> G {
    let v = v.filter(|x| !x.is_null());
    match t {
        Str => string(v.and_then(Json::as_str).unwrap_or("")),
        Int => match v {
            Some(Json::Number(n)) => G::Raw(format!("{n}")),
            _ => raw("0"),
        },
        Bool => raw(if v.and_then(Json::as_bool) == Some(true) { "true" } else { "false" }),
        Qty => match v {
            Some(x) => match quantity::from_json(x) {
                Some(q) => string(&q.canonical()),
                None => G::Raw(go_json(x)),
            },
            None => string("0"),
        },
        IntStr => match v {
            Some(x @ (Json::Number(_) | Json::String(_))) => G::Raw(go_json(x)),
            _ => raw("0"),
        },
        Selector => v.map_or_else(|| G::Obj(Vec::new()), selector),
        Meta => {
            let mut out = Vec::new();
            meta_fields(v, &mut out);
            G::Obj(out)
        }
        S(name) => {
            let mut out = Vec::new();
            struct_fields(v, name, o, &mut out);
            G::Obj(out)
        }
        P(inner) => match v {
            None => raw(NULL),
            Some(x) => build(Some(x), inner, o),
        },
        L(inner) => match v {
            Some(Json::Array(items)) if !(o.stored && items.is_empty()) => {
                G::List(items.iter().map(|i| build(Some(i), inner, o)).collect())
            }
            _ => raw(NULL),
        },
        M(inner) => match v {
            Some(Json::Object(m)) if !(o.stored && m.is_empty()) => {
                G::Obj(m.iter().map(|(k, i)| (k.clone(), build(Some(i), inner, o))).collect())
            }
            _ => raw(NULL),
        },
    }
}

fn struct_fields(v: Option<&Json>, name: &str, o: Opts, out: &mut Vec<(String, G)>) {
    for (go, json, t) in fields(name) {
        if json.is_empty() {
            match t {
                Meta => meta_fields(v.and_then(|x| x.get("metadata")).filter(|m| !m.is_null()), out),
                S(inner) => struct_fields(v, inner, o, out),
                _ => {}
            }
            continue;
        }
        out.push((String::from(*go), build(v.and_then(|x| x.get(*json)), t, o)));
    }
}

fn compact(g: &G, out: &mut String) {
    match g {
        G::Raw(s) => out.push_str(s),
        G::List(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                compact(item, out);
            }
            out.push(']');
        }
        G::Obj(m) => {
            out.push('{');
            for (i, (k, item)) in m.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&go_json(&Json::from(k.as_str())));
                out.push(':');
                compact(item, out);
            }
            out.push('}');
        }
    }
}

fn newline(out: &mut String, level: usize) {
    out.push('\n');
    for _ in 0..level {
        out.push(' ');
    }
}

fn indented(g: &G, level: usize, out: &mut String) {
    match g {
        G::Raw(s) => out.push_str(s),
        G::List(items) if items.is_empty() => out.push_str("[]"),
        G::Obj(m) if m.is_empty() => out.push_str("{}"),
        G::List(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, level + 1);
                indented(item, level + 1, out);
            }
            newline(out, level);
            out.push(']');
        }
        G::Obj(m) => {
            out.push('{');
            for (i, (k, item)) in m.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, level + 1);
                out.push_str(&go_json(&Json::from(k.as_str())));
                out.push_str(": ");
                indented(item, level + 1, out);
            }
            newline(out, level);
            out.push('}');
        }
    }
}

/// `json.Marshal` of a value of internal type `t` read from its v1 JSON (`None`: the zero
/// value).
pub fn marshal(v: Option<&Json>, t: &T) -> String {
    let mut out = String::new();
    compact(&build(v, t, Opts { stored: false }), &mut out);
    out
}

/// `json.Marshal` of a `*X` (`X` a struct of the schema): `null` when nil.
pub fn marshal_struct(v: Option<&Json>, name: &'static str) -> String {
    match v.filter(|x| !x.is_null()) {
        None => String::from(NULL),
        Some(x) => marshal(Some(x), &S(name)),
    }
}

/// `json.MarshalIndent(x, "", " ")` of a struct of internal type `name`; `stored`: the
/// object was read back from storage (empty slices and maps decode as nil).
pub fn marshal_indent(v: &Json, name: &'static str, stored: bool) -> String {
    let mut out = String::new();
    indented(&build(Some(v), &S(name), Opts { stored }), 0, &mut out);
    out
}

/// A text equal for two values exactly when `apiequality.Semantic.DeepEqual` holds (nil and
/// empty slices and maps alike, quantities by their canonical text).
pub fn semantic(v: Option<&Json>, t: &T) -> String {
    let mut out = String::new();
    compact(&build(v, t, Opts { stored: true }), &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    // field.Error of a *SecurityContext (apimachinery 1.37 ErrorBody: json.Marshal).
    #[test]
    fn security_context() {
        let sc = json!({"privileged": true, "capabilities": {"add": ["NET_ADMIN"]}, "allowPrivilegeEscalation": false});
        assert_eq!(
            marshal_struct(Some(&sc), "SecurityContext"),
            "{\"Capabilities\":{\"Add\":[\"NET_ADMIN\"],\"Drop\":null},\"Privileged\":true,\"SELinuxOptions\":null,\"WindowsOptions\":null,\"RunAsUser\":null,\"RunAsGroup\":null,\"RunAsNonRoot\":null,\"ReadOnlyRootFilesystem\":null,\"AllowPrivilegeEscalation\":false,\"ProcMount\":null,\"SeccompProfile\":null,\"AppArmorProfile\":null}"
        );
    }

    // json.MarshalIndent(x, "", " ").
    #[test]
    fn indent() {
        let v = json!({"name": "c", "image": "a", "args": []});
        let text = marshal_indent(&v, "Container", false);
        assert!(text.starts_with("{\n \"Name\": \"c\",\n \"Image\": \"a\",\n \"Command\": null,\n \"Args\": [],\n"));
        assert!(
            text.contains("\n \"Resources\": {\n  \"Limits\": null,\n  \"Requests\": null,\n  \"Claims\": null\n },\n")
        );
        assert!(marshal_indent(&v, "Container", true).contains("\"Args\": null,"));
        assert!(text.ends_with("\n \"TTY\": false\n}"));
    }
}
