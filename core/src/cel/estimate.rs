//! The static cost estimate Kubernetes computes when a CRD is written (cel-go `checker/cost.go`
//! with the Kubernetes library estimators): the runtime cost model evaluated with the largest
//! sizes the schema allows. Sizes come from `maxLength`, `maxItems` and `maxProperties`, or,
//! without them, from the request size limit divided by each element's smallest serialized size
//! (apiserver `pkg/cel/common/schemas.go`). Estimates do not see constant folding.

use alloc::collections::BTreeMap;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value as Json;

use super::ast::{CompKind, Expr, Kind};
use super::cost::{LIST_CREATE, MAP_CREATE, SELECT};
use super::functions::Builtin;
use super::schema::escape;
use super::value::Value;
use super::Program;

/// `celconfig.MaxRequestSizeBytes`: 3 MiB.
pub const MAX_REQUEST_SIZE: u64 = 3 * 1024 * 1024;
/// The largest serialized string in a request (without the quotes).
const MAX_STRING: u64 = MAX_REQUEST_SIZE - 2;
const STRING_TRAVERSAL: f64 = 0.1;
const REGEX_LENGTH: f64 = 0.25;
/// A size nothing bounds (cel-go uses the largest integer: costs over it saturate).
const UNBOUNDED: u64 = u64::MAX;

/// A schema type with the size bounds Kubernetes assumes for it.
#[derive(Clone, Debug)]
pub struct SizedType {
    /// The most elements (string bytes, list items, map entries) a value can have.
    pub max_elements: u64,
    /// The smallest serialized size of a value, in bytes.
    pub min_size: u64,
    /// Object fields by escaped name.
    pub fields: BTreeMap<String, Rc<SizedType>>,
    /// List items or map values.
    pub elem: Option<Rc<SizedType>>,
    /// A map (iterating yields its keys), not a list.
    pub map: bool,
    /// What kind of value it is, for the functions whose cost depends on it.
    pub hint: Hint,
    /// A bool, number, duration or timestamp: cel-go's `isScalar`, whose optionals have a known
    /// size (1) where other optionals have none.
    pub scalar: bool,
}

/// The kinds of values whose costs differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hint {
    /// A string.
    Str,
    /// Bytes.
    Bytes,
    /// A list or map.
    Container,
    /// A URL (`url()`): its equality traverses its text.
    Url,
    /// Anything else (numbers, booleans, timestamps, durations, objects, types).
    Other,
    /// Not known.
    Unknown,
}

impl SizedType {
    fn scalar(min_size: u64) -> SizedType {
        SizedType {
            max_elements: 0,
            min_size,
            fields: BTreeMap::new(),
            elem: None,
            map: false,
            hint: Hint::Other,
            scalar: true,
        }
    }
}

fn int(schema: &Json, key: &str) -> Option<u64> {
    schema.get(key).and_then(Json::as_i64).map(|v| v.max(0) as u64)
}

fn flag(schema: &Json, key: &str) -> bool {
    schema.get(key).and_then(Json::as_bool).unwrap_or(false)
}

