#![cfg(target_arch = "wasm32")]
//! The CEL part of the npm API (`compileCel`, `celVars`, `evalCel`), in Node and Chrome alike.
//! Costs: apiserver pkg/cel/library/cost_test.go; conformance: cel-spec tests/simple.

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

fn eval(expr: &str, vars: Value) -> Result<Value, JsValue> {
    kubedv_wasm::eval_cel(expr, Some(js(&vars)), None, None).map(decode)
}

/// The thrown error's message and `kind`, `line`, `column`.
fn error_of(e: JsValue) -> (String, String, u32, u32) {
    let err: js_sys::Error = e.dyn_into().expect("an Error");
    let get = |k: &str| js_sys::Reflect::get(&err, &k.into()).unwrap();
    (
        err.message().into(),
        get("kind").as_string().unwrap(),
        get("line").as_f64().unwrap() as u32,
        get("column").as_f64().unwrap() as u32,
    )
}

#[wasm_bindgen_test]
fn eval_cel_gives_value_type_and_cost() {
    // cost_test.go: `'abc 123 def 123'.split(' ')` costs 3.
    assert_eq!(
        eval("'abc 123 def 123'.split(' ')", json!({})).unwrap(),
        json!({"value": ["abc", "123", "def", "123"], "type": "list", "cost": 3})
    );
    assert_eq!(eval("self.replicas > 2", json!({"self": {"replicas": 3}})).unwrap()["value"], json!(true));
}

#[wasm_bindgen_test]
fn values_render_as_the_cli_renders_them() {
    assert_eq!(eval("duration('90m')", json!({})).unwrap()["value"], "1h30m0s");
    assert_eq!(
        eval("timestamp('2024-01-02T03:04:05Z') + duration('1h')", json!({})).unwrap()["value"],
        "2024-01-02T04:04:05Z"
    );
    assert_eq!(eval("b'abc'", json!({})).unwrap()["value"], "YWJj");
    assert_eq!(
        eval("18446744073709551615u", json!({})).unwrap(),
        json!({"value": "18446744073709551615", "type": "uint", "cost": 0})
    );
    assert_eq!(eval("9007199254740991", json!({})).unwrap()["value"], json!(9007199254740991u64));
    // Kubernetes' environment refuses mixed literals (cel-go ValidateHomogeneousAggregateLiterals).
    assert_eq!(eval("{'a': [dyn(1), dyn(2.5), dyn(null)]}", json!({})).unwrap()["value"], json!({"a": [1, 2.5, null]}));
    assert!(eval("[1, 2.5]", json!({})).is_err());
    assert_eq!(eval("optional.of(1)", json!({})).unwrap()["type"], "optional_type");
}

#[wasm_bindgen_test]
fn kubernetes_libraries_work() {
    assert_eq!(eval("quantity('1Gi').isGreaterThan(quantity('1G'))", json!({})).unwrap()["value"], json!(true));
    assert_eq!(eval("cidr('10.0.0.0/8').containsIP(ip('10.1.2.3'))", json!({})).unwrap()["value"], json!(true));
    assert_eq!(eval("url('https://example.com:8443/x').getPort()", json!({})).unwrap()["value"], "8443");
    assert_eq!(eval("semver('1.2.3').isLessThan(semver('1.10.0'))", json!({})).unwrap()["value"], json!(true));
    assert_eq!(eval("[3, 1, 2].isSorted()", json!({})).unwrap()["value"], json!(false));
    assert_eq!(eval("'a1b22'.findAll('[0-9]+')", json!({})).unwrap()["value"], json!(["1", "22"]));
    let v = eval("format.dns1123Label().validate('Not_OK')", json!({})).unwrap();
    assert!(v["value"][0].as_str().unwrap().starts_with("a lowercase RFC 1123 label"));
}

#[wasm_bindgen_test]
fn parse_errors_are_thrown_with_position() {
    let (message, kind, line, column) = error_of(eval("[1,\n 2", json!({})).unwrap_err());
    assert_eq!((kind.as_str(), line, column), ("parse", 2, 3));
    assert!(message.starts_with("2:3: Syntax error"), "{message}");
}

#[wasm_bindgen_test]
fn check_errors_are_thrown_before_evaluation() {
    let (message, kind, _, column) = error_of(eval("1 + 'a'", json!({})).unwrap_err());
    assert_eq!((kind.as_str(), column), ("check", 3));
    assert!(message.contains("found no matching overload for '_+_' applied to '(int, string)'"));
    let (message, kind, ..) = error_of(eval("nope > 1", json!({})).unwrap_err());
    assert_eq!(kind, "check");
    assert!(message.contains("undeclared reference to 'nope'"));
}

#[wasm_bindgen_test]
fn evaluation_and_cost_errors() {
    let (message, kind, ..) = error_of(eval("x / 0 == 1", json!({"x": 1})).unwrap_err());
    assert_eq!((kind.as_str(), message.as_str()), ("eval", "1:3: division by zero"));
    let (message, kind, ..) =
        error_of(eval("lists.range(2000).all(i, lists.range(2000).all(j, j >= 0))", json!({})).unwrap_err());
    assert_eq!(kind, "cost");
    assert!(message.ends_with("operation cancelled: actual cost limit exceeded"));
    // Go's RE2 has Unicode classes; this build has no tables for them: the rule compiles (as
    // in Kubernetes) and says why it cannot run; a pattern Go rejects is refused at compile
    // time (cel-go ValidateRegexLiterals).
    let (message, kind, ..) = error_of(eval("'é'.matches('^\\\\p{L}+$')", json!({})).unwrap_err());
    assert_eq!(kind, "eval");
    assert!(message.contains("Unicode classes"), "{message}");
    let (message, kind, ..) = error_of(eval("'a'.matches('(')", json!({})).unwrap_err());
    assert_eq!((kind.as_str(), message.as_str()), ("check", "1:13: invalid matches argument"));
}

