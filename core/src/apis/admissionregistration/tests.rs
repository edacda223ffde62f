//! Cases from Kubernetes' `pkg/apis/admissionregistration/validation/validation_test.go` and
//! `pkg/registry/admissionregistration/*/strategy_test.go`, run through the whole path
//! ([`crate::apis::admit`]: defaulting, strategy, validation). As the Go tests do, a case
//! expects its text inside the aggregate of the errors (`[a, b]`, or `a` alone).

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{json, Value as Json};

use crate::apis::{admit, Outcome, Request};

const GROUP: &str = "admissionregistration.k8s.io";

/// Sets `pointer` (`/webhooks/0/name`) in `v`, creating objects on the way (a list index one
/// past the end appends); `null` removes the field.
fn set(v: &mut Json, pointer: &str, value: Json) {
    let keys: Vec<&str> = pointer.split('/').skip(1).collect();
    let mut at = v;
    for (i, key) in keys.iter().enumerate() {
        let last = i + 1 == keys.len();
        at = match at {
            Json::Array(items) => {
                let n: usize = key.parse().expect("a list index");
                if n == items.len() {
                    items.push(json!({}));
                }
                if last {
                    items[n] = value;
                    return;
                }
                &mut items[n]
            }
            Json::Object(map) => {
                if last {
                    match value.is_null() {
                        true => map.remove(*key),
                        false => map.insert(String::from(*key), value),
                    };
                    return;
                }
                map.entry(String::from(*key)).or_insert_with(|| json!({}))
            }
            _ => return,
        };
    }
}

fn outcome(version: &str, kind: &str, object: &Json, old: Option<&Json>) -> Outcome {
    let request = Request { group: GROUP, version, kind, object, old, minor: 37 };
    admit(&request).expect("a kind the room models")
}

/// `ErrorList.ToAggregate().Error()`.
fn aggregate(version: &str, kind: &str, object: &Json, old: Option<&Json>) -> String {
    let texts: Vec<String> = outcome(version, kind, object, old).errors.iter().map(|e| e.text()).collect();
    match texts.len() {
        1 => texts[0].clone(),
        _ if texts.is_empty() => String::new(),
        _ => alloc::format!("[{}]", texts.join(", ")),
    }
}

// The Go cases with `object.x in [1, 2, ` expect cel-go's `missing ']' at '<EOF>'`; kubedv's
// CEL parser words that syntax error otherwise (`mismatched input '<EOF>' expecting ...`), a
// difference of the CEL engine: these cases check the text up to the syntax error's words.

