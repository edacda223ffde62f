//! PodCertificateRequest, after `pkg/apis/certificates/validation/validation.go`
//! (`ValidatePodCertificateRequestCreate`, `validateDeprecatedPKIXPublicKey`,
//! `validateStubPKCS10Request`, `ValidatePodCertificateRequestUpdate`) and
//! `pkg/registry/certificates/podcertificaterequest/strategy.go` (`PrepareForCreate` resets
//! the status, `PrepareForUpdate` keeps the stored one). The keys, requests and signatures are
//! read as `crypto/x509` reads them ([`super::keys`]).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{Map, Value as Json};

use super::keys::{self, Curve, PublicKey};
use crate::apis::core::common::required;
use crate::apis::core::volume_sources::{validate_signer_name, validate_user_annotations};
use crate::apis::json::{field, int, object, str};
use crate::content::is_dns1123_subdomain;
use crate::field::base64::base64_encode;
use crate::field::{go_json, Error, ErrorType, Path};

/// `certificates.MaxPKIXPublicKeySize`, `MaxProofOfPossessionSize`, `MaxStubPKCS10RequestSize`.
const MAX_BYTES: usize = 10 * 1024;
/// `MinMaxExpirationSeconds`, `KubernetesMaxMaxExpirationSeconds`, `MaxMaxExpirationSeconds`.
const MIN_EXPIRATION: i64 = 60 * 60;
const KUBERNETES_MAX_EXPIRATION: i64 = 24 * 60 * 60;
const MAX_EXPIRATION: i64 = 91 * 24 * 60 * 60;

/// `PrepareForCreate`: the status reset.
pub(crate) fn prepare_for_create(req: &mut Json) {
    if let Json::Object(map) = req {
        map.insert(String::from("status"), Json::Object(Map::new()));
    }
}

/// `PrepareForUpdate`: the stored status kept (it changes through `/status` only).
pub(crate) fn prepare_for_update(req: &mut Json, old: &Json) {
    if let Json::Object(map) = req {
        map.insert(String::from("status"), old.get("status").cloned().unwrap_or(Json::Object(Map::new())));
    }
}

/// `field.Invalid(path, field.OmitValueType{}, detail)`: no value printed.
fn omitted(path: &Path<'_>, detail: &str) -> Error {
    Error::new(ErrorType::Invalid, path, None, detail)
}

/// A `[]byte` field's bytes (standard base64 in JSON; the decoder refused anything else).
fn bytes(spec: &Json, key: &str) -> Vec<u8> {
    crate::field::base64::base64_decode(str(spec, key)).unwrap_or_default()
}

/// The validation of a create, or of an update when `old` is given.
pub(crate) fn validate(req: &Json, old: Option<&Json>) -> Vec<Error> {
    let mut errors = Vec::new();
    match old {
        None => validate_create(field(req, "spec"), &mut errors),
        Some(old) => {
            // ValidateImmutableField(newReq.Spec, oldReq.Spec): the internal spec, printed as JSON.
            let (spec, old_spec) = (internal_spec(field(req, "spec")), internal_spec(field(old, "spec")));
            if spec != old_spec {
                let e = Error::invalid(&Path::named("spec"), Json::Null, "field is immutable");
                errors.push(crate::apis::apps::common::with_rendered(e, spec));
            }
        }
    }
    errors
}

/// The spec as Go's internal `PodCertificateRequestSpec` marshals (its fields have no JSON
/// names: Go's own, in declaration order; an absent `[]byte` or map is `null`).
fn internal_spec(spec: &Json) -> String {
    let text = |k: &str| Json::from(str(spec, k));
    let given = |k: &str| spec.get(k).filter(|v| !v.is_null()).cloned().unwrap_or(Json::Null);
    // A []byte marshals as its standard base64, however the request wrote it.
    let raw = |k: &str| match spec.get(k) {
        Some(Json::String(_)) => Json::from(base64_encode(&bytes(spec, k))),
        _ => Json::Null,
    };
    let fields = [
        ("SignerName", text("signerName")),
        ("PodName", text("podName")),
        ("PodUID", text("podUID")),
        ("ServiceAccountName", text("serviceAccountName")),
        ("ServiceAccountUID", text("serviceAccountUID")),
        ("NodeName", text("nodeName")),
        ("NodeUID", text("nodeUID")),
        ("MaxExpirationSeconds", int(spec, "maxExpirationSeconds").map_or(Json::Null, Json::from)),
        ("PKIXPublicKey", raw("pkixPublicKey")),
        ("ProofOfPossession", raw("proofOfPossession")),
        ("StubPKCS10Request", raw("stubPKCS10Request")),
        ("UnverifiedUserAnnotations", given("unverifiedUserAnnotations")),
    ];
    let body: Vec<String> = fields.iter().map(|(name, value)| format!("\"{name}\":{}", go_json(value))).collect();
    format!("{{{}}}", body.join(","))
}

