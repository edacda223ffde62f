//! Cases from Kubernetes' `pkg/apis/resource/validation/validation_*_test.go`, run through the
//! whole path ([`crate::apis::admit`]: defaulting, strategy, validation). The expected errors
//! are Go's, less the ones the API server leaves to the declarative rules (covered) and less
//! metadata, which is checked elsewhere.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{json, Value as Json};

use crate::apis::{admit, Request};

const GROUP: &str = "resource.k8s.io";
const BAD_NAME: &str = "!@#$%^";
const LABEL_MSG: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const SUBDOMAIN_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const REF_MSG: &str =
    "must be the name of a request in the claim or the name of a request and a subrequest separated by '/'";

/// Sets `pointer` (`/spec/devices/0/name`) in `v`, creating objects on the way (an index of
/// an array names an existing item, or appends one); `null` removes it.
fn set(v: &mut Json, pointer: &str, value: Json) {
    let keys: Vec<&str> = pointer.split('/').skip(1).collect();
    let mut at = v;
    for (i, key) in keys.iter().enumerate() {
        let last = i + 1 == keys.len();
        match at {
            Json::Array(items) => {
                let Ok(n) = key.parse::<usize>() else { return };
                if n >= items.len() {
                    items.push(json!({}));
                }
                let n = n.min(items.len() - 1);
                if last {
                    items[n] = value;
                    return;
                }
                at = &mut items[n];
            }
            Json::Object(map) => {
                if last {
                    if value.is_null() {
                        map.remove(*key);
                    } else {
                        map.insert(String::from(*key), value);
                    }
                    return;
                }
                at = map.entry(String::from(*key)).or_insert_with(|| json!({}));
            }
            _ => return,
        }
    }
}

/// The error texts and warnings of a create (`old` `None`) or update in `version`.
fn answer(version: &str, kind: &str, object: &Json, old: Option<&Json>) -> (Vec<String>, Vec<String>) {
    let request = Request { group: GROUP, version, kind, object, old, minor: 37 };
    admit(&request).map_or_else(Default::default, |o| (o.errors.iter().map(|e| e.text()).collect(), o.warnings))
}

fn texts(version: &str, kind: &str, object: &Json, old: Option<&Json>) -> Vec<String> {
    answer(version, kind, object, old).0
}

