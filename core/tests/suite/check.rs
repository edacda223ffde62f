//! `check`'s engine: the API lifecycle table, kube-aware version order, routing.
//! Sources: apiserver `pkg/endpoints/deprecation/deprecation.go` (`WarningMessage`; its test
//! `"mygroup/v1 MyKind is deprecated in v1.2+, unavailable in v3.4+; use anothergroup/v2
//! AnotherKind"`), k8s.io/api `policy/v1beta1/zz_generated.prerelease-lifecycle.go` (deprecated
//! 1.21, removed 1.25, replacement policy/v1), `core/v1/lifecycle.go` (Endpoints deprecated
//! 1.33 for discovery.k8s.io/v1 EndpointSlice), apimachinery `pkg/version/helpers_test.go`
//! (kube-aware order), apiextensions-apiserver `customresource_handler_test.go`
//! (`"example.com/v1 Widget is deprecated; use example.com/v2 Widget"`).

use kubedv_core::check::lifecycle::{self, Status};
use kubedv_core::check::{compare_kube_aware, Checker, FieldValidation, Status as Verdict};
use serde_json::json;

#[test]
fn lifecycle_follows_the_release() {
    let pdb = lifecycle::lookup("policy", "v1beta1", "PodDisruptionBudget").unwrap();
    assert_eq!(pdb.status(20), None);
    assert_eq!(
        pdb.status(24),
        Some(Status::Deprecated(
            "policy/v1beta1 PodDisruptionBudget is deprecated in v1.21+, unavailable in v1.25+; use policy/v1 PodDisruptionBudget".into()
        ))
    );
    assert!(matches!(pdb.status(25), Some(Status::Removed(_))));
    let endpoints = lifecycle::lookup("", "v1", "Endpoints").unwrap();
    assert_eq!(endpoints.status(32), None);
    assert_eq!(
        endpoints.status(33),
        Some(Status::Deprecated("v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice".into()))
    );
    assert!(lifecycle::lookup("apps", "v1", "Deployment").is_none());
    // Every kind the table was read with, each once per group and version.
    assert_eq!(lifecycle::APIS.len(), 107);
    for (i, a) in lifecycle::APIS.iter().enumerate() {
        assert!(
            lifecycle::APIS[..i].iter().all(|b| (b.group, b.version, b.kind) != (a.group, a.version, a.kind)),
            "{a:?}"
        );
    }
    let hpa = lifecycle::lookup("autoscaling", "v2beta2", "HorizontalPodAutoscaler").unwrap();
    assert_eq!((hpa.deprecated, hpa.removed), (Some(23), Some(26)));
}

#[test]
fn kube_aware_order() {
    // helpers_test.go's order, newest first.
    let order = ["v2", "v1", "v10beta3", "v2beta1", "v1beta2", "v1beta1", "v11alpha2", "v1alpha1", "foo1", "foo10"];
    for (i, a) in order.iter().enumerate() {
        for b in &order[i + 1..] {
            assert_eq!(compare_kube_aware(a, b), std::cmp::Ordering::Greater, "{a} > {b}");
        }
    }
}

fn widget_crd(deprecation_warning: Option<&str>) -> serde_json::Value {
    let schema = json!({"openAPIV3Schema": {"type": "object", "properties": {"spec": {"type": "object",
        "properties": {"size": {"type": "integer", "minimum": 1}}}}}});
    let mut v1 = json!({"name": "v1", "served": true, "storage": false, "deprecated": true, "schema": schema});
    if let Some(w) = deprecation_warning {
        v1["deprecationWarning"] = json!(w);
    }
    json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {"group": "example.com", "scope": "Namespaced",
            "names": {"kind": "Widget", "plural": "widgets", "singular": "widget", "listKind": "WidgetList"},
            "versions": [v1, {"name": "v2", "served": true, "storage": true, "schema": schema},
                {"name": "v3alpha1", "served": true, "storage": false, "schema": schema}]}})
}

