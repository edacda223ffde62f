//! Containers of a PodSpec, after `pkg/apis/core/validation/validation.go`:
//! `validateContainers`, `validateInitContainers`, `validateEphemeralContainers` (the
//! checks of each container; a Pod create refuses them anyway), `validateContainerCommon`,
//! `validateContainerOnlyForPod`, `validateContainerPorts`, `ValidateEnv`,
//! `validateEnvVarValueFrom`, `validateObjectFieldSelector`,
//! `validateContainerResourceFieldSelector`, `validateContainerResourceDivisor`,
//! `ValidateEnvFrom`, the key selectors, `ValidateVolumeMounts`, `ValidateVolumeDevices`,
//! `validateMountPropagation`, `validateMountRecursiveReadOnly`, `validateBindMountOptions`,
//! probes and handlers (`validateProbe`, `validateHandler`, `validateHTTPGetAction`,
//! `ValidatePortNumOrName`, `validateGRPCAction`, `validateSleepAction`), `validateLifecycle`,
//! `validateStopSignal`, `validatePullPolicy`, `validateResizePolicy`,
//! `validateContainerRestartPolicy`, `validateInitContainerRestartPolicy`,
//! `AccumulateUniqueHostPorts`; resources are in [`super::pod_container_resources`] and
//! `ValidateSecurityContext` in [`super::pod_security`].
//!
//! Options are those of a create at Kubernetes 1.37 defaults (`PodValidationOptions` from
//! `GetValidationOptionsFromPodSpecAndMeta`): relaxed env names, env files, container restart
//! rules with RestartAllContainers, sidecar resize policies allowed.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value as Json;

use super::super::json::{field, get, int, list, str};
use super::super::quantity;
use super::pod_common::*;
pub use super::pod_container_resources::validate_resource_requirements;
use super::pod_security::validate_security_context;
use crate::field::{Error, Path};

/// The volumes `ValidateVolumes` accepted, by name.
pub type Volumes<'a> = Vec<(&'a str, &'a Json)>;

/// What every container check of one PodSpec shares.
pub struct Spec<'a> {
    /// `spec.os.name` (`None`: no `os`).
    pub os: Option<&'a str>,
    /// The accepted volumes.
    pub volumes: Volumes<'a>,
    /// `spec.resourceClaims[*].name`.
    pub claim_names: Vec<&'a str>,
    /// `spec.terminationGracePeriodSeconds`.
    pub grace: Option<i64>,
    /// `spec.restartPolicy`.
    pub restart_policy: &'a str,
    /// `hostUsers` (default true).
    pub host_users: bool,
}

fn volume<'a>(spec: &Spec<'a>, name: &str) -> Option<&'a Json> {
    spec.volumes.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
}

/// `validateContainers`.
pub fn validate_containers(containers: &[Json], spec: &Spec<'_>, path: &Path<'_>, errors: &mut Vec<Error>) {
    if containers.is_empty() {
        errors.push(required(path, ""));
        return;
    }
    let mut names: Vec<&str> = Vec::new();
    for (i, ctr) in containers.iter().enumerate() {
        let at = path.index(i);
        validate_container_common(ctr, spec, &at, errors);
        let name = str(ctr, "name");
        if names.contains(&name) {
            errors.push(duplicate(&at.child("name"), name));
        } else {
            names.push(name);
        }
        if let Some(lifecycle) = get(ctr, "lifecycle") {
            validate_lifecycle(lifecycle, spec, &at.child("lifecycle"), errors);
        }
        probes(ctr, spec, &at, errors);
        validate_container_restart_policy(ctr, &at, errors);
    }
    check_host_port_conflicts(containers, path, errors);
}

fn probes(ctr: &Json, spec: &Spec<'_>, at: &Path<'_>, errors: &mut Vec<Error>) {
    for key in ["livenessProbe", "readinessProbe", "startupProbe"] {
        let Some(probe) = get(ctr, key) else { continue };
        let p = at.child(key);
        validate_probe(probe, spec.grace, &p, errors);
        if key != "readinessProbe" {
            let st = int(probe, "successThreshold").unwrap_or(0);
            if st != 1 {
                errors.push(Error::invalid(&p.child("successThreshold"), st, "must be 1"));
            }
        } else if let Some(t) = int(probe, "terminationGracePeriodSeconds") {
            errors.push(Error::invalid(
                &p.child("terminationGracePeriodSeconds"),
                t,
                "must not be set for readinessProbes",
            ));
        }
    }
}

