//! ServiceAccount, after `pkg/registry/core/serviceaccount/strategy.go`
//! (`PrepareForCreate`/`PrepareForUpdate`: `cleanSecretReferences`;
//! `warnIfHasEnforceMountableSecretsAnnotation`) and `pkg/apis/core/validation/validation.go`
//! (`ValidateServiceAccount`, `ValidateServiceAccountUpdate`: metadata only, checked
//! elsewhere). No defaulting.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{Map, Value as Json};

use crate::apis::{json, Context};
use crate::field::Error;

/// plugin/pkg/admission/serviceaccount `EnforceMountableSecretsAnnotation`.
const ENFORCE_MOUNTABLE_SECRETS: &str = "kubernetes.io/enforce-mountable-secrets";

fn has_annotation(obj: &Json) -> bool {
    json::object(json::field(obj, "metadata"), "annotations").is_some_and(|a| a.contains_key(ENFORCE_MOUNTABLE_SECRETS))
}

/// The strategy and warnings: `secrets` keep only their names; the deprecated annotation
/// warns unless the old object had it.
pub fn admit(_ctx: Context, obj: &mut Json, old: Option<&Json>) -> (Vec<Error>, Vec<String>) {
    for secret in json::list_mut(obj, "secrets") {
        let name = String::from(json::str(secret, "name"));
        let mut m = Map::new();
        if !name.is_empty() {
            m.insert(String::from("name"), Json::from(name));
        }
        *secret = Json::Object(m);
    }
    let mut warnings = Vec::new();
    if !old.is_some_and(has_annotation) && has_annotation(obj) {
        warnings.push(format!(
            "metadata.annotations[{ENFORCE_MOUNTABLE_SECRETS}]: deprecated in v1.32+; prefer separate namespaces to isolate access to mounted secrets"
        ));
    }
    (Vec::new(), warnings)
}
