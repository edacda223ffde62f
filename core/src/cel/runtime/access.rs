//! Which parts of its variables a program can read: the field paths it selects from each free
//! variable, found once from the syntax tree.
//!
//! A program observes a variable only through these paths: `self.spec.replicas` reads
//! `replicas` under `spec`; `self.items.all(i, i.name != '')` reads the list `items` and the
//! `name` of each element; any other use of a value (passing it to a function, comparing it,
//! indexing it, `has()` on its field, iterating it with two variables) reads that value whole.
//! So evaluating with only the values at these paths — absent fields left absent, values that
//! are not objects (or, for element plans, not lists) kept as they are — gives the same
//! result, cost and errors as evaluating with the whole variables. The npm package uses this
//! to convert only what a rule reads from a large JS object.

use alloc::boxed::Box;
use alloc::vec::Vec;

use crate::cel::syntax::ast::{CompKind, Expr, Kind};

/// What a program reads of one value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Plan {
    /// The value itself, all of it.
    Whole,
    /// Only these fields (of an object; another value is read whole).
    Fields(Vec<(Box<str>, Plan)>),
    /// Each element, as this plan reads it (of a list; another value is read whole).
    Each(Box<Plan>),
}

/// One step of a path: a field, or every element of a list a comprehension iterates.
#[derive(Clone, Copy, Debug)]
enum Step<'e> {
    Field(&'e str),
    Each,
}

impl Plan {
    fn nothing() -> Plan {
        Plan::Fields(Vec::new())
    }

    /// Records a read of the value at `path` (all of it with `whole`; else only the path's
    /// structure: a list iterated without reading its elements).
    fn add(&mut self, path: &[Step<'_>], whole: bool) {
        let Some((first, rest)) = path.split_first() else {
            if whole {
                *self = Plan::Whole;
            }
            return;
        };
        match (&mut *self, first) {
            (Plan::Whole, _) => {}
            (Plan::Fields(fields), Step::Field(name)) => match fields.iter_mut().find(|(n, _)| **n == **name) {
                Some((_, plan)) => plan.add(rest, whole),
                None => {
                    let mut plan = Plan::nothing();
                    plan.add(rest, whole);
                    fields.push(((*name).into(), plan));
                }
            },
            (Plan::Fields(fields), Step::Each) if fields.is_empty() => {
                let mut plan = Plan::nothing();
                plan.add(rest, whole);
                *self = Plan::Each(Box::new(plan));
            }
            (Plan::Each(plan), Step::Each) => plan.add(rest, whole),
            // Read both as an object and as a list: all of it.
            _ => *self = Plan::Whole,
        }
    }
}

/// What `e` reads of each free variable, by the variable's index (`Kind::Var`); a variable it
/// never mentions reads nothing (`Fields([])`).
pub fn plan(e: &Expr, vars: usize) -> Vec<Plan> {
    let mut w = Walk { plans: alloc::vec![Plan::nothing(); vars], scope: Vec::new() };
    w.walk(e);
    w.plans
}

struct Walk<'e> {
    plans: Vec<Plan>,
    /// The locals in scope, by slot (as the resolver numbers them): the path a local stands
    /// for (an element of a list a comprehension iterates, a `cel.bind` of a path), if any.
    scope: Vec<Option<(usize, Vec<Step<'e>>)>>,
}

impl<'e> Walk<'e> {
    /// The variable and path a chain of selections from a variable (or from a local standing
    /// for a path) reads.
    fn chain(&self, e: &'e Expr) -> Option<(usize, Vec<Step<'e>>)> {
        match &e.kind {
            Kind::Var { index, .. } => Some((*index as usize, Vec::new())),
            Kind::Local { slot, .. } => self.scope.get(*slot as usize).cloned().flatten(),
            Kind::Select { operand, field, .. } => {
                let (var, mut path) = self.chain(operand)?;
                path.push(Step::Field(field));
                Some((var, path))
            }
            _ => None,
        }
    }

