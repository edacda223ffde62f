//! A CRD's OpenAPI schema as the API server checks it before serving it (apiextensions-apiserver
//! `pkg/apis/apiextensions/validation/validation.go`, `validateCustomResourceDefinitionValidation`
//! and `ValidateCustomResourceDefinitionOpenAPISchema`): the root's restrictions, the
//! structural rules and the defaults ([`super::structural`], [`super::defaults`]), then a walk
//! of every node (unsupported keywords, the list and map extensions, the rules' own fields),
//! compiling a node's `x-kubernetes-validations` only where nothing at or below it is wrong,
//! and the CRD's total rule cost.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value as Json;

use super::rules::{Rules, TotalCost};
use super::{internal, structural};
use crate::cel::estimate::{cost_error_message, STATIC_ESTIMATED_CRD_COST_LIMIT};
use crate::field::{Error, ErrorType, Path};

/// `openapiV3Types`, sorted as `sets.String.List()` gives them.
const TYPES: &[&str] = &["array", "boolean", "integer", "number", "object", "string"];

/// `allowedFieldsAtRootSchema`, as the v1 JSON keys of those internal fields.
const ALLOWED_AT_ROOT_WITH_STATUS: &[&str] = &[
    "description",
    "type",
    "format",
    "title",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "maxItems",
    "minItems",
    "uniqueItems",
    "multipleOf",
    "required",
    "items",
    "properties",
    "externalDocs",
    "example",
    "x-kubernetes-preserve-unknown-fields",
    "x-kubernetes-validations",
];

/// The Go field names of `allowedFieldsAtRootSchema`, as its message prints them.
const ALLOWED_AT_ROOT_GO: &str = "[Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations]";

/// The supported `reason`s of a rule (`supportedValidationReason`, sorted).
const REASONS: &[&str] = &["FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"];

fn required(path: &str, detail: &str) -> Error {
    Error::new(ErrorType::Required, &Path::named(path), None, detail)
}

fn forbidden(path: &str, detail: &str) -> Error {
    Error::new(ErrorType::Forbidden, &Path::named(path), None, detail)
}

fn invalid(path: &str, value: Json, detail: &str) -> Error {
    Error::new(ErrorType::Invalid, &Path::named(path), Some(value), detail)
}

fn is_true(schema: &Json, key: &str) -> bool {
    schema.get(key).and_then(Json::as_bool) == Some(true)
}

fn text<'a>(schema: &'a Json, key: &str) -> &'a str {
    schema.get(key).and_then(Json::as_str).unwrap_or("")
}

/// Whether a v1 field holds a value Go would not see as its zero value (absent, `false`, `""`,
/// `0`; an empty list or map present in the JSON is non-nil, so not zero).
fn is_set(value: &Json) -> bool {
    match value {
        Json::Null => false,
        Json::Bool(b) => *b,
        Json::String(s) => !s.is_empty(),
        Json::Number(n) => n.as_f64() != Some(0.0),
        _ => true,
    }
}

/// The nullable pointer extensions are set whatever their value.
fn is_set_field(key: &str, value: &Json) -> bool {
    match key {
        "x-kubernetes-preserve-unknown-fields"
        | "x-kubernetes-list-type"
        | "x-kubernetes-map-type"
        | "maximum"
        | "minimum"
        | "maxLength"
        | "minLength"
        | "maxItems"
        | "minItems"
        | "maxProperties"
        | "minProperties"
        | "multipleOf"
        | "default"
        | "example"
        | "additionalProperties"
        | "additionalItems"
        | "items"
        | "not"
        | "externalDocs"
        | "$ref" => !value.is_null(),
        _ => is_set(value),
    }
}

/// What the checks of a node know of where it stands (Go's `specStandardValidatorV3`).
#[derive(Clone)]
struct Place {
    allow_defaults: bool,
    disallow_defaults_reason: String,
    inside_resource_meta: bool,
    /// The first ancestor where `oldSelf` cannot be correlated.
    uncorrelatable: Option<String>,
}

