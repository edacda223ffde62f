//! Volumes of a PodSpec, after `pkg/apis/core/validation/validation.go`: `ValidateVolumes`,
//! `validateVolumeSource` (exactly one source, in Go's order and with its paths, typos
//! included), and the sources' own checks for emptyDir, hostPath (`validateHostPathType`),
//! gitRepo, gcePersistentDisk, awsElasticBlockStore, secret, nfs, flocker,
//! persistentVolumeClaim, downwardAPI (`validateDownwardAPIVolumeFile`), configMap,
//! projected (`validateProjectionSources`: secret, configMap, downwardAPI,
//! serviceAccountToken), ephemeral (the PVC name) and image; `validateKeyToPath`,
//! `ValidateLocalNonReservedPath`, `validateUserField`. The other sources' own checks
//! (iscsi, glusterfs, rbd, cinder, cephfs, quobyte, fc, flexVolume, azureFile, azureDisk,
//! vsphereVolume, photonPersistentDisk, portworxVolume, storageos, scaleIO, csi, the
//! ephemeral claim template, projected) are in [`super::volume_sources`].

use alloc::format;
use alloc::vec::Vec;

use serde_json::Value as Json;

use super::super::json::{get, int, list, str};
use super::super::quantity;
use super::container::{
    local_descending_path, no_backsteps, validate_object_field_selector, validate_resource_field_selector, Volumes,
};
use super::pod_common::*;
use crate::field::{Error, Path};

pub(super) const FILE_MODE: &str = "must be a number between 0 and 0777 (octal), both inclusive";

/// The sources in `validateVolumeSource`'s order: (JSON field, path of the "more than 1"
/// error, path of the source's own checks).
const SOURCES: &[(&str, &str, &str)] = &[
    ("emptyDir", "emptyDir", "emptyDir"),
    ("hostPath", "hostPath", "hostPath"),
    ("gitRepo", "gitRepo", "gitRepo"),
    ("gcePersistentDisk", "gcePersistentDisk", "persistentDisk"),
    ("awsElasticBlockStore", "awsElasticBlockStore", "awsElasticBlockStore"),
    ("secret", "secret", "secret"),
    ("nfs", "nfs", "nfs"),
    ("iscsi", "iscsi", "iscsi"),
    ("glusterfs", "glusterfs", "glusterfs"),
    ("flocker", "flocker", "flocker"),
    ("persistentVolumeClaim", "persistentVolumeClaim", "persistentVolumeClaim"),
    ("rbd", "rbd", "rbd"),
    ("cinder", "cinder", "cinder"),
    ("cephfs", "cephFS", "cephfs"),
    ("quobyte", "quobyte", "quobyte"),
    ("downwardAPI", "downwarAPI", "downwardAPI"),
    ("fc", "fc", "fc"),
    ("flexVolume", "flexVolume", "flexVolume"),
    ("configMap", "configMap", "configMap"),
    ("azureFile", "azureFile", "azureFile"),
    ("vsphereVolume", "vsphereVolume", "vsphereVolume"),
    ("photonPersistentDisk", "photonPersistentDisk", "photonPersistentDisk"),
    ("portworxVolume", "portworxVolume", "portworxVolume"),
    ("azureDisk", "azureDisk", "azureDisk"),
    ("storageos", "storageos", "storageos"),
    ("projected", "projected", "projected"),
    ("scaleIO", "scaleIO", "scaleIO"),
    ("csi", "csi", "csi"),
    ("ephemeral", "ephemeral", "ephemeral"),
    ("image", "image", "image"),
];

/// `ValidateVolumes`: the accepted volumes by name, errors appended. `pod_name` is the
/// pod's name (empty for templates).
pub fn validate_volumes<'a>(
    volumes: &'a [Json],
    pod_name: &str,
    path: &Path<'_>,
    errors: &mut Vec<Error>,
) -> Volumes<'a> {
    let mut accepted: Volumes<'a> = Vec::new();
    let mut names: Vec<&str> = Vec::new();
    let created: Vec<alloc::string::String> = if pod_name.is_empty() {
        Vec::new()
    } else {
        volumes
            .iter()
            .filter(|v| get(v, "ephemeral").is_some())
            .map(|v| format!("{pod_name}-{}", str(v, "name")))
            .collect()
    };
    for (i, vol) in volumes.iter().enumerate() {
        let at = path.index(i);
        let name_path = at.child("name");
        let name = str(vol, "name");
        let mut el = Vec::new();
        validate_volume_source(vol, &at, name, pod_name, &mut el);
        if name.is_empty() {
            el.push(required(&name_path, ""));
        } else {
            validate_dns1123_label(name, &name_path, &mut el);
        }
        if names.contains(&name) {
            el.push(duplicate(&name_path, name));
        }
        if el.is_empty() {
            names.push(name);
            accepted.push((name, vol));
        } else {
            errors.extend(el);
        }
        if let Some(pvc) = get(vol, "persistentVolumeClaim") {
            let claim = str(pvc, "claimName");
            if created.iter().any(|c| c == claim) {
                errors.push(Error::invalid(
                    &at.child("persistentVolumeClaim").child("claimName"),
                    claim,
                    "must not reference a PVC that gets created for an ephemeral volume",
                ));
            }
        }
    }
    accepted
}