/// `validateInitContainers`.
pub fn validate_init_containers(
    containers: &[Json],
    regular: &[Json],
    spec: &Spec<'_>,
    path: &Path<'_>,
    errors: &mut Vec<Error>,
) {
    let mut names: Vec<&str> = regular.iter().map(|c| str(c, "name")).collect();
    for (i, ctr) in containers.iter().enumerate() {
        let at = path.index(i);
        validate_container_common(ctr, spec, &at, errors);
        let policy = get(ctr, "restartPolicy").and_then(Json::as_str);
        // validateInitContainerRestartPolicy (ContainerRestartRules and
        // RestartAllContainers on).
        match policy {
            None => {
                if !list(ctr, "restartPolicyRules").is_empty() {
                    errors.push(required(
                        &at.child("restartPolicy"),
                        "must specify restartPolicy when restart rules are used",
                    ));
                }
            }
            Some(_) => validate_container_restart_policy(ctr, &at, errors),
        }
        let restart_always = policy == Some("Always");
        let name = str(ctr, "name");
        if names.contains(&name) {
            errors.push(duplicate(&at.child("name"), name));
        } else if !name.is_empty() {
            names.push(name);
        }
        check_host_port_conflicts(core::slice::from_ref(ctr), path, errors);
        if restart_always {
            if let Some(lifecycle) = get(ctr, "lifecycle") {
                validate_lifecycle(lifecycle, spec, &at.child("lifecycle"), errors);
            }
            probes(ctr, spec, &at, errors);
        } else {
            for key in ["lifecycle", "livenessProbe", "readinessProbe", "startupProbe"] {
                if get(ctr, key).is_some() {
                    errors.push(forbidden(
                        &at.child(key),
                        "may not be set for init containers without restartPolicy=Always",
                    ));
                }
            }
        }
        // AllowSidecarResizePolicy is on (InPlacePodVerticalScaling).
        if !restart_always {
            for (j, p) in list(ctr, "resizePolicy").iter().enumerate() {
                if str(p, "restartPolicy") == "RestartContainer" {
                    errors.push(Error::invalid(
                        &path.index(i).child("resizePolicy").index(j).child("restartPolicy"),
                        "RestartContainer",
                        "must not be set to 'RestartContainer' for non-sidecar initContainers",
                    ));
                }
            }
        }
    }
}

/// `validateContainerCommon`.
pub fn validate_container_common(ctr: &Json, spec: &Spec<'_>, path: &Path<'_>, errors: &mut Vec<Error>) {
    let name = str(ctr, "name");
    let name_path = path.child("name");
    if name.is_empty() {
        errors.push(required(&name_path, ""));
    } else {
        validate_dns1123_label(name, &name_path, errors);
    }
    if str(ctr, "image").is_empty() {
        errors.push(required(&path.child("image"), ""));
    }
    let tmp = str(ctr, "terminationMessagePolicy");
    match tmp {
        "File" | "FallbackToLogsOnError" => {}
        "" => errors.push(required(&path.child("terminationMessagePolicy"), "")),
        other => errors.push(Error::not_supported(
            &path.child("terminationMessagePolicy"),
            other,
            &["File", "FallbackToLogsOnError"],
        )),
    }
    validate_container_ports(list(ctr, "ports"), &path.child("ports"), errors);
    validate_env(list(ctr, "env"), &path.child("env"), errors);
    validate_env_from(list(ctr, "envFrom"), &path.child("envFrom"), errors);
    validate_volume_mounts(ctr, spec, &path.child("volumeMounts"), errors);
    validate_volume_devices(ctr, spec, &path.child("volumeDevices"), errors);
    let policy = str(ctr, "imagePullPolicy");
    let pp = path.child("imagePullPolicy");
    match policy {
        "Always" | "IfNotPresent" | "Never" => {}
        "" => errors.push(required(&pp, "")),
        other => errors.push(Error::not_supported(&pp, other, &["Always", "IfNotPresent", "Never"])),
    }
    validate_resource_requirements(
        field(ctr, "resources"),
        Some(&spec.claim_names),
        false,
        &path.child("resources"),
        errors,
    );
    validate_resize_policy(list(ctr, "resizePolicy"), spec.restart_policy, &path.child("resizePolicy"), errors);
    if let Some(sc) = get(ctr, "securityContext") {
        validate_security_context(sc, spec.host_users, &path.child("securityContext"), errors);
    }
}

/// `validateContainerOnlyForPod`.
pub fn validate_container_only_for_pod(ctr: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let image = str(ctr, "image");
    if image.len() != image.trim().len() {
        errors.push(Error::invalid(&path.child("image"), image, "must not have leading or trailing whitespace"));
    }
}

