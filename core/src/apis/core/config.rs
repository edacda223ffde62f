//! ConfigMap and Secret, after `pkg/apis/core/v1/defaults.go` (`SetDefaults_ConfigMap`,
//! `SetDefaults_Secret`), `pkg/apis/core/v1/conversion.go` (`Convert_v1_Secret_To_core_Secret`:
//! `stringData` written over `data`), `pkg/apis/core/validation/validation.go`
//! (`ValidateConfigMap`, `ValidateConfigMapUpdate`, `ValidateSecret`, `ValidateSecretUpdate`),
//! `pkg/registry/core/configmap/strategy.go` and `pkg/registry/core/secret/strategy.go`
//! (`PrepareForUpdate`, `warningsForSecret`).
//!
//! `data` values of a Secret and `binaryData` values of a ConfigMap are base64 in JSON; sizes
//! and contents are checked on the decoded bytes.

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{json, Map, Value as Json};

use super::common::{self, forbidden, required};
use super::gosyntax;
use crate::apis::{json, Context};
use crate::field::base64::{base64_decode, base64_encode};
use crate::field::{Error, Path};

/// `core.MaxSecretSize` (also the ConfigMap limit).
pub const MAX_SECRET_SIZE: i64 = 1024 * 1024;

const IMMUTABLE: &str = "field is immutable when `immutable` is set";

/// `SetObjectDefaults_ConfigMap`: `data` an empty map when absent.
pub fn default_config_map(obj: &mut Json) {
    if let Some(m) = obj.as_object_mut() {
        let absent = m.get("data").is_none_or(Json::is_null);
        if absent {
            m.insert(String::from("data"), json!({}));
        }
    }
}

/// `SetObjectDefaults_Secret` (type `Opaque` when empty), then the conversion's merge of
/// `stringData` into `data` (the internal Secret has no `stringData`).
pub fn default_secret(obj: &mut Json) {
    json::default_to(obj, "type", json!("Opaque"));
    let Some(m) = obj.as_object_mut() else { return };
    let Some(Json::Object(string_data)) = m.remove("stringData") else { return };
    if string_data.is_empty() {
        return;
    }
    let data = m.entry(String::from("data")).or_insert_with(|| json!({}));
    if !data.is_object() {
        *data = json!({});
    }
    if let Some(d) = data.as_object_mut() {
        for (k, v) in string_data {
            d.insert(k, Json::from(base64_encode(v.as_str().unwrap_or("").as_bytes())));
        }
    }
}

/// The decoded bytes of a base64 map field, by key (undecodable values read as empty: the
/// decoder refused them before).
fn decoded(obj: &Json, key: &str) -> Vec<(String, Vec<u8>)> {
    json::object(obj, key).map_or_else(Vec::new, |m| {
        m.iter().map(|(k, v)| (k.clone(), base64_decode(v.as_str().unwrap_or("")).unwrap_or_default())).collect()
    })
}

/// The ConfigMap's strategy (nothing to prepare), validation and warnings (none).
pub fn admit_config_map(_ctx: Context, obj: &mut Json, old: Option<&Json>) -> (Vec<Error>, Vec<String>) {
    let errors = match old {
        None => validate_config_map(obj),
        Some(old) => validate_config_map_update(obj, old),
    };
    (errors, Vec::new())
}

/// `ValidateConfigMap` (metadata aside). Go walks the maps in random order; this walks them
/// sorted.
pub fn validate_config_map(obj: &Json) -> Vec<Error> {
    let mut errors = Vec::new();
    let root = Path::root();
    let dp = root.child("data");
    let binary = json::object(obj, "binaryData");
    let mut total: usize = 0;
    for (key, value) in json::string_map(obj, "data") {
        let at = dp.key(key);
        for msg in common::is_config_map_key(key) {
            errors.push(Error::invalid(&at, key, msg));
        }
        if binary.is_some_and(|b| b.contains_key(key)) {
            errors.push(Error::invalid(&at, key, "duplicate of key present in binaryData"));
        }
        total = total.saturating_add(value.len());
    }
    let bp = root.child("binaryData");
    for (key, value) in decoded(obj, "binaryData") {
        for msg in common::is_config_map_key(&key) {
            errors.push(Error::invalid(&bp.key(&key), key.as_str(), msg));
        }
        total = total.saturating_add(value.len());
    }
    if total as i64 > MAX_SECRET_SIZE {
        errors.push(Error::too_long(&root.child(""), MAX_SECRET_SIZE));
    }
    errors
}

/// `ValidateConfigMapUpdate` (metadata aside).
pub fn validate_config_map_update(obj: &Json, old: &Json) -> Vec<Error> {
    let mut errors = Vec::new();
    let root = Path::root();
    if json::bool(old, "immutable") == Some(true) {
        if json::bool(obj, "immutable") != Some(true) {
            errors.push(forbidden(&root.child("immutable"), IMMUTABLE));
        }
        if json::get(obj, "data") != json::get(old, "data") {
            errors.push(forbidden(&root.child("data"), IMMUTABLE));
        }
        if json::get(obj, "binaryData") != json::get(old, "binaryData") {
            errors.push(forbidden(&root.child("binaryData"), IMMUTABLE));
        }
    }
    errors.extend(validate_config_map(obj));
    errors
}

