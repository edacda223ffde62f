//! A PersistentVolume's sources, after `pkg/apis/core/validation/validation.go`: the source
//! part of `ValidatePersistentVolumeSpec` (one source, in Go's order and with its paths) and
//! the PV-only sources' checks (`validateHostPathVolumeSource`,
//! `validateGCEPersistentDiskVolumeSource`, `validateAWSElasticBlockStoreVolumeSource`,
//! `validateGlusterfsPersistentVolumeSource`, `validateFlockerVolumeSource`,
//! `validateNFSVolumeSource`, `validateISCSIPersistentVolumeSource`,
//! `validateCinderPersistentVolumeSource`, `validateAzureFilePV`, `validateLocalVolumeSource`,
//! `validateStorageOSPersistentVolumeSource`, `validateCSIPersistentVolumeSource`,
//! `validatePVSecretReference`); the sources a PodSpec shares (rbd, quobyte, cephfs, fc,
//! flexVolume, vsphereVolume, photonPersistentDisk, portworxVolume, azureDisk, scaleIO) are
//! checked by [`super::volume_sources::validate_source`].
//!
//! Also the update's pieces: `Semantic.DeepEqual` of two `PersistentVolumeSource`s and
//! `diff.Diff` of them (`json.MarshalIndent` of the internal structs, Go field names, then the
//! unified diff of [`super::pod_diff`]), and `validatePvNodeAffinity`'s equality
//! (`getMaskNodeSelectorLabelChangeEqualities`: a beta node label may become its GA one).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{Map, Value as Json};

use super::common::{forbidden, is_dns1123_label, required, validate_dns1123_label, validate_dns1123_subdomain};
use super::container::no_backsteps;
use super::pod_schema::{Field, T};
use super::volume_sources::{iqn_format_errors, validate_csi_driver_name, validate_source};
use crate::apis::json::{get, int, list, opt_str, str};
use crate::field::{go_json, Error, Path};
use T::*;

/// The sources in `ValidatePersistentVolumeSpec`'s order: (JSON field, path of the "more than
/// 1" error, path of the source's own checks).
const SOURCES: &[(&str, &str, &str)] = &[
    ("hostPath", "hostPath", "hostPath"),
    ("gcePersistentDisk", "gcePersistentDisk", "persistentDisk"),
    ("awsElasticBlockStore", "awsElasticBlockStore", "awsElasticBlockStore"),
    ("glusterfs", "glusterfs", "glusterfs"),
    ("flocker", "flocker", "flocker"),
    ("nfs", "nfs", "nfs"),
    ("rbd", "rbd", "rbd"),
    ("quobyte", "quobyte", "quobyte"),
    ("cephfs", "cephFS", "cephfs"),
    ("iscsi", "iscsi", "iscsi"),
    ("cinder", "cinder", "cinder"),
    ("fc", "fc", "fc"),
    ("flexVolume", "flexVolume", "flexVolume"),
    ("azureFile", "azureFile", "azureFile"),
    ("vsphereVolume", "vsphereVolume", "vsphereVolume"),
    ("photonPersistentDisk", "photonPersistentDisk", "photonPersistentDisk"),
    ("portworxVolume", "portworxVolume", "portworxVolume"),
    ("azureDisk", "azureDisk", "azureDisk"),
    ("scaleIO", "scaleIO", "scaleIO"),
    ("local", "local", "local"),
    ("storageos", "storageos", "storageos"),
    ("csi", "csi", "csi"),
];

