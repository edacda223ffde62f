//! ClusterTrustBundle, after `pkg/apis/certificates/validation/validation.go`
//! (`ValidateClusterTrustBundle`, `ValidateClusterTrustBundleUpdate`, `validateTrustBundle`) and
//! `pkg/apis/core/validation/names.go` (`ValidateClusterTrustBundleName`, the name rule that
//! depends on `spec.signerName`).
//!
//! Left out, needing an X.509 stack: `x509.ParseCertificate` is only approximated (the
//! certificate's DER shape and its basic constraints, [`super::der`]).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value as Json;

use super::{der, pem};
use crate::apis::core::common::is_dns1123_subdomain;
use crate::apis::core::volume_sources::validate_signer_name;
use crate::apis::json::{field, str};
use crate::field::{Error, Path};

/// `MaxTrustBundleSize`.
const MAX_TRUST_BUNDLE_SIZE: usize = 1024 * 1024;

/// `ValidateClusterTrustBundle` (its metadata aside but the name rule that depends on the
/// spec) and `ValidateClusterTrustBundleUpdate` (the trust bundle parsed only when it changed).
pub(crate) fn validate(bundle: &Json, old: Option<&Json>) -> Vec<Error> {
    let mut errors = Vec::new();
    let spec = field(bundle, "spec");
    let signer = str(spec, "signerName");
    // ValidateObjectMeta with ValidateClusterTrustBundleName (create and update alike).
    let meta = field(bundle, "metadata");
    let mp = Path::named("metadata");
    let generate = str(meta, "generateName");
    if !generate.is_empty() {
        for msg in name_errors(signer, generate, true) {
            errors.push(Error::invalid(&mp.child("generateName"), generate, msg));
        }
    }
    let name = str(meta, "name");
    if !name.is_empty() {
        for msg in name_errors(signer, name, false) {
            errors.push(Error::invalid(&mp.child("name"), name, msg));
        }
    }
    let root = Path::root();
    let spec_path = root.child("spec");
    if !signer.is_empty() {
        validate_signer_name(&spec_path.child("signerName"), signer, &mut errors);
    }
    if let Some(old) = old {
        // ValidateImmutableField, covered by an alpha declarative rule (not enforced): kept.
        let old_signer = str(field(old, "spec"), "signerName");
        if signer != old_signer {
            errors.push(
                Error::invalid(&spec_path.child("signerName"), signer, "field is immutable").with_origin("immutable"),
            );
        }
    }
    let bundle_text = str(spec, "trustBundle");
    let suppress = old.is_some_and(|o| str(field(o, "spec"), "trustBundle") == bundle_text);
    if !suppress {
        validate_trust_bundle(&spec_path.child("trustBundle"), bundle_text, &mut errors);
    }
    errors
}

/// `ValidateClusterTrustBundleName(signerName)(name, prefix)`; names without a signer are
/// `NameIsDNSSubdomain`s (a prefix's trailing dash masked).
fn name_errors(signer: &str, name: &str, prefix: bool) -> Vec<String> {
    let subdomain = |n: &str| {
        let n = if prefix { mask_trailing_dash(n) } else { String::from(n) };
        is_dns1123_subdomain(&n)
    };
    if signer.is_empty() {
        if name.contains(':') {
            return alloc::vec![String::from("ClusterTrustBundle without signer name must not have \":\" in its name")];
        }
        return subdomain(name);
    }
    let required = format!("{}:", signer.replace('/', ":"));
    match name.strip_prefix(required.as_str()) {
        Some(rest) => subdomain(rest),
        None => alloc::vec![format!("ClusterTrustBundle for signerName {signer} must be named with prefix {required}")],
    }
}

/// apimachinery `maskTrailingDash`.
fn mask_trailing_dash(name: &str) -> String {
    match name.strip_suffix('-') {
        Some(head) if name.len() > 1 => format!("{head}a"),
        _ => String::from(name),
    }
}

/// `validateTrustBundle`.
fn validate_trust_bundle(path: &Path<'_>, text: &str, errors: &mut Vec<Error>) {
    if text.len() > MAX_TRUST_BUNDLE_SIZE {
        errors.push(Error::too_long(path, MAX_TRUST_BUNDLE_SIZE as i64));
        return;
    }
    let omitted = "<value omitted>";
    let start = errors.len();
    // Blocks in order of first appearance, with the indices of their copies.
    let mut dedupe: Vec<(Vec<u8>, Vec<usize>)> = Vec::new();
    let mut rest = text.as_bytes();
    let mut i = 0usize;
    while let (Some(block), remaining) = pem::decode(rest) {
        rest = remaining;
        let index = i;
        i += 1;
        if block.ty != "CERTIFICATE" {
            errors.push(Error::invalid(path, omitted, format!("entry {index} has bad block type: {}", block.ty)));
            continue;
        }
        if !block.headers.is_empty() {
            errors.push(Error::invalid(path, omitted, format!("entry {index} has PEM block headers")));
            continue;
        }
        let Some((bc_valid, is_ca)) = der::basic_constraints(&block.bytes) else {
            errors.push(Error::invalid(path, omitted, format!("entry {index} does not parse as X.509")));
            continue;
        };
        if !is_ca {
            errors.push(Error::invalid(path, omitted, format!("entry {index} does not have the CA bit set")));
            continue;
        }
        if !bc_valid {
            errors.push(Error::invalid(path, omitted, format!("entry {index} has invalid basic constraints")));
            continue;
        }
        match dedupe.iter_mut().find(|(b, _)| *b == block.bytes) {
            Some((_, indices)) => indices.push(index),
            None => dedupe.push((block.bytes, alloc::vec![index])),
        }
    }
    if errors.len() != start {
        return;
    }
    if dedupe.is_empty() {
        errors.push(Error::invalid(path, omitted, "at least one trust anchor must be provided"));
    }
    for (_, indices) in &dedupe {
        if indices.len() > 1 {
            let list: Vec<String> = indices.iter().map(|n| format!("{n}")).collect();
            errors.push(Error::invalid(
                path,
                omitted,
                format!("duplicate trust anchor (indices [{}])", list.join(" ")),
            ));
        }
    }
}
