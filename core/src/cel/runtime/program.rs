//! A program: an expression parsed, its names resolved, optionally folded as Kubernetes builds
//! it, and evaluated against variables with the runtime cost tracked (cel-go's `cel.Program`).

use alloc::collections::BTreeMap;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;

use super::activation::Activation;
use super::cost::PER_CALL_LIMIT;
use super::eval::Interpreter;
use super::optimize;
use crate::cel::common::{error_at, CelError, ErrorKind, NO_LOCATION};
use crate::cel::library::RegexCache;
use crate::cel::syntax::ast::{Checked, Expr};
use crate::cel::syntax::parser::{parse_limited, MAX_DEPTH};
use crate::cel::syntax::resolve::resolve;
use crate::cel::value::Value;

/// A parsed expression, ready to evaluate many times.
pub struct Program {
    source: Rc<str>,
    expr: Expr,
    /// The free variables, by the index `Kind::Var` nodes hold.
    vars: Rc<[alloc::boxed::Box<str>]>,
    /// Constant folding was applied (Kubernetes' `OptOptimize`).
    optimized: bool,
    regexes: RegexCache,
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
        let mut expr = parse_limited(src, macros, limit).map_err(|errors| {
            let mut all = errors.into_iter().map(|e| error_at(src, ErrorKind::Parse, e.offset, e.message));
            let mut first =
                all.next().unwrap_or_else(|| error_at(src, ErrorKind::Parse, 0, String::from("syntax error")));
            first.also = all.collect();
            first
        })?;
        let vars = resolve(&mut expr, limit)
            .map_err(|message| error_at(src, ErrorKind::Parse, NO_LOCATION, String::from(message)))?;
        Ok(Program {
            source: Rc::from(src),
            expr,
            vars: vars.into(),
            optimized: false,
            regexes: RegexCache::default(),
            locals: Default::default(),
        })
    }

    /// Parses an expression as Kubernetes compiles validation rules: with the standard macros
    /// and cel-go's constant folding (`OptOptimize`), which makes constant parts cost nothing at
    /// run time and reports a failing constant call (`1 / 0`) when the program is built.
    pub fn compile_optimized(src: &str) -> Result<Program, CelError> {
        Program::compile_checked(src, &Checked::default())
    }

    /// [`Program::compile_optimized`] with the overloads the checker chose where the run-time
    /// dispatch cannot tell them ([`check_kubernetes_overloads`](crate::cel::checker::check_kubernetes_overloads)).
    pub fn compile_checked(src: &str, checked: &Checked) -> Result<Program, CelError> {
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
    pub fn ast(&self) -> &Expr {
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
        self.eval_with_limit(vars, PER_CALL_LIMIT)
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
        let mut it = Interpreter::new(vars, &self.vars, limit, &self.regexes, self.optimized, locals);
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
