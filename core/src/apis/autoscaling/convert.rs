//! An autoscaling/v1 HorizontalPodAutoscaler's spec as the internal type holds it, after
//! Kubernetes' `pkg/apis/autoscaling/v1/conversion.go`
//! (`Convert_v1_HorizontalPodAutoscaler_To_autoscaling_HorizontalPodAutoscaler`,
//! `Convert_v1_HorizontalPodAutoscalerSpec_To_autoscaling_HorizontalPodAutoscalerSpec`, the
//! metric source conversions): `targetCPUUtilizationPercentage` becomes a Resource metric, the
//! annotation `autoscaling.alpha.kubernetes.io/metrics` carries the other metrics (a JSON list
//! of v1 `MetricSpec`s) and `autoscaling.alpha.kubernetes.io/behavior` the behavior (JSON of the
//! internal type). An annotation Go's `json.Unmarshal` refuses is ignored.
//!
//! The internal spec is given in autoscaling/v2's shape (the internal field names are v2's):
//! validation reads it as it reads a v2 spec, and its error paths are the internal ones.

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{json, Map, Value as Json};

use crate::apis::json::{field, get, int, str};
use crate::quantity;

/// `autoscaling.MetricSpecsAnnotation`.
const METRIC_SPECS: &str = "autoscaling.alpha.kubernetes.io/metrics";
/// `autoscaling.BehaviorSpecsAnnotation`.
const BEHAVIOR_SPECS: &str = "autoscaling.alpha.kubernetes.io/behavior";
/// `autoscaling.DefaultCPUUtilization`.
pub(super) const DEFAULT_CPU_UTILIZATION: i64 = 80;

/// How Go's `encoding/json` decodes into a typed field.
enum Shape {
    /// A string.
    Str,
    /// An `int32`: an integer literal in range.
    Int32,
    /// A `resource.Quantity` (`UnmarshalJSON`: a string or a bare literal that parses).
    Quantity,
    /// A `map[string]string`.
    StrMap,
    /// A slice.
    List(&'static Shape),
    /// A struct: its fields by JSON name, matched exactly or case-insensitively.
    Struct(&'static [(&'static str, Shape)]),
}

const STRINGS: Shape = Shape::Str;
const REQUIREMENT: Shape =
    Shape::Struct(&[("key", Shape::Str), ("operator", Shape::Str), ("values", Shape::List(&STRINGS))]);
const SELECTOR: Shape =
    Shape::Struct(&[("matchLabels", Shape::StrMap), ("matchExpressions", Shape::List(&REQUIREMENT))]);
const REFERENCE: Shape = Shape::Struct(&[("kind", Shape::Str), ("name", Shape::Str), ("apiVersion", Shape::Str)]);

/// autoscaling/v1 `MetricSpec`.
const V1_METRIC_SPEC: Shape = Shape::Struct(&[
    ("type", Shape::Str),
    (
        "object",
        Shape::Struct(&[
            ("target", REFERENCE),
            ("metricName", Shape::Str),
            ("targetValue", Shape::Quantity),
            ("selector", SELECTOR),
            ("averageValue", Shape::Quantity),
        ]),
    ),
    (
        "pods",
        Shape::Struct(&[("metricName", Shape::Str), ("targetAverageValue", Shape::Quantity), ("selector", SELECTOR)]),
    ),
    (
        "resource",
        Shape::Struct(&[
            ("name", Shape::Str),
            ("targetAverageUtilization", Shape::Int32),
            ("targetAverageValue", Shape::Quantity),
        ]),
    ),
    (
        "containerResource",
        Shape::Struct(&[
            ("name", Shape::Str),
            ("targetAverageUtilization", Shape::Int32),
            ("targetAverageValue", Shape::Quantity),
            ("container", Shape::Str),
        ]),
    ),
    (
        "external",
        Shape::Struct(&[
            ("metricName", Shape::Str),
            ("metricSelector", SELECTOR),
            ("targetValue", Shape::Quantity),
            ("targetAverageValue", Shape::Quantity),
        ]),
    ),
]);
const V1_METRIC_SPECS: Shape = Shape::List(&V1_METRIC_SPEC);

