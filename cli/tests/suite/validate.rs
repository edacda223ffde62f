//! `kubedv validate` and `kubedv tags` end to end (docs/design.md CLI contract). Error text:
//! apimachinery pkg/api/validate/limits.go (Minimum, MaxLength) and required.go.

use serde_json::Value;

use crate::common::kubedv;

const TYPES: &str = "tests/fixtures/widget_types.go";
const OBJECTS: &str = "tests/fixtures/widgets.yaml";

/// Enforced errors first, then the shadowed (alpha) one, marked (validation-gen levels.go;
/// apimachinery errors.go FilterEnforcedDeclarativeErrors).
#[test]
fn validates_multi_document_yaml_in_text() {
    let out = kubedv(&["validate", "--types", TYPES, "--object", OBJECTS]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "spec.replicas: Invalid value: -1: must be greater than or equal to 0\n\
         spec: Required value\n\
         shadowed: spec.color: Too long: may not be more than 5 characters\n"
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "2 objects validated against Widget: 3 errors, 2 enforced (per document: 2, 1)\n"
    );
}

#[test]
fn json_output_marks_alpha_errors_not_enforced() {
    let out = kubedv(&["--format", "json", "validate", "--types", TYPES, "--object", OBJECTS, "--option", "Strict"]);
    assert_eq!(out.status.code(), Some(1));
    let docs: Value = serde_json::from_slice(&out.stdout).unwrap();
    let first = &docs[0]["errors"];
    assert_eq!(first.as_array().unwrap().len(), 3, "Strict turns on the name format");
    assert_eq!(first[1]["stability"], "alpha");
    assert_eq!(first[1]["enforced"], false);
    assert_eq!(first[2]["origin"], "format=k8s-short-name");
    assert_eq!(docs[1]["errors"][0]["text"], "spec: Required value");
}

