//! Pod, PodTemplate and ReplicationController, after `pkg/apis/core/validation/validation.go`
//! (`ValidatePodCreate`, `validatePodMetadataAndSpec` minus the top metadata, `ValidatePodSpec`,
//! `ValidatePodSpecificAnnotations`, `validatePodHostNetworkDeps`, `validateRestartPolicy`,
//! `validateDNSPolicy`, `validatePodDNSConfig`, `validateImagePullSecrets`,
//! `validateReadinessGates`, `validateSchedulingGates`, `ValidateTolerations`,
//! `ValidateHostAliases`, `validatePodHostName`, `validateOS`, `validateFileKeyRefVolumes`,
//! `validatePodResources`, `ValidatePodTemplate(Update)`, `ValidatePodTemplateSpec`,
//! `ValidateReplicationController(Update)`, `ValidateReplicationControllerSpec`,
//! `ValidatePodTemplateSpecForRC`, `ValidateNonEmptySelector`) and the strategies of
//! `pkg/registry/core/{pod,podtemplate,replicationcontroller}/strategy.go`.
//!
//! Not ported: affinity (`validateAffinity`), `validateTopologySpreadConstraints`,
//! `validateWindowsHostProcessPod`, `validateLinux`/`validateWindows`,
//! `validatePodResourceClaims`, `validatePodResourceConsistency`, the IP checks of
//! dnsConfig nameservers and hostAliases, the tolerations annotation, the
//! seccomp/AppArmor annotation-field consistency checks, and `ValidatePodUpdate`'s
//! "pod updates may not change fields other than …" (a Pod update is validated as a create
//! of the new spec; see the TODO in [`admit_pod`]).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{Map, Value as Json};

use super::super::json::{bool as jbool, field, get, int, list, object, str, string_map};
use super::super::Context;
use super::container::{self, Spec};
use super::pod_common::*;
use super::pod_security;
use super::volume;
use crate::content;
use crate::field::{Error, Path};

/// `unversionedvalidation.ValidateLabels`.
pub fn validate_labels(labels: Option<&Map<String, Json>>, path: &Path<'_>, errors: &mut Vec<Error>) {
    for (k, v) in labels.into_iter().flatten() {
        for msg in content::is_label_key(k) {
            errors.push(Error::invalid(path, k.as_str(), msg).with_origin("format=k8s-label-key"));
        }
        let v = v.as_str().unwrap_or("");
        for msg in content::is_label_value(v) {
            errors.push(Error::invalid(path, v, msg).with_origin("format=k8s-label-value"));
        }
    }
}

/// apimachinery `ValidateAnnotations`.
pub fn validate_annotations(annotations: Option<&Map<String, Json>>, path: &Path<'_>, errors: &mut Vec<Error>) {
    let mut size = 0usize;
    for (k, v) in annotations.into_iter().flatten() {
        for msg in content::is_label_key(&k.to_ascii_lowercase()) {
            errors.push(Error::invalid(path, k.as_str(), msg).with_origin("format=k8s-label-key"));
        }
        size = size.saturating_add(k.len()).saturating_add(v.as_str().map_or(0, str::len));
    }
    if size > 256 * 1024 {
        errors.push(Error::too_long(path, 256 * 1024));
    }
}

/// `ValidatePodSpecificAnnotations` (PodDeletionCost on: its value must be an int32).
fn validate_pod_specific_annotations(meta: &Json, spec: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let annotations = string_map(meta, "annotations");
    let get_a = |k: &str| annotations.iter().find(|(key, _)| *key == k).map(|(_, v)| *v);
    if let Some(v) = get_a("kubernetes.io/config.mirror") {
        if str(spec, "nodeName").is_empty() {
            errors.push(Error::invalid(
                &path.key("kubernetes.io/config.mirror"),
                v,
                "must set spec.nodeName if mirror pod annotation is set",
            ));
        }
    }
    if let Some(v) = get_a("controller.kubernetes.io/pod-deletion-cost") {
        if go_parse_int32(v).is_none() {
            errors.push(Error::invalid(&path.key("controller.kubernetes.io/pod-deletion-cost"), v, "must be a 32bit integer"));
        }
    }
    pod_security::validate_pod_annotations(meta, spec, path, errors);
}

