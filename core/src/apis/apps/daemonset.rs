//! DaemonSet and ControllerRevision, after Kubernetes' `pkg/apis/apps/validation/validation.go`
//! (`ValidateDaemonSetSpec`, `ValidateDaemonSetUpdateStrategy`, `ValidateRollingUpdateDaemonSet`,
//! `ValidateDaemonSetUpdate`, `ValidateDaemonSetSpecUpdate`, `validateControllerRevision`,
//! `ValidateControllerRevisionCreate`, `ValidateControllerRevisionUpdate`) and
//! `pkg/registry/apps/daemonset/strategy.go` (`ValidateUpdate`'s selector option).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{Map, Value as Json};

use super::common::{immutable, invalid_int_or_string, nonnegative, not_supported_rendered, required, IntOrString};
use super::deployment::{
    immutable_selector, int_or_percent_value, labels_mismatch, not_more_than_100_percent, positive_int_or_percent,
    restart_always_and_no_deadline,
};
use super::selector;
use crate::apis::json::{field, get, int, list, object, str};
use crate::apis::Context;
use crate::field::{go_json, Error, Path};

/// `ValidateDaemonSet` (its metadata aside) on create, `ValidateDaemonSetUpdate` on update
/// (`templateGeneration` is the strategy's to set, so its checks always pass and are left out).
pub(crate) fn validate(object: &Json, old: Option<&Json>, ctx: &Context, errors: &mut Vec<Error>) {
    let root = Path::root();
    let path = root.child("spec");
    let spec = field(object, "spec");
    let mut allow_invalid_label_value = false;
    if let Some(old) = old {
        let old_sel = get(field(old, "spec"), "selector");
        // ValidateDaemonSetSpecUpdate: the selector is immutable.
        immutable_selector(get(spec, "selector"), old_sel, &path.child("selector"), errors);
        allow_invalid_label_value = selector::has_invalid_label_value(old_sel);
    }
    spec_errors(spec, &path, ctx, allow_invalid_label_value, errors);
}

/// `ValidateDaemonSetSpec`.
fn spec_errors(spec: &Json, path: &Path<'_>, ctx: &Context, allow_invalid_label_value: bool, errors: &mut Vec<Error>) {
    let sel_path = path.child("selector");
    let sel = get(spec, "selector");
    selector::validate(sel, allow_invalid_label_value, &sel_path, errors);
    let template = field(spec, "template");
    let template_path = path.child("template");
    if let Ok(s) = selector::as_selector(sel) {
        let meta = field(template, "metadata");
        if !s.matches(object(meta, "labels")) {
            errors.push(labels_mismatch(&template_path, meta));
        }
    }
    if let Some(s) = sel {
        if object(s, "matchLabels").map_or(0, Map::len) + list(s, "matchExpressions").len() == 0 {
            errors.push(selector::invalid(&sel_path, sel, "empty selector is invalid for daemonset"));
        }
    }
    crate::apis::core::pod::validate_pod_template_spec(template, &template_path, ctx, errors);
    restart_always_and_no_deadline(template, "DaemonSet", &template_path, errors);
    nonnegative(int(spec, "minReadySeconds").unwrap_or(0), &path.child("minReadySeconds"), errors);
    update_strategy(field(spec, "updateStrategy"), &path.child("updateStrategy"), errors);
    if let Some(limit) = int(spec, "revisionHistoryLimit") {
        nonnegative(limit, &path.child("revisionHistoryLimit"), errors);
    }
}

/// `ValidateDaemonSetUpdateStrategy`.
fn update_strategy(strategy: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let rolling = get(strategy, "rollingUpdate");
    match str(strategy, "type") {
        "OnDelete" => {}
        "RollingUpdate" => match rolling {
            None => errors.push(required(&path.child("rollingUpdate"), "")),
            Some(r) => rolling_update(r, &path.child("rollingUpdate"), errors),
        },
        t => {
            // json.Marshal of an internal apps.DaemonSetUpdateStrategy.
            let rolling = rolling.map_or_else(
                || String::from("null"),
                |r| {
                    let v = |k: &str| IntOrString::of(get(r, k)).render();
                    format!("{{\"MaxUnavailable\":{},\"MaxSurge\":{}}}", v("maxUnavailable"), v("maxSurge"))
                },
            );
            let rendered = format!("{{\"Type\":{},\"RollingUpdate\":{rolling}}}", go_json(&Json::from(t)));
            errors.push(not_supported_rendered(path, strategy.clone(), rendered, &["RollingUpdate", "OnDelete"]));
        }
    }
}

/// `ValidateRollingUpdateDaemonSet`.
fn rolling_update(rolling: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let unavailable = IntOrString::of(get(rolling, "maxUnavailable"));
    let surge = IntOrString::of(get(rolling, "maxSurge"));
    let (un_path, surge_path) = (path.child("maxUnavailable"), path.child("maxSurge"));
    positive_int_or_percent(unavailable, &un_path, errors);
    positive_int_or_percent(surge, &surge_path, errors);
    not_more_than_100_percent(unavailable, &un_path, errors);
    not_more_than_100_percent(surge, &surge_path, errors);
    let has_unavailable = int_or_percent_value(unavailable) != 0;
    let has_surge = int_or_percent_value(surge) != 0;
    if has_unavailable && has_surge {
        errors.push(invalid_int_or_string(&surge_path, surge, "may not be set when maxUnavailable is non-zero"));
    } else if !has_unavailable && !has_surge {
        errors.push(required(&un_path, "cannot be 0 when maxSurge is 0"));
    }
}

/// `ValidateControllerRevisionCreate` (its metadata aside) on create,
/// `ValidateControllerRevisionUpdate` on update.
pub(crate) fn validate_controller_revision(object: &Json, old: Option<&Json>, errors: &mut Vec<Error>) {
    let root = Path::root();
    let data_path = root.child("data");
    let data = get(object, "data");
    // validateControllerRevision.
    nonnegative(int(object, "revision").unwrap_or(0), &root.child("revision"), errors);
    match old {
        None => match data {
            // A RawExtension decodes `null` as no data.
            None => errors.push(required(&data_path, "data is mandatory")),
            Some(Json::Object(_)) => {}
            Some(_) => errors.push(required(&data_path, "data must be a valid JSON object")),
        },
        Some(old) => {
            let (n, o) = (data.unwrap_or(&Json::Null), get(old, "data").unwrap_or(&Json::Null));
            immutable(n, o, &data_path, go_json(n), errors);
        }
    }
}
