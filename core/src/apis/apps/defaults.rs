//! Defaulting of apps/v1, after Kubernetes' `pkg/apis/apps/v1/defaults.go`
//! (`SetDefaults_Deployment`, `SetDefaults_ReplicaSet`, `SetDefaults_StatefulSet`,
//! `SetDefaults_DaemonSet`) in the order of `zz_generated.defaults.go`'s `SetObjectDefaults_X`:
//! the kind's own defaults, then the pod template's (core's `SetDefaults_PodSpec` and kin), then,
//! for a StatefulSet, its `volumeClaimTemplates` (`SetDefaults_PersistentVolumeClaim`,
//! `SetDefaults_PersistentVolumeClaimSpec`).

use serde_json::{json, Value as Json};

use crate::apis::json::{default_to, list_mut, struct_mut};

/// `SetObjectDefaults_<kind>` of apps/v1 (ControllerRevision has none).
pub fn default(kind: &str, object: &mut Json) {
    if !matches!(kind, "Deployment" | "ReplicaSet" | "StatefulSet" | "DaemonSet") {
        return;
    }
    let Some(spec) = struct_mut(object, "spec") else { return };
    match kind {
        "Deployment" => deployment(spec),
        "ReplicaSet" => default_to(spec, "replicas", json!(1)),
        "StatefulSet" => stateful_set(spec),
        "DaemonSet" => daemon_set(spec),
        _ => return,
    }
    if let Some(template) = struct_mut(spec, "template") {
        crate::apis::core::pod::default_pod_template_spec(template);
    }
    if kind == "StatefulSet" {
        for claim in list_mut(spec, "volumeClaimTemplates") {
            // SetDefaults_PersistentVolumeClaim, SetDefaults_PersistentVolumeClaimSpec.
            if let Some(status) = struct_mut(claim, "status") {
                default_to(status, "phase", json!("Pending"));
            }
            if let Some(claim_spec) = struct_mut(claim, "spec") {
                default_to(claim_spec, "volumeMode", json!("Filesystem"));
            }
        }
    }
}

/// `SetDefaults_Deployment`.
fn deployment(spec: &mut Json) {
    default_to(spec, "replicas", json!(1));
    if let Some(strategy) = struct_mut(spec, "strategy") {
        default_to(strategy, "type", json!("RollingUpdate"));
        if strategy.get("type").and_then(Json::as_str) == Some("RollingUpdate") {
            if let Some(rolling) = struct_mut(strategy, "rollingUpdate") {
                pointer_default(rolling, "maxUnavailable", json!("25%"));
                pointer_default(rolling, "maxSurge", json!("25%"));
            }
        }
    }
    default_to(spec, "revisionHistoryLimit", json!(10));
    default_to(spec, "progressDeadlineSeconds", json!(600));
}

/// `SetDefaults_DaemonSet`.
fn daemon_set(spec: &mut Json) {
    if let Some(strategy) = struct_mut(spec, "updateStrategy") {
        default_to(strategy, "type", json!("RollingUpdate"));
        if strategy.get("type").and_then(Json::as_str) == Some("RollingUpdate") {
            if let Some(rolling) = struct_mut(strategy, "rollingUpdate") {
                // IntOrString pointers: an empty string is a set value, not nil.
                pointer_default(rolling, "maxUnavailable", json!(1));
                pointer_default(rolling, "maxSurge", json!(0));
            }
        }
    }
    default_to(spec, "revisionHistoryLimit", json!(10));
}

/// `SetDefaults_StatefulSet` (MaxUnavailableStatefulSet is on by default in 1.37).
fn stateful_set(spec: &mut Json) {
    default_to(spec, "podManagementPolicy", json!("OrderedReady"));
    if let Some(strategy) = struct_mut(spec, "updateStrategy") {
        if strategy.get("type").and_then(Json::as_str).unwrap_or("").is_empty() {
            default_to(strategy, "type", json!("RollingUpdate"));
            let _ = struct_mut(strategy, "rollingUpdate");
        }
        let rolling_type = strategy.get("type").and_then(Json::as_str) == Some("RollingUpdate");
        if let Some(rolling) = strategy.get_mut("rollingUpdate").filter(|r| r.is_object()) {
            if rolling_type {
                default_to(rolling, "partition", json!(0));
                pointer_default(rolling, "maxUnavailable", json!(1));
            }
        }
    }
    if let Some(policy) = struct_mut(spec, "persistentVolumeClaimRetentionPolicy") {
        default_to(policy, "whenDeleted", json!("Retain"));
        default_to(policy, "whenScaled", json!("Retain"));
    }
    default_to(spec, "replicas", json!(1));
    default_to(spec, "revisionHistoryLimit", json!(10));
}

/// `if x == nil { x = &v }` for a pointer whose set value may be an empty string.
fn pointer_default(v: &mut Json, key: &str, value: Json) {
    if let Json::Object(map) = v {
        if map.get(key).is_none_or(Json::is_null) {
            map.insert(key.into(), value);
        }
    }
}
