//! Validating a decoded object against a [`Schema`], as the generated Go code does on create:
//! Go's decoding semantics for absent and zero values, a field's short-circuiting validators
//! first, then its other validators in tag-name order, then its type's own validation.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::Serialize;
use serde_json::Value;

use super::schema::ListSpec;
use super::schema::{Field, Kind, Schema, TypeId};
use super::validators::{run_simple, Check, Criteria, GoVal, Union, UpdateConstraint, Validator};
use crate::diag::Diagnostic;
use crate::field::go_quote;
use crate::field::{Error, Path, Stability};

/// How to validate.
#[derive(Clone, Debug)]
pub struct Options {
    /// The validation options turned on (`+k8s:ifEnabled(Name)`); every other one is off.
    pub enabled: Vec<String>,
    /// Apply the types' `+default` values before validating, as the API server does when it
    /// decodes a request (on by default). Off: the objects as written, as validation-gen's own
    /// tests call the generated functions on values nobody defaulted.
    pub defaults: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options { enabled: Vec::new(), defaults: true }
    }
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

/// Nesting deeper than this is refused instead of walked (each level costs a few stack frames,
/// and WebAssembly's stack is 1 MB; real Kubernetes objects stay far below it).
const MAX_DEPTH: usize = 64;
/// How many values one validation may visit: zero-valued structs are walked too, so a type
/// graph that fans out could otherwise take exponential time on a tiny object.
const MAX_STEPS: usize = 1_000_000;

impl Schema {
    /// Validates `object` as an instance of the declared type `root` at the root path, on
    /// create.
    pub fn validate(&self, root: TypeId, object: &Value, options: &Options) -> Report {
        self.validate_update(root, object, None, options)
    }

    /// Validates a request as the generated dispatcher does: `subresource` (`/status`; `None`
    /// or `/` for the resource itself) must be one the type answers, or the result is
    /// Kubernetes' internal error `no validation found for *pkg.Type, subresource: /x`.
    pub fn validate_request(
        &self,
        root: TypeId,
        object: &Value,
        old: Option<&Value>,
        subresource: Option<&str>,
        options: &Options,
    ) -> Report {
        let path = match subresource.map(str::trim).filter(|s| !s.is_empty()) {
            None => String::from("/"),
            Some(s) if s.starts_with('/') => s.to_string(),
            Some(s) => format!("/{s}"),
        };
        // A type without validations has no generated function: nothing is registered for
        // it, so every subresource passes (runtime.Scheme.Validate finds no function).
        let registered = self.validated.get(root).copied().unwrap_or(false);
        if registered && !self.subresource_paths(root).contains(&path) {
            let detail =
                format!("no validation found for *{}.{}, subresource: {path}", self.package, self.type_name(root));
            let e = Error::new(crate::field::ErrorType::Internal, &Path::root(), None, detail);
            return Report { errors: alloc::vec![e], diagnostics: Vec::new() };
        }
        self.validate_update(root, object, old, options)
    }

    /// Validates `object` on update when `old` is given (on create otherwise): unchanged
    /// values correlated with the old object are not revalidated (ratcheting), and
    /// `+k8s:immutable` / `+k8s:update` compare old and new.
    pub fn validate_update(&self, root: TypeId, object: &Value, old: Option<&Value>, options: &Options) -> Report {
        // The API server defaults what it decodes: the request's object, and the stored one.
        let defaulted = options.defaults.then(|| self.defaulted(root, object)).flatten();
        let old_defaulted = options.defaults.then(|| old.and_then(|o| self.defaulted(root, o))).flatten();
        let object = defaulted.as_ref().unwrap_or(object);
        let old = old_defaulted.as_ref().or(old);
        let mut w = Walker {
            schema: self,
            options,
            report: Report::default(),
            depth: 0,
            steps: 0,
            update: old.is_some(),
            inline: Vec::new(),
            opaque_elements: (false, false),
        };
        let path = Path::root();
        // The root type's function is called directly: no ratcheting of the root itself.
        if let Some(mut d) = w.decode(root, Some(object), &path) {
            d.old = old.map(Some);
            // The generated functions take the root by pointer: a null old object is a nil
            // `oldObj` (union.go's `hasOldValue` false; no field is correlated).
            if old.is_some_and(Value::is_null) {
                d.pointer_nil = Some(false);
            }
            w.type_validation(root, d, &path);
        }
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
    /// Whether this is an update (an old object was given).
    update: bool,
    /// Embedded struct types being walked at the current JSON object: Go promotes each type's
    /// fields once, so an embedding cycle (`type T *struct{ T }`) must not recurse.
    inline: Vec<TypeId>,
    /// Set by a field marked `eachVal`/`eachKey=+k8s:opaqueType` for the one call that
    /// validates its collection: its values' (keys') types are not validated.
    opaque_elements: (bool, bool),
}

/// A decoded value: the Go value, and for pointers whether the pointer is nil.
#[derive(Clone, Copy)]
struct Decoded<'a> {
    val: GoVal<'a>,
    pointer_nil: Option<bool>,
    /// The type behind pointers.
    base: TypeId,
    /// The JSON it was decoded from (absent: `None`).
    json: Option<&'a Value>,
    /// On update, the correlated old value's JSON (`Some(None)`: correlated, absent in the
    /// old object); `None` when there is no correlated old value.
    old: Option<Option<&'a Value>>,
}

