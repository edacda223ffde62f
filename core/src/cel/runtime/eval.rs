//! The interpreter: walks the expanded AST with CEL's error semantics (errors are absorbed by
//! `&&`, `||` and the `all`/`exists` macros when the other side decides the result) and tracks
//! Kubernetes' runtime cost as it goes. Comprehensions are in [`comprehension`](super::comprehension),
//! the paths that read operands in place in [`in_place`](super::in_place).

use alloc::boxed::Box;
use alloc::format;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;

use super::activation::Activation;
use super::cost;
use super::dispatch;
use super::in_place::{comparison, peek};
use crate::cel::library::operators::{index, list_position};
use crate::cel::library::{type_ident, RegexCache};
use crate::cel::syntax::ast::{Expr, Kind};
use crate::cel::syntax::Builtin;
use crate::cel::value::{no_overload, Fail, Key, Map, Value};

/// cel-go's `types.IndexOrError` for a string: a field selected on (or tested in) a list.
const NOT_A_LIST_INDEX: &str = "unsupported index type 'string' in list";

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

/// What the activation binds the program's free variables to. The first four (typical rules
/// have one or two) are looked up once when the evaluation starts; any others on each use.
pub(super) struct Vars<'a> {
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
    pub(super) fn get(&self, index: u32) -> Option<&'a Value> {
        let i = index as usize;
        match self.first.get(i) {
            Some(slot) => *slot,
            None => self.act.resolve(self.names.get(i)?),
        }
    }
}

/// The runtime cost so far, against its limit.
pub(super) struct Meter {
    pub(super) cost: u64,
    limit: u64,
}

impl Meter {
    #[inline(always)]
    pub(super) fn charge(&mut self, e: &Expr, n: u64) -> Result<(), EvalError> {
        self.cost = self.cost.saturating_add(n);
        if self.cost > self.limit {
            return Err(EvalError { message: COST_EXCEEDED.into(), offset: e.offset, cost_exceeded: true });
        }
        Ok(())
    }
}

pub(crate) struct Interpreter<'p, 'a> {
    act: &'a dyn Activation,
    pub(super) vars: Vars<'a>,
    /// Comprehension, bind and block variables, by the slots name resolution gave them (the
    /// program's storage, reused between evaluations).
    pub(super) locals: &'a mut Vec<Value>,
    pub(super) meter: Meter,
    pub(super) regexes: &'p RegexCache,
    /// Constant folding applied: the comprehension accumulators' empty literals cost nothing.
    pub(super) optimized: bool,
}

pub(super) type R = Result<Value, EvalError>;

/// `JSONPatch`, `Object` or `Object.<field>...`.
#[cfg(feature = "policy")]
pub(crate) fn is_mutation_type(name: &str) -> bool {
    name == "JSONPatch" || name == "Object" || name.starts_with("Object.")
}

