//! Real k8s.io/api 1.37 `types.go` files against Kubernetes' declarative validation tests of
//! the kinds `real_api.rs` does not cover: core/v1 Service, networking ServiceCIDR, scheduling
//! CompositePodGroup and the Scale subresources. Sources: kubernetes
//! `test/declarative_validation/<group>/<resource>/declarative_validation_test.go` (Service
//! @2148b5f8, ServiceCIDR @1504ae9c, CompositePodGroup @13702b4a, apps/scale @4dabaebe,
//! autoscaling/scale @224556cb) with their `apiVersions`, and the shared ObjectMeta cases of
//! `test/declarative_validation/meta/objectmeta.go` @0ccb2d85 that the declarative rules give
//! (apimachinery 1.37's ObjectMeta tags: `generation` minimum, the system fields immutable).

use std::path::{Path, PathBuf};

use crate::common::harness::{self, run, run_at, Case};
use serde_json::{json, Value};

fn api() -> PathBuf {
    std::env::var_os("KUBEDV_K8S_API")
        .map_or_else(|| Path::new("../tests/corpus/k8s-api/1.37").to_path_buf(), PathBuf::from)
}

fn with(base: &Value, f: impl Fn(&mut Value)) -> Value {
    let mut o = base.clone();
    f(&mut o);
    o
}

/// The ObjectMeta cases that the declarative rules decide, on `base`.
fn object_meta_cases(base: &Value) -> Vec<Case> {
    let updated = |key: &'static str, old: Value, new: Value| {
        let (mut o, mut n) = (base.clone(), base.clone());
        o["metadata"][key] = old;
        n["metadata"][key] = new;
        (n, o)
    };
    let (uid_new, uid_old) = updated("uid", json!("a-uid"), json!("b-uid"));
    let (created_new, created_old) =
        updated("creationTimestamp", json!("2026-01-01T00:00:00Z"), json!("2026-02-01T00:00:00Z"));
    let (grace_new, grace_old) = updated("deletionGracePeriodSeconds", json!(30), json!(10));
    vec![
        Case { what: "valid", object: base.clone(), old: None, want: &[] },
        Case {
            what: "negative generation",
            object: with(base, |o| o["metadata"]["generation"] = json!(-1)),
            old: None,
            want: &["Invalid metadata.generation minimum"],
        },
        Case { what: "update: unchanged", object: base.clone(), old: Some(base.clone()), want: &[] },
        Case { what: "update: uid", object: uid_new, old: Some(uid_old), want: &["Invalid metadata.uid immutable"] },
        Case {
            what: "update: creationTimestamp",
            object: created_new,
            old: Some(created_old),
            want: &["Invalid metadata.creationTimestamp immutable"],
        },
        Case {
            what: "update: deletionGracePeriodSeconds",
            object: grace_new,
            old: Some(grace_old),
            want: &["Invalid metadata.deletionGracePeriodSeconds immutable"],
        },
    ]
}

