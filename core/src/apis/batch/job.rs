//! Job, after Kubernetes' `pkg/apis/batch/validation/validation.go`: `validateGeneratedSelector`,
//! `ValidateJobCreate`, `validateNameAllowsCompletions`, `ValidateJobSpec`, `validateJobSpec`,
//! `validatePodFailurePolicy` (and its rule, `onExitCodes`, `onPodConditions` checks),
//! `validatePodReplacementPolicy`, `validateSuccessPolicy`, `validateSuccessPolicyRule`,
//! `validateIndexesFormat`, `parseIndexInterval`, `ValidateJobUpdate`, `ValidateJobSpecUpdate`,
//! `validateCompletions`, `validatePodTemplateUpdate`, `validatePodResourceUpdatesOnly`.
//!
//! Not ported: `spec.scheduling` (`validateGangMinCount`, `validateJobScheduling`,
//! `validateJobSchedulingUpdate`): the WorkloadWithJob gate is off in 1.37 and the strategy drops
//! the field. Values Go prints as internal structs (a whole pod template that may not change)
//! are printed as their v1 JSON.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{Map, Value as Json};

use crate::apis::apps::common::{atoi, immutable, invalid_rendered, nonnegative, required};
use crate::apis::apps::selector;
use crate::apis::json::{field, get, int, list, object, opt_str, str};
use crate::apis::Context;
use crate::content;
use crate::field::{go_json, go_quote, Error, ErrorType, Path};

/// `LegacyJobNameLabel`, `JobNameLabel`, `LegacyControllerUidLabel`, `ControllerUidLabel`.
pub(crate) const JOB_NAME_LABELS: [&str; 2] = ["job-name", "batch.kubernetes.io/job-name"];
pub(crate) const CONTROLLER_UID_LABELS: [&str; 2] = ["controller-uid", "batch.kubernetes.io/controller-uid"];

const MAX_PARALLELISM_FOR_INDEXED_JOB: i64 = 100_000;
const MAX_FAILED_INDEXES_FOR_INDEXED_JOB: i64 = 100_000;
const COMPLETIONS_SOFT_LIMIT: i64 = 100_000;
const PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS: i64 = 10_000;
const MAX_FAILED_INDEXES_LIMIT_FOR_HIGH_COMPLETIONS: i64 = 10_000;
const MAX_POD_FAILURE_POLICY_RULES: usize = 20;
const MAX_ON_EXIT_CODES_VALUES: usize = 255;
const MAX_ON_POD_CONDITIONS_PATTERNS: usize = 20;
const MAX_MANAGED_BY_LENGTH: usize = 63;
const MAX_SUCCEEDED_INDEXES_LENGTH: usize = 64 * 1024;
const MAX_SUCCESS_POLICY_RULES: usize = 20;

/// `ValidateJobCreate` (its metadata aside), with `RequirePrefixedLabels`; `uid` and `name` are
/// the object's as the API server has them when it validates.
pub(crate) fn validate_create(object: &Json, uid: &str, name: &str, ctx: &Context, errors: &mut Vec<Error>) {
    let spec = field(object, "spec");
    generated_selector(spec, uid, name, errors);
    let root = Path::root();
    validate_job_spec(spec, None, &root.child("spec"), false, ctx, errors);
    name_allows_completions(spec, name, errors);
}

/// `ValidateJobUpdate` (its metadata aside).
pub(crate) fn validate_update(object: &Json, old: &Json, ctx: &Context, errors: &mut Vec<Error>) {
    let (spec, old_spec) = (field(object, "spec"), field(old, "spec"));
    let root = Path::root();
    let path = root.child("spec");
    let allow_invalid = selector::has_invalid_label_value(get(old_spec, "selector"));
    // ValidateJobSpecUpdate.
    validate_job_spec(spec, Some(old_spec), &path, allow_invalid, ctx, errors);
    completions_update(spec, old_spec, &path.child("completions"), errors);
    let (sel, old_sel) = (get(spec, "selector"), get(old_spec, "selector"));
    immutable(
        sel.unwrap_or(&Json::Null),
        old_sel.unwrap_or(&Json::Null),
        &path.child("selector"),
        selector::render(sel),
        errors,
    );
    pod_template_update(spec, old_spec, old, &path, errors);
    for key in ["completionMode", "podFailurePolicy", "backoffLimitPerIndex", "managedBy", "successPolicy"] {
        let (n, o) = (field(spec, key), field(old_spec, key));
        // Structs print as Go marshals the internal type (Go field names, every field).
        let rendered = match key {
            "podFailurePolicy" => crate::apis::core::pod_gojson::marshal_struct(Some(n), "PodFailurePolicy"),
            "successPolicy" => crate::apis::core::pod_gojson::marshal_struct(Some(n), "SuccessPolicy"),
            _ => go_json(n),
        };
        immutable(n, o, &path.child(key), rendered, errors);
    }
    let name = str(field(object, "metadata"), "name");
    name_allows_completions(spec, name, errors);
}

