//! Public keys and PKCS#10 requests as Go's `crypto/x509` reads them, and the signatures
//! `PodCertificateRequest` validation verifies: `x509.ParsePKIXPublicKey` (`parsePublicKey` in
//! `crypto/x509/parser.go`), `x509.ParseCertificateRequest` with `CheckSignature`
//! (`checkSignature` in `x509.go`, SHA-1 allowed as for every request), `ed25519.Verify`,
//! `ecdsa.VerifyASN1` and `rsa.VerifyPSS` (go1.26). The arithmetic is RustCrypto's
//! (`ed25519-dalek`, `p256`/`p384`/`p521`, `rsa`, `sha1`/`sha2`).
//!
//! The DER is walked as Go's parsers walk it where that decides validity (the structures,
//! trailing data, the algorithm identifiers and their parameters); the names and attributes of
//! a request are checked for their outer shape only, and a P-224 point is not checked to lie on
//! the curve (RustCrypto has no P-224 here): such a key is only ever refused for its curve.

use alloc::vec::Vec;

use sha2::Digest;
use signature::hazmat::PrehashVerifier;
use signature::Verifier;

use super::der::{element, expect};

const RSA: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01];
const EC: &[u8] = &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01];
const ED25519: &[u8] = &[0x2b, 0x65, 0x70];
const X25519: &[u8] = &[0x2b, 0x65, 0x6e];
const DSA: &[u8] = &[0x2a, 0x86, 0x48, 0xce, 0x38, 0x04, 0x01];
const P224: &[u8] = &[0x2b, 0x81, 0x04, 0x00, 0x21];
const P256: &[u8] = &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07];
const P384: &[u8] = &[0x2b, 0x81, 0x04, 0x00, 0x22];
const P521: &[u8] = &[0x2b, 0x81, 0x04, 0x00, 0x23];
const PSS: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0a];
const MGF1: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x08];
const SHA256: &[u8] = &[0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01];
const SHA384: &[u8] = &[0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x02];
const SHA512: &[u8] = &[0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x03];
/// DER `NULL`.
const NULL: &[u8] = &[0x05, 0x00];

/// A named curve `crypto/x509` knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Curve {
    P224,
    P256,
    P384,
    P521,
}

impl Curve {
    /// `Curve.Params().Name`.
    pub fn name(self) -> &'static str {
        match self {
            Curve::P224 => "P-224",
            Curve::P256 => "P-256",
            Curve::P384 => "P-384",
            Curve::P521 => "P-521",
        }
    }

    fn field_bytes(self) -> usize {
        match self {
            Curve::P224 => 28,
            Curve::P256 => 32,
            Curve::P384 => 48,
            Curve::P521 => 66,
        }
    }
}

