//! One tag at a time: what each `+k8s:` tag compiles to where it is written, checked against
//! the kind of its target, its arguments and payload as validation-gen's validators check them.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use crate::declarative::catalog::{self, Scope};
use crate::declarative::schema::{Kind, TypeId};
use crate::declarative::tags::{Payload, Tag, ValueKind};
use crate::declarative::validators::{Check, Literal, UpdateConstraint, Validator};
use crate::diag::Diagnostic;
use crate::field::Stability;
use crate::format::Format;

use super::blocks::{find_field, order, restamp};
use super::{Compiler, Site, MAX_TAG_DEPTH};

impl Compiler<'_> {
    /// A type's name, with its underlying kind when the name alone does not say it
    /// (`Phase (int)`).
    pub(super) fn type_desc(&self, ty: TypeId) -> String {
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
    pub(super) fn compile_tag(&mut self, tag: &Tag, site: Site<'_>) -> Vec<Validator> {
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
        let kind = self.schema.kind(base).layout();
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
                    Payload::Scalar(v, ValueKind::Int) => match crate::field::strconv::parse_int(v) {
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
                simple(Some(Check::Subfield { json_name: field_name, validators: vals, inherit: true }))
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
                // options.go wraps each inner function on its own, keeping its flags
                // (validators.go WrapFunctions): `ifDisabled(X)=+k8s:forbidden` is a forbidden
                // check and a silent optional one, not one check that reports both.
                let enabled = name == "k8s:ifEnabled";
                vals.into_iter()
                    .map(|iv| {
                        let (short, non_error) = (iv.short_circuit, iv.non_error);
                        let inner = alloc::vec![iv];
                        let mut v = mk(Check::IfOption { option: option.clone(), enabled, validators: inner });
                        v.short_circuit = short;
                        v.non_error = short && non_error;
                        v
                    })
                    .collect()
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
                match tag.arg("cohort") {
                    Some(c) => alloc::vec![mk(Check::Cohort { name: c.value.clone(), validators: alloc::vec![v] })],
                    None => alloc::vec![v],
                }
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
                    simple(Some(Check::Unique(None)))
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
                // validators/update.go (code-generator eec8939e): what validation-gen refuses.
                if site.scope == Scope::ListVal {
                    if c != UpdateConstraint::NoModify {
                        let msg = format!(
                            "+k8s:update={c:?} does not apply to list items or map values, attach it to the enclosing field"
                        );
                        return self.bad(tag, &msg);
                    }
                    if matches!(kind, Kind::Slice(_) | Kind::Map(..)) {
                        return self.bad(
                            tag,
                            "+k8s:update=NoModify cannot be applied to list/map elements that are themselves lists or maps",
                        );
                    }
                }
                let unsettable = matches!(c, UpdateConstraint::NoSet | UpdateConstraint::NoUnset);
                if unsettable && matches!(kind, Kind::Struct(_)) && !is_ptr {
                    let msg =
                        format!("+k8s:update={c:?} cannot be used on non-pointer struct fields (they cannot be unset)");
                    return self.bad(tag, &msg);
                }
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
    pub(super) fn item(&mut self, tag: &Tag, site: Site<'_>, kind: &Kind, is_ptr: bool) -> Vec<Validator> {
        let Kind::Slice(elem) = kind else {
            self.wrong_kind(tag, "a list", site.what, site.ty);
            return Vec::new();
        };
        let elem = *elem;
        let Kind::Struct(fields) = self.schema.kind(self.schema.deref(elem).0).layout() else {
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
                ValueKind::Int => match crate::field::strconv::parse_int(&a.value) {
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
    pub(super) fn nested(
        &mut self,
        inner: &Tag,
        site: Site<'_>,
        scope: Scope,
        ty: TypeId,
        what: &str,
    ) -> Option<Vec<Validator>> {
        let inner_site = Site { scope, ty, what, stability: site.stability, depth: site.depth + 1 };
        let mut vals = self.compile_tag(inner, inner_site);
        if vals.is_empty() {
            return None;
        }
        order(&mut vals);
        Some(vals)
    }

    pub(super) fn bad(&mut self, tag: &Tag, message: &str) -> Vec<Validator> {
        self.error(tag.pos, message.to_string());
        Vec::new()
    }

    pub(super) fn no_payload(&mut self, tag: &Tag) -> bool {
        if tag.payload != Payload::None || !tag.args.is_empty() {
            self.error(tag.pos, format!("+{} takes no arguments and no value", tag.name));
            return false;
        }
        true
    }

    pub(super) fn wrong_kind(&mut self, tag: &Tag, want: &str, what: &str, ty: TypeId) {
        let have = self.type_desc(ty);
        self.error(tag.pos, format!("+{} can only be used on {want} ({what} is {have})", tag.name));
    }

    /// Checks a list tag's placement and payload; `choices` empty means any payload.
    pub(super) fn list_tag(
        &mut self,
        tag: &Tag,
        kind: &Kind,
        is_ptr: bool,
        what: &str,
        ty: TypeId,
        choices: &[&str],
    ) -> bool {
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

    pub(super) fn int_payload(&mut self, tag: &Tag, non_negative: bool) -> Option<i64> {
        let n = match &tag.payload {
            Payload::Scalar(v, ValueKind::Int) => crate::field::strconv::parse_int(v),
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

    pub(super) fn payload_tag<'t>(&mut self, tag: &'t Tag) -> Option<&'t Tag> {
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
}
