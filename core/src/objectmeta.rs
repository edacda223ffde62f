//! `metadata` validation on create and update, as apimachinery's `ValidateObjectMeta`
//! (`pkg/api/validation/objectmeta.go`) runs it for custom resources (names are DNS
//! subdomains) and apiextensions' `schemaobjectmeta.Validate` for embedded resources (names
//! are path segments): generateName, name, namespace, generation, labels, annotations,
//! ownerReferences, finalizers.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{Map, Value as Json};

use crate::content;
use crate::field::{Error, ErrorType, Path};

/// How a kind's names are checked.
#[derive(Clone, Copy, Debug)]
pub enum NameRule {
    /// `NameIsDNSSubdomain` (custom resources and most built-in kinds).
    DnsSubdomain,
    /// `path.ValidatePathSegmentName` (embedded resources, RBAC kinds, and the generic check
    /// every create gets).
    PathSegment,
    /// `NameIsDNSLabel` (Namespace, StatefulSet).
    DnsLabel,
    /// `NameIsDNS1035Label` (Service).
    Dns1035Label,
    /// A kind's own name function, a prefix checked the same way: LeaseCandidate's
    /// `ValidLeaseCandidateName` (`IsConfigMapKey`), StorageVersion's
    /// `ValidateStorageVersionName` ([`storage_version_name`]). Named in the built-in table
    /// only, so builds that judge no built-in kind (the npm core module) carry none of them.
    Own(fn(&str) -> Vec<String>),
    /// A name function that accepts anything (CertificateSigningRequest), or one kubedv does
    /// not model (IPAddress: a canonical IP address).
    Unchecked,
}

fn names(rule: NameRule, value: &str, prefix: bool) -> Vec<String> {
    // The CEL library's named formats are apimachinery's name checks (a prefix: its trailing
    // dash masked, as `generateName` is checked).
    let keys = match rule {
        NameRule::DnsSubdomain => ["dns1123Subdomain", "dns1123SubdomainPrefix"],
        NameRule::DnsLabel => ["dns1123Label", "dns1123LabelPrefix"],
        NameRule::Dns1035Label => ["dns1035Label", "dns1035LabelPrefix"],
        NameRule::PathSegment if prefix => {
            // IsPathSegmentPrefix: only the characters are checked.
            return ["/", "%"]
                .iter()
                .filter(|c| value.contains(**c))
                .map(|c| format!("may not contain '{c}'"))
                .collect();
        }
        NameRule::PathSegment => return content::is_path_segment_name(value),
        NameRule::Own(check) => return check(value),
        NameRule::Unchecked => return Vec::new(),
    };
    crate::cel::k8s::named_format(keys[usize::from(prefix)]).map_or(Vec::new(), |f| f.validate(value))
}

/// apiserverinternal `ValidateStorageVersionName` (a prefix is checked the same way).
pub fn storage_version_name(name: &str) -> Vec<String> {
    let Some(idx) = name.rfind('.') else {
        return alloc::vec![String::from("name must be in the form of <group>.<resource>")];
    };
    let mut errs: Vec<String> = content::util::is_dns1123_subdomain(&name[..idx])
        .into_iter()
        .map(|m| format!("the group segment {m}"))
        .collect();
    let resource = crate::cel::k8s::is_dns1035_label(&name[idx + 1..]);
    errs.extend(resource.into_iter().map(|m| format!("the resource segment {m}")));
    errs
}

/// How a built-in kind's own validation checks its `metadata` on create: `ValidateObjectMeta`
/// with the kind's name function, through core's wrapper (which also checks finalizer names)
/// or apimachinery's directly.
#[derive(Clone, Copy, Debug)]
pub struct BuiltinMeta {
    /// The name function.
    pub rule: NameRule,
    /// Whether the kind is namespaced.
    pub namespaced: bool,
    /// Through `pkg/apis/core/validation.ValidateObjectMeta` (finalizer names without a `/`
    /// must be standard ones).
    pub core_wrapper: bool,
}

