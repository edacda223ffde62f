//! The lifecycle of Kubernetes' built-in API versions: when each was deprecated and when the API
//! server stopped serving it, with its replacement.
//!
//! The numbers are the ones Kubernetes compiles into its types (k8s.io/api
//! `zz_generated.prerelease-lifecycle.go` and `core/v1/lifecycle.go`, read at every release tag
//! from v0.17 to v0.37.0-beta.0; prerelease-lifecycle-gen computes them from the
//! `+k8s:prerelease-lifecycle-gen` tags: a beta version is deprecated three minors after it is
//! introduced and removed three after that, unless its tags say otherwise), completed where a
//! type left k8s.io/api before its computed removal (then the first release without it) and by
//! the two APIs served outside k8s.io/api that the deprecated API migration guide lists
//! (apiextensions.k8s.io/v1beta1 and apiregistration.k8s.io/v1beta1, both removed in 1.22).
//!
//! Its own floor under the engines: `check` reports removed and deprecated versions with it,
//! `policy` resolves the kinds a policy matches with it. [`migration`] holds what changes when
//! moving off a version (the deprecated API migration guide).

pub mod migration;

use alloc::format;
use alloc::string::String;

/// One built-in API version of a kind, with its lifecycle (Kubernetes 1.N minors).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Api {
    /// The API group (`""` for core).
    pub group: &'static str,
    /// The version (`v1beta1`).
    pub version: &'static str,
    /// The kind.
    pub kind: &'static str,
    /// The minor release that deprecated it.
    pub deprecated: Option<u32>,
    /// The first minor release that no longer serves it.
    pub removed: Option<u32>,
    /// What to use instead, as `group/version/Kind` (empty: nothing named).
    pub replacement: &'static str,
}

/// How a release treats an API version.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// Not served any more: the message says since when and what to use.
    Removed(String),
    /// Served, with the API server's deprecation warning.
    Deprecated(String),
}

impl Api {
    fn group_version(&self) -> String {
        group_version(self.group, self.version)
    }

    /// The API server's deprecation warning (apiserver `pkg/endpoints/deprecation`
    /// `WarningMessage`): `policy/v1beta1 PodDisruptionBudget is deprecated in v1.21+,
    /// unavailable in v1.25+; use policy/v1 PodDisruptionBudget`.
    pub fn warning(&self) -> String {
        let mut msg =
            format!("{} {} is deprecated in v1.{}+", self.group_version(), self.kind, self.deprecated.unwrap_or(0));
        if let Some(r) = self.removed {
            msg.push_str(&format!(", unavailable in v1.{r}+"));
        }
        if let Some(use_instead) = self.use_instead() {
            msg.push_str(&format!("; use {use_instead}"));
        }
        msg
    }

    /// The replacement as the API server names it: `policy/v1 PodDisruptionBudget`.
    pub fn use_instead(&self) -> Option<String> {
        let mut parts = self.replacement.splitn(3, '/');
        let (g, v, k) = (parts.next()?, parts.next()?, parts.next()?);
        Some(format!("{} {k}", group_version(g, v)))
    }

    /// What release 1.`minor` does with this API version, if anything.
    pub fn status(&self, minor: u32) -> Option<Status> {
        if self.removed.is_some_and(|r| r <= minor) {
            let removed = self.removed.unwrap_or(0);
            let mut msg = format!("{} {} is not served since v1.{removed}", self.group_version(), self.kind);
            if let Some(use_instead) = self.use_instead() {
                msg.push_str(&format!("; use {use_instead}"));
            }
            return Some(Status::Removed(msg));
        }
        if self.deprecated.is_some_and(|d| d <= minor) {
            return Some(Status::Deprecated(self.warning()));
        }
        None
    }
}

/// `apps/v1`, or `v1` for the core group.
pub fn group_version(group: &str, version: &str) -> String {
    if group.is_empty() {
        String::from(version)
    } else {
        format!("{group}/{version}")
    }
}

