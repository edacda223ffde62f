//! validation-gen's lint (code-generator `cmd/validation-gen/lint.go`, `lint_rules.go`), fatal
//! from Kubernetes 1.36: from each root type, every type it reaches (in any package) is linted,
//! its own tags and each field's, by three rules in this order:
//!
//! - `alphaBetaPrefix`: `+k8s:alpha`/`+k8s:beta` only as the outermost tag, with a tag payload;
//! - `validationStability`: a tag's stability level must reach its context's (Stable; Alpha or
//!   Beta in `v1alphaN`/`v1betaN` packages or under an `alpha`/`beta` wrapper; Beta under
//!   `ifEnabled`/`ifDisabled`);
//! - `requiredAndOptional`: a field that is not a struct value and has validation (its own tags
//!   or, transitively, its type's) must say `+k8s:optional`, `+k8s:required` or
//!   `+k8s:forbidden`. 1.36 counts every known tag and walks types plainly; 1.37 skips
//!   `+k8s:opaqueType` and follows the opacity it gives (`eachVal`/`eachKey=+k8s:opaqueType`).
//!
//! Each rule gives at most one message per comment block; validation-gen prints them under the
//! type (`lint failed: type T: field F: message`). Up to 1.35 lint only warned (and its rules,
//! conflicting requiredness, are compile errors here already), so it does not run.
//! `+k8s:validation-gen-nolint` on the package or a type turns it off, as in validation-gen.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::{Compiler, Kind, TypeId};
use crate::diag::{Diagnostic, Pos};
use crate::golang::{Comment, TypeDecl, TypeExpr};
use crate::tags::{self, Payload, Tag};

/// A tag's stability level in validation-gen's registry (`TagStabilityLevel`).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Level {
    Alpha,
    Beta,
    Stable,
}

impl Level {
    fn name(self) -> &'static str {
        match self {
            Level::Alpha => "Alpha",
            Level::Beta => "Beta",
            Level::Stable => "Stable",
        }
    }
}

/// The registry's tags and levels at code-generator v0.36.3 (Kubernetes 1.36).
const LEVELS_36: &[(&str, Level)] = &[
    ("k8s:discriminator", Level::Alpha),
    ("k8s:eachVal", Level::Alpha),
    ("k8s:enumExclude", Level::Alpha),
    ("k8s:member", Level::Alpha),
    ("k8s:minLength", Level::Alpha),
    ("k8s:neq", Level::Alpha),
    ("k8s:opaqueType", Level::Alpha),
    ("k8s:validateError", Level::Alpha),
    ("k8s:validateFalse", Level::Alpha),
    ("k8s:validateTrue", Level::Alpha),
    ("k8s:validateTrueAlpha", Level::Alpha),
    ("k8s:alpha", Level::Beta),
    ("k8s:beta", Level::Beta),
    ("k8s:customUnique", Level::Beta),
    ("k8s:eachKey", Level::Beta),
    ("k8s:forbidden", Level::Beta),
    ("k8s:ifDisabled", Level::Beta),
    ("k8s:ifEnabled", Level::Beta),
    ("k8s:immutable", Level::Beta),
    ("k8s:maxBytes", Level::Beta),
    ("k8s:maxLength", Level::Beta),
    ("k8s:maximum", Level::Beta),
    ("k8s:minItems", Level::Beta),
    ("k8s:unionDiscriminator", Level::Beta),
    ("k8s:unique", Level::Beta),
    ("k8s:update", Level::Beta),
    ("k8s:validateTrueBeta", Level::Beta),
    ("k8s:enum", Level::Stable),
    ("k8s:format", Level::Stable),
    ("k8s:item", Level::Stable),
    ("k8s:listMapKey", Level::Stable),
    ("k8s:listType", Level::Stable),
    ("k8s:maxItems", Level::Stable),
    ("k8s:minimum", Level::Stable),
    ("k8s:optional", Level::Stable),
    ("k8s:required", Level::Stable),
    ("k8s:subfield", Level::Stable),
    ("k8s:unionMember", Level::Stable),
    ("k8s:zeroOrOneOfMember", Level::Stable),
];

