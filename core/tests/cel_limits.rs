//! Limits: deep nesting gets a clear error instead of a stack overflow (the WebAssembly stack
//! is 1 MiB), long inputs are refused, and the runtime cost limits of Kubernetes are enforced
//! with cel-go's message (apiextensions-apiserver `celconfig.PerCallLimit`).

use kubedv_core::cel::{ErrorKind, NoVars, Program, COST_EXCEEDED, MAX_DEPTH};

/// Runs `f` on a thread with WebAssembly's default stack size (1 MiB) in optimized builds;
/// unoptimized test builds use several times more stack per frame, so they get 8 MiB.
fn with_wasm_stack(f: impl FnOnce() + Send + 'static) {
    let size = if cfg!(debug_assertions) { 8 << 20 } else { 1 << 20 };
    std::thread::Builder::new().stack_size(size).spawn(f).expect("thread").join().expect("no stack overflow");
}

#[test]
fn ten_thousand_parentheses_are_a_parse_error() {
    with_wasm_stack(|| {
        let src = format!("{}1{}", "(".repeat(10_000), ")".repeat(10_000));
        let err = Program::compile(&src).err().expect("rejected");
        assert_eq!(err.kind, ErrorKind::Parse);
        assert!(err.message.contains("recursion limit"), "{}", err.message);
        // The first parenthesis beyond the limit is the one reported.
        assert_eq!((err.line, err.column), (1, MAX_DEPTH as u32 + 1));
    });
}

#[test]
fn deep_but_allowed_expressions_evaluate_on_a_small_stack() {
    with_wasm_stack(|| {
        let n = MAX_DEPTH - 10;
        for src in [
            format!("{}1{}", "(".repeat(n), ")".repeat(n)),
            format!("{}1{}", "[".repeat(n), "]".repeat(n)),
            format!("{}true", "!".repeat(n)),
            format!("1{}", " + 1".repeat(n)),
            format!("{}0{}", "size([".repeat(n / 2), "])".repeat(n / 2)),
            format!("{}x{}", "[1].map(x, ".repeat(n / 3), ")".repeat(n / 3)),
            format!("{}true", "true && ".repeat(5_000)),
        ] {
            let program = Program::compile(&src).unwrap_or_else(|e| panic!("{}: {e}", &src[..20]));
            let _ = program.eval(&NoVars);
        }
    });
}

#[test]
fn long_chains_of_operators_are_limited() {
    with_wasm_stack(|| {
        let src = format!("1{}", " + 1".repeat(100_000));
        assert!(Program::compile(&src).is_err());
    });
}

#[test]
fn huge_expressions_are_refused() {
    let src = "1 + ".repeat(30_000) + "1";
    let err = Program::compile(&src).err().expect("too long");
    assert!(err.message.contains("limit is 100000"), "{}", err.message);
}

#[test]
fn runtime_cost_limit_is_enforced_with_cel_go_message() {
    // 1000 x 1000 iterations: far over the per-expression limit of 1,000,000.
    let program = Program::compile("lists.range(1000).all(i, lists.range(1000).all(j, i + j >= 0))").expect("compiles");
    let err = program.eval(&NoVars).expect_err("over the limit");
    assert_eq!(err.kind, ErrorKind::Cost);
    assert_eq!(err.message, COST_EXCEEDED);
    // Under a limit it fits.
    let small = Program::compile("lists.range(10).all(i, i >= 0)").expect("compiles");
    assert!(small.eval_with_limit(&NoVars, 100).is_ok());
    assert_eq!(small.eval_with_limit(&NoVars, 20).err().map(|e| e.kind), Some(ErrorKind::Cost));
}

#[test]
fn cost_errors_are_not_absorbed_by_logic() {
    // `||` absorbs ordinary errors, but running out of budget stops evaluation.
    let program =
        Program::compile("lists.range(2000).all(i, lists.range(2000).all(j, j >= 0)) || true").expect("compiles");
    assert_eq!(program.eval(&NoVars).err().map(|e| e.kind), Some(ErrorKind::Cost));
}

/// Number literals beyond their type are cel-go's parse errors, at the literal with its sign
/// (cel-go parser/parser.go `VisitInt`, `VisitUint`, `VisitDouble`: strconv.ParseInt,
/// ParseUint and ParseFloat fail; ParseFloat only on overflow, `1e-999` is 0).
#[test]
fn number_literals_out_of_range() {
    for (src, message, column) in [
        ("9223372036854775808", "invalid int literal", 1),
        ("1 + 9223372036854775808", "invalid int literal", 5),
        ("-9223372036854775809", "invalid int literal", 1),
        ("--9223372036854775809", "invalid int literal", 2),
        ("0x8000000000000000", "invalid int literal", 1),
        ("18446744073709551616u", "invalid uint literal", 1),
        ("1e999", "invalid double literal", 1),
        ("-1e999", "invalid double literal", 1),
    ] {
        let err = Program::compile(src).err().unwrap_or_else(|| panic!("{src} compiles"));
        assert_eq!((err.kind, err.message.as_str(), err.column), (ErrorKind::Parse, message, column), "{src}");
    }
    for (src, value) in [("-9223372036854775808", serde_json::json!(i64::MIN)), ("1e-999", serde_json::json!(0.0))] {
        let evaluated = Program::compile(src).expect("compiles").eval(&NoVars).expect("evaluates");
        assert_eq!(kubedv_core::cel::to_json(&evaluated.value), value, "{src}");
    }
}
