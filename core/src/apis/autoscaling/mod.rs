//! The `autoscaling` group: HorizontalPodAutoscaler, served as v2 and v1, after Kubernetes'
//! `pkg/apis/autoscaling/validation`, `pkg/apis/autoscaling/v2/defaults.go`,
//! `pkg/apis/autoscaling/v1/defaults.go` and `conversion.go`, and
//! `pkg/registry/autoscaling/horizontalpodautoscaler/strategy.go`:
//!
//! - `convert`: a v1 object's spec as the internal type holds it (validation runs on the
//!   internal object, so a v1 request's errors have internal paths);
//! - `validation`: `ValidateHorizontalPodAutoscaler` / `ValidateHorizontalPodAutoscalerUpdate`
//!   on the internal spec.
//!
//! This module holds the defaulting and the strategy (`PrepareForCreate`, `PrepareForUpdate`,
//! `validationOptionsForHorizontalPodAutoscaler`; no warnings). Feature gates of 1.37:
//! HPAScaleToZero (beta from 1.37, so `minReplicas` may be 0), HPAConfigurableTolerance
//! (`dropDisabledFields` drops nothing) and HPAGeneration on.

mod convert;
#[cfg(test)]
mod tests;
mod validation;

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{json, Map, Value as Json};

use super::Group;
use crate::apis::apps::common::same;
use crate::apis::json::{field, get, list, str, struct_mut};
use crate::field::{Error, Path};

/// The kinds this room models.
pub const KINDS: &[&str] = &["HorizontalPodAutoscaler"];

/// `SetObjectDefaults_HorizontalPodAutoscaler` of the served version.
pub fn default(version: &str, kind: &str, object: &mut Json) {
    if kind != "HorizontalPodAutoscaler" {
        return;
    }
    let Some(spec) = struct_mut(object, "spec") else { return };
    match version {
        // v1 SetDefaults_HorizontalPodAutoscaler: the CPU default comes with the conversion.
        "v1" => default_nil(spec, "minReplicas", json!(1)),
        "v2" => {
            // v2 SetDefaults_HorizontalPodAutoscaler.
            default_nil(spec, "minReplicas", json!(1));
            if list(spec, "metrics").is_empty() {
                if let Json::Object(map) = spec {
                    map.insert(String::from("metrics"), json!([convert::cpu_metric(convert::DEFAULT_CPU_UTILIZATION)]));
                }
            }
            // SetDefaults_HorizontalPodAutoscalerBehavior.
            if let Some(behavior) = spec.get_mut("behavior").filter(|b| b.is_object()) {
                let up = json!({"stabilizationWindowSeconds": 0, "selectPolicy": "Max", "policies": [
                    {"type": "Pods", "value": 4, "periodSeconds": 15},
                    {"type": "Percent", "value": 100, "periodSeconds": 15}]});
                let down = json!({"selectPolicy": "Max", "policies": [
                    {"type": "Percent", "value": 100, "periodSeconds": 15}]});
                for (key, defaults) in [("scaleUp", up), ("scaleDown", down)] {
                    let rules = copy_scaling_rules(behavior.get(key), defaults);
                    if let Json::Object(map) = behavior {
                        map.insert(String::from(key), rules);
                    }
                }
            }
        }
        _ => {}
    }
}

/// Sets `key` when it is absent or `null` (Go: `if x == nil`).
fn default_nil(v: &mut Json, key: &str, value: Json) {
    if let Json::Object(map) = v {
        if map.get(key).is_none_or(Json::is_null) {
            map.insert(String::from(key), value);
        }
    }
}

/// v2 `copyHPAScalingRules`: the defaults with each field `from` sets (`policies` when not nil,
/// an empty list included).
fn copy_scaling_rules(from: Option<&Json>, mut to: Json) -> Json {
    let Some(from) = from.filter(|f| f.is_object()) else { return to };
    if let Json::Object(map) = &mut to {
        for key in ["selectPolicy", "stabilizationWindowSeconds", "policies", "tolerance"] {
            if let Some(v) = get(from, key) {
                map.insert(String::from(key), v.clone());
            }
        }
    }
    to
}

