//! The `internal.apiserver.k8s.io` group: StorageVersion (v1alpha1), after Kubernetes'
//! `pkg/apis/apiserverinternal/validation/validation.go` and
//! `pkg/registry/apiserverinternal/storageversion/strategy.go`.
//!
//! On create the strategy resets the status, and `ValidateStorageVersion` checks only the
//! metadata (with [`validate_storage_version_name`]) and that empty status; on update the
//! status is the old one and `ValidateStorageVersionUpdate` checks nothing. The status checks
//! (`validateStorageVersionStatus`) matter only to the `status` subresource, which kubedv is
//! never asked about: left out. No defaulting; no warnings.

#[cfg(test)]
mod tests;

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{Map, Value as Json};

use super::Group;
use crate::field::Error;

/// The kinds this room models.
pub const KINDS: &[&str] = &["StorageVersion"];

/// `SetObjectDefaults_X`: the group has none.
pub fn default(_version: &str, _kind: &str, _object: &mut Json) {}

/// `PrepareForCreate` (the status reset) / `PrepareForUpdate` (the old status kept); neither
/// validation has anything to say past the metadata.
pub fn admit(group: &Group<'_>, object: &mut Json, old: Option<&Json>) -> (Vec<Error>, Vec<String>) {
    if group.kind == "StorageVersion" {
        if let Json::Object(map) = object {
            let status = old.and_then(|o| o.get("status")).cloned().unwrap_or_else(|| Json::Object(Map::new()));
            map.insert(String::from("status"), status);
        }
    }
    (Vec::new(), Vec::new())
}

pub use crate::objectmeta::storage_version_name as validate_storage_version_name;
