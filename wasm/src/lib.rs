//! The npm package `kubedv`: a thin wasm-bindgen facade over `kubedv-core`.
//!
//! Values cross as plain JS objects (serde-wasm-bindgen, JSON-compatible). Bad input becomes a
//! thrown JS `Error`, never a trap.

use kubedv_core::cri::maturity::{self, Stage, Status};
use kubedv_core::cri::skew;
use kubedv_core::field::Path;
use kubedv_core::format::Format;
use serde::{Deserialize, Serialize};
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

/** A node for `criSkew`: versions as the CLI takes them. */
export interface CriNode {
  /** The kubelet's Kubernetes version, e.g. "1.30.2". */
  kubelet: string;
  /** "v0.27.1" (the k8s.io/cri-api it implements), "containerd=1.7.20" or "cri-o=1.30.1". */
  runtime: string;
  /** Other CRI clients of the runtime, "NAME=VERSION" (e.g. "crictl=1.27.0"). */
  clients?: string[];
  /** Image-service proxies, "NAME=VERSION": the kubelet calls them and they call the runtime. */
  imageServices?: string[];
}

/** One client→server verdict with the policy sentence that decides it. */
export interface CriPair {
  client: string;
  clientVersion: string;
  server: string;
  serverVersion: string;
  supported: boolean;
  reason: string;
}

/** `supported` is true only when every pair is. */
export interface CriSkewReport {
  supported: boolean;
  pairs: CriPair[];
}

/** A supported range of minor versions (cri-api v0.N for a kubelet, kubelet 1.N for a runtime). */
export interface CriRange {
  subject: string;
  from: number;
  to: number;
  text: string;
  /** Known runtime release lines in range (for a kubelet). */
  runtimes: string[];
}

export type FeatureStage = "alpha" | "beta-off" | "beta-on" | "ga";
export type RuntimeStatus = "none" | "pr-open" | "merged" | "experimental" | "released" | "released-ga";

/** A feature for `criFeature`. */
export interface CriFeature {
  stage: FeatureStage;
  containerd: RuntimeStatus;
  crio: RuntimeStatus;
  /** A Kubernetes release already shipped it as beta enabled by default (needed for "ga"). */
  shippedBetaOn?: boolean;
}

export interface CriFeatureVerdict {
  allowed: boolean;
  rules: { rule: string; satisfied: boolean; reason: string }[];
  reminders: string[];
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

/// Reads a plain JS object into `T`, naming what was expected on failure.
fn from_js<T: serde::de::DeserializeOwned>(value: JsValue, what: &str) -> Result<T, JsError> {
    serde_wasm_bindgen::from_value(value).map_err(|e| into_error(format!("{what}: {e}")))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct CriNode {
    kubelet: String,
    runtime: String,
    #[serde(default)]
    clients: Vec<String>,
    #[serde(default)]
    image_services: Vec<String>,
}

/// Judges a node's CRI version skew, pair by pair. Throws for malformed versions.
#[wasm_bindgen(js_name = criSkew, unchecked_return_type = "CriSkewReport")]
pub fn cri_skew(#[wasm_bindgen(unchecked_param_type = "CriNode")] node: JsValue) -> Result<JsValue, JsError> {
    let node: CriNode = from_js(node, "criSkew expects {kubelet, runtime, clients?, imageServices?}")?;
    let report =
        skew::check_node(&node.kubelet, &node.runtime, &node.clients, &node.image_services).map_err(into_error)?;
    to_js(&report)
}

/// The supported range for a kubelet version (`{kubelet: "1.30"}`) or a runtime
/// (`{runtime: "containerd=1.7.20"}`).
#[wasm_bindgen(js_name = criRange, unchecked_return_type = "CriRange")]
pub fn cri_range(
    #[wasm_bindgen(unchecked_param_type = "{ kubelet: string } | { runtime: string }")] subject: JsValue,
) -> Result<JsValue, JsError> {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    enum Subject {
        #[serde(rename = "kubelet")]
        Kubelet(String),
        #[serde(rename = "runtime")]
        Runtime(String),
    }
    let subject: Subject = from_js(subject, "criRange expects {kubelet} or {runtime}")?;
    let range = match subject {
        Subject::Kubelet(v) => skew::range_for_kubelet(&v),
        Subject::Runtime(r) => skew::range_for_runtime(&r),
    }
    .map_err(into_error)?;
    to_js(&range)
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct CriFeature {
    stage: String,
    containerd: String,
    crio: String,
    #[serde(default)]
    shipped_beta_on: bool,
}

/// Whether the CRI feature policy allows a stage, rule by rule.
#[wasm_bindgen(js_name = criFeature, unchecked_return_type = "CriFeatureVerdict")]
pub fn cri_feature(#[wasm_bindgen(unchecked_param_type = "CriFeature")] feature: JsValue) -> Result<JsValue, JsError> {
    let f: CriFeature = from_js(feature, "criFeature expects {stage, containerd, crio, shippedBetaOn?}")?;
    let stage = Stage::from_name(&f.stage).ok_or_else(|| {
        into_error(format!("unknown stage {:?}; the stages are: {}", f.stage, Stage::ALL.map(|(_, n)| n).join(", ")))
    })?;
    let status = |v: &str| {
        Status::from_name(v).ok_or_else(|| {
            into_error(format!("unknown status {v:?}; the statuses are: {}", Status::ALL.map(|(_, n)| n).join(", ")))
        })
    };
    let feature = maturity::Feature {
        stage,
        containerd: status(&f.containerd)?,
        crio: status(&f.crio)?,
        shipped_beta_on: f.shipped_beta_on,
    };
    to_js(&maturity::check(&feature))
}
