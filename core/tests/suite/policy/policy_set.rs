//! Admission policy cases. Each names its source: apiserver v0.37.0-beta.0
//! `pkg/admission/plugin/policy/validating/{admission_test.go,validator_test.go}`,
//! `policy/matching/matching_test.go`, `webhook/predicates/rules/rules_test.go`, and the
//! texts Kubernetes' integration test `test/integration/apiserver/cel/
//! validatingadmissionpolicy_test.go` asserts.

use kubedv_core::cel::k8s::authz::Rule;
use kubedv_core::diag::Severity;
use kubedv_core::policy::{Outcome, PolicySet, Request, UserInfo, OUT_OF_BUDGET};
use serde_json::{json, Value as Json};

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

/// The errors of what the API server refuses when the documents are created, as `field: message`.
fn refused(docs: &[Json]) -> Vec<String> {
    PolicySet::new(docs)
        .problems
        .iter()
        .filter(|p| p.severity == Severity::Error)
        .map(|p| format!("{}: {}", p.field, p.message))
        .collect()
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
    let docs = suffix_policy(
        json!({"validations": [{"expression": "object.metadata.name.endsWith('k8s')", "reason": "Forbidden"}]}),
    );
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
    req.namespace_object = Some(
        json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "default", "labels": {"env": "prod"}}}),
    );
    assert!(run(&docs, &req).allowed);
    let set =
        PolicySet::new(&suffix_policy(json!({"validations": [{"expression": "namespaceObject.metadata.uid == ''"}]})));
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
    let docs = [
        policy("validate-audit-annotations", spec("'object name: ' + object.metadata.name", "Fail")),
        binding("b", "validate-audit-annotations", json!({})),
    ];
    let out = run(&docs, &request(configmap("test1-k8s")));
    assert!(out.allowed);
    assert_eq!(out.audit_annotations["validate-audit-annotations/example-key"], "object name: test1-k8s");
    let docs = [
        policy("validate-audit-annotations", spec("null", "Fail")),
        binding("b", "validate-audit-annotations", json!({})),
    ];
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
            policy(
                "validate-actions",
                json!({"matchConstraints": all_rules(), "validations": [{"expression": "object.metadata.name.endsWith('k8s')"}]}),
            ),
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
        policy(
            "p",
            json!({"matchConstraints": all_rules(), "validations": [{"expression": "1 < 0", "message": "a<b & c"}]}),
        ),
        binding("b", "p", json!({"validationActions": ["Audit"]})),
    ];
    let out = run(&docs, &request(configmap("x")));
    assert_eq!(
        out.audit_annotations["validation.policy.admission.k8s.io/validation_failure"],
        r#"[{"message":"a\u003cb \u0026 c","policy":"p","binding":"b","expressionIndex":0,"validationActions":["Audit"]}]"#
    );
}

fn one(validation: Json) -> Vec<Json> {
    Vec::from([
        policy("p", json!({"matchConstraints": all_rules(), "validations": [validation]})),
        binding("b", "p", json!({})),
    ])
}

// validator_test "messageExpression ...": the evaluated message, or the fallbacks.
#[test]
fn message_expressions() {
    let msg = |expr: &str| {
        let out = run(
            &one(json!({"expression": "false", "message": "test1", "messageExpression": expr})),
            &request(configmap("c")),
        );
        out.denials[0].message.clone()
    };
    assert_eq!(msg("'evaluated message'"), "evaluated message");
    assert_eq!(msg("'  padded  '"), "padded");
    assert_eq!(msg("' '"), "test1");
    assert_eq!(msg("'hello\\nthere'"), "test1");
    assert_eq!(msg("'x'.repeat(2)"), "test1"); // a compile error falls back too
    assert_eq!(msg("string(object.missing)"), "test1");
    let long = format!("'{}'", "x".repeat(5 * 1024 + 1));
    assert_eq!(msg(&long), "test1");
    let exact = format!("'{}'", "x".repeat(5 * 1024));
    assert_eq!(msg(&exact).len(), 5 * 1024);
    // No message: the trimmed expression.
    let out = run(
        &one(
            json!({"expression": "  this.expression == unit.test ".replace("this.expression == unit.test", "1 == 2")}),
        ),
        &request(configmap("c")),
    );
    assert_eq!(out.denials[0].message, "failed expression: 1 == 2");
    // A message expression sees no authorizer (validating/plugin.go compiles it without).
    let set = PolicySet::new(&one(
        json!({"expression": "false", "messageExpression": "authorizer.path('/x').check('get').reason()"}),
    ));
    assert!(set.problems[0].message.contains("undeclared reference to 'authorizer'"), "{}", set.problems[0].message);
}