/// `validateContainerPorts`.
fn validate_container_ports(ports: &[Json], path: &Path<'_>, errors: &mut Vec<Error>) {
    let mut names: Vec<&str> = Vec::new();
    for (i, port) in ports.iter().enumerate() {
        let at = path.index(i);
        let name = str(port, "name");
        if !name.is_empty() {
            let msgs = is_valid_port_name(name);
            if !msgs.is_empty() {
                for msg in msgs {
                    errors.push(Error::invalid(&at.child("name"), name, msg));
                }
            } else if names.contains(&name) {
                errors.push(duplicate(&at.child("name"), name));
            } else {
                names.push(name);
            }
        }
        let cp = int(port, "containerPort").unwrap_or(0);
        if cp == 0 {
            errors.push(required(&at.child("containerPort"), ""));
        } else {
            for msg in is_valid_port_num(cp) {
                errors.push(Error::invalid(&at.child("containerPort"), cp, msg));
            }
        }
        let hp = int(port, "hostPort").unwrap_or(0);
        if hp != 0 {
            for msg in is_valid_port_num(hp) {
                errors.push(Error::invalid(&at.child("hostPort"), hp, msg));
            }
        }
        let protocol = str(port, "protocol");
        if protocol.is_empty() {
            errors.push(required(&at.child("protocol"), ""));
        } else if !["SCTP", "TCP", "UDP"].contains(&protocol) {
            errors.push(Error::not_supported(&at.child("protocol"), protocol, &["SCTP", "TCP", "UDP"]));
        }
    }
}

/// `AccumulateUniqueHostPorts` over one list (`checkHostPortConflicts`).
fn check_host_port_conflicts(containers: &[Json], path: &Path<'_>, errors: &mut Vec<Error>) {
    let mut seen: Vec<String> = Vec::new();
    for (ci, ctr) in containers.iter().enumerate() {
        let at = path.index(ci);
        let ports_path = at.child("ports");
        for (pi, port) in list(ctr, "ports").iter().enumerate() {
            let hp = int(port, "hostPort").unwrap_or(0);
            if hp == 0 {
                continue;
            }
            let key = format!("{}/{}/{}", str(port, "protocol"), str(port, "hostIP"), hp);
            if seen.contains(&key) {
                errors.push(duplicate(&ports_path.index(pi).child("hostPort"), key));
            } else {
                seen.push(key);
            }
        }
    }
}

/// `ValidateEnv` (relaxed names: RelaxedEnvironmentVariableValidation is GA).
fn validate_env(vars: &[Json], path: &Path<'_>, errors: &mut Vec<Error>) {
    for (i, ev) in vars.iter().enumerate() {
        let at = path.index(i);
        let name = str(ev, "name");
        if name.is_empty() {
            errors.push(required(&at.child("name"), ""));
        } else {
            for msg in is_relaxed_env_var_name(name) {
                errors.push(Error::invalid(&at.child("name"), name, msg));
            }
        }
        validate_env_var_value_from(ev, &at.child("valueFrom"), errors);
    }
}

const ENV_FIELD_PATHS: &[&str] = &[
    "metadata.name",
    "metadata.namespace",
    "metadata.uid",
    "spec.nodeName",
    "spec.serviceAccountName",
    "status.hostIP",
    "status.hostIPs",
    "status.podIP",
    "status.podIPs",
];

const RESOURCE_FIELD_PATHS: &[&str] = &[
    "limits.cpu",
    "limits.ephemeral-storage",
    "limits.memory",
    "requests.cpu",
    "requests.ephemeral-storage",
    "requests.memory",
];

