//! From Go declarations to a [`Schema`]: resolves type names, reads struct fields as JSON sees
//! them, and compiles each `+k8s:` tag into validators, checking that it fits where it is
//! written (the kind of field, its arguments and payload) in the spirit of validation-gen's
//! generation errors.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::catalog::{self, Scope};
use super::schema::{Field, Kind, ListSpec, Schema, TypeId, TypeNode};
use super::validators::{Check, Criteria, EnumExclusion, Literal, Union, UpdateConstraint, Validator};
use crate::diag::{Diagnostic, Pos};
use crate::field::Stability;
use crate::format::Format;
use crate::golang::{self, Comment, File, StructTag, TypeExpr};
use crate::tags::{self, Payload, Tag, ValueKind};

/// How deeply wrapper tags may nest (`+k8s:alpha=+k8s:eachVal=+k8s:ifEnabled(X)=...`).
const MAX_TAG_DEPTH: usize = 16;

/// Another package's source that an import of the compiled file resolves to.
#[derive(Clone, Copy, Debug)]
pub struct Dependency<'a> {
    /// The import path (`k8s.io/api/core/v1`).
    pub import_path: &'a str,
    /// How diagnostics name the source (a file path).
    pub label: &'a str,
    /// The Go source.
    pub text: &'a str,
}

/// Which of `imports` the Go file at `path` (a file system path) provides: the import path
/// whose last elements are the file's directories (`…/api/core/v1/types.go` provides
/// `k8s.io/api/core/v1`), with at least two elements agreeing (or the whole import path), the
/// longest agreement winning.
pub fn import_provided_by<'i>(imports: &[&'i str], path: &str) -> Option<&'i str> {
    let dirs: Vec<&str> = path.split(['/', '\\']).filter(|d| !d.is_empty() && *d != ".").collect();
    let dirs = &dirs[..dirs.len().saturating_sub(1)];
    imports
        .iter()
        .filter_map(|import| {
            let elems: Vec<&str> = import.split('/').collect();
            let agree = elems.iter().rev().zip(dirs.iter().rev()).take_while(|(a, b)| a == b).count();
            (agree >= 2 || (agree >= 1 && agree == elems.len())).then_some((agree, *import))
        })
        .max_by_key(|(agree, _)| *agree)
        .map(|(_, import)| import)
}

pub(crate) fn compile(src: &str, deps: &[Dependency<'_>], minor: u32) -> Schema {
    let (file, diags) = golang::parse_file(src);
    let mut schema = Schema::empty();
    schema.diagnostics = diags;
    schema.package = file.package.clone();
    let mut parsed = alloc::vec![(file, String::new(), String::new())];
    for d in deps {
        let (f, diags) = golang::parse_file(d.text);
        schema.diagnostics.extend(diags.into_iter().map(|x| in_file(x, d.label)));
        parsed.push((f, d.import_path.into(), d.label.into()));
    }
    // The apimachinery shapes kubedv knows, for imports no dependency answers.
    let answered: Vec<String> = parsed.iter().map(|p| p.1.clone()).collect();
    for (path, text) in super::prelude::packages(minor) {
        if !answered.iter().any(|a| a == path) {
            parsed.push((golang::parse_file(&text).0, path.into(), String::new()));
        }
    }
    let packages: Vec<Package<'_>> = parsed
        .iter()
        .map(|(file, path, label)| Package { file, path, label, names: Vec::new(), imports_checked: false })
        .collect();
    let mut c = Compiler { schema, file: packages[0].file, packages, cur: 0 };
    c.each_package(Compiler::declare_types);
    c.each_package(Compiler::resolve_declared);
    c.each_package(Compiler::check_recursive_embedding);
    c.each_package(Compiler::compile_type_tags);
    c.schema.declared = core::mem::take(&mut c.packages[0].names);
    c.find_roots();
    c.schema.mark_validated();
    crate::sort::sort_by_key(&mut c.schema.diagnostics, |d| (d.file.is_some(), d.line, d.column));
    c.schema
}

fn in_file(mut d: Diagnostic, label: &str) -> Diagnostic {
    d.file = Some(label.into());
    d
}

impl Schema {
    fn empty() -> Schema {
        Schema {
            types: Vec::new(),
            declared: Vec::new(),
            roots: Vec::new(),
            options: Vec::new(),
            validated: Vec::new(),
            diagnostics: Vec::new(),
            package: String::new(),
            subresources: Vec::new(),
        }
    }
}

struct Compiler<'f> {
    schema: Schema,
    /// The file of the package being compiled.
    file: &'f File,
    /// The compiled file's package first, then its dependencies and the prelude.
    packages: Vec<Package<'f>>,
    /// The index of the package being compiled.
    cur: usize,
}

/// One Go package of the compilation.
struct Package<'f> {
    file: &'f File,
    /// Its import path (empty for the compiled file's own package).
    path: &'f str,
    /// How its diagnostics name it (empty: the main input, or the prelude).
    label: &'f str,
    /// Its declared types.
    names: Vec<(String, TypeId)>,
    /// Whether the "not imported" warning was given.
    imports_checked: bool,
}

/// Where a tag is being compiled.
#[derive(Clone, Copy)]
struct Site<'a> {
    scope: Scope,
    /// The type the tag applies to.
    ty: TypeId,
    /// How to name the target in messages (`field Spec.Replicas`, `type Phase`).
    what: &'a str,
    stability: Stability,
    depth: usize,
}

