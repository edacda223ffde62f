//! Smaller parts of a PodSpec, after `pkg/apis/core/validation/validation.go`:
//! `validatePodDNSConfig` (nameserver IPs by `IsValidIPForLegacyField`),
//! `ValidateDNS1123SubdomainWithUnderScore`, `ValidateHostAliases`, `validatePodHostName`,
//! `ValidateTolerations` (comparison operators off at 1.37) and
//! `validateFileKeyRefVolumes`.

use alloc::vec::Vec;

use serde_json::Value as Json;

use super::super::json::{bool as jbool, field, get, int, list, str};
use super::netip::validate_ip_legacy;
use super::pod_common::*;
use crate::content;
use crate::field::{Error, Path};

/// `validatePodDNSConfig`.
pub fn validate_dns_config(spec: &Json, policy: &str, path: &Path<'_>, errors: &mut Vec<Error>) {
    let config = get(spec, "dnsConfig");
    if policy == "None" {
        match config {
            None => {
                errors.push(required(path, "must provide `dnsConfig` when `dnsPolicy` is None"));
                return;
            }
            Some(c) if list(c, "nameservers").is_empty() => {
                errors.push(required(
                    &path.child("nameservers"),
                    "must provide at least one DNS nameserver when `dnsPolicy` is None",
                ));
                return;
            }
            _ => {}
        }
    }
    let Some(c) = config else { return };
    let ns = strings(c, "nameservers");
    if ns.len() > 3 {
        let mut e =
            Error::invalid(&path.child("nameservers"), Json::from(ns.clone()), "must not have more than 3 nameservers");
        e.rendered_value = Some(super::super::json::go_string_slice(&ns));
        errors.push(e);
    }
    let np = path.child("nameservers");
    for (i, n) in ns.iter().enumerate() {
        validate_ip_legacy(&np.index(i), n, &[], errors);
    }
    let searches = strings(c, "searches");
    let sp = path.child("searches");
    let slice = super::super::json::go_string_slice(&searches);
    if searches.len() > 32 {
        let mut e = Error::invalid(&sp, Json::from(searches.clone()), "must not have more than 32 search paths");
        e.rendered_value = Some(slice.clone());
        errors.push(e);
    }
    if searches.join(" ").len() > 2048 {
        let mut e = Error::invalid(
            &sp,
            Json::from(searches.clone()),
            "must not have more than 2048 characters (including spaces) in the search list",
        );
        e.rendered_value = Some(slice);
        errors.push(e);
    }
    for (i, s) in searches.iter().enumerate() {
        if *s != "." {
            let s = s.strip_suffix('.').unwrap_or(s);
            // ValidateDNS1123SubdomainWithUnderScore.
            let ok = s.len() <= 253
                && s.split('.').all(|l| {
                    let b = l.as_bytes();
                    let body = |c: &u8| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-' || *c == b'_';
                    let end = |c: &u8| c.is_ascii_lowercase() || c.is_ascii_digit();
                    let start = b.strip_prefix(b"_").unwrap_or(b);
                    matches!((start.first(), start.last()), (Some(f), Some(e)) if end(f) && end(e) && start.iter().all(body))
                });
            if s.len() > 253 {
                errors.push(
                    Error::invalid(&sp.index(i), s, "must be no more than 253 characters")
                        .with_origin("format=k8s-dns-subdomain-with-underscore"),
                );
            }
            if !(ok || s.len() > 253 && s.split('.').all(|l| !l.is_empty())) {
                errors.push(
                    Error::invalid(
                        &sp.index(i),
                        s,
                        content::regex_error(
                            "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '_', '-' or '.', and must start and end with an alphanumeric character",
                            "_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?(\\._?[a-z0-9]([-_a-z0-9]*[a-z0-9])?)*",
                            &["example.com"],
                        ),
                    )
                    .with_origin("format=k8s-dns-subdomain-with-underscore"),
                );
            }
        }
    }
    let op = path.child("options");
    for (i, o) in list(c, "options").iter().enumerate() {
        if str(o, "name").is_empty() {
            errors.push(required(&op.index(i), "must not be empty"));
        }
    }
}

/// `ValidateHostAliases`.
pub fn validate_host_aliases(aliases: &[Json], path: &Path<'_>, errors: &mut Vec<Error>) {
    for (i, alias) in aliases.iter().enumerate() {
        let at = path.index(i);
        validate_ip_legacy(&at.child("ip"), str(alias, "ip"), &[], errors);
        let hp = at.child("hostnames");
        for (j, h) in list(alias, "hostnames").iter().enumerate() {
            validate_dns1123_subdomain(h.as_str().unwrap_or(""), &hp.index(j), errors);
        }
    }
}

