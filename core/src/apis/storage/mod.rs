//! The `storage.k8s.io` group, after Kubernetes' `pkg/apis/storage/validation`,
//! `pkg/apis/storage/v1/defaults.go` (v1beta1's are the same; no v1beta1 or v1alpha1 kind is
//! served by 1.37, `--runtime-config=api/all=true` or not) and `pkg/registry/storage/*/strategy.go`:
//!
//! - `class`: StorageClass, VolumeAttributesClass and CSIStorageCapacity;
//! - `csi`: CSIDriver, CSINode and VolumeAttachment.
//!
//! This module holds the defaulting and the strategies (`PrepareForCreate`,
//! `PrepareForUpdate`, `WarningsOnCreate`, `WarningsOnUpdate`). The feature gates the
//! strategies read are those of 1.37: SELinuxMountReadWriteOncePod,
//! MutableCSINodeAllocatableCount, CSIServiceAccountTokenSecrets and VolumeLimitScaling on,
//! CSIVolumeHealth off.

mod class;
mod csi;
#[cfg(test)]
mod tests;

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{json, Map, Value as Json};

use super::Group;
use crate::apis::apps::common::same;
use crate::apis::json::{field, get, list};
use crate::field::Error;

/// The kinds this room models.
pub const KINDS: &[&str] =
    &["StorageClass", "CSIDriver", "CSINode", "CSIStorageCapacity", "VolumeAttachment", "VolumeAttributesClass"];

/// Sets `key` when it is absent or `null` (Go: `if obj.F == nil`; an empty string is kept).
fn default_nil(v: &mut Json, key: &str, value: Json) {
    if let Json::Object(map) = v {
        if map.get(key).is_none_or(Json::is_null) {
            map.insert(String::from(key), value);
        }
    }
}

/// `SetObjectDefaults_X` of the served version for one kind (v1beta1 has the same
/// `SetDefaults_StorageClass` and `SetDefaults_CSIDriver` as v1).
pub fn default(version: &str, kind: &str, object: &mut Json) {
    if version != "v1" && version != "v1beta1" {
        return;
    }
    match kind {
        "StorageClass" => {
            // SetDefaults_StorageClass.
            default_nil(object, "reclaimPolicy", json!("Delete"));
            default_nil(object, "volumeBindingMode", json!("Immediate"));
        }
        "CSIDriver" => {
            // SetDefaults_CSIDriver (SELinuxMountReadWriteOncePod and VolumeLimitScaling on).
            let Some(spec) = crate::apis::json::struct_mut(object, "spec") else { return };
            default_nil(spec, "attachRequired", json!(true));
            default_nil(spec, "podInfoOnMount", json!(false));
            default_nil(spec, "storageCapacity", json!(false));
            default_nil(spec, "fsGroupPolicy", json!("ReadWriteOnceWithFSType"));
            if list(spec, "volumeLifecycleModes").is_empty() {
                if let Json::Object(map) = spec {
                    map.insert(String::from("volumeLifecycleModes"), json!(["Persistent"]));
                }
            }
            default_nil(spec, "requiresRepublish", json!(false));
            default_nil(spec, "seLinuxMount", json!(false));
            default_nil(spec, "preventPodSchedulingIfMissing", json!(false));
        }
        "VolumeAttachment" => csi::default_inline_volume_spec(object),
        _ => {}
    }
}

/// The strategy, validation and warnings of one request.
pub fn admit(group: &Group<'_>, object: &mut Json, old: Option<&Json>) -> (Vec<Error>, Vec<String>) {
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    match group.kind {
        "StorageClass" => {
            class::validate_storage_class(object, &mut errors);
            // GetWarningsForStorageClass, on create and on update.
            warnings = class::storage_class_warnings(object);
        }
        "VolumeAttributesClass" => class::validate_volume_attributes_class(object, old, &mut errors),
        "CSIStorageCapacity" => {
            class::validate_csi_storage_capacity(object, old, &mut errors);
            // GetWarningsForCSIStorageCapacity, on create and on update.
            warnings = class::csi_storage_capacity_warnings(object);
        }
        "CSIDriver" => {
            // PrepareForCreate drops nothing (every gate it reads is on); PrepareForUpdate
            // bumps the generation when the spec changes.
            if let Some(old) = old {
                if !same(field(object, "spec"), field(old, "spec")) {
                    bump_generation(object, old);
                }
            }
            csi::validate_csi_driver(object, old, &mut errors);
            // WarningsOnCreate / WarningsOnUpdate (CSIServiceAccountTokenSecrets on).
            let spec = field(object, "spec");
            let tokens_changed =
                old.is_none_or(|o| !same(field(spec, "tokenRequests"), field(field(o, "spec"), "tokenRequests")));
            if tokens_changed
                && !list(spec, "tokenRequests").is_empty()
                && get(spec, "serviceAccountTokenInSecrets").is_none()
            {
                warnings.push(String::from(csi::WARNING_SERVICE_ACCOUNT_TOKEN_IN_SECRETS));
            }
        }
        "CSINode" => {
            // PrepareForCreate resets the status, PrepareForUpdate keeps the old one;
            // dropDisabledCSINodeFields (CSIVolumeHealth off) drops status.storageHealth
            // unless the old object has some, which the reset status never has.
            keep_status(object, old);
            csi::validate_csi_node(object, old, &mut errors);
        }
        "VolumeAttachment" => {
            keep_status(object, old);
            csi::validate_volume_attachment(object, &mut errors);
        }
        _ => {}
    }
    (errors, warnings)
}

/// The status reset on create (`Status = XStatus{}`), the old one kept on update.
fn keep_status(object: &mut Json, old: Option<&Json>) {
    let status = match old {
        None => Some(Json::Object(Map::new())),
        Some(old) => old.get("status").cloned(),
    };
    if let Json::Object(map) = object {
        match status {
            Some(s) => map.insert(String::from("status"), s),
            None => map.remove("status"),
        };
    }
}

/// `newObj.Generation = oldObj.Generation + 1`.
fn bump_generation(object: &mut Json, old: &Json) {
    let generation = field(field(old, "metadata"), "generation").as_i64().unwrap_or(0);
    if let Some(Json::Object(meta)) = object.get_mut("metadata") {
        meta.insert(String::from("generation"), json!(generation.saturating_add(1)));
    }
}
