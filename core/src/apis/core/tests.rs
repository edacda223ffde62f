//! Unit tests of the core group's PersistentVolume, ResourceQuota, LimitRange, Event (and
//! `events.k8s.io`'s), Node and Binding, ported from `pkg/apis/core/validation`'s
//! `validation_test.go` and `events_test.go` and the registries' `strategy_test.go`: each
//! request goes the whole way ([`crate::apis::admit`]: defaulting, the strategy, validation,
//! warnings), and the exact texts are asserted.

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{json, Value as Json};

use crate::apis::{admit, Outcome, Request};

fn run(group: &str, version: &str, kind: &str, object: Json, old: Option<Json>) -> Outcome {
    let request = Request { group, version, kind, object: &object, old: old.as_ref(), minor: 37 };
    admit(&request).expect("kind modeled")
}

fn errors(kind: &str, object: Json) -> Vec<String> {
    run("", "v1", kind, object, None).errors.iter().map(crate::field::Error::text).collect()
}

fn update_errors(kind: &str, old: Json, object: Json) -> Vec<String> {
    run("", "v1", kind, object, Some(old)).errors.iter().map(crate::field::Error::text).collect()
}

fn pv(name: &str, spec: Json) -> Json {
    json!({"apiVersion": "v1", "kind": "PersistentVolume", "metadata": {"name": name}, "spec": spec})
}

fn pv_spec(source: Json) -> Json {
    let mut spec = json!({"capacity": {"storage": "10G"}, "accessModes": ["ReadWriteOnce"]});
    if let (Json::Object(m), Json::Object(s)) = (&mut spec, source) {
        m.extend(s);
    }
    spec
}

// TestValidatePersistentVolumes: the good volumes, defaults applied.
#[test]
fn persistent_volume_valid() {
    let out = run("", "v1", "PersistentVolume", pv("foo", pv_spec(json!({"hostPath": {"path": "/foo"}}))), None);
    assert!(out.errors.is_empty(), "{:?}", out.errors);
    assert_eq!(out.object["spec"]["persistentVolumeReclaimPolicy"], "Retain");
    assert_eq!(out.object["spec"]["volumeMode"], "Filesystem");
    assert_eq!(out.object["spec"]["hostPath"]["type"], "");
    assert_eq!(out.object["status"]["phase"], "Pending");
    let local = pv_spec(json!({
        "local": {"path": "/foo"},
        "nodeAffinity": {"required": {"nodeSelectorTerms": [{"matchExpressions": [{"key": "k", "operator": "In", "values": ["v"]}]}]}},
    }));
    assert!(errors("PersistentVolume", pv("foo", local)).is_empty());
}

