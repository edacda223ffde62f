//! Name resolution after parsing: every identifier becomes either a local (a comprehension,
//! `cel.bind` or `cel.block` variable, found by its slot on the evaluator's stack) or a free
//! variable (an index into the program's variable table, looked up once per evaluation).

use alloc::boxed::Box;
use alloc::vec::Vec;

use super::ast::{Expr, Kind};
use super::parser::COUNTED;

/// How high a tree kubedv takes. The checker, the estimator and the evaluator recurse on it,
/// and WebAssembly's stack is 1 MiB: the checker's deepest walk fits about 550 levels natively.
/// cel-go's own limits (250 nested rules while parsing, 250 operators, selections, calls and
/// indexes on one path) let a few contrived trees grow higher; kubedv refuses those.
/// (Written out in the error's text.)
pub const MAX_HEIGHT: usize = 400;

/// Resolves the names of `e`; returns the program's free variable names by index. Clears the
/// parser's [`COUNTED`] marks, and refuses a tree with more than `limit` of them on one path
/// (cel-go's visitor: `max recursion depth exceeded`) or higher than [`MAX_HEIGHT`].
pub fn resolve(e: &mut Expr, limit: usize) -> Result<Vec<Box<str>>, &'static str> {
    let mut r = Resolver { scope: Vec::new(), vars: Vec::new(), depth: 0, counted: 0, limit, error: None };
    r.walk(e);
    match r.error {
        Some(error) => Err(error),
        None => Ok(r.vars),
    }
}

struct Resolver {
    scope: Vec<Box<str>>,
    vars: Vec<Box<str>>,
    /// The nodes above this one, and how many of them cel-go's visitor counts.
    depth: usize,
    counted: usize,
    limit: usize,
    error: Option<&'static str>,
}

impl Resolver {
    fn var(&mut self, name: &str) -> u32 {
        match self.vars.iter().position(|v| &**v == name) {
            Some(i) => i as u32,
            None => {
                self.vars.push(name.into());
                (self.vars.len() - 1) as u32
            }
        }
    }

    fn walk(&mut self, e: &mut Expr) {
        let counted = usize::from(e.offset as usize & COUNTED != 0);
        e.offset &= !(COUNTED as u32);
        self.counted += counted;
        if self.counted > self.limit {
            self.error = Some("max recursion depth exceeded");
        } else if self.depth == MAX_HEIGHT {
            self.error = self.error.or(Some("expression nested too deeply: more than 400 levels (kubedv's limit)"));
        } else {
            self.depth += 1;
            self.node(e);
            self.depth -= 1;
        }
        self.counted -= counted;
    }

    fn node(&mut self, e: &mut Expr) {
        match &mut e.kind {
            Kind::Ident(name) => {
                let name = core::mem::take(name);
                e.kind = match self.scope.iter().rposition(|n| *n == name) {
                    Some(slot) => Kind::Local { slot: slot as u32, name },
                    None => Kind::Var { index: self.var(&name), name },
                };
            }
            // The nodes that bring variables into scope, for their parts that see them.
            Kind::Comprehension(c) => {
                self.walk(&mut c.range);
                let base = self.scope.len();
                self.scope.push(c.var.clone());
                if let Some(v2) = &c.var2 {
                    self.scope.push(v2.clone());
                }
                if let Some(f) = &mut c.filter {
                    self.walk(f);
                }
                self.walk(&mut c.step);
                self.scope.truncate(base);
            }
            Kind::Bind { name, init, body, .. } => {
                self.walk(init);
                self.scope.push(name.clone());
                self.walk(body);
                self.scope.pop();
            }
            Kind::Block { inits, body } => {
                let base = self.scope.len();
                for (name, init) in inits.iter_mut() {
                    self.walk(init);
                    self.scope.push(name.clone());
                }
                self.walk(body);
                self.scope.truncate(base);
            }
            _ => e.children_mut().for_each(|child| self.walk(child)),
        }
    }
}
