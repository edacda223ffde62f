//! Cases from Kubernetes' `pkg/apis/apps/validation/validation_test.go`, run through the whole
//! path ([`crate::apis::admit`]: defaulting, strategy, validation).

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde_json::{json, Value as Json};

use crate::apis::{admit, Request};

/// Sets `pointer` (`/spec/replicas`) in `v`, creating objects on the way; `null` removes it.
pub(crate) fn set(v: &mut Json, pointer: &str, value: Json) {
    let mut at = v;
    let keys: Vec<&str> = pointer.split('/').skip(1).collect();
    for (i, key) in keys.iter().enumerate() {
        let Json::Object(map) = at else { return };
        if i + 1 == keys.len() {
            if value.is_null() {
                map.remove(*key);
            } else {
                map.insert(key.to_string(), value);
            }
            return;
        }
        at = map.entry(key.to_string()).or_insert_with(|| json!({}));
    }
}

/// The error texts of a create (`old` `None`) or update.
pub(crate) fn texts(group: &str, kind: &str, object: &Json, old: Option<&Json>) -> Vec<String> {
    let request = Request { group, version: "v1", kind, object, old, minor: 37 };
    admit(&request).map_or_else(Vec::new, |o| o.errors.iter().map(|e| e.text()).collect())
}

fn template(labels: Json) -> Json {
    json!({"metadata": {"labels": labels}, "spec": {"containers": [{"name": "c", "image": "nginx:1.27"}]}})
}

fn deployment() -> Json {
    json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "default"},
           "spec": {"selector": {"matchLabels": {"app": "web"}}, "template": template(json!({"app": "web"}))}})
}

