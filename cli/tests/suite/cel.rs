//! `kubedv cel` against the CLI contract of docs/design.md: `{"value", "type", "cost"}` or
//! `{"error": {"kind", "message", "line", "column"}}`; exit 0, or 1 when the expression fails.
//! Costs and messages are Kubernetes' (apiserver pkg/cel/library/cost_test.go; cel-go).

use assert_cmd::Command;
use serde_json::{json, Value};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/cel");

fn cel(args: &[&str]) -> (Option<i32>, Value) {
    let out = Command::cargo_bin("kubedv").unwrap().args(["--format", "json", "cel"]).args(args).output().unwrap();
    let doc =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)));
    (out.status.code(), doc)
}

#[test]
fn values_types_and_costs() {
    // cost_test.go: `'abc 123 def 123'.split(' ')` costs 3.
    assert_eq!(
        cel(&["--expr", "'abc 123 def 123'.split(' ')"]),
        (Some(0), json!({"value": ["abc", "123", "def", "123"], "type": "list", "cost": 3}))
    );
    assert_eq!(cel(&["--expr", "1u + 2u"]).1["type"], "uint");
    // An expression that begins with `-` is the expression, not an option.
    assert_eq!(cel(&["--expr", "-1 < 0"]), (Some(0), json!({"value": true, "type": "bool", "cost": 1})));
    assert_eq!(cel(&["--expr", "duration('90m')"]).1["value"], "1h30m0s");
    assert_eq!(cel(&["--expr", "timestamp('2024-01-02T03:04:05Z')"]).1["type"], "google.protobuf.Timestamp");
    assert_eq!(cel(&["--expr", "b'abc'"]).1["value"], "YWJj");
    // Kubernetes evaluates with cel.OptOptimize: a type conversion of a constant (`type` is one,
    // overloads.IsTypeConversionFunction) is folded before evaluation (cel-go
    // interpreter/decorators.go decOptimize, maybeOptimizeConstUnary), so it costs nothing.
    assert_eq!(cel(&["--expr", "type(1)"]).1, json!({"value": "int", "type": "type", "cost": 0}));
    assert_eq!(cel(&["--expr", "optional.none()"]).1["type"], "optional_type");
    assert_eq!(cel(&["--expr", "quantity('1Gi')"]).1["type"], "kubernetes.Quantity");
    assert_eq!(cel(&["--expr", "null"]).1["type"], "null_type");
}

#[test]
fn self_and_old_self_typed_by_a_schema() {
    let schema = format!("{FIXTURES}/schema.yaml");
    let this = format!("{FIXTURES}/self.yaml");
    let old = format!("{FIXTURES}/old.yaml");
    let run = |expr: &str| cel(&["--expr", expr, "--schema", &schema, "--self", &this, "--old-self", &old]);
    // Escaped property names, formats as timestamps, maps as maps.
    let (code, doc) = run("self.image__dash__tag.startsWith('v1.') && self.started < timestamp('2025-01-01T00:00:00Z') && 'cpu' in self.limits");
    assert_eq!((code, &doc["value"]), (Some(0), &json!(true)));
    // A transition rule.
    assert_eq!(run("self.replicas >= oldSelf.replicas").1["value"], json!(false));
    // Undeclared fields are not visible: a check error, with its position.
    let (code, doc) = run("self.undeclared == 'dropped'");
    assert_eq!(code, Some(1));
    assert_eq!(
        doc,
        json!({"error": {"kind": "check", "message": "undefined field 'undeclared'", "line": 1, "column": 5}})
    );
    // A timestamp keeps its offset, as Go's time.Time does.
    assert_eq!(run("string(self.started)").1["value"], "2024-05-01T10:00:00+02:00");
}

#[test]
fn errors_carry_kind_and_position() {
    let (code, doc) = cel(&["--expr", "[1, 2"]);
    assert_eq!(code, Some(1));
    assert_eq!(doc["error"]["kind"], "parse");
    assert_eq!((doc["error"]["line"].as_u64(), doc["error"]["column"].as_u64()), (Some(1), Some(6)));
    let (_, doc) = cel(&["--expr", "1 + 'a'"]);
    assert_eq!(
        doc["error"],
        json!({"kind": "check", "message": "found no matching overload for '_+_' applied to '(int, string)'", "line": 1, "column": 3})
    );
    let (_, doc) = cel(&["--expr", "x > 1", "--var", "x=\"a\""]);
    assert_eq!(doc["error"]["kind"], "eval");
    // cel-go v0.29.2 at run time: the string compares itself (string.go Compare) and refuses an
    // int with a bare "no such overload".
    assert_eq!(doc["error"]["message"], "no such overload");
    let (_, doc) = cel(&["--expr", "lists.range(1000).all(i, lists.range(1000).all(j, i != j || true))"]);
    assert_eq!(
        doc["error"],
        json!({"kind": "cost", "message": "operation cancelled: actual cost limit exceeded", "line": 1, "column": 51})
    );
}

#[test]
fn text_output() {
    let out =
        Command::cargo_bin("kubedv").unwrap().args(["cel", "--expr", "[1, 2, 3].map(x, x * 2)"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "[2,4,6]\n");
    // Folded (as Kubernetes compiles rules): the literal list is free; 3 x (12 + 2) + 1.
    assert_eq!(String::from_utf8_lossy(&out.stderr), "type list, cost 43\n");
    let out = Command::cargo_bin("kubedv").unwrap().args(["cel", "--expr", "1 / 0 == 1"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "evaluation error at 1:3: division by zero\n");
    // Several errors, as cel-go reports them (parser_test.go `a | b`), in text and in JSON.
    let out = Command::cargo_bin("kubedv").unwrap().args(["cel", "--expr", "a | b"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "parse error at 1:3: Syntax error: token recognition error at: '| '\nparse error at 1:5: Syntax error: extraneous input 'b' expecting <EOF>\n"
    );
    let (_, doc) = cel(&["--expr", "a | b"]);
    assert_eq!(
        doc["error"]["also"],
        json!([{"kind": "parse", "message": "Syntax error: extraneous input 'b' expecting <EOF>", "line": 1, "column": 5}])
    );
}