/// `validateEnvVarValueFrom` (EnvFiles on).
fn validate_env_var_value_from(ev: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let Some(from) = get(ev, "valueFrom") else { return };
    let mut n = 0;
    if let Some(fs) = get(from, "fieldRef") {
        n += 1;
        validate_object_field_selector(fs, ENV_FIELD_PATHS, &path.child("fieldRef"), errors);
    }
    if let Some(fs) = get(from, "resourceFieldRef") {
        n += 1;
        let prefixes = ["limits.hugepages-", "requests.hugepages-"];
        validate_resource_field_selector(fs, &prefixes, false, &path.child("resourceFieldRef"), errors);
    }
    for key in ["configMapKeyRef", "secretKeyRef"] {
        if let Some(s) = get(from, key) {
            n += 1;
            let at = path.child(key);
            let name = str(s, "name");
            for msg in is_dns1123_subdomain(name) {
                errors.push(Error::invalid(&at.child("name"), name, msg));
            }
            let k = str(s, "key");
            if k.is_empty() {
                errors.push(required(&at.child("key"), ""));
            } else {
                for msg in is_config_map_key(k) {
                    errors.push(Error::invalid(&at.child("key"), k, msg));
                }
            }
        }
    }
    if let Some(s) = get(from, "fileKeyRef") {
        n += 1;
        let at = path.child("fileKeyRef");
        let k = str(s, "key");
        if k.is_empty() {
            errors.push(required(&at.child("key"), ""));
        } else {
            for msg in is_relaxed_env_var_name(k) {
                errors.push(Error::invalid(&at.child("key"), k, msg));
            }
        }
        let v = str(s, "volumeName");
        if v.is_empty() {
            errors.push(required(&at.child("volumeName"), ""));
        } else {
            validate_dns1123_label(v, &at.child("volumeName"), errors);
        }
        let p = str(s, "path");
        if p.is_empty() {
            errors.push(required(&at.child("path"), ""));
        } else {
            no_backsteps(p, &at.child("path"), errors);
        }
    }
    if n == 0 {
        errors.push(Error::invalid(
            path,
            "",
            "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef`, `secretKeyRef` or `fileKeyRef`",
        ));
    } else if !str(ev, "value").is_empty() {
        errors.push(Error::invalid(path, "", "may not be specified when `value` is not empty"));
    } else if n > 1 {
        errors.push(Error::invalid(path, "", "may not have more than one field specified at a time"));
    }
}

/// `validateObjectFieldSelector`.
pub fn validate_object_field_selector(fs: &Json, expressions: &[&str], path: &Path<'_>, errors: &mut Vec<Error>) {
    let api_version = str(fs, "apiVersion");
    if api_version.is_empty() {
        errors.push(required(&path.child("apiVersion"), ""));
        return;
    }
    let fp = str(fs, "fieldPath");
    if fp.is_empty() {
        errors.push(required(&path.child("fieldPath"), ""));
        return;
    }
    // ConvertDownwardAPIFieldLabel: only "v1" is known.
    if api_version != "v1" {
        let msg = format!("error converting fieldPath: unsupported pod version: {api_version}");
        errors.push(Error::invalid(&path.child("fieldPath"), fp, msg));
        return;
    }
    let subscripted = fp.strip_suffix("']").and_then(|head| head.split_once("['")).filter(|(p, _)| !p.is_empty());
    match subscripted {
        Some((p, sub)) if p == "metadata.annotations" || p == "metadata.labels" => {
            if p == "metadata.annotations" {
                validate_qualified_name(&sub.to_ascii_lowercase(), path, errors);
            } else {
                validate_qualified_name(sub, path, errors);
            }
        }
        Some(_) => {
            // ConvertDownwardAPIFieldLabel refuses other subscripted paths.
            let msg = format!("error converting fieldPath: field label does not support subscript: {fp}");
            errors.push(Error::invalid(&path.child("fieldPath"), fp, msg));
        }
        None => {
            const CONVERTIBLE: &[&str] = &[
                "metadata.annotations",
                "metadata.labels",
                "metadata.name",
                "metadata.namespace",
                "metadata.uid",
                "spec.nodeName",
                "spec.restartPolicy",
                "spec.serviceAccountName",
                "spec.schedulerName",
                "status.phase",
                "status.hostIP",
                "status.hostIPs",
                "status.podIP",
                "status.podIPs",
            ];
            let internal = if fp == "spec.host" { "spec.nodeName" } else { fp };
            if !CONVERTIBLE.contains(&internal) {
                let msg = format!("error converting fieldPath: field label not supported: {fp}");
                errors.push(Error::invalid(&path.child("fieldPath"), fp, msg));
            } else if !expressions.contains(&internal) {
                errors.push(Error::not_supported(&path.child("fieldPath"), internal, expressions));
            }
        }
    }
}

