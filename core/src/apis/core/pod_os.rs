//! OS-specific rules of a PodSpec, after `pkg/apis/core/validation/validation.go`:
//! `validateOS`, `validateLinux`, `validateWindows`, `validateWindowsHostProcessPod`,
//! `validateWindowsSecurityContextOptions` (the container's and the pod's
//! `windowsOptions`), and `validatePodResourceClaims` / `validatePodResourceClaim`.

use alloc::format;
use alloc::vec::Vec;

use serde_json::Value as Json;

use super::super::json::{bool as jbool, field, get, list, str};
use super::pod_common::*;
use super::pod_gojson::marshal_struct;
use crate::field::{Error, Path};

/// Every container of a spec with its path, in `VisitContainersWithPath`'s order (init,
/// regular, ephemeral).
pub fn containers_with_path(spec: &Json) -> Vec<(&'static str, usize, &Json)> {
    let mut out = Vec::new();
    for key in ["initContainers", "containers", "ephemeralContainers"] {
        for (i, c) in list(spec, key).iter().enumerate() {
            out.push((key, i, c));
        }
    }
    out
}

/// `validateOS`, then `validateLinux` or `validateWindows` when the name is valid.
pub fn validate_os(spec: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let Some(os) = get(spec, "os") else { return };
    let osp = path.child("os");
    let name = str(os, "name");
    if name.is_empty() {
        errors.push(required(&osp.child("name"), ""));
        return;
    }
    match name {
        "linux" => validate_linux(spec, path, errors),
        "windows" => validate_windows(spec, path, errors),
        other => {
            let mut e = Error::not_supported(&osp, other, &["linux", "windows"]);
            e.rendered_value = Some(crate::field::go_json(&Json::from(other)));
            errors.push(e);
        }
    }
}

/// `validateLinux`.
fn validate_linux(spec: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    const MSG: &str = "windows options cannot be set for a linux pod";
    if get(field(spec, "securityContext"), "windowsOptions").is_some() {
        errors.push(forbidden(&path.child("securityContext").child("windowsOptions"), MSG));
    }
    for (key, i, c) in containers_with_path(spec) {
        if get(field(c, "securityContext"), "windowsOptions").is_some() {
            let kp = path.child(key);
            let cp = kp.index(i);
            errors.push(forbidden(&cp.child("securityContext").child("windowsOptions"), MSG));
        }
    }
}

/// `validateWindows`.
fn validate_windows(spec: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    const MSG: &str = "cannot be set for a windows pod";
    if let Some(sc) = get(spec, "securityContext") {
        let sp = path.child("securityContext");
        for (key, shown) in [
            ("appArmorProfile", "appArmorProfile"),
            ("seLinuxOptions", "seLinuxOptions"),
            ("seccompProfile", "seccompProfile"),
            ("fsGroup", "fsGroup"),
            ("fsGroupChangePolicy", "fsGroupChangePolicy"),
        ] {
            if get(sc, key).is_some() {
                errors.push(forbidden(&sp.child(shown), MSG));
            }
        }
        if !list(sc, "sysctls").is_empty() {
            errors.push(forbidden(&sp.child("sysctls"), MSG));
        }
        for key in ["runAsUser", "runAsGroup", "supplementalGroups", "supplementalGroupsPolicy", "seLinuxChangePolicy"]
        {
            if get(sc, key).is_some() {
                errors.push(forbidden(&sp.child(key), MSG));
            }
        }
    }
    if get(spec, "hostUsers").is_some() {
        errors.push(forbidden(&path.child("hostUsers"), MSG));
    }
    if jbool(spec, "hostPID") == Some(true) {
        errors.push(forbidden(&path.child("hostPID"), MSG));
    }
    if jbool(spec, "hostIPC") == Some(true) {
        errors.push(forbidden(&path.child("hostIPC"), MSG));
    }
    if get(spec, "shareProcessNamespace").is_some() {
        errors.push(forbidden(&path.child("shareProcessNamespace"), MSG));
    }
    for (key, i, c) in containers_with_path(spec) {
        let Some(sc) = get(c, "securityContext") else { continue };
        let kp = path.child(key);
        let cp = kp.index(i);
        let sp = cp.child("securityContext");
        for k in [
            "appArmorProfile",
            "seLinuxOptions",
            "seccompProfile",
            "capabilities",
            "readOnlyRootFilesystem",
            "privileged",
            "allowPrivilegeEscalation",
            "procMount",
            "runAsUser",
            "runAsGroup",
        ] {
            if get(sc, k).is_some() {
                errors.push(forbidden(&sp.child(k), MSG));
            }
        }
    }
}

