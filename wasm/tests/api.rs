#![cfg(target_arch = "wasm32")]
//! The npm API, run by `wasm-pack test --node` and `--headless --chrome` alike.
//! Expected strings: apimachinery pkg/api/validate/strfmt.go + content/dns.go.

use serde::Serialize;
use serde_json::{json, Value};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::wasm_bindgen_test;

fn decode(v: JsValue) -> Value {
    serde_wasm_bindgen::from_value(v).expect("a JSON-compatible value")
}

#[wasm_bindgen_test]
fn version_is_the_crate_version() {
    assert_eq!(kubedv_wasm::version(), env!("CARGO_PKG_VERSION"));
}

#[wasm_bindgen_test]
fn check_format_returns_kubernetes_errors() {
    let errs = decode(kubedv_wasm::check_format("k8s-short-name", "My_Name", Some("metadata.name".into())).unwrap());
    assert_eq!(
        errs,
        json!([{
            "field": "metadata.name",
            "type": "FieldValueInvalid",
            "value": "My_Name",
            "detail": "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
            "origin": "format=k8s-short-name",
            "stability": "stable",
            "enforced": true,
            "text": "metadata.name: Invalid value: \"My_Name\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
        }])
    );
}

#[wasm_bindgen_test]
fn valid_value_gives_an_empty_list_and_root_prints_nil() {
    assert_eq!(
        decode(kubedv_wasm::check_format("k8s-uuid", "123e4567-e89b-12d3-a456-426614174000", None).unwrap()),
        json!([])
    );
    let errs = decode(kubedv_wasm::check_format("k8s-resource-pool-name", &"a".repeat(254), None).unwrap());
    assert_eq!(errs[0]["text"], "<nil>: Too long: may not be more than 253 bytes");
    assert!(errs[0].get("value").is_none(), "Too long omits the value");
}

#[wasm_bindgen_test]
fn unknown_format_is_an_error_not_a_trap() {
    // JsError only converts to a JsValue on wasm32; its presence is what matters here.
    assert!(kubedv_wasm::check_format("k8s-nope", "x", None).is_err());
}

#[wasm_bindgen_test]
fn formats_lists_every_name() {
    let list = decode(kubedv_wasm::formats().unwrap());
    let names: Vec<&str> = list.as_array().unwrap().iter().map(|f| f["name"].as_str().unwrap()).collect();
    assert_eq!(names.len(), 11);
    assert!(names.contains(&"k8s-label-key"));
}

fn js(value: Value) -> JsValue {
    value.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).unwrap()
}

// CRI API version skew policy (shared/reference/cri-api-version-skew-policy.md); in kubedv/full
// (the core module's budget): run with `--features full`, and on the built module by
// www/test/full.test.mjs.
#[cfg(feature = "full")]
#[wasm_bindgen_test]
fn cri_skew_judges_each_pair() {
    let node = json!({"kubelet": "1.30.2", "runtime": "containerd=1.7.20", "clients": ["crictl=1.27.0"]});
    let report = decode(kubedv_wasm::cri_skew(js(node)).unwrap());
    assert_eq!(report["supported"], true);
    assert_eq!(report["pairs"][1]["client"], "crictl");
    assert_eq!(report["pairs"][0]["serverVersion"], "1.7.20");
    let node = json!({"kubelet": "1.26.0", "runtime": "v0.22.0"});
    assert_eq!(decode(kubedv_wasm::cri_skew(js(node)).unwrap())["supported"], false);
}

#[cfg(feature = "full")]
#[wasm_bindgen_test]
fn cri_bad_input_is_an_error() {
    assert!(kubedv_wasm::cri_skew(js(json!({"kubelet": "1.x", "runtime": "v0.27.1"}))).is_err());
    assert!(kubedv_wasm::cri_skew(js(json!({"kubelet": "1.30"}))).is_err(), "runtime is required");
    assert!(kubedv_wasm::cri_skew(js(json!({"kubelet": "1.30", "runtime": "v0.30.0", "extra": 1}))).is_err());
    assert!(kubedv_wasm::cri_skew(JsValue::from_str("1.30")).is_err());
}

