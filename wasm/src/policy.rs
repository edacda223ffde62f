//! Admission policies for JavaScript: `compilePolicies` → `PolicySet` (evaluate many requests),
//! and the one-shot `evaluatePolicies`.

use kubedv_core::cel::k8s::authz::Rule;
use kubedv_core::declarative::shadow;
use kubedv_core::policy::{is_policy_document, PolicySet, Request, UserInfo};
use wasm_bindgen::prelude::*;

use crate::{from_js, into_error, to_js, Fields};

#[wasm_bindgen(typescript_custom_section)]
const TS_POLICY: &str = r#"
/** A request to admission policies; what is not given is taken from the objects. */
export interface PolicyRequest {
  /** The object (none for DELETE). */
  object?: object | null;
  /** The existing object (UPDATE, DELETE). */
  oldObject?: object | null;
  /** CREATE, UPDATE, DELETE or CONNECT (default: from which objects are given). */
  operation?: string;
  /** The request's namespace as an object: its labels decide `namespaceSelector`. */
  namespaceObject?: object | null;
  /** The requesting user. */
  userInfo?: { username?: string; groups?: string[] };
  /** What the authorizer allows, as `user=alice,verb=create,apiGroup=apps,resource=deployments`. */
  allow?: string[];
  /** Params objects (besides those given to `compilePolicies`). */
  params?: object[];
  subResource?: string;
  /** The resource (plural) when it is not the kind's usual plural. */
  resource?: string;
  namespace?: string;
  dryRun?: boolean;
}

/** A denial, as the API server returns it. */
export interface PolicyDenial {
  policy: string;
  binding?: string;
  message: string;
  reason: string;
  code: number;
  /** `ValidatingAdmissionPolicy 'p' with binding 'b' denied request: <message>`. */
  text: string;
}

/** What the API server decides about a request. */
export interface PolicyOutcome {
  allowed: boolean;
  denials: PolicyDenial[];
  /** The status returned for a denied request (`deployments.apps "web" is forbidden: ...`). */
  status?: { message: string; reason: string; code: number };
  warnings: string[];
  auditAnnotations: Record<string, string>;
  /** Every policy × binding (× params object) considered, whether it matched and why. */
  evaluations: {
    policy: string;
    binding?: string;
    params?: string;
    matched: boolean;
    why: string;
    validations: { expression: string; result: boolean | string; message?: string; cost: number }[];
  }[];
  /** The object after the mutating policies, if they changed it. */
  patched: object | null;
  /** The JSON Patch from the request's object to `patched`. */
  patch: object[];
  /** What kubedv cannot evaluate as the API server would: the verdict is then unknown. */
  unsupported?: string[];
}

/** Options for `compilePolicies`. */
export interface PolicyOptions {
  /** The Kubernetes version (`"1.37"`) whose API server is modeled (default: the newest): the
   * expressions are compiled in that server's CEL environment for new expressions. */
  k8sVersion?: string;
}

/** A policy, binding or params document the API server would refuse (or that does nothing). */
export interface PolicyProblem {
  severity: "error" | "warning";
  document: string;
  field?: string;
  message: string;
}
"#;

/// Policies and bindings, compiled once.
#[wasm_bindgen(js_name = PolicySet)]
pub struct JsPolicySet {
    set: PolicySet,
    params: Vec<serde_json::Value>,
}

/// Compiles policies, bindings and params (documents, or a YAML/JSON string of several).
#[wasm_bindgen(js_name = compilePolicies)]
pub fn compile_policies(
    #[wasm_bindgen(unchecked_param_type = "object[] | string")] documents: JsValue,
    #[wasm_bindgen(unchecked_param_type = "PolicyOptions | null")] options: Option<JsValue>,
) -> Result<JsPolicySet, JsValue> {
    let version = match crate::given(options) {
        None => None,
        Some(options) => {
            let mut f = Fields::from_js(options, "policy options: {k8sVersion?}")?;
            let version = f.string("k8sVersion")?;
            f.finish()?;
            version
        }
    };
    let minor = shadow::parse_version(version.as_deref()).map_err(into_error)?;
    let docs: Vec<serde_json::Value> = match documents.as_string() {
        Some(text) => {
            kubedv_input::documents(&text).map_err(|e| JsValue::from(into_error(format!("the policies: {e}"))))?
        }
        None => from_js(documents, "compilePolicies(documents: object[] | string)")?,
    };
    let (policies, params): (Vec<_>, Vec<_>) = docs.into_iter().partition(is_policy_document);
    Ok(JsPolicySet { set: PolicySet::new_at(&policies, minor), params })
}