#[test]
fn custom_resources_route_to_their_crd_version() {
    let mut checker = Checker::new(37, false);
    checker.add_crd(&widget_crd(None)).unwrap();
    let w = |v: &str, size: i64| json!({"apiVersion": format!("example.com/{v}"), "kind": "Widget", "metadata": {"name": "w"}, "spec": {"size": size}});
    let r = checker.check(&w("v1", 1), None);
    assert_eq!(r.warnings[0].message, "example.com/v1 Widget is deprecated; use example.com/v2 Widget");
    let r = checker.check(&w("v2", 0), None);
    assert_eq!(
        r.errors[0].text(),
        "spec.size: Invalid value: 0: spec.size in body should be greater than or equal to 1"
    );
    let mut checker = Checker::new(37, false);
    checker.add_crd(&widget_crd(Some("use v2, v1 goes away"))).unwrap();
    assert_eq!(checker.check(&w("v1", 1), None).warnings[0].message, "use v2, v1 goes away");
}

/// A custom resource's unknown fields under each field validation (apiextensions-apiserver
/// customresource_handler.go `schemaCoercingDecoder`: what pruning drops is a strict decoding
/// error), and a version the CRD does not serve (kubectl's REST mapping: apimachinery
/// `NoKindMatchError`) — as kube-apiserver v1.37.2 answers them in the `crd-catalog-objects`
/// suite (tests/oracle/answers/crd-catalog-objects.jsonl: mistakes.yaml's Issuer and
/// `cert-manager.io/v1alpha2` Certificate).
#[test]
fn custom_resources_follow_the_field_validation_and_the_served_versions() {
    let doc = json!({"apiVersion": "example.com/v2", "kind": "Widget", "metadata": {"name": "w"},
        "spec": {"size": 2, "colour": "red", "extra": {}}});
    let checker = |fv| {
        let mut c = Checker::new(37, false).with_field_validation(fv);
        c.add_crd(&widget_crd(None)).unwrap();
        c
    };
    let r = checker(FieldValidation::Strict).check(&doc, None);
    assert_eq!(r.status, Verdict::Invalid);
    assert_eq!(
        r.undecodable[0].message,
        "Widget in version \"v2\" cannot be handled as a Widget: strict decoding error: unknown field \"spec.colour\", unknown field \"spec.extra\""
    );
    assert_eq!(r.undecodable[0].field, "spec.colour");
    let r = checker(FieldValidation::Warn).check(&doc, None);
    let warnings: Vec<(&str, Option<&str>)> =
        r.warnings.iter().map(|w| (w.message.as_str(), w.field.as_deref())).collect();
    assert_eq!(
        warnings,
        [("unknown field \"spec.colour\"", Some("spec.colour")), ("unknown field \"spec.extra\"", Some("spec.extra"))]
    );
    assert_eq!(r.status, Verdict::Valid);
    let r = checker(FieldValidation::Ignore).check(&doc, None);
    assert!(r.warnings.is_empty() && r.status == Verdict::Valid);
    let mut v9 = doc.clone();
    v9["apiVersion"] = json!("example.com/v9");
    let r = checker(FieldValidation::Strict).check(&v9, None);
    assert_eq!(r.undecodable[0].message, "no matches for kind \"Widget\" in version \"example.com/v9\"");
    assert_eq!(r.checked_by, Some("crd"));
}

#[test]
fn removed_apis_are_errors_at_api_version() {
    let checker = Checker::new(25, false);
    let r = checker.check(&json!({"apiVersion": "batch/v1beta1", "kind": "CronJob", "metadata": {"name": "c"}}), None);
    assert_eq!(
        r.errors[0].text(),
        "apiVersion: Invalid value: \"batch/v1beta1\": batch/v1beta1 CronJob is not served since v1.25; use batch/v1 CronJob"
    );
    assert_eq!(r.errors[0].origin, "removedAPI");
}

/// Strict field validation at its default for API clients (Warn): keys no Go field declares,
/// with sigs.k8s.io/json's paths (`spec.template.spec.containers[0].redinessProbe`, as the API
/// server's `unknown field "…"` warnings print them); promoted fields of embedded structs and
/// the built-in meta/v1 shapes count as known.
#[test]
fn unknown_fields_are_the_api_servers_warnings() {
    let types = r#"package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec WidgetSpec `json:"spec"`
}

