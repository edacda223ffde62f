//! HorizontalPodAutoscaler validation, after Kubernetes'
//! `pkg/apis/autoscaling/validation/validation.go` (`validateHorizontalPodAutoscalerSpec`,
//! `ValidateCrossVersionObjectReference`, `ValidateAPIVersion`, `validateMetrics`,
//! `validateBehavior`, `validateScalingRules`, `validateScalingPolicy`, `validateMetricSpec`,
//! `validateObjectSource`, `validateExternalSource`, `validatePodsSource`,
//! `validateContainerResourceSource`, `validateResourceSource`, `validateMetricTarget`,
//! `validateMetricIdentifier`), on the internal spec (autoscaling/v2's shape).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value as Json;

use crate::apis::apps::common::{forbidden, invalid_rendered, not_supported_rendered, required};
use crate::apis::core::common::validate_dns1123_label;
use crate::apis::json::{field, get, int, list, opt_str, str};
use crate::content::is_path_segment_name;
use crate::field::{go_json, Error, Path};
use crate::quantity;

/// `MaxPeriodSeconds`.
const MAX_PERIOD_SECONDS: i64 = 1800;
/// `MaxStabilizationWindowSeconds`.
const MAX_STABILIZATION_WINDOW_SECONDS: i64 = 3600;

/// `CrossVersionObjectReferenceValidationOptions`.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct RefOptions {
    /// `AllowEmptyAPIGroup`.
    pub allow_empty_api_group: bool,
    /// `AllowInvalidAPIVersion`.
    pub allow_invalid_api_version: bool,
}

/// `HorizontalPodAutoscalerSpecValidationOptions`.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Options {
    /// `MinReplicasLowerBound`.
    pub min_replicas_lower_bound: i64,
    /// `ScaleTargetRefValidationOptions`.
    pub scale_target_ref: RefOptions,
    /// `ObjectMetricsValidationOptions`.
    pub object_metrics: RefOptions,
}

/// A string of a named Go string type, printed as `json.Marshal` prints it.
fn named(s: &str) -> (Json, String) {
    let v = Json::from(s);
    let r = go_json(&v);
    (v, r)
}

/// `validateHorizontalPodAutoscalerSpec`.
pub(super) fn validate_spec(spec: &Json, path: &Path<'_>, opts: &Options, errors: &mut Vec<Error>) {
    let min = int(spec, "minReplicas");
    if let Some(m) = min.filter(|m| *m < opts.min_replicas_lower_bound) {
        errors.push(
            Error::invalid(
                &path.child("minReplicas"),
                m,
                format!("must be greater than or equal to {}", opts.min_replicas_lower_bound),
            )
            .with_origin("minimum"),
        );
    }
    let max = int(spec, "maxReplicas").unwrap_or(0);
    let max_path = path.child("maxReplicas");
    // `maxReplicas == 0` is refused with `Required value: must be set and greater than 0`, a
    // check `MarkCoveredByDeclarative`: the declarative `+k8s:required` (beta, enforced) reports
    // it as `spec.maxReplicas: Required value`, and the API server drops the handwritten error.
    if max < 0 {
        errors.push(Error::invalid(&max_path, max, "must be greater than or equal to 1").with_origin("minimum"));
    }
    if min.is_some_and(|m| max < m) {
        errors.push(Error::invalid(&max_path, max, "must be greater than or equal to `minReplicas`"));
    }
    validate_reference(field(spec, "scaleTargetRef"), &path.child("scaleTargetRef"), &opts.scale_target_ref, errors);
    validate_metrics(list(spec, "metrics"), &path.child("metrics"), min, &opts.object_metrics, errors);
    if let Some(behavior) = get(spec, "behavior") {
        let bp = path.child("behavior");
        for key in ["scaleUp", "scaleDown"] {
            if let Some(rules) = get(behavior, key) {
                validate_scaling_rules(rules, &bp.child(key), errors);
            }
        }
    }
}

/// `ValidateCrossVersionObjectReference`.
fn validate_reference(reference: &Json, path: &Path<'_>, opts: &RefOptions, errors: &mut Vec<Error>) {
    for key in ["kind", "name"] {
        let value = str(reference, key);
        let at = path.child(key);
        if value.is_empty() {
            errors.push(required(&at, ""));
        } else {
            for msg in is_path_segment_name(value) {
                errors.push(Error::invalid(&at, value, msg));
            }
        }
    }
    let api_version = str(reference, "apiVersion");
    if let Some(msg) = validate_api_version(api_version, opts) {
        errors.push(Error::invalid(&path.child("apiVersion"), api_version, msg));
    }
}

/// `ValidateAPIVersion`: the text of its error, if any (`schema.ParseGroupVersion`'s, or a
/// missing group).
pub(super) fn validate_api_version(api_version: &str, opts: &RefOptions) -> Option<String> {
    if opts.allow_invalid_api_version {
        return None;
    }
    let group = match api_version {
        "" | "/" => "",
        v => match v.matches('/').count() {
            0 => "",
            1 => v.split('/').next().unwrap_or(""),
            _ => return Some(format!("unexpected GroupVersion string: {v}")),
        },
    };
    (!opts.allow_empty_api_group && group.is_empty()).then(|| String::from("apiVersion must specify API group"))
}

