//! The interpreter: walks the expanded AST with CEL's error semantics (errors are absorbed by
//! `&&`, `||` and the `all`/`exists` macros when the other side decides the result) and tracks
//! Kubernetes' runtime cost as it goes.

use alloc::boxed::Box;
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;
use core::cell::RefCell;

use super::ast::{CompKind, Comprehension, Expr, Kind};
use super::cost;
use super::functions::{self as f, Builtin, Fail};
use super::library;
use super::value::{Key, Map, Value};

/// Variables visible to an expression.
pub trait Activation {
    /// The value of a variable, if it is bound (borrowed: evaluation clones only what it
    /// returns).
    fn resolve(&self, name: &str) -> Option<&Value>;

    /// The values of `names` (a program's free variables) by position, when this activation
    /// was bound to that program ([`super::Program::bind`]); `None` to look names up.
    fn by_position(&self, _names: &[Box<str>]) -> Option<&[Option<Value>]> {
        None
    }

    /// A value computed when it is first read, by its qualified name (`variables.name` in
    /// admission policies: cel-go's composited variables), or the error that computing it
    /// gave. Asked only for names [`Activation::resolve`] does not know.
    fn resolve_lazy(&self, _name: &str) -> Option<Result<Value, String>> {
        None
    }
}

/// No variables.
pub struct NoVars;

impl Activation for NoVars {
    fn resolve(&self, _: &str) -> Option<&Value> {
        None
    }
}

impl Activation for BTreeMap<String, Value> {
    fn resolve(&self, name: &str) -> Option<&Value> {
        self.get(name)
    }
}

/// Why an evaluation failed.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalError {
    /// The message (cel-go's wording where one exists).
    pub message: String,
    /// Byte offset of the failing sub-expression.
    pub offset: u32,
    /// The runtime cost limit was exceeded.
    pub cost_exceeded: bool,
}

/// The message cel-go gives when the runtime cost limit is exceeded.
pub const COST_EXCEEDED: &str = "operation cancelled: actual cost limit exceeded";

/// Compiled regular expressions, cached per program (patterns are usually literals).
#[derive(Default)]
pub struct RegexCache {
    entries: RefCell<Vec<(Rc<str>, Rc<library::Regex>)>>,
}

impl RegexCache {
    /// The compiled form of a pattern.
    pub fn get(&self, pattern: &str) -> Result<Rc<library::Regex>, Fail> {
        if let Some((_, r)) = self.entries.borrow().iter().find(|(p, _)| &**p == pattern) {
            return Ok(r.clone());
        }
        let r = Rc::new(library::Regex::new(pattern)?);
        let mut entries = self.entries.borrow_mut();
        if entries.len() >= 64 {
            entries.remove(0);
        }
        entries.push((Rc::from(pattern), r.clone()));
        Ok(r)
    }
}

/// What the activation binds the program's free variables to. The first four (typical rules
/// have one or two) are looked up once when the evaluation starts; any others on each use.
struct Vars<'a> {
    act: &'a dyn Activation,
    names: &'a [Box<str>],
    first: [Option<&'a Value>; 4],
}

impl<'a> Vars<'a> {
    fn resolve(act: &'a dyn Activation, names: &'a [Box<str>]) -> Self {
        let mut first = [None; 4];
        match act.by_position(names) {
            Some(values) => first.iter_mut().zip(values).for_each(|(slot, v)| *slot = v.as_ref()),
            None => first.iter_mut().zip(names).for_each(|(slot, name)| *slot = act.resolve(name)),
        }
        Vars { act, names, first }
    }

    /// The value bound to free variable `index`, if any.
    fn get(&self, index: u32) -> Option<&'a Value> {
        let i = index as usize;
        match self.first.get(i) {
            Some(slot) => *slot,
            None => self.act.resolve(self.names.get(i)?),
        }
    }
}

/// The runtime cost so far, against its limit.
struct Meter {
    cost: u64,
    limit: u64,
}