/// A public key as `parsePublicKey` returns it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PublicKey<'a> {
    /// `ed25519.PublicKey` (32 bytes, not checked to be a point: `Verify` fails on it).
    Ed25519(&'a [u8]),
    /// `*ecdsa.PublicKey`: the curve and the uncompressed point.
    Ecdsa(Curve, &'a [u8]),
    /// `*rsa.PublicKey`: the modulus (minimal big-endian bytes) and the exponent.
    Rsa(&'a [u8], u64),
    /// A key of a type the validation refuses (`*ecdh.PublicKey`, `*dsa.PublicKey`), or, in a
    /// request, of an algorithm `x509` does not know (`PublicKey` nil).
    Other,
}

impl PublicKey<'_> {
    /// `rsa.PublicKey.Size()` in bits: the modulus' length rounded up to bytes.
    pub fn rsa_bits(modulus: &[u8]) -> usize {
        let bits = modulus.len() * 8 - modulus.first().map_or(8, |b| b.leading_zeros() as usize);
        bits.div_ceil(8) * 8
    }
}

/// An INTEGER's content as `ReadASN1Integer` takes it: minimally encoded; `None` when not.
fn integer(content: &[u8]) -> Option<&[u8]> {
    match content {
        [] => None,
        [0x00, next, ..] if next & 0x80 == 0 => None,
        [0xff, next, ..] if next & 0x80 != 0 => None,
        _ => Some(content),
    }
}

/// A BIT STRING's bytes (`RightAlign` of a whole number of bytes; padding bits refused as
/// `asn1` refuses set padding).
fn bit_string(content: &[u8]) -> Option<&[u8]> {
    let (&unused, bytes) = content.split_first()?;
    if unused > 7 || (unused > 0 && bytes.is_empty()) || bytes.last().is_some_and(|b| b & ((1 << unused) - 1) != 0) {
        return None;
    }
    // Go right-aligns a string with padding bits; keys and signatures have none.
    (unused == 0).then_some(bytes)
}

/// `AlgorithmIdentifier`: the OID and the parameters' whole encoding (empty when absent).
fn algorithm(content: &[u8]) -> Option<(&[u8], &[u8])> {
    let (oid, params) = expect(content, 0x06)?;
    if !params.is_empty() {
        let (_, _, rest) = element(params)?;
        if !rest.is_empty() {
            return None;
        }
    }
    Some((oid, params))
}

/// An `AlgorithmIdentifier` and the BIT STRING after it, ending `data` (a key's or a signed
/// structure's tail): the OID, the parameters and the bits.
fn algorithm_and_bits(data: &[u8]) -> Option<(&[u8], &[u8], &[u8])> {
    let (alg, rest) = expect(data, 0x30)?;
    let (bits, rest) = expect(rest, 0x03)?;
    if !rest.is_empty() {
        return None;
    }
    let (oid, params) = algorithm(alg)?;
    Some((oid, params, bit_string(bits)?))
}

/// `x509.ParsePKIXPublicKey`: `None` where Go returns an error.
pub fn parse_pkix(der: &[u8]) -> Option<PublicKey<'_>> {
    let (info, trailing) = expect(der, 0x30)?;
    if !trailing.is_empty() {
        return None;
    }
    public_key_info(info, false)
}

/// `parsePublicKey` of a `publicKeyInfo`'s content; `in_request`: a request's key, whose
/// unknown algorithms are no error (`PublicKey` stays nil).
fn public_key_info(info: &[u8], in_request: bool) -> Option<PublicKey<'_>> {
    let (oid, params, key) = algorithm_and_bits(info)?;
    match oid {
        RSA => {
            if params != NULL {
                return None;
            }
            let (seq, _) = expect(key, 0x30)?;
            let (n, rest) = expect(seq, 0x02)?;
            let (e, _) = expect(rest, 0x02)?;
            let (n, e) = (integer(n)?, integer(e)?);
            if n[0] & 0x80 != 0 || e[0] & 0x80 != 0 || e.len() > 8 {
                return None;
            }
            let n = &n[usize::from(n[0] == 0)..];
            let e = e.iter().fold(0u64, |acc, b| (acc << 8) | u64::from(*b));
            if n.is_empty() || e == 0 || e > i64::MAX as u64 {
                return None;
            }
            Some(PublicKey::Rsa(n, e))
        }
        EC => {
            let (curve_oid, _) = expect(params, 0x06)?;
            let curve = match curve_oid {
                P224 => Curve::P224,
                P256 => Curve::P256,
                P384 => Curve::P384,
                P521 => Curve::P521,
                _ => return None,
            };
            // `elliptic.Unmarshal`: the uncompressed form only, on the curve.
            if key.len() != 1 + 2 * curve.field_bytes() || key[0] != 4 {
                return None;
            }
            let on_curve = match curve {
                Curve::P224 => true,
                Curve::P256 => p256::ecdsa::VerifyingKey::from_sec1_bytes(key).is_ok(),
                Curve::P384 => p384::ecdsa::VerifyingKey::from_sec1_bytes(key).is_ok(),
                Curve::P521 => p521::ecdsa::VerifyingKey::from_sec1_bytes(key).is_ok(),
            };
            on_curve.then_some(PublicKey::Ecdsa(curve, key))
        }
        ED25519 => (params.is_empty() && key.len() == 32).then_some(PublicKey::Ed25519(key)),
        X25519 if in_request => Some(PublicKey::Other),
        X25519 => (params.is_empty() && key.len() == 32).then_some(PublicKey::Other),
        // A DSA key is refused for its type either way (its parameters are not checked).
        DSA => Some(PublicKey::Other),
        _ if in_request => Some(PublicKey::Other),
        _ => None,
    }
}

