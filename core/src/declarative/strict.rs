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
    /// sigs.k8s.io/json's `UnmarshalTypeError` text.
    pub message: String,
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

impl Schema {
    /// Decodes the object into the types as the API server does: unknown fields and type
    /// mismatches.
    pub fn decoding(&self, root: TypeId, object: &Value) -> Decoding {
        let mut out = Decoding::default();
        let mut walk = Walk { schema: self, out: &mut out, stack: Vec::new(), strukt: None };
        walk.value(root, object, String::new(), 0);
        out
    }

    /// How Go's reflect prints a type (`int32`, `v1.DeploymentSpec`, `[]v1.Container`,
    /// `map[string]string`): declared types qualified by their package's name.
    fn go_type(&self, id: TypeId, depth: usize) -> String {
        let node = &self.types[id];
        if depth > 8 {
            return node.name.clone();
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
            (Kind::Bytes, Value::String(_) | Value::Array(_)) => {}
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
        self.out.type_errors.push(TypeError { path, message });
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
        self.out.type_errors.push(TypeError { path, message });
    }
}

/// Why `resource.ParseQuantity` refuses a text, in its words; `None` when it parses.
fn quantity_error(text: &str) -> Option<&'static str> {
    #[cfg(feature = "apis")]
    {
        crate::apis::quantity::parse(text).err()
    }
    #[cfg(not(feature = "apis"))]
    {
        let _ = text;
        None
    }
}