impl Place {
    fn without_defaults(&self, reason: String) -> Place {
        Place { allow_defaults: false, disallow_defaults_reason: reason, ..self.clone() }
    }

    fn forbid_old_self(&self, path: &str) -> Place {
        if self.uncorrelatable.is_some() {
            return self.clone();
        }
        Place { uncorrelatable: Some(String::from(path)), ..self.clone() }
    }
}

/// Where a node's rules stand for compilation (Go's `CELSchemaContext`): `None` under
/// `not`/`allOf`/`anyOf`/`oneOf` and wherever the schema is not structural.
#[derive(Clone)]
struct CelPlace {
    pointer: String,
    resource_root: bool,
    /// How many times the node can run; `None` when unbounded.
    cardinality: Option<u64>,
}

impl CelPlace {
    fn child(&self, key: &str, schema: &Json, bound: Option<&str>, parent: &Json) -> CelPlace {
        // cel_validation.go extractMaxElements: only a declared maxItems / maxProperties
        // bounds the children; anything else makes them unbounded.
        let cardinality = match bound {
            None => self.cardinality,
            Some(k) => {
                let max = parent.get(k).and_then(Json::as_i64);
                max.and_then(|m| self.cardinality.map(|c| c.saturating_mul(m.max(0) as u64)))
            }
        };
        CelPlace {
            pointer: format!("{}{key}", self.pointer),
            resource_root: is_true(schema, "x-kubernetes-embedded-resource"),
            cardinality,
        }
    }
}

/// The errors of a subtree, kept apart as `OpenAPISchemaErrorList` does: schema errors first,
/// then the CEL ones.
#[derive(Default)]
struct Found {
    schema: Vec<Error>,
    cel: Vec<Error>,
}

impl Found {
    fn append(&mut self, other: Found) {
        self.schema.extend(other.schema);
        self.cel.extend(other.cel);
    }
}

/// `validateCustomResourceDefinitionValidation` for one schema (`fld` is where its
/// `openAPIV3Schema` sits: `spec.validation` or `spec.versions[i].schema`). Returns the errors
/// and the compiled rules (as the API server of Kubernetes 1.`minor` compiles them).
pub(super) fn validation(schema: &Json, fld: &str, status_enabled: bool, minor: u32) -> (Vec<Error>, Rules) {
    let at = format!("{fld}.openAPIV3Schema");
    let mut errors = Vec::new();
    if super::FULL && status_enabled {
        if let Some(fields) = schema.as_object() {
            // Go walks the internal struct's fields in declaration order and stops at the
            // first one that is not allowed.
            for key in internal::SCHEMA_FIELD_ORDER {
                let Some(value) = fields.get(*key).filter(|v| is_set_field(key, v)) else { continue };
                if *key == "type" {
                    if value.as_str() != Some("object") {
                        errors.push(invalid(
                            &format!("{at}.type"),
                            value.clone(),
                            r#"only "object" is allowed as the type at the root of the schema if the status subresource is enabled"#,
                        ));
                        break;
                    }
                    continue;
                }
                if !ALLOWED_AT_ROOT_WITH_STATUS.contains(key) {
                    let mut e = invalid(
                        &at,
                        Json::Null,
                        &format!("only {ALLOWED_AT_ROOT_GO} fields are allowed at the root of the schema if the status subresource is enabled"),
                    );
                    e.rendered_value = Some(internal::schema(schema));
                    errors.push(e);
                    break;
                }
            }
        }
    }
    if super::FULL && is_true(schema, "nullable") {
        errors.push(forbidden(&format!("{at}.nullable"), "nullable cannot be true at the root"));
    }
    let mut structural_errors = Vec::new();
    // NewStructural's refusal is shown only when nothing else is wrong; it stops the
    // structural checks, the defaults' and the rules' compilation.
    let init_error = if super::FULL { new_structural_error(schema) } else { None };
    if super::FULL && init_error.is_none() {
        structural::validate(&Path::named(&at), schema, &mut structural_errors);
    }
    let cel = if init_error.is_some() {
        None
    } else if !structural_errors.is_empty() {
        errors.extend(structural_errors);
        None
    } else {
        let mut default_errors = Vec::new();
        if super::FULL {
            super::defaults(&Path::named(&at), schema, true, false, minor, &mut default_errors);
        }
        if default_errors.is_empty() {
            Some(CelPlace { pointer: String::new(), resource_root: true, cardinality: Some(1) })
        } else {
            errors.extend(default_errors);
            None
        }
    };
    let has_cel = cel.is_some();
    let place = Place {
        allow_defaults: true,
        disallow_defaults_reason: String::new(),
        inside_resource_meta: false,
        uncorrelatable: None,
    };
    let mut walk = Walk { rules: Rules::new(minor), total: TotalCost::default() };
    let found = walk.node(schema, &at, &place, true, cel);
    errors.extend(found.schema);
    errors.extend(found.cel);
    if let (true, Some(e)) = (errors.is_empty(), init_error) {
        errors.push(invalid(&at, Json::from(""), &e));
    }
    if has_cel && walk.total.total > STATIC_ESTIMATED_CRD_COST_LIMIT {
        for (path, _) in &walk.total.most_expensive {
            errors.push(forbidden(
                path,
                "contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema",
            ));
        }
        errors.push(forbidden(
            &at,
            &cost_error_message(
                "x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema",
                walk.total.total,
                STATIC_ESTIMATED_CRD_COST_LIMIT,
            ),
        ));
    }
    (errors, walk.rules)
}