/// `validateGeneratedSelector` (a selector the user asked for is not checked).
fn generated_selector(spec: &Json, uid: &str, name: &str, errors: &mut Vec<Error>) {
    if crate::apis::json::bool(spec, "manualSelector") == Some(true) {
        return;
    }
    let Some(sel) = get(spec, "selector") else { return };
    let root = Path::root();
    let spec_path = root.child("spec");
    let template_path = spec_path.child("template");
    let meta_path = template_path.child("metadata");
    let labels = object(field(field(spec, "template"), "metadata"), "labels");
    let expected = [
        (CONTROLLER_UID_LABELS[0], uid),
        (JOB_NAME_LABELS[0], name),
        (CONTROLLER_UID_LABELS[1], uid),
        (JOB_NAME_LABELS[1], name),
    ];
    for (key, value) in expected {
        has_label(labels, &meta_path, key, value, errors);
    }
    let mut expected_labels = Map::new();
    for (key, value) in expected {
        expected_labels.insert(String::from(key), Json::from(value));
    }
    if let Ok(s) = selector::as_selector(Some(sel)) {
        if !s.matches(Some(&expected_labels)) {
            errors.push(selector::invalid(&spec_path.child("selector"), Some(sel), "`selector` not auto-generated"));
        }
    }
}

/// core validation `ValidateHasLabel`.
fn has_label(labels: Option<&Map<String, Json>>, path: &Path<'_>, key: &str, expected: &str, errors: &mut Vec<Error>) {
    let labels_path = path.child("labels");
    let at = labels_path.key(key);
    let detail = format!("must be '{expected}'");
    match labels.and_then(|l| l.get(key)).and_then(Json::as_str) {
        None => errors.push(required(&at, &detail)),
        Some(v) if v != expected => {
            let value = labels.map_or(Json::Null, |l| Json::Object(l.clone()));
            errors.push(Error::invalid(&at, value, detail));
        }
        Some(_) => {}
    }
}

/// `validateNameAllowsCompletions`: an Indexed Job's last pod hostname must be a DNS label.
fn name_allows_completions(spec: &Json, name: &str, errors: &mut Vec<Error>) {
    let completions = int(spec, "completions").unwrap_or(0);
    if opt_str(spec, "completionMode") == Some("Indexed") && completions > 0 {
        let host = format!("{name}-{}", completions - 1);
        if !content::is_dns1123_label(&host).is_empty() {
            let root = Path::root();
            let meta = root.child("metadata");
            let detail = format!("will not able to create pod with invalid DNS label: {host}");
            errors.push(Error::invalid(&meta.child("name"), name, detail));
        }
    }
}

/// `ValidateJobSpec`: `validateJobSpec`, then the selector.
fn validate_job_spec(
    spec: &Json,
    old: Option<&Json>,
    path: &Path<'_>,
    allow_invalid: bool,
    ctx: &Context,
    errors: &mut Vec<Error>,
) {
    validate_spec(spec, old, path, ctx, errors);
    let sel_path = path.child("selector");
    let sel = get(spec, "selector");
    match sel {
        None => errors.push(required(&sel_path, "")),
        Some(s) => selector::validate(Some(s), allow_invalid, &sel_path, errors),
    }
    if let Ok(s) = selector::as_selector(sel) {
        let meta = field(field(spec, "template"), "metadata");
        if !s.matches(object(meta, "labels")) {
            let labels = get(meta, "labels").cloned().unwrap_or(Json::Null);
            let template_path = path.child("template");
            let meta_path = template_path.child("metadata");
            errors.push(Error::invalid(
                &meta_path.child("labels"),
                labels,
                "`selector` does not match template `labels`",
            ));
        }
    }
}