// TestValidatePersistentVolumes: the refused ones.
#[test]
fn persistent_volume_invalid() {
    assert_eq!(
        errors("PersistentVolume", pv("foo", json!({"capacity": {"storage": "10G"}, "hostPath": {"path": "/foo"}}))),
        ["spec.accessModes: Required value"]
    );
    assert_eq!(
        errors("PersistentVolume", pv("foo", pv_spec(json!({"hostPath": {"path": "/foo"}, "persistentVolumeReclaimPolicy": "fakeReclaimPolicy"})))),
        ["spec.persistentVolumeReclaimPolicy: Unsupported value: \"fakeReclaimPolicy\": supported values: \"Delete\", \"Recycle\", \"Retain\""]
    );
    assert_eq!(
        errors("PersistentVolume", pv("foo", pv_spec(json!({"hostPath": {"path": "/foo"}, "accessModes": ["fakemode"]})))),
        ["spec.accessModes: Unsupported value: \"fakemode\": supported values: \"ReadOnlyMany\", \"ReadWriteMany\", \"ReadWriteOnce\", \"ReadWriteOncePod\""]
    );
    assert_eq!(
        errors(
            "PersistentVolume",
            pv(
                "foo",
                pv_spec(json!({"hostPath": {"path": "/foo"}, "accessModes": ["ReadWriteOncePod", "ReadWriteMany"]}))
            )
        ),
        ["spec.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes"]
    );
    assert_eq!(
        errors("PersistentVolume", pv("foo", json!({"accessModes": ["ReadWriteOnce"], "hostPath": {"path": "/foo"}}))),
        ["spec.capacity: Required value", "spec.capacity: Unsupported value: null: supported values: \"storage\""]
    );
    assert_eq!(
        errors("PersistentVolume", pv("foo", pv_spec(json!({}))).clone()),
        ["spec: Required value: must specify a volume type"]
    );
    assert_eq!(
        errors(
            "PersistentVolume",
            pv("foo", pv_spec(json!({"hostPath": {"path": "/foo"}, "gcePersistentDisk": {"pdName": "foo"}})))
        ),
        ["spec.gcePersistentDisk: Forbidden: may not specify more than 1 volume type"]
    );
    assert_eq!(
        errors("PersistentVolume", pv("foo", pv_spec(json!({"hostPath": {"path": "/foo/.."}})))),
        ["spec.hostPath.path: Invalid value: \"/foo/..\": must not contain '..'"]
    );
    assert_eq!(
        errors(
            "PersistentVolume",
            pv("foo", pv_spec(json!({"hostPath": {"path": "/"}, "persistentVolumeReclaimPolicy": "Recycle"})))
        ),
        ["spec.persistentVolumeReclaimPolicy: Forbidden: may not be 'recycle' for a hostPath mount of '/'"]
    );
    assert_eq!(
        errors("PersistentVolume", pv("foo", pv_spec(json!({"local": {"path": "/foo"}})))),
        ["spec.nodeAffinity: Required value: Local volume requires node affinity"]
    );
    assert_eq!(
        errors("PersistentVolume", pv("foo", pv_spec(json!({"local": {"path": "/foo"}, "nodeAffinity": {}})))),
        ["spec.nodeAffinity.required: Required value: must specify required node constraints"]
    );
    assert_eq!(
        errors(
            "PersistentVolume",
            pv("foo", pv_spec(json!({"hostPath": {"path": "/foo"}, "volumeAttributesClassName": ""})))
        ),
        [
            "spec.volumeAttributesClassName: Required value: an empty string is disallowed",
            "spec.csi: Required value: has to be specified when using volumeAttributesClassName"
        ]
    );
}

// TestValidatePersistentVolumes: the PV-only sources.
#[test]
fn persistent_volume_sources() {
    assert_eq!(
        errors("PersistentVolume", pv("foo", pv_spec(json!({"glusterfs": {"endpoints": "ep", "path": "p", "endpointsNamespace": ""}})))),
        ["spec.glusterfs.endpointsNamespace: Invalid value: \"\": if the endpointnamespace is set, it must be a valid namespace name"]
    );
    assert_eq!(
        errors(
            "PersistentVolume",
            pv("foo", pv_spec(json!({"cinder": {"volumeID": "v", "secretRef": {"name": "s"}}})))
        ),
        ["spec.cinder.secretRef.namespace: Required value"]
    );
    assert_eq!(
        errors(
            "PersistentVolume",
            pv("foo", pv_spec(json!({"iscsi": {"targetPortal": "127.0.0.1", "iqn": "foo", "lun": 1}})))
        ),
        ["spec.iscsi.iqn: Invalid value: \"foo\": must be valid format"]
    );
    let long = "a".repeat(60);
    assert_eq!(
        errors("PersistentVolume", pv(&long, pv_spec(json!({"iscsi": {"targetPortal": "127.0.0.1:3260", "iqn": "iqn.2015-02.example.com:test", "initiatorName": "iqn.2015-02.example.com:init"}})))),
        ["spec.iscsi.targetportal: Invalid value: \"127.0.0.1:3260\": Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified."]
    );
    assert_eq!(
        errors(
            "PersistentVolume",
            pv(
                "foo",
                pv_spec(
                    json!({"csi": {"driver": "d.example.com", "volumeHandle": "h", "nodeExpandSecretRef": {"name": "s"}}})
                )
            )
        ),
        ["spec.csi.nodeExpandSecretRef.namespace: Required value"]
    );
    assert_eq!(
        errors(
            "PersistentVolume",
            pv("foo", pv_spec(json!({"storageos": {"volumeName": "v", "secretRef": {"name": "s"}}})))
        ),
        ["spec.storageos.secretRef.namespace: Required value"]
    );
    assert_eq!(
        errors(
            "PersistentVolume",
            pv("foo", pv_spec(json!({"azureFile": {"secretName": "s", "shareName": "x", "secretNamespace": ""}})))
        ),
        ["spec.azureFile.secretNamespace: Required value"]
    );
}

