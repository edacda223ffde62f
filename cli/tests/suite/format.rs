//! The CLI contract of docs/design.md: exit status 0/1/2, text lines with a summary on stderr,
//! one JSON document with `--format json`. Error text: apimachinery pkg/api/validate/strfmt.go.

use serde_json::Value;

use crate::common::command as kubedv;

#[test]
fn valid_value_exits_0_with_nothing_on_stdout() {
    let out = kubedv().args(["check-format", "k8s-short-name", "my-app"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
    assert_eq!(String::from_utf8_lossy(&out.stderr), "1 value checked against k8s-short-name: 0 errors\n");
}

#[test]
fn invalid_value_prints_kubernetes_lines_and_exits_1() {
    let out = kubedv().args(["check-format", "k8s-short-name", "--field", "metadata.name", "a.b"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "metadata.name: Invalid value: \"a.b\": must not contain dots\n");
}

#[test]
fn several_values_are_reported_by_index() {
    let out = kubedv().args(["check-format", "k8s-label-key", "ok", "/app", "x/"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[0], "[1]: Invalid value: \"/app\": prefix part must be non-empty");
    assert_eq!(lines[1], "[2]: Invalid value: \"x/\": name part must be non-empty");
    assert_eq!(lines.len(), 3);
}

#[test]
fn values_can_come_from_stdin() {
    let out = kubedv()
        .args(["check-format", "k8s-uuid"])
        .write_stdin("123e4567-e89b-12d3-a456-426614174000\nNOPE\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "[1]: Invalid value: \"NOPE\": must be a lowercase UUID in 8-4-4-4-12 format\n"
    );
}

#[test]
fn json_is_one_document_with_the_error_shape() {
    let out = kubedv()
        .args(["--format", "json", "check-format", "k8s-resource-pool-name", &"a".repeat(254)])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let doc: Value = serde_json::from_slice(&out.stdout).expect("stdout is one JSON document");
    assert_eq!(doc["diagnostics"], serde_json::json!([]));
    let err = &doc["errors"][0];
    assert_eq!(err["type"], "FieldValueTooLong");
    assert_eq!(err["field"], "<nil>");
    assert_eq!(err["origin"], "format=k8s-resource-pool-name");
    assert_eq!(err["stability"], "stable");
    assert_eq!(err["enforced"], true);
    assert_eq!(err["text"], "<nil>: Too long: may not be more than 253 bytes");
    assert!(err.get("value").is_none());
}

#[test]
fn unknown_format_is_usage_error_exit_2_with_nothing_on_stdout() {
    let out = kubedv().args(["check-format", "k8s-nope", "x"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.starts_with("kubedv: unknown format \"k8s-nope\"; the formats are: k8s-short-name, "), "{stderr}");
}

#[test]
fn bad_flags_exit_2() {
    let out = kubedv().args(["check-format", "--nope"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
}

#[test]
fn formats_lists_every_format() {
    let out = kubedv().args(["--format", "json", "formats"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc.as_array().unwrap().len(), 11);
}
