//! Cases from Kubernetes' `pkg/apis/flowcontrol/validation/validation_test.go`
//! (`TestFlowSchemaValidation`, `TestPriorityLevelConfigurationValidation`,
//! `TestValidateNonResourceURLPath`) and `pkg/apis/flowcontrol/v1/defaults_test.go`, run
//! through the whole path, with the texts the API server gives (its errors marked
//! `CoveredByDeclarative` are the declarative rules' and not here).

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{json, Value as Json};

use crate::apis::{admit, Request};

fn run(kind: &str, object: &Json, old: Option<&Json>) -> (Vec<String>, Json) {
    let request = Request { group: "flowcontrol.apiserver.k8s.io", version: "v1", kind, object, old, minor: 37 };
    let o = admit(&request).expect("modeled");
    (o.errors.iter().map(|e| e.text()).collect(), o.object)
}

fn fs(name: &str, spec: Json) -> Json {
    json!({"metadata": {"name": name}, "spec": spec})
}

fn rules() -> Json {
    json!([{"subjects": [{"kind": "User", "user": {"name": "alice"}}],
            "resourceRules": [{"verbs": ["get"], "apiGroups": [""], "resources": ["pods"], "namespaces": ["default"]}]}])
}

// TestFlowSchemaValidation.
#[test]
fn flow_schemas() {
    let ok = fs(
        "system-basic",
        json!({"priorityLevelConfiguration": {"name": "system-bar"}, "matchingPrecedence": 50, "rules": rules()}),
    );
    assert_eq!(run("FlowSchema", &ok, None).0, Vec::<String>::new());
    let cases: Vec<(Json, Vec<&str>)> = alloc::vec![
        (fs("x", json!({"priorityLevelConfiguration": {"name": ""}, "matchingPrecedence": 10001})),
         alloc::vec!["spec.matchingPrecedence: Invalid value: 10001: must not be greater than 10000",
                     "spec.priorityLevelConfiguration.name: Required value: must reference a priority level"]),
        (fs("x", json!({"priorityLevelConfiguration": {"name": "p"}, "matchingPrecedence": -5, "rules": [{"subjects": [{"kind": "User", "user": {"name": "a"}}]}]})),
         alloc::vec!["spec.matchingPrecedence: Invalid value: -5: must be a positive value",
                     "spec.rules[0]: Required value: at least one of resourceRules and nonResourceRules has to be non-empty"]),
        (fs("x", json!({"priorityLevelConfiguration": {"name": "p"}, "matchingPrecedence": 1, "distinguisherMethod": {"type": "ByPod"}})),
         alloc::vec!["spec.matchingPrecedence: Invalid value: 1: only the schema named 'exempt' may have matchingPrecedence 1",
                     "spec.distinguisherMethod.type: Unsupported value: {\"Type\":\"ByPod\"}: supported values: \"ByNamespace\", \"ByUser\""]),
        (fs("x", json!({"priorityLevelConfiguration": {"name": "p"}, "rules": [{
            "subjects": [{"kind": "ServiceAccount", "user": {"name": "u"}}, {"kind": "Robot"}, {"kind": "ServiceAccount", "serviceAccount": {"name": "*", "namespace": ""}}],
            "resourceRules": [{"verbs": ["get", "fly"], "apiGroups": ["*", "apps"], "resources": ["*", "pods"], "namespaces": ["Bad_NS"]}],
            "nonResourceRules": [{"verbs": ["*", "get"], "nonResourceURLs": ["healthz", "/a*"]}]}]})),
         alloc::vec![
             "spec.rules[0].subjects[0].serviceAccount: Required value: serviceAccount is required when subject kind is 'ServiceAccount'",
             "spec.rules[0].subjects[0].user: Forbidden: user is forbidden when subject kind is not 'User'",
             "spec.rules[0].subjects[1].kind: Unsupported value: \"Robot\": supported values: \"Group\", \"ServiceAccount\", \"User\"",
             "spec.rules[0].subjects[2].serviceAccount.namespace: Required value: must specify namespace for service account",
             "spec.rules[0].resourceRules[0].verbs: Unsupported value: [\"get\",\"fly\"]: supported values: \"create\", \"delete\", \"deletecollection\", \"get\", \"list\", \"patch\", \"proxy\", \"update\", \"watch\"",
             "spec.rules[0].resourceRules[0].apiGroups: Invalid value: [\"*\",\"apps\"]: if '*' is present, must not specify other api groups",
             "spec.rules[0].resourceRules[0].resources: Invalid value: [\"*\",\"pods\"]: if '*' is present, must not specify other resources",
             "spec.rules[0].resourceRules[0].namespaces[0]: Invalid value: \"Bad_NS\": each member of this list must be '*' or a DNS-1123 label; a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
             "spec.rules[0].nonResourceRules[0].verbs: Invalid value: [\"*\",\"get\"]: if '*' is present, must not specify other verbs",
             "spec.rules[0].nonResourceRules[0].nonResourceURLs[0]: Invalid value: \"healthz\": must start with slash",
             "spec.rules[0].nonResourceRules[0].nonResourceURLs[1]: Invalid value: \"/a*\": wildcard can only do suffix matching",
         ]),
        // The mandatory catch-all must equal the fixed value.
        (fs("catch-all", json!({"priorityLevelConfiguration": {"name": "catch-all"}, "matchingPrecedence": 9000, "distinguisherMethod": {"type": "ByUser"},
            "rules": [{"subjects": [{"kind": "Group", "group": {"name": "system:unauthenticated"}}],
                       "resourceRules": [{"verbs": ["*"], "apiGroups": ["*"], "resources": ["*"], "clusterScope": true, "namespaces": ["*"]}]}]})),
         alloc::vec!["spec: Invalid value: {\"PriorityLevelConfiguration\":{\"Name\":\"catch-all\"},\"MatchingPrecedence\":9000,\"DistinguisherMethod\":{\"Type\":\"ByUser\"},\"Rules\":[{\"Subjects\":[{\"Kind\":\"Group\",\"User\":null,\"Group\":{\"Name\":\"system:unauthenticated\"},\"ServiceAccount\":null}],\"ResourceRules\":[{\"Verbs\":[\"*\"],\"APIGroups\":[\"*\"],\"Resources\":[\"*\"],\"ClusterScope\":true,\"Namespaces\":[\"*\"]}],\"NonResourceRules\":null}]}: spec of 'catch-all' must equal the fixed value"]),
    ];
    for (object, want) in cases {
        assert_eq!(run("FlowSchema", &object, None).0, want, "{object}");
    }
    // The mandatory exempt schema, exactly.
    let exempt = fs(
        "exempt",
        json!({"priorityLevelConfiguration": {"name": "exempt"}, "matchingPrecedence": 1,
        "rules": [{"subjects": [{"kind": "Group", "group": {"name": "system:masters"}}],
                   "resourceRules": [{"verbs": ["*"], "apiGroups": ["*"], "resources": ["*"], "clusterScope": true, "namespaces": ["*"]}],
                   "nonResourceRules": [{"verbs": ["*"], "nonResourceURLs": ["*"]}]}]}),
    );
    assert_eq!(run("FlowSchema", &exempt, None).0, Vec::<String>::new());
}