// volume validation TestValidatePersistentVolumes (checkMountOption) and
// GetWarningsForPersistentVolume.
#[test]
fn persistent_volume_mount_options_and_warnings() {
    let mut obj = pv("foo", pv_spec(json!({"hostPath": {"path": "/foo"}, "persistentVolumeReclaimPolicy": "Recycle"})));
    obj["metadata"]["annotations"] = json!({"volume.beta.kubernetes.io/mount-options": "ro"});
    let out = run("", "v1", "PersistentVolume", obj, None);
    let texts: Vec<String> = out.errors.iter().map(crate::field::Error::text).collect();
    assert_eq!(
        texts,
        ["metadata.annotations.volume.beta.kubernetes.io/mount-options: Forbidden: may not specify mount options for this volume type"]
    );
    assert_eq!(
        out.warnings,
        [
            "metadata.annotations[volume.beta.kubernetes.io/mount-options]: deprecated since v1.31; use \"mountOptions\" attribute instead",
            "spec.persistentVolumeReclaimPolicy: The Recycle reclaim policy is deprecated. Instead, the recommended approach is to use dynamic provisioning."
        ]
    );
    let out =
        run("", "v1", "PersistentVolume", pv("foo", pv_spec(json!({"rbd": {"monitors": ["m"], "image": "i"}}))), None);
    assert_eq!(out.warnings, ["spec.rbd: deprecated in v1.28, non-functional in v1.31+"]);
    assert_eq!(out.object["spec"]["rbd"]["pool"], "rbd");
}

// TestValidatePersistentVolumeSourceUpdate, TestValidateVolumeNodeAffinityUpdate.
#[test]
fn persistent_volume_update() {
    let old = pv("foo", pv_spec(json!({"nfs": {"server": "a", "path": "/p"}})));
    let new = pv("foo", pv_spec(json!({"nfs": {"server": "b", "path": "/p"}})));
    let texts = update_errors("PersistentVolume", old, new);
    assert_eq!(texts.len(), 1);
    assert!(texts[0].starts_with(
        "spec.persistentvolumesource: Forbidden: spec.persistentvolumesource is immutable after creation\n@@ -4,7 +4,7 @@\n"
    ), "{}", texts[0]);
    assert!(texts[0].contains("-  \"Server\": \"a\",\n+  \"Server\": \"b\",\n"));
    // A controllerExpandSecretRef may be added.
    let old = pv("foo", pv_spec(json!({"csi": {"driver": "d.example.com", "volumeHandle": "h"}})));
    let new = pv(
        "foo",
        pv_spec(
            json!({"csi": {"driver": "d.example.com", "volumeHandle": "h", "controllerExpandSecretRef": {"name": "s", "namespace": "ns"}}}),
        ),
    );
    assert!(update_errors("PersistentVolume", old, new).is_empty());
    // Node affinity: beta to GA label allowed, other changes refused.
    let affinity = |key: &str, value: &str| json!({"required": {"nodeSelectorTerms": [{"matchExpressions": [{"key": key, "operator": "In", "values": [value]}]}]}});
    let with = |a: Json| {
        let mut s = pv_spec(json!({"nfs": {"server": "a", "path": "/p"}}));
        s["nodeAffinity"] = a;
        pv("foo", s)
    };
    let beta = with(affinity("failure-domain.beta.kubernetes.io/zone", "z"));
    assert!(
        update_errors("PersistentVolume", beta.clone(), with(affinity("topology.kubernetes.io/zone", "z"))).is_empty()
    );
    assert_eq!(
        update_errors("PersistentVolume", beta, with(affinity("topology.kubernetes.io/zone", "y"))),
        ["nodeAffinity: Invalid value: {\"Required\":{\"NodeSelectorTerms\":[{\"MatchExpressions\":[{\"Key\":\"topology.kubernetes.io/zone\",\"Operator\":\"In\",\"Values\":[\"y\"]}],\"MatchFields\":null}]}}: field is immutable, except for updating from beta label to GA"]
    );
}

