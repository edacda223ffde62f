//! cel-go's string-format validator, which the strings extension installs from version 1 and
//! so Kubernetes' environment has (strings version 2; cel-go v0.29.2 ext/strings.go,
//! ext/formatting.go `stringFormatValidator`): a `format` call on a string literal with a list
//! literal argument is checked when the expression is written. The rows are the compile-time
//! cases of cel-go v0.29.2 `ext/formatting_test.go` `TestStringFormat` (compared, as there, by
//! `strings.Contains`), with a Kubernetes library type where they use a protobuf message.

use kubedv_core::cel::checker::{check_kubernetes, Decls};
use kubedv_core::cel::{display_error, Program};

fn check(src: &str) -> Result<(), String> {
    let p = Program::compile(src).map_err(|e| e.message.clone())?;
    check_kubernetes(&p, &Decls::default()).map(|_| ()).map_err(|e| display_error("", &e, src))
}

#[test]
fn compile_time_rows_of_formatting_test_go() {
    let rows: &[(&str, &str, &str)] = &[
        ("%s %s", r#""abc""#, "index 1 out of range"),
        ("%s %s", r#""abc", "def", "ghi""#, "too many arguments supplied to string.format (expected 2, got 3)"),
        ("filler %", "", "unexpected end of string"),
        ("%j", "123", r#"could not parse formatting clause: unrecognized formatting clause "j""#),
        (
            "object is %s",
            "quantity('1')",
            "error during formatting: string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given kubernetes.Quantity",
        ),
        (
            "list is %s",
            "[1, 2, quantity('1')]",
            "error during formatting: string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps",
        ),
        ("int is %d", "5.2", "error during formatting: decimal clause can only be used on integers, was given double"),
        ("double is %f", "true", "error during formatting: fixed-point clause can only be used on doubles, was given bool"),
        (
            "double is %.34",
            "5.0",
            "could not parse formatting clause: error while parsing precision: could not find end of precision specifier",
        ),
        ("double is %e", "true", "error during formatting: scientific clause can only be used on doubles"),
        ("string is %b", r#""a string""#, "error during formatting: only integers and bools can be formatted as binary"),
        ("%x is a double", "2.5", "error during formatting: only integers, byte buffers, and strings can be formatted as hex"),
        ("%X is a double", "2.5", "error during formatting: only integers, byte buffers, and strings can be formatted as hex"),
        ("an octal: %o", "3.14", "error during formatting: octal clause can only be used on integers"),
    ];
    let mut failures = Vec::new();
    for (template, args, want) in rows {
        let src = format!("{template:?}.format([{args}]) != ''");
        match check(&src) {
            Err(message) if message.contains(want) => {}
            other => failures.push(format!("{src}: {other:?}, want {want:?}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Where the errors are (formatting.go `getErrorExprID`): a clause's type error at its argument
/// (inside a nested literal for `%s`; a call, such as `quantity(...)`, is at its `(`), the
/// others at the `format` call, which cel-go places at its `(` too.
#[test]
fn positions_and_what_passes() {
    let first_line = |src: &str| check(src).unwrap_err().lines().next().unwrap_or("").to_string();
    assert_eq!(
        first_line("'%d %d'.format([1, 'a']) != ''"),
        "ERROR: <input>:1:20: error during formatting: decimal clause can only be used on integers, was given string"
    );
    assert_eq!(
        first_line("'%s'.format([[1, quantity('1')]]) != ''").split_once(": error").map(|(at, _)| at.to_string()),
        Some(String::from("ERROR: <input>:1:26"))
    );
    assert_eq!(
        first_line("'%s'.format([1, 2]) != ''"),
        "ERROR: <input>:1:12: too many arguments supplied to string.format (expected 1, got 2)"
    );
    // dyn passes (`verifyTypeOneOf`); %f and %e take strings (NaN, Infinity); %x strings and
    // bytes; a format string that is not a literal, or arguments that are not a list literal,
    // are checked when evaluated.
    for src in [
        "'%d %s'.format([dyn('a'), 1]) != ''",
        "'%f %e'.format(['NaN', 2.0]) != ''",
        "'%x %X %b %o'.format(['a', b'b', true, 8u]) != ''",
        "'%s'.format([{'a': [1, 'b'], 'c': duration('1s')}]) != ''",
        "('%' + 'd').format(['a']) != ''",
        "'%d'.format(['a'].map(x, x)) != ''",
        "'100%% %.2f'.format([1.0]) != ''",
    ] {
        assert_eq!(check(src), Ok(()), "{src}");
    }
}

/// The same reading of the format string when it runs (cel-go v0.29.2 parseFormatString and
/// parsePrecision): a missing argument is found before a `%` at the end; a precision must end
/// in a verb and be a number.
#[test]
fn run_time_clause_errors() {
    use kubedv_core::cel::NoVars;
    let run = |src: &str| Program::compile(src).unwrap().eval(&NoVars).map(|_| ()).unwrap_err().message;
    assert_eq!(run("('filler ' + '%').format([])"), "index 0 out of range");
    assert_eq!(run("('filler ' + '%').format([1])"), "unexpected end of string");
    assert_eq!(
        run("('%.' + 'f').format([1.0])"),
        "could not parse formatting clause: error while parsing precision: error while converting precision to integer: strconv.Atoi: parsing \"\": invalid syntax"
    );
    assert_eq!(
        run("('%.' + '3').format([1.0])"),
        "could not parse formatting clause: error while parsing precision: could not find end of precision specifier"
    );
}