/// `validatePodHostName` (HostnameOverride is GA).
pub fn validate_pod_host_name(spec: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let Some(h) = spec.get("hostnameOverride").and_then(Json::as_str) else { return };
    let hp = path.child("hostnameOverride");
    if jbool(spec, "setHostnameAsFQDN") == Some(true) {
        errors.push(forbidden(&hp, "may not be specified when setHostnameAsFQDN is true"));
    }
    if jbool(spec, "hostNetwork") == Some(true) {
        errors.push(forbidden(&hp, "may not be specified when hostNetwork is true"));
    }
    if h.len() > 64 {
        errors.push(Error::too_long(&hp, 64));
    }
    validate_dns1123_subdomain(h, &hp, errors);
}

/// `ValidateTolerations` (comparison operators off).
pub fn validate_tolerations(tolerations: &[Json], path: &Path<'_>, errors: &mut Vec<Error>) {
    for (i, t) in tolerations.iter().enumerate() {
        let at = path.index(i);
        let key = str(t, "key");
        if !key.is_empty() {
            for msg in content::is_label_key(key) {
                errors.push(Error::invalid(&at.child("key"), key, msg).with_origin("format=k8s-label-key"));
            }
        }
        let op = str(t, "operator");
        if key.is_empty() && op != "Exists" {
            errors.push(Error::invalid(
                &at.child("operator"),
                op,
                "operator must be Exists when `key` is empty, which means \"match all values and all keys\"",
            ));
        }
        let effect = str(t, "effect");
        if int(t, "tolerationSeconds").is_some() && effect != "NoExecute" {
            errors.push(Error::invalid(
                &at.child("effect"),
                effect,
                "effect must be 'NoExecute' when `tolerationSeconds` is set",
            ));
        }
        let value = str(t, "value");
        match op {
            "Equal" | "" => {
                let errs = content::is_label_value(value);
                if !errs.is_empty() {
                    errors.push(Error::invalid(&at.child("operator"), value, errs.join(";")));
                }
            }
            "Exists" => {
                if !value.is_empty() {
                    errors.push(Error::invalid(
                        &at.child("operator"),
                        value,
                        "value must be empty when `operator` is 'Exists'",
                    ));
                }
            }
            "Lt" | "Gt" => {
                errors.push(Error::not_supported(&at.child("operator"), op, &["Equal", "Exists", "Lt", "Gt"]));
            }
            other => errors.push(Error::not_supported(&at.child("operator"), other, &["Equal", "Exists"])),
        }
        if !effect.is_empty() && !["NoSchedule", "PreferNoSchedule", "NoExecute"].contains(&effect) {
            errors.push(Error::not_supported(
                &at.child("effect"),
                effect,
                &["NoSchedule", "PreferNoSchedule", "NoExecute"],
            ));
        }
    }
}

/// `validateFileKeyRefVolumes`.
pub fn validate_file_key_ref_volumes(spec: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let volumes = list(spec, "volumes");
    for key in ["initContainers", "containers", "ephemeralContainers"] {
        let kp = path.child(key);
        for (i, c) in list(spec, key).iter().enumerate() {
            let cp = kp.index(i);
            let ep = cp.child("env");
            for (j, env) in list(c, "env").iter().enumerate() {
                let Some(fk) = get(field(env, "valueFrom"), "fileKeyRef") else { continue };
                let name = str(fk, "volumeName");
                let at = ep.index(j);
                let at = at.child("valueFrom");
                let at = at.child("fileKeyRef");
                let at = at.child("volumeName");
                match volumes.iter().find(|v| str(v, "name") == name) {
                    None => errors.push(not_found(&at, name)),
                    Some(v) if get(v, "emptyDir").is_none() => {
                        errors.push(Error::invalid(&at, name, "referenced volume must be of type emptyDir"));
                    }
                    _ => {}
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::String;
    use serde_json::json;

    // TestValidatePodDNSConfig / TestValidateHostAliases (IP addresses).
    #[test]
    fn ips() {
        let spec = json!({"dnsConfig": {"nameservers": ["1.2.3.4", "1.2.3.04", "invalid"]}});
        let mut errors = Vec::new();
        validate_dns_config(&spec, "ClusterFirst", &Path::named("spec").child("dnsConfig"), &mut errors);
        validate_host_aliases(
            &[json!({"ip": "::ffff:1.2.3.4", "hostnames": ["a"]})],
            &Path::named("spec").child("hostAliases"),
            &mut errors,
        );
        let texts: Vec<String> = errors.iter().map(Error::text).collect();
        assert_eq!(
            texts,
            [
                "spec.dnsConfig.nameservers[1]: Invalid value: \"1.2.3.04\": must not have leading 0s",
                "spec.dnsConfig.nameservers[2]: Invalid value: \"invalid\": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)",
                "spec.hostAliases[0].ip: Invalid value: \"::ffff:1.2.3.4\": must not be an IPv4-mapped IPv6 address",
            ]
        );
    }
}