fn quota(spec: Json) -> Json {
    json!({"apiVersion": "v1", "kind": "ResourceQuota", "metadata": {"name": "q", "namespace": "ns"}, "spec": spec})
}

// TestValidateResourceQuota.
#[test]
fn resource_quota() {
    assert!(errors("ResourceQuota", quota(json!({"hard": {"cpu": "100", "pods": "10", "count/resourceclaims.resource.k8s.io": "1", "gold.deviceclass.resource.k8s.io/devices": "1"}}))).is_empty());
    assert!(errors("ResourceQuota", quota(json!({"hard": {"cpu": "100"}, "scopes": ["NotTerminating"]}))).is_empty());
    assert_eq!(
        errors("ResourceQuota", quota(json!({"hard": {"cpu": "-10"}}))),
        ["spec.hard[cpu]: Invalid value: \"-10\": must be greater than or equal to 0"]
    );
    assert_eq!(
        errors("ResourceQuota", quota(json!({"hard": {"pods": "10.5"}}))),
        ["spec.hard[pods]: Invalid value: \"10500m\": must be an integer"]
    );
    assert_eq!(
        errors("ResourceQuota", quota(json!({"hard": {"foo": "1"}}))),
        [
            "spec.hard[foo]: Invalid value: \"foo\": must be a standard resource type or fully qualified",
            "spec.hard[foo]: Invalid value: \"foo\": must be a standard resource for quota"
        ]
    );
    assert_eq!(
        errors("ResourceQuota", quota(json!({"hard": {"pods": "1"}, "scopes": ["Terminating", "NotTerminating"]}))),
        ["spec.scopes: Invalid value: [\"Terminating\",\"NotTerminating\"]: conflicting scopes"]
    );
    assert_eq!(
        errors("ResourceQuota", quota(json!({"hard": {"pods": "1"}, "scopes": ["foo"]}))),
        ["spec.scopes: Invalid value: [\"foo\"]: unsupported scope"]
    );
    assert_eq!(
        errors("ResourceQuota", quota(json!({"hard": {"pods": "1"}, "scopeSelector": {"matchExpressions": [{"scopeName": "CrossNamespacePodAffinity", "operator": "In", "values": ["x"]}]}}))),
        ["spec.scopeSelector.matchExpressions.operator: Invalid value: \"In\": must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity"]
    );
}

// TestValidateResourceQuota (the status is dropped on create) and the strategy's warnings and
// update (resourcequota strategy_test).
#[test]
fn resource_quota_strategy() {
    let mut obj = quota(json!({"hard": {"requests.cpu": "2", "limits.cpu": "1"}}));
    obj["status"] = json!({"hard": {"foo": "-1"}});
    let out = run("", "v1", "ResourceQuota", obj, None);
    assert!(out.errors.is_empty());
    assert_eq!(out.warnings, ["ResourceQuota requests.cpu (2) should be less than limits.cpu (1)"]);
    assert_eq!(
        update_errors(
            "ResourceQuota",
            quota(json!({"hard": {"pods": "1"}, "scopes": ["BestEffort"]})),
            quota(json!({"hard": {"pods": "1"}}))
        ),
        ["spec.scopes: Invalid value: null: field is immutable"]
    );
}

