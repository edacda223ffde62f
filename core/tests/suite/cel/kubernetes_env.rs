//! The libraries of Kubernetes' CEL environment (apiserver 24a394e5 pkg/cel/environment/base.go:
//! URLs, Regex, Authz, Quantity, optionals, strings v2, sets, IP, CIDR, Format, two-variable
//! comprehensions, Semver, ext lists v3, Kubernetes lists — no ext math, encoders or bindings),
//! and cel-go's checker message for a name no library declares
//! (checker/errors.go undeclaredReference: `undeclared reference to '%s' (in container '%s')`).

use kubedv_core::cel::checker::{check_kubernetes, CelType, Decls};
use kubedv_core::cel::Program;

fn check(src: &str) -> Result<(), (String, i32)> {
    let p = Program::compile(src).map_err(|e| (e.message.clone(), e.column))?;
    check_kubernetes(&p, &Decls::default()).map(|_| ()).map_err(|e| (e.message, e.column))
}

#[test]
fn libraries_kubernetes_does_not_enable_are_undeclared() {
    for (src, ns) in
        [("math.greatest(1, 2)", "math"), ("base64.encode(b'a')", "base64"), ("cel.bind(x, 1, x > 0)", "cel")]
    {
        let (message, column) = check(src).unwrap_err();
        assert_eq!(message, format!("undeclared reference to '{ns}' (in container '')"), "{src}");
        assert_eq!(column, 1, "{src}: at the namespace");
    }
    // ... and the ones it enables check.
    for src in [
        "sets.contains([1], [1])",
        "'a,b'.split(',').size() == 2",
        "[1, 2].all(i, v, v > i)",
        "url('https://x').getHost() == 'x'",
        // Macros Kubernetes has, which kubedv's parser lowers to binds as cel-go does (ext
        // lists v3 `sortBy`, ext/lists.go sortByMacro; the optional library's `optMap` and
        // `optFlatMap`, cel/library.go): no `cel.bind` of the user's, so no undeclared `cel`.
        "[3, 1, 2].sortBy(x, -x) == [3, 2, 1]",
        "optional.of(1).optMap(v, v + 1) == optional.of(2)",
        "optional.of(1).optFlatMap(v, optional.of(v + 1)) == optional.of(2)",
    ] {
        assert_eq!(check(src), Ok(()), "{src}");
    }
}

/// cel-go checker/errors.go: `found no matching overload for '%s' applied to '%s'` with
/// `formatFunctionDeclType` (a method as `receiver.(args)`) and FormatCELType's names
/// (`null`, `timestamp`, `duration`); an unknown method is an undeclared reference too.
#[test]
fn checker_messages_read_as_cel_gos() {
    let msg = |src: &str| check(src).unwrap_err().0;
    assert_eq!(msg("'abc'.startsWith(1)"), "found no matching overload for 'startsWith' applied to 'string.(int)'");
    assert_eq!(msg("'a' == null"), "found no matching overload for '_==_' applied to '(string, null)'");
    assert_eq!(
        msg("timestamp('2020-01-01T00:00:00Z') + 1"),
        "found no matching overload for '_+_' applied to '(timestamp, int)'"
    );
    assert_eq!(msg("'a'.nope()"), "undeclared reference to 'nope' (in container '')");
    // Strings v2 has no string reverse (cel-go ext/strings.go: version 3); lists v3 has reverse.
    assert_eq!(msg("'abc'.reverse()"), "found no matching overload for 'reverse' applied to 'string.()'");
    assert_eq!(check("[1, 2].reverse() == [2, 1]"), Ok(()));
    // cel-go v0.29.2 common/stdlib/standard.go: a list's `_[_]` is `(list(A), int)` only; a
    // `uint` index passes the checker only as `dyn` (conformance lists.textproto zero_based_uint).
    assert_eq!(msg("[1, 2][0u]"), "found no matching overload for '_[_]' applied to '(list(int), uint)'");
    assert_eq!(check("[1, 2][dyn(0u)] == 1"), Ok(()));
    // apiserver 24a394e5 pkg/cel/library ip.go and cidr.go register their types (`cel.Types`);
    // quantity.go, url.go and semver.go declare `cel.ObjectType`s that are never registered, so
    // cel-go's checker (checker/env.go lookupGlobalIdent) cannot resolve their names.
    assert_eq!(check("type(ip('1.2.3.4')) == net.IP"), Ok(()));
    assert_eq!(check("type(cidr('10.0.0.0/8')) == net.CIDR"), Ok(()));
    for expr in [
        "type(quantity('1')) == kubernetes.Quantity",
        "type(url('https://a')) == kubernetes.URL",
        "type(semver('1.0.0')) == kubernetes.Semver",
    ] {
        assert_eq!(msg(expr), "undeclared reference to 'kubernetes' (in container '')", "{expr}");
    }
}