fn request(value: JsValue) -> Result<(Request, Vec<serde_json::Value>, Vec<Rule>), JsValue> {
    let mut f = Fields::from_js(value, "PolicyRequest: {object?, oldObject?, operation?, namespaceObject?, userInfo?, allow?, params?, subResource?, resource?, namespace?, dryRun?}")?;
    let mut req = Request {
        object: f.value("object"),
        old_object: f.value("oldObject"),
        operation: f.string("operation")?.unwrap_or_default().to_ascii_uppercase(),
        namespace_object: f.value("namespaceObject"),
        sub_resource: f.string("subResource")?.unwrap_or_default(),
        namespace: f.string("namespace")?.unwrap_or_default(),
        dry_run: f.boolean("dryRun")?.unwrap_or(false),
        ..Request::default()
    };
    if let Some(user) = f.value("userInfo") {
        let s = |k: &str| user.get(k).and_then(|v| v.as_str()).unwrap_or("").to_string();
        let groups = user
            .get("groups")
            .and_then(|g| g.as_array())
            .map(|g| g.iter().filter_map(|x| x.as_str().map(String::from)).collect())
            .unwrap_or_default();
        req.user = UserInfo { username: s("username"), uid: s("uid"), groups, ..UserInfo::default() };
    }
    req.resource.resource = f.string("resource")?.unwrap_or_default();
    let allow = f
        .strings("allow")?
        .iter()
        .map(|a| Rule::parse(a).map_err(|e| JsValue::from(into_error(format!("allow {a:?}: {e}")))))
        .collect::<Result<Vec<_>, _>>()?;
    let params = match f.value("params") {
        Some(serde_json::Value::Array(p)) => p,
        Some(_) => return Err(into_error("PolicyRequest: `params` must be a list of objects").into()),
        None => Vec::new(),
    };
    f.finish()?;
    if req.object.is_none() && req.old_object.is_none() {
        return Err(into_error("PolicyRequest: give `object` (or `oldObject` for a DELETE)").into());
    }
    if !matches!(req.operation.as_str(), "" | "CREATE" | "UPDATE" | "DELETE" | "CONNECT") {
        return Err(into_error(format!(
            "PolicyRequest: operation {:?}: expected CREATE, UPDATE, DELETE or CONNECT",
            req.operation
        ))
        .into());
    }
    req.infer();
    Ok((req, params, allow))
}

#[wasm_bindgen(js_class = PolicySet)]
impl JsPolicySet {
    /// Evaluates a request as the API server would.
    #[wasm_bindgen(unchecked_return_type = "PolicyOutcome")]
    pub fn evaluate(
        &self,
        #[wasm_bindgen(unchecked_param_type = "PolicyRequest")] request_value: JsValue,
    ) -> Result<JsValue, JsValue> {
        let (req, mut params, allow) = request(request_value)?;
        params.extend(self.params.iter().cloned());
        let outcome = self.set.evaluate(&req, &params, &allow);
        Ok(to_js(&outcome)?)
    }

    /// The documents the API server would refuse, and bindings that do nothing.
    #[wasm_bindgen(getter, unchecked_return_type = "PolicyProblem[]")]
    pub fn problems(&self) -> Result<JsValue, JsValue> {
        Ok(to_js(&self.set.problems)?)
    }
}

/// One-shot: compile `documents` (policies, bindings, params) and evaluate one request. Throws
/// when the API server would refuse a policy.
#[wasm_bindgen(js_name = evaluatePolicies, unchecked_return_type = "PolicyOutcome")]
pub fn evaluate_policies(
    #[wasm_bindgen(unchecked_param_type = "object[] | string")] documents: JsValue,
    #[wasm_bindgen(unchecked_param_type = "PolicyRequest")] request_value: JsValue,
) -> Result<JsValue, JsValue> {
    let set = compile_policies(documents, None)?;
    if let Some(p) = set.set.problems.iter().find(|p| p.severity == kubedv_core::diag::Severity::Error) {
        let field = if p.field.is_empty() { String::new() } else { format!("{}: ", p.field) };
        let err = js_sys::Error::new(&format!("the API server would refuse {}: {field}{}", p.document, p.message));
        if let Ok(all) = to_js(&set.set.problems) {
            let _ = js_sys::Reflect::set(&err, &"problems".into(), &all);
        }
        return Err(err.into());
    }
    set.evaluate(request_value)
}
