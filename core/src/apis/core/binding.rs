//! Binding (a POST of `v1` Binding, to `bindings` or a pod's `binding` subresource), after
//! `pkg/registry/core/pod/storage/storage.go` (`BindingREST.Create`: no strategy, no
//! defaulting; the name must match the URL's, then `ValidatePodBinding`, then the pod is
//! bound, a dry run included) and `pkg/apis/core/validation/validation.go`
//! (`ValidatePodBinding`, `ValidateNodeName`).
//!
//! What kubedv cannot model: `ValidatePodBinding`'s errors come back as a plain aggregate (the
//! API server answers 500 with the errors' text as its message, no causes), and a Binding that
//! passes validation is answered by `assignPod`: 404 when the pod does not exist, else the
//! pod's own update checks (already bound, UID or resourceVersion preconditions).

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value as Json;

use super::common::{is_dns1123_subdomain, required};
use crate::apis::json;
use crate::field::{Error, Path};

/// `ValidatePodBinding`.
pub fn admit(obj: &Json) -> (Vec<Error>, Vec<String>) {
    let mut errors = Vec::new();
    let root = Path::root();
    let tp = root.child("target");
    let target = json::field(obj, "target");
    let (kind, name) = (json::str(target, "kind"), json::str(target, "name"));
    if !kind.is_empty() && kind != "Node" {
        errors.push(Error::not_supported(&tp.child("kind"), kind, &["Node", "<empty>"]));
    }
    if name.is_empty() {
        errors.push(required(&tp.child("name"), ""));
    } else if kind.is_empty() || kind == "Node" {
        for msg in is_dns1123_subdomain(name) {
            errors.push(Error::invalid(&tp.child("name"), name, msg));
        }
    }
    (errors, Vec::new())
}
