//! Real k8s.io/api `types.go` files, unmodified, against the cases Kubernetes' own tests expect.
//!
//! The files are the repository's corpus (`tests/corpus/k8s-api/1.N/`, every `types.go` with
//! validation tags, sources and licence in its SOURCES.md); the packages they import come from
//! the built-in catalog of the same commit (`catalog/1.N.gz`). `KUBEDV_K8S_API` pointed at
//! another checkout of k8s.io/api runs the cases against it instead. Each case compares what
//! Kubernetes' equivalence harness compares (error type, field, origin;
//! `pkg/api/testing/validation.go`, `ErrorMatcher{}.ByType().ByOrigin().ByField`), with the
//! expectation's source: kubernetes `pkg/registry/<group>/<resource>/declarative_validation_test.go`.

use std::io::Read;
use std::path::{Path, PathBuf};

use kubedv_core::builtin::{strip, Catalog};
use kubedv_core::declarative::{Options, Schema};
use serde_json::{json, Value};

const CORPUS: &str = "../tests/corpus/k8s-api";

/// The built-in catalog of Kubernetes 1.`minor`, decompressed.
fn catalog_text(minor: u32) -> String {
    let bytes = std::fs::read(format!("../catalog/1.{minor}.gz")).expect("catalog file");
    let mut text = String::new();
    flate2::read::GzDecoder::new(&bytes[..]).read_to_string(&mut text).expect("gzip");
    text
}

/// Every `types.go` under `dir`, as (import path, file).
fn corpus_files(dir: &Path) -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    for group in std::fs::read_dir(dir).unwrap().flatten().filter(|e| e.path().is_dir()) {
        for version in std::fs::read_dir(group.path()).unwrap().flatten() {
            let file = version.path().join("types.go");
            if file.is_file() {
                let rel = version.path().strip_prefix(dir).unwrap().to_string_lossy().replace('\\', "/");
                out.push((format!("k8s.io/api/{rel}"), file));
            }
        }
    }
    out.sort();
    out
}

struct Case {
    what: &'static str,
    object: Value,
    old: Option<Value>,
    /// `type field origin`, in order.
    want: &'static [&'static str],
}

fn run(api: &Path, package: &str, root: &str, cases: Vec<Case>) -> Vec<String> {
    let main = std::fs::read_to_string(api.join(package).join("types.go")).expect("types.go");
    let text = catalog_text(37);
    let catalog = Catalog::parse(&text).unwrap();
    let schema = Schema::compile_with(&main, &catalog.dependencies_of_source(&main), 37);
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

/// Every real tagged `types.go` of 1.36 (35 files) and 1.37 (51) compiles unmodified with no
/// error diagnostic, its imports answered by the catalog of its release.
#[test]
fn every_real_file_compiles_unmodified() {
    for minor in [36, 37] {
        let text = catalog_text(minor);
        let catalog = Catalog::parse(&text).unwrap();
        let files = corpus_files(&Path::new(CORPUS).join(format!("1.{minor}")));
        assert_eq!(files.len(), if minor == 36 { 35 } else { 51 });
        for (import, file) in files {
            let src = std::fs::read_to_string(&file).unwrap();
            let schema = Schema::compile_with(&src, &catalog.dependencies_of_source(&src), minor);
            let errors: Vec<String> =
                schema.diagnostics.iter().filter(|d| d.is_error()).map(ToString::to_string).collect();
            assert!(errors.is_empty(), "1.{minor} {import}: {errors:#?}");
            assert!(!schema.root_candidates().is_empty(), "1.{minor} {import}: no kinds");
        }
    }
}

/// The catalog is the real files with comment text stripped (what `cargo xtask catalog`
/// writes), and stripped and unmodified files compile to the same schema.
#[test]
fn the_catalog_is_the_real_files_stripped() {
    for minor in [36, 37] {
        let text = catalog_text(minor);
        let catalog = Catalog::parse(&text).unwrap();
        for (import, file) in corpus_files(&Path::new(CORPUS).join(format!("1.{minor}"))) {
            let src = std::fs::read_to_string(&file).unwrap();
            let package = catalog.get(&import).unwrap_or_else(|| panic!("1.{minor}: {import} not in the catalog"));
            assert!(package.source == strip(&src), "1.{minor} {import}: the catalog's source is not the file stripped");
            let deps = catalog.dependencies(package);
            assert_eq!(
                format!("{:?}", Schema::compile_with(&src, &deps, minor)),
                format!("{:?}", Schema::compile_with(package.source, &deps, minor)),
                "1.{minor} {import}"
            );
        }
    }
}

fn many(n: usize, f: impl Fn(usize) -> Value) -> Value {
    Value::Array((0..n).map(f).collect())
}

#[test]
fn real_types_give_kubernetes_errors() {
    let api = std::env::var_os("KUBEDV_K8S_API").map_or_else(|| Path::new(CORPUS).join("1.37"), PathBuf::from);
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