/// The sized type of a schema (`SchemaDeclType` with its size estimates).
pub fn sized_type(schema: &Json) -> Option<SizedType> {
    if flag(schema, "x-kubernetes-int-or-string") {
        let max = int(schema, "maxLength").map_or(MAX_STRING, |n| n.saturating_mul(4));
        return Some(SizedType { max_elements: max, hint: Hint::Unknown, scalar: false, ..SizedType::scalar(1) });
    }
    match schema.get("type").and_then(Json::as_str) {
        Some("array") => {
            let item = Rc::new(sized_type(schema.get("items")?)?);
            let max = int(schema, "maxItems").unwrap_or(MAX_STRING / item.min_size.saturating_add(1));
            Some(SizedType {
                max_elements: max,
                min_size: 2,
                fields: BTreeMap::new(),
                elem: Some(item),
                map: false,
                hint: Hint::Container,
                scalar: false,
            })
        }
        Some("object") => {
            if let Some(ap) = schema.get("additionalProperties").filter(|a| a.is_object()) {
                let value = Rc::new(sized_type(ap)?);
                let max = int(schema, "maxProperties").unwrap_or(MAX_STRING / value.min_size.saturating_add(6));
                return Some(SizedType {
                    max_elements: max,
                    min_size: 2,
                    fields: BTreeMap::new(),
                    elem: Some(value),
                    map: true,
                    hint: Hint::Container,
                    scalar: false,
                });
            }
            let required: Vec<&str> = schema
                .get("required")
                .and_then(Json::as_array)
                .map_or(Vec::new(), |r| r.iter().filter_map(Json::as_str).collect());
            let mut fields = BTreeMap::new();
            let mut min_size: u64 = 2;
            if let Some(props) = schema.get("properties").and_then(Json::as_object) {
                for (name, prop) in props {
                    let Some(t) = sized_type(prop) else { continue };
                    if required.contains(&name.as_str()) && prop.get("default").is_none() {
                        min_size =
                            min_size.saturating_add(name.len() as u64).saturating_add(t.min_size).saturating_add(4);
                    }
                    if let Some(escaped) = escape(name) {
                        fields.insert(escaped, Rc::new(t));
                    }
                }
            }
            Some(SizedType {
                max_elements: 0,
                min_size,
                fields,
                elem: None,
                map: false,
                hint: Hint::Other,
                scalar: false,
            })
        }
        Some("string") => {
            let (min, max, hint) = match schema.get("format").and_then(Json::as_str) {
                Some("byte") => (2, int(schema, "maxLength").unwrap_or(MAX_STRING), Hint::Bytes),
                Some("duration") => (3, 32, Hint::Other),
                Some("date") => (12, 12, Hint::Other),
                Some("date-time") => (21, 32, Hint::Other),
                _ => {
                    let enum_max = schema
                        .get("enum")
                        .and_then(Json::as_array)
                        .map(|e| e.iter().filter_map(Json::as_str).map(|s| s.len() as u64).max().unwrap_or(0));
                    let max = match (int(schema, "maxLength"), enum_max) {
                        (Some(n), _) => n.saturating_mul(4),
                        (None, Some(e)) => e,
                        (None, None) => MAX_STRING,
                    };
                    (2, max, Hint::Str)
                }
            };
            // Durations, dates and date-times are CEL durations and timestamps: scalars.
            Some(SizedType { max_elements: max, hint, scalar: hint == Hint::Other, ..SizedType::scalar(min) })
        }
        Some("boolean") => Some(SizedType::scalar(4)),
        Some("number") | Some("integer") => Some(SizedType::scalar(1)),
        _ => None,
    }
}

/// A value reached by selecting a map's key as a field (`m.key`): cel-go's path names the key,
/// which Kubernetes' size estimator cannot follow (apiextensions compilation.go `EstimateSize`
/// knows declared fields, `@items`, `@values` and `@keys`), so nothing at or below it has a
/// size from the schema: a scalar has its type's (1, `computeTypeSize`), anything else none.
/// (`m['key']` is `@values` there, and keeps the schema's sizes.)
fn unresolved(t: &SizedType) -> SizedType {
    let mut fields = BTreeMap::new();
    for (k, v) in &t.fields {
        fields.insert(k.clone(), Rc::new(unresolved(v)));
    }
    SizedType {
        max_elements: if t.scalar { 1 } else { UNBOUNDED },
        fields,
        elem: t.elem.as_deref().map(|e| Rc::new(unresolved(e))),
        ..t.clone()
    }
}

/// The size and kind of a selected schema value, or of an optional of it (`.?f`, `[?i]`):
/// cel-go's `computeTypeSize` knows an optional scalar's size (1, `isScalar`), no other.
fn sized(ty: Option<&Rc<SizedType>>, optional: bool) -> (u64, Hint) {
    match ty {
        Some(t) if !optional => (t.max_elements, t.hint),
        Some(t) if t.scalar => (1, Hint::Other),
        _ => (UNBOUNDED, Hint::Unknown),
    }
}

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
        alloc::format!("{factor:.6}x")
    } else {
        alloc::format!("{factor:.1}x")
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
    super::cost::ceil_factor(size, factor)
}

