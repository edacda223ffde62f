//! `metadata` validation on create, as apimachinery's `ValidateObjectMeta`
//! (`pkg/api/validation/objectmeta.go`) runs it for custom resources (names are DNS
//! subdomains) and apiextensions' `schemaobjectmeta.Validate` for embedded resources (names
//! are path segments): generateName, name, namespace, generation, labels, annotations,
//! ownerReferences, finalizers.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{Map, Value as Json};

use crate::content;
use crate::field::{Error, ErrorType, Path};

/// How a kind's names are checked.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum NameRule {
    /// `NameIsDNSSubdomain` (custom resources and most built-in kinds).
    DnsSubdomain,
    /// `path.ValidatePathSegmentName` (embedded resources).
    PathSegment,
}

/// `TotalAnnotationSizeLimitB`.
const ANNOTATIONS_LIMIT: usize = 256 * 1024;

fn names(rule: NameRule, value: &str, prefix: bool) -> Vec<String> {
    match rule {
        NameRule::DnsSubdomain => {
            let key = if prefix { "dns1123SubdomainPrefix" } else { "dns1123Subdomain" };
            crate::cel::k8s::named_format(key).map_or(Vec::new(), |f| f.validate(value))
        }
        NameRule::PathSegment if prefix => {
            // IsPathSegmentPrefix: only the characters are checked.
            ["/", "%"].iter().filter(|c| value.contains(**c)).map(|c| format!("may not contain '{c}'")).collect()
        }
        NameRule::PathSegment => content::is_path_segment_name(value),
    }
}

fn string<'a>(meta: &'a Map<String, Json>, key: &str) -> &'a str {
    meta.get(key).and_then(Json::as_str).unwrap_or("")
}

/// Appends the errors of an object's `metadata` (at `path`, e.g. `metadata`). `embedded`
/// resources need no name (apiextensions validates them with the name `fakename`).
pub fn validate(path: &Path<'_>, meta: &Map<String, Json>, rule: NameRule, embedded: bool, errors: &mut Vec<Error>) {
    validate_with(path, meta, rule, embedded, None, true, errors);
}

/// [`validate`] for a cluster-scoped kind whose name must also equal `required_name` (a
/// CustomResourceDefinition's `<plural>.<group>`: its name function adds
/// `must be spec.names.plural+"."+spec.group` to the name's and generateName's messages). The
/// API server clears a namespace given to a cluster-scoped object
/// (`EnsureObjectNamespaceMatchesRequestNamespace`), so none is checked.
pub fn validate_cluster(
    path: &Path<'_>,
    meta: &Map<String, Json>,
    rule: NameRule,
    required_name: Option<&str>,
    errors: &mut Vec<Error>,
) {
    validate_with(path, meta, rule, false, required_name, false, errors);
}