// criRange and criFeature are in kubedv/full (the core module's budget): these run with
// `--features full`; www/test/full.test.mjs runs the same cases on the built module.
#[cfg(feature = "full")]
#[wasm_bindgen_test]
fn cri_range_and_feature_bad_input() {
    assert!(kubedv_wasm::cri_range(js(json!({"kubelet": "1.30", "runtime": "v0.30.0"}))).is_err());
    assert!(kubedv_wasm::cri_feature(js(json!({"stage": "beta", "containerd": "none", "crio": "none"}))).is_err());
}

#[cfg(feature = "full")]
#[wasm_bindgen_test]
fn cri_range_and_feature() {
    let range = decode(kubedv_wasm::cri_range(js(json!({"runtime": "cri-o=1.30.1"}))).unwrap());
    assert_eq!(range["text"], "cri-o 1.30.1 works with kubelet 1.27 through 1.33 (CRI v1)");
    let verdict = decode(
        kubedv_wasm::cri_feature(js(json!({"stage": "ga", "containerd": "released-ga", "crio": "released-ga"})))
            .unwrap(),
    );
    assert_eq!(verdict["allowed"], false);
    assert_eq!(verdict["rules"][2]["rule"], "Safe Kubernetes defaults");
    assert!(verdict["summary"].as_str().unwrap().starts_with("GA is blocked by \"Safe Kubernetes defaults\""));
}

const WIDGET: &str = r#"package v1

type Widget struct {
	TypeMeta int
	// +k8s:required
	// +k8s:format=k8s-short-name
	Name string `json:"name"`
	// +k8s:optional
	// +k8s:alpha=+k8s:minimum=1
	Size *int32 `json:"size"`
}
"#;

// Declarative validation through the compiled handle: apimachinery required.go, strfmt.go,
// limits.go; alpha errors are not enforced (validation-gen levels.go).
#[wasm_bindgen_test]
fn compile_once_validate_many() {
    let schema = kubedv_wasm::compile_types(WIDGET, None).unwrap_or_else(|_| panic!("compiles"));
    assert_eq!(decode(schema.types().unwrap()), json!(["Widget"]));
    let r = decode(schema.validate(js(json!({"size": 0})), None, None).unwrap_or_else(|_| panic!()));
    assert_eq!(r["errors"][0]["text"], "name: Required value");
    assert_eq!(r["errors"][1]["text"], "size: Invalid value: 0: must be greater than or equal to 1");
    assert_eq!(r["errors"][1]["enforced"], false);
    let r = decode(
        schema
            .validate(js(json!({"name": "ok", "size": 2})), None, Some(js(json!({"type": "Widget"}))))
            .unwrap_or_else(|_| panic!()),
    );
    assert_eq!(r, json!({"errors": [], "diagnostics": []}));
    // On update an unchanged invalid value ratchets (generated "don't revalidate unchanged data").
    let same = json!({"name": "ok", "size": 0});
    let r = decode(schema.validate(js(same.clone()), Some(js(same)), None).unwrap_or_else(|_| panic!()));
    assert_eq!(r["errors"], json!([]));
}

// A manifest as YAML text validates as the same object would (the CLI reads files the same way).
#[wasm_bindgen_test]
fn yaml_objects_validate_like_js_objects() {
    let schema = kubedv_wasm::compile_types(WIDGET, None).unwrap_or_else(|_| panic!("compiles"));
    let from_yaml = decode(
        schema.validate("# a widget\nname: Bad_Name\nsize: 1\n".into(), None, None).unwrap_or_else(|_| panic!()),
    );
    let from_object =
        decode(schema.validate(js(json!({"name": "Bad_Name", "size": 1})), None, None).unwrap_or_else(|_| panic!()));
    assert_eq!(from_yaml, from_object);
    assert_eq!(from_yaml["errors"][0]["origin"], "format=k8s-short-name");
    let err = schema.validate("name: [\n".into(), None, None).expect_err("an error");
    let message = js_sys::Reflect::get(&err, &"message".into()).unwrap().as_string().unwrap();
    assert!(message.starts_with("the object: 2:1: invalid YAML: "), "{message}");
}

