//! Admission policy cases. Each names its source: apiserver v0.37.0-beta.0
//! `pkg/admission/plugin/policy/validating/{admission_test.go,validator_test.go}`,
//! `policy/matching/matching_test.go`, `webhook/predicates/rules/rules_test.go`, and the
//! texts Kubernetes' integration test `test/integration/apiserver/cel/
//! validatingadmissionpolicy_test.go` asserts.

use super::*;
use serde_json::json;

const V1: &str = "admissionregistration.k8s.io/v1";

fn policy(name: &str, spec: Json) -> Json {
    json!({"apiVersion": V1, "kind": "ValidatingAdmissionPolicy", "metadata": {"name": name}, "spec": spec})
}

fn binding(name: &str, policy: &str, extra: Json) -> Json {
    let mut spec = json!({"policyName": policy, "validationActions": ["Deny"]});
    for (k, v) in extra.as_object().unwrap() {
        spec[k] = v.clone();
    }
    json!({"apiVersion": V1, "kind": "ValidatingAdmissionPolicyBinding", "metadata": {"name": name}, "spec": spec})
}

fn all_rules() -> Json {
    json!({"resourceRules": [{"apiGroups": ["*"], "apiVersions": ["*"], "operations": ["*"], "resources": ["*"]}]})
}

fn request(object: Json) -> Request {
    let mut r = Request { object: Some(object), ..Request::default() };
    r.infer();
    r
}

fn namespace(name: &str) -> Json {
    json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name}})
}

fn configmap(name: &str) -> Json {
    json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name, "namespace": "default"}, "data": {}})
}

fn run(docs: &[Json], req: &Request) -> Outcome {
    let set = PolicySet::new(docs);
    set.evaluate(req, &[], &[])
}

fn suffix_policy(extra: Json) -> Vec<Json> {
    let mut spec = json!({"matchConstraints": all_rules(), "validations": [{"expression": "object.metadata.name.endsWith('k8s')"}]});
    for (k, v) in extra.as_object().unwrap() {
        spec[k] = v.clone();
    }
    Vec::from([
        policy("validate-namespace-suffix", spec),
        binding("validate-namespace-suffix-binding", "validate-namespace-suffix", json!({})),
    ])
}

// Integration test: "namespace name contains suffix enforced by validating admission policy".
#[test]
fn denies_with_the_servers_words() {
    let out = run(&suffix_policy(json!({})), &request(namespace("test-foobar")));
    assert!(!out.allowed);
    let status = out.status.unwrap();
    assert_eq!(
        status.message,
        "namespaces \"test-foobar\" is forbidden: ValidatingAdmissionPolicy 'validate-namespace-suffix' with binding \
         'validate-namespace-suffix-binding' denied request: failed expression: object.metadata.name.endsWith('k8s')"
    );
    assert_eq!((status.reason.as_str(), status.code), ("Invalid", 422));
    assert!(run(&suffix_policy(json!({})), &request(namespace("test-k8s"))).allowed);
}

// Integration test: the same with `reason: Forbidden` (validator_test "test reason for fail
// reason set"): 403, the same message.
#[test]
fn reason_sets_the_code() {
    let docs = suffix_policy(json!({"validations": [{"expression": "object.metadata.name.endsWith('k8s')", "reason": "Forbidden"}]}));
    let out = run(&docs, &request(namespace("forbidden-test-foobar")));
    let d = &out.denials[0];
    assert_eq!((d.reason.as_str(), d.code), ("Forbidden", 403));
    for (reason, code) in [("Unauthorized", 401), ("RequestEntityTooLarge", 413), ("Invalid", 422)] {
        let docs = suffix_policy(json!({"validations": [{"expression": "false", "reason": reason}]}));
        assert_eq!(run(&docs, &request(namespace("x"))).denials[0].code, code, "{reason}");
    }
}

// Integration test: runtime errors follow failurePolicy.
#[test]
fn runtime_errors_follow_the_failure_policy() {
    let v = json!({"validations": [{"expression": "object.nonExistentProperty == 'someval'"}]});
    let mut fail = v.clone();
    fail["failurePolicy"] = json!("Fail");
    let out = run(&suffix_policy(fail), &request(namespace("test-k8s")));
    assert_eq!(
        out.status.unwrap().message,
        "namespaces \"test-k8s\" is forbidden: ValidatingAdmissionPolicy 'validate-namespace-suffix' with binding \
         'validate-namespace-suffix-binding' denied request: expression 'object.nonExistentProperty == 'someval'' \
         resulted in error: no such key: nonExistentProperty"
    );
    let mut ignore = v;
    ignore["failurePolicy"] = json!("Ignore");
    let out = run(&suffix_policy(ignore), &request(namespace("test-k8s")));
    assert!(out.allowed);
    assert_eq!(out.evaluations[0].validations[0].result, json!("error"));
}

// Integration test: params are null when the binding has no paramRef.
#[test]
fn null_params() {
    let spec = |expr: &str| {
        json!({"paramKind": {"apiVersion": "v1", "kind": "ConfigMap"}, "matchConstraints": all_rules(),
               "validations": [{"expression": expr}]})
    };
    let cases = [
        (
            "object.metadata.name.startsWith(params.metadata.name)",
            "expression 'object.metadata.name.startsWith(params.metadata.name)' resulted in error: no such key: metadata",
        ),
        (
            "has(params.metadata) && has(params.metadata.name) && object.metadata.name.endsWith(params.metadata.name)",
            "failed expression: has(params.metadata) && has(params.metadata.name) && object.metadata.name.endsWith(params.metadata.name)",
        ),
        (
            "(params != null && object.metadata.name.endsWith(params.metadata.name))",
            "failed expression: (params != null && object.metadata.name.endsWith(params.metadata.name))",
        ),
    ];
    for (expr, message) in cases {
        let docs = [policy("p", spec(expr)), binding("b", "p", json!({}))];
        let out = run(&docs, &request(namespace("test-k8s")));
        assert_eq!(out.denials[0].message, message);
    }
}