struct Walk {
    rules: Rules,
    total: TotalCost,
}

impl Walk {
    /// `ValidateCustomResourceDefinitionOpenAPISchema` at one node (`path` is its place in the
    /// CRD). Properties are visited in key order (Go ranges over a map).
    fn node(&mut self, s: &Json, path: &str, place: &Place, is_root: bool, cel: Option<CelPlace>) -> Found {
        let mut found = Found::default();
        let Some(fields) = s.as_object() else { return found };
        if super::FULL {
            standard(s, path, place, &mut found.schema);
        }
        if is_true(s, "uniqueItems") {
            found.schema.push(forbidden(
                &format!("{path}.uniqueItems"),
                "uniqueItems cannot be set to true since the runtime complexity becomes quadratic",
            ));
        }
        let properties = fields.get("properties").and_then(Json::as_object).filter(|p| !p.is_empty());
        if let Some(additional) = fields.get("additionalProperties").filter(|a| !a.is_null()) {
            if properties.is_some() && additional.as_bool() != Some(true) {
                found.schema.push(forbidden(
                    &format!("{path}.additionalProperties"),
                    "additionalProperties and properties are mutual exclusive",
                ));
            }
            let sub = if place.inside_resource_meta {
                place.without_defaults(String::from("inside additionalProperties applying to object metadata"))
            } else {
                place.clone()
            };
            if additional.is_object() {
                let child =
                    cel.as_ref().map(|c| c.child("/additionalProperties", additional, Some("maxProperties"), s));
                found.append(self.node(additional, &format!("{path}.additionalProperties"), &sub, false, child));
            }
        }
        let embedded = is_true(s, "x-kubernetes-embedded-resource");
        if let Some(props) = properties {
            // cel `MapIsCorrelatable`: granular (the default) and atomic maps correlate; a map
            // type the API server does not know does not.
            let map_correlatable = matches!(text(s, "x-kubernetes-map-type"), "" | "granular" | "atomic");
            for (k, v) in props {
                let mut sub = if map_correlatable { place.clone() } else { place.forbid_old_self(path) };
                if (is_root || embedded) && matches!(k.as_str(), "metadata" | "kind" | "apiVersion") {
                    sub.inside_resource_meta = true;
                    if is_root {
                        sub = sub.without_defaults(format!("in top-level {k}"));
                    }
                }
                let child = cel.as_ref().map(|c| c.child(&format!("/properties/{k}"), v, None, s));
                found.append(self.node(v, &format!("{path}.properties[{k}]"), &sub, false, child));
            }
        }
        if let Some(not) = fields.get("not") {
            found.append(self.node(not, &format!("{path}.not"), place, false, None));
        }
        for key in ["allOf", "oneOf", "anyOf"] {
            for (i, branch) in fields.get(key).and_then(Json::as_array).into_iter().flatten().enumerate() {
                found.append(self.node(branch, &format!("{path}.{key}[{i}]"), place, false, None));
            }
        }
        for (k, v) in fields.get("definitions").and_then(Json::as_object).into_iter().flatten() {
            found.append(self.node(v, &format!("{path}.definitions[{k}]"), place, false, None));
        }
        if let Some(items) = fields.get("items") {
            let sub =
                if text(s, "x-kubernetes-list-type") != "map" { place.forbid_old_self(path) } else { place.clone() };
            match items {
                Json::Array(list) => {
                    for (i, item) in list.iter().enumerate() {
                        let child = cel.as_ref().map(|c| c.child("/items", item, Some("maxItems"), s));
                        found.append(self.node(item, &format!("{path}.items[{i}]"), &sub, false, child));
                    }
                }
                item => {
                    let child = cel.as_ref().map(|c| c.child("/items", item, Some("maxItems"), s));
                    found.append(self.node(item, &format!("{path}.items"), &sub, false, child));
                }
            }
        }
        for (k, v) in fields.get("dependencies").and_then(Json::as_object).into_iter().flatten() {
            if v.is_object() {
                found.append(self.node(v, &format!("{path}.dependencies[{k}]"), place, false, None));
            }
        }
        if super::FULL {
            extensions(s, path, &mut found.schema);
        }
        if let Some(rules) = fields.get("x-kubernetes-validations").and_then(Json::as_array).filter(|r| !r.is_empty()) {
            if super::FULL {
                rule_fields(s, rules, path, &mut found.schema);
            }
            // Rules are compiled only where nothing at or below this node is wrong.
            if let (true, Some(c)) = (found.schema.is_empty(), &cel) {
                self.rules.compile_node(
                    s,
                    &c.pointer,
                    path,
                    c.resource_root || is_root,
                    c.cardinality,
                    place.uncorrelatable.as_deref(),
                    &mut self.total,
                    &mut found.cel,
                );
            }
        }
        found
    }
}

