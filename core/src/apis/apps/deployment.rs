//! Deployment and ReplicaSet, after Kubernetes' `pkg/apis/apps/validation/validation.go`
//! (`ValidateDeploymentSpec`, `ValidateDeploymentStrategy`, `ValidateRollingUpdateDeployment`,
//! `ValidatePositiveIntOrPercent`, `IsNotMoreThan100Percent`, `ValidateRollback`,
//! `ValidateDeploymentUpdate`, `ValidateReplicaSetSpec`, `ValidateReplicaSetUpdate`,
//! `ValidatePodTemplateSpecForReplicaSet`) and `pkg/registry/apps/{deployment,replicaset}/strategy.go`.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value as Json;

use super::common::{forbidden, invalid_int_or_string, nonnegative, not_supported_rendered, required, IntOrString};
use super::selector::{self, Selector};
use crate::apis::json::{field, get, int, object, str};
use crate::apis::Context;
use crate::content;
use crate::field::{go_json, Error, Path};

/// `appsv1.DeprecatedRollbackTo`: the annotation Deployment's conversion reads `spec.rollbackTo` from.
const ROLLBACK_ANNOTATION: &str = "deprecated.deployment.rollback.to";

/// `ValidateDeployment` (its metadata aside) on create, `ValidateDeploymentUpdate` on update.
pub(crate) fn validate_deployment(object: &Json, old: Option<&Json>, ctx: &Context, errors: &mut Vec<Error>) {
    let root = Path::root();
    let spec_path = root.child("spec");
    let spec = field(object, "spec");
    deployment_spec(object, spec, &spec_path, ctx, errors);
    if let Some(old) = old {
        let (new_sel, old_sel) = (get(spec, "selector"), get(field(old, "spec"), "selector"));
        immutable_selector(new_sel, old_sel, &spec_path.child("selector"), errors);
    }
}

/// `ValidateImmutableField(spec.Selector, oldSpec.Selector, path)`.
pub(crate) fn immutable_selector(new: Option<&Json>, old: Option<&Json>, path: &Path<'_>, errors: &mut Vec<Error>) {
    let (n, o) = (new.unwrap_or(&Json::Null), old.unwrap_or(&Json::Null));
    super::common::immutable(n, o, path, selector::render(new), errors);
}

/// `ValidateDeploymentSpec`.
fn deployment_spec(object: &Json, spec: &Json, path: &Path<'_>, ctx: &Context, errors: &mut Vec<Error>) {
    nonnegative(int(spec, "replicas").unwrap_or(0), &path.child("replicas"), errors);
    selector_and_template(spec, "deployment", path, ctx, errors);
    strategy(field(spec, "strategy"), &path.child("strategy"), errors);
    let min_ready = int(spec, "minReadySeconds").unwrap_or(0);
    nonnegative(min_ready, &path.child("minReadySeconds"), errors);
    if let Some(limit) = int(spec, "revisionHistoryLimit") {
        nonnegative(limit, &path.child("revisionHistoryLimit"), errors);
    }
    // Convert_v1_Deployment_To_apps_Deployment: spec.rollbackTo from the annotation (one that
    // does not parse fails decoding, before validation).
    let annotations = field(field(object, "metadata"), "annotations");
    let revision = str(annotations, ROLLBACK_ANNOTATION);
    if !revision.is_empty() {
        if let Ok(revision) = super::common::atoi(revision) {
            // ValidateRollback.
            nonnegative(revision, &path.child("rollback").child("version"), errors);
        }
    }
    if let Some(deadline) = int(spec, "progressDeadlineSeconds") {
        let at = path.child("progressDeadlineSeconds");
        nonnegative(deadline, &at, errors);
        if deadline <= min_ready {
            errors.push(Error::invalid(&at, deadline, "must be greater than minReadySeconds"));
        }
    }
}

