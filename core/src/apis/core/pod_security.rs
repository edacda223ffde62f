//! Security settings of a PodSpec, after `pkg/apis/core/validation/validation.go`:
//! `validatePodSpecSecurityContext`, `validateSysctls` (`IsValidSysctlName`,
//! `ValidateHostSysctl` with component-helpers' sysctl `GetNamespace`),
//! `validateFSGroupChangePolicy`, `validateSupplementalGroupsPolicy`,
//! `validateSELinuxChangePolicy`, `validateSeccompProfileField`, `ValidateSeccompProfile`,
//! `ValidateSeccompPodAnnotations`, `ValidateAppArmorProfileField`,
//! `ValidateAppArmorPodAnnotations`, `validateShareProcessNamespace`, `validateHostUsers`,
//! `validateSeccompAnnotationsAndFields`, `validateAppArmorAnnotationsAndFieldsMatchOnCreate`;
//! the pod strategy's `applyAppArmorVersionSkew` (pkg/registry/core/pod/strategy.go) and
//! `ApparmorFieldForAnnotation` (pkg/api/pod/util.go); the pod's `windowsOptions` by
//! [`super::pod_os`]; and the container's `ValidateSecurityContext`.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value as Json;

use super::super::json::{bool as jbool, field, get, int, list, str, string_map};
use super::container::local_descending_path;
use super::pod_common::*;
use crate::field::{Error, Path};

/// A `field.Invalid(path, sc, …)` of a `*SecurityContext`: apimachinery 1.37 prints it
/// with `json.Marshal` of the internal `core.SecurityContext` (Go field names, every field).
pub fn sc_error(path: &Path<'_>, sc: &Json, detail: &str) -> Error {
    let mut e = Error::invalid(path, sc.clone(), detail);
    e.rendered_value = Some(super::pod_gojson::marshal_struct(Some(sc), "SecurityContext"));
    e
}

/// `validateSeccompProfileField`.
pub fn validate_seccomp_profile_field(sp: Option<&Json>, path: &Path<'_>, errors: &mut Vec<Error>) {
    let Some(sp) = sp else { return };
    let t = str(sp, "type");
    let tp = path.child("type");
    match t {
        "Localhost" | "RuntimeDefault" | "Unconfined" => {}
        "" => errors.push(required(&tp, "type is required when seccompProfile is set")),
        other => errors.push(Error::not_supported(&tp, other, &["Localhost", "RuntimeDefault", "Unconfined"])),
    }
    let local = sp.get("localhostProfile").and_then(Json::as_str);
    if t == "Localhost" {
        match local {
            None => {
                errors.push(required(&path.child("localhostProfile"), "must be set when seccomp type is Localhost"))
            }
            Some(p) => local_descending_path(p, &path.child("localhostProfile"), errors),
        }
    } else if local.is_some() {
        let mut e = Error::invalid(
            &path.child("localhostProfile"),
            sp.clone(),
            "can only be set when seccomp type is Localhost",
        );
        e.rendered_value = Some(super::pod_gojson::marshal_struct(Some(sp), "SeccompProfile"));
        errors.push(e);
    }
}

/// `ValidateAppArmorProfileField`.
pub fn validate_app_armor_field(profile: Option<&Json>, path: &Path<'_>, errors: &mut Vec<Error>) {
    let Some(profile) = profile else { return };
    let local = profile.get("localhostProfile").and_then(Json::as_str);
    let lp = path.child("localhostProfile");
    match str(profile, "type") {
        "Localhost" => match local {
            None => errors.push(required(&lp, "must be set when AppArmor type is Localhost")),
            Some(l) => {
                if l.trim() != l {
                    errors.push(Error::invalid(&lp, l, "must not be padded with whitespace"));
                } else if l.is_empty() {
                    errors.push(required(&lp, "must be set when AppArmor type is Localhost"));
                }
                if l.len() > 4095 {
                    errors.push(Error::too_long(&lp, 4095));
                }
            }
        },
        "RuntimeDefault" | "Unconfined" => {
            if let Some(l) = local {
                errors.push(Error::invalid(&lp, l, "can only be set when AppArmor type is Localhost"));
            }
        }
        "" => errors.push(required(&path.child("type"), "type is required when appArmorProfile is set")),
        other => errors.push(Error::not_supported(
            &path.child("type"),
            other,
            &["Localhost", "RuntimeDefault", "Unconfined"],
        )),
    }
}