/// `validateContainerResourceFieldSelector` and `validateContainerResourceDivisor`.
pub fn validate_resource_field_selector(
    fs: &Json,
    prefixes: &[&str],
    volume: bool,
    path: &Path<'_>,
    errors: &mut Vec<Error>,
) {
    let resource = str(fs, "resource");
    if volume && str(fs, "containerName").is_empty() {
        errors.push(required(&path.child("containerName"), ""));
    } else if resource.is_empty() {
        errors.push(required(&path.child("resource"), ""));
    } else if !RESOURCE_FIELD_PATHS.contains(&resource) && !prefixes.iter().any(|p| resource.starts_with(p)) {
        errors.push(Error::not_supported(&path.child("resource"), resource, RESOURCE_FIELD_PATHS));
    }
    let Some(divisor) = get(fs, "divisor").and_then(quantity::from_json) else { return };
    if divisor.is_zero() {
        return;
    }
    let text = divisor.canonical();
    let sizes = ["1", "1k", "1M", "1G", "1T", "1P", "1E", "1Ki", "1Mi", "1Gi", "1Ti", "1Pi", "1Ei"];
    let list = "1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei";
    let d = path.child("divisor");
    match resource {
        "limits.cpu" | "requests.cpu" if !["1m", "1"].contains(&text.as_str()) => {
            errors.push(Error::invalid(
                &d,
                resource,
                "only divisor's values 1m and 1 are supported with the cpu resource",
            ));
        }
        "limits.memory" | "requests.memory" if !sizes.contains(&text.as_str()) => {
            let msg = format!("only divisor's values {list} are supported with the memory resource");
            errors.push(Error::invalid(&d, resource, msg));
        }
        "limits.ephemeral-storage" | "requests.ephemeral-storage" if !sizes.contains(&text.as_str()) => {
            let msg = format!("only divisor's values {list} are supported with the local ephemeral storage resource");
            errors.push(Error::invalid(&d, resource, msg));
        }
        _ => {}
    }
    if (resource.starts_with("requests.hugepages-") || resource.starts_with("limits.hugepages-"))
        && !sizes.contains(&text.as_str())
    {
        let msg = format!("only divisor's values {list} are supported with the hugepages resource");
        errors.push(Error::invalid(&d, resource, msg));
    }
}

/// `ValidateEnvFrom`.
fn validate_env_from(vars: &[Json], path: &Path<'_>, errors: &mut Vec<Error>) {
    for (i, ev) in vars.iter().enumerate() {
        let at = path.index(i);
        let prefix = str(ev, "prefix");
        if !prefix.is_empty() {
            for msg in is_relaxed_env_var_name(prefix) {
                errors.push(Error::invalid(&at.child("prefix"), prefix, msg));
            }
        }
        let mut n = 0;
        for key in ["configMapRef", "secretRef"] {
            if let Some(r) = get(ev, key) {
                n += 1;
                let np = at.child(key);
                let np = np.child("name");
                let name = str(r, "name");
                if name.is_empty() {
                    errors.push(required(&np, ""));
                } else {
                    // ValidateConfigMapName / ValidateSecretName with prefix=true.
                    for msg in is_dns1123_subdomain(&mask_trailing_dash(name)) {
                        errors.push(Error::invalid(&np, name, msg));
                    }
                }
            }
        }
        if n == 0 {
            errors.push(Error::invalid(path, "", "must specify one of: `configMapRef` or `secretRef`"));
        } else if n > 1 {
            errors.push(Error::invalid(path, "", "may not have more than one field specified at a time"));
        }
    }
}

/// apimachinery `maskTrailingDash`.
pub fn mask_trailing_dash(name: &str) -> String {
    if name.len() > 1 && name.ends_with('-') {
        let mut s = String::from(&name[..name.len() - 1]);
        s.push('a');
        s
    } else {
        String::from(name)
    }
}

/// `validatePathNoBacksteps`.
pub fn no_backsteps(target: &str, path: &Path<'_>, errors: &mut Vec<Error>) {
    if target.split('/').any(|p| p == "..") {
        errors.push(Error::invalid(path, target, "must not contain '..'"));
    }
}

/// `validateLocalDescendingPath`.
pub fn local_descending_path(target: &str, path: &Path<'_>, errors: &mut Vec<Error>) {
    if target.starts_with('/') {
        errors.push(Error::invalid(path, target, "must be a relative path"));
    }
    no_backsteps(target, path, errors);
}