#[wasm_bindgen_test]
fn bad_types_throw_an_error_with_its_position() {
    let err = kubedv_wasm::compile_types("package p\ntype S struct {\n\t// +k8s:maxLength=x\n\tA string\n}\n", None)
        .err()
        .expect("an error");
    let line = js_sys::Reflect::get(&err, &"line".into()).unwrap();
    assert_eq!(line.as_f64(), Some(3.0));
    let message = js_sys::Reflect::get(&err, &"message".into()).unwrap().as_string().unwrap();
    assert_eq!(message, "3:5: error: +k8s:maxLength needs a non-negative integer, e.g. +k8s:maxLength=10");
    // A tag validation-gen does not register is skipped, as its registry does: a warning.
    let schema = kubedv_wasm::compile_types("package p\ntype S struct {\n\t// +k8s:maxlen=1\n\tA string\n}\n", None)
        .unwrap_or_else(|_| panic!("compiles"));
    let warnings = decode(schema.diagnostics().unwrap_or_else(|_| panic!()));
    assert_eq!(
        warnings[0]["message"],
        "+k8s:maxlen is not a validation tag, so validation-gen ignores it; did you mean +k8s:maxLength?"
    );
}

// Imports resolved against the sources given with the types (code-generator
// cmd/validation-gen/validation.go: another input package's Validate_<Type> is called), and the
// built-in meta/v1 of the version asked for (apimachinery v0.37.0-beta.0 adds alpha rules).
#[wasm_bindgen_test]
fn compile_options_resolve_imports_and_pick_the_apimachinery_version() {
    const APP: &str = "package v1\n\nimport (\n\tcorev1 \"k8s.io/api/core/v1\"\n\tmetav1 \"k8s.io/apimachinery/pkg/apis/meta/v1\"\n)\n\ntype App struct {\n\tmetav1.TypeMeta `json:\",inline\"`\n\tmetav1.ObjectMeta `json:\"metadata,omitempty\"`\n\tSpec corev1.PodSpec `json:\"spec\"`\n}\n";
    const CORE: &str =
        "package v1\n\ntype PodSpec struct {\n\t// +k8s:optional\n\t// +k8s:minimum=0\n\tPriority int32 `json:\"priority\"`\n}\n";
    assert!(kubedv_wasm::compile_types(APP, None).is_err(), "core/v1 is not given");
    let opts = js(json!({"imports": {"k8s.io/api/core/v1": CORE}, "k8sVersion": "1.37"}));
    let schema = kubedv_wasm::compile_types(APP, Some(opts)).unwrap_or_else(|_| panic!("compiles"));
    let r = decode(
        schema
            .validate(js(json!({"metadata": {"generation": -1}, "spec": {"priority": -1}})), None, None)
            .unwrap_or_else(|_| panic!()),
    );
    let texts: Vec<&str> = r["errors"].as_array().unwrap().iter().map(|e| e["text"].as_str().unwrap()).collect();
    assert_eq!(
        texts,
        [
            "metadata.generation: Invalid value: -1: must be greater than or equal to 0",
            "spec.priority: Invalid value: -1: must be greater than or equal to 0"
        ]
    );
    let opts = js(json!({"imports": {"k8s.io/api/core/v1": CORE}, "k8sVersion": "1.36"}));
    let schema = kubedv_wasm::compile_types(APP, Some(opts)).unwrap_or_else(|_| panic!("compiles"));
    let r =
        decode(schema.validate(js(json!({"metadata": {"generation": -1}})), None, None).unwrap_or_else(|_| panic!()));
    assert_eq!(r["errors"], json!([]));
    assert!(kubedv_wasm::compile_types(APP, Some(js(json!({"imports": {"k8s.io/api/core/v1": 1}})))).is_err());
    assert!(kubedv_wasm::compile_types(APP, Some(js(json!({"k8sVersion": "1.20"})))).is_err());
}

#[wasm_bindgen_test]
fn one_shot_validate() {
    let r = decode(
        kubedv_wasm::validate(WIDGET, js(json!({"name": "Bad_Name", "size": 1})), None, None)
            .unwrap_or_else(|_| panic!()),
    );
    assert_eq!(r["errors"][0]["origin"], "format=k8s-short-name");
    assert!(kubedv_wasm::validate(WIDGET, js(json!({"size": "x"})), None, Some(js(json!({"nope": 1})))).is_err());
}

