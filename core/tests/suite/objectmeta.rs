//! `metadata` on update, as the API server checks it for every kind. Sources (read at
//! apiserver 24a394e5 and apimachinery v0.36.3 / v0.37.0-beta.0):
//! - apiserver `pkg/registry/rest/update.go`: `BeforeUpdate` (the generation, uid, timestamps
//!   and grace period taken from the old object) and `validateCommonFields`
//!   (`ValidateObjectMetaAccessor` with path-segment names, then
//!   `ValidateObjectMetaAccessorUpdate`);
//! - apimachinery `pkg/api/validation/objectmeta.go` `ValidateObjectMetaAccessorUpdate`,
//!   `ValidateNoNewFinalizers`, `ValidateImmutableField` (1.37 adds the `immutable` origins);
//! - apimachinery `pkg/util/validation/field/errors.go` `ErrorBody` (a `types.UID` and a
//!   `metav1.Time` are printed by `json.Marshal`) and `ToAggregate` (repeats dropped);
//! - apiserver `pkg/endpoints/handlers/rest.go` `checkName` (a Bad Request);
//! - kubernetes `pkg/apis/core/validation` `ValidateObjectMetaUpdate` (finalizer names at their
//!   index).

use kubedv_core::crd::Crd;
use kubedv_core::objectmeta::{builtin_update_errors, update_refusal};
use serde_json::{json, Value};

fn deployment(meta: Value) -> Value {
    json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": meta})
}

fn update(new: Value, old: Value, minor: u32) -> Vec<String> {
    builtin_update_errors("apps", "Deployment", &deployment(new), &deployment(old), minor, Vec::new())
        .iter()
        .map(|e| format!("{} [{}]", e.text(), e.origin))
        .collect()
}

#[test]
fn system_fields_are_immutable_once_set() {
    let old = json!({"name": "web", "namespace": "prod", "uid": "a1", "creationTimestamp": "2026-01-02T03:04:05Z"});
    // Omitted system fields are taken from the old object: no error.
    assert_eq!(update(json!({"name": "web"}), old.clone(), 37), Vec::<String>::new());
    // A different creation timestamp is overwritten by the old one: no error either.
    let moved = json!({"name": "web", "creationTimestamp": "2020-01-01T00:00:00Z"});
    assert_eq!(update(moved, old.clone(), 37), Vec::<String>::new());
    // A uid that differs.
    assert_eq!(
        update(json!({"name": "web", "uid": "b2"}), old.clone(), 37),
        ["metadata.uid: Invalid value: \"b2\": field is immutable [immutable]"]
    );
    // Before 1.37 the same error has no origin.
    assert_eq!(
        update(json!({"name": "web", "uid": "b2"}), old, 36),
        ["metadata.uid: Invalid value: \"b2\": field is immutable []"]
    );
}

#[test]
fn timestamps_the_old_object_lacks_cannot_be_set() {
    let old = json!({"name": "web"});
    let new = json!({"name": "web", "creationTimestamp": "2026-01-02T05:04:05+02:00",
        "deletionTimestamp": "2026-03-01T00:00:00.5Z", "deletionGracePeriodSeconds": 30});
    assert_eq!(
        update(new, old, 37),
        [
            // metav1.Time marshals in UTC, whole seconds.
            "metadata.creationTimestamp: Invalid value: \"2026-01-02T03:04:05Z\": field is immutable [immutable]",
            "metadata.deletionTimestamp: Invalid value: \"2026-03-01T00:00:00Z\": field is immutable [immutable]",
            "metadata.deletionGracePeriodSeconds: Invalid value: 30: field is immutable [immutable]",
        ]
    );
    // A grace period the old object has: kept when dropped, an error when changed.
    let old = json!({"name": "web", "deletionTimestamp": "2026-03-01T00:00:00Z", "deletionGracePeriodSeconds": 30});
    assert_eq!(update(json!({"name": "web"}), old.clone(), 37), Vec::<String>::new());
    assert_eq!(
        update(json!({"name": "web", "deletionGracePeriodSeconds": 0}), old, 37),
        ["metadata.deletionGracePeriodSeconds: Invalid value: 0: field is immutable [immutable]"]
    );
}

