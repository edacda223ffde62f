//! Which params objects a binding gives its policy (apiserver
//! `pkg/admission/plugin/policy/generic/policy_dispatcher.go` `CollectParams`).
//!
//! Offline, the params objects are the ones given. A `paramKind` is namespaced unless it is a
//! cluster-scoped built-in kind or every given object of that kind has no namespace (the API
//! server knows from the kind's REST mapping; here the objects are the evidence, brought to
//! their stored namespaces first when a CRD given says the kind's scope: `PolicySet::as_stored`).

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value as Json;

use super::model::{ParamKind, ParamRef};
use super::request::cluster_scoped;
use super::selector::Selector;

/// The params to evaluate with: `None` is one evaluation with `params` null.
pub type Params<'a> = Vec<Option<&'a Json>>;

fn meta<'a>(o: &'a Json, key: &str) -> &'a str {
    o.get("metadata").and_then(|m| m.get(key)).and_then(Json::as_str).unwrap_or("")
}

/// `CollectParams`: the params objects of `kind` that `param_ref` selects, or the error the
/// API server reports (it becomes `failed to configure binding: <error>`).
pub fn collect<'a>(
    kind: Option<&ParamKind>,
    param_ref: Option<&ParamRef>,
    request_namespace: &str,
    available: &'a [Json],
) -> Result<Params<'a>, String> {
    let (Some(kind), Some(pref)) = (kind, param_ref) else {
        // No paramKind, or no paramRef: evaluated once with params null.
        return Ok(Vec::from([None]));
    };
    let of_kind: Vec<&Json> = available
        .iter()
        .filter(|o| {
            o.get("apiVersion").and_then(Json::as_str) == Some(kind.api_version.as_str())
                && o.get("kind").and_then(Json::as_str) == Some(kind.kind.as_str())
        })
        .collect();
    let namespaced =
        !cluster_scoped(&kind.kind) && (of_kind.is_empty() || of_kind.iter().any(|o| !meta(o, "namespace").is_empty()));
    let ref_namespace = pref.namespace.as_deref().unwrap_or("");
    let mut lookup_namespace = String::new();
    if namespaced {
        lookup_namespace = String::from(if ref_namespace.is_empty() { request_namespace } else { ref_namespace });
        if lookup_namespace.is_empty() {
            return Err(String::from(
                "cannot use namespaced paramRef in policy binding that matches cluster-scoped resources",
            ));
        }
    } else if !ref_namespace.is_empty() {
        return Err(String::from("paramRef.namespace must not be provided for a cluster-scoped `paramKind`"));
    }
    let in_scope = |o: &&&Json| !namespaced || meta(o, "namespace") == lookup_namespace;
    let name = pref.name.as_deref().unwrap_or("");
    let found: Vec<&Json> = if !name.is_empty() {
        if pref.selector.is_some() {
            return Err(String::from("paramRef.name and paramRef.selector are mutually exclusive"));
        }
        of_kind.iter().filter(in_scope).filter(|o| meta(o, "name") == name).copied().collect()
    } else if let Some(sel) = &pref.selector {
        let selector = Selector::parse(Some(sel))?;
        of_kind
            .iter()
            .filter(in_scope)
            .filter(|o| selector.matches(o.pointer("/metadata/labels").and_then(Json::as_object)))
            .copied()
            .collect()
    } else {
        return Err(String::from("one of name or selector must be provided"));
    };
    if found.is_empty() && pref.parameter_not_found_action.as_deref() == Some("Deny") {
        return Err(String::from("no params found for policy binding with `Deny` parameterNotFoundAction"));
    }
    Ok(found.into_iter().map(Some).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn kind() -> ParamKind {
        ParamKind { api_version: "example.com/v1".into(), kind: "ParamsConfig".into() }
    }

    fn pref(name: Option<&str>, ns: Option<&str>, action: &str) -> ParamRef {
        ParamRef {
            name: name.map(String::from),
            namespace: ns.map(String::from),
            selector: None,
            parameter_not_found_action: Some(action.into()),
        }
    }

    // apiserver validating/admission_test.go TestParamRef, TestNamespaceParamRefName,
    // TestInvalidParamSourceInstanceName, TestNamespaceParamRefClusterScopedParamError.
    #[test]
    fn cases() {
        let params = [
            json!({"apiVersion": "example.com/v1", "kind": "ParamsConfig", "metadata": {"name": "p", "namespace": "default", "labels": {"doesitmatch": "yes"}}}),
            json!({"apiVersion": "example.com/v1", "kind": "ParamsConfig", "metadata": {"name": "p", "namespace": "other"}}),
        ];
        let got = collect(Some(&kind()), Some(&pref(Some("p"), None, "Deny")), "other", &params).unwrap();
        assert_eq!(got, Vec::from([Some(&params[1])]));
        assert_eq!(
            collect(Some(&kind()), Some(&pref(Some("q"), None, "Deny")), "default", &params).unwrap_err(),
            "no params found for policy binding with `Deny` parameterNotFoundAction"
        );
        assert_eq!(
            collect(Some(&kind()), Some(&pref(Some("q"), None, "Allow")), "default", &params).unwrap(),
            Vec::new()
        );
        assert_eq!(
            collect(Some(&kind()), Some(&pref(Some("p"), None, "Deny")), "", &params).unwrap_err(),
            "cannot use namespaced paramRef in policy binding that matches cluster-scoped resources"
        );
        let mut sel = pref(None, Some("default"), "Deny");
        sel.selector = Some(json!({"matchLabels": {"doesitmatch": "yes"}}));
        assert_eq!(collect(Some(&kind()), Some(&sel), "", &params).unwrap(), Vec::from([Some(&params[0])]));
        assert_eq!(collect(None, Some(&sel), "", &params).unwrap(), Vec::from([None]));
        assert_eq!(collect(Some(&kind()), None, "", &params).unwrap(), Vec::from([None]));
        let cluster = ParamKind {
            api_version: "admissionregistration.k8s.io/v1".into(),
            kind: "ValidatingAdmissionPolicy".into(),
        };
        assert_eq!(
            collect(Some(&cluster), Some(&pref(Some("p"), Some("mynamespace"), "Deny")), "", &params).unwrap_err(),
            "paramRef.namespace must not be provided for a cluster-scoped `paramKind`"
        );
    }
}