/// Built-in kinds' name functions, from each kind's handwritten validation in kubernetes
/// `pkg/apis/<group>/validation` (Validate<Kind> → ValidateObjectMeta(…, Validate<Kind>Name)).
/// Kinds whose own validation checks no metadata (PodDisruptionBudget, core Event) are absent:
/// only the generic check ([`validate_generic`]) applies to them.
const BUILTIN: &[(&str, &str, NameRule, bool, bool)] = {
    use NameRule::{Dns1035Label as L1035, DnsLabel as LBL, DnsSubdomain as SUB, PathSegment as SEG, Unchecked as ANY};
    &[
        // (group, kind, name function, namespaced, through core's wrapper)
        ("", "Pod", SUB, true, true),
        ("", "Service", L1035, true, true),
        ("", "ConfigMap", SUB, true, true),
        ("", "Secret", SUB, true, true),
        ("", "Namespace", LBL, false, true),
        ("", "Node", SUB, false, true),
        ("", "PersistentVolume", SUB, false, true),
        ("", "PersistentVolumeClaim", SUB, true, true),
        ("", "ServiceAccount", SUB, true, true),
        ("", "Endpoints", SUB, true, true),
        ("", "LimitRange", SUB, true, true),
        ("", "ResourceQuota", SUB, true, true),
        ("", "ReplicationController", SUB, true, true),
        ("", "PodTemplate", SUB, true, true),
        ("apps", "Deployment", SUB, true, true),
        ("apps", "StatefulSet", LBL, true, true),
        ("apps", "DaemonSet", SUB, true, true),
        ("apps", "ReplicaSet", SUB, true, true),
        ("apps", "ControllerRevision", SUB, true, true),
        ("batch", "Job", SUB, true, true),
        ("batch", "CronJob", SUB, true, true),
        ("networking.k8s.io", "Ingress", SUB, true, true),
        ("networking.k8s.io", "IngressClass", SUB, false, true),
        ("networking.k8s.io", "NetworkPolicy", SUB, true, true),
        ("networking.k8s.io", "IPAddress", ANY, false, true),
        ("networking.k8s.io", "ServiceCIDR", SUB, false, true),
        ("rbac.authorization.k8s.io", "Role", SEG, true, true),
        ("rbac.authorization.k8s.io", "RoleBinding", SEG, true, true),
        ("rbac.authorization.k8s.io", "ClusterRole", SEG, false, true),
        ("rbac.authorization.k8s.io", "ClusterRoleBinding", SEG, false, true),
        ("storage.k8s.io", "StorageClass", SUB, false, true),
        ("storage.k8s.io", "CSIDriver", SUB, false, true),
        ("storage.k8s.io", "CSINode", SUB, false, true),
        ("storage.k8s.io", "VolumeAttachment", SUB, false, true),
        ("storage.k8s.io", "CSIStorageCapacity", SUB, true, true),
        ("storage.k8s.io", "VolumeAttributesClass", SUB, false, true),
        ("scheduling.k8s.io", "PriorityClass", SUB, false, true),
        ("coordination.k8s.io", "Lease", SUB, true, false),
        ("discovery.k8s.io", "EndpointSlice", SUB, true, true),
        ("autoscaling", "HorizontalPodAutoscaler", SUB, true, true),
        ("admissionregistration.k8s.io", "ValidatingWebhookConfiguration", SUB, false, false),
        ("admissionregistration.k8s.io", "MutatingWebhookConfiguration", SUB, false, false),
        ("admissionregistration.k8s.io", "ValidatingAdmissionPolicy", SUB, false, false),
        ("admissionregistration.k8s.io", "ValidatingAdmissionPolicyBinding", SUB, false, false),
        ("admissionregistration.k8s.io", "MutatingAdmissionPolicy", SUB, false, false),
        ("admissionregistration.k8s.io", "MutatingAdmissionPolicyBinding", SUB, false, false),
        ("certificates.k8s.io", "CertificateSigningRequest", ANY, false, true),
        // The name rule follows spec.signerName: the certificates room checks the name.
        ("certificates.k8s.io", "ClusterTrustBundle", ANY, false, true),
        ("certificates.k8s.io", "PodCertificateRequest", SUB, true, true),
        ("node.k8s.io", "RuntimeClass", SUB, false, false),
        ("flowcontrol.apiserver.k8s.io", "FlowSchema", SUB, false, true),
        ("flowcontrol.apiserver.k8s.io", "PriorityLevelConfiguration", SUB, false, true),
        ("resource.k8s.io", "ResourceClaim", SUB, true, true),
        ("resource.k8s.io", "ResourceClaimTemplate", SUB, true, true),
        ("resource.k8s.io", "DeviceClass", SUB, false, true),
        ("resource.k8s.io", "ResourceSlice", SUB, false, true),
        ("events.k8s.io", "Event", SUB, true, true),
        ("apiregistration.k8s.io", "APIService", SEG, false, false),
        ("coordination.k8s.io", "LeaseCandidate", NameRule::Own(content::util::is_config_map_key), true, false),
        ("internal.apiserver.k8s.io", "StorageVersion", NameRule::Own(storage_version_name), false, true),
        ("storagemigration.k8s.io", "StorageVersionMigration", SUB, false, true),
    ]
};

