//! Real k8s.io/api `types.go` files, unmodified, against the cases Kubernetes' own tests expect.
//!
//! The files are not kept in this repository (they are another project's source): point
//! `KUBEDV_K8S_API` at a checkout of k8s.io/api (the directory holding `core/v1/types.go`), at
//! the release the expectations name (v0.37.0-beta.0 here), and run
//! `cargo test -p kubedv-core --test real_api -- --nocapture`. Without it the test says so and
//! checks nothing. Each case compares what Kubernetes' equivalence harness compares (error type,
//! field, origin; `pkg/api/testing/validation.go`, `ErrorMatcher{}.ByType().ByOrigin().ByField`),
//! with the expectation's source: kubernetes `pkg/registry/<group>/<resource>/declarative_validation_test.go`.

use kubedv_core::declarative::{Dependency, Options, Schema};
use serde_json::{json, Value};

struct Case {
    what: &'static str,
    object: Value,
    old: Option<Value>,
    /// `type field origin`, in order.
    want: &'static [&'static str],
}

fn run(api: &std::path::Path, package: &str, root: &str, cases: Vec<Case>) -> Vec<String> {
    let read = |p: &str| std::fs::read_to_string(api.join(p).join("types.go")).expect("types.go");
    let main = read(package);
    let core = read("core/v1");
    let deps = [Dependency { import_path: "k8s.io/api/core/v1", label: "core/v1/types.go", text: &core }];
    let schema = Schema::compile_with(&main, if package == "core/v1" { &[] } else { &deps }, 37);
    assert!(!schema.has_errors(), "{package}: {:#?}", schema.diagnostics);
    let id = schema.type_named(root).expect("root type");
    let mut failures = Vec::new();
    for c in cases {
        let report = schema.validate_request(id, &c.object, c.old.as_ref(), None, &Options::default());
        let got: Vec<String> = report
            .errors
            .iter()
            .map(|e| format!("{:?} {} {}", e.kind, e.field, if e.origin.is_empty() { "-" } else { e.origin.as_str() }))
            .collect();
        if got != c.want {
            failures.push(format!("{package} {root}: {}\n  got:  {got:?}\n  want: {:?}", c.what, c.want));
        }
    }
    failures
}

fn many(n: usize, f: impl Fn(usize) -> Value) -> Value {
    Value::Array((0..n).map(f).collect())
}

