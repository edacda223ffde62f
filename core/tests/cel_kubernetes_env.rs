//! The libraries of Kubernetes' CEL environment (apiserver 24a394e5 pkg/cel/environment/base.go:
//! URLs, Regex, Authz, Quantity, optionals, strings v2, sets, IP, CIDR, Format, two-variable
//! comprehensions, Semver, ext lists v3, Kubernetes lists — no ext math, encoders or bindings),
//! and cel-go's checker message for a name no library declares
//! (checker/errors.go undeclaredReference: `undeclared reference to '%s' (in container '%s')`).

use kubedv_core::cel::checker::{check_kubernetes, Decls};
use kubedv_core::cel::Program;

fn check(src: &str) -> Result<(), (String, u32)> {
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
