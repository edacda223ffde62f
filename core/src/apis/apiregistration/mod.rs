//! The `apiregistration.k8s.io` group, served by the API server's aggregator: `APIService`
//! (v1, v1beta1), after kube-aggregator's `pkg/apis/apiregistration/validation/validation.go`,
//! `pkg/apis/apiregistration/{v1,v1beta1}/defaults.go` and `pkg/registry/apiservice/strategy.go`.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{json, Value as Json};

use super::Group;
use crate::apis::core::common::{is_dns1123_subdomain, is_valid_port_num, required};
use crate::apis::json::{bool, field, get, int, str};
use crate::field::{Error, Path};

#[cfg(test)]
mod tests;

/// The kinds this room models.
pub const KINDS: &[&str] = &["APIService"];

/// `SetDefaults_ServiceReference` (v1 and v1beta1): a service's port defaults to 443.
pub fn default(_version: &str, _kind: &str, object: &mut Json) {
    if let Some(Json::Object(service)) = object.get_mut("spec").and_then(|s| s.get_mut("service")) {
        service.entry("port").or_insert(json!(443));
    }
}

/// The strategy (`PrepareForCreate`: the status reset, a local APIService marked available;
/// `PrepareForUpdate`: the old status kept) and `ValidateAPIService` (which
/// `ValidateAPIServiceUpdate` runs on the new object too). The strategy warns of nothing.
pub fn admit(_group: &Group<'_>, object: &mut Json, old: Option<&Json>) -> (Vec<Error>, Vec<String>) {
    let status = match old {
        Some(old) => field(old, "status").clone(),
        None if get(field(object, "spec"), "service").is_none() => json!({"conditions": [{
            "type": "Available", "status": "True", "reason": "Local",
            "message": "Local APIServices are always available"}]}),
        None => json!({}),
    };
    if let Json::Object(map) = object {
        map.insert(String::from("status"), status);
    }
    let mut errors = Vec::new();
    validate(object, &mut errors);
    (errors, Vec::new())
}

/// `ValidateAPIService`, its metadata aside but for the name rule the generic check does not
/// know: the name must be `spec.version + "." + spec.group`.
fn validate(object: &Json, errors: &mut Vec<Error>) {
    let root = Path::root();
    let spec_path = root.child("spec");
    let spec = field(object, "spec");
    let (group, version) = (str(spec, "group"), str(spec, "version"));
    let name = str(field(object, "metadata"), "name");
    let required_name = format!("{version}.{group}");
    // The name function: `content.IsPathSegmentName` first (the metadata check reports it),
    // then the required name.
    if crate::content::is_path_segment_name(name).is_empty() && name != required_name {
        let detail = format!("must be `spec.version+\".\"+spec.group`: {}", crate::field::go_quote(&required_name));
        errors.push(Error::invalid(&root.child("metadata").child("name"), name, detail));
    }
    let group_path = spec_path.child("group");
    if group.is_empty() && version != "v1" {
        errors.push(required(&group_path, "only v1 may have an empty group and it better be legacy kube"));
    }
    if !group.is_empty() {
        for e in is_dns1123_subdomain(group) {
            errors.push(Error::invalid(&group_path, group, e));
        }
    }
    for e in crate::cel::k8s::is_dns1035_label(version) {
        errors.push(Error::invalid(&spec_path.child("version"), version, e));
    }
    let group_priority = int(spec, "groupPriorityMinimum").unwrap_or(0);
    if group_priority <= 0 || group_priority > 20000 {
        let path = spec_path.child("groupPriorityMinimum");
        errors.push(Error::invalid(&path, group_priority, "must be positive and less than 20000"));
    }
    let version_priority = int(spec, "versionPriority").unwrap_or(0);
    if version_priority <= 0 || version_priority > 1000 {
        let path = spec_path.child("versionPriority");
        errors.push(Error::invalid(&path, version_priority, "must be positive and less than 1000"));
    }
    // `caBundle` is base64 in JSON (decoding already refused what is not): its bytes count.
    let ca_bundle = crate::declarative::validate::base64_len(str(spec, "caBundle")).unwrap_or(0);
    let insecure = bool(spec, "insecureSkipTLSVerify").unwrap_or(false);
    let insecure_path = spec_path.child("insecureSkipTLSVerify");
    let Some(service) = get(spec, "service") else {
        if ca_bundle != 0 {
            let path = spec_path.child("caBundle");
            errors.push(Error::invalid(
                &path,
                format!("{ca_bundle} bytes"),
                "local APIServices may not have a caBundle",
            ));
        }
        if insecure {
            errors.push(Error::invalid(&insecure_path, true, "local APIServices may not have insecureSkipTLSVerify"));
        }
        return;
    };
    let service_path = spec_path.child("service");
    if str(service, "namespace").is_empty() {
        errors.push(required(&service_path.child("namespace"), ""));
    }
    if str(service, "name").is_empty() {
        errors.push(required(&service_path.child("name"), ""));
    }
    let port = int(service, "port").unwrap_or(0);
    let port_errors = is_valid_port_num(port);
    if !port_errors.is_empty() {
        let detail = format!("port is not valid: {}", port_errors.join(", "));
        errors.push(Error::invalid(&service_path.child("port"), port, detail));
    }
    if insecure && ca_bundle > 0 {
        errors.push(Error::invalid(&insecure_path, true, "may not be true if caBundle is present"));
    }
}
