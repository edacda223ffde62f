//! What the API server finds while decoding a request into the Go types (sigs.k8s.io/json,
//! a fork of `encoding/json`), before any validation runs:
//!
//! - **unknown fields**: JSON keys that match no field (case-sensitively; promoted fields of
//!   embedded structs count), reported with their path,
//!   `spec.template.spec.containers[0].redinessProbe`. With `fieldValidation=Warn` (the default
//!   for API clients) each is the warning `unknown field "<path>"`; with `Strict` (kubectl's
//!   default) the request fails with `strict decoding error: unknown field "<path>"`.
//! - **the first type mismatch** (`UnmarshalTypeError`, decode.go): a JSON value the field's Go
//!   type cannot hold, `json: cannot unmarshal string into Go struct field
//!   DeploymentSpec.spec.replicas of type int32`. The decoder goes on after one but keeps
//!   only the first in the document (`saveError`); the API server refuses the request with it
//!   (a Bad Request, see [`TypeError::refusal`]). Every one is returned here, in key order:
//!   which comes first in the document is for the caller, who has the text, to say.
//!
//! Types with their own `UnmarshalJSON` (Quantity, IntOrString, Time, MicroTime, Duration) are
//! decoded as those functions decode them, with their errors; RawExtension is not looked into.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value;

use super::schema::{Kind, Schema, TypeId};

/// How deeply the walk follows the object (deeper values are left to validation's own limit).
const MAX_DEPTH: usize = 64;

/// A value the Go types cannot hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeError {
    /// Where it is, with list indices (`spec.template.spec.containers[0].image`).
    pub path: String,
    /// sigs.k8s.io/json's `UnmarshalTypeError` text (or the error of a type's own
    /// `UnmarshalJSON`, or of base64).
    pub message: String,
    /// The decoder stops at it (an error a type's `UnmarshalJSON` returns), where it only keeps
    /// the first of the others and goes on (`saveError`): a fatal error anywhere is the one the
    /// API server answers with.
    pub fatal: bool,
}

impl TypeError {
    /// The API server's refusal of a request whose body does not decode
    /// (apiserver `pkg/endpoints/handlers/rest.go` `transformDecodeError`):
    /// `Deployment in version "v1" cannot be handled as a Deployment: json: …`.
    pub fn refusal(&self, kind: &str, version: &str) -> String {
        format!("{kind} in version {version:?} cannot be handled as a {kind}: {}", self.message)
    }
}

/// What decoding an object into the types finds.
#[derive(Default)]
pub struct Decoding {
    /// The paths of the keys no field declares, in key order.
    pub unknown: Vec<String>,
    /// The values the types cannot hold, in key order.
    pub type_errors: Vec<TypeError>,
}

impl Decoding {
    /// The error the API server refuses the body with: the first fatal one in the order the
    /// decoder meets them (kubectl sends keys sorted, as they are walked here), else the first.
    pub fn refusal(&self) -> Option<&TypeError> {
        self.type_errors.iter().find(|t| t.fatal).or_else(|| self.type_errors.first())
    }
}

impl Schema {
    /// Decodes the object into the types as the API server does: unknown fields and type
    /// mismatches.
    pub fn decoding(&self, root: TypeId, object: &Value) -> Decoding {
        let mut out = Decoding::default();
        let mut walk = Walk { schema: self, out: &mut out, stack: Vec::new(), strukt: None };
        walk.value(root, object, String::new(), 0);
        out
    }

    /// The object as the Go types hold it after decoding, written back as JSON: fields the
    /// types do not declare dropped, `null` fields dropped (a nil pointer, or the zero value,
    /// which is what an absent field is), and `null` list items and map values made the zero
    /// value of their type (`containers: [null]` is one empty container, `labels: {a: null}`
    /// the label `a: ""`). Validation and defaulting of built-in kinds read this.
    pub fn normalized(&self, root: TypeId, object: &Value) -> Value {
        let mut out = object.clone();
        self.normalize(root, &mut out, 0);
        out
    }

    fn normalize(&self, ty: TypeId, value: &mut Value, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        let base = self.deref(ty).0;
        if self.types[base].well_known.is_some() {
            return;
        }
        match (self.kind(base), value) {
            (Kind::Struct(fields), Value::Object(map)) => {
                map.retain(|key, v| !v.is_null() && super::validate::member(self, fields, key).is_some());
                for (key, v) in map.iter_mut() {
                    if let Some(f) = super::validate::member(self, fields, key) {
                        self.normalize(f.ty, v, depth + 1);
                    }
                }
            }
            (Kind::Slice(elem), Value::Array(items)) => {
                for item in items {
                    match item.is_null() {
                        true => *item = self.zero(*elem),
                        false => self.normalize(*elem, item, depth + 1),
                    }
                }
            }
            (Kind::Map(_, elem), Value::Object(map)) => {
                for v in map.values_mut() {
                    match v.is_null() {
                        true => *v = self.zero(*elem),
                        false => self.normalize(*elem, v, depth + 1),
                    }
                }
            }
            _ => {}
        }
    }

