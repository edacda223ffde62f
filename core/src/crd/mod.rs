//! CustomResourceDefinition validation: a CRD's schema for one version, the OpenAPI checks of
//! a custom resource ([`openapi`]), and its `x-kubernetes-validations` CEL rules with `self`,
//! `oldSelf`, transition rules, ratcheting and the cost budgets, as apiextensions-apiserver
//! runs them (`pkg/registry/customresource/strategy.go`, `pkg/apiserver/schema/cel/validation.go`).

pub mod openapi;
mod rules;

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value as Json;

use crate::field::{Error, ErrorType, Path};

pub use rules::CompiledRule;

/// A CRD version's schema, with its rules compiled.
pub struct Crd {
    /// `spec.names.kind`.
    pub kind: String,
    /// The version in use.
    pub version: String,
    schema: Json,
    rules: rules::Rules,
}

/// Why a CRD cannot be used, each as the API server reports it.
pub type CrdErrors = Vec<Error>;

fn str_at<'a>(v: &'a Json, path: &[&str]) -> Option<&'a str> {
    let mut cur = v;
    for p in path {
        cur = cur.get(*p)?;
    }
    cur.as_str()
}

impl Crd {
    /// Reads a CRD (`apiextensions.k8s.io/v1`) and picks `version` (default: the storage
    /// version); refuses non-structural schemas and rules that do not compile or cost too much.
    pub fn load(crd: &Json, version: Option<&str>) -> Result<Crd, CrdErrors> {
        let bad = |path: &str, kind: ErrorType, value: Option<Json>, detail: String| {
            Error::new(kind, &Path::named(path), value, detail)
        };
        if str_at(crd, &["kind"]) != Some("CustomResourceDefinition") {
            return Err(Vec::from([bad(
                "kind",
                ErrorType::Invalid,
                crd.get("kind").cloned(),
                String::from("expected CustomResourceDefinition"),
            )]));
        }
        if str_at(crd, &["apiVersion"]) != Some("apiextensions.k8s.io/v1") {
            return Err(Vec::from([bad(
                "apiVersion",
                ErrorType::Invalid,
                crd.get("apiVersion").cloned(),
                String::from("expected apiextensions.k8s.io/v1"),
            )]));
        }
        let kind = String::from(str_at(crd, &["spec", "names", "kind"]).unwrap_or(""));
        let versions =
            crd.get("spec").and_then(|s| s.get("versions")).and_then(Json::as_array).cloned().unwrap_or_default();
        let chosen = match version {
            Some(v) => versions.iter().position(|x| str_at(x, &["name"]) == Some(v)),
            None => versions
                .iter()
                .position(|x| x.get("storage").and_then(Json::as_bool) == Some(true))
                .or(if versions.is_empty() { None } else { Some(0) }),
        };
        let Some(index) = chosen else {
            let names: Vec<&str> = versions.iter().filter_map(|v| str_at(v, &["name"])).collect();
            return Err(Vec::from([bad(
                "spec.versions",
                ErrorType::NotFound,
                version.map(Json::from),
                format!("the CRD has versions: {}", names.join(", ")),
            )]));
        };
        let v = &versions[index];
        let version = String::from(str_at(v, &["name"]).unwrap_or(""));
        let Some(schema) = v.get("schema").and_then(|s| s.get("openAPIV3Schema")).cloned() else {
            return Err(Vec::from([bad(
                &format!("spec.versions[{index}].schema.openAPIV3Schema"),
                ErrorType::Required,
                None,
                String::from("schemas are required"),
            )]));
        };
        let base = format!("spec.versions[{index}].schema.openAPIV3Schema");
        let mut errors = Vec::new();
        structural(&Path::named(&base), &schema, Level::Root, &mut errors);
        if !errors.is_empty() {
            return Err(errors);
        }
        let rules = rules::Rules::compile(&schema, &base)?;
        Ok(Crd { kind, version, schema, rules })
    }

    /// The compiled rules, by schema location.
    pub fn rules(&self) -> &[CompiledRule] {
        self.rules.list()
    }