fn pl(name: &str, spec: Json) -> Json {
    json!({"metadata": {"name": name}, "spec": spec})
}

// TestPriorityLevelConfigurationValidation.
#[test]
fn priority_levels() {
    let ok = pl("ok", json!({"type": "Limited", "limited": {"limitResponse": {"type": "Queue", "queuing": {}}}}));
    let (errs, object) = run("PriorityLevelConfiguration", &ok, None);
    assert_eq!(errs, Vec::<String>::new());
    // SetDefaults_LimitedPriorityLevelConfiguration, SetDefaults_QueuingConfiguration.
    assert_eq!(
        object["spec"]["limited"],
        json!({"nominalConcurrencyShares": 30, "lendablePercent": 0,
               "limitResponse": {"type": "Queue", "queuing": {"queues": 64, "handSize": 8, "queueLengthLimit": 50}}})
    );
    let cases: Vec<(Json, Vec<&str>)> = alloc::vec![
        (json!({"metadata": {"name": "x", "annotations": {"flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares": "true"}},
                "spec": {"type": "Limited", "exempt": {}, "limited": {"nominalConcurrencyShares": -1, "lendablePercent": 101, "borrowingLimitPercent": -2,
                         "limitResponse": {"type": "Queue", "queuing": {"queues": 10000001, "handSize": -1, "queueLengthLimit": -3}}}}}),
         alloc::vec![
             "metadata.annotations: Forbidden: annotation 'flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares' is forbidden",
             "spec.limited.nominalConcurrencyShares: Invalid value: -1: must be a non-negative integer",
             "spec.limited.limitResponse.queuing.queueLengthLimit: Invalid value: -3: must be positive",
             "spec.limited.limitResponse.queuing.queues: Invalid value: 10000001: must not be greater than 10000000",
             "spec.limited.limitResponse.queuing.handSize: Invalid value: -1: must be positive",
             "spec.limited.lendablePercent: Invalid value: 101: must be between 0 and 100, inclusive",
             "spec.limited.borrowingLimitPercent: Invalid value: -2: if specified, must be a non-negative integer",
         ]),
        (pl("x", json!({"type": "Limited", "limited": {"limitResponse": {"type": "Queue", "queuing": {"queues": 128, "handSize": 200}}}})),
         alloc::vec!["spec.limited.limitResponse.queuing.handSize: Invalid value: 200: should not be greater than queues (128)"]),
        (pl("x", json!({"type": "Limited", "limited": {"limitResponse": {"type": "Queue", "queuing": {"queues": 1024, "handSize": 7}}}})),
         alloc::vec!["spec.limited.limitResponse.queuing.handSize: Invalid value: 7: required entropy bits of deckSize 1024 and handSize 7 should not be greater than 60"]),
        (pl("x", json!({"type": "Limited", "limited": {"limitResponse": {"type": "Queue", "queuing": {"queues": 1024, "handSize": 6}}}})),
         alloc::vec![]),
        (pl("x", json!({"type": "Unlimited"})),
         alloc::vec!["spec.type: Unsupported value: \"Unlimited\": supported values: \"Exempt\", \"Limited\""]),
        (pl("x", json!({"type": "Exempt", "exempt": {"nominalConcurrencyShares": -4, "lendablePercent": -1}})),
         alloc::vec![
             "spec.type: Invalid value: \"Exempt\": must be 'Exempt' if and only if `name` is 'exempt'",
             "spec.exempt.nominalConcurrencyShares: Invalid value: -4: must be a non-negative integer",
             "spec.exempt.lendablePercent: Invalid value: -1: must be between 0 and 100, inclusive",
         ]),
        (pl("x", json!({"type": "Limited", "limited": {"limitResponse": {"type": "Drop"}}})),
         alloc::vec!["spec.limited.limitResponse.type: Unsupported value: \"Drop\": supported values: \"Queue\", \"Reject\""]),
        (pl("catch-all", json!({"type": "Limited", "limited": {"nominalConcurrencyShares": 10, "limitResponse": {"type": "Queue", "queuing": {"queues": 16}}}})),
         alloc::vec!["spec: Invalid value: {\"Type\":\"Limited\",\"Limited\":{\"NominalConcurrencyShares\":10,\"LimitResponse\":{\"Type\":\"Queue\",\"Queuing\":{\"Queues\":16,\"HandSize\":8,\"QueueLengthLimit\":50}},\"LendablePercent\":0,\"BorrowingLimitPercent\":null},\"Exempt\":null}: spec of 'catch-all' must equal the fixed value"]),
        (pl("exempt", json!({"type": "Limited", "limited": {"limitResponse": {"type": "Reject"}}})),
         alloc::vec![
             "spec.type: Invalid value: \"Limited\": must be 'Exempt' if and only if `name` is 'exempt'",
             "spec: Invalid value: {\"Type\":\"Limited\",\"Limited\":{\"NominalConcurrencyShares\":30,\"LimitResponse\":{\"Type\":\"Reject\",\"Queuing\":null},\"LendablePercent\":0,\"BorrowingLimitPercent\":null},\"Exempt\":null}: spec of 'exempt' except the 'spec.exempt' field must equal the fixed value",
         ]),
        // The exempt level may change its `exempt` field; catch-all is fixed.
        (pl("exempt", json!({"type": "Exempt", "exempt": {"nominalConcurrencyShares": 10, "lendablePercent": 50}})), alloc::vec![]),
        (pl("catch-all", json!({"type": "Limited", "limited": {"nominalConcurrencyShares": 5, "limitResponse": {"type": "Reject"}}})), alloc::vec![]),
    ];
    for (object, want) in cases {
        assert_eq!(run("PriorityLevelConfiguration", &object, None).0, want, "{object}");
    }
}

