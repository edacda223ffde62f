//! Types that import other packages: a pasted k8s.io/api file resolves its imports against the
//! other packages' sources given with it, and against kubedv's apimachinery prelude.
//!
//! Sources: code-generator v0.36.3 / HEAD cmd/validation-gen/validation.go (a field whose type
//! is in another input package calls that package's `Validate_<Type>`, when the type has
//! validations; a type from a package that is not an input or read-only package needs
//! `+k8s:opaqueType`), output_tests/cross_pkg; apimachinery v0.36.3 (meta/v1 has no `+k8s:`
//! tags) and v0.37.0-beta.0 `pkg/apis/meta/v1/types.go` (alpha tags on ObjectMeta, Condition,
//! OwnerReference, ManagedFieldsEntry, generated into `pkg/apis/meta/v1/validation`).

use kubedv_core::declarative::{import_provided_by, Dependency, Options, Schema};
use serde_json::json;

const CORE: &str = r#"package v1

// +k8s:enum
type Protocol string

const (
	ProtocolTCP Protocol = "TCP"
	ProtocolUDP Protocol = "UDP"
)

type PodTemplateSpec struct {
	Spec PodSpec `json:"spec,omitempty"`
}

type PodSpec struct {
	// +k8s:optional
	// +k8s:minimum=0
	TerminationGracePeriodSeconds *int64 `json:"terminationGracePeriodSeconds,omitempty"`
	// +k8s:optional
	// +k8s:format=k8s-short-name
	ServiceAccountName string `json:"serviceAccountName,omitempty"`
}

type NoValidations struct {
	Name string `json:"name"`
}
"#;

const APPS: &str = r#"package v1

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +k8s:supportsSubresource="/status"
type Deployment struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec   DeploymentSpec   `json:"spec,omitempty"`
	Status DeploymentStatus `json:"status,omitempty"`
}

type DeploymentSpec struct {
	// +k8s:optional
	// +k8s:minimum=0
	Replicas *int32 `json:"replicas,omitempty"`
	Template corev1.PodTemplateSpec `json:"template"`
	// +k8s:optional
	Protocol corev1.Protocol `json:"protocol,omitempty"`
	Plain corev1.NoValidations `json:"plain,omitempty"`
}

type DeploymentStatus struct {
	// +k8s:optional
	// +k8s:listType=map
	// +k8s:listMapKey=type
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}
"#;

fn core_dep() -> Vec<Dependency<'static>> {
    vec![Dependency { import_path: "k8s.io/api/core/v1", label: "core/v1/types.go", text: CORE }]
}

fn errors(schema: &Schema, obj: serde_json::Value) -> Vec<String> {
    assert!(!schema.has_errors(), "{:#?}", schema.diagnostics);
    let root = schema.type_named("Deployment").expect("root");
    let report = schema.validate_request(root, &obj, None, None, &Options::default());
    assert!(report.diagnostics.is_empty(), "{:#?}", report.diagnostics);
    report.errors.iter().map(|e| format!("{} [{:?}]", e.text(), e.stability)).collect()
}

#[test]
fn cross_package_fields_use_their_own_packages_tags() {
    let schema = Schema::compile_with(APPS, &core_dep(), 36);
    let got = errors(
        &schema,
        json!({"spec": {"replicas": -1, "protocol": "SCTP",
                "template": {"spec": {"terminationGracePeriodSeconds": -5, "serviceAccountName": "Bad_Name"}}}}),
    );
    assert_eq!(
        got,
        [
            "spec.replicas: Invalid value: -1: must be greater than or equal to 0 [Stable]",
            "spec.template.spec.terminationGracePeriodSeconds: Invalid value: -5: must be greater than or equal to 0 [Stable]",
            "spec.template.spec.serviceAccountName: Invalid value: \"Bad_Name\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?') [Stable]",
            "spec.protocol: Unsupported value: \"SCTP\": supported values: \"TCP\", \"UDP\" [Stable]",
        ]
    );
}

#[test]
fn conditions_list_map_keys_are_metav1_condition_fields() {
    // 1.36: meta/v1 has no tags, only the listType=map uniqueness of this field runs; the
    // duplicate's value is the whole item as Go marshals a metav1.Condition (each.go
    // `field.Duplicate(fldPath.Index(i), val)`; observedGeneration is omitempty).
    let schema = Schema::compile_with(APPS, &core_dep(), 36);
    let cond = json!({"type": "Ready", "status": "True", "lastTransitionTime": "2026-01-01T00:00:00Z",
                      "reason": "R", "message": ""});
    let got = errors(&schema, json!({"status": {"conditions": [cond.clone(), cond]}}));
    assert_eq!(
        got,
        ["status.conditions[1]: Duplicate value: {\"type\":\"Ready\",\"status\":\"True\",\"lastTransitionTime\":\"2026-01-01T00:00:00Z\",\"reason\":\"R\",\"message\":\"\"} [Stable]"]
    );
}

