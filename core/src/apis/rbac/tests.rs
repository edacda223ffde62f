//! Cases from Kubernetes' `pkg/apis/rbac/validation/validation_test.go`, run through the whole
//! path ([`crate::apis::admit`]: defaulting, strategy, validation).

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{json, Value as Json};

use crate::apis::{admit, Request};

fn texts(kind: &str, object: &Json, old: Option<&Json>) -> Vec<String> {
    let request = Request { group: super::GROUP, version: "v1", kind, object, old, minor: 37 };
    admit(&request).map_or_else(Vec::new, |o| o.errors.iter().map(|e| e.text()).collect())
}

fn cluster_binding(role_ref: Json, subjects: Json) -> Json {
    json!({"metadata": {"name": "master"}, "roleRef": role_ref, "subjects": subjects})
}

fn valid_ref() -> Json {
    json!({"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "valid"})
}

// TestValidateClusterRoleBinding.
#[test]
fn cluster_role_binding() {
    let subjects = json!([
        {"name": "validsaname", "namespace": "foo", "kind": "ServiceAccount"},
        {"name": "valid@username", "apiGroup": "rbac.authorization.k8s.io", "kind": "User"},
        {"name": "valid@groupname", "apiGroup": "rbac.authorization.k8s.io", "kind": "Group"},
    ]);
    assert!(texts("ClusterRoleBinding", &cluster_binding(valid_ref(), subjects), None).is_empty());
    let cases: &[(Json, Json, &[&str])] = &[
        (
            json!({"apiGroup": "rbac.GroupName", "kind": "ClusterRole", "name": "valid"}),
            json!([]),
            &["roleRef.apiGroup: Unsupported value: \"rbac.GroupName\": supported values: \"rbac.authorization.k8s.io\""],
        ),
        (
            json!({"apiGroup": "rbac.authorization.k8s.io", "kind": "Type", "name": "valid"}),
            json!([]),
            &["roleRef.kind: Unsupported value: \"Type\": supported values: \"ClusterRole\""],
        ),
        (
            json!({"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": "valid"}),
            json!([]),
            &["roleRef.kind: Unsupported value: \"Role\": supported values: \"ClusterRole\""],
        ),
        (
            json!({"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole"}),
            json!([]),
            &["roleRef.name: Required value"],
        ),
        (
            valid_ref(),
            json!([{"name": "subject"}]),
            &["subjects[0].kind: Unsupported value: \"\": supported values: \"ServiceAccount\", \"User\", \"Group\""],
        ),
        (
            valid_ref(),
            json!([{"namespace": "foo", "name": "subject:bad", "kind": "ServiceAccount"}]),
            &["subjects[0].name: Invalid value: \"subject:bad\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"],
        ),
        (valid_ref(), json!([{"name": "good", "kind": "ServiceAccount"}]), &["subjects[0].namespace: Required value"]),
        (valid_ref(), json!([{"namespace": "foo", "kind": "ServiceAccount"}]), &["subjects[0].name: Required value"]),
    ];
    for (role_ref, subjects, want) in cases {
        assert_eq!(texts("ClusterRoleBinding", &cluster_binding(role_ref.clone(), subjects.clone()), None), *want);
    }
}

fn role_binding(role_ref: Json, subjects: Json) -> Json {
    json!({"metadata": {"name": "master", "namespace": "default"}, "roleRef": role_ref, "subjects": subjects})
}

// TestValidateRoleBinding (a namespaced binding may reference a Role, and its service accounts
// need no namespace; the subjects' groups are defaulted).
#[test]
fn role_binding_create() {
    let subjects = json!([
        {"name": "validsaname", "kind": "ServiceAccount"},
        {"name": "valid@username", "kind": "User"},
        {"name": "valid@groupname", "kind": "Group"},
    ]);
    let role_ref = json!({"kind": "Role", "name": "valid"});
    assert!(texts("RoleBinding", &role_binding(role_ref, subjects), None).is_empty());
    let cases: &[(Json, Json, &[&str])] = &[
        (
            json!({"kind": "Type", "name": "valid"}),
            json!([]),
            &["roleRef.kind: Unsupported value: \"Type\": supported values: \"Role\", \"ClusterRole\""],
        ),
        (json!({"kind": "Role", "name": "a/b"}), json!([]), &["roleRef.name: Invalid value: \"a/b\": may not contain '/'"]),
        (
            json!({"kind": "Role", "name": "valid"}),
            json!([{"name": "u", "kind": "User", "apiGroup": "example.com"}]),
            &["subjects[0].apiGroup: Unsupported value: \"example.com\": supported values: \"rbac.authorization.k8s.io\""],
        ),
        (
            json!({"kind": "Role", "name": "valid"}),
            json!([{"name": "sa", "kind": "ServiceAccount", "apiGroup": "v1"}]),
            &["subjects[0].apiGroup: Unsupported value: \"v1\": supported values: \"\""],
        ),
    ];
    for (role_ref, subjects, want) in cases {
        assert_eq!(texts("RoleBinding", &role_binding(role_ref.clone(), subjects.clone()), None), *want);
    }
}

// TestValidateRoleBindingUpdate: the roleRef is immutable.
#[test]
fn role_binding_update() {
    let old = role_binding(json!({"kind": "Role", "name": "valid"}), json!([]));
    assert!(texts("RoleBinding", &old, Some(&old)).is_empty());
    let new = role_binding(json!({"kind": "Role", "name": "changed"}), json!([]));
    assert_eq!(
        texts("RoleBinding", &new, Some(&old)),
        ["roleRef: Invalid value: {\"APIGroup\":\"rbac.authorization.k8s.io\",\"Kind\":\"Role\",\"Name\":\"changed\"}: field is immutable"]
    );
}

fn role(rules: Json) -> Json {
    json!({"metadata": {"name": "default", "namespace": "default"}, "rules": rules})
}

// TestValidateRoleValidRole, TestValidateRoleNonResourceURL,
// TestValidateRoleNamespacedNonResourceURL, TestValidateRoleNonResourceURLNoVerbs,
// TestValidateRoleMixedNonResourceAndResource, TestValidateRoleValidResource,
// TestValidateRoleNoAPIGroup, TestValidateRoleNoResources. The missing verbs' handwritten
// error is superseded by the declarative `+k8s:required`.
#[test]
fn roles() {
    let valid = json!([{"verbs": ["get"], "apiGroups": [""], "resources": ["pods"]}]);
    assert!(texts("Role", &role(valid.clone()), None).is_empty());
    let non_resource = json!([{"verbs": ["get"], "nonResourceURLs": ["/*"]}]);
    let cluster = json!({"metadata": {"name": "default"}, "rules": non_resource});
    assert!(texts("ClusterRole", &cluster, None).is_empty());
    assert_eq!(
        texts("Role", &role(non_resource), None),
        ["rules[0].nonResourceURLs: Invalid value: [\"/*\"]: namespaced rules cannot apply to non-resource URLs"]
    );
    assert!(texts("ClusterRole", &json!({"metadata": {"name": "d"}, "rules": [{"nonResourceURLs": ["/*"]}]}), None)
        .is_empty());
    let mixed = json!({"metadata": {"name": "d"}, "rules": [{"verbs": ["get"], "nonResourceURLs": ["/*"], "apiGroups": ["v1"], "resources": ["pods"]}]});
    assert_eq!(
        texts("ClusterRole", &mixed, None),
        ["rules[0].nonResourceURLs: Invalid value: [\"/*\"]: rules cannot apply to both regular resources and non-resource URLs"]
    );
    assert_eq!(
        texts("Role", &role(json!([{"verbs": ["get"], "resources": ["pods"]}])), None),
        ["rules[0].apiGroups: Required value: resource rules must supply at least one api group"]
    );
    assert_eq!(
        texts("Role", &role(json!([{"verbs": ["get"], "apiGroups": [""]}])), None),
        ["rules[0].resources: Required value: resource rules must supply at least one resource"]
    );
}

// ValidateClusterRole's aggregation rule (and the strategy's
// hasInvalidLabelValueInLabelSelector on update).
#[test]
fn cluster_role_aggregation() {
    let with =
        |selectors: Json| json!({"metadata": {"name": "agg"}, "aggregationRule": {"clusterRoleSelectors": selectors}});
    assert!(texts("ClusterRole", &with(json!([{"matchLabels": {"a": "b"}}])), None).is_empty());
    assert_eq!(
        texts("ClusterRole", &with(json!([])), None),
        ["aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil"]
    );
    let bad = with(json!([{"matchExpressions": [{"key": "a", "operator": "Foo"}]}]));
    assert_eq!(
        texts("ClusterRole", &bad, None),
        [
            "aggregationRule.clusterRoleSelectors[0].matchExpressions[0].operator: Invalid value: \"Foo\": not a valid selector operator",
            "aggregationRule.clusterRoleSelectors[0]: Invalid value: null: invalid label selector."
        ]
    );
    // An old role with an invalid label value in an expression lets the new one keep one (the
    // selector still fails to convert).
    let invalid_value = with(json!([{"matchExpressions": [{"key": "a", "operator": "In", "values": ["bad value!"]}]}]));
    assert_eq!(
        texts("ClusterRole", &invalid_value, Some(&invalid_value)),
        ["aggregationRule.clusterRoleSelectors[0]: Invalid value: null: invalid label selector."]
    );
}
