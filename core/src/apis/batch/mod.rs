//! The batch group, after Kubernetes' `pkg/apis/batch/validation`, `pkg/apis/batch/v1/defaults.go` and
//! `pkg/registry/batch/*/strategy.go`:
//!
//! - `job`: Job validation (and the job spec a CronJob's template shares);
//! - `cronjob`: CronJob validation; `cron`: robfig/cron's schedule parser; `zones`: the time
//!   zone names Go's embedded database knows.
//!
//! This module holds the defaulting (`SetDefaults_Job`, `SetDefaults_CronJob`,
//! `SetDefaults_PodFailurePolicyOnPodConditionsPattern` in `zz_generated.defaults.go`'s order) and
//! the strategies (`PrepareForCreate` with `generateSelector`, `PrepareForUpdate`,
//! `job.DropDisabledFields`, `WarningsOnCreate`, `WarningsOnUpdate`).
//! `pod.DropDisabledTemplateFields` is not applied here.

pub mod cron;
mod cronjob;
pub(crate) mod job;
#[cfg(test)]
mod tests;
pub mod zones;

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{json, Map, Value as Json};

use super::Group;
use crate::apis::apps::{common, prepare_create, prepare_update};
use crate::apis::json::{default_to, field, get, list_mut, str, struct_mut};
use crate::field::{Error, Path};

/// The kinds this room models.
pub const KINDS: &[&str] = &["Job", "CronJob"];

/// The uid kubedv gives a Job being created: the API server's is a fresh random UUID, which
/// `generateSelector` writes into the template's labels and the selector.
pub const PLACEHOLDER_UID: &str = "00000000-0000-0000-0000-000000000000";

/// The suffix standing for the random one the API server appends to `generateName`.
const GENERATED_SUFFIX: &str = "xxxxx";

/// `SetObjectDefaults_X` of the served version for one kind.
pub fn default(version: &str, kind: &str, object: &mut Json) {
    if version != "v1" {
        return;
    }
    match kind {
        "Job" => default_job(object),
        "CronJob" => default_cron_job(object),
        _ => {}
    }
}

/// `if x == nil { x = &v }` for a pointer (an empty string is a set value).
fn set_if_nil(v: &mut Json, key: &str, value: Json) {
    if let Json::Object(map) = v {
        if map.get(key).is_none_or(Json::is_null) {
            map.insert(String::from(key), value);
        }
    }
}

/// The pod-failure-policy patterns' status (`SetDefaults_PodFailurePolicyOnPodConditionsPattern`),
/// then the pod template's defaults.
fn default_job_spec_nested(spec: &mut Json) {
    if let Some(policy) = spec.get_mut("podFailurePolicy").filter(|p| p.is_object()) {
        for rule in list_mut(policy, "rules") {
            for pattern in list_mut(rule, "onPodConditions") {
                default_to(pattern, "status", json!("True"));
            }
        }
    }
    if let Some(template) = struct_mut(spec, "template") {
        crate::apis::core::pod::default_pod_template_spec(template);
    }
}

/// `SetObjectDefaults_Job`.
fn default_job(object: &mut Json) {
    let Some(spec) = struct_mut(object, "spec") else { return };
    // SetDefaults_Job.
    let has = |s: &Json, k: &str| get(s, k).is_some();
    if !has(spec, "completions") && !has(spec, "parallelism") {
        set_if_nil(spec, "completions", json!(1));
    }
    set_if_nil(spec, "parallelism", json!(1));
    let backoff = if has(spec, "backoffLimitPerIndex") { i64::from(i32::MAX) } else { 6 };
    set_if_nil(spec, "backoffLimit", json!(backoff));
    let template_labels = get(field(spec, "template"), "metadata").and_then(|m| get(m, "labels")).cloned();
    set_if_nil(spec, "completionMode", json!("NonIndexed"));
    set_if_nil(spec, "suspend", json!(false));
    let replacement = if has(spec, "podFailurePolicy") { "Failed" } else { "TerminatingOrFailed" };
    set_if_nil(spec, "podReplacementPolicy", json!(replacement));
    set_if_nil(spec, "manualSelector", json!(false));
    default_job_spec_nested(spec);
    if let Some(labels) = template_labels {
        let own_empty = field(field(object, "metadata"), "labels").as_object().is_none_or(Map::is_empty);
        if own_empty {
            if let Some(meta) = struct_mut(object, "metadata") {
                if let Some(m) = meta.as_object_mut() {
                    m.insert(String::from("labels"), labels);
                }
            }
        }
    }
}

