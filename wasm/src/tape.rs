//! Plain JS values into the engine's values, read as `JSON.stringify` reads them, without JSON
//! text.
//!
//! A small snippet (JIT-compiled like the caller's code) walks the value once and writes a
//! *tape* of numbers (tags, counts, numbers) and the text of the strings it meets straight into
//! buffers in WebAssembly memory (one call from Rust to JS, no copy through the glue); Rust
//! builds CEL values (`program.eval({self: obj})`, `program.test`) or JSON values
//! (`schema.validate`, `crd.validate`) from them: no `JSON.stringify`, no JSON tokenizer, no
//! escaping. Numbers go into the buffer as they are met (no JS array between); an ASCII
//! string's bytes are written one by one, the rest of a string by `TextEncoder.encodeInto`;
//! what does not fit the buffers is kept by the snippet and copied after Rust has grown them
//! (once: the buffers keep their size). An exception thrown
//! during the walk is caught in JS and taken by Rust (the glue's catching wrapper costs more).
//!
//! The values are those `JSON.stringify` gives: own enumerable string-keyed properties in
//! `Object.keys` order; `toJSON` called with the property name; `Number`/`String`/`Boolean`
//! objects unwrapped; `undefined`, functions and symbols left out of objects and `null` in
//! arrays; non-finite numbers `null`; a `BigInt` or a cycle is a `TypeError` with V8's words; a
//! throwing getter throws. Numbers are as JSON text parsed by `serde_json` would give them —
//! integral values below 1e21 are integers with the digits JS prints (`-0` is `0`; 2^60 is
//! 1152921504606847000; above `i64`, `u64`), the rest doubles — with one difference: a double
//! is the exact JS number (a parse of its shortest decimal text could be one unit in the last
//! place off). Lone surrogates in strings become
//! U+FFFD (JSON text would have refused them). More than `serde_json`'s 127 nested arrays and
//! objects are refused with its words, `recursion limit exceeded`.
//!
//! For CEL, the program's access plan (`kubedv_core::cel::access`: the field paths it
//! selects, found once at compile time) bounds the walk: a field the rule selects further is
//! followed, a value it uses whole (a list it iterates, a string it matches) is written whole,
//! and the rest of the object is never touched — a cycle, a `BigInt` or a throwing getter off
//! the rule's paths is no error. The fields of a plan are written by their number in it, and
//! Rust takes their names from its own copy of the plan.

use std::cell::RefCell;
use std::rc::Rc;

