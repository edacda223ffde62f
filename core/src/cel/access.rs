//! Which parts of its variables a program can read: the field paths it selects from each free
//! variable, found once from the syntax tree.
//!
//! A program observes a variable only through these paths: `self.spec.replicas` reads
//! `replicas` under `spec`; any other use of a value (passing it to a function, iterating it,
//! comparing it, indexing it, `has()` on its field) reads that value whole. So evaluating
//! with only the values at these paths — absent fields left absent, values that are not
//! objects kept as they are — gives the same result, cost and errors as evaluating with the
//! whole variables. The npm package uses this to convert only what a rule reads from a large
//! JS object.

use alloc::boxed::Box;
use alloc::vec::Vec;

use super::ast::{Expr, Kind};

/// What a program reads of one value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Plan {
    /// The value itself, all of it.
    Whole,
    /// Only these fields (of an object; another value is read whole).
    Fields(Vec<(Box<str>, Plan)>),
}

impl Plan {
    fn add(&mut self, path: &[&str]) {
        let Some((first, rest)) = path.split_first() else {
            *self = Plan::Whole;
            return;
        };
        let Plan::Fields(fields) = self else { return };
        match fields.iter_mut().find(|(name, _)| **name == **first) {
            Some((_, plan)) => plan.add(rest),
            None => {
                let mut plan = Plan::Fields(Vec::new());
                plan.add(rest);
                fields.push(((*first).into(), plan));
            }
        }
    }
}

/// What `e` reads of each free variable, by the variable's index (`Kind::Var`); a variable it
/// never mentions reads nothing (`Fields([])`).
pub fn plan(e: &Expr, vars: usize) -> Vec<Plan> {
    let mut plans = alloc::vec![Plan::Fields(Vec::new()); vars];
    walk(e, &mut plans);
    plans
}

/// The variable and field path of a chain of selections from a free variable.
fn chain<'e>(e: &'e Expr, path: &mut Vec<&'e str>) -> Option<usize> {
    match &e.kind {
        Kind::Var { index, .. } => Some(*index as usize),
        Kind::Select { operand, field, .. } => {
            let var = chain(operand, path)?;
            path.push(field);
            Some(var)
        }
        _ => None,
    }
}

fn walk(e: &Expr, plans: &mut [Plan]) {
    let mut path = Vec::new();
    if let Some(var) = chain(e, &mut path) {
        if let Some(plan) = plans.get_mut(var) {
            plan.add(&path);
        }
        return;
    }
    match &e.kind {
        Kind::Lit(_) | Kind::Ident(_) | Kind::Local { .. } | Kind::Var { .. } => {}
        // `has(x.f)` reads `x.f` (its presence; `x` only through it).
        Kind::Has { operand, field } => {
            let mut path = Vec::new();
            match chain(operand, &mut path) {
                Some(var) => {
                    path.push(field);
                    if let Some(plan) = plans.get_mut(var) {
                        plan.add(&path);
                    }
                }
                None => walk(operand, plans),
            }
        }
        Kind::Select { operand, .. } => walk(operand, plans),
        Kind::Index { operand, index, .. } => {
            walk(operand, plans);
            walk(index, plans);
        }
        Kind::Call { target, args, .. } => {
            if let Some(t) = target {
                walk(t, plans);
            }
            args.iter().for_each(|a| walk(a, plans));
        }
        Kind::And(a, b) | Kind::Or(a, b) => {
            walk(a, plans);
            walk(b, plans);
        }
        Kind::Cond(c, a, b) => {
            walk(c, plans);
            walk(a, plans);
            walk(b, plans);
        }
        Kind::List(items) => items.iter().for_each(|(item, _)| walk(item, plans)),
        Kind::Map(entries) => {
            for (k, v, _) in entries {
                walk(k, plans);
                walk(v, plans);
            }
        }
        Kind::Message { fields, .. } => fields.iter().for_each(|(_, v, _)| walk(v, plans)),
        Kind::Comprehension(c) => {
            walk(&c.range, plans);
            if let Some(f) = &c.filter {
                walk(f, plans);
            }
            walk(&c.step, plans);
        }
        Kind::Bind { init, body, .. } => {
            walk(init, plans);
            walk(body, plans);
        }
        Kind::Block { inits, body } => {
            inits.iter().for_each(|(_, init)| walk(init, plans));
            walk(body, plans);
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

    #[test]
    fn selections_narrow_and_other_uses_read_whole() {
        let replicas = fields(&[("spec", fields(&[("replicas", Plan::Whole)]))]);
        assert_eq!(plans("self.spec.replicas >= 1 && self.spec.replicas <= 10"), [("self".into(), replicas)]);
        // Iterating, indexing, `has` and passing a value read it whole; the parent stays narrow.
        let p = plans("self.spec.containers.all(c, c.image != '') && has(self.metadata.labels) && self.a['b'] == 1");
        let want = fields(&[
            ("spec", fields(&[("containers", Plan::Whole)])),
            ("metadata", fields(&[("labels", Plan::Whole)])),
            ("a", Plan::Whole),
        ]);
        assert_eq!(p, [("self".into(), want)]);
        // A whole use of a prefix wins over narrower ones, in either order.
        assert_eq!(plans("size(self.spec) > 0 && self.spec.x == 1")[0].1, fields(&[("spec", Plan::Whole)]));
        assert_eq!(plans("self.spec.x == 1 && self == {}")[0].1, Plan::Whole);
        // Comprehension variables are locals, not the variable of the same name outside.
        assert_eq!(plans("[1].exists(self, self == 1)"), []);
        assert_eq!(plans("oldSelf.x == self.y")[1].1, fields(&[("y", Plan::Whole)]));
    }
}