/// `ValidateVolumeMounts`.
fn validate_volume_mounts(ctr: &Json, spec: &Spec<'_>, path: &Path<'_>, errors: &mut Vec<Error>) {
    let devices = list(ctr, "volumeDevices");
    let mut mountpoints: Vec<&str> = Vec::new();
    for (i, m) in list(ctr, "volumeMounts").iter().enumerate() {
        let at = path.index(i);
        let name = str(m, "name");
        let mount_path = str(m, "mountPath");
        if name.is_empty() {
            errors.push(required(&at.child("name"), ""));
        }
        if volume(spec, name).is_none() {
            errors.push(not_found(&at.child("name"), name));
        }
        if mount_path.is_empty() {
            errors.push(required(&at.child("mountPath"), ""));
        }
        if mountpoints.contains(&mount_path) {
            errors.push(Error::invalid(&at.child("mountPath"), mount_path, "must be unique"));
        }
        mountpoints.push(mount_path);
        if devices.iter().any(|d| str(d, "name") == name) {
            errors.push(Error::invalid(&at.child("name"), name, "must not already exist in volumeDevices"));
        }
        if devices.iter().any(|d| str(d, "devicePath") == mount_path) {
            errors.push(Error::invalid(
                &at.child("mountPath"),
                mount_path,
                "must not already exist as a path in volumeDevices",
            ));
        }
        let sub_path = str(m, "subPath");
        if !sub_path.is_empty() {
            local_descending_path(sub_path, &path.child("subPath"), errors);
        }
        let expr = str(m, "subPathExpr");
        if !expr.is_empty() {
            if !sub_path.is_empty() {
                errors.push(Error::invalid(
                    &at.child("subPathExpr"),
                    expr,
                    "subPathExpr and subPath are mutually exclusive",
                ));
            }
            local_descending_path(expr, &path.child("subPathExpr"), errors);
        }
        let propagation = m.get("mountPropagation").and_then(Json::as_str);
        if let Some(mp) = propagation {
            let p = path.child("mountPropagation");
            if !["Bidirectional", "HostToContainer", "None"].contains(&mp) {
                errors.push(Error::not_supported(&p, mp, &["Bidirectional", "HostToContainer", "None"]));
            }
            let privileged = field(ctr, "securityContext").get("privileged").and_then(Json::as_bool) == Some(true);
            if mp == "Bidirectional" && !privileged {
                errors
                    .push(forbidden(&p, "Bidirectional mount propagation is available only to privileged containers"));
            }
        }
        if let Some(rro) = m.get("recursiveReadOnly").and_then(Json::as_str) {
            let p = path.child("recursiveReadOnly");
            match rro {
                "Disabled" => {}
                "Enabled" | "IfPossible" => {
                    if m.get("readOnly").and_then(Json::as_bool) != Some(true) {
                        errors.push(forbidden(&p, "may only be specified when readOnly is true"));
                    }
                    if propagation.is_some_and(|mp| mp != "None") {
                        errors.push(forbidden(
                            &p,
                            "may only be specified when mountPropagation is None or not specified",
                        ));
                    }
                }
                other => errors.push(Error::not_supported(&p, other, &["Disabled", "Enabled", "IfPossible"])),
            }
        }
        let options = list(m, "bindMountOptions");
        let mut seen: Vec<&str> = Vec::new();
        for (j, o) in options.iter().enumerate() {
            let o = o.as_str().unwrap_or("");
            let p = at.child("bindMountOptions");
            if !["noexec", "nodev", "nosuid"].contains(&o) {
                errors.push(Error::not_supported(&p.index(j), o, &["nodev", "noexec", "nosuid"]));
            }
            if seen.contains(&o) {
                errors.push(duplicate(&p.index(j), o));
            }
            seen.push(o);
        }
        if !options.is_empty() && volume(spec, name).is_some_and(|v| get(v, "image").is_some()) {
            let mut e = Error::invalid(
                &at.child("bindMountOptions"),
                Json::Array(options.to_vec()),
                "bindMountOptions may not be used with image volumes",
            );
            let items: Vec<&str> = options.iter().map(|o| o.as_str().unwrap_or("")).collect();
            e.rendered_value = Some(super::super::json::go_string_slice(&items));
            errors.push(e);
        }
    }
}

/// `ValidateVolumeDevices`.
fn validate_volume_devices(ctr: &Json, spec: &Spec<'_>, path: &Path<'_>, errors: &mut Vec<Error>) {
    let mounts = list(ctr, "volumeMounts");
    let mut paths: Vec<&str> = Vec::new();
    let mut names: Vec<&str> = Vec::new();
    for (i, d) in list(ctr, "volumeDevices").iter().enumerate() {
        let at = path.index(i);
        let name = str(d, "name");
        let dev_path = str(d, "devicePath");
        let source = volume(spec, name);
        let is_pvc = source.is_some_and(|v| get(v, "persistentVolumeClaim").is_some() || get(v, "ephemeral").is_some());
        if name.is_empty() {
            errors.push(required(&at.child("name"), ""));
        }
        if names.contains(&name) {
            errors.push(Error::invalid(&at.child("name"), name, "must be unique"));
        }
        if source.is_some() && !is_pvc {
            errors.push(Error::invalid(
                &at.child("name"),
                name,
                "can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode",
            ));
        }
        if source.is_none() {
            errors.push(not_found(&at.child("name"), name));
        }
        if dev_path.is_empty() {
            errors.push(required(&at.child("devicePath"), ""));
        }
        if paths.contains(&dev_path) {
            errors.push(Error::invalid(&at.child("devicePath"), dev_path, "must be unique"));
        }
        let mut back = Vec::new();
        no_backsteps(dev_path, &at, &mut back);
        if !dev_path.is_empty() && !back.is_empty() {
            errors.push(Error::invalid(&at.child("devicePath"), dev_path, "can not contain backsteps ('..')"));
        } else {
            paths.push(dev_path);
        }
        if mounts.iter().any(|m| str(m, "name") == name) {
            errors.push(Error::invalid(&at.child("name"), name, "must not already exist in volumeMounts"));
        }
        if mounts.iter().any(|m| str(m, "mountPath") == dev_path) {
            errors.push(Error::invalid(
                &at.child("devicePath"),
                dev_path,
                "must not already exist as a path in volumeMounts",
            ));
        }
        if !name.is_empty() {
            names.push(name);
        }
    }
}