/// The source part of `ValidatePersistentVolumeSpec` (`affinity_specified`: the spec has a
/// `nodeAffinity`, which a local volume needs).
pub fn validate_sources(
    spec: &Json,
    pv_name: &str,
    affinity_specified: bool,
    path: &Path<'_>,
    errors: &mut Vec<Error>,
) {
    let mut n = 0;
    for (key, more, own) in SOURCES {
        let Some(src) = get(spec, key) else { continue };
        // FlexVolume is counted without the "more than 1" check.
        if n > 0 && *key != "flexVolume" {
            errors.push(forbidden(&path.child(more), "may not specify more than 1 volume type"));
            continue;
        }
        n += 1;
        let at = path.child(own);
        match *key {
            "hostPath" => {
                let p = str(src, "path");
                if p.is_empty() {
                    errors.push(required(&at.child("path"), ""));
                    continue;
                }
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
            "glusterfs" => glusterfs(src, &at, errors),
            "flocker" => flocker(src, &at, errors),
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
            "iscsi" => iscsi(src, pv_name, &at, errors),
            "cinder" => {
                if str(src, "volumeID").is_empty() {
                    errors.push(required(&at.child("volumeID"), ""));
                }
                if let Some(r) = get(src, "secretRef") {
                    let sp = at.child("secretRef");
                    for k in ["name", "namespace"] {
                        if str(r, k).is_empty() {
                            errors.push(required(&sp.child(k), ""));
                        }
                    }
                }
            }
            "azureFile" => {
                for k in ["secretName", "shareName"] {
                    if str(src, k).is_empty() {
                        errors.push(required(&at.child(k), ""));
                    }
                }
                if opt_str(src, "secretNamespace") == Some("") {
                    errors.push(required(&at.child("secretNamespace"), ""));
                }
            }
            "local" => {
                let p = str(src, "path");
                if p.is_empty() {
                    errors.push(required(&at.child("path"), ""));
                } else {
                    no_backsteps(p, &at.child("path"), errors);
                }
                if !affinity_specified {
                    errors.push(required(&path.child("nodeAffinity"), "Local volume requires node affinity"));
                }
            }
            "storageos" => storageos(src, &at, errors),
            "csi" => csi(src, &at, errors),
            other => validate_source(other, src, &at, errors),
        }
    }
    if n == 0 {
        errors.push(required(path, "must specify a volume type"));
    }
}

/// `validateFlockerVolumeSource`.
fn flocker(src: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let (dn, du) = (str(src, "datasetName"), str(src, "datasetUUID"));
    if dn.is_empty() && du.is_empty() {
        errors.push(required(path, "one of datasetName and datasetUUID is required"));
    }
    if !dn.is_empty() && !du.is_empty() {
        errors.push(Error::invalid(
            path,
            "resource",
            "datasetName and datasetUUID can not be specified simultaneously",
        ));
    }
    if dn.contains('/') {
        errors.push(Error::invalid(&path.child("datasetName"), dn, "must not contain '/'"));
    }
}

/// `validateGlusterfsPersistentVolumeSource`.
fn glusterfs(src: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    for k in ["endpoints", "path"] {
        if str(src, k).is_empty() {
            errors.push(required(&path.child(k), ""));
        }
    }
    if let Some(ns) = opt_str(src, "endpointsNamespace") {
        let np = path.child("endpointsNamespace");
        if ns.is_empty() {
            errors.push(Error::invalid(&np, ns, "if the endpointnamespace is set, it must be a valid namespace name"));
        } else {
            for msg in is_dns1123_label(ns) {
                errors.push(Error::invalid(&np, ns, msg));
            }
        }
    }
}

/// `validateISCSIPersistentVolumeSource`.
fn iscsi(src: &Json, pv_name: &str, path: &Path<'_>, errors: &mut Vec<Error>) {
    let portal = str(src, "targetPortal");
    if portal.is_empty() {
        errors.push(required(&path.child("targetPortal"), ""));
    }
    let initiator = opt_str(src, "initiatorName");
    if initiator.is_some() && pv_name.len() + 1 + portal.len() > 64 {
        errors.push(Error::invalid(
            &path.child("targetportal"),
            portal,
            "Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.",
        ));
    }
    let iqn = str(src, "iqn");
    let ip = path.child("iqn");
    if iqn.is_empty() {
        errors.push(required(&ip, ""));
    } else if !["iqn", "eui", "naa"].iter().any(|p| iqn.starts_with(p)) {
        errors.push(Error::invalid(&ip, iqn, "must be valid format"));
    } else {
        iqn_format_errors(iqn, &ip, errors);
    }
    let lun = int(src, "lun").unwrap_or(0);
    if !(0..=255).contains(&lun) {
        errors.push(Error::invalid(&path.child("lun"), lun, "must be between 0 and 255, inclusive"));
    }
    let chap = src.get("chapAuthDiscovery").and_then(Json::as_bool) == Some(true)
        || src.get("chapAuthSession").and_then(Json::as_bool) == Some(true);
    let secret = get(src, "secretRef");
    if chap && secret.is_none() {
        errors.push(required(&path.child("secretRef"), ""));
    }
    if let Some(r) = secret {
        if str(r, "name").is_empty() {
            let sp = path.child("secretRef");
            errors.push(required(&sp.child("name"), ""));
        }
    }
    if let Some(initiator) = initiator {
        let np = path.child("initiatorname");
        if !["iqn", "eui", "naa"].iter().any(|p| initiator.starts_with(p)) {
            errors.push(Error::invalid(&np, initiator, "must be valid format"));
        }
        iqn_format_errors(initiator, &np, errors);
    }
}

/// `validateStorageOSPersistentVolumeSource`.
fn storageos(src: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let name = str(src, "volumeName");
    if name.is_empty() {
        errors.push(required(&path.child("volumeName"), ""));
    } else {
        validate_dns1123_label(name, &path.child("volumeName"), errors);
    }
    let ns = str(src, "volumeNamespace");
    if !ns.is_empty() {
        validate_dns1123_label(ns, &path.child("volumeNamespace"), errors);
    }
    if let Some(r) = get(src, "secretRef") {
        let sp = path.child("secretRef");
        for k in ["name", "namespace"] {
            if str(r, k).is_empty() {
                errors.push(required(&sp.child(k), ""));
            }
        }
    }
}

/// `validateCSIPersistentVolumeSource`.
fn csi(src: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    validate_csi_driver_name(str(src, "driver"), &path.child("driver"), errors);
    if str(src, "volumeHandle").is_empty() {
        errors.push(required(&path.child("volumeHandle"), ""));
    }
    for k in ["controllerPublishSecretRef", "controllerExpandSecretRef", "nodePublishSecretRef", "nodeExpandSecretRef"]
    {
        if let Some(r) = get(src, k) {
            secret_reference(r, &path.child(k), errors);
        }
    }
}

/// `validatePVSecretReference`.
fn secret_reference(r: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let name = str(r, "name");
    let np = path.child("name");
    if name.is_empty() {
        errors.push(required(&np, ""));
    } else {
        validate_dns1123_subdomain(name, &np, errors);
    }
    let ns = str(r, "namespace");
    let sp = path.child("namespace");
    if ns.is_empty() {
        errors.push(required(&sp, ""));
    } else {
        validate_dns1123_label(ns, &sp, errors);
    }
}

// ---- The update: equality and the diff of the internal PersistentVolumeSource.

/// The internal structs a `PersistentVolumeSource` reaches that a PodSpec does not (the others
/// are in [`super::pod_schema`]).
#[rustfmt::skip]
static STRUCTS: &[(&str, &[Field])] = &[
    ("PersistentVolumeSource", &[
        ("GCEPersistentDisk", "gcePersistentDisk", &P(&S("GCEPersistentDiskVolumeSource"))),
        ("AWSElasticBlockStore", "awsElasticBlockStore", &P(&S("AWSElasticBlockStoreVolumeSource"))),
        ("HostPath", "hostPath", &P(&S("HostPathVolumeSource"))),
        ("Glusterfs", "glusterfs", &P(&S("GlusterfsPersistentVolumeSource"))),
        ("NFS", "nfs", &P(&S("NFSVolumeSource"))),
        ("RBD", "rbd", &P(&S("RBDPersistentVolumeSource"))),
        ("ISCSI", "iscsi", &P(&S("ISCSIPersistentVolumeSource"))),
        ("Cinder", "cinder", &P(&S("CinderPersistentVolumeSource"))),
        ("CephFS", "cephfs", &P(&S("CephFSPersistentVolumeSource"))),
        ("FC", "fc", &P(&S("FCVolumeSource"))),
        ("Flocker", "flocker", &P(&S("FlockerVolumeSource"))),
        ("FlexVolume", "flexVolume", &P(&S("FlexPersistentVolumeSource"))),
        ("AzureFile", "azureFile", &P(&S("AzureFilePersistentVolumeSource"))),
        ("VsphereVolume", "vsphereVolume", &P(&S("VsphereVirtualDiskVolumeSource"))),
        ("Quobyte", "quobyte", &P(&S("QuobyteVolumeSource"))),
        ("AzureDisk", "azureDisk", &P(&S("AzureDiskVolumeSource"))),
        ("PhotonPersistentDisk", "photonPersistentDisk", &P(&S("PhotonPersistentDiskVolumeSource"))),
        ("PortworxVolume", "portworxVolume", &P(&S("PortworxVolumeSource"))),
        ("ScaleIO", "scaleIO", &P(&S("ScaleIOPersistentVolumeSource"))),
        ("Local", "local", &P(&S("LocalVolumeSource"))),
        ("StorageOS", "storageos", &P(&S("StorageOSPersistentVolumeSource"))),
        ("CSI", "csi", &P(&S("CSIPersistentVolumeSource"))),
    ]),
    ("GlusterfsPersistentVolumeSource", &[
        ("EndpointsName", "endpoints", &Str),
        ("Path", "path", &Str),
        ("ReadOnly", "readOnly", &Bool),
        ("EndpointsNamespace", "endpointsNamespace", &P(&Str)),
    ]),
    ("RBDPersistentVolumeSource", &[
        ("CephMonitors", "monitors", &L(&Str)),
        ("RBDImage", "image", &Str),
        ("FSType", "fsType", &Str),
        ("RBDPool", "pool", &Str),
        ("RadosUser", "user", &Str),
        ("Keyring", "keyring", &Str),
        ("SecretRef", "secretRef", &P(&S("SecretReference"))),
        ("ReadOnly", "readOnly", &Bool),
    ]),
    ("ISCSIPersistentVolumeSource", &[
        ("TargetPortal", "targetPortal", &Str),
        ("IQN", "iqn", &Str),
        ("Lun", "lun", &Int),
        ("ISCSIInterface", "iscsiInterface", &Str),
        ("FSType", "fsType", &Str),
        ("ReadOnly", "readOnly", &Bool),
        ("Portals", "portals", &L(&Str)),
        ("DiscoveryCHAPAuth", "chapAuthDiscovery", &Bool),
        ("SessionCHAPAuth", "chapAuthSession", &Bool),
        ("SecretRef", "secretRef", &P(&S("SecretReference"))),
        ("InitiatorName", "initiatorName", &P(&Str)),
    ]),
    ("CinderPersistentVolumeSource", &[
        ("VolumeID", "volumeID", &Str),
        ("FSType", "fsType", &Str),
        ("ReadOnly", "readOnly", &Bool),
        ("SecretRef", "secretRef", &P(&S("SecretReference"))),
    ]),
    ("CephFSPersistentVolumeSource", &[
        ("Monitors", "monitors", &L(&Str)),
        ("Path", "path", &Str),
        ("User", "user", &Str),
        ("SecretFile", "secretFile", &Str),
        ("SecretRef", "secretRef", &P(&S("SecretReference"))),
        ("ReadOnly", "readOnly", &Bool),
    ]),
    ("FlexPersistentVolumeSource", &[
        ("Driver", "driver", &Str),
        ("FSType", "fsType", &Str),
        ("SecretRef", "secretRef", &P(&S("SecretReference"))),
        ("ReadOnly", "readOnly", &Bool),
        ("Options", "options", &M(&Str)),
    ]),
    ("AzureFilePersistentVolumeSource", &[
        ("SecretName", "secretName", &Str),
        ("ShareName", "shareName", &Str),
        ("ReadOnly", "readOnly", &Bool),
        ("SecretNamespace", "secretNamespace", &P(&Str)),
    ]),
    ("ScaleIOPersistentVolumeSource", &[
        ("Gateway", "gateway", &Str),
        ("System", "system", &Str),
        ("SecretRef", "secretRef", &P(&S("SecretReference"))),
        ("SSLEnabled", "sslEnabled", &Bool),
        ("ProtectionDomain", "protectionDomain", &Str),
        ("StoragePool", "storagePool", &Str),
        ("StorageMode", "storageMode", &Str),
        ("VolumeName", "volumeName", &Str),
        ("FSType", "fsType", &Str),
        ("ReadOnly", "readOnly", &Bool),
    ]),
    ("LocalVolumeSource", &[
        ("Path", "path", &Str),
        ("FSType", "fsType", &P(&Str)),
    ]),
    ("StorageOSPersistentVolumeSource", &[
        ("VolumeName", "volumeName", &Str),
        ("VolumeNamespace", "volumeNamespace", &Str),
        ("FSType", "fsType", &Str),
        ("ReadOnly", "readOnly", &Bool),
        ("SecretRef", "secretRef", &P(&S("ObjectReference"))),
    ]),
    ("CSIPersistentVolumeSource", &[
        ("Driver", "driver", &Str),
        ("VolumeHandle", "volumeHandle", &Str),
        ("ReadOnly", "readOnly", &Bool),
        ("FSType", "fsType", &Str),
        ("VolumeAttributes", "volumeAttributes", &M(&Str)),
        ("ControllerPublishSecretRef", "controllerPublishSecretRef", &P(&S("SecretReference"))),
        ("NodeStageSecretRef", "nodeStageSecretRef", &P(&S("SecretReference"))),
        ("NodePublishSecretRef", "nodePublishSecretRef", &P(&S("SecretReference"))),
        ("ControllerExpandSecretRef", "controllerExpandSecretRef", &P(&S("SecretReference"))),
        ("NodeExpandSecretRef", "nodeExpandSecretRef", &P(&S("SecretReference"))),
    ]),
    ("SecretReference", &[
        ("Name", "name", &Str),
        ("Namespace", "namespace", &Str),
    ]),
    ("ObjectReference", &[
        ("Kind", "kind", &Str),
        ("Namespace", "namespace", &Str),
        ("Name", "name", &Str),
        ("UID", "uid", &Str),
        ("APIVersion", "apiVersion", &Str),
        ("ResourceVersion", "resourceVersion", &Str),
        ("FieldPath", "fieldPath", &Str),
    ]),
];

/// The fields of the struct `name`: this file's, else the PodSpec schema's.
fn fields(name: &str) -> Option<&'static [Field]> {
    STRUCTS.iter().find(|(n, _)| *n == name).map(|(_, f)| *f)
}

