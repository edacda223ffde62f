//! Namespace, after `pkg/apis/core/v1/defaults.go` (`SetDefaults_Namespace`,
//! `SetDefaults_NamespaceStatus`), `pkg/registry/core/namespace/strategy.go`
//! (`PrepareForCreate`, `PrepareForUpdate`, `Canonicalize`: no warnings) and
//! `pkg/apis/core/validation/validation.go` (`ValidateNamespace`, `validateFinalizerName`,
//! `validateKubeFinalizerName`, `ValidateNamespaceUpdate`).

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{json, Value as Json};

use crate::apis::{json, Context};
use crate::content;
use crate::field::{Error, Path};

/// `core.FinalizerKubernetes`.
const FINALIZER_KUBERNETES: &str = "kubernetes";
/// `v1.LabelMetadataName`.
const LABEL_METADATA_NAME: &str = "kubernetes.io/metadata.name";

/// `SetObjectDefaults_Namespace`: the `kubernetes.io/metadata.name` label for a named
/// namespace, `status.phase` `Active`.
pub fn default(obj: &mut Json) {
    let name = String::from(json::str(json::field(obj, "metadata"), "name"));
    if !name.is_empty() {
        if let Some(meta) = json::struct_mut(obj, "metadata") {
            if let Some(labels) = json::struct_mut(meta, "labels").and_then(Json::as_object_mut) {
                labels.insert(String::from(LABEL_METADATA_NAME), Json::from(name));
            }
        }
    }
    if let Some(status) = json::struct_mut(obj, "status") {
        json::default_to(status, "phase", json!("Active"));
    }
}

/// The strategy, `ValidateNamespace` (and, for an update, `ValidateNamespaceUpdate`, which
/// checks only metadata). Namespaces have no warnings.
pub fn admit(_ctx: Context, obj: &mut Json, old: Option<&Json>) -> (Vec<Error>, Vec<String>) {
    match old {
        None => {
            // PrepareForCreate: status Active; the `kubernetes` finalizer appended when missing.
            if let Some(m) = obj.as_object_mut() {
                m.insert(String::from("status"), json!({"phase": "Active"}));
            }
            if let Some(spec) = json::struct_mut(obj, "spec").and_then(Json::as_object_mut) {
                let fins = spec.entry(String::from("finalizers")).or_insert_with(|| json!([]));
                if !fins.is_array() {
                    *fins = json!([]);
                }
                if let Some(list) = fins.as_array_mut() {
                    if !list.iter().any(|f| f.as_str() == Some(FINALIZER_KUBERNETES)) {
                        list.push(json!(FINALIZER_KUBERNETES));
                    }
                }
            }
        }
        Some(old) => {
            // PrepareForUpdate: finalizers and status are the old ones.
            let fins = json::get(json::field(old, "spec"), "finalizers").cloned();
            let status = old.get("status").cloned();
            if let Some(spec) = json::struct_mut(obj, "spec").and_then(Json::as_object_mut) {
                match fins {
                    Some(f) => spec.insert(String::from("finalizers"), f),
                    None => spec.remove("finalizers"),
                };
            }
            if let Some(m) = obj.as_object_mut() {
                match status {
                    Some(s) => m.insert(String::from("status"), s),
                    None => m.remove("status"),
                };
            }
        }
    }
    (validate(obj), Vec::new())
}

/// `ValidateNamespace` (metadata aside): each finalizer at `spec.finalizers` (no index).
pub fn validate(obj: &Json) -> Vec<Error> {
    let mut errors = Vec::new();
    let root = Path::root();
    let sp = root.child("spec");
    let path = sp.child("finalizers");
    for f in json::list(json::field(obj, "spec"), "finalizers") {
        let f = f.as_str().unwrap_or("");
        validate_finalizer_name(f, &path, &mut errors);
    }
    errors
}

/// `validateFinalizerName`: apimachinery's `ValidateFinalizerName` (a qualified name), then
/// `validateKubeFinalizerName`.
pub fn validate_finalizer_name(f: &str, path: &Path<'_>, errors: &mut Vec<Error>) {
    for msg in content::is_label_key(f) {
        errors.push(Error::invalid(path, f, msg));
    }
    if !f.contains('/') && !matches!(f, "kubernetes" | "orphan" | "foregroundDeletion") {
        errors.push(Error::invalid(path, f, "name is neither a standard finalizer name nor is it fully qualified"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // TestValidateNamespace (finalizers).
    #[test]
    fn finalizers() {
        let mut obj = json!({"metadata": {"name": "abc"}, "spec": {"finalizers": ["example.com/foo", "bar"]}});
        default(&mut obj);
        let (errors, _) = admit(Context::new(37, false), &mut obj, None);
        let got: Vec<String> = errors.iter().map(Error::text).collect();
        assert_eq!(
            got,
            ["spec.finalizers: Invalid value: \"bar\": name is neither a standard finalizer name nor is it fully qualified"]
        );
        assert_eq!(obj["spec"]["finalizers"], json!(["example.com/foo", "bar", "kubernetes"]));
        assert_eq!(obj["metadata"]["labels"]["kubernetes.io/metadata.name"], json!("abc"));
    }
}