/// `validateJobSpec` (also the CronJob's job template's).
pub(crate) fn validate_spec(spec: &Json, _old: Option<&Json>, path: &Path<'_>, ctx: &Context, errors: &mut Vec<Error>) {
    let parallelism = int(spec, "parallelism");
    let completions = int(spec, "completions");
    let backoff_per_index = int(spec, "backoffLimitPerIndex");
    let max_failed = int(spec, "maxFailedIndexes");
    for (key, value) in [
        ("parallelism", parallelism),
        ("completions", completions),
        ("activeDeadlineSeconds", int(spec, "activeDeadlineSeconds")),
        ("backoffLimit", int(spec, "backoffLimit")),
        ("ttlSecondsAfterFinished", int(spec, "ttlSecondsAfterFinished")),
        ("backoffLimitPerIndex", backoff_per_index),
    ] {
        if let Some(v) = value {
            nonnegative(v, &path.child(key), errors);
        }
    }
    if let Some(v) = max_failed {
        nonnegative(v, &path.child("maxFailedIndexes"), errors);
        if backoff_per_index.is_none() {
            let e = required(&path.child("backoffLimitPerIndex"), "when maxFailedIndexes is specified");
            errors.push(e.with_origin("dependentRequired"));
        }
    }
    if let Some(managed_by) = opt_str(spec, "managedBy") {
        domain_prefixed_path(&path.child("managedBy"), managed_by, errors);
        if managed_by.len() > MAX_MANAGED_BY_LENGTH {
            errors.push(Error::too_long(&path.child("managedBy"), MAX_MANAGED_BY_LENGTH as i64));
        }
    }
    let mode = opt_str(spec, "completionMode");
    if let Some(mode) = mode {
        if mode != "NonIndexed" && mode != "Indexed" {
            errors.push(Error::not_supported(&path.child("completionMode"), mode, &["NonIndexed", "Indexed"]));
        }
        if mode == "Indexed" {
            indexed_limits(completions, parallelism, backoff_per_index, max_failed, path, errors);
        }
    }
    if mode.is_none_or(|m| m == "NonIndexed") {
        if let Some(v) = backoff_per_index {
            errors.push(Error::invalid(&path.child("backoffLimitPerIndex"), v, "requires indexed completion mode"));
        }
        if let Some(v) = max_failed {
            errors.push(Error::invalid(&path.child("maxFailedIndexes"), v, "requires indexed completion mode"));
        }
    }
    let failure_policy = get(spec, "podFailurePolicy");
    if let Some(policy) = failure_policy {
        pod_failure_policy(spec, policy, &path.child("podFailurePolicy"), errors);
    }
    if let Some(success) = get(spec, "successPolicy") {
        let at = path.child("successPolicy");
        if mode != Some("Indexed") {
            let rendered = render_success_policy(success);
            errors.push(invalid_rendered(&at, success.clone(), rendered, "requires indexed completion mode"));
        } else {
            success_policy(success, completions, &at, errors);
        }
    }
    // validatePodReplacementPolicy.
    if let Some(policy) = opt_str(spec, "podReplacementPolicy") {
        let at = path.child("podReplacementPolicy");
        if failure_policy.is_some() {
            if policy != "Failed" {
                errors.push(Error::not_supported(&at, policy, &["Failed"]));
            }
        } else if policy != "Failed" && policy != "TerminatingOrFailed" {
            errors.push(Error::not_supported(&at, policy, &["Failed", "TerminatingOrFailed"]));
        }
    }
    let template = field(spec, "template");
    let template_path = path.child("template");
    crate::apis::core::pod::validate_pod_template_spec(template, &template_path, ctx, errors);
    let restart = str(field(template, "spec"), "restartPolicy");
    let spec_path = template_path.child("spec");
    let restart_path = spec_path.child("restartPolicy");
    if restart == "Always" || restart.is_empty() {
        errors.push(required(&restart_path, "valid values: \"OnFailure\", \"Never\""));
    } else if restart != "OnFailure" && restart != "Never" {
        errors.push(Error::not_supported(&restart_path, restart, &["OnFailure", "Never"]));
    } else if failure_policy.is_some() && restart != "Never" {
        errors.push(Error::invalid(
            &restart_path,
            restart,
            "only \"Never\" is supported when podFailurePolicy is specified",
        ));
    }
}