/// A case: the changes to the valid base object (JSON pointer, value), and the text expected
/// in the errors (`""`: none).
type Case<'a> = (&'a [(&'a str, Json)], &'a str);

fn check(version: &str, kind: &str, base: fn() -> Json, old: Option<&Json>, cases: &[Case<'_>]) {
    assert_eq!(aggregate(version, kind, &base(), old), "", "{kind}: the base object is valid");
    for (mutations, want) in cases {
        let mut object = base();
        for (pointer, value) in mutations.iter() {
            set(&mut object, pointer, value.clone());
        }
        let got = aggregate(version, kind, &object, old);
        match want.is_empty() {
            true => assert_eq!(got, "", "{kind}: {mutations:?}"),
            false => assert!(got.contains(want), "{kind}: {mutations:?}\n got: {got}\nwant: {want}"),
        }
    }
}

fn hook() -> Json {
    json!({"name": "webhook.k8s.io", "clientConfig": {"url": "https://example.com"}, "sideEffects": "None",
           "admissionReviewVersions": ["v1beta1"],
           "rules": [{"operations": ["CREATE"], "apiGroups": ["a"], "apiVersions": ["a"], "resources": ["a"]}]})
}

fn vwc() -> Json {
    json!({"apiVersion": "admissionregistration.k8s.io/v1", "kind": "ValidatingWebhookConfiguration",
           "metadata": {"name": "config"}, "webhooks": [hook()]})
}

fn mwc() -> Json {
    json!({"apiVersion": "admissionregistration.k8s.io/v1", "kind": "MutatingWebhookConfiguration",
           "metadata": {"name": "config"}, "webhooks": [hook()]})
}

/// The webhook cases both configurations share (TestValidateValidatingWebhookConfiguration,
/// TestValidateMutatingWebhookConfiguration).
fn webhook_cases() -> Vec<(Vec<(&'static str, Json)>, &'static str)> {
    let h = "/webhooks/0";
    let at = |p: &'static str| -> &'static str { alloc::boxed::Box::leak(alloc::format!("{h}{p}").into_boxed_str()) };
    alloc::vec![
        (
            alloc::vec![(at("/admissionReviewVersions"), json!([]))],
            "webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1"
        ),
        (alloc::vec![(at("/admissionReviewVersions"), json!(["0v"]))], r#"Invalid value: "0v": a DNS-1035 label"#),
        (alloc::vec![(at("/admissionReviewVersions"), json!(["v1", "invalid-version"]))], ""),
        (
            alloc::vec![(at("/admissionReviewVersions"), json!(["invalidVersion"]))],
            r#"Invalid value: ["invalidVersion"]"#
        ),
        (
            alloc::vec![(at("/admissionReviewVersions"), json!(["v1beta1", "v1beta1"]))],
            r#"Invalid value: "v1beta1": duplicate version"#
        ),
        (
            alloc::vec![
                ("/webhooks/1", hook()),
                ("/webhooks/1/name", json!("k8s.io")),
                ("/webhooks/2", hook()),
                ("/webhooks/2/name", Json::Null)
            ],
            r#"webhooks[1].name: Invalid value: "k8s.io": should be a domain with at least three segments separated by dots, webhooks[2].name: Required value"#
        ),
        (alloc::vec![("/webhooks/1", hook())], r#"webhooks[1].name: Duplicate value: "webhook.k8s.io""#),
        (
            alloc::vec![
                (at("/rules/0/operations"), json!([])),
                (at("/rules/1"), json!({"apiGroups": ["a"], "apiVersions": ["a"], "resources": ["a"]}))
            ],
            "webhooks[0].rules[0].operations: Required value, webhooks[0].rules[1].operations: Required value"
        ),
        (alloc::vec![(at("/rules/0/operations"), json!([""]))], r#"Unsupported value: """#),
        (alloc::vec![(at("/rules/0/operations"), json!(["PATCH"]))], r#"Unsupported value: "PATCH""#),
        (
            alloc::vec![(at("/rules/0/operations"), json!(["CREATE", "*"]))],
            "if '*' is present, must not specify other operations"
        ),
        (alloc::vec![(at("/rules/0/resources"), json!(["*", "a/b", "a/*", "*/b"]))], ""),
        (
            alloc::vec![(at("/rules/0/resources"), json!(["*", "a", "a/b", "a/*", "*/b"]))],
            "if '*' is present, must not specify other resources without subresources"
        ),
        (
            alloc::vec![(at("/rules/0/resources"), json!(["a/*", "a/x"]))],
            r#"webhooks[0].rules[0].resources[1]: Invalid value: "a/x": if 'a/*' is present, must not specify a/x"#
        ),
        (alloc::vec![(at("/rules/0/resources"), json!(["a/*", "a"]))], ""),
        (
            alloc::vec![(at("/rules/0/resources"), json!(["*/a", "x/a"]))],
            r#"webhooks[0].rules[0].resources[1]: Invalid value: "x/a": if '*/a' is present, must not specify x/a"#
        ),
        (
            alloc::vec![(at("/rules/0/resources"), json!(["*/*", "a"]))],
            r#"webhooks[0].rules[0].resources: Invalid value: ["*/*","a"]: if '*/*' is present, must not specify other resources"#
        ),
        (
            alloc::vec![(at("/failurePolicy"), json!("other"))],
            r#"webhooks[0].failurePolicy: Unsupported value: "other": supported values: "Fail", "Ignore""#
        ),
        (
            alloc::vec![(at("/sideEffects"), Json::Null)],
            "webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun"
        ),
        (
            alloc::vec![(at("/sideEffects"), json!("other"))],
            r#"webhooks[0].sideEffects: Unsupported value: "other": supported values: "None", "NoneOnDryRun""#
        ),
        (alloc::vec![(at("/clientConfig"), json!({}))], "exactly one of"),
        (
            alloc::vec![(at("/clientConfig/service"), json!({"namespace": "ns", "name": "n"}))],
            "[0].clientConfig: Required value: exactly one of url or service is required"
        ),
        (
            alloc::vec![(at("/clientConfig/url"), json!(""))],
            r#"[0].clientConfig.url: Invalid value: "": host must be specified"#
        ),
        (alloc::vec![(at("/clientConfig/url"), json!("http://example.com"))], "https"),
        (alloc::vec![(at("/clientConfig/url"), json!("https:///fancy/webhook"))], "host must be specified"),
        (
            alloc::vec![(at("/clientConfig/url"), json!("https://example.com/#bookmark"))],
            r#""bookmark": fragments are not permitted"#
        ),
        (
            alloc::vec![(at("/clientConfig/url"), json!("https://example.com?arg=value"))],
            r#""arg=value": query parameters are not permitted"#
        ),
        (
            alloc::vec![(at("/clientConfig/url"), json!("https://harry.potter@example.com/"))],
            r#""harry.potter": user information is not permitted"#
        ),
        (
            alloc::vec![(at("/clientConfig/url"), json!("arg#backwards=thisis?html.index/port:host//:https"))],
            "host must be specified"
        ),
        (
            alloc::vec![(at("/clientConfig"), json!({"service": {"namespace": "ns", "name": "n", "path": "foo/"}}))],
            r#"clientConfig.service.path: Invalid value: "foo/": must start with a '/'"#
        ),
        (alloc::vec![(at("/clientConfig"), json!({"service": {"namespace": "ns", "name": "n", "path": "/"}}))], ""),
        (alloc::vec![(at("/clientConfig"), json!({"service": {"namespace": "ns", "name": "n", "path": "/foo"}}))], ""),
        (
            alloc::vec![(at("/clientConfig"), json!({"service": {"namespace": "ns", "name": "n", "path": "//"}}))],
            r#"clientConfig.service.path: Invalid value: "//": segment[0] may not be empty"#
        ),
        (
            alloc::vec![(
                at("/clientConfig"),
                json!({"service": {"namespace": "ns", "name": "n", "path": "/foo//bar/"}})
            )],
            r#"clientConfig.service.path: Invalid value: "/foo//bar/": segment[1] may not be empty"#
        ),
        (
            alloc::vec![(
                at("/clientConfig"),
                json!({"service": {"namespace": "ns", "name": "n", "path": "/foo/bar//"}})
            )],
            r#"clientConfig.service.path: Invalid value: "/foo/bar//": segment[2] may not be empty"#
        ),
        (
            alloc::vec![(
                at("/clientConfig"),
                json!({"service": {"namespace": "ns", "name": "n", "path": "/apis/foo.bar/v1alpha1/--bad"}})
            )],
            r#"clientConfig.service.path: Invalid value: "/apis/foo.bar/v1alpha1/--bad": segment[3]: a lowercase RFC 1123 subdomain"#
        ),
        (
            alloc::vec![(at("/clientConfig"), json!({"service": {"namespace": "ns", "name": "n", "port": 0}}))],
            "Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive"
        ),
        (
            alloc::vec![(at("/clientConfig"), json!({"service": {"namespace": "ns", "name": "n", "port": 65536}}))],
            "Invalid value: 65536: port is not valid: must be between 1 and 65535, inclusive"
        ),
        (
            alloc::vec![(at("/timeoutSeconds"), json!(31))],
            "webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds"
        ),
        (
            alloc::vec![(at("/timeoutSeconds"), json!(0))],
            "webhooks[0].timeoutSeconds: Invalid value: 0: the timeout value must be between 1 and 30 seconds"
        ),
        (
            alloc::vec![(at("/timeoutSeconds"), json!(-1))],
            "webhooks[0].timeoutSeconds: Invalid value: -1: the timeout value must be between 1 and 30 seconds"
        ),
        (alloc::vec![(at("/timeoutSeconds"), json!(1))], ""),
        (
            alloc::vec![(at("/matchConditions"), json!([{"expression": "true"}]))],
            "webhooks[0].matchConditions[0].name: Required value"
        ),
        (
            alloc::vec![(at("/matchConditions"), json!([{"name": "-hello", "expression": "true"}]))],
            r#"webhooks[0].matchConditions[0].name: Invalid value: "-hello": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"#
        ),
        (
            alloc::vec![(at("/matchConditions"), json!([{"name": "webhook.k8s.io"}]))],
            "webhooks[0].matchConditions[0].expression: Required value"
        ),
        (
            alloc::vec![(at("/matchConditions"), json!([{"name": "webhook.k8s.io", "expression": "          "}]))],
            "webhooks[0].matchConditions[0].expression: Required value"
        ),
        (
            alloc::vec![(
                at("/matchConditions"),
                json!([{"name": "webhook.k8s.io", "expression": "object.x in [1, 2, "}])
            )],
            r#"webhooks[0].matchConditions[0].expression: Invalid value: "object.x in [1, 2,": compilation failed: ERROR: <input>:1:19: Syntax error: "#
        ),
        (
            alloc::vec![(
                at("/matchConditions"),
                json!([{"name": "webhook.k8s.io", "expression": "true"}, {"name": "webhook.k8s.io", "expression": "true"}])
            )],
            r#"matchConditions[1].name: Duplicate value: "webhook.k8s.io""#
        ),
        (
            alloc::vec![(at("/matchConditions"), json!([{"name": "webhook.k8s.io", "expression": "6"}]))],
            r#"webhooks[0].matchConditions[0].expression: Invalid value: "6": must evaluate to bool"#
        ),
        (
            alloc::vec![(
                at("/matchConditions"),
                Json::Array((0..65).map(|i| json!({"name": alloc::format!("c{i}"), "expression": "true"})).collect())
            )],
            "webhooks[0].matchConditions: Too many: 65: must have at most 64 items"
        ),
    ]
}

// TestValidateValidatingWebhookConfiguration.
#[test]
fn validating_webhook_configuration() {
    let cases = webhook_cases();
    let cases: Vec<Case<'_>> = cases.iter().map(|(m, w)| (m.as_slice(), *w)).collect();
    check("v1", "ValidatingWebhookConfiguration", vwc, None, &cases);
}

// TestValidateMutatingWebhookConfiguration (and its reinvocationPolicy cases).
#[test]
fn mutating_webhook_configuration() {
    let mut cases = webhook_cases();
    cases.push((
        alloc::vec![("/webhooks/0/reinvocationPolicy", json!("other"))],
        r#"webhooks[0].reinvocationPolicy: Unsupported value: "other": supported values: "IfNeeded", "Never""#,
    ));
    cases.push((alloc::vec![("/webhooks/0/reinvocationPolicy", json!("IfNeeded"))], ""));
    let cases: Vec<Case<'_>> = cases.iter().map(|(m, w)| (m.as_slice(), *w)).collect();
    check("v1", "MutatingWebhookConfiguration", mwc, None, &cases);
}

// TestValidateValidatingWebhookConfigurationUpdate.
#[test]
fn validating_webhook_configuration_update() {
    let with = |hooks: Json| {
        let mut c = vwc();
        set(&mut c, "/webhooks", hooks);
        c
    };
    let h = |name: &str, versions: Json| {
        let mut h = hook();
        set(&mut h, "/name", json!(name));
        set(&mut h, "/admissionReviewVersions", versions);
        h
    };
    let update = |new: &Json, old: &Json| aggregate("v1", "ValidatingWebhookConfiguration", new, Some(old));
    // should pass on valid new AdmissionReviewVersion
    assert_eq!(
        update(&with(json!([h("webhook.k8s.io", json!(["v1beta1"]))])), &with(json!([h("webhook.k8s.io", json!([]))]))),
        ""
    );
    // should pass on invalid AdmissionReviewVersion with invalid previous versions
    assert_eq!(
        update(
            &with(json!([h("webhook.k8s.io", json!(["invalid-v1", "invalid-v2"]))])),
            &with(json!([h("webhook.k8s.io", json!(["invalid-v0"]))]))
        ),
        ""
    );
    // should fail on invalid AdmissionReviewVersion with valid previous versions
    let got = update(
        &with(json!([h("webhook.k8s.io", json!(["invalid-v1"]))])),
        &with(json!([h("webhook.k8s.io", json!(["v1beta1", "invalid-v1"]))])),
    );
    assert!(got.contains(r#"Invalid value: ["invalid-v1"]"#), "{got}");
    // should fail on invalid AdmissionReviewVersion with missing previous versions
    let got = update(
        &with(json!([h("webhook.k8s.io", json!(["invalid-v1"]))])),
        &with(json!([h("webhook.k8s.io", json!([]))])),
    );
    assert!(got.contains(r#"Invalid value: ["invalid-v1"]"#), "{got}");
    // Webhooks must have unique names when old config has unique names
    let two = with(json!([h("webhook.k8s.io", json!(["v1"])), h("webhook.k8s.io", json!(["v1"]))]));
    let got = update(&two, &with(json!([h("webhook.k8s.io", json!(["v1"])), h("webhook2.k8s.io", json!(["v1"]))])));
    assert!(got.contains(r#"webhooks[1].name: Duplicate value: "webhook.k8s.io""#), "{got}");
    // Webhooks can have duplicate names when old config has duplicate names
    assert_eq!(update(&two, &two), "");
    // Webhooks must compile CEL expressions with NewExpression environment type if changed
    let mut new = with(json!([h("webhook.k8s.io", json!(["v1"]))]));
    set(&mut new, "/webhooks/0/matchConditions", json!([{"name": "c", "expression": "test() == true"}]));
    let got = update(&new, &with(json!([h("webhook.k8s.io", json!(["v1"]))])));
    assert!(got.contains("undeclared reference to 'test'"), "{got}");
    // Side effects: Some is allowed when an old webhook has it.
    let mut old = with(json!([h("webhook.k8s.io", json!(["v1"]))]));
    set(&mut old, "/webhooks/0/sideEffects", json!("Some"));
    let mut new = old.clone();
    set(&mut new, "/webhooks/0/sideEffects", json!("Unknown"));
    assert_eq!(update(&new, &old), "");
}

fn vap() -> Json {
    json!({"apiVersion": "admissionregistration.k8s.io/v1", "kind": "ValidatingAdmissionPolicy",
           "metadata": {"name": "config"},
           "spec": {"validations": [{"expression": "object.x < 100"}],
                    "matchConstraints": {"resourceRules": [{"operations": ["CREATE"], "apiGroups": ["a"],
                        "apiVersions": ["a"], "resources": ["a"]}]}}})
}

// TestValidateValidatingAdmissionPolicy.
#[test]
fn validating_admission_policy() {
    let rules = "/spec/matchConstraints/resourceRules";
    let cases: &[Case<'_>] = &[
        (
            &[("/spec/failurePolicy", json!("other"))],
            r#"spec.failurePolicy: Unsupported value: "other": supported values: "Fail", "Ignore""#,
        ),
        (
            &[("/spec/paramKind", json!({"apiVersion": "test.example.com", "kind": "ReplicaLimit"}))],
            r#"spec.paramKind.apiVersion: Invalid value: "test.example.com""#,
        ),
        (&[("/spec/paramKind", json!({"apiVersion": "test.example.com/v1"}))], "spec.paramKind.kind: Required value"),
        (
            &[("/spec/paramKind", json!({"apiVersion": "!!!/v1", "kind": "ReplicaLimit"}))],
            r#"pec.paramKind.apiVersion: Invalid value: "!!!":"#,
        ),
        (
            &[("/spec/paramKind", json!({"apiVersion": "test.example.com/!!!", "kind": "ReplicaLimit"}))],
            r#"pec.paramKind.apiVersion: Invalid value: "!!!":"#,
        ),
        (
            &[("/spec/validations", json!([]))],
            "spec.validations: Required value: validations or auditAnnotations must contain at least one item",
        ),
        (
            &[("/spec/validations/0/reason", json!("other"))],
            r#"spec.validations[0].reason: Unsupported value: "other""#,
        ),
        (&[("/spec/matchConstraints", Json::Null)], "spec.matchConstraints: Required value"),
        (&[(rules, json!([]))], "spec.matchConstraints.resourceRules: Required value"),
        (
            &[("/spec/matchConstraints/resourceRules/0/apiVersions", json!([]))],
            "spec.matchConstraints.resourceRules[0].apiVersions: Required value",
        ),
        (
            &[("/spec/validations/0/expression", json!(""))],
            "spec.validations[0].expression: Required value: expression is not specified",
        ),
        (
            &[("/spec/matchConstraints/resourceRules/0/resourceNames", json!(["/./."]))],
            r#"spec.matchConstraints.resourceRules[0].resourceNames[0]: Invalid value: "/./.""#,
        ),
        (
            &[("/spec/matchConstraints/resourceRules/0/resourceNames", json!(["test", "test"]))],
            r#"spec.matchConstraints.resourceRules[0].resourceNames[1]: Duplicate value: "test""#,
        ),
        (
            &[("/spec/matchConstraints/matchPolicy", json!("other"))],
            r#"spec.matchConstraints.matchPolicy: Unsupported value: "other": supported values: "Equivalent", "Exact""#,
        ),
        (&[("/spec/matchConstraints/resourceRules/0/operations", json!(["PATCH"]))], r#"Unsupported value: "PATCH""#),
        (
            &[("/spec/matchConstraints/resourceRules/0/resources", json!(["*/*", "a"]))],
            r#"spec.matchConstraints.resourceRules[0].resources: Invalid value: ["*/*","a"]: if '*/*' is present, must not specify other resources"#,
        ),
        (
            &[("/spec/validations/0/expression", json!("object.x in [1, 2, "))],
            r#"spec.validations[0].expression: Invalid value: "object.x in [1, 2, ": compilation failed: ERROR: <input>:1:20: Syntax error: "#,
        ),
        (
            &[("/spec/validations/0/messageExpression", json!("object.x in [1, 2, "))],
            r#"spec.validations[0].messageExpression: Invalid value: "object.x in [1, 2, ": compilation failed: ERROR: <input>:1:20: Syntax error: "#,
        ),
        (
            &[("/spec/validations/0/messageExpression", json!("0 == 0"))],
            r#"spec.validations[0].messageExpression: Invalid value: "0 == 0": must evaluate to string"#,
        ),
        (
            &[("/spec/auditAnnotations", json!([{"key": "@", "valueExpression": "value"}]))],
            r#"spec.auditAnnotations[0].key: Invalid value: "config/@": name part must consist of alphanumeric characters"#,
        ),
        (
            &[(
                "/spec/auditAnnotations",
                json!([{"key": "a", "valueExpression": "'1'"}, {"key": "a", "valueExpression": "'2'"}]),
            )],
            r#"spec.auditAnnotations[1].key: Duplicate value: "a""#,
        ),
        (
            &[
                ("/metadata/name", json!("nope!")),
                ("/spec/auditAnnotations", json!([{"key": "key", "valueExpression": "'1'"}])),
            ],
            r#"spec.auditAnnotations[0].key: Invalid value: "nope!/key": prefix part a lowercase RFC 1123 subdomain"#,
        ),
        (
            &[("/spec/auditAnnotations", json!([{"key": "a", "valueExpression": "true"}]))],
            r#"spec.auditAnnotations[0].valueExpression: Invalid value: "true": must evaluate to one of [string null_type]"#,
        ),
        (
            &[("/spec/auditAnnotations", json!([{"key": "a", "valueExpression": "object.x in [1, 2, "}]))],
            r#"spec.auditAnnotations[0].valueExpression: Invalid value: "object.x in [1, 2, ": compilation failed: ERROR: <input>:1:19: Syntax error: "#,
        ),
        (&[("/spec/matchConditions", json!([{"expression": "true"}]))], "spec.matchConditions[0].name: Required value"),
        (
            &[("/spec/matchConditions", json!([{"name": "a", "expression": "params.x == 1"}]))],
            "undeclared reference to 'params'",
        ),
        (
            &[
                ("/spec/paramKind", json!({"apiVersion": "v1", "kind": "ConfigMap"})),
                ("/spec/matchConditions", json!([{"name": "a", "expression": "params.x == 1"}])),
            ],
            "",
        ),
        (
            &[("/spec/variables", json!([{"name": "", "expression": "true"}]))],
            "spec.variables[0].name: Required value: name is not specified",
        ),
        (
            &[("/spec/variables", json!([{"name": "4ever", "expression": "true"}]))],
            r#"spec.variables[0].name: Invalid value: "4ever": must be a valid CEL identifier"#,
        ),
        (
            &[("/spec/variables", json!([{"name": "foo", "expression": "114 + '514'"}]))],
            r#"spec.variables[0].expression: Invalid value: "114 + '514'": compilation failed: ERROR: <input>:1:5: found no matching overload for '_+_' applied to '(int, string)"#,
        ),
        (
            &[
                ("/spec/variables", json!([{"name": "foo", "expression": "1"}])),
                ("/spec/validations/1", json!({"expression": "variables.replicas == 2"})),
            ],
            r#"spec.validations[1].expression: Invalid value: "variables.replicas == 2": compilation failed: ERROR: <input>:1:10: undefined field 'replicas'"#,
        ),
        (
            &[(
                "/spec/variables",
                json!([{"name": "bar", "expression": "variables.foo + 1"}, {"name": "foo", "expression": "1"}]),
            )],
            r#"spec.variables[0].expression: Invalid value: "variables.foo + 1": compilation failed: ERROR: <input>:1:10: undefined field 'foo'"#,
        ),
        (
            &[(
                "/spec/variables",
                json!([{"name": "foo", "expression": "1"}, {"name": "bar", "expression": "variables.foo + 1"}]),
            )],
            "",
        ),
        (&[("/spec/validations/0/expression", json!("variables.foo == 1"))], "undeclared reference to 'variables'"),
        (
            &[("/spec/validations/0/message", json!("a\nb"))],
            r#"spec.validations[0].message: Invalid value: "a\nb": must not contain line breaks"#,
        ),
        (
            &[("/metadata/name", json!("a.static.k8s.io"))],
            r#"metadata.name: Invalid value: "a.static.k8s.io": names ending with ".static.k8s.io" are reserved"#,
        ),
    ];
    check("v1", "ValidatingAdmissionPolicy", vap, None, cases);
}

// TestValidateValidatingAdmissionPolicyUpdate: unchanged expressions compile in the
// StoredExpressions environment; match conditions are not validated when they and the
// paramKind did not change.
#[test]
fn validating_admission_policy_update() {
    let mut old = vap();
    set(&mut old, "/spec/validations/0/expression", json!("[1].includes(1)"));
    set(&mut old, "/spec/matchConditions", json!([{"name": "c", "expression": "[1].includes(1) == true"}]));
    let mut new = old.clone();
    set(&mut new, "/spec/failurePolicy", json!("Ignore"));
    assert_eq!(aggregate("v1", "ValidatingAdmissionPolicy", &new, Some(&old)), "");
    // A new expression is compiled one minor back: `includes` (1.37) is not there.
    assert!(aggregate("v1", "ValidatingAdmissionPolicy", &new, None).contains("undeclared reference to 'includes'"));
    set(&mut new, "/spec/validations/1", json!({"expression": "[2].includes(2)"}));
    let got = aggregate("v1", "ValidatingAdmissionPolicy", &new, Some(&old));
    assert!(got.starts_with(r#"spec.validations[1].expression: Invalid value: "[2].includes(2)""#), "{got}");
    // Static names are only refused on create.
    let mut old = vap();
    set(&mut old, "/metadata/name", json!("a.static.k8s.io"));
    let o = outcome("v1", "ValidatingAdmissionPolicy", &old, Some(&old));
    assert!(o.errors.is_empty());
    assert_eq!(o.warnings, ["metadata.name: names ending with \".static.k8s.io\" are reserved for static manifest-based configurations and cannot be managed via the API"]);
}

fn vapb() -> Json {
    json!({"apiVersion": "admissionregistration.k8s.io/v1", "kind": "ValidatingAdmissionPolicyBinding",
           "metadata": {"name": "config"},
           "spec": {"policyName": "xyzlimit-scale.example.com", "validationActions": ["Deny"],
                    "paramRef": {"name": "xyzlimit-scale-setting.example.com", "parameterNotFoundAction": "Deny"}}})
}

// TestValidateValidatingAdmissionPolicyBinding.
#[test]
fn validating_admission_policy_binding() {
    let cases: &[Case<'_>] = &[
        (&[("/spec/policyName", json!(""))], "spec.policyName: Required value"),
        (&[("/spec/policyName", json!("Bad!"))], r#"spec.policyName: Invalid value: "Bad!": a lowercase RFC 1123 subdomain"#),
        (&[("/spec/validationActions", json!([]))], "spec.validationActions: Required value"),
        (&[("/spec/validationActions", json!(["Deny", "Deny"]))], r#"spec.validationActions[1]: Duplicate value: "Deny""#),
        (&[("/spec/validationActions", json!(["Deny", "Warn"]))], r#"spec.validationActions: Invalid value: ["Deny","Warn"]: must not contain both Deny and Warn"#),
        (&[("/spec/validationActions", json!(["other"]))], r#"spec.validationActions[0]: Unsupported value: "other": supported values: "Audit", "Deny", "Warn""#),
        (&[("/spec/paramRef/parameterNotFoundAction", Json::Null)], "spec.paramRef.parameterNotFoundAction: Required value"),
        (&[("/spec/paramRef/parameterNotFoundAction", json!("invalid"))], r#"spec.paramRef.parameterNotFoundAction: Unsupported value: "invalid": supported values: "Deny", "Allow""#),
        (&[("/spec/paramRef/selector", json!({}))], "spec.paramRef.name: Forbidden: name and selector are mutually exclusive, spec.paramRef.selector: Forbidden: name and selector are mutually exclusive"),
        (&[("/spec/paramRef/name", Json::Null)], "spec.paramRef: Required value: one of name or selector must be specified"),
        (&[("/spec/paramRef/name", json!("a/b"))], r#"spec.paramRef.name: Invalid value: "a/b": may not contain '/'"#),
        (&[("/spec/matchResources", json!({"matchPolicy": "other"}))], r#"spec.matchResources.matchPolicy: Unsupported value: "other""#),
        (&[("/spec/matchResources", json!({"resourceRules": [{"operations": ["CREATE"], "apiGroups": ["a"], "apiVersions": ["a"], "resources": ["a"], "resourceNames": ["a", "a"]}]}))], r#"spec.matchResources.resourceRules[0].resourceNames[1]: Duplicate value: "a""#),
    ];
    check("v1", "ValidatingAdmissionPolicyBinding", vapb, None, cases);
}

fn map() -> Json {
    json!({"apiVersion": "admissionregistration.k8s.io/v1", "kind": "MutatingAdmissionPolicy",
           "metadata": {"name": "config"},
           "spec": {"matchConstraints": {"resourceRules": [{"operations": ["CREATE"], "apiGroups": ["a"],
                        "apiVersions": ["a"], "resources": ["a"]}]},
                    "mutations": [{"patchType": "ApplyConfiguration",
                        "applyConfiguration": {"expression": "Object{metadata: Object.metadata{labels: {'a': 'b'}}}"}}],
                    "reinvocationPolicy": "Never"}})
}

// TestValidateMutatingAdmissionPolicy.
#[test]
fn mutating_admission_policy() {
    let cases: &[Case<'_>] = &[
        (&[("/spec/mutations", json!([]))], "spec.mutations: Required value: mutations must contain at least one item"),
        (&[("/spec/reinvocationPolicy", Json::Null)], "spec.reinvocationPolicy: Required value"),
        (&[("/spec/reinvocationPolicy", json!("other"))], r#"spec.reinvocationPolicy: Unsupported value: "other": supported values: "IfNeeded", "Never""#),
        (&[("/spec/matchConstraints/resourceRules/0/operations", json!(["DELETE"]))], r#"spec.matchConstraints.resourceRules.operations: Unsupported value: "DELETE": supported values: "*", "CONNECT", "CREATE", "UPDATE""#),
        (&[("/spec/mutations/0/patchType", json!(""))], "spec.mutations[0].patchType: Required value"),
        (&[("/spec/mutations/0/patchType", json!("other"))], r#"spec.mutations[0].patchType: Unsupported value: "other": supported values: "ApplyConfiguration", "JSONPatch""#),
        (&[("/spec/mutations/0/patchType", json!("JSONPatch"))], "spec.mutations[0].jsonPatch: Required value: must be specified when patchType is JSONPatch, spec.mutations[0].applyConfiguration: Invalid value: \"{applyConfiguration}\": must not be specified when patchType is JSONPatch"),
        (&[("/spec/mutations/0/applyConfiguration/expression", json!("  "))], "spec.mutations[0].applyConfiguration.expression: Required value"),
        (&[("/spec/mutations/0/applyConfiguration/expression", json!("1"))], r#"spec.mutations[0].applyConfiguration.expression: Invalid value: "1": must evaluate to Object but got int"#),
        (&[("/spec/mutations/0", json!({"patchType": "JSONPatch", "jsonPatch": {"expression": "[JSONPatch{op: 'add', path: '/x', value: variables.v}]"}})), ("/spec/variables", json!([{"name": "v", "expression": "1"}]))], ""),
        (&[("/spec/mutations/0", json!({"patchType": "JSONPatch", "jsonPatch": {"expression": "[JSONPatch{op: 'add', path: '/x', value: params.v}]"}}))], "undeclared reference to 'params'"),
    ];
    check("v1", "MutatingAdmissionPolicy", map, None, cases);
}

// TestValidateMutatingAdmissionPolicyBinding.
#[test]
fn mutating_admission_policy_binding() {
    let base = || {
        json!({"apiVersion": "admissionregistration.k8s.io/v1", "kind": "MutatingAdmissionPolicyBinding",
               "metadata": {"name": "config"}, "spec": {"policyName": "p",
               "paramRef": {"name": "x", "parameterNotFoundAction": "Allow"}}})
    };
    let cases: &[Case<'_>] = &[
        (&[("/spec/policyName", json!(""))], "spec.policyName: Required value"),
        (
            &[("/spec/paramRef/parameterNotFoundAction", Json::Null)],
            "spec.paramRef.parameterNotFoundAction: Required value",
        ),
        (
            &[(
                "/spec/matchResources",
                json!({"resourceRules": [{"operations": ["DELETE"], "apiGroups": ["a"], "apiVersions": ["a"], "resources": ["a"]}]}),
            )],
            r#"spec.matchResources.resourceRules.operations: Unsupported value: "DELETE""#,
        ),
    ];
    check("v1", "MutatingAdmissionPolicyBinding", base, None, cases);
    // v1alpha1 defaults parameterNotFoundAction to Deny.
    let mut b = base();
    set(&mut b, "/apiVersion", json!("admissionregistration.k8s.io/v1alpha1"));
    set(&mut b, "/spec/paramRef/parameterNotFoundAction", Json::Null);
    let o = outcome("v1alpha1", "MutatingAdmissionPolicyBinding", &b, None);
    assert!(o.errors.is_empty());
    assert_eq!(o.object.pointer("/spec/paramRef/parameterNotFoundAction"), Some(&json!("Deny")));
}

// v1 TestDefaultAdmissionWebhook (defaults.go), and the strategies' PrepareForCreate /
// PrepareForUpdate (generation).
#[test]
fn defaults_and_generation() {
    let mut c = mwc();
    set(&mut c, "/webhooks/0/clientConfig", json!({"service": {"namespace": "ns", "name": "n"}}));
    let o = outcome("v1", "MutatingWebhookConfiguration", &c, None);
    let h = &o.object["webhooks"][0];
    assert_eq!(h["failurePolicy"], "Fail");
    assert_eq!(h["matchPolicy"], "Equivalent");
    assert_eq!(h["namespaceSelector"], json!({}));
    assert_eq!(h["objectSelector"], json!({}));
    assert_eq!(h["timeoutSeconds"], 10);
    assert_eq!(h["reinvocationPolicy"], "Never");
    assert_eq!(h["clientConfig"]["service"]["port"], 443);
    assert_eq!(h["rules"][0]["scope"], "*");
    assert_eq!(o.object["metadata"]["generation"], 1);
    let p = outcome("v1", "ValidatingAdmissionPolicy", &vap(), None);
    assert_eq!(p.object["spec"]["failurePolicy"], "Fail");
    assert_eq!(p.object["spec"]["matchConstraints"]["matchPolicy"], "Equivalent");
    assert_eq!(p.object["status"], json!({}));
    // An update of the spec bumps the generation; an unchanged spec keeps it.
    let mut changed = vap();
    set(&mut changed, "/spec/failurePolicy", json!("Ignore"));
    assert_eq!(outcome("v1", "ValidatingAdmissionPolicy", &changed, Some(&vap())).object["metadata"]["generation"], 2);
    assert_eq!(outcome("v1", "ValidatingAdmissionPolicy", &vap(), Some(&vap())).object["metadata"]["generation"], 1);
}

// TestWarningsForValidatingWebhookRules (warnings.go), through the strategy.
#[test]
fn excluded_resource_warnings() {
    let mut c = vwc();
    set(
        &mut c,
        "/webhooks/0/rules/0",
        json!({"operations": ["CREATE"], "apiGroups": ["authentication.k8s.io", "authorization.k8s.io"],
               "apiVersions": ["v1"], "resources": ["tokenreviews", "subjectaccessreviews", "tokenreviews"]}),
    );
    set(
        &mut c,
        "/webhooks/0/rules/1",
        json!({"operations": ["CREATE"], "apiGroups": ["*"], "apiVersions": ["v1"], "resources": ["tokenreviews"]}),
    );
    let o = outcome("v1", "ValidatingWebhookConfiguration", &c, None);
    assert!(o.errors.is_empty());
    assert_eq!(
        o.warnings,
        [
            "webhooks[0].rules[0]: tokenreviews.authentication.k8s.io is excluded from admission webhooks; this rule will have no effect",
            "webhooks[0].rules[0]: subjectaccessreviews.authorization.k8s.io is excluded from admission webhooks; this rule will have no effect",
        ]
    );
}

// TestValidateValidatingAdmissionPolicyBindingUpdate, TestValidateMutatingAdmissionPolicyUpdate,
// TestValidateMutatingAdmissionPolicyBindingUpdate: an update is validated as a create is
// (the oracle's update cases of admissionregistration-update.yaml).
#[test]
fn policy_and_binding_updates() {
    let mut new = vapb();
    set(&mut new, "/spec/validationActions", json!(["Deny", "Warn"]));
    assert_eq!(
        aggregate("v1", "ValidatingAdmissionPolicyBinding", &new, Some(&vapb())),
        r#"spec.validationActions: Invalid value: ["Deny","Warn"]: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)"#
    );
    let mut new = map();
    set(&mut new, "/spec/reinvocationPolicy", json!("Sometimes"));
    assert_eq!(
        aggregate("v1", "MutatingAdmissionPolicy", &new, Some(&map())),
        r#"spec.reinvocationPolicy: Unsupported value: "Sometimes": supported values: "IfNeeded", "Never""#
    );
    let mut old = vap();
    set(&mut old, "/spec/matchConditions", json!([{"name": "c", "expression": "true"}]));
    let mut new = old.clone();
    set(&mut new, "/spec/validations/1", json!({"expression": "object.spec.replicas", "reason": "Nope"}));
    assert_eq!(
        aggregate("v1", "ValidatingAdmissionPolicy", &new, Some(&old)),
        r#"[spec.validations[1].expression: Invalid value: "object.spec.replicas": must evaluate to bool but got dyn, spec.validations[1].reason: Unsupported value: "Nope": supported values: "Forbidden", "Invalid", "RequestEntityTooLarge"]"#
    );
    // More than 20 audit annotations: the internal structs printed with their Go field names.
    let mut p = vap();
    set(
        &mut p,
        "/spec/auditAnnotations",
        Json::Array((0..21).map(|i| json!({"key": alloc::format!("k{i}"), "valueExpression": "'v'"})).collect()),
    );
    let got = aggregate("v1", "ValidatingAdmissionPolicy", &p, None);
    assert!(
        got.starts_with(r#"spec.auditAnnotations: Invalid value: [{"Key":"k0","ValueExpression":"'v'"},"#),
        "{got}"
    );
    assert!(
        got.ends_with(r#"{"Key":"k20","ValueExpression":"'v'"}]: must not have more than 20 auditAnnotations"#),
        "{got}"
    );
}