/// A case: the changes to the valid base object (JSON pointer, value), and the errors expected.
type Case<'a> = (&'a [(&'a str, Json)], &'a [&'a str]);

fn check(kind: &str, base: fn() -> Json, cases: &[Case<'_>]) {
    assert_eq!(texts("apps", kind, &base(), None), Vec::<String>::new(), "{kind}: the base object is valid");
    for (mutations, want) in cases {
        let mut object = base();
        for (pointer, value) in mutations.iter() {
            set(&mut object, pointer, value.clone());
        }
        assert_eq!(texts("apps", kind, &object, None), *want, "{kind}: {mutations:?}");
    }
}

// TestValidateDeployment.
#[test]
fn deployment_create() {
    check(
        "Deployment",
        deployment,
        &[
            (
                &[("/spec/replicas", json!(-2))],
                &["spec.replicas: Invalid value: -2: must be greater than or equal to 0"],
            ),
            (
                &[("/spec/template/metadata/labels", json!({"app": "db"}))],
                &["spec.template.metadata.labels: Invalid value: {\"app\":\"db\"}: `selector` does not match template `labels`"],
            ),
            (
                &[("/spec/template/spec/restartPolicy", json!("Never"))],
                &["spec.template.spec.restartPolicy: Unsupported value: \"Never\": supported values: \"Always\""],
            ),
            (
                &[("/spec/template/spec/activeDeadlineSeconds", json!(30))],
                &["spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported"],
            ),
            (
                &[("/spec/selector", json!({}))],
                &["spec.selector: Invalid value: {}: empty selector is invalid for deployment"],
            ),
            (
                &[("/spec/strategy", json!({"type": "foo"}))],
                &["spec.strategy: Unsupported value: {\"Type\":\"foo\",\"RollingUpdate\":null}: supported values: \"Recreate\", \"RollingUpdate\""],
            ),
            (
                &[("/spec/strategy", json!({"type": "Recreate", "rollingUpdate": {}}))],
                &["spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'"],
            ),
            (
                &[("/spec/strategy/rollingUpdate", json!({"maxUnavailable": "110%"}))],
                &["spec.strategy.rollingUpdate.maxUnavailable: Invalid value: \"110%\": must not be greater than 100%"],
            ),
            (
                &[("/spec/strategy/rollingUpdate", json!({"maxUnavailable": 0, "maxSurge": 0}))],
                &["spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0"],
            ),
            (
                &[("/spec/strategy/rollingUpdate", json!({"maxSurge": "20"}))],
                &["spec.strategy.rollingUpdate.maxSurge: Invalid value: \"20\": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"],
            ),
            (
                &[("/spec/minReadySeconds", json!(700))],
                &["spec.progressDeadlineSeconds: Invalid value: 600: must be greater than minReadySeconds"],
            ),
            (
                &[("/spec/selector", json!({"matchExpressions": [{"key": "app", "operator": "Bogus"}]}))],
                &[
                    "spec.selector.matchExpressions[0].operator: Invalid value: \"Bogus\": not a valid selector operator",
                    "spec.selector: Invalid value: {\"matchExpressions\":[{\"key\":\"app\",\"operator\":\"Bogus\"}]}: invalid label selector",
                ],
            ),
            (&[("/spec/selector", Json::Null)], &[
                "spec.selector: Required value",
                "spec.template.metadata.labels: Invalid value: {\"app\":\"web\"}: `selector` does not match template `labels`",
            ]),
        ],
    );
}

// TestValidateDeploymentUpdate: the selector is immutable.
#[test]
fn deployment_update() {
    let old = deployment();
    let mut new = deployment();
    set(&mut new, "/spec/selector/matchLabels", json!({"app": "web", "tier": "x"}));
    set(&mut new, "/spec/template/metadata/labels", json!({"app": "web", "tier": "x"}));
    assert_eq!(
        texts("apps", "Deployment", &new, Some(&old)),
        ["spec.selector: Invalid value: {\"matchLabels\":{\"app\":\"web\",\"tier\":\"x\"}}: field is immutable"]
    );
}

fn stateful_set() -> Json {
    json!({"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": "db", "namespace": "default"},
           "spec": {"serviceName": "db", "selector": {"matchLabels": {"app": "db"}}, "template": template(json!({"app": "db"}))}})
}

// TestValidateStatefulSet.
#[test]
fn stateful_set_create() {
    check(
        "StatefulSet",
        stateful_set,
        &[
            (
                &[("/spec/podManagementPolicy", json!("foo"))],
                &["spec.podManagementPolicy: Invalid value: \"foo\": must be 'OrderedReady' or 'Parallel'"],
            ),
            (
                &[("/spec/updateStrategy", json!({"type": "foo"}))],
                &["spec.updateStrategy: Invalid value: {\"Type\":\"foo\",\"RollingUpdate\":null}: must be 'RollingUpdate' or 'OnDelete'"],
            ),
            (
                &[("/spec/updateStrategy", json!({"type": "OnDelete", "rollingUpdate": {"partition": 1}}))],
                &["spec.updateStrategy.rollingUpdate: Invalid value: {\"Partition\":1,\"MaxUnavailable\":null}: only allowed for updateStrategy 'RollingUpdate'"],
            ),
            (
                &[("/spec/updateStrategy", json!({"rollingUpdate": {"partition": -1}}))],
                &["spec.updateStrategy.rollingUpdate.partition: Invalid value: -1: must be greater than or equal to 0"],
            ),
            (
                &[("/spec/updateStrategy", json!({"rollingUpdate": {"maxUnavailable": 0}}))],
                &["spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: 0: cannot be 0"],
            ),
            (
                &[("/spec/persistentVolumeClaimRetentionPolicy", json!({"whenDeleted": "Keep"}))],
                &["spec.persistentVolumeClaimRetentionPolicy.whenDeleted: Unsupported value: \"Keep\": supported values: \"Retain\", \"Delete\""],
            ),
            (
                &[("/spec/ordinals", json!({"start": -1}))],
                &["spec.ordinals.start: Invalid value: -1: must be greater than or equal to 0"],
            ),
            (
                &[("/spec/selector", json!({}))],
                &["spec.selector: Invalid value: {}: empty selector is invalid for statefulset"],
            ),
            (
                &[("/spec/template/spec/restartPolicy", json!("OnFailure"))],
                &["spec.template.spec.restartPolicy: Unsupported value: \"OnFailure\": supported values: \"Always\""],
            ),
        ],
    );
}

fn daemon_set() -> Json {
    json!({"apiVersion": "apps/v1", "kind": "DaemonSet", "metadata": {"name": "agent", "namespace": "default"},
           "spec": {"selector": {"matchLabels": {"app": "agent"}}, "template": template(json!({"app": "agent"}))}})
}

// TestValidateDaemonSet.
#[test]
fn daemon_set_create() {
    check(
        "DaemonSet",
        daemon_set,
        &[
            (
                &[("/spec/updateStrategy", json!({"rollingUpdate": {"maxUnavailable": 1, "maxSurge": 1}}))],
                &["spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero"],
            ),
            (
                &[("/spec/updateStrategy", json!({"rollingUpdate": {"maxUnavailable": 0, "maxSurge": 0}}))],
                &["spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0"],
            ),
            (
                &[("/spec/updateStrategy", json!({"type": "foo"}))],
                &["spec.updateStrategy: Unsupported value: {\"Type\":\"foo\",\"RollingUpdate\":null}: supported values: \"RollingUpdate\", \"OnDelete\""],
            ),
            (
                &[("/spec/template/metadata/labels", json!({"app": "other"}))],
                &["spec.template.metadata.labels: Invalid value: {\"app\":\"other\"}: `selector` does not match template `labels`"],
            ),
            (
                &[("/spec/template/spec/activeDeadlineSeconds", json!(5))],
                &["spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in DaemonSet is not Supported"],
            ),
        ],
    );
}

// TestValidateControllerRevisionCreate.
#[test]
fn controller_revision() {
    let base = json!({"apiVersion": "apps/v1", "kind": "ControllerRevision", "metadata": {"name": "r", "namespace": "default"}, "revision": 1, "data": {}});
    assert_eq!(texts("apps", "ControllerRevision", &base, None), Vec::<String>::new());
    let mut bad = base.clone();
    set(&mut bad, "/data", Json::Null);
    set(&mut bad, "/revision", json!(-1));
    assert_eq!(
        texts("apps", "ControllerRevision", &bad, None),
        ["revision: Invalid value: -1: must be greater than or equal to 0", "data: Required value: data is mandatory"]
    );
}

// TestValidateReplicaSet: an empty selector reads "deployment" there too.
#[test]
fn replica_set() {
    let base = || {
        json!({"apiVersion": "apps/v1", "kind": "ReplicaSet", "metadata": {"name": "web", "namespace": "default"},
               "spec": {"selector": {"matchLabels": {"app": "web"}}, "template": template(json!({"app": "web"}))}})
    };
    check(
        "ReplicaSet",
        base,
        &[
            (
                &[("/spec/selector", json!({}))],
                &["spec.selector: Invalid value: {}: empty selector is invalid for deployment"],
            ),
            (
                &[("/spec/minReadySeconds", json!(-1))],
                &["spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0"],
            ),
        ],
    );
}

// pkg/api/pod GetValidationOptionsFromPodTemplate(new, old) in the Deployment strategy's
// ValidateUpdate: a label value the old template's affinity selector already had may stay
// (AllowInvalidLabelValueInSelector); a create refuses it.
#[test]
fn update_keeps_what_the_old_template_allowed() {
    let mut old = deployment();
    let term = json!([{"labelSelector": {"matchExpressions": [{"key": "app", "operator": "In", "values": ["not valid!"]}]},
                       "topologyKey": "kubernetes.io/hostname"}]);
    set(
        &mut old,
        "/spec/template/spec/affinity",
        json!({"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": term}}),
    );
    let create = texts("apps", "Deployment", &old, None);
    assert_eq!(create.len(), 1, "{create:?}");
    assert!(create[0].starts_with("spec.template.spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector.matchExpressions[0].values[0]: Invalid value: \"not valid!\""));
    let mut new = old.clone();
    set(&mut new, "/spec/replicas", json!(3));
    assert_eq!(texts("apps", "Deployment", &new, Some(&old)), Vec::<String>::new());
}