/// The Indexed-mode limits of `validateJobSpec`.
fn indexed_limits(
    completions: Option<i64>,
    parallelism: Option<i64>,
    backoff_per_index: Option<i64>,
    max_failed: Option<i64>,
    path: &Path<'_>,
    errors: &mut Vec<Error>,
) {
    let (p_path, m_path) = (path.child("parallelism"), path.child("maxFailedIndexes"));
    if completions.is_none() {
        errors.push(required(&path.child("completions"), "when completion mode is Indexed"));
    }
    if let Some(p) = parallelism.filter(|p| *p > MAX_PARALLELISM_FOR_INDEXED_JOB) {
        let detail =
            format!("must be less than or equal to {MAX_PARALLELISM_FOR_INDEXED_JOB} when completion mode is Indexed");
        errors.push(Error::invalid(&p_path, p, detail));
    }
    if let (Some(c), Some(m)) = (completions, max_failed) {
        if m > c {
            errors.push(Error::invalid(&m_path, m, "must be less than or equal to completions"));
        }
    }
    if let Some(m) = max_failed.filter(|m| *m > MAX_FAILED_INDEXES_FOR_INDEXED_JOB) {
        errors.push(Error::invalid(
            &m_path,
            m,
            format!("must be less than or equal to {MAX_FAILED_INDEXES_FOR_INDEXED_JOB}"),
        ));
    }
    if completions.is_some_and(|c| c > COMPLETIONS_SOFT_LIMIT) && backoff_per_index.is_some() {
        if max_failed.is_none() {
            let detail = format!("must be specified when completions is above {COMPLETIONS_SOFT_LIMIT}");
            errors.push(required(&m_path, &detail));
        }
        let suffix =
            format!("when completions are above {COMPLETIONS_SOFT_LIMIT} and used with backoff limit per index");
        if let Some(p) = parallelism.filter(|p| *p > PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS) {
            let detail = format!("must be less than or equal to {PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS} {suffix}");
            errors.push(Error::invalid(&p_path, p, detail));
        }
        if let Some(m) = max_failed.filter(|m| *m > MAX_FAILED_INDEXES_LIMIT_FOR_HIGH_COMPLETIONS) {
            let detail =
                format!("must be less than or equal to {MAX_FAILED_INDEXES_LIMIT_FOR_HIGH_COMPLETIONS} {suffix}");
            errors.push(Error::invalid(&m_path, m, detail));
        }
    }
}

/// apimachinery `IsDomainPrefixedPath`.
pub(crate) fn domain_prefixed_path(path: &Path<'_>, value: &str, errors: &mut Vec<Error>) {
    if value.is_empty() {
        errors.push(required(path, ""));
        return;
    }
    let Some((host, rest)) = value.split_once('/').filter(|(h, r)| !h.is_empty() && !r.is_empty()) else {
        errors.push(Error::invalid(path, value, "must be a domain-prefixed path (such as \"acme.io/foo\")"));
        return;
    };
    for msg in crate::apis::core::common::is_dns1123_subdomain(host) {
        errors.push(Error::invalid(path, host, msg));
    }
    let ok = rest.bytes().all(|b| b.is_ascii_alphanumeric() || b"/-._~%!$&'()*+,;=:".contains(&b));
    if !ok {
        let fmt = r"[A-Za-z0-9/\-._~%!$&'()*+,;=:]+";
        errors.push(Error::invalid(path, rest, content::regex_error("Invalid path", fmt, &[])));
    }
}