impl Compiler<'_> {
    /// Runs a compilation step on each package in turn; diagnostics in another package's file
    /// name that file.
    fn each_package(&mut self, step: fn(&mut Self)) {
        for p in 0..self.packages.len() {
            self.cur = p;
            self.file = self.packages[p].file;
            let before = self.schema.diagnostics.len();
            step(self);
            let label = self.packages[p].label;
            if p > 0 {
                let new = self.schema.diagnostics.split_off(before);
                // The prelude is kubedv's own; only a given dependency's problems are reported.
                if !label.is_empty() {
                    self.schema.diagnostics.extend(new.into_iter().map(|d| in_file(d, label)));
                }
            }
        }
        self.cur = 0;
        self.file = self.packages[0].file;
    }

    /// The id of a type declared in the package being compiled.
    fn local(&self, name: &str) -> Option<TypeId> {
        self.packages[self.cur].names.iter().find(|(n, _)| n == name).map(|(_, id)| *id)
    }

    fn add(&mut self, name: String, kind: Kind) -> TypeId {
        self.schema.types.push(TypeNode { name, kind, validations: Vec::new(), list: None });
        self.schema.types.len() - 1
    }

    fn error(&mut self, pos: Pos, message: String) {
        self.schema.diagnostics.push(Diagnostic::error(pos, message));
    }

    fn declare_types(&mut self) {
        for decl in &self.file.types {
            if self.local(&decl.name).is_some() {
                self.error(decl.pos, format!("type {} is declared twice", decl.name));
                continue;
            }
            let id = self.add(self.qualified(&decl.name), Kind::Pending);
            self.packages[self.cur].names.push((decl.name.clone(), id));
        }
    }

    fn resolve_declared(&mut self) {
        for i in 0..self.file.types.len() {
            let decl = &self.file.types[i];
            let Some(id) = self.local(&decl.name) else { continue };
            if !matches!(self.schema.types[id].kind, Kind::Pending) {
                continue;
            }
            let kind = match &decl.ty {
                // `type A B`: B's underlying type, not B's type-level validations.
                TypeExpr::Named { package: None, name, pos } => match self.local(name) {
                    Some(target) => Kind::Alias(target),
                    None => self.builtin(name).unwrap_or_else(|| {
                        self.error(*pos, format!("undefined type {name}"));
                        Kind::Opaque
                    }),
                },
                // `type A pkg.B`, B perhaps not resolved yet.
                named @ TypeExpr::Named { .. } => {
                    let target = self.resolve(named, false);
                    match self.schema.types[target].kind {
                        Kind::Opaque => Kind::Opaque,
                        _ => Kind::Alias(target),
                    }
                }
                other => {
                    let resolved = self.resolve(other, false);
                    self.schema.types[resolved].kind.clone()
                }
            };
            self.schema.types[id].kind = kind;
        }
        // Alias and pointer cycles (`type A B; type B A`, `type P *P`) hold no value and would
        // make lookups loop.
        for (name, id) in self.packages[self.cur].names.clone() {
            let mut at = id;
            for _ in 0..=self.schema.types.len() {
                match self.schema.types[at].kind {
                    Kind::Alias(next) | Kind::Pointer(next) if next == id => {
                        let pos = self.decl_pos(&name);
                        self.error(pos, format!("type {name} is defined in terms of itself"));
                        self.schema.types[id].kind = Kind::Opaque;
                        break;
                    }
                    Kind::Alias(next) | Kind::Pointer(next) => at = next,
                    _ => break,
                }
            }
        }
    }

    /// Go rejects a struct that contains itself by value (`invalid recursive type`): its zero
    /// value would be infinite. Only pointers, slices and maps may lead back to a type.
    fn check_recursive_embedding(&mut self) {
        for (name, id) in self.packages[self.cur].names.clone() {
            let mut stack = alloc::vec![id];
            let mut seen = alloc::vec![false; self.schema.types.len()];
            let mut cyclic = false;
            while let Some(at) = stack.pop() {
                let Kind::Struct(fields) = self.schema.kind(at) else { continue };
                for f in fields {
                    let target = self.unalias(f.ty);
                    if !matches!(self.schema.types[target].kind, Kind::Struct(_)) {
                        continue;
                    }
                    if target == id {
                        cyclic = true;
                    } else if !seen[target] {
                        seen[target] = true;
                        stack.push(target);
                    }
                }
            }
            if cyclic {
                let pos = self.decl_pos(&name);
                self.error(
                    pos,
                    format!("invalid recursive type {name}: it contains itself (use a pointer, slice or map)"),
                );
                self.schema.types[id].kind = Kind::Opaque;
            }
        }
    }

    /// Follows `type A B` aliases to the type that has the kind.
    fn unalias(&self, mut id: TypeId) -> TypeId {
        for _ in 0..=self.schema.types.len() {
            match self.schema.types[id].kind {
                Kind::Alias(next) => id = next,
                _ => break,
            }
        }
        id
    }

    fn decl_pos(&self, name: &str) -> Pos {
        self.file.types.iter().find(|d| d.name == name).map_or_else(Pos::default, |d| d.pos)
    }

    fn builtin(&self, name: &str) -> Option<Kind> {
        let int = |min: i128, max: i128| Some(Kind::Int { min, max });
        match name {
            "string" => Some(Kind::String),
            "bool" => Some(Kind::Bool),
            "int" | "int64" => int(i64::MIN as i128, i64::MAX as i128),
            "int32" | "rune" => int(i32::MIN as i128, i32::MAX as i128),
            "int16" => int(i16::MIN as i128, i16::MAX as i128),
            "int8" => int(i8::MIN as i128, i8::MAX as i128),
            "uint" | "uint64" | "uintptr" => int(0, u64::MAX as i128),
            "uint32" => int(0, u32::MAX as i128),
            "uint16" => int(0, u16::MAX as i128),
            "uint8" | "byte" => int(0, u8::MAX as i128),
            "float32" | "float64" => Some(Kind::Float),
            "any" | "error" | "complex64" | "complex128" => Some(Kind::Opaque),
            _ => None,
        }
    }

    /// The id of a type expression, adding anonymous types as needed. `opaque_ok`: the field
    /// is `+k8s:opaqueType`, so unknown external types are fine.
    fn resolve(&mut self, ty: &TypeExpr, opaque_ok: bool) -> TypeId {
        match ty {
            TypeExpr::Named { package: None, name, pos } => {
                if let Some(id) = self.local(name) {
                    return id;
                }
                match self.builtin(name) {
                    Some(kind) => self.add(name.clone(), kind),
                    None => {
                        self.error(*pos, format!("undefined type {name}: declare it in this file"));
                        self.add(name.clone(), Kind::Opaque)
                    }
                }
            }
            TypeExpr::Named { package: Some(pkg), name, pos } => {
                let path = self.file.imports.iter().find(|i| &i.name == pkg).map(|i| i.path.as_str());
                let display = format!("{pkg}.{name}");
                if let Some(id) = path.and_then(|p| self.imported(p, name)) {
                    return id;
                }
                if let Some(kind) = path.and_then(|p| self.well_known(p, name)) {
                    return self.add(display, kind);
                }
                if path.is_none() && !self.packages[self.cur].imports_checked {
                    self.packages[self.cur].imports_checked = true;
                    self.schema.diagnostics.push(Diagnostic::warning(
                        *pos,
                        format!("package {pkg} is not imported; types from other packages are treated as unknown"),
                    ));
                }
                let given = path.is_some_and(|p| self.packages.iter().skip(1).any(|g| g.path == p));
                if given {
                    let path = path.unwrap_or_default();
                    self.error(*pos, format!("undefined type {display}: package {path} declares no type {name}"));
                } else if !opaque_ok {
                    let from = path.map_or_else(|| format!("package {pkg}"), |p| format!("package {p}"));
                    self.error(
                        *pos,
                        format!(
                            "type {display} is from {from}, whose source was not given: give that package's types too, or mark the field +k8s:opaqueType to skip its validation (as validation-gen requires)"
                        ),
                    );
                }
                self.add(display, Kind::Opaque)
            }
            TypeExpr::Pointer(inner) => {
                let t = self.resolve(inner, opaque_ok);
                let name = format!("*{}", self.schema.types[t].name);
                self.add(name, Kind::Pointer(t))
            }
            TypeExpr::Slice(inner) => {
                let t = self.resolve(inner, opaque_ok);
                let elem_name = self.schema.types[t].name.clone();
                if matches!(self.schema.types[t].kind, Kind::Int { max: 255, min: 0 }) && elem_name == "byte" {
                    return self.add("[]byte".into(), Kind::Bytes);
                }
                self.add(format!("[]{elem_name}"), Kind::Slice(t))
            }
            // Arrays decode from JSON arrays (byte arrays from base64 strings); validation-gen
            // attaches no validations to them.
            TypeExpr::Array(inner) => {
                let t = self.resolve(inner, opaque_ok);
                let name = format!("[N]{}", self.schema.types[t].name);
                self.add(name, Kind::Opaque)
            }
            TypeExpr::Map(k, v) => {
                let kt = self.resolve(k, opaque_ok);
                let vt = self.resolve(v, opaque_ok);
                let name = format!("map[{}]{}", self.schema.types[kt].name, self.schema.types[vt].name);
                self.add(name, Kind::Map(kt, vt))
            }
            TypeExpr::Struct(fields) => {
                let id = self.add("struct{...}".into(), Kind::Pending);
                let resolved = self.struct_fields(fields);
                self.schema.types[id].kind = Kind::Struct(resolved);
                id
            }
            TypeExpr::Opaque { what, .. } => self.add((*what).into(), Kind::Opaque),
        }
    }

    /// A type declared by the package an import path resolves to.
    fn imported(&self, path: &str, name: &str) -> Option<TypeId> {
        let p = self.packages.iter().skip(1).find(|p| p.path == path)?;
        p.names.iter().find(|(n, _)| n == name).map(|(_, id)| *id)
    }

    /// How messages name a declared type: bare in the compiled file's package, qualified by
    /// the package name elsewhere (`v1.PodSpec`).
    fn qualified(&self, name: &str) -> String {
        match self.cur {
            0 => name.into(),
            _ => format!("{}.{name}", self.file.package),
        }
    }

    /// apimachinery types that marshal as JSON scalars, and the names the prelude does not
    /// declare: opaque (or a string, for `types.UID`).
    fn well_known(&mut self, import: &str, name: &str) -> Option<Kind> {
        match (import, name) {
            ("k8s.io/apimachinery/pkg/types", "UID") => Some(Kind::String),
            ("k8s.io/apimachinery/pkg/apis/meta/v1", _)
            | ("k8s.io/apimachinery/pkg/api/resource", "Quantity")
            | ("k8s.io/apimachinery/pkg/util/intstr", "IntOrString")
            | ("k8s.io/apimachinery/pkg/runtime", _)
            | ("k8s.io/apimachinery/pkg/types", _) => Some(Kind::Opaque),
            _ => None,
        }
    }

    fn struct_fields(&mut self, decls: &[golang::FieldDecl]) -> Vec<Field> {
        let mut fields = Vec::new();
        for f in decls {
            let tag = f.tag.as_deref().map(StructTag::parse).unwrap_or_default();
            if tag.skip {
                continue;
            }
            let exported = f.name.chars().next().is_some_and(char::is_uppercase);
            if !exported && !f.embedded {
                continue;
            }
            // validation-gen: +k8s:opaqueType on a field drops the call to its type's validation
            // function (types from packages it cannot read need it); the field's own tags still
            // run. On an unnamed list or map it changes nothing (eachVal/eachKey=+k8s:opaqueType
            // are the element forms).
            let opaque_tag = self.has_tag(&f.comments, "k8s:opaqueType");
            let opaque_each = |each: &str| {
                tags::extract(&f.comments).iter().flatten().map(|t| unwrapped(t).0).any(|t| {
                    t.name == each && matches!(&t.payload, Payload::Tag(inner) if inner.name == "k8s:opaqueType")
                })
            };
            let (opaque_values, opaque_keys) = (opaque_each("k8s:eachVal"), opaque_each("k8s:eachKey"));
            let ty = self.resolve(&f.ty, opaque_tag || opaque_values || opaque_keys);
            let (base, _) = self.schema.deref(ty);
            let unnamed_collection = matches!(self.schema.kind(base), Kind::Slice(_) | Kind::Map(..))
                && (self.schema.types[base].name.starts_with('[') || self.schema.types[base].name.starts_with("map["));
            let opaque = opaque_tag && !unnamed_collection;
            let inline = f.embedded && (tag.inline || tag.name.is_none());
            let json_name = tag.name.clone().unwrap_or_else(|| f.name.clone());
            fields.push(Field {
                go_name: f.name.clone(),
                json_name,
                ty,
                inline,
                omitempty: tag.omitempty,
                validations: Vec::new(),
                pos: f.pos,
                opaque,
                opaque_values,
                opaque_keys,
            });
        }
        fields
    }

    fn has_tag(&self, comments: &[Comment], name: &str) -> bool {
        self.tag_level(comments, name).is_some()
    }

    /// The level of a tag in a comment block, wrapped (`+k8s:beta=+k8s:enum`) or not.
    fn tag_level(&self, comments: &[Comment], name: &str) -> Option<Stability> {
        tags::extract(comments).iter().flatten().map(unwrapped).find(|(t, _)| t.name == name).map(|(_, l)| l)
    }

    /// Compiles the tags of every declared type, its fields, and its enum constants.
    fn compile_type_tags(&mut self) {
        for i in 0..self.file.types.len() {
            let decl = &self.file.types[i];
            let Some(id) = self.local(&decl.name) else { continue };
            let what = format!("type {}", decl.name);
            let vals = self.compile_block(&decl.comments, Scope::Type, id, &what, "");
            self.schema.types[id].validations = vals;
            self.schema.types[id].list = self.list_spec(&decl.comments);
            self.enum_values(id, &decl.name, &decl.comments);
            self.subresource_tags(id, &decl.comments);
            self.compile_field_tags(id, &decl.ty, &decl.name);
        }
    }

    /// Field tags of a struct declaration (and of anonymous structs nested in it).
    fn compile_field_tags(&mut self, id: TypeId, expr: &TypeExpr, owner: &str) {
        let TypeExpr::Struct(decls) = expr else { return };
        let Kind::Struct(fields) = self.schema.types[id].kind.clone() else { return };
        let mut compiled = fields;
        for f in decls {
            let Some(idx) = compiled.iter().position(|c| c.go_name == f.name && c.pos == f.pos) else { continue };
            let what = format!("field {owner}.{}", f.name);
            let json = compiled[idx].json_name.clone();
            let vals = self.compile_block(&f.comments, Scope::Field, compiled[idx].ty, &what, &json);
            compiled[idx].validations = vals;
            if let Some(spec) = self.list_spec(&f.comments) {
                // The field's own copy of its list type, carrying the identity its tags declare.
                let base = compiled[idx].ty;
                let node = TypeNode {
                    name: self.schema.types[base].name.clone(),
                    kind: Kind::Alias(base),
                    validations: Vec::new(),
                    list: Some(spec),
                };
                self.schema.types.push(node);
                compiled[idx].ty = self.schema.types.len() - 1;
            }
            // Anonymous struct types inside the field.
            let mut inner = &f.ty;
            let mut inner_id = compiled[idx].ty;
            while let TypeExpr::Pointer(p) = inner {
                inner = p;
                inner_id = self.schema.deref(inner_id).0;
            }
            if matches!(inner, TypeExpr::Struct(_)) {
                self.compile_field_tags(inner_id, inner, &format!("{owner}.{}", f.name));
            }
        }
        let mut unions = self.unions(decls, &compiled);
        unions.extend(self.modes(decls, &compiled));
        unions.extend(self.dependents(decls, &compiled));
        self.schema.types[id].kind = Kind::Struct(compiled);
        if !unions.is_empty() {
            let vals = &mut self.schema.types[id].validations;
            vals.extend(unions);
            order(vals);
        }
    }

    /// `+k8s:dependentRequired("sibling")` / `+k8s:dependentForbidden("sibling")` on a struct's
    /// fields: validation-gen runs them in the parent struct's function (validators/dependent.go).
    fn dependents(&mut self, decls: &[golang::FieldDecl], fields: &[Field]) -> Vec<Validator> {
        let mut out = Vec::new();
        for d in decls {
            let Some(f) = fields.iter().find(|f| f.go_name == d.name && f.pos == d.pos) else { continue };
            for wrapped in tags::extract(&d.comments).into_iter().flatten() {
                let (t, level) = unwrapped(&wrapped);
                let required = match t.name.as_str() {
                    "k8s:dependentRequired" => true,
                    "k8s:dependentForbidden" => false,
                    _ => continue,
                };
                let Some(dep) = t.arg("").map(|a| a.value.clone()) else { continue };
                let prefix = format!("tag \"{}\"", t.name);
                if dep == f.json_name {
                    self.error(
                        t.pos,
                        format!("{prefix}: trigger and dependent field must be different (both are {dep:?})"),
                    );
                    continue;
                }
                let other = super::validate::member(&self.schema, fields, &dep).map(|o| (o.go_name.clone(), o.ty));
                let Some((other_name, other_ty)) = other else {
                    self.error(t.pos, format!("{prefix}: no sibling field with JSON name {dep:?}"));
                    continue;
                };
                for (role, name, ty) in [("trigger", &f.go_name, f.ty), ("dependent", &other_name, other_ty)] {
                    let (base, ptr) = self.schema.deref(ty);
                    if matches!(self.schema.kind(base), Kind::Struct(_)) && !ptr {
                        self.error(t.pos, format!("{prefix}: {role} field {name:?} has unsupported type kind Struct"));
                    }
                }
                let name = if required { "k8s:dependentRequired" } else { "k8s:dependentForbidden" };
                out.push(Validator {
                    check: Check::Dependent { trigger: f.json_name.clone(), dependent: dep, required },
                    stability: level,
                    sort_key: name,
                    short_circuit: false,
                    non_error: false,
                });
            }
        }
        out
    }

    /// The unions of a struct, from its fields' `+k8s:unionDiscriminator`, `+k8s:unionMember`
    /// and `+k8s:zeroOrOneOfMember` tags (grouped by their `union` argument; a member's
    /// discriminator value is its `memberName` or its Go field name).
    fn unions(&mut self, decls: &[golang::FieldDecl], fields: &[Field]) -> Vec<Validator> {
        // Keyed by (zero-or-one-of, union name), with the level of its first member
        // (validation-gen: the union takes the wrapper of the first member in declaration
        // order; a wrapped discriminator changes nothing).
        let mut groups: Vec<((bool, String), Union, Option<Stability>)> = Vec::new();
        for d in decls {
            let Some(f) = fields.iter().find(|f| f.go_name == d.name && f.pos == d.pos) else { continue };
            for wrapped in tags::extract(&d.comments).into_iter().flatten() {
                let (t, level) = unwrapped(&wrapped);
                let zero_or_one = t.name == "k8s:zeroOrOneOfMember";
                if !matches!(t.name.as_str(), "k8s:unionMember" | "k8s:unionDiscriminator") && !zero_or_one {
                    continue;
                }
                let key = (zero_or_one, t.arg("union").map(|a| a.value.clone()).unwrap_or_default());
                let at = match groups.iter().position(|g| g.0 == key) {
                    Some(i) => i,
                    None => {
                        groups.push((key, Union { discriminator: None, members: Vec::new(), zero_or_one }, None));
                        groups.len() - 1
                    }
                };
                let (_, union, first_level) = &mut groups[at];
                if t.name == "k8s:unionDiscriminator" {
                    union.discriminator = Some(f.json_name.clone());
                } else {
                    let member = t.arg("memberName").map_or_else(|| f.go_name.clone(), |a| a.value.clone());
                    union.members.push((f.json_name.clone(), member));
                    first_level.get_or_insert(level);
                }
            }
        }
        crate::sort::sort_by(&mut groups, |a, b| a.0.cmp(&b.0));
        groups
            .into_iter()
            .filter(|(_, u, _)| !u.members.is_empty())
            .map(|((zero_or_one, _), union, level)| Validator {
                check: Check::Union(union),
                stability: level.unwrap_or(Stability::Stable),
                sort_key: if zero_or_one { "k8s:zeroOrOneOfMember" } else { "k8s:unionMember" },
                short_circuit: false,
                non_error: false,
            })
            .collect()
    }

    /// `+k8s:supportsSubresource` and `+k8s:isSubresource` on a type (current validation-gen
    /// reads them from the type's comment).
    fn subresource_tags(&mut self, id: TypeId, comments: &[Comment]) {
        let (mut supports, mut is) = (Vec::new(), Vec::new());
        for t in tags::extract(comments).into_iter().flatten() {
            let list = match t.name.as_str() {
                "k8s:supportsSubresource" => &mut supports,
                "k8s:isSubresource" => &mut is,
                _ => continue,
            };
            match &t.payload {
                Payload::Scalar(p, ValueKind::String) if p.starts_with('/') && p.len() > 1 => list.push(p.clone()),
                _ => self.error(t.pos, format!("+{} needs a subresource path such as \"/status\"", t.name)),
            }
        }
        if !is.is_empty() {
            self.schema.subresources.push((id, is));
        } else if !supports.is_empty() {
            let mut paths = alloc::vec![String::from("/")];
            paths.extend(supports);
            self.schema.subresources.push((id, paths));
        }
    }

    /// `+k8s:enum` on a string type: its constants are the values.
    fn enum_values(&mut self, id: TypeId, name: &str, comments: &[Comment]) {
        let Some(level) = self.tag_level(comments, "k8s:enum") else { return };
        let mut values = Vec::new();
        let mut exclusions = Vec::new();
        for c in &self.file.consts {
            if c.type_name.as_deref() != Some(name) {
                continue;
            }
            let Some(v) = &c.string_value else {
                self.schema.diagnostics.push(Diagnostic::warning(
                    c.pos,
                    format!("constant {} of enum {name} is not a string literal; it is not an enum value", c.name),
                ));
                continue;
            };
            values.push(v.clone());
            for t in tags::extract(&c.comments).into_iter().flatten() {
                if let Some(x) = self.exclusion(&t, v) {
                    exclusions.push(x);
                }
            }
        }
        let enum_validator = Validator {
            check: Check::Enum { values, exclusions },
            stability: level,
            sort_key: "k8s:enum",
            short_circuit: false,
            non_error: false,
        };
        let vals = &mut self.schema.types[id].validations;
        vals.push(enum_validator);
        order(vals);
    }

    fn exclusion(&mut self, t: &Tag, value: &str) -> Option<EnumExclusion> {
        match (t.name.as_str(), &t.payload) {
            ("k8s:enumExclude", _) => Some(EnumExclusion { value: value.into(), condition: None }),
            ("k8s:ifEnabled" | "k8s:ifDisabled", Payload::Tag(inner)) if inner.name == "k8s:enumExclude" => {
                let option = t.arg("")?.value.clone();
                self.note_option(&option);
                Some(EnumExclusion { value: value.into(), condition: Some((option, t.name == "k8s:ifEnabled")) })
            }
            _ => None,
        }
    }

    fn note_option(&mut self, option: &str) {
        if !self.schema.options.iter().any(|o| o == option) {
            self.schema.options.push(option.into());
        }
    }

    /// All validators from one comment block, in validation-gen's order.
    fn compile_block(
        &mut self,
        comments: &[Comment],
        scope: Scope,
        ty: TypeId,
        what: &str,
        json: &str,
    ) -> Vec<Validator> {
        let mut out = Vec::new();
        let mut seen: Vec<(String, Pos)> = Vec::new();
        for parsed in tags::extract(comments) {
            match parsed {
                Err(e) => self.error(e.pos, format!("malformed tag: {}", e.message)),
                Ok(tag) => {
                    seen.push((tag.name.clone(), tag.pos));
                    let site = Site { scope, ty, what, stability: Stability::Stable, depth: 0 };
                    out.extend(self.compile_tag(&tag, site));
                }
            }
        }
        self.warn_misspelled(comments);
        let find = |n: &str| seen.iter().find(|(s, _)| s == n).map(|(_, p)| *p);
        if let (Some(_), Some(pos)) = (find("k8s:required"), find("k8s:optional")) {
            self.error(pos, format!("{what} cannot be both +k8s:required and +k8s:optional"));
        }
        if let Some(pos) = find("k8s:listMapKey").filter(|_| !self.list_is_map(comments)) {
            self.error(pos, format!("{what}: +k8s:listMapKey needs +k8s:listType=map or +k8s:unique=map"));
        }
        if let Some(spec) = self.list_spec(comments).filter(|s| !s.set) {
            for t in tags::extract(comments).into_iter().flatten().filter(|t| t.name == "k8s:item") {
                let given: Vec<&str> = t.args.iter().filter_map(|a| a.name.as_deref()).collect();
                if let Some(missing) = spec.keys.iter().find(|k| !given.contains(&k.as_str())) {
                    self.error(t.pos, format!("+k8s:item must give every list-map key: {missing:?} is missing"));
                }
            }
        } else if let Some(pos) = find("k8s:item") {
            self.error(pos, format!("{what}: +k8s:item needs +k8s:listType=map with +k8s:listMapKey"));
        }
        out.extend(self.item_unions(comments, json));
        if find("k8s:customUnique").is_some() {
            out.retain(|v| !matches!(v.check, Check::Unique));
        }
        out.dedup_by(|a, b| matches!((&a.check, &b.check), (Check::Unique, Check::Unique)));
        merge_updates(&mut out);
        merge_subfields(&mut out);
        order(&mut out);
        out
    }

    /// validation-gen skips comment tags it does not register, so a misspelled validation tag
    /// silently validates nothing; kubedv says so. Other generators' tags (`k8s:deepcopy-gen`,
    /// `k8s:prerelease-lifecycle-gen:introduced`, `k8s:deprecated`) are far from every
    /// validation tag's name and pass without a word.
    fn warn_misspelled(&mut self, comments: &[Comment]) {
        for (name, pos) in tags::unregistered(comments) {
            // Generators' names have dashes (`deepcopy-gen`); no validation tag does.
            if name.contains('-') {
                continue;
            }
            let Some(near) = catalog::closest(name) else { continue };
            self.schema.diagnostics.push(Diagnostic::warning(
                pos,
                format!("+{name} is not a validation tag, so validation-gen ignores it; did you mean +{near}?"),
            ));
        }
    }

    /// Unions of list items (`+k8s:item(k: v)=+k8s:zeroOrOneOfMember`): each member is "some
    /// item matches", named like validation-gen's list selector (`tasks[{"name": "a"}]`).
    fn item_unions(&mut self, comments: &[Comment], json: &str) -> Vec<Validator> {
        let mut groups: Vec<ItemUnionGroup> = Vec::new();
        for wrapped in tags::extract(comments).into_iter().flatten() {
            let (t, outer) = unwrapped(&wrapped);
            if t.name != "k8s:item" {
                continue;
            }
            let Payload::Tag(inner) = &t.payload else { continue };
            let (inner, inner_level) = unwrapped(inner);
            let level = if outer == Stability::Stable { inner_level } else { outer };
            let zero_or_one = inner.name == "k8s:zeroOrOneOfMember";
            if !zero_or_one && inner.name != "k8s:unionMember" {
                continue;
            }
            let mut criteria = Vec::new();
            let mut shown = Vec::new();
            for a in &t.args {
                let key = a.name.clone().unwrap_or_default();
                let (value, text) = match a.kind {
                    ValueKind::String => (serde_json::Value::String(a.value.clone()), crate::field::go_quote(&a.value)),
                    ValueKind::Bool => (serde_json::Value::Bool(a.value == "true"), a.value.clone()),
                    ValueKind::Int => (tags::parse_int(&a.value).unwrap_or(0).into(), a.value.clone()),
                };
                shown.push(format!("\"{key}\": {text}"));
                criteria.push((key, value));
            }
            let name = format!("{json}[{{{}}}]", shown.join(", "));
            let member = inner.arg("memberName").map_or_else(|| name.clone(), |a| a.value.clone());
            let key = (zero_or_one, inner.arg("union").map(|a| a.value.clone()).unwrap_or_default());
            let at = match groups.iter().position(|g| g.0 == key) {
                Some(i) => i,
                None => {
                    let union = Union { discriminator: None, members: Vec::new(), zero_or_one };
                    groups.push((key, union, Vec::new(), None));
                    groups.len() - 1
                }
            };
            groups[at].1.members.push((name, member));
            groups[at].2.push(criteria);
            groups[at].3.get_or_insert(level);
        }
        groups
            .into_iter()
            .map(|((zero_or_one, _), union, criteria, level)| Validator {
                check: Check::ListUnion { union, criteria },
                stability: level.unwrap_or(Stability::Stable),
                sort_key: if zero_or_one { "k8s:zeroOrOneOfMember" } else { "k8s:unionMember" },
                short_circuit: false,
                non_error: false,
            })
            .collect()
    }

    /// `+k8s:ifMode` rules per field, with the `+k8s:modeDiscriminator` of their modality.
    fn modes(&mut self, decls: &[golang::FieldDecl], fields: &[Field]) -> Vec<Validator> {
        let mut discriminators: Vec<(String, String)> = Vec::new(); // (modality, json name)
        let mut members: Vec<ModeMember> = Vec::new();
        for d in decls {
            let Some(f) = fields.iter().find(|f| f.go_name == d.name && f.pos == d.pos) else { continue };
            let what = format!("field {}", d.name);
            for wrapped in tags::extract(&d.comments).into_iter().flatten() {
                // mode.go: each ifMode rule keeps its own level.
                let (t, level) = unwrapped(&wrapped);
                // 1.36 spelled them +k8s:discriminator(name:) and +k8s:member(discriminator:,
                // value:) (code-generator v0.36.3 validators/discriminator.go).
                let modality = ["modality", "name", "discriminator"]
                    .iter()
                    .find_map(|n| t.arg(n))
                    .map(|a| a.value.clone())
                    .unwrap_or_default();
                match t.name.as_str() {
                    "k8s:modeDiscriminator" | "k8s:discriminator" => {
                        discriminators.push((modality, f.json_name.clone()))
                    }
                    "k8s:ifMode" | "k8s:member" => {
                        let Some(mode) = ["", "mode", "value"].iter().find_map(|n| t.arg(n)).map(|a| a.value.clone())
                        else {
                            self.error(t.pos, "+k8s:ifMode needs the mode value: +k8s:ifMode(\"A\")=...".into());
                            continue;
                        };
                        let Some(inner) = self.payload_tag(t) else { continue };
                        let site = Site { scope: Scope::Field, ty: f.ty, what: &what, stability: level, depth: 1 };
                        let mut vals = self.compile_tag(inner, site);
                        for v in &mut vals {
                            restamp(v, level);
                        }
                        let at = match members.iter().position(|m| m.modality == modality && m.field == f.json_name) {
                            Some(i) => i,
                            None => {
                                members.push(ModeMember {
                                    modality,
                                    field: f.json_name.clone(),
                                    pos: t.pos,
                                    rules: Vec::new(),
                                });
                                members.len() - 1
                            }
                        };
                        let rules = &mut members[at].rules;
                        match rules.iter_mut().find(|r| r.0 == mode) {
                            Some(rule) => rule.1.extend(vals),
                            None => rules.push((mode, vals)),
                        }
                    }
                    _ => {}
                }
            }
        }
        let mut out = Vec::new();
        for ModeMember { modality, field, pos, mut rules } in members {
            let Some((_, discriminator)) = discriminators.iter().find(|d| d.0 == modality) else {
                self.error(
                    pos,
                    format!("+k8s:ifMode on {field}: the struct has no +k8s:modeDiscriminator for this modality"),
                );
                continue;
            };
            for rule in &mut rules {
                order(&mut rule.1);
            }
            // The implicit "forbidden in other modes" check: the rules' common level, if any.
            let mut levels = rules.iter().flat_map(|r| r.1.iter().map(|v| v.stability));
            let first = levels.next().unwrap_or(Stability::Stable);
            let level = if levels.all(|l| l == first) { first } else { Stability::Stable };
            out.push(Validator {
                check: Check::Modes { discriminator: discriminator.clone(), field, rules },
                stability: level,
                sort_key: "k8s:ifMode",
                short_circuit: false,
                non_error: false,
            });
        }
        out
    }

    /// The item identity declared by list tags: `listType=set`/`unique=set` (whole values) or
    /// `listType=map`/`unique=map` with `listMapKey`s. Atomic lists have none.
    fn list_spec(&self, comments: &[Comment]) -> Option<ListSpec> {
        let mut set = false;
        let mut map = false;
        let mut keys = Vec::new();
        for wrapped in tags::extract(comments).into_iter().flatten() {
            let (t, _) = unwrapped(&wrapped);
            match (t.name.as_str(), &t.payload) {
                ("k8s:listType" | "k8s:unique", Payload::Scalar(v, _)) if v == "set" => set = true,
                ("k8s:listType" | "k8s:unique", Payload::Scalar(v, _)) if v == "map" => map = true,
                ("k8s:listMapKey", Payload::Scalar(k, _)) => keys.push(k.clone()),
                _ => {}
            }
        }
        if map && !keys.is_empty() {
            Some(ListSpec { set: false, keys })
        } else if set {
            Some(ListSpec { set: true, keys: Vec::new() })
        } else {
            None
        }
    }

    fn list_is_map(&self, comments: &[Comment]) -> bool {
        tags::extract(comments).iter().flatten().map(|t| unwrapped(t).0).any(|t| {
            (t.name == "k8s:listType" || t.name == "k8s:unique")
                && t.payload == Payload::Scalar("map".into(), ValueKind::String)
        })
    }

    /// A type's name, with its underlying kind when the name alone does not say it
    /// (`Phase (int)`).
    fn type_desc(&self, ty: TypeId) -> String {
        let name = &self.schema.types[ty].name;
        let kind = match self.schema.kind(ty) {
            Kind::String => "string",
            Kind::Bool => "bool",
            Kind::Int { .. } => "int",
            Kind::Float => "float",
            Kind::Bytes => "[]byte",
            Kind::Pointer(_) => "pointer",
            Kind::Slice(_) => "list",
            Kind::Map(..) => "map",
            Kind::Struct(_) => "struct",
            Kind::Opaque | Kind::Alias(_) | Kind::Pending => return name.clone(),
        };
        let builtin = self.builtin(name).is_some() || name.starts_with(['[', '*']) || name.starts_with("map[");
        if builtin {
            name.clone()
        } else {
            format!("{name} ({kind})")
        }
    }

    /// One tag → zero or more validators (wrappers return their payload's, restamped).
    fn compile_tag(&mut self, tag: &Tag, site: Site<'_>) -> Vec<Validator> {
        let Some(doc) = catalog::spec(&tag.name) else {
            let hint = catalog::closest(&tag.name).map(|n| format!("; did you mean +{n}?")).unwrap_or_default();
            self.error(tag.pos, format!("unknown tag +{}{hint}", tag.name));
            return Vec::new();
        };
        if site.depth > MAX_TAG_DEPTH {
            self.error(tag.pos, format!("tags nest more than {MAX_TAG_DEPTH} levels deep"));
            return Vec::new();
        }
        if !doc.scopes.contains(&site.scope) {
            let place = match site.scope {
                Scope::Type => "a type",
                Scope::Field => "a field",
                Scope::ListVal => "list items or map values (eachVal)",
                Scope::MapKey => "map keys (eachKey)",
                Scope::Const => "a constant",
            };
            self.error(tag.pos, format!("+{} cannot be used on {place} ({})", tag.name, site.what));
            return Vec::new();
        }
        let (base, is_ptr) = self.schema.deref(site.ty);
        let kind = self.schema.kind(base).clone();
        let name = doc.name;
        let mk = |check: Check| Validator {
            check,
            stability: site.stability,
            sort_key: name,
            short_circuit: false,
            non_error: false,
        };
        let simple = |check: Option<Check>| check.map(mk).into_iter().collect::<Vec<_>>();

        match name {
            "k8s:required" | "k8s:optional" | "k8s:forbidden" => {
                if matches!(kind, Kind::Struct(_)) && !is_ptr {
                    self.error(
                        tag.pos,
                        format!("+{name} cannot be used on a non-pointer struct ({}): make it a pointer", site.what),
                    );
                    return Vec::new();
                }
                if !self.no_payload(tag) {
                    return Vec::new();
                }
                let check = match name {
                    "k8s:required" => Check::Required,
                    "k8s:optional" => Check::Optional,
                    _ => Check::Forbidden,
                };
                let mut v = mk(check);
                v.short_circuit = true;
                v.non_error = name == "k8s:optional";
                if name == "k8s:forbidden" {
                    // validators/required.go: forbidden emits the forbidden check and an
                    // optional one, so an unset forbidden field stops silently too.
                    let mut optional = mk(Check::Optional);
                    optional.short_circuit = true;
                    optional.non_error = true;
                    return alloc::vec![v, optional];
                }
                alloc::vec![v]
            }
            "k8s:minimum" | "k8s:maximum" => {
                if !matches!(kind, Kind::Int { .. }) {
                    self.wrong_kind(tag, "an integer", site.what, base);
                    return Vec::new();
                }
                let n = self.int_payload(tag, false);
                simple(n.map(|n| if name == "k8s:minimum" { Check::Minimum(n) } else { Check::Maximum(n) }))
            }
            "k8s:minLength" | "k8s:maxLength" | "k8s:maxBytes" => {
                if !matches!(kind, Kind::String) {
                    self.wrong_kind(tag, "a string", site.what, base);
                    return Vec::new();
                }
                let n = self.int_payload(tag, true).map(|n| n as usize);
                simple(n.map(|n| match name {
                    "k8s:minLength" => Check::MinLength(n),
                    "k8s:maxLength" => Check::MaxLength(n),
                    _ => Check::MaxBytes(n),
                }))
            }
            "k8s:minItems" | "k8s:maxItems" => {
                if !matches!(kind, Kind::Slice(_) | Kind::Bytes) || is_ptr {
                    self.wrong_kind(tag, "a list", site.what, site.ty);
                    return Vec::new();
                }
                let n = self.int_payload(tag, true).map(|n| n as usize);
                let mut vals =
                    simple(n.map(|n| if name == "k8s:minItems" { Check::MinItems(n) } else { Check::MaxItems(n) }));
                // validators/limits.go: maxItems short-circuits (a list too long is not walked).
                for v in &mut vals {
                    v.short_circuit = name == "k8s:maxItems";
                }
                vals
            }
            "k8s:minProperties" | "k8s:maxProperties" => {
                if !matches!(kind, Kind::Map(..)) || is_ptr {
                    self.wrong_kind(tag, "a map", site.what, site.ty);
                    return Vec::new();
                }
                let n = self.int_payload(tag, true);
                if n.is_some_and(|n| n > 100_000) {
                    self.error(tag.pos, format!("+{name} must be at most 100000"));
                    return Vec::new();
                }
                let mut vals = simple(n.map(|n| {
                    if name == "k8s:minProperties" {
                        Check::MinProperties(n as usize)
                    } else {
                        Check::MaxProperties(n as usize)
                    }
                }));
                // validators/limits.go: maxProperties short-circuits.
                for v in &mut vals {
                    v.short_circuit = name == "k8s:maxProperties";
                }
                vals
            }
            "k8s:format" => {
                if !matches!(kind, Kind::String) {
                    self.wrong_kind(tag, "a string", site.what, base);
                    return Vec::new();
                }
                match &tag.payload {
                    Payload::Scalar(v, ValueKind::String) => match Format::from_name(v) {
                        Some(f) => simple(Some(Check::Format(f))),
                        None => {
                            let names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
                            self.error(tag.pos, format!("unknown format {v:?}; the formats are: {}", names.join(", ")));
                            Vec::new()
                        }
                    },
                    _ => {
                        self.error(tag.pos, "+k8s:format needs a format name, e.g. +k8s:format=k8s-short-name".into());
                        Vec::new()
                    }
                }
            }
            "k8s:neq" => {
                let lit = match &tag.payload {
                    Payload::Scalar(v, ValueKind::String) => Literal::Str(v.clone()),
                    Payload::Scalar(v, ValueKind::Int) => match tags::parse_int(v) {
                        Some(n) => Literal::Int(n),
                        None => return self.bad(tag, "+k8s:neq: the integer does not fit in 64 bits"),
                    },
                    Payload::Scalar(v, ValueKind::Bool) => Literal::Bool(v == "true"),
                    _ => return self.bad(tag, "+k8s:neq needs a value: a string, an integer or a bool"),
                };
                let fits = matches!(
                    (&lit, &kind),
                    (Literal::Str(_), Kind::String)
                        | (Literal::Int(_), Kind::Int { .. })
                        | (Literal::Bool(_), Kind::Bool)
                );
                if !fits {
                    let msg =
                        format!("+k8s:neq value does not match the type {} of {}", self.type_desc(base), site.what);
                    return self.bad(tag, &msg);
                }
                simple(Some(Check::Neq(lit)))
            }
            "k8s:enum" => {
                // Compiled from the constants by `enum_values`; only placement is checked here.
                if !matches!(kind, Kind::String) {
                    self.wrong_kind(tag, "a string", site.what, base);
                }
                Vec::new()
            }
            "k8s:enumExclude" => Vec::new(),
            "k8s:eachVal" | "k8s:eachKey" => {
                let (elem, ok) = match (&kind, name) {
                    (Kind::Slice(e), "k8s:eachVal") => (*e, !is_ptr),
                    (Kind::Map(_, v), "k8s:eachVal") => (*v, !is_ptr),
                    (Kind::Map(k, _), "k8s:eachKey") => (*k, !is_ptr),
                    _ => (site.ty, false),
                };
                if !ok {
                    let want = if name == "k8s:eachKey" { "a map" } else { "a list or a map" };
                    self.wrong_kind(tag, want, site.what, site.ty);
                    return Vec::new();
                }
                let Some(inner) = self.payload_tag(tag) else { return Vec::new() };
                let scope = if name == "k8s:eachKey" { Scope::MapKey } else { Scope::ListVal };
                let inner_what = format!("{} items", site.what);
                let Some(vals) = self.nested(inner, site, scope, elem, &inner_what) else { return Vec::new() };
                // validation.go: one wrapper per inner validator, with its flags (so
                // `eachVal=+k8s:immutable` short-circuits the field).
                vals.into_iter()
                    .map(|iv| {
                        let (short, non_error) = (iv.short_circuit, iv.non_error);
                        let inner = alloc::vec![iv];
                        let mut v =
                            mk(if name == "k8s:eachKey" { Check::EachKey(inner) } else { Check::EachVal(inner) });
                        v.short_circuit = short;
                        v.non_error = short && non_error;
                        v
                    })
                    .collect()
            }
            "k8s:subfield" => {
                let Some(field_name) = tag.arg("").map(|a| a.value.clone()) else {
                    return self.bad(tag, "+k8s:subfield needs the subfield's JSON name: +k8s:subfield(name)=...");
                };
                let Kind::Struct(fields) = &kind else {
                    self.wrong_kind(tag, "a struct", site.what, base);
                    return Vec::new();
                };
                let Some(sub_ty) = find_field(&self.schema, fields, &field_name) else {
                    let msg =
                        format!("+k8s:subfield: {} has no field with JSON name {field_name:?}", self.type_desc(base));
                    return self.bad(tag, &msg);
                };
                let Some(inner) = self.payload_tag(tag) else { return Vec::new() };
                let inner_what = format!("{}.{field_name}", site.what);
                let Some(vals) = self.nested(inner, site, Scope::Field, sub_ty, &inner_what) else { return Vec::new() };
                simple(Some(Check::Subfield { json_name: field_name, validators: vals }))
            }
            "k8s:ifEnabled" | "k8s:ifDisabled" => {
                let Some(option) = tag.arg("").map(|a| a.value.clone()) else {
                    return self.bad(tag, &format!("+{name} needs an option name: +{name}(MyOption)=..."));
                };
                self.note_option(&option);
                let Some(inner) = self.payload_tag(tag) else { return Vec::new() };
                if inner.name == "k8s:enumExclude" {
                    return Vec::new();
                }
                let mut vals = self.compile_tag(inner, Site { depth: site.depth + 1, ..site });
                if vals.is_empty() {
                    return Vec::new();
                }
                order(&mut vals);
                let short = vals.iter().any(|v| v.short_circuit);
                let non_error = vals.iter().all(|v| v.non_error);
                let mut v = mk(Check::IfOption { option, enabled: name == "k8s:ifEnabled", validators: vals });
                v.short_circuit = short;
                v.non_error = short && non_error;
                alloc::vec![v]
            }
            "k8s:alpha" | "k8s:beta" => {
                if tag.args.len() > 1 {
                    return self.bad(tag, "at most one optional kubernetes version argument is supported");
                }
                // levels.go reads the one argument whatever its name (`since:` by convention).
                if let Some(since) = tag.args.first() {
                    let ok = since.value.split_once('.').is_some_and(|(a, b)| {
                        !a.is_empty() && !b.is_empty() && a.bytes().chain(b.bytes()).all(|c| c.is_ascii_digit())
                    });
                    if !ok {
                        let msg = format!(
                            "+{name}: invalid kubernetes version format, expected <major>.<minor>, got {}",
                            since.value
                        );
                        return self.bad(tag, &msg);
                    }
                }
                if tag.args.len() > 1 {
                    return self.bad(tag, "at most one optional kubernetes version argument is supported");
                }
                let Some(inner) = self.payload_tag(tag) else { return Vec::new() };
                let stability = if name == "k8s:alpha" { Stability::Alpha } else { Stability::Beta };
                let mut vals = self.compile_tag(inner, Site { stability, depth: site.depth + 1, ..site });
                for v in &mut vals {
                    restamp(v, stability);
                    // Sorted by the outer tag's name, as validation-gen sorts a field's tags.
                    v.sort_key = name;
                }
                vals
            }
            "k8s:validateFalse" | "k8s:validateTrue" | "k8s:validateTrueAlpha" | "k8s:validateTrueBeta" => {
                let arg = match &tag.payload {
                    Payload::Scalar(v, _) => v.clone(),
                    Payload::None => String::new(),
                    Payload::Tag(_) => return self.bad(tag, &format!("+{name} takes a string payload, not a tag")),
                };
                let flags = tag.arg("flags").map(|a| a.value.clone()).unwrap_or_default();
                for flag in flags.split(',').map(str::trim).filter(|f| !f.is_empty()) {
                    if flag != "ShortCircuit" && flag != "NonError" {
                        return self
                            .bad(tag, &format!("unknown flag {flag:?}: the flags are ShortCircuit and NonError"));
                    }
                }
                let mut v = mk(Check::Fixed { pass: name != "k8s:validateFalse", arg });
                v.short_circuit = flags.contains("ShortCircuit");
                v.non_error = flags.contains("NonError");
                alloc::vec![v]
            }
            "k8s:validateError" => {
                let msg = match &tag.payload {
                    Payload::Scalar(v, _) => v.clone(),
                    _ => String::new(),
                };
                self.bad(tag, &format!("forced error: {msg}"))
            }
            "k8s:listType" | "k8s:unique" => {
                let choices: &[&str] = if name == "k8s:unique" { &["set", "map"] } else { &["atomic", "set", "map"] };
                if !self.list_tag(tag, &kind, is_ptr, site.what, base, choices) {
                    return Vec::new();
                }
                // set and map lists may not hold duplicates (unless +k8s:customUnique).
                let unique = matches!(&tag.payload, Payload::Scalar(v, _) if v == "set" || v == "map");
                if unique {
                    simple(Some(Check::Unique))
                } else {
                    Vec::new()
                }
            }
            "k8s:immutable" => {
                if !self.no_payload(tag) {
                    return Vec::new();
                }
                // validators/immutable.go: a short-circuit.
                let mut v = mk(Check::Immutable);
                v.short_circuit = true;
                alloc::vec![v]
            }
            "k8s:update" => {
                let constraint = match &tag.payload {
                    Payload::Scalar(v, ValueKind::String) => UpdateConstraint::from_name(v),
                    _ => None,
                };
                let Some(c) = constraint else {
                    return self
                        .bad(tag, "+k8s:update must be one of: NoSet, NoUnset, NoModify, NoAddItem, NoRemoveItem");
                };
                let collection = matches!(kind, Kind::Slice(_) | Kind::Map(..)) && !is_ptr;
                if collection && c == UpdateConstraint::NoModify {
                    return self.bad(
                        tag,
                        "+k8s:update=NoModify is not supported on lists or maps: use +k8s:eachVal=+k8s:update=NoModify",
                    );
                }
                if !collection && matches!(c, UpdateConstraint::NoAddItem | UpdateConstraint::NoRemoveItem) {
                    let msg =
                        format!("+k8s:update={c:?} needs a list or a map ({} is {})", site.what, self.type_desc(base));
                    return self.bad(tag, &msg);
                }
                // validators/update.go: the merged update check is a short-circuit.
                let mut v = mk(Check::Update(alloc::vec![c]));
                v.short_circuit = true;
                alloc::vec![v]
            }
            "k8s:listMapKey" => {
                if self.list_tag(tag, &kind, is_ptr, site.what, base, &[]) {
                    if let (Kind::Slice(elem), Payload::Scalar(key, _)) = (&kind, &tag.payload) {
                        let (elem, _) = self.schema.deref(*elem);
                        let found = match self.schema.kind(elem) {
                            Kind::Struct(fields) => find_field(&self.schema, fields, key).is_some(),
                            _ => false,
                        };
                        if !found {
                            let msg = format!(
                                "+k8s:listMapKey: the list items ({}) have no field with JSON name {key:?}",
                                self.type_desc(elem)
                            );
                            self.error(tag.pos, msg);
                        }
                    }
                }
                Vec::new()
            }
            "k8s:customUnique" => {
                self.list_tag(tag, &kind, is_ptr, site.what, base, &[]);
                Vec::new()
            }
            "k8s:opaqueType" | "k8s:supportsSubresource" | "k8s:isSubresource" => Vec::new(),
            "k8s:monotonic" => {
                if !matches!(kind, Kind::Int { .. }) {
                    let msg =
                        format!("tag \"k8s:monotonic\": must be an integer type (got {})", self.type_desc(site.ty));
                    return self.bad(tag, &msg);
                }
                if !self.no_payload(tag) {
                    return Vec::new();
                }
                simple(Some(Check::Monotonic))
            }
            // Compiled per struct by `dependents`; here only the argument.
            "k8s:dependentRequired" | "k8s:dependentForbidden" => {
                if !matches!(tag.arg(""), Some(a) if a.kind == ValueKind::String) {
                    return self.bad(tag, "missing required positional argument of type string");
                }
                Vec::new()
            }
            "k8s:customValidation" => {
                if self.no_payload(tag) {
                    self.schema.diagnostics.push(Diagnostic::warning(
                        tag.pos,
                        format!(
                            "+k8s:customValidation on {} calls a handwritten ValidateCustom_* function, which kubedv cannot run: its errors are not modeled",
                            site.what
                        ),
                    ));
                }
                Vec::new()
            }
            "k8s:item" => self.item(tag, site, &kind, is_ptr),
            // Compiled per struct by `modes`.
            "k8s:modeDiscriminator" | "k8s:ifMode" | "k8s:discriminator" | "k8s:member" => Vec::new(),
            // Unions are compiled per struct by `unions`; here only what the field must be.
            "k8s:unionDiscriminator" => {
                if !matches!(kind, Kind::String) {
                    self.wrong_kind(tag, "a string", site.what, base);
                }
                Vec::new()
            }
            "k8s:unionMember" | "k8s:zeroOrOneOfMember" if site.scope == Scope::Field => {
                if matches!(kind, Kind::Struct(_)) && !is_ptr {
                    self.error(tag.pos, format!("+{name} can only be used on nilable and primitive types ({} is a struct): make it a pointer", site.what));
                }
                Vec::new()
            }
            _ => Vec::new(),
        }
    }

    /// `+k8s:item(key: value, ...)=<tag>` on a list of structs.
    fn item(&mut self, tag: &Tag, site: Site<'_>, kind: &Kind, is_ptr: bool) -> Vec<Validator> {
        let Kind::Slice(elem) = kind else {
            self.wrong_kind(tag, "a list", site.what, site.ty);
            return Vec::new();
        };
        let elem = *elem;
        let Kind::Struct(fields) = self.schema.kind(self.schema.deref(elem).0).clone() else {
            return self.bad(tag, "+k8s:item needs a list of structs (listType=map)");
        };
        if is_ptr || tag.args.is_empty() || tag.args.iter().any(|a| a.name.is_none()) {
            return self.bad(
                tag,
                "+k8s:item needs named arguments for the list-map keys, e.g. +k8s:item(type: \"Ready\")=...",
            );
        }
        let mut criteria = Vec::new();
        for a in &tag.args {
            let key = a.name.clone().unwrap_or_default();
            if find_field(&self.schema, &fields, &key).is_none() {
                let msg = format!("+k8s:item: the list items have no field with JSON name {key:?}");
                return self.bad(tag, &msg);
            }
            let value = match a.kind {
                ValueKind::String => serde_json::Value::String(a.value.clone()),
                ValueKind::Bool => serde_json::Value::Bool(a.value == "true"),
                ValueKind::Int => match tags::parse_int(&a.value) {
                    Some(n) => n.into(),
                    None => return self.bad(tag, "+k8s:item: the integer does not fit in 64 bits"),
                },
            };
            criteria.push((key, value));
        }
        let Some(inner) = self.payload_tag(tag) else { return Vec::new() };
        if matches!(inner.name.as_str(), "k8s:zeroOrOneOfMember" | "k8s:unionMember") {
            // A union of list items: compiled per list by `item_unions`.
            return Vec::new();
        }
        let inner_what = format!("{} item", site.what);
        let Some(vals) = self.nested(inner, site, Scope::ListVal, elem, &inner_what) else { return Vec::new() };
        let mk = Validator {
            check: Check::Item { criteria, validators: vals },
            stability: site.stability,
            sort_key: "k8s:item",
            short_circuit: false,
            non_error: false,
        };
        alloc::vec![mk]
    }

    /// Compiles a wrapper's payload tag at a nested site (list items, a subfield), ordered;
    /// `None` when it yields nothing.
    fn nested(&mut self, inner: &Tag, site: Site<'_>, scope: Scope, ty: TypeId, what: &str) -> Option<Vec<Validator>> {
        let inner_site = Site { scope, ty, what, stability: site.stability, depth: site.depth + 1 };
        let mut vals = self.compile_tag(inner, inner_site);
        if vals.is_empty() {
            return None;
        }
        order(&mut vals);
        Some(vals)
    }

    fn bad(&mut self, tag: &Tag, message: &str) -> Vec<Validator> {
        self.error(tag.pos, message.to_string());
        Vec::new()
    }

    fn no_payload(&mut self, tag: &Tag) -> bool {
        if tag.payload != Payload::None || !tag.args.is_empty() {
            self.error(tag.pos, format!("+{} takes no arguments and no value", tag.name));
            return false;
        }
        true
    }

    fn wrong_kind(&mut self, tag: &Tag, want: &str, what: &str, ty: TypeId) {
        let have = self.type_desc(ty);
        self.error(tag.pos, format!("+{} can only be used on {want} ({what} is {have})", tag.name));
    }

    /// Checks a list tag's placement and payload; `choices` empty means any payload.
    fn list_tag(&mut self, tag: &Tag, kind: &Kind, is_ptr: bool, what: &str, ty: TypeId, choices: &[&str]) -> bool {
        if !matches!(kind, Kind::Slice(_)) || is_ptr {
            self.wrong_kind(tag, "a list", what, ty);
            return false;
        }
        if !choices.is_empty() {
            let ok = matches!(&tag.payload, Payload::Scalar(v, ValueKind::String) if choices.contains(&v.as_str()));
            if !ok {
                self.error(tag.pos, format!("+{} must be one of: {}", tag.name, choices.join(", ")));
                return false;
            }
        }
        true
    }

    fn int_payload(&mut self, tag: &Tag, non_negative: bool) -> Option<i64> {
        let n = match &tag.payload {
            Payload::Scalar(v, ValueKind::Int) => tags::parse_int(v),
            _ => None,
        };
        match n {
            Some(n) if non_negative && n < 0 => {
                self.error(tag.pos, format!("+{} must be a non-negative integer, got {n}", tag.name));
                None
            }
            Some(n) => Some(n),
            None => {
                let kind = if non_negative { "a non-negative integer" } else { "an integer" };
                self.error(tag.pos, format!("+{} needs {kind}, e.g. +{}=10", tag.name, tag.name));
                None
            }
        }
    }

    fn payload_tag<'t>(&mut self, tag: &'t Tag) -> Option<&'t Tag> {
        match &tag.payload {
            Payload::Tag(inner) => Some(inner),
            _ => {
                self.error(
                    tag.pos,
                    format!(
                        "+{} requires a validation tag as its value payload, e.g. +{}=+k8s:minimum=1",
                        tag.name, tag.name
                    ),
                );
                None
            }
        }
    }

    /// Root-looking types: structs with a TypeMeta field; else structs no other type uses.
    fn find_roots(&mut self) {
        let declared: Vec<TypeId> = self.schema.declared.iter().map(|(_, id)| *id).collect();
        let is_struct = |s: &Schema, id: TypeId| matches!(s.kind(id), Kind::Struct(_));
        let with_type_meta: Vec<TypeId> = declared
            .iter()
            .copied()
            .filter(|id| match self.schema.kind(*id) {
                Kind::Struct(fields) => fields.iter().any(|f| f.go_name == "TypeMeta"),
                _ => false,
            })
            .collect();
        if !with_type_meta.is_empty() {
            self.schema.roots = with_type_meta;
            return;
        }
        let mut used = alloc::vec![false; self.schema.types.len()];
        for t in &self.schema.types {
            let mut mark = |id: TypeId| used[id] = true;
            match &t.kind {
                Kind::Pointer(a) | Kind::Slice(a) | Kind::Alias(a) => mark(*a),
                Kind::Map(a, b) => {
                    mark(*a);
                    mark(*b);
                }
                Kind::Struct(fields) => fields.iter().for_each(|f| mark(f.ty)),
                _ => {}
            }
        }
        self.schema.roots = declared.into_iter().filter(|id| is_struct(&self.schema, *id) && !used[*id]).collect();
    }
}

