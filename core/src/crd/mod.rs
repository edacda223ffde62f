//! CustomResourceDefinition validation: a CRD's schema for one version, the OpenAPI checks of
//! a custom resource ([`openapi`]), and its `x-kubernetes-validations` CEL rules with `self`,
//! `oldSelf`, transition rules, ratcheting and the cost budgets, as apiextensions-apiserver
//! runs them (`pkg/registry/customresource/strategy.go`, `pkg/apiserver/schema/cel/validation.go`).

mod correlate;
pub mod decode;
mod definition;
mod embedded;
mod field_path;
mod internal;
pub mod openapi;
mod rules;
mod schema_check;
mod structural;
pub(crate) mod webhook;

use alloc::format;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value as Json;

#[cfg(feature = "crd-definition")]
use crate::declarative::shadow::NEWEST_MINOR;
use crate::field::{Error, ErrorType, Path};

pub use rules::CompiledRule;

/// Whether a CRD gets the whole `ValidateCustomResourceDefinition` (feature `crd-definition`,
/// the CLI and the playground) or only what validating its custom resources needs: versions,
/// schemas present, structural, defaults, rules compiled within their costs (the npm core
/// module, which must stay within its size budget).
const FULL: bool = cfg!(feature = "crd-definition");

/// A CRD version's schema, with its rules compiled.
pub struct Crd {
    /// `spec.group`.
    pub group: String,
    /// `spec.names.kind`.
    pub kind: String,
    /// The version in use.
    pub version: String,
    schema: Json,
    rules: Rc<rules::Rules>,
    /// The version serves `/status`: a request to the resource itself does not set `status`.
    status_subresource: bool,
}

/// How to validate a custom resource.
#[derive(Clone, Debug)]
pub struct Options {
    /// Apply the schema's `default`s before validating, as the API server does on decode
    /// (on by default).
    pub defaults: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options { defaults: true }
    }
}

/// What validating one custom resource gives.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The errors, in the API server's order.
    pub errors: Vec<Error>,
    /// The API server's warnings (unknown fields pruned on decode).
    pub warnings: Vec<String>,
    /// The object as the API server validated and would store it: unknown fields pruned,
    /// non-nullable nulls dropped, defaults applied.
    pub object: Json,
    /// An update whose body names another object than the stored one: the API server refuses
    /// it before validation (a Bad Request, these words), and `errors` is empty.
    pub refusal: Option<String>,
}

/// Why a CRD cannot be used, each as the API server reports it.
pub type CrdErrors = Vec<Error>;

/// Where a CRD refusal's field is written in the v1 document, when that differs from the path
/// the API server reports: the internal form it validates moves what all versions share to the
/// top (`apiextensions/v1/conversion.go`): `spec.validation` is each version's `schema`,
/// `spec.subresources`, `spec.additionalPrinterColumns` and `spec.selectableFields` are each
/// version's, and `spec.version` is the first version's name. The first version stands for all.
pub fn document_path(field: &str) -> Option<String> {
    const MOVED: [(&str, &str); 5] = [
        ("spec.validation", "spec.versions[0].schema"),
        ("spec.subresources", "spec.versions[0].subresources"),
        ("spec.additionalPrinterColumns", "spec.versions[0].additionalPrinterColumns"),
        ("spec.selectableFields", "spec.versions[0].selectableFields"),
        ("spec.version", "spec.versions[0].name"),
    ];
    MOVED.iter().find_map(|(internal, v1)| {
        let rest = field.strip_prefix(internal)?;
        (rest.is_empty() || rest.starts_with(['.', '['])).then(|| format!("{v1}{rest}"))
    })
}

fn str_at<'a>(v: &'a Json, path: &[&str]) -> Option<&'a str> {
    let mut cur = v;
    for p in path {
        cur = cur.get(*p)?;
    }
    cur.as_str()
}

