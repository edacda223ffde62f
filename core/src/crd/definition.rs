//! What the API server refuses when a CustomResourceDefinition is created
//! (apiextensions-apiserver `pkg/apis/apiextensions/validation/validation.go`
//! `ValidateCustomResourceDefinition`), on the object as it validates it: v1 defaults applied
//! (`v1/defaults.go`: singular, listKind, the conversion strategy, the stored version) and
//! converted to the internal version (`v1/conversion.go`: per-version schemas, subresources,
//! printer columns and selectable fields identical in every version move to `spec.validation`,
//! `spec.subresources`, `spec.additionalPrinterColumns`, `spec.selectableFields`, which is
//! where their errors are reported).

use alloc::format;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{Map, Value as Json};

use super::rules::Rules;
use super::{field_path, internal, schema_check, FULL};
use crate::cel::k8s::{is_dns1035_label, named_format};
use crate::field::{Error, ErrorType, Path};

/// `printerColumnDatatypes` and `customResourceColumnDefinitionFormats`, sorted.
const COLUMN_TYPES: &str = "boolean,date,integer,number,string";
const COLUMN_FORMATS: &str = "byte,date,date-time,double,float,int32,int64,password";

/// `MaxSelectableFields`.
const MAX_SELECTABLE_FIELDS: usize = 8;

/// A validated definition: the errors, and each version's compiled rules (shared by the
/// versions when their schemas are identical).
pub(super) struct Definition {
    pub errors: Vec<Error>,
    pub rules: Vec<Option<Rc<Rules>>>,
}

fn required(path: &str, detail: &str) -> Error {
    Error::new(ErrorType::Required, &Path::named(path), None, detail)
}

fn forbidden(path: &str, detail: &str) -> Error {
    Error::new(ErrorType::Forbidden, &Path::named(path), None, detail)
}

fn invalid(path: &str, value: impl Into<Json>, detail: &str) -> Error {
    Error::new(ErrorType::Invalid, &Path::named(path), Some(value.into()), detail)
}

fn text<'a>(v: &'a Json, key: &str) -> &'a str {
    v.get(key).and_then(Json::as_str).unwrap_or("")
}

fn flag(v: &Json, key: &str) -> bool {
    v.get(key).and_then(Json::as_bool) == Some(true)
}

/// apimachinery's `Semantic.DeepEqual` on the converted fields: an empty list is a nil one.
fn same(a: Option<&Json>, b: Option<&Json>) -> bool {
    let norm = |v: Option<&Json>| v.filter(|v| !v.is_null() && v.as_array().is_none_or(|a| !a.is_empty())).cloned();
    norm(a) == norm(b)
}

/// `strings.Join(IsDNS1035Label(v), ",")`, if any.
fn dns1035(value: &str) -> Option<String> {
    let errs = is_dns1035_label(value);
    (!errs.is_empty()).then(|| errs.join(","))
}

/// A version's `schema.openAPIV3Schema`.
fn schema_of(v: &Json) -> Option<&Json> {
    v.get("schema").and_then(|s| s.get("openAPIV3Schema")).filter(|s| !s.is_null())
}

