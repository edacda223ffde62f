//! `+default` markers: read from a field's comments, and applied to an object before it is
//! validated, as the API server decodes a request (its generated `SetObjectDefaults_` functions,
//! code-generator `cmd/defaulter-gen/generators/defaulter.go`) before it validates it.
//!
//! What is applied, as defaulter-gen's generated code applies it:
//! - a field of a scalar kind (string, integer, float, bool) is given its default when it is
//!   absent, `null` or its zero value (`if in.F == "" { in.F = "x" }`; a zero default emits
//!   nothing, which changes nothing here either);
//! - a pointer, list, map or `[]byte` field only when it is absent or `null` (`if in.F == nil`:
//!   an explicit `[]` or `{}` stays);
//! - the walk then enters the field (a default value gets its own fields' defaults), every item
//!   of a list, and non-nil pointers, but not map values (defaulter-gen emits only the marker of
//!   a map's element type, never calls into it), and it stops at a struct type already being
//!   walked (`currentlyBuildingTypes`).
//!
//! Not modelled: handwritten `SetDefaults_` functions (kubedv cannot read Go code), type-level
//! markers (`type Item *string` with `+default`, used only through pointers and list elements),
//! and Go's case-insensitive match of a default's JSON keys.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{Map, Value};

use super::schema::{Field, Kind, Schema, TypeId};
use crate::golang::{Comment, ConstDecl, Pos};

/// A field's `+default=` marker (gengo `ExtractCommentTags("+", ...)["default"]`): its value as
/// JSON, or `ref(Name)` of a string constant of the file; `Err` with what defaulter-gen refuses.
pub(crate) fn marker(comments: &[Comment], consts: &[ConstDecl]) -> Result<Option<Value>, (Pos, String)> {
    let mut found: Option<(&str, Pos)> = None;
    for c in comments {
        let Some(text) = c.text.trim().strip_prefix("+default=") else { continue };
        if found.is_some() {
            return Err((c.pos, String::from("+default: more than one default tag")));
        }
        found = Some((text, c.pos));
    }
    let Some((text, pos)) = found.filter(|f| !f.0.is_empty()) else { return Ok(None) };
    if let Some(name) = text.strip_prefix("ref(").and_then(|r| r.strip_suffix(')')) {
        return match consts.iter().find(|k| k.name == name).and_then(|k| k.string_value.as_ref()) {
            Some(v) => Ok(Some(Value::String(v.clone()))),
            None => Err((pos, format!("+default=ref({name}): no string constant {name} in this file"))),
        };
    }
    match serde_json::from_str(text) {
        Ok(v) => Ok(Some(v)),
        Err(e) => Err((pos, format!("+default: failed to unmarshal default: {e}"))),
    }
}

/// A walk deeper than this stops applying defaults (validation refuses such nesting anyway).
const MAX_DEPTH: usize = 64;

impl Schema {
    /// `object` with the `+default` values reachable from `root` applied, or `None` when the
    /// type has no defaults to apply.
    pub(crate) fn defaulted(&self, root: TypeId, object: &Value) -> Option<Value> {
        if !self.defaulted.get(root).copied().unwrap_or(false) {
            return None;
        }
        let mut copy = object.clone();
        self.fill(root, &mut copy, &mut Vec::new(), 0);
        Some(copy)
    }

    /// `walking`: the struct types being walked (defaulter-gen's `currentlyBuildingTypes`).
    fn fill(&self, ty: TypeId, value: &mut Value, walking: &mut Vec<TypeId>, depth: usize) {
        let (base, _) = self.deref(ty);
        if !self.defaulted[base] || depth > MAX_DEPTH {
            return;
        }
        match (self.kind(base), value) {
            (Kind::Struct(fields), Value::Object(obj)) if !walking.contains(&base) => {
                walking.push(base);
                self.fill_fields(fields, obj, walking, depth + 1);
                walking.pop();
            }
            (Kind::Slice(elem), Value::Array(items)) => {
                for item in items {
                    self.fill(*elem, item, walking, depth + 1);
                }
            }
            _ => {}
        }
    }