impl Crd {
    /// Reads a CRD (`apiextensions.k8s.io/v1`) and picks `version` (default: the storage
    /// version). A CRD the API server would refuse is refused with its errors (see
    /// [`Crd::load_all`]).
    pub fn load(crd: &Json, version: Option<&str>) -> Result<Crd, CrdErrors> {
        Crd::load_at(crd, version, crate::declarative::shadow::NEWEST_MINOR)
    }

    /// [`Crd::load`] as the API server of Kubernetes 1.`minor` does.
    pub fn load_at(crd: &Json, version: Option<&str>, minor: u32) -> Result<Crd, CrdErrors> {
        let mut all = Crd::load_all_at(crd, minor)?;
        let chosen = match version {
            Some(v) => all.iter().position(|c| c.version == v),
            None => {
                let versions = crd.get("spec").and_then(|s| s.get("versions")).and_then(Json::as_array);
                versions.and_then(|vs| vs.iter().position(|x| x.get("storage").and_then(Json::as_bool) == Some(true)))
            }
        };
        match chosen {
            Some(i) => Ok(all.swap_remove(i)),
            None => {
                let names: Vec<&str> = all.iter().map(|c| c.version.as_str()).collect();
                Err(Vec::from([Error::new(
                    ErrorType::NotFound,
                    &Path::named("spec.versions"),
                    version.map(Json::from),
                    format!("the CRD has versions: {}", names.join(", ")),
                )]))
            }
        }
    }

    /// Reads a CRD (`apiextensions.k8s.io/v1`) as the API server does when it is created,
    /// and gives every version with its schema and compiled rules; or everything the API
    /// server would refuse, in its order and words (`ValidateCustomResourceDefinition`:
    /// metadata, names, versions, schemas, rules and their costs, subresources, printer
    /// columns, selectable fields, conversion, API approval). The rules are compiled as the
    /// newest Kubernetes kubedv models compiles a new CRD's: see [`Crd::load_all_at`].
    pub fn load_all(crd: &Json) -> Result<Vec<Crd>, CrdErrors> {
        Crd::load_all_at(crd, crate::declarative::shadow::NEWEST_MINOR)
    }

    /// [`Crd::load_all`] as the API server of Kubernetes 1.`minor` does: the rules are new
    /// expressions, compiled in the CEL environment of its minimum compatibility version,
    /// 1.(`minor`-1) ([`crate::cel::environment`]).
    pub fn load_all_at(crd: &Json, minor: u32) -> Result<Vec<Crd>, CrdErrors> {
        if decode::null_defaults(crd) {
            let mut read = crd.clone();
            decode::drop_null_defaults(&mut read);
            return Crd::load_all_at(&read, minor);
        }
        let bad = |path: &str, value: Option<Json>, detail: &str| {
            Vec::from([Error::new(ErrorType::Invalid, &Path::named(path), value, detail)])
        };
        if str_at(crd, &["kind"]) != Some("CustomResourceDefinition") {
            return Err(bad("kind", crd.get("kind").cloned(), "expected CustomResourceDefinition"));
        }
        if str_at(crd, &["apiVersion"]) != Some("apiextensions.k8s.io/v1") {
            return Err(bad("apiVersion", crd.get("apiVersion").cloned(), "expected apiextensions.k8s.io/v1"));
        }
        let checked = definition::validate(crd, minor);
        if !checked.errors.is_empty() {
            return Err(checked.errors);
        }
        let kind = String::from(str_at(crd, &["spec", "names", "kind"]).unwrap_or(""));
        let group = String::from(str_at(crd, &["spec", "group"]).unwrap_or(""));
        let versions = crd.get("spec").and_then(|s| s.get("versions")).and_then(Json::as_array);
        let crds = versions
            .into_iter()
            .flatten()
            .zip(checked.rules)
            .filter_map(|(v, rules)| {
                // Without errors every version has a schema, and so rules.
                let schema = v.get("schema").and_then(|s| s.get("openAPIV3Schema"))?.clone();
                let version = String::from(str_at(v, &["name"]).unwrap_or(""));
                let status_subresource = v.get("subresources").and_then(|s| s.get("status")).is_some();
                Some(Crd {
                    group: group.clone(),
                    kind: kind.clone(),
                    version,
                    schema,
                    rules: rules?,
                    status_subresource,
                })
            })
            .collect();
        Ok(crds)
    }

