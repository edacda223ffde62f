//! The paths that read operands where they are instead of evaluating them into copies: field
//! paths and constant indexes of variables (`self.a.b`, `self.m['k']`), and calls and
//! conditions on them (`self.x >= 1`, `c.name == 'a'`, `size(c.ports)`), with the costs the
//! general path would charge.

use super::cost;
use super::dispatch;
use super::eval::{fail, Interpreter, Vars, R};
use crate::cel::syntax::ast::{Expr, Kind};
use crate::cel::syntax::Builtin;
use crate::cel::value::Value;

impl<'p, 'a> Interpreter<'p, 'a> {
    /// An expression in a position that wants a bool (an operand of `&&`/`||`, a macro's
    /// predicate): a comparison of existing values (`self.x >= 1`, `c.name == 'a'`) is
    /// decided here, without the general call path; anything else is evaluated.
    pub(super) fn condition(&mut self, e: &'p Expr) -> R {
        if let Kind::Call { target: None, builtin, args, .. } = &e.kind {
            let ordering =
                matches!(builtin, Builtin::Eq | Builtin::Ne | Builtin::Lt | Builtin::Le | Builtin::Gt | Builtin::Ge);
            if let (true, [a, b]) = (ordering, &args[..]) {
                let (vars, locals) = (&self.vars, &*self.locals);
                let (mut x_size, mut y_size) = (Value::Null, Value::Null);
                let x = peek(vars, locals, a).or_else(|| peek_size(vars, locals, a, &mut x_size));
                let y = peek(vars, locals, b).or_else(|| peek_size(vars, locals, b, &mut y_size));
                if let (Some((x, cx)), Some((y, cy))) = (x, y) {
                    if let Some((v, c)) = comparison(*builtin, x, y) {
                        self.charge(a, cx)?;
                        self.charge(b, cy)?;
                        self.charge(e, c)?;
                        return Ok(v);
                    }
                }
            }
        }
        self.eval(e)
    }

    /// The fast path for calls whose receiver and (at most two) arguments already exist (see
    /// [`peek`]): `self.x >= 1`, `c.name == 'a'`, `size(c.ports)`, `s.startsWith('p')` read
    /// their operands in place instead of evaluating them into copies. `None` when an operand
    /// needs evaluating.
    pub(super) fn call_in_place(
        &mut self,
        e: &Expr,
        target: Option<&'p Expr>,
        name: &str,
        builtin: Builtin,
        args: &'p [Expr],
    ) -> Option<R> {
        let (vars, locals, meter) = (&self.vars, &*self.locals, &mut self.meter);
        let recv = match target {
            Some(t) => Some((t, peek(vars, locals, t)?)),
            None => None,
        };
        let operands = match args {
            [] => [None, None],
            [a] => [Some(peek(vars, locals, a)?), None],
            [a, b] => [Some(peek(vars, locals, a)?), Some(peek(vars, locals, b)?)],
            _ => return None,
        };
        // Charged in the general path's order: the receiver, the arguments, the call.
        let mut charged = Ok(());
        let reads =
            recv.map(|(t, (_, c))| (t, c)).into_iter().chain(args.iter().zip(operands.iter().flatten().map(|o| o.1)));
        for (node, c) in reads {
            charged = charged.and_then(|()| meter.charge(node, c));
        }
        if let Err(err) = charged {
            return Some(Err(err));
        }
        let recv = recv.map(|(_, (v, _))| v);
        let pair;
        let argv: &[Value] = match operands {
            [Some((x, _)), Some((y, _))] => {
                if let (None, Some((v, c))) = (recv, comparison(builtin, x, y)) {
                    return Some(meter.charge(e, c).map(|()| v));
                }
                pair = [x.clone(), y.clone()];
                &pair
            }
            [Some((x, _)), None] => core::slice::from_ref(x),
            _ => &[],
        };
        let c = cost::call_cost(builtin, name, recv, argv);
        Some(
            meter
                .charge(e, c)
                .and_then(|()| dispatch::call(builtin, name, recv, argv, self.regexes).map_err(|m| fail(e, m))),
        )
    }
}

