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
    /// What to use instead: group, version, kind.
    pub replacement: Option<(&'static str, &'static str, &'static str)>,
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
        if let Some((g, v, k)) = self.replacement {
            msg.push_str(&format!("; use {} {k}", group_version(g, v)));
        }
        msg
    }

    /// What release 1.`minor` does with this API version, if anything.
    pub fn status(&self, minor: u32) -> Option<Status> {
        if self.removed.is_some_and(|r| r <= minor) {
            let removed = self.removed.unwrap_or(0);
            let mut msg = format!("{} {} is not served since v1.{removed}", self.group_version(), self.kind);
            if let Some((g, v, k)) = self.replacement {
                msg.push_str(&format!("; use {} {k}", group_version(g, v)));
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

/// Every built-in API version with a deprecation or a removal.
pub static APIS: &[Api] = &[
    Api { group: "", version: "v1", kind: "ComponentStatus", deprecated: Some(19), removed: None, replacement: None },
    Api {
        group: "",
        version: "v1",
        kind: "Endpoints",
        deprecated: Some(33),
        removed: None,
        replacement: Some(("discovery.k8s.io", "v1", "EndpointSlice")),
    },
    Api {
        group: "admission.k8s.io",
        version: "v1beta1",
        kind: "AdmissionReview",
        deprecated: Some(19),
        removed: Some(22),
        replacement: Some(("admission.k8s.io", "v1", "AdmissionReview")),
    },
    Api {
        group: "admissionregistration.k8s.io",
        version: "v1alpha1",
        kind: "MutatingAdmissionPolicy",
        deprecated: Some(35),
        removed: Some(38),
        replacement: None,
    },
    Api {
        group: "admissionregistration.k8s.io",
        version: "v1alpha1",
        kind: "MutatingAdmissionPolicyBinding",
        deprecated: Some(35),
        removed: Some(38),
        replacement: None,
    },
    Api {
        group: "admissionregistration.k8s.io",
        version: "v1alpha1",
        kind: "ValidatingAdmissionPolicy",
        deprecated: Some(29),
        removed: Some(32),
        replacement: None,
    },
    Api {
        group: "admissionregistration.k8s.io",
        version: "v1alpha1",
        kind: "ValidatingAdmissionPolicyBinding",
        deprecated: Some(29),
        removed: Some(32),
        replacement: None,
    },
    Api {
        group: "admissionregistration.k8s.io",
        version: "v1beta1",
        kind: "MutatingAdmissionPolicy",
        deprecated: Some(37),
        removed: Some(40),
        replacement: Some(("admissionregistration.k8s.io", "v1", "MutatingAdmissionPolicy")),
    },
    Api {
        group: "admissionregistration.k8s.io",
        version: "v1beta1",
        kind: "MutatingAdmissionPolicyBinding",
        deprecated: Some(37),
        removed: Some(40),
        replacement: Some(("admissionregistration.k8s.io", "v1", "MutatingAdmissionPolicyBinding")),
    },
    Api {
        group: "admissionregistration.k8s.io",
        version: "v1beta1",
        kind: "MutatingWebhookConfiguration",
        deprecated: Some(16),
        removed: Some(22),
        replacement: Some(("admissionregistration.k8s.io", "v1", "MutatingWebhookConfiguration")),
    },
    Api {
        group: "admissionregistration.k8s.io",
        version: "v1beta1",
        kind: "ValidatingAdmissionPolicy",
        deprecated: Some(31),
        removed: Some(34),
        replacement: None,
    },
    Api {
        group: "admissionregistration.k8s.io",
        version: "v1beta1",
        kind: "ValidatingAdmissionPolicyBinding",
        deprecated: Some(31),
        removed: Some(34),
        replacement: None,
    },
    Api {
        group: "admissionregistration.k8s.io",
        version: "v1beta1",
        kind: "ValidatingWebhookConfiguration",
        deprecated: Some(16),
        removed: Some(22),
        replacement: Some(("admissionregistration.k8s.io", "v1", "ValidatingWebhookConfiguration")),
    },
    Api {
        group: "apidiscovery.k8s.io",
        version: "v2beta1",
        kind: "APIGroupDiscovery",
        deprecated: Some(32),
        removed: Some(35),
        replacement: None,
    },
    Api {
        group: "apiextensions.k8s.io",
        version: "v1beta1",
        kind: "CustomResourceDefinition",
        deprecated: Some(16),
        removed: Some(22),
        replacement: Some(("apiextensions.k8s.io", "v1", "CustomResourceDefinition")),
    },
    Api {
        group: "apiregistration.k8s.io",
        version: "v1beta1",
        kind: "APIService",
        deprecated: Some(19),
        removed: Some(22),
        replacement: Some(("apiregistration.k8s.io", "v1", "APIService")),
    },
    Api {
        group: "apps",
        version: "v1beta1",
        kind: "ControllerRevision",
        deprecated: Some(8),
        removed: Some(16),
        replacement: Some(("apps", "v1", "ControllerRevision")),
    },
    Api {
        group: "apps",
        version: "v1beta1",
        kind: "Deployment",
        deprecated: Some(8),
        removed: Some(16),
        replacement: Some(("apps", "v1", "Deployment")),
    },
    Api {
        group: "apps",
        version: "v1beta1",
        kind: "DeploymentRollback",
        deprecated: Some(8),
        removed: Some(16),
        replacement: Some(("apps", "v1", "DeploymentRollback")),
    },
    Api {
        group: "apps",
        version: "v1beta1",
        kind: "Scale",
        deprecated: Some(8),
        removed: Some(16),
        replacement: Some(("autoscaling", "v1", "Scale")),
    },
    Api {
        group: "apps",
        version: "v1beta1",
        kind: "StatefulSet",
        deprecated: Some(8),
        removed: Some(16),
        replacement: Some(("apps", "v1", "StatefulSet")),
    },
    Api {
        group: "apps",
        version: "v1beta2",
        kind: "ControllerRevision",
        deprecated: Some(9),
        removed: Some(16),
        replacement: Some(("apps", "v1", "ControllerRevision")),
    },
    Api {
        group: "apps",
        version: "v1beta2",
        kind: "DaemonSet",
        deprecated: Some(9),
        removed: Some(16),
        replacement: Some(("apps", "v1", "DaemonSet")),
    },
    Api {
        group: "apps",
        version: "v1beta2",
        kind: "Deployment",
        deprecated: Some(9),
        removed: Some(16),
        replacement: Some(("apps", "v1", "Deployment")),
    },
    Api {
        group: "apps",
        version: "v1beta2",
        kind: "ReplicaSet",
        deprecated: Some(9),
        removed: Some(16),
        replacement: Some(("apps", "v1", "ReplicaSet")),
    },
    Api {
        group: "apps",
        version: "v1beta2",
        kind: "Scale",
        deprecated: Some(9),
        removed: Some(16),
        replacement: Some(("autoscaling", "v1", "Scale")),
    },
    Api {
        group: "apps",
        version: "v1beta2",
        kind: "StatefulSet",
        deprecated: Some(9),
        removed: Some(16),
        replacement: Some(("apps", "v1", "StatefulSet")),
    },
    Api {
        group: "authentication.k8s.io",
        version: "v1alpha1",
        kind: "SelfSubjectReview",
        deprecated: Some(29),
        removed: Some(32),
        replacement: None,
    },
    Api {
        group: "authentication.k8s.io",
        version: "v1beta1",
        kind: "SelfSubjectReview",
        deprecated: Some(30),
        removed: Some(33),
        replacement: None,
    },
    Api {
        group: "authentication.k8s.io",
        version: "v1beta1",
        kind: "TokenReview",
        deprecated: Some(19),
        removed: Some(22),
        replacement: Some(("authentication.k8s.io", "v1", "TokenReview")),
    },
    Api {
        group: "authorization.k8s.io",
        version: "v1beta1",
        kind: "LocalSubjectAccessReview",
        deprecated: Some(19),
        removed: Some(22),
        replacement: Some(("authorization.k8s.io", "v1", "LocalSubjectAccessReview")),
    },
    Api {
        group: "authorization.k8s.io",
        version: "v1beta1",
        kind: "SelfSubjectAccessReview",
        deprecated: Some(19),
        removed: Some(22),
        replacement: Some(("authorization.k8s.io", "v1", "SelfSubjectAccessReview")),
    },
    Api {
        group: "authorization.k8s.io",
        version: "v1beta1",
        kind: "SelfSubjectRulesReview",
        deprecated: Some(19),
        removed: Some(22),
        replacement: Some(("authorization.k8s.io", "v1", "SelfSubjectRulesReview")),
    },
    Api {
        group: "authorization.k8s.io",
        version: "v1beta1",
        kind: "SubjectAccessReview",
        deprecated: Some(19),
        removed: Some(22),
        replacement: Some(("authorization.k8s.io", "v1", "SubjectAccessReview")),
    },
    Api {
        group: "autoscaling",
        version: "v2beta1",
        kind: "HorizontalPodAutoscaler",
        deprecated: Some(22),
        removed: Some(25),
        replacement: Some(("autoscaling", "v2", "HorizontalPodAutoscaler")),
    },
    Api {
        group: "autoscaling",
        version: "v2beta2",
        kind: "HorizontalPodAutoscaler",
        deprecated: Some(23),
        removed: Some(26),
        replacement: Some(("autoscaling", "v2", "HorizontalPodAutoscaler")),
    },
    Api {
        group: "batch",
        version: "v1beta1",
        kind: "CronJob",
        deprecated: Some(21),
        removed: Some(25),
        replacement: Some(("batch", "v1", "CronJob")),
    },
    Api {
        group: "batch",
        version: "v1beta1",
        kind: "JobTemplate",
        deprecated: Some(22),
        removed: Some(25),
        replacement: None,
    },
    Api {
        group: "certificates.k8s.io",
        version: "v1alpha1",
        kind: "ClusterTrustBundle",
        deprecated: Some(34),
        removed: Some(37),
        replacement: None,
    },
    Api {
        group: "certificates.k8s.io",
        version: "v1alpha1",
        kind: "PodCertificateRequest",
        deprecated: Some(37),
        removed: Some(35),
        replacement: None,
    },
    Api {
        group: "certificates.k8s.io",
        version: "v1beta1",
        kind: "CertificateSigningRequest",
        deprecated: Some(19),
        removed: Some(22),
        replacement: Some(("certificates.k8s.io", "v1", "CertificateSigningRequest")),
    },
    Api {
        group: "certificates.k8s.io",
        version: "v1beta1",
        kind: "ClusterTrustBundle",
        deprecated: Some(37),
        removed: Some(40),
        replacement: Some(("certificates.k8s.io", "v1", "ClusterTrustBundle")),
    },
    Api {
        group: "certificates.k8s.io",
        version: "v1beta1",
        kind: "PodCertificateRequest",
        deprecated: Some(38),
        removed: Some(41),
        replacement: None,
    },
    Api {
        group: "coordination.k8s.io",
        version: "v1alpha1",
        kind: "LeaseCandidate",
        deprecated: Some(34),
        removed: Some(32),
        replacement: None,
    },
    Api {
        group: "coordination.k8s.io",
        version: "v1alpha2",
        kind: "LeaseCandidate",
        deprecated: Some(35),
        removed: Some(38),
        replacement: None,
    },
    Api {
        group: "coordination.k8s.io",
        version: "v1beta1",
        kind: "Lease",
        deprecated: Some(19),
        removed: Some(22),
        replacement: Some(("coordination.k8s.io", "v1", "Lease")),
    },
    Api {
        group: "coordination.k8s.io",
        version: "v1beta1",
        kind: "LeaseCandidate",
        deprecated: Some(36),
        removed: Some(39),
        replacement: None,
    },
    Api {
        group: "discovery.k8s.io",
        version: "v1beta1",
        kind: "EndpointSlice",
        deprecated: Some(21),
        removed: Some(25),
        replacement: Some(("discovery.k8s.io", "v1", "EndpointSlice")),
    },
    Api {
        group: "events.k8s.io",
        version: "v1beta1",
        kind: "Event",
        deprecated: Some(22),
        removed: Some(25),
        replacement: None,
    },
    Api {
        group: "extensions",
        version: "v1beta1",
        kind: "DaemonSet",
        deprecated: Some(8),
        removed: Some(16),
        replacement: Some(("apps", "v1", "DaemonSet")),
    },
    Api {
        group: "extensions",
        version: "v1beta1",
        kind: "Deployment",
        deprecated: Some(8),
        removed: Some(16),
        replacement: Some(("apps", "v1", "Deployment")),
    },
    Api {
        group: "extensions",
        version: "v1beta1",
        kind: "DeploymentRollback",
        deprecated: Some(8),
        removed: Some(16),
        replacement: None,
    },
    Api {
        group: "extensions",
        version: "v1beta1",
        kind: "Ingress",
        deprecated: Some(14),
        removed: Some(22),
        replacement: Some(("networking.k8s.io", "v1", "Ingress")),
    },
    Api {
        group: "extensions",
        version: "v1beta1",
        kind: "NetworkPolicy",
        deprecated: Some(9),
        removed: Some(16),
        replacement: Some(("networking.k8s.io", "v1", "NetworkPolicy")),
    },
    Api {
        group: "extensions",
        version: "v1beta1",
        kind: "PodSecurityPolicy",
        deprecated: Some(11),
        removed: Some(16),
        replacement: Some(("policy", "v1beta1", "PodSecurityPolicy")),
    },
    Api {
        group: "extensions",
        version: "v1beta1",
        kind: "ReplicaSet",
        deprecated: Some(8),
        removed: Some(16),
        replacement: Some(("apps", "v1", "ReplicaSet")),
    },
    Api {
        group: "extensions",
        version: "v1beta1",
        kind: "Scale",
        deprecated: Some(2),
        removed: Some(16),
        replacement: None,
    },
    Api {
        group: "flowcontrol.apiserver.k8s.io",
        version: "v1alpha1",
        kind: "FlowSchema",
        deprecated: Some(20),
        removed: Some(21),
        replacement: Some(("flowcontrol.apiserver.k8s.io", "v1beta3", "FlowSchema")),
    },
    Api {
        group: "flowcontrol.apiserver.k8s.io",
        version: "v1alpha1",
        kind: "PriorityLevelConfiguration",
        deprecated: Some(20),
        removed: Some(21),
        replacement: Some(("flowcontrol.apiserver.k8s.io", "v1beta3", "PriorityLevelConfiguration")),
    },
    Api {
        group: "flowcontrol.apiserver.k8s.io",
        version: "v1beta1",
        kind: "FlowSchema",
        deprecated: Some(23),
        removed: Some(26),
        replacement: Some(("flowcontrol.apiserver.k8s.io", "v1beta3", "FlowSchema")),
    },
    Api {
        group: "flowcontrol.apiserver.k8s.io",
        version: "v1beta1",
        kind: "PriorityLevelConfiguration",
        deprecated: Some(23),
        removed: Some(26),
        replacement: Some(("flowcontrol.apiserver.k8s.io", "v1beta3", "PriorityLevelConfiguration")),
    },
    Api {
        group: "flowcontrol.apiserver.k8s.io",
        version: "v1beta2",
        kind: "FlowSchema",
        deprecated: Some(26),
        removed: Some(29),
        replacement: Some(("flowcontrol.apiserver.k8s.io", "v1beta3", "FlowSchema")),
    },
    Api {
        group: "flowcontrol.apiserver.k8s.io",
        version: "v1beta2",
        kind: "PriorityLevelConfiguration",
        deprecated: Some(26),
        removed: Some(29),
        replacement: Some(("flowcontrol.apiserver.k8s.io", "v1beta3", "PriorityLevelConfiguration")),
    },
    Api {
        group: "flowcontrol.apiserver.k8s.io",
        version: "v1beta3",
        kind: "FlowSchema",
        deprecated: Some(29),
        removed: Some(32),
        replacement: Some(("flowcontrol.apiserver.k8s.io", "v1", "FlowSchema")),
    },
    Api {
        group: "flowcontrol.apiserver.k8s.io",
        version: "v1beta3",
        kind: "PriorityLevelConfiguration",
        deprecated: Some(29),
        removed: Some(32),
        replacement: Some(("flowcontrol.apiserver.k8s.io", "v1", "PriorityLevelConfiguration")),
    },
    Api {
        group: "networking.k8s.io",
        version: "v1alpha1",
        kind: "ClusterCIDR",
        deprecated: Some(28),
        removed: Some(29),
        replacement: None,
    },
    Api {
        group: "networking.k8s.io",
        version: "v1alpha1",
        kind: "IPAddress",
        deprecated: Some(30),
        removed: Some(33),
        replacement: None,
    },
    Api {
        group: "networking.k8s.io",
        version: "v1alpha1",
        kind: "ServiceCIDR",
        deprecated: Some(30),
        removed: Some(33),
        replacement: None,
    },
    Api {
        group: "networking.k8s.io",
        version: "v1beta1",
        kind: "IPAddress",
        deprecated: Some(34),
        removed: Some(37),
        replacement: None,
    },
    Api {
        group: "networking.k8s.io",
        version: "v1beta1",
        kind: "Ingress",
        deprecated: Some(19),
        removed: Some(22),
        replacement: Some(("networking.k8s.io", "v1", "Ingress")),
    },
    Api {
        group: "networking.k8s.io",
        version: "v1beta1",
        kind: "IngressClass",
        deprecated: Some(19),
        removed: Some(22),
        replacement: Some(("networking.k8s.io", "v1", "IngressClassList")),
    },
    Api {
        group: "networking.k8s.io",
        version: "v1beta1",
        kind: "ServiceCIDR",
        deprecated: Some(34),
        removed: Some(37),
        replacement: None,
    },
    Api {
        group: "node.k8s.io",
        version: "v1beta1",
        kind: "RuntimeClass",
        deprecated: Some(22),
        removed: Some(25),
        replacement: None,
    },
    Api {
        group: "policy",
        version: "v1beta1",
        kind: "Eviction",
        deprecated: Some(22),
        removed: Some(25),
        replacement: None,
    },
    Api {
        group: "policy",
        version: "v1beta1",
        kind: "PodDisruptionBudget",
        deprecated: Some(21),
        removed: Some(25),
        replacement: Some(("policy", "v1", "PodDisruptionBudget")),
    },
    Api {
        group: "policy",
        version: "v1beta1",
        kind: "PodSecurityPolicy",
        deprecated: Some(21),
        removed: Some(25),
        replacement: None,
    },
    Api {
        group: "rbac.authorization.k8s.io",
        version: "v1beta1",
        kind: "ClusterRole",
        deprecated: Some(17),
        removed: Some(22),
        replacement: Some(("rbac.authorization.k8s.io", "v1", "ClusterRole")),
    },
    Api {
        group: "rbac.authorization.k8s.io",
        version: "v1beta1",
        kind: "ClusterRoleBinding",
        deprecated: Some(17),
        removed: Some(22),
        replacement: Some(("rbac.authorization.k8s.io", "v1", "ClusterRoleBinding")),
    },
    Api {
        group: "rbac.authorization.k8s.io",
        version: "v1beta1",
        kind: "Role",
        deprecated: Some(17),
        removed: Some(22),
        replacement: Some(("rbac.authorization.k8s.io", "v1", "Role")),
    },
    Api {
        group: "rbac.authorization.k8s.io",
        version: "v1beta1",
        kind: "RoleBinding",
        deprecated: Some(17),
        removed: Some(22),
        replacement: Some(("rbac.authorization.k8s.io", "v1", "RoleBinding")),
    },
    Api {
        group: "resource.k8s.io",
        version: "v1alpha3",
        kind: "DeviceClass",
        deprecated: Some(34),
        removed: Some(34),
        replacement: Some(("resource.k8s.io", "v1beta1", "DeviceClass")),
    },
    Api {
        group: "resource.k8s.io",
        version: "v1alpha3",
        kind: "DeviceTaintRule",
        deprecated: Some(36),
        removed: Some(39),
        replacement: None,
    },
    Api {
        group: "resource.k8s.io",
        version: "v1alpha3",
        kind: "ResourceClaim",
        deprecated: Some(34),
        removed: Some(34),
        replacement: Some(("resource.k8s.io", "v1beta1", "ResourceClaim")),
    },
    Api {
        group: "resource.k8s.io",
        version: "v1alpha3",
        kind: "ResourceClaimTemplate",
        deprecated: Some(34),
        removed: Some(34),
        replacement: Some(("resource.k8s.io", "v1beta1", "ResourceClaimTemplate")),
    },
    Api {
        group: "resource.k8s.io",
        version: "v1alpha3",
        kind: "ResourcePoolStatusRequest",
        deprecated: Some(39),
        removed: Some(42),
        replacement: None,
    },
    Api {
        group: "resource.k8s.io",
        version: "v1alpha3",
        kind: "ResourceSlice",
        deprecated: Some(34),
        removed: Some(34),
        replacement: Some(("resource.k8s.io", "v1beta1", "ResourceSlice")),
    },
    Api {
        group: "resource.k8s.io",
        version: "v1beta1",
        kind: "DeviceClass",
        deprecated: Some(35),
        removed: Some(38),
        replacement: None,
    },
    Api {
        group: "resource.k8s.io",
        version: "v1beta1",
        kind: "ResourceClaim",
        deprecated: Some(35),
        removed: Some(38),
        replacement: None,
    },
    Api {
        group: "resource.k8s.io",
        version: "v1beta1",
        kind: "ResourceClaimTemplate",
        deprecated: Some(35),
        removed: Some(38),
        replacement: None,
    },
    Api {
        group: "resource.k8s.io",
        version: "v1beta1",
        kind: "ResourceSlice",
        deprecated: Some(35),
        removed: Some(38),
        replacement: None,
    },
    Api {
        group: "resource.k8s.io",
        version: "v1beta2",
        kind: "DeviceClass",
        deprecated: Some(36),
        removed: Some(39),
        replacement: None,
    },
    Api {
        group: "resource.k8s.io",
        version: "v1beta2",
        kind: "DeviceTaintRule",
        deprecated: Some(39),
        removed: Some(42),
        replacement: None,
    },
    Api {
        group: "resource.k8s.io",
        version: "v1beta2",
        kind: "ResourceClaim",
        deprecated: Some(36),
        removed: Some(39),
        replacement: None,
    },
    Api {
        group: "resource.k8s.io",
        version: "v1beta2",
        kind: "ResourceClaimTemplate",
        deprecated: Some(36),
        removed: Some(39),
        replacement: None,
    },
    Api {
        group: "resource.k8s.io",
        version: "v1beta2",
        kind: "ResourceSlice",
        deprecated: Some(36),
        removed: Some(39),
        replacement: None,
    },
    Api {
        group: "scheduling.k8s.io",
        version: "v1beta1",
        kind: "PriorityClass",
        deprecated: Some(14),
        removed: Some(22),
        replacement: Some(("scheduling.k8s.io", "v1", "PriorityClass")),
    },
    Api {
        group: "storage.k8s.io",
        version: "v1alpha1",
        kind: "CSIStorageCapacity",
        deprecated: Some(21),
        removed: Some(24),
        replacement: Some(("storage.k8s.io", "v1beta1", "CSIStorageCapacity")),
    },
    Api {
        group: "storage.k8s.io",
        version: "v1alpha1",
        kind: "VolumeAttachment",
        deprecated: Some(21),
        removed: Some(24),
        replacement: Some(("storage.k8s.io", "v1", "VolumeAttachment")),
    },
    Api {
        group: "storage.k8s.io",
        version: "v1alpha1",
        kind: "VolumeAttributesClass",
        deprecated: Some(32),
        removed: Some(35),
        replacement: Some(("storage.k8s.io", "v1", "VolumeAttributesClass")),
    },
    Api {
        group: "storage.k8s.io",
        version: "v1beta1",
        kind: "CSIDriver",
        deprecated: Some(19),
        removed: Some(22),
        replacement: Some(("storage.k8s.io", "v1", "CSIDriver")),
    },
    Api {
        group: "storage.k8s.io",
        version: "v1beta1",
        kind: "CSINode",
        deprecated: Some(17),
        removed: Some(22),
        replacement: Some(("storage.k8s.io", "v1", "CSINode")),
    },
    Api {
        group: "storage.k8s.io",
        version: "v1beta1",
        kind: "CSIStorageCapacity",
        deprecated: Some(24),
        removed: Some(27),
        replacement: Some(("storage.k8s.io", "v1", "CSIStorageCapacity")),
    },
    Api {
        group: "storage.k8s.io",
        version: "v1beta1",
        kind: "StorageClass",
        deprecated: Some(19),
        removed: Some(22),
        replacement: Some(("storage.k8s.io", "v1", "StorageClass")),
    },
    Api {
        group: "storage.k8s.io",
        version: "v1beta1",
        kind: "VolumeAttachment",
        deprecated: Some(19),
        removed: Some(22),
        replacement: Some(("storage.k8s.io", "v1", "VolumeAttachment")),
    },
    Api {
        group: "storage.k8s.io",
        version: "v1beta1",
        kind: "VolumeAttributesClass",
        deprecated: Some(34),
        removed: Some(37),
        replacement: Some(("storage.k8s.io", "v1", "VolumeAttributesClass")),
    },
    Api {
        group: "storagemigration.k8s.io",
        version: "v1alpha1",
        kind: "StorageVersionMigration",
        deprecated: Some(33),
        removed: Some(35),
        replacement: None,
    },
    Api {
        group: "storagemigration.k8s.io",
        version: "v1beta1",
        kind: "StorageVersionMigration",
        deprecated: Some(37),
        removed: Some(40),
        replacement: Some(("storagemigration.k8s.io", "v1", "StorageVersionMigration")),
    },
];
