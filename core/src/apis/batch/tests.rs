//! Cases from Kubernetes' `pkg/apis/batch/validation/validation_test.go`, run through the whole
//! path ([`crate::apis::admit`]: defaulting, strategy with the generated selector, validation).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{json, Value as Json};

use crate::apis::apps::tests::{set, texts};

fn job() -> Json {
    json!({"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "pi", "namespace": "default"},
           "spec": {"template": {"spec": {"containers": [{"name": "c", "image": "perl:5.34"}], "restartPolicy": "Never"}}}})
}

fn cron_job() -> Json {
    json!({"apiVersion": "batch/v1", "kind": "CronJob", "metadata": {"name": "hello", "namespace": "default"},
           "spec": {"schedule": "*/5 * * * *", "jobTemplate": {"spec": {"template": {"spec": {
               "containers": [{"name": "c", "image": "busybox:1.36"}], "restartPolicy": "OnFailure"}}}}}})
}

/// A case: the changes to the valid base object (JSON pointer, value), and the errors expected.
type Case<'a> = (&'a [(&'a str, Json)], &'a [&'a str]);

fn check(kind: &str, base: fn() -> Json, cases: &[Case<'_>]) {
    assert_eq!(texts("batch", kind, &base(), None), Vec::<String>::new(), "{kind}: the base object is valid");
    for (mutations, want) in cases {
        let mut object = base();
        for (pointer, value) in mutations.iter() {
            set(&mut object, pointer, value.clone());
        }
        assert_eq!(texts("batch", kind, &object, None), *want, "{kind}: {mutations:?}");
    }
}

// TestValidateJob.
#[test]
fn job_create() {
    let uid = super::PLACEHOLDER_UID;
    let not_generated = format!(
        "spec.selector: Invalid value: {{\"matchLabels\":{{\"a\":\"b\",\"batch.kubernetes.io/controller-uid\":\"{uid}\"}}}}: `selector` not auto-generated"
    );
    check(
        "Job",
        job,
        &[
            (
                &[("/spec/template/spec/restartPolicy", Json::Null)],
                &["spec.template.spec.restartPolicy: Required value: valid values: \"OnFailure\", \"Never\""],
            ),
            (&[("/spec/parallelism", json!(-1))], &["spec.parallelism: Invalid value: -1: must be greater than or equal to 0"]),
            (&[("/spec/backoffLimit", json!(-1))], &["spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0"]),
            (
                &[("/spec/completionMode", json!("Foo"))],
                &["spec.completionMode: Unsupported value: \"Foo\": supported values: \"NonIndexed\", \"Indexed\""],
            ),
            (
                &[("/spec/backoffLimitPerIndex", json!(1))],
                &["spec.backoffLimitPerIndex: Invalid value: 1: requires indexed completion mode"],
            ),
            (
                &[
                    ("/spec/manualSelector", json!(true)),
                    ("/spec/selector", json!({"matchLabels": {"a": "b"}})),
                    ("/spec/template/metadata/labels", json!({"a": "c"})),
                ],
                &["spec.template.metadata.labels: Invalid value: {\"a\":\"c\"}: `selector` does not match template `labels`"],
            ),
            (
                &[
                    ("/spec/podFailurePolicy", json!({"rules": [{"action": "FailJob", "onExitCodes": {"operator": "In", "values": [42]}}]})),
                    ("/spec/template/spec/restartPolicy", json!("OnFailure")),
                ],
                &["spec.template.spec.restartPolicy: Invalid value: \"OnFailure\": only \"Never\" is supported when podFailurePolicy is specified"],
            ),
            (
                &[("/spec/podFailurePolicy", json!({"rules": [{"action": "Bogus", "onExitCodes": {"operator": "In", "values": [0, 3, 2, 2]}}]}))],
                &[
                    "spec.podFailurePolicy.rules[0].action: Unsupported value: \"Bogus\": supported values: \"Count\", \"FailIndex\", \"FailJob\", \"Ignore\"",
                    "spec.podFailurePolicy.rules[0].onExitCodes.values[0]: Invalid value: 0: must not be 0 for the In operator",
                    "spec.podFailurePolicy.rules[0].onExitCodes.values[3]: Duplicate value: 2",
                    "spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: [0,3,2,2]: must be ordered",
                ],
            ),
            (
                &[("/spec/podFailurePolicy", json!({"rules": [{"action": "Ignore"}]}))],
                &["spec.podFailurePolicy.rules[0]: Invalid value: specifying one of OnExitCodes and OnPodConditions is required"],
            ),
        ],
    );
    let mut selector_set = job();
    set(&mut selector_set, "/spec/selector", json!({"matchLabels": {"a": "b"}}));
    set(&mut selector_set, "/spec/template/metadata/labels", json!({"a": "b"}));
    assert_eq!(texts("batch", "Job", &selector_set, None), [not_generated]);
    let name = "a".repeat(62);
    let mut indexed = job();
    set(&mut indexed, "/metadata/name", json!(name));
    set(&mut indexed, "/spec/completionMode", json!("Indexed"));
    set(&mut indexed, "/spec/completions", json!(20));
    assert_eq!(
        texts("batch", "Job", &indexed, None),
        [format!(
            "metadata.name: Invalid value: \"{name}\": will not able to create pod with invalid DNS label: {name}-19"
        )]
    );
}

// TestValidateJobUpdate: the completions of a non-indexed Job may not change. The update
// replaces the Job as stored (its generated selector and labels), as `kubectl replace` would
// send it back.
#[test]
fn job_update_completions() {
    let request =
        crate::apis::Request { group: "batch", version: "v1", kind: "Job", object: &job(), old: None, minor: 37 };
    let old = crate::apis::admit(&request).map(|o| o.object).unwrap_or_default();
    let mut new = old.clone();
    set(&mut new, "/spec/completions", json!(3));
    assert_eq!(texts("batch", "Job", &new, Some(&old)), ["spec.completions: Invalid value: 3: field is immutable"]);
}

// TestValidateCronJob.
#[test]
fn cron_job_create() {
    check(
        "CronJob",
        cron_job,
        &[
            (
                &[("/spec/schedule", json!("* * *"))],
                &["spec.schedule: Invalid value: \"* * *\": expected exactly 5 fields, found 3: [* * *]"],
            ),
            (&[("/spec/schedule", json!("@every 5m"))], &[]),
            (
                &[("/spec/concurrencyPolicy", json!("Sometimes"))],
                &["spec.concurrencyPolicy: Unsupported value: \"Sometimes\": supported values: \"Allow\", \"Forbid\", \"Replace\""],
            ),
            (
                &[("/spec/timeZone", json!("Mars/Olympus"))],
                &["spec.timeZone: Invalid value: \"Mars/Olympus\": unknown time zone Mars/Olympus"],
            ),
            (
                &[("/spec/startingDeadlineSeconds", json!(-1))],
                &["spec.startingDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0"],
            ),
            (
                &[("/spec/jobTemplate/spec/selector", json!({"matchLabels": {"a": "b"}}))],
                &["spec.jobTemplate.spec.selector: Invalid value: {\"matchLabels\":{\"a\":\"b\"}}: `selector` will be auto-generated"],
            ),
            (
                &[("/spec/jobTemplate/spec/manualSelector", json!(true))],
                &["spec.jobTemplate.spec.manualSelector: Unsupported value: true: supported values: \"nil\", \"false\""],
            ),
            (
                &[("/spec/jobTemplate/spec/template/spec/restartPolicy", json!("Always"))],
                &["spec.jobTemplate.spec.template.spec.restartPolicy: Required value: valid values: \"OnFailure\", \"Never\""],
            ),
        ],
    );
}
