//! CSIDriver, CSINode and VolumeAttachment, after Kubernetes'
//! `pkg/apis/storage/validation/validation.go` (`ValidateCSIDriver`, `ValidateCSIDriverUpdate`,
//! `validateCSIDriverSpec` and its field validators, `ValidateCSINode`, `ValidateCSINodeUpdate`,
//! `validateCSINodeDrivers`, `validateCSINodeDriver`, `validateCSINodeDriverNodeID`,
//! `validateCSINodeDriverAllocatable`, `ValidateVolumeAttachment`,
//! `ValidateVolumeAttachmentUpdate`, `validateVolumeAttachmentSpec`,
//! `validateVolumeAttachmentSource`, `validateNodeName`), core validation's
//! `ValidatePersistentVolumeSpec` for an inline volume spec (its inline branches; the rest from
//! the core room), `pkg/apis/storage/v1/zz_generated.defaults.go`
//! (`SetObjectDefaults_VolumeAttachment`) and `pkg/registry/storage/csidriver/strategy.go` (the
//! warning).
//!
//! Not ported, and why:
//! - `validateVolumeAttachmentStatus`: the strategy resets the status on create and keeps the
//!   stored (reset) one on update, so it always validates an empty status;
//! - `ValidateCSINodeStatusUpdate` (`validateStorageHealth`): only the status subresource runs it.

use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value as Json;

use crate::apis::apps::common::{immutable, invalid_rendered, nonnegative, not_supported_rendered, required, same};
use crate::apis::core::common::{duplicate, is_dns1123_subdomain, validate_qualified_name};
use crate::apis::core::volume_sources::validate_csi_driver_name;
use crate::apis::json::{bool, field, get, int, list, opt_str, str};
use crate::field::{go_json, Error, Path};

/// csidriver strategy `warningServiceAccountTokenInSecretsRecommended`.
pub(super) const WARNING_SERVICE_ACCOUNT_TOKEN_IN_SECRETS: &str = "spec.serviceAccountTokenInSecrets is unset; if supported by this CSI driver, set to true to prevent possible logging of tokens in volume attributes";

/// `csiNodeIDMaxLength`.
const CSI_NODE_ID_MAX_LENGTH: usize = 256;

/// `ValidateCSIDriver` (metadata aside) on create, `ValidateCSIDriverUpdate` on update.
pub(super) fn validate_csi_driver(object: &Json, old: Option<&Json>, errors: &mut Vec<Error>) {
    let root = Path::root();
    let path = root.child("spec");
    let spec = field(object, "spec");
    validate_csi_driver_spec(spec, &path, errors);
    let Some(old) = old else { return };
    let old_spec = field(old, "spec");
    // The path is Kubernetes' own (`attachedRequired`).
    let attach = field(spec, "attachRequired");
    immutable(attach, field(old_spec, "attachRequired"), &path.child("attachedRequired"), go_json(attach), errors);
    let modes = field(spec, "volumeLifecycleModes");
    immutable(
        modes,
        field(old_spec, "volumeLifecycleModes"),
        &path.child("volumeLifecycleModes"),
        go_json(modes),
        errors,
    );
}

