//! Cases from Kubernetes' `pkg/apis/storage/validation/validation_test.go`,
//! `pkg/registry/storage/*/strategy_test.go` and `pkg/api/storage/util_test.go`, run through
//! the whole path ([`crate::apis::admit`]: defaulting, strategy, validation, warnings).

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{json, Value as Json};

use crate::apis::apps::tests::set;
use crate::apis::{admit, Outcome, Request};

fn run(kind: &str, object: &Json, old: Option<&Json>) -> Outcome {
    let request = Request { group: "storage.k8s.io", version: "v1", kind, object, old, minor: 37 };
    admit(&request).expect("a modeled kind")
}

/// The error texts of a create (`old` `None`) or update.
fn texts(kind: &str, object: &Json, old: Option<&Json>) -> Vec<String> {
    run(kind, object, old).errors.iter().map(|e| e.text()).collect()
}

/// A case: the changes to the valid base object (JSON pointer, value), and the errors expected.
type Case<'a> = (&'a [(&'a str, Json)], &'a [&'a str]);

fn check(kind: &str, base: fn() -> Json, cases: &[Case<'_>]) {
    assert_eq!(texts(kind, &base(), None), Vec::<String>::new(), "{kind}: the base object is valid");
    for (mutations, want) in cases {
        let mut object = base();
        for (pointer, value) in mutations.iter() {
            set(&mut object, pointer, value.clone());
        }
        assert_eq!(texts(kind, &object, None), *want, "{kind}: {mutations:?}");
    }
}

fn storage_class() -> Json {
    json!({"metadata": {"name": "foo"}, "provisioner": "kubernetes.io/foo-provisioner",
           "parameters": {"foo-parameter": "free/form/string"}, "reclaimPolicy": "Delete"})
}

const DNS_SUBDOMAIN: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

// TestValidateStorageClass, TestValidateVolumeBindingMode, TestValidateAllowedTopologies.
#[test]
fn storage_class_create() {
    check(
        "StorageClass",
        storage_class,
        &[
            (&[("/provisioner", json!(""))], &["provisioner: Required value"]),
            (
                &[("/provisioner", json!("invalid/../provisioner"))],
                &["provisioner: Invalid value: \"invalid/../provisioner\": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"],
            ),
            (&[("/parameters", json!({"": "value"}))], &["parameters: Invalid value: \"\": field can not be empty."]),
            (
                &[("/reclaimPolicy", json!("invalid"))],
                &["reclaimPolicy: Unsupported value: \"invalid\": supported values: \"Delete\", \"Retain\""],
            ),
            (&[("/reclaimPolicy", json!(""))], &[]),
            (
                &[("/volumeBindingMode", json!("invalid"))],
                &["volumeBindingMode: Unsupported value: \"invalid\": supported values: \"Immediate\", \"WaitForFirstConsumer\""],
            ),
            (
                &[("/allowedTopologies", json!([{"matchLabelExpressions": [{"key": "", "values": ["zone1"]}]}]))],
                &["allowedTopologies[0].matchLabelExpressions[0].key: Invalid value: \"\": name part must be non-empty", "allowedTopologies[0].matchLabelExpressions[0].key: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"],
            ),
            (
                &[("/allowedTopologies", json!([{"matchLabelExpressions": [{"key": "zone", "values": []}]}]))],
                &["allowedTopologies[0].matchLabelExpressions[0].values: Required value"],
            ),
            (
                &[("/allowedTopologies", json!([{"matchLabelExpressions": [
                    {"key": "zone", "values": ["zone1", "zone1"]}, {"key": "zone", "values": ["zone2"]}]}]))],
                &[
                    "allowedTopologies[0].matchLabelExpressions[0].values[1]: Duplicate value: \"zone1\"",
                    "allowedTopologies[0].matchLabelExpressions[1].key: Duplicate value: \"zone\"",
                ],
            ),
            (
                &[("/allowedTopologies", json!([
                    {"matchLabelExpressions": [{"key": "zone", "values": ["zone1"]}]},
                    {"matchLabelExpressions": [{"key": "zone", "values": ["zone1"]}]}]))],
                &["allowedTopologies[1].matchLabelExpressions: Duplicate value: \"\""],
            ),
            // An empty term equals the nil maps Go's list starts with.
            (&[("/allowedTopologies", json!([{}]))], &["allowedTopologies[0].matchLabelExpressions: Duplicate value: \"\""]),
        ],
    );
}

// TestValidateStorageClass: too many parameters, too large parameters.
#[test]
fn storage_class_parameters() {
    let mut many = serde_json::Map::new();
    for i in 0..513 {
        many.insert(alloc::format!("k{i}"), json!("v"));
    }
    let mut o = storage_class();
    set(&mut o, "/parameters", Json::Object(many));
    assert_eq!(texts("StorageClass", &o, None), ["parameters: Too long: may not be more than 512 bytes"]);
    let big = "x".repeat(256 * 1024);
    set(&mut o, "/parameters", json!({"k": big}));
    assert_eq!(texts("StorageClass", &o, None), ["parameters: Too long: may not be more than 262144 bytes"]);
}

// pkg/api/storage TestStorageClassWarnings.
#[test]
fn storage_class_warnings() {
    let mut o = storage_class();
    set(
        &mut o,
        "/allowedTopologies",
        json!([{"matchLabelExpressions": [{"key": "beta.kubernetes.io/arch", "values": ["amd64"]},
            {"key": "failure-domain.beta.kubernetes.io/zone", "values": ["z"]}]}]),
    );
    assert_eq!(
        run("StorageClass", &o, None).warnings,
        [
            "allowedTopologies[0].matchLabelExpressions[0].key: deprecated since v1.14; use \"kubernetes.io/arch\" instead",
            "allowedTopologies[0].matchLabelExpressions[1].key: deprecated since v1.17; use \"topology.kubernetes.io/zone\" instead",
        ]
    );
}

fn csi_driver() -> Json {
    json!({"metadata": {"name": "foo"}, "spec": {}})
}

// TestCSIDriverValidation (defaulted as the API server defaults v1).
#[test]
fn csi_driver_create() {
    check(
        "CSIDriver",
        csi_driver,
        &[
            (
                &[("/spec/fsGroupPolicy", json!("invalid-mode"))],
                &["spec.fsGroupPolicy: Unsupported value: \"invalid-mode\": supported values: \"File\", \"None\", \"ReadWriteOnceWithFSType\""],
            ),
            (
                &[("/spec/volumeLifecycleModes", json!(["no-such-mode"]))],
                &["spec.volumeLifecycleModes: Unsupported value: \"no-such-mode\": supported values: \"Persistent\", \"Ephemeral\""],
            ),
            (
                &[("/spec/tokenRequests", json!([{"audience": "a", "expirationSeconds": 10}, {"audience": "a"},
                    {"audience": "b", "expirationSeconds": 4294967297_i64}]))],
                &[
                    "spec.tokenRequests[0].expirationSeconds: Invalid value: 10: may not specify a duration less than 10 minutes",
                    "spec.tokenRequests[1].audience: Duplicate value: \"a\"",
                    "spec.tokenRequests[2].expirationSeconds: Invalid value: 4294967297: may not specify a duration larger than 2^32 seconds",
                ],
            ),
            (
                &[("/spec/nodeAllocatableUpdatePeriodSeconds", json!(9))],
                &["spec.nodeAllocatableUpdatePeriodSeconds: Invalid value: 9: must be greater than or equal to 10 seconds"],
            ),
            // TestCSIServiceAccountToken.
            (
                &[("/spec/serviceAccountTokenInSecrets", json!(true))],
                &["spec.serviceAccountTokenInSecrets: Invalid value: true: serviceAccountTokenInSecrets is set but no tokenRequests are specified"],
            ),
        ],
    );
}

// TestCSIDriverValidationUpdate, csidriver TestWarningsOnCreate / TestWarningsOnUpdate.
#[test]
fn csi_driver_update_and_warnings() {
    let old = csi_driver();
    let mut new = old.clone();
    set(&mut new, "/spec/attachRequired", json!(false));
    set(&mut new, "/spec/volumeLifecycleModes", json!(["Ephemeral"]));
    assert_eq!(
        texts("CSIDriver", &new, Some(&old)),
        [
            "spec.attachedRequired: Invalid value: false: field is immutable",
            "spec.volumeLifecycleModes: Invalid value: [\"Ephemeral\"]: field is immutable",
        ]
    );
    let mut tokens = csi_driver();
    set(&mut tokens, "/spec/tokenRequests", json!([{"audience": "a"}]));
    let warning = "spec.serviceAccountTokenInSecrets is unset; if supported by this CSI driver, set to true to prevent possible logging of tokens in volume attributes";
    assert_eq!(run("CSIDriver", &tokens, None).warnings, [warning]);
    // Unchanged token requests: no warning on update.
    assert!(run("CSIDriver", &tokens, Some(&tokens)).warnings.is_empty());
    set(&mut tokens, "/spec/serviceAccountTokenInSecrets", json!(true));
    assert!(run("CSIDriver", &tokens, None).warnings.is_empty());
}

const DRIVER: &str = "io.kubernetes.storage.csi.driver";

fn driver(changes: Json) -> Json {
    let mut d =
        json!({"name": DRIVER, "nodeID": "node", "topologyKeys": ["company.com/zone1"], "allocatable": {"count": 10}});
    for (k, v) in changes.as_object().into_iter().flatten() {
        set(&mut d, &alloc::format!("/{k}"), v.clone());
    }
    d
}

fn csi_node() -> Json {
    json!({"metadata": {"name": "foo"}, "spec": {"drivers": [driver(json!({}))]}})
}

// TestCSINodeValidation.
#[test]
fn csi_node_create() {
    let long = "n".repeat(257);
    check(
        "CSINode",
        csi_node,
        &[
            (&[("/spec/drivers", json!([driver(json!({"nodeID": ""}))]))], &["spec.drivers[0].nodeID: Required value"]),
            (
                &[("/spec/drivers", json!([driver(json!({"nodeID": long}))]))],
                &[&*alloc::format!("spec.drivers[0].nodeID: Invalid value: \"{long}\": must be 256 characters or less")],
            ),
            (
                &[("/spec/drivers", json!([driver(json!({"allocatable": {"count": -1}}))]))],
                &["spec.drivers[0].allocatable.count: Invalid value: -1: must be greater than or equal to 0"],
            ),
            (
                &[("/spec/drivers", json!([driver(json!({"topologyKeys": ["", "a", "a"]}))]))],
                &[
                    "spec.drivers[0]: Required value",
                    "spec.drivers[0]: Invalid value: \"\": name part must be non-empty",
                    "spec.drivers[0]: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
                    "spec.drivers[0]: Duplicate value: \"a\"",
                ],
            ),
            (
                &[("/spec/drivers", json!([driver(json!({})), driver(json!({}))]))],
                &["spec.drivers[1].name: Duplicate value: \"io.kubernetes.storage.csi.driver\""],
            ),
            (
                &[("/spec/drivers", json!([driver(json!({"name": "Bad_Driver"}))]))],
                &[&*alloc::format!("spec.drivers[0].name: Invalid value: \"Bad_Driver\": {DNS_SUBDOMAIN}")],
            ),
        ],
    );
}

// TestCSINodeUpdateValidation: a driver's allocatable may change (MutableCSINodeAllocatableCount),
// nothing else of it.
#[test]
fn csi_node_update() {
    let old = csi_node();
    let mut new = old.clone();
    set(&mut new, "/spec/drivers", json!([driver(json!({"allocatable": {"count": 20}}))]));
    assert!(texts("CSINode", &new, Some(&old)).is_empty());
    set(&mut new, "/spec/drivers", json!([driver(json!({"nodeID": "other"}))]));
    assert_eq!(
        texts("CSINode", &new, Some(&old)),
        ["spec.drivers: Invalid value: {\"Name\":\"io.kubernetes.storage.csi.driver\",\"NodeID\":\"other\",\"TopologyKeys\":[\"company.com/zone1\"],\"Allocatable\":null}: field is immutable"]
    );
}

fn volume_attachment() -> Json {
    json!({"metadata": {"name": "foo"}, "spec": {"attacher": "myattacher", "nodeName": "mynode",
           "source": {"persistentVolumeName": "foo"}}})
}

// TestVolumeAttachmentValidation, volumeattachment TestCreatePreventsStatusWrite.
#[test]
fn volume_attachment_create() {
    check(
        "VolumeAttachment",
        volume_attachment,
        &[
            // Covered by the declarative +k8s:required of attacher: no handwritten error.
            (&[("/spec/attacher", json!(""))], &[]),
            (
                &[("/spec/source", json!({}))],
                &["spec.source: Required value: must specify exactly one of inlineVolumeSpec and persistentVolumeName"],
            ),
            (
                &[("/spec/source/inlineVolumeSpec", json!({"csi": {"driver": "d", "volumeHandle": "h"}}))],
                &["spec.source: Forbidden: must specify exactly one of inlineVolumeSpec and persistentVolumeName"],
            ),
            (
                &[("/spec/source/persistentVolumeName", json!(""))],
                &[
                    "spec.source.persistentVolumeName: Required value: must specify non empty persistentVolumeName",
                    &*alloc::format!("spec.source.persistentVolumeName: Invalid value: \"\": {DNS_SUBDOMAIN}"),
                ],
            ),
            (
                &[("/spec/nodeName", json!("Node_1"))],
                &[&*alloc::format!("spec.nodeName: Invalid value: \"Node_1\": {DNS_SUBDOMAIN}")],
            ),
            // The status is reset on create.
            (&[("/status", json!({"attachError": {"message": "x".repeat(2000), "errorCode": -1}}))], &[]),
        ],
    );
}

fn csi_storage_capacity() -> Json {
    json!({"metadata": {"name": "foo", "namespace": "default"}, "storageClassName": "bar",
           "nodeTopology": {"matchLabels": {"zone": "a"}}, "capacity": "1Gi"})
}

// TestValidateCSIStorageCapacity, csistoragecapacity TestCSIStorageCapacityValidation.
#[test]
fn csi_storage_capacity_create_and_update() {
    check(
        "CSIStorageCapacity",
        csi_storage_capacity,
        &[
            (
                &[("/storageClassName", json!(""))],
                &[&*alloc::format!("storageClassName: Invalid value: \"\": {DNS_SUBDOMAIN}")],
            ),
            (&[("/capacity", json!("-1"))], &["capacity: Invalid value: \"-1\": must be greater than or equal to 0"]),
            (
                &[("/nodeTopology", json!({"matchExpressions": [{"key": "zone", "operator": "Maybe"}]}))],
                &["nodeTopology.matchExpressions[0].operator: Invalid value: \"Maybe\": not a valid selector operator"],
            ),
        ],
    );
    let old = csi_storage_capacity();
    let mut new = old.clone();
    set(&mut new, "/storageClassName", json!("baz"));
    set(&mut new, "/nodeTopology", json!({"matchLabels": {"zone": "b"}}));
    assert_eq!(
        texts("CSIStorageCapacity", &new, Some(&old)),
        [
            "nodeTopology: Invalid value: {\"matchLabels\":{\"zone\":\"b\"}}: field is immutable",
            "storageClassName: Invalid value: \"baz\": field is immutable",
        ]
    );
    // An invalid label value in an old selector may stay.
    let mut bad = csi_storage_capacity();
    set(&mut bad, "/nodeTopology", json!({"matchExpressions": [{"key": "zone", "operator": "In", "values": ["a b"]}]}));
    assert_eq!(texts("CSIStorageCapacity", &bad, None).len(), 1);
    assert!(texts("CSIStorageCapacity", &bad, Some(&bad)).is_empty());
}

fn volume_attributes_class() -> Json {
    json!({"metadata": {"name": "foo"}, "driverName": "foo", "parameters": {"foo-parameter": "bar"}})
}

// TestValidateVolumeAttributesClass, TestValidateVolumeAttributesClassUpdate.
#[test]
fn volume_attributes_class_create_and_update() {
    check(
        "VolumeAttributesClass",
        volume_attributes_class,
        &[
            (&[("/driverName", json!(""))], &["driverName: Required value"]),
            (&[("/parameters", Json::Null)], &["parameters: Required value: must contain at least one key/value pair"]),
            (&[("/parameters", json!({"": "x"}))], &["parameters: Invalid value: \"\": field can not be empty."]),
        ],
    );
    let old = volume_attributes_class();
    let mut new = old.clone();
    set(&mut new, "/driverName", json!("bar"));
    set(&mut new, "/parameters", json!({"foo-parameter": "baz"}));
    assert_eq!(
        texts("VolumeAttributesClass", &new, Some(&old)),
        [
            "driverName: Forbidden: updates to driverName are forbidden.",
            "parameters: Forbidden: updates to parameters are forbidden."
        ]
    );
}

// SetDefaults_StorageClass, SetDefaults_CSIDriver.
#[test]
fn defaults() {
    let o = run("StorageClass", &json!({"metadata": {"name": "a"}, "provisioner": "p"}), None).object;
    assert_eq!((&o["reclaimPolicy"], &o["volumeBindingMode"]), (&json!("Delete"), &json!("Immediate")));
    let d = run("CSIDriver", &csi_driver(), None).object;
    assert_eq!(
        d["spec"],
        json!({"attachRequired": true, "podInfoOnMount": false, "storageCapacity": false,
               "fsGroupPolicy": "ReadWriteOnceWithFSType", "volumeLifecycleModes": ["Persistent"],
               "requiresRepublish": false, "seLinuxMount": false, "preventPodSchedulingIfMissing": false})
    );
}

// TestVolumeAttachmentValidation: an inline volume spec (ValidatePersistentVolumeSpec with
// validateInlinePersistentVolumeSpec).
#[test]
fn volume_attachment_inline() {
    let mut o = volume_attachment();
    set(
        &mut o,
        "/spec/source",
        json!({"inlineVolumeSpec": {"accessModes": ["ReadWriteOnce"], "csi": {"driver": "d", "volumeHandle": "h"}}}),
    );
    assert!(texts("VolumeAttachment", &o, None).is_empty());
    set(&mut o, "/spec/source/inlineVolumeSpec/capacity", json!({"storage": "1Gi"}));
    set(&mut o, "/spec/source/inlineVolumeSpec/persistentVolumeReclaimPolicy", json!("Delete"));
    set(&mut o, "/spec/source/inlineVolumeSpec/volumeMode", json!("Block"));
    assert_eq!(
        texts("VolumeAttachment", &o, None),
        [
            "spec.source.inlineVolumeSpec.capacity: Forbidden: may not be specified in the context of inline volumes",
            "spec.source.inlineVolumeSpec.persistentVolumeReclaimPolicy: Forbidden: may only be Retain in the context of inline volumes",
            "spec.source.inlineVolumeSpec.volumeMode: Forbidden: may not specify volumeMode other than Filesystem in the context of inline volumes",
        ]
    );
    set(
        &mut o,
        "/spec/source/inlineVolumeSpec",
        json!({"accessModes": ["ReadWriteOnce"], "nfs": {"server": "s", "path": "/p"}}),
    );
    assert_eq!(
        texts("VolumeAttachment", &o, None),
        ["spec.source.inlineVolumeSpec.csi: Required value: has to be specified in the context of inline volumes"]
    );
}
