//! Comprehensions (the macros `all`, `exists`, `exists_one`, `map`, `filter` and the
//! `transform*` macros), with the costs of cel-go's expansions of them.

use alloc::format;
use alloc::rc::Rc;
use alloc::vec::Vec;

use super::cost;
use super::eval::{fail, make_map, EvalError, Interpreter, R};
use crate::cel::library::conversions::to_string;
use crate::cel::syntax::ast::{CompKind, Comprehension, Expr};
use crate::cel::value::{no_overload, Map, Value};

impl<'p, 'a> Interpreter<'p, 'a> {
    pub(super) fn comprehension(&mut self, e: &Expr, c: &'p Comprehension) -> R {
        let range = self.eval(&c.range)?;
        if !matches!(range, Value::List(_) | Value::Map(_)) {
            return Err(fail(
                &c.range,
                format!(
                    "expression of type '{}' cannot be the range of a comprehension (must be list, map, or dynamic)",
                    range.type_name()
                ),
            ));
        }
        let base = self.locals.len();
        self.locals.push(Value::Null);
        if c.var2.is_some() {
            self.locals.push(Value::Null);
        }
        let r = self.run_comprehension(e, c, &range);
        self.locals.truncate(base);
        r
    }

    /// The variables of the i-th iteration: list elements (or index and element with two
    /// variables), map keys (or key and value).
    fn iteration(range: &Value, i: usize, two: bool) -> (Value, Value) {
        match range {
            Value::List(items) if two => (Value::Int(i as i64), items[i].clone()),
            Value::List(items) => (items[i].clone(), Value::Null),
            Value::Map(m) => match m.entry(i) {
                Some((k, v)) => (k.to_value(), if two { v.clone() } else { Value::Null }),
                None => (Value::Null, Value::Null),
            },
            _ => (Value::Null, Value::Null),
        }
    }

    fn run_comprehension(&mut self, e: &Expr, c: &'p Comprehension, range: &Value) -> R {
        let slot = self.locals.len() - if c.var2.is_some() { 2 } else { 1 };
        let total = match range {
            Value::List(items) => items.len(),
            Value::Map(m) => m.len(),
            _ => 0,
        };
        match c.kind {
            CompKind::All | CompKind::Exists | CompKind::ExistsOne => self.quantify(e, c, range, slot, total),
            _ => self.collect(e, c, range, slot, total),
        }
    }

    /// Binds the variables of iteration `n` after charging the loop condition (`cond`);
    /// false when the comprehension's filter skips the element.
    fn bind_iteration(
        &mut self,
        e: &Expr,
        c: &'p Comprehension,
        range: &Value,
        (n, slot, cond): (usize, usize, u64),
    ) -> Result<bool, EvalError> {
        self.charge(e, cond)?;
        match range {
            // The common case, without the general step's pair of values.
            Value::List(items) if c.var2.is_none() => self.locals[slot] = items[n].clone(),
            _ => {
                let (first, second) = Self::iteration(range, n, c.var2.is_some());
                self.locals[slot] = first;
                if c.var2.is_some() {
                    self.locals[slot + 1] = second;
                }
            }
        }
        let Some(filter) = &c.filter else { return Ok(true) };
        match self.condition(filter)? {
            Value::Bool(b) => Ok(b),
            other => Err(fail(filter, no_overload("filter", &[&other]))),
        }
    }

