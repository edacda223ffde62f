//! The npm package `kubedv`: a thin wasm-bindgen facade over `kubedv-core`.
//!
//! Values cross as plain JS objects. Objects to validate and CEL variables come in through the
//! value tape (`tape`: read as `JSON.stringify` reads them, without JSON text); options and
//! declarations through `JSON.stringify` and serde_json; results go out as JSON text parsed by
//! `JSON.parse`. Bad input becomes a thrown JS `Error`, never a trap.
//!
//! Two modules are built from this crate: `kubedv` (feature `core`: formats, tagged types,
//! CEL, CRDs, CRI skew) and `kubedv/policy` (feature `policy`: admission policies), so that
//! the core module stays within its size budget and policy users download what they use.

#![cfg_attr(not(feature = "core"), allow(dead_code))]

#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
mod alloc;
#[cfg(feature = "core")]
mod api;
#[cfg(feature = "core")]
mod cel;
#[cfg(feature = "core")]
mod crd;
#[cfg(feature = "full")]
mod manifests;
#[cfg(feature = "policy")]
mod policy;
mod tape;

#[cfg(feature = "core")]
pub use api::*;
#[cfg(feature = "core")]
pub use cel::{cel_vars, compile_cel, eval_cel, JsCelProgram, JsCelVars};
#[cfg(feature = "core")]
pub use crd::{compile_crd, validate_crd, JsCrd};
#[cfg(feature = "full")]
pub use manifests::{check_manifests, crd_catalog_needs};

use serde::Serialize;
use wasm_bindgen::prelude::*;

/// TLSF instead of dlmalloc (smaller and constant-time), with a cache of small blocks (the hot
/// paths allocate a value per field of every object).
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: alloc::Allocator = alloc::Allocator::new();

/// Converts a result to a plain JS value (objects, not `Map`s).
pub(crate) fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsError> {
    let text = serde_json::to_string(value)
        .map_err(|e| into_error(format!("cannot convert the result to JavaScript: {e}")))?;
    js_sys::JSON::parse(&text).map_err(|_| into_error("cannot convert the result to JavaScript"))
}

/// The one way errors leave this crate: a JS `Error` with the message.
pub(crate) fn into_error(message: impl core::fmt::Display) -> JsError {
    JsError::new(&message.to_string())
}

/// The version of kubedv.
#[wasm_bindgen]
pub fn version() -> String {
    kubedv_core::VERSION.into()
}

/// Reads a plain JS object into `T`, naming what was expected on failure.
///
/// Through `serde_json::Value`: serde-wasm-bindgen only looks up a struct's declared keys, so
/// `deny_unknown_fields` would never see a misspelt option.
/// Reads a JS value through `JSON.stringify` and serde_json: serde_json refuses nesting deeper
/// than 128 levels with an error, where walking a deep JS object directly could overflow the
/// stack and trap; cycles and BigInts become errors too.
///
/// Not in the core module: a derived `Deserialize`'s type errors print through serde's
/// `Unexpected`, whose float case links Rust's whole float formatting (13 KB of WebAssembly);
/// the core module reads its maps with [`map_from_js`].
#[cfg(any(feature = "full", feature = "policy"))]
pub(crate) fn from_js<T: serde::de::DeserializeOwned>(value: JsValue, what: &str) -> Result<T, JsError> {
    let text = js_sys::JSON::stringify(&value)
        .map_err(|e| into_error(format!("{what}: {}", js_sys::Error::from(e).message())))?
        .as_string()
        .unwrap_or_else(|| String::from("null"));
    serde_json::from_str(&text).map_err(|e| into_error(format!("{what}: {e}")))
}

/// A plain JS object (CEL variables, declarations, options), read through the value tape as
/// `JSON.stringify` would send it; anything else is refused, naming what was expected.
pub(crate) fn map_from_js(value: &JsValue, what: &str) -> Result<serde_json::Map<String, serde_json::Value>, JsError> {
    match tape::json(value).map_err(|e| into_error(format!("{what}: {e}")))? {
        serde_json::Value::Object(map) => Ok(map),
        _ => Err(into_error(format!("{what}: expected an object"))),
    }
}