/// Go's `fmt.Sprintf("%q", []string{...})` (`["a" "b"]`).
fn quoted_list(items: &[&str]) -> String {
    let quoted: Vec<String> = items.iter().map(|s| go_quote(s)).collect();
    format!("[{}]", quoted.join(" "))
}

/// `field.Invalid(path, field.OmitValueType{}, detail)`: printed without a value.
fn invalid_omitted(path: &Path<'_>, detail: &str) -> Error {
    Error::new(ErrorType::Invalid, path, None, detail)
}

/// `validatePodFailurePolicy` and `validatePodFailurePolicyRule`.
fn pod_failure_policy(spec: &Json, policy: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    const ACTIONS: [&str; 4] = ["Count", "FailIndex", "FailJob", "Ignore"];
    let rules_path = path.child("rules");
    let rules = list(policy, "rules");
    if rules.len() > MAX_POD_FAILURE_POLICY_RULES {
        errors.push(Error::too_many(&rules_path, rules.len(), MAX_POD_FAILURE_POLICY_RULES as i64));
    }
    let pod_spec = field(field(spec, "template"), "spec");
    let names: Vec<&str> =
        list(pod_spec, "containers").iter().chain(list(pod_spec, "initContainers")).map(|c| str(c, "name")).collect();
    for (i, rule) in rules.iter().enumerate() {
        let rule_path = rules_path.index(i);
        let action_path = rule_path.child("action");
        let action = str(rule, "action");
        if action.is_empty() {
            errors.push(required(&action_path, &format!("valid values: {}", quoted_list(&ACTIONS))));
        } else if action == "FailIndex" {
            if get(spec, "backoffLimitPerIndex").is_none() {
                errors.push(Error::invalid(&action_path, action, "requires the backoffLimitPerIndex to be set"));
            }
        } else if !ACTIONS.contains(&action) {
            errors.push(Error::not_supported(&action_path, action, &ACTIONS));
        }
        let on_exit_codes = get(rule, "onExitCodes");
        let on_conditions = list(rule, "onPodConditions");
        if let Some(codes) = on_exit_codes {
            exit_codes(codes, &rule_path.child("onExitCodes"), &names, errors);
        }
        if !on_conditions.is_empty() {
            pod_conditions(on_conditions, &rule_path.child("onPodConditions"), errors);
        }
        if on_exit_codes.is_some() && !on_conditions.is_empty() {
            errors
                .push(invalid_omitted(&rule_path, "specifying both OnExitCodes and OnPodConditions is not supported"));
        }
        if on_exit_codes.is_none() && on_conditions.is_empty() {
            errors.push(invalid_omitted(&rule_path, "specifying one of OnExitCodes and OnPodConditions is required"));
        }
    }
}

/// `validatePodFailurePolicyRuleOnPodConditions`.
fn pod_conditions(patterns: &[Json], path: &Path<'_>, errors: &mut Vec<Error>) {
    const STATUSES: [&str; 3] = ["False", "True", "Unknown"];
    if patterns.len() > MAX_ON_POD_CONDITIONS_PATTERNS {
        errors.push(Error::too_many(path, patterns.len(), MAX_ON_POD_CONDITIONS_PATTERNS as i64));
    }
    for (j, pattern) in patterns.iter().enumerate() {
        let at = path.index(j);
        let kind = str(pattern, "type");
        for msg in content::is_label_key(kind) {
            errors.push(Error::invalid(&at.child("type"), kind, msg).with_origin("format=qualified-name"));
        }
        let status = str(pattern, "status");
        let status_path = at.child("status");
        if status.is_empty() {
            errors.push(required(&status_path, &format!("valid values: {}", quoted_list(&STATUSES))));
        } else if !STATUSES.contains(&status) {
            errors.push(Error::not_supported(&status_path, status, &STATUSES));
        }
    }
}