impl Meter {
    #[inline(always)]
    fn charge(&mut self, e: &Expr, n: u64) -> Result<(), EvalError> {
        self.cost = self.cost.saturating_add(n);
        if self.cost > self.limit {
            return Err(EvalError { message: COST_EXCEEDED.into(), offset: e.offset, cost_exceeded: true });
        }
        Ok(())
    }
}

pub(crate) struct Interpreter<'p, 'a> {
    act: &'a dyn Activation,
    vars: Vars<'a>,
    /// Comprehension, bind and block variables, by the slots name resolution gave them (the
    /// program's storage, reused between evaluations).
    locals: &'a mut Vec<Value>,
    meter: Meter,
    regexes: &'p RegexCache,
    /// Constant folding applied: the comprehension accumulators' empty literals cost nothing.
    optimized: bool,
}

type R = Result<Value, EvalError>;

/// `JSONPatch`, `Object` or `Object.<field>...`.
#[cfg(feature = "policy")]
pub(crate) fn is_mutation_type(name: &str) -> bool {
    name == "JSONPatch" || name == "Object" || name.starts_with("Object.")
}

fn fail(e: &Expr, message: impl Into<String>) -> EvalError {
    EvalError { message: message.into(), offset: e.offset, cost_exceeded: false }
}

impl<'p, 'a> Interpreter<'p, 'a> {
    pub fn new(
        act: &'a dyn Activation,
        names: &'a [Box<str>],
        limit: u64,
        regexes: &'p RegexCache,
        optimized: bool,
        locals: &'a mut Vec<Value>,
    ) -> Self {
        let vars = Vars::resolve(act, names);
        Interpreter { act, vars, locals, meter: Meter { cost: 0, limit }, regexes, optimized }
    }

    /// The runtime cost so far.
    pub fn cost(&self) -> u64 {
        self.meter.cost
    }

    #[inline(always)]
    fn charge(&mut self, e: &Expr, n: u64) -> Result<(), EvalError> {
        self.meter.charge(e, n)
    }

