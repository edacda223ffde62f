#![cfg(target_arch = "wasm32")]
//! More of the npm API's behaviour, export by export (Node and Chrome alike). Expected strings:
//! apimachinery pkg/api/validate/content (formats), the CRI policies, cel-go (CEL),
//! apiextensions-apiserver (CRDs).

use serde::Serialize;
use serde_json::{json, Value};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;

fn js<T: Serialize>(v: &T) -> JsValue {
    v.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).unwrap()
}

fn decode(v: JsValue) -> Value {
    serde_wasm_bindgen::from_value(v).expect("a JSON-compatible value")
}

fn cel(expr: &str) -> Value {
    decode(kubedv_wasm::eval_cel(expr, None, None, None).unwrap())["value"].clone()
}

fn format_errors(format: &str, value: &str) -> Vec<Value> {
    decode(kubedv_wasm::check_format(format, value, None).unwrap()).as_array().unwrap().clone()
}

#[wasm_bindgen_test]
fn long_names_follow_rfc_1123_subdomains() {
    assert!(format_errors("k8s-long-name", "a.b-c").is_empty());
    let errs = format_errors("k8s-long-name", "A");
    assert!(errs[0]["detail"].as_str().unwrap().starts_with("a lowercase RFC 1123 subdomain"));
}

#[wasm_bindgen_test]
fn label_keys_take_a_prefix() {
    assert!(format_errors("k8s-label-key", "example.com/name").is_empty());
    assert_eq!(format_errors("k8s-label-key", "-x").len(), 1);
}

#[wasm_bindgen_test]
fn uuids_are_checked() {
    assert_eq!(format_errors("k8s-uuid", "not-a-uuid").len(), 1);
}

#[wasm_bindgen_test]
fn every_format_has_a_summary() {
    for f in decode(kubedv_wasm::formats().unwrap()).as_array().unwrap() {
        assert!(!f["summary"].as_str().unwrap().is_empty(), "{f}");
    }
}

#[cfg(feature = "full")]
#[wasm_bindgen_test]
fn a_runtime_one_minor_older_is_supported() {
    let r = decode(kubedv_wasm::cri_skew(js(&json!({"kubelet": "1.30.0", "runtime": "v0.29.0"}))).unwrap());
    assert_eq!(r["supported"], true);
    assert_eq!(r["pairs"].as_array().unwrap().len(), 1);
}

#[cfg(feature = "full")]
#[wasm_bindgen_test]
fn a_kubelet_range_lists_runtimes() {
    let r = decode(kubedv_wasm::cri_range(js(&json!({"kubelet": "1.30.0"}))).unwrap());
    assert!(r["from"].as_u64().unwrap() <= r["to"].as_u64().unwrap());
    assert!(r["text"].as_str().unwrap().contains("1.30"));
}

#[wasm_bindgen_test]
fn macros_compose() {
    assert_eq!(cel("[1, 2, 3].filter(x, x > 1).map(x, x * 10)"), json!([20, 30]));
    assert_eq!(cel("[1, 2, 3].exists_one(x, x == 2)"), json!(true));
    assert_eq!(cel("{'a': 1, 'b': 2}.all(k, v, v > 0)"), json!(true));
}

#[wasm_bindgen_test]
fn strings_library() {
    assert_eq!(cel("'a,b,c'.split(',').size()"), json!(3));
    assert_eq!(cel("'  x '.trim() + 'Y'.lowerAscii()"), json!("xy"));
    assert_eq!(cel("'hello'.indexOf('l')"), json!(2));
}

#[wasm_bindgen_test]
fn optionals_and_timestamps() {
    assert_eq!(cel("{'a': 1}.?b.hasValue()"), json!(false));
    assert_eq!(cel("timestamp('2024-01-07T00:00:00Z').getDayOfWeek()"), json!(0));
    assert_eq!(cel("duration('1h30m').getMinutes()"), json!(90));
}