/// `validatePodFailurePolicyRuleOnExitCodes`.
fn exit_codes(codes: &Json, path: &Path<'_>, names: &[&str], errors: &mut Vec<Error>) {
    const OPERATORS: [&str; 2] = ["In", "NotIn"];
    let operator = str(codes, "operator");
    let op_path = path.child("operator");
    if operator.is_empty() {
        errors.push(required(&op_path, &format!("valid values: {}", quoted_list(&OPERATORS))));
    } else if !OPERATORS.contains(&operator) {
        errors.push(Error::not_supported(&op_path, operator, &OPERATORS));
    }
    if let Some(name) = opt_str(codes, "containerName") {
        if !names.contains(&name) {
            let detail = "must be one of the container or initContainer names in the pod template";
            errors.push(Error::invalid(&path.child("containerName"), name, detail));
        }
    }
    let values_path = path.child("values");
    let raw = get(codes, "values").cloned().unwrap_or(Json::Null);
    let values: Vec<i64> = list(codes, "values").iter().filter_map(Json::as_i64).collect();
    if values.is_empty() {
        errors.push(Error::invalid(&values_path, raw.clone(), "at least one value is required"));
    } else if values.len() > MAX_ON_EXIT_CODES_VALUES {
        errors.push(Error::too_many(&values_path, values.len(), MAX_ON_EXIT_CODES_VALUES as i64));
    }
    let mut ordered = true;
    let mut seen: Vec<i64> = Vec::new();
    for (j, v) in values.iter().enumerate() {
        let at = values_path.index(j);
        if operator == "In" && *v == 0 {
            errors.push(Error::invalid(&at, 0, "must not be 0 for the In operator"));
        }
        if seen.contains(v) {
            errors.push(Error::new(ErrorType::Duplicate, &at, Some(Json::from(*v)), ""));
        } else {
            seen.push(*v);
        }
        if j > 0 && values.get(j - 1).is_some_and(|prev| prev > v) {
            ordered = false;
        }
    }
    if !ordered {
        errors.push(Error::invalid(&values_path, raw, "must be ordered"));
    }
}

/// `json.Marshal` of an internal `batch.SuccessPolicy`.
fn render_success_policy(policy: &Json) -> String {
    let rules = get(policy, "rules").and_then(Json::as_array).map_or_else(
        || String::from("null"),
        |rules| {
            let items: Vec<String> = rules
                .iter()
                .map(|r| {
                    let indexes = opt_str(r, "succeededIndexes")
                        .map_or_else(|| String::from("null"), |s| go_json(&Json::from(s)));
                    let count = int(r, "succeededCount").map_or_else(|| String::from("null"), |n| format!("{n}"));
                    format!("{{\"SucceededIndexes\":{indexes},\"SucceededCount\":{count}}}")
                })
                .collect();
            format!("[{}]", items.join(","))
        },
    );
    format!("{{\"Rules\":{rules}}}")
}

/// `validateSuccessPolicy` and `validateSuccessPolicyRule`. Without `completions` (Indexed
/// mode requires it: the Required error above), Go dereferences the nil pointer for a rule
/// that has `succeededIndexes` or `succeededCount`: kube-apiserver v1.37.2 panics and drops the
/// connection (found by the differential fuzzer), so such a rule gets no errors here; the
/// checks before the dereference stand.
fn success_policy(policy: &Json, completions: Option<i64>, path: &Path<'_>, errors: &mut Vec<Error>) {
    let rules_path = path.child("rules");
    let rules = list(policy, "rules");
    if rules.is_empty() {
        errors.push(required(&rules_path, "at least one rules must be specified when the successPolicy is specified"));
    }
    if rules.len() > MAX_SUCCESS_POLICY_RULES {
        errors.push(Error::too_many(&rules_path, rules.len(), MAX_SUCCESS_POLICY_RULES as i64));
    }
    for (i, rule) in rules.iter().enumerate() {
        let rule_path = rules_path.index(i);
        let indexes = opt_str(rule, "succeededIndexes");
        let count = int(rule, "succeededCount");
        if indexes.is_none() && count.is_none() {
            errors.push(required(&rule_path, "at least one of succeededCount or succeededIndexes must be specified"));
        }
        let Some(completions) = completions else { continue };
        let mut total = 0;
        if let Some(indexes) = indexes {
            let at = rule_path.child("succeededIndexes");
            if indexes.len() > MAX_SUCCEEDED_INDEXES_LENGTH {
                errors.push(Error::too_long(&at, MAX_SUCCEEDED_INDEXES_LENGTH as i64));
            }
            match indexes_format(indexes, completions) {
                Ok(n) => total = n,
                Err(e) => errors.push(Error::invalid(&at, indexes, format!("error parsing succeededIndexes: {e}"))),
            }
        }
        if let Some(count) = count {
            let at = rule_path.child("succeededCount");
            nonnegative(count, &at, errors);
            if count > completions {
                let detail =
                    format!("must be less than or equal to {completions} (the number of specified completions)");
                errors.push(Error::invalid(&at, count, detail));
            }
            if indexes.is_some() && count > total {
                let detail =
                    format!("must be less than or equal to {total} (the number of indexes in the specified succeededIndexes field)");
                errors.push(Error::invalid(&at, count, detail));
            }
        }
    }
}

