//! The npm package `kubedv`: a thin wasm-bindgen facade over `kubedv-core`.
//!
//! Values cross as plain JS objects (serde-wasm-bindgen, JSON-compatible). Bad input becomes a
//! thrown JS `Error`, never a trap.

use kubedv_core::field::Path;
use kubedv_core::format::Format;
use serde::Serialize;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &str = r#"
/** Kubernetes' field.ErrorType. */
export type ErrorType =
  | "FieldValueRequired" | "FieldValueInvalid" | "FieldValueNotSupported" | "FieldValueDuplicate"
  | "FieldValueForbidden" | "FieldValueTooLong" | "FieldValueTooShort" | "FieldValueTooMany"
  | "FieldValueTooFew" | "FieldValueTypeInvalid" | "FieldValueNotFound" | "InternalError";

/** One field error, as Kubernetes' field.Error; `text` is exactly what Kubernetes prints. */
export interface FieldError {
  field: string;
  type: ErrorType;
  /** The bad value; absent where Kubernetes omits it (Required, Forbidden, Too long, ...). */
  value?: unknown;
  detail: string;
  /** What produced the error, e.g. "format=k8s-short-name". */
  origin: string;
  stability: "alpha" | "beta" | "stable";
  /** Whether the API server would return the error. */
  enforced: boolean;
  text: string;
}

/** A `+k8s:format` name and what it accepts. */
export interface FormatInfo {
  name: string;
  summary: string;
}
"#;

/// Converts a result to a plain JS value (objects, not `Map`s).
fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsError> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| into_error(format!("cannot convert the result to JavaScript: {e}")))
}

/// The one way errors leave this crate: a JS `Error` with the message.
fn into_error(message: impl core::fmt::Display) -> JsError {
    JsError::new(&message.to_string())
}

/// The version of kubedv.
#[wasm_bindgen]
pub fn version() -> String {
    kubedv_core::VERSION.into()
}

/// The `+k8s:format` names, each with a one-line summary of what it accepts.
#[wasm_bindgen(unchecked_return_type = "FormatInfo[]")]
pub fn formats() -> Result<JsValue, JsError> {
    #[derive(Serialize)]
    struct Info {
        name: &'static str,
        summary: &'static str,
    }
    let list: Vec<Info> = Format::ALL.iter().map(|f| Info { name: f.name(), summary: f.summary() }).collect();
    to_js(&list)
}

/// Checks `value` against the `+k8s:format` named `format`, reporting errors at `field`
/// (a path such as `metadata.name`; the root, printed `<nil>`, when omitted). Throws for an
/// unknown format name.
#[wasm_bindgen(js_name = checkFormat, unchecked_return_type = "FieldError[]")]
pub fn check_format(format: &str, value: &str, field: Option<String>) -> Result<JsValue, JsError> {
    let fmt = Format::from_name(format).ok_or_else(|| {
        let names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
        into_error(format!("unknown format {format:?}; the formats are: {}", names.join(", ")))
    })?;
    let path = Path::named(field.as_deref().unwrap_or(""));
    to_js(&fmt.validate(&path, value))
}
