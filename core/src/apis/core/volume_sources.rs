//! The volume sources' own checks that [`super::volume`] dispatches to, after
//! `pkg/apis/core/validation/validation.go`: `validateISCSIVolumeSource` (the iqn/eui/naa
//! regexes), `validateGlusterfsVolumeSource`, `validateRBDVolumeSource`,
//! `validateCinderVolumeSource`, `validateCephFSVolumeSource`,
//! `validateQuobyteVolumeSource` (`net.SplitHostPort`), `validateFCVolumeSource`,
//! `validateFlexVolumeSource`, `validateAzureFile`, `validateAzureDisk`,
//! `validateVsphereVolumeSource`, `validatePhotonPersistentDiskVolumeSource`,
//! `validatePortworxVolumeSource`, `validateScaleIOVolumeSource`,
//! `validateStorageOSVolumeSource`, `validateCSIVolumeSource` (`ValidateCSIDriverName`),
//! `validateEphemeralVolumeSource` (`ValidatePersistentVolumeClaimTemplate`,
//! `ValidateTemplateObjectMeta`, `validateFieldAllowList`), and the projected volume's
//! `validateProjectedVolumeSource` / `validateProjectionSources` (secret, configMap,
//! downwardAPI, serviceAccountToken, clusterTrustBundle, podCertificate, one source per
//! projection) with `names.go`'s `ValidateSignerName`, `ValidateClusterTrustBundleName`,
//! `IsKubernetesSignerName` and `ValidateUserAnnotations` (`IsDomainPrefixedKey`).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{Map, Value as Json};

use super::super::json::{field, get, int, list, object, str};
use super::common::validate_label_selector;
use super::pod_common::*;
use super::volume::{downward_api_file, key_to_path, local_non_reserved_path, mode, user, FILE_MODE};
use crate::content;
use crate::field::{Error, Path};

/// The source's own checks (`key`: its JSON field), at `path` (the source's own path).
pub fn validate_source(key: &str, src: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let need = |k: &str, errors: &mut Vec<Error>| {
        if str(src, k).is_empty() {
            errors.push(required(&path.child(k), ""));
        }
    };
    match key {
        "iscsi" => iscsi(src, path, errors),
        "glusterfs" => {
            need("endpoints", errors);
            need("path", errors);
        }
        "rbd" => {
            if list(src, "monitors").is_empty() {
                errors.push(required(&path.child("monitors"), ""));
            }
            need("image", errors);
        }
        "cinder" => {
            need("volumeID", errors);
            secret_ref_name(src, path, errors);
        }
        "cephfs" if list(src, "monitors").is_empty() => {
            errors.push(required(&path.child("monitors"), ""));
        }
        "quobyte" => quobyte(src, path, errors),
        "fc" => fc(src, path, errors),
        "flexVolume" => {
            need("driver", errors);
            for (k, _) in object(src, "options").into_iter().flatten() {
                let namespace = k.split_once('/').map_or(k.as_str(), |(ns, _)| ns);
                let normalized = format!(".{}", namespace.to_lowercase());
                if normalized.ends_with(".kubernetes.io") || normalized.ends_with(".k8s.io") {
                    let op = path.child("options");
                    errors.push(Error::invalid(
                        &op.key(k),
                        k.as_str(),
                        "kubernetes.io and k8s.io namespaces are reserved",
                    ));
                }
            }
        }
        "azureFile" => {
            need("secretName", errors);
            need("shareName", errors);
        }
        "azureDisk" => azure_disk(src, path, errors),
        "vsphereVolume" => need("volumePath", errors),
        "photonPersistentDisk" => need("pdID", errors),
        "portworxVolume" => need("volumeID", errors),
        "scaleIO" => {
            need("gateway", errors);
            need("system", errors);
            need("volumeName", errors);
        }
        "storageos" => {
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
            secret_ref_name(src, path, errors);
        }
        "csi" => {
            validate_csi_driver_name(str(src, "driver"), &path.child("driver"), errors);
            if let Some(r) = get(src, "nodePublishSecretRef") {
                let n = str(r, "name");
                if n.is_empty() {
                    errors.push(required(&path.child("nodePublishSecretRef").child("name"), ""));
                } else {
                    for msg in is_dns1123_subdomain(n) {
                        errors.push(Error::invalid(&path.child("name"), n, msg));
                    }
                }
            }
        }
        "ephemeral" => match get(src, "volumeClaimTemplate") {
            None => errors.push(required(&path.child("volumeClaimTemplate"), "")),
            Some(t) => claim_template(t, &path.child("volumeClaimTemplate"), errors),
        },
        "projected" => projected(src, path, errors),
        _ => {}
    }
}