/// `strconv.ParseInt(s, 10, 32)`.
fn go_parse_int32(s: &str) -> Option<i32> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    s.parse::<i32>().ok()
}

/// `ValidatePodSpec`. `pod_name` is the pod's name (empty for templates); `is_pod` is
/// `opts.ResourceIsPod`.
pub fn validate_pod_spec(spec: &Json, pod_name: &str, is_pod: bool, path: &Path<'_>, errors: &mut Vec<Error>) {
    let grace = int(spec, "terminationGracePeriodSeconds");
    if grace.is_none() {
        errors.push(required(&path.child("terminationGracePeriodSeconds"), ""));
    }
    let host_users = jbool(spec, "hostUsers") != Some(false);
    let volumes = volume::validate_volumes(list(spec, "volumes"), pod_name, &path.child("volumes"), errors);
    let claim_names: Vec<&str> = list(spec, "resourceClaims").iter().map(|c| str(c, "name")).collect();
    let os = get(spec, "os").map(|o| str(o, "name"));
    let cspec = Spec { os, volumes, claim_names, grace, restart_policy: str(spec, "restartPolicy"), host_users };
    let containers = list(spec, "containers");
    container::validate_containers(containers, &cspec, &path.child("containers"), errors);
    container::validate_init_containers(list(spec, "initContainers"), containers, &cspec, &path.child("initContainers"), errors);
    let ephemeral = list(spec, "ephemeralContainers");
    if !ephemeral.is_empty() {
        let ep = path.child("ephemeralContainers");
        let other: Vec<&str> =
            containers.iter().chain(list(spec, "initContainers")).map(|c| str(c, "name")).collect();
        let mut all = other.clone();
        for (i, ec) in ephemeral.iter().enumerate() {
            let at = ep.index(i);
            container::validate_container_common(ec, &cspec, &at, errors);
            container::validate_container_only_for_pod(ec, &at, errors);
            let name = str(ec, "name");
            if all.contains(&name) {
                errors.push(duplicate(&at.child("name"), name));
            } else {
                all.push(name);
            }
            let target = str(ec, "targetContainerName");
            if !target.is_empty() && !other.contains(&target) {
                errors.push(not_found(&at.child("targetContainerName"), target));
            }
        }
    }
    // validatePodResources (PodLevelResources on).
    if let Some(res) = get(spec, "resources") {
        let rp = path.child("resources");
        if os == Some("windows") {
            errors.push(forbidden(&rp, "may not be set for a windows pod"));
        } else {
            if get(res, "claims").is_some() {
                errors.push(forbidden(&rp.child("claims"), "claims may not be set for Resources at pod-level"));
            }
            container::validate_resource_requirements(res, Some(&cspec.claim_names), true, &rp, errors);
        }
    }
    // validatePodHostNetworkDeps.
    if jbool(spec, "hostNetwork") == Some(true) {
        let cp = path.child("containers");
        for (i, c) in containers.iter().enumerate() {
            let at = cp.index(i);
            let pp = at.child("ports");
            for (j, port) in list(c, "ports").iter().enumerate() {
                let (hp, cport) = (int(port, "hostPort").unwrap_or(0), int(port, "containerPort").unwrap_or(0));
                if (is_pod || hp != 0) && hp != cport {
                    errors.push(Error::invalid(
                        &pp.index(j).child("hostPort"),
                        hp,
                        "must match `containerPort` when `hostNetwork` is true",
                    ));
                }
            }
        }
    }
    let rp = path.child("restartPolicy");
    match str(spec, "restartPolicy") {
        "Always" | "OnFailure" | "Never" => {}
        "" => errors.push(required(&rp, "")),
        other => errors.push(Error::not_supported(&rp, other, &["Always", "OnFailure", "Never"])),
    }
    let dns_policy = str(spec, "dnsPolicy");
    let dp = path.child("dnsPolicy");
    match dns_policy {
        "ClusterFirstWithHostNet" | "ClusterFirst" | "Default" | "None" => {}
        "" => errors.push(required(&dp, "")),
        other => errors.push(Error::not_supported(&dp, other, &["ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"])),
    }
    validate_labels(object(spec, "nodeSelector"), &path.child("nodeSelector"), errors);
    pod_security::validate_pod_security_context(spec, &path.child("securityContext"), errors);
    pod_security::validate_share_process_namespace(spec, path, errors);
    let ips = path.child("imagePullSecrets");
    for (i, s) in list(spec, "imagePullSecrets").iter().enumerate() {
        if s.as_object().is_some_and(|m| m.iter().any(|(k, v)| k != "name" && !v.is_null())) {
            let mut e = Error::invalid(&ips.index(i), s.clone(), "only name may be set");
            e.rendered_value = Some(format!("core.LocalObjectReference{{Name:{}}}", crate::field::go_quote(str(s, "name"))));
            errors.push(e);
        }
    }
    validate_dns_config(spec, dns_policy, &path.child("dnsConfig"), errors);
    let rg = path.child("readinessGates");
    for (i, g) in list(spec, "readinessGates").iter().enumerate() {
        validate_qualified_name(str(g, "conditionType"), &rg.index(i).child("conditionType"), errors);
    }
    let sg = path.child("schedulingGates");
    let mut seen: Vec<&str> = Vec::new();
    for (i, g) in list(spec, "schedulingGates").iter().enumerate() {
        let name = str(g, "name");
        validate_qualified_name(name, &sg.index(i), errors);
        if seen.contains(&name) {
            errors.push(duplicate(&sg.index(i), name));
        }
        seen.push(name);
    }
    pod_security::validate_host_users(spec, path, errors);
    validate_pod_host_name(spec, path, errors);
    let sa = str(spec, "serviceAccountName");
    if !sa.is_empty() {
        for msg in is_dns1123_subdomain(sa) {
            errors.push(Error::invalid(&path.child("serviceAccountName"), sa, msg));
        }
    }
    let dsa = str(spec, "serviceAccount");
    if dsa != sa {
        let msg = format!("must be the same as serviceAccountName: {}", crate::field::go_quote(sa));
        errors.push(Error::invalid(&path.child("deprecatedServiceAccount"), dsa, msg));
    }
    let node = str(spec, "nodeName");
    if !node.is_empty() {
        for msg in is_dns1123_subdomain(node) {
            errors.push(Error::invalid(&path.child("nodeName"), node, msg));
        }
    }
    if let Some(v) = int(spec, "activeDeadlineSeconds") {
        if v < 1 || v > i64::from(i32::MAX) {
            errors.push(Error::invalid(&path.child("activeDeadlineSeconds"), v, inclusive_range(1, i64::from(i32::MAX))));
        }
    }
    for key in ["hostname", "subdomain"] {
        let v = str(spec, key);
        if !v.is_empty() {
            validate_dns1123_label(v, &path.child(key), errors);
        }
    }
    validate_tolerations(list(spec, "tolerations"), &path.child("tolerations"), errors);
    let ha = path.child("hostAliases");
    for (i, alias) in list(spec, "hostAliases").iter().enumerate() {
        let hp = ha.index(i);
        let hp = hp.child("hostnames");
        for (j, h) in list(alias, "hostnames").iter().enumerate() {
            validate_dns1123_subdomain(h.as_str().unwrap_or(""), &hp.index(j), errors);
        }
    }
    let pcn = str(spec, "priorityClassName");
    if !pcn.is_empty() {
        for msg in is_dns1123_subdomain(pcn) {
            errors.push(Error::invalid(&path.child("priorityClassName"), pcn, msg));
        }
    }
    if let Some(rc) = spec.get("runtimeClassName").and_then(Json::as_str) {
        for msg in is_dns1123_subdomain(rc) {
            errors.push(Error::invalid(&path.child("runtimeClassName"), rc, msg));
        }
    }
    if let Some(pp) = spec.get("preemptionPolicy").and_then(Json::as_str) {
        let p = path.child("preemptionPolicy");
        match pp {
            "PreemptLowerPriority" | "Never" => {}
            "" => errors.push(required(&p, "")),
            other => errors.push(Error::not_supported(&p, other, &["PreemptLowerPriority", "Never"])),
        }
    }
    if let Some(overhead) = get(spec, "overhead") {
        let wrapped = serde_json::json!({ "limits": overhead });
        container::validate_resource_requirements(&wrapped, None, false, &path.child("overhead"), errors);
    }
    if let Some(os) = get(spec, "os") {
        // validateOS.
        let name = str(os, "name");
        let osp = path.child("os");
        let np = osp.child("name");
        if name.is_empty() {
            errors.push(required(&np, ""));
        } else if !["linux", "windows"].contains(&name) {
            errors.push(Error::not_supported(&np, name, &["linux", "windows"]));
        }
    }
    validate_file_key_ref_volumes(spec, path, errors);
}