fn limit_range(limits: Json) -> Json {
    json!({"apiVersion": "v1", "kind": "LimitRange", "metadata": {"name": "abc", "namespace": "foo"}, "spec": {"limits": limits}})
}

// TestValidateLimitRange.
#[test]
fn limit_range_validation() {
    assert!(errors(
        "LimitRange",
        limit_range(json!([
            {"type": "Pod", "max": {"cpu": "100m", "memory": "10000Mi"}, "min": {"cpu": "5m", "memory": "100Mi"}, "maxLimitRequestRatio": {"cpu": "10"}},
            {"type": "Container", "max": {"cpu": "100m", "memory": "10000Mi"}, "min": {"cpu": "5m", "memory": "100Mi"}, "default": {"cpu": "50m", "memory": "500Mi"}, "defaultRequest": {"cpu": "10m", "memory": "200Mi"}, "maxLimitRequestRatio": {"cpu": "10"}},
            {"type": "PersistentVolumeClaim", "max": {"storage": "10Gi"}, "min": {"storage": "5Gi"}},
            {"type": "thirdparty.com/foo", "max": {"storage": "10000T"}, "min": {"storage": "100Mi"}}
        ]))
    )
    .is_empty());
    assert_eq!(
        errors("LimitRange", limit_range(json!([{"type": "Pod"}, {"type": "Pod"}]))),
        ["spec.limits[1].type: Duplicate value: \"Pod\""]
    );
    assert_eq!(
        errors("LimitRange", limit_range(json!([{"type": "Pod", "default": {"cpu": "10m"}}]))),
        ["spec.limits[0].default: Forbidden: may not be specified when `type` is 'Pod'"]
    );
    assert_eq!(
        errors("LimitRange", limit_range(json!([{"type": "Pod", "max": {"cpu": "10m"}, "min": {"cpu": "100m"}}]))),
        ["spec.limits[0].min[cpu]: Invalid value: \"100m\": min value 100m is greater than max value 10m"]
    );
    assert_eq!(
        errors("LimitRange", limit_range(json!([{"type": "Container", "max": {"cpu": "2"}, "min": {"cpu": "100m"}, "default": {"cpu": "500m"}, "defaultRequest": {"cpu": "800m"}}]))),
        ["spec.limits[0].defaultRequest[cpu]: Invalid value: \"800m\": default request value 800m is greater than default limit value 500m"]
    );
    assert_eq!(
        errors("LimitRange", limit_range(json!([{"type": "Pod", "maxLimitRequestRatio": {"cpu": "800m"}}]))),
        ["spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: \"800m\": ratio 800m is less than 1"]
    );
    assert_eq!(
        errors("LimitRange", limit_range(json!([{"type": "Container", "max": {"memory": "2Gi"}, "min": {"memory": "512Mi"}, "maxLimitRequestRatio": {"memory": "10"}}]))),
        ["spec.limits[0].maxLimitRequestRatio[memory]: Invalid value: \"10\": ratio 10 is greater than max/min = 4.000000"]
    );
    assert_eq!(
        errors("LimitRange", limit_range(json!([{"type": "foo"}]))),
        ["spec.limits[0].type: Invalid value: \"foo\": must be a standard limit type or fully qualified"]
    );
    assert_eq!(
        errors("LimitRange", limit_range(json!([{"type": "PersistentVolumeClaim"}]))),
        ["spec.limits[0].limits: Required value: either minimum or maximum storage value is required, but neither was provided"]
    );
    assert_eq!(
        errors("LimitRange", limit_range(json!([{"type": "Container", "default": {"hugepages-2Mi": "4Mi"}, "defaultRequest": {"hugepages-2Mi": "2Mi"}}]))),
        ["spec.limits[0].defaultRequest[hugepages-2Mi]: Invalid value: \"2Mi\": default value 4Mi must equal to defaultRequest value 2Mi in hugepages-2Mi"]
    );
}