/// `validateProbe`.
fn validate_probe(probe: &Json, grace: Option<i64>, path: &Path<'_>, errors: &mut Vec<Error>) {
    validate_handler(probe, false, grace, path, errors);
    for key in ["initialDelaySeconds", "timeoutSeconds", "periodSeconds", "successThreshold", "failureThreshold"] {
        validate_nonnegative(int(probe, key).unwrap_or(0), &path.child(key), errors);
    }
    if let Some(t) = int(probe, "terminationGracePeriodSeconds").filter(|t| *t <= 0) {
        errors.push(Error::invalid(&path.child("terminationGracePeriodSeconds"), t, "must be greater than 0"));
    }
}

/// `validateHandler` (of a probe: exec, httpGet, tcpSocket, grpc; of a lifecycle hook: exec,
/// httpGet, tcpSocket, sleep).
fn validate_handler(h: &Json, lifecycle: bool, grace: Option<i64>, path: &Path<'_>, errors: &mut Vec<Error>) {
    let mut n = 0;
    let keys: &[&str] =
        if lifecycle { &["exec", "httpGet", "tcpSocket", "sleep"] } else { &["exec", "httpGet", "tcpSocket", "grpc"] };
    for key in keys {
        let Some(action) = get(h, key) else { continue };
        let at = path.child(key);
        if n > 0 {
            errors.push(forbidden(&at, "may not specify more than 1 handler type"));
            continue;
        }
        n += 1;
        match *key {
            "exec" => {
                if list(action, "command").is_empty() {
                    errors.push(required(&at.child("command"), ""));
                }
            }
            "httpGet" => validate_http_get(action, &at, errors),
            "tcpSocket" => port_num_or_name(action.get("port"), &at.child("port"), errors),
            "grpc" => {
                let port = int(action, "port").unwrap_or(0);
                for msg in is_valid_port_num(port) {
                    errors.push(Error::invalid(&at.child("port"), port, msg));
                }
            }
            _ => {
                // validateSleepAction.
                let seconds = int(action, "seconds").unwrap_or(0);
                if let Some(g) = grace {
                    if seconds < 0 || seconds > g {
                        let msg = format!("must be non-negative and less than terminationGracePeriodSeconds ({g})");
                        errors.push(Error::invalid(&at, seconds, msg));
                    }
                }
            }
        }
    }
    if n == 0 {
        errors.push(required(path, "must specify a handler type"));
    }
}

/// `validateHTTPGetAction`.
fn validate_http_get(http: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    if str(http, "path").is_empty() {
        errors.push(required(&path.child("path"), ""));
    }
    port_num_or_name(http.get("port"), &path.child("port"), errors);
    let scheme = str(http, "scheme");
    if !["HTTP", "HTTPS"].contains(&scheme) {
        errors.push(Error::not_supported(&path.child("scheme"), scheme, &["HTTP", "HTTPS"]));
    }
    for header in list(http, "httpHeaders") {
        let name = str(header, "name");
        for msg in is_http_header_name(name) {
            errors.push(Error::invalid(&path.child("httpHeaders"), name, msg));
        }
    }
}

/// `ValidatePortNumOrName` (one copy, the core group's: [`super::common`]).
pub use super::common::validate_port_num_or_name as port_num_or_name;

/// `validateLifecycle` and `validateStopSignal`.
fn validate_lifecycle(lifecycle: &Json, spec: &Spec<'_>, path: &Path<'_>, errors: &mut Vec<Error>) {
    for key in ["postStart", "preStop"] {
        if let Some(h) = get(lifecycle, key) {
            validate_handler(h, true, spec.grace, &path.child(key), errors);
        }
    }
    if let Some(signal) = lifecycle.get("stopSignal").and_then(Json::as_str) {
        let p = path.child("stopSignal");
        match spec.os {
            None => errors.push(forbidden(&p, "may not be set for containers with empty `spec.os.name`")),
            Some("windows") => {
                if !["SIGKILL", "SIGTERM"].contains(&signal) {
                    errors.push(Error::not_supported(&p, signal, &["SIGKILL", "SIGTERM"]));
                }
            }
            Some("linux") => {
                let supported = linux_signals();
                let names: Vec<&str> = supported.iter().map(String::as_str).collect();
                if !names.contains(&signal) {
                    errors.push(Error::not_supported(&p, signal, &names));
                }
            }
            Some(_) => {}
        }
    }
}

