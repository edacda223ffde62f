//! Errors with their place in the source: which stage failed, the message and the line and
//! column (cel-go `common/errors.go`, `common/error.go`, `common/location.go`), and their
//! display as cel-go prints issues.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;

use crate::diag::Pos;

/// The offset of an error without a position (cel-go `common.NoLocation`, shown as `-1:0`).
pub const NO_LOCATION: usize = usize::MAX;

/// Which stage rejected an expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ErrorKind {
    /// Syntax.
    Parse,
    /// Types (undeclared names, no matching overload, wrong result type).
    Check,
    /// Evaluation.
    Eval,
    /// The runtime cost limit.
    Cost,
}

/// An error from compiling or evaluating an expression, with its position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct CelError {
    /// Which stage failed.
    pub kind: ErrorKind,
    /// What is wrong.
    pub message: String,
    /// 1-based line; -1 for an error without a position (cel-go's `NoLocation`, shown as
    /// `-1:0`: the parser's recursion limits).
    pub line: i32,
    /// 1-based column (in characters); 0 without a position.
    pub column: i32,
    /// The errors after this one, when the stage reports several (a token recognition error
    /// and what the parser makes of the rest, as cel-go's ANTLR parser does).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub also: Vec<CelError>,
}

impl core::fmt::Display for CelError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

/// The 1-based line and column of a byte offset. In an empty source cel-go's ANTLR parser
/// reports the end at column 0 (`ERROR: <input>:1:0: Syntax error: mismatched input '<EOF>'
/// ...`, kube-apiserver v1.37.2 on an empty DRA selector: a fuzz find).
pub fn position(src: &str, offset: usize) -> Pos {
    if src.is_empty() {
        return Pos { line: 1, column: 0 };
    }
    let offset = offset.min(src.len());
    let before = src.get(..offset).unwrap_or(src);
    let line = before.matches('\n').count() as u32 + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = src.get(line_start..offset).map_or(0, |s| s.chars().count()) as u32 + 1;
    Pos { line, column }
}

/// cel-go's `Issues.String()` for an error in `source`: the position, then the source line
/// with a caret under the column (common/error.go `ToDisplayString`: tabs shown as spaces,
/// full-width dot and caret under multi-byte characters, no excerpt past 16,384 bytes).
pub fn display_error(prefix: &str, e: &CelError, source: &str) -> String {
    let mut out = String::from(prefix);
    display_one(&mut out, e, source);
    for e in &e.also {
        out.push('\n');
        display_one(&mut out, e, source);
    }
    out
}

/// One error of [`display_error`] (cel-go `common.Error.ToDisplayString`).
fn display_one(out: &mut String, e: &CelError, source: &str) {
    if e.line == 0 {
        // cel-go's "N more errors were truncated".
        out.push_str(&e.message);
        return;
    }
    out.push_str(&format!("ERROR: <input>:{}:{}: {}", e.line, e.column, e.message));
    // An empty source has no snippet (cel-go `sourceImpl.Snippet`).
    if source.is_empty() {
        return;
    }
    let Some(line) = usize::try_from(e.line - 1).ok().and_then(|l| source.split('\n').nth(l)) else { return };
    if line.len() > 16_384 {
        return;
    }
    let snippet = line.replace('\t', " ");
    out.push_str("\n | ");
    out.push_str(&snippet);
    out.push_str("\n | ");
    let mut chars = snippet.chars();
    for _ in 1..e.column {
        match chars.next() {
            Some(c) if c.len_utf8() > 1 => out.push('\u{ff0e}'),
            Some(_) => out.push('.'),
            None => break,
        }
    }
    out.push(if chars.next().is_some_and(|c| c.len_utf8() > 1) { '\u{ff3e}' } else { '^' });
}

pub(crate) fn error_at(src: &str, kind: ErrorKind, offset: usize, message: String) -> CelError {
    let (line, column) = match offset {
        NO_LOCATION => (-1, 0),
        _ => {
            let pos = position(src, offset);
            (pos.line as i32, pos.column as i32)
        }
    };
    CelError { kind, message, line, column, also: Vec::new() }
}