/// `validatePodDNSConfig` (nameserver IPs not checked).
fn validate_dns_config(spec: &Json, policy: &str, path: &Path<'_>, errors: &mut Vec<Error>) {
    let config = get(spec, "dnsConfig");
    if policy == "None" {
        match config {
            None => {
                errors.push(required(path, "must provide `dnsConfig` when `dnsPolicy` is None"));
                return;
            }
            Some(c) if list(c, "nameservers").is_empty() => {
                errors.push(required(
                    &path.child("nameservers"),
                    "must provide at least one DNS nameserver when `dnsPolicy` is None",
                ));
                return;
            }
            _ => {}
        }
    }
    let Some(c) = config else { return };
    let ns = strings(c, "nameservers");
    if ns.len() > 3 {
        let mut e = Error::invalid(&path.child("nameservers"), Json::from(ns.clone()), "must not have more than 3 nameservers");
        e.rendered_value = Some(super::super::json::go_string_slice(&ns));
        errors.push(e);
    }
    let searches = strings(c, "searches");
    let sp = path.child("searches");
    let slice = super::super::json::go_string_slice(&searches);
    if searches.len() > 32 {
        let mut e = Error::invalid(&sp, Json::from(searches.clone()), "must not have more than 32 search paths");
        e.rendered_value = Some(slice.clone());
        errors.push(e);
    }
    if searches.join(" ").len() > 2048 {
        let mut e = Error::invalid(
            &sp,
            Json::from(searches.clone()),
            "must not have more than 2048 characters (including spaces) in the search list",
        );
        e.rendered_value = Some(slice);
        errors.push(e);
    }
    for (i, s) in searches.iter().enumerate() {
        if *s != "." {
            let s = s.strip_suffix('.').unwrap_or(s);
            // ValidateDNS1123SubdomainWithUnderScore.
            let ok = s.len() <= 253
                && s.split('.').all(|l| {
                    let b = l.as_bytes();
                    let body = |c: &u8| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-' || *c == b'_';
                    let end = |c: &u8| c.is_ascii_lowercase() || c.is_ascii_digit();
                    let start = b.strip_prefix(b"_").unwrap_or(b);
                    matches!((start.first(), start.last()), (Some(f), Some(e)) if end(f) && end(e) && start.iter().all(body))
                });
            if s.len() > 253 {
                errors.push(
                    Error::invalid(&sp.index(i), s, "must be no more than 253 characters")
                        .with_origin("format=k8s-dns-subdomain-with-underscore"),
                );
            }
            if !ok && !(s.len() > 253 && s.split('.').all(|l| !l.is_empty())) {
                errors.push(
                    Error::invalid(
                        &sp.index(i),
                        s,
                        content::regex_error(
                            "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '_', '-' or '.', and must start and end with an alphanumeric character",
                            "_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?(\\._?[a-z0-9]([-_a-z0-9]*[a-z0-9])?)*",
                            &["example.com"],
                        ),
                    )
                    .with_origin("format=k8s-dns-subdomain-with-underscore"),
                );
            }
        }
    }
    let op = path.child("options");
    for (i, o) in list(c, "options").iter().enumerate() {
        if str(o, "name").is_empty() {
            errors.push(required(&op.index(i), "must not be empty"));
        }
    }
}