/// `validateCSIDriverSpec` (SELinuxMountReadWriteOncePod and VolumeLimitScaling on).
fn validate_csi_driver_spec(spec: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    // validateAttachRequired, validatePodInfoOnMount, validateStorageCapacity.
    for (key, name) in [
        ("attachRequired", "attachedRequired"),
        ("podInfoOnMount", "podInfoOnMount"),
        ("storageCapacity", "storageCapacity"),
    ] {
        if get(spec, key).is_none() {
            errors.push(required(&path.child(name), ""));
        }
    }
    // validateFSGroupPolicy.
    if let Some(policy) = opt_str(spec, "fsGroupPolicy") {
        if !matches!(policy, "ReadWriteOnceWithFSType" | "File" | "None") {
            let v = Json::from(policy);
            errors.push(not_supported_rendered(
                &path.child("fsGroupPolicy"),
                v.clone(),
                go_json(&v),
                &["File", "None", "ReadWriteOnceWithFSType"],
            ));
        }
    }
    validate_token_requests(list(spec, "tokenRequests"), &path.child("tokenRequests"), errors);
    // validateVolumeLifecycleModes.
    for mode in list(spec, "volumeLifecycleModes") {
        let m = mode.as_str().unwrap_or("");
        if !matches!(m, "Persistent" | "Ephemeral") {
            errors.push(not_supported_rendered(
                &path.child("volumeLifecycleModes"),
                mode.clone(),
                go_json(mode),
                &["Persistent", "Ephemeral"],
            ));
        }
    }
    // validateSELinuxMount.
    if get(spec, "seLinuxMount").is_none() {
        errors.push(required(&path.child("seLinuxMount"), ""));
    }
    // validateNodeAllocatableUpdatePeriodSeconds.
    if let Some(period) = int(spec, "nodeAllocatableUpdatePeriodSeconds").filter(|p| *p < 10) {
        errors.push(Error::invalid(
            &path.child("nodeAllocatableUpdatePeriodSeconds"),
            period,
            "must be greater than or equal to 10 seconds",
        ));
    }
    // validateServiceAccountTokenInSecrets.
    if let Some(b) = bool(spec, "serviceAccountTokenInSecrets") {
        if list(spec, "tokenRequests").is_empty() {
            errors.push(Error::invalid(
                &path.child("serviceAccountTokenInSecrets"),
                b,
                "serviceAccountTokenInSecrets is set but no tokenRequests are specified",
            ));
        }
    }
    // validatePreventPodSchedulingIfMissing.
    if get(spec, "preventPodSchedulingIfMissing").is_none() {
        errors.push(required(&path.child("preventPodSchedulingIfMissing"), ""));
    }
}

/// `validateTokenRequests`: distinct audiences, expirations between 10 minutes and 2^32 s.
fn validate_token_requests(requests: &[Json], path: &Path<'_>, errors: &mut Vec<Error>) {
    let mut audiences = BTreeSet::new();
    for (i, request) in requests.iter().enumerate() {
        let at = path.index(i);
        let audience = str(request, "audience");
        if !audiences.insert(audience) {
            errors.push(duplicate(&at.child("audience"), audience));
            continue;
        }
        let Some(seconds) = int(request, "expirationSeconds") else { continue };
        if seconds < 600 {
            errors.push(Error::invalid(
                &at.child("expirationSeconds"),
                seconds,
                "may not specify a duration less than 10 minutes",
            ));
        }
        if seconds > 1 << 32 {
            errors.push(Error::invalid(
                &at.child("expirationSeconds"),
                seconds,
                "may not specify a duration larger than 2^32 seconds",
            ));
        }
    }
}

/// `ValidateCSINode` (metadata aside) on create, `ValidateCSINodeUpdate` on update
/// (MutableCSINodeAllocatableCount on: a driver's `allocatable` may change).
pub(super) fn validate_csi_node(object: &Json, old: Option<&Json>, errors: &mut Vec<Error>) {
    let root = Path::root();
    let spec = root.child("spec");
    let drivers_path = spec.child("drivers");
    let drivers = list(field(object, "spec"), "drivers");
    let mut names = BTreeSet::new();
    for (i, driver) in drivers.iter().enumerate() {
        validate_csi_node_driver(driver, &mut names, &drivers_path.index(i), errors);
    }
    let Some(old) = old else { return };
    for old_driver in list(field(old, "spec"), "drivers") {
        for new_driver in drivers {
            if str(old_driver, "name") == str(new_driver, "name") {
                let without = |d: &Json| {
                    let mut d = d.clone();
                    if let Json::Object(m) = &mut d {
                        m.remove("allocatable");
                    }
                    d
                };
                let (n, o) = (without(new_driver), without(old_driver));
                if !same(&n, &o) {
                    let rendered = render_csi_node_driver(&n);
                    errors.push(invalid_rendered(&drivers_path, n, rendered, "field is immutable"));
                }
            }
        }
    }
}

/// `json.Marshal` of an internal `storage.CSINodeDriver` without `Allocatable` (no JSON tags:
/// Go's field names, nil fields as `null`).
fn render_csi_node_driver(driver: &Json) -> String {
    let s = |k: &str| go_json(&Json::from(str(driver, k)));
    let keys = get(driver, "topologyKeys").map_or_else(|| String::from("null"), go_json);
    format!("{{\"Name\":{},\"NodeID\":{},\"TopologyKeys\":{keys},\"Allocatable\":null}}", s("name"), s("nodeID"))
}