/// The source fields of a v1 `PersistentVolumeSpec` (the embedded `PersistentVolumeSource`).
pub fn source_of(spec: &Json) -> Map<String, Json> {
    let mut m = Map::new();
    for (key, _, _) in SOURCES {
        if let Some(v) = get(spec, key) {
            m.insert(String::from(*key), v.clone());
        }
    }
    m
}

/// How [`render`] prints.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// `json.MarshalIndent`; `stored`: the value was read back from storage (empty slices and
    /// maps decode as nil).
    Indent { stored: bool },
    /// Compact, empty slices and maps as nil: a text equal exactly when `Semantic.DeepEqual`
    /// holds.
    Semantic,
}

/// A value of internal type `t` at indentation `level`, as `mode` prints it.
fn render(v: Option<&Json>, t: &'static T, level: usize, mode: Mode, out: &mut String) {
    let semantic = mode == Mode::Semantic;
    let nil_empty = mode != Mode::Indent { stored: false };
    let v = v.filter(|x| !x.is_null());
    let nl = |out: &mut String, level: usize| {
        if !semantic {
            out.push('\n');
            for _ in 0..level {
                out.push(' ');
            }
        }
    };
    match t {
        S(name) => match fields(name) {
            Some(fs) => {
                out.push('{');
                for (i, (go, key, ft)) in fs.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    nl(out, level + 1);
                    out.push_str(&go_json(&Json::from(*go)));
                    out.push_str(if semantic { ":" } else { ": " });
                    render(v.and_then(|x| x.get(*key)), ft, level + 1, mode, out);
                }
                nl(out, level);
                out.push('}');
            }
            None if semantic => out.push_str(&super::pod_gojson::semantic(v, t)),
            None => {
                let text = super::pod_gojson::marshal_indent(v.unwrap_or(&Json::Null), name, nil_empty);
                let mut pad = String::from("\n");
                pad.extend(core::iter::repeat_n(' ', level));
                out.push_str(&text.replace('\n', &pad));
            }
        },
        P(inner) => match v {
            None => out.push_str("null"),
            Some(_) => render(v, inner, level, mode, out),
        },
        L(inner) => match v {
            Some(Json::Array(items)) if !(nil_empty && items.is_empty()) => {
                if items.is_empty() {
                    out.push_str("[]");
                    return;
                }
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    nl(out, level + 1);
                    render(Some(item), inner, level + 1, mode, out);
                }
                nl(out, level);
                out.push(']');
            }
            _ => out.push_str("null"),
        },
        M(inner) => match v {
            Some(Json::Object(m)) if !(nil_empty && m.is_empty()) => {
                if m.is_empty() {
                    out.push_str("{}");
                    return;
                }
                out.push('{');
                for (i, (k, item)) in m.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    nl(out, level + 1);
                    out.push_str(&go_json(&Json::from(k.as_str())));
                    out.push_str(if semantic { ":" } else { ": " });
                    render(Some(item), inner, level + 1, mode, out);
                }
                nl(out, level);
                out.push('}');
            }
            _ => out.push_str("null"),
        },
        scalar => out.push_str(&super::pod_gojson::marshal(v, scalar)),
    }
}

