//! PersistentVolume, after `pkg/apis/core/v1/defaults.go` (`SetObjectDefaults_PersistentVolume`,
//! `SetDefaults_PersistentVolume`), `pkg/registry/core/persistentvolume/strategy.go`
//! (`PrepareForCreate`, `PrepareForUpdate`, `Validate`, `ValidateUpdate`, the warnings),
//! `pkg/api/persistentvolume/util.go` (`DropDisabledSpecFields`,
//! `GetWarningsForPersistentVolume`), `pkg/volume/validation/pv_validation.go`
//! (`ValidatePersistentVolume`: `checkMountOption`) and `pkg/apis/core/validation/validation.go`
//! (`ValidationOptionsForPersistentVolume`, `ValidatePersistentVolumeSpec` with its sources,
//! `ValidatePersistentVolume`, `ValidatePersistentVolumeUpdate`, `validateVolumeNodeAffinity`,
//! `validatePvNodeAffinity`). The PV-only sources' checks are in [`super::pv_sources`]; those
//! a PodSpec shares come from [`super::volume_sources`].
//!
//! Gates at 1.37: VolumeAttributesClass on (GA), MutablePVNodeAffinity off.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{json, Map, Value as Json};

use super::common::{forbidden, required};
use super::pod_affinity::{has_invalid_label_value_in_required_node_affinity, validate_node_selector};
use super::pod_defaults::default_resource_list;
use super::pv_sources;
use crate::apis::{json, Context};
use crate::field::{Error, ErrorType, Path};
use crate::quantity;

const ACCESS_MODES: &[&str] = &["ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"];
const RECLAIM_POLICIES: &[&str] = &["Delete", "Recycle", "Retain"];
/// `core.MountOptionAnnotation`.
const MOUNT_OPTIONS: &str = "volume.beta.kubernetes.io/mount-options";

/// `SetObjectDefaults_PersistentVolume`.
pub fn default(obj: &mut Json) {
    if let Some(status) = json::struct_mut(obj, "status") {
        json::default_to(status, "phase", json!("Pending"));
    }
    let Some(spec) = json::struct_mut(obj, "spec") else { return };
    json::default_to(spec, "persistentVolumeReclaimPolicy", json!("Retain"));
    if json::get(spec, "volumeMode").is_none() {
        if let Some(m) = spec.as_object_mut() {
            m.insert(String::from("volumeMode"), json!("Filesystem"));
        }
    }
    if let Some(capacity) = spec.get_mut("capacity") {
        default_resource_list(capacity);
    }
    if let Some(hp) = spec.get_mut("hostPath").filter(|v| v.is_object()) {
        if json::get(hp, "type").is_none() {
            if let Some(m) = hp.as_object_mut() {
                m.insert(String::from("type"), json!(""));
            }
        }
    }
    if let Some(rbd) = spec.get_mut("rbd").filter(|v| v.is_object()) {
        json::default_to(rbd, "pool", json!("rbd"));
        json::default_to(rbd, "user", json!("admin"));
        json::default_to(rbd, "keyring", json!("/etc/ceph/keyring"));
    }
    if let Some(iscsi) = spec.get_mut("iscsi").filter(|v| v.is_object()) {
        json::default_to(iscsi, "iscsiInterface", json!("default"));
    }
    if let Some(Json::Object(ad)) = spec.get_mut("azureDisk") {
        for (k, v) in [
            ("cachingMode", json!("ReadWrite")),
            ("fsType", json!("ext4")),
            ("readOnly", json!(false)),
            ("kind", json!("Shared")),
        ] {
            if ad.get(k).is_none_or(Json::is_null) {
                ad.insert(String::from(k), v);
            }
        }
    }
    if let Some(sio) = spec.get_mut("scaleIO").filter(|v| v.is_object()) {
        json::default_to(sio, "storageMode", json!("ThinProvisioned"));
        json::default_to(sio, "fsType", json!("xfs"));
    }
}