// Enforcement and shadow comparison through the npm API (apiserver pkg/registry/rest/validate.go,
// apimachinery pkg/api/validate/errors.go).
#[wasm_bindgen_test]
fn validate_with_gates_versions_subresources_and_handwritten_errors() {
    let schema = kubedv_wasm::compile_types(WIDGET, None).unwrap_or_else(|_| panic!("compiles"));
    let obj = json!({"name": "ok", "size": 0});
    let hw = "size: Invalid value: 0: must be greater than or equal to 1 [origin=minimum, covered]";
    let opts = json!({"handwritten": hw});
    #[cfg(feature = "full")]
    {
        let r = decode(schema.validate(js(obj.clone()), None, Some(js(opts))).unwrap_or_else(|_| panic!()));
        assert_eq!(r["shadow"]["matched"].as_array().unwrap().len(), 1, "the alpha error matches");
        assert_eq!(r["shadow"]["mismatches"], 0);
        assert_eq!(r["shadow"]["returned"][0]["text"], "size: Invalid value: 0: must be greater than or equal to 1");
    }
    // The core module leaves the comparison to kubedv/full, and says so.
    #[cfg(not(feature = "full"))]
    {
        let e = schema.validate(js(obj.clone()), None, Some(js(opts))).expect_err("refused");
        let message = js_sys::Reflect::get(&e, &"message".into()).unwrap().as_string().unwrap();
        assert!(message.contains("kubedv/full"), "{message}");
        let r = decode(schema.validate(js(obj.clone()), None, None).unwrap_or_else(|_| panic!()));
        assert_eq!(r["errors"][0]["enforced"], false, "an alpha error is not returned");
        assert!(r.get("shadow").is_none());
    }
    let opts = json!({"k8sVersion": "1.34", "gates": {"DeclarativeValidationTakeover": true}});
    let r = decode(schema.validate(js(obj.clone()), None, Some(js(opts))).unwrap_or_else(|_| panic!()));
    // 1.33-1.35 had no stability levels: Takeover returns every declarative error (apiserver
    // v0.35 ValidateDeclarativelyWithMigrationChecks: RemoveCoveredByDeclarative + all).
    assert_eq!(r["errors"][0]["enforced"], true, "takeover returns every declarative error");
    assert!(r.get("shadow").is_none());
    let r = decode(
        schema.validate(js(obj.clone()), None, Some(js(json!({"subresource": "/scale"})))).unwrap_or_else(|_| panic!()),
    );
    assert_eq!(
        r["errors"][0]["text"],
        "<nil>: Internal error: no validation found for *v1.Widget, subresource: /scale"
    );
    assert!(schema.validate(js(obj.clone()), None, Some(js(json!({"k8sVersion": "1.2"})))).is_err());
    assert!(schema.validate(js(obj), None, Some(js(json!({"gates": {"Nope": true}})))).is_err());
}

// `+default` values applied before validating (defaulter-gen's SetObjectDefaults_, as the API
// server decodes), or not with `{defaults: false}` (validation-gen required.go doOptional: an
// optional field with a default is required).
#[wasm_bindgen_test]
fn validate_applies_defaults_unless_told_not_to() {
    let types = "package v1\n\ntype Pool struct {\n\tTypeMeta int\n\t// +k8s:optional\n\t// +default=12\n\t// +k8s:maximum=10\n\tSize *int32 `json:\"size,omitempty\"`\n}\n";
    let schema = kubedv_wasm::compile_types(types, None).unwrap_or_else(|_| panic!("compiles"));
    let r = decode(schema.validate(js(json!({})), None, None).unwrap_or_else(|_| panic!()));
    assert_eq!(r["errors"][0]["text"], "size: Invalid value: 12: must be less than or equal to 10");
    let opts = js(json!({"defaults": false}));
    let r = decode(schema.validate(js(json!({})), None, Some(opts)).unwrap_or_else(|_| panic!()));
    assert_eq!(r["errors"][0]["text"], "size: Required value");
}