/// How a built-in kind's own validation checks its metadata, when kubedv knows it.
pub fn builtin(group: &str, kind: &str) -> Option<BuiltinMeta> {
    BUILTIN.iter().find(|r| r.0 == group && r.1 == kind).map(|r| BuiltinMeta {
        rule: r.2,
        namespaced: r.3,
        core_wrapper: r.4,
    })
}

/// The `metadata` errors of a built-in kind's own validation on create (kubernetes
/// `pkg/apis/<group>/validation`): `ValidateObjectMeta` with its name function, core's
/// finalizer-name check, and CronJob's 52-character name limit.
pub fn validate_builtin(meta: &Map<String, Json>, spec: BuiltinMeta, kind: &str, errors: &mut Vec<Error>) {
    let path = Path::named("metadata");
    validate_with(&path, meta, spec.rule, false, None, spec.namespaced, errors);
    if spec.core_wrapper {
        // core/validation validateKubeFinalizerName: a finalizer without a '/' must be one of
        // the standard ones (helper.IsStandardFinalizerName).
        kube_finalizer_names(&path, meta, errors);
    }
    // batch/validation ValidateCronJobCreate: the Job names it makes must stay DNS-1035 labels.
    let name = string(meta, "name");
    if kind == "CronJob" && name.len() > 52 {
        errors.push(Error::invalid(&path.child("name"), name, "must be no more than 52 characters"));
    }
}

/// core/validation `validateKubeFinalizerName`, for each finalizer at its index (the wrapper's
/// loop in `ValidateObjectMeta` and `ValidateObjectMetaUpdate`): one without a '/' must be one
/// of the standard ones (`helper.IsStandardFinalizerName`).
fn kube_finalizer_names(path: &Path<'_>, meta: &Map<String, Json>, errors: &mut Vec<Error>) {
    let at = path.child("finalizers");
    let finalizers = meta.get("finalizers").and_then(Json::as_array).into_iter().flatten();
    for (i, f) in finalizers.enumerate().filter_map(|(i, f)| Some((i, f.as_str()?))) {
        if !f.contains('/') && !["kubernetes", "orphan", "foregroundDeletion"].contains(&f) {
            let msg = "name is neither a standard finalizer name nor is it fully qualified";
            errors.push(Error::invalid(&at.index(i), f, msg));
        }
    }
}

/// A built-in kind's errors on create with its metadata checked as the API server checks it:
/// the kind's own `ValidateObjectMeta` first (its handwritten validation begins with it), then
/// the declarative errors (only those the API server returns); when there are none, the generic
/// check every create gets. Kinds kubedv has no metadata rule for keep their errors as given.
pub fn builtin_create_errors(group: &str, kind: &str, doc: &Json, declarative: Vec<Error>) -> Vec<Error> {
    let empty = Map::new();
    let meta = match doc.get("metadata") {
        Some(Json::Object(meta)) => meta,
        _ => &empty,
    };
    let spec = builtin(group, kind);
    if !builtin_checks_metadata(group, kind) {
        return declarative;
    }
    let mut errors = Vec::new();
    if let Some(spec) = spec {
        validate_builtin(meta, spec, kind, &mut errors);
    }
    errors.extend(declarative);
    if errors.iter().all(|e| !e.enforced) {
        validate_generic(meta, spec.is_none_or(|s| s.namespaced), &mut errors);
    }
    errors
}

/// Whether kubedv checks a built-in kind's metadata: its own name function is known, or its
/// validation checks none and only the generic check applies (PodDisruptionBudget, core Event).
pub fn builtin_checks_metadata(group: &str, kind: &str) -> bool {
    builtin(group, kind).is_some() || matches!((group, kind), ("policy", "PodDisruptionBudget") | ("", "Event"))
}

/// The generic check every create gets after the kind's validation, when that found nothing
/// (apiserver `pkg/registry/rest/create.go` `ValidateCreate`: `ValidateObjectMetaAccessor`
/// with `path.ValidatePathSegmentName`).
pub fn validate_generic(meta: &Map<String, Json>, namespaced: bool, errors: &mut Vec<Error>) {
    validate_with(&Path::named("metadata"), meta, NameRule::PathSegment, false, None, namespaced, errors);
}

