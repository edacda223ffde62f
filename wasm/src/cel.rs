//! CEL for JavaScript: `compileCel` → `CelProgram`, `celVars` (values converted once and
//! reused, so a hot loop does not cross the JS/WASM boundary with the same object again), and
//! the one-shot `evalCel`. Results are the CLI's JSON document; errors are thrown `Error`s
//! carrying `kind`, `line` and `column`.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use kubedv_core::cel::checker::{self, CelType, Decls};
use kubedv_core::cel::estimate::{estimate, sized_type, SizedType};
use kubedv_core::cel::{self, CelError, Program, Value};

use wasm_bindgen::prelude::*;

use crate::{given, into_error, map_from_js, to_js};
use kubedv_core::cel::access;

use crate::tape::Variables;

#[wasm_bindgen(typescript_custom_section)]
const TS_CEL: &str = r#"
/** An OpenAPI v3 schema (as in a CRD's openAPIV3Schema). */
export type OpenAPISchema = { [key: string]: unknown };

/** Declarations for `compileCel`: each variable is "dyn" or typed by an OpenAPI schema (its
 *  values are then converted as Kubernetes does: escaped property names, formats). */
export type CelDecls = { [name: string]: "dyn" | OpenAPISchema };

/** What an evaluation gives (the CLI's `kubedv cel` JSON document). */
export interface CelResult {
  /** The value as JSON: timestamps RFC 3339, durations like "1h0m0s", bytes base64;
   *  integers beyond ±2^53 as decimal strings (protobuf's JSON mapping). */
  value: unknown;
  /** The name `type(value)` gives: "int", "list", "google.protobuf.Timestamp", ... */
  type: string;
  /** The runtime cost, as Kubernetes measures it. */
  cost: number;
}

/** A thrown CEL error: `message` is "LINE:COLUMN: text"; `kind` says which stage failed. */
export interface CelErrorInfo {
  kind: "parse" | "check" | "eval" | "cost";
  message: string;
  line: number;
  column: number;
}

/** Options for `compileCel` and `evalCel`. */
export interface CelOptions {
  /** Compile as Kubernetes compiles validation rules: constant folding (default true). */
  optimize?: boolean;
  /** The per-expression runtime cost limit (default Kubernetes' 1,000,000). */
  costLimit?: number;
}
"#;

/// A thrown JS `Error` for a CEL failure, with `kind`, `line` and `column` attached.
fn cel_error(e: &CelError) -> JsValue {
    let err = js_sys::Error::new(&e.to_string());
    let set = |k: &str, v: JsValue| {
        let _ = js_sys::Reflect::set(&err, &k.into(), &v);
    };
    set(
        "kind",
        serde_json::to_value(e.kind).ok().and_then(|k| k.as_str().map(String::from)).unwrap_or_default().into(),
    );
    set("line", e.line.into());
    set("column", e.column.into());
    err.into()
}

std::thread_local! {
    /// Strings already made JS strings: the result's keys and the type names (a handful).
    /// Each string crossing into JS costs more than evaluating a typical rule.
    static JS_STRINGS: std::cell::RefCell<Vec<(String, JsValue)>> = const { std::cell::RefCell::new(Vec::new()) };
}

fn js_string(s: &str) -> JsValue {
    JS_STRINGS.with_borrow_mut(|cache| {
        if let Some((_, js)) = cache.iter().find(|(n, _)| n == s) {
            return js.clone();
        }
        let js = JsValue::from_str(s);
        cache.push((String::from(s), js.clone()));
        js
    })
}

/// `{value, type, cost}`, built directly (not through serde) in one call: this is the hot path.
fn cel_result(value: JsValue, type_name: &str, cost: u64) -> JsValue {
    crate::tape::result(value, &js_string(type_name), cost as f64)
}

