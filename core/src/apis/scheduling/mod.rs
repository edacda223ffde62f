//! The `scheduling.k8s.io` group: PriorityClass (v1), after Kubernetes'
//! `pkg/apis/scheduling/v1/defaults.go` (`SetDefaults_PriorityClass`),
//! `pkg/apis/scheduling/v1/helpers.go` (`IsKnownSystemPriorityClass`),
//! `pkg/apis/scheduling/validation/validation.go` (`ValidatePriorityClass`,
//! `ValidatePriorityClassUpdate`) and `pkg/registry/scheduling/priorityclass/strategy.go`
//! (`metadata.generation` 1 on create). No warnings.
//!
//! The workload-aware kinds of the group (Workload and PodGroup in v1beta1 and v1alpha3,
//! CompositePodGroup in v1alpha3) are served only with the `GenericWorkload` /
//! `CompositePodGroup` gates, both off by default in 1.37: not modeled.

#[cfg(test)]
mod tests;

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{json, Value as Json};

use super::Group;
use crate::apis::core::common::{forbidden, required};
use crate::apis::json::{field, int, opt_str, str};
use crate::field::{go_json, Error, Path};

/// The kinds this room models.
pub const KINDS: &[&str] = &["PriorityClass"];

/// `HighestUserDefinablePriority`.
const HIGHEST_USER_DEFINABLE_PRIORITY: i64 = 1_000_000_000;
/// `SystemCriticalPriority`.
const SYSTEM_CRITICAL_PRIORITY: i64 = 2 * HIGHEST_USER_DEFINABLE_PRIORITY;
/// `SystemPriorityClassPrefix`.
const SYSTEM_PREFIX: &str = "system-";
/// `systemPriorityClasses`: name, value (neither is a global default).
const SYSTEM_PRIORITY_CLASSES: &[(&str, i64)] =
    &[("system-node-critical", SYSTEM_CRITICAL_PRIORITY + 1000), ("system-cluster-critical", SYSTEM_CRITICAL_PRIORITY)];

/// `SetObjectDefaults_PriorityClass` of scheduling/v1: `preemptionPolicy` defaults to
/// `PreemptLowerPriority`.
pub fn default(version: &str, kind: &str, object: &mut Json) {
    if version == "v1" && kind == "PriorityClass" {
        // `if obj.PreemptionPolicy == nil`: an empty policy is kept (and refused).
        if let Json::Object(map) = object {
            if map.get("preemptionPolicy").is_none_or(Json::is_null) {
                map.insert(String::from("preemptionPolicy"), json!("PreemptLowerPriority"));
            }
        }
    }
}

/// `PrepareForCreate` (generation 1), then `ValidatePriorityClass` or
/// `ValidatePriorityClassUpdate` (metadata aside).
pub fn admit(group: &Group<'_>, object: &mut Json, old: Option<&Json>) -> (Vec<Error>, Vec<String>) {
    let mut errors = Vec::new();
    if group.kind != "PriorityClass" {
        return (errors, Vec::new());
    }
    match old {
        None => {
            if let Some(Json::Object(meta)) = object.get_mut("metadata") {
                meta.insert(String::from("generation"), json!(1));
            }
            validate_priority_class(object, &mut errors);
        }
        Some(old) => validate_priority_class_update(object, old, &mut errors),
    }
    (errors, Vec::new())
}

/// `IsKnownSystemPriorityClass`: `Err` with Go's error text when not.
pub(crate) fn is_known_system_priority_class(name: &str, value: i64, global_default: bool) -> Result<(), String> {
    match SYSTEM_PRIORITY_CLASSES.iter().find(|(n, _)| *n == name) {
        Some((n, v)) if *v != value => Err(format!("value of {n} PriorityClass must be {v}")),
        Some((n, _)) if global_default => Err(format!("globalDefault of {n} PriorityClass must be false")),
        Some(_) => Ok(()),
        None => Err(format!("{name} is not a known system priority class")),
    }
}

/// `ValidatePriorityClass` (its metadata aside).
pub(crate) fn validate_priority_class(pc: &Json, errors: &mut Vec<Error>) {
    let root = Path::root();
    let name = str(field(pc, "metadata"), "name");
    let value = int(pc, "value").unwrap_or(0);
    if name.starts_with(SYSTEM_PREFIX) {
        let global_default = crate::apis::json::bool(pc, "globalDefault").unwrap_or(false);
        if let Err(e) = is_known_system_priority_class(name, value, global_default) {
            let meta = root.child("metadata");
            errors.push(forbidden(
                &meta.child("name"),
                &format!(
                    "priority class names with '{SYSTEM_PREFIX}' prefix are reserved for system use only. error: {e}"
                ),
            ));
        }
    } else if value > HIGHEST_USER_DEFINABLE_PRIORITY {
        errors.push(forbidden(
            &root.child("value"),
            &format!("maximum allowed value of a user defined priority is {HIGHEST_USER_DEFINABLE_PRIORITY}"),
        ));
    }
    if let Some(policy) = opt_str(pc, "preemptionPolicy") {
        validate_preemption_policy(policy, &root.child("preemptionPolicy"), errors);
    }
}

/// core validation `ValidatePreemptionPolicy` (the policy a `*PreemptionPolicy`, printed as its
/// JSON).
fn validate_preemption_policy(policy: &str, path: &Path<'_>, errors: &mut Vec<Error>) {
    match policy {
        "PreemptLowerPriority" | "Never" => {}
        "" => errors.push(required(path, "")),
        other => {
            let mut e = Error::not_supported(path, other, &["PreemptLowerPriority", "Never"]);
            e.rendered_value = Some(go_json(&Json::from(other)));
            errors.push(e);
        }
    }
}

/// `ValidatePriorityClassUpdate` (its metadata aside): `value` and `preemptionPolicy` are
/// immutable.
pub(crate) fn validate_priority_class_update(pc: &Json, old: &Json, errors: &mut Vec<Error>) {
    let root = Path::root();
    if int(pc, "value").unwrap_or(0) != int(old, "value").unwrap_or(0) {
        errors.push(forbidden(&root.child("value"), "may not be changed in an update."));
    }
    let (policy, old_policy) = (opt_str(pc, "preemptionPolicy"), opt_str(old, "preemptionPolicy"));
    if policy.unwrap_or("") != old_policy.unwrap_or("") {
        let value = policy.map_or(Json::Null, Json::from);
        let mut e = Error::invalid(&root.child("preemptionPolicy"), value.clone(), "field is immutable");
        e.rendered_value = Some(go_json(&value));
        errors.push(e);
    }
}
