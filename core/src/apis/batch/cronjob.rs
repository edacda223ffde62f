//! CronJob, after Kubernetes' `pkg/apis/batch/validation/validation.go`: `ValidateCronJobCreate`,
//! `ValidateCronJobUpdate`, `validateCronJobSpec`, `validateConcurrencyPolicy`,
//! `validateScheduleFormat`, `validateTimeZone`, `ValidateJobTemplateSpec`. The name's
//! 52-character limit of `ValidateCronJobCreate` is checked with the metadata
//! ([`crate::objectmeta`]).

use alloc::format;
use alloc::vec::Vec;

use serde_json::Value as Json;

use super::cron;
use super::job;
use crate::apis::apps::common::{invalid_rendered, nonnegative, not_supported_rendered, required};
use crate::apis::apps::selector;
use crate::apis::json::{field, get, int, opt_str, str};
use crate::apis::Context;
use crate::field::{go_json, Error, Path};

/// `ValidateCronJobCreate` (its metadata aside) or `ValidateCronJobUpdate`.
pub(crate) fn validate(object: &Json, old: Option<&Json>, ctx: &Context, errors: &mut Vec<Error>) {
    let root = Path::root();
    let path = root.child("spec");
    let spec = field(object, "spec");
    let old_spec = old.map(|o| field(o, "spec"));
    // validateCronJobSpec.
    let schedule = str(spec, "schedule");
    let time_zone = opt_str(spec, "timeZone");
    if schedule.is_empty() {
        errors.push(required(&path.child("schedule"), ""));
    } else {
        let allow_tz = old_spec.is_some_and(|o| str(o, "schedule").contains("TZ"));
        schedule_format(schedule, allow_tz, time_zone, &path.child("schedule"), errors);
    }
    if let Some(deadline) = int(spec, "startingDeadlineSeconds") {
        nonnegative(deadline, &path.child("startingDeadlineSeconds"), errors);
    }
    if old_spec.is_none_or(|o| opt_str(o, "timeZone") != time_zone) {
        validate_time_zone(time_zone, &path.child("timeZone"), errors);
    }
    let policy_path = path.child("concurrencyPolicy");
    match str(spec, "concurrencyPolicy") {
        "Allow" | "Forbid" | "Replace" => {}
        "" => errors.push(required(&policy_path, "")),
        other => errors.push(Error::not_supported(&policy_path, other, &["Allow", "Forbid", "Replace"])),
    }
    // ValidateJobTemplateSpec.
    let template_path = path.child("jobTemplate");
    let template_spec_path = template_path.child("spec");
    let job_spec = field(field(spec, "jobTemplate"), "spec");
    let old_job_spec = old_spec.map(|o| field(field(o, "jobTemplate"), "spec"));
    job::validate_spec(job_spec, old_job_spec, &template_spec_path, ctx, errors);
    if let Some(sel) = get(job_spec, "selector") {
        let at = template_spec_path.child("selector");
        errors.push(selector::invalid(&at, Some(sel), "`selector` will be auto-generated"));
    }
    if crate::apis::json::bool(job_spec, "manualSelector") == Some(true) {
        let at = template_spec_path.child("manualSelector");
        errors.push(not_supported_rendered(&at, Json::Bool(true), "true".into(), &["nil", "false"]));
    }
    for key in ["successfulJobsHistoryLimit", "failedJobsHistoryLimit"] {
        if let Some(n) = int(spec, key) {
            nonnegative(n, &path.child(key), errors);
        }
    }
}

/// `validateScheduleFormat`.
fn schedule_format(schedule: &str, allow_tz: bool, time_zone: Option<&str>, path: &Path<'_>, errors: &mut Vec<Error>) {
    if let Err(e) = cron::parse_standard(schedule) {
        errors.push(Error::invalid(path, schedule, e));
    }
    let has_tz = schedule.contains("TZ");
    if allow_tz && has_tz && time_zone.is_some() {
        errors.push(Error::invalid(path, schedule, "cannot use both timeZone field and TZ or CRON_TZ in schedule"));
    } else if !allow_tz && has_tz {
        errors.push(Error::invalid(path, schedule, "cannot use TZ or CRON_TZ in schedule, use timeZone field instead"));
    }
}

/// `validateTimeZone`: each `/`-part of at most 14 characters of `[A-Za-z.\-_0-9+]`, not `.`,
/// `..` or starting with `-`; not `Local`; known to the embedded time zone database.
fn validate_time_zone(time_zone: Option<&str>, path: &Path<'_>, errors: &mut Vec<Error>) {
    let Some(tz) = time_zone else { return };
    // A *string prints as its JSON.
    let invalid = |detail: &str| invalid_rendered(path, Json::from(tz), go_json(&Json::from(tz)), detail);
    if tz.is_empty() {
        errors.push(invalid("timeZone must be nil or non-empty string"));
        return;
    }
    for part in tz.split('/') {
        let chars_ok = (1..=14).contains(&part.len())
            && part.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_' | b'+'));
        if part == "." || part == ".." || part.starts_with('-') || !chars_ok {
            errors.push(invalid(&format!("unknown time zone {tz}")));
            return;
        }
    }
    if tz.eq_ignore_ascii_case("Local") {
        errors.push(invalid("timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones"));
    }
    if let Err(e) = cron::load_location(tz) {
        errors.push(invalid(&e));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::String;

    fn zone_errors(tz: &str) -> Vec<String> {
        let mut errors = Vec::new();
        let root = Path::root();
        let spec = root.child("spec");
        validate_time_zone(Some(tz), &spec.child("timeZone"), &mut errors);
        errors.iter().map(Error::text).collect()
    }

    // TestValidateCronJob (timeZone cases) of pkg/apis/batch/validation/validation_test.go.
    #[test]
    fn time_zones() {
        assert!(zone_errors("America/New_York").is_empty());
        assert!(zone_errors("Etc/GMT+1").is_empty());
        assert_eq!(zone_errors(""), ["spec.timeZone: Invalid value: \"\": timeZone must be nil or non-empty string"]);
        assert_eq!(
            zone_errors("Local"),
            ["spec.timeZone: Invalid value: \"Local\": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones"]
        );
        assert_eq!(
            zone_errors("../Etc/UTC"),
            ["spec.timeZone: Invalid value: \"../Etc/UTC\": unknown time zone ../Etc/UTC"]
        );
        assert_eq!(
            zone_errors("America/New York"),
            ["spec.timeZone: Invalid value: \"America/New York\": unknown time zone America/New York"]
        );
        assert_eq!(
            zone_errors("Continent/Zone"),
            ["spec.timeZone: Invalid value: \"Continent/Zone\": unknown time zone Continent/Zone"]
        );
    }

    // TestValidateCronJob ("spec.schedule: Invalid value" cases).
    #[test]
    fn schedules() {
        let mut errors = Vec::new();
        let root = Path::root();
        let spec = root.child("spec");
        schedule_format("TZ=UTC 0 * * * *", false, None, &spec.child("schedule"), &mut errors);
        let texts: Vec<String> = errors.iter().map(Error::text).collect();
        assert_eq!(
            texts,
            ["spec.schedule: Invalid value: \"TZ=UTC 0 * * * *\": cannot use TZ or CRON_TZ in schedule, use timeZone field instead"]
        );
    }
}