/// Integers a JS number cannot hold exactly (beyond ±2^53) become decimal strings, as
/// protobuf's JSON mapping writes 64-bit integers.
fn safe_numbers(v: &mut serde_json::Value) {
    const SAFE: u64 = (1 << 53) - 1;
    match v {
        serde_json::Value::Number(n) => {
            let big = match (n.as_i64(), n.as_u64()) {
                (Some(i), _) => i.unsigned_abs() > SAFE,
                (None, Some(u)) => u > SAFE,
                _ => false,
            };
            if big {
                *v = serde_json::Value::String(n.to_string());
            }
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(safe_numbers),
        serde_json::Value::Object(fields) => fields.values_mut().for_each(safe_numbers),
        _ => {}
    }
}

/// A CEL value as a plain JS value, as `to_json` renders it (scalars directly; the rest as
/// JSON would be).
fn value_to_js(v: &Value) -> Result<JsValue, JsValue> {
    const SAFE: f64 = 9_007_199_254_740_991.0;
    Ok(match v {
        Value::Null => JsValue::NULL,
        Value::Bool(b) => JsValue::from_bool(*b),
        Value::Int(i) if (*i as f64).abs() <= SAFE => JsValue::from_f64(*i as f64),
        Value::Uint(u) if (*u as f64) <= SAFE => JsValue::from_f64(*u as f64),
        Value::Int(i) => JsValue::from_str(&i.to_string()),
        Value::Uint(u) => JsValue::from_str(&u.to_string()),
        Value::Double(d) => JsValue::from_f64(*d),
        Value::String(s) => JsValue::from_str(s),
        Value::List(items) => {
            let arr = js_sys::Array::new_with_length(items.len() as u32);
            for (i, item) in items.iter().enumerate() {
                arr.set(i as u32, value_to_js(item)?);
            }
            arr.into()
        }
        other => {
            let mut json = cel::to_json(other);
            safe_numbers(&mut json);
            to_js(&json)?
        }
    })
}

/// A declared variable: its checker type, size bounds and the schema for converting values.
struct Decl {
    schema: Option<serde_json::Value>,
}

/// Declarations read from JS: for the checker, for converting values, for the estimate.
struct Declared {
    checker: Decls,
    table: BTreeMap<String, Decl>,
    sized: Vec<(String, SizedType)>,
}

fn declarations(decls: Option<JsValue>) -> Result<Declared, JsValue> {
    let mut out = Decls::default();
    let mut table = BTreeMap::new();
    let mut sized = Vec::new();
    let Some(decls) = decls else {
        return Ok(Declared { checker: out, table, sized });
    };
    let raw = map_from_js(&decls, "compileCel expects declarations {name: \"dyn\" | schema}")?;
    for (name, d) in raw {
        match d {
            serde_json::Value::String(s) if s == "dyn" => {
                out.declare(&name, CelType::Dyn);
                table.insert(name, Decl { schema: None });
            }
            schema @ serde_json::Value::Object(_) => {
                let t = cel::schema::decl_type(&schema, false).ok_or_else(|| {
                    into_error(format!("the schema of {name} gives it no CEL type (an array without items?)"))
                })?;
                out.declare(&name, t);
                if let Some(s) = sized_type(&schema) {
                    sized.push((name.clone(), s));
                }
                table.insert(name, Decl { schema: Some(schema) });
            }
            other => {
                return Err(into_error(format!(
                    "declaration of {name}: expected \"dyn\" or a schema object, got {other}"
                ))
                .into())
            }
        }
    }
    Ok(Declared { checker: out, table, sized })
}

#[derive(Default)]
struct Options {
    optimize: Option<bool>,
    cost_limit: Option<f64>,
}

fn options(value: Option<JsValue>) -> Result<Options, JsValue> {
    let Some(value) = value else {
        return Ok(Options::default());
    };
    let mut f = crate::Fields::from_js(value, "CEL options: {optimize?, costLimit?}")?;
    let opts = Options { optimize: f.boolean("optimize")?, cost_limit: f.number("costLimit")? };
    f.finish()?;
    Ok(opts)
}

/// Values bound to names, converted once (`celVars`); pass to `program.evalVars` or
/// `program.test` many times.
#[wasm_bindgen(js_name = CelVars)]
pub struct JsCelVars {
    slot: u32,
    vars: Rc<Vars>,
}

struct Vars {
    json: serde_json::Map<String, serde_json::Value>,
    /// The CEL values as the last program that used them converted and bound them.
    converted: RefCell<Option<cel::Bound>>,
}

std::thread_local! {
    /// The live `CelVars` by slot: `test` takes a `CelVars` or a plain object, and finds a
    /// `CelVars`' values from the slot its handle reports (`__kubedvSlot`).
    static LIVE: RefCell<Vec<Option<Rc<Vars>>>> = const { RefCell::new(Vec::new()) };
}

impl Drop for JsCelVars {
    fn drop(&mut self) {
        LIVE.with_borrow_mut(|live| live[self.slot as usize] = None);
    }
}

#[wasm_bindgen(js_class = CelVars)]
impl JsCelVars {
    /// Internal: where `test` finds these variables.
    #[wasm_bindgen(getter, js_name = __kubedvSlot)]
    pub fn slot(&self) -> u32 {
        self.slot
    }
}

/// Prepares variables for repeated evaluation.
#[wasm_bindgen(js_name = celVars)]
pub fn cel_vars(
    #[wasm_bindgen(unchecked_param_type = "Record<string, unknown>")] vars: JsValue,
) -> Result<JsCelVars, JsValue> {
    let json = map_from_js(&vars, "celVars expects an object of variables")?;
    let vars = Rc::new(Vars { json, converted: Default::default() });
    let slot = LIVE.with_borrow_mut(|live| {
        let slot = live.iter().position(Option::is_none).unwrap_or_else(|| {
            live.push(None);
            live.len() - 1
        });
        live[slot] = Some(vars.clone());
        slot as u32
    });
    Ok(JsCelVars { slot, vars })
}

/// The variables of a plain object: what the program reads of them (parsed straight into CEL
/// values), or the whole object converted (typed variables, qualified names).
enum Plain {
    Read(crate::tape::ReadVars),
    Converted(BTreeMap<String, Value>),
}

impl cel::Activation for Plain {
    fn resolve(&self, name: &str) -> Option<&Value> {
        match self {
            Plain::Read(m) => m.resolve(name),
            Plain::Converted(t) => t.resolve(name),
        }
    }

    fn by_position(&self, names: &[Box<str>]) -> Option<&[Option<Value>]> {
        match self {
            Plain::Read(m) => m.by_position(names),
            Plain::Converted(_) => None,
        }
    }
}

/// A compiled expression.
#[wasm_bindgen(js_name = CelProgram)]
pub struct JsCelProgram {
    program: Program,
    decls: BTreeMap<String, Decl>,
    /// What the program reads of its free variables, for plain objects (`eval`, `test`);
    /// `None` when a variable is typed by a schema (those convert whole).
    plan: Option<crate::tape::VarsPlan>,
    result_type: String,
    estimated: (u64, u64),
    limit: u64,
    last_cost: std::cell::Cell<u64>,
}

/// Compiles (parses, expands macros, type-checks) an expression; throws on a bad one.
#[wasm_bindgen(js_name = compileCel)]
pub fn compile_cel(
    expr: &str,
    #[wasm_bindgen(unchecked_param_type = "CelDecls | null")] decls: Option<JsValue>,
    #[wasm_bindgen(unchecked_param_type = "CelOptions | null")] opts: Option<JsValue>,
) -> Result<JsCelProgram, JsValue> {
    let Declared { checker: checker_decls, table, sized } = declarations(given(decls))?;
    let opts = options(given(opts))?;
    // Checked as Kubernetes' environment checks (with its literal validators) before folding.
    let t = Program::compile(expr)
        .and_then(|p| checker::check_kubernetes(&p, &checker_decls))
        .map_err(|e| cel_error(&e))?;
    let program = if opts.optimize.unwrap_or(true) { Program::compile_optimized(expr) } else { Program::compile(expr) };
    let program = program.map_err(|e| cel_error(&e))?;
    let sized: Vec<(&str, SizedType)> = sized.iter().map(|(n, s)| (n.as_str(), s.clone())).collect();
    let est = estimate(&program, &sized);
    let limit = opts.cost_limit.map_or(cel::cost::PER_CALL_LIMIT, |l| l.max(0.0) as u64);
    let plan = table.values().all(|d| d.schema.is_none()).then(|| {
        let names: Vec<String> = program.variables().map(String::from).collect();
        crate::tape::VarsPlan::new(&names, &access::plan(program.ast(), names.len()))
    });
    Ok(JsCelProgram {
        program,
        decls: table,
        plan,
        result_type: t.to_string(),
        estimated: (est.min, est.max),
        limit,
        last_cost: Default::default(),
    })
}

/// The variables an evaluation is given.
enum Given {
    /// A `CelVars` handle.
    Handle(Rc<Vars>),
    /// A plain object.
    Plain(Plain),
}

impl JsCelProgram {
    /// The variables given to `eval` or `test`: a `CelVars` handle, or a plain object (what the
    /// program reads of it; typed variables and qualified names: the whole object through
    /// JSON).
    fn given(&self, vars: &JsValue, what: &str) -> Result<Given, JsValue> {
        let handle = |slot: usize| LIVE.with_borrow(|live| live.get(slot).cloned().flatten());
        if let Some(plan) = &self.plan {
            match crate::tape::variables(vars, plan)
                .map_err(|e| into_error(format!("{what} expects an object of variables: {e}")))?
            {
                Variables::Read(values) => return Ok(Given::Plain(Plain::Read(values))),
                Variables::Handle(slot) => {
                    if let Some(vars) = handle(slot) {
                        return Ok(Given::Handle(vars));
                    }
                }
                Variables::Unknown => {}
            }
        } else if let Some(vars) = usize::try_from(crate::tape::slot_of(vars)).ok().and_then(handle) {
            return Ok(Given::Handle(vars));
        }
        let json = map_from_js(vars, &format!("{what} expects an object of variables"))?;
        Ok(Given::Plain(Plain::Converted(self.convert(&json))))
    }

    fn convert(&self, json: &serde_json::Map<String, serde_json::Value>) -> BTreeMap<String, Value> {
        // Inserted one by one: collecting into a map would instantiate another sort.
        let mut values = BTreeMap::new();
        for (name, v) in json {
            let value = match self.decls.get(name).and_then(|d| d.schema.as_ref()) {
                Some(schema) => cel::schema::value(v, schema, false),
                None => cel::from_json(v),
            };
            values.insert(name.clone(), value);
        }
        values
    }

    /// The variables of a `CelVars`, converted for this program once and cached in the handle.
    fn with_values<R>(&self, vars: &Vars, f: impl FnOnce(&cel::Bound) -> R) -> R {
        let mut converted = vars.converted.borrow_mut();
        let bound = match &*converted {
            Some(bound) if bound.is_for(&self.program) => bound,
            _ => converted.insert(self.program.bind(self.convert(&vars.json))),
        };
        f(bound)
    }

    fn run(&self, vars: &dyn cel::Activation) -> Result<JsValue, JsValue> {
        let r = self.program.eval_with_limit(vars, self.limit).map_err(|e| cel_error(&e))?;
        self.last_cost.set(r.cost);
        Ok(cel_result(value_to_js(&r.value)?, r.value.type_name(), r.cost))
    }
}

#[wasm_bindgen(js_class = CelProgram)]
impl JsCelProgram {
    /// Evaluates with variables given as a plain object (only what the expression reads of
    /// them is converted) or a `CelVars`. Throws a CEL error on failure.
    #[wasm_bindgen(unchecked_return_type = "CelResult")]
    pub fn eval(
        &self,
        // Not an `Option`: an optional JS value crosses through the glue's table of values, a
        // plain one directly (what a hot loop of `eval({self})` pays for).
        #[wasm_bindgen(unchecked_param_type = "CelVars | Record<string, unknown> | null")] vars: JsValue,
    ) -> Result<JsValue, JsValue> {
        let Some(vars) = given(Some(vars)) else {
            return self.run(&BTreeMap::new());
        };
        match self.given(&vars, "eval")? {
            Given::Handle(bound) => self.with_values(&bound, |values| self.run(values)),
            Given::Plain(plain) => self.run(&plain),
        }
    }

    /// Evaluates with variables prepared by `celVars`: they cross into WebAssembly and are
    /// converted once, then reused by every call (the fast path for many evaluations).
    #[wasm_bindgen(js_name = evalVars, unchecked_return_type = "CelResult")]
    pub fn eval_vars(&self, vars: &JsCelVars) -> Result<JsValue, JsValue> {
        self.with_values(&vars.vars, |values| self.run(values))
    }

    /// Evaluates a rule (a `bool` expression) and returns the bool itself: no result object is
    /// built. The variables are a `CelVars` (converted once: the fastest way to run a rule
    /// many times over the same values) or a plain object (only what the rule reads of it is
    /// converted). The cost is in `lastCost`. Throws a CEL error on failure or a non-bool
    /// result.
    pub fn test(
        &self,
        #[wasm_bindgen(unchecked_param_type = "CelVars | Record<string, unknown>")] vars: JsValue,
    ) -> Result<bool, JsValue> {
        let r = match self.given(&vars, "test")? {
            Given::Handle(bound) => self.with_values(&bound, |values| self.program.eval_with_limit(values, self.limit)),
            Given::Plain(plain) => self.program.eval_with_limit(&plain, self.limit),
        }
        .map_err(|e| cel_error(&e))?;
        self.last_cost.set(r.cost);
        match r.value {
            Value::Bool(b) => Ok(b),
            other => Err(into_error(format!("the expression evaluated to {}, not a bool", other.type_name())).into()),
        }
    }

    /// The runtime cost of the last evaluation (`eval`, `evalVars` or `test`).
    #[wasm_bindgen(getter, js_name = lastCost)]
    pub fn last_cost(&self) -> f64 {
        self.last_cost.get() as f64
    }

    /// The checked type of the expression ("bool", "dyn", ...).
    #[wasm_bindgen(getter, js_name = type)]
    pub fn result_type(&self) -> String {
        self.result_type.clone()
    }

    /// Kubernetes' static cost estimate `{min, max}` with the declared schemas' size bounds.
    #[wasm_bindgen(getter, js_name = estimatedCost, unchecked_return_type = "{min: number, max: number}")]
    pub fn estimated_cost(&self) -> Result<JsValue, JsValue> {
        Ok(to_js(&serde_json::json!({"min": self.estimated.0 as f64, "max": self.estimated.1 as f64}))?)
    }
}

/// One-shot: compile and evaluate. Returns `{value, type, cost}`; throws a CEL error.
#[wasm_bindgen(js_name = evalCel, unchecked_return_type = "CelResult")]
pub fn eval_cel(
    expr: &str,
    #[wasm_bindgen(unchecked_param_type = "Record<string, unknown> | null")] vars: Option<JsValue>,
    #[wasm_bindgen(unchecked_param_type = "CelDecls | null")] decls: Option<JsValue>,
    #[wasm_bindgen(unchecked_param_type = "CelOptions | null")] opts: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let vars = given(vars);
    let decls = given(decls).or_else(|| {
        // Undeclared variables are dynamic.
        let names = js_sys::Object::new();
        if let Some(vars) = vars.as_ref().filter(|v| v.is_object()) {
            for key in js_sys::Object::keys(&vars.clone().into()).iter() {
                let _ = js_sys::Reflect::set(&names, &key, &"dyn".into());
            }
        }
        Some(names.into())
    });
    compile_cel(expr, decls, opts)?.eval(vars.unwrap_or(JsValue::UNDEFINED))
}