/// `specStandardValidatorV3.validate`: the keywords and values the API server does not
/// support.
fn standard(s: &Json, path: &str, place: &Place, errors: &mut Vec<Error>) {
    let ty = text(s, "type");
    if !ty.is_empty() && !TYPES.contains(&ty) {
        errors.push(Error::not_supported(&Path::named(&format!("{path}.type")), ty, TYPES));
    }
    if s.get("default").is_some_and(|d| !d.is_null()) && !place.allow_defaults {
        let mut detail = String::from("must not be set");
        if !place.disallow_defaults_reason.is_empty() {
            detail.push(' ');
            detail.push_str(&place.disallow_defaults_reason);
        }
        errors.push(forbidden(&format!("{path}.default"), &detail));
    }
    if !text(s, "id").is_empty() {
        errors.push(forbidden(&format!("{path}.id"), "id is not supported"));
    }
    if s.get("additionalItems").is_some_and(|v| !v.is_null()) {
        errors.push(forbidden(&format!("{path}.additionalItems"), "additionalItems is not supported"));
    }
    let non_empty = |key: &str| s.get(key).and_then(Json::as_object).is_some_and(|m| !m.is_empty());
    if non_empty("patternProperties") {
        errors.push(forbidden(&format!("{path}.patternProperties"), "patternProperties is not supported"));
    }
    if non_empty("definitions") {
        errors.push(forbidden(&format!("{path}.definitions"), "definitions is not supported"));
    }
    if s.get("dependencies").is_some_and(|v| !v.is_null()) {
        errors.push(forbidden(&format!("{path}.dependencies"), "dependencies is not supported"));
    }
    if s.get("$ref").is_some_and(|v| !v.is_null()) {
        errors.push(forbidden(&format!("{path}.$ref"), "$ref is not supported"));
    }
    if ty == "null" {
        errors.push(forbidden(&format!("{path}.type"), "type cannot be set to null, use nullable as an alternative"));
    }
    if s.get("items").and_then(Json::as_array).is_some_and(|a| !a.is_empty()) {
        errors.push(forbidden(&format!("{path}.items"), "items must be a schema object and not an array"));
    }
    if place.inside_resource_meta && is_true(s, "x-kubernetes-embedded-resource") {
        errors.push(forbidden(
            &format!("{path}.x-kubernetes-embedded-resource"),
            "must not be used inside of resource meta",
        ));
    }
}