/// `SetObjectDefaults_CronJob` (the job template gets no `SetDefaults_Job`).
fn default_cron_job(object: &mut Json) {
    let Some(spec) = struct_mut(object, "spec") else { return };
    default_to(spec, "concurrencyPolicy", json!("Allow"));
    set_if_nil(spec, "suspend", json!(false));
    set_if_nil(spec, "successfulJobsHistoryLimit", json!(3));
    set_if_nil(spec, "failedJobsHistoryLimit", json!(1));
    if let Some(template) = struct_mut(spec, "jobTemplate") {
        if let Some(job_spec) = struct_mut(template, "spec") {
            default_job_spec_nested(job_spec);
        }
    }
}

/// The strategy, validation and warnings of one request.
pub fn admit(group: &Group<'_>, object: &mut Json, old: Option<&Json>) -> (Vec<Error>, Vec<String>) {
    let mut context = group.context;
    context.template = crate::apis::core::pod::template_opts(old.and_then(crate::apis::apps::pod_template));
    let ctx = &context;
    let cron = group.kind == "CronJob";
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    // job.DropDisabledFields: WorkloadWithJob is off; scheduling stays only where the old had it.
    let old_scheduling = |o: Option<&Json>| {
        o.map(|o| if cron { field(field(field(o, "spec"), "jobTemplate"), "spec") } else { field(o, "spec") })
            .is_some_and(|s| get(s, "scheduling").is_some())
    };
    if !old_scheduling(old) {
        let spec = if cron {
            object.get_mut("spec").and_then(|s| s.get_mut("jobTemplate")).and_then(|t| t.get_mut("spec"))
        } else {
            object.get_mut("spec")
        };
        if let Some(Json::Object(spec)) = spec {
            spec.remove("scheduling");
        }
    }
    let meta = field(object, "metadata");
    let name = match str(meta, "name") {
        "" if !str(meta, "generateName").is_empty() => format!("{}{GENERATED_SUFFIX}", str(meta, "generateName")),
        n => String::from(n),
    };
    let generation_changed = match old {
        None => {
            if !cron {
                generate_selector(object, &name);
            }
            prepare_create(object);
            true
        }
        Some(old) => {
            let changed = !common::same(field(object, "spec"), field(old, "spec"));
            prepare_update(object, old, changed);
            changed
        }
    };
    let object = &*object;
    match (cron, old) {
        (false, None) => job::validate_create(object, PLACEHOLDER_UID, &name, ctx, &mut errors),
        (false, Some(old)) => job::validate_update(object, old, ctx, &mut errors),
        (true, _) => cronjob::validate(object, old, ctx, &mut errors),
    }
    if old.is_none() {
        warnings.extend(common::name_warning(object));
    }
    let root = Path::root();
    let spec_path = root.child("spec");
    if generation_changed {
        let spec = field(object, "spec");
        if cron {
            let template_path = spec_path.child("jobTemplate");
            job::warnings_for_spec(
                field(field(spec, "jobTemplate"), "spec"),
                &template_path.child("spec"),
                &mut warnings,
            );
        } else {
            job::warnings_for_spec(spec, &spec_path, &mut warnings);
        }
    }
    if cron && old.is_some() && str(field(object, "spec"), "schedule").contains("TZ") {
        warnings.push(String::from(
            "cannot use TZ or CRON_TZ in spec.spec.schedule, use timeZone instead, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details",
        ));
    }
    (errors, warnings)
}

/// `generateSelectorIfNeeded`: unless `manualSelector`, the job-name and controller-uid labels
/// (legacy and prefixed) on the template where absent, and the prefixed controller-uid in the
/// selector's `matchLabels` where absent.
fn generate_selector(object: &mut Json, name: &str) {
    let Some(spec) = struct_mut(object, "spec") else { return };
    if crate::apis::json::bool(spec, "manualSelector") == Some(true) {
        return;
    }
    if let Some(labels) =
        struct_mut(spec, "template").and_then(|t| struct_mut(t, "metadata")).and_then(|m| struct_mut(m, "labels"))
    {
        if let Some(labels) = labels.as_object_mut() {
            for key in job::JOB_NAME_LABELS {
                labels.entry(key).or_insert_with(|| Json::from(name));
            }
            for key in job::CONTROLLER_UID_LABELS {
                labels.entry(key).or_insert_with(|| Json::from(PLACEHOLDER_UID));
            }
        }
    }
    if let Some(Json::Object(match_labels)) = struct_mut(spec, "selector").and_then(|s| struct_mut(s, "matchLabels")) {
        match_labels.entry(job::CONTROLLER_UID_LABELS[1]).or_insert_with(|| Json::from(PLACEHOLDER_UID));
    }
}