static SOURCE: T = S("PersistentVolumeSource");

/// `Semantic.DeepEqual` of two `PersistentVolumeSource`s (given as [`source_of`] maps).
pub fn same_source(a: &Json, b: &Json) -> bool {
    let (mut x, mut y) = (String::new(), String::new());
    render(Some(a), &SOURCE, 0, Mode::Semantic, &mut x);
    render(Some(b), &SOURCE, 0, Mode::Semantic, &mut y);
    x == y
}

/// `diff.Diff(old, new)` of two `PersistentVolumeSource`s (the old one read back from storage).
pub fn source_diff(old: &Json, new: &Json) -> String {
    let (mut x, mut y) = (String::new(), String::new());
    render(Some(old), &SOURCE, 0, Mode::Indent { stored: true }, &mut x);
    render(Some(new), &SOURCE, 0, Mode::Indent { stored: false }, &mut y);
    super::pod_diff::unified_diff(&x, &y)
}

/// `betaToGALabel`.
fn ga_label(beta: &str) -> Option<&'static str> {
    Some(match beta {
        "failure-domain.beta.kubernetes.io/zone" => "topology.kubernetes.io/zone",
        "failure-domain.beta.kubernetes.io/region" => "topology.kubernetes.io/region",
        "beta.kubernetes.io/os" => "kubernetes.io/os",
        "beta.kubernetes.io/arch" => "kubernetes.io/arch",
        "beta.kubernetes.io/instance-type" => "node.kubernetes.io/instance-type",
        _ => return None,
    })
}