/// `IsValidSysctlName`: `(seg[./])*seg`, seg `[a-z0-9]([-_a-z0-9]*[a-z0-9])?`.
fn is_valid_sysctl_name(name: &str) -> bool {
    if name.len() > 253 {
        return false;
    }
    name.split(['.', '/']).all(|seg| {
        let b = seg.as_bytes();
        let edge = |c: &u8| c.is_ascii_lowercase() || c.is_ascii_digit();
        match (b.first(), b.last()) {
            (Some(f), Some(l)) => edge(f) && edge(l) && b.iter().all(|c| edge(c) || *c == b'-' || *c == b'_'),
            _ => false,
        }
    })
}

/// sysctl `GetNamespace` (`NormalizeName`, then the namespace tables): "Net", "IPC" or other.
fn sysctl_namespace(name: &str) -> &'static str {
    let mut n = String::from(name);
    if let Some(i) = name.find(['.', '/']) {
        if name.as_bytes().get(i) == Some(&b'/') {
            n = name
                .chars()
                .map(|c| {
                    if c == '.' {
                        '/'
                    } else if c == '/' {
                        '.'
                    } else {
                        c
                    }
                })
                .collect();
        }
    }
    if let Some(i) = n.find('*') {
        n.truncate(i);
    }
    const IPC: &[&str] = &[
        "kernel.sem",
        "kernel.shmall",
        "kernel.shmmax",
        "kernel.shmmni",
        "kernel.shm_rmid_forced",
        "kernel.shm",
        "kernel.msgmax",
        "kernel.msgmnb",
        "kernel.msgmni",
        "kernel.msg",
    ];
    if n == "kernel.domainname" {
        return "UTS";
    }
    if IPC.contains(&n.as_str()) {
        return "IPC";
    }
    if n.starts_with("net.") {
        "Net"
    } else if n.starts_with("fs.mqueue.") {
        "IPC"
    } else if n.starts_with("user.") {
        "User"
    } else {
        ""
    }
}

/// `validatePodSpecSecurityContext`.
pub fn validate_pod_security_context(spec: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let Some(sc) = get(spec, "securityContext") else { return };
    let max = i64::from(i32::MAX);
    for key in ["fsGroup", "runAsUser", "runAsGroup"] {
        if let Some(id) = int(sc, key).filter(|id| !(0..=max).contains(id)) {
            errors.push(Error::invalid(&path.child(key), id, inclusive_range(0, max)));
        }
    }
    for (g, gid) in list(sc, "supplementalGroups").iter().enumerate() {
        let gid = gid.as_i64().unwrap_or(0);
        if !(0..=max).contains(&gid) {
            errors.push(Error::invalid(&path.child("supplementalGroups").index(g), gid, inclusive_range(0, max)));
        }
    }
    let sysctls = list(sc, "sysctls");
    if !sysctls.is_empty() {
        let sp = path.child("sysctls");
        let mut names: Vec<&str> = Vec::new();
        for (i, s) in sysctls.iter().enumerate() {
            let at = sp.index(i);
            let np = at.child("name");
            let name = str(s, "name");
            if name.is_empty() {
                errors.push(required(&np, ""));
            } else if !is_valid_sysctl_name(name) {
                errors.push(Error::invalid(
                    &np,
                    name,
                    "must have at most 253 characters and match regex ^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$",
                ));
            } else if names.contains(&name) {
                errors.push(duplicate(&np, name));
            }
            let ns = sysctl_namespace(name);
            if jbool(spec, "hostNetwork") == Some(true) && ns == "Net" {
                errors.push(Error::invalid(&np, name, "may not be specified when 'hostNetwork' is true"));
            } else if jbool(spec, "hostIPC") == Some(true) && ns == "IPC" {
                errors.push(Error::invalid(&np, name, "may not be specified when 'hostIPC' is true"));
            }
            names.push(name);
        }
    }
    if let Some(p) = sc.get("fsGroupChangePolicy").and_then(Json::as_str) {
        if !["Always", "OnRootMismatch"].contains(&p) {
            errors.push(Error::not_supported(&path.child("fsGroupChangePolicy"), p, &["Always", "OnRootMismatch"]));
        }
    }
    validate_seccomp_profile_field(get(sc, "seccompProfile"), &path.child("seccompProfile"), errors);
    super::pod_os::validate_windows_options(sc, path, errors);
    validate_app_armor_field(get(sc, "appArmorProfile"), &path.child("appArmorProfile"), errors);
    if let Some(p) = sc.get("supplementalGroupsPolicy").and_then(Json::as_str) {
        if !["Merge", "Strict"].contains(&p) {
            errors.push(Error::not_supported(&path.child("supplementalGroupsPolicy"), p, &["Merge", "Strict"]));
        }
    }
    if let Some(p) = sc.get("seLinuxChangePolicy").and_then(Json::as_str) {
        if !["MountOption", "Recursive"].contains(&p) {
            errors.push(Error::not_supported(&path.child("seLinuxChangePolicy"), p, &["MountOption", "Recursive"]));
        }
    }
}

