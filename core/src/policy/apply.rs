//! An ApplyConfiguration merged into the object as the API server does it
//! (apiserver `mutating/patch/smd.go` `ApplyStructuredMergeDiff`: structured-merge-diff's
//! `Merge` after `validatePatch` refuses atomic content), with the schema of the object's kind.
//!
//! The schema is a custom resource's OpenAPI schema (its `x-kubernetes-list-type`,
//! `x-kubernetes-list-map-keys`, `x-kubernetes-map-type`), or for `metadata` the ObjectMeta
//! rules (labels and annotations granular, finalizers a set, ownerReferences a map by uid,
//! managedFields atomic). Without the kind's schema (a built-in kind: kubedv does not ship
//! their schemas yet), only `metadata` can be merged; anything else is reported as beyond
//! kubedv rather than guessed.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde_json::{json, Map, Value as Json};

/// Why the merge did not happen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ApplyError {
    /// The API server's error (`error applying patch: ...`).
    Server(String),
    /// kubedv cannot tell.
    Unsupported(String),
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum ListType<'a> {
    Atomic,
    Set,
    Map(&'a [Json]),
}

/// The schema of ObjectMeta as far as merging needs it.
fn object_meta() -> Json {
    json!({"type": "object", "properties": {
        "name": {"type": "string"}, "generateName": {"type": "string"}, "namespace": {"type": "string"},
        "uid": {"type": "string"}, "resourceVersion": {"type": "string"}, "generation": {"type": "integer"},
        "creationTimestamp": {"type": "string"}, "deletionTimestamp": {"type": "string"},
        "deletionGracePeriodSeconds": {"type": "integer"}, "selfLink": {"type": "string"},
        "labels": {"type": "object", "additionalProperties": {"type": "string"}},
        "annotations": {"type": "object", "additionalProperties": {"type": "string"}},
        "finalizers": {"type": "array", "items": {"type": "string"}, "x-kubernetes-list-type": "set"},
        "ownerReferences": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["uid"],
            "items": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}},
        "managedFields": {"type": "array", "items": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}
    }})
}

fn list_type(schema: &Json) -> ListType<'_> {
    match schema.get("x-kubernetes-list-type").and_then(Json::as_str) {
        Some("set") => ListType::Set,
        Some("map") => {
            ListType::Map(schema.get("x-kubernetes-list-map-keys").and_then(Json::as_array).map_or(&[], |a| a))
        }
        _ => ListType::Atomic,
    }
}

fn atomic_map(schema: &Json) -> bool {
    schema.get("x-kubernetes-map-type").and_then(Json::as_str) == Some("atomic")
}

fn preserves(schema: &Json) -> bool {
    schema.get("x-kubernetes-preserve-unknown-fields").and_then(Json::as_bool) == Some(true)
}

/// The schema of a field of an object schema (`properties`, else `additionalProperties`).
fn field_schema<'a>(schema: &'a Json, field: &str) -> Option<&'a Json> {
    if let Some(p) = schema.get("properties").and_then(|p| p.get(field)) {
        return Some(p);
    }
    match schema.get("additionalProperties") {
        Some(a @ Json::Object(_)) => Some(a),
        _ => None,
    }
}

/// The path element of a list-map item (`[name="http"]`) or a set item (`[="x"]`).
fn item_path(item: &Json, t: ListType<'_>, index: usize) -> String {
    match t {
        ListType::Map(keys) => {
            let parts: Vec<String> = keys
                .iter()
                .filter_map(Json::as_str)
                .map(|k| format!("{k}={}", item.get(k).map_or_else(|| String::from("null"), |v| v.to_string())))
                .collect();
            format!("[{}]", parts.join(","))
        }
        ListType::Set => format!("[={item}]"),
        ListType::Atomic => format!("[{index}]"),
    }
}

/// `findAtomics` and the typed conversion's unknown fields, over the patch.
fn check(patch: &Json, schema: &Json, at: &str, atomics: &mut Vec<String>) -> Result<(), String> {
    match patch {
        Json::Object(m) => {
            if atomic_map(schema) {
                atomics.push(String::from(at));
            }
            for (k, v) in m {
                let path = format!("{at}.{k}");
                match field_schema(schema, k) {
                    Some(s) => check(v, s, &path, atomics)?,
                    None if preserves(schema) => {}
                    None => return Err(format!("{path}: field not declared in schema")),
                }
            }
        }
        Json::Array(items) => {
            let t = list_type(schema);
            if t == ListType::Atomic {
                atomics.push(String::from(at));
            }
            if let Some(item_schema) = schema.get("items") {
                for (i, item) in items.iter().enumerate() {
                    check(item, item_schema, &format!("{at}{}", item_path(item, t, i)), atomics)?;
                }
            }
        }
        _ => {}
    }
    Ok(())
}

fn same_keys(a: &Json, b: &Json, keys: &[Json]) -> bool {
    keys.iter().filter_map(Json::as_str).all(|k| a.get(k) == b.get(k))
}