/// The registry at the 1.37 revision (code-generator after v0.37.0-beta.0; the lint and
/// registry files are the same at the beta tag).
const LEVELS_37: &[(&str, Level)] = &[
    ("k8s:dependentForbidden", Level::Alpha),
    ("k8s:dependentRequired", Level::Alpha),
    ("k8s:enumExclude", Level::Alpha),
    ("k8s:monotonic", Level::Alpha),
    ("k8s:neq", Level::Alpha),
    ("k8s:validateError", Level::Alpha),
    ("k8s:validateFalse", Level::Alpha),
    ("k8s:validateTrue", Level::Alpha),
    ("k8s:validateTrueAlpha", Level::Alpha),
    ("k8s:alpha", Level::Beta),
    ("k8s:beta", Level::Beta),
    ("k8s:forbidden", Level::Beta),
    ("k8s:unionDiscriminator", Level::Beta),
    ("k8s:validateTrueBeta", Level::Beta),
    ("k8s:customUnique", Level::Stable),
    ("k8s:customValidation", Level::Stable),
    ("k8s:eachKey", Level::Stable),
    ("k8s:eachVal", Level::Stable),
    ("k8s:enum", Level::Stable),
    ("k8s:format", Level::Stable),
    ("k8s:ifDisabled", Level::Stable),
    ("k8s:ifEnabled", Level::Stable),
    ("k8s:ifMode", Level::Stable),
    ("k8s:immutable", Level::Stable),
    ("k8s:item", Level::Stable),
    ("k8s:listMapKey", Level::Stable),
    ("k8s:listType", Level::Stable),
    ("k8s:maxBytes", Level::Stable),
    ("k8s:maxItems", Level::Stable),
    ("k8s:maxLength", Level::Stable),
    ("k8s:maxProperties", Level::Stable),
    ("k8s:maximum", Level::Stable),
    ("k8s:minItems", Level::Stable),
    ("k8s:minLength", Level::Stable),
    ("k8s:minProperties", Level::Stable),
    ("k8s:minimum", Level::Stable),
    ("k8s:modeDiscriminator", Level::Stable),
    ("k8s:opaqueType", Level::Stable),
    ("k8s:optional", Level::Stable),
    ("k8s:required", Level::Stable),
    ("k8s:subfield", Level::Stable),
    ("k8s:unionMember", Level::Stable),
    ("k8s:unique", Level::Stable),
    ("k8s:update", Level::Stable),
    ("k8s:zeroOrOneOfMember", Level::Stable),
];

const REQUIREDNESS: &str = "field with validation must have +k8s:optional, +k8s:required or +k8s:forbidden";

/// Opacity carried down a type walk (1.37): the type itself, a map's keys, list items / values.
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
struct Opacity {
    typ: bool,
    key: bool,
    val: bool,
}

/// The registry of one version, and the walk's caches.
struct Rules {
    new: bool,
    levels: &'static [(&'static str, Level)],
    /// 1.37: per (type, opacity); 1.36: per type (opacity unused). `None`: being computed.
    cache: BTreeMap<(TypeId, Opacity), Option<bool>>,
}

impl Rules {
    fn level(&self, name: &str) -> Option<Level> {
        self.levels.iter().find(|(n, _)| *n == name).map(|(_, l)| *l)
    }

    /// Tags whose payload is a tag (`PayloadsType == ValueTypeTag`).
    fn chains(&self, name: &str) -> bool {
        let member = if self.new { "k8s:ifMode" } else { "k8s:member" };
        matches!(
            name,
            "k8s:alpha"
                | "k8s:beta"
                | "k8s:eachKey"
                | "k8s:eachVal"
                | "k8s:ifDisabled"
                | "k8s:ifEnabled"
                | "k8s:item"
                | "k8s:subfield"
        ) || name == member
    }

    /// 1.37 `hasNonOpaqueValidationTag`; 1.36 `hasAnyValidationTag`.
    fn has_validation(&self, tags: &[&Tag]) -> bool {
        tags.iter().any(|t| {
            let skip = t.name == "k8s:optional" || (self.new && t.name == "k8s:opaqueType");
            let chain =
                if self.new { self.chains(&t.name) } else { matches!(t.name.as_str(), "k8s:alpha" | "k8s:beta") };
            if skip {
                false
            } else if chain {
                matches!(&t.payload, Payload::Tag(inner) if self.has_validation(&[inner]))
            } else {
                self.level(&t.name).is_some()
            }
        })
    }

    /// What `ExtractValidations` gives of opacity for these tags (1.37): `+k8s:opaqueType`, and
    /// under `eachVal`/`eachKey` the values' / keys'; wrappers pass it through.
    fn opacity(&self, tags: &[&Tag]) -> Opacity {
        let mut op = Opacity::default();
        for t in tags {
            let inner = match &t.payload {
                Payload::Tag(inner) => Some(&**inner),
                _ => None,
            };
            match t.name.as_str() {
                "k8s:opaqueType" => op.typ = true,
                "k8s:eachVal" => op.val |= inner.is_some_and(|i| self.opacity(&[i]).typ),
                "k8s:eachKey" => op.key |= inner.is_some_and(|i| self.opacity(&[i]).typ),
                "k8s:alpha" | "k8s:beta" | "k8s:ifEnabled" | "k8s:ifDisabled" | "k8s:item" => {
                    if let Some(i) = inner {
                        let o = self.opacity(&[i]);
                        op = Opacity { typ: op.typ || o.typ, key: op.key || o.key, val: op.val || o.val };
                    }
                }
                _ => {}
            }
        }
        op
    }