/// `PersistentVolumeSpecValidationOptions` (VolumeAttributesClass is on, so only the label
/// value option varies): `ValidationOptionsForPersistentVolume`.
fn allow_invalid_label_value(old: Option<&Json>) -> bool {
    let Some(old) = old else { return false };
    let affinity = json::field(json::field(old, "spec"), "nodeAffinity");
    // helper.HasInvalidLabelValueInNodeSelectorTerms over the required terms: the same walk
    // as a pod's required node affinity.
    let probe = json!({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": json::field(affinity, "required")}}});
    has_invalid_label_value_in_required_node_affinity(&probe)
}

/// The strategy (`PrepareForCreate` / `PrepareForUpdate`: the status reset to `Pending`, or the
/// old status kept), then `Validate` / `ValidateUpdate` and the warnings.
pub fn admit(_ctx: Context, obj: &mut Json, old: Option<&Json>) -> (Vec<Error>, Vec<String>) {
    if let Json::Object(m) = obj {
        match old {
            // PrepareForCreate: a new status with phase Pending (lastPhaseTransitionTime, the
            // clock's now, is not modeled).
            None => m.insert(String::from("status"), json!({"phase": "Pending"})),
            Some(o) => m.insert(String::from("status"), o.get("status").cloned().unwrap_or_else(|| json!({}))),
        };
    }
    let obj = &*obj;
    let allow = allow_invalid_label_value(old);
    let mut errors = Vec::new();
    validate(obj, allow, &mut errors);
    check_mount_option(obj, &mut errors);
    if let Some(old) = old {
        validate(obj, allow, &mut errors);
        validate_update(obj, old, &mut errors);
    }
    (errors, warnings(obj))
}

/// `ValidatePersistentVolume` (metadata aside): `ValidatePersistentVolumeSpec` of a stored PV.
fn validate(obj: &Json, allow_invalid_label_value: bool, errors: &mut Vec<Error>) {
    let name = json::str(json::field(obj, "metadata"), "name");
    let spec = json::field(obj, "spec");
    validate_spec(spec, name, allow_invalid_label_value, &Path::root().child("spec"), errors);
}

/// `ValidatePersistentVolumeSpec` with `validateInlinePersistentVolumeSpec` false.
pub fn validate_spec(
    spec: &Json,
    pv_name: &str,
    allow_invalid_label_value: bool,
    path: &Path<'_>,
    errors: &mut Vec<Error>,
) {
    let modes: Vec<&str> = json::list(spec, "accessModes").iter().map(|m| m.as_str().unwrap_or("")).collect();
    let ap = path.child("accessModes");
    if modes.is_empty() {
        errors.push(required(&ap, ""));
    }
    let (mut rwop, mut other) = (false, false);
    for mode in &modes {
        let supported = ACCESS_MODES.contains(mode);
        if !supported {
            errors.push(Error::not_supported(&ap, mode, ACCESS_MODES));
        }
        if *mode == "ReadWriteOncePod" {
            rwop = true;
        } else if supported {
            other = true;
        }
    }
    if rwop && other {
        errors.push(forbidden(&ap, "may not use ReadWriteOncePod with other access modes"));
    }
    let cp = path.child("capacity");
    let capacity = json::object(spec, "capacity");
    let n = capacity.map_or(0, Map::len);
    if n == 0 {
        errors.push(required(&cp, ""));
    }
    if capacity.is_none_or(|c| !c.contains_key("storage")) || n > 1 {
        // The ResourceList as `json.Marshal` prints it: each quantity's canonical text.
        let value = capacity.map_or(Json::Null, |c| {
            Json::Object(
                c.iter()
                    .map(|(k, q)| {
                        (k.clone(), quantity::from_json(q).map_or_else(|| q.clone(), |q| Json::from(q.canonical())))
                    })
                    .collect(),
            )
        });
        errors.push(Error::new(
            ErrorType::NotSupported,
            &cp,
            Some(value),
            format!("supported values: {}", crate::field::go_quote("storage")),
        ));
    }
    for (r, q) in capacity.into_iter().flatten() {
        let at = cp.key(r);
        let Some(q) = quantity::from_json(q) else { continue };
        if q.value() < 0 {
            errors.push(Error::invalid(&at, q.value(), "must be a valid resource quantity"));
        }
        if q.sign() <= 0 {
            errors.push(Error::invalid(&at, q.canonical(), "must be greater than zero"));
        }
    }
    let policy = json::str(spec, "persistentVolumeReclaimPolicy");
    if !policy.is_empty() && !RECLAIM_POLICIES.contains(&policy) {
        errors.push(Error::not_supported(&path.child("persistentVolumeReclaimPolicy"), policy, RECLAIM_POLICIES));
    }
    let mut affinity_specified = false;
    if let Some(na) = json::get(spec, "nodeAffinity") {
        affinity_specified = true;
        let np = path.child("nodeAffinity");
        match json::get(na, "required") {
            Some(r) => validate_node_selector(r, allow_invalid_label_value, &np.child("required"), errors),
            None => errors.push(required(&np.child("required"), "must specify required node constraints")),
        }
    }
    pv_sources::validate_sources(spec, pv_name, affinity_specified, path, errors);
    if let Some(hp) = json::get(spec, "hostPath") {
        if clean(json::str(hp, "path")) == "/" && policy == "Recycle" {
            errors.push(forbidden(
                &path.child("persistentVolumeReclaimPolicy"),
                "may not be 'recycle' for a hostPath mount of '/'",
            ));
        }
    }
    let sc = json::str(spec, "storageClassName");
    if !sc.is_empty() {
        for msg in super::common::is_dns1123_subdomain(sc) {
            errors.push(Error::invalid(&path.child("storageClassName"), sc, msg));
        }
    }
    if let Some(mode) = json::opt_str(spec, "volumeMode") {
        if !matches!(mode, "Block" | "Filesystem") {
            errors.push(Error::not_supported(&path.child("volumeMode"), mode, &["Block", "Filesystem"]));
        }
    }
    if let Some(vac) = json::opt_str(spec, "volumeAttributesClassName") {
        let vp = path.child("volumeAttributesClassName");
        if vac.is_empty() {
            errors.push(required(&vp, "an empty string is disallowed"));
        } else {
            for msg in super::common::is_dns1123_subdomain(vac) {
                errors.push(Error::invalid(&vp, vac, msg));
            }
        }
        if json::get(spec, "csi").is_none() {
            errors.push(required(&path.child("csi"), "has to be specified when using volumeAttributesClassName"));
        }
    }
}

/// Go's `path.Clean`, as far as comparing with `/` needs: `/` for any rooted path made only of
/// slashes, `.` and `..` elements.
fn clean(p: &str) -> &str {
    if p.starts_with('/') && p.split('/').all(|e| e.is_empty() || e == "." || e == "..") {
        "/"
    } else {
        p
    }
}

/// volume validation `checkMountOption`: the mount-options annotation on a source that has
/// none.
fn check_mount_option(obj: &Json, errors: &mut Vec<Error>) {
    const WITH_OPTIONS: &[&str] = &[
        "gcePersistentDisk",
        "awsElasticBlockStore",
        "glusterfs",
        "nfs",
        "rbd",
        "quobyte",
        "iscsi",
        "cinder",
        "cephfs",
        "azureFile",
        "vsphereVolume",
        "azureDisk",
        "photonPersistentDisk",
    ];
    let spec = json::field(obj, "spec");
    if WITH_OPTIONS.iter().any(|k| json::get(spec, k).is_some()) {
        return;
    }
    let annotations = json::object(json::field(obj, "metadata"), "annotations");
    if annotations.is_some_and(|a| a.contains_key(MOUNT_OPTIONS)) {
        let root = Path::root();
        let m = root.child("metadata");
        let a = m.child("annotations");
        errors.push(forbidden(&a.child(MOUNT_OPTIONS), "may not specify mount options for this volume type"));
    }
}

/// `ValidatePersistentVolumeUpdate` less its first call of `ValidatePersistentVolume` (the
/// caller makes it).
fn validate_update(obj: &Json, old: &Json, errors: &mut Vec<Error>) {
    let (spec, os) = (json::field(obj, "spec"), json::field(old, "spec"));
    let root = Path::root();
    // A controllerExpandSecretRef may be added to a CSI source that had none.
    let mut new_source = pv_sources::source_of(spec);
    let old_source = pv_sources::source_of(os);
    let old_csi = old_source.get("csi").filter(|c| !c.is_null());
    if old_csi.is_some_and(|c| json::get(c, "controllerExpandSecretRef").is_none()) {
        if let Some(Json::Object(csi)) = new_source.get_mut("csi") {
            csi.remove("controllerExpandSecretRef");
        }
    }
    let (new_source, old_source) = (Json::Object(new_source), Json::Object(old_source));
    if !pv_sources::same_source(&new_source, &old_source) {
        let diff = pv_sources::source_diff(&old_source, &new_source);
        let sp = root.child("spec");
        errors.push(forbidden(
            &sp.child("persistentvolumesource"),
            &format!("spec.persistentvolumesource is immutable after creation\n{diff}"),
        ));
    }
    let (new_mode, old_mode) = (json::opt_str(spec, "volumeMode"), json::opt_str(os, "volumeMode"));
    if new_mode != old_mode {
        errors.push(Error::invalid(
            &root.child("volumeMode"),
            new_mode.map_or(Json::Null, Json::from),
            "field is immutable",
        ));
    }
    if let Some(old_na) = json::get(os, "nodeAffinity") {
        let new_na = json::get(spec, "nodeAffinity");
        if !pv_sources::same_node_affinity(new_na, old_na) {
            let mut e = Error::invalid(
                &root.child("nodeAffinity"),
                Json::Null,
                "field is immutable, except for updating from beta label to GA",
            );
            e.rendered_value = Some(pv_sources::node_affinity_json(new_na));
            errors.push(e);
        }
    }
    let (new_vac, old_vac) =
        (json::opt_str(spec, "volumeAttributesClassName"), json::opt_str(os, "volumeAttributesClassName"));
    if new_vac != old_vac && old_vac.is_some() && new_vac.is_none() {
        let sp = root.child("spec");
        errors.push(forbidden(&sp.child("volumeAttributesClassName"), "update from non-nil value to nil is forbidden"));
    }
}

/// `GetWarningsForPersistentVolume`.
pub fn warnings(obj: &Json) -> Vec<String> {
    let mut w = Vec::new();
    let annotations = json::object(json::field(obj, "metadata"), "annotations");
    for (key, msg) in [
        (
            "volume.beta.kubernetes.io/storage-class",
            "deprecated since v1.8; use \"storageClassName\" attribute instead",
        ),
        (MOUNT_OPTIONS, "deprecated since v1.31; use \"mountOptions\" attribute instead"),
    ] {
        if annotations.is_some_and(|a| a.contains_key(key)) {
            w.push(format!("metadata.annotations[{key}]: {msg}"));
        }
    }
    let spec = json::field(obj, "spec");
    if json::str(spec, "persistentVolumeReclaimPolicy") == "Recycle" {
        w.push(String::from("spec.persistentVolumeReclaimPolicy: The Recycle reclaim policy is deprecated. Instead, the recommended approach is to use dynamic provisioning."));
    }
    if let Some(r) = json::get(json::field(spec, "nodeAffinity"), "required") {
        for (i, term) in json::list(r, "nodeSelectorTerms").iter().enumerate() {
            let at = format!("spec.nodeAffinity.required.nodeSelectorTerms[{i}]");
            w.extend(super::pod_affinity::node_selector_term_warnings(
                term,
                false,
                &at,
                super::pod_warnings::node_label_deprecated,
            ));
        }
    }
    for (key, path, msg) in [
        ("cephfs", "cephfs", "deprecated in v1.28, non-functional in v1.31+"),
        ("photonPersistentDisk", "photonPersistentDisk", "deprecated in v1.11, non-functional in v1.16+"),
        ("scaleIO", "scaleIO", "deprecated in v1.16, non-functional in v1.22+"),
        ("storageos", "storageOS", "deprecated in v1.22, non-functional in v1.25+"),
        ("glusterfs", "glusterfs", "deprecated in v1.25, non-functional in v1.26+"),
        ("rbd", "rbd", "deprecated in v1.28, non-functional in v1.31+"),
    ] {
        if json::get(spec, key).is_some() {
            w.push(format!("spec.{path}: {msg}"));
        }
    }
    w
}
