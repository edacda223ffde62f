//! `kubedv cri-skew`, `cri-range` and `cri-feature` against the CLI contract of docs/design.md.
//! Policy: the Kubernetes contributor guide's "CRI API version skew policy" and "Kubernetes feature
//! development and container runtimes" (docs/fidelity.md, Formats and the CRI policies).

use serde_json::{json, Value};

use crate::common::kubedv;

#[test]
fn the_issue_example_in_text() {
    let out =
        kubedv(&["cri-skew", "--kubelet", "1.30.2", "--runtime", "containerd=1.7.20", "--client", "crictl=1.27.0"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "kubelet 1.30.2 -> containerd 1.7.20: supported: containerd 1.7.20 (Kubernetes 1.27 CRI, k8s.io/cri-api v0.27.1) is 3 minor versions older than kubelet 1.30.2: within three minor versions back on CRI v1 (older runtimes must degrade new features gracefully)\n\
         crictl 1.27.0 -> containerd 1.7.20: supported: containerd 1.7.20 (Kubernetes 1.27 CRI, k8s.io/cri-api v0.27.1) matches crictl 1.27.0's minor version on CRI v1\n"
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "supported: every pair is within the CRI API version skew policy\n"
    );
}

#[test]
fn the_issue_example_in_json() {
    let out = kubedv(&[
        "--format",
        "json",
        "cri-skew",
        "--kubelet",
        "1.30.2",
        "--runtime",
        "containerd=1.7.20",
        "--client",
        "crictl=1.27.0",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["supported"], true);
    let first = &doc["pairs"][0];
    assert_eq!(
        (&first["client"], &first["clientVersion"], &first["server"], &first["serverVersion"], &first["supported"]),
        (&json!("kubelet"), &json!("1.30.2"), &json!("containerd"), &json!("1.7.20"), &json!(true))
    );
    assert!(first["reason"].as_str().unwrap().contains("k8s.io/cri-api v0.27.1"));
    assert_eq!(doc["pairs"].as_array().unwrap().len(), 2);
}

#[test]
fn unsupported_node_exits_1() {
    let out = kubedv(&["cri-skew", "--kubelet", "1.33.0", "--runtime", "containerd=1.7.28"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("kubelet 1.33.0 -> containerd 1.7.28: NOT supported: "));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "not supported: 1 pair of 1 outside the CRI API version skew policy\n"
    );
}

#[test]
fn malformed_version_is_usage_error() {
    let out = kubedv(&["cri-skew", "--kubelet", "one.thirty", "--runtime", "v0.30.0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).starts_with(
        "kubedv: --kubelet: \"one.thirty\" is not a valid version: expected a Kubernetes version like 1.30"
    ));
}

#[test]
fn ranges() {
    let out = kubedv(&["cri-range", "--runtime", "cri-o=1.30.1"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "cri-o 1.30.1 works with kubelet 1.27 through 1.33 (CRI v1)\n");
    let out = kubedv(&["--format", "json", "cri-range", "--kubelet", "1.30"]);
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((doc["from"].as_u64(), doc["to"].as_u64()), (Some(27), Some(33)));
    assert_eq!(kubedv(&["cri-range"]).status.code(), Some(2), "one of --kubelet/--runtime is required");
}

#[test]
fn feature_policy() {
    let out = kubedv(&["cri-feature", "--stage", "beta-on", "--containerd", "released-ga", "--cri-o", "merged"]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains(
            "BLOCKED Safe Kubernetes defaults: beta enabled by default needs a GA release of both containerd and CRI-O"
        ),
        "{stdout}"
    );
    let out =
        kubedv(&["--format", "json", "cri-feature", "--stage", "alpha", "--containerd", "merged", "--cri-o", "none"]);
    assert_eq!(out.status.code(), Some(0));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["allowed"], true);
    let out = kubedv(&["cri-feature", "--stage", "beta", "--containerd", "merged", "--cri-o", "none"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "kubedv: --stage: unknown stage \"beta\"; the stages are: alpha, beta-off, beta-on, ga\n"
    );
}