pub(super) fn mode(v: &Json, key: &str, max: i64, msg: &str, path: &Path<'_>, errors: &mut Vec<Error>) {
    if let Some(m) = int(v, key).filter(|m| *m > max || *m < 0) {
        errors.push(Error::invalid(&path.child(key), m, msg));
    }
}

/// `validateUserField`.
pub(super) fn user(v: &Json, key: &str, path: &Path<'_>, errors: &mut Vec<Error>) {
    if let Some(u) = int(v, key).filter(|u| !(0..=i64::from(i32::MAX)).contains(u)) {
        errors.push(Error::invalid(&path.child(key), u, inclusive_range(0, i64::from(i32::MAX))));
    }
}

/// `ValidateLocalNonReservedPath`.
pub fn local_non_reserved_path(target: &str, path: &Path<'_>, errors: &mut Vec<Error>) {
    local_descending_path(target, path, errors);
    if target.starts_with("..") && !target.starts_with("../") {
        errors.push(Error::invalid(path, target, "must not start with '..'"));
    }
}

/// `validateKeyToPath`.
pub(super) fn key_to_path(kp: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    if str(kp, "key").is_empty() {
        errors.push(required(&path.child("key"), ""));
    }
    let p = str(kp, "path");
    if p.is_empty() {
        errors.push(required(&path.child("path"), ""));
    }
    local_non_reserved_path(p, &path.child("path"), errors);
    mode(kp, "mode", 0o777, FILE_MODE, path, errors);
    user(kp, "user", path, errors);
}

/// `validateDownwardAPIVolumeFile`.
pub(super) fn downward_api_file(file: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let p = str(file, "path");
    if p.is_empty() {
        errors.push(required(&path.child("path"), ""));
    }
    local_non_reserved_path(p, &path.child("path"), errors);
    const PATHS: &[&str] =
        &["metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace", "metadata.uid"];
    if let Some(fr) = get(file, "fieldRef") {
        validate_object_field_selector(fr, PATHS, &path.child("fieldRef"), errors);
        if get(file, "resourceFieldRef").is_some() {
            errors.push(Error::invalid(
                path,
                "resource",
                "fieldRef and resourceFieldRef can not be specified simultaneously",
            ));
        }
    } else if let Some(rf) = get(file, "resourceFieldRef") {
        let prefixes = ["limits.hugepages-", "requests.hugepages-"];
        validate_resource_field_selector(rf, &prefixes, true, &path.child("resourceFieldRef"), errors);
    } else {
        errors.push(required(path, "one of fieldRef and resourceFieldRef is required"));
    }
    mode(file, "mode", 0o777, FILE_MODE, path, errors);
    user(file, "user", path, errors);
}

