//! The `admissionregistration.k8s.io` group, after Kubernetes'
//! `pkg/apis/admissionregistration/validation`, `pkg/apis/admissionregistration/{v1,v1beta1,
//! v1alpha1}/defaults.go` and `pkg/registry/admissionregistration/*/strategy.go`:
//!
//! - `webhook`: ValidatingWebhookConfiguration and MutatingWebhookConfiguration (v1);
//! - ValidatingAdmissionPolicy, MutatingAdmissionPolicy and their bindings (v1, v1beta1 and
//!   v1alpha1 as 1.37 serves them): [`crate::policy::validation`], the one copy of these checks,
//!   which `kubedv policy` runs too.
//!
//! This module holds the strategies: `PrepareForCreate` / `PrepareForUpdate` (generation, a
//! ValidatingAdmissionPolicy's status), `Validate` (with `ValidateStaticSuffix` on 1.37+, where
//! `ManifestBasedAdmissionControlConfig` is on) / `ValidateUpdate`, and the warnings
//! (`WarningsForStaticSuffix`, `WarningsForXWebhookRules`). The strategies' authorization of a
//! policy's `paramKind` (`authorizeCreate`) is not modeled: it passes for a cluster admin.
//!
//! Expressions are compiled with the admission CEL environment, which the `policy` feature
//! brings: without it this room models no kind.

#[cfg(test)]
mod tests;
#[cfg(feature = "policy")]
mod webhook;

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value as Json;

use super::Group;
use crate::field::Error;

/// The kinds this room models.
#[cfg(feature = "policy")]
pub const KINDS: &[&str] = &[
    "ValidatingWebhookConfiguration",
    "MutatingWebhookConfiguration",
    "ValidatingAdmissionPolicy",
    "ValidatingAdmissionPolicyBinding",
    "MutatingAdmissionPolicy",
    "MutatingAdmissionPolicyBinding",
];
/// The kinds this room models.
#[cfg(not(feature = "policy"))]
pub const KINDS: &[&str] = &[];

/// `SetObjectDefaults_X` of the served version for one kind.
pub fn default(version: &str, kind: &str, object: &mut Json) {
    #[cfg(feature = "policy")]
    match kind {
        "ValidatingWebhookConfiguration" => webhook::default(false, object),
        "MutatingWebhookConfiguration" => webhook::default(true, object),
        _ => crate::policy::validation::default(version, kind, object),
    }
    #[cfg(not(feature = "policy"))]
    let _ = (version, kind, object);
}

/// The strategy, validation and warnings of one request.
#[cfg(feature = "policy")]
pub fn admit(group: &Group<'_>, object: &mut Json, old: Option<&Json>) -> (Vec<Error>, Vec<String>) {
    use crate::policy::validation::{self as v, Options};
    let kind = group.kind;
    let minor = group.context.minor;
    let is_webhook = matches!(kind, "ValidatingWebhookConfiguration" | "MutatingWebhookConfiguration");
    prepare(kind, object, old);
    let object = &*object;
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    if is_webhook {
        let mutating = kind == "MutatingWebhookConfiguration";
        match old {
            None => {
                webhook::validate(object, mutating, &Options::create(minor), &mut errors);
                v::validate_static_suffix(object, minor, &mut errors);
            }
            Some(old) => webhook::validate(object, mutating, &webhook::update_options(object, old, minor), &mut errors),
        }
    } else if let Some(e) = v::validate(kind, object, old, minor) {
        errors = e;
    }
    // WarningsForStaticSuffix (ManifestBasedAdmissionControlConfig, alpha in 1.36, on since
    // 1.37): WarningsOnCreate while the gate is off, WarningsOnUpdate always.
    if (old.is_some() && minor >= 36) || minor == 36 {
        warnings.extend(v::static_suffix_warnings(object));
    }
    if is_webhook && minor >= 37 {
        warnings.extend(webhook::rule_warnings(object));
    }
    (errors, warnings)
}

/// The strategy, validation and warnings of one request (no kind without the `policy` feature).
#[cfg(not(feature = "policy"))]
pub fn admit(_group: &Group<'_>, _object: &mut Json, _old: Option<&Json>) -> (Vec<Error>, Vec<String>) {
    (Vec::new(), Vec::new())
}

/// `PrepareForCreate` / `PrepareForUpdate`: `metadata.generation` 1 on create, the old one
/// bumped when the webhooks (`reflect.DeepEqual`) or the spec (`Semantic.DeepEqual`) changed;
/// a ValidatingAdmissionPolicy's status reset on create, kept from the old object on update.
#[cfg(feature = "policy")]
fn prepare(kind: &str, object: &mut Json, old: Option<&Json>) {
    use crate::apis::json::field;
    use crate::policy::validation::semantic_eq;
    use serde_json::{json, Map};
    let generation = match old {
        None => 1,
        Some(old) => {
            let changed = match kind {
                "ValidatingWebhookConfiguration" | "MutatingWebhookConfiguration" => {
                    field(object, "webhooks") != field(old, "webhooks")
                }
                _ => !semantic_eq(field(object, "spec"), field(old, "spec")),
            };
            let before = field(field(old, "metadata"), "generation").as_i64().unwrap_or(0);
            before.saturating_add(i64::from(changed))
        }
    };
    let status = old.and_then(|o| o.get("status")).cloned();
    let Json::Object(map) = object else { return };
    if kind == "ValidatingAdmissionPolicy" {
        match (old, status) {
            (None, _) => {
                map.insert(String::from("status"), Json::Object(Map::new()));
            }
            (Some(_), Some(s)) => {
                map.insert(String::from("status"), s);
            }
            (Some(_), None) => {
                map.remove("status");
            }
        }
    }
    if let Some(Json::Object(meta)) = map.get_mut("metadata") {
        meta.insert(String::from("generation"), json!(generation));
    }
}