#[test]
fn real_types_give_kubernetes_errors() {
    let Some(api) = std::env::var_os("KUBEDV_K8S_API") else {
        eprintln!("KUBEDV_K8S_API is not set: the real k8s.io/api corpus was not checked");
        return;
    };
    let api = std::path::PathBuf::from(api);
    let mut failures = Vec::new();

    // pkg/registry/resource/resourceclaim/declarative_validation_test.go (e00f05aa).
    let claim = json!({"metadata": {"name": "valid-claim", "namespace": "default"},
        "spec": {"devices": {"requests": [{"name": "req-0",
            "exactly": {"deviceClassName": "class", "allocationMode": "ExactCount", "count": 1}}]}}});
    let with = |f: &dyn Fn(&mut Value)| {
        let mut o = claim.clone();
        f(&mut o);
        o
    };
    failures.extend(run(
        &api,
        "resource/v1",
        "ResourceClaim",
        vec![
            Case { what: "valid", object: claim.clone(), old: None, want: &[] },
            Case {
                what: "33 requests",
                object: with(&|o| {
                    o["spec"]["devices"]["requests"] = many(33, |i| {
                        json!({"name": format!("r{i}"),
                "exactly": {"deviceClassName": "class", "allocationMode": "ExactCount", "count": 1}})
                    })
                }),
                old: None,
                want: &["TooMany spec.devices.requests maxItems"],
            },
            Case {
                what: "duplicate request name",
                object: with(&|o| {
                    let r = o["spec"]["devices"]["requests"][0].clone();
                    o["spec"]["devices"]["requests"].as_array_mut().unwrap().push(r);
                }),
                old: None,
                want: &["Duplicate spec.devices.requests[1] -"],
            },
            Case {
                what: "unsupported allocation mode",
                object: with(&|o| {
                    o["spec"]["devices"]["requests"][0]["exactly"]["allocationMode"] = json!("InvalidMode")
                }),
                old: None,
                want: &["NotSupported spec.devices.requests[0].exactly.allocationMode -"],
            },
            Case {
                what: "config driver not a caseless long name",
                object: with(&|o| {
                    o["spec"]["devices"]["config"] =
                        json!([{"opaque": {"driver": "dra_example.com", "parameters": {}}}])
                }),
                old: None,
                want: &["Invalid spec.devices.config[0].opaque.driver format=k8s-long-name-caseless"],
            },
            Case {
                what: "toleration key",
                object: with(&|o| {
                    o["spec"]["devices"]["requests"][0]["exactly"]["tolerations"] =
                        json!([{"key": "a/b/c", "operator": "Exists", "effect": "NoSchedule"}])
                }),
                old: None,
                want: &["Invalid spec.devices.requests[0].exactly.tolerations[0].key format=k8s-label-key"],
            },
            Case {
                what: "matchAttribute without a domain",
                object: with(&|o| {
                    o["spec"]["devices"]["constraints"] = json!([{"requests": ["req-0"], "matchAttribute": "nodomain"}])
                }),
                old: None,
                want: &["Invalid spec.devices.constraints[0].matchAttribute format=k8s-resource-fully-qualified-name"],
            },
            Case {
                what: "update: spec is immutable, and stops the rest",
                object: with(&|o| {
                    o["spec"]["devices"]["requests"] = many(33, |i| {
                        json!({"name": format!("r{i}"),
                "exactly": {"deviceClassName": "class", "allocationMode": "ExactCount", "count": 1}})
                    })
                }),
                old: Some(claim.clone()),
                want: &["Invalid spec immutable"],
            },
        ],
    ));

    // pkg/registry/resource/deviceclass/declarative_validation_test.go (d8f8b468).
    let class = json!({"metadata": {"name": "test-class"}, "spec": {"extendedResourceName": "example.com/my-resource",
        "selectors": [{"cel": {"expression": "device.driver == \"test.driver.io\""}}],
        "config": [{"opaque": {"driver": "test.driver.io", "parameters": {"key": "value"}}}]}});
    let mut sel33 = class.clone();
    sel33["spec"]["selectors"] = many(33, |_| json!({"cel": {"expression": "true"}}));
    let mut ext = class.clone();
    ext["spec"]["extendedResourceName"] = json!("kubernetes.io/foo");
    failures.extend(run(
        &api,
        "resource/v1",
        "DeviceClass",
        vec![
            Case { what: "valid", object: class.clone(), old: None, want: &[] },
            Case { what: "33 selectors", object: sel33.clone(), old: None, want: &["TooMany spec.selectors maxItems"] },
            Case {
                what: "reserved domain",
                object: ext,
                old: None,
                want: &["Invalid spec.extendedResourceName format=k8s-extended-resource-name"],
            },
            Case { what: "update keeping 33 selectors ratchets", object: sel33.clone(), old: Some(sel33), want: &[] },
        ],
    ));

    // pkg/registry/storage/volumeattachment/declarative_validation_test.go (b81c0c40).
    let va = json!({"metadata": {"name": "va"}, "spec": {"attacher": "example.com",
        "source": {"persistentVolumeName": "pv-001"}, "nodeName": "node-1"}});
    let attacher = |a: &str| {
        let mut o = va.clone();
        o["spec"]["attacher"] = json!(a);
        o
    };
    failures.extend(run(
        &api,
        "storage/v1",
        "VolumeAttachment",
        vec![
            Case { what: "valid", object: va.clone(), old: None, want: &[] },
            Case { what: "empty attacher", object: attacher(""), old: None, want: &["Required spec.attacher -"] },
            Case {
                what: "bad attacher",
                object: attacher("asdadasd&@!"),
                old: None,
                want: &["Invalid spec.attacher format=k8s-long-name-caseless"],
            },
            Case {
                what: "long attacher",
                object: attacher(&"a".repeat(64)),
                old: None,
                want: &["TooLong spec.attacher maxLength"],
            },
            Case { what: "upper case attacher", object: attacher("AAAAAAAA"), old: None, want: &[] },
            Case {
                what: "update: spec is immutable",
                object: attacher("different.com"),
                old: Some(va.clone()),
                want: &["Invalid spec immutable"],
            },
        ],
    ));

    // pkg/registry/networking/ipaddress/declarative_validation_test.go (4d3d9fa0).
    let ip = json!({"metadata": {"name": "192.168.1.1"}, "spec": {"parentRef": {"group": "apps", "resource": "deployments", "name": "my-deployment"}}});
    let ref_with = |k: &str, v: Value| {
        let mut o = ip.clone();
        o["spec"]["parentRef"][k] = v;
        o
    };
    let mut no_ref = ip.clone();
    no_ref["spec"]["parentRef"] = Value::Null;
    failures.extend(run(
        &api,
        "networking/v1",
        "IPAddress",
        vec![
            Case { what: "valid", object: ip.clone(), old: None, want: &[] },
            Case { what: "no parentRef", object: no_ref, old: None, want: &["Required spec.parentRef -"] },
            Case {
                what: "no resource",
                object: ref_with("resource", json!("")),
                old: None,
                want: &["Required spec.parentRef.resource -"],
            },
            Case {
                what: "update: parentRef is immutable",
                object: ref_with("name", json!("new-name")),
                old: Some(ip.clone()),
                want: &["Invalid spec.parentRef immutable"],
            },
        ],
    ));

    // pkg/registry/core/replicationcontroller/declarative_validation_test.go (008b3652).
    let rc = json!({"metadata": {"name": "abc", "namespace": "default"}, "spec": {"replicas": 1, "selector": {"a": "b"},
        "template": {"metadata": {"labels": {"a": "b"}}, "spec": {"containers": [{"name": "c", "image": "i"}]}}}});
    let rc_with = |f: &dyn Fn(&mut Value)| {
        let mut o = rc.clone();
        f(&mut o);
        o
    };
    failures.extend(run(
        &api,
        "core/v1",
        "ReplicationController",
        vec![
            Case { what: "valid", object: rc.clone(), old: None, want: &[] },
            Case {
                what: "name not a long name",
                object: rc_with(&|o| o["metadata"]["name"] = json!("-this-is-not-a-label")),
                old: None,
                want: &["Invalid metadata.name format=k8s-long-name"],
            },
            Case {
                what: "negative replicas",
                object: rc_with(&|o| o["spec"]["replicas"] = json!(-1)),
                old: None,
                want: &["Invalid spec.replicas minimum"],
            },
            Case {
                what: "negative minReadySeconds",
                object: rc_with(&|o| o["spec"]["minReadySeconds"] = json!(-1)),
                old: None,
                want: &["Invalid spec.minReadySeconds minimum"],
            },
        ],
    ));

    // pkg/registry/resource/resourceslice/declarative_validation_test.go (034debc1).
    let slice = json!({"metadata": {"name": "test-slice"}, "spec": {"driver": "test.driver.io", "nodeName": "test-node",
        "pool": {"name": "test-pool", "resourceSliceCount": 5, "generation": 1},
        "devices": [{"name": "device-1", "taints": [{"key": "key1", "value": "value1", "effect": "NoSchedule"}]}]}});
    let device = |f: &dyn Fn(&mut Value)| {
        let mut o = slice.clone();
        f(&mut o["spec"]["devices"][0]);
        o
    };
    failures.extend(run(
        &api,
        "resource/v1",
        "ResourceSlice",
        vec![
            Case { what: "valid", object: slice.clone(), old: None, want: &[] },
            Case {
                what: "unsupported taint effect",
                object: device(&|d| d["taints"][0]["effect"] = json!("Invalid")),
                old: None,
                want: &["NotSupported spec.devices[0].taints[0].effect -"],
            },
            Case {
                what: "empty taint effect",
                object: device(&|d| d["taints"][0]["effect"] = json!("")),
                old: None,
                want: &["Required spec.devices[0].taints[0].effect -"],
            },
            Case {
                what: "attribute with two values",
                object: device(&|d| d["attributes"] = json!({"test.io/multiple": {"int": 123, "bool": true}})),
                old: None,
                want: &["Invalid spec.devices[0].attributes[test.io/multiple] union"],
            },
            Case {
                what: "attribute with no value",
                object: device(&|d| d["attributes"] = json!({"test.io/multiple": {}})),
                old: None,
                want: &["Invalid spec.devices[0].attributes[test.io/multiple] union"],
            },
            Case {
                what: "five binding conditions",
                object: device(&|d| {
                    d["bindingConditions"] = json!(["a", "b", "c", "d", "e"]);
                    d["bindingFailureConditions"] = json!(["f"]);
                }),
                old: None,
                want: &["TooMany spec.devices[0].bindingConditions maxItems"],
            },
        ],
    ));

    // pkg/registry/storage/storageclass/declarative_validation_test.go (db8b216c).
    let class = json!({"metadata": {"name": "valid-storage-class"}, "provisioner": "kubernetes.io/gce-pd",
        "reclaimPolicy": "Delete", "volumeBindingMode": "Immediate"});
    let mut no_provisioner = class.clone();
    no_provisioner["provisioner"] = json!("");
    failures.extend(run(
        &api,
        "storage/v1",
        "StorageClass",
        vec![
            Case { what: "valid", object: class, old: None, want: &[] },
            Case { what: "no provisioner", object: no_provisioner, old: None, want: &["Required provisioner -"] },
        ],
    ));

    // pkg/registry/rbac/clusterrole/declarative_validation_test.go (ced035a7).
    let role = json!({"metadata": {"name": "test-role"}, "rules": [{"apiGroups": [""], "resources": ["pods"], "verbs": ["get", "list"]}]});
    let mut no_verbs = role.clone();
    no_verbs["rules"][0]["verbs"] = Value::Null;
    failures.extend(run(
        &api,
        "rbac/v1",
        "ClusterRole",
        vec![
            Case { what: "valid", object: role, old: None, want: &[] },
            Case { what: "a rule without verbs", object: no_verbs, old: None, want: &["Required rules[0].verbs -"] },
        ],
    ));

    assert!(failures.is_empty(), "{} failed:\n{}", failures.len(), failures.join("\n"));
}
