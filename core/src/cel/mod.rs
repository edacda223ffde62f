//! CEL, the Common Expression Language, as Kubernetes runs it.
//!
//! The pipeline follows cel-go's split: [`lexer`] → [`parser`] (macros expanded, AST with byte
//! offsets) → [`checker`] (types, when declarations are known) → [`Program`] → evaluation with
//! Kubernetes' runtime [`cost`] tracking. [`library`] dispatches the standard functions and the
//! extensions of the Kubernetes environment; [`k8s`] holds the Kubernetes library types.
//!
//! ```
//! use kubedv_core::cel::{Program, NoVars};
//! let program = Program::compile("[1, 2, 3].all(x, x > 0) && 'abc'.startsWith('a')").unwrap();
//! let result = program.eval(&NoVars).unwrap();
//! assert_eq!(kubedv_core::cel::to_json(&result.value), serde_json::json!(true));
//! ```

pub mod access;
pub mod ast;
pub mod checker;
pub mod cost;
mod dfa;
pub mod environment;
pub mod estimate;
mod eval;
mod format;
pub mod functions;
pub(crate) mod gosort;
mod json;
pub mod k8s;
mod lexer;
pub mod library;
#[cfg(feature = "cel-extensions")]
mod math;
mod optimize;
mod parser;
mod regex;
mod resolve;
pub mod schema;
mod signatures;
pub mod time;
mod validate;
pub mod value;

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;

pub use eval::{Activation, EvalError, NoVars, COST_EXCEEDED};
pub use json::{from_json_text, MapVars};
#[cfg(feature = "policy")]
pub(crate) use lexer::RESERVED;
pub use parser::{MAX_DEPTH, MAX_LEN};
pub use resolve::MAX_HEIGHT;
pub use value::{from_json, to_json, Key, List, ListKind, Map, Type, Value};

use crate::diag::Pos;

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

/// The 1-based line and column of a byte offset.
pub fn position(src: &str, offset: usize) -> Pos {
    let offset = offset.min(src.len());
    let before = src.get(..offset).unwrap_or(src);
    let line = before.matches('\n').count() as u32 + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = src.get(line_start..offset).map_or(0, |s| s.chars().count()) as u32 + 1;
    Pos { line, column }
}

/// A parsed expression, ready to evaluate many times.
pub struct Program {
    source: Rc<str>,
    expr: ast::Expr,
    /// The free variables, by the index `Kind::Var` nodes hold.
    vars: Rc<[alloc::boxed::Box<str>]>,
    /// Constant folding was applied (Kubernetes' `OptOptimize`).
    optimized: bool,
    regexes: eval::RegexCache,
    /// Storage for comprehension and bind variables, kept between evaluations (no allocation
    /// per call).
    locals: core::cell::RefCell<Vec<Value>>,
}

/// The result of an evaluation.
#[derive(Clone, Debug)]
pub struct Evaluated {
    /// The value.
    pub value: Value,
    /// The runtime cost, as Kubernetes measures it.
    pub cost: u64,
}

impl Program {
    /// Parses an expression with the standard macros.
    pub fn compile(src: &str) -> Result<Program, CelError> {
        Program::compile_with(src, true)
    }

    /// Parses an expression, with or without macro expansion.
    pub fn compile_with(src: &str, macros: bool) -> Result<Program, CelError> {
        Program::compile_limited(src, macros, MAX_DEPTH)
    }

    /// Parses with another recursion limit than cel-go's default (cel-go's `MaxRecursionDepth`,
    /// 32 in its parser tests; Kubernetes keeps the default).
    #[doc(hidden)]
    pub fn compile_limited(src: &str, macros: bool, limit: usize) -> Result<Program, CelError> {
        let mut expr = parser::parse_limited(src, macros, limit).map_err(|errors| {
            let mut all = errors.into_iter().map(|e| error_at(src, ErrorKind::Parse, e.offset, e.message));
            let mut first =
                all.next().unwrap_or_else(|| error_at(src, ErrorKind::Parse, 0, String::from("syntax error")));
            first.also = all.collect();
            first
        })?;
        let vars = resolve::resolve(&mut expr, limit)
            .map_err(|message| error_at(src, ErrorKind::Parse, parser::NO_LOCATION, String::from(message)))?;
        Ok(Program {
            source: Rc::from(src),
            expr,
            vars: vars.into(),
            optimized: false,
            regexes: eval::RegexCache::default(),
            locals: Default::default(),
        })
    }

    /// Parses an expression as Kubernetes compiles validation rules: with the standard macros
    /// and cel-go's constant folding (`OptOptimize`), which makes constant parts cost nothing at
    /// run time and reports a failing constant call (`1 / 0`) when the program is built.
    pub fn compile_optimized(src: &str) -> Result<Program, CelError> {
        Program::compile_checked(src, &checker::Checked::default())
    }

