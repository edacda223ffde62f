//! Pod, PodTemplate and ReplicationController, after `pkg/apis/core/validation/validation.go`
//! (`ValidatePodCreate`, `ValidatePodUpdate`'s first steps, `validatePodMetadataAndSpec`
//! minus the top metadata, `ValidatePodSpec`, `ValidatePodSpecificAnnotations` with
//! `ValidateTolerationsInPodAnnotations`,
//! `validatePodHostNetworkDeps`, `validateRestartPolicy`, `validateDNSPolicy`,
//! `validateImagePullSecrets`, `validateReadinessGates`, `validateSchedulingGates`,
//! `validatePodResources`, `ValidatePodTemplate(Update)`, `ValidatePodTemplateSpec`,
//! `ValidateReplicationController(Update)`, `ValidateReplicationControllerSpec`,
//! `ValidatePodTemplateSpecForRC`, `ValidateNonEmptySelector`) and the strategies of
//! `pkg/registry/core/{pod,podtemplate,replicationcontroller}/strategy.go`. The PodSpec's
//! parts are in the `pod_*` rooms beside this one (affinity, topology, OS rules, pod-level
//! resources, DNS and host aliases, updates, dropped fields).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{Map, Value as Json};

use super::super::json::{bool as jbool, field, get, int, list, object, str, string_map};
use super::super::Context;
use super::container::{self, Spec};
pub use super::pod_common::PodOpts;
use super::pod_common::*;
use super::{pod_affinity, pod_fields, pod_os, pod_resources, pod_security, pod_topology, volume};
use crate::field::{Error, Path};

pub use super::common::{validate_annotations, validate_labels};

/// `ValidatePodSpecificAnnotations` (PodDeletionCost on: its value must be an int32 unless
/// the old object's was not).
fn validate_pod_specific_annotations(
    meta: &Json,
    spec: &Json,
    opts: &PodOpts,
    path: &Path<'_>,
    errors: &mut Vec<Error>,
) {
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
    // `ValidateTolerationsInPodAnnotations`: the legacy tolerations annotation.
    if let Some(text) = get_a("scheduler.alpha.kubernetes.io/tolerations").filter(|t| !t.is_empty()) {
        const KEY: &str = "scheduler.alpha.kubernetes.io/tolerations";
        match super::gosyntax::unmarshal_tolerations(text.as_bytes()) {
            Err(e) => errors.push(Error::invalid(path, KEY, e)),
            Ok(tolerations) => pod_fields::validate_tolerations(&tolerations, &path.child(KEY), errors),
        }
    }
    if !opts.allow_invalid_pod_deletion_cost {
        if let Some(v) = get_a("controller.kubernetes.io/pod-deletion-cost") {
            if !super::pod_update::deletion_cost_valid(v) {
                errors.push(Error::invalid(
                    &path.key("controller.kubernetes.io/pod-deletion-cost"),
                    v,
                    "must be a 32bit integer",
                ));
            }
        }
    }
    pod_security::validate_pod_annotations(meta, spec, path, errors);
}