    /// Validates a custom resource, or an update of one (`old`), as the API server does:
    /// OpenAPI checks first; CEL rules only when none of them is blocking.
    pub fn validate(&self, obj: &Json, old: Option<&Json>) -> Vec<Error> {
        let root = Path::root();
        let mut errors = Vec::new();
        openapi::validate(&root, "", obj, &self.schema, &mut errors);
        openapi::embedded_resources(&root, obj, &self.schema, &mut errors);
        openapi::list_types(&root, obj, &self.schema, &mut errors);
        if let Some(old) = old {
            // Ratcheting of OpenAPI errors: an unchanged value keeps its old errors quiet.
            errors.retain(|e| !unchanged_at(&e.field, obj, old));
        }
        let blocking = errors.iter().any(|e| {
            matches!(
                e.kind,
                ErrorType::NotSupported
                    | ErrorType::Required
                    | ErrorType::TooLong
                    | ErrorType::TooMany
                    | ErrorType::TypeInvalid
            )
        });
        if blocking {
            errors.push(Error::new(
                ErrorType::Invalid,
                &root,
                Some(Json::Null),
                "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation",
            ));
            return errors;
        }
        errors.extend(self.rules.validate(&self.schema, obj, old));
        errors
    }
}

/// Whether the value at a rendered field path (`spec.items[0].name`) is the same in both.
fn unchanged_at(field: &str, new: &Json, old: &Json) -> bool {
    let (mut a, mut b) = (new, old);
    for part in field.split('.') {
        let (name, indexes) = match part.find('[') {
            Some(i) => (&part[..i], &part[i..]),
            None => (part, ""),
        };
        if !name.is_empty() && name != "<nil>" {
            match (a.get(name), b.get(name)) {
                (Some(x), Some(y)) => (a, b) = (x, y),
                _ => return false,
            }
        }
        for idx in indexes.split('[').filter(|s| !s.is_empty()) {
            let idx = idx.trim_end_matches(']');
            match (idx.parse::<usize>(), a, b) {
                (Ok(i), Json::Array(x), Json::Array(y)) => match (x.get(i), y.get(i)) {
                    (Some(p), Some(q)) => (a, b) = (p, q),
                    _ => return false,
                },
                (_, Json::Object(x), Json::Object(y)) => match (x.get(idx), y.get(idx)) {
                    (Some(p), Some(q)) => (a, b) = (p, q),
                    _ => return false,
                },
                _ => return false,
            }
        }
    }
    a == b
}

/// Where a schema node sits, for the structural rules' messages.
#[derive(Clone, Copy, PartialEq)]
enum Level {
    Root,
    Item,
    Field,
}