    pub fn eval(&mut self, e: &'p Expr) -> R {
        match &e.kind {
            Kind::Lit(v) => Ok(v.clone()),
            Kind::Local { slot, .. } => {
                self.charge(e, cost::SELECT)?;
                Ok(self.locals[*slot as usize].clone())
            }
            Kind::Var { index, name } => {
                if let Some(v) = self.vars.get(*index) {
                    self.charge(e, cost::SELECT)?;
                    return Ok(v.clone());
                }
                // A type name is a constant once checked: it costs nothing.
                if let Some(t) = f::type_ident(name) {
                    return Ok(Value::Type(t));
                }
                Err(fail(e, format!("undeclared reference to '{name}' (in container '')")))
            }
            Kind::Ident(name) => Err(fail(e, format!("unresolved name '{name}'"))),
            Kind::Select { operand, field, optional } => {
                if let Some(v) = self.field_path(e)? {
                    return Ok(v);
                }
                if let Some(v) = self.qualified(e)? {
                    return Ok(v);
                }
                let target = self.eval(operand)?;
                // An optional qualifier that finds nothing is not observed by cel-go's cost
                // tracker (celcoststability: `self.obj.?absentField == optional.none()` is 4).
                let r = self.select(e, target, field, *optional);
                if !matches!(r, Ok(Value::Optional(None))) {
                    self.charge(e, cost::SELECT)?;
                }
                r
            }
            Kind::Has { operand, field } => {
                // The presence test itself costs nothing (celcoststability: `has(self.val1)` is 1).
                let target = self.eval(operand)?;
                match &target {
                    Value::Map(m) => Ok(Value::Bool(m.field(field).is_some())),
                    // refQualify's presence test on a value without fields: false.
                    Value::Optional(None) | Value::Null => Ok(Value::Bool(false)),
                    Value::Optional(Some(inner)) => match &**inner {
                        Value::Map(m) => Ok(Value::Bool(m.field(field).is_some())),
                        _ => Err(fail(e, "invalid type for field selection.")),
                    },
                    _ => Err(fail(e, format!("invalid type for field selection: {}", target.type_name()))),
                }
            }
            Kind::Index { operand, index, optional } => {
                let target = self.eval(operand)?;
                let key = self.eval(index)?;
                // A constant index is a qualifier of the attribute and costs like a select; a
                // computed one costs only its own evaluation (celcoststability: `self.val[k]`).
                let r = self.index(e, target, key, *optional);
                if matches!(index.kind, Kind::Lit(_)) && !matches!(r, Ok(Value::Optional(None))) {
                    self.charge(e, cost::SELECT)?;
                }
                r
            }
            Kind::And(a, b) => self.logic(a, b, false),
            Kind::Or(a, b) => self.logic(a, b, true),
            Kind::Cond(c, a, b) => {
                let branch = match self.eval(c)? {
                    Value::Bool(true) => a,
                    Value::Bool(false) => b,
                    other => return Err(fail(c, f::no_overload("_?_:_", &[&other]))),
                };
                // cel-go plans a ternary as a conditional attribute: a branch that is itself an
                // attribute (`e`, `self.a`) is resolved inside it, so the attribute's own cost is
                // not observed, only its qualifiers' (celcoststability: `sortBy(e, e == "first"
                // ? "" : e)`).
                let before = self.meter.cost;
                let r = self.eval(branch);
                if is_attribute(branch) && self.meter.cost > before {
                    self.meter.cost -= cost::SELECT;
                }
                r
            }
            Kind::List(items) => {
                self.charge(e, cost::LIST_CREATE)?;
                let mut out = Vec::with_capacity(items.len());
                for (item, optional) in items {
                    let v = self.eval(item)?;
                    if *optional {
                        match v {
                            Value::Optional(Some(inner)) => out.push((*inner).clone()),
                            Value::Optional(None) => {}
                            other => return Err(fail(item, f::no_overload("optional list element", &[&other]))),
                        }
                    } else {
                        out.push(v);
                    }
                }
                Ok(Value::list(out))
            }
            Kind::Map(entries) => {
                self.charge(e, cost::MAP_CREATE)?;
                let mut out = Vec::with_capacity(entries.len());
                for (k, v, optional) in entries {
                    let key = self.eval(k)?;
                    let value = self.eval(v)?;
                    if *optional {
                        match value {
                            Value::Optional(Some(inner)) => out.push((key, (*inner).clone())),
                            // cel-go's evalMap.Exec deletes the key an absent optional entry
                            // names, entered before it or not.
                            Value::Optional(None) => {
                                let gone = Key::from_value(&key);
                                out.retain(|(k, _)| Key::from_value(k) != gone);
                            }
                            other => return Err(fail(v, f::no_overload("optional map entry", &[&other]))),
                        }
                    } else {
                        out.push((key, value));
                    }
                }
                f::make_map(out).map_err(|m| fail(e, m))
            }
            // Mutating admission policies' object types (apiserver pkg/cel/mutation): `JSONPatch`
            // and `Object`, `Object.spec`, ... build plain maps (the checker admits them only
            // where Kubernetes declares them).
            #[cfg(feature = "policy")]
            Kind::Message { name, fields } if is_mutation_type(name) => {
                self.charge(e, cost::MAP_CREATE)?;
                let mut out = Vec::with_capacity(fields.len());
                for (field, v, optional) in fields {
                    let value = self.eval(v)?;
                    let value = match (optional, value) {
                        (false, v) => v,
                        (true, Value::Optional(Some(inner))) => (*inner).clone(),
                        (true, Value::Optional(None)) => continue,
                        (true, other) => return Err(fail(v, f::no_overload("optional field", &[&other]))),
                    };
                    out.push((Value::from(&**field), value));
                }
                f::make_map(out).map_err(|m| fail(e, m))
            }
            Kind::Message { name, .. } => {
                Err(fail(e, format!("unknown type: {name} (kubedv has no protobuf message types)")))
            }
            Kind::Comprehension(c) => self.comprehension(e, c),
            Kind::Bind { init, body, .. } => {
                // cel-go expands `cel.bind` (and `sortBy`) to a comprehension over an empty
                // list literal: a list creation, unless folded to a constant.
                self.charge(e, if self.optimized { 0 } else { cost::LIST_CREATE })?;
                let v = self.eval(init)?;
                self.locals.push(v);
                let r = self.eval(body);
                self.locals.pop();
                r
            }
            Kind::Block { inits, body } => {
                let base = self.locals.len();
                for (_, init) in inits {
                    let v = match self.eval(init) {
                        Ok(v) => v,
                        Err(err) => {
                            self.locals.truncate(base);
                            return Err(err);
                        }
                    };
                    self.locals.push(v);
                }
                let r = self.eval(body);
                self.locals.truncate(base);
                r
            }
            Kind::Call { target, name, builtin, args } => self.call(e, target.as_deref(), name, *builtin, args),
        }
    }

