//! The `events.k8s.io` group: Event (`events.k8s.io/v1`, the only version 1.37 serves). It
//! converts to the same internal `core.Event` as the core group's Event and runs the same
//! `ValidateEventCreate` / `ValidateEventUpdate`, with `events.k8s.io/v1`'s strict rules
//! ([`crate::apis::core::event`]). No defaulting, no warnings.

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value as Json;

use super::core::event::{self, Rules};
use super::Group;
use crate::field::Error;

#[cfg(test)]
mod tests;

/// The kinds this room models.
pub const KINDS: &[&str] = &["Event"];

/// `SetObjectDefaults_X` of the served version for one kind: none for Event.
pub fn default(_version: &str, _kind: &str, _object: &mut Json) {}

/// The strategy, validation and warnings of one request.
pub fn admit(group: &Group<'_>, object: &mut Json, old: Option<&Json>) -> (Vec<Error>, Vec<String>) {
    match (group.kind, group.version) {
        // events.k8s.io/v1beta1 (not served in 1.37) would take the legacy rules.
        ("Event", "v1") => event::admit(Rules::EventsV1, object, old),
        ("Event", _) => event::admit(Rules::CoreV1, object, old),
        _ => (Vec::new(), Vec::new()),
    }
}
