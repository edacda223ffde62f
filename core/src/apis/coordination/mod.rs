//! The `coordination.k8s.io` group. Not modeled yet: no kind.

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
