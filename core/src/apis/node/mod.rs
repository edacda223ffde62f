//! The `node.k8s.io` group: RuntimeClass (v1), after Kubernetes'
//! `pkg/apis/node/validation/validation.go` (`ValidateRuntimeClass`,
//! `ValidateRuntimeClassUpdate`, `validateOverhead`, `validateScheduling`,
//! `validateTolerations`), `pkg/registry/node/runtimeclass/strategy.go` (nothing to prepare;
//! `ValidateUpdate` runs the create's checks too) and `pkg/api/node/util.go`
//! (`GetWarningsForRuntimeClass`). No defaulting.

#[cfg(test)]
mod tests;

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{json, Value as Json};

use super::Group;
use crate::apis::core::common::{duplicate, is_dns1123_label, required, validate_labels};
use crate::apis::core::pod_warnings::node_label_deprecated;
use crate::apis::json::{get, list, object, str};
use crate::field::{go_json, Error, Path};

/// The kinds this room models.
pub const KINDS: &[&str] = &["RuntimeClass"];

/// `SetObjectDefaults_RuntimeClass`: node/v1 has none.
pub fn default(_version: &str, _kind: &str, _object: &mut Json) {}

/// The strategy, `ValidateRuntimeClass` (and on update `ValidateRuntimeClassUpdate`), metadata
/// aside, then `GetWarningsForRuntimeClass`.
pub fn admit(group: &Group<'_>, object: &mut Json, _old: Option<&Json>) -> (Vec<Error>, Vec<String>) {
    let object = &*object;
    let mut errors = Vec::new();
    if group.kind == "RuntimeClass" {
        // The strategy's ValidateUpdate runs ValidateRuntimeClass, then
        // ValidateRuntimeClassUpdate, whose only check (the handler immutable) is
        // `MarkCoveredByDeclarative`: the enforced beta `+k8s:immutable` of `handler` supersedes
        // it (apiserver `FilterCoveredHandwrittenErrors`), and the declarative error is the one
        // returned.
        validate_runtime_class(object, &mut errors);
    }
    (errors, warnings(object))
}

/// `ValidateRuntimeClass` (its metadata aside).
pub(crate) fn validate_runtime_class(rc: &Json, errors: &mut Vec<Error>) {
    let root = Path::root();
    let handler_path = root.child("handler");
    let handler = str(rc, "handler");
    // Both `MarkCoveredByDeclarative`: the beta +k8s:required and format of `handler` report
    // them as the API server returns them (63 bytes, where this says 63 characters).
    if handler.is_empty() {
        errors.push(required(&handler_path, "").covered());
    } else {
        for msg in is_dns1123_label(handler) {
            errors.push(Error::invalid(&handler_path, handler, msg).with_origin("format=k8s-short-name").covered());
        }
    }
    if let Some(overhead) = get(rc, "overhead") {
        // validateOverhead: ValidateContainerResourceRequirements of {Limits: podFixed}.
        let requirements = json!({ "limits": overhead.get("podFixed").cloned().unwrap_or(Json::Null) });
        crate::apis::core::pod_container_resources::validate_resource_requirements(
            &requirements,
            None,
            false,
            &root.child("overhead"),
            errors,
        );
    }
    if let Some(scheduling) = get(rc, "scheduling") {
        validate_scheduling(scheduling, &root.child("scheduling"), errors);
    }
}

/// `validateScheduling`.
fn validate_scheduling(scheduling: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    if let Some(selector) = object(scheduling, "nodeSelector") {
        validate_labels(Some(selector), &path.child("nodeSelector"), errors);
    }
    validate_tolerations(list(scheduling, "tolerations"), &path.child("tolerations"), errors);
}

/// `validateTolerations`: `ValidateTolerations`, then each toleration unique by key, operator,
/// value and effect.
fn validate_tolerations(tolerations: &[Json], path: &Path<'_>, errors: &mut Vec<Error>) {
    crate::apis::core::pod_fields::validate_tolerations(tolerations, path, errors);
    fn key(t: &Json) -> [&str; 4] {
        [str(t, "key"), str(t, "operator"), str(t, "value"), str(t, "effect")]
    }
    for (i, t) in tolerations.iter().enumerate() {
        if tolerations[..i].iter().any(|p| key(p) == key(t)) {
            let [k, op, v, effect] = key(t);
            // json.Marshal of the internal core.Toleration (no json tags).
            let seconds = get(t, "tolerationSeconds").map_or_else(|| String::from("null"), go_json);
            let rendered = format!(
                "{{\"Key\":{},\"Operator\":{},\"Value\":{},\"Effect\":{},\"TolerationSeconds\":{seconds}}}",
                go_json(&Json::from(k)),
                go_json(&Json::from(op)),
                go_json(&Json::from(v)),
                go_json(&Json::from(effect))
            );
            let mut e = duplicate(&path.index(i), t.clone());
            e.rendered_value = Some(rendered);
            errors.push(e);
        }
    }
}

/// `GetWarningsForRuntimeClass`: each deprecated node label of `scheduling.nodeSelector` (Go
/// walks the map in random order; this walks it sorted).
pub(crate) fn warnings(rc: &Json) -> Vec<String> {
    let Some(selector) = get(rc, "scheduling").and_then(|s| object(s, "nodeSelector")) else { return Vec::new() };
    selector
        .keys()
        .filter_map(|k| node_label_deprecated(k))
        .map(|msg| format!("scheduling.nodeSelector: {msg}"))
        .collect()
}