fn secret_ref_name(src: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    if let Some(r) = get(src, "secretRef") {
        if str(r, "name").is_empty() {
            errors.push(required(&path.child("secretRef").child("name"), ""));
        }
    }
}

/// `iscsiInitiatorIqnRegex` (unanchored at the start): `iqn\.\d{4}-\d{2}\.([[:alnum:]-.]+)(:[^,;*&$|\s]+)$`.
fn iqn_matches(s: &str) -> bool {
    let tail_ok = |t: &str| {
        !t.is_empty() && !t.chars().any(|c| ",;*&$|".contains(c) || matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0c'))
    };
    s.match_indices("iqn.").any(|(p, _)| {
        let b = s.as_bytes();
        let digits = |from: usize, n: usize| b.get(from..from + n).is_some_and(|d| d.iter().all(u8::is_ascii_digit));
        let d = p + 4;
        if !(digits(d, 4) && b.get(d + 4) == Some(&b'-') && digits(d + 5, 2) && b.get(d + 7) == Some(&b'.')) {
            return false;
        }
        let rest = s.get(d + 8..).unwrap_or("");
        let end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '.')).unwrap_or(rest.len());
        end > 0 && rest.get(end..).and_then(|t| t.strip_prefix(':')).is_some_and(tail_ok)
    })
}

/// `^<prefix>.[[:alnum:]]{n}$`.
fn prefixed_alnum(s: &str, prefix: &str, n: usize) -> bool {
    let Some(rest) = s.strip_prefix(prefix) else { return false };
    let mut chars = rest.chars();
    match chars.next() {
        Some(c) if c != '\n' => {}
        _ => return false,
    }
    let tail = chars.as_str();
    tail.len() == n && tail.bytes().all(|c| c.is_ascii_alphanumeric())
}

pub(crate) fn iqn_format_errors(value: &str, path: &Path<'_>, errors: &mut Vec<Error>) {
    let bad = (value.starts_with("iqn") && !iqn_matches(value))
        || (value.starts_with("eui") && !prefixed_alnum(value, "eui", 16))
        || (value.starts_with("naa") && !prefixed_alnum(value, "naa", 32));
    if bad {
        errors.push(Error::invalid(path, value, "must be valid format"));
    }
}

/// `validateISCSIVolumeSource`.
fn iscsi(src: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    if str(src, "targetPortal").is_empty() {
        errors.push(required(&path.child("targetPortal"), ""));
    }
    let iqn = str(src, "iqn");
    let ip = path.child("iqn");
    if iqn.is_empty() {
        errors.push(required(&ip, ""));
    } else if !["iqn", "eui", "naa"].iter().any(|p| iqn.starts_with(p)) {
        errors.push(Error::invalid(&ip, iqn, "must be valid format starting with iqn, eui, or naa"));
    } else {
        iqn_format_errors(iqn, &ip, errors);
    }
    let lun = int(src, "lun").unwrap_or(0);
    if !(0..=255).contains(&lun) {
        errors.push(Error::invalid(&path.child("lun"), lun, inclusive_range(0, 255)));
    }
    let chap = src.get("chapAuthDiscovery").and_then(Json::as_bool) == Some(true)
        || src.get("chapAuthSession").and_then(Json::as_bool) == Some(true);
    if chap && get(src, "secretRef").is_none() {
        errors.push(required(&path.child("secretRef"), ""));
    }
    if let Some(initiator) = src.get("initiatorName").and_then(Json::as_str) {
        let np = path.child("initiatorname");
        if !["iqn", "eui", "naa"].iter().any(|p| initiator.starts_with(p)) {
            errors.push(Error::invalid(&np, initiator, "must be valid format starting with iqn, eui, or naa"));
        }
        iqn_format_errors(initiator, &np, errors);
    }
}

