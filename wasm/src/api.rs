//! The core API for JavaScript: `+k8s:` formats and tagged Go types (`compileTypes`,
//! `validate`); the CRI skew policy (`criSkew`, `criRange`, `criFeature`) in `kubedv/full` only,
//! for the core module's size budget. Built into the `kubedv` module (the `core` feature), not
//! into `kubedv/policy`.

#[cfg(feature = "full")]
use kubedv_core::cri::maturity::{self, Stage, Status};
#[cfg(feature = "full")]
use kubedv_core::cri::skew;
use kubedv_core::declarative::shadow::{self, Enforcement};
use kubedv_core::declarative::{Dependency, Options, Refusal, Request, RootError, Schema};
use kubedv_core::diag::Diagnostic;
use kubedv_core::field::Path;
use kubedv_core::format::Format;
use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::{given, into_error, object_from_js, to_js, Fields};

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

/** A problem with the input: a source position, or a field path for objects. */
export interface Diagnostic {
  severity: "error" | "warning";
  /** 1-based line in the Go source (0 when `field` says where). */
  line: number;
  column: number;
  field?: string;
  message: string;
}

/** What `schema.validate` and `validate` return (the CLI's JSON document). */
export interface ValidationResult {
  errors: FieldError[];
  diagnostics: Diagnostic[];
  /** Present when `handwritten` errors were given (`kubedv/full`). */
  shadow?: Shadow;
}

/** Options for compiling types. */
export interface CompileOptions {
  /** The sources of the packages the types import, by import path
   *  (`{"k8s.io/api/core/v1": coreTypesGo}`): their types validate with their own tags.
   *  apimachinery's meta/v1 is built in. */
  imports?: Record<string, string>;
  /** The Kubernetes version whose apimachinery types the built-in meta/v1 models, "1.33" to
   *  "1.37" (default "1.37"; 1.37 added alpha rules to ObjectMeta and Condition). */
  k8sVersion?: string;
}

/** Options for validation. */
export interface ValidateOptions {
  /** The type to validate the object as (default: the only root-looking type). */
  type?: string;
  /** Validation options to turn on (`+k8s:ifEnabled(Name)`). */
  options?: string[];
  /** The Kubernetes version whose enforcement rules apply, "1.33" to "1.37" (default "1.37"); others throw. */
  k8sVersion?: string;
  /** Feature gates: DeclarativeValidation, DeclarativeValidationBeta, DeclarativeValidationTakeover. */
  gates?: Record<string, boolean>;
  /** The request's subresource ("/status"); the resource itself when omitted. */
  subresource?: string;
  /** Whether the resource opted into declarative enforcement (default true; only 1.36 has an opt-in). */
  declarativeEnforcement?: boolean;
  /** Handwritten errors to compare with (`kubedv/full` only; the core module refuses this and
   *  the two options after it): Kubernetes error lines (optionally ending in
   *  `[origin=NAME, covered]`), or objects. */
  handwritten?: string | { field: string; type: ErrorType; origin?: string; covered?: boolean; detail?: string; stability?: "alpha" | "beta" | "stable" }[];
  /** The resource's normalization rules for the comparison, "REGEXP=REPLACEMENT" (Go syntax,
   *  `$1` for groups; 1.35+): declarative error paths are rewritten before matching. */
  normalizationRules?: string[];
  /** The resource sets ShortCircuitMismatch (1.37+): a short-circuiting declarative error
   *  matches the handwritten errors on its field's children. */
  shortCircuitMismatch?: boolean;
  /** Apply the types' `+default` values before validating, as the API server does (default true). */
  defaults?: boolean;
}

/** A handwritten error with its migration mark. */
export interface HandwrittenError extends FieldError {
  covered: boolean;
}

/** The handwritten-vs-declarative comparison the API server runs. */
export interface Shadow {
  matched: { handwritten: HandwrittenError; declarative: FieldError }[];
  unmatchedHandwritten: HandwrittenError[];
  extraDeclarative: FieldError[];
  /** How much apiserver_validation_declarative_validation_mismatch_total grows. */
  mismatches: number;
  /** What the API server returns. */
  returned: FieldError[];
  /** One sentence per decision. */
  explanations: string[];
}

/** One +k8s: tag's documentation: the entries of `kubedv/tags.json`, a separate file of the
 *  package, so the core `.wasm` carries no documentation text. */
export interface TagDoc {
  name: string;
  description: string;
  stability: "alpha" | "beta" | "stable" | "metadata";
  scopes: ("type" | "field" | "listVal" | "mapKey" | "const")[];
  args: string[];
  payload: string;
  example: string;
}

/** A `+k8s:format` name and what it accepts. */
export interface FormatInfo {
  name: string;
  summary: string;
}

"#;