const POLICY: Shape = Shape::Struct(&[("type", Shape::Str), ("value", Shape::Int32), ("periodSeconds", Shape::Int32)]);
const RULES: Shape = Shape::Struct(&[
    ("stabilizationWindowSeconds", Shape::Int32),
    ("selectPolicy", Shape::Str),
    ("policies", Shape::List(&POLICY)),
    ("tolerance", Shape::Quantity),
]);
/// The internal `HorizontalPodAutoscalerBehavior` (no JSON tags: Go's field names, which the
/// case-insensitive match makes the v2 names).
const BEHAVIOR: Shape = Shape::Struct(&[("scaleUp", RULES), ("scaleDown", RULES)]);

/// `json.Unmarshal` of `v` into a value of `shape`: the value with the struct fields under
/// their JSON names, or `Err` where Go returns an error. `null` leaves the zero value.
fn unmarshal(v: &Json, shape: &Shape) -> Result<Json, ()> {
    if v.is_null() {
        return Ok(Json::Null);
    }
    match shape {
        Shape::Str => v.as_str().map(Json::from).ok_or(()),
        Shape::Int32 => v.as_i64().filter(|n| i32::try_from(*n).is_ok()).map(Json::from).ok_or(()),
        Shape::Quantity => {
            let text = match v {
                Json::String(s) => s.clone(),
                Json::Number(n) => alloc::format!("{n}"),
                _ => return Err(()),
            };
            quantity::parse(text.trim()).map(|_| Json::from(String::from(text.trim()))).map_err(|_| ())
        }
        Shape::StrMap => {
            let map = v.as_object().ok_or(())?;
            let mut out = Map::new();
            for (k, x) in map {
                let s = match x {
                    Json::Null => "",
                    Json::String(s) => s.as_str(),
                    _ => return Err(()),
                };
                out.insert(k.clone(), Json::from(s));
            }
            Ok(Json::Object(out))
        }
        Shape::List(inner) => {
            let items = v.as_array().ok_or(())?;
            items.iter().map(|x| unmarshal(x, inner)).collect::<Result<Vec<_>, _>>().map(Json::Array)
        }
        Shape::Struct(fields) => {
            let map = v.as_object().ok_or(())?;
            let mut out = Map::new();
            for (k, x) in map {
                let found = fields
                    .iter()
                    .find(|(name, _)| name == k)
                    .or_else(|| fields.iter().find(|(name, _)| name.eq_ignore_ascii_case(k)));
                if let Some((name, inner)) = found {
                    out.insert(String::from(*name), unmarshal(x, inner)?);
                }
            }
            Ok(Json::Object(out))
        }
    }
}

/// An annotation of the object, decoded as `shape`; `None` when absent or refused.
fn annotation(object: &Json, key: &str, shape: &Shape) -> Option<Json> {
    let text = field(field(object, "metadata"), "annotations").get(key)?.as_str()?;
    let value: Json = serde_json::from_str(text).ok()?;
    unmarshal(&value, shape).ok()
}

/// A Resource metric on the CPU's average utilization.
pub(super) fn cpu_metric(utilization: i64) -> Json {
    json!({"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": utilization}}})
}

/// The internal spec of an autoscaling/v1 HorizontalPodAutoscaler (defaulted).
pub(super) fn internal_spec(object: &Json) -> Json {
    let spec = field(object, "spec");
    let mut out = Map::new();
    for key in ["scaleTargetRef", "minReplicas", "maxReplicas"] {
        if let Some(v) = get(spec, key) {
            out.insert(String::from(key), v.clone());
        }
    }
    let mut metrics: Vec<Json> = Vec::new();
    let cpu = int(spec, "targetCPUUtilizationPercentage").map(cpu_metric);
    if let Some(Json::Array(others)) = annotation(object, METRIC_SPECS, &V1_METRIC_SPECS) {
        metrics.extend(others.iter().map(metric_spec));
    }
    metrics.extend(cpu);
    if let Some(behavior) = annotation(object, BEHAVIOR_SPECS, &BEHAVIOR) {
        if get(&behavior, "scaleUp").is_some() || get(&behavior, "scaleDown").is_some() {
            out.insert(String::from("behavior"), behavior);
        }
    }
    if metrics.is_empty() {
        metrics.push(cpu_metric(DEFAULT_CPU_UTILIZATION));
    }
    out.insert(String::from("metrics"), Json::Array(metrics));
    Json::Object(out)
}