// compile.go: the result type must be exactly bool (a dyn result is refused).
#[test]
fn result_types() {
    let set = PolicySet::new(&one(json!({"expression": "object.spec.enabled"})));
    // admissionregistration validation.go: refused at creation as `Invalid value: "<expr>": ...`.
    assert_eq!(set.problems[0].field, "spec.validations[0].expression");
    assert_eq!(set.problems[0].message, "Invalid value: \"object.spec.enabled\": must evaluate to bool but got dyn");
    let out = set.evaluate(&request(configmap("c")), &[], &[]);
    assert_eq!(out.denials[0].message, "compilation error: must evaluate to bool but got dyn");
    // admission plugin/cel/compile.go: a program cel-go cannot build (the regex library compiles
    // a literal `find` pattern then) is an ErrorTypeInternal, which validation.go reports as
    // `field.InternalError`.
    let set = PolicySet::new(&one(json!({"expression": "'abc'.find(')') == ''"})));
    assert_eq!(set.problems[0].field, "spec.validations[0].expression");
    assert_eq!(
        set.problems[0].message,
        "Internal error: program instantiation failed: error parsing regexp: unexpected ): `)`"
    );
    // ... and so is a constant conversion that fails (cel-go v0.29.2 interpreter/decorators.go
    // maybeOptimizeConstUnary, under the environment's OptOptimize).
    let set = PolicySet::new(&one(json!({"expression": "int('x') == 1"})));
    assert_eq!(
        set.problems[0].message,
        "Internal error: program instantiation failed: type conversion error from 'string' to 'int'"
    );
    let set = PolicySet::new(&one(json!({"expression": "object.spec.replicas <="})));
    assert!(
        set.problems[0]
            .message
            .starts_with("Invalid value: \"object.spec.replicas <=\": compilation failed: ERROR: <input>:1:"),
        "{}",
        set.problems[0].message
    );
    let set = PolicySet::new(&[policy(
        "p",
        json!({"matchConstraints": all_rules(), "auditAnnotations": [{"key": "k", "valueExpression": "1"}]}),
    )]);
    assert_eq!(set.problems[0].message, "Invalid value: \"1\": must evaluate to one of [string null_type] but got int");
}

// validator_test "no match surpresses failure", "match error => presumed match";
// matchconditions/matcher.go: a false condition wins over errors.
#[test]
fn match_conditions() {
    let docs = |conds: Json, fp: &str| {
        Vec::from([
            policy(
                "p",
                json!({"matchConstraints": all_rules(), "failurePolicy": fp, "matchConditions": conds,
                               "validations": [{"expression": "object.missing == 1"}]}),
            ),
            binding("b", "p", json!({})),
        ])
    };
    let req = request(configmap("c"));
    let out = run(&docs(json!([{"name": "never", "expression": "false"}]), "Fail"), &req);
    assert!(out.allowed);
    assert!(!out.evaluations[0].matched);
    assert!(out.evaluations[0].why.ends_with("matchCondition \"never\" is false"));
    let errs = json!([{"name": "e", "expression": "object.nope == 1"}, {"name": "f", "expression": "false"}]);
    assert!(run(&docs(errs, "Fail"), &req).allowed);
    let out = run(&docs(json!([{"name": "e", "expression": "object.nope == 1"}]), "Fail"), &req);
    assert_eq!(out.denials[0].message, "expression 'object.nope == 1' resulted in error: no such key: nope");
    let two =
        json!([{"name": "e", "expression": "object.nope == 1"}, {"name": "g", "expression": "object.other == 1"}]);
    let out = run(&docs(two, "Fail"), &req);
    assert_eq!(
        out.denials[0].message,
        "[expression 'object.nope == 1' resulted in error: no such key: nope, expression 'object.other == 1' resulted in error: no such key: other]"
    );
    assert!(run(&docs(json!([{"name": "e", "expression": "object.nope == 1"}]), "Ignore"), &req).allowed);
}

// composition.go: variables are lazy, typed, and report their errors by name (integration
// test "composited variable ... fails to evaluate").
#[test]
fn variables() {
    let docs = |validation: &str| {
        Vec::from([
            policy(
                "p",
                json!({"matchConstraints": all_rules(),
                "variables": [
                    {"name": "name", "expression": "object.metadata.name"},
                    {"name": "hasOneSecretSyncOwner", "expression": "size(object.metadata.ownerReferences) == 1"},
                    {"name": "long", "expression": "variables.name.size() > 3"}],
                "validations": [{"expression": validation}]}),
            ),
            binding("b", "p", json!({})),
        ])
    };
    let req = request(configmap("configmap"));
    assert!(run(&docs("variables.long && variables.name.startsWith('config')"), &req).allowed);
    // Never read: never evaluated.
    assert!(run(&docs("variables.long || variables.hasOneSecretSyncOwner"), &req).allowed);
    let out = run(&docs("variables.long == true && variables.hasOneSecretSyncOwner == true"), &req);
    assert_eq!(
        out.denials[0].message,
        "expression 'variables.long == true && variables.hasOneSecretSyncOwner == true' resulted in error: \
         composited variable \"hasOneSecretSyncOwner\" fails to evaluate: no such key: ownerReferences"
    );
    // Typed by its expression: a bool variable compared with a string does not compile.
    let set = PolicySet::new(&docs("variables.long == 'yes'"));
    assert!(
        set.problems[0].message.contains("found no matching overload for '_==_' applied to '(bool, string)'"),
        "{}",
        set.problems[0].message
    );
    let set = PolicySet::new(&docs("variables.nope"));
    assert!(set.problems[0].message.contains("undefined field 'nope'"), "{}", set.problems[0].message);
}