/// The value of an operand that already exists — a literal, a bound variable or local, a
/// field of one (`self.a.b`) or a constant index into one (`self.m['k']`, `self.l[0]`) —
/// borrowed, with the cost evaluating it would have. Anything unusual (a missing field or key,
/// a non-map, an optional select) is `None`, for the general path and its errors.
pub(super) fn peek<'v>(vars: &Vars<'v>, locals: &'v [Value], e: &'v Expr) -> Option<(&'v Value, u64)> {
    #[cfg(test)]
    if tests::GENERAL_ONLY.with(core::cell::Cell::get) {
        return None;
    }
    match &e.kind {
        Kind::Lit(v) => Some((v, 0)),
        Kind::Local { slot, .. } => Some((locals.get(*slot as usize)?, cost::SELECT)),
        Kind::Var { index, .. } => Some((vars.get(*index)?, cost::SELECT)),
        Kind::Select { operand, field, optional: false } => match peek(vars, locals, operand)? {
            (Value::Map(m), cost) => Some((m.field(field)?, cost + cost::SELECT)),
            _ => None,
        },
        Kind::Index { operand, index, optional: false } => {
            let (target, cost) = peek(vars, locals, operand)?;
            let Kind::Lit(key) = &index.kind else { return None };
            let found = match (target, key) {
                (Value::Map(m), Value::String(k)) => m.get_str(k)?,
                (Value::List(items), Value::Int(i)) => items.get(usize::try_from(*i).ok()?)?,
                _ => return None,
            };
            Some((found, cost + cost::SELECT))
        }
        _ => None,
    }
}

/// `size(x)` or `x.size()` of an existing string, bytes, list or map (see [`peek`]), stored in
/// `out`, with the cost of reading `x` and of the call (1, as any call without a cost of its own).
fn peek_size<'v>(vars: &Vars<'v>, locals: &'v [Value], e: &'v Expr, out: &'v mut Value) -> Option<(&'v Value, u64)> {
    let Kind::Call { builtin: Builtin::Size, target, args, .. } = &e.kind else { return None };
    let x = match (target.as_deref(), &args[..]) {
        (Some(x), []) | (None, [x]) => x,
        _ => return None,
    };
    let (value, cost) = peek(vars, locals, x)?;
    let n = match value {
        Value::String(s) => s.chars().count(),
        Value::Bytes(b) => b.len(),
        Value::List(l) => l.len(),
        Value::Map(m) => m.len(),
        _ => return None,
    };
    *out = Value::Int(n as i64);
    Some((out, cost + 1))
}

/// Comparisons of two ints, uints, doubles, bools or strings — most operator calls in rules —
/// and their cost, computed here: the general path (cost function, library dispatch,
/// ordering) is several calls in a size-optimised WebAssembly build. Costs as cel-go: 1, and
/// for strings a traversal of the shorter one.
pub(super) fn comparison(op: Builtin, x: &Value, y: &Value) -> Option<(Value, u64)> {
    use core::cmp::Ordering;
    let (ord, cost) = match (x, y) {
        (Value::Int(a), Value::Int(b)) => (a.cmp(b), 1),
        (Value::Uint(a), Value::Uint(b)) => (a.cmp(b), 1),
        (Value::Bool(a), Value::Bool(b)) => (a.cmp(b), 1),
        // NaN compares false with everything (and != is true): left to the general path.
        (Value::Double(a), Value::Double(b)) => (a.partial_cmp(b)?, 1),
        (Value::String(a), Value::String(b)) => {
            let cost = string_comparison_cost(a, b);
            match op {
                // Equality needs no ordering: a length check usually decides it.
                Builtin::Eq | Builtin::Ne => return Some((Value::Bool((a == b) == (op == Builtin::Eq)), cost)),
                _ => (a.cmp(b), cost),
            }
        }
        _ => return None,
    };
    let holds = match op {
        Builtin::Eq => ord == Ordering::Equal,
        Builtin::Ne => ord != Ordering::Equal,
        Builtin::Lt => ord == Ordering::Less,
        Builtin::Le => ord != Ordering::Greater,
        Builtin::Gt => ord == Ordering::Greater,
        Builtin::Ge => ord != Ordering::Less,
        _ => return None,
    };
    Some((Value::Bool(holds), cost))
}