// The strategies: generation 1 on create; on update the old status, and the generation bumped
// when the spec changed.
#[test]
fn strategies() {
    let old = pl("x", json!({"type": "Limited", "limited": {"limitResponse": {"type": "Reject"}}}));
    let (_, created) = run("PriorityLevelConfiguration", &old, None);
    assert_eq!(created["metadata"]["generation"], json!(1));
    let mut stored = created.clone();
    stored["status"] = json!({"conditions": [{"type": "ConcurrencyShared", "status": "True"}]});
    let new = pl(
        "x",
        json!({"type": "Limited", "limited": {"nominalConcurrencyShares": 3, "limitResponse": {"type": "Reject"}}}),
    );
    // The room's own path (the stored object as given, not re-created).
    let group = crate::apis::Group {
        kind: "PriorityLevelConfiguration",
        version: "v1",
        context: crate::apis::Context::new(37, true),
    };
    let mut object = new.clone();
    super::default("v1", "PriorityLevelConfiguration", &mut object);
    let (errors, _) = super::admit(&group, &mut object, Some(&stored));
    assert!(errors.is_empty());
    assert_eq!(object["metadata"]["generation"], json!(2));
    assert_eq!(object["status"], stored["status"]);
    // SetDefaults_FlowSchemaSpec.
    let (_, object) = run("FlowSchema", &fs("x", json!({"priorityLevelConfiguration": {"name": "p"}})), None);
    assert_eq!(object["spec"]["matchingPrecedence"], json!(1000));
}