/// `ValidateCustomResourceDefinition` (create) by the API server of Kubernetes 1.`minor`, which
/// compiles the rules in the CEL environment for new expressions ([`crate::cel::environment`]).
pub(super) fn validate(crd: &Json, minor: u32) -> Definition {
    let empty = Json::Object(Map::new());
    let spec = crd.get("spec").unwrap_or(&empty);
    let versions: &[Json] = spec.get("versions").and_then(Json::as_array).map_or(&[], |v| v);
    let names = spec.get("names").unwrap_or(&empty);
    let group = text(spec, "group");
    let kind = text(names, "kind");
    let plural = text(names, "plural");
    // v1 defaults.
    // Go's strings.ToLower is Unicode; a non-ASCII kind is refused either way (names must be
    // DNS labels), so only the full check, which prints it, needs the Unicode tables (5 KB gz).
    let singular_default = if FULL { kind.to_lowercase() } else { kind.to_ascii_lowercase() };
    let singular = Some(text(names, "singular")).filter(|s| !s.is_empty()).unwrap_or(&singular_default);
    let list_kind_default = if kind.is_empty() { String::new() } else { format!("{kind}List") };
    let list_kind = Some(text(names, "listKind")).filter(|s| !s.is_empty()).unwrap_or(&list_kind_default);
    let preserve_unknown = flag(spec, "preserveUnknownFields");
    // v1 → internal: identical per-version fields move to the top level.
    let collapsed = |key: &str| !versions.is_empty() && versions.iter().all(|v| same(v.get(key), versions[0].get(key)));
    let (top_schema, top_subresources, top_columns, top_selectable) = (
        collapsed("schema"),
        collapsed("subresources"),
        collapsed("additionalPrinterColumns"),
        collapsed("selectableFields"),
    );
    let subresources_of = |v: &Json| -> Option<Json> {
        let s =
            if top_subresources { versions.first().and_then(|f| f.get("subresources")) } else { v.get("subresources") };
        s.filter(|s| !s.is_null()).cloned()
    };
    let status_enabled = |s: &Option<Json>| s.as_ref().and_then(|s| s.get("status")).is_some_and(|s| !s.is_null());

    let mut errors = Vec::new();
    let mut rules: Vec<Option<Rc<Rules>>> = Vec::new();
    if FULL {
        metadata(crd, &format!("{plural}.{group}"), &mut errors);
    }

    // validateCustomResourceDefinitionSpec.
    if FULL {
        validate_group(group, &mut errors);
    }
    if FULL {
        enum_string("spec.scope", text(spec, "scope"), &["Cluster", "Namespaced"], &mut errors);
    }
    for (i, v) in versions.iter().enumerate() {
        if schema_of(v).is_none() {
            errors.push(required(&format!("spec.versions[{i}].schema.openAPIV3Schema"), ""));
        }
    }
    if FULL && preserve_unknown && versions.iter().filter_map(schema_of).any(has_default) {
        errors.push(invalid(
            "spec.preserveUnknownFields",
            true,
            "must be false in order to use defaults in the schema",
        ));
    }
    let mut storage = 0;
    let mut seen: Vec<&str> = Vec::new();
    let mut unique = true;
    for (i, v) in versions.iter().enumerate() {
        let at = format!("spec.versions[{i}]");
        let name = text(v, "name");
        storage += usize::from(flag(v, "storage"));
        if seen.contains(&name) {
            unique = false;
        }
        seen.push(name);
        if let Some(msg) = dns1035(name).filter(|_| FULL) {
            errors.push(invalid(&format!("{at}.name"), name, &msg));
        }
        // validateCustomResourceDefinitionVersion.
        let warning = v.get("deprecationWarning").and_then(Json::as_str).filter(|_| FULL);
        for msg in deprecation_warning(flag(v, "deprecated"), warning) {
            errors.push(invalid(
                &format!("{at}.deprecationWarning"),
                v.get("deprecationWarning").cloned().unwrap_or(Json::Null),
                &msg,
            ));
        }
        if !top_schema {
            rules.push(schema_of(v).map(|s| {
                let (found, compiled) =
                    schema_check::validation(s, &format!("{at}.schema"), status_enabled(&subresources_of(v)), minor);
                errors.extend(found);
                Rc::new(compiled)
            }));
        }
        if FULL && !top_subresources {
            subresources(v.get("subresources"), &format!("{at}.subresources"), &mut errors);
        }
        if FULL && !top_columns {
            columns(v.get("additionalPrinterColumns"), &format!("{at}.additionalPrinterColumns"), &mut errors);
        }
        if FULL && !top_selectable {
            if let Some(fields) = v.get("selectableFields").and_then(Json::as_array).filter(|f| !f.is_empty()) {
                match schema_of(v).filter(|_| !top_schema) {
                    None => errors.push(invalid(
                        &format!("{at}.selectableFields"),
                        "",
                        "may only be set when `version.schema.openAPIV3Schema` is not included",
                    )),
                    Some(s) => selectable_fields(fields, s, &format!("{at}.selectableFields"), &mut errors),
                }
            }
        }
    }
    let versions_value = || {
        let mut e = invalid("spec.versions", Json::Null, "");
        e.rendered_value =
            FULL.then(|| internal::versions(versions, top_schema, top_subresources, top_columns, top_selectable));
        e
    };
    if FULL && !unique {
        let mut e = versions_value();
        e.detail = String::from("must contain unique version names");
        errors.push(e);
    }
    if FULL && storage != 1 {
        let mut e = versions_value();
        e.detail = String::from("must have exactly one version marked as storage version");
        errors.push(e);
    }
    if let Some(first) = versions.first().filter(|_| FULL) {
        // The internal `spec.version` is the first version's name.
        let name = text(first, "name");
        if let Some(msg) = dns1035(name) {
            errors.push(invalid("spec.version", name, &msg));
        }
    }
    for (key, value) in [("plural", plural), ("singular", singular), ("kind", kind), ("listKind", list_kind)] {
        if FULL && value.is_empty() {
            errors.push(required(&format!("spec.names.{key}"), ""));
        }
    }
    if FULL {
        validate_names(names, singular, list_kind, "spec.names", &mut errors);
    }
    let first = versions.first();
    if top_schema {
        let subresources = first.and_then(|f| f.get("subresources")).filter(|_| top_subresources);
        let any_status =
            versions.iter().any(|v| v.get("subresources").and_then(|s| s.get("status")).is_some_and(|s| !s.is_null()))
                || subresources.and_then(|s| s.get("status")).is_some_and(|s| !s.is_null());
        let compiled = first.and_then(schema_of).map(|s| {
            let (found, compiled) = schema_check::validation(s, "spec.validation", any_status, minor);
            errors.extend(found);
            Rc::new(compiled)
        });
        rules = versions.iter().map(|_| compiled.clone()).collect();
    }
    if FULL && top_subresources {
        subresources(first.and_then(|f| f.get("subresources")), "spec.subresources", &mut errors);
    }
    if FULL && top_columns {
        columns(first.and_then(|f| f.get("additionalPrinterColumns")), "spec.additionalPrinterColumns", &mut errors);
    }
    if FULL && top_selectable {
        if let Some(fields) =
            first.and_then(|f| f.get("selectableFields")).and_then(Json::as_array).filter(|f| !f.is_empty())
        {
            match first.and_then(schema_of).filter(|_| top_schema) {
                None => errors.push(invalid(
                    "spec.selectableFields",
                    "",
                    "may only be set when validations.schema is included",
                )),
                Some(s) => selectable_fields(fields, s, "spec.selectableFields", &mut errors),
            }
        }
    }
    let conversion = spec.get("conversion").filter(|c| !c.is_null());
    let strategy = conversion.map_or("None", |c| text(c, "strategy"));
    if FULL && strategy != "None" && preserve_unknown {
        errors.push(invalid(
            "spec.conversion.strategy",
            strategy,
            "must be None if spec.preserveUnknownFields is true",
        ));
    }
    if let Some(c) = conversion.filter(|_| FULL) {
        conversion_errors(c, &mut errors);
    }
    // ValidateCustomResourceDefinitionStoredVersions: the create strategy stores the first
    // storage version, so only its absence can be wrong.
    if FULL && storage == 0 {
        errors.push(invalid("status.storedVersions", Json::Null, "must have at least one stored version"));
    }
    if FULL {
        api_approval(crd, group, &mut errors);
    }
    if FULL && preserve_unknown {
        errors.push(invalid(
            "spec.preserveUnknownFields",
            true,
            "cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead",
        ));
    }
    Definition { errors, rules }
}