// SetDefaults_LimitRangeItem (TestSetDefaultLimitRangeItem of pkg/apis/core/v1).
#[test]
fn limit_range_defaults() {
    let out = run(
        "",
        "v1",
        "LimitRange",
        limit_range(
            json!([{"type": "Container", "max": {"cpu": "100m"}, "min": {"memory": "100Mi"}, "default": {"memory": "1Gi"}}]),
        ),
        None,
    );
    let item = &out.object["spec"]["limits"][0];
    assert_eq!(item["default"], json!({"cpu": "100m", "memory": "1Gi"}));
    assert_eq!(item["defaultRequest"], json!({"cpu": "100m", "memory": "1Gi"}));
}

fn node(spec: Json, status: Json) -> Json {
    json!({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "abc"}, "spec": spec, "status": status})
}

// TestValidateNode.
#[test]
fn node_validation() {
    assert!(errors(
        "Node",
        node(json!({"podCIDRs": ["192.168.0.0/16", "2001:db8::/64"]}), json!({"capacity": {"cpu": "10"}}))
    )
    .is_empty());
    assert_eq!(
        errors("Node", node(json!({"taints": [{"key": "dedicated", "value": "special-user-1", "effect": "NoSchedule"}, {"key": "dedicated", "value": "special-user-2", "effect": "NoSchedule"}]}), json!({}))),
        ["metadata.taints[1]: Duplicate value: {\"Key\":\"dedicated\",\"Value\":\"special-user-2\",\"Effect\":\"NoSchedule\",\"TimeAdded\":null}: taints must be unique by key and effect pair"]
    );
    assert_eq!(
        errors("Node", node(json!({"taints": [{"key": "k", "effect": "Bogus"}]}), json!({}))),
        ["metadata.taints[0].effect: Unsupported value: \"Bogus\": supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\""]
    );
    assert_eq!(
        errors("Node", node(json!({}), json!({"capacity": {"memory": "-1"}}))),
        [
            "status.capacity.memory: Invalid value: \"-1\": must be greater than or equal to 0",
            "status.allocatable.memory: Invalid value: \"-1\": must be greater than or equal to 0"
        ]
    );
    // TestValidateNodeCIDRs.
    assert_eq!(
        errors("Node", node(json!({"podCIDRs": ["192.168.0.0/16", "192.169.0.0/16"]}), json!({}))),
        ["spec.podCIDRs: Invalid value: [\"192.168.0.0/16\",\"192.169.0.0/16\"]: may specify no more than one CIDR for each IP family"]
    );
    // TestValidateNodeSwapStatus.
    assert_eq!(
        errors("Node", node(json!({}), json!({"nodeInfo": {"swap": {"capacity": -1}}}))),
        ["metadata.nodeSwapStatus.capacity: Invalid value: -1: must be greater than zero"]
    );
    // TestValidateNodeDeclaredFeatures.
    assert_eq!(
        errors("Node", node(json!({}), json!({"declaredFeatures": ["FeatureB", "FeatureA", "FeatureA"]}))),
        [
            "status.declaredFeatures[1]: Invalid value: \"FeatureA\": list must be sorted alphabetically",
            "status.declaredFeatures[2]: Duplicate value: \"FeatureA\""
        ]
    );
}