    /// Whether a type's tags generate anything (`HasEmitable`: functions, variables, comments
    /// or deferred list/subfield/mode validations); opacity and key declarations alone do not.
    fn emitable(&self, t: &Tag) -> bool {
        let inner = match &t.payload {
            Payload::Tag(inner) => Some(&**inner),
            _ => None,
        };
        match t.name.as_str() {
            "k8s:opaqueType" | "k8s:listMapKey" | "k8s:modeDiscriminator" => false,
            "k8s:alpha" | "k8s:beta" | "k8s:ifEnabled" | "k8s:ifDisabled" | "k8s:eachVal" | "k8s:eachKey"
            | "k8s:item" => inner.is_some_and(|i| self.emitable(i)),
            name => self.level(name).is_some(),
        }
    }
}

/// The known tags of a comment block, by name as validation-gen reads them (tag names sorted,
/// then in order); tags that do not parse are left out.
fn block(comments: &[Comment]) -> Vec<Tag> {
    let mut tags: Vec<Tag> = tags::extract(comments).into_iter().flatten().collect();
    crate::sort::sort_by(&mut tags, |a, b| a.name.cmp(&b.name));
    tags
}

fn nolint(comments: &[Comment]) -> bool {
    comments.iter().any(|c| {
        let t = c.text.trim_start_matches('/').trim();
        t == "+k8s:validation-gen-nolint" || t.starts_with("+k8s:validation-gen-nolint=")
    })
}

/// Where each declared type of the compilation is: its package and declaration.
struct Decls<'f> {
    by_id: BTreeMap<TypeId, (usize, &'f TypeDecl)>,
}