    /// A type's zero value as it marshals to JSON (`null` for pointers, slices and maps).
    pub(super) fn zero(&self, ty: TypeId) -> Value {
        if matches!(self.kind(ty), Kind::Pointer(_)) {
            return Value::Null;
        }
        match self.types[ty].well_known {
            Some("resource.Quantity") => return Value::from("0"),
            Some("intstr.IntOrString") => return Value::from(0),
            Some(_) => return Value::Null,
            None => {}
        }
        match self.kind(ty) {
            Kind::Struct(_) => Value::Object(serde_json::Map::new()),
            Kind::String => Value::from(""),
            Kind::Bool => Value::from(false),
            Kind::Int { .. } | Kind::Float => Value::from(0),
            _ => Value::Null,
        }
    }

    /// How Go's reflect prints a type (`int32`, `v1.DeploymentSpec`, `[]v1.Container`,
    /// `map[string]string`): declared types qualified by their package's name.
    fn go_type(&self, id: TypeId, depth: usize) -> String {
        let node = &self.types[id];
        if depth > 8 {
            return node.name.clone();
        }
        match node.kind {
            // A Go alias is named by what it aliases; a field's copy of a type (same name,
            // carrying the field's tags) by that type.
            Kind::Alias(target) if self.go_aliases.contains(&id) || self.types[target].name == node.name => {
                return self.go_type(target, depth + 1);
            }
            _ => {}
        }
        if self.declared.iter().any(|(n, d)| *d == id && *n == node.name) {
            return format!("{}.{}", self.package, node.name);
        }
        match &node.kind {
            _ if node.name.contains('.') && !node.name.starts_with(['[', '*']) && !node.name.starts_with("map[") => {
                node.name.clone()
            }
            Kind::Pointer(e) => format!("*{}", self.go_type(*e, depth + 1)),
            Kind::Slice(e) => format!("[]{}", self.go_type(*e, depth + 1)),
            Kind::Map(k, v) => format!("map[{}]{}", self.go_type(*k, depth + 1), self.go_type(*v, depth + 1)),
            // reflect spells the aliases byte and rune as what they alias.
            Kind::Bytes => String::from("[]uint8"),
            _ if node.name == "byte" => String::from("uint8"),
            _ if node.name == "rune" => String::from("int32"),
            _ => node.name.clone(),
        }
    }
}

struct Walk<'s, 'o> {
    schema: &'s Schema,
    out: &'o mut Decoding,
    /// The JSON names of the struct fields being decoded (`errorContext.FieldStack`).
    stack: Vec<&'s str>,
    /// The struct type whose field is being decoded (`errorContext.Struct`).
    strukt: Option<TypeId>,
}

