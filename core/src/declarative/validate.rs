//! Validating a decoded object against a [`Schema`], as the generated Go code does on create:
//! Go's decoding semantics for absent and zero values, a field's short-circuiting validators
//! first, then its other validators in tag-name order, then its type's own validation.

use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;
use serde_json::Value;

use super::schema::{Field, Kind, Schema, TypeId};
use super::validators::{run_simple, Check, GoVal, Validator};
use crate::diag::Diagnostic;
use crate::field::{Error, Path, Stability};

/// How to validate.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The validation options turned on (`+k8s:ifEnabled(Name)`); every other one is off.
    pub enabled: Vec<String>,
}

/// The result of validating one object: Kubernetes' errors (every stability level, each
/// marked `enforced`) and problems decoding the object into its types.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Report {
    /// The field errors, in the order Kubernetes reports them.
    pub errors: Vec<Error>,
    /// Values that do not decode into the declared Go types (Kubernetes rejects those before
    /// validation); the field is then not validated.
    pub diagnostics: Vec<Diagnostic>,
}

/// JSON nesting deeper than this is refused instead of walked.
const MAX_DEPTH: usize = 128;
/// How many values one validation may visit: zero-valued structs are walked too, so a type
/// graph that fans out could otherwise take exponential time on a tiny object.
const MAX_STEPS: usize = 1_000_000;

impl Schema {
    /// Validates `object` as an instance of the declared type `root` at the root path.
    pub fn validate(&self, root: TypeId, object: &Value, options: &Options) -> Report {
        let mut w = Walker { schema: self, options, report: Report::default(), depth: 0, steps: 0 };
        let path = Path::root();
        w.value(root, Some(object), &path);
        for e in &mut w.report.errors {
            // Default gates of the newest Kubernetes: alpha rules are shadow-only.
            e.enforced = e.stability != Stability::Alpha;
        }
        w.report
    }
}

struct Walker<'s> {
    schema: &'s Schema,
    options: &'s Options,
    report: Report,
    depth: usize,
    steps: usize,
}

/// A decoded value: the Go value, and for pointers whether the pointer is nil.
#[derive(Clone, Copy)]
struct Decoded<'a> {
    val: GoVal<'a>,
    pointer_nil: Option<bool>,
    /// The type behind pointers.
    base: TypeId,
}

impl<'s> Walker<'s> {
    fn option_on(&self, name: &str) -> bool {
        self.options.enabled.iter().any(|o| o == name)
    }

    fn decode_error(&mut self, path: &Path<'_>, message: String) {
        self.report.diagnostics.push(Diagnostic::at_field(path.render(), message));
    }

