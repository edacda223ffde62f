//! Event, after `pkg/apis/core/validation/events.go` (`ValidateEventCreate`,
//! `ValidateEventUpdate`, `validateV1EventSeries`, `legacyValidateEvent`) and
//! `pkg/registry/core/event/strategy.go` (nothing to prepare, no warnings; the request's
//! group-version picks the rules). The same internal `core.Event` serves the core group's
//! `v1` Event and `events.k8s.io/v1`'s (`pkg/apis/events/v1/conversion.go`: `regarding` is
//! `involvedObject`, `note` is `message`, `deprecatedSource` / `deprecatedFirstTimestamp` /
//! `deprecatedLastTimestamp` / `deprecatedCount` are `source` / `firstTimestamp` /
//! `lastTimestamp` / `count`); the core group's `reportingComponent` is `ReportingController`.
//! Error paths are the internal field names, whatever the request's version.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{Map, Value as Json};

use super::common::{required, validate_qualified_name};
use crate::apis::json::{field, get, int, str};
use crate::cel::value::time::{civil_from_days, Timestamp, MIN_TS};
use crate::field::{go_json, Error, Path};

/// The rules of the request's group-version.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rules {
    /// The core group's `v1` (and `events.k8s.io/v1beta1`): `legacyValidateEvent` only, the
    /// reporting controller named `reportingComponent`.
    CoreV1,
    /// `events.k8s.io/v1`: the legacy checks, then the strict ones.
    EventsV1,
}

/// A `core.Event` read from the served version's JSON (the internal field names as keys).
pub fn to_internal(obj: &Json, rules: Rules) -> Json {
    let mut m = Map::new();
    let renames: &[(&str, &str)] = match rules {
        Rules::CoreV1 => &[
            ("metadata", "metadata"),
            ("involvedObject", "involvedObject"),
            ("reason", "reason"),
            ("message", "message"),
            ("source", "source"),
            ("firstTimestamp", "firstTimestamp"),
            ("lastTimestamp", "lastTimestamp"),
            ("count", "count"),
            ("type", "type"),
            ("eventTime", "eventTime"),
            ("series", "series"),
            ("action", "action"),
            ("related", "related"),
            ("reportingComponent", "reportingController"),
            ("reportingInstance", "reportingInstance"),
        ],
        Rules::EventsV1 => &[
            ("metadata", "metadata"),
            ("regarding", "involvedObject"),
            ("reason", "reason"),
            ("note", "message"),
            ("deprecatedSource", "source"),
            ("deprecatedFirstTimestamp", "firstTimestamp"),
            ("deprecatedLastTimestamp", "lastTimestamp"),
            ("deprecatedCount", "count"),
            ("type", "type"),
            ("eventTime", "eventTime"),
            ("series", "series"),
            ("action", "action"),
            ("related", "related"),
            ("reportingController", "reportingController"),
            ("reportingInstance", "reportingInstance"),
        ],
    };
    for (from, to) in renames {
        if let Some(v) = get(obj, from) {
            m.insert(String::from(*to), v.clone());
        }
    }
    Json::Object(m)
}

/// The event strategy: `ValidateEventCreate` / `ValidateEventUpdate` of the request's rules
/// (metadata aside). `obj` and `old` are in the served version.
pub fn admit(rules: Rules, obj: &Json, old: Option<&Json>) -> (Vec<Error>, Vec<String>) {
    let event = to_internal(obj, rules);
    let mut errors = Vec::new();
    legacy_validate(&event, rules, &mut errors);
    if rules == Rules::EventsV1 {
        match old {
            None => strict_create(&event, &mut errors),
            Some(old) => strict_update(&event, &to_internal(old, rules), &mut errors),
        }
    }
    (errors, Vec::new())
}