/// `validateVolumeSource`.
fn validate_volume_source(vol: &Json, path: &Path<'_>, name: &str, pod_name: &str, errors: &mut Vec<Error>) {
    let mut n = 0;
    for (key, more, own) in SOURCES {
        let Some(src) = get(vol, key) else { continue };
        if n > 0 && *key != "emptyDir" {
            errors.push(forbidden(&path.child(more), "may not specify more than 1 volume type"));
            if *key == "iscsi" {
                iscsi_name(src, name, path, errors);
            }
            continue;
        }
        n += 1;
        let at = path.child(own);
        match *key {
            "emptyDir" => {
                if src.get("sizeLimit").and_then(quantity::from_json).is_some_and(|q| q.sign() < 0) {
                    errors.push(forbidden(&at.child("sizeLimit"), "SizeLimit field must be a valid resource quantity"));
                }
                mode(src, "mode", 0o1777, "must be a number between 0 and 01777 (octal), both inclusive", &at, errors);
            }
            "hostPath" => {
                let p = str(src, "path");
                if p.is_empty() {
                    errors.push(required(&at.child("path"), ""));
                } else {
                    no_backsteps(p, &at.child("path"), errors);
                    if let Some(t) = src.get("type").and_then(Json::as_str) {
                        const TYPES: &[&str] = &[
                            "",
                            "BlockDevice",
                            "CharDevice",
                            "Directory",
                            "DirectoryOrCreate",
                            "File",
                            "FileOrCreate",
                            "Socket",
                        ];
                        if !TYPES.contains(&t) {
                            errors.push(Error::not_supported(&at.child("type"), t, TYPES));
                        }
                    }
                }
            }
            "gitRepo" => {
                if str(src, "repository").is_empty() {
                    errors.push(required(&at.child("repository"), ""));
                }
                local_descending_path(str(src, "directory"), &at.child("directory"), errors);
            }
            "gcePersistentDisk" | "awsElasticBlockStore" => {
                let id = if *key == "gcePersistentDisk" { "pdName" } else { "volumeID" };
                if str(src, id).is_empty() {
                    errors.push(required(&at.child(id), ""));
                }
                let part = int(src, "partition").unwrap_or(0);
                if !(0..=255).contains(&part) {
                    errors.push(Error::invalid(&at.child("partition"), part, "must be between 1 and 255, inclusive"));
                }
            }
            "secret" | "configMap" => {
                let n = if *key == "secret" { "secretName" } else { "name" };
                if str(src, n).is_empty() {
                    errors.push(required(&at.child(n), ""));
                }
                mode(src, "defaultMode", 0o777, FILE_MODE, &at, errors);
                user(src, "defaultUser", &at, errors);
                let items = at.child("items");
                for (i, kp) in list(src, "items").iter().enumerate() {
                    key_to_path(kp, &items.index(i), errors);
                }
            }
            "nfs" => {
                if str(src, "server").is_empty() {
                    errors.push(required(&at.child("server"), ""));
                }
                let p = str(src, "path");
                if p.is_empty() {
                    errors.push(required(&at.child("path"), ""));
                }
                if !p.starts_with('/') {
                    errors.push(Error::invalid(&at.child("path"), p, "must be an absolute path"));
                }
            }
            "iscsi" => {
                super::volume_sources::validate_source(key, src, &at, errors);
                iscsi_name(src, name, path, errors);
            }
            "flocker" => {
                let (dn, du) = (str(src, "datasetName"), str(src, "datasetUUID"));
                if dn.is_empty() && du.is_empty() {
                    errors.push(required(&at, "one of datasetName and datasetUUID is required"));
                }
                if !dn.is_empty() && !du.is_empty() {
                    errors.push(Error::invalid(
                        &at,
                        "resource",
                        "datasetName and datasetUUID can not be specified simultaneously",
                    ));
                }
                if dn.contains('/') {
                    errors.push(Error::invalid(&at.child("datasetName"), dn, "must not contain '/'"));
                }
            }
            "persistentVolumeClaim" => {
                if str(src, "claimName").is_empty() {
                    errors.push(required(&at.child("claimName"), ""));
                }
            }
            "downwardAPI" => {
                mode(src, "defaultMode", 0o777, FILE_MODE, &at, errors);
                user(src, "defaultUser", &at, errors);
                for file in list(src, "items") {
                    downward_api_file(file, &at, errors);
                }
            }
            "ephemeral" => {
                super::volume_sources::validate_source(key, src, &at, errors);
                if !pod_name.is_empty() && !name.is_empty() {
                    let pvc = format!("{pod_name}-{name}");
                    for msg in is_dns1123_subdomain(&pvc) {
                        let detail = format!("PVC name {}: {msg}", crate::field::go_quote(&pvc));
                        errors.push(Error::invalid(&at.child("name"), name, detail));
                    }
                }
            }
            "image" => {
                if str(src, "reference").is_empty() {
                    errors.push(required(&at.child("reference"), ""));
                }
                let pp = at.child("pullPolicy");
                match str(src, "pullPolicy") {
                    "Always" | "IfNotPresent" | "Never" => {}
                    "" => errors.push(required(&pp, "")),
                    other => errors.push(Error::not_supported(&pp, other, &["Always", "IfNotPresent", "Never"])),
                }
            }
            other => super::volume_sources::validate_source(other, src, &at, errors),
        }
    }
    if n == 0 {
        errors.push(required(path, "must specify a volume type"));
    }
}

/// The iSCSI volume-name length check `validateVolumeSource` makes.
fn iscsi_name(src: &Json, name: &str, path: &Path<'_>, errors: &mut Vec<Error>) {
    if get(src, "initiatorName").is_some() && name.len() + 1 + str(src, "targetPortal").len() > 64 {
        errors.push(Error::invalid(
            &path.child("name"),
            name,
            "Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.",
        ));
    }
}