/// cel-go cel/macro.go: Kubernetes' environment has the standard macros (`exists_one` with one
/// variable) and ext/comprehensions.go's two-variable ones (`existsOne` and `exists_one` with
/// two); the one-variable `existsOne` is only in parser.AllMacros, so here it is a call of an
/// undeclared function.
#[test]
fn exists_one_spellings() {
    assert_eq!(check("[1].exists_one(x, x > 0)"), Ok(()));
    assert_eq!(check("[1].existsOne(i, x, x > 0)"), Ok(()));
    assert_eq!(check("[1].exists_one(i, x, x > 0)"), Ok(()));
    let (message, _) = check("[1].existsOne(x, x > 0)").unwrap_err();
    assert!(message.starts_with("undeclared reference to '"), "{message}");
}

/// cel-go's checker reports every error it finds, sorted by position (`common/errors.go`
/// `ToDisplayString`), and gives an erroneous node the error type, which every type accepts,
/// so one mistake is reported once (checker.go). The CRD and policy messages carry them all.
mod every_error {
    use kubedv_core::cel::checker::{check_kubernetes, CelType, Decls, ObjectType};
    use kubedv_core::cel::{display_error, Program};
    use std::collections::BTreeMap;
    use std::rc::Rc;

    fn display(src: &str, decls: &Decls) -> String {
        let p = Program::compile(src).unwrap();
        let e = check_kubernetes(&p, decls).unwrap_err();
        display_error("", &e, src)
    }

    fn object(name: &str, fields: &[(&str, CelType)]) -> CelType {
        let fields: BTreeMap<String, CelType> = fields.iter().map(|(k, t)| (k.to_string(), t.clone())).collect();
        CelType::Object(Rc::new(ObjectType { name: name.to_string(), fields }))
    }

    /// checker_test.go's row with two undefined fields (a schema object standing in for its
    /// protobuf message).
    #[test]
    fn two_undefined_fields() {
        let nested = object("nested", &[("bb", CelType::Int)]);
        let x = object(
            "x",
            &[
                ("single_nested_message", nested),
                ("single_int32", CelType::Int),
                ("repeated_int32", CelType::List(Rc::new(CelType::Int))),
            ],
        );
        let decls = Decls::from_pairs(vec![("x".into(), x)]);
        let src = "x.single_nested_message.undefined == x.undefined && has(x.single_int32) && has(x.repeated_int32)";
        assert_eq!(
            display(src, &decls),
            [
                "ERROR: <input>:1:24: undefined field 'undefined'",
                " | x.single_nested_message.undefined == x.undefined && has(x.single_int32) && has(x.repeated_int32)",
                " | .......................^",
                "ERROR: <input>:1:39: undefined field 'undefined'",
                " | x.single_nested_message.undefined == x.undefined && has(x.single_int32) && has(x.repeated_int32)",
                " | ......................................^",
            ]
            .join("\n")
        );
    }

    /// checker_test.go `x.all(e, 0)`: the range error, then the predicate's (an `int` stands in
    /// for its message type).
    #[test]
    fn a_bad_range_and_a_bad_predicate() {
        let decls = Decls::from_pairs(vec![("x".into(), CelType::Int)]);
        assert_eq!(
            display("x.all(e, 0)", &decls),
            [
                "ERROR: <input>:1:1: expression of type 'int' cannot be range of a comprehension (must be list, map, or dynamic)",
                " | x.all(e, 0)",
                " | ^",
                "ERROR: <input>:1:10: expected type 'bool' but found 'int'",
                " | x.all(e, 0)",
                " | .........^",
            ]
            .join("\n")
        );
    }

