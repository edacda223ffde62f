//! `ValidateAPIService` (kube-aggregator `pkg/apis/apiregistration/validation/validation.go`,
//! which has no test table of its own) through the whole path ([`crate::apis::admit`]); the
//! oracle's `builtin` suite checks the same cases (`tests/oracle/cases/builtin/apiregistration.yaml`).

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{json, Value as Json};

use crate::apis::{admit, Request};

fn texts(object: &Json) -> Vec<String> {
    let request =
        Request { group: "apiregistration.k8s.io", version: "v1", kind: "APIService", object, old: None, minor: 37 };
    admit(&request).map_or_else(Vec::new, |o| o.errors.iter().map(|e| e.text()).collect())
}

fn service(name: &str, spec: Json) -> Json {
    json!({"apiVersion": "apiregistration.k8s.io/v1", "kind": "APIService", "metadata": {"name": name}, "spec": spec})
}

#[test]
fn local_and_served() {
    let local = service(
        "v1.example.com",
        json!({"group": "example.com", "version": "v1", "groupPriorityMinimum": 1000, "versionPriority": 15}),
    );
    assert_eq!(texts(&local), Vec::<String>::new());
    let outcome = admit(&Request {
        group: "apiregistration.k8s.io",
        version: "v1",
        kind: "APIService",
        object: &local,
        old: None,
        minor: 37,
    });
    assert_eq!(outcome.unwrap().object["status"]["conditions"][0]["reason"], "Local");
    let served = service(
        "v1.m.io",
        json!({"group": "m.io", "version": "v1", "groupPriorityMinimum": 1, "versionPriority": 1,
        "service": {"namespace": "kube-system", "name": "m"}}),
    );
    assert_eq!(texts(&served), Vec::<String>::new(), "the port defaults to 443");
}

#[test]
fn mistakes() {
    let bad = service(
        "v1.x",
        json!({"group": "example.com", "version": "v1", "groupPriorityMinimum": 0, "versionPriority": 1001}),
    );
    assert_eq!(
        texts(&bad),
        [
            "metadata.name: Invalid value: \"v1.x\": must be `spec.version+\".\"+spec.group`: \"v1.example.com\"",
            "spec.groupPriorityMinimum: Invalid value: 0: must be positive and less than 20000",
            "spec.versionPriority: Invalid value: 1001: must be positive and less than 1000",
        ]
    );
    let empty_group = service("v2.", json!({"version": "v2", "groupPriorityMinimum": 1, "versionPriority": 1}));
    assert_eq!(
        texts(&empty_group),
        ["spec.group: Required value: only v1 may have an empty group and it better be legacy kube"]
    );
    let local_tls = service(
        "v1.a.io",
        json!({"group": "a.io", "version": "v1", "groupPriorityMinimum": 1, "versionPriority": 1,
        "caBundle": "aGVsbG8=", "insecureSkipTLSVerify": true}),
    );
    assert_eq!(
        texts(&local_tls),
        [
            "spec.caBundle: Invalid value: \"5 bytes\": local APIServices may not have a caBundle",
            "spec.insecureSkipTLSVerify: Invalid value: true: local APIServices may not have insecureSkipTLSVerify",
        ]
    );
    let bad_service = service(
        "v1.a.io",
        json!({"group": "a.io", "version": "v1", "groupPriorityMinimum": 1, "versionPriority": 1,
        "caBundle": "aGVsbG8=", "insecureSkipTLSVerify": true, "service": {"port": 70000}}),
    );
    assert_eq!(
        texts(&bad_service),
        [
            "spec.service.namespace: Required value",
            "spec.service.name: Required value",
            "spec.service.port: Invalid value: 70000: port is not valid: must be between 1 and 65535, inclusive",
            "spec.insecureSkipTLSVerify: Invalid value: true: may not be true if caBundle is present",
        ]
    );
}
