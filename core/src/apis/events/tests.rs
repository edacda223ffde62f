//! Unit tests of the `events.k8s.io` Event, ported from `pkg/apis/core/validation/events_test.go`
//! (`TestValidateEventCreateForNewV1Events`, `TestValidateEventUpdateForNewV1Events`,
//! `TestEventV1EventTimeImmutability`): each request goes the whole way
//! ([`crate::apis::admit`]), the exact texts asserted.

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{json, Value as Json};

use crate::apis::{admit, Request};

fn run(object: Json, old: Option<Json>) -> Vec<String> {
    let request =
        Request { group: "events.k8s.io", version: "v1", kind: "Event", object: &object, old: old.as_ref(), minor: 37 };
    admit(&request).expect("kind modeled").errors.iter().map(crate::field::Error::text).collect()
}

fn events_v1(fields: Json) -> Json {
    let mut e = json!({
        "apiVersion": "events.k8s.io/v1", "kind": "Event",
        "metadata": {"name": "test", "namespace": "default"},
        "eventTime": "2024-01-01T00:00:00.000000Z",
        "reportingController": "k8s.io/kubelet", "reportingInstance": "node-xyz",
        "action": "Do", "reason": "Yeees", "type": "Normal",
        "regarding": {"namespace": "default"},
    });
    if let (Json::Object(m), Json::Object(f)) = (&mut e, fields) {
        m.extend(f);
    }
    e
}

// TestValidateEventCreateForNewV1Events.
#[test]
fn events_v1_create() {
    assert!(run(events_v1(json!({})), None).is_empty());
    assert_eq!(
        run(
            events_v1(
                json!({"type": "Strange", "deprecatedCount": 2, "deprecatedSource": {"host": "h"}, "deprecatedFirstTimestamp": "2024-01-01T00:00:00Z"})
            ),
            None
        ),
        [
            "type: Invalid value: \"\": has invalid value: Strange",
            "firstTimestamp: Invalid value: \"\": needs to be unset",
            "count: Invalid value: \"\": needs to be unset",
            "source: Invalid value: \"\": needs to be unset"
        ]
    );
    assert_eq!(
        run(events_v1(json!({"series": {"count": 1}})), None),
        ["series.count: Invalid value: \"\": should be at least 2", "series.lastObservedTime: Required value"]
    );
    assert_eq!(
        run(events_v1(json!({"eventTime": null, "regarding": {"namespace": "default"}})), None),
        ["eventTime: Required value"]
    );
}

// TestValidateEventUpdateForNewV1Events.
#[test]
fn events_v1_update() {
    let old = events_v1(json!({}));
    assert!(run(events_v1(json!({})), Some(old.clone())).is_empty());
    assert_eq!(
        run(events_v1(json!({"note": "changed", "action": "Other"})), Some(old)),
        [
            "message: Invalid value: \"changed\": field is immutable",
            "action: Invalid value: \"Other\": field is immutable"
        ]
    );
}

// TestEventV1EventTimeImmutability: a change below the microsecond, or of the offset only, is
// no change; another instant is refused, printed in UTC with microseconds.
#[test]
fn event_time_immutability() {
    let old = events_v1(json!({"eventTime": "2024-01-01T00:00:00.123456Z"}));
    assert!(run(events_v1(json!({"eventTime": "2024-01-01T01:00:00.123456+01:00"})), Some(old.clone())).is_empty());
    assert_eq!(
        run(events_v1(json!({"eventTime": "2024-01-01T00:00:00.123457Z"})), Some(old)),
        ["eventTime: Invalid value: \"2024-01-01T00:00:00.123457Z\": field is immutable"]
    );
}
