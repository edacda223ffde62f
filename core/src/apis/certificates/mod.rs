//! The `certificates.k8s.io` group: CertificateSigningRequest (`v1`) and ClusterTrustBundle
//! (`v1`, `v1beta1`, `v1alpha1`), after Kubernetes' `pkg/apis/certificates/validation` and
//! `pkg/registry/certificates/{certificates,clustertrustbundle}/strategy.go`:
//!
//! - `csr`: CertificateSigningRequest (its strategy and validation);
//! - `ctb`: ClusterTrustBundle (no strategy: `PrepareForCreate`/`PrepareForUpdate` do nothing);
//! - `pem`: Go's `pem.Decode`; `der`: the certificate shape `validateTrustBundle` reads.
//!
//! No served version has defaults for these kinds, and no strategy warns. PodCertificateRequest
//! (`v1`, `v1beta1`) is not modeled: its validation verifies the proof-of-possession signature
//! or the stub PKCS#10 request with the public key it carries (RSA, ECDSA, Ed25519), which needs
//! a cryptography stack, and its strategy consults the authorizer and the node.

mod csr;
mod ctb;
mod der;
mod pem;
#[cfg(test)]
mod tests;

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value as Json;

use super::Group;
use crate::field::Error;

/// The kinds this room models.
pub const KINDS: &[&str] = &["CertificateSigningRequest", "ClusterTrustBundle"];

/// `SetObjectDefaults_X` of the served version: none for these kinds.
pub fn default(_version: &str, _kind: &str, _object: &mut Json) {}

/// The strategy, validation and warnings of one request.
pub fn admit(group: &Group<'_>, object: &mut Json, old: Option<&Json>) -> (Vec<Error>, Vec<String>) {
    let errors = match group.kind {
        "CertificateSigningRequest" => {
            match old {
                None => csr::prepare_for_create(object),
                Some(old) => csr::prepare_for_update(object, old),
            }
            csr::validate(object, old)
        }
        "ClusterTrustBundle" => ctb::validate(object, old),
        _ => Vec::new(),
    };
    (errors, Vec::new())
}