impl<'s> Walk<'s, '_> {
    fn value(&mut self, ty: TypeId, value: &Value, path: String, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        let schema = self.schema;
        let base = schema.deref(ty).0;
        if let (Some(name), false) = (schema.types[base].well_known, value.is_null()) {
            self.well_known(name, value, path);
            return;
        }
        let join = |key: &str| if path.is_empty() { String::from(key) } else { format!("{path}.{key}") };
        match (schema.kind(base), value) {
            (_, Value::Null) | (Kind::Opaque | Kind::Pending | Kind::Pointer(_) | Kind::Alias(_), _) => {}
            (Kind::Struct(fields), Value::Object(map)) => {
                for (key, v) in map {
                    match super::validate::member_via(schema, fields, key) {
                        Some((f, via)) => {
                            let saved = (self.stack.len(), self.strukt);
                            self.stack.extend(via);
                            self.stack.push(&f.json_name);
                            self.strukt = Some(base);
                            self.value(f.ty, v, join(key), depth + 1);
                            self.stack.truncate(saved.0);
                            self.strukt = saved.1;
                        }
                        None => self.out.unknown.push(join(key)),
                    }
                }
            }
            (Kind::Slice(elem), Value::Array(items)) => {
                for (i, item) in items.iter().enumerate() {
                    self.value(*elem, item, format!("{path}[{i}]"), depth + 1);
                }
            }
            (Kind::Map(_, elem), Value::Object(map)) => {
                for (key, v) in map {
                    self.value(*elem, v, join(key), depth + 1);
                }
            }
            (Kind::String, Value::String(_)) | (Kind::Bool, Value::Bool(_)) => {}
            // encoding/json decodes a []byte from base64 (`saveError` on bad input).
            (Kind::Bytes, Value::String(s)) => {
                if let Some(at) = go_base64_error(s.as_bytes()) {
                    let message = format!("illegal base64 data at input byte {at}");
                    self.out.type_errors.push(TypeError { path, message, fatal: false });
                }
            }
            (Kind::Bytes, Value::Array(_)) => {}
            (Kind::Int { min, max }, Value::Number(n)) => {
                let fits = n.as_i64().map(i128::from).or_else(|| n.as_u64().map(i128::from));
                if !fits.is_some_and(|i| i >= *min && i <= *max) {
                    self.mismatch(format!("number {n}"), base, path);
                }
            }
            (Kind::Float, Value::Number(_)) => {}
            (_, v) => {
                let what = match v {
                    Value::String(_) => "string",
                    Value::Bool(_) => "bool",
                    Value::Number(_) => "number",
                    Value::Array(_) => "array",
                    _ => "object",
                };
                self.mismatch(String::from(what), base, path);
            }
        }
    }

    /// A value of an apimachinery type decoded by its own `UnmarshalJSON`. Their errors stop
    /// the decoding; an `UnmarshalTypeError` among them gets the field's context
    /// (`addErrorContext`), others are returned as they are.
    fn well_known(&mut self, name: &'static str, value: &Value, path: String) {
        let kind_of = |v: &Value| match v {
            Value::String(_) => "string",
            Value::Bool(_) => "bool",
            Value::Number(_) => "number",
            Value::Array(_) => "array",
            _ => "object",
        };
        let message = match name {
            "resource.Quantity" => {
                let text = match value {
                    Value::String(s) => s.clone(),
                    other => alloc::string::ToString::to_string(other),
                };
                match quantity_error(text.trim()) {
                    Some(e) => String::from(e),
                    None => return,
                }
            }
            "intstr.IntOrString" => match value {
                Value::String(_) => return,
                Value::Number(n) if n.as_i64().is_some_and(|i| i32::try_from(i).is_ok()) => return,
                Value::Number(n) => self.context(format!("json: cannot unmarshal number {n} into"), "int32"),
                other => self.context(format!("json: cannot unmarshal {} into", kind_of(other)), "int32"),
            },
            "v1.Time" | "v1.MicroTime" => match value {
                Value::String(s) => {
                    let layout = if name == "v1.Time" { super::gotime::RFC3339 } else { super::gotime::RFC3339_MICRO };
                    match super::gotime::parse(layout, s) {
                        Ok(()) => return,
                        Err(e) => e,
                    }
                }
                other => self.context(format!("json: cannot unmarshal {} into", kind_of(other)), "string"),
            },
            "v1.Duration" => match value {
                Value::String(_) => return,
                other => self.context(format!("json: cannot unmarshal {} into", kind_of(other)), "string"),
            },
            _ => return,
        };
        self.out.type_errors.push(TypeError { path, message, fatal: true });
    }

    /// `json: cannot unmarshal X into Go struct field S.a.b of type T`, in the current context.
    fn context(&self, head: String, go_type: &str) -> String {
        match self.strukt {
            Some(s) => {
                let name = &self.schema.types[s].name;
                let name = name.rsplit('.').next().unwrap_or(name);
                format!("{head} Go struct field {name}.{} of type {go_type}", self.stack.join("."))
            }
            None => format!("{head} Go value of type {go_type}"),
        }
    }

    /// A mismatch, worded as `UnmarshalTypeError.Error()` with the decoder's error context
    /// (`addErrorContext`).
    fn mismatch(&mut self, value: String, ty: TypeId, path: String) {
        let go_type = self.schema.go_type(ty, 0);
        let message = match self.strukt {
            Some(s) => {
                let name = &self.schema.types[s].name;
                // reflect's Name(): unqualified, empty for an anonymous struct.
                let name = if name.contains('{') { "" } else { name.rsplit('.').next().unwrap_or(name) };
                format!(
                    "json: cannot unmarshal {value} into Go struct field {name}.{} of type {go_type}",
                    self.stack.join(".")
                )
            }
            None => format!("json: cannot unmarshal {value} into Go value of type {go_type}"),
        };
        self.out.type_errors.push(TypeError { path, message, fatal: false });
    }
}

/// Why `resource.ParseQuantity` refuses a text, in its words; `None` when it parses.
fn quantity_error(text: &str) -> Option<&'static str> {
    #[cfg(feature = "apis")]
    {
        crate::quantity::parse(text).err()
    }
    #[cfg(not(feature = "apis"))]
    {
        let _ = text;
        None
    }
}

/// Where Go's `base64.StdEncoding.Decode` finds the input corrupt (`CorruptInputError`), if it
/// does: its quantum-by-quantum decoding, `\r` and `\n` skipped (encoding/base64
/// `decodeQuantum`).
fn go_base64_error(src: &[u8]) -> Option<usize> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let mut si = 0;
    while si < src.len() {
        let mut j = 0;
        while j < 4 {
            if si == src.len() {
                return match j {
                    0 => None,
                    _ => Some(si - j),
                };
            }
            let c = src[si];
            si += 1;
            if value(c).is_some() {
                j += 1;
                continue;
            }
            if c == b'\n' || c == b'\r' {
                continue;
            }
            if c != b'=' {
                return Some(si - 1);
            }
            // Padding: only after two or three characters of the quantum.
            match j {
                0 | 1 => return Some(si - 1),
                2 => {
                    while si < src.len() && (src[si] == b'\n' || src[si] == b'\r') {
                        si += 1;
                    }
                    if si == src.len() {
                        return Some(src.len());
                    }
                    if src[si] != b'=' {
                        return Some(si - 1);
                    }
                    si += 1;
                }
                _ => {}
            }
            while si < src.len() && (src[si] == b'\n' || src[si] == b'\r') {
                si += 1;
            }
            return (si < src.len()).then_some(si);
        }
    }
    None
}
