//! Cases from Kubernetes' `pkg/apis/autoscaling/validation/validation_test.go` and
//! `pkg/registry/autoscaling/horizontalpodautoscaler/strategy_test.go`, run through the whole
//! path ([`crate::apis::admit`]: defaulting, conversion, strategy, validation).

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{json, Value as Json};

use crate::apis::apps::tests::set;
use crate::apis::{admit, Request};

/// The error texts of a create (`old` `None`) or update in `version`.
fn texts(version: &str, object: &Json, old: Option<&Json>) -> Vec<String> {
    let request = Request { group: "autoscaling", version, kind: "HorizontalPodAutoscaler", object, old, minor: 37 };
    admit(&request).map_or_else(Vec::new, |o| o.errors.iter().map(|e| e.text()).collect())
}

fn hpa() -> Json {
    json!({"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler",
           "metadata": {"name": "myautoscaler", "namespace": "default"},
           "spec": {"scaleTargetRef": {"kind": "ReplicationController", "name": "myrc"},
                    "minReplicas": 1, "maxReplicas": 5,
                    "metrics": [{"type": "Resource", "resource": {"name": "cpu",
                                 "target": {"type": "Utilization", "averageUtilization": 70}}}]}})
}

/// A case: the changes to the valid base object (JSON pointer, value), and the errors expected.
type Case<'a> = (&'a [(&'a str, Json)], &'a [&'a str]);

fn check(cases: &[Case<'_>]) {
    assert_eq!(texts("v2", &hpa(), None), Vec::<String>::new(), "the base object is valid");
    for (mutations, want) in cases {
        let mut object = hpa();
        for (pointer, value) in mutations.iter() {
            set(&mut object, pointer, value.clone());
        }
        assert_eq!(texts("v2", &object, None), *want, "{mutations:?}");
    }
}

fn resource_metric(target: Json) -> Json {
    json!([{"type": "Resource", "resource": {"name": "cpu", "target": target}}])
}

// TestValidateHorizontalPodAutoscaler: the success cases.
#[test]
fn hpa_valid() {
    let valid = [
        json!([]),
        resource_metric(json!({"type": "AverageValue", "averageValue": "300m"})),
        json!([{"type": "Pods", "pods": {"metric": {"name": "somemetric"}, "target": {"type": "AverageValue", "averageValue": "300m"}}}]),
        json!([{"type": "ContainerResource", "containerResource": {"name": "cpu", "container": "test-container",
                 "target": {"type": "Utilization", "averageUtilization": 70}}}]),
        json!([{"type": "Object", "object": {"describedObject": {"kind": "ReplicationController", "name": "myrc"},
                 "metric": {"name": "somemetric", "selector": {"matchLabels": {"label": "value"}}},
                 "target": {"type": "Value", "value": "300m"}}}]),
        json!([{"type": "External", "external": {"metric": {"name": "somemetric"},
                 "target": {"type": "AverageValue", "averageValue": "300m"}}}]),
    ];
    for metrics in valid {
        let mut object = hpa();
        set(&mut object, "/spec/metrics", metrics.clone());
        assert_eq!(texts("v2", &object, None), Vec::<String>::new(), "{metrics}");
    }
}

// TestValidateHorizontalPodAutoscaler: the error cases.
#[test]
fn hpa_errors() {
    check(&[
        (
            &[("/spec/scaleTargetRef/kind", json!(""))],
            &[
                "spec.scaleTargetRef.kind: Required value",
                "spec.scaleTargetRef.apiVersion: Invalid value: \"\": apiVersion must specify API group",
            ],
        ),
        (
            &[("/spec/scaleTargetRef/kind", json!("..")), ("/spec/scaleTargetRef/apiVersion", json!("v1"))],
            &[
                "spec.scaleTargetRef.kind: Invalid value: \"..\": may not be '..'",
                "spec.scaleTargetRef.apiVersion: Invalid value: \"v1\": apiVersion must specify API group",
            ],
        ),
        (&[("/spec/scaleTargetRef/name", json!("a/b"))], &["spec.scaleTargetRef.name: Invalid value: \"a/b\": may not contain '/'"]),
        (
            &[("/spec/scaleTargetRef/kind", json!("Deployment"))],
            &["spec.scaleTargetRef.apiVersion: Invalid value: \"\": apiVersion must specify API group"],
        ),
        (
            &[("/spec/scaleTargetRef/apiVersion", json!("apps/v1/v3"))],
            &["spec.scaleTargetRef.apiVersion: Invalid value: \"apps/v1/v3\": unexpected GroupVersion string: apps/v1/v3"],
        ),
        (&[("/spec/minReplicas", json!(-1))], &["spec.minReplicas: Invalid value: -1: must be greater than or equal to 0"]),
        (
            &[("/spec/minReplicas", json!(7))],
            &["spec.maxReplicas: Invalid value: 5: must be greater than or equal to `minReplicas`"],
        ),
        (
            &[("/spec/metrics", resource_metric(json!({"type": "Utilization", "averageUtilization": 70, "averageValue": "300m"})))],
            &["spec.metrics[0].resource.target.averageValue: Forbidden: may not set both a target raw value and a target utilization"],
        ),
        (
            &[("/spec/metrics", json!([{"type": "Resource", "resource": {"target": {"type": "Utilization", "averageUtilization": 70}}}]))],
            &["spec.metrics[0].resource.name: Required value: must specify a resource name"],
        ),
        (
            &[("/spec/metrics", resource_metric(json!({"type": "Utilization", "averageUtilization": -10})))],
            &["spec.metrics[0].resource.target.averageUtilization: Invalid value: -10: must be greater than 0"],
        ),
        (
            &[("/spec/metrics", resource_metric(json!({"type": "Utilization"})))],
            &["spec.metrics[0].resource.target.averageUtilization: Required value: must set either a target raw value or a target utilization"],
        ),
        (
            &[("/spec/metrics", json!([{"type": "ContainerResource", "containerResource": {"name": "InvalidResource", "container": "---***",
                "target": {"type": "Utilization", "averageUtilization": 70}}}]))],
            &[
                "spec.metrics[0].containerResource.name: Invalid value: \"InvalidResource\": must be a standard resource type or fully qualified",
                "spec.metrics[0].containerResource.name: Invalid value: \"InvalidResource\": must be a standard resource for containers",
                "spec.metrics[0].containerResource.container: Invalid value: \"---***\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
            ],
        ),
        (
            &[("/spec/metrics", json!([{"type": "Pods", "pods": {"metric": {}, "target": {"type": "AverageValue"}}}]))],
            &[
                "spec.metrics[0].pods.metric.name: Required value: must specify a metric name",
                "spec.metrics[0].pods.target.averageValue: Required value: must specify a positive target averageValue",
            ],
        ),
        (
            &[("/spec/metrics", json!([{"type": "Object", "object": {"describedObject": {"name": "myrc"}, "metric": {"name": "m"},
                "target": {"type": "Value"}}}]))],
            &[
                "spec.metrics[0].object.describedObject.kind: Required value",
                "spec.metrics[0].object.target.averageValue: Required value: must set either a target value or averageValue",
            ],
        ),
        (
            &[("/spec/metrics", json!([{"type": "External", "external": {"metric": {"name": "m"},
                "target": {"type": "Value", "value": "-1", "averageValue": "0"}}}]))],
            &[
                "spec.metrics[0].external.target.value: Invalid value: \"-1\": must be positive",
                "spec.metrics[0].external.target.averageValue: Invalid value: \"0\": must be positive",
                "spec.metrics[0].external.target.value: Forbidden: may not set both a target value for metric and a per-pod target",
            ],
        ),
        (
            &[("/spec/metrics", json!([{"type": "External", "external": {"metric": {"name": "m"}, "target": {"averageValue": "1"}}}]))],
            &[
                "spec.metrics[0].external.target.type: Required value: must specify a metric target type",
                "spec.metrics[0].external.target.type: Invalid value: \"\": must be either Utilization, Value, or AverageValue",
            ],
        ),
        (
            &[("/spec/metrics", json!([{"type": "Pods"}]))],
            &["spec.metrics[0].pods: Required value: must populate information for the given metric source"],
        ),
        (
            &[("/spec/metrics", json!([{"type": "Bogus"}]))],
            &[
                "spec.metrics[0].type: Unsupported value: \"Bogus\": supported values: \"ContainerResource\", \"External\", \"Object\", \"Pods\", \"Resource\"",
                "spec.metrics[0].type: Unsupported value: \"Bogus\": supported values: \"ContainerResource\", \"External\", \"Object\", \"Pods\", \"Resource\"",
            ],
        ),
        (
            &[("/spec/metrics", json!([{"type": "Resource",
                "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 70}},
                "pods": {"metric": {"name": "m"}, "target": {"type": "AverageValue", "averageValue": "1"}}}]))],
            &["spec.metrics[0].pods: Forbidden: must populate the given metric source only"],
        ),
        (
            &[("/spec/minReplicas", json!(0))],
            &["spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas"],
        ),
    ]);
}

// TestValidateBehavior (the error cases), after v2 defaulting fills the unset rules.
#[test]
fn behavior() {
    let rules = |up: Json| {
        let mut o = hpa();
        set(&mut o, "/spec/behavior", json!({"scaleUp": up}));
        texts("v2", &o, None)
    };
    assert_eq!(
        rules(json!({"policies": []})),
        ["spec.behavior.scaleUp.policies: Required value: must specify at least one Policy"]
    );
    assert_eq!(
        rules(json!({"stabilizationWindowSeconds": 3601})),
        ["spec.behavior.scaleUp.stabilizationWindowSeconds: Invalid value: 3601: must be less than or equal to 3600"]
    );
    assert_eq!(
        rules(json!({"policies": [{"type": "Pods", "value": 1, "periodSeconds": 1801}]})),
        ["spec.behavior.scaleUp.policies[0].periodSeconds: Invalid value: 1801: must be less than or equal to 1800"]
    );
    assert_eq!(
        rules(json!({"selectPolicy": "incorrect"})),
        ["spec.behavior.scaleUp.selectPolicy: Unsupported value: \"incorrect\": supported values: \"Disabled\", \"Max\", \"Min\""]
    );
    assert_eq!(
        rules(json!({"policies": [{"type": "hm", "value": -1, "periodSeconds": -1}]})),
        [
            "spec.behavior.scaleUp.policies[0].type: Unsupported value: \"hm\": supported values: \"Percent\", \"Pods\"",
            "spec.behavior.scaleUp.policies[0].value: Invalid value: -1: must be greater than zero",
            "spec.behavior.scaleUp.policies[0].periodSeconds: Invalid value: -1: must be greater than zero",
        ]
    );
    // TestValidateHorizontalPodAutoscalerConfigurableToleranceEnabled.
    assert_eq!(
        rules(json!({"tolerance": "-0.1"})),
        ["spec.behavior.scaleUp.tolerance: Invalid value: \"-100m\": must be greater than or equal to 0"]
    );
    assert!(rules(json!({"tolerance": "0.1"})).is_empty());
}

// TestValidateHorizontalPodAutoscalerUpdateInvalidHPA: an update that keeps an invalid
// scaleTargetRef apiVersion (and kind) is not refused for it.
#[test]
fn update_keeps_invalid_api_version() {
    let mut old = hpa();
    set(&mut old, "/spec/scaleTargetRef", json!({"apiVersion": "v1", "kind": "Deployment", "name": "x"}));
    let mut new = old.clone();
    set(&mut new, "/spec/maxReplicas", json!(6));
    assert!(texts("v2", &new, Some(&old)).is_empty());
    set(&mut new, "/spec/scaleTargetRef/kind", json!("StatefulSet"));
    assert_eq!(
        texts("v2", &new, Some(&old)),
        ["spec.scaleTargetRef.apiVersion: Invalid value: \"v1\": apiVersion must specify API group"]
    );
}

// The autoscaling/v1 conversion: targetCPUUtilizationPercentage and the annotations carry the
// internal metrics and behavior (v1 conversion.go).
#[test]
fn v1_conversion() {
    let v1 = json!({"apiVersion": "autoscaling/v1", "kind": "HorizontalPodAutoscaler",
        "metadata": {"name": "a", "namespace": "default", "annotations": {
            "autoscaling.alpha.kubernetes.io/metrics": "[{\"type\":\"Pods\",\"pods\":{\"metricName\":\"qps\",\"targetAverageValue\":\"0\"}}]",
            "autoscaling.alpha.kubernetes.io/behavior": "{\"ScaleUp\":{\"StabilizationWindowSeconds\":-5,\"Policies\":[]}}"}},
        "spec": {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"},
                 "maxReplicas": 10, "targetCPUUtilizationPercentage": -3}});
    assert_eq!(
        texts("v1", &v1, None),
        [
            "spec.metrics[0].pods.target.averageValue: Invalid value: \"0\": must be positive",
            "spec.metrics[1].resource.target.averageUtilization: Invalid value: -3: must be greater than 0",
            "spec.behavior.scaleUp.stabilizationWindowSeconds: Invalid value: -5: must be greater than or equal to zero",
            "spec.behavior.scaleUp.policies: Required value: must specify at least one Policy",
        ]
    );
    // An annotation json.Unmarshal refuses is ignored; without metrics, CPU at 80%.
    let mut bad = v1.clone();
    set(
        &mut bad,
        "/metadata/annotations",
        json!({"autoscaling.alpha.kubernetes.io/metrics": "[{\"pods\":{\"targetAverageValue\":true}}]",
               "autoscaling.alpha.kubernetes.io/behavior": "not json"}),
    );
    set(&mut bad, "/spec/targetCPUUtilizationPercentage", Json::Null);
    assert!(texts("v1", &bad, None).is_empty());
}

// TestPrepareForGeneration: generation 1 on create, bumped when the spec changes.
#[test]
fn generation() {
    let request = |object: &Json, old: Option<&Json>| {
        let r =
            Request { group: "autoscaling", version: "v2", kind: "HorizontalPodAutoscaler", object, old, minor: 37 };
        admit(&r).map(|o| o.object["metadata"]["generation"].clone())
    };
    let old = hpa();
    assert_eq!(request(&old, None), Some(json!(1)));
    let mut new = old.clone();
    set(&mut new, "/spec/maxReplicas", json!(6));
    assert_eq!(request(&new, Some(&old)), Some(json!(2)));
}