// authz.go: checks against the allowed list, service accounts, the request's resource, and
// the cost (350,000 a check: a third in one expression passes the per-call limit).
#[test]
fn authorizer() {
    let docs = |expr: &str| one(json!({"expression": expr}));
    let mut req = request(
        json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "prod"}}),
    );
    req.user = UserInfo { username: "alice".into(), groups: Vec::from([String::from("dev")]), ..UserInfo::default() };
    let set = PolicySet::new(&docs(
        "authorizer.group('apps').resource('deployments').namespace('prod').check('create').allowed()",
    ));
    assert!(!set.evaluate(&req, &[], &[]).allowed);
    let rules = [Rule::parse("user=alice,verb=create,apiGroup=apps,resource=deployments,namespace=prod").unwrap()];
    assert!(set.evaluate(&req, &[], &rules).allowed);
    let by_group = [Rule::parse("userGroup=dev,verb=create").unwrap()];
    assert!(set.evaluate(&req, &[], &by_group).allowed);
    let set = PolicySet::new(&docs("authorizer.requestResource.check('create').allowed()"));
    assert!(set.evaluate(&req, &[], &rules).allowed);
    assert!(!set.evaluate(&req, &[], &[Rule::parse("user=alice,verb=create,namespace=dev").unwrap()]).allowed);
    let set = PolicySet::new(&docs(
        "authorizer.serviceAccount('prod', 'deployer').group('apps').resource('deployments').check('create').allowed()",
    ));
    assert!(set.evaluate(&req, &[], &[Rule::parse("user=system:serviceaccount:prod:deployer").unwrap()]).allowed);
    assert!(set.evaluate(&req, &[], &[Rule::parse("userGroup=system:serviceaccounts:prod").unwrap()]).allowed);
    assert!(!set.evaluate(&req, &[], &rules).allowed);
    let set = PolicySet::new(&docs("authorizer.path('/healthz').check('get').allowed()"));
    assert!(set.evaluate(&req, &[], &[Rule::parse("path=/healthz,verb=get").unwrap()]).allowed);
    assert!(!set.evaluate(&req, &[], &[Rule::parse("verb=get").unwrap()]).allowed);
    let set = PolicySet::new(&docs("authorizer.path('  ').check('get').allowed()"));
    assert_eq!(
        set.evaluate(&req, &[], &[]).denials[0].message,
        "expression 'authorizer.path('  ').check('get').allowed()' resulted in error: path must not be empty"
    );
    let out = PolicySet::new(&docs("authorizer.path('/a').check('get').allowed() || true")).evaluate(&req, &[], &[]);
    // cel-go: the variable 1, path 1, check 350,000, allowed 1.
    assert_eq!(out.evaluations[0].validations[0].cost, 350_003);
    let three = "[authorizer.path('/a').check('get'), authorizer.path('/b').check('get'), authorizer.path('/c').check('get')].all(d, !d.allowed())";
    let out = PolicySet::new(&docs(three)).evaluate(&req, &[], &[]);
    assert_eq!(
        out.denials[0].message,
        format!("expression '{three}' resulted in error: operation cancelled: actual cost limit exceeded")
    );
}

fn matched(constraints: Json, req: &Request) -> bool {
    let docs = [
        policy("p", json!({"matchConstraints": constraints, "validations": [{"expression": "false"}]})),
        binding("b", "p", json!({})),
    ];
    !run(&docs, req).allowed
}

fn sub_request(kind: Json, sub: &str, ns: &str) -> Request {
    let mut r = request(kind);
    r.sub_resource = String::from(sub);
    r.namespace = String::from(ns);
    r
}

