//! Cases from Kubernetes' `pkg/apis/apiserverinternal/validation/validation_test.go`
//! (`TestValidateStorageVersionName`), and the strategy's status reset.

use alloc::vec::Vec;

use serde_json::json;

use super::validate_storage_version_name;
use crate::apis::{admit, Request};

// TestValidateStorageVersionName.
#[test]
fn storage_version_name() {
    let cases: &[(&str, &str)] = &[
        ("", "name must be in the form of <group>.<resource>"),
        ("pods", "name must be in the form of <group>.<resource>"),
        ("core.pods", ""),
        ("authentication.k8s.io.tokenreviews", ""),
        (
            "AuthenticatioN.k8s.io.tokenreviews",
            "the group segment a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
        ),
        (
            "authentication.k8s.io.TokenReviews",
            "the resource segment a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
        ),
        (
            "authentication.k8s.io.token-reviews",
            "",
        ),
    ];
    for (name, want) in cases {
        let got = validate_storage_version_name(name);
        let want: Vec<&str> = if want.is_empty() { Vec::new() } else { alloc::vec![*want] };
        assert_eq!(got, want, "{name}");
    }
    let x = |n: usize| "x".repeat(n);
    assert!(validate_storage_version_name(&alloc::format!("{}.tokenreviews", x(253))).is_empty());
    assert!(validate_storage_version_name(&alloc::format!("{}.tokenreviews", x(254)))
        .contains(&alloc::string::String::from("the group segment must be no more than 253 characters")));
    assert!(validate_storage_version_name(&alloc::format!("authentication.k8s.io.{}", x(63))).is_empty());
    assert!(validate_storage_version_name(&alloc::format!("authentication.k8s.io.{}", x(64)))
        .contains(&alloc::string::String::from("the resource segment must be no more than 63 characters")));
}

// storageVersionStrategy PrepareForCreate: the status is reset, so its mistakes don't count.
#[test]
fn status_reset() {
    let object = json!({"metadata": {"name": "apps.deployments"}, "spec": {},
        "status": {"storageVersions": [{"apiServerID": "Bad ID", "encodingVersion": "a/b/c"}]}});
    let request = Request {
        group: "internal.apiserver.k8s.io",
        version: "v1alpha1",
        kind: "StorageVersion",
        object: &object,
        old: None,
        minor: 37,
    };
    let outcome = admit(&request).expect("modeled");
    assert!(outcome.errors.is_empty());
    assert_eq!(outcome.object["status"], json!({}));
}