/// cel-go `estimateAllocatingListCall`: `ceil(size * factor)` + the call + the allocation.
fn list_call(size: u64, factor: f64) -> u64 {
    ceil_factor(size, factor).saturating_add(1 + super::cost::LIST_CREATE)
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
                None if super::functions::type_ident(name).is_some() => {
                    Info { size: 1, hint: Hint::Other, ..Info::cost(0, 0) }
                }
                None => Info::cost(SELECT, SELECT),
            },
            Kind::Local { slot, .. } => {
                let local = self.locals.get(*slot as usize).cloned().unwrap_or_else(|| Info::cost(0, 0));
                Info { min: SELECT, max: SELECT, ..local }
            }
            Kind::Select { operand, field, optional } => {
                if let Some(name) = qualified_name(e) {
                    if !self.vars.contains_key(name.split('.').next().unwrap_or(""))
                        && super::functions::type_ident(&name).is_some()
                    {
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
                // A list of strings or bytes is typed so by the checker; its elements have no
                // schema path, so no size bound (library cost.go `listElementNode`).
                if let Some(hint @ (Hint::Str | Hint::Bytes)) = elem {
                    info.ty = Some(strings(items.len() as u64, hint));
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
                for (k, v, _) in entries {
                    let (k, v) = (self.walk(k), self.walk(v));
                    info.min = info.min.saturating_add(k.min).saturating_add(v.min);
                    info.max = info.max.saturating_add(k.max).saturating_add(v.max);
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

    fn comprehension(&mut self, c: &super::ast::Comprehension) -> Info {
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

/// A list of `n` strings (or bytes: `hint`) of no known size.
fn strings(n: u64, hint: Hint) -> Rc<SizedType> {
    let elem = SizedType {
        max_elements: UNBOUNDED,
        min_size: 0,
        fields: BTreeMap::new(),
        elem: None,
        map: false,
        hint,
        scalar: false,
    };
    Rc::new(SizedType {
        max_elements: n,
        min_size: 0,
        fields: BTreeMap::new(),
        elem: Some(Rc::new(elem)),
        map: false,
        hint: Hint::Container,
        scalar: false,
    })
}

/// The estimated cost (min, max) of one call, the size of its result and what it is.
/// `pathless`: the call's target (if any) is not a path into a variable, so the elements of a
/// list it gives have no schema size (library cost.go `listElementNode`).
fn call_estimate(
    b: Builtin,
    name: &str,
    infos: &[Info],
    consts: &[Option<u64>],
    pathless: bool,
) -> (u64, u64, u64, Hint) {
    use Builtin as B;
    let size = |i: usize| infos.get(i).map_or(0, |x| x.size);
    let hint = |i: usize| infos.get(i).map_or(Hint::Unknown, |x| x.hint);
    let sized = |h: Hint| matches!(h, Hint::Str | Hint::Bytes | Hint::Container | Hint::Unknown);
    let traversal = |i: usize| ceil_factor(size(i), STRING_TRAVERSAL);
    let fixed = |c: u64, size: u64, h: Hint| (c, c, size, h);
    match b {
        // Numbers, booleans, times: a result of size 1.
        B::Size
        | B::Int
        | B::Uint
        | B::Double
        | B::Bool
        | B::Timestamp
        | B::Duration
        | B::Neg
        | B::Mul
        | B::Div
        | B::Mod
        | B::Sub => fixed(1, 1, Hint::Other),
        B::Not => fixed(1, 1, Hint::Other),
        B::Type => fixed(1, UNBOUNDED, Hint::Other),
        B::Dyn => fixed(1, size(0), hint(0)),
        // cost.go `_==_` of two URLs: 1 to the traversal of the right one (it reads the
        // right operand's size twice).
        B::Eq | B::Ne if hint(0) == Hint::Url && hint(1) == Hint::Url => (1, traversal(1).max(1), 1, Hint::Other),
        // Equality traverses the smaller operand; sizes of schema scalars are 0.
        // An unknown size (optionals, types) is MaxUint64 there, times 0.1 in float64.
        B::Eq | B::Ne => {
            let t = |i: usize| match size(i) {
                UNBOUNDED => (UNBOUNDED as f64 * STRING_TRAVERSAL) as u64,
                _ => traversal(i),
            };
            fixed(t(0).min(t(1)), 1, Hint::Other)
        }
        B::Lt | B::Le | B::Gt | B::Ge if sized(hint(0)) && sized(hint(1)) && hint(0) != Hint::Container => {
            fixed(traversal(0).min(traversal(1)).max(1), 1, Hint::Other)
        }
        B::Lt | B::Le | B::Gt | B::Ge => fixed(1, 1, Hint::Other),
        B::Add if matches!(hint(0), Hint::Str | Hint::Bytes) => {
            let total = size(0).saturating_add(size(1));
            fixed(ceil_factor(total, STRING_TRAVERSAL), total, hint(0))
        }
        // A sum of numbers, times or durations is a scalar: cel-go `computeTypeSize` gives it
        // size 1 (it is not a schema value, whose scalars have size 0).
        B::Add if hint(0) == Hint::Other && hint(1) == Hint::Other => fixed(1, 1, Hint::Other),
        B::Add => fixed(
            1,
            size(0).saturating_add(size(1)),
            if hint(0) == Hint::Container { Hint::Container } else { Hint::Other },
        ),
        B::In if hint(1) == Hint::Container && !infos.get(1).is_some_and(|i| i.ty.as_ref().is_some_and(|t| t.map)) => {
            fixed(size(1), 1, Hint::Other)
        }
        B::In => fixed(1, 1, Hint::Other),
        B::InSet => fixed(0, 1, Hint::Other),
        B::String if matches!(hint(0), Hint::Bytes) => fixed(traversal(0), UNBOUNDED, Hint::Str),
        B::String => fixed(1, UNBOUNDED, Hint::Str),
        B::Bytes if matches!(hint(0), Hint::Str) => fixed(traversal(0), UNBOUNDED, Hint::Bytes),
        B::Bytes => fixed(1, UNBOUNDED, Hint::Bytes),
        B::StartsWith | B::EndsWith => fixed(traversal(1), 1, Hint::Other),
        B::Contains => fixed(mul(traversal(0), traversal(1)), 1, Hint::Other),
        B::Matches | B::Find | B::FindAll => {
            let c = mul(ceil_factor(size(0).saturating_add(1), STRING_TRAVERSAL), ceil_factor(size(1), REGEX_LENGTH));
            let h = match b {
                B::Matches => Hint::Other,
                B::Find => Hint::Str,
                _ => Hint::Container,
            };
            fixed(c, if b == B::Matches { 1 } else { size(0) }, h)
        }
        B::LowerAscii | B::UpperAscii | B::Trim | B::Substring => fixed(traversal(0), size(0), Hint::Str),
        // cost.go: a URL's result size is its text's (its equality traverses it).
        B::Url => fixed(traversal(0), size(0), Hint::Url),
        B::JsonPatchEscapeKey => fixed(traversal(0), size(0), Hint::Str),
        B::Quantity | B::IsQuantity | B::Semver | B::IsSemver | B::Cidr | B::IsCidr | B::IsIp | B::Ip => {
            fixed(traversal(0), 1, Hint::Other)
        }
        // Parsed, then compared with the text: two traversals.
        B::IpIsCanonical => fixed(ceil_factor(size(0), 2.0 * STRING_TRAVERSAL), 1, Hint::Other),
        B::Replace => fixed(ceil_factor(size(0), 2.0 * STRING_TRAVERSAL), size(0), Hint::Str),
        B::Split => fixed(ceil_factor(size(0), 2.0 * STRING_TRAVERSAL), size(0), Hint::Container),
        B::IndexOf
        | B::LastIndexOf
        | B::Includes
        | B::IsSorted
        | B::Sum
        | B::SumUint
        | B::SumDouble
        | B::SumDuration
        | B::Min
        | B::Max => {
            // apiserver library cost.go: over a list, 1 per element, plus a traversal of each
            // element of a list of strings or bytes (its schema's bound, else none); over a
            // string (`indexOf`, `lastIndexOf`), a traversal; `includes` of a string compares
            // its size's worth.
            let elem = infos.first().and_then(|i| i.ty.as_ref()).and_then(|t| t.elem.as_ref());
            match (hint(0), elem) {
                (Hint::Container, Some(e)) if matches!(e.hint, Hint::Str | Hint::Bytes) => {
                    let each = if pathless { UNBOUNDED } else { e.max_elements };
                    let per = ceil_factor(each, STRING_TRAVERSAL).saturating_add(1);
                    (size(0), mul(size(0), per), 1, Hint::Other)
                }
                (Hint::Str | Hint::Bytes, _) if b != B::Includes => fixed(traversal(0), 1, Hint::Other),
                _ => fixed(size(0), 1, Hint::Other),
            }
        }
        B::CharAt => fixed(1, 1, Hint::Str),
        // cost.go `join`: the list's size times its elements' (their schema's, else unknown:
        // `listElementNode` has no path), plus the separator's times one less than the list's,
        // traversed at 0.1; the result is that size.
        B::Join => {
            let elem = infos.first().and_then(|i| i.ty.as_ref()).and_then(|t| t.elem.as_ref());
            let each = match elem {
                Some(e) if !pathless => e.max_elements,
                _ => UNBOUNDED,
            };
            let separators = if infos.len() > 1 { mul(size(1), size(0).saturating_sub(1)) } else { 0 };
            let total = mul(size(0), each).saturating_add(separators);
            (0, ceil_factor(total, STRING_TRAVERSAL), total, Hint::Str)
        }
        // cel-go `ext/lists.go` (version 3) estimators: a call and a list allocation (11) plus
        // the output size, the input times the depth, or n² comparisons (whose "result size"
        // cel-go also takes to be n²).
        B::ListsRange => {
            let n = consts.first().copied().flatten().unwrap_or(UNBOUNDED);
            fixed(list_call(n, 1.0), n, Hint::Container)
        }
        B::Slice => {
            let start = consts.get(1).copied().flatten().unwrap_or(0);
            let end = consts.get(2).copied().flatten().unwrap_or(size(0));
            let n = if end == UNBOUNDED { UNBOUNDED } else { end.wrapping_sub(start) };
            fixed(list_call(n, 1.0), n, Hint::Container)
        }
        B::Reverse if hint(0) == Hint::Container => {
            (list_call(0, 1.0), list_call(size(0), 1.0), size(0), Hint::Container)
        }
        B::Flatten => {
            let depth = if infos.len() > 1 { consts.get(1).copied().flatten().unwrap_or(UNBOUNDED) } else { 1 };
            let max = if depth == UNBOUNDED { UNBOUNDED } else { list_call(size(0), depth as f64) };
            (list_call(0, depth as f64), max, size(0), Hint::Container)
        }
        B::Distinct | B::Sort | B::SortByKeys => {
            let keys = if b == B::SortByKeys { 1 } else { 0 };
            let strings = infos.get(keys).and_then(|i| i.ty.as_ref()).and_then(|t| t.elem.as_ref()).map(|e| e.hint);
            let factor = match (b, strings) {
                (B::Distinct, _) => 2.0,
                (_, Some(Hint::Str | Hint::Bytes)) => 2.0 + STRING_TRAVERSAL,
                _ => 2.0,
            };
            let n = size(keys);
            let squared = if n == UNBOUNDED { UNBOUNDED } else { mul(n, n) };
            (list_call(0, factor), list_call(squared, factor), squared, Hint::Container)
        }
        B::ObjectMethod => match name {
            // Two IPs of 4 to 16 bytes compared (then the CIDR's bits: one more traversal and
            // 1), plus the parse of a string argument.
            "containsIP" | "containsCIDR" => {
                let (min, max) = if name == "containsIP" { (1, 4) } else { (3, 7) };
                let parse = if hint(1) == Hint::Str { traversal(1) } else { 0 };
                (min + parse, max + parse, 1, Hint::Other)
            }
            // The name's traversal times the largest named-format regex (128) at 0.25 a char.
            // The result, an `optional(list(string))`, has no size for cel-go's estimator
            // (apiserver library/cost.go gives no ResultSize; checker/cost.go `computeTypeSize`
            // sizes only scalars): `format.dns1123Label().validate(s) == optional.none()` is
            // refused on its estimated cost when a CRD is created (the real kube-apiserver
            // v1.37.2 through the oracle: apiextensions-expressions, validation_expressions.json
            // "format").
            "validate" => fixed(ceil_factor(traversal(1), 128.0 * REGEX_LENGTH), UNBOUNDED, Hint::Unknown),
            // The authorizer library's estimates are its runtime costs (`selectorCostEstimate` of
            // the selector's size).
            #[cfg(feature = "policy")]
            "check" => fixed(super::k8s::authz::CHECK_COST, 1, Hint::Other),
            #[cfg(feature = "policy")]
            "fieldSelector" | "labelSelector" => {
                let c = if size(1) == UNBOUNDED { UNBOUNDED } else { super::k8s::authz::selector_cost(size(1)) };
                fixed(c, 1, Hint::Other)
            }
            _ => fixed(1, UNBOUNDED, Hint::Unknown),
        },
        // An optional of a scalar has size 1 (cel-go `isScalar` of `optional_type(T)`); of
        // anything else, none (celcoststability: `optional.of('a') != optional.none()`).
        B::OptionalOf | B::OptionalOfNonZero => {
            let scalar = infos.first().is_some_and(|i| match &i.ty {
                Some(t) => t.scalar,
                None => i.hint == Hint::Other && i.size == 1,
            });
            if scalar {
                fixed(1, 1, Hint::Other)
            } else {
                fixed(1, UNBOUNDED, Hint::Unknown)
            }
        }
        B::SetsContains | B::SetsIntersects => fixed(mul(size(0), size(1)).saturating_add(1), 1, Hint::Other),
        B::SetsEquivalent => fixed(mul(2, mul(size(0), size(1))).saturating_add(1), 1, Hint::Other),
        _ => {
            let _ = name;
            fixed(1, UNBOUNDED, Hint::Unknown)
        }
    }
}