// TestValidateNodeUpdate and the node strategy's PrepareForCreate / nodeWarnings.
#[test]
fn node_update_and_strategy() {
    let old =
        node(json!({"podCIDRs": ["192.168.0.0/16"], "providerID": "provider:///old", "externalID": "a"}), json!({}));
    assert_eq!(
        update_errors(
            "Node",
            old.clone(),
            node(
                json!({"podCIDRs": ["192.123.0.0/16"], "providerID": "provider:///new", "externalID": "b"}),
                json!({})
            )
        ),
        [
            "spec.podCIDRs: Forbidden: node updates may not change podCIDR except from \"\" to valid",
            "spec.providerID: Invalid value: null: field cannot be modified once set",
            "spec.externalID: Forbidden: may not be updated"
        ]
    );
    assert_eq!(
        update_errors("Node", old, node(json!({"podCIDRs": ["192.168.0.0/16"], "externalID": "a"}), json!({}))),
        ["spec.providerID: Invalid value: null: field cannot be cleared once set"]
    );
    let out = run(
        "",
        "v1",
        "Node",
        node(json!({"configSource": {"configMap": {}}, "externalID": "x", "podCIDRs": ["10.0.0.1/8"]}), json!({})),
        None,
    );
    assert!(out.object["spec"].get("configSource").is_none());
    assert_eq!(
        out.warnings,
        [
            "spec.externalID: this field is deprecated, and is unused by Kubernetes",
            "spec.podCIDRs[0]: CIDR value \"10.0.0.1/8\" is ambiguous in this context (should be \"10.0.0.0/8\" or \"10.0.0.1/32\"?)"
        ]
    );
}

fn event(fields: Json) -> Json {
    let mut e = json!({"apiVersion": "v1", "kind": "Event", "metadata": {"name": "test", "namespace": "default"}});
    if let (Json::Object(m), Json::Object(f)) = (&mut e, fields) {
        m.extend(f);
    }
    e
}

// TestValidateEventForCoreV1Events.
#[test]
fn core_v1_events() {
    assert!(errors("Event", event(json!({"involvedObject": {"namespace": "default"}}))).is_empty());
    assert_eq!(
        errors("Event", event(json!({"involvedObject": {"namespace": "foo"}}))),
        ["involvedObject.namespace: Invalid value: \"foo\": does not match event.namespace"]
    );
    assert_eq!(
        errors("Event", event(json!({"eventTime": "2024-01-01T00:00:00.000000Z", "involvedObject": {"namespace": "default"}}))),
        [
            "reportingComponent: Required value",
            "reportingComponent: Invalid value: \"\": name part must be non-empty",
            "reportingComponent: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
            "reportingInstance: Required value",
            "action: Required value",
            "reason: Required value"
        ]
    );
}

// TestValidatePodBinding.
#[test]
fn pod_binding() {
    // BindingREST.Create returns ValidatePodBinding's errors as an internal error: the
    // aggregate's message (one error's text; several as `[a, b]`), no field errors.
    let binding = |target: Json| json!({"apiVersion": "v1", "kind": "Binding", "metadata": {"name": "test-pod", "namespace": "default"}, "target": target});
    let refusal = |target: Json| {
        let outcome = run("", "v1", "Binding", binding(target), None);
        assert!(outcome.errors.is_empty());
        outcome.refusal
    };
    assert_eq!(refusal(json!({"kind": "Node", "name": "valid-node-name"})), None);
    assert_eq!(refusal(json!({"name": "valid-node-name"})), None);
    assert_eq!(refusal(json!({"kind": "Node", "name": ""})).as_deref(), Some("target.name: Required value"));
    assert_eq!(
        refusal(json!({"kind": "Pod", "name": "x"})).as_deref(),
        Some("target.kind: Unsupported value: \"Pod\": supported values: \"Node\", \"<empty>\"")
    );
    assert_eq!(
        refusal(json!({"kind": "Node", "name": "INVALID-NODE-NAME"})).as_deref(),
        Some("target.name: Invalid value: \"INVALID-NODE-NAME\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')")
    );
    assert_eq!(
        refusal(json!({"kind": "Pod"})).as_deref(),
        Some("[target.kind: Unsupported value: \"Pod\": supported values: \"Node\", \"<empty>\", target.name: Required value]")
    );
}