/// The node's own `x-kubernetes-*` checks, in validation.go's order, and
/// `validateMapListKeysMapSet`.
fn extensions(s: &Json, path: &str, errors: &mut Vec<Error>) {
    let ty = text(s, "type");
    if s.get("x-kubernetes-preserve-unknown-fields").and_then(Json::as_bool) == Some(false) {
        errors.push(invalid(
            &format!("{path}.x-kubernetes-preserve-unknown-fields"),
            Json::Bool(false),
            "must be true or undefined",
        ));
    }
    let map_type = s.get("x-kubernetes-map-type").and_then(Json::as_str);
    if let Some(mt) = map_type {
        const DETAIL: &str = "must be object if x-kubernetes-map-type is specified";
        if ty.is_empty() {
            errors.push(required(&format!("{path}.type"), DETAIL));
        } else if ty != "object" {
            errors.push(invalid(&format!("{path}.type"), Json::from(ty), DETAIL));
        }
        if mt != "atomic" && mt != "granular" {
            errors.push(Error::not_supported(
                &Path::named(&format!("{path}.x-kubernetes-map-type")),
                mt,
                &["atomic", "granular"],
            ));
        }
    }
    let list_type = s.get("x-kubernetes-list-type").and_then(Json::as_str);
    let items = s.get("items").filter(|i| i.is_object());
    if let Some(lt) = list_type {
        const DETAIL: &str = "must be array if x-kubernetes-list-type is specified";
        const ATOMIC: &str = "must be atomic as item of a list with x-kubernetes-list-type=set";
        if ty.is_empty() {
            errors.push(required(&format!("{path}.type"), DETAIL));
        } else if ty != "array" {
            errors.push(invalid(&format!("{path}.type"), Json::from(ty), DETAIL));
        } else if let (Some(item), "set") = (items, lt) {
            // The value printed is the item's list type in both cases (so `null` for a map).
            let item_list_type = item.get("x-kubernetes-list-type").cloned().unwrap_or(Json::Null);
            match text(item, "type") {
                "array" if item.get("x-kubernetes-list-type").and_then(Json::as_str).is_some_and(|t| t != "atomic") => {
                    errors.push(invalid(&format!("{path}.items.x-kubernetes-list-type"), item_list_type, ATOMIC));
                }
                "object" if text(item, "x-kubernetes-map-type") != "atomic" => {
                    errors.push(invalid(&format!("{path}.items.x-kubernetes-map-type"), item_list_type, ATOMIC));
                }
                _ => {}
            }
        }
        if !matches!(lt, "atomic" | "set" | "map") {
            errors.push(Error::not_supported(
                &Path::named(&format!("{path}.x-kubernetes-list-type")),
                lt,
                &["atomic", "set", "map"],
            ));
        }
    }
    let keys = s.get("x-kubernetes-list-map-keys").and_then(Json::as_array).filter(|k| !k.is_empty());
    if keys.is_some() {
        const DETAIL: &str = "must be map if x-kubernetes-list-map-keys is non-empty";
        match list_type {
            None => errors.push(required(&format!("{path}.x-kubernetes-list-type"), DETAIL)),
            Some(lt) if lt != "map" => {
                errors.push(invalid(&format!("{path}.x-kubernetes-list-type"), Json::from(lt), DETAIL))
            }
            _ => {}
        }
    }
    if list_type == Some("map") {
        if keys.is_none() {
            errors.push(required(
                &format!("{path}.x-kubernetes-list-map-keys"),
                "must not be empty if x-kubernetes-list-type is map",
            ));
        }
        match s.get("items").filter(|i| !i.is_null()) {
            None => {
                errors.push(required(&format!("{path}.items"), "must have a schema if x-kubernetes-list-type is map"))
            }
            Some(Json::Array(_)) => {
                let mut e = invalid(
                    &format!("{path}.items"),
                    Json::Null,
                    "must only have a single schema if x-kubernetes-list-type is map",
                );
                e.rendered_value = Some(internal::schema_or_array(s.get("items").unwrap_or(&Json::Null)));
                errors.push(e);
            }
            Some(item) => {
                let item_type = text(item, "type");
                if item_type != "object" {
                    errors.push(invalid(
                        &format!("{path}.items.type"),
                        Json::from(item_type),
                        "must be object if parent array's x-kubernetes-list-type is map",
                    ));
                } else {
                    let all_keys = s.get("x-kubernetes-list-map-keys").cloned().unwrap_or(Json::Null);
                    let mut seen: Vec<&str> = Vec::new();
                    for k in keys.into_iter().flatten() {
                        let k = k.as_str().unwrap_or("");
                        match item.get("properties").and_then(|p| p.get(k)) {
                            Some(prop) => {
                                if matches!(text(prop, "type"), "array" | "object") {
                                    // Go prints the item's type here, not the key's.
                                    errors.push(invalid(
                                        &format!("{path}.items.properties[{k}].type"),
                                        Json::from(item_type),
                                        "must be a scalar type if parent array's x-kubernetes-list-type is map",
                                    ));
                                }
                            }
                            None => errors.push(invalid(
                                &format!("{path}.x-kubernetes-list-map-keys"),
                                all_keys.clone(),
                                "entries must all be names of item properties",
                            )),
                        }
                        if seen.contains(&k) {
                            errors.push(invalid(
                                &format!("{path}.x-kubernetes-list-map-keys"),
                                all_keys.clone(),
                                "must not contain duplicate entries",
                            ));
                        }
                        seen.push(k);
                    }
                }
            }
        }
    }
    // validateMapListKeysMapSet.
    if let (Some(item), Some(lt @ ("set" | "map"))) = (items, list_type) {
        if is_true(item, "nullable") {
            errors.push(forbidden(
                &format!("{path}.items.nullable"),
                &format!("cannot be nullable when x-kubernetes-list-type is {lt}"),
            ));
        }
        if lt == "map" {
            let required_keys: Vec<&str> =
                item.get("required").and_then(Json::as_array).into_iter().flatten().filter_map(Json::as_str).collect();
            for k in keys.into_iter().flatten().filter_map(Json::as_str) {
                let Some(prop) = item.get("properties").and_then(|p| p.get(k)) else { continue };
                if !required_keys.contains(&k) && prop.get("default").is_none_or(Json::is_null) {
                    errors.push(required(
                        &format!("{path}.items.properties[{k}].default"),
                        "this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property",
                    ));
                }
                if is_true(prop, "nullable") {
                    errors.push(forbidden(
                        &format!("{path}.items.properties[{k}].nullable"),
                        "this property is in x-kubernetes-list-map-keys, so it cannot be nullable",
                    ));
                }
            }
        }
    }
}