pub(super) fn fail(e: &Expr, message: impl Into<String>) -> EvalError {
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
    pub(super) fn charge(&mut self, e: &Expr, n: u64) -> Result<(), EvalError> {
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
                if let Some(t) = type_ident(name) {
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
                let found = !matches!(r, Ok(Value::Optional(None)));
                self.charge(e, cost::SELECT * u64::from(found) + relative(operand))?;
                r
            }
            Kind::Has { operand, field } => {
                // The presence test itself costs nothing (celcoststability: `has(self.val1)` is 1).
                let target = self.eval(operand)?;
                match &target {
                    Value::Map(m) => Ok(Value::Bool(m.field(field).is_some())),
                    Value::Optional(Some(inner)) => match &**inner {
                        Value::Map(m) => Ok(Value::Bool(m.field(field).is_some())),
                        _ => Err(fail(e, "invalid type for field selection.")),
                    },
                    // cel-go's `refQualify`: a list takes no string index, even to test it.
                    Value::List(_) => Err(fail(e, NOT_A_LIST_INDEX)),
                    // Its presence test on any other value: false (`has(self.a)` of an int).
                    _ => Ok(Value::Bool(false)),
                }
            }
            Kind::Index { operand, index, optional } => {
                let target = self.eval(operand)?;
                let key = self.eval(index)?;
                // A constant index is a qualifier of the attribute and costs like a select; a
                // computed one costs only its own evaluation (celcoststability: `self.val[k]`).
                let r = self.index(e, target, key, *optional);
                let qualifier = matches!(index.kind, Kind::Lit(_)) && !matches!(r, Ok(Value::Optional(None)));
                self.charge(e, cost::SELECT * u64::from(qualifier) + relative(operand))?;
                r
            }
            Kind::And(a, b) => self.logic(a, b, false),
            Kind::Or(a, b) => self.logic(a, b, true),
            Kind::Cond(c, a, b) => {
                let branch = match self.eval(c)? {
                    Value::Bool(true) => a,
                    Value::Bool(false) => b,
                    other => return Err(fail(c, no_overload("_?_:_", &[&other]))),
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
                            other => return Err(fail(item, no_overload("optional list element", &[&other]))),
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
                            other => return Err(fail(v, no_overload("optional map entry", &[&other]))),
                        }
                    } else {
                        out.push((key, value));
                    }
                }
                make_map(out).map_err(|m| fail(e, m))
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
                        (true, other) => return Err(fail(v, no_overload("optional field", &[&other]))),
                    };
                    out.push((Value::from(&**field), value));
                }
                make_map(out).map_err(|m| fail(e, m))
            }
            Kind::Message { name, .. } => {
                // cel-go's planner (no message types are declared in Kubernetes' environments).
                Err(fail(e, format!("unknown type: {name}")))
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
        Ok(type_ident(&name).map(Value::Type))
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
            // cel-go qualifies attributes with `refQualify`: a list takes no string index (even
            // tested for presence); any other value has no such key (`params.metadata` when a
            // policy's params are null), or, tested for presence (`.?`), none.
            Value::List(_) => Err(fail(e, NOT_A_LIST_INDEX)),
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
            return index(&container, &key).map_err(|m| fail(e, m));
        }
        // attributes.go refQualify as a presence test (Kubernetes leaves
        // EnableErrorOnBadPresenceTest off): a bad list index is an error, a missing item or a
        // value that is no container is none.
        let found = match &container {
            Value::List(items) => {
                let i = list_position(&key).map_err(|m| fail(e, m))?;
                usize::try_from(i).ok().and_then(|i| items.get(i)).cloned()
            }
            Value::Map(m) => m.get(&key).cloned(),
            _ => None,
        };
        Ok(Value::Optional(found.map(Rc::new)))
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
                Err(fail(b, no_overload(name, &[other])))
            }
            (Ok(other), _) => {
                let name = if or { "_||_" } else { "_&&_" };
                Err(fail(a, no_overload(name, &[other])))
            }
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
        dispatch::call(builtin, name, recv.as_ref(), argv, self.regexes).map_err(|m| fail(e, m))
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
}

/// What a selection or index costs beyond its qualifier for being on `operand`: cel-go plans a
/// qualifier of anything but a name (a call's result, a literal, a comprehension) as a relative
/// attribute, whose step costs one more, once per chain (`dyn(self).a.b` costs one more than
/// `self.a.b`; the oracle's `cel` suite).
fn relative(operand: &Expr) -> u64 {
    let named = matches!(
        operand.kind,
        Kind::Select { .. } | Kind::Index { .. } | Kind::Var { .. } | Kind::Local { .. } | Kind::Ident(_)
    );
    cost::SELECT * u64::from(!named)
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

/// A map from entries in order, as cel-go v0.29.2 builds a map literal
/// (interpreter/interpretable.go `evalMap.Exec`, a Go map assigned entry by entry): a repeated
/// key keeps its last value (the CEL specification's conformance tests want an error there;
/// Kubernetes, which runs cel-go, gives the last value: the oracle's `cel-conformance` suite),
/// and an `int` and a `uint` key of one number are two entries.
pub(super) fn make_map(entries: Vec<(Value, Value)>) -> Result<Value, Fail> {
    let mut map = Map::default();
    for (k, v) in entries {
        let key = Key::from_value(&k).ok_or_else(|| format!("unsupported key type: {}", k.type_name()))?;
        map.insert(key, v);
    }
    Ok(Value::Map(Rc::new(map)))
}