    /// The compiled rules, by schema location.
    pub fn rules(&self) -> &[CompiledRule] {
        self.rules.list()
    }

    /// validator.go `ValidateTypeMeta`: the object is of this CRD's kind and version. An
    /// object that omits them gets them from the request's URL when the API server decodes it,
    /// so only stated ones are checked.
    fn type_meta(&self, object: &Json) -> Vec<Error> {
        let mut errors = Vec::new();
        if let Some(kind) = object.get("kind").map(|k| k.as_str().unwrap_or("")) {
            if kind != self.kind {
                errors.push(Error::invalid(&Path::named("kind"), kind, format!("must be {}", self.kind)));
            }
        }
        let expected = format!("{}/{}", self.group, self.version);
        if let Some(api_version) = object.get("apiVersion").map(|k| k.as_str().unwrap_or("")) {
            if api_version != expected {
                errors.push(Error::invalid(&Path::named("apiVersion"), api_version, format!("must be {expected}")));
            }
        }
        errors
    }

    /// The CEL rules alone over a custom resource (and its old version), as apiextensions'
    /// `cel.Validator.Validate` runs them within a cost budget and per-expression limit of its
    /// own: the errors, the ratcheted errors' warnings, and what is left of the budget
    /// (negative once validation stopped for cost). The API server's own are
    /// `celconfig.RuntimeCELCostBudget` (10,000,000) and `PerCallLimit` (1,000,000).
    #[cfg(feature = "crd-definition")]
    pub fn validate_rules_with_budget(
        &self,
        obj: &Json,
        old: Option<&Json>,
        budget: i64,
        per_call: u64,
    ) -> (Vec<Error>, Vec<String>, i64) {
        self.rules.validate_with_budget(&self.schema, obj, old, budget, per_call)
    }

    /// Validates a custom resource, or an update of one (`old`), as the API server does; the
    /// errors of [`Crd::check`] with the default options.
    pub fn validate(&self, obj: &Json, old: Option<&Json>) -> Vec<Error> {
        self.check(obj, old, &Options::default()).errors
    }