/// `net.SplitHostPort` succeeds.
fn split_host_port_ok(hostport: &str) -> bool {
    let Some(i) = hostport.rfind(':') else { return false };
    let (mut j, mut k) = (0, 0);
    if hostport.starts_with('[') {
        let Some(end) = hostport.find(']') else { return false };
        if end + 1 != i {
            return false;
        }
        j = 1;
        k = end + 1;
    } else if hostport.get(..i).is_some_and(|h| h.contains(':')) {
        return false;
    }
    !hostport.get(j..).unwrap_or("").contains('[') && !hostport.get(k..).unwrap_or("").contains(']')
}

/// `validateQuobyteVolumeSource`.
fn quobyte(src: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let registry = str(src, "registry");
    const MSG: &str = "must be a host:port pair or multiple pairs separated by commas";
    if registry.is_empty() {
        errors.push(required(&path.child("registry"), MSG));
    } else if str(src, "tenant").len() >= 65 {
        errors.push(required(&path.child("tenant"), "must be a UUID and may not exceed a length of 64 characters"));
    } else {
        for pair in registry.split(',') {
            if !split_host_port_ok(pair) {
                errors.push(Error::invalid(&path.child("registry"), registry, MSG));
            }
        }
    }
    if str(src, "volume").is_empty() {
        errors.push(required(&path.child("volume"), ""));
    }
}

/// `validateFCVolumeSource`.
fn fc(src: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let wwns = list(src, "targetWWNs");
    let wwids = list(src, "wwids");
    if wwns.is_empty() && wwids.is_empty() {
        errors.push(required(&path.child("targetWWNs"), "must specify either targetWWNs or wwids, but not both"));
    }
    if !wwns.is_empty() && !wwids.is_empty() {
        errors.push(Error::invalid(
            &path.child("targetWWNs"),
            Json::Array(wwns.to_vec()),
            "targetWWNs and wwids can not be specified simultaneously",
        ));
    }
    if !wwns.is_empty() {
        match int(src, "lun") {
            None => errors.push(required(&path.child("lun"), "lun is required if targetWWNs is specified")),
            Some(lun) if !(0..=255).contains(&lun) => {
                errors.push(Error::invalid(&path.child("lun"), lun, inclusive_range(0, 255)));
            }
            Some(_) => {}
        }
    }
}

/// `validateAzureDisk`.
fn azure_disk(src: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    if str(src, "diskName").is_empty() {
        errors.push(required(&path.child("diskName"), ""));
    }
    let uri = str(src, "diskURI");
    if uri.is_empty() {
        errors.push(required(&path.child("diskURI"), ""));
    }
    let named = |path: &Path<'_>, v: &str, supported: &[&str]| {
        let mut e = Error::not_supported(path, v, supported);
        e.rendered_value = Some(crate::field::go_json(&Json::from(v)));
        e
    };
    if let Some(m) = src.get("cachingMode").and_then(Json::as_str) {
        if !["None", "ReadOnly", "ReadWrite"].contains(&m) {
            errors.push(named(&path.child("cachingMode"), m, &["None", "ReadOnly", "ReadWrite"]));
        }
    }
    let kind = src.get("kind").and_then(Json::as_str);
    if let Some(k) = kind {
        if !["Dedicated", "Managed", "Shared"].contains(&k) {
            errors.push(named(&path.child("kind"), k, &["Dedicated", "Managed", "Shared"]));
        }
        if k == "Managed" && !uri.starts_with("/subscriptions/") {
            errors.push(Error::not_supported(
                &path.child("diskURI"),
                uri,
                &["/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/microsoft.compute/disks/{disk-id}"],
            ));
        }
        if k != "Managed" && !uri.starts_with("https://") {
            errors.push(Error::not_supported(
                &path.child("diskURI"),
                uri,
                &["https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd"],
            ));
        }
    }
}

/// `ValidateCSIDriverName`.
pub fn validate_csi_driver_name(driver: &str, path: &Path<'_>, errors: &mut Vec<Error>) {
    if driver.is_empty() {
        errors.push(required(path, ""));
        return;
    }
    if driver.len() > 63 {
        errors.push(Error::too_long(path, 63));
    }
    for msg in is_dns1123_subdomain(&driver.to_lowercase()) {
        errors.push(Error::invalid(path, driver, msg));
    }
}