/// `validateShareProcessNamespace`.
pub fn validate_share_process_namespace(spec: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    if jbool(spec, "shareProcessNamespace") == Some(true) && jbool(spec, "hostPID") == Some(true) {
        errors.push(Error::invalid(
            &path.child("shareProcessNamespace"),
            true,
            "ShareProcessNamespace and HostPID cannot both be enabled",
        ));
    }
}

/// `validateHostUsers`.
pub fn validate_host_users(spec: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    if jbool(spec, "hostUsers") != Some(false) {
        return;
    }
    if jbool(spec, "hostNetwork") == Some(true) {
        errors.push(forbidden(&path.child("hostNetwork"), "when `hostUsers` is false"));
    }
    if jbool(spec, "hostPID") == Some(true) {
        errors.push(forbidden(&path.child("HostPID"), "when `hostUsers` is false"));
    }
    if jbool(spec, "hostIPC") == Some(true) {
        errors.push(forbidden(&path.child("HostIPC"), "when `hostUsers` is false"));
    }
    for (key, items) in [
        ("initContainers", list(spec, "initContainers")),
        ("containers", list(spec, "containers")),
        ("ephemeralContainers", list(spec, "ephemeralContainers")),
    ] {
        let kp = path.child(key);
        for (i, c) in items.iter().enumerate() {
            if !list(c, "volumeDevices").is_empty() {
                errors.push(forbidden(&kp.index(i).child("volumeDevices"), "when `hostUsers` is false"));
            }
        }
    }
}

/// `ValidateSeccompProfile`.
fn validate_seccomp_profile(p: &str, path: &Path<'_>, errors: &mut Vec<Error>) {
    if ["runtime/default", "docker/default", "unconfined"].contains(&p) {
        return;
    }
    if let Some(local) = p.strip_prefix("localhost/") {
        local_descending_path(local, path, errors);
        return;
    }
    errors.push(Error::invalid(path, p, "must be a valid seccomp profile"));
}

/// `ValidateSeccompPodAnnotations` and `ValidateAppArmorPodAnnotations`.
pub fn validate_pod_annotations(meta: &Json, spec: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let annotations = string_map(meta, "annotations");
    for (k, v) in &annotations {
        if *k == "seccomp.security.alpha.kubernetes.io/pod" {
            validate_seccomp_profile(v, &path.child(k), errors);
        }
    }
    for (k, v) in &annotations {
        if k.starts_with("container.seccomp.security.alpha.kubernetes.io/") {
            validate_seccomp_profile(v, &path.child(k), errors);
        }
    }
    for (k, v) in &annotations {
        let Some(name) = k.strip_prefix("container.apparmor.security.beta.kubernetes.io/") else { continue };
        let has = ["containers", "initContainers", "ephemeralContainers"]
            .iter()
            .any(|key| list(spec, key).iter().any(|c| str(c, "name") == name));
        if !has {
            errors.push(Error::invalid(&path.key(k), name, "container not found"));
        }
        if !(v.is_empty() || *v == "runtime/default" || *v == "unconfined" || v.starts_with("localhost/")) {
            let msg = format!("invalid AppArmor profile name: {}", crate::field::go_quote(v));
            errors.push(Error::invalid(&path.key(k), *v, msg));
        }
    }
    let _ = field;
}

const APPARMOR_PREFIX: &str = "container.apparmor.security.beta.kubernetes.io/";

/// An AppArmor profile as `Semantic.DeepEqual` compares it: its type and localhost profile.
type AppArmor<'a> = (&'a str, Option<&'a str>);

fn app_armor_of(profile: Option<&Json>) -> Option<AppArmor<'_>> {
    profile.filter(|p| !p.is_null()).map(|p| (str(p, "type"), p.get("localhostProfile").and_then(Json::as_str)))
}

/// `ApparmorFieldForAnnotation`: the profile a deprecated annotation value names, if any.
fn app_armor_for_annotation(annotation: &str) -> Option<AppArmor<'_>> {
    match annotation {
        "unconfined" => Some(("Unconfined", None)),
        "runtime/default" => Some(("RuntimeDefault", None)),
        _ => annotation.strip_prefix("localhost/").filter(|l| !l.is_empty()).map(|l| ("Localhost", Some(l))),
    }
}

