//! Cases from Kubernetes' `pkg/apis/storagemigration/validation/validation_test.go`, through
//! the whole path ([`crate::apis::admit`]).

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{json, Value as Json};

use crate::apis::{admit, Request};

const DNS1035: &str = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const DNS1123: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

fn texts(version: &str, object: &Json, old: Option<&Json>) -> Vec<String> {
    let request =
        Request { group: "storagemigration.k8s.io", version, kind: "StorageVersionMigration", object, old, minor: 37 };
    admit(&request).map_or_else(Vec::new, |o| o.errors.iter().map(|e| e.text()).collect())
}

fn svm(group: &str, resource: &str) -> Json {
    json!({"metadata": {"name": "test-svm"}, "spec": {"resource": {"group": group, "resource": resource}}})
}

// TestValidateStorageVersionMigration.
#[test]
fn storage_version_migration() {
    assert!(texts("v1", &svm("non-empty", "non-empty"), None).is_empty());
    let required = ["spec.resource.resource: Required value: resource is required to be set"];
    assert_eq!(texts("v1", &svm("", ""), None), required);
    assert_eq!(texts("v1beta1", &svm("non-empty", ""), None), required);
    assert_eq!(
        texts("v1", &svm("non-empty", "."), None),
        [alloc::format!("spec.resource.resource: Invalid value: \".\": {DNS1035}")]
    );
    assert_eq!(
        texts("v1", &svm("-", "non-empty"), None),
        [alloc::format!("spec.resource.group: Invalid value: \"-\": {DNS1123}")]
    );
}

// TestValidateStorageVersionMigrationUpdate: the spec is immutable; the status is the old one.
#[test]
fn storage_version_migration_update() {
    let old = svm("apps", "deployments");
    let mut with_status = old.clone();
    with_status["status"] = json!({"resourceVersion": "not a number"});
    assert!(texts("v1", &with_status, Some(&old)).is_empty());
    assert_eq!(
        texts("v1", &svm("apps", "statefulsets"), Some(&old)),
        ["spec: Invalid value: {\"Resource\":{\"group\":\"apps\",\"resource\":\"statefulsets\"}}: field is immutable"]
    );
}
