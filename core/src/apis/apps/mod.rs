//! The apps group, after Kubernetes' `pkg/apis/apps/validation`, `pkg/apis/apps/v1/defaults.go` and
//! `pkg/registry/apps/*/strategy.go`:
//!
//! - [`defaults`]: `SetObjectDefaults_X` of apps/v1;
//! - `deployment`: Deployment and ReplicaSet (and the template checks they share);
//! - `statefulset`: StatefulSet;
//! - `daemonset`: DaemonSet and ControllerRevision;
//! - `selector`, `common`: label selectors and small helpers, shared with batch.
//!
//! This module holds the strategies (`PrepareForCreate`, `PrepareForUpdate`, `WarningsOnCreate`,
//! `WarningsOnUpdate` of `pkg/registry/apps/{deployment,replicaset,statefulset,daemonset,
//! controllerrevision}/strategy.go`). `pod.DropDisabledTemplateFields` is not applied here.

pub(crate) mod common;
mod daemonset;
pub mod defaults;
pub(crate) mod deployment;
pub(crate) mod selector;
mod statefulset;
#[cfg(test)]
pub(crate) mod tests;

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{json, Map, Value as Json};

use super::Group;
use crate::apis::json::field;
use crate::field::{Error, Path};

/// The kinds this room models.
pub const KINDS: &[&str] = &["Deployment", "ReplicaSet", "StatefulSet", "DaemonSet", "ControllerRevision"];

/// `SetObjectDefaults_X` of the served version for one kind.
pub fn default(version: &str, kind: &str, object: &mut Json) {
    if version == "v1" {
        defaults::default(kind, object);
    }
}

/// The strategy, validation and warnings of one request.
pub fn admit(group: &Group<'_>, object: &mut Json, old: Option<&Json>) -> (Vec<Error>, Vec<String>) {
    let kind = group.kind;
    let mut context = group.context;
    context.template = crate::apis::core::pod::template_opts(old.and_then(pod_template));
    let ctx = &context;
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    if kind == "ControllerRevision" {
        daemonset::validate_controller_revision(object, old, &mut errors);
        return (errors, warnings);
    }
    // PrepareForCreate / PrepareForUpdate: status, generation.
    let generation_changed = match old {
        None => {
            prepare_create(object);
            true
        }
        Some(old) => {
            let (spec, old_spec) = (field(object, "spec"), field(old, "spec"));
            let changed = match kind {
                "Deployment" => {
                    let annotations = |o: &Json| field(field(o, "metadata"), "annotations").clone();
                    !common::same(spec, old_spec) || !common::same(&annotations(object), &annotations(old))
                }
                // The DaemonSet's templateGeneration follows its template, which its warnings
                // are keyed on.
                "DaemonSet" => !common::same(field(spec, "template"), field(old_spec, "template")),
                _ => !common::same(spec, old_spec),
            };
            prepare_update(object, old, changed || (kind == "DaemonSet" && !common::same(spec, old_spec)));
            changed
        }
    };
    let object = &*object;
    match kind {
        "Deployment" => deployment::validate_deployment(object, old, ctx, &mut errors),
        "ReplicaSet" => deployment::validate_replica_set(object, old, ctx, &mut errors),
        "StatefulSet" => statefulset::validate(object, old, ctx, &mut errors),
        "DaemonSet" => daemonset::validate(object, old, ctx, &mut errors),
        _ => {}
    }
    if old.is_none() && matches!(kind, "Deployment" | "ReplicaSet") {
        warnings.extend(common::name_warning(object));
    }
    if generation_changed {
        let root = Path::root();
        let spec = root.child("spec");
        let path = spec.child("template");
        let template = field(field(object, "spec"), "template");
        warnings.extend(crate::apis::core::pod::pod_template_warnings(template, &path));
    }
    if kind == "StatefulSet" {
        statefulset::warnings(object, old.is_some(), &mut warnings);
    }
    (errors, warnings)
}

/// The pod template of a workload: `spec.template`, or a CronJob's
/// `spec.jobTemplate.spec.template`.
pub(crate) fn pod_template(object: &Json) -> Option<&Json> {
    let spec = object.get("spec")?;
    spec.get("template").or_else(|| spec.get("jobTemplate")?.get("spec")?.get("template"))
}

fn pod_template_mut(object: &mut Json) -> Option<&mut Json> {
    let spec = object.get_mut("spec")?;
    if spec.get("template").is_some() {
        return spec.get_mut("template");
    }
    spec.get_mut("jobTemplate")?.get_mut("spec")?.get_mut("template")
}

/// `pod.DropDisabledTemplateFields`, which every workload strategy calls first: fields of
/// gates off in the release go, unless the old template uses them.
fn drop_disabled(object: &mut Json, old: Option<&Json>) {
    let old_template = old.and_then(pod_template).cloned();
    if let Some(template) = pod_template_mut(object) {
        crate::apis::core::pod::drop_disabled_template_fields(template, old_template.as_ref());
    }
}

/// `PrepareForCreate`: the template's disabled fields dropped, the status reset,
/// `metadata.generation` 1.
pub(crate) fn prepare_create(object: &mut Json) {
    drop_disabled(object, None);
    if let Json::Object(map) = object {
        map.insert(String::from("status"), Json::Object(Map::new()));
        if let Some(Json::Object(meta)) = map.get_mut("metadata") {
            meta.insert(String::from("generation"), json!(1));
        }
    }
}

/// `PrepareForUpdate`: the template's disabled fields dropped, the old status kept, the old
/// generation, bumped when `changed`.
pub(crate) fn prepare_update(object: &mut Json, old: &Json, changed: bool) {
    drop_disabled(object, Some(old));
    let status = old.get("status").cloned();
    let generation = field(field(old, "metadata"), "generation").as_i64().unwrap_or(0);
    if let Json::Object(map) = object {
        match status {
            Some(s) => map.insert(String::from("status"), s),
            None => map.remove("status"),
        };
        if let Some(Json::Object(meta)) = map.get_mut("metadata") {
            meta.insert(String::from("generation"), json!(generation.saturating_add(i64::from(changed))));
        }
    }
}