/// The `appArmorProfile` of a container's or the pod's security context.
fn app_armor_profile(holder: &Json) -> Option<&Json> {
    get(field(holder, "securityContext"), "appArmorProfile")
}

/// `validateSeccompAnnotationsAndFields` and `validateAppArmorAnnotationsAndFieldsMatchOnCreate`
/// (`ValidatePodCreate`, `ValidatePodTemplateSpec`): where a deprecated annotation and its field
/// are both set, they must agree.
pub fn validate_annotations_and_fields(meta: &Json, spec: &Json, spec_path: &Path<'_>, errors: &mut Vec<Error>) {
    let annotations = string_map(meta, "annotations");
    let annotation = |k: &str| annotations.iter().find(|(key, _)| *key == k).map(|(_, v)| *v);
    let containers = super::pod_os::containers_with_path(spec);
    if let Some(field) = get(field(spec, "securityContext"), "seccompProfile") {
        if let Some(a) = annotation("seccomp.security.alpha.kubernetes.io/pod") {
            let sc = spec_path.child("securityContext");
            seccomp_match(a, field, &sc.child("seccompProfile"), errors);
        }
    }
    for (key, i, c) in &containers {
        let Some(field) = get(field(c, "securityContext"), "seccompProfile") else { continue };
        let name = str(c, "name");
        if let Some(a) = annotation(&format!("container.seccomp.security.alpha.kubernetes.io/{name}")) {
            let cp = spec_path.child(key);
            let cp = cp.index(*i);
            let sc = cp.child("securityContext");
            seccomp_match(a, field, &sc.child("seccompProfile"), errors);
        }
    }
    if str(field(spec, "os"), "name") == "windows" {
        return;
    }
    let pod_profile = app_armor_profile(spec);
    for (key, i, c) in &containers {
        let Some(profile) = app_armor_profile(c).or(pod_profile) else { continue };
        let Some(a) = annotation(&format!("{APPARMOR_PREFIX}{}", str(c, "name"))) else { continue };
        let cp = spec_path.child(key);
        let cp = cp.index(*i);
        let sc = cp.child("securityContext");
        let at = sc.child("appArmorProfile");
        let type_mismatch = || forbidden(&at.child("type"), "apparmor type in annotation and field must match");
        match str(profile, "type") {
            "Unconfined" if a != "unconfined" => errors.push(type_mismatch()),
            "RuntimeDefault" if a != "runtime/default" => errors.push(type_mismatch()),
            "Localhost" => match a.strip_prefix("localhost/") {
                None => errors.push(type_mismatch()),
                Some(l) if profile.get("localhostProfile").and_then(Json::as_str) != Some(l) => errors.push(forbidden(
                    &at.child("localhostProfile"),
                    "apparmor profile in annotation and field must match",
                )),
                Some(_) => {}
            },
            _ => {}
        }
    }
}

/// `validateSeccompAnnotationsAndFieldsMatch`.
fn seccomp_match(annotation: &str, profile: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let type_mismatch = || forbidden(&path.child("type"), "seccomp type in annotation and field must match");
    match str(profile, "type") {
        "Unconfined" if annotation != "unconfined" => errors.push(type_mismatch()),
        "RuntimeDefault" if annotation != "runtime/default" && annotation != "docker/default" => {
            errors.push(type_mismatch())
        }
        "Localhost" => match annotation.strip_prefix("localhost/") {
            None => errors.push(type_mismatch()),
            Some(l) if profile.get("localhostProfile").and_then(Json::as_str) != Some(l) => errors
                .push(forbidden(&path.child("localhostProfile"), "seccomp profile in annotation and field must match")),
            Some(_) => {}
        },
        _ => {}
    }
}