/// A non-pointer `resource.Quantity` (absent: zero).
fn quantity_or_zero(v: &Json, key: &str) -> Json {
    get(v, key).cloned().unwrap_or_else(|| Json::from("0"))
}

fn is_zero(v: &Json) -> bool {
    quantity::from_json(v).is_none_or(|q| q.is_zero())
}

/// Inserts `value` under `key` unless it is `None`.
fn put(map: &mut Map<String, Json>, key: &str, value: Option<Json>) {
    if let Some(v) = value {
        map.insert(String::from(key), v);
    }
}

/// `Convert_v1_MetricSpec_To_autoscaling_MetricSpec` with the metric source conversions.
fn metric_spec(m: &Json) -> Json {
    let mut out = Map::new();
    out.insert(String::from("type"), Json::from(str(m, "type")));
    let metric = |name: &str, selector: Option<&Json>| {
        let mut id = Map::new();
        id.insert(String::from("name"), Json::from(name));
        put(&mut id, "selector", selector.cloned());
        Json::Object(id)
    };
    if let Some(o) = get(m, "object") {
        let average = get(o, "averageValue").cloned();
        let value = quantity_or_zero(o, "targetValue");
        let mut target = Map::new();
        match average {
            None => {
                target.insert(String::from("type"), Json::from("Value"));
                target.insert(String::from("value"), value);
            }
            Some(a) => {
                target.insert(String::from("type"), Json::from("AverageValue"));
                if !is_zero(&value) {
                    target.insert(String::from("value"), value);
                }
                target.insert(String::from("averageValue"), a);
            }
        }
        let described = field(o, "target");
        let reference = json!({"kind": str(described, "kind"), "name": str(described, "name"), "apiVersion": str(described, "apiVersion")});
        out.insert(
            String::from("object"),
            json!({"describedObject": reference, "target": Json::Object(target), "metric": metric(str(o, "metricName"), get(o, "selector"))}),
        );
    }
    if let Some(p) = get(m, "pods") {
        let target = json!({"type": "AverageValue", "averageValue": quantity_or_zero(p, "targetAverageValue")});
        out.insert(
            String::from("pods"),
            json!({"metric": metric(str(p, "metricName"), get(p, "selector")), "target": target}),
        );
    }
    for key in ["resource", "containerResource"] {
        if let Some(r) = get(m, key) {
            let utilization = get(r, "targetAverageUtilization").cloned();
            let mut target = Map::new();
            let ty = if utilization.is_none() { "AverageValue" } else { "Utilization" };
            target.insert(String::from("type"), Json::from(ty));
            put(&mut target, "averageValue", get(r, "targetAverageValue").cloned());
            put(&mut target, "averageUtilization", utilization);
            let mut source = Map::new();
            source.insert(String::from("name"), Json::from(str(r, "name")));
            source.insert(String::from("target"), Json::Object(target));
            if key == "containerResource" {
                source.insert(String::from("container"), Json::from(str(r, "container")));
            }
            out.insert(String::from(key), Json::Object(source));
        }
    }
    if let Some(e) = get(m, "external") {
        let value = get(e, "targetValue").cloned();
        let mut target = Map::new();
        let ty = if value.is_none() { "AverageValue" } else { "Value" };
        target.insert(String::from("type"), Json::from(ty));
        put(&mut target, "value", value);
        put(&mut target, "averageValue", get(e, "targetAverageValue").cloned());
        out.insert(
            String::from("external"),
            json!({"metric": metric(str(e, "metricName"), get(e, "metricSelector")), "target": Json::Object(target)}),
        );
    }
    Json::Object(out)
}