/// The Secret's strategy, validation and warnings (`warningsForSecret`, which Go adds only
/// when validation passed).
pub fn admit_secret(_ctx: Context, obj: &mut Json, old: Option<&Json>) -> (Vec<Error>, Vec<String>) {
    let errors = match old {
        None => validate_secret(obj),
        Some(old) => {
            // PrepareForUpdate: an empty type keeps the old one.
            if json::str(obj, "type").is_empty() {
                let t = String::from(json::str(old, "type"));
                if let Some(m) = obj.as_object_mut() {
                    m.insert(String::from("type"), Json::from(t));
                }
            }
            validate_secret_update(obj, old)
        }
    };
    let warnings = if errors.is_empty() { secret_warnings(obj) } else { Vec::new() };
    (errors, warnings)
}

/// `ValidateSecret` (metadata aside).
pub fn validate_secret(obj: &Json) -> Vec<Error> {
    let mut errors = Vec::new();
    let root = Path::root();
    let dp = root.child("data");
    let data = decoded(obj, "data");
    let mut total: usize = 0;
    for (key, value) in &data {
        for msg in common::is_config_map_key(key) {
            errors.push(Error::invalid(&dp.key(key), key.as_str(), msg));
        }
        total = total.saturating_add(value.len());
    }
    if total as i64 > MAX_SECRET_SIZE {
        errors.push(Error::too_long(&dp, MAX_SECRET_SIZE));
    }
    let get = |k: &str| data.iter().find(|(key, _)| key == k).map(|(_, v)| v.as_slice());
    match json::str(obj, "type") {
        "kubernetes.io/service-account-token" => {
            let annotations = json::object(json::field(obj, "metadata"), "annotations");
            let name = annotations
                .and_then(|a| a.get("kubernetes.io/service-account.name"))
                .and_then(Json::as_str)
                .unwrap_or("");
            if name.is_empty() {
                let m = root.child("metadata");
                let a = m.child("annotations");
                errors.push(required(&a.key("kubernetes.io/service-account.name"), ""));
            }
        }
        "kubernetes.io/dockercfg" => docker_config(get(".dockercfg"), &dp.key(".dockercfg"), &mut errors),
        "kubernetes.io/dockerconfigjson" => {
            docker_config(get(".dockerconfigjson"), &dp.key(".dockerconfigjson"), &mut errors);
        }
        "kubernetes.io/basic-auth" if get("username").is_none() && get("password").is_none() => {
            errors.push(required(&dp.key("username"), ""));
            errors.push(required(&dp.key("password"), ""));
        }
        "kubernetes.io/ssh-auth" if get("ssh-privatekey").is_none_or(<[u8]>::is_empty) => {
            errors.push(required(&dp.key("ssh-privatekey"), ""));
        }
        "kubernetes.io/tls" => {
            if get("tls.crt").is_none() {
                errors.push(required(&dp.key("tls.crt"), ""));
            }
            if get("tls.key").is_none() {
                errors.push(required(&dp.key("tls.key"), ""));
            }
        }
        _ => {}
    }
    errors
}

/// The dockercfg and dockerconfigjson cases: the key is required and must hold a JSON object.
fn docker_config(value: Option<&[u8]>, path: &Path<'_>, errors: &mut Vec<Error>) {
    let Some(value) = value else {
        errors.push(required(path, ""));
        return;
    };
    if let Some(msg) = gosyntax::unmarshal_into_map(value) {
        errors.push(Error::invalid(path, "<secret contents redacted>", msg));
    }
}

/// `ValidateSecretUpdate` (metadata aside). The type's immutability is also a declarative
/// rule (`MarkCoveredByDeclarative`, origin `immutable`).
pub fn validate_secret_update(obj: &Json, old: &Json) -> Vec<Error> {
    let mut errors = Vec::new();
    let root = Path::root();
    let ty = json::str(obj, "type");
    if ty != json::str(old, "type") {
        errors.push(Error::invalid(&root.child("type"), ty, "field is immutable").with_origin("immutable"));
    }
    if json::bool(old, "immutable") == Some(true) {
        if json::bool(obj, "immutable") != Some(true) {
            errors.push(forbidden(&root.child("immutable"), IMMUTABLE));
        }
        if normalized_data(obj) != normalized_data(old) {
            errors.push(forbidden(&root.child("data"), IMMUTABLE));
        }
    }
    errors.extend(validate_secret(obj));
    errors
}

/// `data` as `reflect.DeepEqual` compares the internal maps of bytes (nil and empty differ).
fn normalized_data(obj: &Json) -> Option<Map<String, Json>> {
    json::object(obj, "data").map(|m| {
        m.iter()
            .map(|(k, v)| (k.clone(), Json::from(base64_decode(v.as_str().unwrap_or("")).unwrap_or_default())))
            .collect()
    })
}