/// The fields of each rule, before any is compiled.
fn rule_fields(s: &Json, rules: &[Json], path: &str, errors: &mut Vec<Error>) {
    let has_newlines = |t: &str| t.contains(['\n', '\r']);
    for (i, rule) in rules.iter().enumerate() {
        let at = format!("{path}.x-kubernetes-validations[{i}]");
        let (rule_text, message, message_expression) =
            (text(rule, "rule"), text(rule, "message"), text(rule, "messageExpression"));
        let trimmed_rule = rule_text.trim();
        let trimmed_message = message.trim();
        if trimmed_rule.is_empty() {
            errors.push(required(&format!("{at}.rule"), "rule is not specified"));
        } else if !message.is_empty() && trimmed_message.is_empty() {
            errors.push(invalid(&format!("{at}.message"), Json::from(message), "must be non-empty if specified"));
        } else if has_newlines(trimmed_message) {
            errors.push(invalid(&format!("{at}.message"), Json::from(message), "must not contain line breaks"));
        } else if has_newlines(trimmed_rule) && trimmed_message.is_empty() {
            errors.push(required(&format!("{at}.message"), "message must be specified if rule contains line breaks"));
        }
        if !message_expression.is_empty() && message_expression.trim().is_empty() {
            errors
                .push(required(&format!("{at}.messageExpression"), "messageExpression must be non-empty if specified"));
        }
        if let Some(reason) = rule.get("reason").and_then(Json::as_str) {
            if !REASONS.contains(&reason) {
                errors.push(Error::not_supported(&Path::named(&format!("{at}.reason")), reason, REASONS));
            }
        }
        let field_path = text(rule, "fieldPath");
        if !field_path.is_empty() && field_path.trim().is_empty() {
            errors.push(invalid(&format!("{at}.fieldPath"), Json::from(field_path), "must be non-empty if specified"));
        }
        if has_newlines(field_path) {
            errors.push(invalid(&format!("{at}.fieldPath"), Json::from(field_path), "must not contain line breaks"));
        }
        if !field_path.is_empty() && super::field_path::valid(field_path, s, true).is_err() {
            errors.push(invalid(&format!("{at}.fieldPath"), Json::from(field_path), "must be a valid path"));
        }
    }
}

