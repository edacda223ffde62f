//! Correlation of a custom resource with its old version on update, for ratcheting
//! (apiserver `pkg/cel/common/equality.go` `CorrelatedObject`): object fields and map values
//! correlate by name, `x-kubernetes-list-type: map` items by their keys (wherever they moved),
//! and nothing else — set items, atomic list items and untyped list items have no old value of
//! their own, so only their list as a whole can be unchanged.

use alloc::vec::Vec;

use serde_json::Value as Json;

/// The old value of an object's field or a map's value, when both objects have it and the
/// schema declares it (`CorrelatedObject.Key`).
pub fn key<'o>(schema: &Json, new: &Json, old: &'o Json, field: &str) -> Option<&'o Json> {
    new.as_object()?.get(field)?;
    let old = old.as_object()?.get(field)?;
    let declared = schema.get("properties").and_then(Json::as_object).is_some_and(|p| p.contains_key(field))
        || schema.get("additionalProperties").is_some_and(Json::is_object);
    declared.then_some(old)
}

/// The `x-kubernetes-list-map-keys` of a `map` list, or `None` for any other list.
pub fn map_keys(schema: &Json) -> Option<Vec<&str>> {
    if schema.get("x-kubernetes-list-type").and_then(Json::as_str) != Some("map") {
        return None;
    }
    let keys = schema.get("x-kubernetes-list-map-keys").and_then(Json::as_array)?;
    Some(keys.iter().filter_map(Json::as_str).collect())
}

/// The old item with the same keys as `item` in a map list (`MapList.Get`: the first one when
/// the old list repeats a key). An item has a key only when it is an object with every key
/// field set to a scalar.
pub fn map_item<'o>(keys: &[&str], item: &Json, old: &'o Json) -> Option<&'o Json> {
    let scalar = |v: Option<&Json>| matches!(v, Some(Json::Bool(_) | Json::Number(_) | Json::String(_)));
    let keyed = |o: &Json| o.is_object() && !keys.is_empty() && keys.iter().all(|k| scalar(o.get(*k)));
    if !keyed(item) {
        return None;
    }
    old.as_array()?.iter().find(|o| keyed(o) && keys.iter().all(|k| o.get(*k) == item.get(*k)))
}

/// The old value of item `i` (`CorrelatedObject.Index`): only `map` lists correlate items.
pub fn index<'o>(schema: &Json, new: &Json, old: &'o Json, i: usize) -> Option<&'o Json> {
    let keys = map_keys(schema)?;
    let item = new.as_array()?.get(i)?;
    schema.get("items")?;
    map_item(&keys, item, old)
}

/// `CachedDeepEqual`: whether a correlated value is unchanged. Map lists compare item by item
/// through their keys (reordering is no change); other lists and scalars compare exactly.
pub fn unchanged(schema: &Json, new: &Json, old: &Json) -> bool {
    match (new, old) {
        (Json::Array(items), Json::Array(olds)) => {
            if items.len() != olds.len() {
                return false;
            }
            let Some(keys) = map_keys(schema) else { return new == old };
            let item_schema = schema.get("items").unwrap_or(&Json::Null);
            items.iter().all(|item| match map_item(&keys, item, old) {
                Some(o) => unchanged(item_schema, item, o),
                None => false,
            })
        }
        (Json::Object(fields), Json::Object(olds)) => {
            fields.len() == olds.len()
                && fields.iter().all(|(k, v)| {
                    let child = schema
                        .get("properties")
                        .and_then(|p| p.get(k))
                        .or_else(|| schema.get("additionalProperties").filter(|a| a.is_object()));
                    match (child, olds.get(k)) {
                        (Some(s), Some(o)) => unchanged(s, v, o),
                        _ => false,
                    }
                })
        }
        _ => new == old,
    }
}
