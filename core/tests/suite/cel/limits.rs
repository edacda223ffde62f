//! Limits: deep nesting gets a clear error instead of a stack overflow (the WebAssembly stack
//! is 1 MiB), long inputs are refused, and the runtime cost limits of Kubernetes are enforced
//! with cel-go's message (apiextensions-apiserver `celconfig.PerCallLimit`).

use kubedv_core::cel::{
    checker, display_error, estimate, ErrorKind, NoVars, Program, COST_EXCEEDED, MAX_DEPTH, MAX_HEIGHT,
};

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
        // cel-go parser.go `recursionListener`: the `expr` rule entered a 251st time, without
        // a position (`common.NoLocation`).
        assert_eq!(display_error("", &err, &src), "ERROR: <input>:-1:0: expression recursion limit exceeded: 250");
    });
}

/// cel-go's two limits, at the default of 250 Kubernetes keeps: 249 parentheses are
/// accepted (the `expr` rule is entered once more by `start`), 250 are not; 249 chained
/// operators are accepted (with their first operand's selection, 250 counted nodes on one
/// path of the tree the visitor walks), 250 are not. The chain of `==` over `self.val1` is
/// apiextensions-apiserver's `TestCELMaxRecursionDepth` (validation_test.go `maxValidDepth`).
#[test]
fn cel_go_recursion_limits_at_their_edges() {
    with_wasm_stack(|| {
        let shown = |src: &str| match Program::compile(src) {
            Ok(_) => String::from("ok"),
            Err(e) => display_error("", &e, src),
        };
        let listener = "ERROR: <input>:-1:0: expression recursion limit exceeded: 250";
        let visitor = "ERROR: <input>:-1:0: max recursion depth exceeded";
        let rows: Vec<(String, &str)> = vec![
            (format!("{}1{}", "(".repeat(249), ")".repeat(249)), "ok"),
            (format!("{}1{}", "(".repeat(250), ")".repeat(250)), listener),
            (format!("{}1{}", "[".repeat(249), "]".repeat(249)), "ok"),
            (format!("{}1{}", "[".repeat(250), "]".repeat(250)), listener),
            (format!("{}self.val1", "self.val1 == ".repeat(249)), "ok"),
            (format!("{}self.val1", "self.val1 == ".repeat(250)), visitor),
            (format!("a{}", ".b".repeat(250)), "ok"),
            (format!("a{}", ".b".repeat(251)), visitor),
            (format!("1{}", " + 1".repeat(250)), "ok"),
            (format!("1{}", " + 1".repeat(251)), visitor),
            // `&&`, `||`, `!` and global calls are not counted by the visitor.
            (format!("{}true", "true && ".repeat(5_000)), "ok"),
            (format!("{}true", "!".repeat(1001)), "ok"),
            (format!("{}1{}", "f(".repeat(249), ")".repeat(249)), "ok"),
            // A right operand nests `relation` (and `calc`) inside its left-recursive loop, so
            // `a == (a == (...))` reaches the listener's limit at 125 levels, not 249.
            (format!("{}a{}", "a == (".repeat(124), ")".repeat(124)), "ok"),
            (format!("{}a{}", "a == (".repeat(125), ")".repeat(125)), listener),
            (format!("{}a{}", "a + b * (".repeat(83), ")".repeat(83)), "ok"),
            (format!("{}a{}", "a + b * (".repeat(84), ")".repeat(84)), listener),
        ];
        for (src, want) in &rows {
            assert_eq!(&shown(src), want, "{}...", &src[..src.len().min(40)]);
        }
    });
}

/// The deepest trees kubedv takes (`MAX_HEIGHT` levels; cel-go's limits allow a few higher
/// ones, which kubedv refuses) are checked, estimated and evaluated on WebAssembly's stack.
#[test]
fn deep_but_allowed_expressions_evaluate_on_a_small_stack() {
    with_wasm_stack(|| {
        let n = MAX_DEPTH - 1;
        let chain = format!("a{}", ".b".repeat(249));
        for src in [
            format!("{}1{}", "(".repeat(n), ")".repeat(n)),
            format!("{}1{}", "[".repeat(n), "]".repeat(n)),
            format!("{}true", "!".repeat(n)),
            format!("1{}", " + 1".repeat(n)),
            format!("{}0{}", "size([".repeat(n / 2), "])".repeat(n / 2)),
            format!("{}x{}", "[1].map(x, ".repeat(n / 3), ")".repeat(n / 3)),
            format!("{}true", "true && ".repeat(5_000)),
            // 149 levels of `!f(` (two nodes each) around 100 selections: 399 levels.
            format!("{}a{}{}", "!f(".repeat(149), ".b".repeat(100), ")".repeat(149)),
            format!("{}x{}", "[1].all(x, ".repeat(n), ")".repeat(n)),
            format!("{}x{}", "x.f(".repeat(n), ")".repeat(n)),
            format!("{}{}", "dyn([".repeat(124), "])".repeat(124)),
            format!("{}1", "true ? 1 : ".repeat(n)),
        ] {
            let program = Program::compile(&src).unwrap_or_else(|e| panic!("{}: {e}", &src[..20]));
            let _ = checker::check(&program, &checker::Decls::default());
            let _ = checker::check_kubernetes(&program, &checker::Decls::default());
            let _ = estimate::estimate(&program, &[]);
            let _ = program.eval(&NoVars);
            let _ = Program::compile_optimized(&src);
        }
        // cel-go takes this one (248 levels of `false || false || false || !f(`, each four
        // nodes high, around 249 selections); kubedv does not.
        let src = format!("{}{chain}{}", "false || false || false || !f(".repeat(n - 1), ")".repeat(n - 1));
        let err = Program::compile(&src).err().expect("too high");
        assert_eq!(
            display_error("", &err, &src),
            format!(
                "ERROR: <input>:-1:0: expression nested too deeply: more than {MAX_HEIGHT} levels (kubedv's limit)"
            )
        );
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