/// `validateMetrics`.
fn validate_metrics(metrics: &[Json], path: &Path<'_>, min: Option<i64>, opts: &RefOptions, errors: &mut Vec<Error>) {
    let mut object_or_external = false;
    for (i, metric) in metrics.iter().enumerate() {
        validate_metric_spec(metric, &path.index(i), opts, errors);
        object_or_external |= matches!(str(metric, "type"), "Object" | "External");
    }
    if min == Some(0) && !object_or_external {
        errors.push(forbidden(
            path,
            "must specify at least one Object or External metric to support scaling to zero replicas",
        ));
    }
}

/// `validateScalingRules`.
fn validate_scaling_rules(rules: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    if let Some(window) = int(rules, "stabilizationWindowSeconds") {
        let at = path.child("stabilizationWindowSeconds");
        if window < 0 {
            errors.push(Error::invalid(&at, window, "must be greater than or equal to zero"));
        }
        if window > MAX_STABILIZATION_WINDOW_SECONDS {
            errors.push(Error::invalid(
                &at,
                window,
                format!("must be less than or equal to {MAX_STABILIZATION_WINDOW_SECONDS}"),
            ));
        }
    }
    if let Some(select) = opt_str(rules, "selectPolicy") {
        if !matches!(select, "Max" | "Min" | "Disabled") {
            let (v, r) = named(select);
            errors.push(not_supported_rendered(&path.child("selectPolicy"), v, r, &["Disabled", "Max", "Min"]));
        }
    }
    let policies_path = path.child("policies");
    let policies = list(rules, "policies");
    if policies.is_empty() {
        errors.push(required(&policies_path, "must specify at least one Policy"));
    }
    for (i, policy) in policies.iter().enumerate() {
        validate_scaling_policy(policy, &policies_path.index(i), errors);
    }
    if let Some(q) = get(rules, "tolerance").and_then(quantity::from_json) {
        // ValidateNonnegativeQuantity: the value printed as `value.String()`.
        if q.sign() < 0 {
            errors.push(Error::invalid(&path.child("tolerance"), q.canonical(), "must be greater than or equal to 0"));
        }
    }
}

/// `validateScalingPolicy`.
fn validate_scaling_policy(policy: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let ty = str(policy, "type");
    if !matches!(ty, "Pods" | "Percent") {
        let (v, r) = named(ty);
        errors.push(not_supported_rendered(&path.child("type"), v, r, &["Percent", "Pods"]));
    }
    let value = int(policy, "value").unwrap_or(0);
    if value <= 0 {
        errors.push(Error::invalid(&path.child("value"), value, "must be greater than zero"));
    }
    let period = int(policy, "periodSeconds").unwrap_or(0);
    let period_path = path.child("periodSeconds");
    if period <= 0 {
        errors.push(Error::invalid(&period_path, period, "must be greater than zero"));
    }
    if period > MAX_PERIOD_SECONDS {
        errors.push(Error::invalid(
            &period_path,
            period,
            format!("must be less than or equal to {MAX_PERIOD_SECONDS}"),
        ));
    }
}

/// The metric source types, sorted (`validMetricSourceTypesList`).
const METRIC_SOURCE_TYPES: &[&str] = &["ContainerResource", "External", "Object", "Pods", "Resource"];

/// `validateMetricSpec`.
fn validate_metric_spec(spec: &Json, path: &Path<'_>, opts: &RefOptions, errors: &mut Vec<Error>) {
    let ty = str(spec, "type");
    let type_path = path.child("type");
    let not_supported = || {
        let (v, r) = named(ty);
        not_supported_rendered(&type_path, v, r, METRIC_SOURCE_TYPES)
    };
    if ty.is_empty() {
        errors.push(required(&type_path, "must specify a metric source type"));
    }
    if !METRIC_SOURCE_TYPES.contains(&ty) {
        errors.push(not_supported());
    }
    // The sources present, in Go's order; only the first is validated.
    let mut present: Vec<&str> = Vec::new();
    for key in ["object", "external", "pods", "resource", "containerResource"] {
        let Some(source) = get(spec, key) else { continue };
        present.push(key);
        if present.len() > 1 {
            continue;
        }
        let at = path.child(key);
        match key {
            "object" => validate_object_source(source, &at, opts, errors),
            "external" => validate_external_source(source, &at, errors),
            "pods" => validate_pods_source(source, &at, errors),
            "resource" => validate_resource_source(source, &at, false, errors),
            _ => validate_resource_source(source, &at, true, errors),
        }
    }
    let expected = match ty {
        "Object" => "object",
        "Pods" => "pods",
        "Resource" => "resource",
        "External" => "external",
        "ContainerResource" => "containerResource",
        _ => {
            errors.push(not_supported());
            ""
        }
    };
    if !expected.is_empty() && get(spec, expected).is_none() {
        errors.push(required(&path.child(expected), "must populate information for the given metric source"));
    }
    if present.len() != 1 {
        // Go ranges over a set (random order); sorted here.
        let mut others: Vec<&str> = present.into_iter().filter(|k| *k != expected).collect();
        others.sort_unstable();
        for key in others {
            errors.push(forbidden(&path.child(key), "must populate the given metric source only"));
        }
    }
}