/// Why the API server refuses an update before validating it: the new body names another
/// object than the one at the request's URL, which is the old object's (apiserver
/// `pkg/endpoints/handlers/rest.go` `checkName`, run by the update and patch handlers; a Bad
/// Request). A namespace the old object does not state is the client's default, unknown here.
pub fn update_refusal(new: &Json, old: &Json) -> Option<String> {
    fn meta<'a>(o: &'a Json, key: &str) -> &'a str {
        o.get("metadata").and_then(|m| m.get(key)).and_then(Json::as_str).unwrap_or("")
    }
    let (name, url) = (meta(new, "name"), meta(old, "name"));
    if name != url {
        return Some(format!("the name of the object ({name}) does not match the name on the URL ({url})"));
    }
    let (namespace, request) = (meta(new, "namespace"), meta(old, "namespace"));
    (!namespace.is_empty() && !request.is_empty() && namespace != request).then(|| {
        format!("the namespace of the object ({namespace}) does not match the namespace on the request ({request})")
    })
}

/// The `metadata` errors every update gets (apiserver `pkg/registry/rest/update.go`
/// `validateCommonFields`: `ValidateObjectMetaAccessor` with path-segment names, then
/// `ValidateObjectMetaAccessorUpdate`), on the new metadata as `BeforeUpdate` leaves it: the
/// old generation copied, and an empty uid, a creation or deletion timestamp the old object has,
/// or a grace period the new one drops, taken from the old object. An empty `resourceVersion` is
/// not an error here: the store fills it for an unconditional update (`doUnconditionalUpdate`)
/// and refuses a conditional one before validation. `managedFields` are not checked.
pub fn validate_update(
    path: &Path<'_>,
    new: &Map<String, Json>,
    old: &Map<String, Json>,
    namespaced: bool,
    minor: u32,
    errors: &mut Vec<Error>,
) {
    validate_with(path, new, NameRule::PathSegment, false, None, namespaced, errors);
    // Finalizers cannot be added while the object is being deleted (ValidateNoNewFinalizers:
    // the new ones as a sorted Go []string).
    if old.get("deletionTimestamp").is_some_and(|t| !t.is_null()) {
        fn list(m: &Map<String, Json>) -> Vec<&str> {
            m.get("finalizers").and_then(Json::as_array).into_iter().flatten().filter_map(Json::as_str).collect()
        }
        let old_list = list(old);
        let mut added: Vec<&str> = Vec::new();
        for f in list(new).into_iter().filter(|f| !old_list.contains(f)) {
            if let Err(at) = added.binary_search(&f) {
                added.insert(at, f);
            }
        }
        let extra: Vec<String> = added.iter().map(|f| crate::field::go_quote(f)).collect();
        if !extra.is_empty() {
            let detail = format!(
                "no new finalizers can be added if the object is being deleted, found new finalizers []string{{{}}}",
                extra.join(", ")
            );
            errors.push(Error::new(ErrorType::Forbidden, &path.child("finalizers"), None, detail));
        }
    }
    // The generation is the old one: never decremented, and negative only if stored so
    // (ValidateNonnegativeField, on update since 1.37).
    if let Some(g) = old.get("generation").and_then(Json::as_i64).filter(|g| minor >= 37 && *g < 0) {
        let e = Error::invalid(&path.child("generation"), g, "must be greater than or equal to 0");
        errors.push(e.with_origin("minimum"));
    }
    // ValidateImmutableField, in its order, on the metadata as BeforeUpdate leaves it.
    // Since 1.37 the system fields' errors carry the origin `immutable`.
    for (key, field) in [
        ("name", Field::Name),
        ("namespace", Field::Namespace),
        ("uid", Field::Uid),
        ("creationTimestamp", Field::Time),
        ("deletionTimestamp", Field::Time),
        ("deletionGracePeriodSeconds", Field::GracePeriod),
    ] {
        fn given<'m>(m: &'m Map<String, Json>, key: &str) -> Option<&'m Json> {
            m.get(key).filter(|v| !v.is_null() && v.as_str() != Some(""))
        }
        let before = given(old, key);
        let after = match field {
            Field::Name => given(new, key),
            // A namespace the body omits is the request's; a cluster-scoped object's is cleared.
            Field::Namespace if !namespaced => continue,
            // The old object's timestamps are kept.
            Field::Time => before.or(given(new, key)),
            // What the body omits is the old object's.
            Field::Namespace | Field::Uid | Field::GracePeriod => given(new, key).or(before),
        };
        // Times compare as instants (metav1.Time's semantic equality).
        let instant = |t: Option<&Json>| t.and_then(Json::as_str).and_then(crate::cel::time::Timestamp::parse);
        let instant = |t| instant(t).map(|t| (t.secs, t.nanos));
        let same = if field == Field::Time { instant(after) == instant(before) } else { after == before };
        if same {
            continue;
        }
        let value = after.cloned().unwrap_or(match field {
            Field::Name | Field::Namespace | Field::Uid => Json::from(""),
            _ => Json::Null,
        });
        let mut e = Error::invalid(&path.child(key), value.clone(), "field is immutable");
        if !matches!(field, Field::Name | Field::Namespace) {
            // types.UID and metav1.Time are printed by json.Marshal, a time in UTC to the second.
            let time = instant(after).filter(|_| field == Field::Time);
            let shown =
                time.map_or(value, |(secs, _)| Json::from(crate::cel::time::Timestamp::utc(secs, 0).to_rfc3339()));
            e.rendered_value = Some(crate::field::go_json(&shown));
            if minor >= 37 {
                e = e.with_origin("immutable");
            }
        }
        errors.push(e);
    }
}