/// `applyAppArmorVersionSkew` (the pod strategy's `PrepareForCreate`), read only: the fields a
/// container's deprecated AppArmor annotation without its field becomes (when valid and not
/// the pod's own profile; set them with [`apply_app_armor_fields`]), and the API server's
/// warnings (an annotation no valid field comes from is warned about too). Windows pods are
/// left alone.
pub fn app_armor_version_skew(pod: &Json) -> (Vec<AppArmorField>, Vec<String>) {
    let (mut set, mut warnings) = (Vec::new(), Vec::new());
    let spec = field(pod, "spec");
    if str(field(spec, "os"), "name") == "windows" {
        return (set, warnings);
    }
    let annotations = string_map(field(pod, "metadata"), "annotations");
    let pod_profile = app_armor_of(app_armor_profile(spec));
    for (key, i, c) in super::pod_os::containers_with_path(spec) {
        let annotation_key = format!("{APPARMOR_PREFIX}{}", str(c, "name"));
        let Some((_, a)) = annotations.iter().find(|(k, _)| **k == annotation_key) else { continue };
        if app_armor_profile(c).is_some() {
            continue;
        }
        // The field the annotation names, when it is valid (`ValidateAppArmorProfileField`).
        let new = app_armor_for_annotation(a).filter(|&(t, l)| {
            let profile = serde_json::json!({"type": t, "localhostProfile": l});
            let mut errs = Vec::new();
            validate_app_armor_field(Some(&profile), &Path::named(""), &mut errs);
            errs.is_empty()
        });
        let mut warn = new.is_none();
        if let Some((t, l)) = new.filter(|n| Some(*n) != pod_profile) {
            let mut profile = serde_json::Map::new();
            profile.insert(String::from("type"), Json::from(t));
            if let Some(l) = l {
                profile.insert(String::from("localhostProfile"), Json::from(l));
            }
            set.push((key, i, Json::Object(profile)));
            warn = true;
        }
        if warn {
            warnings.push(format!(
                "metadata.annotations[{annotation_key}]: deprecated since v1.30; use the \"appArmorProfile\" field instead"
            ));
        }
    }
    (set, warnings)
}

/// A container's `appArmorProfile` that [`app_armor_version_skew`] derives from its annotation:
/// the container list, its index, the profile.
pub type AppArmorField = (&'static str, usize, Json);

/// Sets the fields [`app_armor_version_skew`] derived.
pub fn apply_app_armor_fields(pod: &mut Json, fields: Vec<AppArmorField>) {
    for (key, i, profile) in fields {
        let Some(Json::Object(c)) = pod.get_mut("spec").and_then(|s| s.get_mut(key)).and_then(|l| l.get_mut(i)) else {
            continue;
        };
        let sc = c.entry("securityContext").or_insert_with(|| Json::Object(serde_json::Map::new()));
        if sc.is_null() {
            *sc = Json::Object(serde_json::Map::new());
        }
        if let Json::Object(sc) = sc {
            sc.insert(String::from("appArmorProfile"), profile);
        }
    }
}

/// Whether a template's container gets the AppArmor deprecation warning of
/// `warningsForPodSpecAndMeta` (a pod's comes from [`app_armor_version_skew`]): its
/// annotation is set without its field, and does not name the pod's own profile.
pub fn template_app_armor_warns(spec: &Json, meta: &Json, container: &Json) -> bool {
    if app_armor_profile(container).is_some() {
        return false;
    }
    let key = format!("{APPARMOR_PREFIX}{}", str(container, "name"));
    let annotations = string_map(meta, "annotations");
    let Some((_, a)) = annotations.iter().find(|(k, _)| **k == key) else { return false };
    let pod_profile = app_armor_of(app_armor_profile(spec));
    pod_profile.is_none() || pod_profile != app_armor_for_annotation(a)
}

/// `ValidateSecurityContext` (privileged containers allowed: `--allow-privileged=true`).
pub fn validate_security_context(sc: &Json, host_users: bool, path: &Path<'_>, errors: &mut Vec<Error>) {
    for key in ["runAsUser", "runAsGroup"] {
        if let Some(id) = int(sc, key) {
            if !(0..=i64::from(i32::MAX)).contains(&id) {
                errors.push(Error::invalid(&path.child(key), id, inclusive_range(0, i64::from(i32::MAX))));
            }
        }
    }
    if let Some(pm) = sc.get("procMount").and_then(Json::as_str) {
        let p = path.child("procMount");
        if !["Default", "Unmasked"].contains(&pm) {
            errors.push(Error::not_supported(&p, pm, &["Default", "Unmasked"]));
        }
        if host_users && pm == "Unmasked" {
            errors.push(Error::invalid(&p, pm, "`hostUsers` must be false to use `Unmasked`"));
        }
    }
    validate_seccomp_profile_field(get(sc, "seccompProfile"), &path.child("seccompProfile"), errors);
    if sc.get("allowPrivilegeEscalation").and_then(Json::as_bool) == Some(false) {
        if sc.get("privileged").and_then(Json::as_bool) == Some(true) {
            errors.push(sc_error(path, sc, "cannot set `allowPrivilegeEscalation` to false and `privileged` to true"));
        }
        for cap in list(field(sc, "capabilities"), "add") {
            if cap.as_str() == Some("CAP_SYS_ADMIN") {
                errors.push(sc_error(
                    path,
                    sc,
                    "cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN",
                ));
            }
        }
    }
    super::pod_os::validate_windows_options(sc, path, errors);
    validate_app_armor_field(get(sc, "appArmorProfile"), &path.child("appArmorProfile"), errors);
}