/// `ValidatePersistentVolumeClaimTemplate` (`ValidateTemplateObjectMeta`, then the spec).
fn claim_template(t: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    validate_template_object_meta(field(t, "metadata"), &path.child("metadata"), errors);
    super::pvc::validate_spec(field(t, "spec"), false, false, &path.child("spec"), errors);
}

/// `ValidateTemplateObjectMeta` (a PVC template's, a ResourceClaimTemplate's): valid
/// annotations and labels, no other field set.
pub(crate) fn validate_template_object_meta(meta: &Json, mp: &Path<'_>, errors: &mut Vec<Error>) {
    super::pod::validate_annotations(object(meta, "annotations"), &mp.child("annotations"), errors);
    super::pod::validate_labels(object(meta, "labels"), &mp.child("labels"), errors);
    // validateFieldAllowList: every other ObjectMeta field must be its zero value (an empty
    // but present list is not).
    const FIELDS: &[(&str, &str)] = &[
        ("name", "name"),
        ("generateName", "generateName"),
        ("namespace", "namespace"),
        ("selfLink", "selfLink"),
        ("uid", "uID"),
        ("resourceVersion", "resourceVersion"),
        ("generation", "generation"),
        ("creationTimestamp", "creationTimestamp"),
        ("deletionTimestamp", "deletionTimestamp"),
        ("deletionGracePeriodSeconds", "deletionGracePeriodSeconds"),
        ("ownerReferences", "ownerReferences"),
        ("finalizers", "finalizers"),
        ("managedFields", "managedFields"),
    ];
    for (key, shown) in FIELDS {
        let set = match meta.get(*key) {
            None | Some(Json::Null) => false,
            Some(Json::String(s)) => !s.is_empty(),
            Some(Json::Number(n)) => n.as_i64() != Some(0) || *key == "deletionGracePeriodSeconds",
            Some(_) => true,
        };
        if set {
            errors.push(forbidden(&mp.child(shown), "cannot be set"));
        }
    }
}

/// `IsKubernetesSignerName`.
fn is_kubernetes_signer(signer: &str) -> bool {
    let host = signer.split_once('/').map_or(signer, |(h, _)| h);
    host == "kubernetes.io" || host.ends_with(".kubernetes.io")
}

/// `ValidateSignerName`.
pub fn validate_signer_name(path: &Path<'_>, signer: &str, errors: &mut Vec<Error>) {
    if signer.is_empty() {
        errors.push(required(path, ""));
        return;
    }
    let segments: Vec<&str> = signer.split('/').collect();
    let [domain, rest] = segments.as_slice() else {
        errors.push(Error::invalid(
            path,
            signer,
            "must be a fully qualified domain and path of the form 'example.com/signer-name'",
        ));
        return;
    };
    if domain.len() > 253 {
        errors.push(Error::too_long(path, 253));
    }
    let labels: Vec<&str> = domain.split('.').collect();
    for lbl in &labels {
        let errs = is_dns1123_label(lbl);
        if !errs.is_empty() {
            for err in errs {
                let msg = format!("validating label {}: {err}", crate::field::go_quote(lbl));
                errors.push(Error::invalid(path, *domain, msg));
            }
            break;
        }
    }
    if labels.len() < 2 {
        errors.push(Error::invalid(path, *domain, "should be a domain with at least two segments separated by dots"));
    }
    for lbl in rest.split('.') {
        let errs = is_dns1123_subdomain(lbl);
        if !errs.is_empty() {
            for err in errs {
                let msg = format!("validating label {}: {err}", crate::field::go_quote(lbl));
                errors.push(Error::invalid(path, *rest, msg));
            }
            break;
        }
    }
    if signer.len() > 253 + 253 + 63 + 1 + 1 {
        errors.push(Error::too_long(path, 253 + 253 + 63 + 1 + 1));
    }
}