#[test]
fn no_new_finalizers_while_deleting() {
    let old = json!({"name": "web", "deletionTimestamp": "2026-03-01T00:00:00Z", "finalizers": ["example.com/a"]});
    let new = json!({"name": "web", "finalizers": ["example.com/z", "example.com/a", "example.com/b"]});
    assert_eq!(
        update(new.clone(), old, 37),
        [
            "metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{\"example.com/b\", \"example.com/z\"} []"
        ]
    );
    // Not being deleted: any finalizer may be added.
    assert_eq!(update(new, json!({"name": "web"}), 37), Vec::<String>::new());
}

#[test]
fn repeated_checks_are_listed_once_and_core_finalizer_names_at_their_index() {
    // The label is checked by validateCommonFields and again by the kind's
    // ValidateObjectMetaUpdate: kubectl's message (ToAggregate) lists it once.
    let new = json!({"name": "web", "labels": {"a b": "x"}, "finalizers": ["example.com/a", "cleanup"]});
    let got = update(new.clone(), json!({"name": "web"}), 37);
    assert_eq!(got.len(), 2, "{got:#?}");
    assert!(got[0].starts_with("metadata.labels: Invalid value: \"a b\": name part must consist of"), "{got:#?}");
    assert_eq!(
        got[1],
        "metadata.finalizers[1]: Invalid value: \"cleanup\": name is neither a standard finalizer name nor is it fully qualified []"
    );
    // On update the name is checked only as a path segment (names cannot change).
    let bad = json!({"name": "Web_1"});
    assert_eq!(update(bad.clone(), bad, 37), Vec::<String>::new());
}

#[test]
fn another_objects_body_is_a_bad_request() {
    let d = |meta: Value| deployment(meta);
    assert_eq!(
        update_refusal(&d(json!({"name": "b"})), &d(json!({"name": "a"}))).as_deref(),
        Some("the name of the object (b) does not match the name on the URL (a)")
    );
    assert_eq!(
        update_refusal(&d(json!({"name": "a", "namespace": "x"})), &d(json!({"name": "a", "namespace": "y"})))
            .as_deref(),
        Some("the namespace of the object (x) does not match the namespace on the request (y)")
    );
    // An omitted namespace is the request's.
    assert_eq!(update_refusal(&d(json!({"name": "a"})), &d(json!({"name": "a", "namespace": "y"}))), None);
}

/// A custom resource's update: `validateCommonFields` first, and no DNS-subdomain check of the
/// name (the validator's `ValidateUpdate` runs only `ValidateObjectMetaAccessorUpdate`).
#[test]
fn custom_resource_updates() {
    let crd = Crd::load(&json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition", "metadata": {"name": "widgets.example.com"},
        "spec": {"group": "example.com", "scope": "Namespaced",
            "names": {"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList"},
            "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {"type": "object",
                "properties": {"spec": {"type": "object", "properties": {"size": {"type": "integer", "minimum": 1}}}}}}}]}
    }), None)
    .expect("crd");
    let w = |meta: Value, size: i64| json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": meta, "spec": {"size": size}});
    let texts =
        |new: Value, old: Value| -> Vec<String> { crd.validate(&new, Some(&old)).iter().map(|e| e.text()).collect() };
    assert_eq!(
        texts(w(json!({"name": "w", "uid": "b"}), 0), w(json!({"name": "w", "uid": "a"}), 1)),
        [
            "metadata.uid: Invalid value: \"b\": field is immutable",
            "spec.size: Invalid value: 0: spec.size in body should be greater than or equal to 1",
        ]
    );
    assert_eq!(texts(w(json!({"name": "W_1"}), 1), w(json!({"name": "W_1"}), 1)), Vec::<String>::new());
}