/// An options object read by hand from its JSON (a derived `Deserialize` adds a parser per
/// struct to the module): each key taken once; `null` is "not given"; unknown keys and wrong
/// types are refused with the usage line.
pub(crate) struct Fields {
    map: serde_json::Map<String, serde_json::Value>,
    usage: &'static str,
}

impl Fields {
    /// Read through the value tape, not JSON text: options come with every `validate` call,
    /// and `JSON.stringify` plus a parse cost more than validating a small object.
    pub(crate) fn from_js(value: JsValue, usage: &'static str) -> Result<Fields, JsError> {
        Ok(Fields { map: map_from_js(&value, usage)?, usage })
    }

    fn take(&mut self, key: &str) -> Option<serde_json::Value> {
        self.map.remove(key).filter(|v| !v.is_null())
    }

    fn wrong(&self, key: &str, want: &str) -> JsError {
        into_error(format!("{}: `{key}` must be {want}", self.usage))
    }

    pub(crate) fn string(&mut self, key: &str) -> Result<Option<String>, JsError> {
        match self.take(key) {
            None => Ok(None),
            Some(serde_json::Value::String(s)) => Ok(Some(s)),
            Some(_) => Err(self.wrong(key, "a string")),
        }
    }

    pub(crate) fn boolean(&mut self, key: &str) -> Result<Option<bool>, JsError> {
        match self.take(key) {
            None => Ok(None),
            Some(serde_json::Value::Bool(b)) => Ok(Some(b)),
            Some(_) => Err(self.wrong(key, "true or false")),
        }
    }

    pub(crate) fn number(&mut self, key: &str) -> Result<Option<f64>, JsError> {
        match self.take(key) {
            None => Ok(None),
            Some(serde_json::Value::Number(n)) => Ok(n.as_f64()),
            Some(_) => Err(self.wrong(key, "a number")),
        }
    }

    pub(crate) fn strings(&mut self, key: &str) -> Result<Vec<String>, JsError> {
        match self.take(key) {
            None => Ok(Vec::new()),
            Some(serde_json::Value::Array(items)) => items
                .into_iter()
                .map(|v| match v {
                    serde_json::Value::String(s) => Ok(s),
                    _ => Err(self.wrong(key, "a list of strings")),
                })
                .collect(),
            Some(_) => Err(self.wrong(key, "a list of strings")),
        }
    }

    pub(crate) fn value(&mut self, key: &str) -> Option<serde_json::Value> {
        self.take(key)
    }

    /// Refuses what was not taken.
    pub(crate) fn finish(self) -> Result<(), JsError> {
        match self.map.keys().next() {
            None => Ok(()),
            Some(k) => Err(into_error(format!("{}: unknown field `{k}`", self.usage))),
        }
    }
}

/// An optional argument: `undefined` and `null` both mean "not given".
pub(crate) fn given(value: Option<JsValue>) -> Option<JsValue> {
    value.filter(|v| !v.is_undefined() && !v.is_null())
}

/// Reads an object argument: a plain JS object, or a string of YAML or JSON (the first
/// document, as the CLI reads a file). A string that cannot be read throws an `Error` with the
/// parser's `line` and `column`.
pub(crate) fn object_from_js(value: JsValue, what: &str) -> Result<serde_json::Value, JsValue> {
    let Some(text) = value.as_string() else {
        return tape::json(&value).map_err(|e| into_error(format!("{what}: {e}")).into());
    };
    kubedv_input::document(&text).map_err(|e| {
        let err = js_sys::Error::new(&format!("{what}: {e}"));
        if let (Some(line), Some(column)) = (e.line, e.column) {
            let _ = js_sys::Reflect::set(&err, &"line".into(), &(line as u32).into());
            let _ = js_sys::Reflect::set(&err, &"column".into(), &(column as u32).into());
        }
        err.into()
    })
}
