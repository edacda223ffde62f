//! Ingress and IngressClass, after `pkg/apis/networking/validation/validation.go`
//! (`ValidateIngressCreate`, `ValidateIngressUpdate`, `ValidateIngressSpec`, the rules, paths,
//! backends and TLS, `ValidateIngressClass`, `ValidateIngressClassUpdate`) and apimachinery's
//! `IsWildcardDNS1123Subdomain`.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value as Json;

use crate::apis::apps::common::immutable;
use crate::apis::core::common::{
    forbidden, is_dns1123_label, is_dns1123_subdomain, is_valid_port_name, is_valid_port_num, required,
};
use crate::apis::core::netip::parse_sloppy;
use crate::apis::json::{field, get, list, opt_str, str};
use crate::content;
use crate::field::{go_quote, Error, Path};

/// `annotationIngressClass`.
pub(crate) const ANNOTATION_INGRESS_CLASS: &str = "kubernetes.io/ingress.class";
/// `maxLenIngressClassController`.
const MAX_LEN_CONTROLLER: usize = 250;
/// `supportedPathTypes.List()` (sorted).
const PATH_TYPES: [&str; 3] = ["Exact", "ImplementationSpecific", "Prefix"];
/// `invalidPathSequences`.
const INVALID_PATH_SEQUENCES: [&str; 5] = ["//", "/./", "/../", "%2f", "%2F"];
/// `invalidPathSuffixes`.
const INVALID_PATH_SUFFIXES: [&str; 2] = ["/..", "/."];
/// `supportedIngressClassParametersReferenceScopes.List()` (sorted).
const SCOPES: [&str; 2] = ["Cluster", "Namespace"];

/// `IngressValidationOptions`. `AllowRelaxedServiceNameValidation` is always true in 1.37
/// (`RelaxedServiceNameValidation` is GA and locked on).
#[derive(Clone, Copy, Debug, Default)]
struct Options {
    allow_invalid_secret_name: bool,
    allow_invalid_wildcard_host_rule: bool,
}

/// apimachinery `IsWildcardDNS1123Subdomain`.
pub(crate) fn is_wildcard_dns1123_subdomain(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > 253 {
        errs.push(crate::apis::core::common::max_len_chars(253));
    }
    let long = content::max_len_error(253);
    let matches =
        value.strip_prefix("*.").is_some_and(|rest| content::is_dns1123_subdomain(rest).iter().all(|m| *m == long));
    if !matches {
        errs.push(content::regex_error(
            "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character",
            r"\*\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*",
            &["*.example.com"],
        ));
    }
    errs
}

/// `ValidateIngressCreate` (metadata aside): the spec, and the deprecated class annotation
/// against `ingressClassName`.
pub(crate) fn validate_create(object: &Json, errors: &mut Vec<Error>) {
    let root = Path::root();
    validate_spec(field(object, "spec"), &root.child("spec"), Options::default(), errors);
    let annotations = field(field(object, "metadata"), "annotations");
    if let (Some(value), Some(class)) =
        (opt_str(annotations, ANNOTATION_INGRESS_CLASS), opt_str(field(object, "spec"), "ingressClassName"))
    {
        if value != class {
            let path = root.child("annotations");
            errors.push(Error::invalid(
                &path.child(ANNOTATION_INGRESS_CLASS),
                value,
                "must match `ingressClassName` when both are specified",
            ));
        }
    }
}

/// `ValidateIngressUpdate` (metadata aside): the spec, with the old object's leniencies.
pub(crate) fn validate_update(object: &Json, old: &Json, errors: &mut Vec<Error>) {
    let opts = Options {
        allow_invalid_secret_name: allow_invalid_secret_name(old),
        allow_invalid_wildcard_host_rule: allow_invalid_wildcard_host_rule(old),
    };
    validate_spec(field(object, "spec"), &Path::root().child("spec"), opts, errors);
}

/// `ValidateIngressSpec`.
fn validate_spec(spec: &Json, path: &Path<'_>, opts: Options, errors: &mut Vec<Error>) {
    let rules = list(spec, "rules");
    let default_backend = get(spec, "defaultBackend");
    if rules.is_empty() && default_backend.is_none() {
        // spec.Rules: nil, or an empty list.
        let value = spec.get("rules").cloned().unwrap_or(Json::Null);
        errors.push(Error::invalid(path, value, "either `defaultBackend` or `rules` must be specified"));
    }
    if let Some(backend) = default_backend {
        validate_backend(backend, &path.child("defaultBackend"), errors);
    }
    if !rules.is_empty() {
        validate_rules(rules, &path.child("rules"), opts, errors);
    }
    let tls = list(spec, "tls");
    if !tls.is_empty() {
        validate_tls(tls, &path.child("tls"), opts, errors);
    }
    if let Some(class) = opt_str(spec, "ingressClassName") {
        for msg in is_dns1123_subdomain(class) {
            errors.push(Error::invalid(&path.child("ingressClassName"), class, msg));
        }
    }
}

