//! The `coordination.k8s.io` group, after Kubernetes' `pkg/apis/coordination/validation` and
//! `pkg/registry/coordination/{lease,leasecandidate}/strategy.go`: Lease (v1) and
//! LeaseCandidate (v1alpha2, v1beta1). No defaulting; no warnings.

mod validation;

pub use validation::valid_lease_candidate_name;
#[cfg(test)]
mod tests;

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value as Json;

use super::Group;
use crate::apis::json::get;
use crate::field::Error;

/// The kinds this room models.
pub const KINDS: &[&str] = &["Lease", "LeaseCandidate"];

/// `SetObjectDefaults_X` of the served version: the group has none.
pub fn default(_version: &str, _kind: &str, _object: &mut Json) {}

/// The strategy, then `ValidateLease` / `ValidateLeaseCandidate` (create) or their `…Update`
/// (metadata aside).
pub fn admit(group: &Group<'_>, object: &mut Json, old: Option<&Json>) -> (Vec<Error>, Vec<String>) {
    let mut errors = Vec::new();
    match group.kind {
        "Lease" => {
            prepare_lease(object, old);
            validation::validate_lease_spec(object, &mut errors);
        }
        "LeaseCandidate" => {
            validation::validate_lease_candidate_spec(object, &mut errors);
            if let Some(old) = old {
                validation::validate_lease_candidate_spec_update(object, old, &mut errors);
            }
        }
        _ => {}
    }
    (errors, Vec::new())
}

/// lease strategy `PrepareForCreate` / `PrepareForUpdate` with the `CoordinatedLeaderElection`
/// gate off (its 1.37 default): `spec.strategy` and `spec.preferredHolder` are dropped, on an
/// update only when the old lease has none.
fn prepare_lease(object: &mut Json, old: Option<&Json>) {
    let old_spec = old.and_then(|o| get(o, "spec"));
    let Some(Json::Object(spec)) = object.get_mut("spec") else { return };
    for key in ["strategy", "preferredHolder"] {
        if old_spec.and_then(|s| get(s, key)).is_none() {
            spec.remove(key);
        }
    }
}