#[test]
fn single_json_object_is_one_document() {
    let dir = std::env::temp_dir().join(format!("kubedv-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let obj = dir.join("ok.json");
    std::fs::write(&obj, r#"{"metadata": {"name": "w"}, "spec": {"replicas": 1, "color": "red"}}"#).unwrap();
    let out = kubedv(&["--format", "json", "validate", "--types", TYPES, "--object", obj.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc, serde_json::json!({"errors": [], "diagnostics": []}));
}

#[test]
fn bad_types_are_exit_2_with_positions() {
    let dir = std::env::temp_dir().join(format!("kubedv-cli-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.go");
    std::fs::write(&bad, "package x\ntype S struct {\n\t// +k8s:maxLength=x\n\tA string `json:\"a\"`\n}\n").unwrap();
    let out = kubedv(&["validate", "--types", bad.to_str().unwrap(), "--object", OBJECTS]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("bad.go:3:5: error: +k8s:maxLength needs a non-negative integer, e.g. +k8s:maxLength=10"),
        "{stderr}"
    );
}

#[test]
fn undecodable_and_unparsable_objects_are_exit_2() {
    let dir = std::env::temp_dir().join(format!("kubedv-cli-obj-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let wrong = dir.join("wrong.json");
    std::fs::write(&wrong, r#"{"spec": {"replicas": "three"}}"#).unwrap();
    let out = kubedv(&["validate", "--types", TYPES, "--object", wrong.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    // apiserver rest.go transformDecodeError around sigs.k8s.io/json's UnmarshalTypeError.
    assert!(String::from_utf8_lossy(&out.stderr).contains(
        "spec.replicas: Widget in version \"v1\" cannot be handled as a Widget: json: cannot unmarshal string into Go struct field WidgetSpec.spec.replicas of type int32"
    ));
    // Two values the types cannot hold: the decoder keeps the first in the document, whatever
    // the keys' order (sigs.k8s.io/json decode.go saveError).
    let two = dir.join("two.yaml");
    std::fs::write(&two, "spec:\n  replicas: \"three\"\n  color: 1\n").unwrap();
    let out = kubedv(&["validate", "--types", TYPES, "--object", two.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("spec.replicas: Widget in version"), "{stderr}");
    assert!(!stderr.contains("spec.color"), "{stderr}");
    let broken = dir.join("broken.yaml");
    std::fs::write(&broken, "spec:\n  replicas: [1\n").unwrap();
    let out = kubedv(&["validate", "--types", TYPES, "--object", broken.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("invalid YAML"), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn unknown_options_and_types_are_usage_errors() {
    let out = kubedv(&["validate", "--types", TYPES, "--object", OBJECTS, "--option", "Nope"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "kubedv: --option Nope: the types mention no such option (they mention: Strict)\n"
    );
    let out = kubedv(&["validate", "--types", TYPES, "--object", OBJECTS, "--type", "Gadget"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr)
        .starts_with("kubedv: --type Gadget: no such type; the types are: Widget, WidgetSpec"));
}

#[test]
fn tags_catalog() {
    let out = kubedv(&["--format", "json", "tags"]);
    let all: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(all.as_array().unwrap().len() >= 43);
    let out = kubedv(&["tags", "+k8s:minimum"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("+k8s:minimum  (stable)"));
    let out = kubedv(&["tags", "maxlen"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "kubedv: unknown tag maxlen; did you mean +k8s:maxLength? (`kubedv tags` lists them)\n"
    );
}

#[test]
fn updates_ratchet_and_report_immutable_fields() {
    let dir = std::env::temp_dir().join(format!("kubedv-cli-upd-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let types = dir.join("types.go");
    std::fs::write(
        &types,
        "package v1\n\ntype Thing struct {\n\tTypeMeta int\n\t// +k8s:optional\n\t// +k8s:immutable\n\tClass string `json:\"class\"`\n\t// +k8s:optional\n\t// +k8s:minimum=1\n\tSize int `json:\"size\"`\n}\n",
    )
    .unwrap();
    let old = dir.join("old.json");
    std::fs::write(&old, r#"{"class": "a", "size": -1}"#).unwrap();
    let new = dir.join("new.json");
    std::fs::write(&new, r#"{"class": "b", "size": -1}"#).unwrap();
    // apimachinery immutable.go; the unchanged invalid size ratchets (validation-gen's
    // generated "don't revalidate unchanged data").
    let out = kubedv(&[
        "validate",
        "--types",
        types.to_str().unwrap(),
        "--object",
        new.to_str().unwrap(),
        "--old",
        old.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "class: Invalid value: null: field is immutable\n");
    let out = kubedv(&["validate", "--types", types.to_str().unwrap(), "--object", new.to_str().unwrap()]);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "size: Invalid value: -1: must be greater than or equal to 1\n");
    let out = kubedv(&[
        "validate",
        "--types",
        types.to_str().unwrap(),
        "--object",
        OBJECTS,
        "--old",
        old.to_str().unwrap(),
        "--type",
        "Thing",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("has 1 document but --object tests/fixtures/widgets.yaml has 2 documents"));
}

#[test]
fn shadow_comparison_with_handwritten_errors() {
    let dir = std::env::temp_dir().join(format!("kubedv-cli-shadow-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let obj = dir.join("obj.json");
    std::fs::write(&obj, r#"{"metadata": {"name": "w"}, "spec": {"replicas": 1, "color": "magenta"}}"#).unwrap();
    let hw = dir.join("hw.txt");
    std::fs::write(&hw, "spec.color: Too long: may not be more than 5 characters [origin=maxLength, covered]\n")
        .unwrap();
    // apiserver validate.go: the alpha error is compared and matches; the API server returns
    // the handwritten error (alpha rules are never enforced).
    let out = kubedv(&[
        "--format",
        "json",
        "validate",
        "--types",
        TYPES,
        "--object",
        obj.to_str().unwrap(),
        "--handwritten",
        hw.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "the handwritten error is returned");
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["shadow"]["matched"].as_array().unwrap().len(), 1);
    assert_eq!(doc["shadow"]["mismatches"], 0);
    assert_eq!(doc["shadow"]["returned"][0]["text"], "spec.color: Too long: may not be more than 5 characters");
    assert_eq!(doc["errors"][0]["enforced"], false);
    let out = kubedv(&[
        "validate",
        "--types",
        TYPES,
        "--object",
        obj.to_str().unwrap(),
        "--gate",
        "DeclarativeValidation=false",
    ]);
    assert_eq!(out.status.code(), Some(2));
    // component-base feature_gate.go's refusal of a locked gate.
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("cannot set feature gate DeclarativeValidation to false, feature is locked to true"));
    let out = kubedv(&["validate", "--types", TYPES, "--object", obj.to_str().unwrap(), "--k8s-version", "1.20"]);
    assert_eq!(out.status.code(), Some(2));
    // A version kubedv does not model is refused with the list, not treated as the newest.
    let out = kubedv(&["validate", "--types", TYPES, "--object", obj.to_str().unwrap(), "--k8s-version", "1.40"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("expected one of 1.33, 1.34, 1.35, 1.36, 1.37"));
    // Only an alpha error: nothing is returned, so exit 0.
    let out = kubedv(&["validate", "--types", TYPES, "--object", obj.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "shadowed: spec.color: Too long: may not be more than 5 characters\n"
    );
}

/// `--k8s-api` instead of `--types`: the object's apiVersion and kind pick the package of a
/// k8s.io/api checkout (a small one written for the test) and the type; imports resolve in it.
#[test]
fn built_in_kinds_from_a_k8s_api_checkout() {
    let api = std::env::temp_dir().join(format!("kubedv-validate-api-{}", std::process::id()));
    let write = |path: &str, text: &str| {
        let file = api.join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, text).unwrap();
    };
    write("core/v1/types.go", "package v1\n\ntype PodSpec struct {\n\t// +k8s:optional\n\t// +k8s:minimum=0\n\tPriority *int32 `json:\"priority,omitempty\"`\n}\n");
    write("batch/v1/register.go", "package v1\n\nconst GroupName = \"batch\"\n");
    write(
        "batch/v1/types.go",
        "package v1\n\nimport (\n\tcorev1 \"k8s.io/api/core/v1\"\n\tmetav1 \"k8s.io/apimachinery/pkg/apis/meta/v1\"\n)\n\ntype Job struct {\n\tmetav1.TypeMeta `json:\",inline\"`\n\tmetav1.ObjectMeta `json:\"metadata,omitempty\"`\n\tSpec JobSpec `json:\"spec\"`\n}\n\ntype JobSpec struct {\n\tTemplate corev1.PodSpec `json:\"template\"`\n}\n\ntype CronJob struct {\n\tmetav1.TypeMeta `json:\",inline\"`\n\tSpec JobSpec `json:\"spec\"`\n}\n",
    );
    let job = api.join("job.yaml");
    std::fs::write(
        &job,
        "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: j\nspec:\n  template:\n    priority: -1\n",
    )
    .unwrap();
    let out = kubedv(&["validate", "--k8s-api", api.to_str().unwrap(), "--object", job.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "spec.template.priority: Invalid value: -1: must be greater than or equal to 0\n"
    );
    // 13 fields: the priority, and 12 of apimachinery 1.37's ObjectMeta (its alpha tags).
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "k8s.io/api/batch/v1/types.go Job: declarative rules on 13 fields, and metadata as ValidateObjectMeta checks it; the rest of Kubernetes' handwritten validation is not modeled\n1 object validated against Job: 1 error, 1 enforced\n"
    );
}

/// A built-in kind's update (the embedded 1.37 catalog): the metadata checks every update gets
/// (apiserver `pkg/registry/rest/update.go` `validateCommonFields`, apimachinery
/// `ValidateObjectMetaAccessorUpdate` at v0.37.0-beta.0: a changed uid is immutable, with the
/// origin `immutable`), and a body naming another object refused before validation (apiserver
/// `pkg/endpoints/handlers/rest.go` `checkName`).
#[test]
fn built_in_updates_check_metadata() {
    let dir = std::env::temp_dir().join(format!("kubedv-cli-builtin-upd-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let doc = |name: &str, uid: &str| {
        format!(
            "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {name}\n  uid: {uid}\nspec:\n  selector:\n    matchLabels: {{app: web}}\n  template:\n    metadata:\n      labels: {{app: web}}\n    spec:\n      containers: [{{name: web, image: nginx}}]\n"
        )
    };
    let (new, old, other) = (dir.join("new.yaml"), dir.join("old.yaml"), dir.join("other.yaml"));
    std::fs::write(&new, doc("web", "b2")).unwrap();
    std::fs::write(&old, doc("web", "a1")).unwrap();
    std::fs::write(&other, doc("api", "a1")).unwrap();
    let (new, old, other) = (new.to_str().unwrap(), old.to_str().unwrap(), other.to_str().unwrap());
    let out = kubedv(&["validate", "--object", new, "--old", old]);
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    // ObjectMeta's alpha `+k8s:immutable` (apimachinery 1.37 types.go) gives the same error,
    // compared but not returned (validate.Immutable's value is nil, printed `null`).
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "metadata.uid: Invalid value: \"b2\": field is immutable\nshadowed: metadata.uid: Invalid value: null: field is immutable\n"
    );
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("and metadata as every update's checks and ValidateObjectMetaUpdate see it"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = kubedv(&["validate", "--object", new, "--old", other]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "kubedv: the API server refuses this update (Bad Request):\nthe name of the object (web) does not match the name on the URL (api)\n"
    );
    // Mixed kinds are `check`'s job.
    let out = kubedv(&["validate", "--object", "tests/fixtures/builtin/apps.yaml"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "kubedv: every object must be of the same kind, apps/v1 Deployment; one is apps/v1 StatefulSet (use kubedv check for mixed kinds)\n"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// `+default` values are applied before validating, as the API server's decoding applies them
/// (defaulter-gen's generated SetObjectDefaults_); `--no-defaults` validates the object as written,
/// where validation-gen makes the optional field with a default required (required.go doOptional).
#[test]
fn defaults_are_applied_unless_no_defaults() {
    let dir = std::env::temp_dir().join(format!("kubedv-cli-defaults-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let types = dir.join("types.go");
    std::fs::write(
        &types,
        "package v1\n\ntype Pool struct {\n\tTypeMeta int\n\t// +k8s:optional\n\t// +default=12\n\t// +k8s:maximum=10\n\tSize *int32 `json:\"size,omitempty\"`\n}\n",
    )
    .unwrap();
    let obj = dir.join("pool.json");
    std::fs::write(&obj, "{}").unwrap();
    let (types, obj) = (types.to_str().unwrap(), obj.to_str().unwrap());
    let out = kubedv(&["validate", "--types", types, "--object", obj]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "size: Invalid value: 12: must be less than or equal to 10\n");
    let out = kubedv(&["validate", "--types", types, "--object", obj, "--no-defaults"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "size: Required value\n");
}