/// `validateWindowsHostProcessPod` (privileged containers allowed).
pub fn validate_windows_host_process_pod(spec: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let pod_hp = field(field(spec, "securityContext"), "windowsOptions").get("hostProcess").and_then(Json::as_bool);
    let host_network = jbool(spec, "hostNetwork") == Some(true);
    let (mut count, mut hp_count) = (0usize, 0usize);
    for (key, i, c) in containers_with_path(spec) {
        count += 1;
        let ctr_hp = field(field(c, "securityContext"), "windowsOptions").get("hostProcess").and_then(Json::as_bool);
        if let (Some(p), Some(h)) = (pod_hp, ctr_hp) {
            if p != h {
                let kp = path.child(key);
                let cp = kp.index(i);
                let sp = cp.child("securityContext");
                let wp = sp.child("windowsOptions");
                let msg = format!("pod hostProcess value must be identical if both are specified, was {p}");
                errors.push(Error::invalid(&wp.child("hostProcess"), h, msg));
            }
        }
        if ctr_hp == Some(true) || (ctr_hp.is_none() && pod_hp == Some(true)) {
            hp_count += 1;
        }
    }
    if hp_count > 0 {
        if hp_count != count {
            errors.push(Error::invalid(
                path,
                "",
                "If pod contains any hostProcess containers then all containers must be HostProcess containers",
            ));
        }
        if !host_network {
            errors.push(Error::invalid(
                &path.child("hostNetwork"),
                false,
                "hostNetwork must be true if pod contains any hostProcess containers",
            ));
        }
    }
}

/// A `field.Invalid` whose value is a `*string` (`json.Marshal`: the quoted string).
fn invalid_ptr(path: &Path<'_>, value: &str, detail: &str) -> Error {
    let mut e = Error::invalid(path, value, detail);
    e.rendered_value = Some(crate::field::go_json(&Json::from(value)));
    e
}

/// `validNetBiosRegex`: `^[^\\/:\*\?"<>|\.][^\\/:\*\?"<>|]{0,14}$`.
fn is_netbios(domain: &str) -> bool {
    let bad = |c: char| matches!(c, '\\' | '/' | ':' | '*' | '?' | '"' | '<' | '>' | '|');
    let mut chars = domain.chars();
    match chars.next() {
        Some(first) if !bad(first) && first != '.' => {}
        _ => return false,
    }
    let rest: Vec<char> = chars.collect();
    rest.len() <= 14 && rest.iter().all(|c| !bad(*c))
}

/// `validWindowsUserDomainDNSRegex`.
fn is_windows_dns_domain(domain: &str) -> bool {
    domain.split('.').all(|label| {
        let b = label.as_bytes();
        let edge = |c: &u8| c.is_ascii_alphanumeric();
        match (b.first(), b.last()) {
            (Some(f), Some(l)) => {
                edge(f) && edge(l) && b.len() <= 63 && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'-')
            }
            _ => false,
        }
    })
}