/// cel-go's cost of comparing two strings: a traversal of the shorter, `ceil(chars * 0.1)`.
/// Strings of at most 10 bytes (most names and enum values) have at most 10 characters, so
/// the cost is 1, or 0 when one is empty, without counting characters.
fn string_comparison_cost(a: &str, b: &str) -> u64 {
    if a.len() <= 10 && b.len() <= 10 {
        return u64::from(!a.is_empty() && !b.is_empty());
    }
    let shorter = (a.chars().count() as u64).min(b.chars().count() as u64);
    cost::ceil_factor(shorter, cost::STRING_TRAVERSAL)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cel::{from_json, Program};
    use alloc::collections::BTreeMap;
    use alloc::format;
    use alloc::string::String;
    use alloc::vec::Vec;

    std::thread_local! {
        /// Turns the in-place fast paths off: every node goes through the general path.
        pub(super) static GENERAL_ONLY: core::cell::Cell<bool> = const { core::cell::Cell::new(false) };
    }

    /// The in-place paths (`peek`: field paths, constant indexes, sizes; calls and conditions
    /// on existing values) give what the general path gives: the same value and cost, the
    /// same errors, and the cost limit exceeded under the same limits.
    #[test]
    fn in_place_paths_agree_with_the_general_path() {
        let object = serde_json::json!({
            "n": 3, "d": 2.5, "s": "web-frontend", "e": "", "b": true, "z": null,
            "l": [1, 2, 3], "ls": ["a", "b"], "m": {"app": "web", "x.y": "1"},
            "items": [{"name": "a", "ports": [1]}, {"name": "sidecar", "ports": []}, {"name": "é"}],
        });
        let mut vars = BTreeMap::new();
        vars.insert(String::from("self"), from_json(&object));
        const EXPRESSIONS: &[&str] = &[
            "self.n >= 1 && self.n <= 10",
            "self.n == 3.0 || self.d < 3",
            "self.s == 'web-frontend' && self.s != 'x' && self.s > 'a' && self.s <= 'z'",
            "self.e == '' && size(self.e) == 0 && self.s.size() > 3",
            "self.b == true && self.z == null",
            "self.l[0] == 1 && self.l[2] > self.l[1] && self.m['app'] == 'web' && self.m['x.y'] == '1'",
            "self.l[5] == 1",
            "self.l[-1] == 1",
            "self.m['nope'] == 'web'",
            "self.nope == 1 || true",
            "self.nope == 1",
            "self.s.nope == 1",
            "self.n.startsWith('a')",
            "self.s.startsWith('web') && self.s.endsWith('end') && self.s.contains('-')",
            "self.s.matches('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$')",
            "'app' in self.m && !('x' in self.m) && 2 in self.l",
            "size(self.items) == 3 && size(self.m) == 2 && size(self.l) > 2",
            "self.items.exists(c, c.name == 'sidecar')",
            "self.items.all(c, c.name.size() < 8)",
            "self.items.filter(c, has(c.ports) && size(c.ports) > 0).map(c, c.name) == ['a']",
            "self.items.exists_one(c, c.name == 'a')",
            "self.items.all(c, c.ports.size() >= 0)",
            "self.items.map(c, c.name).join(',') == 'a,sidecar,é'",
            "self.ls.all(x, x < 'c') && self.l.exists(x, x > 2)",
            "self.m.all(k, k.size() > 2)",
            "self.items[1].name == 'sidecar' && self.items[2].name > 'z'",
            "type(self.n) == int && self.d > 2",
            "self.?nope.orValue(1) == 1",
            "[1, 2].map(x, x * self.n) == [3, 6]",
            "cel.bind(v, self.n, v > 2 && v < 4)",
            "self.d != self.d || self.n / 0 == 1",
            "self.n < self.s",
        ];
        let run = |program: &Program, limit: u64, general: bool| {
            GENERAL_ONLY.with(|g| g.set(general));
            let r = program.eval_with_limit(&vars, limit);
            GENERAL_ONLY.with(|g| g.set(false));
            r
        };
        for expr in EXPRESSIONS {
            for program in [Program::compile(expr).unwrap(), Program::compile_optimized(expr).unwrap()] {
                let fast = run(&program, u64::MAX, false);
                let general = run(&program, u64::MAX, true);
                assert_eq!(format!("{fast:?}"), format!("{general:?}"), "{expr}");
                let total = fast.as_ref().map_or(40, |r| r.cost);
                for limit in 0..=total {
                    // The same limits are exceeded (positions may differ: a field path is
                    // charged at once at its last field).
                    let (fast, general) = (run(&program, limit, false), run(&program, limit, true));
                    let outcome = |r: &Result<crate::cel::Evaluated, crate::cel::CelError>| match r {
                        Ok(v) => format!("{:?} {}", v.value, v.cost),
                        Err(e) => format!("{:?} {}", e.kind, e.message),
                    };
                    assert_eq!(outcome(&fast), outcome(&general), "{expr} with limit {limit}");
                }
            }
        }
    }

    /// The shortcut for short strings agrees with cel-go's formula (`ceil(min(chars) * 0.1)`,
    /// interpreter/runtimecost.go) for every pair of lengths around the cut-off, multi-byte
    /// characters included.
    #[test]
    fn string_comparison_cost_matches_the_formula() {
        let strings: Vec<String> =
            (0..=14).flat_map(|n| [String::from("a").repeat(n), String::from("é").repeat(n)]).collect();
        for a in &strings {
            for b in &strings {
                let shorter = (a.chars().count() as u64).min(b.chars().count() as u64);
                let expected = libm::ceil(shorter as f64 * 0.1) as u64;
                assert_eq!(string_comparison_cost(a, b), expected, "{a:?} {b:?}");
            }
        }
    }
}