/// The metadata fields an update may not change, by how `BeforeUpdate` fills them.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Field {
    Name,
    Namespace,
    Uid,
    Time,
    GracePeriod,
}

/// A built-in kind's errors on update: the checks every update gets ([`validate_update`]),
/// then the kind's own update validation, which begins with `ValidateObjectMetaUpdate` (the
/// same errors again, not repeated here, and through core's wrapper its finalizer-name
/// check), then the declarative errors. The API server's `Status` lists a repeated error twice
/// among its causes but once in its message (`ErrorList.ToAggregate`), which is what kubectl
/// prints: an enforced error is listed once here.
pub fn builtin_update_errors(
    group: &str,
    kind: &str,
    new: &Json,
    old: &Json,
    minor: u32,
    declarative: Vec<Error>,
) -> Vec<Error> {
    let empty = Map::new();
    let (new_meta, old_meta) = (
        new.get("metadata").and_then(Json::as_object).unwrap_or(&empty),
        old.get("metadata").and_then(Json::as_object).unwrap_or(&empty),
    );
    let spec = builtin(group, kind);
    let path = Path::named("metadata");
    let mut errors = Vec::new();
    validate_update(&path, new_meta, old_meta, spec.is_none_or(|s| s.namespaced), minor, &mut errors);
    if spec.is_some_and(|s| s.core_wrapper) {
        kube_finalizer_names(&path, new_meta, &mut errors);
    }
    errors.extend(declarative);
    let mut seen: Vec<String> = Vec::new();
    errors.retain(|e| {
        if !e.enforced {
            return true;
        }
        let text = e.text();
        match seen.binary_search(&text) {
            Ok(_) => false,
            Err(at) => {
                seen.insert(at, text);
                true
            }
        }
    });
    errors
}

fn string<'a>(meta: &'a Map<String, Json>, key: &str) -> &'a str {
    meta.get(key).and_then(Json::as_str).unwrap_or("")
}

/// Appends the errors of an object's `metadata` (at `path`, e.g. `metadata`). `embedded`
/// resources need no name (apiextensions validates them with the name `fakename`).
pub fn validate(path: &Path<'_>, meta: &Map<String, Json>, rule: NameRule, embedded: bool, errors: &mut Vec<Error>) {
    validate_with(path, meta, rule, embedded, None, true, errors);
}

/// [`validate`] for a cluster-scoped kind whose name must also equal `required_name` (a
/// CustomResourceDefinition's `<plural>.<group>`: its name function adds
/// `must be spec.names.plural+"."+spec.group` to the name's and generateName's messages). The
/// API server clears a namespace given to a cluster-scoped object
/// (`EnsureObjectNamespaceMatchesRequestNamespace`), so none is checked.
pub fn validate_cluster(
    path: &Path<'_>,
    meta: &Map<String, Json>,
    rule: NameRule,
    required_name: Option<&str>,
    errors: &mut Vec<Error>,
) {
    validate_with(path, meta, rule, false, required_name, false, errors);
}