/// A case: the changes to the valid base object (JSON pointer, value), and the errors expected.
type Case<'a> = (&'a [(&'a str, Json)], &'a [&'a str]);

fn check(kind: &str, base: fn() -> Json, cases: &[Case<'_>]) {
    assert_eq!(texts("v1", kind, &base(), None), Vec::<String>::new(), "{kind}: the base object is valid");
    for (mutations, want) in cases {
        let mut object = base();
        for (pointer, value) in mutations.iter() {
            set(&mut object, pointer, value.clone());
        }
        assert_eq!(texts("v1", kind, &object, None), *want, "{kind}: {mutations:?}");
    }
}

fn opaque() -> Json {
    json!({"opaque": {"driver": "dra.example.com", "parameters": {"kind": "foo", "apiVersion": "dra.example.com/v1"}}})
}

fn class() -> Json {
    json!({"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "foo"},
           "spec": {"selectors": [{"cel": {"expression": "device.driver == \"dra.example.com\""}}],
                    "config": [opaque()]}})
}

// TestValidateClass: selectors, too-many-selectors, configuration, too-many-configs.
#[test]
fn device_class_create() {
    let valid = json!({"cel": {"expression": "true"}});
    let mut selectors = alloc::vec![valid.clone(), json!({}), json!({"cel": {"expression": "noSuchVar"}})];
    while selectors.len() < 32 {
        selectors.push(valid.clone());
    }
    let too_many: Vec<Json> = (0..33).map(|_| valid.clone()).collect();
    let configs: Vec<Json> = (0..33).map(|_| opaque()).collect();
    let big = "x".repeat(10 * 1024);
    check(
        "DeviceClass",
        class,
        &[
            (
                &[("/spec/selectors", Json::Array(selectors))],
                &[
                    "spec.selectors[1].cel: Required value",
                    "spec.selectors[2].cel.expression: Invalid value: \"noSuchVar\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'noSuchVar' (in container '')\n | noSuchVar\n | ^",
                ],
            ),
            // The size is the declarative rules' (sizeCovered); the items are not checked.
            (&[("/spec/selectors", Json::Array(too_many))], &[]),
            (
                &[(
                    "/spec/config",
                    json!([
                        {"opaque": {"driver": "dra.example.com", "parameters": {"a": 1}}},
                        {"opaque": {}},
                        {"opaque": {"driver": "dra.example.com", "parameters": [1]}},
                        {"opaque": {"driver": "dra.example.com"}},
                        {},
                        {"opaque": {"driver": "dra.example.com", "parameters": {"a": big}}},
                    ]),
                )],
                &[
                    "spec.config[1].opaque.driver: Required value",
                    "spec.config[1].opaque.parameters: Required value",
                    "spec.config[2].opaque.parameters: Invalid value: \"<value omitted>\": must be a valid JSON object",
                    "spec.config[3].opaque.parameters: Required value",
                    "spec.config[4].opaque: Required value",
                    "spec.config[5].opaque.parameters: Too long: may not be more than 10240 bytes",
                ],
            ),
            (&[("/spec/config", Json::Array(configs))], &["spec.config: Too many: 33: must have at most 32 items"]),
            // A new expression that does not yield a bool.
            (
                &[("/spec/selectors", json!([{"cel": {"expression": "device.driver"}}]))],
                &["spec.selectors[0].cel.expression: Invalid value: \"device.driver\": must evaluate to bool or the unknown type, not string"],
            ),
        ],
    );
}

// TestValidateClassUpdate: too-large-config-valid-if-stored, invalid-config-too-large, and a
// stored selector that is not judged again.
#[test]
fn device_class_update() {
    let big = json!([{"opaque": {"driver": "dra.example.com", "parameters": {"a": "x".repeat(10 * 1024)}}}]);
    let mut old = class();
    set(&mut old, "/spec/config", big.clone());
    let mut new = old.clone();
    set(&mut new, "/metadata/labels", json!({"a": "b"}));
    assert_eq!(texts("v1", "DeviceClass", &new, Some(&old)), Vec::<String>::new());
    let mut new = class();
    set(&mut new, "/spec/config", big);
    assert_eq!(
        texts("v1", "DeviceClass", &new, Some(&class())),
        ["spec.config[0].opaque.parameters: Too long: may not be more than 10240 bytes"]
    );
    // The generation is bumped when the spec changes.
    let request =
        Request { group: GROUP, version: "v1", kind: "DeviceClass", object: &new, old: Some(&class()), minor: 37 };
    let out = admit(&request).unwrap();
    assert_eq!(out.object["metadata"]["generation"], json!(2));
}

fn claim() -> Json {
    json!({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
           "metadata": {"name": "foo", "namespace": "kube-system"},
           "spec": {"devices": {"requests": [{"name": "req-0", "exactly": {"deviceClassName": "foo",
                "selectors": [{"cel": {"expression": "device.driver == \"dra.example.com\""}}]}}]}}})
}

fn first_available() -> Json {
    json!([{"name": "foo", "deviceClassName": "foo"}, {"name": "bar", "deviceClassName": "foo"}])
}

// TestValidateClaim.
#[test]
fn resource_claim_create() {
    let bad_constraints = json!([
        {"requests": ["req-0", BAD_NAME], "matchAttribute": "dra.example.com/model"},
        {},
    ]);
    let bad_config = json!([{"requests": ["req-0", BAD_NAME], "opaque": opaque()["opaque"]}]);
    let req = |name: &str, x: Json| json!({"name": name, "exactly": x});
    check(
        "ResourceClaim",
        claim,
        &[
            // bad-classname, missing-classname.
            (
                &[("/spec/devices/requests/0/exactly/deviceClassName", json!(BAD_NAME))],
                &[&format!("spec.devices.requests[0].exactly.deviceClassName: Invalid value: \"{BAD_NAME}\": {SUBDOMAIN_MSG}")],
            ),
            (
                &[("/spec/devices/requests/0/exactly/deviceClassName", json!(""))],
                &["spec.devices.requests[0].exactly.deviceClassName: Required value"],
            ),
            // invalid-spec (the malformed attribute names are the declarative rules').
            (
                &[("/spec/devices/constraints", bad_constraints), ("/spec/devices/config", bad_config)],
                &[
                    &format!("spec.devices.constraints[0].requests[1]: Invalid value: \"{BAD_NAME}\": {LABEL_MSG}"),
                    &format!("spec.devices.constraints[0].requests[1]: Invalid value: \"{BAD_NAME}\": {REF_MSG}"),
                    "spec.devices.constraints[1]: Required value: exactly one of \"matchAttribute\" or \"distinctAttribute\" is required, but multiple fields are set",
                    &format!("spec.devices.config[0].requests[1]: Invalid value: \"{BAD_NAME}\": {LABEL_MSG}"),
                    &format!("spec.devices.config[0].requests[1]: Invalid value: \"{BAD_NAME}\": {REF_MSG}"),
                ],
            ),
            // allocation-mode (the duplicate name is the declarative rules').
            (
                &[(
                    "/spec/devices/requests",
                    json!([
                        req("foo", json!({"deviceClassName": "foo"})),
                        req("foo2", json!({"deviceClassName": "foo", "allocationMode": "All"})),
                        req("foo3", json!({"deviceClassName": "foo", "count": -1})),
                        req("foo4", json!({"deviceClassName": "foo", "allocationMode": "other"})),
                        req("foo5", json!({"deviceClassName": "foo", "allocationMode": "All", "count": 2})),
                    ]),
                )],
                &[
                    "spec.devices.requests[2].exactly.count: Invalid value: -1: must be greater than zero",
                    "spec.devices.requests[3].exactly.allocationMode: Unsupported value: \"other\": supported values: \"All\", \"ExactCount\"",
                    "spec.devices.requests[4].exactly.count: Invalid value: 2: must not be specified when allocationMode is 'All'",
                ],
            ),
            // prioritized-list-both-first-available-and-exactly-set.
            (
                &[("/spec/devices/requests/0/firstAvailable", first_available())],
                &["spec.devices.requests[0]: Invalid value: null: exactly one of `exactly` or `firstAvailable` is required, but multiple fields are set"],
            ),
            // Neither.
            (
                &[("/spec/devices/requests/0/exactly", Json::Null)],
                &["spec.devices.requests[0]: Required value: exactly one of `exactly` or `firstAvailable` is required"],
            ),
            // prioritized-list-invalid-nested-request.
            (
                &[
                    ("/spec/devices/requests/0/exactly", Json::Null),
                    ("/spec/devices/requests/0/firstAvailable", json!([{"name": BAD_NAME, "deviceClassName": "foo"}])),
                ],
                &[&format!("spec.devices.requests[0].firstAvailable[0].name: Invalid value: \"{BAD_NAME}\": {LABEL_MSG}")],
            ),
            // prioritized-list-config-requests-with-invalid-subrequest-reference.
            (
                &[
                    ("/spec/devices/requests/0/exactly", Json::Null),
                    ("/spec/devices/requests/0/firstAvailable", first_available()),
                    ("/spec/devices/config", json!([{"requests": ["req-0/foo", "req-0/baz"], "opaque": opaque()["opaque"]}])),
                ],
                &[&format!("spec.devices.config[0].requests[1]: Invalid value: \"req-0/baz\": {REF_MSG}")],
            ),
            // A reference with two slashes.
            (
                &[("/spec/devices/constraints", json!([{"requests": ["a/b/c"], "matchAttribute": "dra.example.com/model"}]))],
                &["spec.devices.constraints[0].requests[0]: Invalid value: \"a/b/c\": must be the name of a request in the claim or the name of a request and a subrequest separated by '/'"],
            ),
            // tolerations (an empty operator is defaulted to Equal; the key's format, the
            // operator's and the effect's values are the declarative rules').
            (
                &[(
                    "/spec/devices/requests/0/exactly/tolerations",
                    json!([
                        {"operator": "Exists"},
                        {"key": "example.com/taint", "operator": "Exists", "effect": "NoExecute"},
                        {"key": "example.com/taint", "operator": "Equal", "value": "tainted", "effect": "NoSchedule"},
                        {"key": "foo", "operator": "Exists", "value": "x"},
                        {"key": BAD_NAME, "operator": "Equal", "value": BAD_NAME, "effect": "some-other-effect"},
                        {"key": "foo", "operator": "some-other-op"},
                    ]),
                )],
                &[
                    "spec.devices.requests[0].exactly.tolerations[3].value: Invalid value: \"x\": must be empty for operator `Exists`",
                    "spec.devices.requests[0].exactly.tolerations[4].value: Invalid value: \"!@#$%^\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
                ],
            ),
            // A selector's CEL is compiled.
            (
                &[("/spec/devices/requests/0/exactly/selectors/0/cel/expression", json!("noSuchVar"))],
                &["spec.devices.requests[0].exactly.selectors[0].cel.expression: Invalid value: \"noSuchVar\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'noSuchVar' (in container '')\n | noSuchVar\n | ^"],
            ),
            // derivedAttributes are dropped (DRADerivedAttributes is off): not validated.
            (&[("/spec/devices/requests/0/exactly/derivedAttributes", json!([{"name": "x", "expression": "1 +"}]))], &[]),
        ],
    );
}

// AuthorizedForAdmin (pkg/registry/resource/utils_test.go): no namespace label, no admin access.
#[test]
fn resource_claim_admin_access() {
    let mut object = claim();
    set(&mut object, "/spec/devices/requests/0/exactly/adminAccess", json!(true));
    assert_eq!(
        texts("v1", "ResourceClaim", &object, None),
        ["spec.devices.requests[0].adminAccess: Forbidden: admin access to devices requires the `resource.kubernetes.io/admin-access: true` label on the containing namespace"]
    );
}

// The defaults (SetDefaults_ExactDeviceRequest, SetDefaults_DeviceSubRequest), the status reset
// of PrepareForCreate, and v1beta1's conversion: its inline fields are validated under `exactly`.
#[test]
fn resource_claim_defaults_and_v1beta1() {
    let mut object = claim();
    set(&mut object, "/status", json!({"allocation": {}}));
    set(&mut object, "/spec/devices/requests/0/exactly/tolerations", json!([{"key": "a"}]));
    let request = Request { group: GROUP, version: "v1", kind: "ResourceClaim", object: &object, old: None, minor: 37 };
    let out = admit(&request).unwrap();
    let x = &out.object["spec"]["devices"]["requests"][0]["exactly"];
    assert_eq!(
        (&x["allocationMode"], &x["count"], &x["tolerations"][0]["operator"]),
        (&json!("ExactCount"), &json!(1), &json!("Equal"))
    );
    assert_eq!(out.object["status"], json!({}));

    let beta = json!({"apiVersion": "resource.k8s.io/v1beta1", "kind": "ResourceClaim",
        "metadata": {"name": "foo", "namespace": "default"},
        "spec": {"devices": {"requests": [{"name": "gpu", "deviceClassName": "gpu.example.com", "count": -1}]}}});
    assert_eq!(
        texts("v1beta1", "ResourceClaim", &beta, None),
        ["spec.devices.requests[0].exactly.count: Invalid value: -1: must be greater than zero"]
    );
    let request =
        Request { group: GROUP, version: "v1beta1", kind: "ResourceClaim", object: &beta, old: None, minor: 37 };
    let out = admit(&request).unwrap();
    assert_eq!(out.object["spec"]["devices"]["requests"][0]["allocationMode"], json!("ExactCount"));
    assert!(out.object["spec"]["devices"]["requests"][0].get("exactly").is_none());
}

fn template() -> Json {
    json!({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaimTemplate",
           "metadata": {"name": "foo", "namespace": "default"},
           "spec": {"metadata": {"labels": {"app": "x"}}, "spec": claim()["spec"].clone()}})
}

// TestValidateClaimTemplate.
#[test]
fn resource_claim_template_create() {
    check(
        "ResourceClaimTemplate",
        template,
        &[
            (
                &[("/spec/spec/devices/requests/0/exactly/deviceClassName", json!(""))],
                &["spec.spec.devices.requests[0].exactly.deviceClassName: Required value"],
            ),
            // ValidateTemplateObjectMeta: no name, bad labels.
            (
                &[("/spec/metadata/name", json!("x")), ("/spec/metadata/labels", json!({"a": BAD_NAME}))],
                &[
                    "spec.metadata.labels: Invalid value: \"!@#$%^\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
                    "spec.metadata.name: Forbidden: cannot be set",
                ],
            ),
        ],
    );
}

// TestValidateClaimTemplateUpdate: the spec is immutable.
#[test]
fn resource_claim_template_update() {
    let old = template();
    let mut same = template();
    set(&mut same, "/metadata/labels", json!({"a": "b"}));
    assert_eq!(texts("v1", "ResourceClaimTemplate", &same, Some(&old)), Vec::<String>::new());
    let mut new = template();
    set(&mut new, "/spec/spec/devices/requests/0/exactly/count", json!(2));
    let errors = texts("v1", "ResourceClaimTemplate", &new, Some(&old));
    assert_eq!(errors.len(), 1);
    assert!(errors[0].starts_with("spec: Invalid value: {\"labels\":{\"app\":\"x\"},\"Spec\":{\"Devices\":{\"Requests\":[{\"Name\":\"req-0\",\"Exactly\":{\"DeviceClassName\":\"foo\""), "{errors:?}");
    assert!(errors[0].ends_with("field is immutable"), "{errors:?}");
}

fn slice() -> Json {
    json!({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": "foo"},
           "spec": {"driver": "dra.example.com", "nodeName": "worker",
                    "pool": {"name": "pool", "resourceSliceCount": 1, "generation": 1},
                    "devices": [{"name": "device-0",
                                 "attributes": {"model": {"string": "a100"}, "dra.example.com/version": {"version": "1.2.3"}},
                                 "capacity": {"memory": {"value": "40Gi"}}}]}})
}

// TestValidateResourceSlice.
#[test]
fn resource_slice_create() {
    let long = "x".repeat(65);
    check(
        "ResourceSlice",
        slice,
        &[
            // bad-pool, bad-resourceslicecount, bad-generation.
            (
                &[("/spec/pool/resourceSliceCount", json!(0)), ("/spec/pool/generation", json!(-1))],
                &[
                    "spec.pool.resourceSliceCount: Invalid value: 0: must be greater than zero",
                    "spec.pool.generation: Invalid value: -1: must be greater than or equal to zero",
                ],
            ),
            // no-node-selection.
            (
                &[("/spec/nodeName", Json::Null)],
                &["spec: Required value: exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required"],
            ),
            // multiple-node-selection, bad allNodes.
            (
                &[("/spec/allNodes", json!(true)), ("/spec/perDeviceNodeSelection", json!(false))],
                &[
                    "spec.perDeviceNodeSelection: Invalid value: false: must be either unset or set to true",
                    "spec: Invalid value: \"{`nodeName`, `allNodes`}\": exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required, but multiple fields are set",
                ],
            ),
            (
                &[("/spec/nodeName", json!(""))],
                &[
                    "spec.nodeName: Invalid value: \"\": must be either unset or set to a non-empty string",
                    "spec: Required value: exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required",
                ],
            ),
            // bad-node-selector: more than one term.
            (
                &[
                    ("/spec/nodeName", Json::Null),
                    (
                        "/spec/nodeSelector",
                        json!({"nodeSelectorTerms": [
                            {"matchExpressions": [{"key": "a", "operator": "Exists"}]},
                            {"matchExpressions": [{"key": "b", "operator": "Exists"}]}]}),
                    ),
                ],
                &["spec.nodeSelector.nodeSelectorTerms: Invalid value: [{\"MatchExpressions\":[{\"Key\":\"a\",\"Operator\":\"Exists\",\"Values\":null}],\"MatchFields\":null},{\"MatchExpressions\":[{\"Key\":\"b\",\"Operator\":\"Exists\",\"Values\":null}],\"MatchFields\":null}]: must have exactly one node selector term"],
            ),
            // bad-devices: a device name, a duplicate.
            (
                &[("/spec/devices/0/name", json!(BAD_NAME))],
                &[&format!("spec.devices[0].name: Invalid value: \"{BAD_NAME}\": {LABEL_MSG}")],
            ),
            (
                &[("/spec/devices/1", json!({"name": "device-0"}))],
                &["spec.devices[1]: Duplicate value: \"device-0\""],
            ),
            // bad-attribute: a C identifier, a domain, a version, a long string.
            (
                &[(
                    "/spec/devices/0/attributes",
                    json!({"a-b": {"bool": true}, "/x": {"int": 1}, "v": {"version": "1.2"}, "s": {"string": long}}),
                )],
                &[
                    "spec.devices[0].attributes: Invalid value: \"\": the domain must not be empty",
                    "spec.devices[0].attributes: Invalid value: \"a-b\": a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName', regex used for validation is '[A-Za-z_][A-Za-z0-9_]*')",
                    "spec.devices[0].attributes[s].string: Too long: may not be more than 64 bytes",
                    "spec.devices[0].attributes[v].version: Invalid value: \"1.2\": must be a string compatible with semver.org spec 2.0.0",
                ],
            ),
            // per-device node selection not allowed.
            (
                &[("/spec/devices/0/nodeName", json!("worker"))],
                &["spec.devices[0]: Invalid value: null: `nodeName`, `nodeSelector` and `allNodes` can only be set if `perDeviceNodeSelection` is set to true in the ResourceSlice spec"],
            ),
            (
                &[("/spec/nodeName", Json::Null), ("/spec/perDeviceNodeSelection", json!(true))],
                &["spec.devices[0]: Required value: exactly one of `nodeName`, `nodeSelector`, or `allNodes` is required when `perDeviceNodeSelection` is set to true in the ResourceSlice spec"],
            ),
            // taints.
            (
                &[("/spec/devices/0/taints", json!([{"key": "example.com/taint", "value": BAD_NAME, "effect": "NoSchedule"}, {"key": "a", "effect": "Other"}]))],
                &[
                    "spec.devices[0].taints[0].value: Invalid value: \"!@#$%^\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
                ],
            ),
            // binding conditions.
            (
                &[("/spec/devices/0/bindingConditions", json!(["a", "a"]))],
                &[
                    "spec.devices[0].bindingConditions[1]: Duplicate value: \"a\"",
                    "spec.devices[0].bindingFailureConditions: Invalid value: null: bindingFailureConditions are required to use bindingConditions",
                ],
            ),
            (
                &[("/spec/devices/0/bindingConditions", json!(["a"])), ("/spec/devices/0/bindingFailureConditions", json!(["a"]))],
                &["spec.devices[0].bindingFailureConditions[0]: Invalid value: \"a\": bindingFailureConditions must not overlap with bindingConditions"],
            ),
            // both sharedCounters and devices.
            (
                &[("/spec/sharedCounters", json!([{"name": "set", "counters": {"mem": {"value": "1"}}}]))],
                &["spec: Invalid value: \"\": only one of `sharedCounters` or `devices` is allowed"],
            ),
        ],
    );
}

// TestValidateResourceSlice: a capacity's request policy (validation_device_capacity_test.go).
#[test]
fn resource_slice_capacity_policy() {
    let policy = |p: Json| json!({"memory": {"value": "10", "requestPolicy": p}});
    check(
        "ResourceSlice",
        slice,
        &[
            (
                &[("/spec/devices/0/capacity", policy(json!({"default": "1", "validValues": ["1"]})))],
                &["spec.devices[0].capacity[memory].requestPolicy: Forbidden: allowMultipleAllocations must be true"],
            ),
            (
                &[
                    ("/spec/devices/0/allowMultipleAllocations", json!(true)),
                    ("/spec/devices/0/capacity", policy(json!({"default": "5", "validValues": ["2", "1", "20"]}))),
                ],
                &[
                    "spec.devices[0].capacity[memory].requestPolicy.validValues[1]: Invalid value: \"1\": values must be sorted in ascending order",
                    "spec.devices[0].capacity[memory].requestPolicy.validValues[2]: Invalid value: \"20\": option is larger than capacity value: 10",
                    "spec.devices[0].capacity[memory].requestPolicy.validValues: Invalid value: \"5\": default value is not valid according to the requestPolicy",
                ],
            ),
            (
                &[
                    ("/spec/devices/0/allowMultipleAllocations", json!(true)),
                    ("/spec/devices/0/capacity", policy(json!({"validValues": ["1"]}))),
                ],
                &["spec.devices[0].capacity[memory].requestPolicy.default: Required value: required when validValues is defined"],
            ),
            (
                &[
                    ("/spec/devices/0/allowMultipleAllocations", json!(true)),
                    ("/spec/devices/0/capacity", policy(json!({"default": "3", "validRange": {"min": "2", "max": "8", "step": "4"}}))),
                ],
                &[
                    "spec.devices[0].capacity[memory].requestPolicy.validRange.step: Invalid value: \"3\": value is not a multiple of a given step (4) from (2)",
                    "spec.devices[0].capacity[memory].requestPolicy.validRange.step: Invalid value: \"8\": value is not a multiple of a given step (4) from (2)",
                ],
            ),
            (
                &[
                    ("/spec/devices/0/allowMultipleAllocations", json!(true)),
                    ("/spec/devices/0/capacity", policy(json!({"default": "1", "validRange": {"min": "12"}}))),
                ],
                &[
                    "spec.devices[0].capacity[memory].requestPolicy.validRange.min: Invalid value: \"12\": min is larger than capacity value: 10",
                    "spec.devices[0].capacity[memory].requestPolicy.validRange.default: Invalid value: \"1\": default is less than min: 12",
                ],
            ),
        ],
    );
}

// validation_device_capacity_test.go with DRAFractionalCapacityRange in effect off (as the API
// server of 1.37 runs): a fractional default is read as an integer (`Value()` rounds up).
#[test]
fn resource_slice_capacity_integer_path() {
    let mut object = slice();
    set(&mut object, "/spec/devices/0/allowMultipleAllocations", json!(true));
    set(
        &mut object,
        "/spec/devices/0/capacity",
        json!({"a": {"value": "10", "requestPolicy": {"default": "300m", "validRange": {"min": "0", "step": "1"}}},
               "b": {"value": "10", "requestPolicy": {"default": "1", "validValues": ["1", "1000m"]}}}),
    );
    assert_eq!(
        texts("v1", "ResourceSlice", &object, None),
        ["spec.devices[0].capacity[b].requestPolicy.validValues[1]: Duplicate value: \"1\""]
    );
}

// TestValidateResourceSliceUpdate: driver, pool name and node name are immutable; a warning
// for an uppercase driver name (WarningsOnCreate).
#[test]
fn resource_slice_update() {
    let old = slice();
    let mut new = slice();
    set(&mut new, "/spec/driver", json!("other.example.com"));
    set(&mut new, "/spec/pool/name", json!("other"));
    set(&mut new, "/spec/nodeName", json!("worker-2"));
    assert_eq!(
        texts("v1", "ResourceSlice", &new, Some(&old)),
        [
            "spec.pool.name: Invalid value: \"other\": field is immutable",
            "spec.driver: Invalid value: \"other.example.com\": field is immutable",
            "spec.nodeName: Invalid value: \"worker-2\": field is immutable",
        ]
    );
    let mut upper = slice();
    set(&mut upper, "/spec/driver", json!("DRA.example.com"));
    let (_, warnings) = answer("v1", "ResourceSlice", &upper, None);
    assert_eq!(
        warnings,
        ["spec.driver: driver names should be lowercase; \"DRA.example.com\" contains uppercase characters"]
    );
}

fn taint_rule() -> Json {
    json!({"apiVersion": "resource.k8s.io/v1", "kind": "DeviceTaintRule", "metadata": {"name": "foo"},
           "spec": {"deviceSelector": {"driver": "dra.example.com", "pool": "pool", "device": "dev-0"},
                    "taint": {"key": "example.com/taint", "value": "tainted", "effect": "NoExecute"}}})
}

// TestValidateDeviceTaintRule.
#[test]
fn device_taint_rule_create() {
    check(
        "DeviceTaintRule",
        taint_rule,
        &[
            (
                &[("/spec/deviceSelector/device", json!(BAD_NAME)), ("/spec/deviceSelector/pool", json!("a/B"))],
                &[
                    "spec.deviceSelector.pool: Invalid value: \"B\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
                    &format!("spec.deviceSelector.device: Invalid value: \"{BAD_NAME}\": {LABEL_MSG}"),
                ],
            ),
            (
                &[("/spec/taint/key", json!("")), ("/spec/taint/value", json!(BAD_NAME))],
                &[
                    "spec.taint.key: Invalid value: \"\": name part must be non-empty",
                    "spec.taint.key: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
                    "spec.taint.value: Invalid value: \"!@#$%^\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
                ],
            ),
            // The effect's value is the declarative rules'.
            (&[("/spec/taint/effect", json!("Other"))], &[]),
        ],
    );
}

// TestValidateDeviceTaintRuleUpdate: an unchanged bad effect is not judged again.
#[test]
fn device_taint_rule_update() {
    let mut old = taint_rule();
    set(&mut old, "/spec/taint/effect", json!("Other"));
    let mut new = old.clone();
    set(&mut new, "/spec/taint/value", json!("changed"));
    assert_eq!(texts("v1", "DeviceTaintRule", &new, Some(&old)), Vec::<String>::new());
}

// TestValidateResourceSlice with v1beta1's `basic` devices (Convert_v1beta1_Device_To_resource_Device):
// the errors name the internal paths, and the covered checks (a taint's effect, the counter
// consumptions, the binding conditions' count) are left to the declarative rules.
#[test]
fn resource_slice_v1beta1() {
    let object = json!({"apiVersion": "resource.k8s.io/v1beta1", "kind": "ResourceSlice", "metadata": {"name": "foo"},
        "spec": {"driver": "dra.example.com", "pool": {"name": "p", "resourceSliceCount": 1}, "nodeName": "", "allNodes": false,
                 "devices": [{"name": "d0", "basic": {
                     "attributes": {"bad-name": {"string": "x"}},
                     "taints": [{"key": "k", "effect": "Nope"}],
                     "consumesCounters": [{"counterSet": "Bad_Set", "counters": {}}],
                     "bindingConditions": ["a", "b", "c", "d", "e"], "bindingFailureConditions": ["f"]}}]}});
    assert_eq!(
        texts("v1beta1", "ResourceSlice", &object, None),
        [
            "spec: Required value: exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required",
            "spec.devices[0].attributes: Invalid value: \"bad-name\": a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName', regex used for validation is '[A-Za-z_][A-Za-z0-9_]*')",
        ]
    );
    let request =
        Request { group: GROUP, version: "v1beta1", kind: "ResourceSlice", object: &object, old: None, minor: 37 };
    let out = admit(&request).unwrap();
    assert_eq!(out.object["spec"]["devices"][0]["basic"]["taints"][0]["effect"], json!("Nope"));
    assert_eq!(out.object["metadata"]["generation"], json!(1));
}

// The strategy's dropDisabledFields: fields of gates off in 1.37 (DRAListTypeAttributes,
// DRANodeAllocatableResources, DRAPartitionableDevicesType, DRAOptionalNodeOperations) are
// dropped on create, kept when the old object uses them.
#[test]
fn resource_slice_drop_disabled_fields() {
    let mut object = slice();
    set(&mut object, "/spec/devices/0/attributes/list", json!({"strings": []}));
    set(&mut object, "/spec/skipNodeOperations", json!(["NodePrepareResources"]));
    set(&mut object, "/spec/partitionTypeAttribute", json!("dra.example.com/type"));
    assert_eq!(texts("v1", "ResourceSlice", &object, None), Vec::<String>::new());
    let request = Request { group: GROUP, version: "v1", kind: "ResourceSlice", object: &object, old: None, minor: 37 };
    let out = admit(&request).unwrap();
    assert!(out.object["spec"].get("skipNodeOperations").is_none());
    assert!(out.object["spec"].get("partitionTypeAttribute").is_none());
    assert_eq!(out.object["spec"]["devices"][0]["attributes"]["list"], json!({}));
}

// TestValidateClaim: derived attributes and the prioritized list's references, with the
// subrequest names (requestNames.Has).
#[test]
fn resource_claim_first_available_references() {
    let mut object = claim();
    set(&mut object, "/spec/devices/requests/0/exactly", Json::Null);
    set(&mut object, "/spec/devices/requests/0/firstAvailable", first_available());
    set(
        &mut object,
        "/spec/devices/constraints",
        json!([{"requests": ["req-0/foo", "req-0", "req-0/bar/baz"], "matchAttribute": "dra.example.com/model"}]),
    );
    set(&mut object, "/spec/devices/config", json!([{"requests": ["req-0/bar"], "opaque": opaque()["opaque"]}]));
    assert_eq!(
        texts("v1", "ResourceClaim", &object, None),
        [format!("spec.devices.constraints[0].requests[2]: Invalid value: \"req-0/bar/baz\": {REF_MSG}")]
    );
}

// TestValidateClaim (derived-attributes, CEL output types): a selector must yield a bool.
#[test]
fn cel_selector_output() {
    for (expression, want) in [
        ("device.driver == \"a\"", None),
        ("device.attributes[\"dra.example.com\"].model", None),
        ("device.allowMultipleAllocations", None),
        ("1", Some("must evaluate to bool or the unknown type, not int")),
        ("dyn(1)", Some("must evaluate to bool or the unknown type, not dyn")),
    ] {
        let mut object = class();
        set(&mut object, "/spec/selectors/0/cel/expression", json!(expression));
        let want: Vec<String> = want
            .map(|w| {
                format!("spec.selectors[0].cel.expression: Invalid value: {}: {w}", crate::field::go_quote(expression))
            })
            .into_iter()
            .collect();
        assert_eq!(texts("v1", "DeviceClass", &object, None), want, "{expression}");
    }
}

// validation.go `ResourceNormalizationRules`, as `ErrorMatcher.normalizePath` applies them
// (the first rule that changes the path, at every match).
#[test]
fn declarative_fields_normalized_to_the_internal_layout() {
    let n = super::normalized_field;
    assert_eq!(
        n("spec.devices.requests[0].allocationMode").as_deref(),
        Some("spec.devices.requests[0].exactly.allocationMode")
    );
    assert_eq!(
        n("spec.spec.devices.requests[12].tolerations[1].key").as_deref(),
        Some("spec.spec.devices.requests[12].exactly.tolerations[1].key")
    );
    assert_eq!(n("spec.devices[3].basic.attributes[a]").as_deref(), Some("spec.devices[3].attributes[a]"));
    // Already internal, or not a request field: unchanged.
    assert_eq!(n("spec.devices.requests[0].exactly.allocationMode"), None);
    assert_eq!(n("spec.devices.requests[0].name"), None);
    assert_eq!(n("spec.devices.requests[x].count"), None);
    assert_eq!(n("metadata.name"), None);
}