    /// [`Program::compile_optimized`] with the overloads the checker chose where the run-time
    /// dispatch cannot tell them ([`checker::check_kubernetes_overloads`]).
    pub fn compile_checked(src: &str, checked: &checker::Checked) -> Result<Program, CelError> {
        let mut p = Program::compile(src)?;
        optimize::optimize(&mut p.expr, &p.regexes, &checked.overloads)
            .map_err(|(m, offset)| error_at(src, ErrorKind::Eval, offset as usize, m))?;
        p.optimized = true;
        Ok(p)
    }

    /// The free variables the expression mentions (including type names like `int`).
    pub fn variables(&self) -> impl Iterator<Item = &str> {
        self.vars.iter().map(|v| &**v)
    }

    /// The expanded syntax tree.
    pub fn ast(&self) -> &ast::Expr {
        &self.expr
    }

    /// The source text.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Binds variables for many evaluations of this program: the values of its free variables
    /// by position, so that an evaluation takes them without looking names up.
    pub fn bind(&self, vars: BTreeMap<String, Value>) -> Bound {
        let values = self.vars.iter().map(|name| vars.get(&**name).cloned()).collect();
        Bound { names: self.vars.clone(), values, by_name: vars }
    }

    /// Evaluates with Kubernetes' per-expression cost limit.
    pub fn eval(&self, vars: &dyn Activation) -> Result<Evaluated, CelError> {
        self.eval_with_limit(vars, cost::PER_CALL_LIMIT)
    }

    /// Evaluates, failing once the runtime cost exceeds `limit`.
    pub fn eval_with_limit(&self, vars: &dyn Activation, limit: u64) -> Result<Evaluated, CelError> {
        let Ok(mut locals) = self.locals.try_borrow_mut() else {
            // A nested evaluation of the same program (none today): storage of its own.
            return self.run(vars, limit, &mut Vec::new());
        };
        self.run(vars, limit, &mut locals)
    }

    /// Evaluates, returning the cost spent even when the evaluation fails (as cel-go's
    /// `EvalDetails` do: admission budgets charge it either way).
    pub fn eval_costed(&self, vars: &dyn Activation, limit: u64) -> (Result<Value, CelError>, u64) {
        match self.locals.try_borrow_mut() {
            Ok(mut locals) => self.run_costed(vars, limit, &mut locals),
            Err(_) => self.run_costed(vars, limit, &mut Vec::new()),
        }
    }

    fn run(&self, vars: &dyn Activation, limit: u64, locals: &mut Vec<Value>) -> Result<Evaluated, CelError> {
        let (result, cost) = self.run_costed(vars, limit, locals);
        result.map(|value| Evaluated { value, cost })
    }

    fn run_costed(&self, vars: &dyn Activation, limit: u64, locals: &mut Vec<Value>) -> (Result<Value, CelError>, u64) {
        let mut it = eval::Interpreter::new(vars, &self.vars, limit, &self.regexes, self.optimized, locals);
        let result = it.eval(&self.expr);
        let cost = it.cost();
        locals.clear();
        let result = result.map_err(|e| {
            let kind = if e.cost_exceeded { ErrorKind::Cost } else { ErrorKind::Eval };
            error_at(&self.source, kind, e.offset as usize, e.message)
        });
        (result, cost)
    }
}

/// Variables bound to one program ([`Program::bind`]).
pub struct Bound {
    /// The program's free variables (shared: the allocation identifies the program for as
    /// long as this lives).
    names: Rc<[alloc::boxed::Box<str>]>,
    values: Vec<Option<Value>>,
    by_name: BTreeMap<String, Value>,
}

impl Bound {
    /// Whether these variables were bound for `program`.
    pub fn is_for(&self, program: &Program) -> bool {
        Rc::ptr_eq(&self.names, &program.vars)
    }
}

impl Activation for Bound {
    fn resolve(&self, name: &str) -> Option<&Value> {
        self.by_name.get(name)
    }

    fn by_position(&self, names: &[alloc::boxed::Box<str>]) -> Option<&[Option<Value>]> {
        core::ptr::eq(&*self.names, names).then_some(&self.values)
    }
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

fn error_at(src: &str, kind: ErrorKind, offset: usize, message: String) -> CelError {
    let (line, column) = match offset {
        parser::NO_LOCATION => (-1, 0),
        _ => {
            let pos = position(src, offset);
            (pos.line as i32, pos.column as i32)
        }
    };
    CelError { kind, message, line, column, also: Vec::new() }
}