/// `validatePodHostName` (HostnameOverride is GA).
fn validate_pod_host_name(spec: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let Some(h) = spec.get("hostnameOverride").and_then(Json::as_str) else { return };
    let hp = path.child("hostnameOverride");
    if jbool(spec, "setHostnameAsFQDN") == Some(true) {
        errors.push(forbidden(&hp, "may not be specified when setHostnameAsFQDN is true"));
    }
    if jbool(spec, "hostNetwork") == Some(true) {
        errors.push(forbidden(&hp, "may not be specified when hostNetwork is true"));
    }
    if h.len() > 64 {
        errors.push(Error::too_long(&hp, 64));
    }
    validate_dns1123_subdomain(h, &hp, errors);
}

/// `ValidateTolerations` (comparison operators off).
pub fn validate_tolerations(tolerations: &[Json], path: &Path<'_>, errors: &mut Vec<Error>) {
    for (i, t) in tolerations.iter().enumerate() {
        let at = path.index(i);
        let key = str(t, "key");
        if !key.is_empty() {
            for msg in content::is_label_key(key) {
                errors.push(Error::invalid(&at.child("key"), key, msg).with_origin("format=k8s-label-key"));
            }
        }
        let op = str(t, "operator");
        if key.is_empty() && op != "Exists" {
            errors.push(Error::invalid(
                &at.child("operator"),
                op,
                "operator must be Exists when `key` is empty, which means \"match all values and all keys\"",
            ));
        }
        let effect = str(t, "effect");
        if int(t, "tolerationSeconds").is_some() && effect != "NoExecute" {
            errors.push(Error::invalid(&at.child("effect"), effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"));
        }
        let value = str(t, "value");
        match op {
            "Equal" | "" => {
                let errs = content::is_label_value(value);
                if !errs.is_empty() {
                    errors.push(Error::invalid(&at.child("operator"), value, errs.join(";")));
                }
            }
            "Exists" => {
                if !value.is_empty() {
                    errors.push(Error::invalid(&at.child("operator"), value, "value must be empty when `operator` is 'Exists'"));
                }
            }
            "Lt" | "Gt" => {
                errors.push(Error::not_supported(&at.child("operator"), op, &["Equal", "Exists", "Lt", "Gt"]));
            }
            other => errors.push(Error::not_supported(&at.child("operator"), other, &["Equal", "Exists"])),
        }
        if !effect.is_empty() && !["NoSchedule", "PreferNoSchedule", "NoExecute"].contains(&effect) {
            errors.push(Error::not_supported(&at.child("effect"), effect, &["NoSchedule", "PreferNoSchedule", "NoExecute"]));
        }
    }
}

/// `validateFileKeyRefVolumes`.
fn validate_file_key_ref_volumes(spec: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let volumes = list(spec, "volumes");
    for key in ["initContainers", "containers", "ephemeralContainers"] {
        let kp = path.child(key);
        for (i, c) in list(spec, key).iter().enumerate() {
            let cp = kp.index(i);
            let ep = cp.child("env");
            for (j, env) in list(c, "env").iter().enumerate() {
                let Some(fk) = get(field(env, "valueFrom"), "fileKeyRef") else { continue };
                let name = str(fk, "volumeName");
                let at = ep.index(j);
                let at = at.child("valueFrom");
                let at = at.child("fileKeyRef");
                let at = at.child("volumeName");
                match volumes.iter().find(|v| str(v, "name") == name) {
                    None => errors.push(not_found(&at, name)),
                    Some(v) if get(v, "emptyDir").is_none() => {
                        errors.push(Error::invalid(&at, name, "referenced volume must be of type emptyDir"));
                    }
                    _ => {}
                }
            }
        }
    }
}

/// `ValidatePodTemplateSpec` for a create at 1.37 defaults (the options apps and batch
/// strategies build): labels at `<path>.labels`, annotations, pod-specific annotations, the
/// PodSpec at `<path>.spec`, and ephemeral containers refused.
pub fn validate_pod_template_spec(template: &Json, path: &Path<'_>, _ctx: &Context, errors: &mut Vec<Error>) {
    let meta = field(template, "metadata");
    let spec = field(template, "spec");
    validate_labels(object(meta, "labels"), &path.child("labels"), errors);
    validate_annotations(object(meta, "annotations"), &path.child("annotations"), errors);
    validate_pod_specific_annotations(meta, spec, &path.child("annotations"), errors);
    let sp = path.child("spec");
    validate_pod_spec(spec, "", false, &sp, errors);
    if !list(spec, "ephemeralContainers").is_empty() {
        errors.push(forbidden(&sp.child("ephemeralContainers"), "ephemeral containers not allowed in pod template"));
    }
}

/// `SetObjectDefaults_PodTemplate`'s part for a `PodTemplateSpec` (re-exported from
/// [`super::pod_defaults`]).
pub fn default_pod_template_spec(template: &mut Json) {
    super::pod_defaults::default_pod_template_spec(template);
}

/// `GetWarningsForPodTemplate`.
pub fn pod_template_warnings(template: &Json, path: &Path<'_>) -> Vec<String> {
    super::pod_warnings::pod_template_warnings(template, path)
}

/// `ValidatePodCreate` minus the pod's own metadata.
pub fn validate_pod_create(pod: &Json, errors: &mut Vec<Error>) {
    let meta = field(pod, "metadata");
    let spec = field(pod, "spec");
    let sp = Path::named("spec");
    let annotations = Path::named("metadata");
    validate_pod_specific_annotations(meta, spec, &annotations.child("annotations"), errors);
    validate_pod_spec(spec, str(meta, "name"), true, &sp, errors);
    if str(spec, "serviceAccountName").is_empty() {
        let vp = sp.child("volumes");
        for (vi, v) in list(spec, "volumes").iter().enumerate() {
            let Some(p) = get(v, "projected") else { continue };
            let pp = vp.index(vi);
            let pp = pp.child("projected");
            let pp = pp.child("sources");
            for (si, s) in list(p, "sources").iter().enumerate() {
                if get(s, "serviceAccountToken").is_some() {
                    errors.push(forbidden(
                        &pp.index(si).child("serviceAccountToken"),
                        "must not be specified when serviceAccountName is not set",
                    ));
                }
            }
        }
    }
    if let Some(g) = int(spec, "terminationGracePeriodSeconds") {
        validate_nonnegative(g, &sp.child("terminationGracePeriodSeconds"), errors);
    }
    for key in ["containers", "initContainers"] {
        let kp = sp.child(key);
        for (i, c) in list(spec, key).iter().enumerate() {
            container::validate_container_only_for_pod(c, &kp.index(i), errors);
        }
    }
    if !list(spec, "ephemeralContainers").is_empty() {
        errors.push(forbidden(&sp.child("ephemeralContainers"), "cannot be set on create"));
    }
    if !str(spec, "nodeName").is_empty() && !list(spec, "schedulingGates").is_empty() {
        errors.push(forbidden(&sp.child("nodeName"), "cannot be set until all schedulingGates have been cleared"));
    }
}

/// `ValidateReplicationControllerSpec` and `ValidatePodTemplateSpecForRC`.
pub fn validate_replication_controller_spec(spec: &Json, ctx: &Context, path: &Path<'_>, errors: &mut Vec<Error>) {
    validate_nonnegative(int(spec, "minReadySeconds").unwrap_or(0), &path.child("minReadySeconds"), errors);
    let selector = object(spec, "selector");
    if selector.is_none_or(|s| s.is_empty()) {
        errors.push(required(&path.child("selector"), ""));
    }
    match int(spec, "replicas") {
        None => errors.push(required(&path.child("replicas"), "")),
        Some(r) => validate_nonnegative(r, &path.child("replicas"), errors),
    }
    let tp = path.child("template");
    let Some(template) = get(spec, "template") else {
        errors.push(required(&tp, ""));
        return;
    };
    let labels = object(field(template, "metadata"), "labels");
    if let Some(sel) = selector.filter(|s| !s.is_empty()) {
        let matches = sel.iter().all(|(k, v)| labels.and_then(|l| l.get(k)) == Some(v));
        if !matches {
            let mut e = Error::invalid(
                &tp.child("metadata").child("labels"),
                labels.map_or(Json::Null, |l| Json::Object(l.clone())),
                "`selector` does not match template `labels`",
            );
            e.rendered_value = Some(super::super::json::go_string_map(labels));
            errors.push(e);
        }
    }
    validate_pod_template_spec(template, &tp, ctx, errors);
    let ts = field(template, "spec");
    let rp = str(ts, "restartPolicy");
    if rp != "Always" {
        errors.push(Error::not_supported(&tp.child("spec").child("restartPolicy"), rp, &["Always"]));
    }
    if int(ts, "activeDeadlineSeconds").is_some() {
        errors.push(forbidden(
            &tp.child("spec").child("activeDeadlineSeconds"),
            "activeDeadlineSeconds in ReplicationController is not Supported",
        ));
    }
}

/// pod `strategy.PrepareForCreate` (status reset: phase Pending, the QoS class) then
/// `ValidatePodCreate` and `WarningsOnCreate`; an update validates the new pod as a create
/// would (TODO: `ValidatePodUpdate`'s immutability check and its "pod updates may not change
/// fields other than …" message are not ported).
pub fn admit_pod(object: &mut Json, old: Option<&Json>) -> (Vec<Error>, Vec<String>) {
    if let Json::Object(map) = object {
        let qos = qos_class(map.get("spec").unwrap_or(&Json::Null));
        match old {
            None => {
                map.insert(String::from("status"), serde_json::json!({ "phase": "Pending", "qosClass": qos }));
            }
            Some(o) => {
                map.insert(String::from("status"), o.get("status").cloned().unwrap_or(Json::Null));
            }
        }
    }
    let mut errors = Vec::new();
    validate_pod_create(object, &mut errors);
    if old.is_some() {
        errors.retain(|e| e.field != "spec.ephemeralContainers");
    }
    let warnings = super::pod_warnings::pod_warnings(object, old);
    (errors, warnings)
}

/// `qos.GetPodQOS` (`ComputePodQOS`) for the status the create strategy sets.
fn qos_class(spec: &Json) -> &'static str {
    let mut requests = false;
    let mut limits = false;
    let mut guaranteed = true;
    for c in list(spec, "containers").iter().chain(list(spec, "initContainers")) {
        let r = field(c, "resources");
        let mut lim = 0;
        for res in ["cpu", "memory"] {
            let req_q = field(r, "requests").get(res).and_then(super::super::quantity::from_json);
            let lim_q = field(r, "limits").get(res).and_then(super::super::quantity::from_json);
            if req_q.as_ref().is_some_and(|q| !q.is_zero()) {
                requests = true;
            }
            if let Some(l) = &lim_q {
                if !l.is_zero() {
                    limits = true;
                    lim += 1;
                }
                if let Some(q) = &req_q {
                    if q.cmp(l) != core::cmp::Ordering::Equal {
                        guaranteed = false;
                    }
                }
            }
        }
        if lim != 2 {
            guaranteed = false;
        }
    }
    if !requests && !limits {
        "BestEffort"
    } else if guaranteed {
        "Guaranteed"
    } else {
        "Burstable"
    }
}

/// podtemplate strategy, `ValidatePodTemplate(Update)` minus the metadata, and
/// `WarningsOnCreate`/`WarningsOnUpdate` (`GetWarningsForPodTemplate` at `template`).
pub fn admit_pod_template(object: &mut Json, old: Option<&Json>, ctx: &Context) -> (Vec<Error>, Vec<String>) {
    let mut errors = Vec::new();
    let tp = Path::named("template");
    let template = field(object, "template");
    validate_pod_template_spec(template, &tp, ctx, &mut errors);
    // WarningsOnUpdate: only when the generation changes (the template changed).
    let warnings = match old {
        Some(o) if field(o, "template") == template => Vec::new(),
        _ => super::pod_warnings::pod_template_warnings(template, &tp),
    };
    (errors, warnings)
}

/// replicationcontroller strategy (`PrepareForCreate`: status reset, generation 1;
/// `PrepareForUpdate`: generation bumped when the spec changes), then
/// `ValidateReplicationController(Update)` minus the metadata, and the warnings.
pub fn admit_replication_controller(object: &mut Json, old: Option<&Json>, ctx: &Context) -> (Vec<Error>, Vec<String>) {
    if let Json::Object(map) = object {
        match old {
            None => {
                map.insert(String::from("status"), Json::Object(Map::new()));
                if let Some(Json::Object(meta)) = map.get_mut("metadata") {
                    meta.insert(String::from("generation"), Json::from(1));
                }
            }
            Some(o) => {
                map.insert(String::from("status"), o.get("status").cloned().unwrap_or(Json::Null));
                let gen = o.get("metadata").and_then(|m| m.get("generation")).and_then(Json::as_i64).unwrap_or(0);
                let changed = map.get("spec") != o.get("spec");
                if let Some(Json::Object(meta)) = map.get_mut("metadata") {
                    meta.insert(String::from("generation"), Json::from(if changed { gen + 1 } else { gen }));
                }
            }
        }
    }
    let mut errors = Vec::new();
    let sp = Path::named("spec");
    let spec = field(object, "spec");
    validate_replication_controller_spec(spec, ctx, &sp, &mut errors);
    let tp = sp.child("template");
    let mut warnings = Vec::new();
    match old {
        None => {
            let name = str(field(object, "metadata"), "name");
            warnings.extend(super::pod_warnings::rc_name_warning(name));
            if let Some(t) = get(spec, "template") {
                warnings.extend(super::pod_warnings::pod_template_warnings(t, &tp));
            }
        }
        Some(o) => {
            // WarningsOnUpdate passes the old template as the new one (Go's argument order).
            let old_spec = field(o, "spec");
            if old_spec != spec {
                if let Some(t) = get(old_spec, "template") {
                    warnings.extend(super::pod_warnings::pod_template_warnings(t, &tp));
                }
            }
        }
    }
    (errors, warnings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn pod(mutate: impl FnOnce(&mut Json)) -> Json {
        let mut p = json!({
            "apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
            "spec": {"containers": [{"name": "c", "image": "nginx"}]}
        });
        mutate(&mut p);
        super::super::pod_defaults::default_pod(&mut p);
        p
    }

    fn texts(p: &Json) -> Vec<String> {
        let mut errors = Vec::new();
        validate_pod_create(p, &mut errors);
        errors.iter().map(Error::text).collect()
    }

    // TestValidatePodCreate / TestValidateContainers (the deployment-style example).
    #[test]
    fn container_errors() {
        assert!(texts(&pod(|_| {})).is_empty());
        let p = pod(|p| {
            p["spec"]["containers"][0] = json!({
                "name": "My_Container",
                "ports": [{"containerPort": 70000, "protocol": "TCPX"}],
                "imagePullPolicy": "Sometimes"
            });
        });
        assert_eq!(
            texts(&p),
            [
                String::from("spec.containers[0].name: Invalid value: \"My_Container\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"),
                String::from("spec.containers[0].image: Required value"),
                String::from("spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive"),
                String::from("spec.containers[0].ports[0].protocol: Unsupported value: \"TCPX\": supported values: \"SCTP\", \"TCP\", \"UDP\""),
                String::from("spec.containers[0].imagePullPolicy: Unsupported value: \"Sometimes\": supported values: \"Always\", \"IfNotPresent\", \"Never\""),
            ]
        );
    }

    // TestValidatePodSpec (restartPolicy, dnsPolicy, activeDeadlineSeconds).
    #[test]
    fn spec_errors() {
        let p = pod(|p| {
            p["spec"]["restartPolicy"] = json!("Sometimes");
            p["spec"]["dnsPolicy"] = json!("Foo");
            p["spec"]["activeDeadlineSeconds"] = json!(0);
        });
        assert_eq!(
            texts(&p),
            [
                "spec.restartPolicy: Unsupported value: \"Sometimes\": supported values: \"Always\", \"OnFailure\", \"Never\"",
                "spec.dnsPolicy: Unsupported value: \"Foo\": supported values: \"ClusterFirstWithHostNet\", \"ClusterFirst\", \"Default\", \"None\"",
                "spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive",
            ]
        );
    }

    // TestValidateResourceRequirements.
    #[test]
    fn resources() {
        let p = pod(|p| {
            p["spec"]["containers"][0]["resources"] = json!({"requests": {"cpu": "2"}, "limits": {"cpu": "1000m"}});
        });
        assert_eq!(
            texts(&p),
            ["spec.containers[0].resources.requests: Invalid value: \"2\": must be less than or equal to cpu limit of 1"]
        );
    }

    // TestValidateVolumes (missing source, bad mount).
    #[test]
    fn volumes() {
        let p = pod(|p| {
            p["spec"]["volumes"] = json!([{"name": "v", "emptyDir": {}, "hostPath": {"path": "/x"}}]);
            p["spec"]["containers"][0]["volumeMounts"] = json!([{"name": "v", "mountPath": "/v"}]);
        });
        assert_eq!(
            texts(&p),
            [
                "spec.volumes[0].hostPath: Forbidden: may not specify more than 1 volume type",
                "spec.containers[0].volumeMounts[0].name: Not found: \"v\"",
            ]
        );
    }
}
