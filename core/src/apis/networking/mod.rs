//! The `networking.k8s.io` group, after Kubernetes' `pkg/apis/networking/validation`,
//! `pkg/apis/networking/v1/defaults.go` and `pkg/registry/networking/*/strategy.go`:
//!
//! - `ingress`: Ingress and IngressClass (networking/v1);
//! - `netpol`: NetworkPolicy (networking/v1), its defaults and warnings;
//! - `servicecidr`: ServiceCIDR and IPAddress (networking/v1; 1.37 serves no v1beta1 of
//!   the group any more).
//!
//! This module holds the strategies (`PrepareForCreate`, `PrepareForUpdate`, `Validate`,
//! `ValidateUpdate`, `WarningsOnCreate`, `WarningsOnUpdate` of
//! `pkg/registry/networking/{ingress,ingressclass,networkpolicy,servicecidr,ipaddress}`).

mod ingress;
mod netpol;
mod servicecidr;
#[cfg(test)]
mod tests;

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{json, Map, Value as Json};

use super::Group;
use crate::apis::apps::common::same;
use crate::apis::json::{field, struct_mut};
use crate::field::Error;

/// The kinds this room models.
pub const KINDS: &[&str] = &["Ingress", "IngressClass", "NetworkPolicy", "ServiceCIDR", "IPAddress"];

/// `SetObjectDefaults_X` of the served version for one kind: networking/v1 defaults
/// NetworkPolicy (`SetDefaults_NetworkPolicy`, `SetDefaults_NetworkPolicyPort`) and
/// IngressClass (`SetDefaults_IngressClass`).
pub fn default(version: &str, kind: &str, object: &mut Json) {
    if version != "v1" {
        return;
    }
    match kind {
        "NetworkPolicy" => netpol::default(object),
        "IngressClass" => {
            // SetDefaults_IngressClass: a parameters reference without scope is Cluster-scoped.
            let Some(spec) = object.get_mut("spec") else { return };
            if let Some(Json::Object(params)) = spec.get_mut("parameters") {
                if params.get("scope").is_none_or(Json::is_null) {
                    params.insert(String::from("scope"), Json::from("Cluster"));
                }
            }
        }
        _ => {}
    }
}

/// The strategy, validation and warnings of one request.
pub fn admit(group: &Group<'_>, object: &mut Json, old: Option<&Json>) -> (Vec<Error>, Vec<String>) {
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    match group.kind {
        "Ingress" => {
            // PrepareForCreate / PrepareForUpdate: the status reset (or the old one kept), the
            // generation.
            prepare(object, old, true, true);
            match old {
                None => {
                    ingress::validate_create(object, &mut errors);
                    warnings = ingress::warnings_on_create(object);
                }
                Some(old) => ingress::validate_update(object, old, &mut errors),
            }
        }
        "IngressClass" => {
            prepare(object, old, false, true);
            match old {
                None => ingress::validate_class(object, &mut errors),
                Some(old) => ingress::validate_class_update(object, old, &mut errors),
            }
        }
        "NetworkPolicy" => {
            prepare(object, old, false, true);
            netpol::validate(object, old, &mut errors);
            warnings = netpol::warnings(object);
        }
        "ServiceCIDR" => {
            // ServiceCIDRStatusFieldWiping is on in 1.37: the status is reset on create and
            // kept from the old object on update; no generation.
            prepare(object, old, true, false);
            match old {
                None => servicecidr::validate_service_cidr(object, &mut errors),
                Some(old) => servicecidr::validate_service_cidr_update(object, old, &mut errors),
            }
        }
        "IPAddress" => {
            servicecidr::validate_ip_address(object, &mut errors);
            // ValidateIPAddressUpdate's only check, the parent reference's immutability, is
            // MarkCoveredByDeclarative: from 1.37 the `+k8s:immutable` rule (beta, enforced)
            // replaces it (FilterCoveredHandwrittenErrors), printing its own value (`null`).
            if let (Some(old), true) = (old, group.context.minor < 37) {
                servicecidr::validate_ip_address_update(object, old, &mut errors);
            }
        }
        _ => {}
    }
    (errors, warnings)
}

/// The strategies' `PrepareForCreate` / `PrepareForUpdate`: with `status`, the status reset on
/// create and the old one kept on update; with `generation`, `metadata.generation` 1 on create,
/// the old one (bumped when the spec changed) on update.
fn prepare(object: &mut Json, old: Option<&Json>, status: bool, generation: bool) {
    let changed = old.is_some_and(|old| !same(field(object, "spec"), field(old, "spec")));
    let Json::Object(map) = object else { return };
    if status {
        match old {
            None => {
                map.insert(String::from("status"), Json::Object(Map::new()));
            }
            Some(old) => match old.get("status") {
                Some(s) => {
                    map.insert(String::from("status"), s.clone());
                }
                None => {
                    map.remove("status");
                }
            },
        }
    }
    if generation {
        let value = match old {
            None => 1,
            Some(old) => {
                let before = field(field(old, "metadata"), "generation").as_i64().unwrap_or(0);
                before.saturating_add(i64::from(changed))
            }
        };
        if let Some(Json::Object(meta)) = struct_mut(object, "metadata") {
            meta.insert(String::from("generation"), json!(value));
        }
    }
}