/// `ValidatePodSpec`. `pod_meta` is the pod's metadata (`None` for templates);
/// `opts.resource_is_pod` is `opts.ResourceIsPod`.
pub fn validate_pod_spec(
    spec: &Json,
    pod_meta: Option<&Json>,
    opts: &PodOpts,
    path: &Path<'_>,
    errors: &mut Vec<Error>,
) {
    let grace = int(spec, "terminationGracePeriodSeconds");
    if grace.is_none() {
        errors.push(required(&path.child("terminationGracePeriodSeconds"), ""));
    }
    let host_users = jbool(spec, "hostUsers") != Some(false);
    let pod_name = pod_meta.map_or("", |m| str(m, "name"));
    let volumes = volume::validate_volumes(list(spec, "volumes"), pod_name, &path.child("volumes"), errors);
    let claim_names: Vec<&str> =
        list(spec, "resourceClaims").iter().map(|c| str(c, "name")).filter(|n| !n.is_empty()).collect();
    pod_os::validate_pod_resource_claims(spec, pod_meta, &path.child("resourceClaims"), errors);
    let os = get(spec, "os").map(|o| str(o, "name"));
    let cspec = Spec { os, volumes, claim_names, grace, restart_policy: str(spec, "restartPolicy"), host_users };
    let containers = list(spec, "containers");
    container::validate_containers(containers, &cspec, &path.child("containers"), errors);
    container::validate_init_containers(
        list(spec, "initContainers"),
        containers,
        &cspec,
        &path.child("initContainers"),
        errors,
    );
    validate_ephemeral_containers(spec, &cspec, path, errors);
    validate_pod_resources(spec, &cspec, path, errors);
    // validatePodHostNetworkDeps.
    if jbool(spec, "hostNetwork") == Some(true) {
        let cp = path.child("containers");
        for (i, c) in containers.iter().enumerate() {
            let at = cp.index(i);
            let pp = at.child("ports");
            for (j, port) in list(c, "ports").iter().enumerate() {
                let (hp, cport) = (int(port, "hostPort").unwrap_or(0), int(port, "containerPort").unwrap_or(0));
                if (opts.resource_is_pod || hp != 0) && hp != cport {
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
        other => errors.push(Error::not_supported(
            &dp,
            other,
            &["ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"],
        )),
    }
    validate_labels(object(spec, "nodeSelector"), &path.child("nodeSelector"), errors);
    pod_security::validate_pod_security_context(spec, &path.child("securityContext"), errors);
    pod_security::validate_share_process_namespace(spec, path, errors);
    // validateImagePullSecrets: the internal LocalObjectReference has only `name`, so
    // its "only name may be set" never fires.
    pod_affinity::validate_affinity(spec, opts, &path.child("affinity"), errors);
    pod_fields::validate_dns_config(spec, dns_policy, &path.child("dnsConfig"), errors);
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
    pod_topology::validate_topology_spread_constraints(spec, opts, &path.child("topologySpreadConstraints"), errors);
    pod_os::validate_windows_host_process_pod(spec, path, errors);
    pod_security::validate_host_users(spec, path, errors);
    pod_fields::validate_pod_host_name(spec, path, errors);
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
            errors.push(Error::invalid(
                &path.child("activeDeadlineSeconds"),
                v,
                inclusive_range(1, i64::from(i32::MAX)),
            ));
        }
    }
    for key in ["hostname", "subdomain"] {
        let v = str(spec, key);
        if !v.is_empty() {
            validate_dns1123_label(v, &path.child(key), errors);
        }
    }
    let tolerations = list(spec, "tolerations");
    if !tolerations.is_empty() {
        pod_fields::validate_tolerations(tolerations, &path.child("tolerations"), errors);
    }
    pod_fields::validate_host_aliases(list(spec, "hostAliases"), &path.child("hostAliases"), errors);
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
    pod_os::validate_os(spec, path, errors);
    pod_fields::validate_file_key_ref_volumes(spec, path, errors);
}

/// `validateEphemeralContainers` (the checks of each container; a create refuses them).
fn validate_ephemeral_containers(spec: &Json, cspec: &Spec<'_>, path: &Path<'_>, errors: &mut Vec<Error>) {
    let ephemeral = list(spec, "ephemeralContainers");
    if ephemeral.is_empty() {
        return;
    }
    let ep = path.child("ephemeralContainers");
    let other: Vec<&str> =
        list(spec, "containers").iter().chain(list(spec, "initContainers")).map(|c| str(c, "name")).collect();
    let mut all = other.clone();
    for (i, ec) in ephemeral.iter().enumerate() {
        let at = ep.index(i);
        container::validate_container_common(ec, cspec, &at, errors);
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

/// `validatePodResources` (PodLevelResources on).
fn validate_pod_resources(spec: &Json, cspec: &Spec<'_>, path: &Path<'_>, errors: &mut Vec<Error>) {
    let Some(res) = get(spec, "resources") else { return };
    let rp = path.child("resources");
    if cspec.os == Some("windows") {
        errors.push(forbidden(&rp, "may not be set for a windows pod"));
        return;
    }
    if get(res, "claims").is_some() {
        errors.push(forbidden(&rp.child("claims"), "claims may not be set for Resources at pod-level"));
    }
    container::validate_resource_requirements(res, Some(&cspec.claim_names), true, &rp, errors);
    pod_resources::validate_pod_resource_consistency(spec, &rp, errors);
}

/// `ValidatePodTemplateSpec` with the options the apps and batch strategies build
/// (`ctx.template`: a create's, or an update's from the old template): labels at
/// `<path>.labels`, annotations, pod-specific annotations, the PodSpec at `<path>.spec`, and
/// ephemeral containers refused.
pub fn validate_pod_template_spec(template: &Json, path: &Path<'_>, ctx: &Context, errors: &mut Vec<Error>) {
    validate_pod_template_spec_with(template, &ctx.template, path, errors);
}

/// `GetValidationOptionsFromPodTemplate(template, old)`: the options of an update come from
/// the old template (`None` on a create).
pub fn template_opts(old_template: Option<&Json>) -> PodOpts {
    super::pod_update::pod_opts(old_template.map(|t| (field(t, "spec"), field(t, "metadata"))))
}

/// `ValidatePodTemplateSpec` with the given options (see [`template_opts`]).
pub fn validate_pod_template_spec_with(template: &Json, opts: &PodOpts, path: &Path<'_>, errors: &mut Vec<Error>) {
    let meta = field(template, "metadata");
    let spec = field(template, "spec");
    validate_labels(object(meta, "labels"), &path.child("labels"), errors);
    validate_annotations(object(meta, "annotations"), &path.child("annotations"), errors);
    validate_pod_specific_annotations(meta, spec, opts, &path.child("annotations"), errors);
    let sp = path.child("spec");
    validate_pod_spec(spec, None, opts, &sp, errors);
    pod_security::validate_annotations_and_fields(meta, spec, &sp, errors);
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

/// `pod.DropDisabledTemplateFields` (re-exported from [`super::pod_drop`]): call it from a
/// strategy's `PrepareForCreate` (`old` `None`) and `PrepareForUpdate` (the old template).
pub fn drop_disabled_template_fields(template: &mut Json, old: Option<&Json>) {
    super::pod_drop::drop_disabled_template_fields(template, old);
}

/// `validatePodMetadataAndSpec` minus the pod's own metadata.
fn validate_pod_metadata_and_spec(pod: &Json, opts: &PodOpts, errors: &mut Vec<Error>) {
    let meta = field(pod, "metadata");
    let spec = field(pod, "spec");
    let sp = Path::named("spec");
    let mp = Path::named("metadata");
    validate_pod_specific_annotations(meta, spec, opts, &mp.child("annotations"), errors);
    validate_pod_spec(spec, Some(meta), opts, &sp, errors);
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
}

/// `ValidatePodCreate` minus the pod's own metadata.
pub fn validate_pod_create(pod: &Json, errors: &mut Vec<Error>) {
    let opts = PodOpts { resource_is_pod: true, ..PodOpts::default() };
    validate_pod_metadata_and_spec(pod, &opts, errors);
    let spec = field(pod, "spec");
    let sp = Path::named("spec");
    if !list(spec, "ephemeralContainers").is_empty() {
        errors.push(forbidden(&sp.child("ephemeralContainers"), "cannot be set on create"));
    }
    if !str(spec, "nodeName").is_empty() && !list(spec, "schedulingGates").is_empty() {
        errors.push(forbidden(&sp.child("nodeName"), "cannot be set until all schedulingGates have been cleared"));
    }
    pod_security::validate_annotations_and_fields(field(pod, "metadata"), spec, &sp, errors);
}

/// `ValidatePodUpdate` minus the metadata update (`ValidateObjectMetaUpdate`).
pub fn validate_pod_update(pod: &Json, old: &Json, errors: &mut Vec<Error>) {
    let old_meta = field(old, "metadata");
    let mut opts = super::pod_update::pod_opts(Some((field(old, "spec"), old_meta)));
    opts.resource_is_pod = true;
    validate_pod_metadata_and_spec(pod, &opts, errors);
    let meta = field(pod, "metadata");
    let mp = Path::named("metadata");
    let ap = mp.child("annotations");
    super::pod_update::validate_annotation_updates(meta, old_meta, &ap, errors);
    validate_pod_specific_annotations(meta, field(pod, "spec"), &opts, &ap, errors);
    super::pod_update::validate_pod_spec_update(pod, old, errors);
}

/// `ValidateReplicationControllerSpec` and `ValidatePodTemplateSpecForRC`.
pub fn validate_replication_controller_spec(spec: &Json, opts: &PodOpts, path: &Path<'_>, errors: &mut Vec<Error>) {
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
    validate_pod_template_spec_with(template, opts, &tp, errors);
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

/// The pod strategy: on a create `PrepareForCreate` (status reset to phase Pending with
/// the QoS class, disabled fields dropped, `mutatePodAffinity`,
/// `mutateTopologySpreadConstraints`, `applyAppArmorVersionSkew` with its warnings,
/// `DefaultPodLevelResources`), `ValidatePodCreate` and
/// `WarningsOnCreate`; on an update `PrepareForUpdate` and `ValidatePodUpdate` (pod
/// updates give no warnings).
pub fn admit_pod(object: &mut Json, old: Option<&Json>) -> (Vec<Error>, Vec<String>) {
    let mut errors = Vec::new();
    // Mutating admission runs before the strategy and validation.
    default_toleration_seconds(object);
    match old {
        None => {
            if let Json::Object(map) = object {
                if let Some(Json::Object(meta)) = map.get_mut("metadata") {
                    meta.insert(String::from("generation"), Json::from(1));
                }
                map.insert(String::from("status"), serde_json::json!({ "phase": "Pending" }));
            }
            super::pod_drop::drop_disabled_pod_fields(object, None);
            pod_affinity::mutate_pod_affinity(object);
            pod_topology::mutate_topology_spread_constraints(object);
            // Its warnings are recorded on the request ([`prepare_warnings`]).
            let (fields, _) = pod_security::app_armor_version_skew(object);
            pod_security::apply_app_armor_fields(object, fields);
            pod_resources::default_pod_level_resources(object);
            let qos = qos_class(field(object, "spec"));
            if let Some(Json::Object(status)) = object.get_mut("status") {
                status.insert(String::from("qosClass"), Json::from(qos));
            }
            validate_pod_create(object, &mut errors);
            let warnings = super::pod_warnings::pod_warnings(object, None);
            (errors, warnings)
        }
        Some(o) => {
            super::pod_update::prepare_pod_for_update(object, o);
            validate_pod_update(object, o, &mut errors);
            (errors, Vec::new())
        }
    }
}

/// The `DefaultTolerationSeconds` admission plugin (on by default, mutating a pod on create
/// and on update, `plugin/pkg/admission/defaulttolerationseconds`): a pod that does not
/// tolerate `node.kubernetes.io/not-ready` (or `unreachable`) with `NoExecute` — a toleration
/// of that key or of every key, with that effect or every effect — gets one for 300 seconds.
fn default_toleration_seconds(pod: &mut Json) {
    let Some(Json::Object(spec)) = pod.get_mut("spec") else { return };
    let tolerations: &[Json] = match spec.get("tolerations") {
        Some(Json::Array(items)) => items,
        _ => &[],
    };
    let tolerates = |key: &str| {
        tolerations.iter().any(|t| {
            let k = t.get("key").and_then(Json::as_str).unwrap_or("");
            let effect = t.get("effect").and_then(Json::as_str).unwrap_or("");
            (k == key || k.is_empty()) && (effect == "NoExecute" || effect.is_empty())
        })
    };
    let missing: Vec<&str> = ["node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable"]
        .into_iter()
        .filter(|k| !tolerates(k))
        .collect();
    if missing.is_empty() {
        return;
    }
    let list = spec.entry("tolerations").or_insert(Json::Null);
    if !list.is_array() {
        *list = Json::Array(Vec::new());
    }
    if let Json::Array(items) = list {
        for key in missing {
            items.push(
                serde_json::json!({"key": key, "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300}),
            );
        }
    }
}

/// The warnings a Pod's create records in `PrepareForCreate`, whatever validation says: those
/// of `applyAppArmorVersionSkew` (deprecated AppArmor annotations), from the defaulted pod.
pub fn prepare_warnings(pod: &Json) -> Vec<String> {
    pod_security::app_armor_version_skew(pod).1
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
pub fn admit_pod_template(object: &mut Json, old: Option<&Json>, _ctx: &Context) -> (Vec<Error>, Vec<String>) {
    let old_template = old.and_then(|o| o.get("template"));
    if let Some(t) = object.get_mut("template") {
        drop_disabled_template_fields(t, old_template);
    }
    if old.is_none() {
        if let Some(Json::Object(meta)) = object.get_mut("metadata") {
            meta.insert(String::from("generation"), Json::from(1));
        }
    }
    let mut errors = Vec::new();
    let tp = Path::named("template");
    let template = field(object, "template");
    validate_pod_template_spec_with(template, &template_opts(old_template), &tp, &mut errors);
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
pub fn admit_replication_controller(
    object: &mut Json,
    old: Option<&Json>,
    _ctx: &Context,
) -> (Vec<Error>, Vec<String>) {
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
                    meta.insert(
                        String::from("generation"),
                        Json::from(if changed { gen.saturating_add(1) } else { gen }),
                    );
                }
            }
        }
    }
    let old_template = old.and_then(|o| o.get("spec")).and_then(|s| get(s, "template"));
    if let Some(t) = object.get_mut("spec").and_then(|s| s.get_mut("template")).filter(|t| !t.is_null()) {
        drop_disabled_template_fields(t, old_template);
    }
    let mut errors = Vec::new();
    let sp = Path::named("spec");
    let spec = field(object, "spec");
    validate_replication_controller_spec(spec, &template_opts(old_template), &sp, &mut errors);
    if let Some(o) = old {
        non_convertible_fields(field(o, "metadata"), field(o, "spec"), spec, &mut errors);
    }
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

/// The replication controller strategy's `ValidateUpdate` after
/// `ValidateReplicationControllerUpdate`: the old object's `non-convertible.kubernetes.io/FIELD`
/// annotations (`helper.NonConvertibleFields`, written when a ReplicaSet could not be
/// converted to a controller): a selector one forbids changing the selector, any other is an
/// unknown field.
fn non_convertible_fields(old_meta: &Json, old_spec: &Json, spec: &Json, errors: &mut Vec<Error>) {
    for (key, value) in string_map(old_meta, "annotations") {
        if !key.starts_with("non-convertible.kubernetes.io") {
            continue;
        }
        let parts: Vec<&str> = key.split('/').collect();
        let [_, broken] = parts.as_slice() else { continue };
        if broken.contains("selector") {
            let (new, old) = (field(spec, "selector"), field(old_spec, "selector"));
            // `Semantic.DeepEqual` of two maps: a nil map equals an empty one.
            let empty = |v: &Json| v.as_object().is_none_or(|m| m.is_empty());
            if new != old && !(empty(new) && empty(old)) {
                errors.push(Error::invalid(
                    &Path::named("spec").child("selector"),
                    new.clone(),
                    "cannot update non-convertible selector",
                ));
            }
        } else {
            errors.push(Error::new(
                crate::field::ErrorType::NotFound,
                &Path::named(broken),
                Some(Json::from(value)),
                String::from("unknown non-convertible field"),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn pod(mutate: impl FnOnce(&mut Json)) -> Json {
        let mut p = json!({
            "apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
            "spec": {"containers": [{"name": "c", "image": "nginx", "imagePullPolicy": "IfNotPresent"}]}
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

    fn admitted(p: &Json, old: Option<&Json>) -> Vec<String> {
        let mut p = p.clone();
        let (errors, _) = admit_pod(&mut p, old);
        errors.iter().map(Error::text).collect()
    }

    // TestValidatePodCreate: pod-level resources against the containers' (the create
    // strategy's DefaultPodLevelResources first).
    #[test]
    fn pod_level_resources() {
        let p = pod(|p| {
            p["spec"]["resources"] = json!({"requests": {"memory": "1500m"}});
            p["spec"]["containers"][0]["resources"] = json!({"requests": {"memory": "50Mi"}});
        });
        assert_eq!(
            admitted(&p, None),
            ["spec.resources.requests[memory]: Invalid value: \"1500m\": must be greater than or equal to aggregate container requests of 50Mi"]
        );
    }

    // TestValidateSecurityContext: the bad value is the internal struct as JSON.
    #[test]
    fn security_context_value() {
        let p = pod(|p| {
            p["spec"]["containers"][0]["securityContext"] =
                json!({"privileged": true, "allowPrivilegeEscalation": false});
        });
        assert_eq!(
            admitted(&p, None),
            ["spec.containers[0].securityContext: Invalid value: {\"Capabilities\":null,\"Privileged\":true,\"SELinuxOptions\":null,\"WindowsOptions\":null,\"RunAsUser\":null,\"RunAsGroup\":null,\"RunAsNonRoot\":null,\"ReadOnlyRootFilesystem\":null,\"AllowPrivilegeEscalation\":false,\"ProcMount\":null,\"SeccompProfile\":null,\"AppArmorProfile\":null}: cannot set `allowPrivilegeEscalation` to false and `privileged` to true"]
        );
    }

    // TestValidatePodUpdate through the strategy: a changed field other than the image.
    #[test]
    fn update() {
        let old = pod(|_| {});
        let new = pod(|p| p["spec"]["containers"][0]["image"] = json!("nginx:2"));
        assert!(admitted(&new, Some(&old)).is_empty());
        let new = pod(|p| p["spec"]["restartPolicy"] = json!("Never"));
        let errors = admitted(&new, Some(&old));
        assert_eq!(errors.len(), 1);
        assert!(errors
            .first()
            .is_some_and(|e| e.contains("\n- \"RestartPolicy\": \"Always\",\n+ \"RestartPolicy\": \"Never\",\n")));
    }
}