/// structured-merge-diff's `Merge`: the patch wins; structs and granular maps merge by field,
/// sets take the union, list-maps merge items by key (new items after the existing ones).
fn merge(live: &Json, patch: &Json, schema: &Json) -> Json {
    match (live, patch) {
        (Json::Object(l), Json::Object(p)) if !atomic_map(schema) => {
            let mut out: Map<String, Json> = l.clone();
            for (k, v) in p {
                let s = field_schema(schema, k).cloned().unwrap_or(Json::Null);
                let merged = match out.get(k) {
                    Some(old) => merge(old, v, &s),
                    None => v.clone(),
                };
                out.insert(k.clone(), merged);
            }
            Json::Object(out)
        }
        (Json::Array(l), Json::Array(p)) => {
            let item_schema = schema.get("items").cloned().unwrap_or(Json::Null);
            match list_type(schema) {
                ListType::Set => {
                    let mut out = l.clone();
                    out.extend(p.iter().filter(|x| !l.contains(x)).cloned());
                    Json::Array(out)
                }
                ListType::Map(keys) => {
                    let mut out = l.clone();
                    for item in p {
                        match out.iter().position(|x| same_keys(x, item, keys)) {
                            Some(i) => out[i] = merge(&out[i], item, &item_schema),
                            None => out.push(item.clone()),
                        }
                    }
                    Json::Array(out)
                }
                ListType::Atomic => patch.clone(),
            }
        }
        _ => patch.clone(),
    }
}

/// Merges an ApplyConfiguration into `live`; `schema` is the kind's OpenAPI schema if known.
pub fn apply(live: &Json, patch: &Json, schema: Option<&Json>) -> Result<Json, ApplyError> {
    let meta = object_meta();
    let root = match schema {
        Some(s) => {
            let mut s = s.clone();
            if let Some(props) = s.get_mut("properties").and_then(Json::as_object_mut) {
                props.insert("metadata".into(), meta);
                props.entry("apiVersion").or_insert(json!({"type": "string"}));
                props.entry("kind").or_insert(json!({"type": "string"}));
            }
            s
        }
        None => {
            // Only metadata is known; anything else needs the kind's schema.
            if let Some(field) = patch
                .as_object()
                .and_then(|m| m.keys().find(|k| !matches!(k.as_str(), "metadata" | "apiVersion" | "kind")))
            {
                return Err(ApplyError::Unsupported(format!(
                    "kubedv cannot merge .{field}: how the API server merges it depends on the kind's schema (list types, atomic structs), which kubedv has for custom resources whose CRD is given, not yet for built-in kinds; give the CRD, or write this mutation as a JSONPatch"
                )));
            }
            json!({"type": "object", "properties": {"metadata": meta, "apiVersion": {"type": "string"}, "kind": {"type": "string"}}})
        }
    };
    let mut atomics = Vec::new();
    check(patch, &root, "", &mut atomics).map_err(|e| {
        ApplyError::Server(format!("error applying patch: failed to convert patch object to typed object: {e}"))
    })?;
    if !atomics.is_empty() {
        return Err(ApplyError::Server(format!(
            "error applying patch: invalid ApplyConfiguration: may not mutate atomic arrays, maps or structs: {}",
            atomics.join(", ")
        )));
    }
    Ok(merge(live, patch, &root))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schema() -> Json {
        json!({"type": "object", "properties": {"spec": {"type": "object", "properties": {
            "replicas": {"type": "integer"},
            "selector": {"type": "object", "x-kubernetes-map-type": "atomic", "properties": {"app": {"type": "string"}}},
            "volumes": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
                        "items": {"type": "object", "properties": {"name": {"type": "string"}, "size": {"type": "string"}}}},
            "tags": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}},
            "args": {"type": "array", "items": {"type": "string"}}
        }}}})
    }

    // apiserver mutating/patch/smd_test.go: list-map items merge by key, atomic content and
    // undeclared fields are refused with these texts.
    #[test]
    fn merges_by_schema() {
        let live = json!({"metadata": {"name": "x", "labels": {"a": "1"}, "finalizers": ["f"]},
                          "spec": {"volumes": [{"name": "x", "size": "1"}], "tags": ["a"]}});
        let patch = json!({"metadata": {"labels": {"b": "2"}, "finalizers": ["g", "f"]},
                           "spec": {"volumes": [{"name": "y"}, {"name": "x", "size": "2"}], "tags": ["b"]}});
        let out = apply(&live, &patch, Some(&schema())).unwrap();
        assert_eq!(out["metadata"]["labels"], json!({"a": "1", "b": "2"}));
        assert_eq!(out["metadata"]["finalizers"], json!(["f", "g"]));
        assert_eq!(out["spec"]["volumes"], json!([{"name": "x", "size": "2"}, {"name": "y"}]));
        assert_eq!(out["spec"]["tags"], json!(["a", "b"]));
        let err = |p: Json| apply(&live, &p, Some(&schema())).unwrap_err();
        assert_eq!(
            err(json!({"spec": {"selector": {"app": "a"}}})),
            ApplyError::Server(String::from("error applying patch: invalid ApplyConfiguration: may not mutate atomic arrays, maps or structs: .spec.selector"))
        );
        assert_eq!(
            err(json!({"spec": {"args": ["x"]}})),
            ApplyError::Server(String::from("error applying patch: invalid ApplyConfiguration: may not mutate atomic arrays, maps or structs: .spec.args"))
        );
        assert_eq!(
            err(json!({"spec": {"replicasx": 1}})),
            ApplyError::Server(String::from("error applying patch: failed to convert patch object to typed object: .spec.replicasx: field not declared in schema"))
        );
        // Without the kind's schema only metadata merges.
        assert!(apply(&live, &json!({"metadata": {"labels": {"c": "3"}}}), None).is_ok());
        assert!(matches!(apply(&live, &json!({"spec": {"replicas": 1}}), None), Err(ApplyError::Unsupported(_))));
    }
}
