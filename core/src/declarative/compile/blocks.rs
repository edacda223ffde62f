//! Comment blocks and the struct-level collectors: a declaration's tags compiled in
//! validation-gen's order (`compile_block`), and what spans several fields or tags of a struct or
//! list: unions, modes, dependent fields, item unions, list identity, enum values, subresources.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::declarative::catalog::{self, Scope};
use crate::declarative::schema::{Field, Kind, ListSpec, Schema, TypeId, TypeNode};
use crate::declarative::tags::{self, Payload, Tag, ValueKind};
use crate::declarative::validators::{Check, Criteria, EnumExclusion, Union, UpdateConstraint, Validator};
use crate::diag::{Diagnostic, Pos};
use crate::field::Stability;
use crate::golang::{self, Comment, ConstDecl, File, TypeExpr};

use super::{Compiler, Site};

impl Compiler<'_> {
    pub(super) fn has_tag(&self, comments: &[Comment], name: &str) -> bool {
        self.tag_level(comments, name).is_some()
    }

    /// The level of a tag in a comment block, wrapped (`+k8s:beta=+k8s:enum`) or not.
    pub(super) fn tag_level(&self, comments: &[Comment], name: &str) -> Option<Stability> {
        tags::extract(comments).iter().flatten().map(unwrapped).find(|(t, _)| t.name == name).map(|(_, l)| l)
    }

    /// The list identity each declared type's tags give (`listType`, `listMapKey`), which its
    /// fields' `+k8s:item` tags use wherever the type is declared.
    pub(super) fn type_list_specs(&mut self) {
        for decl in &self.file.types {
            if let Some(id) = self.local(&decl.name) {
                self.schema.types[id].list = self.list_spec(&decl.comments);
            }
        }
    }

    /// Compiles the tags of every declared type, its fields, and its enum constants.
    pub(super) fn compile_type_tags(&mut self) {
        for i in 0..self.file.types.len() {
            let decl = &self.file.types[i];
            let Some(id) = self.local(&decl.name) else { continue };
            let what = format!("type {}", decl.name);
            // A type's item-union members are named from its path, the type's name (item.go
            // `context.Path.Key(...)`: `TaskList[{"name": "a"}]`).
            let vals = self.compile_block(&decl.comments, Scope::Type, id, &what, &decl.name);
            self.schema.types[id].validations = vals;
            self.schema.types[id].opaque = self.has_tag(&decl.comments, "k8s:opaqueType");
            self.schema.types[id].opaque_elements = super::opaque_elements(&decl.comments);
            self.enum_values(id, &decl.name, &decl.comments);
            // targets.go isSubresourceTag / supportedSubresourceTags: the second-closest
            // comment block, then the doc comment.
            let mut around = decl.second_comments.clone();
            around.extend(decl.comments.iter().cloned());
            self.subresource_tags(id, &around);
            self.compile_field_tags(id, &decl.ty, &decl.name);
        }
    }

    /// Field tags of a struct declaration (and of anonymous structs nested in it).
    pub(super) fn compile_field_tags(&mut self, id: TypeId, expr: &TypeExpr, owner: &str) {
        let TypeExpr::Struct(decls) = expr else { return };
        let Kind::Struct(fields) = self.schema.types[id].kind.layout() else { return };
        let mut compiled = fields;
        for f in decls {
            let Some(idx) = compiled.iter().position(|c| c.go_name == f.name && c.pos == f.pos) else { continue };
            let what = format!("field {owner}.{}", f.name);
            let json = compiled[idx].json_name.clone();
            let mut vals = self.compile_block(&f.comments, Scope::Field, compiled[idx].ty, &what, &json);
            if let Some(default) = &compiled[idx].default {
                let ty = compiled[idx].ty;
                if let Err(msg) =
                    super::super::defaults::optional_with_default(&self.schema, &mut vals, ty, &f.comments, default)
                {
                    self.error(f.pos, format!("{what}: {msg}"));
                }
            }
            compiled[idx].validations = vals;
            if compiled[idx].opaque {
                for v in &mut compiled[idx].validations {
                    if let Check::Subfield { inherit, .. } = &mut v.check {
                        *inherit = false;
                    }
                }
            }
            if let Some(spec) = self.list_spec(&f.comments) {
                // The field's own copy of its list type, carrying the identity its tags declare.
                let base = compiled[idx].ty;
                let node = TypeNode {
                    name: self.schema.types[base].name.clone(),
                    kind: Kind::Alias(base),
                    validations: Vec::new(),
                    list: Some(spec),
                    opaque: false,
                    opaque_elements: (false, false),
                    well_known: None,
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
        for f in &compiled {
            // validators/update.go generateSliceValidation: NoAddItem/NoRemoveItem on an
            // unnamed list need the field's item identity (a named list type may declare its own).
            let adds_or_removes = f.validations.iter().any(|v| {
                matches!(&v.check, Check::Update(cs) if cs.iter().any(|c| matches!(c, UpdateConstraint::NoAddItem | UpdateConstraint::NoRemoveItem)))
            });
            let unnamed_list = self.schema.types[f.ty].name.starts_with("[]");
            if adds_or_removes && unnamed_list && self.schema.list_spec(f.ty).is_none() {
                let msg = format!(
                    "field {owner}.{}: +k8s:update=NoAddItem/+k8s:update=NoRemoveItem require listType=set, listType=map, unique=set, or unique=map to define item identity",
                    f.go_name
                );
                self.error(f.pos, msg);
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
    pub(super) fn dependents(&mut self, decls: &[golang::FieldDecl], fields: &[Field]) -> Vec<Validator> {
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
                let other =
                    super::super::validate::member(&self.schema, fields, &dep).map(|o| (o.go_name.clone(), o.ty));
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
    pub(super) fn unions(&mut self, decls: &[golang::FieldDecl], fields: &[Field]) -> Vec<Validator> {
        let mut extracted: Vec<(Vec<Tag>, &Field)> = Vec::new();
        for d in decls {
            if let Some(f) = fields.iter().find(|f| f.go_name == d.name && f.pos == d.pos) {
                extracted.push((tags_of(&d.comments), f));
            }
        }
        let mut tagged = Vec::new();
        for (ts, f) in &extracted {
            for t in ts {
                tagged.push((gated(t), *f));
            }
        }
        union_validators(tagged)
    }

    /// The union of a struct field's own fields, from its `+k8s:subfield(name)=` union tags
    /// (validation-gen subfield.go: the union is checked at the field, its members named by
    /// the subfield's JSON name, a discriminator value by `memberName` or the Go field name).
    pub(super) fn subfield_unions(&self, comments: &[Comment], ty: TypeId) -> Vec<Validator> {
        let Kind::Struct(fields) = self.schema.kind(self.schema.deref(ty).0) else { return Vec::new() };
        let extracted = tags_of(comments);
        let mut tagged = Vec::new();
        for wrapped in &extracted {
            let (t, outer) = unwrapped(wrapped);
            let (Some(name), Payload::Tag(inner)) = (t.arg(""), &t.payload) else { continue };
            if t.name != "k8s:subfield" {
                continue;
            }
            // The subfield as `+k8s:subfield` finds it (promoted fields of embedded structs too).
            let Some(f) = super::super::validate::member(&self.schema, fields, &name.value) else { continue };
            let (inner, inner_level, gate) = gated(inner);
            let level = if outer == Stability::Stable { inner_level } else { outer };
            tagged.push(((inner, level, gate), f));
        }
        union_validators(tagged)
    }

    /// `+k8s:supportsSubresource` and `+k8s:isSubresource` on a type (current validation-gen
    /// reads them from the type's comment). Up to 1.35 the value is the raw text after `=`
    /// (gengo's `ExtractFunctionStyleCommentTags`: `=/status`); from 1.36 a parsed tag
    /// (`="/status"`).
    pub(super) fn subresource_tags(&mut self, id: TypeId, comments: &[Comment]) {
        let (mut supports, mut is) = (Vec::new(), Vec::new());
        for (name, text, pos) in tags::subresource_tags(comments) {
            let list = if name == "k8s:isSubresource" { &mut is } else { &mut supports };
            if self.raw_subresource_tags {
                // Taken as written, as gengo did (a quoted `"/status"` names a path no request
                // has: the type then answers only `/`).
                list.push(String::from(text[name.len()..].strip_prefix('=').unwrap_or("").trim()));
                continue;
            }
            match tags::parse(text, pos) {
                Ok(t) => match t.payload {
                    Payload::Scalar(p, ValueKind::String) if p.starts_with('/') && p.len() > 1 => list.push(p),
                    _ => self.error(pos, format!("+{name} needs a subresource path such as \"/status\"")),
                },
                Err(e) => self.error(e.pos, format!("malformed tag: {}", e.message)),
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

    /// A string constant's value: its literal, or the value of the constant it names, in this
    /// file's package or an imported one (`AddressTypeIPv4 = AddressType(v1.IPv4Protocol)`).
    fn constant_string(&self, file: &File, c: &ConstDecl, depth: usize) -> Option<String> {
        if let Some(v) = &c.string_value {
            return Some(v.clone());
        }
        let (package, name) = c.value_ref.as_ref().filter(|_| depth < 8)?;
        let file = match package {
            None => file,
            Some(alias) => {
                let path = &file.imports.iter().find(|i| &i.name == alias)?.path;
                self.packages.iter().find(|p| p.path == path)?.file
            }
        };
        let target = file.consts.iter().find(|k| &k.name == name)?;
        self.constant_string(file, target, depth + 1)
    }

    /// `+k8s:enum` on a string type: its constants are the values.
    pub(super) fn enum_values(&mut self, id: TypeId, name: &str, comments: &[Comment]) {
        let Some(level) = self.tag_level(comments, "k8s:enum") else { return };
        let mut values = Vec::new();
        let mut exclusions = Vec::new();
        for c in &self.file.consts {
            if c.type_name.as_deref() != Some(name) {
                continue;
            }
            let Some(v) = self.constant_string(self.file, c, 0) else {
                self.schema.diagnostics.push(Diagnostic::warning(
                    c.pos,
                    format!("constant {} of enum {name} is not a string literal; it is not an enum value", c.name),
                ));
                continue;
            };
            values.push(v.clone());
            for t in tags::extract(&c.comments).into_iter().flatten() {
                if let Some(x) = self.exclusion(&t, &v) {
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

    pub(super) fn exclusion(&mut self, t: &Tag, value: &str) -> Option<EnumExclusion> {
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

    pub(super) fn note_option(&mut self, option: &str) {
        if !self.schema.options.iter().any(|o| o == option) {
            self.schema.options.push(option.into());
        }
    }

    /// All validators from one comment block, in validation-gen's order.
    pub(super) fn compile_block(
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
        // A field's list identity is its own tags', else its list type's (item.go reads the
        // list metadata of the field or of its type).
        let type_spec = || self.schema.list_spec(ty).filter(|_| scope == Scope::Field).cloned();
        if let Some(spec) = self.list_spec(comments).or_else(type_spec).filter(|s| !s.set) {
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
        if scope == Scope::Field {
            out.extend(self.subfield_unions(comments, ty));
        }
        if find("k8s:customUnique").is_some() {
            out.retain(|v| !matches!(v.check, Check::Unique(_)));
        }
        out.dedup_by(|a, b| matches!((&a.check, &b.check), (Check::Unique(_), Check::Unique(_))));
        merge_updates(&mut out);
        merge_subfields(&mut out);
        // each.go ValSliceUnique inside validate.Subfield: the list identity the subfield tags
        // give (subfield/list: `+k8s:subfield(finalizers)=+k8s:listType=set`).
        for v in &mut out {
            if let Check::Subfield { json_name, validators, .. } = &mut v.check {
                let tags = tags::extract(comments);
                let payloads = tags.iter().flatten().filter_map(|t| match (&t.payload, t.arg("")) {
                    (Payload::Tag(inner), Some(a)) if t.name == "k8s:subfield" && a.value == *json_name => {
                        Some(&**inner)
                    }
                    _ => None,
                });
                let spec = list_spec_of(payloads);
                for u in validators.iter_mut() {
                    if let Check::Unique(s) = &mut u.check {
                        s.clone_from(&spec);
                    }
                }
            }
        }
        order(&mut out);
        item_cohorts(&mut out);
        out
    }

    /// validation-gen skips comment tags it does not register, so a misspelled validation tag
    /// silently validates nothing; kubedv says so. Other generators' tags (`k8s:deepcopy-gen`,
    /// `k8s:prerelease-lifecycle-gen:introduced`, `k8s:deprecated`) are far from every
    /// validation tag's name and pass without a word.
    pub(super) fn warn_misspelled(&mut self, comments: &[Comment]) {
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
    pub(super) fn item_unions(&mut self, comments: &[Comment], json: &str) -> Vec<Validator> {
        let mut groups: Vec<ItemUnionGroup> = Vec::new();
        for wrapped in tags::extract(comments).into_iter().flatten() {
            let (t, outer, gate) = gated(&wrapped);
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
                    ValueKind::Int => (crate::field::strconv::parse_int(&a.value).unwrap_or(0).into(), a.value.clone()),
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
                    groups.push((key, union, Vec::new(), None, None));
                    groups.len() - 1
                }
            };
            groups[at].1.members.push((name, member));
            groups[at].2.push(criteria);
            if groups[at].3.is_none() {
                groups[at].3 = Some(level);
                groups[at].4 = gate;
            }
        }
        groups
            .into_iter()
            .map(|((zero_or_one, _), union, criteria, level, gate)| {
                let v = Validator {
                    check: Check::ListUnion { union, criteria },
                    stability: level.unwrap_or(Stability::Stable),
                    sort_key: if zero_or_one { "k8s:zeroOrOneOfMember" } else { "k8s:unionMember" },
                    short_circuit: false,
                    non_error: false,
                };
                with_gate(v, gate)
            })
            .collect()
    }

    /// `+k8s:ifMode` rules per field, with the `+k8s:modeDiscriminator` of their modality.
    pub(super) fn modes(&mut self, decls: &[golang::FieldDecl], fields: &[Field]) -> Vec<Validator> {
        let mut discriminators: Vec<(String, String)> = Vec::new(); // (modality, json name)
        let mut members: Vec<ModeMember> = Vec::new();
        // The first ifMode tag's option gates every Discriminated call of the struct.
        let mut first_gate: Option<Gate> = None;
        for d in decls {
            let Some(f) = fields.iter().find(|f| f.go_name == d.name && f.pos == d.pos) else { continue };
            let what = format!("field {}", d.name);
            for wrapped in tags::extract(&d.comments).into_iter().flatten() {
                // mode.go: each ifMode rule keeps its own level.
                let (t, level, gate) = gated(&wrapped);
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
                        first_gate.get_or_insert(gate);
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
            let v = Validator {
                check: Check::Modes { discriminator: discriminator.clone(), field, rules },
                stability: level,
                sort_key: "k8s:ifMode",
                short_circuit: false,
                non_error: false,
            };
            out.push(with_gate(v, first_gate.clone().flatten()));
        }
        out
    }

    /// The item identity declared by list tags: `listType=set`/`unique=set` (whole values) or
    /// `listType=map`/`unique=map` with `listMapKey`s. Atomic lists have none.
    pub(super) fn list_spec(&self, comments: &[Comment]) -> Option<ListSpec> {
        list_spec_of(tags::extract(comments).iter().flatten())
    }

    pub(super) fn list_is_map(&self, comments: &[Comment]) -> bool {
        tags::extract(comments).iter().flatten().map(|t| unwrapped(t).0).any(|t| {
            (t.name == "k8s:listType" || t.name == "k8s:unique")
                && t.payload == Payload::Scalar("map".into(), ValueKind::String)
        })
    }
}

/// The item identity the list tags among `tags` declare.
fn list_spec_of<'t>(tags: impl Iterator<Item = &'t Tag>) -> Option<ListSpec> {
    let mut set = false;
    let mut map = false;
    let mut keys = Vec::new();
    for wrapped in tags {
        let (mut t, _) = unwrapped(wrapped);
        // Under an option the identity is still the list's: the option gates only the
        // uniqueness check (validation-gen keeps one list metadata per list).
        if let ("k8s:ifEnabled" | "k8s:ifDisabled", Payload::Tag(inner)) = (t.name.as_str(), &t.payload) {
            t = inner;
        }
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

/// The type of the field with JSON name `json` (looking into inline embedded structs).
pub(super) fn find_field(schema: &Schema, fields: &[Field], json: &str) -> Option<TypeId> {
    super::super::validate::member(schema, fields, json).map(|f| f.ty)
}

/// Several `+k8s:update` tags make one validation with all their constraints (validation-gen's
/// update tag collector).
pub(super) fn merge_updates(vals: &mut Vec<Validator>) {
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
    // update.go generateUpdateValidation: the constraints are a set, sorted (`slices.Sort`) in
    // apimachinery's order (NoSet, NoUnset, NoModify, NoAddItem, NoRemoveItem).
    if let Some(Check::Update(cs)) = first.map(|f| &mut vals[f].check) {
        crate::sort::sort_by_key(cs, |c| *c as u8);
        cs.dedup();
    }
}

/// validation-gen runs all subfield tags of one subfield as a cohort (short-circuits first,
/// stopping the cohort when one fires): merge them into one validator per subfield.
pub(super) fn merge_subfields(vals: &mut Vec<Validator>) {
    let mut merged: Vec<Validator> = Vec::new();
    for mut v in vals.drain(..) {
        if let Check::Subfield { json_name, validators, .. } = &mut v.check {
            let existing = merged.iter_mut().find_map(|m| match &mut m.check {
                Check::Subfield { json_name: n, validators: vs, .. } if n == json_name => Some(vs),
                _ => None,
            });
            if let Some(vs) = existing {
                vs.append(validators);
                order(vs);
                continue;
            }
        }
        merged.push(v);
    }
    *vals = merged;
}

/// validation-gen's named cohorts (validation.go `sortIntoCohorts` / `emitCallsToValidators`):
/// the item tags selecting the same item (validators/item.go: `Cohort = itemKey`) and the
/// test tags naming the same cohort (testing.go) make one cohort each, whose short-circuits
/// (`immutable`, `update`, ...) stop only that cohort's other validations; cohorts run after
/// the field's other validations (the default cohort, whose short-circuit returns before any
/// cohort), in the order their first tag was written (output_tests/cohorts).
pub(super) fn item_cohorts(vals: &mut Vec<Validator>) {
    let same = |a: &Check, b: &Check| match (a, b) {
        (Check::Item { criteria: a, .. }, Check::Item { criteria: b, .. }) => {
            a.len() == b.len() && a.iter().all(|(k, v)| b.iter().any(|(k2, v2)| k == k2 && v == v2))
        }
        (Check::Cohort { name: a, .. }, Check::Cohort { name: b, .. }) => a == b,
        _ => false,
    };
    let mut cohorts: Vec<Validator> = Vec::new();
    let mut rest: Vec<Validator> = Vec::new();
    for mut v in vals.drain(..) {
        // `same` holds only between item or cohort checks.
        let Some(m) = cohorts.iter_mut().find(|m| same(&m.check, &v.check)) else {
            match v.check {
                Check::Item { .. } | Check::Cohort { .. } => cohorts.push(v),
                _ => rest.push(v),
            }
            continue;
        };
        // Each inner validator carries its own level; the cohort's stamp is only kept while
        // every member agrees.
        if m.stability != v.stability {
            m.stability = Stability::Stable;
        }
        if let (
            Check::Item { validators: vs, .. } | Check::Cohort { validators: vs, .. },
            Check::Item { validators, .. } | Check::Cohort { validators, .. },
        ) = (&mut m.check, &mut v.check)
        {
            vs.append(validators);
            order(vs);
        }
    }
    rest.extend(cohorts);
    *vals = rest;
}

/// A field's `+k8s:ifMode` rules while they are collected.
pub(super) struct ModeMember {
    modality: String,
    field: String,
    pos: Pos,
    rules: Vec<(String, Vec<Validator>)>,
}

/// Sets the stability of a validator and everything it wraps.
/// Item unions being collected: (zero-or-one-of, union name), the union, each member's
/// criteria, the level of its first member.
type ItemUnionGroup = ((bool, String), Union, Vec<Criteria>, Option<Stability>, Gate);

/// A tag without its lifecycle wrapper (`+k8s:beta(since: "1.37")=+k8s:X` is `+k8s:X` at beta):
/// the struct- and list-level collectors (unions, modes, list identity, enums) read wrapped tags
/// as validation-gen does, carrying the level.
pub(super) fn unwrapped(t: &Tag) -> (&Tag, Stability) {
    match (t.name.as_str(), &t.payload) {
        ("k8s:alpha", Payload::Tag(inner)) => (inner, Stability::Alpha),
        ("k8s:beta", Payload::Tag(inner)) => (inner, Stability::Beta),
        _ => (t, Stability::Stable),
    }
}

/// An option a member tag is wrapped in (`+k8s:ifEnabled(X)=` / `+k8s:ifDisabled(X)=`): the
/// option and whether it must be on.
type Gate = Option<(String, bool)>;

/// A union or mode member tag without its wrappers: its level and its option. validation-gen
/// (options.go `WrapFunctions`) wraps what the member's deferred callback makes — the whole
/// union, or every `Discriminated` call of the struct — so the first member's option gates it.
pub(super) fn gated(t: &Tag) -> (&Tag, Stability, Gate) {
    let (t, level) = unwrapped(t);
    match (t.name.as_str(), &t.payload, t.arg("")) {
        ("k8s:ifEnabled" | "k8s:ifDisabled", Payload::Tag(inner), Some(option)) => {
            let (inner, inner_level) = unwrapped(inner);
            let level = if level == Stability::Stable { inner_level } else { level };
            (inner, level, Some((option.value.clone(), t.name == "k8s:ifEnabled")))
        }
        _ => (t, level, None),
    }
}

/// `v` run only when its gate's option is on (off, for `ifDisabled`): `validate.IfOption`.
fn with_gate(v: Validator, gate: Gate) -> Validator {
    let Some((option, enabled)) = gate else { return v };
    Validator {
        stability: v.stability,
        sort_key: v.sort_key,
        short_circuit: false,
        non_error: false,
        check: Check::IfOption { option, enabled, validators: alloc::vec![v] },
    }
}

pub(super) fn restamp(v: &mut Validator, stability: Stability) {
    v.stability = stability;
    match &mut v.check {
        Check::EachKey(vs)
        | Check::EachVal(vs)
        | Check::Subfield { validators: vs, .. }
        | Check::Cohort { validators: vs, .. }
        | Check::IfOption { validators: vs, .. } => vs.iter_mut().for_each(|v| restamp(v, stability)),
        _ => {}
    }
}

/// The unions the tags of members make (each tag with its level and the member's field):
/// grouped by (zero-or-one-of, `union` argument), each with the level of its first member
/// (validation-gen: the union takes the wrapper of the first member in declaration order; a
/// wrapped discriminator changes nothing).
fn union_validators(tagged: Vec<((&Tag, Stability, Gate), &Field)>) -> Vec<Validator> {
    // (zero-or-one-of, union name), the union, the first member's level and option.
    type Group = ((bool, String), Union, Option<(Stability, Gate)>);
    let mut groups: Vec<Group> = Vec::new();
    for ((t, level, gate), f) in tagged {
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
            first_level.get_or_insert((level, gate));
        }
    }
    crate::sort::sort_by(&mut groups, |a, b| a.0.cmp(&b.0));
    groups
        .into_iter()
        .filter(|(_, u, _)| !u.members.is_empty())
        .map(|((zero_or_one, _), union, first)| {
            let (level, gate) = first.unwrap_or((Stability::Stable, None));
            let v = Validator {
                check: Check::Union(union),
                stability: level,
                sort_key: if zero_or_one { "k8s:zeroOrOneOfMember" } else { "k8s:unionMember" },
                short_circuit: false,
                non_error: false,
            };
            with_gate(v, gate)
        })
        .collect()
}

/// The well-formed tags of a comment block (the malformed ones are reported elsewhere).
fn tags_of(comments: &[Comment]) -> Vec<Tag> {
    let mut out = Vec::new();
    for t in tags::extract(comments).into_iter().flatten() {
        out.push(t);
    }
    out
}

/// validation-gen's order: by tag name (stable), then short-circuiting validators first.
pub(super) fn order(vals: &mut [Validator]) {
    // Tags are read in name order, but what a tag defers (validation.go: eachVal, listType's
    // uniqueness, update, subfield, item, unions) is added after the rest; then
    // sortIntoCohorts puts the short-circuiting calls first.
    crate::sort::sort_by(vals, |a, b| (a.is_deferred(), a.sort_key).cmp(&(b.is_deferred(), b.sort_key)));
    crate::sort::sort_by_key(vals, |v| !v.short_circuit);
}
