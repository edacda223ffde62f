//! Lease and LeaseCandidate validation, after `pkg/apis/coordination/validation/validation.go`
//! (`ValidateLeaseSpec`, `ValidateLeaseCandidateSpec`, `ValidateLeaseCandidateSpecUpdate`,
//! `ValidateCoordinatedLeaseStrategy`; `ValidLeaseCandidateName` for the metadata side).

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value as Json;

use crate::apis::core::common::{is_config_map_key, required};
use crate::apis::json::{field, int, opt_str, str};
use crate::cel::value::k8s::Semver;
use crate::field::{go_json, Error, Path};

/// `coordination.OldestEmulationVersion`, the only Kubernetes-defined strategy.
const OLDEST_EMULATION_VERSION: &str = "OldestEmulationVersion";

/// A `CoordinatedLeaseStrategy` bad value: a named string type, which `field.Error` prints as
/// its JSON.
fn strategy_error(mut e: Error, strategy: &str) -> Error {
    e.rendered_value = Some(go_json(&Json::from(strategy)));
    e
}

/// `ValidateLeaseSpec` (`ValidateLease` and `ValidateLeaseUpdate` both run it).
pub(crate) fn validate_lease_spec(lease: &Json, errors: &mut Vec<Error>) {
    let root = Path::root();
    let path = root.child("spec");
    let spec = field(lease, "spec");
    if let Some(d) = int(spec, "leaseDurationSeconds").filter(|d| *d <= 0) {
        errors.push(Error::invalid(&path.child("leaseDurationSeconds"), d, "must be greater than 0"));
    }
    if let Some(t) = int(spec, "leaseTransitions").filter(|t| *t < 0) {
        errors.push(Error::invalid(&path.child("leaseTransitions"), t, "must be greater than or equal to 0"));
    }
    let strategy = opt_str(spec, "strategy");
    if let Some(s) = strategy {
        validate_coordinated_lease_strategy(s, &path.child("strategy"), errors);
    }
    if opt_str(spec, "preferredHolder").is_some_and(|h| !h.is_empty()) && strategy.unwrap_or("").is_empty() {
        errors.push(crate::apis::core::common::forbidden(
            &path.child("preferredHolder"),
            "may only be specified if `strategy` is defined",
        ));
    }
}

/// `ValidLeaseCandidateName`: `IsConfigMapKey` (for the metadata checks).
pub fn valid_lease_candidate_name(name: &str) -> Vec<String> {
    is_config_map_key(name)
}

/// `semver.Parse`, the zero version where it fails.
fn parse(version: &str) -> (Semver, bool) {
    match Semver::parse(version) {
        Ok(v) => (v, true),
        Err(_) => (zero(), false),
    }
}

fn zero() -> Semver {
    Semver { major: 0, minor: 0, patch: 0, pre: Vec::new(), build: Vec::new() }
}

/// `ValidateLeaseCandidateSpec` (`ValidateLeaseCandidate` and `ValidateLeaseCandidateUpdate`
/// both run it).
pub(crate) fn validate_lease_candidate_spec(candidate: &Json, errors: &mut Vec<Error>) {
    let root = Path::root();
    let path = root.child("spec");
    let spec = field(candidate, "spec");
    if str(spec, "leaseName").is_empty() {
        errors.push(required(&path.child("leaseName"), ""));
    }
    let emulation = str(spec, "emulationVersion");
    let mut ev = zero();
    if !emulation.is_empty() {
        let ok;
        (ev, ok) = parse(emulation);
        if !ok {
            errors.push(Error::invalid(&path.child("emulationVersion"), emulation, "must be a valid semantic version"));
        }
    }
    let binary = str(spec, "binaryVersion");
    let mut bv = zero();
    if binary.is_empty() {
        errors.push(required(&path.child("binaryVersion"), ""));
    } else {
        let ok;
        (bv, ok) = parse(binary);
        if !ok {
            errors.push(Error::invalid(&path.child("binaryVersion"), binary, "must be a valid semantic version"));
        }
    }
    if !binary.is_empty() && !emulation.is_empty() && bv.compare(&ev).is_lt() {
        errors.push(Error::invalid(
            &path.child("binaryVersion"),
            binary,
            "must be greater than or equal to `emulationVersion`",
        ));
    }
    let strategy = str(spec, "strategy");
    if strategy.is_empty() {
        errors.push(required(&path.child("strategy"), ""));
    } else {
        if strategy == OLDEST_EMULATION_VERSION && ev.compare(&zero()).is_eq() {
            errors.push(required(
                &path.child("emulationVersion"),
                "must be specified when `strategy` is 'OldestEmulationVersion'",
            ));
        }
        validate_coordinated_lease_strategy(strategy, &path.child("strategy"), errors);
    }
}

/// `ValidateLeaseCandidateSpecUpdate`: `spec.leaseName` is immutable.
pub(crate) fn validate_lease_candidate_spec_update(candidate: &Json, old: &Json, errors: &mut Vec<Error>) {
    let name = str(field(candidate, "spec"), "leaseName");
    if name != str(field(old, "spec"), "leaseName") {
        let root = Path::root();
        let path = root.child("spec");
        errors.push(Error::invalid(&path.child("leaseName"), name, "field is immutable"));
    }
}

/// `ValidateCoordinatedLeaseStrategy` (whose errors are at `<path>.strategy`: the callers pass
/// the strategy's own path).
pub(crate) fn validate_coordinated_lease_strategy(strategy: &str, path: &Path<'_>, errors: &mut Vec<Error>) {
    let at = path.child("strategy");
    if !strategy.contains('/') {
        if strategy != OLDEST_EMULATION_VERSION {
            let e = Error::not_supported(&at, strategy, &[OLDEST_EMULATION_VERSION]);
            errors.push(strategy_error(e, strategy));
        }
        return;
    }
    for msg in crate::content::is_label_key(strategy) {
        errors.push(strategy_error(Error::invalid(&at, strategy, msg), strategy));
    }
}