#[test]
fn service_and_service_cidr_metadata() {
    let service = json!({"metadata": {"name": "valid-obj", "namespace": "default"},
        "spec": {"type": "ClusterIP", "sessionAffinity": "None", "internalTrafficPolicy": "Cluster",
            "ports": [{"name": "http", "protocol": "TCP", "port": 80, "targetPort": 8080}]}});
    let cidr = json!({"metadata": {"name": "valid-obj"}, "spec": {"cidrs": ["10.0.0.0/24"]}});
    let mut failures = run(&api(), "core/v1", "Service", object_meta_cases(&service));
    failures.extend(run(&api(), "networking/v1,v1beta1", "ServiceCIDR", object_meta_cases(&cidr)));
    assert!(failures.is_empty(), "{} failed:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn scale_subresources() {
    let scale =
        json!({"metadata": {"name": "abc", "namespace": "default", "resourceVersion": "1"}, "spec": {"replicas": 1}});
    let replicas = |n: i64| with(&scale, |o| o["spec"]["replicas"] = json!(n));
    let cases = || {
        vec![
            Case { what: "replicas 0", object: replicas(0), old: Some(scale.clone()), want: &[] },
            Case { what: "replicas 100", object: replicas(100), old: Some(scale.clone()), want: &[] },
            Case {
                what: "replicas -1",
                object: replicas(-1),
                old: Some(scale.clone()),
                want: &["Invalid spec.replicas minimum"],
            },
        ]
    };
    // Scale is the `/scale` subresource of its resources (`+k8s:isSubresource="/scale"`, read
    // from the comment block above its doc comment as validation-gen's targets.go reads it).
    let mut failures = run_at(&api(), "apps/v1beta1,v1beta2", "Scale", Some("/scale"), cases());
    failures.extend(run_at(&api(), "autoscaling/v1", "Scale", Some("/scale"), cases()));
    assert!(failures.is_empty(), "{} failed:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn composite_pod_group() {
    let cpg = json!({"metadata": {"name": "cpg", "namespace": "ns", "resourceVersion": "1"},
        "spec": {"workloadRef": {"workloadName": "workload", "templateName": "template"},
            "schedulingPolicy": {"basic": {}}}});
    let spec = |f: &dyn Fn(&mut Value)| with(&cpg, |o| f(&mut o["spec"]));
    let create = |what, object, want| Case { what, object, old: None, want };
    let update = |what, old: Value, object, want| Case { what, object, old: Some(old), want };
    let cases = vec![
        create("valid", cpg.clone(), &[][..]),
        create(
            "invalid parent name",
            spec(&|s| s["parentCompositePodGroupName"] = json!("invalid/name")),
            &["Invalid spec.parentCompositePodGroupName format=k8s-long-name"],
        ),
        create(
            "priority over the maximum",
            spec(&|s| s["priority"] = json!(1_000_000_001)),
            &["Invalid spec.priority maximum"],
        ),
        create(
            "invalid priority class name",
            spec(&|s| s["priorityClassName"] = json!("invalid/name")),
            &["Invalid spec.priorityClassName format=k8s-long-name"],
        ),
        create("no policy", spec(&|s| s["schedulingPolicy"] = json!({})), &["Invalid spec.schedulingPolicy union"]),
        create(
            "gang minGroupCount 0",
            spec(&|s| s["schedulingPolicy"] = json!({"gang": {"minGroupCount": 0}})),
            &["Required spec.schedulingPolicy.gang.minGroupCount -"],
        ),
        create(
            "gang minGroupCount -1",
            spec(&|s| s["schedulingPolicy"] = json!({"gang": {"minGroupCount": -1}})),
            &["Invalid spec.schedulingPolicy.gang.minGroupCount minimum"],
        ),
        create("no workloadRef", spec(&|s| s["workloadRef"] = Value::Null), &["Required spec.workloadRef -"]),
        create(
            "empty templateName",
            spec(&|s| s["workloadRef"]["templateName"] = json!("")),
            &["Required spec.workloadRef.templateName -"],
        ),
        create(
            "empty workloadName",
            spec(&|s| s["workloadRef"]["workloadName"] = json!("")),
            &["Required spec.workloadRef.workloadName -"],
        ),
        create(
            "invalid templateName",
            spec(&|s| s["workloadRef"]["templateName"] = json!("invalid/template")),
            &["Invalid spec.workloadRef.templateName format=k8s-short-name"],
        ),
        create(
            "invalid workloadName",
            spec(&|s| s["workloadRef"]["workloadName"] = json!("invalid/workload")),
            &["Invalid spec.workloadRef.workloadName format=k8s-long-name"],
        ),
        update(
            "update: parent",
            spec(&|s| s["parentCompositePodGroupName"] = json!("parent1")),
            spec(&|s| s["parentCompositePodGroupName"] = json!("parent2")),
            &["Invalid spec.parentCompositePodGroupName immutable"],
        ),
        update(
            "update: priority",
            spec(&|s| s["priority"] = json!(100)),
            spec(&|s| s["priority"] = json!(200)),
            &["Invalid spec.priority immutable"],
        ),
        update(
            "update: priorityClassName",
            spec(&|s| s["priorityClassName"] = json!("low-priority")),
            spec(&|s| s["priorityClassName"] = json!("high-priority")),
            &["Invalid spec.priorityClassName immutable"],
        ),
        update(
            "update: workloadRef cleared",
            cpg.clone(),
            spec(&|s| s["workloadRef"] = Value::Null),
            // Kubernetes lists them the other way round; its matcher ignores order. Both are
            // short-circuiting validators of one group, and the generated code runs immutable
            // first (code-generator v0.37.0-beta.0 validators/immutable.go, and the output
            // test "subfield immutable runs before inherited required").
            &["Invalid spec.workloadRef immutable", "Required spec.workloadRef -"],
        ),
        update(
            "update: templateName",
            cpg.clone(),
            spec(&|s| s["workloadRef"]["templateName"] = json!("other-template")),
            &["Invalid spec.workloadRef immutable"],
        ),
        update(
            "update: workloadName",
            cpg.clone(),
            spec(&|s| s["workloadRef"]["workloadName"] = json!("other-workload")),
            &["Invalid spec.workloadRef immutable"],
        ),
    ];
    let failures = run(&api(), "scheduling/v1alpha3", "CompositePodGroup", cases);
    assert!(failures.is_empty(), "{} failed:\n{}", failures.len(), failures.join("\n"));
}

/// resource.k8s.io v1beta1, which Kubernetes' ResourceClaim and ResourceSlice tests also
/// iterate over: the same cases in v1beta1's own shape (requests without `exactly`, devices
/// under `basic`). The errors are at v1beta1's paths; the API server's matcher maps them to
/// v1's with `ResourceNormalizationRules` (kubernetes `pkg/apis/resource/validation`), as the
/// shadow comparison here does (`shadow::normalization_rules`).
#[test]
fn resource_v1beta1_shapes() {
    let claim = json!({"metadata": {"name": "valid-claim", "namespace": "default"},
        "spec": {"devices": {"requests": [{"name": "req-0", "deviceClassName": "class", "allocationMode": "ExactCount", "count": 1}]}}});
    let request = |f: &dyn Fn(&mut Value)| with(&claim, |o| f(&mut o["spec"]["devices"]["requests"][0]));
    let mut failures = run(
        &api(),
        "resource/v1beta1",
        "ResourceClaim",
        vec![
            Case { what: "valid", object: claim.clone(), old: None, want: &[] },
            Case {
                what: "unsupported allocation mode",
                object: request(&|r| r["allocationMode"] = json!("InvalidMode")),
                old: None,
                want: &["NotSupported spec.devices.requests[0].allocationMode -"],
            },
            Case {
                what: "toleration key",
                object: request(&|r| {
                    r["tolerations"] = json!([{"key": "a/b/c", "operator": "Exists", "effect": "NoSchedule"}])
                }),
                old: None,
                want: &["Invalid spec.devices.requests[0].tolerations[0].key format=k8s-label-key"],
            },
        ],
    );
    let slice = json!({"metadata": {"name": "test-slice"}, "spec": {"driver": "test.driver.io", "nodeName": "test-node",
        "pool": {"name": "test-pool", "resourceSliceCount": 5, "generation": 1},
        "devices": [{"name": "device-1", "basic": {"taints": [{"key": "key1", "value": "value1", "effect": "NoSchedule"}]}}]}});
    let basic = |f: &dyn Fn(&mut Value)| with(&slice, |o| f(&mut o["spec"]["devices"][0]["basic"]));
    failures.extend(run(
        &api(),
        "resource/v1beta1",
        "ResourceSlice",
        vec![
            Case { what: "valid", object: slice.clone(), old: None, want: &[] },
            Case {
                what: "unsupported taint effect",
                object: basic(&|b| b["taints"][0]["effect"] = json!("Invalid")),
                old: None,
                want: &["NotSupported spec.devices[0].basic.taints[0].effect -"],
            },
            Case {
                what: "attribute with two values",
                object: basic(&|b| b["attributes"] = json!({"test.io/multiple": {"int": 123, "bool": true}})),
                old: None,
                want: &["Invalid spec.devices[0].basic.attributes[test.io/multiple] union"],
            },
        ],
    ));
    // ResourceClaimTemplate: the claim's spec inside the template's (`spec.spec`).
    let template = json!({"metadata": {"name": "t", "namespace": "default"}, "spec": {"spec": claim["spec"].clone()}});
    let template_request =
        |f: &dyn Fn(&mut Value)| with(&template, |o| f(&mut o["spec"]["spec"]["devices"]["requests"][0]));
    failures.extend(run(
        &api(),
        "resource/v1beta1",
        "ResourceClaimTemplate",
        vec![
            Case { what: "valid", object: template.clone(), old: None, want: &[] },
            Case {
                what: "unsupported toleration operator",
                object: template_request(&|r| {
                    r["tolerations"] = json!([{"key": "k", "operator": "Invalid", "effect": "NoSchedule"}])
                }),
                old: None,
                want: &["NotSupported spec.spec.devices.requests[0].tolerations[0].operator -"],
            },
        ],
    ));
    assert!(failures.is_empty(), "{} failed:\n{}", failures.len(), failures.join("\n"));
}

/// node.k8s.io v1alpha1, which Kubernetes' RuntimeClass test also iterates over: the handler
/// is `spec.runtimeHandler` there (its strategy maps it to `handler` with
/// `NodeNormalizationRules`).
#[test]
fn runtime_class_v1alpha1_shape() {
    let rc = json!({"metadata": {"name": "myrc"}, "spec": {"runtimeHandler": "runc"}});
    let handler = |h: &str| with(&rc, |o| o["spec"]["runtimeHandler"] = json!(h));
    let failures = run(
        &api(),
        "node/v1alpha1",
        "RuntimeClass",
        vec![
            Case { what: "valid handler", object: handler("test"), old: None, want: &[] },
            Case { what: "empty handler", object: handler(""), old: None, want: &["Required spec.runtimeHandler -"] },
            Case {
                what: "handler with special characters",
                object: handler("asasdasda&^%"),
                old: None,
                want: &["Invalid spec.runtimeHandler format=k8s-short-name"],
            },
            Case {
                what: "update: handler is immutable",
                object: handler("other"),
                old: Some(rc.clone()),
                want: &["Invalid spec.runtimeHandler immutable"],
            },
        ],
    );
    assert!(failures.is_empty(), "{} failed:\n{}", failures.len(), failures.join("\n"));
}

/// `+default` values are applied to the request and the stored object before validation, as the
/// API server decodes both (defaulter-gen's `SetObjectDefaults_PodGroup`). scheduling/v1beta1
/// PodGroupSpec.disruptionMode is `+default={"single": {}}`, `+k8s:optional`, `+k8s:immutable`:
/// an update whose request leaves it out keeps the stored default, so it is unchanged; validated
/// as written (`defaults: false`) the same update clears a required, immutable field.
#[test]
fn scheduling_v1beta1_pod_group_defaults() {
    use kubedv_core::builtin::Catalog;
    use kubedv_core::declarative::{Options, Schema};
    let main = std::fs::read_to_string(api().join("scheduling/v1beta1/types.go")).unwrap();
    let text = harness::catalog_text(37);
    let catalog = Catalog::parse(&text).unwrap();
    let schema = Schema::compile_with(&main, &catalog.dependencies_of_source(&main), 37);
    assert!(!schema.has_errors(), "{:#?}", schema.diagnostics);
    let id = schema.type_named("PodGroup").unwrap();
    let request = json!({"metadata": {"name": "pg"}, "spec": {}});
    let stored = json!({"metadata": {"name": "pg"}, "spec": {"disruptionMode": {"single": {}}}});
    let lines = |defaults: bool| -> Vec<String> {
        let options = Options { defaults, ..Options::default() };
        let report = schema.validate_update(id, &request, Some(&stored), &options);
        report.errors.iter().map(|e| e.to_string()).collect()
    };
    let applied = lines(true);
    let as_written = lines(false);
    // validation-gen makes the optional-with-default field required (required.go doOptional).
    for want in ["spec.disruptionMode: Required value", "spec.disruptionMode: Invalid value: null: field is immutable"]
    {
        assert!(as_written.iter().any(|l| l == want), "{want} not in {as_written:#?}");
    }
    let others: Vec<String> = as_written.into_iter().filter(|l| !l.starts_with("spec.disruptionMode:")).collect();
    assert!(applied.iter().all(|l| !l.contains("disruptionMode")), "{applied:#?}");
    assert_eq!(applied, others);
}