/// `validateObjectSource`.
fn validate_object_source(src: &Json, path: &Path<'_>, opts: &RefOptions, errors: &mut Vec<Error>) {
    validate_reference(field(src, "describedObject"), &path.child("describedObject"), opts, errors);
    validate_metric_identifier(field(src, "metric"), &path.child("metric"), errors);
    let target = field(src, "target");
    let target_path = path.child("target");
    validate_metric_target(target, &target_path, errors);
    if get(target, "value").is_none() && get(target, "averageValue").is_none() {
        errors.push(required(&target_path.child("averageValue"), "must set either a target value or averageValue"));
    }
}

/// `validateExternalSource`.
fn validate_external_source(src: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    validate_metric_identifier(field(src, "metric"), &path.child("metric"), errors);
    let target = field(src, "target");
    let target_path = path.child("target");
    validate_metric_target(target, &target_path, errors);
    let (value, average) = (get(target, "value"), get(target, "averageValue"));
    if value.is_none() && average.is_none() {
        errors.push(required(
            &target_path.child("averageValue"),
            "must set either a target value for metric or a per-pod target",
        ));
    }
    if value.is_some() && average.is_some() {
        errors.push(forbidden(
            &target_path.child("value"),
            "may not set both a target value for metric and a per-pod target",
        ));
    }
}

/// `validatePodsSource`.
fn validate_pods_source(src: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    validate_metric_identifier(field(src, "metric"), &path.child("metric"), errors);
    let target = field(src, "target");
    let target_path = path.child("target");
    validate_metric_target(target, &target_path, errors);
    if get(target, "averageValue").is_none() {
        errors.push(required(&target_path.child("averageValue"), "must specify a positive target averageValue"));
    }
}

/// `validateResourceSource`, or with `container` `validateContainerResourceSource`.
fn validate_resource_source(src: &Json, path: &Path<'_>, container: bool, errors: &mut Vec<Error>) {
    let name = str(src, "name");
    let name_path = path.child("name");
    if name.is_empty() {
        errors.push(required(&name_path, "must specify a resource name"));
    } else if container {
        // ValidateContainerResourceName.
        crate::apis::core::pod_container_resources::resource_name(name, false, &name_path, errors);
    }
    if container {
        let c = str(src, "container");
        let c_path = path.child("container");
        if c.is_empty() {
            errors.push(required(&c_path, "must specify a container"));
        } else {
            validate_dns1123_label(c, &c_path, errors);
        }
    }
    let target = field(src, "target");
    let target_path = path.child("target");
    validate_metric_target(target, &target_path, errors);
    let (utilization, average) = (get(target, "averageUtilization"), get(target, "averageValue"));
    if utilization.is_none() && average.is_none() {
        errors.push(required(
            &target_path.child("averageUtilization"),
            "must set either a target raw value or a target utilization",
        ));
    }
    if utilization.is_some() && average.is_some() {
        errors.push(forbidden(
            &target_path.child("averageValue"),
            "may not set both a target raw value and a target utilization",
        ));
    }
}

/// `validateMetricTarget`.
fn validate_metric_target(target: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let ty = str(target, "type");
    let type_path = path.child("type");
    if ty.is_empty() {
        errors.push(required(&type_path, "must specify a metric target type"));
    }
    if !matches!(ty, "Utilization" | "Value" | "AverageValue") {
        let (v, r) = named(ty);
        errors.push(invalid_rendered(&type_path, v, r, "must be either Utilization, Value, or AverageValue"));
    }
    for key in ["value", "averageValue"] {
        if let Some(q) = get(target, key).and_then(quantity::from_json) {
            if q.sign() != 1 {
                // json.Marshal of a *resource.Quantity: its canonical text, quoted.
                let (v, r) = named(&q.canonical());
                errors.push(invalid_rendered(&path.child(key), v, r, "must be positive"));
            }
        }
    }
    if let Some(u) = int(target, "averageUtilization").filter(|u| *u < 1) {
        errors.push(Error::invalid(&path.child("averageUtilization"), u, "must be greater than 0"));
    }
}

/// `validateMetricIdentifier`.
fn validate_metric_identifier(id: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let name = str(id, "name");
    let at = path.child("name");
    if name.is_empty() {
        errors.push(required(&at, "must specify a metric name"));
    } else {
        for msg in is_path_segment_name(name) {
            errors.push(Error::invalid(&at, name, msg));
        }
    }
}