// rules_test.go TestResource and TestScope; matching_test.go exclusion, names, empty rules.
#[test]
fn resource_rules() {
    let rule = |resources: Json| json!({"resourceRules": [{"apiGroups": [""], "apiVersions": ["v1"], "operations": ["*"], "resources": resources}]});
    let pod = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "ns"}});
    let cases = [
        (json!(["*"]), "", true),
        (json!(["*"]), "exec", false),
        (json!(["pods/*"]), "", true),
        (json!(["pods/*"]), "exec", true),
        (json!(["pods"]), "exec", false),
        (json!(["*/exec", "*/proxy"]), "exec", true),
        (json!(["*/exec", "*/proxy"]), "", false),
        (json!(["*/*"]), "status", true),
        (json!(["services"]), "", false),
    ];
    for (resources, sub, want) in cases {
        assert_eq!(matched(rule(resources.clone()), &sub_request(pod.clone(), sub, "ns")), want, "{resources} {sub:?}");
    }
    let scoped = |scope: &str| json!({"resourceRules": [{"apiGroups": ["*"], "apiVersions": ["*"], "operations": ["*"], "resources": ["*", "*/*"], "scope": scope}]});
    let ns = request(namespace("ns1"));
    let node = request(json!({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n"}}));
    assert!(matched(scoped("Cluster"), &ns) && matched(scoped("Cluster"), &node));
    assert!(!matched(scoped("Cluster"), &sub_request(pod.clone(), "", "ns")));
    assert!(matched(scoped("Namespaced"), &sub_request(pod.clone(), "", "ns")));
    assert!(!matched(scoped("Namespaced"), &ns) && !matched(scoped("Namespaced"), &node));
    assert!(matched(scoped("*"), &node));
    // resourceNames, operations, excludeResourceRules, and no rules at all.
    let named = |names: Json| json!({"resourceRules": [{"apiGroups": [""], "apiVersions": ["v1"], "operations": ["CREATE"], "resources": ["pods"], "resourceNames": names}]});
    assert!(matched(named(json!(["p"])), &request(pod.clone())));
    assert!(!matched(named(json!(["wrong-name"])), &request(pod.clone())));
    let mut update = request(pod.clone());
    update.operation = String::from("UPDATE");
    assert!(!matched(named(json!([])), &update));
    let mut excluded = all_rules();
    excluded["excludeResourceRules"] =
        json!([{"apiGroups": [""], "apiVersions": ["*"], "operations": ["*"], "resources": ["pods"]}]);
    assert!(!matched(excluded.clone(), &request(pod.clone())));
    assert!(matched(excluded, &request(configmap("c"))));
    assert!(matched(json!({}), &request(pod.clone())));
    assert!(!matched(json!({"resourceRules": [{}]}), &request(pod)));
}

// namespace/matcher.go and object/matcher.go: cluster-scoped objects pass namespaceSelector,
// a Namespace is matched by its own labels, an object selector by the object or old object.
#[test]
fn selectors() {
    let with = |sel: &str, labels: Json| {
        let mut c = all_rules();
        c[sel] = json!({"matchLabels": labels});
        c
    };
    let mut req = request(configmap("c"));
    req.namespace_object = Some(json!({"metadata": {"name": "default", "labels": {"env": "prod"}}}));
    assert!(matched(with("namespaceSelector", json!({"env": "prod"})), &req));
    assert!(!matched(with("namespaceSelector", json!({"env": "dev"})), &req));
    let node = request(json!({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n"}}));
    assert!(matched(with("namespaceSelector", json!({"env": "dev"})), &node));
    let ns =
        request(json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "n", "labels": {"env": "dev"}}}));
    assert!(matched(with("namespaceSelector", json!({"env": "dev"})), &ns));
    let mut update =
        request(json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c", "labels": {"a": "new"}}}));
    update.old_object =
        Some(json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c", "labels": {"a": "old"}}}));
    update.operation = String::from("UPDATE");
    assert!(matched(with("objectSelector", json!({"a": "old"})), &update));
    assert!(matched(with("objectSelector", json!({"a": "new"})), &update));
    assert!(!matched(with("objectSelector", json!({"a": "other"})), &update));
    // The namespace's labels are unknown when it is not given: taken as none.
    let req = request(configmap("c"));
    assert!(!matched(with("namespaceSelector", json!({"env": "prod"})), &req));
    let mut not_in = all_rules();
    not_in["namespaceSelector"] =
        json!({"matchExpressions": [{"key": "env", "operator": "NotIn", "values": ["prod"]}]});
    assert!(matched(not_in, &req));
}

// A binding's matchResources narrows what the policy matches; policies never apply to the
// admission configuration kinds (rules.go IsExemptAdmissionConfigurationResource).
#[test]
fn bindings_narrow() {
    let docs = [
        policy("p", json!({"matchConstraints": all_rules(), "validations": [{"expression": "false"}]})),
        binding(
            "only-pods",
            "p",
            json!({"matchResources": {"resourceRules": [{"apiGroups": [""], "apiVersions": ["v1"], "operations": ["*"], "resources": ["pods"]}]}}),
        ),
    ];
    let out = run(&docs, &request(configmap("c")));
    assert!(out.allowed);
    assert!(
        out.evaluations[0].why.starts_with("matchResources: no resourceRule matches CREATE v1/configmaps"),
        "{}",
        out.evaluations[0].why
    );
    let docs = suffix_policy(json!({}));
    assert!(
        run(&docs, &request(json!({"apiVersion": V1, "kind": "ValidatingAdmissionPolicy", "metadata": {"name": "x"}})))
            .allowed
    );
}

// admission_test TestParamRef / TestInvalidParamSourceInstanceName through the dispatcher:
// params select the evaluations; a missing param with Deny is a configuration error that
// denies whatever the actions (dispatcher.go addConfigError).
#[test]
fn params_through_bindings() {
    let pol = policy(
        "replicas",
        json!({"paramKind": {"apiVersion": "example.com/v1", "kind": "ReplicaLimit"}, "matchConstraints": all_rules(),
               "validations": [{"expression": "object.spec.replicas <= params.maxReplicas", "messageExpression": "'at most ' + string(params.maxReplicas) + ' replicas'"}]}),
    );
    let params = [
        json!({"apiVersion": "example.com/v1", "kind": "ReplicaLimit", "metadata": {"name": "small", "namespace": "default", "labels": {"tier": "a"}}, "maxReplicas": 3}),
        json!({"apiVersion": "example.com/v1", "kind": "ReplicaLimit", "metadata": {"name": "large", "namespace": "default", "labels": {"tier": "a"}}, "maxReplicas": 10}),
    ];
    let deploy = request(
        json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "default"}, "spec": {"replicas": 5}}),
    );
    let eval = |b: Json| PolicySet::new(&[pol.clone(), b]).evaluate(&deploy, &params, &[]);
    let out = eval(binding("b", "replicas", json!({"paramRef": {"name": "small", "parameterNotFoundAction": "Deny"}})));
    assert_eq!(
        out.denials[0].text,
        "ValidatingAdmissionPolicy 'replicas' with binding 'b' denied request: at most 3 replicas"
    );
    assert!(
        eval(binding("b", "replicas", json!({"paramRef": {"name": "large", "parameterNotFoundAction": "Deny"}})))
            .allowed
    );
    // A selector: each params object is its own evaluation, and all must pass.
    let out = eval(binding(
        "b",
        "replicas",
        json!({"paramRef": {"selector": {"matchLabels": {"tier": "a"}}, "parameterNotFoundAction": "Deny"}}),
    ));
    assert_eq!((out.denials.len(), out.evaluations.len()), (1, 2));
    assert_eq!(out.evaluations[0].params.as_deref(), Some("default/small"));
    let out = eval(binding(
        "b",
        "replicas",
        json!({"paramRef": {"name": "gone", "parameterNotFoundAction": "Deny"}, "validationActions": ["Warn"]}),
    ));
    assert_eq!(
        out.denials[0].text,
        "ValidatingAdmissionPolicy 'replicas' with binding 'b' denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction"
    );
    assert!(out.warnings.is_empty());
    assert!(
        eval(binding("b", "replicas", json!({"paramRef": {"name": "gone", "parameterNotFoundAction": "Allow"}})))
            .allowed
    );
    // A policy without matchConstraints (TestInvalidParamSourceGVK's sibling: a configuration
    // error about the policy, not the binding).
    let out =
        run(&[policy("p", json!({"validations": [{"expression": "true"}]})), binding("b", "p", json!({}))], &deploy);
    assert_eq!(out.denials[0].text, "ValidatingAdmissionPolicy 'p' denied request: failed to configure policy: policy contained no match constraints, a required field");
}

// What the API server refuses when it creates a policy or binding, in its words (the oracle's
// `policy` fuzz path found both): the name, checked by `ValidateObjectMeta(..., false,
// NameIsDNSSubdomain, ...)` as every admissionregistration kind's validation begins
// (kubernetes pkg/apis/admissionregistration/validation/validation.go), and a value outside an
// enum, which kubedv cannot read, as `Unsupported value` rather than a decoding message.
#[test]
fn refusals_in_the_servers_words() {
    let bad_name = binding("Bad_Name", "p", json!({}));
    assert_eq!(
        refused(&[bad_name]),
        ["metadata.name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"]
    );
    let fal = policy(
        "p",
        json!({"failurePolicy": "Fal", "matchConstraints": all_rules(), "validations": [{"expression": "true"}]}),
    );
    assert_eq!(
        refused(&[fal]),
        ["spec.failurePolicy: Unsupported value: \"Fal\": supported values: \"Fail\", \"Ignore\""]
    );
}

// A param of a namespaced custom kind created without a namespace lands in `default`, as
// kubectl creates it; a CRD given says the kind's scope (the oracle's `policy` suite, the
// documentation's replicalimit-param.yaml with its `namesapce` typo: the API server finds it
// with `paramRef.namespace: default`). Without the CRD, a kind whose params name no namespace is
// taken to be cluster-scoped.
#[test]
fn params_stored_by_their_crds_scope() {
    let pol = policy(
        "replicas",
        json!({"paramKind": {"apiVersion": "rules.example.com/v1", "kind": "ReplicaLimit"}, "matchConstraints": all_rules(),
               "validations": [{"expression": "object.spec.replicas <= params.maxReplicas"}]}),
    );
    let bind = binding(
        "b",
        "replicas",
        json!({"paramRef": {"name": "limit", "namespace": "default", "parameterNotFoundAction": "Deny"}}),
    );
    let crd = |scope: &str| {
        json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
               "metadata": {"name": "replicalimits.rules.example.com"},
               "spec": {"group": "rules.example.com", "scope": scope, "names": {"kind": "ReplicaLimit", "plural": "replicalimits"},
                        "versions": [{"name": "v1", "served": true, "storage": true,
                                      "schema": {"openAPIV3Schema": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}]}})
    };
    let params = [
        json!({"apiVersion": "rules.example.com/v1", "kind": "ReplicaLimit", "metadata": {"name": "limit"}, "maxReplicas": 3}),
    ];
    let deploy = request(
        json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "default"}, "spec": {"replicas": 5}}),
    );
    let denial = |docs: &[Json]| PolicySet::new(docs).evaluate(&deploy, &params, &[]).denials[0].text.clone();
    assert_eq!(
        denial(&[crd("Namespaced"), pol.clone(), bind.clone()]),
        "ValidatingAdmissionPolicy 'replicas' with binding 'b' denied request: failed expression: object.spec.replicas <= params.maxReplicas"
    );
    let cluster_scoped = "ValidatingAdmissionPolicy 'replicas' with binding 'b' denied request: failed to configure binding: paramRef.namespace must not be provided for a cluster-scoped `paramKind`";
    assert_eq!(denial(&[pol.clone(), bind.clone()]), cluster_scoped);
    assert_eq!(denial(&[crd("Cluster"), pol, bind]), cluster_scoped);
}