/// A `metav1.Time` / `metav1.MicroTime` field as an instant (seconds, nanoseconds); `None`
/// for the zero time (absent, `null`, or 0001-01-01T00:00:00Z).
fn instant(v: &Json, key: &str) -> Option<(i64, u32)> {
    let t = Timestamp::parse(get(v, key).and_then(Json::as_str)?)?;
    (t.secs != MIN_TS || t.nanos != 0).then_some((t.secs, t.nanos))
}

/// Whether a time field is the zero time.
fn is_zero_time(v: &Json, key: &str) -> bool {
    instant(v, key).is_none()
}

/// A time as `json.Marshal` prints it: UTC, seconds (`metav1.Time`) or microseconds
/// (`metav1.MicroTime`); `null` for the zero time.
fn time_json(v: &Json, key: &str, micro: bool) -> String {
    let Some((secs, nanos)) = instant(v, key) else { return String::from("null") };
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let (y, m, d) = civil_from_days(days);
    let frac = if micro { format!(".{:06}", nanos / 1000) } else { String::new() };
    format!("\"{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}{frac}Z\"", rem / 3600, rem / 60 % 60, rem % 60)
}

/// `legacyValidateEvent`.
fn legacy_validate(event: &Json, rules: Rules, errors: &mut Vec<Error>) {
    let root = Path::root();
    let rc_name = if rules == Rules::CoreV1 { "reportingComponent" } else { "reportingController" };
    let mut namespace = str(field(event, "metadata"), "namespace");
    // The request's namespace fills an empty one before validation.
    if namespace.is_empty() {
        namespace = "default";
    }
    let involved_ns = str(field(event, "involvedObject"), "namespace");
    let io = root.child("involvedObject");
    let mismatch = || Error::invalid(&io.child("namespace"), involved_ns, "does not match event.namespace");
    if is_zero_time(event, "eventTime") {
        if involved_ns.is_empty() {
            if !namespace.is_empty() && namespace != "default" {
                errors.push(mismatch());
            }
        } else if namespace != involved_ns {
            errors.push(mismatch());
        }
        return;
    }
    if involved_ns.is_empty() && namespace != "default" && namespace != "kube-system" {
        errors.push(mismatch());
    }
    let rc = str(event, "reportingController");
    let rcp = root.child(rc_name);
    if rc.is_empty() {
        errors.push(required(&rcp, ""));
    }
    validate_qualified_name(rc, &rcp, errors);
    let limited = |key: &str, limit: usize, need: bool, errors: &mut Vec<Error>| {
        let v = str(event, key);
        let p = root.child(key);
        if need && v.is_empty() {
            errors.push(required(&p, ""));
        }
        if v.len() > limit {
            errors.push(Error::invalid(&p, "", format!("can have at most {limit} characters")));
        }
    };
    limited("reportingInstance", 128, true, errors);
    limited("action", 128, true, errors);
    limited("reason", 128, true, errors);
    limited("message", 1024, false, errors);
}

/// `validateV1EventSeries`.
fn validate_series(event: &Json, errors: &mut Vec<Error>) {
    let Some(series) = get(event, "series") else { return };
    if int(series, "count").unwrap_or(0) < 2 {
        errors.push(Error::invalid(&Path::root().child("series.count"), "", "should be at least 2"));
    }
    if is_zero_time(series, "lastObservedTime") {
        errors.push(required(&Path::root().child("series.lastObservedTime"), ""));
    }
}

/// The strict part of `ValidateEventCreate` (`events.k8s.io/v1`), metadata aside.
fn strict_create(event: &Json, errors: &mut Vec<Error>) {
    let root = Path::root();
    validate_series(event, errors);
    if is_zero_time(event, "eventTime") {
        errors.push(required(&root.child("eventTime"), ""));
    }
    let ty = str(event, "type");
    if ty != "Normal" && ty != "Warning" {
        errors.push(Error::invalid(&root.child("type"), "", format!("has invalid value: {ty}")));
    }
    for key in ["firstTimestamp", "lastTimestamp"] {
        if !is_zero_time(event, key) {
            errors.push(Error::invalid(&root.child(key), "", "needs to be unset"));
        }
    }
    if int(event, "count").unwrap_or(0) != 0 {
        errors.push(Error::invalid(&root.child("count"), "", "needs to be unset"));
    }
    let source = field(event, "source");
    if !str(source, "component").is_empty() || !str(source, "host").is_empty() {
        errors.push(Error::invalid(&root.child("source"), "", "needs to be unset"));
    }
}