#[wasm_bindgen_test]
fn cel_vars_serve_several_programs() {
    let vars = kubedv_wasm::cel_vars(js(&json!({"self": {"n": 4}}))).unwrap();
    let a = kubedv_wasm::compile_cel("self.n > 3", Some(js(&json!({"self": "dyn"}))), None).unwrap();
    let b = kubedv_wasm::compile_cel("self.n * 2", Some(js(&json!({"self": "dyn"}))), None).unwrap();
    for _ in 0..2 {
        assert_eq!(decode(a.eval_vars(&vars).unwrap())["value"], json!(true));
        assert_eq!(decode(b.eval_vars(&vars).unwrap())["value"], json!(8));
    }
}

/// Each program converts the variables for its own declarations, also when it is compiled
/// after another was freed (and may sit at the same address): a `format: date-time` string is
/// a timestamp for the first program, a string for the second.
#[wasm_bindgen_test]
fn cel_vars_follow_each_programs_declarations() {
    let vars = kubedv_wasm::cel_vars(js(&json!({"self": "2024-01-07T00:00:00Z"}))).unwrap();
    let typed = json!({"self": {"type": "string", "format": "date-time"}});
    for _ in 0..3 {
        // On the heap, as JavaScript holds them: the second box may take the first's place.
        let a = Box::new(
            kubedv_wasm::compile_cel("type(self) == google.protobuf.Timestamp", Some(js(&typed)), None).unwrap(),
        );
        assert_eq!(decode(a.eval_vars(&vars).unwrap())["value"], json!(true));
        drop(a);
        let b = Box::new(
            kubedv_wasm::compile_cel("type(self) == string", Some(js(&json!({"self": "dyn"}))), None).unwrap(),
        );
        assert_eq!(decode(b.eval_vars(&vars).unwrap())["value"], json!(true));
    }
}

#[wasm_bindgen_test]
fn checked_types_follow_the_schema() {
    let schema = json!({"type": "object", "properties": {"n": {"type": "integer"}, "s": {"type": "string"}}});
    assert_eq!(
        kubedv_wasm::compile_cel("self.n + 1", Some(js(&json!({"self": schema}))), None).unwrap().result_type(),
        "int"
    );
    assert_eq!(
        kubedv_wasm::compile_cel("self.s.size() > 0", Some(js(&json!({"self": schema}))), None).unwrap().result_type(),
        "bool"
    );
    assert!(kubedv_wasm::compile_cel("self.s + 1", Some(js(&json!({"self": schema}))), None).is_err());
}

fn two_version_crd() -> Value {
    json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition", "metadata": {"name": "gadgets.example.com"},
    "spec": {"group": "example.com", "scope": "Namespaced", "names": {"kind": "Gadget", "plural": "gadgets"}, "versions": [
        {"name": "v1beta1", "served": true, "storage": false, "schema": {"openAPIV3Schema": {"type": "object", "properties": {"spec": {"type": "object", "properties": {"size": {"type": "integer"}}}}}}},
        {"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {"type": "object", "properties": {"spec": {"type": "object", "properties": {"size": {"type": "integer", "maximum": 3}}}}}}}
    ]}})
}

#[wasm_bindgen_test]
fn crd_versions_are_chosen() {
    let storage = kubedv_wasm::compile_crd(js(&two_version_crd()), None).unwrap();
    assert_eq!(storage.version(), "v1");
    let errs = decode(storage.validate(js(&json!({"spec": {"size": 5}})), None).unwrap());
    assert_eq!(
        errs["errors"][0]["text"],
        "spec.size: Invalid value: 5: spec.size in body should be less than or equal to 3"
    );
    let beta = kubedv_wasm::compile_crd(js(&two_version_crd()), Some(js(&json!({"version": "v1beta1"})))).unwrap();
    assert_eq!(decode(beta.validate(js(&json!({"spec": {"size": 5}})), None).unwrap())["errors"], json!([]));
}

#[wasm_bindgen_test]
fn crd_updates_ratchet_unchanged_values() {
    let v = kubedv_wasm::compile_crd(js(&two_version_crd()), None).unwrap();
    let same = json!({"spec": {"size": 5}});
    assert_eq!(decode(v.validate(js(&same), Some(js(&same))).unwrap())["errors"], json!([]));
}