/// The lifecycle of a built-in kind at a group and version, if it has one.
pub fn lookup(group: &str, version: &str, kind: &str) -> Option<&'static Api> {
    APIS.iter().find(|a| a.group == group && a.version == version && a.kind == kind)
}

/// Every built-in API version with a deprecation or a removal: group, version, kind, the
/// minors that deprecated and removed it (0: not), and the replacement as `group/version/Kind`.
pub static APIS: &[Api] = &[
    api("", "v1", "ComponentStatus", 19, 0, ""),
    api("", "v1", "Endpoints", 33, 0, "discovery.k8s.io/v1/EndpointSlice"),
    api("admission.k8s.io", "v1beta1", "AdmissionReview", 19, 22, "admission.k8s.io/v1/AdmissionReview"),
    api("admissionregistration.k8s.io", "v1alpha1", "MutatingAdmissionPolicy", 35, 38, ""),
    api("admissionregistration.k8s.io", "v1alpha1", "MutatingAdmissionPolicyBinding", 35, 38, ""),
    api("admissionregistration.k8s.io", "v1alpha1", "ValidatingAdmissionPolicy", 29, 32, ""),
    api("admissionregistration.k8s.io", "v1alpha1", "ValidatingAdmissionPolicyBinding", 29, 32, ""),
    api(
        "admissionregistration.k8s.io",
        "v1beta1",
        "MutatingAdmissionPolicy",
        37,
        40,
        "admissionregistration.k8s.io/v1/MutatingAdmissionPolicy",
    ),
    api(
        "admissionregistration.k8s.io",
        "v1beta1",
        "MutatingAdmissionPolicyBinding",
        37,
        40,
        "admissionregistration.k8s.io/v1/MutatingAdmissionPolicyBinding",
    ),
    api(
        "admissionregistration.k8s.io",
        "v1beta1",
        "MutatingWebhookConfiguration",
        16,
        22,
        "admissionregistration.k8s.io/v1/MutatingWebhookConfiguration",
    ),
    api("admissionregistration.k8s.io", "v1beta1", "ValidatingAdmissionPolicy", 31, 34, ""),
    api("admissionregistration.k8s.io", "v1beta1", "ValidatingAdmissionPolicyBinding", 31, 34, ""),
    api(
        "admissionregistration.k8s.io",
        "v1beta1",
        "ValidatingWebhookConfiguration",
        16,
        22,
        "admissionregistration.k8s.io/v1/ValidatingWebhookConfiguration",
    ),
    api("apidiscovery.k8s.io", "v2beta1", "APIGroupDiscovery", 32, 35, ""),
    api(
        "apiextensions.k8s.io",
        "v1beta1",
        "CustomResourceDefinition",
        16,
        22,
        "apiextensions.k8s.io/v1/CustomResourceDefinition",
    ),
    api("apiregistration.k8s.io", "v1beta1", "APIService", 19, 22, "apiregistration.k8s.io/v1/APIService"),
    api("apps", "v1beta1", "ControllerRevision", 8, 16, "apps/v1/ControllerRevision"),
    api("apps", "v1beta1", "Deployment", 8, 16, "apps/v1/Deployment"),
    api("apps", "v1beta1", "DeploymentRollback", 8, 16, "apps/v1/DeploymentRollback"),
    api("apps", "v1beta1", "Scale", 8, 16, "autoscaling/v1/Scale"),
    api("apps", "v1beta1", "StatefulSet", 8, 16, "apps/v1/StatefulSet"),
    api("apps", "v1beta2", "ControllerRevision", 9, 16, "apps/v1/ControllerRevision"),
    api("apps", "v1beta2", "DaemonSet", 9, 16, "apps/v1/DaemonSet"),
    api("apps", "v1beta2", "Deployment", 9, 16, "apps/v1/Deployment"),
    api("apps", "v1beta2", "ReplicaSet", 9, 16, "apps/v1/ReplicaSet"),
    api("apps", "v1beta2", "Scale", 9, 16, "autoscaling/v1/Scale"),
    api("apps", "v1beta2", "StatefulSet", 9, 16, "apps/v1/StatefulSet"),
    api("authentication.k8s.io", "v1alpha1", "SelfSubjectReview", 29, 32, ""),
    api("authentication.k8s.io", "v1beta1", "SelfSubjectReview", 30, 33, ""),
    api("authentication.k8s.io", "v1beta1", "TokenReview", 19, 22, "authentication.k8s.io/v1/TokenReview"),
    api(
        "authorization.k8s.io",
        "v1beta1",
        "LocalSubjectAccessReview",
        19,
        22,
        "authorization.k8s.io/v1/LocalSubjectAccessReview",
    ),
    api(
        "authorization.k8s.io",
        "v1beta1",
        "SelfSubjectAccessReview",
        19,
        22,
        "authorization.k8s.io/v1/SelfSubjectAccessReview",
    ),
    api(
        "authorization.k8s.io",
        "v1beta1",
        "SelfSubjectRulesReview",
        19,
        22,
        "authorization.k8s.io/v1/SelfSubjectRulesReview",
    ),
    api(
        "authorization.k8s.io",
        "v1beta1",
        "SubjectAccessReview",
        19,
        22,
        "authorization.k8s.io/v1/SubjectAccessReview",
    ),
    api("autoscaling", "v2beta1", "HorizontalPodAutoscaler", 22, 25, "autoscaling/v2/HorizontalPodAutoscaler"),
    api("autoscaling", "v2beta2", "HorizontalPodAutoscaler", 23, 26, "autoscaling/v2/HorizontalPodAutoscaler"),
    api("batch", "v1beta1", "CronJob", 21, 25, "batch/v1/CronJob"),
    api("batch", "v1beta1", "JobTemplate", 22, 25, ""),
    api("certificates.k8s.io", "v1alpha1", "ClusterTrustBundle", 34, 37, ""),
    api("certificates.k8s.io", "v1alpha1", "PodCertificateRequest", 37, 35, ""),
    api(
        "certificates.k8s.io",
        "v1beta1",
        "CertificateSigningRequest",
        19,
        22,
        "certificates.k8s.io/v1/CertificateSigningRequest",
    ),
    api("certificates.k8s.io", "v1beta1", "ClusterTrustBundle", 37, 40, "certificates.k8s.io/v1/ClusterTrustBundle"),
    api(
        "certificates.k8s.io",
        "v1beta1",
        "PodCertificateRequest",
        37,
        40,
        "certificates.k8s.io/v1/PodCertificateRequest",
    ),
    api("coordination.k8s.io", "v1alpha1", "LeaseCandidate", 34, 32, ""),
    api("coordination.k8s.io", "v1alpha2", "LeaseCandidate", 35, 38, ""),
    api("coordination.k8s.io", "v1beta1", "Lease", 19, 22, "coordination.k8s.io/v1/Lease"),
    api("coordination.k8s.io", "v1beta1", "LeaseCandidate", 36, 39, ""),
    api("discovery.k8s.io", "v1beta1", "EndpointSlice", 21, 25, "discovery.k8s.io/v1/EndpointSlice"),
    api("events.k8s.io", "v1beta1", "Event", 22, 25, ""),
    api("extensions", "v1beta1", "DaemonSet", 8, 16, "apps/v1/DaemonSet"),
    api("extensions", "v1beta1", "Deployment", 8, 16, "apps/v1/Deployment"),
    api("extensions", "v1beta1", "DeploymentRollback", 8, 16, ""),
    api("extensions", "v1beta1", "Ingress", 14, 22, "networking.k8s.io/v1/Ingress"),
    api("extensions", "v1beta1", "NetworkPolicy", 9, 16, "networking.k8s.io/v1/NetworkPolicy"),
    api("extensions", "v1beta1", "PodSecurityPolicy", 11, 16, "policy/v1beta1/PodSecurityPolicy"),
    api("extensions", "v1beta1", "ReplicaSet", 8, 16, "apps/v1/ReplicaSet"),
    api("extensions", "v1beta1", "Scale", 2, 16, ""),
    api(
        "flowcontrol.apiserver.k8s.io",
        "v1alpha1",
        "FlowSchema",
        20,
        21,
        "flowcontrol.apiserver.k8s.io/v1beta3/FlowSchema",
    ),
    api(
        "flowcontrol.apiserver.k8s.io",
        "v1alpha1",
        "PriorityLevelConfiguration",
        20,
        21,
        "flowcontrol.apiserver.k8s.io/v1beta3/PriorityLevelConfiguration",
    ),
    api(
        "flowcontrol.apiserver.k8s.io",
        "v1beta1",
        "FlowSchema",
        23,
        26,
        "flowcontrol.apiserver.k8s.io/v1beta3/FlowSchema",
    ),
    api(
        "flowcontrol.apiserver.k8s.io",
        "v1beta1",
        "PriorityLevelConfiguration",
        23,
        26,
        "flowcontrol.apiserver.k8s.io/v1beta3/PriorityLevelConfiguration",
    ),
    api(
        "flowcontrol.apiserver.k8s.io",
        "v1beta2",
        "FlowSchema",
        26,
        29,
        "flowcontrol.apiserver.k8s.io/v1beta3/FlowSchema",
    ),
    api(
        "flowcontrol.apiserver.k8s.io",
        "v1beta2",
        "PriorityLevelConfiguration",
        26,
        29,
        "flowcontrol.apiserver.k8s.io/v1beta3/PriorityLevelConfiguration",
    ),
    api("flowcontrol.apiserver.k8s.io", "v1beta3", "FlowSchema", 29, 32, "flowcontrol.apiserver.k8s.io/v1/FlowSchema"),
    api(
        "flowcontrol.apiserver.k8s.io",
        "v1beta3",
        "PriorityLevelConfiguration",
        29,
        32,
        "flowcontrol.apiserver.k8s.io/v1/PriorityLevelConfiguration",
    ),
    api("networking.k8s.io", "v1alpha1", "ClusterCIDR", 28, 29, ""),
    api("networking.k8s.io", "v1alpha1", "IPAddress", 30, 33, ""),
    api("networking.k8s.io", "v1alpha1", "ServiceCIDR", 30, 33, ""),
    api("networking.k8s.io", "v1beta1", "IPAddress", 34, 37, ""),
    api("networking.k8s.io", "v1beta1", "Ingress", 19, 22, "networking.k8s.io/v1/Ingress"),
    api("networking.k8s.io", "v1beta1", "IngressClass", 19, 22, "networking.k8s.io/v1/IngressClassList"),
    api("networking.k8s.io", "v1beta1", "ServiceCIDR", 34, 37, ""),
    api("node.k8s.io", "v1beta1", "RuntimeClass", 22, 25, ""),
    api("policy", "v1beta1", "Eviction", 22, 25, ""),
    api("policy", "v1beta1", "PodDisruptionBudget", 21, 25, "policy/v1/PodDisruptionBudget"),
    api("policy", "v1beta1", "PodSecurityPolicy", 21, 25, ""),
    api("rbac.authorization.k8s.io", "v1beta1", "ClusterRole", 17, 22, "rbac.authorization.k8s.io/v1/ClusterRole"),
    api(
        "rbac.authorization.k8s.io",
        "v1beta1",
        "ClusterRoleBinding",
        17,
        22,
        "rbac.authorization.k8s.io/v1/ClusterRoleBinding",
    ),
    api("rbac.authorization.k8s.io", "v1beta1", "Role", 17, 22, "rbac.authorization.k8s.io/v1/Role"),
    api("rbac.authorization.k8s.io", "v1beta1", "RoleBinding", 17, 22, "rbac.authorization.k8s.io/v1/RoleBinding"),
    api("resource.k8s.io", "v1alpha3", "DeviceClass", 34, 34, "resource.k8s.io/v1beta1/DeviceClass"),
    api("resource.k8s.io", "v1alpha3", "DeviceTaintRule", 36, 39, ""),
    api("resource.k8s.io", "v1alpha3", "ResourceClaim", 34, 34, "resource.k8s.io/v1beta1/ResourceClaim"),
    api(
        "resource.k8s.io",
        "v1alpha3",
        "ResourceClaimTemplate",
        34,
        34,
        "resource.k8s.io/v1beta1/ResourceClaimTemplate",
    ),
    api("resource.k8s.io", "v1alpha3", "ResourcePoolStatusRequest", 39, 42, ""),
    api("resource.k8s.io", "v1alpha3", "ResourceSlice", 34, 34, "resource.k8s.io/v1beta1/ResourceSlice"),
    api("resource.k8s.io", "v1beta1", "DeviceClass", 35, 38, ""),
    api("resource.k8s.io", "v1beta1", "ResourceClaim", 35, 38, ""),
    api("resource.k8s.io", "v1beta1", "ResourceClaimTemplate", 35, 38, ""),
    api("resource.k8s.io", "v1beta1", "ResourceSlice", 35, 38, ""),
    api("resource.k8s.io", "v1beta2", "DeviceClass", 36, 39, ""),
    api("resource.k8s.io", "v1beta2", "DeviceTaintRule", 39, 42, ""),
    api("resource.k8s.io", "v1beta2", "ResourceClaim", 36, 39, ""),
    api("resource.k8s.io", "v1beta2", "ResourceClaimTemplate", 36, 39, ""),
    api("resource.k8s.io", "v1beta2", "ResourceSlice", 36, 39, ""),
    api("scheduling.k8s.io", "v1beta1", "PriorityClass", 14, 22, "scheduling.k8s.io/v1/PriorityClass"),
    api("storage.k8s.io", "v1alpha1", "CSIStorageCapacity", 21, 24, "storage.k8s.io/v1beta1/CSIStorageCapacity"),
    api("storage.k8s.io", "v1alpha1", "VolumeAttachment", 21, 24, "storage.k8s.io/v1/VolumeAttachment"),
    api("storage.k8s.io", "v1alpha1", "VolumeAttributesClass", 32, 35, "storage.k8s.io/v1/VolumeAttributesClass"),
    api("storage.k8s.io", "v1beta1", "CSIDriver", 19, 22, "storage.k8s.io/v1/CSIDriver"),
    api("storage.k8s.io", "v1beta1", "CSINode", 17, 22, "storage.k8s.io/v1/CSINode"),
    api("storage.k8s.io", "v1beta1", "CSIStorageCapacity", 24, 27, "storage.k8s.io/v1/CSIStorageCapacity"),
    api("storage.k8s.io", "v1beta1", "StorageClass", 19, 22, "storage.k8s.io/v1/StorageClass"),
    api("storage.k8s.io", "v1beta1", "VolumeAttachment", 19, 22, "storage.k8s.io/v1/VolumeAttachment"),
    api("storage.k8s.io", "v1beta1", "VolumeAttributesClass", 34, 37, "storage.k8s.io/v1/VolumeAttributesClass"),
    api("storagemigration.k8s.io", "v1alpha1", "StorageVersionMigration", 33, 35, ""),
    api(
        "storagemigration.k8s.io",
        "v1beta1",
        "StorageVersionMigration",
        37,
        40,
        "storagemigration.k8s.io/v1/StorageVersionMigration",
    ),
];

/// A table row (`0` and `""` for none).
const fn api(
    group: &'static str,
    version: &'static str,
    kind: &'static str,
    deprecated: u32,
    removed: u32,
    replacement: &'static str,
) -> Api {
    Api {
        group,
        version,
        kind,
        deprecated: if deprecated == 0 { None } else { Some(deprecated) },
        removed: if removed == 0 { None } else { Some(removed) },
        replacement,
    }
}
