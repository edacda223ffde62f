//! Cases from Kubernetes' `pkg/apis/node/validation/validation_test.go` and
//! `pkg/api/node/util_test.go`, run through the whole path ([`crate::apis::admit`]).

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{json, Value as Json};

use crate::apis::{admit, Outcome, Request};

fn outcome(object: &Json, old: Option<&Json>) -> Outcome {
    let request = Request { group: "node.k8s.io", version: "v1", kind: "RuntimeClass", object, old, minor: 37 };
    admit(&request).expect("modeled")
}

fn texts(object: &Json) -> Vec<String> {
    outcome(object, None).errors.iter().map(|e| e.text()).collect()
}

fn rc(extra: Json) -> Json {
    let mut base = json!({"metadata": {"name": "foo"}, "handler": "bar"});
    if let (Json::Object(b), Json::Object(e)) = (&mut base, extra) {
        b.extend(e);
    }
    base
}

// TestValidateRuntimeClass.
#[test]
fn runtime_class() {
    assert!(texts(&rc(json!({"handler": "bar-baz"}))).is_empty());
    assert_eq!(
        texts(&rc(json!({"handler": "&@#$"}))),
        ["handler: Invalid value: \"&@#$\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"]
    );
    assert_eq!(texts(&json!({"metadata": {"name": "empty"}})), ["handler: Required value"]);
}

// TestValidateRuntimeUpdate: ValidateRuntimeClassUpdate's immutable handler is left to the
// declarative rule; the create's checks still run.
#[test]
fn runtime_class_update() {
    let old = rc(json!({}));
    assert!(outcome(&rc(json!({"handler": "other"})), Some(&old)).errors.is_empty());
    let new = rc(json!({"overhead": {"podFixed": {"my.org": "10m"}}}));
    assert_eq!(outcome(&new, Some(&old)).errors.len(), 2);
}

// TestValidateOverhead.
#[test]
fn overhead() {
    assert!(texts(&rc(json!({"overhead": {"podFixed": {"cpu": "10", "memory": "10G"}}}))).is_empty());
    assert_eq!(
        texts(&rc(json!({"overhead": {"podFixed": {"my.org": "10m"}}}))),
        [
            "overhead.limits[my.org]: Invalid value: \"my.org\": must be a standard resource type or fully qualified",
            "overhead.limits[my.org]: Invalid value: \"my.org\": must be a standard resource for containers"
        ]
    );
}

// TestValidateScheduling.
#[test]
fn scheduling() {
    let t = |key: &str, effect: &str| json!({"key": key, "operator": "Exists", "effect": effect});
    let count = |scheduling: Json| texts(&rc(json!({"scheduling": scheduling}))).len();
    assert_eq!(count(json!({"nodeSelector": {"valid": "yes"}, "tolerations": [t("valid", "NoSchedule")]})), 0);
    assert_eq!(count(json!({})), 0);
    assert_eq!(count(json!({"nodeSelector": {"not a valid key!!!": "nope"}})), 1);
    assert_eq!(count(json!({"tolerations": [t("valid", "NoSchedule"), t("not a valid key!!!", "NoSchedule")]})), 1);
    assert_eq!(
        count(
            json!({"nodeSelector": {"not a valid key!!!": "nope"}, "tolerations": [t("valid", "NoSchedule"), t("not a valid toleration key!!!", "NoSchedule")]})
        ),
        2
    );
    let mut a = t("valid", "NoExecute");
    a["tolerationSeconds"] = json!(5);
    let mut b = t("valid", "NoExecute");
    b["tolerationSeconds"] = json!(10);
    assert_eq!(
        texts(&rc(json!({"scheduling": {"tolerations": [a, b]}}))),
        ["scheduling.tolerations[1]: Duplicate value: {\"Key\":\"valid\",\"Operator\":\"Exists\",\"Value\":\"\",\"Effect\":\"NoExecute\",\"TolerationSeconds\":10}"]
    );
}

// GetWarningsForRuntimeClass (pkg/api/node TestWarnings' runtime class cases).
#[test]
fn warnings() {
    let object = rc(json!({"scheduling": {"nodeSelector": {"beta.kubernetes.io/arch": "amd64", "ok": "x"}}}));
    assert_eq!(
        outcome(&object, None).warnings,
        ["scheduling.nodeSelector: deprecated since v1.14; use \"kubernetes.io/arch\" instead"]
    );
    assert!(outcome(&rc(json!({})), None).warnings.is_empty());
}
