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

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::{Compiler, Kind, TypeId};
use crate::declarative::tags::{self, Payload, Tag};
use crate::diag::{Diagnostic, Pos};
use crate::golang::{Comment, TypeDecl, TypeExpr};

/// Stability levels (`TagStabilityLevel`), ordered; 0 is "not a registered tag".
const ALPHA: u8 = 1;
const BETA: u8 = 2;
const STABLE: u8 = 3;
const LEVEL_NAMES: [&str; 4] = ["", "Alpha", "Beta", "Stable"];

/// The registry's tags and levels: code-generator v0.36.3 (Kubernetes 1.36) in the high two
/// bits, the 1.37 revision (after v0.37.0-beta.0; lint and registry files the same at the tag)
/// in the low two (`validators/*.go` `Docs().StabilityLevel`).
const TAGS: &[(&str, u8)] = &[
    ("k8s:alpha", BETA << 2 | BETA),
    ("k8s:beta", BETA << 2 | BETA),
    ("k8s:customUnique", BETA << 2 | STABLE),
    ("k8s:customValidation", STABLE),
    ("k8s:dependentForbidden", ALPHA),
    ("k8s:dependentRequired", ALPHA),
    ("k8s:discriminator", ALPHA << 2),
    ("k8s:eachKey", BETA << 2 | STABLE),
    ("k8s:eachVal", ALPHA << 2 | STABLE),
    ("k8s:enum", STABLE << 2 | STABLE),
    ("k8s:enumExclude", ALPHA << 2 | ALPHA),
    ("k8s:forbidden", BETA << 2 | BETA),
    ("k8s:format", STABLE << 2 | STABLE),
    ("k8s:ifDisabled", BETA << 2 | STABLE),
    ("k8s:ifEnabled", BETA << 2 | STABLE),
    ("k8s:ifMode", STABLE),
    ("k8s:immutable", BETA << 2 | STABLE),
    ("k8s:item", STABLE << 2 | STABLE),
    ("k8s:listMapKey", STABLE << 2 | STABLE),
    ("k8s:listType", STABLE << 2 | STABLE),
    ("k8s:maxBytes", BETA << 2 | STABLE),
    ("k8s:maxItems", STABLE << 2 | STABLE),
    ("k8s:maxLength", BETA << 2 | STABLE),
    ("k8s:maxProperties", STABLE),
    ("k8s:maximum", BETA << 2 | STABLE),
    ("k8s:member", ALPHA << 2),
    ("k8s:minItems", BETA << 2 | STABLE),
    ("k8s:minLength", ALPHA << 2 | STABLE),
    ("k8s:minProperties", STABLE),
    ("k8s:minimum", STABLE << 2 | STABLE),
    ("k8s:modeDiscriminator", STABLE),
    ("k8s:monotonic", ALPHA),
    ("k8s:neq", ALPHA << 2 | ALPHA),
    ("k8s:opaqueType", ALPHA << 2 | STABLE),
    ("k8s:optional", STABLE << 2 | STABLE),
    ("k8s:required", STABLE << 2 | STABLE),
    ("k8s:subfield", STABLE << 2 | STABLE),
    ("k8s:unionDiscriminator", BETA << 2 | BETA),
    ("k8s:unionMember", STABLE << 2 | STABLE),
    ("k8s:unique", BETA << 2 | STABLE),
    ("k8s:update", BETA << 2 | STABLE),
    ("k8s:validateError", ALPHA << 2 | ALPHA),
    ("k8s:validateFalse", ALPHA << 2 | ALPHA),
    ("k8s:validateTrue", ALPHA << 2 | ALPHA),
    ("k8s:validateTrueAlpha", ALPHA << 2 | ALPHA),
    ("k8s:validateTrueBeta", BETA << 2 | BETA),
    ("k8s:zeroOrOneOfMember", STABLE << 2 | STABLE),
];

const REQUIREDNESS: &str = "field with validation must have +k8s:optional, +k8s:required or +k8s:forbidden";

/// Opacity carried down a type walk (1.37): the type itself, a map's keys, list items / values.
const TYP: u8 = 1;
const KEY: u8 = 2;
const VAL: u8 = 4;