/// `validateCSINodeDriver`.
fn validate_csi_node_driver<'a>(
    driver: &'a Json,
    names: &mut BTreeSet<&'a str>,
    path: &Path<'_>,
    errors: &mut Vec<Error>,
) {
    let name = str(driver, "name");
    validate_csi_driver_name(name, &path.child("name"), errors);
    // validateCSINodeDriverNodeID.
    let node_id = str(driver, "nodeID");
    let id_path = path.child("nodeID");
    if node_id.is_empty() {
        errors.push(required(&id_path, node_id));
    }
    if node_id.len() > CSI_NODE_ID_MAX_LENGTH {
        errors.push(Error::invalid(&id_path, node_id, format!("must be {CSI_NODE_ID_MAX_LENGTH} characters or less")));
    }
    // validateCSINodeDriverAllocatable.
    if let Some(count) = get(driver, "allocatable").and_then(|a| int(a, "count")) {
        nonnegative(count, &path.child("allocatable").child("count"), errors);
    }
    if !names.insert(name) {
        errors.push(duplicate(&path.child("name"), name));
    }
    let mut keys = BTreeSet::new();
    for key in list(driver, "topologyKeys") {
        let key = key.as_str().unwrap_or("");
        if key.is_empty() {
            errors.push(required(path, key));
        }
        if !keys.insert(key) {
            errors.push(duplicate(path, key));
        }
        validate_qualified_name(key, path, errors);
    }
}

/// `ValidateVolumeAttachment` (metadata aside) on create, `ValidateVolumeAttachmentUpdate` on
/// update (the spec is immutable: a declarative rule too, origin `immutable`).
pub(super) fn validate_volume_attachment(object: &Json, errors: &mut Vec<Error>) {
    let root = Path::root();
    let path = root.child("spec");
    let spec = field(object, "spec");
    // validateVolumeAttachmentSpec: `ValidateCSIDriverName(attacher, RequiredCovered,
    // FormatCovered, SizeCovered)` gives only errors the beta declarative rules of `attacher`
    // (+k8s:required, format=k8s-long-name-caseless, maxLength=63) cover: the API server
    // returns the declarative ones (found by the differential fuzzer).
    let source = field(spec, "source");
    let source_path = path.child("source");
    let pv_name = opt_str(source, "persistentVolumeName");
    match (get(source, "inlineVolumeSpec"), pv_name) {
        (None, None) => {
            errors.push(required(&source_path, "must specify exactly one of inlineVolumeSpec and persistentVolumeName"))
        }
        (Some(_), Some(_)) => errors.push(crate::apis::apps::common::forbidden(
            &source_path,
            "must specify exactly one of inlineVolumeSpec and persistentVolumeName",
        )),
        (None, Some(name)) => {
            if name.is_empty() {
                errors.push(required(
                    &source_path.child("persistentVolumeName"),
                    "must specify non empty persistentVolumeName",
                ));
            }
        }
        (Some(inline), None) => validate_inline_volume_spec(inline, &source_path.child("inlineVolumeSpec"), errors),
    }
    // validateNodeName.
    let node = str(spec, "nodeName");
    for msg in is_dns1123_subdomain(node) {
        errors.push(Error::invalid(&path.child("nodeName"), node, msg));
    }
    // ValidatePersistentVolumeName.
    if let Some(name) = pv_name {
        let pv_path = Path::named("spec.source.persistentVolumeName");
        for msg in is_dns1123_subdomain(name) {
            errors.push(Error::invalid(&pv_path, name, msg));
        }
    }
    // ValidateVolumeAttachmentUpdate: the spec is immutable, a check `MarkCoveredByDeclarative`
    // (origin `immutable`) that the declarative rule reports (`spec: Invalid value: null: field
    // is immutable`); the API server drops the handwritten error it matches.
}

/// The detail of core validation's inline-volume refusals.
const INLINE: &str = "may not be specified in the context of inline volumes";