/// `ValidateObjectMeta` with the CRD's name function: a DNS subdomain that is
/// `<plural>.<group>` (for `generateName` too).
fn metadata(crd: &Json, required_name: &str, errors: &mut Vec<Error>) {
    let empty = Map::new();
    let meta = crd.get("metadata").and_then(Json::as_object).unwrap_or(&empty);
    let at = Path::named("metadata");
    crate::objectmeta::validate_cluster(
        &at,
        meta,
        crate::objectmeta::NameRule::DnsSubdomain,
        Some(required_name),
        errors,
    );
}

/// `validateEnumStrings` (required).
fn enum_string(path: &str, value: &str, accepted: &[&str], errors: &mut Vec<Error>) {
    if value.is_empty() {
        errors.push(required(path, ""));
    } else if !accepted.contains(&value) {
        errors.push(Error::not_supported(&Path::named(path), value, accepted));
    }
}

fn validate_group(group: &str, errors: &mut Vec<Error>) {
    if group.is_empty() {
        errors.push(required("spec.group", ""));
    } else if let Some(msg) = named_format("dns1123Subdomain").map(|f| f.validate(group)).filter(|e| !e.is_empty()) {
        errors.push(invalid("spec.group", group, &msg.join(",")));
    } else if group.split('.').count() < 2 {
        errors.push(invalid("spec.group", group, "should be a domain with at least one dot"));
    }
}