/// The registry of one version, and the walk's cache: per type and opacity, 0 not seen, 1
/// being computed, 2 no validation, 3 validation.
struct Rules {
    new: bool,
    cache: Vec<u8>,
}

fn payload(t: &Tag) -> Option<&Tag> {
    match &t.payload {
        Payload::Tag(inner) => Some(inner),
        _ => None,
    }
}

impl Rules {
    /// `GetStability`: the tag's level, 0 when it is not a registered validation tag.
    fn level(&self, name: &str) -> u8 {
        TAGS.iter().find(|(n, _)| *n == name).map_or(0, |(_, l)| if self.new { l & 3 } else { l >> 2 })
    }

    /// Tags whose payload is a tag (`PayloadsType == ValueTypeTag`).
    fn chains(&self, name: &str) -> bool {
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
        ) || name == if self.new { "k8s:ifMode" } else { "k8s:member" }
    }

    /// 1.37 `hasNonOpaqueValidationTag`; 1.36 `hasAnyValidationTag`.
    fn has_validation(&self, t: &Tag) -> bool {
        let name = t.name.as_str();
        if name == "k8s:optional" || (self.new && name == "k8s:opaqueType") {
            return false;
        }
        let chain = if self.new { self.chains(name) } else { matches!(name, "k8s:alpha" | "k8s:beta") };
        match chain {
            true => payload(t).is_some_and(|i| self.has_validation(i)),
            false => self.level(name) > 0,
        }
    }

    /// What `ExtractValidations` gives of opacity for a tag (1.37): `+k8s:opaqueType`, and under
    /// `eachVal`/`eachKey` the values' / keys'; wrappers pass it through.
    fn opacity(&self, t: &Tag) -> u8 {
        let inner = payload(t).map_or(0, |i| self.opacity(i));
        match t.name.as_str() {
            "k8s:opaqueType" => TYP,
            "k8s:eachVal" if inner & TYP != 0 => VAL,
            "k8s:eachKey" if inner & TYP != 0 => KEY,
            "k8s:alpha" | "k8s:beta" | "k8s:ifEnabled" | "k8s:ifDisabled" | "k8s:item" => inner,
            _ => 0,
        }
    }

    /// Whether a type's tag generates anything (`HasEmitable`: functions, variables, comments
    /// or deferred list/subfield/mode validations); opacity and key declarations alone do not.
    fn emitable(&self, t: &Tag) -> bool {
        match t.name.as_str() {
            "k8s:opaqueType" | "k8s:listMapKey" | "k8s:modeDiscriminator" => false,
            "k8s:alpha" | "k8s:beta" | "k8s:ifEnabled" | "k8s:ifDisabled" | "k8s:eachVal" | "k8s:eachKey"
            | "k8s:item" => payload(t).is_some_and(|i| self.emitable(i)),
            name => self.level(name) > 0,
        }
    }
}

/// The tags of a comment block as validation-gen reads them (by tag name, then in order);
/// tags that do not parse are left out.
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

/// Where each declared type of the compilation is (by type id): its package and declaration.
type Decls<'f> = Vec<Option<(usize, &'f TypeDecl)>>;

