//! CertificateSigningRequest, after `pkg/apis/certificates/validation/validation.go`
//! (`ValidateCertificateSigningRequestCreate`, `ValidateCertificateSigningRequestUpdate`,
//! `validateCertificateSigningRequest`, `validateCSR`, `validateConditions`,
//! `validateCertificate`, `getValidationOptions` and its `allow*` helpers),
//! `pkg/apis/certificates/helpers.go` (`ParseCSR`) and
//! `pkg/registry/certificates/certificates/strategy.go` (`PrepareForCreate`,
//! `PrepareForUpdate`).
//!
//! Left out, needing an X.509 stack: `x509.ParseCertificateRequest` and `CheckSignature` of
//! `spec.request` (a `CERTIFICATE REQUEST` PEM block whose DER is malformed or whose signature
//! does not verify passes here), and `x509.ParseCertificates` of `status.certificate` (which
//! the strategy resets on create and keeps on update, so only a stored object could hold one).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{Map, Value as Json};

use super::pem;
use crate::apis::apps::common::with_rendered;
use crate::apis::core::common::{duplicate, required};
use crate::apis::core::volume_sources::validate_signer_name;
use crate::apis::json::{field, int, list, str};
use crate::field::{go_json, Error, ErrorType, Path};

const LEGACY_UNKNOWN_SIGNER: &str = "kubernetes.io/legacy-unknown";

/// `allValidUsages.List()` (sorted).
const USAGES: &[&str] = &[
    "any",
    "cert sign",
    "client auth",
    "code signing",
    "content commitment",
    "crl sign",
    "data encipherment",
    "decipher only",
    "digital signature",
    "email protection",
    "encipher only",
    "ipsec end system",
    "ipsec tunnel",
    "ipsec user",
    "key agreement",
    "key encipherment",
    "microsoft sgc",
    "netscape sgc",
    "ocsp signing",
    "s/mime",
    "server auth",
    "signing",
    "timestamping",
];

/// A value of a named string type: `field.Error` prints it with `json.Marshal`.
fn typed(e: Error, value: &str) -> Error {
    with_rendered(e, go_json(&Json::from(value)))
}

/// `certificateValidationOptions` (the main resource's: no subresource rights).
#[derive(Clone, Copy, Default)]
struct Options {
    allow_both_approved_and_denied: bool,
    allow_legacy_signer_name: bool,
    allow_duplicate_condition_types: bool,
    allow_empty_condition_type: bool,
    allow_arbitrary_certificate: bool,
    allow_unknown_usages: bool,
    allow_duplicate_usages: bool,
}

fn usages(csr: &Json) -> Vec<&str> {
    list(field(csr, "spec"), "usages").iter().map(|u| u.as_str().unwrap_or("")).collect()
}

fn condition_types(csr: &Json) -> Vec<&str> {
    list(field(csr, "status"), "conditions").iter().map(|c| str(c, "type")).collect()
}

fn has_duplicates(items: &[&str]) -> bool {
    items.iter().enumerate().any(|(i, x)| items[..i].contains(x))
}

/// `getValidationOptions`: what the stored object already has is tolerated.
fn options(csr: &Json, old: Option<&Json>) -> Options {
    let Some(old) = old else { return Options::default() };
    let types = condition_types(old);
    let old_usages = usages(old);
    let certificate = |o: &Json| String::from(str(field(o, "status"), "certificate"));
    Options {
        allow_both_approved_and_denied: types.contains(&"Approved") && types.contains(&"Denied"),
        allow_legacy_signer_name: str(field(old, "spec"), "signerName") == LEGACY_UNKNOWN_SIGNER,
        allow_duplicate_condition_types: has_duplicates(&types),
        allow_empty_condition_type: types.contains(&""),
        allow_arbitrary_certificate: certificate(csr) == certificate(old)
            || validate_certificate(&decode_bytes(&certificate(old))).is_some(),
        allow_unknown_usages: old_usages.iter().any(|u| !USAGES.contains(u)),
        allow_duplicate_usages: has_duplicates(&old_usages),
    }
}

/// A `[]byte` field's bytes (JSON carries them in standard base64).
fn decode_bytes(b64: &str) -> Vec<u8> {
    pem::std_decode(b64.as_bytes()).unwrap_or_default()
}

/// strategy.go `PrepareForCreate`: the requesting user's fields cleared (the API server then
/// fills in its own user, which kubedv does not know), the status reset.
pub(crate) fn prepare_for_create(csr: &mut Json) {
    if let Some(Json::Object(spec)) = csr.get_mut("spec") {
        for key in ["username", "uid", "groups", "extra"] {
            spec.remove(key);
        }
    }
    if let Json::Object(map) = csr {
        let mut status = Map::new();
        status.insert(String::from("conditions"), Json::Array(Vec::new()));
        map.insert(String::from("status"), Json::Object(status));
    }
}

/// strategy.go `PrepareForUpdate`: the spec and status are the stored ones (they change only
/// through the `approval` and `status` subresources).
pub(crate) fn prepare_for_update(csr: &mut Json, old: &Json) {
    if let Json::Object(map) = csr {
        for key in ["spec", "status"] {
            match old.get(key) {
                Some(v) => map.insert(String::from(key), v.clone()),
                None => map.remove(key),
            };
        }
    }
}