/// secret strategy `warningsForSecret`: a TLS secret's certificate and key as
/// `tls.X509KeyPair` reads them (the PEM blocks only).
fn secret_warnings(obj: &Json) -> Vec<String> {
    if json::str(obj, "type") != "kubernetes.io/tls" {
        return Vec::new();
    }
    let data = decoded(obj, "data");
    let get = |k: &str| data.iter().find(|(key, _)| key == k).map_or(&[][..], |(_, v)| v.as_slice());
    gosyntax::x509_key_pair_pem(get("tls.crt"), get("tls.key")).into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b64(s: &str) -> String {
        base64_encode(s.as_bytes())
    }

    fn secret(ty: &str, data: Json) -> Vec<String> {
        let mut obj = json!({"metadata": {"name": "s"}, "type": ty, "data": data});
        default_secret(&mut obj);
        validate_secret(&obj).iter().map(Error::text).collect()
    }

    // TestValidateSecret (a selection).
    #[test]
    fn validate_secret_cases() {
        assert!(secret("Opaque", json!({"data-1": b64("bar")})).is_empty());
        assert_eq!(
            secret("Opaque", json!({"a b": b64("x")})),
            ["data[a b]: Invalid value: \"a b\": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')"]
        );
        assert_eq!(
            secret("kubernetes.io/tls", json!({})),
            ["data[tls.crt]: Required value", "data[tls.key]: Required value"]
        );
        assert_eq!(secret("kubernetes.io/dockerconfigjson", json!({})), ["data[.dockerconfigjson]: Required value"]);
        assert_eq!(
            secret("kubernetes.io/dockerconfigjson", json!({".dockerconfigjson": b64("not json")})),
            ["data[.dockerconfigjson]: Invalid value: \"<secret contents redacted>\": invalid character 'o' in literal null (expecting 'u')"]
        );
        assert_eq!(
            secret("kubernetes.io/basic-auth", json!({})),
            ["data[username]: Required value", "data[password]: Required value"]
        );
        assert_eq!(
            secret("kubernetes.io/ssh-auth", json!({"ssh-privatekey": ""})),
            ["data[ssh-privatekey]: Required value"]
        );
        assert_eq!(
            secret("kubernetes.io/service-account-token", json!({})),
            ["metadata.annotations[kubernetes.io/service-account.name]: Required value"]
        );
        let mut obj = json!({"type": "kubernetes.io/tls", "stringData": {"tls.crt": "c", "tls.key": "k"}});
        default_secret(&mut obj);
        assert!(validate_secret(&obj).is_empty());
        assert_eq!(obj["data"]["tls.crt"], json!("Yw=="));
    }

    // TestValidateSecretUpdate / TestValidateConfigMapUpdate (immutable).
    #[test]
    fn immutable_updates() {
        let old = json!({"type": "Opaque", "immutable": true, "data": {"a": b64("1")}});
        let new = json!({"type": "Opaque", "immutable": false, "data": {"a": b64("2")}});
        let got: Vec<String> = validate_secret_update(&new, &old).iter().map(Error::text).collect();
        assert_eq!(
            got,
            [
                "immutable: Forbidden: field is immutable when `immutable` is set",
                "data: Forbidden: field is immutable when `immutable` is set"
            ]
        );
        let new = json!({"type": "kubernetes.io/tls", "data": {"tls.crt": "", "tls.key": ""}});
        let old = json!({"type": "Opaque"});
        let got: Vec<String> = validate_secret_update(&new, &old).iter().map(Error::text).collect();
        assert_eq!(got, ["type: Invalid value: \"kubernetes.io/tls\": field is immutable"]);
        let old = json!({"immutable": true, "data": {"a": "1"}});
        let new = json!({"immutable": true, "data": {"a": "2"}, "binaryData": {}});
        let got: Vec<String> = validate_config_map_update(&new, &old).iter().map(Error::text).collect();
        assert_eq!(
            got,
            [
                "data: Forbidden: field is immutable when `immutable` is set",
                "binaryData: Forbidden: field is immutable when `immutable` is set"
            ]
        );
    }

    // TestValidateConfigMap (a selection).
    #[test]
    fn validate_config_map_cases() {
        let run = |obj: Json| -> Vec<String> { validate_config_map(&obj).iter().map(Error::text).collect() };
        assert!(run(json!({"data": {"key.name": "v"}})).is_empty());
        assert_eq!(
            run(json!({"data": {"a": "1"}, "binaryData": {"a": b64("1")}})),
            ["data[a]: Invalid value: \"a\": duplicate of key present in binaryData"]
        );
        assert_eq!(run(json!({"data": {"..a": "1"}})), ["data[..a]: Invalid value: \"..a\": must not start with '..'"]);
        let big = "x".repeat(1024 * 1024 + 1);
        assert_eq!(run(json!({"data": {"a": big}})), [": Too long: may not be more than 1048576 bytes"]);
    }
}
