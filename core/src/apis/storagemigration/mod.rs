//! The `storagemigration.k8s.io` group: StorageVersionMigration (v1, v1beta1), after Kubernetes'
//! `pkg/apis/storagemigration/validation/validation.go` (`ValidateStorageVersionMigration`,
//! `ValidateStorageVersionMigrationUpdate`) and
//! `pkg/registry/storagemigration/storagemigration/strategy.go` (the status reset on create,
//! kept from the old object on update). No defaulting; no warnings.
//!
//! `ValidateStorageVersionMigrationStatusUpdate` belongs to the `status` subresource, which
//! kubedv is never asked about: left out.

#[cfg(test)]
mod tests;

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{Map, Value as Json};

use super::Group;
use crate::apis::core::common::{is_dns1123_subdomain, required};
use crate::apis::json::{field, str};
use crate::cel::k8s::is_dns1035_label;
use crate::field::{go_json, Error, Path};

/// The kinds this room models.
pub const KINDS: &[&str] = &["StorageVersionMigration"];

/// `SetObjectDefaults_X`: the group has none.
pub fn default(_version: &str, _kind: &str, _object: &mut Json) {}

/// `PrepareForCreate` / `PrepareForUpdate` (the status), then `ValidateStorageVersionMigration`
/// or `ValidateStorageVersionMigrationUpdate` (metadata aside).
pub fn admit(group: &Group<'_>, object: &mut Json, old: Option<&Json>) -> (Vec<Error>, Vec<String>) {
    let mut errors = Vec::new();
    if group.kind != "StorageVersionMigration" {
        return (errors, Vec::new());
    }
    if let Json::Object(map) = object {
        let status = old.and_then(|o| o.get("status")).cloned().unwrap_or_else(|| Json::Object(Map::new()));
        map.insert(String::from("status"), status);
    }
    let object = &*object;
    validate(object, &mut errors);
    if let Some(old) = old {
        validate_update(object, old, &mut errors);
    }
    (errors, Vec::new())
}

/// `ValidateStorageVersionMigration` (its metadata aside).
pub(crate) fn validate(svm: &Json, errors: &mut Vec<Error>) {
    let root = Path::root();
    let spec_path = root.child("spec");
    let resource_path = spec_path.child("resource");
    let resource = field(field(svm, "spec"), "resource");
    let name = str(resource, "resource");
    if name.is_empty() {
        errors.push(required(&resource_path.child("resource"), "resource is required to be set"));
    } else {
        let errs = is_dns1035_label(name);
        if !errs.is_empty() {
            errors.push(Error::invalid(&resource_path.child("resource"), name, errs.join(",")));
        }
    }
    let group = str(resource, "group");
    if !group.is_empty() {
        let errs = is_dns1123_subdomain(group);
        if !errs.is_empty() {
            errors.push(Error::invalid(&resource_path.child("group"), group, errs.join(",")));
        }
    }
}

/// `ValidateStorageVersionMigrationUpdate` past the create's checks: the spec is immutable.
pub(crate) fn validate_update(svm: &Json, old: &Json, errors: &mut Vec<Error>) {
    let resource = |o: &Json| {
        let r = field(field(o, "spec"), "resource");
        (String::from(str(r, "group")), String::from(str(r, "resource")))
    };
    let (group, name) = resource(svm);
    if (group.as_str(), name.as_str()) != (resource(old).0.as_str(), resource(old).1.as_str()) {
        let root = Path::root();
        // json.Marshal of the internal StorageVersionMigrationSpec (`Resource` has no json tag).
        let rendered = format!(
            "{{\"Resource\":{{\"group\":{},\"resource\":{}}}}}",
            go_json(&Json::from(group.as_str())),
            go_json(&Json::from(name.as_str()))
        );
        let spec = svm.get("spec").cloned().unwrap_or(Json::Null);
        let mut e = Error::invalid(&root.child("spec"), spec, "field is immutable");
        e.rendered_value = Some(rendered);
        errors.push(e);
    }
}
