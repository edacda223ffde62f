//! Cases of Kubernetes' `pkg/apis/authorization/validation/validation_test.go`
//! (`TestValidateSARSpec`, `TestValidateSelfSAR`, `TestValidateLocalSAR`) through the whole path
//! ([`crate::apis::admit`]), and the Bad Request of `SelfSubjectRulesReview`
//! (`pkg/registry/authorization/selfsubjectrulesreview/rest.go`). The oracle's `builtin` suite
//! checks the same kinds (`tests/oracle/cases/builtin/authorization.yaml`).

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{json, Value as Json};

use crate::apis::{admit, Request};

fn outcome(kind: &str, object: &Json) -> (Vec<String>, Option<String>) {
    let request = Request { group: "authorization.k8s.io", version: "v1", kind, object, old: None, minor: 37 };
    let o = admit(&request).expect("modeled");
    (o.errors.iter().map(|e| e.text()).collect(), o.refusal)
}

fn sar(spec: Json) -> Vec<String> {
    outcome("SubjectAccessReview", &json!({"spec": spec})).0
}

// TestValidateSARSpec: successCases.
#[test]
fn sar_spec_success() {
    for spec in [
        json!({"resourceAttributes": {}, "user": "me"}),
        json!({"nonResourceAttributes": {}, "groups": ["my-group"]}),
        json!({"user": "me", "resourceAttributes": {"fieldSelector": {"rawSelector": "***foo"}}}),
        json!({"user": "me", "resourceAttributes": {"labelSelector": {"rawSelector": "***foo"}}}),
        json!({"user": "me", "resourceAttributes": {"fieldSelector": {"requirements": [{"key": "k", "operator": "fake", "values": ["val"]}]}}}),
        json!({"user": "me", "resourceAttributes": {"labelSelector": {"requirements": [{"key": "k", "operator": "fake", "values": ["val"]}]}}}),
    ] {
        assert_eq!(sar(spec.clone()), Vec::<String>::new(), "{spec}");
    }
}

// TestValidateSARSpec: errorCases.
#[test]
fn sar_spec_errors() {
    let union = "exactly one of nonResourceAttributes or resourceAttributes must be specified";
    assert_eq!(sar(json!({"user": "me"})), [alloc::format!("spec: Invalid value: null: {union}")]);
    assert_eq!(
        sar(json!({"user": "me", "resourceAttributes": {}, "nonResourceAttributes": {}})),
        [alloc::format!("spec: Invalid value: {{\"Path\":\"\",\"Verb\":\"\"}}: {union}")]
    );
    assert_eq!(
        sar(json!({"resourceAttributes": {}})),
        ["spec.user: Invalid value: \"\": at least one of user or group must be specified"]
    );
    assert_eq!(
        sar(json!({"user": "me", "resourceAttributes": {"fieldSelector": {"rawSelector": "foo", "requirements": [{}]}}})),
        [
            "spec.resourceAttributes.fieldSelector.rawSelector: Invalid value: \"foo\": may not specified at the same time as requirements",
            "spec.resourceAttributes.fieldSelector.requirements[0].key: Required value: must be specified",
        ]
    );
    assert_eq!(
        sar(json!({"user": "me", "resourceAttributes": {"fieldSelector": {}}})),
        ["spec.resourceAttributes.fieldSelector.requirements: Required value: when spec.resourceAttributes.fieldSelector is specified, requirements or rawSelector is required"]
    );
    assert_eq!(
        sar(json!({"user": "me", "resourceAttributes": {"fieldSelector": {"requirements": [{"key": "k", "operator": "In"}]}}})),
        ["spec.resourceAttributes.fieldSelector.requirements[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'"]
    );
    assert_eq!(
        sar(json!({"user": "me", "resourceAttributes": {"labelSelector": {"requirements": [{"key": "k", "operator": "Exists", "values": ["val"]}]}}})),
        ["spec.resourceAttributes.labelSelector.requirements[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'"]
    );
}

// TestValidateSelfSAR, TestValidateLocalSAR.
#[test]
fn self_and_local() {
    let (errors, _) =
        outcome("SelfSubjectAccessReview", &json!({"metadata": {"name": "x"}, "spec": {"resourceAttributes": {}}}));
    assert_eq!(errors, ["metadata: Invalid value: {\"name\":\"x\"}: must be empty"]);
    let local =
        json!({"metadata": {"namespace": "a"}, "spec": {"user": "me", "resourceAttributes": {"namespace": "b"}}});
    assert_eq!(
        outcome("LocalSubjectAccessReview", &local).0,
        ["spec.resourceAttributes.namespace: Invalid value: \"b\": must match metadata.namespace"]
    );
    let local = json!({"metadata": {"namespace": "a"}, "spec": {"user": "me", "nonResourceAttributes": {"path": "/x", "verb": "get"}}});
    assert_eq!(
        outcome("LocalSubjectAccessReview", &local).0,
        ["spec.nonResourceAttributes: Invalid value: {\"Path\":\"/x\",\"Verb\":\"get\"}: disallowed on this kind of request"]
    );
}

#[test]
fn rules_review_without_namespace() {
    assert_eq!(outcome("SelfSubjectRulesReview", &json!({"spec": {}})).1.as_deref(), Some("no namespace on request"));
    assert_eq!(outcome("SelfSubjectRulesReview", &json!({"spec": {"namespace": "default"}})).1, None);
}