/// `validateWindowsSecurityContextOptions`.
pub fn validate_windows_options(sc: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let Some(wo) = get(sc, "windowsOptions") else { return };
    let path = path.child("windowsOptions");
    if let Some(name) = wo.get("gmsaCredentialSpecName").and_then(Json::as_str) {
        for msg in is_dns1123_subdomain(name) {
            errors.push(invalid_ptr(&path.child("gmsaCredentialSpecName"), name, &msg));
        }
    }
    if let Some(spec) = wo.get("gmsaCredentialSpec").and_then(Json::as_str) {
        let gp = path.child("gmsaCredentialSpec");
        if spec.is_empty() {
            errors.push(invalid_ptr(&gp, spec, "gmsaCredentialSpec cannot be an empty string"));
        } else if spec.len() > 64 * 1024 {
            errors.push(invalid_ptr(&gp, spec, "gmsaCredentialSpec size must be under 64 KiB"));
        }
    }
    let Some(name) = wo.get("runAsUserName").and_then(Json::as_str) else { return };
    let rp = path.child("runAsUserName");
    let parts: Vec<&str> = name.split('\\').collect();
    if name.is_empty() {
        errors.push(invalid_ptr(&rp, name, "runAsUserName cannot be an empty string"));
    } else if name.chars().any(|c| c.is_ascii_control()) {
        errors.push(invalid_ptr(&rp, name, "runAsUserName cannot contain control characters"));
    } else if parts.len() > 2 {
        errors.push(invalid_ptr(&rp, name, "runAsUserName cannot contain more than one backslash"));
    } else {
        let (has_domain, domain, user) = match parts.as_slice() {
            [d, u] => (true, *d, *u),
            [u] => (false, "", *u),
            _ => (false, "", ""),
        };
        if domain.len() >= 256 {
            errors.push(invalid_ptr(&rp, name, "runAsUserName's Domain length must be under 256 characters"));
        }
        if has_domain && !(is_netbios(domain) || is_windows_dns_domain(domain)) {
            errors.push(invalid_ptr(&rp, name, "runAsUserName's Domain doesn't match the NetBios nor the DNS format"));
        }
        if user.is_empty() {
            errors.push(invalid_ptr(&rp, name, "runAsUserName's User cannot be empty"));
        } else if user.len() > 104 {
            errors.push(invalid_ptr(&rp, name, "runAsUserName's User length must not be longer than 104 characters"));
        }
        if !user.is_empty() && user.chars().all(|c| c == '.' || c == ' ') {
            errors.push(invalid_ptr(&rp, name, "runAsUserName's User cannot contain only periods or spaces"));
        }
        if user.chars().any(|c| "\"/\\:;|=,+*?<>@[]".contains(c)) {
            errors.push(invalid_ptr(
                &rp,
                name,
                "runAsUserName's User cannot contain the following characters: \"/\\:;|=,+*?<>@[]",
            ));
        }
    }
}