impl Compiler<'_> {
    /// Runs validation-gen's lint from the root types (1.36 and later), adding an error per
    /// message at the field or type it names.
    pub(super) fn lint(&mut self, minor: u32) {
        if minor < 36 || nolint(&self.packages[0].file.package_comments) {
            return;
        }
        let n = self.schema.types.len();
        let mut decls: Decls<'_> = alloc::vec![None; n];
        for (p, pkg) in self.packages.iter().enumerate() {
            let names = if p == 0 { &self.schema.declared } else { &pkg.names };
            for (name, id) in names {
                if let (Some(slot), Some(d)) = (decls.get_mut(*id), pkg.file.types.iter().find(|d| &d.name == name)) {
                    *slot = Some((p, d));
                }
            }
        }
        let mut rules = Rules { new: minor >= 37, cache: alloc::vec![0; n * 8] };
        let mut linted = alloc::vec![false; n];
        let mut found: Vec<(usize, Pos, String)> = Vec::new();
        for (_, id) in &self.schema.declared {
            if let Kind::Struct(fields) = self.schema.kind(*id) {
                // Root types: TypeMeta, and not a list (ListMeta).
                if fields.iter().any(|f| f.go_name == "TypeMeta") && !fields.iter().any(|f| f.go_name == "ListMeta") {
                    self.lint_type(*id, &decls, &mut rules, &mut linted, &mut found);
                }
            }
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
        let decl = decls[id];
        if let Some((p, d)) = decl {
            if nolint(&d.comments) {
                return;
            }
            // How validation-gen names a type: `pkgpath.Name` (the compiled file's own package
            // by its name, its import path being unknown).
            let title = match p {
                0 => format!("{}.{}", self.packages[0].file.package, d.name),
                _ => format!("{}.{}", self.packages[p].path, d.name),
            };
            for message in self.lint_block(None, id, p, &d.comments, decls, rules) {
                found.push((p, d.pos, format!("lint failed: type {title}: {message}")));
            }
            if let (Kind::Struct(fields), TypeExpr::Struct(members)) = (self.schema.kind(id), &d.ty) {
                for m in members {
                    let Some(f) = fields.iter().find(|f| f.go_name == m.name) else { continue };
                    for message in self.lint_block(Some(id), f.ty, p, &m.comments, decls, rules) {
                        found.push((p, m.pos, format!("lint failed: type {title}: field {}: {message}", m.name)));
                    }
                    self.lint_type(f.ty, decls, rules, linted, found);
                }
            }
        }
        match self.schema.kind(id) {
            Kind::Alias(u) | Kind::Pointer(u) | Kind::Slice(u) => self.lint_type(*u, decls, rules, linted, found),
            Kind::Map(k, v) => {
                self.lint_type(*k, decls, rules, linted, found);
                self.lint_type(*v, decls, rules, linted, found);
            }
            _ => {}
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
        let tags = block(comments);
        let mut out = Vec::new();
        if let Some(m) = tags.iter().find_map(|t| alpha_beta(t, true)) {
            out.push(m);
        }
        // The stability context: `path.Base` of the package path (the container's for a field).
        let path = if p == 0 { self.packages[0].file.package.as_str() } else { self.packages[p].path };
        let base = path.rsplit('/').next().unwrap_or(path);
        let package = if base.contains("alpha") {
            ALPHA
        } else if base.contains("beta") {
            BETA
        } else {
            STABLE
        };
        if let Some(m) = tags.iter().find_map(|t| stability(rules, t, package)) {
            out.push(m);
        }
        if container.is_some() && self.needs_requiredness(ty, &tags, decls, rules) {
            out.push(String::from(REQUIREDNESS));
        }
        out
    }

    /// `requiredAndOptional` for a field of type `ty` with these tags.
    fn needs_requiredness(&self, ty: TypeId, tags: &[Tag], decls: &Decls<'_>, rules: &mut Rules) -> bool {
        // Struct values (and names for them) cannot say whether they are required. A type kubedv
        // does not model (another package's, unread) is taken as one: nothing is known of it.
        let mut under = ty;
        while let Kind::Alias(u) = self.schema.kind(under) {
            under = *u;
        }
        if matches!(self.schema.kind(under), Kind::Struct(_) | Kind::Opaque) {
            return false;
        }
        if tags.iter().any(|t| ["k8s:optional", "k8s:required", "k8s:forbidden"].iter().any(|r| has_tag(t, r))) {
            return false;
        }
        if tags.iter().any(|t| rules.has_validation(t)) {
            return true;
        }
        let op = if rules.new { tags.iter().fold(0, |o, t| o | rules.opacity(t)) } else { 0 };
        self.transitive(ty, op, decls, rules).0
    }

    /// Whether a type has validation, transitively (`hasTransitiveValidation` in 1.37, with
    /// opacity; `checkType` in 1.36), and whether a cycle cut the walk short.
    fn transitive(&self, id: TypeId, mut op: u8, decls: &Decls<'_>, rules: &mut Rules) -> (bool, bool) {
        if op & TYP != 0 || id >= decls.len() {
            return (false, false);
        }
        let slot = id * 8 + usize::from(if rules.new { op } else { 0 });
        match rules.cache[slot] {
            1 => return (false, true),
            2 => return (false, false),
            3 => return (true, false),
            _ => {}
        }
        rules.cache[slot] = 1;
        let decl = decls[id];
        let own: Vec<Tag> = decl.map(|(_, d)| block(&d.comments)).unwrap_or_default();
        let own = own.iter().filter(|t| rules.level(&t.name) > 0);
        let mut has = false;
        if rules.new {
            op |= own.clone().fold(0, |o, t| o | rules.opacity(t));
            if op & TYP != 0 || own.clone().any(|t| rules.emitable(t)) {
                let has = op & TYP == 0;
                rules.cache[slot] = 2 + u8::from(has);
                return (has, false);
            }
        } else {
            has = own.clone().any(|t| rules.has_validation(t));
        }
        let mut cut = false;
        // (type, opacity) pairs to walk: elements carry only the list's / map's element opacity.
        let mut next: Vec<(TypeId, u8)> = Vec::new();
        match self.schema.kind(id) {
            Kind::Alias(u) | Kind::Pointer(u) => next.push((*u, op)),
            Kind::Slice(e) => next.push((*e, if op & VAL != 0 { TYP } else { 0 })),
            Kind::Map(k, v) => {
                next.push((*k, if op & KEY != 0 { TYP } else { 0 }));
                next.push((*v, if op & VAL != 0 { TYP } else { 0 }));
            }
            Kind::Struct(fields) => {
                if let Some((_, TypeDecl { ty: TypeExpr::Struct(members), .. })) = decl {
                    for m in members {
                        let Some(f) = fields.iter().find(|f| f.go_name == m.name) else { continue };
                        let mtags = block(&m.comments);
                        if mtags.iter().any(|t| rules.has_validation(t)) {
                            has = true;
                            if rules.new {
                                break;
                            }
                            continue;
                        }
                        let mop = if rules.new { op | mtags.iter().fold(0, |o, t| o | rules.opacity(t)) } else { 0 };
                        next.push((f.ty, mop));
                    }
                }
            }
            _ => {}
        }
        for (t, o) in next {
            if rules.new && has {
                break;
            }
            let (h, c) = self.transitive(t, o, decls, rules);
            has |= h;
            cut |= c;
        }
        // 1.36 keeps a result reached through a cut cycle only when it is true; 1.37 never.
        rules.cache[slot] = if (!rules.new && has) || !cut { 2 + u8::from(has) } else { 0 };
        (has, cut)
    }
}

/// `checkAlphaBetaUsage`.
fn alpha_beta(t: &Tag, root: bool) -> Option<String> {
    if t.name == "k8s:alpha" || t.name == "k8s:beta" {
        if !root {
            return Some(format!("tag \"{}\" can't be used in between", t.name));
        }
        if payload(t).is_none() {
            return Some(format!("tag \"{}\" requires a validation tag as its value payload", t.name));
        }
    }
    alpha_beta(payload(t)?, false)
}

/// `validationStability` for one tag: its level (and its payload's) against the context.
fn stability(rules: &Rules, t: &Tag, package: u8) -> Option<String> {
    let (mut context, mut check) = (package, t);
    if t.name == "k8s:alpha" || t.name == "k8s:beta" {
        context = if t.name == "k8s:alpha" { ALPHA } else { BETA };
        check = payload(t)?;
    }
    if (check.name == "k8s:ifEnabled" || check.name == "k8s:ifDisabled") && context == STABLE {
        context = BETA;
    }
    stable_enough(rules, check, context)
}

/// `checkTagStability`: a tag and the tags it carries, against a context level.
fn stable_enough(rules: &Rules, t: &Tag, context: u8) -> Option<String> {
    let level = rules.level(&t.name);
    if level == 0 {
        return None;
    }
    if level < context {
        return Some(format!(
            "tag \"{}\" with stability level \"{}\" cannot be used in {} validation",
            t.name,
            LEVEL_NAMES[usize::from(level)],
            LEVEL_NAMES[usize::from(context)]
        ));
    }
    stable_enough(rules, payload(t)?, context)
}

/// `hasTag`: the tag or any tag it carries is `name`.
fn has_tag(t: &Tag, name: &str) -> bool {
    t.name == name || payload(t).is_some_and(|i| has_tag(i, name))
}