/// `validateIngressTLS`.
fn validate_tls(tls: &[Json], path: &Path<'_>, opts: Options, errors: &mut Vec<Error>) {
    for (t, item) in tls.iter().enumerate() {
        let at = path.index(t);
        let hosts = at.child("hosts");
        for (i, host) in list(item, "hosts").iter().enumerate() {
            let host = host.as_str().unwrap_or("");
            let msgs =
                if host.contains('*') { is_wildcard_dns1123_subdomain(host) } else { is_dns1123_subdomain(host) };
            for msg in msgs {
                errors.push(Error::invalid(&hosts.index(i), host, msg));
            }
        }
        if !opts.allow_invalid_secret_name {
            let name = str(item, "secretName");
            for msg in validate_tls_secret_name(name) {
                errors.push(Error::invalid(&at.child("secretName"), name, msg));
            }
        }
    }
}

/// `validateTLSSecretName`: `ValidateSecretName` (`NameIsDNSSubdomain`) of a non-empty name.
fn validate_tls_secret_name(name: &str) -> Vec<String> {
    if name.is_empty() {
        return Vec::new();
    }
    is_dns1123_subdomain(name)
}

/// `validateIngressRules`.
fn validate_rules(rules: &[Json], path: &Path<'_>, opts: Options, errors: &mut Vec<Error>) {
    for (i, rule) in rules.iter().enumerate() {
        let at = path.index(i);
        let host = str(rule, "host");
        let mut wildcard = false;
        if !host.is_empty() {
            let host_path = at.child("host");
            if parse_sloppy(host).is_some() {
                errors.push(Error::invalid(&host_path, host, "must be a DNS name, not an IP address"));
            }
            if host.contains('*') {
                for msg in is_wildcard_dns1123_subdomain(host) {
                    errors.push(Error::invalid(&host_path, host, msg));
                }
                wildcard = true;
            } else {
                for msg in is_dns1123_subdomain(host) {
                    errors.push(Error::invalid(&host_path, host, msg));
                }
            }
        }
        if !wildcard || !opts.allow_invalid_wildcard_host_rule {
            validate_rule_value(rule, &at, errors);
        }
    }
}

/// `validateIngressRuleValue` and `validateHTTPIngressRuleValue`.
fn validate_rule_value(rule: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let Some(http) = get(rule, "http") else { return };
    let http_path = path.child("http");
    let paths_path = http_path.child("paths");
    let paths = list(http, "paths");
    if paths.is_empty() {
        errors.push(required(&paths_path, ""));
    }
    for (i, p) in paths.iter().enumerate() {
        validate_http_path(p, &paths_path.index(i), errors);
    }
}

/// `validateHTTPIngressPath`.
fn validate_http_path(p: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let Some(path_type) = opt_str(p, "pathType") else {
        errors.push(required(&path.child("pathType"), "pathType must be specified"));
        return;
    };
    let value = str(p, "path");
    let at = path.child("path");
    match path_type {
        "Exact" | "Prefix" => {
            if !value.starts_with('/') {
                errors.push(Error::invalid(&at, value, "must be an absolute path"));
            }
            if !value.is_empty() {
                for seq in INVALID_PATH_SEQUENCES {
                    if value.contains(seq) {
                        errors.push(Error::invalid(&at, value, format!("must not contain '{seq}'")));
                    }
                }
                for suffix in INVALID_PATH_SUFFIXES {
                    if value.ends_with(suffix) {
                        errors.push(Error::invalid(&at, value, format!("cannot end with '{suffix}'")));
                    }
                }
            }
        }
        "ImplementationSpecific" => {
            if !value.is_empty() && !value.starts_with('/') {
                errors.push(Error::invalid(&at, value, "must be an absolute path"));
            }
        }
        other => errors.push(Error::not_supported(&path.child("pathType"), other, &PATH_TYPES)),
    }
    validate_backend(field(p, "backend"), &path.child("backend"), errors);
}

/// `validateIngressBackend` (service names checked with `NameIsDNSLabel`: relaxed service
/// name validation is on).
fn validate_backend(backend: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let resource = get(backend, "resource");
    let service = get(backend, "service");
    match (resource, service) {
        (Some(_), Some(_)) => errors.push(Error::invalid(path, "", "cannot set both resource and service backends")),
        (Some(resource), None) => validate_typed_local_object_reference(resource, &path.child("resource"), errors),
        (None, Some(service)) => {
            let service_path = path.child("service");
            let name = str(service, "name");
            if name.is_empty() {
                errors.push(required(&service_path.child("name"), ""));
            } else {
                for msg in is_dns1123_label(name) {
                    errors.push(Error::invalid(&service_path.child("name"), name, msg));
                }
            }
            let port = field(service, "port");
            let port_path = service_path.child("port");
            let port_name = str(port, "name");
            let number = port.get("number").and_then(Json::as_i64).unwrap_or(0);
            if !port_name.is_empty() && number != 0 {
                errors.push(Error::invalid(path, "", "cannot set both port name & port number"));
            } else if !port_name.is_empty() {
                for msg in is_valid_port_name(port_name) {
                    errors.push(Error::invalid(&port_path.child("name"), port_name, msg));
                }
            } else if number != 0 {
                for msg in is_valid_port_num(number) {
                    errors.push(Error::invalid(&port_path.child("number"), number, msg));
                }
            } else {
                errors.push(required(path, "port name or number is required"));
            }
        }
        (None, None) => errors.push(Error::invalid(path, "", "resource or service backend is required")),
    }
}

