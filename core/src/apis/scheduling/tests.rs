//! Cases from Kubernetes' `pkg/apis/scheduling/validation/validation_test.go` (PriorityClass),
//! through the whole path ([`crate::apis::admit`]: defaulting, strategy, validation).

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{json, Value as Json};

use crate::apis::{admit, Request};

fn texts(object: &Json, old: Option<&Json>) -> Vec<String> {
    let request = Request { group: "scheduling.k8s.io", version: "v1", kind: "PriorityClass", object, old, minor: 37 };
    admit(&request).map_or_else(Vec::new, |o| o.errors.iter().map(|e| e.text()).collect())
}

fn pc(name: &str, value: i64, extra: Json) -> Json {
    let mut base = json!({"metadata": {"name": name}, "value": value});
    if let (Json::Object(b), Json::Object(e)) = (&mut base, extra) {
        b.extend(e);
    }
    base
}

// TestValidatePriorityClass (the namespace and name cases are the metadata's).
#[test]
fn priority_class() {
    assert!(texts(&pc("tier1", 100, json!({})), None).is_empty());
    assert!(texts(&pc("tier1", 200, json!({"description": "Used for the highest priority pods."})), None).is_empty());
    assert!(texts(&pc("system-node-critical", 2_000_001_000, json!({"description": "system priority class 0"})), None)
        .is_empty());
    assert_eq!(
        texts(&pc("system-node-critical", 0, json!({})), None),
        ["metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: value of system-node-critical PriorityClass must be 2000001000"]
    );
    assert_eq!(
        texts(&pc("system-node-critical", 2_000_001_000, json!({"globalDefault": true})), None),
        ["metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: globalDefault of system-node-critical PriorityClass must be false"]
    );
    assert_eq!(
        texts(&pc("system-something", 2_000_001_000, json!({})), None),
        ["metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-something is not a known system priority class"]
    );
    assert_eq!(
        texts(&pc("tier1", 1_000_000_001, json!({})), None),
        ["value: Forbidden: maximum allowed value of a user defined priority is 1000000000"]
    );
    assert_eq!(
        texts(&pc("tier1", 1, json!({"preemptionPolicy": "Sometimes"})), None),
        ["preemptionPolicy: Unsupported value: \"Sometimes\": supported values: \"PreemptLowerPriority\", \"Never\""]
    );
    // SetDefaults_PriorityClass defaults only a nil policy.
    assert_eq!(texts(&pc("tier1", 1, json!({"preemptionPolicy": ""})), None), ["preemptionPolicy: Required value"]);
}

// TestValidatePriorityClassUpdate (the namespace and name cases are the metadata's).
#[test]
fn priority_class_update() {
    let old = pc("tier1", 100, json!({"preemptionPolicy": "PreemptLowerPriority"}));
    for extra in [
        json!({"description": "Used for the highest priority pods."}),
        json!({"description": "A different description."}),
        json!({}),
        json!({"globalDefault": true}),
    ] {
        assert!(texts(&pc("tier1", 100, extra), Some(&old)).is_empty());
    }
    let mut removed = pc("tier1", 0, json!({}));
    removed.as_object_mut().map(|m| m.remove("value"));
    assert_eq!(texts(&removed, Some(&old)), ["value: Forbidden: may not be changed in an update."]);
    assert_eq!(texts(&pc("tier1", 101, json!({})), Some(&old)), ["value: Forbidden: may not be changed in an update."]);
    assert_eq!(
        texts(&pc("tier1", 100, json!({"preemptionPolicy": "Never"})), Some(&old)),
        ["preemptionPolicy: Invalid value: \"Never\": field is immutable"]
    );
}