type WidgetSpec struct {
	Containers []Container `json:"containers"`
	Labels map[string]Container `json:"labels,omitempty"`
}

type Container struct {
	Name string `json:"name"`
}
"#;
    let mut checker = Checker::new(37, false).with_field_validation(FieldValidation::Warn);
    assert!(!checker.add_types(types, &[], Some("example.com"), false).iter().any(|d| d.is_error()));
    let doc = json!({"apiVersion": "example.com/v1", "kind": "Widget",
        "metadata": {"name": "w", "labelz": {}},
        "spec": {"containers": [{"name": "a"}, {"name": "b", "redinessProbe": {}}], "Containers": []}});
    let r = checker.check(&doc, None);
    let warnings: Vec<&str> = r.warnings.iter().map(|w| w.message.as_str()).collect();
    assert_eq!(
        warnings,
        [
            "unknown field \"metadata.labelz\"",
            "unknown field \"spec.Containers\"",
            "unknown field \"spec.containers[1].redinessProbe\""
        ]
    );
    assert_eq!(r.warnings[2].field.as_deref(), Some("spec.containers[1].redinessProbe"));

    // Strict (kubectl's default, and `kubedv check`'s): one refusal naming every unknown field,
    // as kube-apiserver v1.37.2 answers (tests/oracle/answers/builtin.jsonl, strict.yaml).
    let mut strict = Checker::new(37, false);
    assert!(!strict.add_types(types, &[], Some("example.com"), false).iter().any(|d| d.is_error()));
    let r = strict.check(&doc, None);
    assert_eq!(r.status, Verdict::Invalid);
    assert_eq!(
        r.undecodable[0].message,
        "Widget in version \"v1\" cannot be handled as a Widget: strict decoding error: unknown field \"metadata.labelz\", unknown field \"spec.Containers\", unknown field \"spec.containers[1].redinessProbe\""
    );
    assert_eq!(r.undecodable[0].field, "metadata.labelz");
}

/// A built-in kind's update from its old revision: the metadata checks every update gets
/// (apiserver `pkg/registry/rest/update.go` `validateCommonFields`, apimachinery
/// `ValidateObjectMetaAccessorUpdate`) are among the errors only the update gives.
#[test]
fn built_in_updates_check_metadata() {
    let types = r#"package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type Deployment struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec DeploymentSpec `json:"spec"`
}

type DeploymentSpec struct {
	// +k8s:optional
	// +k8s:minimum=0
	Replicas *int32 `json:"replicas,omitempty"`
	Selector interface{} `json:"selector"`
	Template interface{} `json:"template"`
}
"#;
    let mut checker = Checker::new(37, false);
    assert!(!checker.add_types(types, &[], Some("apps"), true).iter().any(|d| d.is_error()));
    // A Deployment the handwritten validation (crate::apis) lets through.
    let doc = |uid: &str| {
        json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "uid": uid},
            "spec": {"replicas": 1, "selector": {"matchLabels": {"app": "web"}},
                "template": {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "web", "image": "nginx"}]}}}})
    };
    let r = checker.check(&doc("b2"), Some(&doc("a1")));
    assert!(r.errors.is_empty(), "{:?}", r.errors);
    let update: Vec<String> = r.update_errors.iter().map(|e| e.text()).collect();
    assert_eq!(update, ["metadata.uid: Invalid value: \"b2\": field is immutable"]);
    assert!(checker.check(&doc("a1"), Some(&doc("a1"))).update_errors.is_empty());
}