/// The CRI skew, range and feature-policy types (`kubedv/full` only).
#[cfg(feature = "full")]
#[wasm_bindgen(typescript_custom_section)]
const TS_CRI_FULL: &str = r#"
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

/// Judges a node's CRI version skew, pair by pair. Throws for malformed versions.
#[cfg(feature = "full")]
#[wasm_bindgen(js_name = criSkew, unchecked_return_type = "CriSkewReport")]
pub fn cri_skew(#[wasm_bindgen(unchecked_param_type = "CriNode")] node: JsValue) -> Result<JsValue, JsError> {
    let mut f = Fields::from_js(node, "criSkew expects {kubelet, runtime, clients?, imageServices?}")?;
    let missing = |k: &str| {
        into_error(format!("criSkew expects {{kubelet, runtime, clients?, imageServices?}}: missing field `{k}`"))
    };
    let kubelet = f.string("kubelet")?.ok_or_else(|| missing("kubelet"))?;
    let runtime = f.string("runtime")?.ok_or_else(|| missing("runtime"))?;
    let (clients, image_services) = (f.strings("clients")?, f.strings("imageServices")?);
    f.finish()?;
    let report = skew::check_node(&kubelet, &runtime, &clients, &image_services).map_err(into_error)?;
    to_js(&report)
}

/// The supported range for a kubelet version (`{kubelet: "1.30"}`) or a runtime
/// (`{runtime: "containerd=1.7.20"}`). In `kubedv/full` (the core module's budget).
#[cfg(feature = "full")]
#[wasm_bindgen(js_name = criRange, unchecked_return_type = "CriRange")]
pub fn cri_range(
    #[wasm_bindgen(unchecked_param_type = "{ kubelet: string } | { runtime: string }")] subject: JsValue,
) -> Result<JsValue, JsError> {
    const USAGE: &str = "criRange expects {kubelet} or {runtime}";
    let mut f = Fields::from_js(subject, USAGE)?;
    let (kubelet, runtime) = (f.string("kubelet")?, f.string("runtime")?);
    f.finish()?;
    let range = match (kubelet, runtime) {
        (Some(v), None) => skew::range_for_kubelet(&v),
        (None, Some(r)) => skew::range_for_runtime(&r),
        _ => return Err(into_error(USAGE)),
    }
    .map_err(into_error)?;
    to_js(&range)
}

/// Whether the CRI feature policy allows a stage, rule by rule. In `kubedv/full`.
#[cfg(feature = "full")]
#[wasm_bindgen(js_name = criFeature, unchecked_return_type = "CriFeatureVerdict")]
pub fn cri_feature(#[wasm_bindgen(unchecked_param_type = "CriFeature")] feature: JsValue) -> Result<JsValue, JsError> {
    const USAGE: &str = "criFeature expects {stage, containerd, crio, shippedBetaOn?}";
    let mut fields = Fields::from_js(feature, USAGE)?;
    let missing = |k: &str| into_error(format!("{USAGE}: missing field `{k}`"));
    let stage_name = fields.string("stage")?.ok_or_else(|| missing("stage"))?;
    let containerd = fields.string("containerd")?.ok_or_else(|| missing("containerd"))?;
    let crio = fields.string("crio")?.ok_or_else(|| missing("crio"))?;
    let shipped_beta_on = fields.boolean("shippedBetaOn")?.unwrap_or(false);
    fields.finish()?;
    let stage = Stage::from_name(&stage_name).ok_or_else(|| {
        into_error(format!("unknown stage {stage_name:?}; the stages are: {}", Stage::ALL.map(|(_, n)| n).join(", ")))
    })?;
    let status = |v: &str| {
        Status::from_name(v).ok_or_else(|| {
            into_error(format!("unknown status {v:?}; the statuses are: {}", Status::ALL.map(|(_, n)| n).join(", ")))
        })
    };
    let feature = maturity::Feature { stage, containerd: status(&containerd)?, crio: status(&crio)?, shipped_beta_on };
    to_js(&maturity::check(&feature))
}

/// A thrown JS `Error` for input that cannot be used: the first error diagnostic as the
/// message (`LINE:COL: message`), with `line`, `column` and all `diagnostics` attached.
fn diagnostics_error(diags: &[Diagnostic]) -> JsValue {
    let first = diags.iter().find(|d| d.is_error()).or(diags.first());
    let message = first.map_or_else(|| "invalid input".to_string(), |d| d.to_string());
    let err = js_sys::Error::new(&message);
    if let Some(d) = first {
        let _ = js_sys::Reflect::set(&err, &"line".into(), &d.line.into());
        let _ = js_sys::Reflect::set(&err, &"column".into(), &d.column.into());
    }
    if let Ok(all) = to_js(diags) {
        let _ = js_sys::Reflect::set(&err, &"diagnostics".into(), &all);
    }
    err.into()
}