/// Whether any node of a schema has a `default` (`schemaHasDefaults`).
fn has_default(schema: &Json) -> bool {
    match schema {
        Json::Object(m) => {
            m.get("default").is_some_and(|d| !d.is_null())
                || m.iter().any(|(k, v)| match k.as_str() {
                    "properties" | "patternProperties" | "definitions" | "dependencies" => {
                        v.as_object().is_some_and(|o| o.values().any(has_default))
                    }
                    "items" | "additionalProperties" | "additionalItems" | "not" => match v {
                        Json::Array(a) => a.iter().any(has_default),
                        other => has_default(other),
                    },
                    "allOf" | "anyOf" | "oneOf" => v.as_array().is_some_and(|a| a.iter().any(has_default)),
                    _ => false,
                })
        }
        _ => false,
    }
}

/// `validateDeprecationWarning`.
fn deprecation_warning(deprecated: bool, warning: Option<&str>) -> Vec<String> {
    let Some(w) = warning else { return Vec::new() };
    if !deprecated {
        return Vec::from([String::from("can only be set for deprecated versions")]);
    }
    let mut errs = Vec::new();
    if w.len() > 256 {
        errs.push(String::from("must be <= 256 characters long"));
    }
    if w.is_empty() {
        errs.push(String::from("must not be an empty string"));
    }
    // Go tests `unicode.IsPrint` before `unicode.IsControl`, so a control character is
    // reported as non-printable.
    if let Some((i, _)) = w.char_indices().find(|(_, c)| !crate::field::is_go_printable(*c)) {
        errs.push(format!("must only contain printable UTF-8 characters; non-printable character found at index {i}"));
    }
    errs
}

/// `ValidateCustomResourceDefinitionNames`.
fn validate_names(names: &Json, singular: &str, list_kind: &str, at: &str, errors: &mut Vec<Error>) {
    let plural = text(names, "plural");
    let kind = text(names, "kind");
    if let Some(msg) = dns1035(plural).filter(|_| !plural.is_empty()) {
        errors.push(invalid(&format!("{at}.plural"), plural, &msg));
    }
    if let Some(msg) = dns1035(singular).filter(|_| !singular.is_empty()) {
        errors.push(invalid(&format!("{at}.singular"), singular, &msg));
    }
    for (key, value) in [("kind", kind), ("listKind", list_kind)] {
        if let Some(msg) = dns1035(&value.to_lowercase()).filter(|_| !value.is_empty()) {
            errors.push(invalid(
                &format!("{at}.{key}"),
                value,
                &format!("may have mixed case, but should otherwise match: {msg}"),
            ));
        }
    }
    for (i, short) in names.get("shortNames").and_then(Json::as_array).into_iter().flatten().enumerate() {
        let short = short.as_str().unwrap_or("");
        if let Some(msg) = dns1035(short) {
            errors.push(invalid(&format!("{at}.shortNames[{i}]"), short, &msg));
        }
    }
    if !kind.is_empty() && kind == list_kind {
        errors.push(invalid(&format!("{at}.listKind"), list_kind, "kind and listKind may not be the same"));
    }
    for (i, category) in names.get("categories").and_then(Json::as_array).into_iter().flatten().enumerate() {
        let category = category.as_str().unwrap_or("");
        if let Some(msg) = dns1035(category) {
            errors.push(invalid(&format!("{at}.categories[{i}]"), category, &msg));
        }
    }
}