use kubedv_core::cel::access::Plan;
use kubedv_core::cel::{Key, Map, Value};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(inline_js = r#"
const enumerable = Object.prototype.propertyIsEnumerable;
// WebAssembly memory (set once by Rust) and views of it, made again when it grows.
let memory = null;
let f64 = new Float64Array(0);
let u8 = new Uint8Array(0);
export function kubedvMemory(m) {
  memory = m;
}
// What the last walk threw, for Rust to take (a caught exception costs less than the glue's).
let thrown;
export function kubedvThrown() {
  const e = thrown;
  thrown = undefined;
  return e;
}
const objectProto = Object.prototype;
const arrayProto = Array.prototype;
const encoder = new TextEncoder();
// The tape is written in place: number i at f64[base + i] while i < room, then into `more`;
// the strings' UTF-8 bytes at u8[textAt + t] while they fit in textRoom, then (that string
// and every later one) into `moreText`. Rust copies what did not fit once it has made room.
let base = 0;
let room = 0;
let n = 0;
let textAt = 0;
let textEnd = 0;
let t = 0;
let more = [];
let moreText = "";
let spilled = false;
// The arrays and objects being written whole, for JSON.stringify's cycle check.
const stack = [];
function put(x) {
  if (n < room) f64[base + n] = x;
  else more.push(x);
  n++;
}
function str(s) {
  const len = s.length;
  put(len);
  let at = textAt + t;
  if (spilled || at + len * 3 > textEnd) {
    spilled = true;
    moreText += s;
    return;
  }
  for (let i = 0; i < len; i++) {
    const c = s.charCodeAt(i);
    if (c > 127) {
      at += encoder.encodeInto(i === 0 ? s : s.slice(i), u8.subarray(at, textEnd)).written;
      break;
    }
    u8[at++] = c;
  }
  t = at - textAt;
}
// JSON.stringify's SerializeJSONProperty up to the type switch: toJSON, boxed primitives. A
// plain object or array without `toJSON` (what JSON.parse and literals make) is none of those:
// its prototype says so without the four `instanceof` walks.
function prepare(v, key) {
  if (typeof v !== "object") return typeof v === "bigint" ? converted(v, key) : v;
  if (v === null) return v;
  const p = Object.getPrototypeOf(v);
  if ((p === objectProto || p === arrayProto) && v.toJSON === undefined) return v;
  return converted(v, key);
}
function converted(v, key) {
  if (typeof v.toJSON === "function") v = v.toJSON(typeof key === "number" ? String(key) : key);
  if (v !== null && typeof v === "object") {
    if (v instanceof Number) return Number(v);
    if (v instanceof String) return String(v);
    if (v instanceof Boolean || v instanceof BigInt) return v.valueOf();
  }
  return v;
}
// What JSON.stringify leaves out of an object (and writes as null in an array).
function skipped(v) {
  return v === undefined || typeof v === "function" || typeof v === "symbol";
}
function enter(v) {
  if (stack.includes(v)) throw new TypeError("Converting circular structure to JSON");
  stack.push(v);
}
// Tags: 0 null, 1 false, 2 true, 3 number (then the number), 4 string (then its UTF-16
// length; the text is apart), 5 array (then the count), 6 object (then the count, then key
// and value for each), 7 the planned fields of an object (then the count, then each field's
// number in the plan and its value). `plan`: true (all of it), [key, plan, ...] (these fields
// of an object; an array is read whole) or {e: plan} (each element of an array; an object is
// read whole).
function value(v, plan, depth) {
  switch (typeof v) {
    case "string":
      put(4);
      str(v);
      return;
    case "number":
      if (Number.isFinite(v)) {
        put(3);
        put(v);
      } else put(0);
      return;
    case "boolean":
      put(v ? 2 : 1);
      return;
    case "bigint":
      throw new TypeError("Do not know how to serialize a BigInt");
  }
  if (v === null) return put(0);
  if (depth >= 127) throw new RangeError("recursion limit exceeded");
  if (Array.isArray(v)) {
    const whole = plan === true || Array.isArray(plan);
    const each = whole ? true : plan.e;
    if (whole) enter(v);
    put(5);
    put(v.length);
    for (let i = 0; i < v.length; i++) {
      const x = prepare(v[i], i);
      if (skipped(x)) put(0);
      else value(x, each, depth + 1);
    }
    if (whole) stack.pop();
    return;
  }
  if (Array.isArray(plan)) return fields(v, plan, depth);
  enter(v);
  put(6);
  const at = n;
  put(0);
  let count = 0;
  for (const k of Object.keys(v)) {
    const x = prepare(v[k], k);
    if (skipped(x)) continue;
    str(k);
    value(x, true, depth + 1);
    count++;
  }
  stack.pop();
  set(at, count);
}
// A count written after what it counts.
function set(at, x) {
  if (at < room) f64[base + at] = x;
  else more[at - room] = x;
}
function fields(v, plan, depth) {
  put(7);
  const at = n;
  put(0);
  let count = 0;
  for (let i = 0; i < plan.length; i += 2) {
    const k = plan[i];
    if (!enumerable.call(v, k)) continue;
    const x = prepare(v[k], k);
    if (skipped(x)) continue;
    put(i >> 1);
    value(x, plan[i + 1], depth + 1);
    count++;
  }
  set(at, count);
}
// One tape at a time: a getter or toJSON calling back into kubedv while its object is being
// read would overwrite the tape being written, so that call is refused. Writes `v` whole
// (`plan` null) or the planned fields of the variables `v`. The tape ends with two numbers:
// the bytes of text written in place and the bytes kept here (kubedvCopyText). Returns the
// tape's length (its numbers past `room` are kept here: kubedvCopyTape), or -2 when the walk
// threw (kubedvThrown has it).
let busy = false;
function once(v, plan, at, numbers, text, bytes) {
  if (busy) {
    thrown = new Error("a getter or toJSON called kubedv while kubedv was reading its object");
    return -2;
  }
  busy = true;
  // Growing memory detaches its buffer: the views are then empty.
  if (f64.length === 0) {
    f64 = new Float64Array(memory.buffer);
    u8 = new Uint8Array(memory.buffer);
  }
  base = at >>> 3;
  room = numbers;
  n = 0;
  textAt = text;
  textEnd = text + bytes;
  t = 0;
  if (more.length !== 0) more = [];
  if (stack.length !== 0) stack.length = 0;
  try {
    if (plan !== null) fields(v, plan, 0);
    else {
      const x = prepare(v, "");
      if (skipped(x)) put(0);
      else value(x, true, 0);
    }
    put(t);
    if (spilled) {
      kept = encoder.encode(moreText);
      put(kept.length);
    } else put(0);
    return n;
  } catch (e) {
    thrown = e;
    return -2;
  } finally {
    busy = false;
    spilled = false;
    moreText = "";
  }
}
let kept = new Uint8Array(0);
// A value as JSON.stringify reads it, whole.
export function kubedvWrite(v, at, room, textAt, textRoom) {
  return once(v, null, at, room, textAt, textRoom);
}
// The variables a program reads (`plan`: [name, plan, ...]; plan null for a variable named
// like a type, which may be absent). Returns -1 when that cannot be told (not a plain object,
// a variable absent): the caller then converts the whole object; -3 - slot for a CelVars.
export function kubedvWriteVars(vars, plan, at, room, textAt, textRoom) {
  if (vars === null || typeof vars !== "object") return -1;
  const p = Object.getPrototypeOf(vars);
  if (p !== objectProto && p !== null) {
    const slot = vars.__kubedvSlot;
    return typeof slot === "number" ? -3 - slot : -1;
  }
  if (vars.toJSON !== undefined) return -1;
  for (let i = 0; i < plan.length; i += 2) {
    if (plan[i + 1] !== null && !enumerable.call(vars, plan[i])) return -1;
  }
  return once(vars, plan, at, room, textAt, textRoom);
}
// Copies the numbers and the text that did not fit into WebAssembly memory.
export function kubedvCopyTape(into) {
  into.set(more.length === into.length ? more : more.slice(0, into.length));
  more = [];
}
export function kubedvCopyText(into) {
  into.set(kept.subarray(0, into.length));
  kept = new Uint8Array(0);
}
// The slot of a CelVars handle, -1 for anything else.
export function kubedvSlot(v) {
  const s = v == null ? undefined : v.__kubedvSlot;
  return typeof s === "number" ? s : -1;
}
export function kubedvResult(value, type, cost) {
  return { value, type, cost };
}
export function kubedvValid() {
  return { errors: [], diagnostics: [] };
}
"#)]
extern "C" {
    #[wasm_bindgen(js_name = kubedvMemory)]
    fn set_memory(memory: &JsValue);
    #[wasm_bindgen(js_name = kubedvThrown)]
    fn take_thrown() -> JsValue;
    #[wasm_bindgen(js_name = kubedvWrite)]
    fn write(v: &JsValue, at: u32, room: u32, text_at: u32, text_room: u32) -> f64;
    #[wasm_bindgen(js_name = kubedvWriteVars)]
    fn write_vars(vars: &JsValue, plan: &JsValue, at: u32, room: u32, text_at: u32, text_room: u32) -> f64;
    #[wasm_bindgen(js_name = kubedvCopyTape)]
    fn copy_tape(into: &mut [f64]);
    #[wasm_bindgen(js_name = kubedvCopyText)]
    fn copy_text(into: &mut [u8]);
    /// The slot of a `CelVars` handle; -1 for anything else.
    #[wasm_bindgen(js_name = kubedvSlot)]
    pub(crate) fn slot_of(vars: &JsValue) -> i32;
    /// `{value, type, cost}`, made in one call.
    #[wasm_bindgen(js_name = kubedvResult)]
    pub(crate) fn result(value: JsValue, type_name: &JsValue, cost: f64) -> JsValue;
    /// `{errors: [], diagnostics: []}`, made in one call (no JSON text for the common verdict).
    #[wasm_bindgen(js_name = kubedvValid)]
    pub(crate) fn valid() -> JsValue;
}

/// What a program reads of its variables, as the snippet walks it (`js`) and as the reader
/// names the fields it reports by number (`shape`).
pub(crate) struct VarsPlan {
    js: JsValue,
    /// The program's free variables in its order, each with what the program reads of it.
    vars: Rc<[(Rc<str>, Shape)]>,
}

/// A [`Plan`] with its fields' names ready as CEL keys.
enum Shape {
    Whole,
    Fields(Vec<(Rc<str>, Shape)>),
    Each(Box<Shape>),
}

impl Shape {
    fn new(plan: &Plan) -> Shape {
        match plan {
            Plan::Whole => Shape::Whole,
            Plan::Fields(f) => Shape::Fields(f.iter().map(|(k, p)| (Rc::from(&**k), Shape::new(p))).collect()),
            Plan::Each(p) => Shape::Each(Box::new(Shape::new(p))),
        }
    }

    /// The snippet's form: true, [key, plan, ...] or {e: plan}.
    fn js(&self) -> JsValue {
        match self {
            Shape::Whole => JsValue::TRUE,
            Shape::Fields(fields) => {
                let out = js_sys::Array::new();
                for (name, shape) in fields {
                    out.push(&JsValue::from_str(name));
                    out.push(&shape.js());
                }
                out.into()
            }
            Shape::Each(shape) => {
                let each = js_sys::Object::new();
                let _ = js_sys::Reflect::set(&each, &JsValue::from_str("e"), &shape.js());
                each.into()
            }
        }
    }
}

impl VarsPlan {
    /// The plan for a program's free variables (`names[i]` read as `plans[i]`). A variable
    /// named like a type may be absent (the name is then the type): it is read whole.
    pub(crate) fn new(names: &[String], plans: &[Plan]) -> VarsPlan {
        let out = js_sys::Array::new();
        let mut fields = Vec::new();
        for (name, plan) in names.iter().zip(plans) {
            let type_name = kubedv_core::cel::functions::type_ident(name).is_some();
            let shape = if type_name { Shape::Whole } else { Shape::new(plan) };
            out.push(&JsValue::from_str(name));
            out.push(&if type_name { JsValue::NULL } else { shape.js() });
            fields.push((Rc::from(name.as_str()), shape));
        }
        VarsPlan { js: out.into(), vars: fields.into() }
    }
}

std::thread_local! {
    /// Where the snippet writes the tape and its text: buffers kept between calls, always as
    /// long as their capacity (the snippet writes into them in place).
    static BUFFERS: RefCell<(Vec<f64>, Vec<u8>)> = const { RefCell::new((Vec::new(), Vec::new())) };
    /// Whether the snippet has been given WebAssembly memory.
    static MEMORY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The message of what the snippet threw (a getter's own error, a cycle, a `BigInt`).
fn thrown() -> String {
    match take_thrown().dyn_into::<js_sys::Error>() {
        Ok(e) => e.message().into(),
        Err(e) => e.as_string().unwrap_or_else(|| String::from("an exception was thrown")),
    }
}

const MALFORMED: &str = "internal error: malformed value tape";

/// A tape the reader cannot read (a bug of the snippet's, never the user's value): carries
/// nothing, so the reader's results stay small on its hot path.
struct Malformed;

impl From<Malformed> for String {
    fn from(_: Malformed) -> String {
        String::from(MALFORMED)
    }
}

/// What a walk of the snippet gave.
enum Walked<T> {
    /// The tape, read.
    Read(T),
    /// The value is a `CelVars` handle in this slot.
    Slot(usize),
    /// The snippet cannot tell what the program reads (the caller converts the whole value).
    Unknown,
}

/// Runs the snippet (`walk`, given where in WebAssembly memory the tape and its text may go:
/// offset and room of each) and reads the tape it wrote. No buffer is borrowed while the
/// snippet runs: a getter may call kubedv (the snippet refuses that call before it writes).
fn walk<T>(
    walk: impl FnOnce(u32, u32, u32, u32) -> f64,
    f: impl FnOnce(&mut Reader<'_>) -> Result<T, Malformed>,
) -> Result<Walked<T>, String> {
    if !MEMORY.get() {
        set_memory(&wasm_bindgen::memory());
        MEMORY.set(true);
    }
    let (at, room, text_at, text_room) = BUFFERS.with_borrow_mut(|(numbers, bytes)| {
        if numbers.is_empty() {
            numbers.resize(1024, 0.0);
            bytes.resize(4096, 0);
        }
        let place = |ptr: usize, len: usize| (ptr as u32, len as u32);
        let (at, room) = place(numbers.as_mut_ptr() as usize, numbers.len());
        let (text_at, text_room) = place(bytes.as_mut_ptr() as usize, bytes.len());
        (at, room, text_at, text_room)
    });
    let len = walk(at, room, text_at, text_room);
    if len == -1.0 {
        return Ok(Walked::Unknown);
    } else if len == -2.0 {
        return Err(thrown());
    } else if len < 0.0 {
        return Ok(Walked::Slot((-3.0 - len) as usize));
    }
    BUFFERS.with_borrow_mut(|(numbers, bytes)| {
        let (len, room) = (len as usize, room as usize);
        if len > room {
            // What did not fit (kept by the snippet): the buffer grows to hold it next time.
            numbers.resize(len, 0.0);
            copy_tape(&mut numbers[room..]);
        }
        let [.., in_place, kept] = numbers[..len] else { return Err(MALFORMED.into()) };
        let (in_place, kept) = (in_place as usize, kept as usize);
        if kept > 0 {
            bytes.resize(bytes.len().max(in_place + kept), 0);
            copy_text(bytes.get_mut(in_place..in_place + kept).ok_or(MALFORMED)?);
        }
        let text = bytes.get(..in_place + kept).ok_or(MALFORMED)?;
        let (numbers, text) = (&numbers[..len - 2], core::str::from_utf8(text).map_err(|_| MALFORMED)?);
        Ok(Walked::Read(f(&mut Reader { numbers, next: 0, ascii: text.is_ascii(), text })?))
    })
}

/// A JS value as JSON (what `JSON.stringify` then a JSON parser would give).
pub(crate) fn json(v: &JsValue) -> Result<serde_json::Value, String> {
    match walk(|at, room, text_at, text_room| write(v, at, room, text_at, text_room), |r| r.json(0))? {
        Walked::Read(json) => Ok(json),
        _ => Err(MALFORMED.into()),
    }
}

/// The variables of a program: a `CelVars` handle, what the program reads of a plain object
/// (by `plan`), or what the snippet cannot tell (the caller converts the whole object).
pub(crate) enum Variables {
    Handle(usize),
    Read(ReadVars),
    Unknown,
}

/// What a program reads of its variables, by their position in the program (no map of the
/// variables is made).
pub(crate) struct ReadVars {
    vars: Rc<[(Rc<str>, Shape)]>,
    values: Vec<Option<Value>>,
}

impl kubedv_core::cel::Activation for ReadVars {
    fn resolve(&self, name: &str) -> Option<&Value> {
        let i = self.vars.iter().position(|(n, _)| **n == *name)?;
        self.values.get(i)?.as_ref()
    }

    fn by_position(&self, names: &[Box<str>]) -> Option<&[Option<Value>]> {
        // Read by the plan made from this program's variables, in their order.
        (names.len() == self.values.len()).then_some(&self.values)
    }
}

/// The program's variables read from `vars` by `plan`.
pub(crate) fn variables(vars: &JsValue, plan: &VarsPlan) -> Result<Variables, String> {
    let read = |at, room, text_at, text_room| write_vars(vars, &plan.js, at, room, text_at, text_room);
    Ok(match walk(read, |r| r.vars(&plan.vars))? {
        Walked::Read(values) => Variables::Read(ReadVars { vars: plan.vars.clone(), values }),
        Walked::Unknown => Variables::Unknown,
        Walked::Slot(slot) => Variables::Handle(slot),
    })
}

struct Reader<'a> {
    numbers: &'a [f64],
    next: usize,
    text: &'a str,
    ascii: bool,
}

/// A number as JSON text prints it and `serde_json` parses it. JS prints an integral number
/// below 1e21 as an integer, with the shortest digits that give it back then zeros (2^60 is
/// `1152921504606847000`, as Rust's `Display` prints it too): an `i64` where that fits, else a
/// `u64`, else a double; other numbers are doubles.
enum Number {
    Int(i64),
    Uint(u64),
    Double(f64),
}

fn number(d: f64) -> Number {
    const EXACT: f64 = 9_007_199_254_740_992.0; // 2^53: below it, every integer prints exactly
    if d.fract() != 0.0 || d.abs() >= 1e21 {
        Number::Double(d)
    } else if d.abs() < EXACT {
        Number::Int(d as i64)
    } else {
        // As JS prints it: the shortest digits, then zeros (2^60 is 1152921504606847000).
        let (neg, mut digits, exp) = kubedv_core::field::shortest_digits(d);
        digits.extend((digits.len()..=exp as usize).map(|_| '0'));
        if neg {
            digits.insert(0, '-');
        }
        match (digits.parse::<i64>(), digits.parse::<u64>()) {
            (Ok(i), _) => Number::Int(i),
            (_, Ok(u)) => Number::Uint(u),
            _ => Number::Double(d),
        }
    }
}

impl<'a> Reader<'a> {
    #[inline(always)]
    fn number(&mut self) -> Result<f64, Malformed> {
        let x = *self.numbers.get(self.next).ok_or(Malformed)?;
        self.next += 1;
        Ok(x)
    }

    /// A count or an index: at most `max`.
    #[inline(always)]
    fn up_to(&mut self, max: usize) -> Result<usize, Malformed> {
        let x = self.number()?;
        if !(0.0..=max as f64).contains(&x) || x.fract() != 0.0 {
            return Err(Malformed);
        }
        Ok(x as usize)
    }

    /// A count of values: at most the tape's length.
    #[inline(always)]
    fn count(&mut self) -> Result<usize, Malformed> {
        self.up_to(self.numbers.len())
    }

    /// The next string: its length is in UTF-16 units, as JS counts (no more than its UTF-8
    /// bytes).
    fn str(&mut self) -> Result<&'a str, Malformed> {
        let units = self.up_to(self.text.len())?;
        let end = if self.ascii {
            units
        } else {
            let mut seen = 0;
            let mut end = 0;
            for c in self.text.chars() {
                if seen >= units {
                    break;
                }
                seen += c.len_utf16();
                end += c.len_utf8();
            }
            end
        };
        let (s, rest) = self.text.split_at_checked(end).ok_or(Malformed)?;
        self.text = rest;
        Ok(s)
    }

    /// The planned fields of the variables object, by position.
    fn vars(&mut self, vars: &[(Rc<str>, Shape)]) -> Result<Vec<Option<Value>>, Malformed> {
        if self.number()? != 7.0 {
            return Err(Malformed);
        }
        let mut values: Vec<Option<Value>> = (0..vars.len()).map(|_| None).collect();
        for _ in 0..self.count()? {
            let i = self.count()?;
            let (_, shape) = vars.get(i).ok_or(Malformed)?;
            values[i] = Some(self.cel(shape, 1)?);
        }
        Ok(values)
    }

    fn cel(&mut self, shape: &Shape, depth: usize) -> Result<Value, Malformed> {
        Ok(match self.number()? as u8 {
            0 => Value::Null,
            1 => Value::Bool(false),
            2 => Value::Bool(true),
            3 => match number(self.number()?) {
                Number::Int(i) => Value::Int(i),
                Number::Uint(u) => Value::Uint(u),
                Number::Double(d) => Value::Double(d),
            },
            4 => Value::from(self.str()?),
            5 if depth < 127 => {
                let each = if let Shape::Each(each) = shape { each } else { &Shape::Whole };
                let count = self.count()?;
                let mut items = Vec::with_capacity(count);
                for _ in 0..count {
                    items.push(self.cel(each, depth + 1)?);
                }
                Value::list(items)
            }
            6 if depth < 127 => {
                let count = self.count()?;
                let mut entries = Vec::with_capacity(count);
                for _ in 0..count {
                    let key = Key::String(Rc::from(self.str()?));
                    entries.push((key, self.cel(&Shape::Whole, depth + 1)?));
                }
                Value::Map(Rc::new(Map::from_entries(entries)))
            }
            7 if depth < 127 => {
                let Shape::Fields(fields) = shape else { return Err(Malformed) };
                let count = self.count()?;
                let mut entries = Vec::with_capacity(count);
                for _ in 0..count {
                    let (name, shape) = fields.get(self.count()?).ok_or(Malformed)?;
                    entries.push((Key::String(name.clone()), self.cel(shape, depth + 1)?));
                }
                Value::Map(Rc::new(Map::from_entries(entries)))
            }
            _ => return Err(Malformed),
        })
    }

    fn json(&mut self, depth: usize) -> Result<serde_json::Value, Malformed> {
        use serde_json::Value as J;
        Ok(match self.number()? as u8 {
            0 => J::Null,
            1 => J::Bool(false),
            2 => J::Bool(true),
            3 => match number(self.number()?) {
                Number::Int(i) => J::from(i),
                Number::Uint(u) => J::from(u),
                Number::Double(d) => serde_json::Number::from_f64(d).map_or(J::Null, J::Number),
            },
            4 => J::String(self.str()?.into()),
            5 if depth < 127 => {
                let count = self.count()?;
                let mut items = Vec::with_capacity(count);
                for _ in 0..count {
                    items.push(self.json(depth + 1)?);
                }
                J::Array(items)
            }
            6 if depth < 127 => {
                let count = self.count()?;
                let mut map = serde_json::Map::new();
                for _ in 0..count {
                    let key = String::from(self.str()?);
                    let value = self.json(depth + 1)?;
                    map.insert(key, value);
                }
                J::Object(map)
            }
            _ => return Err(Malformed),
        })
    }
}