/// `ValidatePodCertificateRequestCreate` (its `ValidateObjectMeta` is the metadata check
/// every built-in kind gets).
fn validate_create(spec: &Json, errors: &mut Vec<Error>) {
    let sp = Path::named("spec");
    let signer = str(spec, "signerName");
    validate_signer_name(&sp.child("signerName"), signer, errors);
    if let Some(annotations) = object(spec, "unverifiedUserAnnotations") {
        validate_user_annotations(annotations, &sp.child("unverifiedUserAnnotations"), errors);
    }
    let name = |key: &str, errors: &mut Vec<Error>| {
        let value = str(spec, key);
        for msg in is_dns1123_subdomain(value) {
            errors.push(Error::invalid(&sp.child(key), value, msg));
        }
    };
    let uid = |key: &str, errors: &mut Vec<Error>| {
        let value = str(spec, key);
        if value.is_empty() {
            errors.push(Error::invalid(&sp.child(key), value, "must not be empty"));
        }
        if value.len() > 128 {
            errors.push(Error::too_long(&sp.child(key), 128));
        }
    };
    name("podName", errors);
    uid("podUID", errors);
    name("serviceAccountName", errors);
    uid("serviceAccountUID", errors);
    name("nodeName", errors);
    uid("nodeUID", errors);
    let Some(max) = int(spec, "maxExpirationSeconds") else {
        errors.push(required(&sp.child("maxExpirationSeconds"), "must be set"));
        return;
    };
    let host = signer.split_once('/').map_or(signer, |(h, _)| h);
    let longest = match host == "kubernetes.io" || host.ends_with(".kubernetes.io") {
        true => KUBERNETES_MAX_EXPIRATION,
        false => MAX_EXPIRATION,
    };
    if !(MIN_EXPIRATION..=longest).contains(&max) {
        let msg = format!("must be in the range [{MIN_EXPIRATION}, {longest}]");
        errors.push(Error::invalid(&sp.child("maxExpirationSeconds"), max, msg));
    }
    let (pkix, proof, stub) =
        (bytes(spec, "pkixPublicKey"), bytes(spec, "proofOfPossession"), bytes(spec, "stubPKCS10Request"));
    match (pkix.is_empty(), proof.is_empty(), stub.is_empty()) {
        (true, true, false) => validate_stub(&stub, errors),
        (false, false, true) => validate_proof(spec, &pkix, &proof, errors),
        _ => errors
            .push(omitted(&sp, "exactly one of (stubPKCS10Request) or (pkixPublicKey, proofOfPossession) must be set")),
    }
}

/// Why a key of a known type is refused before its signature is checked (the value printed,
/// the message): a curve other than P-256, P-384 and P-521 (`curve`: the message, which says
/// less in `validateDeprecatedPKIXPublicKey` than it accepts), an RSA modulus other than 3072
/// or 4096 bits.
fn refusal(key: &PublicKey<'_>, curve: &'static str) -> Option<(String, &'static str)> {
    match key {
        PublicKey::Ecdsa(Curve::P224, _) => Some((format!("curve {}", Curve::P224.name()), curve)),
        PublicKey::Rsa(n, _) if !matches!(PublicKey::rsa_bits(n), 3072 | 4096) => {
            Some((format!("{}-bit modulus", PublicKey::rsa_bits(n)), "RSA keys must have modulus size 3072 or 4096"))
        }
        _ => None,
    }
}

/// `validateDeprecatedPKIXPublicKey`.
fn validate_proof(spec: &Json, pkix: &[u8], proof: &[u8], errors: &mut Vec<Error>) {
    let sp = Path::named("spec");
    let (kp, pp) = (sp.child("pkixPublicKey"), sp.child("proofOfPossession"));
    if pkix.len() > MAX_BYTES {
        errors.push(Error::too_long(&kp, MAX_BYTES as i64));
        return;
    }
    if proof.len() > MAX_BYTES {
        errors.push(Error::too_long(&pp, MAX_BYTES as i64));
        return;
    }
    // A []byte prints as JSON: its base64.
    let written = base64_encode(pkix);
    let Some(key) = keys::parse_pkix(pkix) else {
        errors.push(Error::invalid(&kp, written.as_str(), "must be a valid PKIX-serialized public key"));
        return;
    };
    let refusal = refusal(&key, "elliptic public keys must use curve P256 or P384");
    if let Some((value, msg)) = refusal {
        errors.push(Error::invalid(&kp, value, msg));
        return;
    }
    if key == PublicKey::Other {
        errors.push(Error::invalid(
            &kp,
            written.as_str(),
            "unknown public key type; supported types are Ed25519, ECDSA, and RSA",
        ));
        return;
    }
    if !keys::verify_proof(&key, str(spec, "podUID"), proof) {
        errors.push(omitted(&pp, "could not verify proof-of-possession signature"));
    }
}

/// `validateStubPKCS10Request`.
fn validate_stub(stub: &[u8], errors: &mut Vec<Error>) {
    let sp = Path::named("spec");
    let path = sp.child("stubPKCS10Request");
    if stub.len() > MAX_BYTES {
        errors.push(Error::too_long(&path, MAX_BYTES as i64));
        return;
    }
    let Some(request) = keys::parse_request(stub) else {
        errors.push(omitted(&path, "must be a valid PKCS#10 CSR"));
        return;
    };
    let refusal = refusal(&request.key, "elliptic public keys must use curve P256, P384, or P521");
    if let Some((value, msg)) = refusal {
        errors.push(Error::invalid(&path, value, msg));
        return;
    }
    if request.key == PublicKey::Other {
        errors.push(omitted(&path, "unknown public key type; supported types are Ed25519, ECDSA, and RSA"));
        return;
    }
    if !request.check_signature() {
        errors.push(omitted(&path, "invalid signature"));
    }
}