/// `ValidateCertificateSigningRequestCreate` / `ValidateCertificateSigningRequestUpdate`
/// (metadata aside). After `PrepareForUpdate` the update's spec and status are the stored
/// ones, so the update's own checks (conditions neither removed, added nor modified,
/// `status.certificate` not set) always pass and are left out.
pub(crate) fn validate(csr: &Json, old: Option<&Json>) -> Vec<Error> {
    let opts = options(csr, old);
    let mut errors = Vec::new();
    let root = Path::root();
    let spec_path = root.child("spec");
    let spec = field(csr, "spec");
    let request = str(spec, "request");
    if let Some(msg) = validate_csr(&decode_bytes(request)) {
        let rp = spec_path.child("request");
        // A nil `[]byte` (no request given) marshals as null, an empty one as "".
        let rendered = match crate::apis::json::get(spec, "request") {
            None => String::from("null"),
            Some(_) => go_json(&Json::from(pem::std_encode(&decode_bytes(request)))),
        };
        errors.push(with_rendered(Error::invalid(&rp, request, msg), rendered));
    }
    let usages = usages(csr);
    let up = spec_path.child("usages");
    if usages.is_empty() {
        errors.push(required(&up, ""));
    }
    if !opts.allow_unknown_usages {
        for (i, u) in usages.iter().enumerate() {
            if !USAGES.contains(u) {
                errors.push(typed(Error::not_supported(&up.index(i), u, USAGES), u));
            }
        }
    }
    if !opts.allow_duplicate_usages {
        for (i, u) in usages.iter().enumerate() {
            if usages[..i].contains(u) {
                errors.push(typed(duplicate(&up.index(i), *u), u));
            }
        }
    }
    let signer = str(spec, "signerName");
    let sp = spec_path.child("signerName");
    if !opts.allow_legacy_signer_name && signer == LEGACY_UNKNOWN_SIGNER {
        errors.push(Error::invalid(&sp, signer, "the legacy signerName is not allowed via this API version"));
    } else {
        validate_signer_name(&sp, signer, &mut errors);
    }
    if let Some(seconds) = int(spec, "expirationSeconds") {
        if seconds < 600 {
            errors.push(Error::invalid(
                &spec_path.child("expirationSeconds"),
                seconds,
                "may not specify a duration less than 600 seconds (10 minutes)",
            ));
        }
    }
    let status_path = root.child("status");
    validate_conditions(csr, &status_path.child("conditions"), opts, &mut errors);
    if !opts.allow_arbitrary_certificate {
        let certificate = decode_bytes(str(field(csr, "status"), "certificate"));
        if let Some(msg) = validate_certificate(&certificate) {
            errors.push(Error::invalid(&status_path.child("certificate"), "<certificate data>", msg));
        }
    }
    errors
}

/// `validateCSR` through `ParseCSR`, up to the PEM block (the DER and its signature are not
/// checked).
fn validate_csr(request: &[u8]) -> Option<String> {
    match pem::decode(request).0 {
        Some(block) if block.ty == "CERTIFICATE REQUEST" => None,
        _ => Some(String::from("PEM block type must be CERTIFICATE REQUEST")),
    }
}

/// `validateCertificate`, up to the PEM blocks (the certificates are not parsed).
fn validate_certificate(data: &[u8]) -> Option<String> {
    if data.is_empty() {
        return None;
    }
    let mut rest = data;
    let mut blocks = 0;
    while let (Some(block), remaining) = pem::decode(rest) {
        if block.ty != "CERTIFICATE" {
            return Some(format!(
                "only CERTIFICATE PEM blocks are allowed, found {}",
                crate::field::go_quote(&block.ty)
            ));
        }
        if !block.headers.is_empty() {
            return Some(String::from("no PEM block headers are permitted"));
        }
        blocks += 1;
        rest = remaining;
    }
    if blocks == 0 {
        return Some(String::from("must contain at least one CERTIFICATE PEM block"));
    }
    None
}

const TRUE_ONLY: &[&str] = &["True"];
const ALL_STATUSES: &[&str] = &["False", "True", "Unknown"];

/// `validateConditions`.
fn validate_conditions(csr: &Json, path: &Path<'_>, opts: Options, errors: &mut Vec<Error>) {
    let mut seen: Vec<&str> = Vec::new();
    let (mut approved, mut denied) = (false, false);
    for (i, c) in list(field(csr, "status"), "conditions").iter().enumerate() {
        let at = path.index(i);
        let ty = str(c, "type");
        if !opts.allow_empty_condition_type && ty.is_empty() {
            errors.push(required(&at.child("type"), ""));
        }
        let allowed = if matches!(ty, "Approved" | "Denied" | "Failed") { TRUE_ONLY } else { ALL_STATUSES };
        let status = str(c, "status");
        if status.is_empty() {
            errors.push(required(&at.child("status"), ""));
        } else if !allowed.contains(&status) {
            errors.push(typed(Error::not_supported(&at.child("status"), status, allowed), status));
        }
        if !opts.allow_both_approved_and_denied {
            let clash = match ty {
                "Approved" => {
                    approved = true;
                    denied
                }
                "Denied" => {
                    denied = true;
                    approved
                }
                _ => false,
            };
            if clash {
                let e = Error::invalid(path, ty, "Approved and Denied conditions are mutually exclusive")
                    .with_origin("zeroOrOneOf");
                errors.push(typed(e, ty));
            }
        }
        if !opts.allow_duplicate_condition_types {
            if seen.contains(&ty) {
                errors.push(typed(Error::new(ErrorType::Duplicate, &at.child("type"), Some(Json::from(ty)), ""), ty));
            }
            seen.push(ty);
        }
    }
}
