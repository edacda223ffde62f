//! The static cost estimate Kubernetes computes when a CRD is written (cel-go `checker/cost.go`
//! with the Kubernetes library estimators): the runtime cost model evaluated with the largest
//! sizes the schema allows. Sizes come from `maxLength`, `maxItems` and `maxProperties`, or,
//! without them, from the request size limit divided by each element's smallest serialized size
//! (apiserver `pkg/cel/common/schemas.go`). Estimates do not see constant folding.

use alloc::collections::BTreeMap;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;

mod calls;
mod sized;

use calls::call_estimate;
use sized::{literal, sized, strings, unresolved, UNBOUNDED};
pub use sized::{sized_type, Hint, SizedType, MAX_REQUEST_SIZE};

use crate::cel::common::{LIST_CREATE, MAP_CREATE, SELECT};
use crate::cel::library::type_ident;
use crate::cel::runtime::Program;
use crate::cel::syntax::ast::{CompKind, Comprehension, Expr, Kind};
use crate::cel::syntax::Builtin;
use crate::cel::value::Value;

/// `StaticEstimatedCostLimit`: the most a rule may be estimated to cost
/// (apiextensions-apiserver `pkg/apis/apiextensions/validation/validation.go`).
pub const STATIC_ESTIMATED_COST_LIMIT: u64 = 10_000_000;
/// `StaticEstimatedCRDCostLimit`: the most all rules of a CRD may be estimated to cost.
pub const STATIC_ESTIMATED_CRD_COST_LIMIT: u64 = 100_000_000;

/// Kubernetes' message for an estimate over a limit (`getCostErrorMessage`), e.g.
/// `estimated rule cost exceeds budget by factor of 2.5x (try simplifying ...)`.
pub fn cost_error_message(cost_name: &str, cost: u64, limit: u64) -> String {
    let factor = cost as f64 / limit as f64;
    let factor = if factor > 100.0 {
        String::from("more than 100x")
    } else if factor < 1.5 {
        alloc::format!("{}x", crate::field::exact::fixed(factor, 6))
    } else {
        alloc::format!("{}x", crate::field::exact::fixed(factor, 1))
    };
    alloc::format!(
        "{cost_name} exceeds budget by factor of {factor} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)"
    )
}

/// A cost range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CostEstimate {
    /// The least the expression can cost.
    pub min: u64,
    /// The most it can cost.
    pub max: u64,
}

/// What the estimator knows about a sub-expression.
#[derive(Clone)]
struct Info {
    min: u64,
    max: u64,
    /// The most elements of the result (string length, list items, map entries).
    size: u64,
    /// The result's schema type, when known.
    ty: Option<Rc<SizedType>>,
    hint: Hint,
}

impl Info {
    fn cost(min: u64, max: u64) -> Info {
        Info { min, max, size: UNBOUNDED, ty: None, hint: Hint::Unknown }
    }
}

fn ceil_factor(size: u64, factor: f64) -> u64 {
    if size == UNBOUNDED {
        return UNBOUNDED;
    }
    crate::cel::common::ceil_factor(size, factor)
}

/// cel-go `estimateAllocatingListCall`: `ceil(size * factor)` + the call + the allocation.
fn list_call(size: u64, factor: f64) -> u64 {
    ceil_factor(size, factor).saturating_add(1 + LIST_CREATE)
}

fn mul(a: u64, b: u64) -> u64 {
    a.saturating_mul(b)
}

/// Estimates the cost of a program whose variables have these sized types (others are
/// unbounded).
pub fn estimate(program: &Program, vars: &[(&str, SizedType)]) -> CostEstimate {
    let mut e = Estimator { vars: BTreeMap::new(), locals: Vec::new() };
    // Inserted one by one: collecting into a map would instantiate another sort.
    for (name, t) in vars {
        e.vars.insert(String::from(*name), Rc::new(t.clone()));
    }
    let info = e.walk(program.ast());
    CostEstimate { min: info.min, max: info.max }
}

struct Estimator {
    vars: BTreeMap<String, Rc<SizedType>>,
    locals: Vec<Info>,
}