    /// Decodes a custom resource (and the old one, on update) as the API server does, then
    /// validates it in the order of apiextensions-apiserver's `customResourceStrategy`:
    /// the OpenAPI checks (ratcheted on update), embedded resources, list-type duplicates
    /// (on update only when the old object had none), then the CEL rules unless an earlier
    /// error is blocking.
    pub fn check(&self, obj: &Json, old: Option<&Json>, options: &Options) -> Outcome {
        if let Some(refusal) = old.and_then(|old| crate::objectmeta::update_refusal(obj, old)) {
            let object = obj.clone();
            return Outcome { errors: Vec::new(), warnings: Vec::new(), object, refusal: Some(refusal) };
        }
        let mut object = obj.clone();
        #[allow(unused_mut)] // Without `crd-definition`, only the decoder warns.
        let mut warnings = decode::decode(&mut object, &self.schema, options.defaults);
        let old = old.map(|o| {
            let mut o = o.clone();
            decode::decode(&mut o, &self.schema, options.defaults);
            o
        });
        let old = old.as_ref();
        // With `/status` served, the resource's own create and update do not set `status`:
        // the strategy drops it on create and keeps the stored one on update, before validation
        // (apiextensions-apiserver registry/customresource/strategy.go PrepareForCreate,
        // PrepareForUpdate). Found by the differential fuzzer (`fuzz-crd`).
        if self.status_subresource {
            if let Some(fields) = object.as_object_mut() {
                match old.and_then(|o| o.get("status")) {
                    Some(status) => {
                        fields.insert(String::from("status"), status.clone());
                    }
                    None => {
                        fields.remove("status");
                    }
                }
            }
        }
        let root = Path::root();
        let at = Path::named("metadata");
        let mut errors = Vec::new();
        // An update's metadata first, as every update's checks see it (`validateCommonFields`;
        // the validator's own `ValidateObjectMetaAccessorUpdate` repeats them). Without the
        // feature (the npm core module, for its size) an update's metadata is checked as on
        // create: the same label, annotation, owner and finalizer checks, and none of the
        // immutable fields.
        #[cfg(feature = "crd-definition")]
        if let Some(old) = old {
            let empty = serde_json::Map::new();
            let (new_meta, old_meta) =
                (object.get("metadata").and_then(Json::as_object), old.get("metadata").and_then(Json::as_object));
            let (new_meta, old_meta) = (new_meta.unwrap_or(&empty), old_meta.unwrap_or(&empty));
            crate::objectmeta::validate_update(&at, new_meta, old_meta, true, NEWEST_MINOR, &mut errors);
        }
        let type_errors = self.type_meta(&object);
        if type_errors.is_empty() {
            // validator.go: on create metadata (`ValidateObjectMeta`, names are DNS
            // subdomains), then the schema.
            if old.is_none() || cfg!(not(feature = "crd-definition")) {
                if let Some(Json::Object(meta)) = object.get("metadata") {
                    crate::objectmeta::validate(
                        &at,
                        meta,
                        crate::objectmeta::NameRule::DnsSubdomain,
                        false,
                        &mut errors,
                    );
                }
            }
            openapi::validate(&object, &self.schema, old, &mut errors);
        }
        errors.extend(type_errors);
        embedded::embedded_resources(&root, &object, &self.schema, &mut errors);
        let old_lists_fine = old.is_none_or(|o| {
            let mut old_errors = Vec::new();
            openapi::list_types(&root, o, &self.schema, &mut old_errors);
            old_errors.is_empty()
        });
        if old_lists_fine {
            openapi::list_types(&root, &object, &self.schema, &mut errors);
        }
        if !self.rules.list().is_empty() {
            // strategy.go hasBlockingErr: these error types stop the rules from running.
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
            } else {
                let (rule_errors, ratcheted) = self.rules.validate(&self.schema, &object, old);
                errors.extend(rule_errors);
                warnings.extend(ratcheted);
            }
        }
        #[cfg(feature = "crd-definition")]
        if errors.is_empty() {
            finalizer_warnings(&object, old, &mut warnings);
        }
        Outcome { errors, warnings, object, refusal: None }
    }
}

/// The warnings of a request that passed validation (`customResourceStrategy.WarningsOnCreate`
/// and `WarningsOnUpdate`, `validateKubeFinalizerName`): each finalizer the request adds, in
/// sorted order, whose name is no qualified name, or has no domain (not a standard one).
#[cfg(feature = "crd-definition")]
fn finalizer_warnings(object: &Json, old: Option<&Json>, warnings: &mut Vec<String>) {
    fn list(o: &Json) -> Vec<&str> {
        let finalizers = o.get("metadata").and_then(|m| m.get("finalizers")).and_then(Json::as_array);
        finalizers.into_iter().flatten().filter_map(Json::as_str).collect()
    }
    let before = old.map(list).unwrap_or_default();
    let mut added: Vec<&str> = list(object).into_iter().filter(|f| !before.contains(f)).collect();
    added.sort_unstable();
    added.dedup();
    for f in added {
        let quoted = crate::field::go_quote(f);
        for msg in crate::content::is_label_key(f) {
            warnings.push(format!("metadata.finalizers: {quoted}: {msg}"));
        }
        if !f.contains('/') && !["orphan", "foregroundDeletion", "kubernetes"].contains(&f) {
            let path = if f.contains('.') { " including a path (/)" } else { "" };
            warnings.push(format!(
                "metadata.finalizers: {quoted}: prefer a domain-qualified finalizer name{path} to avoid accidental conflicts with other finalizer writers"
            ));
        }
    }
}