/// `validateSimpleJSONPath`.
fn simple_json_path(s: &str, path: &str) -> Option<Error> {
    if s.is_empty() {
        Some(invalid(path, s, "must not be empty"))
    } else if !s.starts_with('.') {
        Some(invalid(path, s, "must be a simple json path starting with ."))
    } else {
        None
    }
}

/// `ValidateCustomResourceDefinitionSubresources`.
fn subresources(subresources: Option<&Json>, at: &str, errors: &mut Vec<Error>) {
    let Some(scale) = subresources.and_then(|s| s.get("scale")).filter(|s| !s.is_null()) else { return };
    for (key, under, detail) in [
        ("specReplicasPath", ".spec.", "should be a json path under .spec"),
        ("statusReplicasPath", ".status.", "should be a json path under .status"),
    ] {
        let path = format!("{at}.scale.{key}");
        let value = text(scale, key);
        if value.is_empty() {
            errors.push(required(&path, ""));
        } else if let Some(e) = simple_json_path(value, &path) {
            errors.push(e);
        } else if !value.starts_with(under) {
            errors.push(invalid(&path, value, detail));
        }
    }
    let selector = text(scale, "labelSelectorPath");
    if !selector.is_empty() {
        let path = format!("{at}.scale.labelSelectorPath");
        if let Some(e) = simple_json_path(selector, &path) {
            errors.push(e);
        } else if !selector.starts_with(".spec.") && !selector.starts_with(".status.") {
            errors.push(invalid(&path, selector, "should be a json path under either .spec or .status"));
        }
    }
}

/// `ValidateCustomResourceColumnDefinition` for each column.
fn columns(columns: Option<&Json>, at: &str, errors: &mut Vec<Error>) {
    for (i, col) in columns.and_then(Json::as_array).into_iter().flatten().enumerate() {
        let at = format!("{at}[{i}]");
        if text(col, "name").is_empty() {
            errors.push(required(&format!("{at}.name"), ""));
        }
        let ty = text(col, "type");
        let types_detail = format!("must be one of {COLUMN_TYPES}");
        if ty.is_empty() {
            errors.push(required(&format!("{at}.type"), &types_detail));
        } else if !COLUMN_TYPES.split(',').any(|t| t == ty) {
            errors.push(invalid(&format!("{at}.type"), ty, &types_detail));
        }
        let format = text(col, "format");
        if !format.is_empty() && !COLUMN_FORMATS.split(',').any(|f| f == format) {
            errors.push(invalid(&format!("{at}.format"), format, &format!("must be one of {COLUMN_FORMATS}")));
        }
        // The internal field is `JSONPath`, and its errors say so.
        let json_path = text(col, "jsonPath");
        let path = format!("{at}.JSONPath");
        if json_path.is_empty() {
            errors.push(required(&path, ""));
        } else if let Some(e) = simple_json_path(json_path, &path) {
            errors.push(e);
        }
    }
}