    /// Decodes `json` (absent: `None`) into type `ty` as Go would; `None` on a type mismatch
    /// (reported).
    fn decode<'a>(&mut self, ty: TypeId, json: Option<&'a Value>, path: &Path<'_>) -> Option<Decoded<'a>> {
        let (base, is_ptr) = self.schema.deref(ty);
        let json = json.filter(|v| !v.is_null());
        if is_ptr && json.is_none() {
            return Some(Decoded { val: GoVal::Nil, pointer_nil: Some(true), base });
        }
        let pointer_nil = is_ptr.then_some(false);
        let type_name = &self.schema.types[base].name;
        let mismatch = |w: &mut Self, want: &str, got: &Value| {
            let got = json_kind(got);
            w.decode_error(path, alloc::format!("cannot decode {got} into {type_name}: expected {want}"));
            None
        };
        let val = match (self.schema.kind(base), json) {
            (Kind::Opaque, Some(v)) => GoVal::Opaque(v),
            (Kind::Opaque, None) => GoVal::Nil,
            (Kind::String, None) => GoVal::Str(""),
            (Kind::String, Some(Value::String(s))) => GoVal::Str(s),
            (Kind::String, Some(v)) => return mismatch(self, "a string", v),
            (Kind::Bool, None) => GoVal::Bool(false),
            (Kind::Bool, Some(Value::Bool(b))) => GoVal::Bool(*b),
            (Kind::Bool, Some(v)) => return mismatch(self, "true or false", v),
            (Kind::Int { .. }, None) => GoVal::Int(0),
            (Kind::Int { min, max }, Some(Value::Number(n))) => {
                let (min, max) = (*min, *max);
                let as_int = n.as_i64().map(i128::from).or_else(|| n.as_u64().map(i128::from));
                match as_int {
                    Some(i) if i >= min && i <= max => {
                        if i > i64::MAX as i128 {
                            GoVal::Uint(i as u64)
                        } else {
                            GoVal::Int(i as i64)
                        }
                    }
                    Some(_) => {
                        self.decode_error(path, alloc::format!("{n} is out of range for {type_name} ({min} to {max})"));
                        return None;
                    }
                    None => {
                        self.decode_error(
                            path,
                            alloc::format!("cannot decode {n} into {type_name}: expected an integer"),
                        );
                        return None;
                    }
                }
            }
            (Kind::Int { .. }, Some(v)) => return mismatch(self, "an integer", v),
            (Kind::Float, None) => GoVal::Float(0.0),
            (Kind::Float, Some(Value::Number(n))) => GoVal::Float(n.as_f64().unwrap_or(0.0)),
            (Kind::Float, Some(v)) => return mismatch(self, "a number", v),
            (Kind::Bytes, None) => GoVal::Nil,
            (Kind::Bytes, Some(Value::String(s))) => match base64_len(s) {
                Some(n) => GoVal::Bytes(n),
                None => {
                    self.decode_error(path, alloc::format!("cannot decode {type_name}: {s:?} is not base64"));
                    return None;
                }
            },
            (Kind::Bytes, Some(v)) => return mismatch(self, "a base64 string", v),
            (Kind::Slice(_), None) => GoVal::Nil,
            (Kind::Slice(_), Some(Value::Array(items))) => GoVal::List(items),
            (Kind::Slice(_), Some(v)) => return mismatch(self, "a list", v),
            (Kind::Map(..), None) => GoVal::Nil,
            (Kind::Map(..), Some(Value::Object(m))) => GoVal::Map(m),
            (Kind::Map(..), Some(v)) => return mismatch(self, "an object", v),
            (Kind::Struct(_), None) => GoVal::Struct(None),
            (Kind::Struct(_), Some(Value::Object(m))) => GoVal::Struct(Some(m)),
            (Kind::Struct(_), Some(v)) => return mismatch(self, "an object", v),
            (Kind::Pointer(_) | Kind::Alias(_) | Kind::Pending, _) => GoVal::Nil,
        };
        Some(Decoded { val, pointer_nil, base })
    }

    /// A value of type `ty` with no field-level validations: its type's validation.
    fn value(&mut self, ty: TypeId, json: Option<&Value>, path: &Path<'_>) {
        if let Some(d) = self.decode(ty, json, path) {
            self.type_validation(ty, d, path);
        }
    }

