//! cel-go's `ext.Lists` at version 3, which Kubernetes enables from 1.34 (apiserver
//! `pkg/cel/environment/base.go`): `sort`, the `sortBy` macro and the libraries' cost trackers
//! and estimators. Every row is a case of cel-go v0.29.2 `ext/lists_test.go` (the version
//! Kubernetes 1.37 pins; 1.34–1.36 pin v0.26.0, whose `ext/lists.go` has the same trackers):
//! `TestLists` for values and errors, `TestListsCosts` for the actual and estimated costs.

use std::collections::BTreeMap;

use kubedv_core::cel::estimate::{estimate, sized_type};
use kubedv_core::cel::{checker, from_json, NoVars, Program, Value};
use serde_json::{json, Value as Json};

/// `TestLists`: expressions that evaluate to true, or fail with the error given.
const VALUES: &[(&str, Option<&str>)] = &[
    ("[].sort() == []", None),
    ("[1].sort() == [1]", None),
    ("[4, 3, 2, 1].sort() == [1, 2, 3, 4]", None),
    (r#"["d", "a", "b", "c"].sort() == ["a", "b", "c", "d"]"#, None),
    (r#"["d", 3, 2, "c"].sort() == ["a", "b", "c", "d"]"#, Some("list elements must have the same type")),
    ("[].sortBy(e, e) == []", None),
    (r#"["a"].sortBy(e, e) == ["a"]"#, None),
    ("[-3, 1, -5, -2, 4].sortBy(e, -(e * e)) == [-5, 4, -3, -2, 1]", None),
    ("[-3, 1, -5, -2, 4].map(e, e * 2).sortBy(e, -(e * e)) == [-10, 8, -6, -4, 2]", None),
    ("lists.range(3).sortBy(e, -e) == [2, 1, 0]", None),
    (r#"["a", "c", "b", "first"].sortBy(e, e == "first" ? "" : e) == ["first", "a", "b", "c"]"#, None),
    // TestListsVersion, "sortBy".
    ("[{'field': 'lo'}, {'field': 'hi'}].sortBy(m, m.field) == [{'field': 'hi'}, {'field': 'lo'}]", None),
    // kubedv: ties come out in Go's `sort.Slice` order (pdqsort is not stable beyond 12
    // elements); the indexes Go 1.27.3 gives for these keys (see `gosort.rs`).
    (
        "lists.range(20).sortBy(i, i * 7 % 3) == [9, 18, 15, 3, 12, 0, 6, 10, 7, 4, 13, 16, 1, 19, 8, 5, 11, 14, 2, 17]",
        None,
    ),
    // ext/lists.go sortListByAssociatedKeys: keys must be comparable.
    ("[[1], [2]].sortBy(e, e) == []", Some("list elements must be comparable")),
    // cel-go standard.go `duration_to_int64`: nanoseconds.
    ("int(duration('1s')) == 1000000000", None),
];

#[test]
fn values_and_errors_match_cel_go() {
    let mut failures = Vec::new();
    for (expr, err) in VALUES {
        let program = match Program::compile(expr) {
            Ok(p) => p,
            Err(e) => {
                failures.push(format!("{expr}: {e}"));
                continue;
            }
        };
        match (program.eval(&NoVars), err) {
            (Ok(r), None) if matches!(r.value, Value::Bool(true)) => {}
            (Err(e), Some(want)) if e.message.contains(want) => {}
            (Ok(r), _) => failures.push(format!("{expr}: {:?}", r.value)),
            (Err(e), _) => failures.push(format!("{expr}: {e}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn sort_by_is_refused_where_cel_go_refuses_it() {
    // sortByMacro: the target's kind.
    let Err(e) = Program::compile("{'a': 1}.sortBy(k, k)") else { panic!("compiled") };
    assert!(
        e.message
            .contains("sortBy can only be applied to a list, identifier, comprehension, call or select expression"),
        "{e}"
    );
    // parser.MakeMap (cel-go parser/macro.go): the variable is an identifier.
    let Err(e) = Program::compile("[1].sortBy(1, 1)") else { panic!("compiled") };
    assert_eq!(e.message, "argument is not an identifier", "{e}");
    // The checker: `sort` is declared for the comparable element types only; `int(bool)` does
    // not exist in cel-go.
    for expr in ["[[1], [2]].sort()", "int(true)", "uint(false)"] {
        let p = Program::compile(expr).unwrap();
        assert!(checker::check(&p, &checker::Decls::default()).is_err(), "{expr} type-checks");
    }
    let p = Program::compile("[3, 1].sortBy(x, x) == [1, 3] && int(duration('2ms')) == 2000000").unwrap();
    checker::check(&p, &checker::Decls::default()).unwrap();
}

/// A `TestListsCosts` row: the expression, its variables (value and, for the estimate, the
/// schema that gives cel-go's size hint), the estimated maximum and the actual cost.
struct CostCase {
    expr: &'static str,
    vars: Json,
    schemas: Json,
    estimated: u64,
    actual: u64,
}

fn cases() -> Vec<CostCase> {
    let none = || json!({});
    let ints = |max: u64| json!({"type": "array", "maxItems": max, "items": {"type": "integer"}});
    let strs = |max: u64| json!({"type": "array", "maxItems": max, "items": {"type": "string"}});
    let int = json!({"type": "integer"});
    let c = |expr, vars, schemas, estimated, actual| CostCase { expr, vars, schemas, estimated, actual };
    vec![
        c("lists.range(4) == [0, 1, 2, 3]", none(), none(), 26, 26),
        c("lists.range(4 / 2) == [0, 1]", none(), none(), u64::MAX, 25),
        c("lists.range(x) == [0, 1, 2, 3, 4]", json!({"x": 5}), json!({"x": int}), u64::MAX, 28),
        c("[[1, 2], 3].flatten(1) == [1, 2, 3]", none(), none(), 44, 44),
        c("[[1, 2], 3].flatten(2) == [1, 2, 3]", none(), none(), 46, 46),
        c("[[1, 2], 3].flatten(3) == [1, 2, 3]", none(), none(), 48, 48),
        c("[[1], 2, 3].flatten() == [1, 2, 3]", none(), none(), 45, 45),
        c("[[1, 2], 3].flatten(x) == [1, 2, 3]", json!({"x": 5}), json!({"x": int}), u64::MAX, 53),
        c("[1, 2, 3].distinct() == [1, 2, 3]", none(), none(), 50, 50),
        c("[1, 1, 1].distinct() == [1]", none(), none(), 50, 50),
        c("x.distinct() == ['hello']", json!({"x": ["hello", "hello"]}), json!({"x": strs(3)}), 41, 31),
        c("[1, 2, 3, 4, 5].slice(x, y) == [2, 3]", json!({"x": 1, "y": 3}), json!({"x": int, "y": int}), 39, 36),
        c("z.slice(1, 3) == [2, 3]", json!({"z": [1, 2, 3, 4, 5, 6, 7]}), json!({"z": ints(10)}), 25, 25),
        c(
            "z.slice(x, y) == [2, 3]",
            json!({"x": 1, "y": 3, "z": [1, 2, 3, 4, 5, 6, 7]}),
            json!({"x": int, "y": int, "z": ints(10)}),
            35,
            27,
        ),
        c("[1, 2, 3].slice(1, 3) == [2, 3]", none(), none(), 34, 34),
        c("[3, 2, 1].reverse() == [1, 2, 3]", none(), none(), 35, 35),
        c("x.reverse() == [1, 2, 3]", json!({"x": [3, 2, 1]}), json!({"x": ints(5)}), 28, 26),
        c("[2, 3, 1].sort() == [1, 2, 3]", none(), none(), 50, 50),
        c("x.sort() == [1, 2, 3]", json!({"x": [3, 2, 1]}), json!({"x": ints(5)}), 73, 41),
        c(
            r#"x.sort() == ["a", "a", "b", "b", "c", "c"]"#,
            json!({"x": ["b", "a", "b", "a", "c", "c"]}),
            json!({"x": strs(10)}),
            233,
            98,
        ),
        c("x.sort() == []", json!({"x": []}), json!({"x": ints(10)}), 222, 22),
        c("[{'x':4}, {'x':3}].sortBy(m, m['x']) == [{'x':3}, {'x':4}]", none(), none(), 211, 211),
        c(
            "x.sortBy(m, m['x']) == [{'x':3}, {'x':4}]",
            json!({"x": [{"x": 4}, {"x": 3}]}),
            json!({"x": {"type": "array", "maxItems": 5, "items": {"type": "object", "additionalProperties": {"type": "integer"}}}}),
            226,
            142,
        ),
        c(
            "x.sortBy(m, m['x']) == [{'x': 'a'}, {'x': 'b'}, {'x': 'c'}]",
            json!({"x": [{"x": "b"}, {"x": "c"}, {"x": "a"}]}),
            json!({"x": {"type": "array", "maxItems": 3, "items": {"type": "object", "additionalProperties": {"type": "string"}}}}),
            197,
            196,
        ),
        // ext/bindings_test.go `bindingTests`: `cel.bind` is the same expansion (an empty
        // list literal as the comprehension's range), so it costs a list creation.
        c(
            r#"cel.bind(a, 'hell' + 'o' + '!', "%s, %s, %s".format([a, a, a])) == 'hello!, hello!, hello' + '!'"#,
            none(),
            none(),
            32,
            32,
        ),
        c(
            "cel.bind(a, 'hello!', cel.bind(b, 'goodbye', a + ' and, ' + b)) == 'hello! and, goodbye'",
            none(),
            none(),
            28,
            28,
        ),
        c(
            "cel.bind(a, cel.bind(a, 'world', a + '!'), 'hello ' + a) == 'hello ' + 'world' + '!'",
            none(),
            none(),
            31,
            31,
        ),
        c(
            "cel.bind(a, x, cel.bind(b, a[0], cel.bind(c, a[1], b + c))) == 10",
            json!({"x": [3, 7]}),
            json!({"x": ints(3)}),
            39,
            39,
        ),
        c("cel.bind(x, 0, x == 0)", none(), none(), 12, 12),
    ]
}

#[test]
fn actual_costs_match_cel_go() {
    let mut failures = Vec::new();
    for case in cases() {
        let program = Program::compile(case.expr).unwrap_or_else(|e| panic!("{}: {e}", case.expr));
        let mut vars = BTreeMap::new();
        for (name, v) in case.vars.as_object().unwrap() {
            vars.insert(name.clone(), from_json(v));
        }
        match program.eval(&vars) {
            Ok(r) if matches!(r.value, Value::Bool(true)) && r.cost == case.actual => {}
            Ok(r) => failures.push(format!("{}: {:?} at cost {}, cel-go {}", case.expr, r.value, r.cost, case.actual)),
            Err(e) => failures.push(format!("{}: {e}", case.expr)),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn estimated_costs_match_cel_go() {
    let mut failures = Vec::new();
    for case in cases() {
        let program = Program::compile(case.expr).unwrap();
        let sized: Vec<(String, _)> = case
            .schemas
            .as_object()
            .unwrap()
            .iter()
            .map(|(n, s)| (n.clone(), sized_type(s).unwrap_or_else(|| panic!("{n}: no CEL type"))))
            .collect();
        let sized: Vec<(&str, _)> = sized.iter().map(|(n, s)| (n.as_str(), s.clone())).collect();
        let got = estimate(&program, &sized).max;
        if got != case.estimated {
            failures.push(format!("{}: estimated {got}, cel-go {}", case.expr, case.estimated));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