fn validate_with(
    path: &Path<'_>,
    meta: &Map<String, Json>,
    rule: NameRule,
    embedded: bool,
    required_name: Option<&str>,
    namespaced: bool,
    errors: &mut Vec<Error>,
) {
    let name_messages = |value: &str, prefix: bool| {
        let mut msgs = names(rule, value, prefix);
        if required_name.is_some_and(|r| r != value) {
            msgs.push(String::from(r#"must be spec.names.plural+"."+spec.group"#));
        }
        msgs
    };
    let generate_name = string(meta, "generateName");
    if !generate_name.is_empty() {
        for msg in name_messages(generate_name, true) {
            errors.push(Error::invalid(&path.child("generateName"), generate_name, msg));
        }
    }
    let name = string(meta, "name");
    if name.is_empty() {
        // The API server generates a name from generateName before validating.
        if generate_name.is_empty() && !embedded {
            errors.push(Error::new(ErrorType::Required, &path.child("name"), None, "name or generateName is required"));
        }
    } else {
        for msg in name_messages(name, false) {
            errors.push(Error::invalid(&path.child("name"), name, msg));
        }
    }
    // A namespaced object's namespace comes from the request when absent (kubectl, the API
    // server's URL), so only a given one is checked.
    let namespace = string(meta, "namespace");
    if namespaced && !namespace.is_empty() {
        let msgs = crate::cel::k8s::named_format("dns1123Label").map_or(Vec::new(), |f| f.validate(namespace));
        for msg in msgs {
            errors.push(Error::invalid(&path.child("namespace"), namespace, msg));
        }
    }
    if let Some(g) = meta.get("generation").and_then(Json::as_i64).filter(|g| *g < 0) {
        // generic.go ValidateNonnegativeField.
        errors.push(
            Error::invalid(&path.child("generation"), g, "must be greater than or equal to 0").with_origin("minimum"),
        );
    }
    crate::metav1::validate_labels(meta.get("labels").and_then(Json::as_object), &path.child("labels"), errors);
    let annotations = meta.get("annotations").and_then(Json::as_object);
    crate::metav1::validate_annotations(annotations, &path.child("annotations"), errors);
    if let Some(Json::Array(refs)) = meta.get("ownerReferences") {
        owner_references(&path.child("ownerReferences"), refs, errors);
    }
    if let Some(Json::Array(finalizers)) = meta.get("finalizers") {
        let at = path.child("finalizers");
        let names: Vec<&str> = finalizers.iter().filter_map(Json::as_str).collect();
        for f in &names {
            for msg in content::is_label_key(f) {
                errors.push(Error::invalid(&at, *f, msg));
            }
        }
        if names.contains(&"orphan") && names.contains(&"foregroundDeletion") {
            errors.push(Error::invalid(
                &at,
                Json::Array(finalizers.clone()),
                "finalizer orphan and foregroundDeletion cannot be both set",
            ));
        }
    }
}

/// `ValidateOwnerReferences`.
fn owner_references(path: &Path<'_>, refs: &[Json], errors: &mut Vec<Error>) {
    let mut controller: Option<String> = None;
    for (i, r) in refs.iter().enumerate() {
        let at = path.index(i);
        let s = |k: &str| r.get(k).and_then(Json::as_str).unwrap_or("");
        let api_version = s("apiVersion");
        // ParseGroupVersion fails on more than one '/'; the version part must not be empty.
        let version = api_version.rsplit('/').next().unwrap_or("");
        if api_version.is_empty() {
            errors.push(Error::new(ErrorType::Required, &at.child("apiVersion"), None, "must not be empty"));
        } else if api_version.matches('/').count() > 1 || version.is_empty() {
            errors.push(Error::invalid(&at.child("apiVersion"), api_version, "must be <group>/<version> or <version>"));
        }
        for k in ["kind", "name", "uid"] {
            if s(k).is_empty() {
                errors.push(Error::new(ErrorType::Required, &at.child(k), None, "must not be empty"));
            }
        }
        if api_version == "v1" && s("kind") == "Event" {
            errors.push(Error::invalid(&at, r.clone(), "/v1, Kind=Event is disallowed from being an owner"));
        }
        if r.get("controller").and_then(Json::as_bool) == Some(true) {
            let this = format!("{}/{}", s("kind"), s("name"));
            match &controller {
                None => controller = Some(this),
                Some(first) => errors.push(Error::invalid(
                    path,
                    Json::Array(refs.to_vec()),
                    format!(
                        "Only one reference can have Controller set to true. Found \"true\" in references for {first} and {this}"
                    ),
                )),
            }
        }
    }
}
