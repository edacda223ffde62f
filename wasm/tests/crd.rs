#![cfg(target_arch = "wasm32")]
//! CRD validation in the npm API (`compileCrd`, `validateCrd`), in Node and Chrome alike.
//! Messages: apiextensions-apiserver pkg/apiserver/validation and pkg/apiserver/schema/cel.

use serde::Serialize;
use serde_json::{json, Value};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;

fn js<T: Serialize>(v: &T) -> JsValue {
    v.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).unwrap()
}

fn crd(rule: &str) -> Value {
    json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition", "metadata": {"name": "widgets.example.com"},
        "spec": {"group": "example.com", "scope": "Namespaced", "names": {"kind": "Widget", "plural": "widgets"},
        "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {
            "type": "object", "properties": {"spec": {"type": "object", "x-kubernetes-validations": [{"rule": rule, "message": "min must not exceed max"}],
                "properties": {"min": {"type": "integer"}, "max": {"type": "integer", "maximum": 100}}}}}}}]}})
}

fn texts(result: JsValue) -> Vec<String> {
    let v: Value = serde_wasm_bindgen::from_value(result).unwrap();
    v["errors"].as_array().unwrap().iter().map(|e| e["text"].as_str().unwrap().to_string()).collect()
}

#[wasm_bindgen_test]
fn validate_crd_reports_openapi_and_rule_errors() {
    let r = kubedv_wasm::validate_crd(
        js(&crd("self.min <= self.max")),
        js(&json!({"spec": {"min": 9, "max": 5}})),
        None,
        None,
    )
    .unwrap();
    assert_eq!(texts(r), ["spec: Invalid value: min must not exceed max"]);
    let r = kubedv_wasm::validate_crd(
        js(&crd("self.min <= self.max")),
        js(&json!({"spec": {"min": 1, "max": 500}})),
        None,
        None,
    )
    .unwrap();
    assert_eq!(texts(r), ["spec.max: Invalid value: 500: spec.max in body should be less than or equal to 100"]);
}

#[wasm_bindgen_test]
fn compiled_crds_validate_many_objects_and_updates() {
    let v = kubedv_wasm::compile_crd(js(&crd("self.max >= oldSelf.max")), None).unwrap();
    assert_eq!((v.kind(), v.version()), ("Widget".to_string(), "v1".to_string()));
    for _ in 0..3 {
        assert!(texts(v.validate(js(&json!({"spec": {"max": 1}})), None).unwrap()).is_empty());
    }
    let r = v.validate(js(&json!({"spec": {"max": 1}})), Some(js(&json!({"spec": {"max": 2}})))).unwrap();
    assert_eq!(texts(r), ["spec: Invalid value: min must not exceed max"]);
}

#[wasm_bindgen_test]
fn refused_crds_throw_with_the_errors() {
    let e = kubedv_wasm::compile_crd(js(&crd("self.min > 'x'")), None).map(|_| ()).unwrap_err();
    let err: js_sys::Error = e.dyn_into().unwrap();
    let message: String = err.message().into();
    assert!(message.contains("x-kubernetes-validations[0].rule: Invalid value"), "{message}");
    let errors = js_sys::Reflect::get(&err, &"errors".into()).unwrap();
    assert_eq!(js_sys::Array::from(&errors).length(), 1);
    assert!(kubedv_wasm::compile_crd(js(&json!({"kind": "ConfigMap"})), None).is_err());
    assert!(kubedv_wasm::compile_crd(js(&crd("true")), Some(js(&json!({"version": "v9"})))).is_err());
}

/// A CRD and its objects as YAML text, as they sit in a repository.
const WIDGET_CRD_YAML: &str = "\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {kind: Widget, plural: widgets}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            x-kubernetes-validations:
            - rule: self.min <= self.max
              message: min must not exceed max
            properties:
              min: {type: integer}
              max: {type: integer}
";

#[wasm_bindgen_test]
fn yaml_strings_are_accepted_where_objects_are() {
    let v = kubedv_wasm::compile_crd(WIDGET_CRD_YAML.into(), None).unwrap();
    let r = v.validate("spec:\n  min: 9\n  max: 5\n".into(), None).unwrap();
    assert_eq!(texts(r), ["spec: Invalid value: min must not exceed max"]);
    // JSON text is YAML too; an old object given as text makes an update.
    let r = v.validate(r#"{"spec": {"min": 1, "max": 5}}"#.into(), Some("spec: {min: 1, max: 5}".into())).unwrap();
    assert!(texts(r).is_empty());
}

#[wasm_bindgen_test]
fn unreadable_yaml_throws_with_its_position() {
    let v = kubedv_wasm::compile_crd(WIDGET_CRD_YAML.into(), None).unwrap();
    let e = v.validate("spec:\n  min: [1, 2\n".into(), None).map(|_| ()).unwrap_err();
    let err: js_sys::Error = e.dyn_into().unwrap();
    let message = String::from(err.message());
    assert!(message.starts_with("the object: 3:1: invalid YAML: "), "{message}");
    let line = js_sys::Reflect::get(&err, &"line".into()).unwrap();
    assert_eq!(line.as_f64(), Some(3.0));
}

#[wasm_bindgen_test]
fn deep_or_explosive_yaml_is_an_error_not_a_trap() {
    let v = kubedv_wasm::compile_crd(WIDGET_CRD_YAML.into(), None).unwrap();
    let deep = "[".repeat(100_000);
    let e: js_sys::Error = v.validate(deep.into(), None).map(|_| ()).unwrap_err().dyn_into().unwrap();
    assert!(String::from(e.message()).contains("recursion limit exceeded"), "{}", String::from(e.message()));
    // The "billion laughs": nine levels of nine aliases.
    let mut bomb = String::from("a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for level in 1..9u8 {
        let (name, prev) = ((b'a' + level) as char, (b'a' + level - 1) as char);
        bomb.push_str(&format!("{name}: &{name} [{}]\n", vec![format!("*{prev}"); 9].join(", ")));
    }
    let e: js_sys::Error = v.validate(bomb.into(), None).map(|_| ()).unwrap_err().dyn_into().unwrap();
    // go-yaml v2.4.0 decode.go `allowedAliasRatio`, with its words.
    assert!(
        String::from(e.message()).contains("document contains excessive aliasing"),
        "{}",
        String::from(e.message())
    );
}
