//! The admission request a policy sees: its attributes, filled in from the objects where the
//! caller does not give them, and the `request` variable of admission CEL (apiserver
//! `pkg/admission/plugin/cel/filter.go` `CreateAdmissionRequest`, an `admission/v1`
//! AdmissionRequest converted to unstructured: fields tagged `omitempty` are absent when empty).

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{json, Map, Value as Json};

/// A group, version and kind.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Gvk {
    /// Group (`""` for core).
    pub group: String,
    /// Version.
    pub version: String,
    /// Kind.
    pub kind: String,
}

/// A group, version and resource.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Gvr {
    /// Group (`""` for core).
    pub group: String,
    /// Version.
    pub version: String,
    /// Resource (plural, lower case).
    pub resource: String,
}

/// The requesting user.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UserInfo {
    /// `username`.
    pub username: String,
    /// `uid`.
    pub uid: String,
    /// `groups`.
    pub groups: Vec<String>,
    /// `extra`.
    pub extra: BTreeMap<String, Vec<String>>,
}

/// An admission request.
#[derive(Clone, Debug, Default)]
pub struct Request {
    /// `CREATE`, `UPDATE`, `DELETE` or `CONNECT`.
    pub operation: String,
    /// The object's kind.
    pub kind: Gvk,
    /// The resource.
    pub resource: Gvr,
    /// The subresource (`""`, `status`, `scale`, ...).
    pub sub_resource: String,
    /// `metadata.name` (empty when the object has only `generateName`).
    pub name: String,
    /// The namespace (`""` for cluster-scoped objects).
    pub namespace: String,
    /// Who asks.
    pub user: UserInfo,
    /// A dry run.
    pub dry_run: bool,
    /// The operation's options (`CreateOptions`, ...).
    pub options: Option<Json>,
    /// The object (none for DELETE).
    pub object: Option<Json>,
    /// The old object (UPDATE and DELETE).
    pub old_object: Option<Json>,
    /// The request's namespace, as an object, for `namespaceSelector` and `namespaceObject`.
    pub namespace_object: Option<Json>,
}

/// Built-in kinds that are not namespaced (k8s.io/api, 1.37), to tell the request's scope.
const CLUSTER_SCOPED: &[&str] = &[
    "APIService",
    "CertificateSigningRequest",
    "ClusterRole",
    "ClusterRoleBinding",
    "ClusterTrustBundle",
    "ComponentStatus",
    "CSIDriver",
    "CSINode",
    "CustomResourceDefinition",
    "DeviceClass",
    "DeviceTaintRule",
    "FlowSchema",
    "IngressClass",
    "IPAddress",
    "MutatingAdmissionPolicy",
    "MutatingAdmissionPolicyBinding",
    "MutatingWebhookConfiguration",
    "Namespace",
    "Node",
    "PersistentVolume",
    "PriorityClass",
    "PriorityLevelConfiguration",
    "ResourceSlice",
    "RuntimeClass",
    "ServiceCIDR",
    "StorageClass",
    "StorageVersion",
    "StorageVersionMigration",
    "ValidatingAdmissionPolicy",
    "ValidatingAdmissionPolicyBinding",
    "ValidatingWebhookConfiguration",
    "VolumeAttachment",
    "VolumeAttributesClass",
];

/// Whether a kind is a cluster-scoped built-in.
pub fn cluster_scoped(kind: &str) -> bool {
    CLUSTER_SCOPED.contains(&kind)
}

/// The resource of a kind: the built-in exceptions, otherwise the plural rule of
/// apimachinery's `UnsafeGuessKindToResource` (lower case; `-s` → `-ses`, consonant `-y` →
/// `-ies`), which is what the API server registers for every built-in kind but `Endpoints`.
pub fn resource_of(kind: &str) -> String {
    let lower = kind.to_ascii_lowercase();
    if lower == "endpoints" {
        return lower;
    }
    if let Some(stem) = lower.strip_suffix('y') {
        if !stem.ends_with(['a', 'e', 'i', 'o', 'u']) {
            return format!("{stem}ies");
        }
    }
    if lower.ends_with('s') {
        return format!("{lower}es");
    }
    format!("{lower}s")
}

/// `group/version` split.
pub fn split_api_version(api_version: &str) -> (&str, &str) {
    match api_version.split_once('/') {
        Some((g, v)) => (g, v),
        None => ("", api_version),
    }
}