    /// The fast path for `self.a.b.c` (the bulk of Kubernetes rules): the value read in place
    /// (see [`peek`]) and cloned only as the result.
    fn field_path(&mut self, e: &'p Expr) -> Result<Option<Value>, EvalError> {
        let Some((value, cost)) = peek(&self.vars, self.locals, e) else { return Ok(None) };
        let value = value.clone();
        self.charge(e, cost)?;
        Ok(Some(value))
    }

    /// `a.b.c` naming a variable or type as a whole (when `a` itself is not a variable).
    fn qualified(&mut self, e: &'p Expr) -> Result<Option<Value>, EvalError> {
        let mut root = e;
        while let Kind::Select { operand, optional: false, .. } = &root.kind {
            root = operand;
        }
        let Kind::Var { index, name: root_name } = &root.kind else { return Ok(None) };
        // A bound map is an ordinary field selection; another value (the admission
        // `authorizer`) may have a qualified variable under it (`authorizer.requestResource`).
        if matches!(self.vars.get(*index), Some(Value::Map(_) | Value::Null)) {
            return Ok(None);
        }
        let mut parts = Vec::new();
        let mut cur = e;
        while let Kind::Select { operand, field, .. } = &cur.kind {
            parts.push(&**field);
            cur = operand;
        }
        parts.push(&**root_name);
        parts.reverse();
        let name = parts.join(".");
        if let Some(v) = self.act.resolve(&name) {
            self.charge(e, cost::SELECT)?;
            return Ok(Some(v.clone()));
        }
        if let Some(v) = self.act.resolve_lazy(&name) {
            self.charge(e, cost::SELECT)?;
            return v.map(Some).map_err(|m| fail(e, m));
        }
        Ok(f::type_ident(&name).map(Value::Type))
    }

    fn select(&mut self, e: &Expr, target: Value, field: &str, optional: bool) -> R {
        match target {
            Value::Map(m) => match m.field(field) {
                Some(v) if optional => Ok(Value::Optional(Some(Rc::new(v.clone())))),
                Some(v) => Ok(v.clone()),
                None if optional => Ok(Value::Optional(None)),
                None => Err(fail(e, format!("no such key: {field}"))),
            },
            Value::Optional(None) => Ok(Value::Optional(None)),
            Value::Optional(Some(inner)) => match &*inner {
                Value::Map(m) => Ok(Value::Optional(m.field(field).map(|v| Rc::new(v.clone())))),
                other => Err(fail(e, format!("invalid type for field selection: {}", other.type_name()))),
            },
            // cel-go qualifies attributes with `refQualify`: any other value has no such key
            // (`params.metadata` when a policy's params are null), or, tested for presence
            // (`.?`), none.
            _ if optional => Ok(Value::Optional(None)),
            _ => Err(fail(e, format!("no such key: {field}"))),
        }
    }

