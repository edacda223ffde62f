//! Schema-typed CEL values, as apiserver's `UnstructuredToVal` makes them: apiextensions'
//! `TestEquality`, `TestLister` and `TestMapper` (`pkg/apiserver/schema/cel/values_test.go` at
//! 1aa2717a), kept as JSON in `tests/corpus/apiextensions/values.json`. Each `ref.Val` method the
//! runners call is asked of kubedv as the CEL expression that calls it: `Equal` as `==` (the
//! schema-typed value on the left, also against the other side as plain data), `Contains` as
//! `in`, `Add` as `+` (a list-map merges by key, a set unites), `Get` as indexing, `Size` as
//! `size`.

use std::collections::BTreeMap;

use kubedv_core::cel::{from_json, schema, to_json, Program, Value};
use serde_json::{json, Value as Json};

const TABLE: &str = corpus!("apiextensions/values.json");
const GO: &str = corpus!("apiextensions/values_test.go");

fn eval(expr: &str, vars: &[(&str, Value)]) -> Result<Value, String> {
    let vars: BTreeMap<String, Value> = vars.iter().map(|(k, v)| (String::from(*k), v.clone())).collect();
    Program::compile(expr).and_then(|p| p.eval(&vars)).map(|r| r.value).map_err(|e| e.message)
}

fn is(v: Result<Value, String>, want: bool) -> bool {
    matches!(v, Ok(Value::Bool(b)) if b == want)
}

fn check_line(line: u64, name: &str) {
    let go = GO.lines().skip(line as usize - 1).take(3).collect::<Vec<_>>().join(" ");
    assert!(go.contains(&format!("{}", json!(name))), "line {line} does not start {name:?}");
}