/// `supportedStopSignalsLinux`, sorted as `sets.List` sorts them.
fn linux_signals() -> Vec<String> {
    let mut v: Vec<String> = [
        "SIGABRT",
        "SIGALRM",
        "SIGBUS",
        "SIGCHLD",
        "SIGCLD",
        "SIGCONT",
        "SIGFPE",
        "SIGHUP",
        "SIGILL",
        "SIGINT",
        "SIGIO",
        "SIGIOT",
        "SIGKILL",
        "SIGPIPE",
        "SIGPOLL",
        "SIGPROF",
        "SIGPWR",
        "SIGQUIT",
        "SIGSEGV",
        "SIGSTKFLT",
        "SIGSTOP",
        "SIGSYS",
        "SIGTERM",
        "SIGTRAP",
        "SIGTSTP",
        "SIGTTIN",
        "SIGTTOU",
        "SIGURG",
        "SIGUSR1",
        "SIGUSR2",
        "SIGVTALRM",
        "SIGWINCH",
        "SIGXCPU",
        "SIGXFSZ",
        "SIGRTMIN",
        "SIGRTMAX",
    ]
    .iter()
    .map(|s| String::from(*s))
    .collect();
    for i in 1..=15 {
        v.push(format!("SIGRTMIN+{i}"));
    }
    for i in 1..=14 {
        v.push(format!("SIGRTMAX-{i}"));
    }
    v.sort();
    v
}

/// `validateResizePolicy`.
fn validate_resize_policy(policies: &[Json], pod_restart: &str, path: &Path<'_>, errors: &mut Vec<Error>) {
    let mut seen: Vec<&str> = Vec::new();
    for (i, p) in policies.iter().enumerate() {
        let name = str(p, "resourceName");
        if seen.contains(&name) {
            errors.push(duplicate(&path.index(i), name));
        }
        seen.push(name);
        match name {
            "cpu" | "memory" => {}
            "" => errors.push(required(path, "")),
            other => errors.push(Error::not_supported(path, other, &["cpu", "memory"])),
        }
        let policy = str(p, "restartPolicy");
        match policy {
            "NotRequired" | "RestartContainer" => {}
            "" => errors.push(required(path, "")),
            other => errors.push(Error::not_supported(path, other, &["NotRequired", "RestartContainer"])),
        }
        if pod_restart == "Never" && policy != "NotRequired" {
            errors.push(Error::invalid(path, policy, "must be 'NotRequired' when pod `restartPolicy` is 'Never'"));
        }
    }
}

/// `validateContainerRestartPolicy` (RestartAllContainers on).
fn validate_container_restart_policy(ctr: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let rules = list(ctr, "restartPolicyRules");
    let rp = path.child("restartPolicy");
    match ctr.get("restartPolicy").and_then(Json::as_str) {
        None if rules.is_empty() => return,
        None => errors.push(required(&rp, "must specify restartPolicy when restart rules are used")),
        Some(p) if !["Always", "Never", "OnFailure"].contains(&p) => {
            errors.push(Error::not_supported(&rp, p, &["Always", "Never", "OnFailure"]));
        }
        Some(_) => {}
    }
    let rules_path = path.child("restartPolicyRules");
    if rules.len() > 20 {
        errors.push(Error::too_many(&rules_path, rules.len(), 20));
    }
    for (i, rule) in rules.iter().enumerate() {
        let at = rules_path.index(i);
        let action = str(rule, "action");
        if !["RestartAllContainers", "Restart"].contains(&action) {
            errors.push(Error::not_supported(&at.child("action"), action, &["Restart", "RestartAllContainers"]));
        }
        match get(rule, "exitCodes") {
            Some(codes) => {
                let ec = at.child("exitCodes");
                let op = str(codes, "operator");
                if !["In", "NotIn"].contains(&op) {
                    errors.push(Error::not_supported(&ec.child("operator"), op, &["In", "NotIn"]));
                }
                let values = list(codes, "values");
                if values.len() > 255 {
                    errors.push(Error::too_many(&ec.child("values"), values.len(), 255));
                }
            }
            None => errors.push(required(&at.child("exitCodes"), "must be specified")),
        }
    }
}