// activation.go: a pass that spends more than the budget stops with one error decision.
#[test]
fn budgets() {
    let big = "[1,2,3,4,5,6,7,8,9,10].all(x, [1,2,3,4,5,6,7,8,9,10].all(y, [1,2,3,4,5,6,7,8,9,10].all(z, lists.range(900).size() >= 0)))";
    let many: Vec<Json> = (0..12).map(|_| json!({"expression": big})).collect();
    let docs =
        [policy("p", json!({"matchConstraints": all_rules(), "validations": many})), binding("b", "p", json!({}))];
    let out = run(&docs, &request(configmap("c")));
    if out.evaluations[0].validations.len() == 1 {
        assert_eq!(out.denials[0].message, OUT_OF_BUDGET);
    } else {
        // Each expression stays under the per-call limit but together they pass 10,000,000.
        let total: u64 = out.evaluations[0].validations.iter().map(|v| v.cost).sum();
        panic!("expected the budget to run out; the 12 validations cost {total}");
    }
}

fn map(name: &str, mutations: Json, extra: Json) -> Vec<Json> {
    let mut spec = json!({"matchConstraints": all_rules(), "reinvocationPolicy": "Never", "mutations": mutations});
    for (k, v) in extra.as_object().unwrap() {
        spec[k] = v.clone();
    }
    Vec::from([
        json!({"apiVersion": V1, "kind": "MutatingAdmissionPolicy", "metadata": {"name": name}, "spec": spec}),
        json!({"apiVersion": V1, "kind": "MutatingAdmissionPolicyBinding", "metadata": {"name": format!("{name}-binding")},
               "spec": {"policyName": name}}),
    ])
}

fn labelled(labels: Json) -> Json {
    json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c", "namespace": "default", "labels": labels}})
}