/// `validateIndexesFormat`: the number of indexes, or the error's text.
fn indexes_format(indexes: &str, completions: i64) -> Result<i64, String> {
    if indexes.is_empty() {
        return Ok(0);
    }
    let mut last: Option<i64> = None;
    let mut total = 0i64;
    for interval in indexes.split(',') {
        let (x, y) = index_interval(interval, completions)?;
        if let Some(last) = last.filter(|l| *l >= x) {
            return Err(format!("non-increasing order, previous: {last}, current: {x}"));
        }
        total = total.saturating_add(y - x + 1);
        last = Some(y);
    }
    Ok(total)
}

/// `parseIndexInterval`.
fn index_interval(interval: &str, completions: i64) -> Result<(i64, i64), String> {
    let limits: Vec<&str> = interval.split('-').collect();
    if limits.len() > 2 {
        return Err(format!(
            "the fragment {} violates the requirement that an index interval can have at most two parts separated by '-'",
            go_quote(interval)
        ));
    }
    let parse = |s: &str| -> Result<i64, String> {
        let n = atoi(s).map_err(|_| format!("cannot convert string to integer for index: {}", go_quote(s)))?;
        if n >= completions {
            return Err(format!("too large index: {}", go_quote(s)));
        }
        Ok(n)
    };
    let x = parse(limits.first().copied().unwrap_or(""))?;
    match limits.get(1) {
        None => Ok((x, x)),
        Some(second) => {
            let y = parse(second)?;
            if x >= y {
                return Err(format!("non-increasing order, previous: {x}, current: {y}"));
            }
            Ok((x, y))
        }
    }
}

/// `validateCompletions`: mutable only for an Indexed Job, in tandem with `parallelism`.
fn completions_update(spec: &Json, old_spec: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let (new, old) = (field(spec, "completions"), field(old_spec, "completions"));
    if opt_str(spec, "completionMode") != Some("Indexed") {
        immutable(new, old, path, go_json(new), errors);
        return;
    }
    if crate::apis::apps::common::same(new, old) {
        return;
    }
    let Some(c) = new.as_i64() else { return };
    if Some(c) != int(spec, "parallelism") {
        errors.push(Error::invalid(path, c, "can only be modified in tandem with spec.parallelism"));
    }
}