/// `ed25519.Verify`.
fn verify_ed25519(key: &[u8], message: &[u8], sig: &[u8]) -> bool {
    let Ok(key) = <&[u8; 32]>::try_from(key) else { return false };
    let (Ok(key), Ok(sig)) = (ed25519_dalek::VerifyingKey::from_bytes(key), ed25519_dalek::Signature::from_slice(sig))
    else {
        return false;
    };
    key.verify(message, &sig).is_ok()
}

/// `ecdsa.VerifyASN1` of a digest.
fn verify_ecdsa(curve: Curve, point: &[u8], digest: &[u8], sig: &[u8]) -> bool {
    match curve {
        Curve::P224 => false,
        Curve::P256 => p256::ecdsa::VerifyingKey::from_sec1_bytes(point)
            .ok()
            .zip(p256::ecdsa::Signature::from_der(sig).ok())
            .is_some_and(|(k, s)| k.verify_prehash(digest, &s).is_ok()),
        Curve::P384 => p384::ecdsa::VerifyingKey::from_sec1_bytes(point)
            .ok()
            .zip(p384::ecdsa::Signature::from_der(sig).ok())
            .is_some_and(|(k, s)| k.verify_prehash(digest, &s).is_ok()),
        Curve::P521 => p521::ecdsa::VerifyingKey::from_sec1_bytes(point)
            .ok()
            .zip(p521::ecdsa::Signature::from_der(sig).ok())
            .is_some_and(|(k, s)| k.verify_prehash(digest, &s).is_ok()),
    }
}

/// The hashes signatures are made with.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Hash {
    Sha1,
    Sha256,
    Sha384,
    Sha512,
}

impl Hash {
    fn digest(self, data: &[u8]) -> Vec<u8> {
        match self {
            Hash::Sha1 => sha1::Sha1::digest(data).to_vec(),
            Hash::Sha256 => sha2::Sha256::digest(data).to_vec(),
            Hash::Sha384 => sha2::Sha384::digest(data).to_vec(),
            Hash::Sha512 => sha2::Sha512::digest(data).to_vec(),
        }
    }
}

fn rsa_key(n: &[u8], e: u64) -> Option<rsa::PublicKey> {
    let n = rsa::BoxedUint::from_be_slice_vartime(n);
    let e = rsa::BoxedUint::from(e);
    rsa::PublicKey::new_with_size_limits(n, e, 1024..=16384).ok()
}

/// `rsa.VerifyPSS`: `salt` `None` is `PSSSaltLengthAuto`, else `PSSSaltLengthEqualsHash`.
fn verify_pss(n: &[u8], e: u64, hash: Hash, digest: &[u8], sig: &[u8], auto_salt: bool) -> bool {
    let Some(key) = rsa_key(n, e) else { return false };
    let Ok(sig) = rsa::pss::Signature::try_from(sig) else { return false };
    macro_rules! pss {
        ($d:ty) => {{
            let key = match auto_salt {
                true => rsa::pss::VerifyingKey::<$d>::new_with_auto_salt_len(key),
                false => rsa::pss::VerifyingKey::<$d>::new(key),
            };
            key.verify_prehash(digest, &sig).is_ok()
        }};
    }
    match hash {
        Hash::Sha1 => false,
        Hash::Sha256 => pss!(sha2::Sha256),
        Hash::Sha384 => pss!(sha2::Sha384),
        Hash::Sha512 => pss!(sha2::Sha512),
    }
}