    /// Runs the validations a value's type carries: the named types' tags along pointers and
    /// aliases, then the contents (struct fields, list items, map keys and values).
    fn type_validation(&mut self, ty: TypeId, d: Decoded<'_>, path: &Path<'_>) {
        self.steps += 1;
        if self.steps > MAX_STEPS {
            if self.steps == MAX_STEPS + 1 {
                let msg =
                    alloc::format!("validation stopped after visiting {MAX_STEPS} values: the types fan out too much");
                self.decode_error(path, msg);
            }
            return;
        }
        if self.depth >= MAX_DEPTH {
            self.decode_error(path, alloc::format!("the object nests more than {MAX_DEPTH} levels deep"));
            return;
        }
        // Slice and map types are passed to their validation function by value: behind a
        // nil pointer there is nothing to pass. Structs and scalars get the (nil) pointer.
        if d.pointer_nil == Some(true)
            && matches!(self.schema.kind(d.base), Kind::Slice(_) | Kind::Map(..) | Kind::Bytes)
        {
            return;
        }
        self.depth += 1;
        // The type's own tags: the named type, then any alias it is defined as (`type A B`
        // gives A its own tags only, so follow pointers but stop at the first named type).
        let mut at = ty;
        for _ in 0..self.schema.types.len() {
            let node = &self.schema.types[at];
            if !node.validations.is_empty() {
                let vals = &node.validations;
                self.run_list(vals, d, path);
            }
            match &node.kind {
                Kind::Pointer(inner) => at = *inner,
                _ => break,
            }
        }
        // Generated code calls the type's function even for nil values (the validators skip
        // nil themselves); only the walk into the contents needs a value.
        if d.pointer_nil == Some(true) {
            self.depth -= 1;
            return;
        }
        match (self.schema.kind(d.base), d.val) {
            (Kind::Struct(fields), GoVal::Struct(obj)) => {
                let fields: &'s [Field] = fields;
                self.fields(fields, obj, path);
            }
            (Kind::Slice(elem), GoVal::List(items)) => {
                let elem = *elem;
                if self.has_validations(elem) {
                    for (i, item) in items.iter().enumerate() {
                        let p = path.index(i);
                        if item.is_null() && self.schema.deref(elem).1 {
                            continue;
                        }
                        self.value(elem, Some(item), &p);
                    }
                }
            }
            (Kind::Map(key, elem), GoVal::Map(m)) => {
                let (key, elem) = (*key, *elem);
                if self.has_validations(key) {
                    for k in m.keys() {
                        let v = Value::String(k.clone());
                        self.value(key, Some(&v), path);
                    }
                }
                if self.has_validations(elem) {
                    for (k, v) in m {
                        let p = path.key(k);
                        self.value(elem, Some(v), &p);
                    }
                }
            }
            _ => {}
        }
        self.depth -= 1;
    }

    /// Whether a type or anything inside it carries validations (so walking it can report).
    fn has_validations(&self, ty: TypeId) -> bool {
        self.schema.validated.get(ty).copied().unwrap_or(false)
    }

    fn fields(&mut self, fields: &'s [Field], obj: Option<&serde_json::Map<String, Value>>, path: &Path<'_>) {
        for f in fields {
            let base = self.schema.deref(f.ty).0;
            if f.inline && matches!(self.schema.kind(base), Kind::Struct(_)) {
                // Promoted fields: the embedded struct reads the same JSON object at the same path.
                let d = Decoded { val: GoVal::Struct(obj), pointer_nil: None, base };
                self.field(f, d, path);
                continue;
            }
            let json = obj.and_then(|m| m.get(&f.json_name));
            let p = path.child(&f.json_name);
            if let Some(d) = self.decode(f.ty, json, &p) {
                self.field(f, d, &p);
            }
        }
    }

    /// A field: its validators (short-circuits first), then its type's validation.
    fn field(&mut self, f: &'s Field, d: Decoded<'_>, path: &Path<'_>) {
        if self.run_list(&f.validations, d, path) {
            self.type_validation(f.ty, d, path);
        }
    }

    /// Runs validators in order; returns false when a short-circuit stopped the field.
    fn run_list(&mut self, vals: &'s [Validator], d: Decoded<'_>, path: &Path<'_>) -> bool {
        let mut stop = false;
        for (i, v) in vals.iter().enumerate() {
            let errs = self.run_one(v, d, path);
            if v.short_circuit && !errs.is_empty() {
                stop = true;
                if !v.non_error {
                    self.report.errors.extend(errs);
                }
            } else {
                self.report.errors.extend(errs);
            }
            // After the last short-circuiting validator, stop if any fired.
            let last_short = vals.get(i + 1).is_none_or(|next| !next.short_circuit);
            if v.short_circuit && last_short && stop {
                return false;
            }
        }
        true
    }

