//! Cases from Kubernetes' `pkg/apis/coordination/validation/validation_test.go`, through the
//! whole path ([`crate::apis::admit`]) or, where the strategy would drop the fields a case
//! sets, through the validators themselves.

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{json, Value as Json};

use super::validation;
use crate::apis::{admit, Request};
use crate::field::{Error, Path};

fn texts(version: &str, kind: &str, object: &Json, old: Option<&Json>) -> Vec<String> {
    let request = Request { group: "coordination.k8s.io", version, kind, object, old, minor: 37 };
    admit(&request).map_or_else(Vec::new, |o| o.errors.iter().map(|e| e.text()).collect())
}

fn lease(spec: Json) -> Json {
    json!({"metadata": {"name": "holder", "namespace": "holder-namespace"}, "spec": spec})
}

fn lease_spec(spec: Json) -> Vec<String> {
    let mut errors: Vec<Error> = Vec::new();
    validation::validate_lease_spec(&lease(spec), &mut errors);
    errors.iter().map(Error::text).collect()
}

// TestValidateLeaseSpec.
#[test]
fn lease_spec_cases() {
    assert!(
        lease_spec(json!({"holderIdentity": "holder", "leaseDurationSeconds": 10, "leaseTransitions": 1})).is_empty()
    );
    assert!(lease_spec(json!({"holderIdentity": "holder", "leaseDurationSeconds": 10, "leaseTransitions": 1,
        "strategy": "OldestEmulationVersion", "preferredHolder": "someotherholder"}))
    .is_empty());
    assert_eq!(
        lease_spec(json!({"holderIdentity": "holder", "leaseDurationSeconds": 0, "leaseTransitions": -1})),
        [
            "spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0",
            "spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0"
        ]
    );
    assert_eq!(
        lease_spec(
            json!({"holderIdentity": "holder", "leaseDurationSeconds": 0, "leaseTransitions": -1, "preferredHolder": "holder2"})
        ),
        [
            "spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0",
            "spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0",
            "spec.preferredHolder: Forbidden: may only be specified if `strategy` is defined"
        ]
    );
}

// TestValidateLeaseSpecUpdate (the metadata's own check aside), and the strategy dropping
// `strategy` and `preferredHolder` with CoordinatedLeaderElection off.
#[test]
fn lease_update() {
    let old = lease(json!({"holderIdentity": "oldHolder", "leaseDurationSeconds": 3, "leaseTransitions": 3}));
    let new = lease(json!({"holderIdentity": "holder", "leaseDurationSeconds": 0, "leaseTransitions": -1}));
    assert_eq!(texts("v1", "Lease", &new, Some(&old)).len(), 2);
    let valid = lease(json!({"holderIdentity": "holder", "leaseDurationSeconds": 10, "leaseTransitions": 20}));
    assert!(texts("v1", "Lease", &valid, Some(&old)).is_empty());
    let dropped = lease(json!({"strategy": "foo", "preferredHolder": "x"}));
    assert!(texts("v1", "Lease", &dropped, None).is_empty());
}

fn candidate(spec: Json) -> Json {
    json!({"metadata": {"name": "c", "namespace": "default"}, "spec": spec})
}

fn candidate_texts(spec: Json) -> Vec<String> {
    texts("v1beta1", "LeaseCandidate", &candidate(spec), None)
}

// TestValidateLeaseCandidateSpec.
#[test]
fn lease_candidate_spec() {
    let ok = |spec: Json| assert!(candidate_texts(spec.clone()).is_empty(), "{spec}");
    ok(
        json!({"binaryVersion": "1.30.0", "emulationVersion": "1.30.0", "leaseName": "test", "strategy": "OldestEmulationVersion"}),
    );
    ok(json!({"leaseName": "test", "binaryVersion": "1.30.0", "strategy": "custom.com/foo"}));
    assert_eq!(
        candidate_texts(json!({"leaseName": "test", "strategy": "custom.com/foo"})),
        ["spec.binaryVersion: Required value"]
    );
    assert_eq!(
        candidate_texts(json!({"binaryVersion": "1.30.0", "emulationVersion": "1.30.0"})),
        ["spec.leaseName: Required value", "spec.strategy: Required value"]
    );
    assert_eq!(
        candidate_texts(json!({"binaryVersion": "1.30.1.6", "leaseName": "test"})),
        [
            "spec.binaryVersion: Invalid value: \"1.30.1.6\": must be a valid semantic version",
            "spec.strategy: Required value"
        ]
    );
    assert_eq!(
        candidate_texts(json!({"emulationVersion": "1.30.0", "binaryVersion": "1.29.0", "leaseName": "test"})),
        [
            "spec.binaryVersion: Invalid value: \"1.29.0\": must be greater than or equal to `emulationVersion`",
            "spec.strategy: Required value"
        ]
    );
    assert_eq!(
        candidate_texts(
            json!({"binaryVersion": "1.30.1", "emulationVersion": "1.30.1", "leaseName": "test", "strategy": "foo"})
        ),
        ["spec.strategy.strategy: Unsupported value: \"foo\": supported values: \"OldestEmulationVersion\""]
    );
    assert_eq!(
        candidate_texts(json!({"binaryVersion": "1.30.1", "leaseName": "test", "strategy": "OldestEmulationVersion"})),
        ["spec.emulationVersion: Required value: must be specified when `strategy` is 'OldestEmulationVersion'"]
    );
}

// TestValidateLeaseCandidateUpdate: the lease name is immutable.
#[test]
fn lease_candidate_update() {
    let spec = |name: &str| json!({"leaseName": name, "binaryVersion": "1.30.0", "emulationVersion": "1.30.0", "strategy": "OldestEmulationVersion"});
    let old = candidate(spec("test"));
    assert!(texts("v1alpha2", "LeaseCandidate", &old, Some(&old)).is_empty());
    assert_eq!(
        texts("v1alpha2", "LeaseCandidate", &candidate(spec("test2")), Some(&old)),
        ["spec.leaseName: Invalid value: \"test2\": field is immutable"]
    );
}

// TestValidateCoordinatedLeaseStrategy.
#[test]
fn coordinated_lease_strategy() {
    let run = |s: &str| {
        let mut errors = Vec::new();
        validation::validate_coordinated_lease_strategy(s, &Path::named("foo"), &mut errors);
        errors.len()
    };
    assert_eq!(run("foobar"), 1);
    assert_eq!(run("example.com/foobar/toomanyslashes"), 1);
    assert_eq!(run("OldestEmulationVersion"), 0);
    assert_eq!(run("example.com/foobar"), 0);
}

// ValidLeaseCandidateName: a config map key.
#[test]
fn lease_candidate_name() {
    assert!(super::valid_lease_candidate_name("Node_1.Scheduler").is_empty());
    assert_eq!(super::valid_lease_candidate_name("..").len(), 1);
}