/// The type of the field with JSON name `json` (looking into inline embedded structs).
fn find_field(schema: &Schema, fields: &[Field], json: &str) -> Option<TypeId> {
    super::validate::member(schema, fields, json).map(|f| f.ty)
}

/// Several `+k8s:update` tags make one validation with all their constraints (validation-gen's
/// update tag collector).
fn merge_updates(vals: &mut Vec<Validator>) {
    let mut first: Option<usize> = None;
    let mut i = 0;
    while i < vals.len() {
        if let Check::Update(cs) = &vals[i].check {
            match first {
                None => first = Some(i),
                Some(f) => {
                    let cs = cs.clone();
                    if let Check::Update(into) = &mut vals[f].check {
                        into.extend(cs);
                    }
                    vals.remove(i);
                    continue;
                }
            }
        }
        i += 1;
    }
}

/// validation-gen runs all subfield tags of one subfield as a cohort (short-circuits first,
/// stopping the cohort when one fires): merge them into one validator per subfield.
fn merge_subfields(vals: &mut Vec<Validator>) {
    let mut merged: Vec<Validator> = Vec::new();
    for v in vals.drain(..) {
        if let Check::Subfield { json_name, validators } = &v.check {
            let existing = merged.iter_mut().find_map(|m| match &mut m.check {
                Check::Subfield { json_name: n, validators: vs } if n == json_name => Some(vs),
                _ => None,
            });
            if let Some(vs) = existing {
                vs.extend(validators.iter().cloned());
                order(vs);
                continue;
            }
        }
        merged.push(v);
    }
    *vals = merged;
}