#[test]
fn equality_lister_and_mapper() {
    let table: Json = serde_json::from_str(TABLE).unwrap();
    let schema_of = |name: &Json| table["schemas"][name.as_str().unwrap()].clone();
    let typed = |value: &Json, schema_name: &Json| schema::value(value, &schema_of(schema_name), false);
    let mut failures = Vec::new();

    for case in table["equality"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        check_line(case["line"].as_u64().unwrap(), name);
        let want = case["equal"].as_bool().unwrap();
        let vars = [
            ("l", typed(&case["lhs"], &case["lhsSchema"])),
            ("r", typed(&case["rhs"], &case["rhsSchema"])),
            ("L", from_json(&case["lhs"])),
            ("R", from_json(&case["rhs"])),
        ];
        for expr in ["l == r", "r == l", "l == R", "r == L"] {
            if !is(eval(expr, &vars), want) {
                failures.push(format!("{name}: {expr} is not {want}: {:?}", eval(expr, &vars)));
            }
        }
    }

    for case in table["lister"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        check_line(case["line"].as_u64().unwrap(), name);
        let items = case["unstructured"].as_array().unwrap();
        let l = typed(&case["unstructured"], &case["schema"]);
        let vars = |extra: &[(&'static str, Value)]| {
            let mut v = vec![("l", l.clone())];
            v.extend(extra.iter().cloned());
            v
        };
        if !matches!(eval("size(l)", &vars(&[])), Ok(Value::Int(n)) if n as u64 == case["size"].as_u64().unwrap()) {
            failures.push(format!("{name}: size"));
        }
        // Get and the iterator give the elements in their order.
        for (i, item) in items.iter().enumerate() {
            match eval(&format!("l[{i}]"), &vars(&[])) {
                Ok(v) if to_json(&v) == *item => {}
                other => failures.push(format!("{name}: l[{i}] is {other:?}")),
            }
            let e = typed(item, &case["itemSchema"]);
            if !is(eval("e in l", &vars(&[("e", e)])), true) {
                failures.push(format!("{name}: element {i} not in l"));
            }
        }
        match eval("l.map(x, x)", &vars(&[])) {
            Ok(v) if to_json(&v) == case["unstructured"] => {}
            other => failures.push(format!("{name}: iteration gives {other:?}")),
        }
        for absent in case["notContains"].as_array().unwrap() {
            let e = typed(&absent["value"], &absent["schema"]);
            if !is(eval("e in l", &vars(&[("e", e)])), false) {
                failures.push(format!("{name}: {} in l", absent["value"]));
            }
        }
        let a = typed(&case["addition"], &case["schema"]);
        let expected = case["expectAdded"].as_array().unwrap();
        match eval("l + a", &vars(&[("a", a)])) {
            Ok(sum @ Value::List(_)) => {
                let n = eval("size(s)", &[("s", sum.clone())]);
                if !matches!(n, Ok(Value::Int(n)) if n as usize == expected.len()) {
                    failures.push(format!("{name}: size(l + a) is {n:?}, want {}", expected.len()));
                }
                for (i, want) in expected.iter().enumerate() {
                    let x = typed(want, &case["itemSchema"]);
                    if !is(eval(&format!("x == s[{i}]"), &[("x", x), ("s", sum.clone())]), true) {
                        failures.push(format!("{name}: (l + a)[{i}] is not {want}: {:?}", to_json(&sum)));
                    }
                }
            }
            other => failures.push(format!("{name}: l + a is {other:?}")),
        }
    }

    for case in table["mapper"].as_array().unwrap() {
        let name = case["name"].as_str().unwrap();
        check_line(case["line"].as_u64().unwrap(), name);
        let m = typed(&case["unstructured"], &case["schema"]);
        let vars = [("m", m)];
        if !matches!(eval("size(m)", &vars), Ok(Value::Int(n)) if n as u64 == case["size"].as_u64().unwrap()) {
            failures.push(format!("{name}: size"));
        }
        for (k, v) in case["unstructured"].as_object().unwrap() {
            match eval(&format!("m[{}]", json!(k)), &vars) {
                Ok(got) if to_json(&got) == *v => {}
                other => failures.push(format!("{name}: m[{k}] is {other:?}")),
            }
            if !is(eval(&format!("{} in m", json!(k)), &vars), true) {
                failures.push(format!("{name}: {k} not in m"));
            }
        }
        match eval("m.map(k, k)", &vars) {
            Ok(keys) => {
                let mut got: Vec<Json> = to_json(&keys).as_array().cloned().unwrap_or_default();
                let mut want: Vec<Json> = case["unstructured"].as_object().unwrap().keys().map(|k| json!(k)).collect();
                got.sort_by_key(|k| k.to_string());
                want.sort_by_key(|k| k.to_string());
                if got != want {
                    failures.push(format!("{name}: the iterator's keys are {got:?}"));
                }
            }
            Err(e) => failures.push(format!("{name}: m.map: {e}")),
        }
        for absent in case["notContains"].as_array().unwrap() {
            let e = typed(&absent["value"], &absent["schema"]);
            if !is(eval("e in m", &[("e", e), ("m", vars[0].1.clone())]), false) {
                failures.push(format!("{name}: {} in m", absent["value"]));
            }
        }
    }
    let counts = ["equality", "lister", "mapper"].map(|k| table[k].as_array().unwrap().len());
    assert_eq!(counts, [22, 3, 2]);
    assert!(failures.is_empty(), "{} differ:\n{}", failures.len(), failures.join("\n"));
}

/// `==`, `!=` and `in` with object data on one side and a value of another kind on the other:
/// cel-go evaluates `==` as `types.Equal`, the left operand's `Equal` (interpreter/
/// interpretable.go evalEq, common/types/util.go), and `!=` as "not true" (evalNe), so an error
/// there is `true`; apiserver's `valuesunstructured.go` (v0.37.0-beta.0) answers a non-list
/// (non-map) with `MaybeNoSuchOverloadErr` and compares elements by their own `Equal`, the first
/// result that is not true deciding; cel-go's `baseList.Equal` / `Contains` skip an element's
/// error. (The rules are written with `dyn` values, as only they type-check.)
#[test]
fn object_data_against_other_kinds() {
    let schema = json!({"type": "object", "properties": {
        "l": {"type": "array", "items": {"type": "integer"}},
        "ll": {"type": "array", "items": {"type": "array", "items": {"type": "integer"}}},
        "m": {"type": "object", "additionalProperties": {"type": "string"}},
        "o": {"type": "object", "properties": {"a": {"type": "string"}}}}});
    let data = json!({"l": [1], "ll": [[1]], "m": {"a": "b"}, "o": {"a": "b"}});
    let vars = [("self", schema::value(&data, &schema, false))];
    let error = Err(String::from("no such overload"));
    let cases: &[(&str, Result<bool, String>)] = &[
        ("self.l == 1", error.clone()),
        ("1 == self.l", Ok(false)),
        ("self.l != 1", Ok(true)),
        ("[self.l] == [1]", Ok(true)),
        ("[1] == [self.l]", Ok(false)),
        ("self.l == [1]", Ok(true)),
        ("[1] == self.l", Ok(true)),
        ("self.ll == [1]", error.clone()),
        ("self.ll != [1]", Ok(true)),
        ("self.m == 'x'", error.clone()),
        ("self.o == 1", error.clone()),
        ("self.o == {'a': 'b'}", Ok(true)),
        ("self.l in [1]", Ok(false)),
        ("1 in self.l", Ok(true)),
        ("2 in self.ll", error.clone()),
        ("1 in self.m", error),
        ("'a' in self.m", Ok(true)),
    ];
    let mut failures = Vec::new();
    for (expr, want) in cases {
        let got = eval(expr, &vars).map(|v| matches!(v, Value::Bool(true)));
        if &got != want {
            failures.push(format!("{expr}: got {got:?}, want {want:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A field selected on a value that is not a map: cel-go qualifies it with `refQualify`
/// (interpreter/attributes.go, v0.29.2), where a list takes the name as an index and refuses it
/// (`types.IndexOrError`: `unsupported index type 'string' in list`) even when only testing its
/// presence (`has`, `.?`), and any other value has `no such key` — or, tested, is absent. The
/// oracle's `cel` mode (Kubernetes v1.37.2's environment) gave each answer; the differential
/// fuzzer's `cel` path found kubedv saying `no such key: a` for a list.
#[test]
fn selections_on_lists_and_scalars() {
    let list = "unsupported index type 'string' in list";
    let cases: &[(Json, &str, Result<bool, &str>)] = &[
        (json!([1]), "self.a", Err(list)),
        (json!(["a"]), "self.a.b", Err(list)),
        (json!({"a": [1]}), "self.a.b", Err(list)),
        (json!([1]), "has(self.a)", Err(list)),
        (json!([1]), "self.?a", Err(list)),
        (json!(1), "self.a", Err("no such key: a")),
        (json!(1), "has(self.a)", Ok(false)),
        (json!("s"), "has(self.a)", Ok(false)),
        (json!(1), "self.?a == optional.none()", Ok(true)),
    ];
    for (data, expr, want) in cases {
        let got = eval(expr, &[("self", from_json(data))]).map(|v| matches!(v, Value::Bool(true)));
        assert_eq!(got, want.map_err(String::from), "{expr} of {data}");
    }
}