// Integration test: namespaceObject is null for a Namespace; validator: set otherwise.
#[test]
fn namespace_object() {
    let docs = suffix_policy(json!({"validations": [{"expression": "namespaceObject == null"}]}));
    assert!(run(&docs, &request(namespace("x"))).allowed);
    let docs = suffix_policy(json!({"validations": [{"expression": "namespaceObject.metadata.labels.env == 'prod'"}]}));
    let mut req = request(configmap("c"));
    req.namespace_object = Some(json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "default", "labels": {"env": "prod"}}}));
    assert!(run(&docs, &req).allowed);
    let set = PolicySet::new(&suffix_policy(json!({"validations": [{"expression": "namespaceObject.metadata.uid == ''"}]})));
    assert_eq!(set.problems[0].field, "spec.validations[0].expression");
    assert!(set.problems[0].message.contains("undefined field 'uid'"), "{}", set.problems[0].message);
}

// Integration test "audit annotations": values, null, and an error under Fail.
#[test]
fn audit_annotations() {
    let spec = |expr: &str, fp: &str| {
        json!({"paramKind": {"apiVersion": "v1", "kind": "ConfigMap"}, "failurePolicy": fp, "matchConstraints": all_rules(),
               "auditAnnotations": [{"key": "example-key", "valueExpression": expr}]})
    };
    let docs = [policy("validate-audit-annotations", spec("'object name: ' + object.metadata.name", "Fail")), binding("b", "validate-audit-annotations", json!({}))];
    let out = run(&docs, &request(configmap("test1-k8s")));
    assert!(out.allowed);
    assert_eq!(out.audit_annotations["validate-audit-annotations/example-key"], "object name: test1-k8s");
    let docs = [policy("validate-audit-annotations", spec("null", "Fail")), binding("b", "validate-audit-annotations", json!({}))];
    assert!(run(&docs, &request(configmap("test1-k8s"))).audit_annotations.is_empty());
    let docs = [
        policy("validate-audit-annotations-invalid", spec("string(params.metadata.name)", "Fail")),
        binding("validate-audit-annotations-invalid-binding", "validate-audit-annotations-invalid", json!({})),
    ];
    let out = run(&docs, &request(configmap("test2-k8s")));
    assert_eq!(
        out.status.unwrap().message,
        "configmaps \"test2-k8s\" is forbidden: ValidatingAdmissionPolicy 'validate-audit-annotations-invalid' with \
         binding 'validate-audit-annotations-invalid-binding' denied request: expression 'string(params.metadata.name)' \
         resulted in error: no such key: metadata"
    );
    let docs = [
        policy("validate-audit-annotations-invalid", spec("string(params.metadata.name)", "Ignore")),
        binding("validate-audit-annotations-invalid-binding", "validate-audit-annotations-invalid", json!({})),
    ];
    assert!(run(&docs, &request(configmap("test2-k8s"))).allowed);
}

// admission_test TestWarnValidationAction, TestAllValidationActions, TestAuditValidationAction;
// integration test "validate actions".
#[test]
fn validation_actions() {
    let docs = |actions: Json| {
        Vec::from([
            policy("validate-actions", json!({"matchConstraints": all_rules(), "validations": [{"expression": "object.metadata.name.endsWith('k8s')"}]})),
            binding("validate-actions-binding", "validate-actions", json!({"validationActions": actions})),
        ])
    };
    let out = run(&docs(json!(["Warn"])), &request(configmap("test4-nope")));
    assert!(out.allowed);
    assert_eq!(
        out.warnings,
        ["Validation failed for ValidatingAdmissionPolicy 'validate-actions' with binding 'validate-actions-binding': failed expression: object.metadata.name.endsWith('k8s')"]
    );
    assert!(out.audit_annotations.is_empty());
    let out = run(&docs(json!(["Deny", "Audit"])), &request(configmap("test5-nope")));
    assert!(!out.allowed);
    assert!(out.warnings.is_empty());
    assert_eq!(
        out.audit_annotations["validation.policy.admission.k8s.io/validation_failure"],
        r#"[{"message":"failed expression: object.metadata.name.endsWith('k8s')","policy":"validate-actions","binding":"validate-actions-binding","expressionIndex":0,"validationActions":["Deny","Audit"]}]"#
    );
    let out = run(&docs(json!(["Audit"])), &request(configmap("test5-nope")));
    assert!(out.allowed);
    assert_eq!(out.audit_annotations.len(), 1);
}

// Go's encoding/json orders struct fields as declared: message, policy, binding,
// expressionIndex, validationActions (dispatcher.go ValidationFailureValue).
#[test]
fn validation_failure_field_order() {
    let docs = [
        policy("p", json!({"matchConstraints": all_rules(), "validations": [{"expression": "1 < 0", "message": "a<b & c"}]})),
        binding("b", "p", json!({"validationActions": ["Audit"]})),
    ];
    let out = run(&docs, &request(configmap("x")));
    assert_eq!(
        out.audit_annotations["validation.policy.admission.k8s.io/validation_failure"],
        r#"[{"message":"a\u003cb \u0026 c","policy":"p","binding":"b","expressionIndex":0,"validationActions":["Audit"]}]"#
    );
}