    /// An undeclared name is reported where it is used, and the expression around it checks
    /// (the error type is accepted by `_+_` and `_==_`); a namespaced function Kubernetes lacks is
    /// its namespace, then the function as a member call (checker.go `checkCall`).
    #[test]
    fn undeclared_names_each_once() {
        let decls = Decls::default();
        assert_eq!(
            display("a + 1 == b", &decls),
            [
                "ERROR: <input>:1:1: undeclared reference to 'a' (in container '')",
                " | a + 1 == b",
                " | ^",
                "ERROR: <input>:1:10: undeclared reference to 'b' (in container '')",
                " | a + 1 == b",
                " | .........^",
            ]
            .join("\n")
        );
        assert_eq!(
            display("math.greatest(1, 2) == 2", &decls),
            [
                "ERROR: <input>:1:1: undeclared reference to 'math' (in container '')",
                " | math.greatest(1, 2) == 2",
                " | ^",
                "ERROR: <input>:1:14: undeclared reference to 'greatest' (in container '')",
                " | math.greatest(1, 2) == 2",
                " | .............^",
            ]
            .join("\n")
        );
    }

    /// cel-go's AST validators (cel/validator.go) report each issue too, sorted with the rest.
    #[test]
    fn every_validator_issue() {
        let src = "[1, 'a'].size() == 2 && duration('1x') > duration('1s')";
        assert_eq!(
            display(src, &Decls::default()),
            [
                "ERROR: <input>:1:5: expected type 'int' but found 'string'",
                " | [1, 'a'].size() == 2 && duration('1x') > duration('1s')",
                " | ....^",
                "ERROR: <input>:1:34: invalid duration argument",
                " | [1, 'a'].size() == 2 && duration('1x') > duration('1s')",
                " | .................................^",
            ]
            .join("\n")
        );
    }

    /// cel-go `common/errors.go`: the first 100 errors found are shown, then
    /// `N more errors were truncated`.
    #[test]
    fn at_most_a_hundred() {
        let src: Vec<String> = (0..102).map(|i| format!("a{i}")).collect();
        let src = src.join(" + ");
        let text = display(&src, &Decls::default());
        assert_eq!(text.matches("ERROR: <input>").count(), 100);
        // The first hundred found (a0..a99); a100 and a101 are counted.
        assert!(text.contains("'a99'") && !text.contains("'a100'"));
        assert!(text.ends_with("\n2 more errors were truncated"));
    }
}

/// cel-go checker.go: the conditional is the call `_?_:_` at the `?`, with the one overload
/// `(bool, A, A) -> A` (checker/decls standard `conditional`); no match prints all three types.
#[test]
fn conditional_overload_messages() {
    let err = |src: &str| check(src).unwrap_err();
    assert_eq!(
        err("1 ? 'a' : 'b'"),
        (String::from("found no matching overload for '_?_:_' applied to '(int, string, string)'"), 3)
    );
    assert_eq!(
        err("true ? 1 : timestamp('2020-01-01T00:00:00Z')"),
        (String::from("found no matching overload for '_?_:_' applied to '(bool, int, timestamp)'"), 6)
    );
}

/// cel-go parser.go `VisitLogicalNot` and `VisitNegate`: an even number of `!` or `-` before a
/// member cancels out, an odd number is one call (unparser_test.go `call_not_not_equiv`:
/// `!!true` unparses as `true`). So `!!1` checks as an int and costs nothing.
#[test]
fn doubled_unary_operators_cancel() {
    use kubedv_core::cel::{to_json, NoVars};
    for (src, t, value, cost) in [
        ("!!1", CelType::Int, "1", 0),
        ("!!!true", CelType::Bool, "false", 1),
        ("--'a'", CelType::String, "\"a\"", 0),
        ("---1", CelType::Int, "-1", 0),
        ("- - -(2)", CelType::Int, "-2", 1),
    ] {
        let p = Program::compile(src).unwrap();
        assert_eq!(check_kubernetes(&p, &Decls::default()).unwrap(), t, "{src}");
        let r = p.eval(&NoVars).unwrap();
        assert_eq!((to_json(&r.value).to_string(), r.cost), (value.to_string(), cost), "{src}");
    }
}