/// `ValidateClusterTrustBundleName(signerName)(name, false)`.
fn cluster_trust_bundle_name(signer: &str, name: &str) -> Vec<String> {
    if signer.is_empty() {
        if name.contains(':') {
            return alloc::vec![String::from("ClusterTrustBundle without signer name must not have \":\" in its name")];
        }
        return is_dns1123_subdomain(name);
    }
    let prefix = format!("{}:", signer.replace('/', ":"));
    match name.strip_prefix(prefix.as_str()) {
        Some(rest) => is_dns1123_subdomain(rest),
        None => alloc::vec![format!("ClusterTrustBundle for signerName {signer} must be named with prefix {prefix}")],
    }
}

/// `allPaths.Insert` unless present: whether the path was new.
fn claim(p: &str, all: &mut Vec<String>) -> bool {
    if all.iter().any(|x| x == p) {
        false
    } else {
        all.push(String::from(p));
        true
    }
}

/// `validateProjectedVolumeSource` and `validateProjectionSources`.
fn projected(src: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    mode(src, "defaultMode", 0o777, FILE_MODE, path, errors);
    user(src, "defaultUser", path, errors);
    let mut all_paths: Vec<String> = Vec::new();
    let sources = path.child("sources");
    for (i, source) in list(src, "sources").iter().enumerate() {
        let sp = sources.index(i);
        let mut n = 0;
        for key in ["secret", "configMap"] {
            let Some(s) = get(source, key) else { continue };
            n += 1;
            let pp = sp.child(key);
            let name = str(s, "name");
            if name.is_empty() {
                errors.push(required(&pp.child("name"), ""));
            }
            let items = pp.child("items");
            for (j, kp) in list(s, "items").iter().enumerate() {
                key_to_path(kp, &items.index(j), errors);
                let p = str(kp, "path");
                if !p.is_empty() && !claim(p, &mut all_paths) {
                    errors.push(Error::invalid(path, name, "conflicting duplicate paths"));
                }
            }
        }
        if let Some(d) = get(source, "downwardAPI") {
            n += 1;
            let pp = sp.child("downwardAPI");
            for file in list(d, "items") {
                downward_api_file(file, &pp, errors);
                let p = str(file, "path");
                if !p.is_empty() && !claim(p, &mut all_paths) {
                    errors.push(Error::invalid(path, p, "conflicting duplicate paths"));
                }
            }
        }
        if let Some(t) = get(source, "serviceAccountToken") {
            n += 1;
            let pp = sp.child("serviceAccountToken");
            match int(t, "expirationSeconds") {
                None => errors.push(required(&pp.child("expirationSeconds"), "")),
                Some(exp) => {
                    if exp < 600 {
                        errors.push(Error::invalid(
                            &pp.child("expirationSeconds"),
                            exp,
                            "may not specify a duration less than 10 minutes",
                        ));
                    }
                    if exp > 1 << 32 {
                        errors.push(Error::invalid(
                            &pp.child("expirationSeconds"),
                            exp,
                            "may not specify a duration larger than 2^32 seconds",
                        ));
                    }
                }
            }
            let p = str(t, "path");
            if p.is_empty() {
                errors.push(required(&path.child("path"), ""));
            } else {
                local_non_reserved_path(p, &path.child("path"), errors);
            }
            user(t, "user", &pp, errors);
        }
        if let Some(b) = get(source, "clusterTrustBundle") {
            n += 1;
            let pp = sp.child("clusterTrustBundle");
            let name = b.get("name").and_then(Json::as_str);
            let signer = b.get("signerName").and_then(Json::as_str);
            match (name, signer) {
                (Some(_), Some(_)) => {
                    let mut e = Error::invalid(&pp, b.clone(), "only one of name and signerName may be used");
                    e.rendered_value = Some(super::pod_gojson::marshal_struct(Some(b), "ClusterTrustBundleProjection"));
                    errors.push(e);
                }
                (Some(name), None) => {
                    if name.is_empty() {
                        errors.push(required(&pp.child("name"), "must be a valid object name"));
                    }
                    let signer = name.rfind(':').map(|i| name.get(..i).unwrap_or("").replace(':', "/"));
                    for msg in cluster_trust_bundle_name(signer.as_deref().unwrap_or(""), name) {
                        let detail = format!("not a valid clustertrustbundlename: {msg}");
                        errors.push(Error::invalid(&pp.child("name"), name, detail));
                    }
                    if let Some(sel) = get(b, "labelSelector") {
                        let mut e = Error::invalid(
                            &pp.child("labelSelector"),
                            sel.clone(),
                            "labelSelector must be unset if name is specified",
                        );
                        e.rendered_value = Some(super::pod_gojson::marshal(Some(sel), &super::pod_schema::T::Selector));
                        errors.push(e);
                    }
                }
                (None, Some(signer)) => {
                    if signer.is_empty() {
                        errors.push(required(&pp.child("signerName"), "must be a valid signer name"));
                    }
                    validate_signer_name(&pp.child("signerName"), signer, errors);
                    validate_label_selector(get(b, "labelSelector"), false, &pp.child("labelSelector"), errors);
                }
                (None, None) => errors.push(required(&pp, "either name or signerName must be specified")),
            }
            let p = str(b, "path");
            if p.is_empty() {
                errors.push(required(&pp.child("path"), ""));
            }
            user(b, "user", &pp, errors);
            local_non_reserved_path(p, &pp.child("path"), errors);
            if !claim(p, &mut all_paths) {
                errors.push(Error::invalid(path, p, "conflicting duplicate paths"));
            }
        }
        if let Some(c) = get(source, "podCertificate") {
            n += 1;
            pod_certificate(c, &sp.child("podCertificate"), path, &mut all_paths, errors);
        }
        if n > 1 {
            errors.push(forbidden(&sp, "may not specify more than 1 volume type per source"));
        }
    }
}