impl Compiler<'_> {
    /// Runs validation-gen's lint from the root types (1.36 and later), adding an error per
    /// message at the field or type it names.
    pub(super) fn lint(&mut self, minor: u32) {
        if minor < 36 || nolint(&self.packages[0].file.package_comments) {
            return;
        }
        let mut decls = Decls { by_id: BTreeMap::new() };
        for (p, pkg) in self.packages.iter().enumerate() {
            let names = if p == 0 { &self.schema.declared } else { &pkg.names };
            for (name, id) in names {
                if let Some(d) = pkg.file.types.iter().find(|d| &d.name == name) {
                    decls.by_id.insert(*id, (p, d));
                }
            }
        }
        let mut rules =
            Rules { new: minor >= 37, levels: if minor >= 37 { LEVELS_37 } else { LEVELS_36 }, cache: BTreeMap::new() };
        let roots: Vec<TypeId> = self
            .schema
            .declared
            .iter()
            .map(|(_, id)| *id)
            .filter(|id| match self.schema.kind(*id) {
                Kind::Struct(fields) => {
                    fields.iter().any(|f| f.go_name == "TypeMeta") && !fields.iter().any(|f| f.go_name == "ListMeta")
                }
                _ => false,
            })
            .collect();
        let mut linted = alloc::vec![false; self.schema.types.len()];
        let mut found: Vec<(usize, Pos, String)> = Vec::new();
        for root in roots {
            self.lint_type(root, &decls, &mut rules, &mut linted, &mut found);
        }
        for (p, pos, message) in found {
            let label = self.packages[p].label;
            // kubedv's own apimachinery shapes are not the user's to fix.
            if p > 0 && label.is_empty() {
                continue;
            }
            let mut d = Diagnostic::error(pos, message);
            if p > 0 {
                d.file = Some(label.into());
            }
            self.schema.diagnostics.push(d);
        }
    }

    /// validation-gen's `lintType`.
    fn lint_type(
        &self,
        id: TypeId,
        decls: &Decls<'_>,
        rules: &mut Rules,
        linted: &mut [bool],
        found: &mut Vec<(usize, Pos, String)>,
    ) {
        if id >= linted.len() || core::mem::replace(&mut linted[id], true) {
            return;
        }
        let decl = decls.by_id.get(&id).copied();
        if let Some((p, d)) = decl {
            if nolint(&d.comments) {
                return;
            }
            let title = self.lint_title(p, &d.name);
            for message in self.lint_block(None, id, p, &d.comments, decls, rules) {
                found.push((p, d.pos, format!("lint failed: type {title}: {message}")));
            }
        }
        match self.schema.kind(id) {
            Kind::Alias(u) | Kind::Pointer(u) | Kind::Slice(u) => self.lint_type(*u, decls, rules, linted, found),
            Kind::Map(k, v) => {
                self.lint_type(*k, decls, rules, linted, found);
                self.lint_type(*v, decls, rules, linted, found);
            }
            Kind::Struct(fields) => {
                let Some((p, d)) = decl else { return };
                let TypeExpr::Struct(members) = &d.ty else { return };
                let title = self.lint_title(p, &d.name);
                for m in members {
                    let Some(f) = fields.iter().find(|f| f.go_name == m.name) else { continue };
                    for message in self.lint_block(Some(id), f.ty, p, &m.comments, decls, rules) {
                        found.push((p, m.pos, format!("lint failed: type {title}: field {}: {message}", m.name)));
                    }
                    self.lint_type(f.ty, decls, rules, linted, found);
                }
            }
            _ => {}
        }
    }

    /// How validation-gen names a type (`pkgpath.Name`; the compiled file's own package by its
    /// name, its import path being unknown).
    fn lint_title(&self, p: usize, name: &str) -> String {
        match p {
            0 => format!("{}.{name}", self.packages[0].file.package),
            _ => format!("{}.{name}", self.packages[p].path),
        }
    }

    /// The package path the stability context is read from (`path.Base` of it).
    fn lint_context(&self, p: usize) -> Level {
        let path = if p == 0 { self.packages[0].file.package.as_str() } else { self.packages[p].path };
        let base = path.rsplit('/').next().unwrap_or(path);
        if base.contains("alpha") {
            Level::Alpha
        } else if base.contains("beta") {
            Level::Beta
        } else {
            Level::Stable
        }
    }

    /// validation-gen's `lintComments`: the rules on one comment block, at most one message each.
    fn lint_block(
        &self,
        container: Option<TypeId>,
        ty: TypeId,
        p: usize,
        comments: &[Comment],
        decls: &Decls<'_>,
        rules: &mut Rules,
    ) -> Vec<String> {
        let owned = block(comments);
        let tags: Vec<&Tag> = owned.iter().collect();
        let mut out = Vec::new();
        if let Some(m) = tags.iter().find_map(|t| alpha_beta(t, true)) {
            out.push(m);
        }
        if let Some(m) = stability(rules, &tags, self.lint_context(p)) {
            out.push(m);
        }
        if container.is_some() && self.needs_requiredness(ty, &tags, decls, rules) {
            out.push(String::from(REQUIREDNESS));
        }
        out
    }

    /// `requiredAndOptional` for a field of type `ty` with these tags.
    fn needs_requiredness(&self, ty: TypeId, tags: &[&Tag], decls: &Decls<'_>, rules: &mut Rules) -> bool {
        // Struct values (and names for them) cannot say whether they are required. A type kubedv
        // does not model (another package's, unread) is taken as one: nothing is known of it.
        let mut under = ty;
        while let Kind::Alias(u) = self.schema.kind(under) {
            under = *u;
        }
        if matches!(self.schema.kind(under), Kind::Struct(_) | Kind::Opaque) {
            return false;
        }
        let requiredness = ["k8s:optional", "k8s:required", "k8s:forbidden"];
        if tags.iter().any(|t| requiredness.iter().any(|r| has_tag(t, r))) {
            return false;
        }
        if rules.has_validation(tags) {
            return true;
        }
        let op = if rules.new { rules.opacity(tags) } else { Opacity::default() };
        self.transitive(ty, op, decls, rules).0
    }

    /// Whether a type has validation, transitively (`hasTransitiveValidation` in 1.37, with
    /// opacity; `checkType` in 1.36), and whether a cycle cut the walk short.
    fn transitive(&self, id: TypeId, mut op: Opacity, decls: &Decls<'_>, rules: &mut Rules) -> (bool, bool) {
        if op.typ {
            return (false, false);
        }
        let key = (id, if rules.new { op } else { Opacity::default() });
        match rules.cache.get(&key) {
            Some(None) => return (false, true),
            Some(Some(v)) => return (*v, false),
            None => {}
        }
        rules.cache.insert(key, None);
        let decl = decls.by_id.get(&id).copied();
        let own = decl.map(|(_, d)| block(&d.comments)).unwrap_or_default();
        let own: Vec<&Tag> = own.iter().filter(|t| rules.level(&t.name).is_some()).collect();
        let mut has = false;
        if rules.new {
            let o = rules.opacity(&own);
            op = Opacity { typ: op.typ || o.typ, key: op.key || o.key, val: op.val || o.val };
            if op.typ {
                rules.cache.insert(key, Some(false));
                return (false, false);
            }
            if own.iter().any(|t| rules.emitable(t)) {
                rules.cache.insert(key, Some(true));
                return (true, false);
            }
        } else {
            has = rules.has_validation(&own);
        }
        let mut cut = false;
        let mut walk = |t: TypeId, o: Opacity, rules: &mut Rules, has: &mut bool| {
            let (h, c) = self.transitive(t, o, decls, rules);
            *has |= h;
            cut |= c;
        };
        match self.schema.kind(id) {
            Kind::Alias(u) | Kind::Pointer(u) => walk(*u, op, rules, &mut has),
            Kind::Slice(e) => walk(*e, Opacity { typ: op.val, ..Opacity::default() }, rules, &mut has),
            Kind::Map(k, v) => {
                walk(*k, Opacity { typ: op.key, ..Opacity::default() }, rules, &mut has);
                if !(rules.new && has) {
                    walk(*v, Opacity { typ: op.val, ..Opacity::default() }, rules, &mut has);
                }
            }
            Kind::Struct(fields) => {
                let members = match decl.map(|(_, d)| &d.ty) {
                    Some(TypeExpr::Struct(m)) => m.as_slice(),
                    _ => &[],
                };
                for m in members {
                    let Some(f) = fields.iter().find(|f| f.go_name == m.name) else { continue };
                    let mtags = block(&m.comments);
                    let mtags: Vec<&Tag> = mtags.iter().collect();
                    if rules.has_validation(&mtags) {
                        has = true;
                        if rules.new {
                            break;
                        }
                        continue;
                    }
                    let mop = if rules.new {
                        let o = rules.opacity(&mtags);
                        Opacity { typ: op.typ || o.typ, key: op.key || o.key, val: op.val || o.val }
                    } else {
                        Opacity::default()
                    };
                    walk(f.ty, mop, rules, &mut has);
                    if rules.new && has {
                        break;
                    }
                }
            }
            _ => {}
        }
        // 1.36 keeps a result reached through a cut cycle only when it is true; 1.37 never.
        if (!rules.new && has) || !cut {
            rules.cache.insert(key, Some(has));
        } else {
            rules.cache.remove(&key);
        }
        (has, cut)
    }
}