/// An internal `ObjectReference` as `json.Marshal` prints it (Go names, no tags).
fn object_reference(v: &Json) -> String {
    let keys = [
        ("Kind", "kind"),
        ("Namespace", "namespace"),
        ("Name", "name"),
        ("UID", "uid"),
        ("APIVersion", "apiVersion"),
        ("ResourceVersion", "resourceVersion"),
        ("FieldPath", "fieldPath"),
    ];
    let parts: Vec<String> = keys
        .iter()
        .map(|(go, k)| format!("{}:{}", go_json(&Json::from(*go)), go_json(&Json::from(str(v, k)))))
        .collect();
    format!("{{{}}}", parts.join(","))
}

/// A field as `ValidateImmutableField` compares (`Semantic.DeepEqual`) and prints it.
fn printed(event: &Json, key: &str) -> String {
    let v = get(event, key);
    match key {
        "involvedObject" => object_reference(v.unwrap_or(&Json::Null)),
        "related" => v.map_or_else(|| String::from("null"), object_reference),
        "source" => {
            let s = v.unwrap_or(&Json::Null);
            format!(
                "{{\"Component\":{},\"Host\":{}}}",
                go_json(&Json::from(str(s, "component"))),
                go_json(&Json::from(str(s, "host")))
            )
        }
        "firstTimestamp" | "lastTimestamp" => time_json(event, key, false),
        // Semantic.DeepEqual compares the instants; equal texts at nanosecond precision.
        "eventTime" => {
            let (secs, nanos) = instant(event, key).unwrap_or((MIN_TS, 0));
            format!("{secs}.{nanos:09}")
        }
        "count" => format!("{}", int(event, "count").unwrap_or(0)),
        _ => go_json(&Json::from(str(event, key))),
    }
}

/// The strict part of `ValidateEventUpdate` (`events.k8s.io/v1`), metadata aside.
fn strict_update(event: &Json, old: &Json, errors: &mut Vec<Error>) {
    if get(event, "series") != get(old, "series") {
        validate_series(event, errors);
    }
    let root = Path::root();
    for key in [
        "involvedObject",
        "reason",
        "message",
        "source",
        "firstTimestamp",
        "lastTimestamp",
        "count",
        "reason",
        "type",
        "eventTime",
        "action",
        "related",
        "reportingController",
        "reportingInstance",
    ] {
        let (new_text, old_text) = (printed(event, key), printed(old, key));
        // eventTime: only a change beyond the microsecond counts.
        let micro = |e: &Json| instant(e, "eventTime").map(|(s, n)| (s, n / 1000));
        if key == "eventTime" && micro(event) == micro(old) {
            continue;
        }
        if new_text != old_text {
            let path = root.child(key);
            errors.push(match key {
                "eventTime" => {
                    let mut e = Error::invalid(&path, Json::Null, "field is immutable");
                    e.rendered_value = Some(time_json(event, key, true));
                    e
                }
                "involvedObject" | "source" | "firstTimestamp" | "lastTimestamp" | "related" => {
                    let mut e = Error::invalid(&path, Json::Null, "field is immutable");
                    e.rendered_value = Some(new_text);
                    e
                }
                "count" => Error::invalid(&path, int(event, "count").unwrap_or(0), "field is immutable"),
                _ => Error::invalid(&path, str(event, key), "field is immutable"),
            });
        }
    }
}
