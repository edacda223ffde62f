//! What changes when a manifest moves from a removed or deprecated API version to its
//! replacement: the notable changes the deprecated API migration guide lists for each removal
//! (Kubernetes documentation, "Deprecated API Migration Guide", removals of 1.16 to 1.32),
//! summarised in kubedv's own words. Releases after 1.32 removed only alpha and beta versions
//! whose replacements changed no field a manifest sets, so they have no entry. The guide also
//! names apps/v1beta1 ReplicaSet, which k8s.io/api never served (apps/v1beta1 had Deployment,
//! StatefulSet and ControllerRevision): left out.

/// What changes for the webhook configurations from admissionregistration.k8s.io/v1beta1 to
/// v1 (the admission policies of v1beta1 are another matter: they are served).
const WEBHOOKS_V1: &str = "webhooks[].failurePolicy defaults to Fail (was Ignore), matchPolicy to Equivalent (was Exact) and timeoutSeconds to 10 (was 30); sideEffects (None or NoneOnDryRun) and admissionReviewVersions have no default and are required; webhook names must be unique";

/// `(group, version, kind, changes)`; a kind of `*` covers every kind of the group version.
const CHANGES: &[(&str, &str, &str, &str)] = &[
    (
        "flowcontrol.apiserver.k8s.io",
        "v1beta3",
        "PriorityLevelConfiguration",
        "spec.limited.nominalConcurrencyShares defaults to 30 only when unset; an explicit 0 stays 0",
    ),
    (
        "flowcontrol.apiserver.k8s.io",
        "v1beta2",
        "PriorityLevelConfiguration",
        "spec.limited.assuredConcurrencyShares is renamed spec.limited.nominalConcurrencyShares (in v1 it defaults to 30 only when unset; an explicit 0 stays 0)",
    ),
    (
        "autoscaling",
        "v2beta2",
        "HorizontalPodAutoscaler",
        "a metric's targetAverageUtilization becomes target.type: Utilization with target.averageUtilization",
    ),
    (
        "autoscaling",
        "v2beta1",
        "HorizontalPodAutoscaler",
        "a metric's targetAverageUtilization becomes target.type: Utilization with target.averageUtilization",
    ),
    (
        "discovery.k8s.io",
        "v1beta1",
        "EndpointSlice",
        "an endpoint's topology[\"kubernetes.io/hostname\"] becomes nodeName and topology[\"topology.kubernetes.io/zone\"] becomes zone; topology itself is kept only as the read-only deprecatedTopology",
    ),
    (
        "events.k8s.io",
        "v1beta1",
        "Event",
        "in events.k8s.io/v1, type is Normal or Warning; involvedObject is renamed regarding; action, reason, reportingController and reportingInstance are required on create; firstTimestamp, lastTimestamp, count, source.component and source.host give way to eventTime, series.lastObservedTime, series.count, reportingController and reportingInstance (their deprecated* copies may not be set on create)",
    ),
    (
        "policy",
        "v1beta1",
        "PodDisruptionBudget",
        "an empty spec.selector ({}) selects every pod of the namespace (in v1beta1 it selected none); an absent selector still selects none",
    ),
    (
        "admissionregistration.k8s.io",
        "v1beta1",
        "MutatingWebhookConfiguration",
        WEBHOOKS_V1,
    ),
    (
        "admissionregistration.k8s.io",
        "v1beta1",
        "ValidatingWebhookConfiguration",
        WEBHOOKS_V1,
    ),
    (
        "apiextensions.k8s.io",
        "v1beta1",
        "CustomResourceDefinition",
        "spec.scope is required; spec.version, spec.validation, spec.subresources and spec.additionalPrinterColumns move into each spec.versions[] item; spec.conversion.webhookClientConfig and conversionReviewVersions move under spec.conversion.webhook; every version needs a structural openAPIV3Schema; spec.preserveUnknownFields: true is refused (use x-kubernetes-preserve-unknown-fields in the schema); printer columns' JSONPath is spelled jsonPath",
    ),
    ("authorization.k8s.io", "v1beta1", "*", "spec.group is renamed spec.groups"),
    (
        "certificates.k8s.io",
        "v1beta1",
        "CertificateSigningRequest",
        "spec.signerName is required (and may not be kubernetes.io/legacy-unknown); spec.usages is required, without duplicates and with known usages only; status.conditions have unique types and a required status; status.certificate holds only PEM CERTIFICATE blocks",
    ),
    (
        "extensions",
        "v1beta1",
        "Ingress",
        "spec.backend is renamed spec.defaultBackend; a backend's serviceName becomes service.name and servicePort service.port.number (service.port.name for a named port); every path needs a pathType (Prefix, Exact or ImplementationSpecific, which keeps v1beta1's matching)",
    ),
    (
        "networking.k8s.io",
        "v1beta1",
        "Ingress",
        "spec.backend is renamed spec.defaultBackend; a backend's serviceName becomes service.name and servicePort service.port.number (service.port.name for a named port); every path needs a pathType (Prefix, Exact or ImplementationSpecific, which keeps v1beta1's matching)",
    ),
    (
        "extensions",
        "v1beta1",
        "DaemonSet",
        "spec.templateGeneration is gone; spec.selector is required and immutable (use the template's labels); spec.updateStrategy.type defaults to RollingUpdate (was OnDelete)",
    ),
    (
        "apps",
        "v1beta2",
        "DaemonSet",
        "spec.templateGeneration is gone; spec.selector is required and immutable (use the template's labels)",
    ),
    (
        "extensions",
        "v1beta1",
        "Deployment",
        "spec.rollbackTo is gone; spec.selector is required and immutable (use the template's labels); spec.progressDeadlineSeconds defaults to 600 (was none), spec.revisionHistoryLimit to 10 (was all) and a rolling update's maxSurge and maxUnavailable to 25% (was 1)",
    ),
    (
        "apps",
        "v1beta1",
        "Deployment",
        "spec.rollbackTo is gone; spec.selector is required and immutable (use the template's labels); spec.revisionHistoryLimit defaults to 10 (was 2)",
    ),
    (
        "apps",
        "v1beta2",
        "Deployment",
        "spec.selector is required and immutable (use the template's labels)",
    ),
    (
        "apps",
        "v1beta1",
        "StatefulSet",
        "spec.selector is required and immutable (use the template's labels); spec.updateStrategy.type defaults to RollingUpdate (was OnDelete)",
    ),
    ("apps", "v1beta2", "StatefulSet", "spec.selector is required and immutable (use the template's labels)"),
    ("extensions", "v1beta1", "ReplicaSet", "spec.selector is required and immutable (use the template's labels)"),
    ("apps", "v1beta2", "ReplicaSet", "spec.selector is required and immutable (use the template's labels)"),
];