/// `default`s must be valid where they stand (apiextensions-apiserver
/// `pkg/apiserver/schema/defaulting/validation.go` ValidateDefaults, v1 CRDs): no unknown fields
/// (`must not have unknown fields`), then the OpenAPI checks of their schema, reported under
/// `<schema path>.default`, then the CEL rules of the node and below on it (as Kubernetes
/// 1.`minor` compiles them). Defaults inside a resource's metadata, apiVersion and kind are
/// not checked here.
fn defaults(
    path: &Path<'_>,
    schema: &Json,
    resource_root: bool,
    inside_meta: bool,
    minor: u32,
    errors: &mut Vec<Error>,
) {
    let embedded = schema.get("x-kubernetes-embedded-resource").and_then(Json::as_bool) == Some(true);
    let root = resource_root || embedded;
    if let (Some(default), false) = (schema.get("default"), inside_meta) {
        let at = path.child("default");
        let mut pruned = default.clone();
        decode::prune(&mut pruned, Some(schema), root, "", &mut Vec::new());
        if &pruned != default {
            errors.push(Error::invalid(&at, default.clone(), "must not have unknown fields"));
        } else {
            let base = at.render();
            let mut found = Vec::new();
            openapi::validate(default, schema, None, &mut found);
            if found.is_empty() {
                found = rules::Rules::of_subtree(schema, root, minor).validate_value(schema, default, root);
            }
            for mut e in found {
                e.field = if e.field == "<nil>" { base.clone() } else { format!("{base}.{}", e.field) };
                errors.push(e);
            }
        }
    }
    if let Some(items) = schema.get("items").filter(|i| i.is_object()) {
        defaults(&path.child("items"), items, false, inside_meta, minor, errors);
    }
    if let Some(props) = schema.get("properties").and_then(Json::as_object) {
        let p = path.child("properties");
        for (k, v) in props {
            let meta = inside_meta || (root && matches!(k.as_str(), "metadata" | "apiVersion" | "kind"));
            defaults(&p.key(k), v, false, meta, minor, errors);
        }
    }
    if let Some(ap) = schema.get("additionalProperties").filter(|a| a.is_object()) {
        defaults(&path.child("additionalProperties"), ap, false, inside_meta, minor, errors);
    }
}

#[cfg(test)]
mod tests {
    use super::document_path;

    #[test]
    fn shared_parts_are_written_in_the_first_version() {
        let at = |f: &str| document_path(f);
        assert_eq!(
            at("spec.validation.openAPIV3Schema.properties[spec].uniqueItems").as_deref(),
            Some("spec.versions[0].schema.openAPIV3Schema.properties[spec].uniqueItems")
        );
        assert_eq!(
            at("spec.subresources.scale.specReplicasPath").as_deref(),
            Some("spec.versions[0].subresources.scale.specReplicasPath")
        );
        assert_eq!(
            at("spec.additionalPrinterColumns[1].type").as_deref(),
            Some("spec.versions[0].additionalPrinterColumns[1].type")
        );
        assert_eq!(
            at("spec.selectableFields[0].jsonPath").as_deref(),
            Some("spec.versions[0].selectableFields[0].jsonPath")
        );
        assert_eq!(at("spec.version").as_deref(), Some("spec.versions[0].name"));
        // Paths already in the v1 form, or elsewhere, stay.
        assert_eq!(at("spec.versions[1].schema.openAPIV3Schema"), None);
        assert_eq!(at("spec.validationX"), None);
        assert_eq!(at("metadata.name"), None);
    }
}
