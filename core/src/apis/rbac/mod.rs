//! The `rbac.authorization.k8s.io` group (v1), after Kubernetes' `pkg/apis/rbac/v1/defaults.go`,
//! `pkg/registry/rbac/{role,rolebinding,clusterrole,clusterrolebinding}/strategy.go` and
//! `pkg/apis/rbac/validation/validation.go` ([`validation`]): Role, RoleBinding, ClusterRole,
//! ClusterRoleBinding.
//!
//! The strategies prepare nothing and warn of nothing; the REST storage's escalation checks
//! (`policybased`) are authorization, not validation, and are left out.

#[cfg(test)]
mod tests;
mod validation;

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{json, Value as Json};

use super::Group;
use crate::apis::json::{list_mut, str, struct_mut};
use crate::field::Error;

/// The RBAC API group (`rbac.GroupName`).
pub(crate) const GROUP: &str = "rbac.authorization.k8s.io";

/// The kinds this room models.
pub const KINDS: &[&str] = &["Role", "RoleBinding", "ClusterRole", "ClusterRoleBinding"];

/// `SetObjectDefaults_X` of rbac/v1: `SetDefaults_RoleBinding` / `SetDefaults_ClusterRoleBinding`
/// (the roleRef's empty `apiGroup`) and `SetDefaults_Subject` of each subject.
pub fn default(version: &str, kind: &str, object: &mut Json) {
    if version != "v1" || !matches!(kind, "RoleBinding" | "ClusterRoleBinding") {
        return;
    }
    if let Some(role_ref) = struct_mut(object, "roleRef") {
        if str(role_ref, "apiGroup").is_empty() {
            role_ref["apiGroup"] = json!(GROUP);
        }
    }
    for subject in list_mut(object, "subjects") {
        if !subject.is_object() || !str(subject, "apiGroup").is_empty() {
            continue;
        }
        // A ServiceAccount's group stays "".
        if matches!(str(subject, "kind"), "User" | "Group") {
            subject["apiGroup"] = json!(GROUP);
        }
    }
}

/// The strategy (nothing to prepare), then `ValidateX` or `ValidateXUpdate` (metadata aside).
pub fn admit(group: &Group<'_>, object: &mut Json, old: Option<&Json>) -> (Vec<Error>, Vec<String>) {
    let object = &*object;
    let mut errors = Vec::new();
    match group.kind {
        "Role" => validation::validate_role(object, &mut errors),
        "ClusterRole" => {
            // ValidateUpdate: AllowInvalidLabelValueInSelector when the old role has one
            // (`hasInvalidLabelValueInLabelSelector`).
            let allow = old.is_some_and(validation::has_invalid_label_value_in_label_selector);
            validation::validate_cluster_role(object, allow, &mut errors);
        }
        "RoleBinding" => validation::validate_role_binding(object, old, true, &mut errors),
        "ClusterRoleBinding" => validation::validate_role_binding(object, old, false, &mut errors),
        _ => {}
    }
    (errors, Vec::new())
}