/// `ValidateUserAnnotations`: each key (lower-cased) a domain-prefixed label key, and the
/// annotations' total size within 256 KiB.
pub fn validate_user_annotations(annotations: &Map<String, Json>, path: &Path<'_>, errors: &mut Vec<Error>) {
    let ap = path;
    let mut size = 0usize;
    for (k, v) in annotations {
        let key = k.to_lowercase();
        if key.is_empty() {
            errors.push(required(ap, ""));
        } else {
            let msgs = content::is_label_key(&key);
            if msgs.is_empty() {
                if key.split('/').count() != 2 {
                    errors.push(Error::invalid(
                        ap,
                        key.as_str(),
                        "must be a domain-prefixed key (such as \"acme.io/foo\")",
                    ));
                }
            } else {
                for msg in msgs {
                    errors.push(Error::invalid(ap, key.as_str(), msg));
                }
            }
        }
        size = size.saturating_add(k.len()).saturating_add(v.as_str().map_or(0, str::len));
    }
    if size > 256 * 1024 {
        errors.push(Error::too_long(ap, 256 * 1024));
    }
}

/// The `podCertificate` projection of `validateProjectionSources`.
fn pod_certificate(c: &Json, pp: &Path<'_>, path: &Path<'_>, all_paths: &mut Vec<String>, errors: &mut Vec<Error>) {
    let signer = str(c, "signerName");
    validate_signer_name(&pp.child("signerName"), signer, errors);
    if let Some(annotations) = object(c, "userAnnotations") {
        validate_user_annotations(annotations, &pp.child("userAnnotations"), errors);
    }
    user(c, "user", pp, errors);
    const KEY_TYPES: &[&str] = &["RSA3072", "RSA4096", "ECDSAP256", "ECDSAP384", "ECDSAP521", "ED25519"];
    let key_type = str(c, "keyType");
    if !KEY_TYPES.contains(&key_type) {
        errors.push(Error::not_supported(&pp.child("keyType"), key_type, KEY_TYPES));
    }
    if let Some(max) = int(c, "maxExpirationSeconds") {
        let mp = pp.child("maxExpirationSeconds");
        if max < 3600 {
            errors.push(Error::invalid(&mp, max, "if provided, maxExpirationSeconds must be >= 3600"));
        }
        let limit = if is_kubernetes_signer(signer) { 24 * 60 * 60 } else { 91 * 24 * 60 * 60 };
        if max > limit {
            errors.push(Error::invalid(&mp, max, format!("if provided, maxExpirationSeconds must be <= {limit}")));
        }
    }
    let mut num = 0;
    for key in ["credentialBundlePath", "keyPath", "certificateChainPath"] {
        let p = str(c, key);
        if p.is_empty() {
            continue;
        }
        num += 1;
        local_non_reserved_path(p, &pp.child(key), errors);
        if all_paths.iter().any(|x| x == p) {
            errors.push(Error::invalid(path, p, "conflicting duplicate paths"));
        } else {
            all_paths.push(String::from(p));
        }
    }
    if num == 0 {
        errors.push(required(pp, "specify at least one of credentialBundlePath, keyPath, and certificateChainPath"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn texts(key: &str, src: Json) -> Vec<String> {
        let mut errors = Vec::new();
        let p = Path::named("v");
        validate_source(key, &src, &p.child(key), &mut errors);
        errors.iter().map(Error::text).collect()
    }

    // TestValidateVolumes (iscsi, fc, rbd, flexVolume, azureDisk, csi, quobyte cases).
    #[test]
    fn sources() {
        assert!(texts("iscsi", json!({"targetPortal": "127.0.0.1", "iqn": "iqn.2015-02.example.com:test", "lun": 1}))
            .is_empty());
        assert_eq!(
            texts("iscsi", json!({"targetPortal": "127.0.0.1", "iqn": "iqn.2015-02.example.com:test;ls;", "lun": 1})),
            ["v.iscsi.iqn: Invalid value: \"iqn.2015-02.example.com:test;ls;\": must be valid format"]
        );
        assert_eq!(
            texts("iscsi", json!({"targetPortal": "127.0.0.1", "iqn": "eui.0123456789ABCDEF", "initiatorName": "foo"})),
            ["v.iscsi.initiatorname: Invalid value: \"foo\": must be valid format starting with iqn, eui, or naa"]
        );
        assert_eq!(
            texts("fc", json!({"targetWWNs": ["some_wwn"], "wwids": ["some_wwid"], "lun": 256})),
            [
                "v.fc.targetWWNs: Invalid value: [\"some_wwn\"]: targetWWNs and wwids can not be specified simultaneously",
                "v.fc.lun: Invalid value: 256: must be between 0 and 255, inclusive",
            ]
        );
        assert_eq!(
            texts("rbd", json!({"monitors": [], "image": ""})),
            ["v.rbd.monitors: Required value", "v.rbd.image: Required value"]
        );
        assert_eq!(
            texts("flexVolume", json!({"driver": "d", "options": {"kubernetes.io/x": "y"}})),
            ["v.flexVolume.options[kubernetes.io/x]: Invalid value: \"kubernetes.io/x\": kubernetes.io and k8s.io namespaces are reserved"]
        );
        assert_eq!(
            texts("azureDisk", json!({"diskName": "d", "diskURI": "https://x", "kind": "Managed"})),
            ["v.azureDisk.diskURI: Unsupported value: \"https://x\": supported values: \"/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/microsoft.compute/disks/{disk-id}\""]
        );
        assert_eq!(texts("csi", json!({"driver": ""})), ["v.csi.driver: Required value"]);
        assert_eq!(
            texts("quobyte", json!({"registry": "reg", "volume": "v"})),
            ["v.quobyte.registry: Invalid value: \"reg\": must be a host:port pair or multiple pairs separated by commas"]
        );
    }

    // TestValidateProjectionSources (one source per projection, clusterTrustBundle).
    #[test]
    fn projections() {
        assert_eq!(
            texts("projected", json!({"sources": [{"secret": {"name": "s"}, "configMap": {"name": "c"}}]})),
            ["v.projected.sources[0]: Forbidden: may not specify more than 1 volume type per source"]
        );
        assert_eq!(
            texts("projected", json!({"sources": [{"clusterTrustBundle": {"path": "x"}}]})),
            ["v.projected.sources[0].clusterTrustBundle: Required value: either name or signerName must be specified"]
        );
        assert_eq!(
            texts("projected", json!({"sources": [{"clusterTrustBundle": {"signerName": "foo", "path": "x"}}]})),
            ["v.projected.sources[0].clusterTrustBundle.signerName: Invalid value: \"foo\": must be a fully qualified domain and path of the form 'example.com/signer-name'"]
        );
    }
}
