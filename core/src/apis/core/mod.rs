//! The core group (`v1`), after Kubernetes' `pkg/apis/core/validation`,
//! `pkg/apis/core/v1/defaults.go` and `pkg/registry/core/*/strategy.go`.

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value as Json;

use super::Group;
use crate::field::Error;

pub mod container;
pub mod pod;
pub mod pod_affinity;
pub(crate) mod pod_common;
pub(crate) mod pod_container_resources;
pub mod pod_defaults;
mod pod_diff;
pub mod pod_drop;
pub(crate) mod pod_fields;
pub mod pod_gojson;
mod pod_os;
mod pod_resources;
pub mod pod_schema;
mod pod_security;
mod pod_topology;
mod pod_update;
pub mod pod_warnings;
pub mod volume;
pub(crate) mod volume_sources;

mod binding;
pub(crate) mod common;
pub mod config;
pub mod endpoints;
pub mod event;
mod gosyntax;
pub mod namespace;
pub mod netip;
pub mod node;
pub mod pv;
mod pv_sources;
pub mod pvc;
mod pvc_diff;
pub mod quota;
pub mod service;
pub mod service_account;
pub mod service_alloc;
#[cfg(test)]
mod tests;

/// The kinds this room models.
pub const KINDS: &[&str] = &[
    "Pod",
    "PodTemplate",
    "ReplicationController",
    "Service",
    "Endpoints",
    "ConfigMap",
    "Secret",
    "Namespace",
    "ServiceAccount",
    "PersistentVolumeClaim",
    "PersistentVolume",
    "ResourceQuota",
    "LimitRange",
    "Event",
    "Node",
    "Binding",
    "ComponentStatus",
];

/// `SetObjectDefaults_X` of core/v1 for one kind.
pub fn default(_version: &str, kind: &str, object: &mut Json) {
    match kind {
        "Pod" => pod_defaults::default_pod(object),
        "PodTemplate" => pod_defaults::default_pod_template(object),
        "ReplicationController" => pod_defaults::default_replication_controller(object),
        "Service" => service::default(object),
        "Endpoints" => endpoints::default(object),
        "ConfigMap" => config::default_config_map(object),
        "Secret" => config::default_secret(object),
        "Namespace" => namespace::default(object),
        "PersistentVolumeClaim" => pvc::default(object),
        "PersistentVolume" => pv::default(object),
        "ResourceQuota" => quota::default_resource_quota(object),
        "LimitRange" => quota::default_limit_range(object),
        "Node" => node::default(object),
        _ => {}
    }
}

/// The strategy, validation and warnings of one request.
pub fn admit(group: &Group<'_>, object: &mut Json, old: Option<&Json>) -> (Vec<Error>, Vec<String>) {
    match group.kind {
        "Pod" => pod::admit_pod(object, old),
        "PodTemplate" => pod::admit_pod_template(object, old, &group.context),
        "ReplicationController" => pod::admit_replication_controller(object, old, &group.context),
        "Service" => service_alloc::admit(group.context, object, old),
        "Endpoints" => endpoints::admit(group.context, object, old),
        "ConfigMap" => config::admit_config_map(group.context, object, old),
        "Secret" => config::admit_secret(group.context, object, old),
        "Namespace" => namespace::admit(group.context, object, old),
        "ServiceAccount" => service_account::admit(group.context, object, old),
        "PersistentVolumeClaim" => pvc::admit(group.context, object, old),
        "PersistentVolume" => pv::admit(group.context, object, old),
        "ResourceQuota" => quota::admit_resource_quota(group.context, object, old),
        "LimitRange" => quota::admit_limit_range(group.context, object, old),
        "Event" => event::admit(event::Rules::CoreV1, object, old),
        "Node" => node::admit(group.context, object, old),
        "Binding" => binding::admit(object),
        _ => (Vec::new(), Vec::new()),
    }
}