/// What changes for a document of this group, version and kind when it moves to the
/// replacement the migration guide names.
pub fn changes(group: &str, version: &str, kind: &str) -> Option<&'static str> {
    CHANGES.iter().find(|c| c.0 == group && c.1 == version && (c.2 == kind || c.2 == "*")).map(|c| c.3)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every entry names an API version the lifecycle table removes (events.k8s.io/v1beta1
    /// Event has no replacement in k8s.io/api's lifecycle tags: its text names it).
    #[test]
    fn every_entry_is_a_removed_api_with_a_replacement() {
        for (group, version, kind, text) in CHANGES {
            let api = super::super::APIS
                .iter()
                .find(|a| a.group == *group && a.version == *version && (a.kind == *kind || *kind == "*"));
            let api = api.unwrap_or_else(|| panic!("{group}/{version} {kind} is not in the lifecycle table"));
            assert!(api.removed.is_some(), "{group}/{version} {kind}");
            assert!(!api.replacement.is_empty() || text.starts_with("in "), "{group}/{version} {kind}");
            assert!(!text.is_empty() && !text.ends_with('.'));
        }
        assert!(changes("authorization.k8s.io", "v1beta1", "SubjectAccessReview").is_some());
        assert!(changes("apps", "v1", "Deployment").is_none());
    }
}