    fn fill_fields(&self, fields: &[Field], obj: &mut Map<String, Value>, walking: &mut Vec<TypeId>, depth: usize) {
        for f in fields {
            if f.inline {
                // Promoted fields live in the same JSON object.
                let base = self.deref(f.ty).0;
                if let (Kind::Struct(inner), false) = (self.kind(base), walking.contains(&base) || depth > MAX_DEPTH) {
                    walking.push(base);
                    self.fill_fields(inner, obj, walking, depth + 1);
                    walking.pop();
                }
                continue;
            }
            if let Some(default) = &f.default {
                let unset = match obj.get(&f.json_name) {
                    None | Some(Value::Null) => true,
                    Some(v) => self.is_zero_scalar(f.ty, v),
                };
                if unset && self.defaultable(f.ty) {
                    obj.insert(f.json_name.clone(), default.clone());
                }
            }
            if let Some(child) = obj.get_mut(&f.json_name) {
                self.fill(f.ty, child, walking, depth);
            }
        }
    }

    /// Whether defaulter-gen can default a field of this type: a nil test (pointer, list, map)
    /// or a zero test (scalar). A struct value cannot be compared with nil: no code compiles.
    fn defaultable(&self, ty: TypeId) -> bool {
        !matches!(self.kind(ty), Kind::Struct(_) | Kind::Opaque)
    }

    /// A scalar field's zero value (`""`, `0`, `false`), which defaulter-gen replaces.
    fn is_zero_scalar(&self, ty: TypeId, v: &Value) -> bool {
        match (self.kind(ty), v) {
            (Kind::String, Value::String(s)) => s.is_empty(),
            (Kind::Bool, Value::Bool(b)) => !b,
            (Kind::Int { .. } | Kind::Float, Value::Number(n)) => n.as_f64() == Some(0.0),
            _ => false,
        }
    }

    /// Computes [`Schema::defaulted`]: the types through which a `+default` can be reached (a
    /// fixpoint, as types may refer to each other in cycles). Map values are not entered.
    pub(crate) fn mark_defaulted(&mut self) {
        let mut d = alloc::vec![false; self.types.len()];
        loop {
            let mut changed = false;
            for (i, t) in self.types.iter().enumerate() {
                let reach = match &t.kind {
                    Kind::Pointer(a) | Kind::Slice(a) | Kind::Alias(a) => d[*a],
                    Kind::Struct(fields) => fields.iter().any(|f| f.default.is_some() || d[f.ty]),
                    _ => false,
                };
                if reach && !d[i] {
                    d[i] = true;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        self.defaulted = d;
    }
}

/// validation-gen's `+k8s:optional` on a field with a `+default` (validators/required.go
/// `doOptional`, `hasZeroDefault`): "optional fields with default values are effectively
/// required" — Required in place of Optional — except a scalar whose default is its zero value,
/// where nothing is emitted ("purely documentation"). Wrapped (`+k8s:beta=+k8s:optional`) alike.
/// `Err`: what validation-gen refuses (a `ref()` default it cannot parse, `null`).
pub(crate) fn optional_with_default(
    schema: &Schema,
    validators: &mut Vec<super::validators::Validator>,
    ty: TypeId,
    comments: &[Comment],
    default: &Value,
) -> Result<(), String> {
    use super::validators::Check;
    let is_optional =
        |v: &super::validators::Validator| matches!(v.check, Check::Optional) && v.sort_key == "k8s:optional";
    if !validators.iter().any(is_optional) {
        return Ok(());
    }
    if comments.iter().any(|c| c.text.trim().starts_with("+default=ref(")) {
        return Err(String::from("+k8s:optional: failed to parse default value: a ref() default is not supported"));
    }
    let zero = match (schema.kind(ty), default) {
        (_, Value::Null) => return Err(String::from("+k8s:optional: default value unmarshalled to nil")),
        (Kind::String, Value::String(s)) => s.is_empty(),
        (Kind::Bool, Value::Bool(b)) => !b,
        (Kind::Int { .. } | Kind::Float, Value::Number(n)) => n.as_f64() == Some(0.0),
        _ => false,
    };
    if zero {
        validators.retain(|v| !is_optional(v));
    } else {
        for v in validators.iter_mut().filter(|v| is_optional(v)) {
            v.check = Check::Required;
            v.non_error = false;
        }
    }
    Ok(())
}