/// `validatePodTemplateUpdate` with the strategy's options (`validationOptionsForJob`; the
/// MutablePodResourcesForSuspendedJobs and MutableSchedulingDirectivesForSuspendedJobs gates are
/// on in 1.37).
fn pod_template_update(spec: &Json, old_spec: &Json, old: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    // shouldAllowMutablePodTemplate(oldJob).
    let old_suspended = crate::apis::json::bool(old_spec, "suspend") == Some(true);
    let status = field(old, "status");
    let not_started = get(status, "startTime").is_none();
    let suspended_condition =
        list(status, "conditions").iter().any(|c| str(c, "type") == "Suspended" && str(c, "status") == "True");
    let mutable = old_suspended && (not_started || suspended_condition) && int(status, "active").unwrap_or(0) == 0;
    let template = field(spec, "template");
    let mut old_template = field(old_spec, "template").clone();
    if mutable {
        // AllowMutableSchedulingDirectives: the old template takes the new one's node affinity,
        // node selector, tolerations, annotations, labels and scheduling gates.
        if !old_template.is_object() {
            old_template = Json::Object(Map::new());
        }
        let new_pod = field(template, "spec");
        if let Some(t) = old_template.as_object_mut() {
            let meta = t.entry("metadata").or_insert_with(|| Json::Object(Map::new()));
            if let Some(meta) = meta.as_object_mut() {
                for key in ["annotations", "labels"] {
                    set_or_remove(meta, key, get(field(template, "metadata"), key));
                }
            }
            let pod = t.entry("spec").or_insert_with(|| Json::Object(Map::new()));
            if let Some(pod) = pod.as_object_mut() {
                for key in ["nodeSelector", "tolerations", "schedulingGates"] {
                    set_or_remove(pod, key, get(new_pod, key));
                }
                let new_affinity = get(new_pod, "affinity");
                let old_affinity = pod.get("affinity").filter(|a| !a.is_null()).cloned();
                match (new_affinity, old_affinity) {
                    (None, Some(mut a)) => {
                        if let Some(m) = a.as_object_mut() {
                            m.remove("nodeAffinity");
                        }
                        let empty = a.as_object().is_none_or(|m| m.values().all(Json::is_null));
                        set_or_remove(pod, "affinity", (!empty).then_some(&a));
                    }
                    (Some(n), None) => {
                        let mut a = Map::new();
                        if let Some(node) = get(n, "nodeAffinity") {
                            a.insert(String::from("nodeAffinity"), node.clone());
                        }
                        pod.insert(String::from("affinity"), Json::Object(a));
                    }
                    (Some(n), Some(mut a)) => {
                        if let Some(m) = a.as_object_mut() {
                            match get(n, "nodeAffinity") {
                                Some(node) => m.insert(String::from("nodeAffinity"), node.clone()),
                                None => m.remove("nodeAffinity"),
                            };
                        }
                        pod.insert(String::from("affinity"), a);
                    }
                    (None, None) => {}
                }
            }
        }
    }
    let template_path = path.child("template");
    if !old_suspended || !mutable {
        let rendered = crate::apis::core::pod_gojson::marshal(
            Some(template),
            &crate::apis::core::pod_schema::T::S("PodTemplateSpec"),
        );
        immutable(template, &old_template, &template_path, rendered, errors);
        return;
    }
    // validatePodResourceUpdatesOnly: same-named containers may change their resources.
    let new_pod = field(template, "spec");
    let mut old_pod = field(&old_template, "spec").clone();
    for key in ["containers", "initContainers"] {
        let new_list = list(new_pod, key);
        if let Some(Json::Array(old_list)) = old_pod.get_mut(key) {
            if old_list.len() == new_list.len() {
                for (o, n) in old_list.iter_mut().zip(new_list) {
                    if str(o, "name") == str(n, "name") {
                        if let Some(m) = o.as_object_mut() {
                            set_or_remove(m, "resources", get(n, "resources"));
                        }
                    }
                }
            }
        }
    }
    let pod_path = path.child("template.spec");
    let rendered =
        crate::apis::core::pod_gojson::marshal(Some(new_pod), &crate::apis::core::pod_schema::T::S("PodSpec"));
    immutable(new_pod, &old_pod, &pod_path, rendered, errors);
}

fn set_or_remove(map: &mut Map<String, Json>, key: &str, value: Option<&Json>) {
    match value {
        Some(v) => map.insert(String::from(key), v.clone()),
        None => map.remove(key),
    };
}

/// `job.WarningsForJobSpec`: the Indexed-job tracking warning, then the pod template's.
pub(crate) fn warnings_for_spec(spec: &Json, path: &Path<'_>, warnings: &mut Vec<String>) {
    if opt_str(spec, "completionMode") == Some("Indexed") {
        let completions = int(spec, "completions").unwrap_or(0);
        let parallelism = int(spec, "parallelism").unwrap_or(0);
        if completions > COMPLETIONS_SOFT_LIMIT && parallelism > PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS {
            warnings.push(format!(
                "{path}: In Indexed Jobs with a number of completions higher than 10^5 and a parallelism higher than 10^4, Kubernetes might not be able to track completedIndexes when a big number of indexes fail"
            ));
        }
    }
    let template_path = path.child("template");
    warnings.extend(crate::apis::core::pod::pod_template_warnings(field(spec, "template"), &template_path));
}