/// core validation `ValidatePersistentVolumeSpec(spec, "", true, path, {})`: an inline volume
/// spec. Its inline branches are here; the checks it shares with a PersistentVolume's spec come
/// from the core room's [`crate::apis::core::pv::validate_spec`], run on the spec with the
/// fields those branches own set aside (a placeholder capacity; no node affinity, storage
/// class, volume mode or unsupported reclaim policy; and no volumeAttributesClassName, which
/// the empty options leave unchecked). The errors are Go's; their order differs where the
/// inline branches interleave with the shared checks.
fn validate_inline_volume_spec(spec: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    if get(spec, "claimRef").is_some() {
        errors.push(crate::apis::apps::common::forbidden(&path.child("claimRef"), INLINE));
    }
    if crate::apis::json::object(spec, "capacity").is_some_and(|c| !c.is_empty()) {
        errors.push(crate::apis::apps::common::forbidden(&path.child("capacity"), INLINE));
    }
    if get(spec, "csi").is_none() {
        errors.push(required(&path.child("csi"), "has to be specified in the context of inline volumes"));
    }
    let policy = str(spec, "persistentVolumeReclaimPolicy");
    if !policy.is_empty() && policy != "Retain" {
        errors.push(crate::apis::apps::common::forbidden(
            &path.child("persistentVolumeReclaimPolicy"),
            "may only be Retain in the context of inline volumes",
        ));
    }
    if get(spec, "nodeAffinity").is_some() {
        errors.push(crate::apis::apps::common::forbidden(&path.child("nodeAffinity"), INLINE));
    }
    if !str(spec, "storageClassName").is_empty() {
        errors.push(crate::apis::apps::common::forbidden(&path.child("storageClassName"), INLINE));
    }
    if opt_str(spec, "volumeMode").is_some_and(|m| m != "Filesystem") {
        errors.push(crate::apis::apps::common::forbidden(
            &path.child("volumeMode"),
            "may not specify volumeMode other than Filesystem in the context of inline volumes",
        ));
    }
    let mut shared = spec.clone();
    if let Json::Object(m) = &mut shared {
        m.insert(String::from("capacity"), serde_json::json!({"storage": "1"}));
        for key in ["nodeAffinity", "storageClassName", "volumeMode", "volumeAttributesClassName"] {
            m.remove(key);
        }
        if !matches!(policy, "Delete" | "Recycle" | "Retain") {
            m.remove("persistentVolumeReclaimPolicy");
        }
    }
    crate::apis::core::pv::validate_spec(&shared, "", false, path, errors);
}

/// `SetObjectDefaults_VolumeAttachment`: the inline volume spec's source defaults.
pub(super) fn default_inline_volume_spec(object: &mut Json) {
    let Some(inline) = object
        .get_mut("spec")
        .and_then(|s| s.get_mut("source"))
        .and_then(|s| s.get_mut("inlineVolumeSpec"))
        .filter(|s| s.is_object())
    else {
        return;
    };
    let set_empty = |v: &mut Json, key: &str, value: &str| {
        if let Json::Object(m) = v {
            if m.get(key).and_then(Json::as_str).is_none_or(str::is_empty) {
                m.insert(String::from(key), Json::from(value));
            }
        }
    };
    let set_nil = |v: &mut Json, key: &str, value: Json| {
        if let Json::Object(m) = v {
            if m.get(key).is_none_or(Json::is_null) {
                m.insert(String::from(key), value);
            }
        }
    };
    if let Some(host) = inline.get_mut("hostPath").filter(|v| v.is_object()) {
        set_nil(host, "type", Json::from(""));
    }
    if let Some(rbd) = inline.get_mut("rbd").filter(|v| v.is_object()) {
        set_empty(rbd, "pool", "rbd");
        set_empty(rbd, "user", "admin");
        set_empty(rbd, "keyring", "/etc/ceph/keyring");
    }
    if let Some(iscsi) = inline.get_mut("iscsi").filter(|v| v.is_object()) {
        set_empty(iscsi, "iscsiInterface", "default");
    }
    if let Some(disk) = inline.get_mut("azureDisk").filter(|v| v.is_object()) {
        set_nil(disk, "cachingMode", Json::from("ReadWrite"));
        set_nil(disk, "fsType", Json::from("ext4"));
        set_nil(disk, "readOnly", Json::from(false));
        set_nil(disk, "kind", Json::from("Shared"));
    }
    if let Some(sio) = inline.get_mut("scaleIO").filter(|v| v.is_object()) {
        set_empty(sio, "storageMode", "ThinProvisioned");
        set_empty(sio, "fsType", "xfs");
    }
}