fn js_error(e: JsError) -> JsValue {
    e.into()
}

struct ValidateOptions {
    type_name: Option<String>,
    options: Vec<String>,
    k8s_version: Option<String>,
    gates: std::collections::BTreeMap<String, bool>,
    subresource: Option<String>,
    declarative_enforcement: bool,
    handwritten: Option<serde_json::Value>,
    normalization_rules: Vec<String>,
    short_circuit_mismatch: bool,
    defaults: bool,
}

impl ValidateOptions {
    fn from_js(value: JsValue) -> Result<ValidateOptions, JsError> {
        let mut f = Fields::from_js(value, "validate options are {type?, options?, k8sVersion?, gates?, subresource?, declarativeEnforcement?, handwritten?, normalizationRules?, shortCircuitMismatch?, defaults?}")?;
        let mut gates = std::collections::BTreeMap::new();
        match f.value("gates") {
            None => {}
            Some(serde_json::Value::Object(m)) => {
                for (k, v) in m {
                    let on = v
                        .as_bool()
                        .ok_or_else(|| into_error(format!("validate options: gate {k} must be true or false")))?;
                    gates.insert(k, on);
                }
            }
            Some(_) => return Err(into_error("validate options: `gates` must be an object of booleans")),
        }
        let opts = ValidateOptions {
            type_name: f.string("type")?,
            options: f.strings("options")?,
            k8s_version: f.string("k8sVersion")?,
            gates,
            subresource: f.string("subresource")?,
            declarative_enforcement: f.boolean("declarativeEnforcement")?.unwrap_or(true),
            handwritten: f.value("handwritten"),
            normalization_rules: f.strings("normalizationRules")?,
            short_circuit_mismatch: f.boolean("shortCircuitMismatch")?.unwrap_or(false),
            defaults: f.boolean("defaults")?.unwrap_or(true),
        };
        f.finish()?;
        Ok(opts)
    }
}

impl Default for ValidateOptions {
    fn default() -> Self {
        ValidateOptions {
            type_name: None,
            options: Vec::new(),
            k8s_version: None,
            gates: Default::default(),
            subresource: None,
            declarative_enforcement: true,
            handwritten: None,
            normalization_rules: Vec::new(),
            short_circuit_mismatch: false,
            defaults: true,
        }
    }
}

/// Types compiled once from Go source with `+k8s:` tags, to validate many objects.
#[wasm_bindgen(js_name = Schema)]
pub struct JsSchema {
    schema: Schema,
}

/// Compiles Go types with `+k8s:` tags. Throws an `Error` (with `line`, `column` and
/// `diagnostics`) when validation-gen would refuse them.
#[wasm_bindgen(js_name = compileTypes)]
pub fn compile_types(
    src: &str,
    #[wasm_bindgen(unchecked_param_type = "CompileOptions | null")] opts: Option<JsValue>,
) -> Result<JsSchema, JsValue> {
    let schema = match given(opts) {
        None => Schema::compile(src),
        Some(opts) => {
            let mut f = Fields::from_js(opts, "compile options are {imports?, k8sVersion?}")?;
            let minor = shadow::parse_version(f.string("k8sVersion")?.as_deref()).map_err(into_error)?;
            let imports = match f.value("imports") {
                None => serde_json::Map::new(),
                Some(serde_json::Value::Object(m)) => m,
                Some(_) => return Err(into_error("compile options: `imports` must be an object of Go sources").into()),
            };
            f.finish()?;
            let mut deps = Vec::with_capacity(imports.len());
            for (path, text) in &imports {
                let text = text
                    .as_str()
                    .ok_or_else(|| into_error(format!("compile options: imports[{path:?}] must be a string")))?;
                deps.push(Dependency { import_path: path, label: path, text });
            }
            Schema::compile_with(src, &deps, minor)
        }
    };
    if schema.has_errors() {
        return Err(diagnostics_error(&schema.diagnostics));
    }
    Ok(JsSchema { schema })
}

#[wasm_bindgen(js_class = Schema)]
impl JsSchema {
    /// Warnings about the types (tags understood but not evaluated yet, ...).
    #[wasm_bindgen(getter, unchecked_return_type = "Diagnostic[]")]
    pub fn diagnostics(&self) -> Result<JsValue, JsError> {
        to_js(&self.schema.diagnostics)
    }

    /// The declared type names.
    #[wasm_bindgen(getter, unchecked_return_type = "string[]")]
    pub fn types(&self) -> Result<JsValue, JsError> {
        to_js(&self.schema.type_names())
    }

    /// The validation options the tags mention.
    #[wasm_bindgen(getter, unchecked_return_type = "string[]")]
    pub fn options(&self) -> Result<JsValue, JsError> {
        to_js(self.schema.options())
    }