    fn index(&mut self, e: &Expr, target: Value, key: Value, optional: bool) -> R {
        let (container, wrap) = match target {
            Value::Optional(None) => return Ok(Value::Optional(None)),
            Value::Optional(Some(inner)) => ((*inner).clone(), true),
            other => (other, optional),
        };
        if !wrap {
            return f::index(&container, &key).map_err(|m| fail(e, m));
        }
        // attributes.go refQualify as a presence test (Kubernetes leaves
        // EnableErrorOnBadPresenceTest off): a bad list index is an error, a missing item or a
        // value that is no container is none.
        let found = match &container {
            Value::List(items) => {
                let i = f::list_position(&key).map_err(|m| fail(e, m))?;
                usize::try_from(i).ok().and_then(|i| items.get(i)).cloned()
            }
            Value::Map(m) => m.get(&key).cloned(),
            _ => None,
        };
        Ok(Value::Optional(found.map(Rc::new)))
    }

    /// An expression in a position that wants a bool (an operand of `&&`/`||`, a macro's
    /// predicate): a comparison of existing values (`self.x >= 1`, `c.name == 'a'`) is
    /// decided here, without the general call path; anything else is evaluated.
    fn condition(&mut self, e: &'p Expr) -> R {
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

    /// `&&` (`or` false) and `||` (`or` true): the deciding value wins over an error on either side.
    fn logic(&mut self, a: &'p Expr, b: &'p Expr, or: bool) -> R {
        let left = self.condition(a);
        match &left {
            Ok(Value::Bool(v)) if *v == or => return left,
            Err(err) if err.cost_exceeded => return left,
            _ => {}
        }
        let right = self.condition(b);
        match (&left, &right) {
            (_, Ok(Value::Bool(v))) if *v == or => right,
            (_, Err(err)) if err.cost_exceeded => right,
            (Ok(Value::Bool(_)), Ok(Value::Bool(_))) => right,
            (Err(_), _) => left,
            (Ok(Value::Bool(_)), Err(_)) => right,
            (Ok(Value::Bool(_)), Ok(other)) => {
                let name = if or { "_||_" } else { "_&&_" };
                Err(fail(b, f::no_overload(name, &[other])))
            }
            (Ok(other), _) => {
                let name = if or { "_||_" } else { "_&&_" };
                Err(fail(a, f::no_overload(name, &[other])))
            }
        }
    }

    fn comprehension(&mut self, e: &Expr, c: &'p Comprehension) -> R {
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
            other => Err(fail(filter, f::no_overload("filter", &[&other]))),
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
                    other => return Err(fail(&c.step, f::no_overload("exists_one", &[&other]))),
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
                Ok(other) => error = Some(fail(&c.step, f::no_overload(if want { "_||_" } else { "_&&_" }, &[&other]))),
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
                    other => return Err(fail(&c.step, f::no_overload("filter", &[&other]))),
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
            CompKind::TransformMap => f::make_map(map_out).map_err(|m| fail(e, m)),
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
                                f::to_string(&k.to_value()).unwrap_or_default()
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

    fn call(&mut self, e: &Expr, target: Option<&'p Expr>, name: &str, builtin: Builtin, args: &'p [Expr]) -> R {
        // cel-go's optional library plans `or`/`orValue` as `evalOptionalOr(Value)`, not calls:
        // the right side only when the left has no value, and no cost of their own.
        if let (Builtin::OptOr | Builtin::OptOrValue, Some(t), [alternative]) = (builtin, target, args) {
            return match self.eval(t)? {
                Value::Optional(Some(v)) if builtin == Builtin::OptOrValue => Ok((*v).clone()),
                v @ Value::Optional(Some(_)) => Ok(v),
                Value::Optional(None) => self.eval(alternative),
                _ => Err(fail(e, "no such overload")),
            };
        }
        if let Some(r) = self.call_in_place(e, target, name, builtin, args) {
            return r;
        }
        let recv = match target {
            Some(t) => match self.eval(t) {
                Ok(v) => Some(v),
                Err(err) => return self.failed_call(e, args, true, 0, err),
            },
            None => None,
        };
        // Most calls have at most two arguments: avoid a heap allocation for them.
        let mut small: [Value; 2] = [Value::Null, Value::Null];
        // Initialised only when needed: even dropping an empty Vec is a call in the
        // size-optimised WebAssembly build, on every operator.
        let big: Vec<Value>;
        let argv: &[Value] = if args.len() <= 2 {
            for (i, a) in args.iter().enumerate() {
                match self.eval(a) {
                    Ok(v) => small[i] = v,
                    Err(err) => {
                        return self.failed_call(e, args, target.is_some(), i + usize::from(target.is_some()), err)
                    }
                }
            }
            &small[..args.len()]
        } else {
            big = args.iter().map(|a| self.eval(a)).collect::<Result<_, _>>()?;
            &big
        };
        if let (None, [x, y]) = (&recv, argv) {
            if let Some((v, c)) = comparison(builtin, x, y) {
                self.charge(e, c)?;
                return Ok(v);
            }
        }
        let c = cost::call_cost(builtin, name, recv.as_ref(), argv);
        self.charge(e, c)?;
        library::call(builtin, name, recv.as_ref(), argv, self.regexes).map_err(|m| fail(e, m))
    }
}

impl<'p, 'a> Interpreter<'p, 'a> {
    /// A strict call whose operand `failed` (the receiver is operand 0) gave `err`, as cel-go's
    /// interpreter and cost tracker treat it: `evalUnary` and `evalBinary` evaluate every
    /// operand, then the call is observed and charged though it returns the first error;
    /// `evalVarArgs` stops at the failing operand and is not charged (its operands are not all
    /// on the tracker's stack). The call's own cost is 1: an error has no size.
    fn failed_call(&mut self, e: &Expr, args: &'p [Expr], has_target: bool, failed: usize, err: EvalError) -> R {
        let operands = args.len() + usize::from(has_target);
        if err.cost_exceeded || operands > 2 {
            return Err(err);
        }
        for i in failed + 1..operands {
            if let Err(later) = self.eval(&args[i - usize::from(has_target)]) {
                if later.cost_exceeded {
                    return Err(later);
                }
            }
        }
        self.charge(e, 1)?;
        Err(err)
    }

    /// The fast path for calls whose receiver and (at most two) arguments already exist (see
    /// [`peek`]): `self.x >= 1`, `c.name == 'a'`, `size(c.ports)`, `s.startsWith('p')` read
    /// their operands in place instead of evaluating them into copies. `None` when an operand
    /// needs evaluating.
    fn call_in_place(
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
                .and_then(|()| library::call(builtin, name, recv, argv, self.regexes).map_err(|m| fail(e, m))),
        )
    }
}

/// Whether cel-go plans an expression as an attribute: a variable, or selections and constant
/// indexes (optional or not) of one.
fn is_attribute(e: &Expr) -> bool {
    match &e.kind {
        Kind::Var { .. } | Kind::Local { .. } | Kind::Ident(_) => true,
        Kind::Select { operand, .. } => is_attribute(operand),
        Kind::Index { operand, index, .. } => matches!(index.kind, Kind::Lit(_)) && is_attribute(operand),
        _ => false,
    }
}

/// The value of an operand that already exists — a literal, a bound variable or local, a
/// field of one (`self.a.b`) or a constant index into one (`self.m['k']`, `self.l[0]`) —
/// borrowed, with the cost evaluating it would have. Anything unusual (a missing field or key,
/// a non-map, an optional select) is `None`, for the general path and its errors.
fn peek<'v>(vars: &Vars<'v>, locals: &'v [Value], e: &'v Expr) -> Option<(&'v Value, u64)> {
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
fn comparison(op: Builtin, x: &Value, y: &Value) -> Option<(Value, u64)> {
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

impl From<Key> for Value {
    fn from(k: Key) -> Value {
        k.to_value()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cel::{from_json, Program};

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
                    let outcome = |r: &Result<super::super::Evaluated, super::super::CelError>| match r {
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