#[test]
fn metav1_alpha_rules_exist_from_1_37_only() {
    let obj = json!({"metadata": {"name": "x", "generation": -1},
                     "status": {"conditions": [{"type": "Ready", "status": "Maybe", "reason": ""}]}});
    let old = Schema::compile_with(APPS, &core_dep(), 36);
    assert_eq!(errors(&old, obj.clone()), Vec::<String>::new());
    let new = Schema::compile_with(APPS, &core_dep(), 37);
    assert_eq!(
        errors(&new, obj),
        [
            "metadata.generation: Invalid value: -1: must be greater than or equal to 0 [Alpha]",
            "status.conditions[0].status: Unsupported value: \"Maybe\": supported values: \"False\", \"True\", \"Unknown\" [Alpha]",
            "status.conditions[0].reason: Required value [Alpha]",
        ]
    );
}

#[test]
fn a_missing_package_is_a_diagnostic_naming_it() {
    let schema = Schema::compile_with(APPS, &[], 37);
    let messages: Vec<String> = schema.diagnostics.iter().map(ToString::to_string).collect();
    assert!(
        messages.iter().any(|m| m.contains(
            "error: type corev1.PodTemplateSpec is from package k8s.io/api/core/v1, whose source was not given"
        )),
        "{messages:#?}"
    );
}

#[test]
fn problems_in_a_dependency_name_its_file() {
    let broken = "package v1\n\ntype PodTemplateSpec struct {\n\t// +k8s:minimum=1\n\tName string `json:\"name\"`\n}\n";
    let deps = [Dependency { import_path: "k8s.io/api/core/v1", label: "core.go", text: broken }];
    let schema = Schema::compile_with(APPS, &deps, 37);
    let messages: Vec<String> = schema.diagnostics.iter().map(ToString::to_string).collect();
    assert!(messages.iter().any(|m| m.starts_with("core.go:4:")), "{messages:#?}");
    assert!(messages.iter().any(|m| m.contains("undefined type corev1.Protocol: package k8s.io/api/core/v1 declares no type Protocol")), "{messages:#?}");
}

#[test]
fn files_answer_the_import_their_directories_spell() {
    let imports = ["k8s.io/api/core/v1", "k8s.io/api/apps/v1", "example.com/x"];
    assert_eq!(import_provided_by(&imports, "/src/api/core/v1/types.go"), Some("k8s.io/api/core/v1"));
    assert_eq!(import_provided_by(&imports, "staging/src/k8s.io/api/apps/v1/types.go"), Some("k8s.io/api/apps/v1"));
    assert_eq!(import_provided_by(&imports, "v1/types.go"), None, "one element is not enough");
    assert_eq!(import_provided_by(&imports, "types.go"), None);
    assert_eq!(import_provided_by(&imports, "vendor/example.com/x/types.go"), Some("example.com/x"));
}

/// Up to 1.35 validation-gen read `+k8s:supportsSubresource` / `+k8s:isSubresource` with
/// gengo's `ExtractFunctionStyleCommentTags` (code-generator v0.35.7 cmd/validation-gen
/// targets.go `supportedSubresourceTags`): the raw text after `=`, which k8s.io/api v0.34/v0.35
/// write unquoted (certificates/v1 `+k8s:supportsSubresource=/status`). From 1.36 they are
/// parsed tags (v0.36.0 `extractAndParseTag`), quoted in k8s.io/api.
#[test]
fn subresource_tags_are_raw_up_to_1_35_and_parsed_from_1_36() {
    use kubedv_core::declarative::Schema;
    let unquoted = "package v1\n\n// +k8s:supportsSubresource=/status\ntype W struct {\n\tTypeMeta int\n}\n";
    let quoted = "package v1\n\n// +k8s:supportsSubresource=\"/status\"\ntype W struct {\n\tTypeMeta int\n}\n";
    let paths = |src: &str, minor: u32| {
        let s = Schema::compile_with(src, &[], minor);
        let errors: Vec<String> = s.diagnostics.iter().filter(|d| d.is_error()).map(|d| d.to_string()).collect();
        (s.type_named("W").map(|id| s.subresource_paths(id)).unwrap_or_default(), errors)
    };
    assert_eq!(paths(unquoted, 34), (vec!["/".to_string(), "/status".to_string()], vec![]));
    // Taken as written: a quoted path is one no request has.
    assert_eq!(paths(quoted, 35), (vec!["/".to_string(), "\"/status\"".to_string()], vec![]));
    assert_eq!(paths(quoted, 36), (vec!["/".to_string(), "/status".to_string()], vec![]));
    let (_, errors) = paths(unquoted, 37);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].contains("malformed tag: unexpected character '/'"), "{errors:?}");
}