    /// `all`, `exists` and `exists_one`. Costs follow cel-go's macro expansions: the loop
    /// condition before each iteration, the step's accumulator reads, the result.
    fn quantify(&mut self, e: &Expr, c: &'p Comprehension, range: &Value, slot: usize, total: usize) -> R {
        let (cond, result) = match c.kind {
            CompKind::All => (2, 1),
            CompKind::Exists => (3, 1),
            _ => (0, 2),
        };
        let mut error: Option<EvalError> = None;
        let mut count = 0i64;
        for n in 0..total {
            if !self.bind_iteration(e, c, range, (n, slot, cond))? {
                // cel-go's `filter ? step : accu`: the untaken accumulator read costs nothing.
                continue;
            }
            if c.kind == CompKind::ExistsOne {
                match self.condition(&c.step)? {
                    Value::Bool(true) => {
                        count += 1;
                        self.charge(e, 2)?;
                    }
                    Value::Bool(false) => {}
                    other => return Err(fail(&c.step, no_overload("exists_one", &[&other]))),
                }
                continue;
            }
            let want = c.kind == CompKind::Exists;
            self.charge(e, 1)?;
            match self.condition(&c.step) {
                Ok(Value::Bool(b)) if b == want => {
                    // cel-go checks the loop condition once more before stopping.
                    let more = if n + 1 < total { cond } else { 0 };
                    self.charge(e, more + result)?;
                    return Ok(Value::Bool(want));
                }
                Ok(Value::Bool(_)) => {}
                Ok(other) => error = Some(fail(&c.step, no_overload(if want { "_||_" } else { "_&&_" }, &[&other]))),
                Err(err) if err.cost_exceeded => return Err(err),
                Err(err) => error = error.or(Some(err)),
            }
        }
        self.charge(e, result)?;
        match (c.kind, error) {
            (CompKind::ExistsOne, _) => Ok(Value::Bool(count == 1)),
            (_, Some(err)) => Err(err),
            (kind, None) => Ok(Value::Bool(kind == CompKind::All)),
        }
    }

    /// `map`, `filter` and the `transform*` macros: costs as cel-go's expansions, with the
    /// accumulator's creation, each step's reads and appends, and the result.
    fn collect(&mut self, e: &Expr, c: &'p Comprehension, range: &Value, slot: usize, total: usize) -> R {
        let init = match c.kind {
            CompKind::TransformMap | CompKind::TransformMapEntry => cost::MAP_CREATE,
            _ => cost::LIST_CREATE,
        };
        // Folded, the accumulator's initial `[]`/`{}` is a constant.
        self.charge(e, if self.optimized { 0 } else { init })?;
        let mut list_out: Vec<Value> = Vec::new();
        let mut map_out: Vec<(Value, Value)> = Vec::new();
        let mut merged = Map::default();
        for n in 0..total {
            if !self.bind_iteration(e, c, range, (n, slot, 0))? {
                continue;
            }
            match c.kind {
                CompKind::Filter => match self.condition(&c.step)? {
                    Value::Bool(true) => {
                        self.charge(e, 3 + cost::LIST_CREATE)?;
                        list_out.push(self.locals[slot].clone());
                    }
                    Value::Bool(false) => {}
                    other => return Err(fail(&c.step, no_overload("filter", &[&other]))),
                },
                CompKind::TransformMap => {
                    self.charge(e, 3)?;
                    let v = self.eval(&c.step)?;
                    map_out.push((self.locals[slot].clone(), v));
                }
                CompKind::TransformMapEntry => {
                    self.charge(e, 2)?;
                    let entry = self.eval(&c.step)?;
                    self.merge_entry(&c.step, entry, &mut merged)?;
                }
                _ => {
                    self.charge(e, 2 + cost::LIST_CREATE)?;
                    let v = self.eval(&c.step)?;
                    list_out.push(v);
                }
            }
        }
        self.charge(e, 1)?;
        match c.kind {
            CompKind::TransformMap => make_map(map_out).map_err(|m| fail(e, m)),
            CompKind::TransformMapEntry => Ok(Value::Map(Rc::new(merged))),
            _ => Ok(Value::list(list_out)),
        }
    }

    /// Adds the entries of one `transformMapEntry` result; a repeated key is an error.
    fn merge_entry(&mut self, step: &Expr, entry: Value, merged: &mut Map) -> Result<(), EvalError> {
        match entry {
            Value::Map(m) => {
                for (k, v) in m.iter() {
                    if merged.get(&k.to_value()).is_some() {
                        return Err(fail(
                            step,
                            format!(
                                "insert failed: key {} already exists",
                                to_string(&k.to_value()).unwrap_or_default()
                            ),
                        ));
                    }
                    merged.insert(k.clone(), v.clone());
                }
                Ok(())
            }
            // The macro expands to `cel.@mapInsert(accumulator, entry)` (cel-go v0.29.2
            // ext/comprehensions.go), whose run-time dispatch refuses an entry that is no map.
            other => Err(fail(step, format!("no such overload: cel.@mapInsert(map, {})", other.type_name()))),
        }
    }
}