    fn add(&mut self, (var, path): (usize, Vec<Step<'e>>)) {
        if let Some(plan) = self.plans.get_mut(var) {
            plan.add(&path, true);
        }
    }

    fn walk(&mut self, e: &'e Expr) {
        if let Some(read) = self.chain(e) {
            self.add(read);
            return;
        }
        match &e.kind {
            // `has(x.f)` reads `x.f` (its presence; `x` only through it).
            Kind::Has { operand, field } => match self.chain(operand) {
                Some((var, mut path)) => {
                    path.push(Step::Field(field));
                    self.add((var, path));
                }
                None => self.walk(operand),
            },
            Kind::Comprehension(c) => {
                // One variable over a path: the variable is each element (of a list; a map
                // iterates its keys, and a map is read whole by the element plan). Two
                // variables (index or key, and value): the range is read whole.
                let element = match (&c.var2, self.chain(&c.range)) {
                    (None, Some((var, mut path))) => {
                        path.push(Step::Each);
                        // The range itself is iterated: a list of elements, each read as the body
                        // reads the variable (nothing of them if it never does) — or whole when
                        // the result is the elements themselves (`filter`).
                        if let Some(plan) = self.plans.get_mut(var) {
                            plan.add(&path, c.kind == CompKind::Filter);
                        }
                        Some((var, path))
                    }
                    _ => {
                        self.walk(&c.range);
                        None
                    }
                };
                let base = self.scope.len();
                self.scope.push(element);
                if c.var2.is_some() {
                    self.scope.push(None);
                }
                if let Some(f) = &c.filter {
                    self.walk(f);
                }
                self.walk(&c.step);
                self.scope.truncate(base);
            }
            Kind::Bind { init, body, .. } => {
                let alias = self.chain(init);
                if alias.is_none() {
                    self.walk(init);
                }
                self.scope.push(alias);
                self.walk(body);
                self.scope.pop();
            }
            Kind::Block { inits, body } => {
                let base = self.scope.len();
                for (_, init) in inits {
                    self.walk(init);
                    self.scope.push(None);
                }
                self.walk(body);
                self.scope.truncate(base);
            }
            // Any other node reads what its children read.
            _ => e.children().for_each(|child| self.walk(child)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cel::Program;

    fn plans(src: &str) -> Vec<(alloc::string::String, Plan)> {
        let p = Program::compile(src).unwrap();
        let names: Vec<_> = p.variables().map(alloc::string::String::from).collect();
        names.into_iter().zip(plan(p.ast(), p.variables().count())).collect()
    }

    fn fields(list: &[(&str, Plan)]) -> Plan {
        Plan::Fields(list.iter().map(|(n, p)| ((*n).into(), p.clone())).collect())
    }

    fn each(p: Plan) -> Plan {
        Plan::Each(Box::new(p))
    }

    #[test]
    fn selections_narrow_and_other_uses_read_whole() {
        let replicas = fields(&[("spec", fields(&[("replicas", Plan::Whole)]))]);
        assert_eq!(plans("self.spec.replicas >= 1 && self.spec.replicas <= 10"), [("self".into(), replicas)]);
        // Indexing, `has` and passing a value read it whole; the parent stays narrow.
        let p = plans("has(self.metadata.labels) && self.a['b'] == 1 && size(self.b) > 0");
        let want = fields(&[("metadata", fields(&[("labels", Plan::Whole)])), ("a", Plan::Whole), ("b", Plan::Whole)]);
        assert_eq!(p, [("self".into(), want)]);
        // A whole use of a prefix wins over narrower ones, in either order.
        assert_eq!(plans("size(self.spec) > 0 && self.spec.x == 1")[0].1, fields(&[("spec", Plan::Whole)]));
        assert_eq!(plans("self.spec.x == 1 && self == {}")[0].1, Plan::Whole);
        // Comprehension variables are locals, not the variable of the same name outside.
        assert_eq!(plans("[1].exists(self, self == 1)"), []);
        assert_eq!(plans("oldSelf.x == self.y")[1].1, fields(&[("y", Plan::Whole)]));
    }

    #[test]
    fn comprehensions_read_each_element_as_their_variable() {
        let p = plans("self.spec.containers.all(c, c.image != '' && size(c.ports) > 0)");
        let element = fields(&[("image", Plan::Whole), ("ports", Plan::Whole)]);
        assert_eq!(p[0].1, fields(&[("spec", fields(&[("containers", each(element))]))]));
        // The variable used whole: each element whole.
        assert_eq!(plans("self.l.exists(x, x == 1)")[0].1, fields(&[("l", each(Plan::Whole))]));
        // The variable never read: the elements are still iterated (nothing of them read).
        assert_eq!(plans("self.l.all(x, true)")[0].1, fields(&[("l", each(Plan::nothing()))]));
        // Two variables, or the list also used otherwise: the list whole.
        assert_eq!(plans("self.l.all(i, x, x.a == 1)")[0].1, fields(&[("l", Plan::Whole)]));
        assert_eq!(plans("self.l.all(x, x.a == 1) && size(self.l) > 1")[0].1, fields(&[("l", Plan::Whole)]));
        assert_eq!(plans("self.l.all(x, x.a == 1) && self.l.y == 1")[0].1, fields(&[("l", Plan::Whole)]));
        // Nested comprehensions and macros that expand to binds (`sortBy`).
        let p = plans("self.a.all(x, x.b.exists(y, y.c == x.d))");
        let inner = fields(&[("b", each(fields(&[("c", Plan::Whole)]))), ("d", Plan::Whole)]);
        assert_eq!(p[0].1, fields(&[("a", each(inner))]));
        assert_eq!(plans("cel.bind(s, self.spec, s.x == 1)")[0].1, fields(&[("spec", fields(&[("x", Plan::Whole)]))]));
        assert_eq!(plans("self.l.sortBy(e, e.k).size() > 0")[0].1, fields(&[("l", Plan::Whole)]));
        // `filter` returns the elements themselves.
        assert_eq!(plans("self.l.filter(x, x.a > 0).map(x, x.b) == []")[0].1, fields(&[("l", each(Plan::Whole))]));
    }
}