#[wasm_bindgen_test]
fn crd_field_errors_carry_type_and_value() {
    let v = kubedv_wasm::compile_crd(js(&two_version_crd()), None).unwrap();
    let e = decode(v.validate(js(&json!({"spec": {"size": "big"}})), None).unwrap())["errors"][0].clone();
    assert_eq!(e["type"], "FieldValueTypeInvalid");
    // kube-openapi type.go: a type error carries the type found, not the value.
    assert_eq!(e["value"], "string");
    assert_eq!(e["field"], "spec.size");
}

#[wasm_bindgen_test]
fn schema_getters_describe_the_types() {
    let src = "package p\n\ntype Widget struct {\n\t// +k8s:ifEnabled(Strict)=+k8s:required\n\tName string `json:\"name\"`\n}\n";
    let schema = kubedv_wasm::compile_types(src, None).unwrap_or_else(|_| panic!("compiles"));
    assert_eq!(decode(schema.types().unwrap()), json!(["Widget"]));
    assert_eq!(decode(schema.diagnostics().unwrap()), json!([]));
    assert_eq!(decode(schema.options().unwrap()), json!(["Strict"]));
}

#[wasm_bindgen_test]
fn version_is_semver() {
    let v = kubedv_wasm::version();
    assert_eq!(v.split('.').count(), 3);
    assert_eq!(cel(&format!("isSemver('{v}')")), json!(true));
}

#[wasm_bindgen_test]
fn format_errors_name_their_field() {
    let errs = decode(kubedv_wasm::check_format("k8s-short-name", "Bad", Some("spec.name".into())).unwrap());
    assert!(errs[0]["text"].as_str().unwrap().starts_with("spec.name: Invalid value: \"Bad\""));
}

#[cfg(feature = "full")]
#[wasm_bindgen_test]
fn unknown_runtimes_are_errors() {
    assert!(kubedv_wasm::cri_range(js(&json!({"runtime": "dockershim=1.0"}))).is_err());
}

/// Kubernetes' environment (apiserver pkg/cel/environment/base.go) enables ext sets but not
/// ext math, encoders or bindings: their names are undeclared references, as cel-go says.
#[wasm_bindgen_test]
fn sets_but_not_math_encoders_or_bindings() {
    assert_eq!(cel("sets.contains([1, 2, 3], [2, 3])"), json!(true));
    for (expr, ns) in
        [("math.greatest(1, 5, 3)", "math"), ("base64.encode(b'hi')", "base64"), ("cel.bind(x, 1, x)", "cel")]
    {
        let err: js_sys::Error = kubedv_wasm::eval_cel(expr, None, None, None).unwrap_err().dyn_into().unwrap();
        let message: String = err.message().into();
        assert!(message.contains(&format!("undeclared reference to '{ns}' (in container '')")), "{expr}: {message}");
    }
}

#[wasm_bindgen_test]
fn cel_vars_need_an_object() {
    assert!(kubedv_wasm::cel_vars(JsValue::from_str("self")).is_err());
}

#[wasm_bindgen_test]
fn one_shot_crd_update() {
    let crd = two_version_crd();
    let r = decode(
        kubedv_wasm::validate_crd(
            js(&crd),
            js(&json!({"spec": {"size": 9}})),
            Some(js(&json!({"spec": {"size": 1}}))),
            None,
        )
        .unwrap(),
    );
    assert_eq!(r["errors"].as_array().unwrap().len(), 1, "a changed invalid value is reported");
}

#[wasm_bindgen_test]
fn evaluation_results_report_cost() {
    let r = decode(
        kubedv_wasm::eval_cel("'abc 123 def 123'.find('123')", None, None, Some(js(&json!({"optimize": false}))))
            .unwrap(),
    );
    // cost_test.go: find costs 2.
    assert_eq!(r, json!({"value": "123", "type": "string", "cost": 2}));
}