/// The selector checks of `ValidateDeploymentSpec` and `ValidateReplicaSetSpec` (both say
/// "deployment"), then `ValidatePodTemplateSpecForReplicaSet` when the selector converts.
fn selector_and_template(spec: &Json, what: &str, path: &Path<'_>, ctx: &Context, errors: &mut Vec<Error>) {
    let sel_path = path.child("selector");
    let sel = get(spec, "selector");
    match sel {
        None => errors.push(required(&sel_path, "")),
        Some(s) => {
            selector::validate(Some(s), false, &sel_path, errors);
            let n =
                object(s, "matchLabels").map_or(0, |m| m.len()) + crate::apis::json::list(s, "matchExpressions").len();
            if n == 0 {
                errors.push(selector::invalid(&sel_path, sel, &format!("empty selector is invalid for {what}")));
            }
        }
    }
    match selector::as_selector(sel) {
        Err(()) => errors.push(selector::invalid(&sel_path, sel, "invalid label selector")),
        Ok(selector) => {
            template_for_replica_set(field(spec, "template"), &selector, &path.child("template"), ctx, errors)
        }
    }
}

/// `ValidatePodTemplateSpecForReplicaSet` (also ReplicationController's shape): the selector
/// must match the template's labels, the template must be a valid pod template, restart
/// `Always`, no `activeDeadlineSeconds`.
pub(crate) fn template_for_replica_set(
    template: &Json,
    selector: &Selector<'_>,
    path: &Path<'_>,
    ctx: &Context,
    errors: &mut Vec<Error>,
) {
    let meta = field(template, "metadata");
    if !selector.is_empty() && !selector.matches(object(meta, "labels")) {
        errors.push(labels_mismatch(path, meta));
    }
    crate::apis::core::pod::validate_pod_template_spec(template, path, ctx, errors);
    restart_always_and_no_deadline(template, "ReplicaSet", path, errors);
}

/// `field.Invalid(<template>.metadata.labels, template.Labels, "`selector` does not match template `labels`")`.
pub(crate) fn labels_mismatch(template_path: &Path<'_>, meta: &Json) -> Error {
    let labels = get(meta, "labels").cloned().unwrap_or(Json::Null);
    let meta_path = template_path.child("metadata");
    Error::invalid(&meta_path.child("labels"), labels, "`selector` does not match template `labels`")
}

/// The restart-policy and `activeDeadlineSeconds` checks of the workload controllers' templates.
pub(crate) fn restart_always_and_no_deadline(template: &Json, kind: &str, path: &Path<'_>, errors: &mut Vec<Error>) {
    let pod_spec = field(template, "spec");
    let spec_path = path.child("spec");
    let restart = str(pod_spec, "restartPolicy");
    if restart != "Always" {
        errors.push(Error::not_supported(&spec_path.child("restartPolicy"), restart, &["Always"]));
    }
    if get(pod_spec, "activeDeadlineSeconds").is_some() {
        let detail = format!("activeDeadlineSeconds in {kind} is not Supported");
        errors.push(forbidden(&spec_path.child("activeDeadlineSeconds"), &detail));
    }
}

/// `json.Marshal` of an internal `apps.DeploymentStrategy` (Go field names, no `omitempty`).
fn render_strategy(strategy: &Json) -> String {
    let rolling = get(strategy, "rollingUpdate").map_or_else(
        || String::from("null"),
        |r| {
            let v = |k: &str| IntOrString::of(get(r, k)).render();
            format!("{{\"MaxUnavailable\":{},\"MaxSurge\":{}}}", v("maxUnavailable"), v("maxSurge"))
        },
    );
    format!("{{\"Type\":{},\"RollingUpdate\":{rolling}}}", go_json(&Json::from(str(strategy, "type"))))
}

/// `ValidateDeploymentStrategy`.
fn strategy(strategy: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let rolling = get(strategy, "rollingUpdate");
    match str(strategy, "type") {
        "Recreate" => {
            if rolling.is_some() {
                let detail = "may not be specified when strategy `type` is 'Recreate'";
                errors.push(forbidden(&path.child("rollingUpdate"), detail));
            }
        }
        "RollingUpdate" => match rolling {
            None => errors.push(required(&path.child("rollingUpdate"), "this should be defaulted and never be nil")),
            Some(r) => rolling_update(r, &path.child("rollingUpdate"), errors),
        },
        _ => errors.push(not_supported_rendered(
            path,
            strategy.clone(),
            render_strategy(strategy),
            &["Recreate", "RollingUpdate"],
        )),
    }
}