impl Decoded<'_> {
    /// A pointer whose correlated old value is nil: the generated code's `oldObj != nil` is
    /// false, so nothing under it has an old value.
    fn old_pointer_nil(&self) -> bool {
        self.pointer_nil.is_some() && matches!(self.old, Some(None | Some(Value::Null)))
    }
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
            return Some(Decoded { val: GoVal::Nil, pointer_nil: Some(true), base, json, old: None });
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
        Some(Decoded { val, pointer_nil, base, json, old: None })
    }

    /// Whether ratcheting skips this value: an update, a correlated old value, and the same
    /// Go value (generated code: "don't revalidate unchanged data").
    fn unchanged(&self, ty: TypeId, d: &Decoded<'_>) -> bool {
        match d.old {
            Some(old) if self.update => super::equal::go_equal(self.schema, ty, d.json, old),
            _ => false,
        }
    }

    /// A value of type `ty` with no field-level validations: its type's validation.
    fn value<'a>(&mut self, ty: TypeId, json: Option<&'a Value>, old: Option<Option<&'a Value>>, path: &Path<'_>) {
        if let Some(mut d) = self.decode(ty, json, path) {
            d.old = old;
            if !self.unchanged(ty, &d) {
                self.type_validation(ty, d, path);
            }
        }
    }

    /// Runs the validations a value's type carries: the named types' tags along pointers and
    /// aliases, then the contents (struct fields, list items, map keys and values).
    fn type_validation(&mut self, ty: TypeId, d: Decoded<'_>, path: &Path<'_>) {
        let (field_values, field_keys) = core::mem::take(&mut self.opaque_elements);
        let (own_values, own_keys) = self.schema.types[d.base].opaque_elements;
        let (opaque_values, opaque_keys) = (field_values || own_values, field_keys || own_keys);
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
                // A type-level short-circuit returns before the contents are validated.
                if !self.run_list(vals, d, path) {
                    self.depth -= 1;
                    return;
                }
            }
            match &node.kind {
                Kind::Pointer(inner) => at = *inner,
                _ => break,
            }
        }
        // Generated code calls the type's function even for nil values (the validators skip
        // nil themselves); only the walk into the contents needs a value. An opaque type
        // (`+k8s:opaqueType` on its declaration) has no validation of its contents.
        if d.pointer_nil == Some(true) || self.schema.types[at].opaque {
            self.depth -= 1;
            return;
        }
        match (self.schema.kind(d.base), d.val) {
            (Kind::Struct(fields), GoVal::Struct(_)) => {
                let fields: &'s [Field] = fields;
                // A struct behind a pointer that was nil in the old object has no old value
                // (generated code: `oldObj != nil` is false), so its fields are neither
                // ratcheted nor compared by update constraints; a non-pointer struct absent in
                // the old JSON is the zero struct, which they are compared with.
                let old = if d.old_pointer_nil() { None } else { d.old };
                self.fields(fields, d.json, old, path);
            }
            (Kind::Slice(elem), GoVal::List(items)) => {
                let elem = *elem;
                if !opaque_values && self.has_validations(elem) {
                    let identity = self.schema.item_spec(ty);
                    let old_items = d.old.flatten().and_then(Value::as_array);
                    for (i, item) in items.iter().enumerate() {
                        let p = path.index(i);
                        if item.is_null() && self.schema.deref(elem).1 {
                            continue;
                        }
                        let old = super::equal::correlate(self.schema, elem, identity, item, old_items);
                        self.value(elem, Some(item), old, &p);
                    }
                }
            }
            (Kind::Map(key, elem), GoVal::Map(m)) => {
                let (key, elem) = (*key, *elem);
                if !opaque_keys && self.has_validations(key) {
                    let old_map = d.old.flatten().and_then(Value::as_object);
                    for k in m.keys() {
                        // each.go EachMapKey: keys already present are not revalidated.
                        if self.update && old_map.is_some_and(|o| o.contains_key(k)) {
                            continue;
                        }
                        let v = Value::String(k.clone());
                        self.value(key, Some(&v), None, path);
                    }
                }
                if !opaque_values && self.has_validations(elem) {
                    let old_map = d.old.flatten().and_then(Value::as_object);
                    for (k, v) in m {
                        let p = path.key(k);
                        let old = old_map.and_then(|o| o.get(k)).map(Some);
                        self.value(elem, Some(v), old, &p);
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

    /// A struct's fields; `old` is the correlated old struct (`Some(None)`: correlated but
    /// absent, so every field is correlated with its zero value).
    fn fields<'a>(
        &mut self,
        fields: &'s [Field],
        json: Option<&'a Value>,
        old: Option<Option<&'a Value>>,
        path: &Path<'_>,
    ) {
        let obj = json.and_then(Value::as_object);
        for f in fields {
            let base = self.schema.deref(f.ty).0;
            if f.inline && matches!(self.schema.kind(base), Kind::Struct(_)) {
                // An opaque embedded struct's function is not called (validation.go).
                if self.inline.contains(&base) || f.opaque {
                    continue;
                }
                // Promoted fields: the embedded struct reads the same JSON object at the same
                // path, and its old value is the old object's.
                let d = Decoded { val: GoVal::Struct(obj), pointer_nil: None, base, json, old };
                // It has no JSON name: under the root (a nil fldPath) validation-gen gives it its
                // Go field name, the type's without package or pointer (`*T3` is `T3`:
                // `safe.Value(fldPath, ... fldPath.Child("T3"))`).
                let named;
                let at = if path.is_root() {
                    named = path.child(&f.go_name);
                    &named
                } else {
                    path
                };
                self.inline.push(base);
                self.inline_field(f, d, at);
                self.inline.pop();
                continue;
            }
            // A named field starts a new JSON object: embedding cycles restart there.
            let saved = core::mem::take(&mut self.inline);
            let json = obj.and_then(|m| m.get(&f.json_name));
            let p = path.child(&f.json_name);
            if let Some(mut d) = self.decode(f.ty, json, &p) {
                d.old = old.map(|o| o.and_then(|v| v.get(&f.json_name)));
                self.field(f, d, &p);
            }
            self.inline = saved;
        }
    }

    /// An embedded struct: its field validations, then its fields, read from the parent object;
    /// nothing when it equals its old value (validation-gen's field functions "don't revalidate
    /// unchanged data", an embedded field's too: output_tests/ratcheting/default_behavior).
    fn inline_field(&mut self, f: &'s Field, d: Decoded<'_>, path: &Path<'_>) {
        if self.unchanged(f.ty, &d) {
            return;
        }
        if self.run_list(&f.validations, d, path) {
            let base = d.base;
            let vals = &self.schema.types[base].validations;
            self.run_list(vals, d, path);
            if let Kind::Struct(inner) = self.schema.kind(base) {
                let inner: &'s [Field] = inner;
                self.fields(inner, d.json, d.old, path);
            }
        }
    }

    /// A field: its validators (short-circuits first), then its type's validation — unless
    /// ratcheting finds it unchanged.
    fn field(&mut self, f: &'s Field, d: Decoded<'_>, path: &Path<'_>) {
        if self.unchanged(f.ty, &d) {
            return;
        }
        if self.run_list(&f.validations, d, path) && !f.opaque {
            self.opaque_elements = (f.opaque_values, f.opaque_keys);
            self.type_validation(f.ty, d, path);
        }
    }

    /// Runs validators in order; returns false when a short-circuit stopped the field.
    fn run_list(&mut self, vals: &'s [Validator], d: Decoded<'_>, path: &Path<'_>) -> bool {
        let mut stop = false;
        for (i, v) in vals.iter().enumerate() {
            let mut errs = self.run_one(v, d, path);
            // validation-gen 1.37 emits `.MarkShortCircuit()` on a short-circuiting validator's
            // call (its wrapped calls inside are not marked; a wrapper's mark covers them).
            for e in &mut errs {
                e.short_circuit = v.short_circuit;
            }
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

    /// One validator's errors, stamped with its level when it is wrapped (a beta union, an
    /// alpha list check: their errors are made inside, unstamped).
    fn run_one(&mut self, v: &'s Validator, d: Decoded<'_>, path: &Path<'_>) -> Vec<Error> {
        let mut errs = self.run_check(v, d, path);
        if v.stability != Stability::Stable {
            for e in &mut errs {
                e.stability = v.stability;
            }
        }
        errs
    }

    fn run_check(&mut self, v: &'s Validator, d: Decoded<'_>, path: &Path<'_>) -> Vec<Error> {
        let options = self.options;
        let on = |name: &str| options.enabled.iter().any(|o| o == name);
        if let Some(mut errs) = run_simple(&v.check, path, d.val, d.pointer_nil, &on) {
            // Structs, and lists and maps (which may hold structs), print as Go marshals them
            // (field.Error's JSON fallback: declaration order, zero fields too).
            let kind = self.schema.kind(d.base);
            let composite =
                matches!(kind, Kind::Struct(_) | Kind::Slice(_) | Kind::Map(..)) && d.pointer_nil != Some(true);
            for e in &mut errs {
                e.stability = v.stability;
                // []byte marshals as its base64 text, which the JSON holds.
                if matches!(kind, Kind::Bytes) && e.value == Some(Value::Null) {
                    e.value = d.json.cloned();
                }
                let whole = matches!(e.value, Some(Value::Array(_) | Value::Object(_)));
                if composite && whole && e.kind.prints_value() {
                    e.rendered_value = Some(super::marshal::go_json(self.schema, d.base, d.json));
                }
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
                        if let Some(mut di) = self.decode(elem, Some(item), &p) {
                            let identity = self.schema.list_spec(d.base);
                            let old_items = d.old.flatten().and_then(Value::as_array);
                            di.old = super::equal::correlate(self.schema, elem, identity, item, old_items);
                            if !self.unchanged(elem, &di) {
                                self.run_list(inner, di, &p);
                            }
                        }
                    }
                }
                GoVal::Map(m) => {
                    let elem = match self.schema.kind(d.base) {
                        Kind::Map(_, e) => *e,
                        _ => return Vec::new(),
                    };
                    // each.go EachMapVal: values correlate with the old value under the same key.
                    let old_map = d.old.flatten().and_then(Value::as_object);
                    for (k, item) in m {
                        let p = path.key(k);
                        if let Some(mut di) = self.decode(elem, Some(item), &p) {
                            di.old = old_map.and_then(|o| o.get(k)).map(Some);
                            if !self.unchanged(elem, &di) {
                                self.run_list(inner, di, &p);
                            }
                        }
                    }
                }
                _ => {}
            },
            Check::EachKey(inner) => {
                if let (GoVal::Map(m), Kind::Map(key, _)) = (d.val, self.schema.kind(d.base)) {
                    let key = *key;
                    let old_map = d.old.flatten().and_then(Value::as_object);
                    for k in m.keys() {
                        // each.go EachMapKey: keys already in the old map are not revalidated.
                        if self.update && old_map.is_some_and(|o| o.contains_key(k)) {
                            continue;
                        }
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
            // immutable.go: every update that reaches here fails; ratcheting already let
            // unchanged values through.
            Check::Immutable if self.update => {
                return alloc::vec![Error::invalid(path, Value::Null, "field is immutable").with_origin("immutable")];
            }
            Check::Update(constraints) if self.update => return self.update_errors(constraints, d, path),
            // monotonic.go: only on update with both values present.
            Check::Monotonic if self.update => {
                let old = d.old.flatten().filter(|v| !v.is_null()).and_then(Value::as_i64);
                if let (Some(new), Some(old)) = (d.val.int(), old) {
                    if d.pointer_nil != Some(true) && new < i128::from(old) {
                        let msg = alloc::format!("may not be decreased from {old}");
                        let value = Value::from(new as i64);
                        return alloc::vec![Error::invalid(path, value, msg).with_origin("monotonic")];
                    }
                }
            }
            Check::Dependent { trigger, dependent, required } => {
                if let (GoVal::Struct(Some(obj)), Kind::Struct(fields)) = (d.val, self.schema.kind(d.base)) {
                    return self.dependent_errors(fields, obj, d.old, trigger, dependent, *required, path);
                }
            }
            Check::Cohort { validators, .. } => {
                self.run_list(validators, d, path);
            }
            Check::Item { criteria, validators } => {
                if let (GoVal::List(items), Kind::Slice(elem)) = (d.val, self.schema.kind(d.base)) {
                    let elem = *elem;
                    let matches = |item: &Value| {
                        criteria.iter().all(|(key, want)| match item.get(key) {
                            Some(v) => v == want,
                            None => {
                                matches!(want, Value::String(s) if s.is_empty())
                                    || *want == Value::Bool(false)
                                    || want.as_i64() == Some(0)
                            }
                        })
                    };
                    let Some((i, item)) = items.iter().enumerate().find(|(_, it)| matches(it)) else {
                        return Vec::new();
                    };
                    let old = d.old.flatten().and_then(Value::as_array).and_then(|o| o.iter().find(|it| matches(it)));
                    let p = path.index(i);
                    if let Some(mut di) = self.decode(elem, Some(item), &p) {
                        di.old = old.map(Some);
                        if !self.unchanged(elem, &di) {
                            self.run_list(validators, di, &p);
                        }
                    }
                }
            }
            Check::Modes { discriminator, field, rules } => {
                if let (GoVal::Struct(obj), Kind::Struct(fields)) = (d.val, self.schema.kind(d.base)) {
                    let Some(f) = member(self.schema, fields, field) else { return Vec::new() };
                    let get = |m: Option<&serde_json::Map<String, Value>>, k: &str| m.and_then(|m| m.get(k)).cloned();
                    let old_obj = d.old.flatten().and_then(Value::as_object);
                    // A string, bool (and, in 1.36's +k8s:discriminator, integer) value, as the
                    // tag's mode argument spells it.
                    let mode_of = |v: Option<Value>| match v {
                        Some(Value::String(s)) => s,
                        Some(v @ (Value::Bool(_) | Value::Number(_))) => v.to_string(),
                        _ => String::new(),
                    };
                    let mode = mode_of(get(obj, discriminator));
                    // discriminator.go: an update with the same mode and an equal value is skipped.
                    if self.update && d.old.is_some() {
                        let old_mode = mode_of(get(old_obj, discriminator));
                        let new_v = obj.and_then(|m| m.get(field));
                        let old_v = old_obj.and_then(|m| m.get(field));
                        if mode == old_mode && super::equal::go_equal(self.schema, f.ty, new_v, old_v) {
                            return Vec::new();
                        }
                    }
                    let p = path.child(field);
                    let json = obj.and_then(|m| m.get(field));
                    let Some(mut dm) = self.decode(f.ty, json, &p) else { return Vec::new() };
                    dm.old = d.old.map(|o| o.and_then(|v| v.get(field)));
                    match rules.iter().find(|r| r.0 == mode) {
                        Some((_, vals)) => {
                            let before = self.report.errors.len();
                            self.run_list(vals, dm, &p);
                            return self.report.errors.split_off(before);
                        }
                        // Not valid in this mode: implicitly forbidden.
                        None if !dm.val.is_unset(dm.pointer_nil) => {
                            return alloc::vec![Error::new(crate::field::ErrorType::Forbidden, &p, None, "")];
                        }
                        None => return Vec::new(),
                    }
                }
            }
            Check::ListUnion { union, criteria } => {
                if let GoVal::List(items) = d.val {
                    return self.list_union_errors(union, criteria, items, d.old, path);
                }
                if matches!(d.val, GoVal::Nil) {
                    return self.list_union_errors(union, criteria, &[], d.old, path);
                }
            }
            Check::Union(u) => {
                if let (GoVal::Struct(obj), Kind::Struct(fields)) = (d.val, self.schema.kind(d.base)) {
                    let fields: &'s [Field] = fields;
                    // union.go: with a nil old pointer (`hasOldValue` false) the union is
                    // checked even when its membership did not change.
                    let old = if d.old_pointer_nil() { None } else { d.old };
                    return self.union_errors(u, fields, obj, old, path);
                }
            }
            Check::Unique(given) => {
                if let (GoVal::List(items), Kind::Slice(elem)) = (d.val, self.schema.kind(d.base)) {
                    let elem = *elem;
                    let spec = given.as_ref().or_else(|| self.schema.list_spec(d.base));
                    return self.duplicates(elem, spec, items, path);
                }
            }
            Check::Subfield { json_name, validators, inherit } => {
                if let (GoVal::Struct(obj), Kind::Struct(fields)) = (d.val, self.schema.kind(d.base)) {
                    if let Some(member) = member(self.schema, fields, json_name) {
                        let json = obj.and_then(|m| m.get(json_name));
                        let p = path.child(json_name);
                        if let Some(mut ds) = self.decode(member.ty, json, &p) {
                            // subfield.go: the old struct's subfield is the old value; an
                            // unchanged subfield is not revalidated, unless the old struct
                            // is a nil pointer.
                            ds.old = d.old.map(|o| o.and_then(|v| v.get(json_name.as_str())));
                            if d.old_pointer_nil() || !self.unchanged(member.ty, &ds) {
                                self.subfield_cohort(validators, *inherit, member, ds, &p, d.base);
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

impl<'s> Walker<'s> {
    /// A subfield's cohort (subfield.go `GetValidations`, validation.go `sortIntoCohorts`): its
    /// own short-circuits first (their errors reported), then the member's own short-circuits
    /// (`extractMemberShortCircuits`: NonError, their errors left to the member's type
    /// function), and the rest only when none of them fired. A `+k8s:opaqueType` field or
    /// type inherits none.
    fn subfield_cohort(
        &mut self,
        validators: &'s [Validator],
        inherit: bool,
        member: &'s Field,
        ds: Decoded<'_>,
        path: &Path<'_>,
        parent: TypeId,
    ) {
        let (own, rest) = validators.split_at(validators.iter().take_while(|v| v.short_circuit).count());
        let fired = !self.run_list(own, ds, path);
        let inherit = inherit && !self.schema.types[parent].opaque;
        let inherited = inherit
            && member.validations.iter().filter(|v| v.short_circuit).any(|v| !self.run_one(v, ds, path).is_empty());
        if !fired && !inherited {
            self.run_list(rest, ds, path);
        }
    }
}

/// The field with JSON name `json`, looking into inline embedded structs (to a bounded depth:
/// self-embedding is refused at compile time, but lookups must not trust that).
pub(crate) fn member<'s>(schema: &'s Schema, fields: &'s [Field], json: &str) -> Option<&'s Field> {
    member_via(schema, fields, json).map(|(f, _)| f)
}

/// [`member`], with the Go names of the embedded fields it was promoted through (outermost
/// first), as encoding/json's error context names them (`ProbeHandler.exec`).
pub(crate) fn member_via<'s>(
    schema: &'s Schema,
    fields: &'s [Field],
    json: &str,
) -> Option<(&'s Field, alloc::vec::Vec<&'s str>)> {
    fn find<'s>(
        schema: &'s Schema,
        fields: &'s [Field],
        json: &str,
        depth: usize,
        via: &mut alloc::vec::Vec<&'s str>,
    ) -> Option<&'s Field> {
        for f in fields {
            if f.inline {
                if let (Kind::Struct(inner), true) = (schema.kind(schema.deref(f.ty).0), depth < 16) {
                    via.push(&f.go_name);
                    if let Some(found) = find(schema, inner, json, depth + 1, via) {
                        return Some(found);
                    }
                    via.pop();
                }
            } else if f.json_name == json {
                return Some(f);
            }
        }
        None
    }
    let mut via = alloc::vec::Vec::new();
    find(schema, fields, json, 0, &mut via).map(|f| (f, via))
}

impl Walker<'_> {
    /// dependent.go DependentRequired / DependentForbidden: set means non-nil, non-empty or
    /// non-zero; on update nothing is checked unless a set-ness changed.
    #[allow(clippy::too_many_arguments)]
    fn dependent_errors(
        &self,
        fields: &[Field],
        obj: &serde_json::Map<String, Value>,
        old: Option<Option<&Value>>,
        trigger: &str,
        dependent: &str,
        required: bool,
        path: &Path<'_>,
    ) -> Vec<Error> {
        let is_set = |m: Option<&serde_json::Map<String, Value>>, name: &str| {
            member(self.schema, fields, name)
                .is_some_and(|f| !super::equal::go_equal(self.schema, f.ty, m.and_then(|m| m.get(name)), None))
        };
        let (t, dep) = (is_set(Some(obj), trigger), is_set(Some(obj), dependent));
        if self.update {
            if let Some(old_obj) = old.flatten().and_then(Value::as_object) {
                if is_set(Some(old_obj), trigger) == t && is_set(Some(old_obj), dependent) == dep {
                    return Vec::new();
                }
            }
        }
        let (kind, verb, origin) = match (t, dep, required) {
            (true, false, true) => (crate::field::ErrorType::Required, "must", "dependentRequired"),
            (true, true, false) => (crate::field::ErrorType::Forbidden, "may not", "dependentForbidden"),
            _ => return Vec::new(),
        };
        let detail = alloc::format!("{verb} be set when {trigger} is set");
        alloc::vec![Error::new(kind, &path.child(dependent), None, detail).with_origin(origin)]
    }

    /// update.go: NoSet / NoUnset / NoModify by kind, NoAddItem / NoRemoveItem by item
    /// identity (list keys, set values, map keys).
    fn update_errors(&self, constraints: &[UpdateConstraint], d: Decoded<'_>, path: &Path<'_>) -> Vec<Error> {
        let mut errs = Vec::new();
        let invalid = |msg: &str| Error::invalid(path, Value::Null, msg).with_origin("update");
        let old = d.old.flatten().filter(|v| !v.is_null());
        let kind = self.schema.kind(d.base);
        let pointer = d.pointer_nil.is_some();
        // What "set" means per kind: a non-nil pointer; a non-empty list or map; a non-zero value.
        let new_set = !d.val.is_unset(d.pointer_nil);
        let old_set = match (pointer, kind) {
            (true, _) => old.is_some(),
            (_, Kind::Slice(_)) => old.and_then(Value::as_array).is_some_and(|a| !a.is_empty()),
            (_, Kind::Map(..)) => old.and_then(Value::as_object).is_some_and(|m| !m.is_empty()),
            _ => !super::equal::go_equal(self.schema, d.base, old, None),
        };
        // Value and struct constraints only apply with a correlated old value (update.go
        // returns early when oldValue is nil); pointers and collections treat it as unset.
        let correlated = d.old.is_some();
        let by_value = !pointer && !matches!(kind, Kind::Slice(_) | Kind::Map(..));
        if by_value && !correlated {
            return errs;
        }
        let is_struct = matches!(kind, Kind::Struct(_)) && !pointer;
        for c in constraints {
            match c {
                UpdateConstraint::NoSet if !is_struct && !old_set && new_set => {
                    errs.push(invalid("field cannot be set once created"))
                }
                UpdateConstraint::NoUnset if !is_struct && old_set && !new_set => {
                    errs.push(invalid("field cannot be cleared once set"))
                }
                UpdateConstraint::NoModify if is_struct || (old_set && new_set) => {
                    errs.push(invalid("field cannot be modified once set"))
                }
                UpdateConstraint::NoAddItem | UpdateConstraint::NoRemoveItem => {
                    errs.extend(self.item_changes(*c, d, old, path));
                }
                _ => {}
            }
        }
        errs
    }

    fn item_changes(&self, c: UpdateConstraint, d: Decoded<'_>, old: Option<&Value>, path: &Path<'_>) -> Vec<Error> {
        let forbidden = |p: &Path<'_>, msg: &str| {
            Error::new(crate::field::ErrorType::Forbidden, p, None, msg).with_origin("update")
        };
        let mut errs = Vec::new();
        match (self.schema.kind(d.base), d.val) {
            (Kind::Map(..), new) => {
                let empty = serde_json::Map::new();
                let new = match new {
                    GoVal::Map(m) => m,
                    _ => &empty,
                };
                let old = old.and_then(Value::as_object).unwrap_or(&empty);
                if c == UpdateConstraint::NoAddItem {
                    for k in new.keys().filter(|k| !old.contains_key(*k)) {
                        errs.push(forbidden(&path.key(k), "item may not be added"));
                    }
                } else {
                    for k in old.keys().filter(|k| !new.contains_key(*k)) {
                        errs.push(forbidden(&path.key(k), "item may not be removed"));
                    }
                }
            }
            (Kind::Slice(elem), new) => {
                let Some(spec) = self.schema.list_spec(d.base) else {
                    let msg = "NoAddItem/NoRemoveItem require a non-nil match function";
                    return alloc::vec![Error::new(crate::field::ErrorType::Internal, path, None, msg)];
                };
                let new: &[Value] = match new {
                    GoVal::List(items) => items,
                    _ => &[],
                };
                let old: &[Value] = old.and_then(Value::as_array).map_or(&[], Vec::as_slice);
                let same = |a: &Value, b: &Value| super::equal::same_item(self.schema, *elem, spec, a, b);
                // update.go PtrSliceUpdate: nil items of a list of pointers are skipped on both
                // sides (PtrSliceNoNils reports them).
                let pointers = matches!(self.schema.kind(*elem), Kind::Pointer(_));
                let present = |v: &&Value| !(pointers && v.is_null());
                if c == UpdateConstraint::NoAddItem {
                    for (i, item) in new.iter().enumerate().filter(|(_, v)| present(v)) {
                        if !old.iter().filter(present).any(|o| same(item, o)) {
                            errs.push(forbidden(&path.index(i), "item may not be added"));
                        }
                    }
                } else {
                    for item in old.iter().filter(present) {
                        if !new.iter().filter(present).any(|n| same(item, n)) {
                            errs.push(forbidden(path, "item may not be removed"));
                        }
                    }
                }
            }
            _ => {}
        }
        errs
    }

    /// union.go / zeroorone.go.
    fn union_errors(
        &self,
        u: &Union,
        fields: &[Field],
        obj: Option<&serde_json::Map<String, Value>>,
        old: Option<Option<&Value>>,
        path: &Path<'_>,
    ) -> Vec<Error> {
        fn get<'v>(m: Option<&'v serde_json::Map<String, Value>>, name: &str) -> Option<&'v Value> {
            m.and_then(|m| m.get(name))
        }
        let old_obj = old.flatten().and_then(Value::as_object);
        let is_set = |m: Option<&serde_json::Map<String, Value>>, name: &str| {
            member(self.schema, fields, name)
                .is_some_and(|f| !super::equal::go_equal(self.schema, f.ty, get(m, name), None))
        };
        let discriminator = |m: Option<&serde_json::Map<String, Value>>| {
            u.discriminator.as_deref().and_then(|d| get(m, d)).and_then(Value::as_str).unwrap_or("").to_string()
        };
        // On update, an unchanged union (same discriminator, same members set) is not rechecked.
        if self.update {
            let mut changed = u.discriminator.is_some() && discriminator(obj) != discriminator(old_obj);
            changed |= u.members.iter().any(|(name, _)| is_set(obj, name) != is_set(old_obj, name));
            if old.is_some() && !changed {
                return Vec::new();
            }
        }
        let mut errs = Vec::new();
        if let Some(disc) = &u.discriminator {
            let value = discriminator(obj);
            for (name, member_value) in &u.members {
                let set = is_set(obj, name);
                let chosen = value == *member_value;
                let p = path.child(name);
                if set && !chosen {
                    let detail = format!("may only be specified when `{disc}` is {}", go_quote(member_value));
                    errs.push(Error::invalid(&p, "", detail).with_origin("union"));
                } else if !set && chosen {
                    let detail = format!("must be specified when `{disc}` is {}", go_quote(&value));
                    errs.push(Error::invalid(&p, "", detail).with_origin("union"));
                }
            }
            return errs;
        }
        let set: Vec<bool> = u.members.iter().map(|(n, _)| is_set(obj, n)).collect();
        undiscriminated(u, &set, path)
    }

    /// A union of list items (validation-gen item.go + union.go): member `i` is set when an
    /// item matches its criteria; unchanged on update means not rechecked.
    fn list_union_errors(
        &self,
        u: &Union,
        criteria: &[Criteria],
        items: &[Value],
        old: Option<Option<&Value>>,
        path: &Path<'_>,
    ) -> Vec<Error> {
        let matches = |item: &Value, c: &[(String, Value)]| c.iter().all(|(k, v)| item.get(k) == Some(v));
        let set =
            |list: &[Value]| -> Vec<bool> { criteria.iter().map(|c| list.iter().any(|i| matches(i, c))).collect() };
        let now = set(items);
        if self.update {
            if let Some(old) = old {
                let old_items: &[Value] = old.and_then(Value::as_array).map_or(&[], Vec::as_slice);
                if set(old_items) == now {
                    return Vec::new();
                }
            }
        }
        undiscriminated(u, &now, path)
    }

    /// each.go ValSliceUnique: a Duplicate error at every later index of a repeated item.
    fn duplicates(&self, elem: TypeId, spec: Option<&ListSpec>, items: &[Value], path: &Path<'_>) -> Vec<Error> {
        let Some(spec) = spec else { return Vec::new() };
        let mut dups: Vec<usize> = Vec::new();
        for i in 0..items.len() {
            if dups.contains(&i) {
                continue;
            }
            for j in i + 1..items.len() {
                if !dups.contains(&j) && super::equal::same_item(self.schema, elem, spec, &items[i], &items[j]) {
                    dups.push(j);
                }
            }
        }
        crate::sort::sort_by(&mut dups, |a, b| a.cmp(b));
        dups.into_iter()
            .map(|j| {
                let mut e = Error::new(crate::field::ErrorType::Duplicate, &path.index(j), Some(items[j].clone()), "");
                if matches!(self.schema.kind(self.schema.deref(elem).0), Kind::Struct(_)) {
                    e.rendered_value = Some(super::marshal::go_json(self.schema, elem, Some(&items[j])));
                }
                e
            })
            .collect()
    }
}

/// union.go / zeroorone.go for unions without a discriminator: none set (unless zero-or-one)
/// or several set is an error at the union's path.
fn undiscriminated(u: &Union, set: &[bool], path: &Path<'_>) -> Vec<Error> {
    let names: Vec<String> = u.members.iter().map(|(n, _)| format!("`{n}`")).collect();
    let specified: Vec<&str> = u.members.iter().zip(set).filter(|(_, s)| **s).map(|((n, _), _)| n.as_str()).collect();
    let (origin, multiple) = if u.zero_or_one {
        ("zeroOrOneOf", "must specify at most one of")
    } else {
        ("union", "must specify exactly one of")
    };
    let mut errs = Vec::new();
    if specified.len() > 1 {
        let value = format!("{{{}}}", specified.join(", "));
        errs.push(Error::invalid(path, value, format!("{multiple}: {}", names.join(", "))).with_origin(origin));
    }
    if specified.is_empty() && !u.zero_or_one {
        errs.push(Error::invalid(path, "", format!("must specify one of: {}", names.join(", "))).with_origin(origin));
    }
    errs
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
pub(crate) fn base64_len(s: &str) -> Option<usize> {
    let body = s.trim_end_matches('=');
    if s.len() % 4 != 0 || s.len() - body.len() > 2 {
        return None;
    }
    if !body.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/') {
        return None;
    }
    Some(body.len() * 3 / 4)
}