/// The internal spec of the object in its served version.
fn internal_spec(version: &str, object: &Json) -> Json {
    match version {
        "v1" => convert::internal_spec(object),
        _ => field(object, "spec").clone(),
    }
}

/// The strategy, validation and warnings of one request.
pub fn admit(group: &Group<'_>, object: &mut Json, old: Option<&Json>) -> (Vec<Error>, Vec<String>) {
    let mut errors = Vec::new();
    if group.kind != "HorizontalPodAutoscaler" {
        return (errors, Vec::new());
    }
    let spec = internal_spec(group.version, object);
    let old_spec = old.map(|o| internal_spec(group.version, o));
    // PrepareForCreate / PrepareForUpdate: the status reset or kept, the generation (HPAGeneration).
    let generation = match old {
        None => Some(1),
        Some(old) => {
            let g = field(field(old, "metadata"), "generation").as_i64().unwrap_or(0);
            (!same(&spec, old_spec.as_ref().unwrap_or(&Json::Null))).then_some(g.saturating_add(1))
        }
    };
    if let Json::Object(map) = object {
        match old.map(|o| o.get("status").cloned()) {
            None => map.insert(String::from("status"), Json::Object(Map::new())),
            Some(Some(s)) => map.insert(String::from("status"), s),
            Some(None) => map.remove("status"),
        };
        if let (Some(g), Some(Json::Object(meta))) = (generation, map.get_mut("metadata")) {
            meta.insert(String::from("generation"), json!(g));
        }
    }
    let opts = options(&spec, old_spec.as_ref(), group.context.minor);
    let root = Path::root();
    validation::validate_spec(&spec, &root.child("spec"), &opts, &mut errors);
    (errors, Vec::new())
}

/// The declarative options the strategy passes (`HPAScaleToZero`, on with its gate or when
/// the old object already scales to zero), for the `+k8s:ifEnabled` rules of `minReplicas`.
pub fn declarative_options(object: &Json, old: Option<&Json>, minor: u32) -> Vec<String> {
    let old_spec = old.map(|o| field(o, "spec"));
    match options(field(object, "spec"), old_spec, minor).min_replicas_lower_bound {
        0 => alloc::vec![String::from("HPAScaleToZero")],
        _ => Vec::new(),
    }
}

/// `validationOptionsForHorizontalPodAutoscaler`.
fn options(spec: &Json, old: Option<&Json>, minor: u32) -> validation::Options {
    let mut opts = validation::Options {
        min_replicas_lower_bound: 1,
        scale_target_ref: validation::RefOptions::default(),
        object_metrics: validation::RefOptions { allow_empty_api_group: true, allow_invalid_api_version: false },
    };
    let old_zero = old.is_some_and(|o| crate::apis::json::int(o, "minReplicas") == Some(0));
    // HPAScaleToZero: beta and on from 1.37.
    if minor >= 37 || old_zero {
        opts.min_replicas_lower_bound = 0;
    }
    let target = field(spec, "scaleTargetRef");
    let same_target = old.is_some_and(|o| {
        let old_target = field(o, "scaleTargetRef");
        str(old_target, "apiVersion") == str(target, "apiVersion") && str(old_target, "kind") == str(target, "kind")
    });
    if same_target {
        opts.scale_target_ref.allow_invalid_api_version = true;
    } else if str(target, "kind") == "ReplicationController" {
        opts.scale_target_ref.allow_empty_api_group = true;
    }
    if let Some(old) = old {
        for metric in list(old, "metrics") {
            if str(metric, "type") == "Object" {
                if let Some(o) = get(metric, "object") {
                    let api_version = str(field(o, "describedObject"), "apiVersion");
                    if validation::validate_api_version(api_version, &opts.object_metrics).is_some() {
                        opts.object_metrics.allow_invalid_api_version = true;
                        break;
                    }
                }
            }
        }
    }
    opts
}
