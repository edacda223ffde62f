//! Container resources, after `pkg/apis/core/validation/validation.go`:
//! `validateResourceRequirements` (`ValidateContainerResourceRequirements`,
//! `validatePodResourceRequirements`), `ValidateContainerResourceName`,
//! `validatePodResourceName`, `ValidateResourceQuantityValue`,
//! `validateResourceQuantityHugePageValue` and `validateResourceClaimNames`.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::cmp::Ordering;

use serde_json::Value as Json;

use super::super::json::{list, object, str};
use super::super::quantity;
use super::pod_common::*;
use crate::field::{Error, Path};

/// `validateResourceRequirements` with `ValidateContainerResourceName` (or, `pod_level`,
/// `validatePodResourceName`), `claim_names` the pod's claims (`None`: the overhead's nil
/// set).
pub fn validate_resource_requirements(
    req: &Json,
    claim_names: Option<&[&str]>,
    pod_level: bool,
    path: &Path<'_>,
    errors: &mut Vec<Error>,
) {
    let lim_path = path.child("limits");
    let req_path = path.child("requests");
    let (mut lim_cpu_mem, mut req_cpu_mem, mut lim_huge, mut req_huge) = (false, false, false, false);
    let limits = object(req, "limits");
    for (name, q) in limits.into_iter().flatten() {
        let at = lim_path.key(name);
        resource_name(name, pod_level, &at, errors);
        let Some(q) = quantity::from_json(q) else { continue };
        quantity_value(name, &q, &at, errors);
        if is_huge_page(name) {
            lim_huge = true;
            huge_page_value(name, &q, &at, errors);
        }
        if name == "cpu" || name == "memory" {
            lim_cpu_mem = true;
        }
    }
    for (name, q) in object(req, "requests").into_iter().flatten() {
        let at = req_path.key(name);
        resource_name(name, pod_level, &at, errors);
        let Some(q) = quantity::from_json(q) else { continue };
        quantity_value(name, &q, &at, errors);
        match limits.and_then(|l| l.get(name)).and_then(quantity::from_json) {
            Some(limit) => {
                let c = q.cmp(&limit);
                if c != Ordering::Equal && !is_overcommit_allowed(name) {
                    let msg = format!("must be equal to {name} limit of {}", limit.canonical());
                    errors.push(Error::invalid(&req_path, q.canonical(), msg));
                } else if c == Ordering::Greater {
                    let msg = format!("must be less than or equal to {name} limit of {}", limit.canonical());
                    errors.push(Error::invalid(&req_path, q.canonical(), msg));
                }
            }
            None if !is_overcommit_allowed(name) => {
                errors.push(required(&lim_path, "Limit must be set for non overcommitable resources"));
            }
            None => {}
        }
        if is_huge_page(name) {
            req_huge = true;
            huge_page_value(name, &q, &at, errors);
        }
        if name == "cpu" || name == "memory" {
            req_cpu_mem = true;
        }
    }
    if !lim_cpu_mem && !req_cpu_mem && (req_huge || lim_huge) {
        errors.push(forbidden(path, "HugePages require cpu or memory"));
    }
    validate_claim_names(list(req, "claims"), claim_names.unwrap_or(&[]), &path.child("claims"), errors);
}

/// `ValidateContainerResourceName` / `validatePodResourceName`.
pub(crate) fn resource_name(name: &str, pod_level: bool, path: &Path<'_>, errors: &mut Vec<Error>) {
    let before = errors.len();
    for msg in crate::content::is_label_key(name) {
        errors.push(Error::invalid(path, name, msg));
    }
    let qualified = errors.len() == before;
    if qualified && !name.contains('/') && !is_standard_resource(name) {
        errors.push(Error::invalid(path, name, "must be a standard resource type or fully qualified"));
        if pod_level {
            return;
        }
    }
    if pod_level {
        if qualified && !(name == "cpu" || name == "memory" || is_huge_page(name)) {
            errors.push(Error::not_supported(path, name, &["cpu", "hugepages-", "memory"]));
        }
        return;
    }
    if !name.contains('/') {
        if !(["cpu", "memory", "ephemeral-storage"].contains(&name) || is_huge_page(name)) {
            errors.push(Error::invalid(path, name, "must be a standard resource for containers"));
        }
    } else if !is_native_resource(name) && !is_extended_resource(name) {
        errors.push(Error::invalid(path, name, "doesn't follow extended resource name standard"));
    }
}

/// `ValidateResourceQuantityValue`.
pub(crate) fn quantity_value(name: &str, q: &quantity::Quantity, path: &Path<'_>, errors: &mut Vec<Error>) {
    if q.sign() < 0 {
        errors.push(Error::invalid(path, q.canonical(), "must be greater than or equal to 0"));
    }
    if is_integer_resource(name) && q.milli_value() % 1000 != 0 {
        // Go prints the resource.Quantity struct with %#v here; kubedv prints its text.
        errors.push(Error::invalid(path, q.canonical(), "must be an integer"));
    }
}

/// `validateResourceQuantityHugePageValue` (indivisible values refused on create).
fn huge_page_value(name: &str, q: &quantity::Quantity, path: &Path<'_>, errors: &mut Vec<Error>) {
    let divisible = match quantity::parse(name.trim_start_matches("hugepages-")) {
        Ok(size) if size.sign() > 0 && size.milli_value() % 1000 == 0 => {
            let page = size.value();
            page != 0 && q.value() % page == 0
        }
        _ => false,
    };
    if !divisible {
        let text = q.canonical();
        errors.push(Error::invalid(path, text.as_str(), format!("{text} is not positive integer multiple of {name}")));
    }
}

/// `validateResourceClaimNames`.
fn validate_claim_names(claims: &[Json], pod_claims: &[&str], path: &Path<'_>, errors: &mut Vec<Error>) {
    let mut names: Vec<String> = Vec::new();
    for (i, claim) in claims.iter().enumerate() {
        let at = path.index(i);
        let name = str(claim, "name");
        if name.is_empty() {
            errors.push(required(&at, ""));
            continue;
        }
        if names.iter().any(|n| n == name) {
            errors.push(duplicate(&at, name));
        } else {
            let request = str(claim, "request");
            let mut key = String::from(name);
            if !request.is_empty() {
                validate_dns1123_label(request, &at.child("request"), errors);
                key.push('/');
                key.push_str(request);
            }
            if names.contains(&key) {
                errors.push(duplicate(&at, key.as_str()));
            } else if request.is_empty() {
                for k in &names {
                    if k.split_once('/').is_some_and(|(n, _)| n == name) {
                        errors.push(duplicate(&at, name));
                    }
                }
            }
            names.push(key);
        }
        if !pod_claims.contains(&name) {
            let mut sorted: Vec<&str> = pod_claims.to_vec();
            sorted.sort_unstable();
            sorted.dedup();
            let mut e = not_found(&at, name);
            e.detail = if sorted.is_empty() {
                String::from("must be one of the names in pod.spec.resourceClaims which is empty")
            } else {
                format!("must be one of the names in pod.spec.resourceClaims: {}", sorted.join(", "))
            };
            errors.push(e);
        }
    }
}