/// `checkAlphaBetaUsage`.
fn alpha_beta(t: &Tag, root: bool) -> Option<String> {
    if t.name == "k8s:alpha" || t.name == "k8s:beta" {
        if !root {
            return Some(format!("tag {:?} can't be used in between", t.name));
        }
        if !matches!(t.payload, Payload::Tag(_)) {
            return Some(format!("tag {:?} requires a validation tag as its value payload", t.name));
        }
    }
    match &t.payload {
        Payload::Tag(inner) => alpha_beta(inner, false),
        _ => None,
    }
}

/// `validationStability`: the first tag whose level is below its context's.
fn stability(rules: &Rules, tags: &[&Tag], package: Level) -> Option<String> {
    for t in tags {
        let mut context = package;
        let mut check = *t;
        if t.name == "k8s:alpha" || t.name == "k8s:beta" {
            context = if t.name == "k8s:alpha" { Level::Alpha } else { Level::Beta };
            match &t.payload {
                Payload::Tag(inner) => check = inner,
                _ => continue,
            }
        }
        if (check.name == "k8s:ifEnabled" || check.name == "k8s:ifDisabled") && context == Level::Stable {
            context = Level::Beta;
        }
        if let Some(m) = stable_enough(rules, check, context) {
            return Some(m);
        }
    }
    None
}

/// `checkTagStability`: a tag and the tags it carries, against a context level.
fn stable_enough(rules: &Rules, t: &Tag, context: Level) -> Option<String> {
    let level = rules.level(&t.name)?;
    if level < context {
        return Some(format!(
            "tag {:?} with stability level {:?} cannot be used in {} validation",
            t.name,
            level.name(),
            context.name()
        ));
    }
    match &t.payload {
        Payload::Tag(inner) => stable_enough(rules, inner, context),
        _ => None,
    }
}

/// `hasTag`: the tag or any tag it carries is `name`.
fn has_tag(t: &Tag, name: &str) -> bool {
    t.name == name || matches!(&t.payload, Payload::Tag(inner) if has_tag(inner, name))
}