    /// Validates a plain JS object (as `JSON.parse` gives) or a YAML/JSON string: on update when `old` is given
    /// (ratcheting, immutable and update constraints), on create when it is `undefined`/`null`.
    #[wasm_bindgen(unchecked_return_type = "ValidationResult")]
    pub fn validate(
        &self,
        #[wasm_bindgen(unchecked_param_type = "object | string")] object: JsValue,
        #[wasm_bindgen(unchecked_param_type = "object | string | null")] old: Option<JsValue>,
        #[wasm_bindgen(unchecked_param_type = "ValidateOptions | null")] opts: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        let opts: ValidateOptions = match given(opts) {
            None => ValidateOptions::default(),
            Some(opts) => ValidateOptions::from_js(opts).map_err(js_error)?,
        };
        let root = self.schema.root(opts.type_name.as_deref()).map_err(|e| {
            js_error(into_error(match e {
                RootError::NoSuchType { name, types } => {
                    format!("no type {name:?}; the types are: {}", types.join(", "))
                }
                RootError::NoRoot { types: candidates } | RootError::Several { candidates } => {
                    format!("pick the type to validate with {{type: ...}}; candidates: {}", candidates.join(", "))
                }
            }))
        })?;
        let object = object_from_js(object, "the object")?;
        let old = given(old).map(|old| object_from_js(old, "the old object")).transpose()?;
        let gates: Vec<(&str, bool)> = opts.gates.iter().map(|(k, v)| (k.as_str(), *v)).collect();
        #[allow(unused_mut)]
        let mut config = Enforcement::from_request(opts.k8s_version.as_deref(), &gates, opts.declarative_enforcement)
            .map_err(|e| js_error(into_error(e)))?;
        let options = Options { enabled: opts.options, defaults: opts.defaults };
        // The comparison with handwritten errors is in `kubedv/full` (the core module's budget);
        // the core module marks each error enforced or not as the API server would return it
        // without handwritten errors.
        #[cfg(feature = "full")]
        let handwritten = {
            config
                .set_comparison(&opts.normalization_rules, opts.short_circuit_mismatch)
                .map_err(|e| js_error(into_error(e)))?;
            match &opts.handwritten {
                None => None,
                Some(serde_json::Value::String(text)) => Some(shadow::parse_handwritten(text)),
                Some(list) => Some(shadow::parse_handwritten(&list.to_string())),
            }
            .transpose()
            .map_err(|e| js_error(into_error(format!("handwritten: {e}"))))?
        };
        #[cfg(not(feature = "full"))]
        if opts.handwritten.is_some() || !opts.normalization_rules.is_empty() || opts.short_circuit_mismatch {
            return Err(js_error(into_error(
                "the comparison with handwritten errors (handwritten, normalizationRules, shortCircuitMismatch) is in the kubedv/full module",
            )));
        }
        let request = Request::new(root, &object, &config).old(old.as_ref()).subresource(opts.subresource.as_deref());
        let request = request.options(&options);
        #[cfg(feature = "full")]
        let request = request.compare_with(handwritten.as_deref());
        // Only a built-in kind's update is refused before validation (none here).
        let verdict = self.schema.check(&request).map_err(|Refusal::Update(why)| js_error(into_error(why)))?;
        let report = verdict.report;
        if report.errors.is_empty() && report.diagnostics.is_empty() && verdict.shadow.is_none() {
            return Ok(crate::tape::valid());
        }
        // The comparison's result is only in `kubedv/full` (its serializer is code too).
        #[derive(Serialize)]
        struct Document<'a> {
            errors: &'a [kubedv_core::field::Error],
            diagnostics: &'a [Diagnostic],
            #[cfg(feature = "full")]
            #[serde(skip_serializing_if = "Option::is_none")]
            shadow: Option<&'a shadow::Shadow>,
        }
        let doc = Document {
            errors: &report.errors,
            diagnostics: &report.diagnostics,
            #[cfg(feature = "full")]
            shadow: verdict.shadow.as_ref(),
        };
        to_js(&doc).map_err(js_error)
    }
}

/// Compiles `types` and validates `object` (against `old` on update) in one call (compile once
/// with `compileTypes` to validate many).
#[wasm_bindgen(unchecked_return_type = "ValidationResult")]
pub fn validate(
    types: &str,
    #[wasm_bindgen(unchecked_param_type = "object | string")] object: JsValue,
    #[wasm_bindgen(unchecked_param_type = "object | string | null")] old: Option<JsValue>,
    #[wasm_bindgen(unchecked_param_type = "ValidateOptions | null")] opts: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    compile_types(types, None)?.validate(object, old, opts)
}
