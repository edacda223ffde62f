//! Cases from Kubernetes' `pkg/apis/policy/validation/validation_test.go` and
//! `pkg/registry/policy/poddisruptionbudget/strategy_test.go`, run through the whole path
//! ([`crate::apis::admit`]), with the API server's texts.

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{json, Value as Json};

use crate::apis::apps::tests::texts;
use crate::apis::{admit, Request};

fn pdb(spec: Json) -> Json {
    json!({"metadata": {"name": "pdb", "namespace": "default"}, "spec": spec})
}

fn errors(spec: Json) -> Vec<String> {
    texts("policy", "PodDisruptionBudget", &pdb(spec), None)
}

const PERCENT: &str = "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";

// TestValidateMinAvailablePodDisruptionBudgetSpec.
#[test]
fn min_available() {
    for ok in [json!("0%"), json!("1%"), json!("100%"), json!(0), json!(1), json!(100)] {
        assert_eq!(errors(json!({"minAvailable": ok})), Vec::<String>::new(), "{ok}");
    }
    let cases: [(Json, &[&str]); 5] = [
        (json!("1.1%"), &["spec.minAvailable: Invalid value: \"1.1%\": "]),
        (json!("nope"), &["spec.minAvailable: Invalid value: \"nope\": "]),
        (json!("-1%"), &["spec.minAvailable: Invalid value: \"-1%\": "]),
        (json!("101%"), &["spec.minAvailable: Invalid value: \"101%\": must not be greater than 100%"]),
        (json!(-1), &["spec.minAvailable: Invalid value: -1: must be greater than or equal to 0"]),
    ];
    for (value, want) in cases {
        let got = errors(json!({"minAvailable": value}));
        let want: Vec<String> = want
            .iter()
            .map(|w| if w.ends_with(": ") { alloc::format!("{w}{PERCENT}") } else { String::from(*w) })
            .collect();
        assert_eq!(got, want, "{value}");
    }
}

// TestValidatePodDisruptionBudgetSpec, TestValidateMinAvailablePodAndMaxUnavailableDisruptionBudgetSpec:
// the internal spec printed with Go's field names.
#[test]
fn both_set() {
    assert_eq!(
        errors(json!({"minAvailable": "10%", "maxUnavailable": 1, "selector": {"matchLabels": {"a": "b"}}})),
        ["spec: Invalid value: {\"MinAvailable\":\"10%\",\"Selector\":{\"matchLabels\":{\"a\":\"b\"}},\"MaxUnavailable\":1,\"UnhealthyPodEvictionPolicy\":null}: minAvailable and maxUnavailable cannot be both set"]
    );
    assert_eq!(
        errors(json!({"minAvailable": "0%", "maxUnavailable": "10%", "unhealthyPodEvictionPolicy": "AlwaysAllow"})),
        ["spec: Invalid value: {\"MinAvailable\":\"0%\",\"Selector\":null,\"MaxUnavailable\":\"10%\",\"UnhealthyPodEvictionPolicy\":\"AlwaysAllow\"}: minAvailable and maxUnavailable cannot be both set"]
    );
}

// TestValidateUnhealthyPodEvictionPolicyDisruptionBudgetSpec.
#[test]
fn unhealthy_pod_eviction_policy() {
    for ok in ["IfHealthyBudget", "AlwaysAllow"] {
        assert_eq!(errors(json!({"minAvailable": "10%", "unhealthyPodEvictionPolicy": ok})), Vec::<String>::new());
    }
    for bad in ["", "Invalid"] {
        assert_eq!(
            errors(json!({"minAvailable": "10%", "unhealthyPodEvictionPolicy": bad})),
            [alloc::format!(
                "spec.unhealthyPodEvictionPolicy: Unsupported value: \"{bad}\": supported values: \"AlwaysAllow\", \"IfHealthyBudget\""
            )]
        );
    }
}

/// The object as validated (defaulted, prepared) of a create or update.
fn prepared(object: &Json, old: Option<&Json>) -> Json {
    let request = Request { group: "policy", version: "v1", kind: "PodDisruptionBudget", object, old, minor: 37 };
    admit(&request).expect("modeled").object
}

// TestDropDisabledFields, TestPodDisruptionBudgetStrategy (status, generation).
#[test]
fn strategy() {
    let label = "pdb.kubernetes.io/deprecated-v1beta1-empty-selector-match";
    let none = json!({"matchExpressions": [{"key": label, "operator": "Exists"}]});
    let object = prepared(&pdb(json!({"minAvailable": 1, "selector": none})), None);
    assert_eq!(object["spec"]["selector"], none);
    let all = json!({"matchExpressions": [{"key": label, "operator": "DoesNotExist"}]});
    let object = prepared(&pdb(json!({"minAvailable": 1, "selector": all})), None);
    assert_eq!(object["spec"]["selector"], json!({}));
    let mixed = json!({"matchLabels": {"a": "b"}, "matchExpressions": [{"key": label, "operator": "Exists"}, {"key": "c", "operator": "Exists"}]});
    let with_status = json!({"metadata": {"name": "pdb", "namespace": "default"},
                             "spec": {"minAvailable": 1, "selector": mixed}, "status": {"currentHealthy": 3}});
    let object = prepared(&with_status, None);
    assert_eq!(
        object["spec"]["selector"],
        json!({"matchLabels": {"a": "b"}, "matchExpressions": [{"key": "c", "operator": "Exists"}]})
    );
    assert_eq!(object["status"], json!({}));
    assert_eq!(object["metadata"]["generation"], json!(1));
    // The stored old object was stripped on create, so the same selector differs from it and
    // is stripped again; a changed spec bumps the generation.
    let old = pdb(json!({"minAvailable": 1, "selector": mixed}));
    let object = prepared(&pdb(json!({"minAvailable": 2, "selector": mixed})), Some(&old));
    assert_eq!(
        object["spec"]["selector"],
        json!({"matchLabels": {"a": "b"}, "matchExpressions": [{"key": "c", "operator": "Exists"}]})
    );
    assert_eq!(object["metadata"]["generation"], json!(2));
}

// TestPodDisruptionBudgetStrategy: an update keeps an invalid label value the old selector had.
#[test]
fn update_invalid_label_value() {
    let bad = json!({"matchExpressions": [{"key": "a", "operator": "In", "values": ["bad value!"]}]});
    let old = pdb(json!({"minAvailable": 1, "selector": bad}));
    let new = pdb(json!({"minAvailable": 2, "selector": bad}));
    assert_eq!(texts("policy", "PodDisruptionBudget", &new, Some(&old)), Vec::<String>::new());
    assert_eq!(
        texts("policy", "PodDisruptionBudget", &new, None),
        ["spec.selector.matchExpressions[0].values[0]: Invalid value: \"bad value!\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"]
    );
}