impl Estimator {
    fn walk(&mut self, e: &Expr) -> Info {
        match &e.kind {
            Kind::Lit(v) => {
                let (size, hint) = match v {
                    Value::String(s) => (s.chars().count() as u64, Hint::Str),
                    Value::Bytes(b) => (b.len() as u64, Hint::Bytes),
                    Value::List(l) => (l.len() as u64, Hint::Container),
                    Value::Map(m) => (m.len() as u64, Hint::Container),
                    // Size 1 (computeExprSize), but not a scalar.
                    Value::Null => (1, Hint::Unknown),
                    _ => (1, Hint::Other),
                };
                Info { min: 0, max: 0, size, ty: None, hint }
            }
            Kind::Ident(name) | Kind::Var { name, .. } => match self.vars.get(&**name) {
                Some(t) => Info { min: SELECT, max: SELECT, size: t.max_elements, ty: Some(t.clone()), hint: t.hint },
                None if type_ident(name).is_some() => Info { size: 1, hint: Hint::Other, ..Info::cost(0, 0) },
                None => Info::cost(SELECT, SELECT),
            },
            Kind::Local { slot, .. } => {
                let local = self.locals.get(*slot as usize).cloned().unwrap_or_else(|| Info::cost(0, 0));
                Info { min: SELECT, max: SELECT, ..local }
            }
            Kind::Select { operand, field, optional } => {
                if let Some(name) = qualified_name(e) {
                    if !self.vars.contains_key(name.split('.').next().unwrap_or("")) && type_ident(&name).is_some() {
                        // A qualified type name (`google.protobuf.Duration`) is a constant.
                        return Info { size: 1, hint: Hint::Other, ..Info::cost(0, 0) };
                    }
                }
                let o = self.walk(operand);
                let ty = o.ty.as_ref().and_then(|t| match t.fields.get(&**field) {
                    Some(f) => Some(f.clone()),
                    None if t.map => t.elem.as_deref().map(|e| Rc::new(unresolved(e))),
                    None => t.elem.clone(),
                });
                // An optional's size is unknown to cel-go's estimator (celcoststability:
                // `self.obj.?field == optional.of('a')`), but an optional scalar's.
                let (size, hint) = sized(ty.as_ref(), *optional);
                Info { min: o.min.saturating_add(SELECT), max: o.max.saturating_add(SELECT), size, ty, hint }
            }
            Kind::Has { operand, .. } => {
                let o = self.walk(operand);
                Info { size: 1, ty: None, hint: Hint::Other, ..o }
            }
            Kind::Index { operand, index, optional } => {
                let o = self.walk(operand);
                let i = self.walk(index);
                // cel-go's estimate charges every index 1 (`_[_]`), constant or computed (celcoststability:
                // `self.val.all(k, self.val[k] > 0)`); at run time only constant ones cost.
                let extra = 1;
                let ty = o.ty.as_ref().and_then(|t| t.elem.clone());
                let (size, hint) = sized(ty.as_ref(), *optional);
                Info {
                    min: o.min.saturating_add(i.min).saturating_add(extra),
                    max: o.max.saturating_add(i.max).saturating_add(extra),
                    size,
                    ty,
                    hint,
                }
            }
            Kind::And(a, b) | Kind::Or(a, b) => {
                let (a, b) = (self.walk(a), self.walk(b));
                Info { min: a.min, max: a.max.saturating_add(b.max), size: 1, ty: None, hint: Hint::Other }
            }
            Kind::Cond(c, a, b) => {
                let (c, a, b) = (self.walk(c), self.walk(a), self.walk(b));
                let size = a.size.max(b.size);
                let hint = if a.hint == b.hint { a.hint } else { Hint::Unknown };
                Info {
                    min: c.min.saturating_add(a.min.min(b.min)),
                    max: c.max.saturating_add(a.max.max(b.max)),
                    size,
                    ty: a.ty.or(b.ty),
                    hint,
                }
            }
            Kind::List(items) => {
                let mut info = Info {
                    min: LIST_CREATE,
                    max: LIST_CREATE,
                    size: items.len() as u64,
                    ty: None,
                    hint: Hint::Container,
                };
                let mut elem = None;
                for (n, (item, _)) in items.iter().enumerate() {
                    let i = self.walk(item);
                    info.min = info.min.saturating_add(i.min);
                    info.max = info.max.saturating_add(i.max);
                    elem = match (n, elem) {
                        (0, _) => Some(i.hint),
                        (_, Some(h)) if h == i.hint => Some(h),
                        _ => Some(Hint::Unknown),
                    };
                }
                // A list of strings or bytes (or scalars) is typed so by the checker; its
                // elements have no schema path, so no size bound (library cost.go
                // `listElementNode`).
                if let Some(hint @ (Hint::Str | Hint::Bytes | Hint::Other)) = elem {
                    info.ty = Some(literal(items.len() as u64, hint, false));
                }
                info
            }
            Kind::Map(entries) => {
                let mut info = Info {
                    min: MAP_CREATE,
                    max: MAP_CREATE,
                    size: entries.len() as u64,
                    ty: None,
                    hint: Hint::Container,
                };
                let mut values = None;
                for (n, (k, v, _)) in entries.iter().enumerate() {
                    let (k, v) = (self.walk(k), self.walk(v));
                    info.min = info.min.saturating_add(k.min).saturating_add(v.min);
                    info.max = info.max.saturating_add(k.max).saturating_add(v.max);
                    values = match (n, values) {
                        (0, _) => Some(v.hint),
                        (_, Some(h)) if h == v.hint => Some(h),
                        _ => Some(Hint::Unknown),
                    };
                }
                // Values the checker types alike: an index into the literal is typed so.
                if let Some(hint @ (Hint::Str | Hint::Bytes | Hint::Other)) = values {
                    info.ty = Some(literal(entries.len() as u64, hint, true));
                }
                info
            }
            Kind::Message { .. } => Info::cost(0, 0),
            Kind::Bind { init, body, .. } => {
                // The expansion's empty iteration range: a list literal.
                let i = self.walk(init);
                self.locals.push(i.clone());
                let b = self.walk(body);
                self.locals.pop();
                let (min, max) = (i.min.saturating_add(LIST_CREATE), i.max.saturating_add(LIST_CREATE));
                Info { min: min.saturating_add(b.min), max: max.saturating_add(b.max), ..b }
            }
            Kind::Block { inits, body } => {
                let base = self.locals.len();
                let (mut min, mut max) = (0u64, 0u64);
                for (_, init) in inits {
                    let i = self.walk(init);
                    min = min.saturating_add(i.min);
                    max = max.saturating_add(i.max);
                    self.locals.push(i);
                }
                let b = self.walk(body);
                self.locals.truncate(base);
                Info { min: min.saturating_add(b.min), max: max.saturating_add(b.max), ..b }
            }
            Kind::Comprehension(c) => self.comprehension(c),
            Kind::Call { target, name, builtin, args } => {
                let mut infos = Vec::with_capacity(args.len() + 1);
                // Non-negative int literals among the arguments (cel-go `nodeAsUintValue`).
                let mut consts = Vec::with_capacity(args.len() + 1);
                if let Some(t) = target {
                    infos.push(self.walk(t));
                    consts.push(None);
                }
                for a in args {
                    infos.push(self.walk(a));
                    consts.push(match a.kind {
                        Kind::Lit(Value::Int(i)) => Some(i.max(0) as u64),
                        _ => None,
                    });
                }
                let (min, max) =
                    infos.iter().fold((0u64, 0u64), |(lo, hi), i| (lo.saturating_add(i.min), hi.saturating_add(i.max)));
                let pathless = !target.as_deref().is_some_and(has_path);
                let (cmin, cmax, size, hint) = call_estimate(*builtin, name, &infos, &consts, pathless);
                let ty = match builtin {
                    Builtin::Dyn => infos.first().and_then(|i| i.ty.clone()),
                    // Lists of strings (their elements' size is unknown: they have no path).
                    Builtin::Split | Builtin::FindAll => Some(strings(size, Hint::Str)),
                    _ => None,
                };
                Info { min: min.saturating_add(cmin), max: max.saturating_add(cmax), size, ty, hint }
            }
        }
    }

