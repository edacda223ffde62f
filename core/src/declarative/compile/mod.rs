//! From Go declarations to a [`Schema`]: resolves type names, reads struct fields as JSON sees
//! them, and compiles each `+k8s:` tag into validators, checking that it fits where it is
//! written (the kind of field, its arguments and payload) in the spirit of validation-gen's
//! generation errors.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::catalog::Scope;
use super::schema::{Field, Kind, Schema, TypeId, TypeNode};
use crate::declarative::tags::{self, Payload};
use crate::diag::{Diagnostic, Pos};
use crate::field::Stability;
use crate::golang::{self, File, StructTag, TypeExpr};

mod blocks;
mod lint;
mod tag_rules;

use blocks::unwrapped;

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
    let mut c = Compiler { schema, file: packages[0].file, packages, cur: 0, raw_subresource_tags: minor <= 35 };
    c.each_package(Compiler::declare_types);
    c.each_package(Compiler::resolve_declared);
    c.each_package(Compiler::check_recursive_embedding);
    c.each_package(Compiler::type_list_specs);
    c.each_package(Compiler::compile_type_tags);
    c.schema.declared = core::mem::take(&mut c.packages[0].names);
    c.find_roots();
    c.lint(minor);
    c.schema.mark_validated();
    c.schema.mark_defaulted();
    if minor >= 37 {
        c.schema.guard_pointer_lists();
    }
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
            go_aliases: Vec::new(),
            roots: Vec::new(),
            options: Vec::new(),
            validated: Vec::new(),
            defaulted: Vec::new(),
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
    /// Up to 1.35, validation-gen read `+k8s:supportsSubresource` / `+k8s:isSubresource` with
    /// gengo's `ExtractFunctionStyleCommentTags` (the value is the raw text after `=`:
    /// `=/status`), outside its tag registry; from 1.36 they are parsed tags (`="/status"`).
    raw_subresource_tags: bool,
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
        self.schema.types.push(TypeNode {
            name,
            kind,
            validations: Vec::new(),
            list: None,
            opaque: false,
            opaque_elements: (false, false),
            well_known: None,
        });
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
            self.schema.types[id].well_known = decoded_by_itself(self.packages[self.cur].path, &decl.name);
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
                    self.schema.types[resolved].kind.layout()
                }
            };
            self.schema.types[id].kind = kind;
            if decl.alias {
                self.schema.go_aliases.push(id);
            }
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
                    let id = self.add(display, kind);
                    self.schema.types[id].well_known = path.and_then(|p| decoded_by_itself(p, name));
                    return id;
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
    /// declare: opaque (or a string, for `types.UID` and `types.NodeName`).
    fn well_known(&mut self, import: &str, name: &str) -> Option<Kind> {
        match (import, name) {
            ("k8s.io/apimachinery/pkg/types", "UID" | "NodeName") => Some(Kind::String),
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
            let (opaque_values, opaque_keys) = opaque_elements(&f.comments);
            let ty = self.resolve(&f.ty, opaque_tag || opaque_values || opaque_keys);
            let (base, _) = self.schema.deref(ty);
            let unnamed_collection = matches!(self.schema.kind(base), Kind::Slice(_) | Kind::Map(..))
                && (self.schema.types[base].name.starts_with('[') || self.schema.types[base].name.starts_with("map["));
            let opaque = opaque_tag && !unnamed_collection;
            let inline = f.embedded && (tag.inline || tag.name.is_none());
            let json_name = tag.name.clone().unwrap_or_else(|| f.name.clone());
            let default = match super::defaults::marker(&f.comments, &self.file.consts) {
                Ok(v) => v,
                Err((pos, msg)) => {
                    self.error(pos, format!("field {}: {msg}", f.name));
                    None
                }
            };
            fields.push(Field {
                go_name: f.name.clone(),
                json_name,
                ty,
                inline,
                omitempty: tag.omitempty,
                validations: Vec::new(),
                pos: f.pos,
                opaque,
                // validation.go consults eachVal/eachKey opacity only for a field whose Go type
                // is an unnamed list or map; a named one's own function still iterates its items.
                opaque_values: opaque_values && unnamed_collection,
                opaque_keys: opaque_keys && unnamed_collection,
                default,
            });
        }
        fields
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

/// Whether a comment block has `+k8s:eachVal=+k8s:opaqueType` and `+k8s:eachKey=+k8s:opaqueType`
/// (wrapped in `alpha`/`beta` too).
fn opaque_elements(comments: &[crate::golang::Comment]) -> (bool, bool) {
    let each = |name: &str| {
        tags::extract(comments)
            .iter()
            .flatten()
            .map(|t| unwrapped(t).0)
            .any(|t| t.name == name && matches!(&t.payload, Payload::Tag(inner) if inner.name == "k8s:opaqueType"))
    };
    (each("k8s:eachVal"), each("k8s:eachKey"))
}

/// The apimachinery types whose own `UnmarshalJSON` decoding runs (and can refuse), by Go's
/// package-qualified name.
fn decoded_by_itself(import: &str, name: &str) -> Option<&'static str> {
    Some(match (import, name) {
        ("k8s.io/apimachinery/pkg/api/resource", "Quantity") => "resource.Quantity",
        ("k8s.io/apimachinery/pkg/util/intstr", "IntOrString") => "intstr.IntOrString",
        ("k8s.io/apimachinery/pkg/apis/meta/v1", "Time") => "v1.Time",
        ("k8s.io/apimachinery/pkg/apis/meta/v1", "MicroTime") => "v1.MicroTime",
        ("k8s.io/apimachinery/pkg/apis/meta/v1", "Duration") => "v1.Duration",
        _ => return None,
    })
}
