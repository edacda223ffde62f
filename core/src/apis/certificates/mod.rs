//! The `certificates.k8s.io` group: CertificateSigningRequest (`v1`) and ClusterTrustBundle
//! (`v1`, `v1beta1`, `v1alpha1`), after Kubernetes' `pkg/apis/certificates/validation` and
//! `pkg/registry/certificates/{certificates,clustertrustbundle}/strategy.go`:
//!
//! - `csr`: CertificateSigningRequest (its strategy and validation);
//! - `pcr`: PodCertificateRequest (`v1`, `v1beta1`), whose keys, stub requests and
//!   signatures `keys` reads and verifies as `crypto/x509` does;
//! - `ctb`: ClusterTrustBundle (no strategy: `PrepareForCreate`/`PrepareForUpdate` do nothing);
//! - `pem`: Go's `pem.Decode`; `der`: the certificate shape `validateTrustBundle` reads.
//!
//! No strategy warns. What needs the requesting user (a PodCertificateRequest's `/status`
//! signer authorization, the node restriction) is not modeled.

mod csr;
mod ctb;
mod der;
mod keys;
mod pcr;
mod pem;
#[cfg(test)]
mod tests;

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value as Json;

use super::Group;
use crate::field::Error;

/// The kinds this room models.
pub const KINDS: &[&str] = &["CertificateSigningRequest", "ClusterTrustBundle", "PodCertificateRequest"];

/// `SetObjectDefaults_X` of the served version: a PodCertificateRequest's
/// `maxExpirationSeconds` (`+default=86400` in v1 and v1beta1); none for the other kinds.
pub fn default(_version: &str, kind: &str, object: &mut Json) {
    if kind == "PodCertificateRequest" {
        if let Some(spec) = crate::apis::json::struct_mut(object, "spec") {
            crate::apis::json::default_to(spec, "maxExpirationSeconds", Json::from(86400));
        }
    }
}

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
        "PodCertificateRequest" => {
            match old {
                None => pcr::prepare_for_create(object),
                Some(old) => pcr::prepare_for_update(object, old),
            }
            pcr::validate(object, old)
        }
        _ => Vec::new(),
    };
    (errors, Vec::new())
}