    fn comprehension(&mut self, c: &Comprehension) -> Info {
        let range = self.walk(&c.range);
        let n = range.size;
        let two = c.var2.is_some();
        let elem = range.ty.as_ref().and_then(|t| t.elem.clone());
        let is_map = range.ty.as_ref().is_some_and(|t| t.map);
        // An iteration variable is sized by its schema path (library cost.go EstimateSize):
        // map keys have no size bound (0); a range without a schema path (a literal, the
        // result of map/filter) sizes its variables as the root `self` (cel-go falls back to
        // the estimator's size of the expression's root variable).
        let fallback = self.vars.get("self").map_or(UNBOUNDED, |t| t.max_elements);
        // A range that is not a path into a variable (a comprehension's result, a call, a
        // conditional) has none even when its element type is known: cel-go gives its
        // variables the path ["@items"], which apiextensions' sizeEstimator
        // (schema/cel/compilation.go) sizes as the root.
        let pathless = !has_path(&c.range);
        let var_info = |ty: Option<Rc<SizedType>>| Info {
            min: 0,
            max: 0,
            size: ty.as_ref().filter(|_| !pathless).map_or(fallback, |t| t.max_elements),
            hint: ty.as_ref().map_or(Hint::Unknown, |t| t.hint),
            ty,
        };
        let key_size = if range.ty.is_some() { 0 } else { fallback };
        let key = Info { size: key_size, hint: Hint::Str, ..var_info(None) };
        let index = Info { size: 1, hint: Hint::Other, ..var_info(None) };
        self.locals.push(match (is_map, two) {
            (true, _) => key,
            (false, true) => index,
            (false, false) => var_info(elem.clone()),
        });
        if two {
            self.locals.push(var_info(elem.clone()));
        }
        let filter = c.filter.as_ref().map(|f| self.walk(f));
        let step = self.walk(&c.step);
        self.locals.truncate(self.locals.len() - 1 - usize::from(two));
        // The per-iteration overhead of cel-go's expansion, as in the runtime model.
        let (init, cond, result, taken) = match c.kind {
            CompKind::All => (0, 2, 1, 1),
            CompKind::Exists => (0, 3, 1, 1),
            CompKind::ExistsOne => (0, 0, 2, 2),
            CompKind::Map | CompKind::TransformList => (LIST_CREATE, 0, 1, 2 + LIST_CREATE),
            CompKind::Filter => (LIST_CREATE, 0, 1, 3 + LIST_CREATE),
            CompKind::TransformMap => (MAP_CREATE, 0, 1, 3),
            CompKind::TransformMapEntry => (MAP_CREATE, 0, 1, 2),
        };
        let per_max =
            filter.as_ref().map_or(0, |f| f.max).saturating_add(cond).saturating_add(step.max).saturating_add(taken);
        let max = range.max.saturating_add(init).saturating_add(mul(n, per_max)).saturating_add(result);
        // An empty range runs no iteration.
        let min = range.min.saturating_add(init).saturating_add(result);
        let size = match c.kind {
            CompKind::All | CompKind::Exists | CompKind::ExistsOne => 1,
            _ => n,
        };
        let hint = if size == 1 { Hint::Other } else { Hint::Container };
        // `map`'s result is a list of the step's type (cel-go knows it from the checker:
        // `sortBy` keys of strings cost more to compare).
        let ty = (c.kind == CompKind::Map).then(|| {
            let item = SizedType {
                max_elements: step.size,
                min_size: 0,
                fields: BTreeMap::new(),
                elem: None,
                map: false,
                hint: step.hint,
                scalar: false,
            };
            Rc::new(SizedType {
                max_elements: n,
                min_size: 0,
                fields: BTreeMap::new(),
                elem: Some(Rc::new(item)),
                map: false,
                hint: Hint::Container,
                scalar: false,
            })
        });
        // `filter` keeps its range's element type.
        let ty = ty.or_else(|| range.ty.clone().filter(|_| c.kind == CompKind::Filter));
        Info { min, max, size, ty, hint }
    }
}

/// Whether cel-go's estimator tracks a field path for `e` (checker/cost.go `addPath`): a
/// variable, and selects and indexes of one (optional ones are calls there, with no path).
fn has_path(e: &Expr) -> bool {
    match &e.kind {
        Kind::Ident(_) | Kind::Var { .. } | Kind::Local { .. } => true,
        Kind::Select { operand, optional: false, .. } | Kind::Index { operand, optional: false, .. } => {
            has_path(operand)
        }
        _ => false,
    }
}

/// `a.b.c` as a dotted name, when the expression is only identifiers and selects.
fn qualified_name(e: &Expr) -> Option<String> {
    match &e.kind {
        Kind::Ident(n) | Kind::Var { name: n, .. } => Some(String::from(&**n)),
        Kind::Select { operand, field, optional: false } => {
            Some(alloc::format!("{}.{field}", qualified_name(operand)?))
        }
        _ => None,
    }
}