/// The structural-schema invariants the API server enforces (apiextensions-apiserver
/// pkg/apiserver/schema/validation.go `validateStructuralInvariants`, in its order): types,
/// `items`, `additionalProperties` and `properties` exclusive, `$ref`, embedded resources,
/// `kind`/`apiVersion`/`metadata` at resource roots, and the extensions' combinations.
fn structural(path: &Path<'_>, schema: &Json, level: Level, errors: &mut Vec<Error>) {
    let t = schema.get("type").and_then(Json::as_str).filter(|t| !t.is_empty());
    let on = |key: &str| schema.get(key).and_then(Json::as_bool) == Some(true);
    let (int_or_string, preserve, embedded) = (
        on("x-kubernetes-int-or-string"),
        on("x-kubernetes-preserve-unknown-fields"),
        on("x-kubernetes-embedded-resource"),
    );
    let additional = schema.get("additionalProperties").filter(|a| a.is_object());
    let properties = schema.get("properties").and_then(Json::as_object);
    if t == Some("array") && schema.get("items").is_none() {
        errors.push(Error::new(ErrorType::Required, &path.child("items"), None, "must be specified"));
    }
    if let Some(items) = schema.get("items").filter(|i| i.is_object()) {
        structural(&path.child("items"), items, Level::Item, errors);
    }
    if let Some(props) = properties {
        let p = path.child("properties");
        for (k, v) in props {
            structural(&p.key(k), v, Level::Field, errors);
        }
    }
    if let Some(ap) = additional {
        if level == Level::Root {
            errors.push(Error::new(
                ErrorType::Forbidden,
                &path.child("additionalProperties"),
                None,
                "must not be used at the root",
            ));
        }
        structural(&path.child("additionalProperties"), ap, Level::Field, errors);
    }
    if schema.get("$ref").is_some() {
        errors.push(Error::new(ErrorType::Forbidden, &path.child("$ref"), None, "$ref is not supported"));
    }
    if properties.is_some() && additional.is_some() {
        errors.push(Error::new(
            ErrorType::Forbidden,
            &path.child("additionalProperties"),
            None,
            "additionalProperties and properties are mutual exclusive",
        ));
    }
    // validateExtensions.
    for (key, set) in [("x-kubernetes-preserve-unknown-fields", preserve), ("x-kubernetes-embedded-resource", embedded)]
    {
        if int_or_string && set {
            let detail = "must be false if x-kubernetes-int-or-string is true";
            errors.push(Error::new(ErrorType::Invalid, &path.child(key), Some(Json::Bool(true)), detail));
        }
    }
    let check_metadata = level == Level::Root || embedded;
    const EMBEDDED_OBJECT: &str = "must be object if x-kubernetes-embedded-resource is true";
    match t {
        None if embedded => errors.push(Error::new(ErrorType::Required, &path.child("type"), None, EMBEDDED_OBJECT)),
        Some(t) if embedded && t != "object" => {
            errors.push(Error::new(ErrorType::Invalid, &path.child("type"), Some(Json::from(t)), EMBEDDED_OBJECT))
        }
        None if !int_or_string && !preserve => {
            let detail = match level {
                Level::Root => "must not be empty at the root",
                Level::Item => "must not be empty for specified array items",
                Level::Field => "must not be empty for specified object fields",
            };
            errors.push(Error::new(ErrorType::Required, &path.child("type"), None, detail));
        }
        _ => {}
    }
    if embedded && additional.is_some() {
        let detail = "must not be used if x-kubernetes-embedded-resource is set";
        errors.push(Error::new(ErrorType::Forbidden, &path.child("additionalProperties"), None, detail));
    }
    if level == Level::Root && t.is_some_and(|t| t != "object") {
        errors.push(Error::new(
            ErrorType::Invalid,
            &path.child("type"),
            t.map(Json::from),
            "must be object at the root",
        ));
    }
    let props = path.child("properties");
    for name in ["kind", "apiVersion"] {
        if let Some(p) = properties.and_then(|ps| ps.get(name)).filter(|_| check_metadata) {
            let ty = p.get("type").and_then(Json::as_str).unwrap_or("");
            if ty != "string" {
                errors.push(Error::new(
                    ErrorType::Invalid,
                    &props.key(name).child("type"),
                    Some(Json::from(ty)),
                    "must be string",
                ));
            }
        }
    }
    if let Some(metadata) = properties.and_then(|ps| ps.get("metadata")) {
        structural_metadata(&props.key("metadata"), metadata, check_metadata, level, errors);
    }
    if embedded && !preserve && properties.is_none_or(|p| p.is_empty()) {
        let detail =
            "must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields";
        errors.push(Error::new(ErrorType::Required, &path.child("properties"), None, detail));
    }
}

/// `validateStructuralMetadataInvariants`: `metadata` is an object, and at the root it may
/// only constrain `name` and `generateName` (the API server validates the rest itself).
fn structural_metadata(path: &Path<'_>, metadata: &Json, check_metadata: bool, level: Level, errors: &mut Vec<Error>) {
    let ty = metadata.get("type").and_then(Json::as_str).unwrap_or("");
    if check_metadata && ty != "object" {
        errors.push(Error::new(ErrorType::Invalid, &path.child("type"), Some(Json::from(ty)), "must be object"));
    }
    if level != Level::Root {
        return;
    }
    let Some(fields) = metadata.as_object() else { return };
    // What remains once type, default and a name/generateName-only `properties` are dropped
    // must be empty (false flags and empty strings are Go's zero values).
    let only_names =
        |p: &Json| p.as_object().is_some_and(|p| !p.is_empty() && p.keys().all(|k| k == "name" || k == "generateName"));
    let anything_else = fields.iter().any(|(k, v)| match k.as_str() {
        "type" | "default" => false,
        "properties" => !only_names(v),
        _ => !matches!(v, Json::Bool(false) | Json::Null) && v.as_str() != Some(""),
    });
    if anything_else {
        let detail = "must not specify anything other than name and generateName, but metadata is implicitly specified";
        errors.push(Error::new(ErrorType::Forbidden, path, None, detail));
    }
}