/// `rsa.VerifyPKCS1v15`.
fn verify_pkcs1v15(n: &[u8], e: u64, hash: Hash, digest: &[u8], sig: &[u8]) -> bool {
    let Some(key) = rsa_key(n, e) else { return false };
    let Ok(sig) = rsa::pkcs1v15::Signature::try_from(sig) else { return false };
    match hash {
        Hash::Sha1 => rsa::pkcs1v15::VerifyingKey::<sha1::Sha1>::new(key).verify_prehash(digest, &sig).is_ok(),
        Hash::Sha256 => rsa::pkcs1v15::VerifyingKey::<sha2::Sha256>::new(key).verify_prehash(digest, &sig).is_ok(),
        Hash::Sha384 => rsa::pkcs1v15::VerifyingKey::<sha2::Sha384>::new(key).verify_prehash(digest, &sig).is_ok(),
        Hash::Sha512 => rsa::pkcs1v15::VerifyingKey::<sha2::Sha512>::new(key).verify_prehash(digest, &sig).is_ok(),
    }
}

/// The proof of possession of a `PodCertificateRequest` (`validateDeprecatedPKIXPublicKey`):
/// Ed25519 over the pod UID, ECDSA (ASN.1) and RSA-PSS (any salt length) over its SHA-256.
pub fn verify_proof(key: &PublicKey<'_>, pod_uid: &str, sig: &[u8]) -> bool {
    let digest = || sha2::Sha256::digest(pod_uid.as_bytes());
    match key {
        PublicKey::Ed25519(k) => verify_ed25519(k, pod_uid.as_bytes(), sig),
        PublicKey::Ecdsa(curve, point) => verify_ecdsa(*curve, point, &digest(), sig),
        PublicKey::Rsa(n, e) => verify_pss(n, *e, Hash::Sha256, &digest(), sig, true),
        PublicKey::Other => false,
    }
}

/// How a request is signed (`getSignatureAlgorithmFromAI` and `signatureAlgorithmDetails`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Algorithm {
    Rsa(Hash),
    RsaPss(Hash),
    Ecdsa(Hash),
    Ed25519,
    /// Known to Go but refused by `checkSignature` (MD2, MD5, DSA) or unknown.
    Refused,
}

fn signature_algorithm(oid: &[u8], params: &[u8]) -> Algorithm {
    const RSA_PREFIX: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01];
    const ECDSA_PREFIX: &[u8] = &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04];
    match oid {
        ED25519 if params.is_empty() => Algorithm::Ed25519,
        PSS => pss_params(params).map_or(Algorithm::Refused, Algorithm::RsaPss),
        [0x2b, 0x0e, 0x03, 0x02, 0x1d] => Algorithm::Rsa(Hash::Sha1),
        _ => match (oid.strip_prefix(RSA_PREFIX), oid.strip_prefix(ECDSA_PREFIX)) {
            (Some([0x05]), _) => Algorithm::Rsa(Hash::Sha1),
            (Some([0x0b]), _) => Algorithm::Rsa(Hash::Sha256),
            (Some([0x0c]), _) => Algorithm::Rsa(Hash::Sha384),
            (Some([0x0d]), _) => Algorithm::Rsa(Hash::Sha512),
            (_, Some([0x01])) => Algorithm::Ecdsa(Hash::Sha1),
            (_, Some([0x03, 0x02])) => Algorithm::Ecdsa(Hash::Sha256),
            (_, Some([0x03, 0x03])) => Algorithm::Ecdsa(Hash::Sha384),
            (_, Some([0x03, 0x04])) => Algorithm::Ecdsa(Hash::Sha512),
            _ => Algorithm::Refused,
        },
    }
}