/// `validatePodResourceClaims` (`pod_meta`: the pod's metadata; `None` for templates).
pub fn validate_pod_resource_claims(spec: &Json, pod_meta: Option<&Json>, path: &Path<'_>, errors: &mut Vec<Error>) {
    let mut names: Vec<&str> = Vec::new();
    for (i, claim) in list(spec, "resourceClaims").iter().enumerate() {
        if let Some(meta) = pod_meta {
            if field(meta, "annotations").get("kubernetes.io/config.mirror").is_some() {
                // field.NewPath("") prints as "[]".
                let root = Path::root();
                errors.push(forbidden(&root.key(""), "static pods do not support resource claims"));
                continue;
            }
        }
        let at = path.index(i);
        let name = str(claim, "name");
        if name.is_empty() {
            errors.push(required(&at.child("name"), ""));
        } else if names.contains(&name) {
            errors.push(duplicate(&at.child("name"), name));
        } else {
            validate_dns1123_label(name, &at.child("name"), errors);
            names.push(name);
        }
        let claim_name = claim.get("resourceClaimName").and_then(Json::as_str);
        let template_name = claim.get("resourceClaimTemplateName").and_then(Json::as_str);
        let struct_error = |detail: &str| {
            let mut e = Error::invalid(&at, claim.clone(), detail);
            e.rendered_value = Some(marshal_struct(Some(claim), "PodResourceClaim"));
            e
        };
        if claim_name.is_some() && template_name.is_some() {
            errors.push(struct_error(
                "at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified",
            ));
        }
        if claim_name.is_none() && template_name.is_none() {
            errors.push(struct_error("must specify one of: `resourceClaimName`, `resourceClaimTemplateName`"));
        }
        for (key, value) in [("resourceClaimName", claim_name), ("resourceClaimTemplateName", template_name)] {
            if let Some(v) = value {
                for msg in is_dns1123_subdomain(v) {
                    errors.push(Error::invalid(&at.child(key), v, msg));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::String;
    use serde_json::json;

    fn run(spec: Json, f: fn(&Json, &Path<'_>, &mut Vec<Error>)) -> Vec<String> {
        let mut errors = Vec::new();
        f(&spec, &Path::named("spec"), &mut errors);
        errors.iter().map(Error::text).collect()
    }

    // TestValidateOSFields / TestValidateWindowsPodSecurityContext.
    #[test]
    fn os_rules() {
        assert_eq!(
            run(json!({"os": {"name": "dos"}}), validate_os),
            ["spec.os: Unsupported value: \"dos\": supported values: \"linux\", \"windows\""]
        );
        assert_eq!(
            run(json!({"os": {"name": "linux"}, "containers": [{"securityContext": {"windowsOptions": {}}}]}), validate_os),
            ["spec.containers[0].securityContext.windowsOptions: Forbidden: windows options cannot be set for a linux pod"]
        );
        assert_eq!(
            run(
                json!({"os": {"name": "windows"}, "hostPID": true, "securityContext": {"runAsUser": 1},
                    "containers": [{"securityContext": {"privileged": false}}]}),
                validate_os
            ),
            [
                "spec.securityContext.runAsUser: Forbidden: cannot be set for a windows pod",
                "spec.hostPID: Forbidden: cannot be set for a windows pod",
                "spec.containers[0].securityContext.privileged: Forbidden: cannot be set for a windows pod",
            ]
        );
    }

    // TestValidateWindowsHostProcessPod.
    #[test]
    fn host_process() {
        let spec = json!({"securityContext": {"windowsOptions": {"hostProcess": true}},
            "containers": [{"name": "a"}, {"name": "b", "securityContext": {"windowsOptions": {"hostProcess": false}}}]});
        assert_eq!(
            run(spec, validate_windows_host_process_pod),
            [
                "spec.containers[1].securityContext.windowsOptions.hostProcess: Invalid value: false: pod hostProcess value must be identical if both are specified, was true",
                "spec: Invalid value: \"\": If pod contains any hostProcess containers then all containers must be HostProcess containers",
                "spec.hostNetwork: Invalid value: false: hostNetwork must be true if pod contains any hostProcess containers",
            ]
        );
    }

    // TestValidateWindowsSecurityContextOptions.
    #[test]
    fn windows_options() {
        let sc = |name: &str| {
            let mut errors = Vec::new();
            validate_windows_options(
                &json!({"windowsOptions": {"runAsUserName": name}}),
                &Path::named("sc"),
                &mut errors,
            );
            errors.iter().map(Error::text).collect::<Vec<_>>()
        };
        assert!(sc("Container. User").is_empty());
        assert!(sc("NT AUTHORITY\\NETWORK SERVICE").is_empty());
        assert_eq!(sc("a\\b\\c"), ["sc.windowsOptions.runAsUserName: Invalid value: \"a\\\\b\\\\c\": runAsUserName cannot contain more than one backslash"]);
        assert_eq!(sc(".."), ["sc.windowsOptions.runAsUserName: Invalid value: \"..\": runAsUserName's User cannot contain only periods or spaces"]);
        assert_eq!(
            sc("user@x"),
            ["sc.windowsOptions.runAsUserName: Invalid value: \"user@x\": runAsUserName's User cannot contain the following characters: \"/\\:;|=,+*?<>@[]"]
        );
    }

    // TestValidatePodSpec (resourceClaims).
    #[test]
    fn resource_claims() {
        let spec = json!({"resourceClaims": [{"name": "a", "resourceClaimName": "x", "resourceClaimTemplateName": "y"}, {"name": "a"}]});
        let mut errors = Vec::new();
        validate_pod_resource_claims(&spec, None, &Path::named("spec").child("resourceClaims"), &mut errors);
        let texts: Vec<String> = errors.iter().map(Error::text).collect();
        assert_eq!(
            texts,
            [
                "spec.resourceClaims[0]: Invalid value: {\"Name\":\"a\",\"ResourceClaimName\":\"x\",\"ResourceClaimTemplateName\":\"y\"}: at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified",
                "spec.resourceClaims[1].name: Duplicate value: \"a\"",
                "spec.resourceClaims[1]: Invalid value: {\"Name\":\"a\",\"ResourceClaimName\":null,\"ResourceClaimTemplateName\":null}: must specify one of: `resourceClaimName`, `resourceClaimTemplateName`",
            ]
        );
    }
}