/// A field's `+k8s:ifMode` rules while they are collected.
struct ModeMember {
    modality: String,
    field: String,
    pos: Pos,
    rules: Vec<(String, Vec<Validator>)>,
}

/// Sets the stability of a validator and everything it wraps.
/// Item unions being collected: (zero-or-one-of, union name), the union, each member's
/// criteria, the level of its first member.
type ItemUnionGroup = ((bool, String), Union, Vec<Criteria>, Option<Stability>);

/// A tag without its lifecycle wrapper (`+k8s:beta(since: "1.37")=+k8s:X` is `+k8s:X` at beta):
/// the struct- and list-level collectors (unions, modes, list identity, enums) read wrapped tags
/// as validation-gen does, carrying the level.
fn unwrapped(t: &Tag) -> (&Tag, Stability) {
    match (t.name.as_str(), &t.payload) {
        ("k8s:alpha", Payload::Tag(inner)) => (inner, Stability::Alpha),
        ("k8s:beta", Payload::Tag(inner)) => (inner, Stability::Beta),
        _ => (t, Stability::Stable),
    }
}

fn restamp(v: &mut Validator, stability: Stability) {
    v.stability = stability;
    match &mut v.check {
        Check::EachKey(vs)
        | Check::EachVal(vs)
        | Check::Subfield { validators: vs, .. }
        | Check::IfOption { validators: vs, .. } => vs.iter_mut().for_each(|v| restamp(v, stability)),
        _ => {}
    }
}

/// validation-gen's order: by tag name (stable), then short-circuiting validators first.
fn order(vals: &mut [Validator]) {
    crate::sort::sort_by(vals, |a, b| a.sort_key.cmp(b.sort_key));
    crate::sort::sort_by_key(vals, |v| !v.short_circuit);
}