// apiserver mutating/patch tests: ApplyConfiguration merges maps field by field; JSONPatch
// applies with json-patch's texts; `jsonpatch.escapeKey`.
#[test]
fn mutations() {
    let apply = json!([{"patchType": "ApplyConfiguration", "applyConfiguration": {"expression":
        "Object{metadata: Object.metadata{labels: {'environment': 'test'}}}"}}]);
    let out = run(&map("add-label", apply, json!({})), &request(labelled(json!({"app": "web"}))));
    assert!(out.allowed);
    assert_eq!(out.patched.as_ref().unwrap()["metadata"]["labels"], json!({"app": "web", "environment": "test"}));
    assert_eq!(out.patch, [json!({"op": "add", "path": "/metadata/labels/environment", "value": "test"})]);
    let jp = |expr: &str| json!([{"patchType": "JSONPatch", "jsonPatch": {"expression": expr}}]);
    let escaped =
        jp("[JSONPatch{op: 'add', path: '/metadata/labels/' + jsonpatch.escapeKey('k8s.io/my~label'), value: 'x'}]");
    let out = run(&map("add-label", escaped, json!({})), &request(labelled(json!({}))));
    assert_eq!(out.patched.unwrap()["metadata"]["labels"], json!({"k8s.io/my~label": "x"}));
    let missing = jp("[JSONPatch{op: 'add', path: '/metadata/annotations/x', value: 'y'}]");
    let out = run(&map("add-label", missing.clone(), json!({})), &request(labelled(json!({}))));
    assert_eq!(
        out.status.unwrap().message,
        "policy 'add-label' with binding 'add-label-binding' denied request: JSON Patch: add operation does not apply: doc is missing path: \"/metadata/annotations/x\": missing value"
    );
    assert_eq!(out.denials[0].code, 403);
    assert!(run(&map("add-label", missing, json!({"failurePolicy": "Ignore"})), &request(labelled(json!({})))).allowed);
    // A failed test drops the whole patch, silently.
    let tested = jp("[JSONPatch{op: 'test', path: '/metadata/name', value: 'other'}, JSONPatch{op: 'add', path: '/metadata/labels/a', value: 'b'}]");
    let out = run(&map("t", tested, json!({})), &request(labelled(json!({}))));
    assert!(out.allowed && out.patched.is_none());
    // DELETE is never mutated (mutating/plugin.go handles CREATE, UPDATE, CONNECT).
    let mut delete = request(labelled(json!({})));
    delete.old_object = delete.object.take();
    delete.operation = String::from("DELETE");
    let always = jp("[JSONPatch{op: 'add', path: '/metadata/labels/a', value: 'b'}]");
    assert!(run(&map("t", always.clone(), json!({})), &delete).patched.is_none());
    // Validating policies see the mutated object.
    let mut docs = map("t", always, json!({}));
    docs.extend(one(json!({"expression": "object.metadata.labels.a == 'b'"})));
    assert!(run(&docs, &request(labelled(json!({})))).allowed);
}

// mutating/patch/smd tests and compile.go: type names follow field names; result types.
#[test]
fn mutation_types() {
    let apply = |expr: &str| json!([{"patchType": "ApplyConfiguration", "applyConfiguration": {"expression": expr}}]);
    let out =
        run(&map("p", apply("Object{spec: Object.specx{replicas: 1}}"), json!({})), &request(labelled(json!({}))));
    assert_eq!(
        out.denials[0].message,
        "type mismatch: unexpected type name \"Object.specx\", expected \"Object.spec\", which matches field name path from root Object type"
    );
    let set = PolicySet::new(&map("p", apply("'x'"), json!({})));
    assert_eq!(set.problems[0].message, "Invalid value: \"'x'\": must evaluate to Object but got string");
    let set = PolicySet::new(&map("p", apply("Object.spec.metadata{}"), json!({})));
    assert_eq!(
        set.problems[0].message,
        "Invalid value: \"Object.spec.metadata{}\": must evaluate to Object but got Object.spec.metadata"
    );
    let jp = json!([{"patchType": "JSONPatch", "jsonPatch": {"expression": "[{'op': 'add'}]"}}]);
    let set = PolicySet::new(&map("p", jp, json!({})));
    assert_eq!(
        set.problems[0].message,
        "Invalid value: \"[{'op': 'add'}]\": must evaluate to list(JSONPatch) but got list(map(string, string))"
    );
    // The mutation types exist only in mutations.
    let set = PolicySet::new(&one(json!({"expression": "jsonpatch.escapeKey('a') == 'a'"})));
    assert!(
        set.problems[0].message.contains("undeclared reference to 'jsonpatch.escapeKey'"),
        "{}",
        set.problems[0].message
    );
    // Lists need the kind's schema: kubedv says it cannot tell, rather than guess.
    let lists = apply("Object{spec: Object.spec{containers: [Object.spec.containers{name: 'a'}]}}");
    let out = run(&map("p", lists, json!({})), &request(labelled(json!({}))));
    assert!(out.denials.is_empty());
    assert!(out.unsupported[0].contains("kubedv cannot merge .spec:"), "{:?}", out.unsupported);
}

// mutating/patch/smd.go with a custom resource's schema (the CRD among the documents): list
// maps merge by key, atomic content is refused with the API server's text.
#[test]
fn apply_configuration_with_a_crd() {
    let crd = json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {"group": "example.com", "names": {"kind": "Widget", "plural": "widgets"}, "scope": "Namespaced",
            "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {
                "type": "object", "properties": {"spec": {"type": "object", "properties": {
                    "ports": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
                        "items": {"type": "object", "properties": {"name": {"type": "string"}, "port": {"type": "integer"}}}},
                    "selector": {"type": "object", "x-kubernetes-map-type": "atomic", "additionalProperties": {"type": "string"}}}}}}}}]}});
    let widget = json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w", "namespace": "default"},
        "spec": {"ports": [{"name": "http", "port": 80}]}});
    let apply = |expr: &str| json!([{"patchType": "ApplyConfiguration", "applyConfiguration": {"expression": expr}}]);
    let mut docs = map("p", apply("Object{spec: Object.spec{ports: [Object.spec.ports{name: 'metrics', port: 9090}, Object.spec.ports{name: 'http', port: 8080}]}}"), json!({}));
    docs.push(crd.clone());
    let out = run(&docs, &request(widget.clone()));
    assert!(out.unsupported.is_empty(), "{:?}", out.unsupported);
    assert_eq!(
        out.patched.unwrap()["spec"]["ports"],
        json!([{"name": "http", "port": 8080}, {"name": "metrics", "port": 9090}])
    );
    let mut docs = map("p", apply("Object{spec: Object.spec{selector: {'app': 'w'}}}"), json!({}));
    docs.push(crd);
    let out = run(&docs, &request(widget));
    assert_eq!(
        out.denials[0].text,
        "policy 'p' with binding 'p-binding' denied request: error applying patch: invalid ApplyConfiguration: may not mutate atomic arrays, maps or structs: .spec.selector"
    );
}