#[wasm_bindgen_test]
fn compiled_programs_evaluate_many_times_with_bound_vars() {
    let program =
        kubedv_wasm::compile_cel("self.items.all(i, i.size < 10)", Some(js(&json!({"self": "dyn"}))), None).unwrap();
    assert_eq!(program.result_type(), "bool");
    let small = kubedv_wasm::cel_vars(js(&json!({"self": {"items": [{"size": 1}, {"size": 2}]}}))).unwrap();
    let big = kubedv_wasm::cel_vars(js(&json!({"self": {"items": [{"size": 11}]}}))).unwrap();
    for _ in 0..3 {
        assert_eq!(decode(program.eval_vars(&small).unwrap())["value"], json!(true));
        assert_eq!(decode(program.eval_vars(&big).unwrap())["value"], json!(false));
    }
    // `test`: the bool itself, the cost in `lastCost` (3 + 2 x (2 + 1 + 4) + 1 for two items);
    // it takes the CelVars handle (as JS passes it) or a plain object.
    let (small, big) = (JsValue::from(small), JsValue::from(big));
    assert!(program.test(small.clone()).unwrap());
    assert!(program.last_cost() > 0.0);
    assert!(!program.test(big).unwrap());
    assert!(program.test(js(&json!({"self": {"items": [{"size": 3}]}}))).unwrap());
    let not_bool = kubedv_wasm::compile_cel("1 + 1", None, None).unwrap();
    assert!(not_bool.test(small).is_err());
    // The same with a plain object.
    assert_eq!(decode(program.eval(js(&json!({"self": {"items": []}}))).unwrap())["value"], json!(true));
}

#[wasm_bindgen_test]
fn schemas_type_variables_and_bound_the_estimate() {
    let schema = json!({"type": "object", "properties": {
        "image-tag": {"type": "string", "maxLength": 10},
        "names": {"type": "array", "maxItems": 5, "items": {"type": "string", "maxLength": 8}},
        "when": {"type": "string", "format": "date-time"}
    }});
    let program = kubedv_wasm::compile_cel("self.names.all(n, n.startsWith('a')) && self.image__dash__tag != '' && self.when > timestamp('2000-01-01T00:00:00Z')", Some(js(&json!({"self": schema}))), None).unwrap();
    let est = decode(program.estimated_cost().unwrap());
    assert!(est["max"].as_u64().unwrap() < 100, "{est}");
    let r = decode(
        program
            .eval(js(&json!({"self": {"image-tag": "v1", "names": ["ab", "ac"], "when": "2024-01-01T00:00:00Z"}})))
            .unwrap(),
    );
    assert_eq!(r["value"], json!(true));
    // A field the schema does not declare is a check error.
    let e =
        kubedv_wasm::compile_cel("self.other == 1", Some(js(&json!({"self": schema}))), None).map(|_| ()).unwrap_err();
    assert_eq!(error_of(e).1, "check");
}

#[wasm_bindgen_test]
fn options_turn_folding_off_and_set_the_cost_limit() {
    let folded = kubedv_wasm::compile_cel("[1, 2, 3].size()", None, None).unwrap();
    assert_eq!(decode(folded.eval(JsValue::UNDEFINED).unwrap())["cost"], json!(1));
    let plain = kubedv_wasm::compile_cel("[1, 2, 3].size()", None, Some(js(&json!({"optimize": false})))).unwrap();
    assert_eq!(decode(plain.eval(JsValue::UNDEFINED).unwrap())["cost"], json!(11));
    let limited =
        kubedv_wasm::compile_cel("lists.range(100).all(x, x >= 0)", None, Some(js(&json!({"costLimit": 50})))).unwrap();
    assert_eq!(error_of(limited.eval(JsValue::UNDEFINED).unwrap_err()).1, "cost");
    assert!(kubedv_wasm::compile_cel("1", None, Some(js(&json!({"bogus": 1})))).is_err());
}

#[wasm_bindgen_test]
fn ten_thousand_parentheses_are_a_parse_error_not_a_trap() {
    let deep = format!("{}1{}", "(".repeat(10_000), ")".repeat(10_000));
    assert_eq!(error_of(eval(&deep, json!({})).unwrap_err()).1, "parse");
}

#[wasm_bindgen_test]
fn a_deeply_nested_object_is_an_error_not_a_trap() {
    // Built in JS (not through serde, which would recurse in the test itself).
    let mut nested: JsValue = 1.into();
    for _ in 0..5_000 {
        nested = js_sys::Array::of1(&nested).into();
    }
    let vars = js_sys::Object::new();
    js_sys::Reflect::set(&vars, &"x".into(), &nested).unwrap();
    assert!(kubedv_wasm::cel_vars(vars.into()).is_err());
}

#[wasm_bindgen_test]
fn bad_declarations_are_errors() {
    // A declaration that is neither "dyn" nor a schema.
    assert!(kubedv_wasm::compile_cel("x", Some(js(&json!({"x": 5}))), None).is_err());
}
