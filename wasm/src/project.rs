//! Plain JS objects to CEL values, reading only what a program reads.
//!
//! `program.eval({self: obj})` and `program.test({self: obj})` used to serialize every
//! variable with `JSON.stringify` and parse it back, whatever the rule reads. Now the
//! program's access plan (`kubedv_core::cel::access`: the field paths it selects, found once
//! at compile time) is walked over the object in JavaScript (a small snippet, JIT-compiled
//! like the caller's code, one call per evaluation): a field the rule selects further is
//! followed, a value it uses whole (a list it iterates, a string it matches) is kept, and the
//! JSON text of that much is parsed straight into CEL values. The values are those
//! `JSON.stringify` of the whole object gives for every path the program can observe: own
//! enumerable properties only, `undefined`, functions and symbols absent, non-finite numbers
//! `null`, `toJSON` honoured, `-0` as `0`, integral numbers `int`. A cycle, a `BigInt` or a
//! throwing getter is an error only where the rule reads it.

use kubedv_core::cel::access::Plan;
use kubedv_core::cel::{from_json_text, MapVars, Value};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(inline_js = r#"
const enumerable = Object.prototype.propertyIsEnumerable;
const objectProto = Object.prototype;
// An object JSON.stringify renders by its own enumerable properties.
function plain(v) {
  if (v === null || typeof v !== "object") return false;
  const p = Object.getPrototypeOf(v);
  return (p === objectProto || p === null) && typeof v.toJSON !== "function";
}
// `plan`: true (all of it), [key, plan, key, plan, ...] (these fields of an object) or
// {e: plan} (each element of an array, as `plan` reads it).
function pick(v, plan) {
  if (plan === true) return v;
  if (!Array.isArray(plan)) {
    if (!Array.isArray(v) || typeof v.toJSON === "function") return v;
    return v.map((x) => pick(x, plan.e));
  }
  if (!plain(v)) return v;
  const out = {};
  for (let i = 0; i < plan.length; i += 2) {
    const k = plan[i];
    if (enumerable.call(v, k)) out[k] = pick(v[k], plan[i + 1]);
  }
  return out;
}
// The JSON text of what a program reads of its variables, or undefined when that cannot be
// told (not a plain object; a variable absent, unless it is a type name: plan null).
export function kubedvProject(vars, plan) {
  if (!plain(vars)) return undefined;
  const out = {};
  for (let i = 0; i < plan.length; i += 2) {
    const k = plan[i];
    if (!enumerable.call(vars, k)) {
      if (plan[i + 1] === null) continue;
      return undefined;
    }
    out[k] = pick(vars[k], plan[i + 1]);
  }
  return JSON.stringify(out);
}
// The slot of a CelVars handle, -1 for anything else.
export function kubedvSlot(v) {
  const s = v == null ? undefined : v.__kubedvSlot;
  return typeof s === "number" ? s : -1;
}
export function kubedvResult(value, type, cost) {
  return { value, type, cost };
}
"#)]
extern "C" {
    #[wasm_bindgen(js_name = kubedvProject, catch)]
    fn project(vars: &JsValue, plan: &JsValue) -> Result<JsValue, JsValue>;
    /// The slot of a `CelVars` handle; -1 for a plain object.
    #[wasm_bindgen(js_name = kubedvSlot)]
    pub(crate) fn slot_of(vars: &JsValue) -> i32;
    /// `{value, type, cost}`, made in one call.
    #[wasm_bindgen(js_name = kubedvResult)]
    pub(crate) fn result(value: JsValue, type_name: &JsValue, cost: f64) -> JsValue;
}

/// The snippet's plan for a program's free variables (`names[i]` read as `plans[i]`).
pub(crate) fn js_plan(names: &[String], plans: &[Plan]) -> JsValue {
    fn fields(fields: &[(Box<str>, Plan)]) -> JsValue {
        let out = js_sys::Array::new();
        for (name, plan) in fields {
            out.push(&JsValue::from_str(name));
            out.push(&one(plan));
        }
        out.into()
    }
    fn one(plan: &Plan) -> JsValue {
        match plan {
            Plan::Whole => JsValue::TRUE,
            Plan::Fields(f) => fields(f),
            Plan::Each(p) => {
                let each = js_sys::Object::new();
                let _ = js_sys::Reflect::set(&each, &JsValue::from_str("e"), &one(p));
                each.into()
            }
        }
    }
    let out = js_sys::Array::new();
    for (name, plan) in names.iter().zip(plans) {
        out.push(&JsValue::from_str(name));
        let type_name = kubedv_core::cel::functions::type_ident(name).is_some();
        out.push(&if type_name { JsValue::NULL } else { one(plan) });
    }
    out.into()
}

/// The program's variables read from `vars` (a map of them), or `None` when the snippet
/// cannot tell (the caller then converts the whole object). A throwing getter, a cycle or a
/// `BigInt` on a path the program reads is the error.
pub(crate) fn variables(vars: &JsValue, plan: &JsValue) -> Result<Option<MapVars>, String> {
    let text = project(vars, plan).map_err(|e| String::from(js_sys::Error::from(e).message()))?;
    let Some(text) = text.as_string() else { return Ok(None) };
    match from_json_text(&text)? {
        Value::Map(map) => Ok(Some(MapVars(map))),
        _ => Ok(None),
    }
}