// validating/typechecking.go: warnings for the kinds the policy names whose schemas are
// known ("<group>/<version>, Kind=<kind>: <issues>\n"); wildcards are not checked.
#[test]
fn type_checking_warnings() {
    let crd = json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {"group": "example.com", "names": {"kind": "Widget", "plural": "widgets"}, "scope": "Namespaced",
            "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {
                "type": "object", "properties": {"spec": {"type": "object", "properties": {"replicas": {"type": "integer"}}}}}}}]}});
    let widgets = |groups: Json| json!({"resourceRules": [{"apiGroups": groups, "apiVersions": ["v1"], "operations": ["CREATE"], "resources": ["widgets"]}]});
    let docs = |constraints: Json, expr: &str| {
        Vec::from([
            policy(
                "p",
                json!({"matchConstraints": constraints, "validations": [{"expression": expr, "messageExpression": "'n: ' + string(object.spec.replicas)"}]}),
            ),
            binding("b", "p", json!({})),
            crd.clone(),
        ])
    };
    let set = PolicySet::new(&docs(widgets(json!(["example.com"])), "object.spec.replicass > 1"));
    assert_eq!(set.problems.len(), 1, "{:?}", set.problems);
    assert_eq!(set.problems[0].severity, Severity::Warning);
    assert_eq!(set.problems[0].field, "spec.validations[0].expression");
    assert_eq!(
        set.problems[0].message,
        "example.com/v1, Kind=Widget: compilation failed: ERROR: <input>:1:12: undefined field 'replicass'\n | object.spec.replicass > 1\n | ...........^\n"
    );
    assert!(PolicySet::new(&docs(widgets(json!(["example.com"])), "object.spec.replicas > 1")).problems.is_empty());
    assert!(PolicySet::new(&docs(widgets(json!(["*"])), "object.spec.replicass > 1")).problems.is_empty());
}

// matching.go with matchPolicy Equivalent (the default): a rule naming another served version
// of the same resource matches, and the policy sees the request as that version
// (matching_test "specific rules, equivalent match"); Exact does not match.
#[test]
fn equivalent_versions() {
    let crd = json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {"group": "example.com", "names": {"kind": "Widget", "plural": "widgets"}, "scope": "Namespaced",
            "versions": [{"name": "v1", "served": true, "storage": true}, {"name": "v1beta1", "served": true, "storage": false},
                         {"name": "v1alpha1", "served": false, "storage": false}]}});
    let rule = |version: &str, policy: &str| json!({"matchPolicy": policy, "resourceRules": [{"apiGroups": ["example.com"], "apiVersions": [version], "operations": ["*"], "resources": ["widgets"]}]});
    let docs = |constraints: Json| {
        Vec::from([
            policy(
                "p",
                json!({"matchConstraints": constraints, "validations": [
                {"expression": "request.kind.version == 'v1beta1' && request.requestKind.version == 'v1' && object.apiVersion == 'example.com/v1beta1'"}]}),
            ),
            binding("b", "p", json!({})),
            crd.clone(),
        ])
    };
    let widget = request(
        json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w", "namespace": "default"}}),
    );
    let out = run(&docs(rule("v1beta1", "Equivalent")), &widget);
    assert!(out.allowed, "{:?}", out.denials);
    assert!(out.evaluations[0].matched);
    assert_eq!(out.evaluations[0].validations[0].result, json!(true));
    let out = run(&docs(rule("v1beta1", "Exact")), &widget);
    assert!(!out.evaluations[0].matched);
    // A version not served is not equivalent.
    assert!(!run(&docs(rule("v1alpha1", "Equivalent")), &widget).evaluations[0].matched);
}

// admissionregistration validation.go: what the API server refuses at creation.
#[test]
fn creation_refusals() {
    let p = |spec: Json| policy("p", spec);
    assert_eq!(
        refused(&[p(json!({"matchConstraints": all_rules()}))]),
        [
            "spec.validations: Required value: validations or auditAnnotations must contain at least one item",
            "spec.auditAnnotations: Required value: validations or auditAnnotations must contain at least one item"
        ]
    );
    assert_eq!(
        refused(&[p(json!({"validations": [{"expression": "true", "reason": "Teapot", "message": "a\nb"}]}))]),
        [
            "spec.matchConstraints: Required value",
            "spec.validations[0].message: Invalid value: \"a\\nb\": must not contain line breaks",
            "spec.validations[0].reason: Unsupported value: \"Teapot\": supported values: \"Forbidden\", \"Invalid\", \"RequestEntityTooLarge\""
        ]
    );
    assert_eq!(
        refused(&[p(
            json!({"matchConstraints": all_rules(), "variables": [{"name": "in", "expression": "1"}], "validations": [{"expression": "true"}]})
        )]),
        ["spec.variables[0].name: Invalid value: \"in\": must be a valid CEL identifier"]
    );
    let b = |actions: Json| binding("b", "p", json!({"validationActions": actions}));
    let ok = p(json!({"matchConstraints": all_rules(), "validations": [{"expression": "true"}]}));
    assert_eq!(
        refused(&[ok.clone(), b(json!(["Deny", "Warn", "Deny", "Log"]))]),
        [
            "spec.validationActions[2]: Duplicate value: \"Deny\"",
            "spec.validationActions[3]: Unsupported value: \"Log\": supported values: \"Audit\", \"Deny\", \"Warn\"",
            "spec.validationActions: Invalid value: [\"Deny\",\"Warn\",\"Deny\",\"Log\"]: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)"
        ]
    );
    assert_eq!(refused(&[ok.clone(), b(json!([]))]), ["spec.validationActions: Required value"]);
    let refs = binding("b", "p", json!({"paramRef": {"name": "x", "selector": {}}}));
    assert_eq!(
        refused(&[ok, refs]),
        [
            "spec.paramRef.name: Forbidden: name and selector are mutually exclusive",
            "spec.paramRef.selector: Forbidden: name and selector are mutually exclusive",
            "spec.paramRef.parameterNotFoundAction: Required value"
        ]
    );
}