/// `ValidateRollingUpdateDeployment`.
fn rolling_update(rolling: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let max_unavailable = IntOrString::of(get(rolling, "maxUnavailable"));
    let max_surge = IntOrString::of(get(rolling, "maxSurge"));
    let unavailable_path = path.child("maxUnavailable");
    positive_int_or_percent(max_unavailable, &unavailable_path, errors);
    positive_int_or_percent(max_surge, &path.child("maxSurge"), errors);
    if int_or_percent_value(max_unavailable) == 0 && int_or_percent_value(max_surge) == 0 {
        errors.push(invalid_int_or_string(&unavailable_path, max_unavailable, "may not be 0 when `maxSurge` is 0"));
    }
    not_more_than_100_percent(max_unavailable, &unavailable_path, errors);
}

/// `ValidatePositiveIntOrPercent`.
pub(crate) fn positive_int_or_percent(v: IntOrString<'_>, path: &Path<'_>, errors: &mut Vec<Error>) {
    match v {
        IntOrString::Str(s) => {
            for msg in is_valid_percent(s) {
                errors.push(invalid_int_or_string(path, v, &msg));
            }
        }
        IntOrString::Int(n) => nonnegative(n, path, errors),
    }
}

/// apimachinery `IsValidPercent`: `^[0-9]+%$`.
fn is_valid_percent(s: &str) -> Vec<String> {
    let digits = s.strip_suffix('%').unwrap_or("");
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        return Vec::new();
    }
    alloc::vec![content::regex_error(
        "a valid percent string must be a numeric string followed by an ending '%'",
        "[0-9]+%",
        &["1%", "93%"],
    )]
}

/// `getPercentValue`: the number of a valid percent string.
fn percent_value(v: IntOrString<'_>) -> Option<i64> {
    match v {
        IntOrString::Str(s) if is_valid_percent(s).is_empty() => {
            let digits = s.strip_suffix('%').unwrap_or("");
            Some(match super::common::atoi(digits) {
                Ok(n) => n,
                Err(super::common::AtoiError::Range(n)) => n,
                Err(super::common::AtoiError::Syntax) => 0,
            })
        }
        _ => None,
    }
}

/// `getIntOrPercentValue`.
pub(crate) fn int_or_percent_value(v: IntOrString<'_>) -> i64 {
    percent_value(v).unwrap_or_else(|| v.int_value())
}

/// `IsNotMoreThan100Percent`.
pub(crate) fn not_more_than_100_percent(v: IntOrString<'_>, path: &Path<'_>, errors: &mut Vec<Error>) {
    if percent_value(v).is_some_and(|n| n > 100) {
        errors.push(invalid_int_or_string(path, v, "must not be greater than 100%"));
    }
}

/// `ValidateReplicaSet` (its metadata aside) on create, `ValidateReplicaSetUpdate` on update.
pub(crate) fn validate_replica_set(object: &Json, old: Option<&Json>, ctx: &Context, errors: &mut Vec<Error>) {
    let root = Path::root();
    let path = root.child("spec");
    let spec = field(object, "spec");
    // ValidateReplicaSetSpec.
    nonnegative(int(spec, "replicas").unwrap_or(0), &path.child("replicas"), errors);
    nonnegative(int(spec, "minReadySeconds").unwrap_or(0), &path.child("minReadySeconds"), errors);
    selector_and_template(spec, "deployment", &path, ctx, errors);
    if let Some(old) = old {
        let (new_sel, old_sel) = (get(spec, "selector"), get(field(old, "spec"), "selector"));
        immutable_selector(new_sel, old_sel, &path.child("selector"), errors);
    }
}
