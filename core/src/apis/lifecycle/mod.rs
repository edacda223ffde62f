//! The `lifecycle.k8s.io` group (new in 1.37): no kind. Its only kinds, EvictionRequest and
//! Eviction of `lifecycle.k8s.io/v1alpha1` (`pkg/registry/lifecycle/rest`), are served only
//! with the `EvictionRequestAPI` feature gate, alpha and off by default in 1.37
//! (`pkg/features/kube_features.go`): the API server with its default gates does not serve
//! them, even with `--runtime-config=api/all=true`.

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value as Json;

use super::Group;
use crate::field::Error;

/// The kinds this room models.
pub const KINDS: &[&str] = &[];

/// `SetObjectDefaults_X` of the served version for one kind.
pub fn default(_version: &str, _kind: &str, _object: &mut Json) {}

/// The strategy, validation and warnings of one request.
pub fn admit(_group: &Group<'_>, _object: &mut Json, _old: Option<&Json>) -> (Vec<Error>, Vec<String>) {
    (Vec::new(), Vec::new())
}