// admission_test TestAuditAnnotations: one annotation per key for a policy, its distinct
// values (over bindings and params) joined with ", "; an audit annotation's error denies
// whatever the binding's actions.
#[test]
fn audit_annotations_collect_per_policy() {
    let pol = policy(
        "denypolicy.example.com",
        json!({"paramKind": {"apiVersion": "example.com/v1", "kind": "ParamsConfig"}, "matchConstraints": all_rules(),
               "auditAnnotations": [
                   {"key": "example-key", "valueExpression": "string(params.value)"},
                   {"key": "excluded-key", "valueExpression": "null"}]}),
    );
    let params: Vec<Json> = ["normal-value", "special-value", "normal-value"]
        .iter()
        .enumerate()
        .map(|(i, v)| json!({"apiVersion": "example.com/v1", "kind": "ParamsConfig", "metadata": {"name": format!("replicas-test{i}"), "namespace": "default"}, "value": v}))
        .collect();
    let bindings: Vec<Json> = (0..3)
        .map(|i| {
            binding(
                &format!("denybinding{i}.example.com"),
                "denypolicy.example.com",
                json!({"validationActions": ["Audit"], "paramRef": {"name": format!("replicas-test{i}"), "parameterNotFoundAction": "Deny"}}),
            )
        })
        .collect();
    let mut docs = Vec::from([pol]);
    docs.extend(bindings);
    let out = PolicySet::new(&docs).evaluate(&request(configmap("c")), &params, &[]);
    assert!(out.allowed, "{:?}", out.denials);
    assert_eq!(out.audit_annotations.len(), 1, "{:?}", out.audit_annotations);
    assert_eq!(out.audit_annotations["denypolicy.example.com/example-key"], "normal-value, special-value");
}

// cel-go parser_test.go: an expression that ends where an operand is expected.
#[test]
fn eof_syntax_error_reads_as_cel_go() {
    let set = PolicySet::new(&one(json!({"expression": "object.spec.replicas <="})));
    assert_eq!(
        set.problems[0].message,
        "Invalid value: \"object.spec.replicas <=\": compilation failed: ERROR: <input>:1:24: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | object.spec.replicas <=\n | .......................^"
    );
}

// validation.go validateRuleWithOperations / validateRule / validateResources: a rule without
// operations is refused (Kyverno's CLI test match-namespaces has one; the API server would not
// create that policy), and the resource patterns are checked.
#[test]
fn rule_refusals() {
    let texts = |rules: Json| -> Vec<String> {
        PolicySet::new(&[policy(
            "p",
            json!({"matchConstraints": {"resourceRules": rules}, "validations": [{"expression": "true"}]}),
        )])
        .problems
        .iter()
        .map(|p| format!("{}: {}", p.field, p.message))
        .collect()
    };
    assert_eq!(
        texts(json!([{"apiGroups": [""], "apiVersions": ["v1"], "resources": ["namespaces"]}])),
        ["spec.matchConstraints.resourceRules[0].operations: Required value"]
    );
    assert_eq!(
        texts(json!([{"apiGroups": ["*", "apps"], "apiVersions": ["v1"], "operations": ["*", "CREATE", "PATCH"], "resources": ["*", "pods", "*/*"], "scope": "Global"}])),
        [
            "spec.matchConstraints.resourceRules[0].operations: Invalid value: [\"*\",\"CREATE\",\"PATCH\"]: if '*' is present, must not specify other operations",
            "spec.matchConstraints.resourceRules[0].operations[2]: Unsupported value: \"PATCH\": supported values: \"*\", \"CONNECT\", \"CREATE\", \"DELETE\", \"UPDATE\"",
            "spec.matchConstraints.resourceRules[0].apiGroups: Invalid value: [\"*\",\"apps\"]: if '*' is present, must not specify other API groups",
            "spec.matchConstraints.resourceRules[0].resources: Invalid value: [\"*\",\"pods\",\"*/*\"]: if '*/*' is present, must not specify other resources",
            "spec.matchConstraints.resourceRules[0].resources: Invalid value: [\"*\",\"pods\",\"*/*\"]: if '*' is present, must not specify other resources without subresources",
            "spec.matchConstraints.resourceRules[0].scope: Unsupported value: \"Global\": supported values: \"*\", \"Cluster\", \"Namespaced\""
        ]
    );
    assert_eq!(
        texts(json!([{"apiGroups": [""], "apiVersions": ["v1"], "operations": ["CREATE"], "resources": ["pods/*", "pods/log"]}])),
        ["spec.matchConstraints.resourceRules[0].resources[1]: Invalid value: \"pods/log\": if 'pods/*' is present, must not specify pods/log"]
    );
}