/// `ValidateCustomResourceSelectableFields`.
fn selectable_fields(fields: &[Json], schema: &Json, at: &str, errors: &mut Vec<Error>) {
    let mut unique: Vec<String> = Vec::new();
    for (i, f) in fields.iter().enumerate() {
        let path = format!("{at}[{i}].jsonPath");
        let json_path = text(f, "jsonPath");
        if json_path.is_empty() {
            errors.push(required(&path, ""));
            continue;
        }
        let (normalized, found) = match field_path::valid(json_path, schema, false) {
            Ok(ok) => ok,
            Err(e) => {
                errors.push(invalid(&path, json_path, &format!("is an invalid path: {}", e.message())));
                continue;
            }
        };
        if normalized.split(['.', '[']).next() == Some("metadata") {
            errors.push(invalid(&path, json_path, "must not point to fields in metadata"));
        }
        if !matches!(found.and_then(|s| s.get("type")).and_then(Json::as_str), Some("string" | "boolean" | "integer")) {
            errors.push(invalid(
                &path,
                json_path,
                "must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.",
            ));
        }
        if unique.contains(&normalized) {
            errors.push(Error::new(ErrorType::Duplicate, &Path::named(&path), Some(Json::from(json_path)), ""));
        } else {
            unique.push(normalized);
        }
    }
    if unique.len() > MAX_SELECTABLE_FIELDS {
        errors.push(Error::too_many(&Path::named(at), unique.len(), MAX_SELECTABLE_FIELDS as i64));
    }
}

/// `validateCustomResourceConversion` (v1's `webhook.clientConfig` and
/// `webhook.conversionReviewVersions` are the internal `webhookClientConfig` and
/// `conversionReviewVersions`; the CA bundle is not checked on create).
fn conversion_errors(c: &Json, errors: &mut Vec<Error>) {
    let at = "spec.conversion";
    let strategy = text(c, "strategy");
    enum_string(&format!("{at}.strategy"), strategy, &["None", "Webhook"], errors);
    let webhook = c.get("webhook").filter(|w| !w.is_null());
    let client_config = webhook.and_then(|w| w.get("clientConfig")).filter(|c| !c.is_null());
    let review_versions: Vec<&Json> = webhook
        .and_then(|w| w.get("conversionReviewVersions"))
        .and_then(Json::as_array)
        .into_iter()
        .flatten()
        .collect();
    if strategy == "Webhook" {
        match client_config {
            None => {
                errors.push(required(&format!("{at}.webhookClientConfig"), "required when strategy is set to Webhook"))
            }
            Some(cc) => {
                let url = cc.get("url").and_then(Json::as_str);
                let service = cc.get("service").filter(|s| !s.is_null());
                match (url, service) {
                    (Some(_), Some(_)) | (None, None) => errors.push(required(
                        &format!("{at}.webhookClientConfig"),
                        "exactly one of url or service is required",
                    )),
                    (Some(url), None) => super::webhook::url(&format!("{at}.webhookClientConfig.url"), url, errors),
                    (None, Some(s)) => super::webhook::service(&format!("{at}.webhookClientConfig.service"), s, errors),
                }
            }
        }
        let path = format!("{at}.conversionReviewVersions");
        if review_versions.is_empty() {
            errors.push(required(&path, ""));
        } else {
            let mut seen: Vec<&str> = Vec::new();
            let mut accepted = false;
            for (i, v) in review_versions.iter().enumerate() {
                let v = v.as_str().unwrap_or("");
                if seen.contains(&v) {
                    errors.push(invalid(&format!("{path}[{i}]"), v, "duplicate version"));
                    continue;
                }
                seen.push(v);
                for msg in is_dns1035_label(v) {
                    errors.push(invalid(&format!("{path}[{i}]"), v, &msg));
                }
                accepted |= v == "v1" || v == "v1beta1";
            }
            if !accepted {
                let all: Vec<Json> = review_versions.iter().map(|v| (*v).clone()).collect();
                errors.push(invalid(&path, Json::Array(all), "must include at least one of v1, v1beta1"));
            }
        }
    } else {
        if client_config.is_some() {
            errors.push(forbidden(
                &format!("{at}.webhookClientConfig"),
                "should not be set when strategy is not set to Webhook",
            ));
        }
        if !review_versions.is_empty() {
            errors.push(forbidden(
                &format!("{at}.conversionReviewVersions"),
                "should not be set when strategy is not set to Webhook",
            ));
        }
    }
}

/// `validateAPIApproval` (create): groups of the Kubernetes community (`k8s.io`,
/// `kubernetes.io` and their subdomains) need the `api-approved.kubernetes.io` annotation.
fn api_approval(crd: &Json, group: &str, errors: &mut Vec<Error>) {
    super::webhook::api_approval(crd, group, errors);
}
