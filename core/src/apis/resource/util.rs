//! The small validators `pkg/apis/resource/validation/validation.go` shares between its kinds:
//! `validateSlice`, `validateSet`, `validateMap` (with `truncateIfTooLong`), the names
//! (`validatePoolName`, `validateQualifiedName`, `validateFullyQualifiedName`,
//! `validateCIdentifier`, `validateNodeName`, `validateLabelValue`, the driver name), and
//! `validateRawExtension`.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{Map, Value as Json};

use crate::apis::core::common::{duplicate, is_dns1123_subdomain, required, validate_dns1123_label};
use crate::content;
use crate::field::{Error, Path};

/// `DeviceMaxIDLength`.
pub(super) const DEVICE_MAX_ID_LENGTH: usize = 32;
/// `DeviceMaxDomainLength`.
pub(super) const DEVICE_MAX_DOMAIN_LENGTH: usize = 63;
/// `PoolNameMaxLength` (`DNS1123SubdomainMaxLength`).
const POOL_NAME_MAX_LENGTH: usize = 253;

/// `validateSlice`: at most `max` items (a negative `max` disables it; over it, only
/// `field.TooMany`), then each item.
pub(super) fn validate_slice(
    items: &[Json],
    max: i64,
    path: &Path<'_>,
    errors: &mut Vec<Error>,
    mut item: impl FnMut(&Json, &Path<'_>, &mut Vec<Error>),
) {
    if max >= 0 && items.len() as i64 > max {
        errors.push(Error::too_many(path, items.len(), max).with_origin("maxItems"));
        return;
    }
    for (i, v) in items.iter().enumerate() {
        item(v, &path.index(i), errors);
    }
}

/// [`validate_slice`] with the `sizeCovered` option: over `max`, the `field.TooMany` is left to
/// the declarative rules (beta, enforced; on v1beta1 reported at the flattened path, where the
/// API server's normalization matches it with this one), and the items are not checked.
pub(super) fn validate_slice_size_covered(
    items: &[Json],
    max: i64,
    path: &Path<'_>,
    errors: &mut Vec<Error>,
    item: impl FnMut(&Json, &Path<'_>, &mut Vec<Error>),
) {
    if items.len() as i64 > max {
        return;
    }
    validate_slice(items, -1, path, errors, item);
}

/// `validateSet`: [`validate_slice`], then `field.Duplicate` for each item whose key an
/// earlier item had (the key printed as Go prints it: a string quoted).
pub(super) fn validate_set(
    items: &[Json],
    max: i64,
    path: &Path<'_>,
    errors: &mut Vec<Error>,
    item: impl FnMut(&Json, &Path<'_>, &mut Vec<Error>),
    key: impl Fn(&Json) -> Json,
) {
    validate_set_with(items, max, false, path, errors, item, key);
}

/// [`validate_set`] with the `uniquenessCovered` option: the duplicates are then left to the
/// declarative rules, which are enforced and print the whole item.
pub(super) fn validate_unique_set(
    items: &[Json],
    max: i64,
    path: &Path<'_>,
    errors: &mut Vec<Error>,
    item: impl FnMut(&Json, &Path<'_>, &mut Vec<Error>),
) {
    validate_set_with(items, max, true, path, errors, item, |_| Json::Null);
}

fn validate_set_with(
    items: &[Json],
    max: i64,
    unique_covered: bool,
    path: &Path<'_>,
    errors: &mut Vec<Error>,
    item: impl FnMut(&Json, &Path<'_>, &mut Vec<Error>),
    key: impl Fn(&Json) -> Json,
) {
    if max >= 0 && items.len() as i64 > max {
        errors.push(Error::too_many(path, items.len(), max).with_origin("maxItems"));
        return;
    }
    validate_slice(items, -1, path, errors, item);
    if unique_covered {
        return;
    }
    let mut seen: Vec<Json> = Vec::new();
    for (i, v) in items.iter().enumerate() {
        let k = key(v);
        if seen.contains(&k) {
            errors.push(duplicate(&path.index(i), k));
        } else {
            seen.push(k);
        }
    }
}

/// `validateMap`: at most `max` entries (negative: no limit), then each key (at the map's
/// path) and each value (at the key, truncated in the middle past `truncate` bytes). Go walks
/// the map in random order; this walks it sorted.
pub(super) fn validate_map(
    map: Option<&Map<String, Json>>,
    max: i64,
    truncate: usize,
    path: &Path<'_>,
    errors: &mut Vec<Error>,
    key: impl Fn(&str, &Path<'_>, &mut Vec<Error>),
    mut value: impl FnMut(&Json, &Path<'_>, &mut Vec<Error>),
) {
    let Some(map) = map else { return };
    if max >= 0 && map.len() as i64 > max {
        errors.push(Error::too_many(path, map.len(), max));
        return;
    }
    for (k, v) in map {
        let shown = truncate_if_too_long(k, truncate);
        key(k, path, errors);
        value(v, &path.key(&shown), errors);
    }
}

/// `truncateIfTooLong`.
pub(super) fn truncate_if_too_long(s: &str, max: usize) -> String {
    let max = max.max(16);
    if s.len() <= max {
        return String::from(s);
    }
    let remaining = max - 3;
    let b = s.as_bytes();
    let head = &b[..remaining.div_ceil(2)];
    let tail = &b[b.len() - remaining / 2..];
    format!("{}...{}", String::from_utf8_lossy(head), String::from_utf8_lossy(tail))
}

/// `validateDriverName` (`ValidateCSIDriverName`).
pub(super) fn validate_driver_name(driver: &str, path: &Path<'_>, errors: &mut Vec<Error>) {
    crate::apis::core::volume_sources::validate_csi_driver_name(driver, path, errors);
}

/// `validateDriverName` with `RequiredCovered, FormatCovered, SizeCovered`: the format
/// errors are the declarative rules' (enforced, with their own words); the others print alike.
pub(super) fn validate_driver_name_covered(driver: &str, path: &Path<'_>, errors: &mut Vec<Error>) {
    if driver.is_empty() {
        errors.push(required(path, ""));
    } else if driver.len() > 63 {
        errors.push(Error::too_long(path, 63).with_origin("maxLength"));
    }
}

/// `validatePoolName`: required, at most 253 bytes, each `/`-separated part a DNS subdomain.
pub(super) fn validate_pool_name(name: &str, path: &Path<'_>, errors: &mut Vec<Error>) {
    if name.is_empty() {
        errors.push(required(path, ""));
        return;
    }
    if name.len() > POOL_NAME_MAX_LENGTH {
        errors.push(Error::too_long(path, POOL_NAME_MAX_LENGTH as i64).with_origin("format=k8s-resource-pool-name"));
    }
    for part in name.split('/') {
        for msg in is_dns1123_subdomain(part) {
            errors.push(Error::invalid(path, part, msg).with_origin("format=k8s-resource-pool-name"));
        }
    }
}

/// `validateDeviceName`, `validateRequestName`, `validateCounterName`
/// (`ValidateDNS1123Label`).
pub(super) fn validate_label_like(name: &str, path: &Path<'_>, errors: &mut Vec<Error>) {
    validate_dns1123_label(name, path, errors);
}

/// `validateCIdentifier`.
pub(super) fn validate_c_identifier(id: &str, path: &Path<'_>, errors: &mut Vec<Error>) {
    if id.len() > DEVICE_MAX_ID_LENGTH {
        errors.push(Error::too_long(path, DEVICE_MAX_ID_LENGTH as i64));
    }
    for msg in content::is_c_identifier(id) {
        errors.push(Error::invalid(path, id, msg));
    }
}

/// `validateQualifiedName`: a C identifier, or a driver name, `/`, and a C identifier.
pub(super) fn validate_qualified_name(name: &str, path: &Path<'_>, errors: &mut Vec<Error>) {
    let parts: Vec<&str> = name.split('/').collect();
    match parts.len() {
        1 => validate_c_identifier(parts[0], path, errors),
        2 => {
            if parts[0].is_empty() {
                errors.push(Error::invalid(path, "", "the domain must not be empty"));
            } else {
                validate_driver_name(parts[0], path, errors);
            }
            if parts[1].is_empty() {
                errors.push(Error::invalid(path, "", "the name must not be empty"));
            } else {
                validate_c_identifier(parts[1], path, errors);
            }
        }
        _ => {}
    }
}

/// `validateNodeName` (`ValidateNodeName`: a DNS subdomain).
pub(super) fn validate_node_name(name: &str, path: &Path<'_>, errors: &mut Vec<Error>) {
    for msg in is_dns1123_subdomain(name) {
        errors.push(Error::invalid(path, name, msg));
    }
}

/// `validateLabelValue` (`IsValidLabelValue`).
pub(super) fn validate_label_value(value: &str, path: &Path<'_>, errors: &mut Vec<Error>) {
    for msg in content::is_label_value(value) {
        errors.push(Error::invalid(path, value, msg));
    }
}

/// `validateRawExtension`: present, at most `max` bytes unless `stored` (the bytes of the
/// JSON as sent; kubedv counts its compact serialization), a JSON object.
pub(super) fn validate_raw_extension(
    raw: Option<&Json>,
    path: &Path<'_>,
    stored: bool,
    max: usize,
    errors: &mut Vec<Error>,
) {
    let Some(v) = raw.filter(|v| !v.is_null()) else {
        errors.push(required(path, ""));
        return;
    };
    let len = serde_json::to_string(v).map_or(0, |s| s.len());
    if !stored && len > max {
        errors.push(Error::too_long(path, max as i64));
    } else if !v.is_object() {
        errors.push(Error::invalid(path, "<value omitted>", "must be a valid JSON object"));
    }
}