static NODE_SELECTOR: T = P(&S("NodeSelector"));

/// `getMaskNodeSelectorLabelChangeEqualities().DeepEqual` of two `*VolumeNodeAffinity`: the
/// old requirements' beta keys replaced by the new GA ones, then `Semantic.DeepEqual`.
pub fn same_node_affinity(new: Option<&Json>, old: &Json) -> bool {
    let Some(new) = new else { return false };
    let mut masked = old.clone();
    let new_terms = list(crate::apis::json::field(new, "required"), "nodeSelectorTerms");
    if let Some(Json::Array(terms)) = masked.get_mut("required").and_then(|r| r.get_mut("nodeSelectorTerms")) {
        for (term, new_term) in terms.iter_mut().zip(new_terms) {
            for field in ["matchExpressions", "matchFields"] {
                let new_reqs = list(new_term, field);
                if let Some(Json::Array(reqs)) = term.get_mut(field) {
                    for (req, new_req) in reqs.iter_mut().zip(new_reqs) {
                        let (ok, nk) = (str(req, "key"), str(new_req, "key"));
                        if ok != nk && ga_label(ok) == Some(nk) {
                            req["key"] = Json::from(nk);
                        }
                    }
                }
            }
        }
    }
    let (mut x, mut y) = (String::new(), String::new());
    render(get(new, "required"), &NODE_SELECTOR, 0, Mode::Semantic, &mut x);
    render(get(&masked, "required"), &NODE_SELECTOR, 0, Mode::Semantic, &mut y);
    x == y
}

/// A `*core.VolumeNodeAffinity` as `field.Error` prints it (`json.Marshal`).
pub fn node_affinity_json(v: Option<&Json>) -> String {
    match v {
        None => String::from("null"),
        Some(na) => {
            format!("{{\"Required\":{}}}", super::pod_gojson::marshal_struct(get(na, "required"), "NodeSelector"))
        }
    }
}