impl Request {
    /// Fills what is not given from the objects: the kind from `apiVersion`/`kind`, the resource
    /// from the kind (`resource` when the caller knows better: a CRD's plural), the name and
    /// namespace from `metadata` (a namespaced kind without one is in `default`, as `kubectl`
    /// sends it), the operation from which objects there are, and the options the API server
    /// passes for the operation.
    pub fn infer(&mut self) {
        let source = self.object.as_ref().or(self.old_object.as_ref()).cloned().unwrap_or(Json::Null);
        if self.operation.is_empty() {
            self.operation = String::from(match (&self.object, &self.old_object) {
                (Some(_), Some(_)) => "UPDATE",
                (None, Some(_)) => "DELETE",
                _ => "CREATE",
            });
        }
        if self.kind.kind.is_empty() {
            let (g, v) = split_api_version(source.get("apiVersion").and_then(Json::as_str).unwrap_or(""));
            self.kind = Gvk {
                group: String::from(g),
                version: String::from(v),
                kind: String::from(source.get("kind").and_then(Json::as_str).unwrap_or("")),
            };
        }
        if self.resource.resource.is_empty() {
            self.resource.resource = resource_of(&self.kind.kind);
        }
        if self.resource.group.is_empty() && self.resource.version.is_empty() {
            self.resource.group = self.kind.group.clone();
            self.resource.version = self.kind.version.clone();
        }
        let meta = |k: &str| source.pointer(&format!("/metadata/{k}")).and_then(Json::as_str).map(String::from);
        if self.name.is_empty() {
            self.name = meta("name").unwrap_or_default();
        }
        if self.namespace.is_empty() && !cluster_scoped(&self.kind.kind) {
            self.namespace = meta("namespace").unwrap_or_else(|| String::from("default"));
        }
        if self.options.is_none() {
            let kind = match self.operation.as_str() {
                "CREATE" => Some("CreateOptions"),
                "UPDATE" => Some("UpdateOptions"),
                "DELETE" => Some("DeleteOptions"),
                _ => None,
            };
            self.options = kind.map(|k| json!({"kind": k, "apiVersion": "meta.k8s.io/v1"}));
        }
    }

    /// The `request` variable: `kind`, `resource`, `requestKind`, `requestResource`,
    /// `subResource`/`requestSubResource`, `name`, `namespace`, `operation`, `userInfo`,
    /// `dryRun`, `options`, with `uid` empty (an offline request has none).
    pub fn to_cel_json(&self, kind: &Gvk, resource: &Gvr) -> Json {
        let gvk = |k: &Gvk| json!({"group": k.group, "version": k.version, "kind": k.kind});
        let gvr = |r: &Gvr| json!({"group": r.group, "version": r.version, "resource": r.resource});
        let mut m = Map::new();
        m.insert("uid".into(), Json::from(""));
        m.insert("kind".into(), gvk(kind));
        m.insert("resource".into(), gvr(resource));
        if !self.sub_resource.is_empty() {
            m.insert("subResource".into(), Json::from(self.sub_resource.as_str()));
            m.insert("requestSubResource".into(), Json::from(self.sub_resource.as_str()));
        }
        m.insert("requestKind".into(), gvk(&self.kind));
        m.insert("requestResource".into(), gvr(&self.resource));
        if !self.name.is_empty() {
            m.insert("name".into(), Json::from(self.name.as_str()));
        }
        if !self.namespace.is_empty() {
            m.insert("namespace".into(), Json::from(self.namespace.as_str()));
        }
        m.insert("operation".into(), Json::from(self.operation.as_str()));
        let mut user = Map::new();
        if !self.user.username.is_empty() {
            user.insert("username".into(), Json::from(self.user.username.as_str()));
        }
        if !self.user.uid.is_empty() {
            user.insert("uid".into(), Json::from(self.user.uid.as_str()));
        }
        if !self.user.groups.is_empty() {
            user.insert("groups".into(), Json::from(self.user.groups.clone()));
        }
        if !self.user.extra.is_empty() {
            let extra: Map<String, Json> =
                self.user.extra.iter().map(|(k, v)| (k.clone(), Json::from(v.clone()))).collect();
            user.insert("extra".into(), Json::Object(extra));
        }
        m.insert("userInfo".into(), Json::Object(user));
        m.insert("dryRun".into(), Json::Bool(self.dry_run));
        if let Some(o) = &self.options {
            m.insert("options".into(), o.clone());
        }
        Json::Object(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // apimachinery pkg/api/meta/restmapper.go UnsafeGuessKindToResource, and the resources
    // the API server registers.
    #[test]
    fn resources() {
        for (kind, res) in [
            ("Deployment", "deployments"),
            ("Ingress", "ingresses"),
            ("NetworkPolicy", "networkpolicies"),
            ("Endpoints", "endpoints"),
            ("Gateway", "gateways"),
            ("StorageClass", "storageclasses"),
        ] {
            assert_eq!(resource_of(kind), res, "{kind}");
        }
    }

    #[test]
    fn inferred() {
        let mut r = Request {
            object: Some(json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"}})),
            ..Request::default()
        };
        r.infer();
        assert_eq!(r.operation, "CREATE");
        assert_eq!(r.resource, Gvr { group: "apps".into(), version: "v1".into(), resource: "deployments".into() });
        assert_eq!((r.name.as_str(), r.namespace.as_str()), ("web", "default"));
        let v = r.to_cel_json(&r.kind, &r.resource);
        assert_eq!(v["requestKind"]["kind"], "Deployment");
        assert_eq!(v["options"]["kind"], "CreateOptions");
        assert!(v.get("subResource").is_none());
    }
}