fn validate_with(
    path: &Path<'_>,
    meta: &Map<String, Json>,
    rule: NameRule,
    embedded: bool,
    required_name: Option<&str>,
    namespaced: bool,
    errors: &mut Vec<Error>,
) {
    let name_messages = |value: &str, prefix: bool| {
        let mut msgs = names(rule, value, prefix);
        if required_name.is_some_and(|r| r != value) {
            msgs.push(String::from(r#"must be spec.names.plural+"."+spec.group"#));
        }
        msgs
    };
    let generate_name = string(meta, "generateName");
    if !generate_name.is_empty() {
        for msg in name_messages(generate_name, true) {
            errors.push(Error::invalid(&path.child("generateName"), generate_name, msg));
        }
    }
    let name = string(meta, "name");
    if name.is_empty() {
        // The API server generates a name from generateName before validating.
        if generate_name.is_empty() && !embedded {
            errors.push(Error::new(ErrorType::Required, &path.child("name"), None, "name or generateName is required"));
        }
    } else {
        for msg in name_messages(name, false) {
            errors.push(Error::invalid(&path.child("name"), name, msg));
        }
    }
    // A namespaced object's namespace comes from the request when absent (kubectl, the API
    // server's URL), so only a given one is checked.
    let namespace = string(meta, "namespace");
    if namespaced && !namespace.is_empty() {
        let msgs = crate::cel::k8s::named_format("dns1123Label").map_or(Vec::new(), |f| f.validate(namespace));
        for msg in msgs {
            errors.push(Error::invalid(&path.child("namespace"), namespace, msg));
        }
    }
    if let Some(g) = meta.get("generation").and_then(Json::as_i64).filter(|g| *g < 0) {
        errors.push(Error::invalid(&path.child("generation"), g, "must be greater than or equal to 0"));
    }
    if let Some(Json::Object(labels)) = meta.get("labels") {
        let at = path.child("labels");
        for (k, v) in labels {
            for msg in content::is_label_key(k) {
                errors.push(Error::invalid(&at, k.as_str(), msg));
            }
            let v = v.as_str().unwrap_or("");
            for msg in content::is_label_value(v) {
                errors.push(Error::invalid(&at, v, msg));
            }
        }
    }
    if let Some(Json::Object(annotations)) = meta.get("annotations") {
        let at = path.child("annotations");
        let mut size = 0usize;
        for (k, v) in annotations {
            // Case does not matter in annotation keys: checked lowercased, reported as given
            // (ASCII lowering decides the same: a key with any non-ASCII letter is invalid).
            for msg in content::is_label_key(&k.to_ascii_lowercase()) {
                errors.push(Error::invalid(&at, k.as_str(), msg));
            }
            size = size.saturating_add(k.len()).saturating_add(v.as_str().map_or(0, str::len));
        }
        if size > ANNOTATIONS_LIMIT {
            errors.push(Error::too_long(&at, ANNOTATIONS_LIMIT as i64));
        }
    }
    if let Some(Json::Array(refs)) = meta.get("ownerReferences") {
        owner_references(&path.child("ownerReferences"), refs, errors);
    }
    if let Some(Json::Array(finalizers)) = meta.get("finalizers") {
        let at = path.child("finalizers");
        let names: Vec<&str> = finalizers.iter().filter_map(Json::as_str).collect();
        for f in &names {
            for msg in content::is_label_key(f) {
                errors.push(Error::invalid(&at, *f, msg));
            }
        }
        if names.contains(&"orphan") && names.contains(&"foregroundDeletion") {
            errors.push(Error::invalid(
                &at,
                Json::Array(finalizers.clone()),
                "finalizer orphan and foregroundDeletion cannot be both set",
            ));
        }
    }
}

/// `ValidateOwnerReferences`.
fn owner_references(path: &Path<'_>, refs: &[Json], errors: &mut Vec<Error>) {
    let mut controller: Option<String> = None;
    for (i, r) in refs.iter().enumerate() {
        let at = path.index(i);
        let s = |k: &str| r.get(k).and_then(Json::as_str).unwrap_or("");
        let api_version = s("apiVersion");
        // ParseGroupVersion fails on more than one '/'; the version part must not be empty.
        let version = api_version.rsplit('/').next().unwrap_or("");
        if api_version.is_empty() {
            errors.push(Error::new(ErrorType::Required, &at.child("apiVersion"), None, "must not be empty"));
        } else if api_version.matches('/').count() > 1 || version.is_empty() {
            errors.push(Error::invalid(&at.child("apiVersion"), api_version, "must be <group>/<version> or <version>"));
        }
        for k in ["kind", "name", "uid"] {
            if s(k).is_empty() {
                errors.push(Error::new(ErrorType::Required, &at.child(k), None, "must not be empty"));
            }
        }
        if api_version == "v1" && s("kind") == "Event" {
            errors.push(Error::invalid(&at, r.clone(), "/v1, Kind=Event is disallowed from being an owner"));
        }
        if r.get("controller").and_then(Json::as_bool) == Some(true) {
            let this = format!("{}/{}", s("kind"), s("name"));
            match &controller {
                None => controller = Some(this),
                Some(first) => errors.push(Error::invalid(
                    path,
                    Json::Array(refs.to_vec()),
                    format!(
                        "Only one reference can have Controller set to true. Found \"true\" in references for {first} and {this}"
                    ),
                )),
            }
        }
    }
}
