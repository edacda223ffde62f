//! CRD validation for JavaScript: `compileCrd` → `CrdValidator` (validate many custom
//! resources), and the one-shot `validateCrd`.

use kubedv_core::crd::{Crd, Options as CheckOptions};
use kubedv_core::declarative::shadow;
use wasm_bindgen::prelude::*;

use crate::{given, object_from_js, to_js};

#[wasm_bindgen(typescript_custom_section)]
const TS_CRD: &str = r#"
/** Options for `compileCrd` / `validateCrd`. */
export interface CrdOptions {
  /** The CRD version to validate against (default: the storage version). */
  version?: string;
  /** Apply the schema's defaults before validating, as the API server does (default: true). */
  defaults?: boolean;
  /** The Kubernetes version (`"1.37"`) whose API server is modeled (default: the newest): its
   * rules are compiled in that server's CEL environment for new expressions. */
  k8sVersion?: string;
}

/** What CRD validation returns: Kubernetes' field errors, in the API server's order. */
export interface CrdResult {
  errors: FieldError[];
  /** The API server's warnings: unknown fields it prunes (`unknown field "spec.foo"`), and on update the errors of rules ratcheting let pass (the error's text), as validation.go `addErr` sends them. */
  warnings: string[];
  /** The object as the API server validates and stores it: pruned, nulls dropped, defaulted. */
  object: object;
  /** An update whose object names another object than the old one: the API server refuses it
   *  before validation (a Bad Request, these words), and `errors` is empty. */
  refusal?: string;
}
"#;

/// A thrown `Error` for a CRD the API server would refuse, with its `errors` attached.
fn refused(errors: &[kubedv_core::field::Error]) -> JsValue {
    let first = errors.first().map_or_else(|| String::from("invalid CRD"), |e| e.text());
    let err = js_sys::Error::new(&format!("the API server would refuse this CRD: {first}"));
    if let Ok(all) = to_js(errors) {
        let _ = js_sys::Reflect::set(&err, &"errors".into(), &all);
    }
    err.into()
}

#[derive(Default)]
struct Options {
    version: Option<String>,
    defaults: Option<bool>,
    k8s_version: Option<String>,
}

/// A loaded CRD version.
#[wasm_bindgen(js_name = CrdValidator)]
pub struct JsCrd {
    crd: Crd,
    options: CheckOptions,
}

/// Loads a CRD (`apiextensions.k8s.io/v1`, as an object) for validating its custom resources;
/// throws when a version has no schema or a rule does not compile or exceeds its cost budget.
/// The checks of the CRD itself (metadata, names, structural schema, keywords, conversion, …:
/// `ValidateCustomResourceDefinition`) are not in this module, to keep it within its size
/// budget: the module `kubedv/full` (the same API with them), the CLI's `kubedv crd` and the
/// playground run them.
#[wasm_bindgen(js_name = compileCrd)]
pub fn compile_crd(
    #[wasm_bindgen(unchecked_param_type = "object | string")] crd: JsValue,
    #[wasm_bindgen(unchecked_param_type = "CrdOptions | null")] options: Option<JsValue>,
) -> Result<JsCrd, JsValue> {
    let doc = object_from_js(crd, "the CRD")?;
    let opts: Options = match given(options) {
        None => Options::default(),
        Some(options) => {
            let mut f = crate::Fields::from_js(options, "CRD options: {version?, defaults?, k8sVersion?}")?;
            let opts = Options {
                version: f.string("version")?,
                defaults: f.boolean("defaults")?,
                k8s_version: f.string("k8sVersion")?,
            };
            f.finish()?;
            opts
        }
    };
    let minor = shadow::parse_version(opts.k8s_version.as_deref()).map_err(crate::into_error)?;
    let crd = Crd::load_at(&doc, opts.version.as_deref(), minor).map_err(|e| refused(&e))?;
    Ok(JsCrd { crd, options: CheckOptions { defaults: opts.defaults.unwrap_or(true) } })
}

#[wasm_bindgen(js_class = CrdValidator)]
impl JsCrd {
    /// Validates a custom resource (and, for an update, its old version).
    #[wasm_bindgen(unchecked_return_type = "CrdResult")]
    pub fn validate(
        &self,
        #[wasm_bindgen(unchecked_param_type = "object | string")] object: JsValue,
        #[wasm_bindgen(unchecked_param_type = "object | string | null")] old: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        let obj = object_from_js(object, "the object")?;
        let old = given(old).map(|old| object_from_js(old, "the old object")).transpose()?;
        let outcome = self.crd.check(&obj, old.as_ref(), &self.options);
        let mut doc =
            serde_json::json!({ "errors": outcome.errors, "warnings": outcome.warnings, "object": outcome.object });
        if let Some(refusal) = outcome.refusal {
            doc["refusal"] = refusal.into();
        }
        Ok(to_js(&doc)?)
    }

    /// The CRD's kind.
    #[wasm_bindgen(getter)]
    pub fn kind(&self) -> String {
        self.crd.kind.clone()
    }

    /// The version in use.
    #[wasm_bindgen(getter)]
    pub fn version(&self) -> String {
        self.crd.version.clone()
    }
}

/// One-shot: load the CRD and validate one object.
#[wasm_bindgen(js_name = validateCrd, unchecked_return_type = "CrdResult")]
pub fn validate_crd(
    #[wasm_bindgen(unchecked_param_type = "object | string")] crd: JsValue,
    #[wasm_bindgen(unchecked_param_type = "object | string")] object: JsValue,
    #[wasm_bindgen(unchecked_param_type = "object | string | null")] old: Option<JsValue>,
    #[wasm_bindgen(unchecked_param_type = "CrdOptions | null")] options: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    compile_crd(crd, options)?.validate(object, old)
}