/// The first reason `structuralschema.NewStructural` cannot read a schema (depth first, as
/// convert.go goes: unsupported keywords, the junctors, a `false`
/// preserve-unknown-fields, items given as a list, properties, additionalProperties).
fn new_structural_error(s: &Json) -> Option<String> {
    let fields = s.as_object()?;
    let non_empty = |key: &str| match fields.get(key) {
        Some(Json::String(v)) => !v.is_empty(),
        Some(Json::Object(m)) => !m.is_empty(),
        _ => false,
    };
    for (key, name) in [
        ("id", "id"),
        ("$schema", "schema"),
        ("$ref", "$ref"),
        ("patternProperties", "patternProperties"),
        ("dependencies", "dependencies"),
    ] {
        if non_empty(key) {
            return Some(format!("OpenAPIV3Schema '{name}' is not supported"));
        }
    }
    if fields.get("additionalItems").is_some_and(|v| !v.is_null()) {
        return Some(String::from("OpenAPIV3Schema 'additionalItems' is not supported"));
    }
    if non_empty("definitions") {
        return Some(String::from("OpenAPIV3Schema 'definitions' is not supported"));
    }
    if let Some(e) = fields.get("not").and_then(new_structural_error) {
        return Some(e);
    }
    for key in ["allOf", "anyOf", "oneOf"] {
        if let Some(e) = fields.get(key).and_then(Json::as_array).into_iter().flatten().find_map(new_structural_error) {
            return Some(e);
        }
    }
    if fields.get("x-kubernetes-preserve-unknown-fields").and_then(Json::as_bool) == Some(false) {
        return Some(String::from("internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined"));
    }
    match fields.get("items") {
        Some(Json::Array(a)) if !a.is_empty() => {
            return Some(String::from("OpenAPIV3Schema 'items' must be a schema, but is an array"))
        }
        Some(item @ Json::Object(_)) => {
            if let Some(e) = new_structural_error(item) {
                return Some(e);
            }
        }
        _ => {}
    }
    if let Some(e) = fields
        .get("properties")
        .and_then(Json::as_object)
        .into_iter()
        .flatten()
        .find_map(|(_, v)| new_structural_error(v))
    {
        return Some(e);
    }
    fields.get("additionalProperties").filter(|a| a.is_object()).and_then(new_structural_error)
}