/// A CRD the API server accepts gets its creation warnings (apiextensions-apiserver v0.37.2
/// `registry/customresourcedefinition/strategy.go` `WarningsOnCreate`, `validation/formats.go`
/// `GetUnrecognizedFormats`): a format its type does not keep, and a `set` list of objects.
/// The oracle's answer for `crd_schema_validation.json:8378` (`apiextensions-crd-schema`) is
/// the first.
#[test]
fn accepted_crds_get_the_creation_warnings() {
    let crd = serde_json::json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {"group": "example.com", "scope": "Namespaced",
            "names": {"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList"},
            "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {
                "type": "object", "format": "date-time",
                "properties": {"spec": {"type": "object", "properties": {
                    "when": {"type": "string", "format": "date-time"},
                    "size": {"type": "integer", "format": "int32"},
                    "ratio": {"type": "number", "format": "percent"},
                    "items": {"type": "array", "x-kubernetes-list-type": "set",
                        "items": {"type": "object", "x-kubernetes-map-type": "atomic"}}}}}}}}]}});
    let report = Checker::new(37, false).check(&crd, None);
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    let warnings: Vec<&str> = report.warnings.iter().map(|w| w.message.as_str()).collect();
    assert_eq!(warnings.len(), 3, "{warnings:?}");
    assert!(warnings.contains(&"unrecognized format \"date-time\""), "{warnings:?}");
    assert!(warnings.contains(&"unrecognized format \"percent\""), "{warnings:?}");
    assert_eq!(
        warnings[2],
        "x-kubernetes-list-type: set for items of type \"object\" is not supported by server-side apply or CEL validation rules"
    );
}

/// Every kind the 1.37 catalog serves takes the API server's whole path (`apis::handles`: a
/// room models its defaulting, strategy and handwritten validation), except what is not an
/// object one creates from a manifest, and the kinds behind feature gates off by default in
/// 1.37 (kube-apiserver v1.37.2 `pkg/features/kube_features.go`; the API server does not serve
/// them either). Lists, `*Options` and versions removed by 1.37 are left out.
#[test]
fn every_served_kind_of_the_newest_release_takes_the_api_servers_path() {
    const NOT_MODELED: &[(&str, &str, &str)] = &[
        // Wire formats of webhooks and discovery, and the API server's internal storage.
        ("admission.k8s.io/v1", "AdmissionReview", "a webhook's request and response"),
        ("imagepolicy.k8s.io/v1alpha1", "ImageReview", "a webhook's request and response"),
        ("apidiscovery.k8s.io/v2", "APIGroupDiscovery", "the discovery document"),
        ("v1", "SerializedReference", "a reference in an annotation"),
        ("v1", "RangeAllocation", "the allocators' storage"),
        // Subresources: their bodies are sent to a resource's subresource, not created.
        ("authentication.k8s.io/v1", "TokenRequest", "serviceaccounts/token"),
        ("autoscaling/v1", "Scale", "*/scale"),
        ("policy/v1", "Eviction", "pods/eviction"),
        // Feature gates off by default in 1.37.
        ("lifecycle.k8s.io/v1alpha1", "Eviction", "EvictionRequestAPI gate"),
        ("lifecycle.k8s.io/v1alpha1", "EvictionRequest", "EvictionRequestAPI gate"),
        ("scheduling.k8s.io/v1alpha3", "Workload", "GenericWorkload gate"),
        ("scheduling.k8s.io/v1alpha3", "PodGroup", "GenericWorkload gate"),
        ("scheduling.k8s.io/v1alpha3", "CompositePodGroup", "GenericWorkload gate"),
        ("scheduling.k8s.io/v1beta1", "Workload", "GenericWorkload gate"),
        ("scheduling.k8s.io/v1beta1", "PodGroup", "GenericWorkload gate"),
    ];
    let text = crate::common::harness::catalog_text(37);
    let catalog = kubedv_core::builtin::Catalog::parse(&text).expect("the 1.37 catalog");
    let mut unmodeled = Vec::new();
    for package in &catalog.packages {
        let schema = catalog.compile(package, 37);
        for kind in schema.root_candidates() {
            let removed = lifecycle::lookup(package.group, package.version(), kind)
                .and_then(|a| a.status(37))
                .is_some_and(|s| matches!(s, Status::Removed(_)));
            if kind.ends_with("List") || kind.ends_with("Options") || removed {
                continue;
            }
            if !kubedv_core::apis::handles(package.group, kind) {
                unmodeled.push((package.api_version(), kind.to_string()));
            }
        }
    }
    let expected: Vec<(String, String)> = NOT_MODELED.iter().map(|(v, k, _)| (v.to_string(), k.to_string())).collect();
    unmodeled.sort();
    let mut want = expected.clone();
    want.sort();
    assert_eq!(unmodeled, want, "served kinds that only get declarative rules (or entries no longer needed)");
}
