//! cel-go's parser messages, as Kubernetes shows them in a refused rule ("compilation failed:
//! ERROR: <input>:L:C: ..." with the source excerpt and caret): the rows of cel-go
//! `parser/parser_test.go` (at the revision Kubernetes 1.37 pins) whose expectation is a single
//! error, which kubedv reproduces exactly. Rows with several errors (ANTLR keeps going after a
//! lexer error or a recovered mismatch) are not reproduced: kubedv reports the first problem.

use kubedv_core::cel::{display_error, Program};

fn shown(src: &str) -> String {
    match Program::compile(src) {
        Ok(_) => String::from("(compiled)"),
        Err(e) => display_error("", &e, src),
    }
}

#[test]
fn single_error_rows_of_parser_test_go() {
    let operand = "{'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}";
    let rows: Vec<(&str, String)> = vec![
        (
            "TestAllTypes(){}",
            "ERROR: <input>:1:15: Syntax error: mismatched input '{' expecting <EOF>\n | TestAllTypes(){}\n | ..............^".into(),
        ),
        (
            "TestAllTypes{}()",
            "ERROR: <input>:1:15: Syntax error: mismatched input '(' expecting <EOF>\n | TestAllTypes{}()\n | ..............^".into(),
        ),
        ("1 + 2\n3 +", "ERROR: <input>:2:1: Syntax error: mismatched input '3' expecting <EOF>\n | 3 +\n | ^".into()),
        (
            "self.true == 1",
            "ERROR: <input>:1:6: Syntax error: mismatched input 'true' expecting IDENTIFIER\n | self.true == 1\n | .....^".into(),
        ),
        (
            "{",
            "ERROR: <input>:1:2: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '}', '(', '.', ',', '-', '!', '?', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | {\n | .^".into(),
        ),
        // A whole expression followed by one token: ANTLR's single-token deletion (`a | b`'s last error).
        ("a b", "ERROR: <input>:1:3: Syntax error: extraneous input 'b' expecting <EOF>\n | a b\n | ..^".into()),
        // The end of `1 + +`: an operand wanted.
        ("1 +", format!("ERROR: <input>:1:4: Syntax error: mismatched input '<EOF>' expecting {operand}\n | 1 +\n | ...^")),
    ];
    for (src, want) in rows {
        assert_eq!(shown(src), want, "{src:?}");
    }
}