fn pod_with(annotations: Json, pod_profile: Option<Json>, containers: Json) -> Json {
    let mut spec = json!({"containers": containers});
    if let Some(p) = pod_profile {
        spec["securityContext"] = json!({"appArmorProfile": p});
    }
    json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "default", "annotations": annotations}, "spec": spec})
}

/// pkg/registry/core/pod/strategy_test.go `TestApplyAppArmorVersionSkew`: a container's
/// annotation becomes its field unless it names the pod's profile or is invalid; both of those
/// warn but the pod's own profile (kube-apiserver v1.37.2 agrees: the `builtin` suite's
/// tests/oracle/cases/builtin/security-annotations.yaml).
#[test]
fn app_armor_annotations_sync_to_fields_on_create() {
    const KEY: &str = "container.apparmor.security.beta.kubernetes.io/";
    let warning = |c: &str| {
        alloc::format!(
            "metadata.annotations[{KEY}{c}]: deprecated since v1.30; use the \"appArmorProfile\" field instead"
        )
    };
    let pod = pod_with(
        json!({"container.apparmor.security.beta.kubernetes.io/a": "localhost/prof",
               "container.apparmor.security.beta.kubernetes.io/b": "runtime/default",
               "container.apparmor.security.beta.kubernetes.io/c": "localhost/"}),
        Some(json!({"type": "RuntimeDefault"})),
        json!([{"name": "a", "image": "x:1"}, {"name": "b", "image": "x:1"}, {"name": "c", "image": "x:1"}]),
    );
    let out = run("", "v1", "Pod", pod, None);
    let cs = &out.object["spec"]["containers"];
    assert_eq!(cs[0]["securityContext"]["appArmorProfile"], json!({"type": "Localhost", "localhostProfile": "prof"}));
    assert!(cs[1].get("securityContext").is_none(), "the pod's own profile is not copied");
    assert!(cs[2].get("securityContext").is_none(), "an invalid annotation is not copied");
    assert_eq!(out.prepare_warnings, [warning("a"), warning("c")]);
    // Windows pods are left alone.
    let mut windows = pod_with(
        json!({"container.apparmor.security.beta.kubernetes.io/a": "unconfined"}),
        None,
        json!([{"name": "a", "image": "x:1"}]),
    );
    windows["spec"]["os"] = json!({"name": "windows"});
    assert!(run("", "v1", "Pod", windows, None).prepare_warnings.is_empty());
}

/// pkg/apis/core/validation/validation_test.go `TestValidateSeccompAnnotationsAndFieldsMatch`
/// and the AppArmor match on create: an annotation and its field must agree (an AppArmor
/// annotation without its field became the field in `PrepareForCreate`, so agrees).
#[test]
fn seccomp_and_app_armor_annotations_must_match_their_fields() {
    let mut pod = pod_with(
        json!({"seccomp.security.alpha.kubernetes.io/pod": "unconfined",
               "container.seccomp.security.alpha.kubernetes.io/a": "localhost/other.json",
               "container.apparmor.security.beta.kubernetes.io/a": "runtime/default"}),
        Some(json!({"type": "Unconfined"})),
        json!([{"name": "a", "image": "x:1", "securityContext": {
            "seccompProfile": {"type": "Localhost", "localhostProfile": "p.json"},
            "appArmorProfile": {"type": "Unconfined"}}}]),
    );
    pod["spec"]["securityContext"]["seccompProfile"] = json!({"type": "RuntimeDefault"});
    assert_eq!(
        errors("Pod", pod),
        [
            "spec.securityContext.seccompProfile.type: Forbidden: seccomp type in annotation and field must match",
            "spec.containers[0].securityContext.seccompProfile.localhostProfile: Forbidden: seccomp profile in annotation and field must match",
            "spec.containers[0].securityContext.appArmorProfile.type: Forbidden: apparmor type in annotation and field must match",
        ]
    );
}
