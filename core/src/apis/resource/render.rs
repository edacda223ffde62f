//! Internal objects as `field.Error` prints a bad value that is a struct: `json.Marshal` of the
//! internal types of `pkg/apis/resource`, which have no JSON tags (Go's field names, in
//! declaration order, every field, nil as `null`); embedded `metav1.ObjectMeta` keeps its tags.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value as Json;

use crate::apis::json::get;
use crate::field::go_json;
use crate::quantity;

/// How one field prints.
#[derive(Clone, Copy)]
enum Kind {
    /// A string (zero: `""`).
    Str,
    /// An int64 (zero: `0`).
    Int,
    /// A pointer or a value printed as JSON (nil: `null`).
    Raw,
    /// A `map[...]resource.Quantity` (nil: `null`).
    Quantities,
    /// A struct pointer.
    Ptr(fn(&Json) -> String),
    /// A struct value (absent: its zero value).
    Struct(fn(&Json) -> String),
    /// A list of structs (nil: `null`).
    List(fn(&Json) -> String),
    /// Promoted fields of an embedded struct.
    Embedded(fn(&Json) -> String),
}

fn object(v: &Json, fields: &[(&str, &str, Kind)]) -> String {
    let mut parts: Vec<String> = Vec::new();
    for (go, key, kind) in fields {
        let x = get(v, key);
        let text = match kind {
            Kind::Str => go_json(&Json::from(x.and_then(Json::as_str).unwrap_or(""))),
            Kind::Int => format!("{}", x.and_then(Json::as_i64).unwrap_or(0)),
            Kind::Raw => go_json(x.unwrap_or(&Json::Null)),
            Kind::Quantities => match x.and_then(Json::as_object) {
                None => String::from("null"),
                Some(m) => {
                    let items: Vec<String> = m
                        .iter()
                        .map(|(k, q)| {
                            let s = quantity::from_json(q).map_or_else(|| String::from("0"), |q| q.canonical());
                            format!("{}:{}", go_json(&Json::from(k.as_str())), go_json(&Json::from(s)))
                        })
                        .collect();
                    format!("{{{}}}", items.join(","))
                }
            },
            Kind::Ptr(f) => x.map_or_else(|| String::from("null"), f),
            Kind::Struct(f) => f(x.unwrap_or(&Json::Null)),
            Kind::List(f) => match x.and_then(Json::as_array) {
                None => String::from("null"),
                Some(items) => format!("[{}]", items.iter().map(f).collect::<Vec<_>>().join(",")),
            },
            Kind::Embedded(f) => {
                let inner = f(v);
                let inner = &inner[1..inner.len() - 1];
                if !inner.is_empty() {
                    parts.push(String::from(inner));
                }
                continue;
            }
        };
        parts.push(format!("\"{go}\":{text}"));
    }
    format!("{{{}}}", parts.join(","))
}

/// `resource.ResourceClaimSpec`.
pub(super) fn claim_spec(v: &Json) -> String {
    object(v, &[("Devices", "devices", Kind::Struct(device_claim))])
}

/// `resource.ResourceClaimTemplateSpec`: the embedded `ObjectMeta` (tagged, `omitempty`), then
/// `Spec`.
pub(super) fn template_spec(v: &Json) -> String {
    let mut parts: Vec<String> = Vec::new();
    if let Some(meta) = get(v, "metadata").and_then(Json::as_object) {
        for key in ["name", "generateName", "namespace", "labels", "annotations"] {
            if let Some(x) = meta.get(key).filter(|x| !is_empty(x)) {
                parts.push(format!("\"{key}\":{}", go_json(x)));
            }
        }
    }
    parts.push(format!("\"Spec\":{}", claim_spec(get(v, "spec").unwrap_or(&Json::Null))));
    format!("{{{}}}", parts.join(","))
}

fn is_empty(v: &Json) -> bool {
    match v {
        Json::Null => true,
        Json::String(s) => s.is_empty(),
        Json::Object(m) => m.is_empty(),
        Json::Array(a) => a.is_empty(),
        _ => false,
    }
}

fn device_claim(v: &Json) -> String {
    object(
        v,
        &[
            ("Requests", "requests", Kind::List(request)),
            ("Constraints", "constraints", Kind::List(constraint)),
            ("Config", "config", Kind::List(claim_config)),
        ],
    )
}

fn request(v: &Json) -> String {
    object(
        v,
        &[
            ("Name", "name", Kind::Str),
            ("Exactly", "exactly", Kind::Ptr(exact)),
            ("FirstAvailable", "firstAvailable", Kind::List(sub_request)),
        ],
    )
}

fn exact(v: &Json) -> String {
    object(
        v,
        &[
            ("DeviceClassName", "deviceClassName", Kind::Str),
            ("Selectors", "selectors", Kind::List(selector)),
            ("AllocationMode", "allocationMode", Kind::Str),
            ("Count", "count", Kind::Int),
            ("AdminAccess", "adminAccess", Kind::Raw),
            ("Tolerations", "tolerations", Kind::List(toleration)),
            ("Capacity", "capacity", Kind::Ptr(capacity)),
            ("DerivedAttributes", "derivedAttributes", Kind::List(derived)),
        ],
    )
}

fn sub_request(v: &Json) -> String {
    object(
        v,
        &[
            ("Name", "name", Kind::Str),
            ("DeviceClassName", "deviceClassName", Kind::Str),
            ("Selectors", "selectors", Kind::List(selector)),
            ("AllocationMode", "allocationMode", Kind::Str),
            ("Count", "count", Kind::Int),
            ("Tolerations", "tolerations", Kind::List(toleration)),
            ("Capacity", "capacity", Kind::Ptr(capacity)),
            ("DerivedAttributes", "derivedAttributes", Kind::List(derived)),
        ],
    )
}

fn selector(v: &Json) -> String {
    object(v, &[("CEL", "cel", Kind::Ptr(cel))])
}

fn cel(v: &Json) -> String {
    object(v, &[("Expression", "expression", Kind::Str)])
}

fn toleration(v: &Json) -> String {
    object(
        v,
        &[
            ("Key", "key", Kind::Str),
            ("Operator", "operator", Kind::Str),
            ("Value", "value", Kind::Str),
            ("Effect", "effect", Kind::Str),
            ("TolerationSeconds", "tolerationSeconds", Kind::Raw),
        ],
    )
}

fn capacity(v: &Json) -> String {
    object(v, &[("Requests", "requests", Kind::Quantities)])
}

fn derived(v: &Json) -> String {
    object(v, &[("Name", "name", Kind::Str), ("Expression", "expression", Kind::Str)])
}

fn constraint(v: &Json) -> String {
    object(
        v,
        &[
            ("Requests", "requests", Kind::Raw),
            ("MatchAttribute", "matchAttribute", Kind::Raw),
            ("DistinctAttribute", "distinctAttribute", Kind::Raw),
        ],
    )
}

fn claim_config(v: &Json) -> String {
    object(v, &[("Requests", "requests", Kind::Raw), ("DeviceConfiguration", "", Kind::Embedded(device_config))])
}

fn device_config(v: &Json) -> String {
    object(v, &[("Opaque", "opaque", Kind::Ptr(opaque))])
}

fn opaque(v: &Json) -> String {
    object(v, &[("Driver", "driver", Kind::Str), ("Parameters", "parameters", Kind::Raw)])
}