/// `validateIngressTypedLocalObjectReference`.
fn validate_typed_local_object_reference(params: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    if let Some(group) = opt_str(params, "apiGroup") {
        for msg in is_dns1123_subdomain(group) {
            errors.push(Error::invalid(&path.child("apiGroup"), group, msg));
        }
    }
    path_segment(str(params, "kind"), &path.child("kind"), errors);
    path_segment(str(params, "name"), &path.child("name"), errors);
}

/// A required name checked with `content.IsPathSegmentName`.
fn path_segment(value: &str, path: &Path<'_>, errors: &mut Vec<Error>) {
    if value.is_empty() {
        errors.push(required(path, ""));
        return;
    }
    for msg in content::is_path_segment_name(value) {
        errors.push(Error::invalid(path, value, msg));
    }
}

/// `allowInvalidSecretName`.
fn allow_invalid_secret_name(old: &Json) -> bool {
    list(field(old, "spec"), "tls").iter().any(|t| !validate_tls_secret_name(str(t, "secretName")).is_empty())
}

/// `allowInvalidWildcardHostRule`.
fn allow_invalid_wildcard_host_rule(old: &Json) -> bool {
    list(field(old, "spec"), "rules").iter().any(|rule| {
        if !str(rule, "host").contains('*') {
            return false;
        }
        let mut errs = Vec::new();
        validate_rule_value(rule, &Path::root(), &mut errs);
        !errs.is_empty()
    })
}

/// The deprecated-annotation warning of `WarningsOnCreate`.
pub(crate) fn warnings_on_create(object: &Json) -> Vec<String> {
    let annotations = field(field(object, "metadata"), "annotations");
    let set = annotations.get(ANNOTATION_INGRESS_CLASS).is_some();
    if set && opt_str(field(object, "spec"), "ingressClassName").is_none() {
        return alloc::vec![format!(
            "annotation {} is deprecated, please use 'spec.ingressClassName' instead",
            go_quote(ANNOTATION_INGRESS_CLASS)
        )];
    }
    Vec::new()
}

/// `ValidateIngressClass` (metadata aside): `validateIngressClassSpec`.
pub(crate) fn validate_class(object: &Json, errors: &mut Vec<Error>) {
    let root = Path::root();
    let path = root.child("spec");
    let spec = field(object, "spec");
    let controller = str(spec, "controller");
    let controller_path = path.child("controller");
    if controller.len() > MAX_LEN_CONTROLLER {
        errors.push(Error::too_long(&controller_path, MAX_LEN_CONTROLLER as i64));
    }
    crate::apis::batch::job::domain_prefixed_path(&controller_path, controller, errors);
    if let Some(params) = get(spec, "parameters") {
        validate_parameters(params, &path.child("parameters"), errors);
    }
}

/// `ValidateIngressClassUpdate` (metadata aside): the controller is immutable, then
/// `ValidateIngressClass`.
pub(crate) fn validate_class_update(object: &Json, old: &Json, errors: &mut Vec<Error>) {
    let new = field(field(object, "spec"), "controller");
    let before = field(field(old, "spec"), "controller");
    let controller = new.as_str().unwrap_or("");
    let root = Path::root();
    let path = root.child("spec");
    let value = Json::from(controller);
    let before = Json::from(before.as_str().unwrap_or(""));
    immutable(&value, &before, &path.child("controller"), go_quote(controller), errors);
    validate_class(object, errors);
}

/// `validateIngressClassParametersReference`.
fn validate_parameters(params: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    if let Some(group) = opt_str(params, "apiGroup") {
        for msg in is_dns1123_subdomain(group) {
            errors.push(Error::invalid(&path.child("apiGroup"), group, msg));
        }
    }
    path_segment(str(params, "kind"), &path.child("kind"), errors);
    path_segment(str(params, "name"), &path.child("name"), errors);
    let Some(scope) = opt_str(params, "scope") else {
        errors.push(required(&path.child("scope"), ""));
        return;
    };
    let namespace = opt_str(params, "namespace");
    let ns_path = path.child("namespace");
    match scope {
        "Namespace" => match namespace {
            None => errors.push(required(&ns_path, "`parameters.scope` is set to 'Namespace'")),
            Some(ns) => {
                for msg in is_dns1123_label(ns) {
                    errors.push(Error::invalid(&ns_path, ns, msg));
                }
            }
        },
        "Cluster" => {
            if namespace.is_some() {
                errors.push(forbidden(&ns_path, "`parameters.scope` is set to 'Cluster'"));
            }
        }
        other => errors.push(Error::not_supported(&path.child("scope"), other, &SCOPES)),
    }
}