    fn run_one(&mut self, v: &'s Validator, d: Decoded<'_>, path: &Path<'_>) -> Vec<Error> {
        let options = self.options;
        let on = |name: &str| options.enabled.iter().any(|o| o == name);
        if let Some(mut errs) = run_simple(&v.check, path, d.val, d.pointer_nil, &on) {
            for e in &mut errs {
                e.stability = v.stability;
            }
            return errs;
        }
        let before = self.report.errors.len();
        match &v.check {
            Check::IfOption { option, enabled, validators } => {
                if self.option_on(option) != *enabled {
                    return Vec::new();
                }
                // Collect the inner errors so the caller can short-circuit on them.
                let mut out = Vec::new();
                for inner in validators {
                    out.extend(self.run_one(inner, d, path));
                }
                return out;
            }
            Check::EachVal(inner) => match d.val {
                GoVal::List(items) => {
                    let elem = match self.schema.kind(d.base) {
                        Kind::Slice(e) => *e,
                        _ => return Vec::new(),
                    };
                    for (i, item) in items.iter().enumerate() {
                        let p = path.index(i);
                        if item.is_null() && self.schema.deref(elem).1 {
                            continue;
                        }
                        if let Some(di) = self.decode(elem, Some(item), &p) {
                            self.run_list(inner, di, &p);
                        }
                    }
                }
                GoVal::Map(m) => {
                    let elem = match self.schema.kind(d.base) {
                        Kind::Map(_, e) => *e,
                        _ => return Vec::new(),
                    };
                    for (k, item) in m {
                        let p = path.key(k);
                        if let Some(di) = self.decode(elem, Some(item), &p) {
                            self.run_list(inner, di, &p);
                        }
                    }
                }
                _ => {}
            },
            Check::EachKey(inner) => {
                if let (GoVal::Map(m), Kind::Map(key, _)) = (d.val, self.schema.kind(d.base)) {
                    let key = *key;
                    for k in m.keys() {
                        let kv = Value::String(k.clone());
                        // Go passes the map's path for keys (each.go EachMapKey).
                        if let Some(dk) = self.decode(key, Some(&kv), path) {
                            let errs = {
                                let mut sub = Vec::new();
                                for iv in inner {
                                    sub.extend(self.run_one(iv, dk, path));
                                }
                                sub
                            };
                            self.report.errors.extend(errs);
                        }
                    }
                }
            }
            Check::Subfield { json_name, validators } => {
                if let (GoVal::Struct(obj), Kind::Struct(fields)) = (d.val, self.schema.kind(d.base)) {
                    if let Some(member) = member(self.schema, fields, json_name) {
                        let json = obj.and_then(|m| m.get(json_name));
                        let p = path.child(json_name);
                        if let Some(ds) = self.decode(member.ty, json, &p) {
                            // The subfield's own short-circuits (required, optional, ...) also
                            // stop the cohort; the struct walk reports their errors.
                            let stopped = member.validations.iter().filter(|v| v.short_circuit).any(|v| {
                                run_simple(&v.check, &p, ds.val, ds.pointer_nil, &on).is_some_and(|e| !e.is_empty())
                            });
                            if !stopped {
                                self.run_list(validators, ds, &p);
                            }
                        }
                    }
                }
            }
            _ => {}
        }
        // Structural validators append as they go; hand their errors back for ordering.
        self.report.errors.split_off(before)
    }
}

/// The field with JSON name `json`, looking into inline embedded structs (to a bounded depth:
/// self-embedding is refused at compile time, but lookups must not trust that).
pub(crate) fn member<'s>(schema: &'s Schema, fields: &'s [Field], json: &str) -> Option<&'s Field> {
    fn find<'s>(schema: &'s Schema, fields: &'s [Field], json: &str, depth: usize) -> Option<&'s Field> {
        for f in fields {
            if f.inline {
                if let (Kind::Struct(inner), true) = (schema.kind(schema.deref(f.ty).0), depth < 16) {
                    if let Some(found) = find(schema, inner, json, depth + 1) {
                        return Some(found);
                    }
                }
            } else if f.json_name == json {
                return Some(f);
            }
        }
        None
    }
    find(schema, fields, json, 0)
}

fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a bool",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// The decoded length of standard base64 (Go's `[]byte` JSON form), or `None` if invalid.
fn base64_len(s: &str) -> Option<usize> {
    let body = s.trim_end_matches('=');
    if s.len() % 4 != 0 || s.len() - body.len() > 2 {
        return None;
    }
    if !body.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/') {
        return None;
    }
    Some(body.len() * 3 / 4)
}
