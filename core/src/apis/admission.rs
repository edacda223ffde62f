//! The validating admission plugins of kube-apiserver's default set that judge a request of
//! these kinds on its own (without other objects of the cluster), after validation passed
//! (the generic registry's `createValidation` / `updateValidation` run after `BeforeCreate` /
//! `BeforeUpdate`):
//!
//! - **PodSecurity** on a Namespace: its `pod-security.kubernetes.io/*` labels must name a level
//!   and a version (k8s.io/pod-security-admission v0.37.2 `admission.ValidateNamespace`,
//!   `api.PolicyToEvaluate`). A Pod's own checks depend on its namespace's labels, which a
//!   request does not carry: with none, the policy is `privileged` and allows everything.

use alloc::vec::Vec;

use serde_json::Value as Json;

use super::json;
use crate::field::{Error, Path};

/// The label keys `PolicyToEvaluate` reads, in its order: (key, is a level).
const LABELS: [(&str, bool); 6] = [
    ("pod-security.kubernetes.io/enforce", true),
    ("pod-security.kubernetes.io/enforce-version", false),
    ("pod-security.kubernetes.io/audit", true),
    ("pod-security.kubernetes.io/audit-version", false),
    ("pod-security.kubernetes.io/warn", true),
    ("pod-security.kubernetes.io/warn-version", false),
];

/// `PolicyToEvaluate`'s errors for a namespace's labels.
fn policy_errors(namespace: &Json) -> Vec<Error> {
    let labels = json::field(json::field(namespace, "metadata"), "labels");
    let path = Path::named("metadata.labels");
    let mut errors = Vec::new();
    for (key, level) in LABELS {
        let Some(value) = labels.get(key) else { continue };
        let value = value.as_str().unwrap_or("");
        let detail = match level {
            true if !matches!(value, "privileged" | "baseline" | "restricted") => {
                "must be one of privileged, baseline, restricted"
            }
            false if !valid_version(value) => "must be \"latest\" or \"v1.x\"",
            _ => continue,
        };
        errors.push(Error::invalid(&path.key(key), value, detail));
    }
    errors
}

/// `ParseVersion`: `latest` or `v1.N` (`^v1\.([0-9]|[1-9][0-9]*)$`, N fitting an int).
fn valid_version(version: &str) -> bool {
    if version == "latest" {
        return true;
    }
    let Some(minor) = version.strip_prefix("v1.") else { return false };
    let digits = !minor.is_empty() && minor.bytes().all(|b| b.is_ascii_digit());
    digits && (minor == "0" || !minor.starts_with('0')) && minor.parse::<i64>().is_ok()
}

/// The validating admission plugins' refusal of a request validation let through.
pub fn validate(group: &str, kind: &str, object: &Json, old: Option<&Json>) -> Vec<Error> {
    if group.is_empty() && kind == "Namespace" {
        let errors = policy_errors(object);
        // On update, labels that were already invalid the same way are let through.
        if let Some(old) = old {
            let before = policy_errors(old);
            if !before.is_empty() && before == errors {
                return Vec::new();
            }
        }
        return errors;
    }
    Vec::new()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    // Expectations: kube-apiserver v1.37.2 (tests/oracle/answers/fuzz-builtin.jsonl) and
    // pod-security-admission's admission_test.go.
    #[test]
    fn namespace_labels() {
        let ns = json!({"metadata": {"name": "a", "labels": {
            "pod-security.kubernetes.io/warn-version": "100m",
            "pod-security.kubernetes.io/enforce": "strict",
            "pod-security.kubernetes.io/audit-version": "v1.25"}}});
        let texts: alloc::vec::Vec<_> = super::validate("", "Namespace", &ns, None).iter().map(|e| e.text()).collect();
        assert_eq!(
            texts,
            [
                "metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: \"strict\": must be one of privileged, baseline, restricted",
                "metadata.labels[pod-security.kubernetes.io/warn-version]: Invalid value: \"100m\": must be \"latest\" or \"v1.x\""
            ]
        );
        assert!(super::valid_version("v1.0") && !super::valid_version("v1.01") && !super::valid_version("v2.1"));
    }
}