/// RSASSA-PSS parameters as Go accepts them: SHA-256/384/512, MGF1 with the same hash, the
/// salt as long as the hash, the trailer 1.
fn pss_params(params: &[u8]) -> Option<Hash> {
    let (seq, rest) = expect(params, 0x30)?;
    if !rest.is_empty() {
        return None;
    }
    let (hash_alg, rest) = expect(seq, 0xa0)?;
    let (hash_alg, _) = expect(hash_alg, 0x30)?;
    let (hash_oid, hash_params) = algorithm(hash_alg)?;
    if !(hash_params.is_empty() || hash_params == NULL) {
        return None;
    }
    let (hash, size) = match hash_oid {
        SHA256 => (Hash::Sha256, 32),
        SHA384 => (Hash::Sha384, 48),
        SHA512 => (Hash::Sha512, 64),
        _ => return None,
    };
    let (mgf, rest) = expect(rest, 0xa1)?;
    let (mgf, _) = expect(mgf, 0x30)?;
    let (mgf_oid, mgf_params) = expect(mgf, 0x06)?;
    let (mgf_hash, _) = expect(mgf_params, 0x30)?;
    let (mgf_hash_oid, _) = algorithm(mgf_hash)?;
    if mgf_oid != MGF1 || mgf_hash_oid != hash_oid {
        return None;
    }
    let (salt, rest) = expect(rest, 0xa2)?;
    let (salt, _) = expect(salt, 0x02)?;
    if salt != [size] {
        return None;
    }
    match expect(rest, 0xa3) {
        None if rest.is_empty() => Some(hash),
        Some((trailer, _)) => (expect(trailer, 0x02)?.0 == [1]).then_some(hash),
        None => None,
    }
}

/// A PKCS#10 request as `x509.ParseCertificateRequest` reads it.
pub struct Request<'a> {
    /// The signed `CertificationRequestInfo`, whole.
    signed: &'a [u8],
    algorithm: Algorithm,
    signature: &'a [u8],
    /// The subject public key.
    pub key: PublicKey<'a>,
}

/// `x509.ParseCertificateRequest`: `None` where Go returns an error.
pub fn parse_request(der: &[u8]) -> Option<Request<'_>> {
    let (csr, trailing) = expect(der, 0x30)?;
    if !trailing.is_empty() {
        return None;
    }
    let (_, info, rest) = element(csr)?;
    let signed = &csr[..csr.len() - rest.len()];
    if signed.first() != Some(&0x30) {
        return None;
    }
    let (oid, params, signature) = algorithm_and_bits(rest)?;
    let (version, rest) = expect(info, 0x02)?;
    integer(version)?;
    let (subject, rest) = expect(rest, 0x30)?;
    // The subject: a sequence of sets of (type, value).
    let mut names = subject;
    while !names.is_empty() {
        let (mut set, after) = expect(names, 0x31)?;
        names = after;
        while !set.is_empty() {
            let (atv, after) = expect(set, 0x30)?;
            set = after;
            let (_, value) = expect(atv, 0x06)?;
            let (_, _, end) = element(value)?;
            if !end.is_empty() {
                return None;
            }
        }
    }
    let (info_key, rest) = expect(rest, 0x30)?;
    let key = public_key_info(info_key, true)?;
    // The attributes: each a type and a set of values.
    let (mut attributes, rest) = expect(rest, 0xa0)?;
    if !rest.is_empty() {
        return None;
    }
    while !attributes.is_empty() {
        let (attribute, after) = expect(attributes, 0x30)?;
        attributes = after;
        let (_, values) = expect(attribute, 0x06)?;
        expect(values, 0x31)?;
    }
    Some(Request { signed, algorithm: signature_algorithm(oid, params), signature, key })
}

impl Request<'_> {
    /// `CertificateRequest.CheckSignature`: the signature verifies with the request's own key,
    /// by an algorithm of the key's type (SHA-1 allowed).
    pub fn check_signature(&self) -> bool {
        match (self.algorithm, &self.key) {
            (Algorithm::Ed25519, PublicKey::Ed25519(k)) => verify_ed25519(k, self.signed, self.signature),
            (Algorithm::Ecdsa(h), PublicKey::Ecdsa(curve, point)) => {
                verify_ecdsa(*curve, point, &h.digest(self.signed), self.signature)
            }
            (Algorithm::Rsa(h), PublicKey::Rsa(n, e)) => {
                verify_pkcs1v15(n, *e, h, &h.digest(self.signed), self.signature)
            }
            (Algorithm::RsaPss(h), PublicKey::Rsa(n, e)) => {
                verify_pss(n, *e, h, &h.digest(self.signed), self.signature, false)
            }
            _ => false,
        }
    }
}
