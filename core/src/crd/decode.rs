//! What the API server does to a custom resource when it decodes it, before any validation
//! (apiextensions-apiserver `pkg/apiserver/customresource_handler.go`
//! `unstructuredSchemaCoercer.apply`, then the codec's defaulter): unknown fields are pruned
//! (`pkg/apiserver/schema/pruning/algorithm.go`), nulls of non-nullable fields without a
//! default are dropped (`pkg/apiserver/schema/defaulting/prunenulls.go`), and the schema's
//! `default`s are applied (`pkg/apiserver/schema/defaulting/algorithm.go`).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{Map, Value as Json};

/// `x-kubernetes-*` and other boolean keywords of a schema node.
fn flag(schema: &Json, key: &str) -> bool {
    schema.get(key).and_then(Json::as_bool).unwrap_or(false)
}

fn properties(schema: &Json) -> Option<&Map<String, Json>> {
    schema.get("properties").and_then(Json::as_object)
}

fn additional(schema: &Json) -> Option<&Json> {
    schema.get("additionalProperties").filter(|a| a.is_object())
}

/// The schema of a field of an object: its property, or else `additionalProperties`
/// (`getSchemaForField`).
fn field_schema<'s>(schema: &'s Json, key: &str) -> Option<&'s Json> {
    properties(schema).and_then(|p| p.get(key)).or_else(|| additional(schema))
}

/// Decodes `object` as the API server would: prunes unknown fields (each reported as the API
/// server's warning, `unknown field "spec.foo"`), drops non-nullable nulls that have no
/// default, and applies defaults when `defaults` is set.
pub fn decode(object: &mut Json, schema: &Json, defaults: bool) -> Vec<String> {
    let mut unknown = Vec::new();
    prune(object, Some(schema), true, "", &mut unknown);
    prune_nulls(object, Some(schema));
    if defaults {
        apply_defaults(object, schema);
    }
    unknown.into_iter().map(|path| format!("unknown field \"{path}\"")).collect()
}

fn join(parent: &str, key: &str) -> String {
    if parent.is_empty() {
        String::from(key)
    } else {
        format!("{parent}.{key}")
    }
}

/// `structuralpruning.PruneWithOptions`: removes the fields the schema does not declare, except
/// under `x-kubernetes-preserve-unknown-fields` and, at a resource root (the object's root and
/// every `x-kubernetes-embedded-resource`), `apiVersion`, `kind` and an object `metadata`.
pub fn prune(x: &mut Json, schema: Option<&Json>, resource_root: bool, path: &str, unknown: &mut Vec<String>) {
    let preserve = schema.is_some_and(|s| flag(s, "x-kubernetes-preserve-unknown-fields"));
    match x {
        Json::Object(fields) => {
            let Some(s) = schema else {
                for k in fields.keys() {
                    unknown.push(join(path, k));
                }
                fields.clear();
                return;
            };
            let mut drop = Vec::new();
            for (k, v) in fields.iter_mut() {
                if resource_root && (k == "apiVersion" || k == "kind" || (k == "metadata" && v.is_object())) {
                    continue;
                }
                let child = join(path, k);
                if let Some(prop) = properties(s).and_then(|p| p.get(k)) {
                    prune(v, Some(prop), flag(prop, "x-kubernetes-embedded-resource"), &child, unknown);
                } else if let Some(ap) = s.get("additionalProperties") {
                    // Any additionalProperties keeps the key (`false` is the validator's to
                    // report); only a schema prunes inside the value.
                    let ap = ap.is_object().then_some(ap);
                    prune(v, ap, ap.is_some_and(|a| flag(a, "x-kubernetes-embedded-resource")), &child, unknown);
                } else if !preserve {
                    drop.push(k.clone());
                }
            }
            for k in drop {
                // At the top, `apiVersion`, `kind` and `metadata` go unreported (algorithm.go:
                // `!metaFields[k] || len(opts.ParentPath) > 0`).
                if !(path.is_empty() && matches!(k.as_str(), "apiVersion" | "kind" | "metadata")) {
                    unknown.push(join(path, &k));
                }
                fields.remove(&k);
            }
        }
        Json::Array(items) => {
            let item_schema = schema.and_then(|s| s.get("items")).filter(|i| i.is_object());
            if item_schema.is_none() && preserve {
                return;
            }
            let embedded = item_schema.is_some_and(|i| flag(i, "x-kubernetes-embedded-resource"));
            for (i, v) in items.iter_mut().enumerate() {
                prune(v, item_schema, embedded, &format!("{path}[{i}]"), unknown);
            }
        }
        _ => {}
    }
}

/// `PruneNonNullableNullsWithoutDefaults`: a field (or map value) that is null, not `nullable`
/// and has no `default` is removed; list items are left alone.
fn prune_nulls(x: &mut Json, schema: Option<&Json>) {
    match x {
        Json::Object(fields) => {
            fields.retain(|k, v| {
                let s = schema.and_then(|s| field_schema(s, k));
                let drop = v.is_null() && s.is_some_and(|s| !flag(s, "nullable") && s.get("default").is_none());
                if !drop {
                    prune_nulls(v, s);
                }
                !drop
            });
        }
        Json::Array(items) => {
            let s = schema.and_then(|s| s.get("items")).filter(|i| i.is_object());
            for v in items {
                prune_nulls(v, s);
            }
        }
        _ => {}
    }
}

/// `isNonNullableNull`.
fn non_nullable_null(x: &Json, schema: &Json) -> bool {
    x.is_null() && !flag(schema, "nullable")
}

/// `structuraldefaulting.Default`: absent fields (and non-nullable nulls) with a `default` get
/// it, then every field, map value and list item is defaulted in turn (so defaults nest, also
/// inside a default that was just applied).
pub fn apply_defaults(x: &mut Json, schema: &Json) {
    match x {
        Json::Object(fields) => {
            if let Some(props) = properties(schema) {
                for (k, prop) in props {
                    let Some(default) = prop.get("default") else { continue };
                    if fields.get(k).is_none_or(|v| non_nullable_null(v, prop)) {
                        fields.insert(k.clone(), default.clone());
                    }
                }
            }
            for (k, v) in fields.iter_mut() {
                if let Some(prop) = properties(schema).and_then(|p| p.get(k)) {
                    apply_defaults(v, prop);
                } else if let Some(ap) = additional(schema) {
                    if non_nullable_null(v, ap) {
                        *v = ap.get("default").cloned().unwrap_or(Json::Null);
                    }
                    apply_defaults(v, ap);
                }
            }
        }
        Json::Array(items) => {
            let Some(item_schema) = schema.get("items").filter(|i| i.is_object()) else { return };
            for v in items {
                if non_nullable_null(v, item_schema) {
                    *v = item_schema.get("default").cloned().unwrap_or(Json::Null);
                }
                apply_defaults(v, item_schema);
            }
        }
        _ => {}
    }
}

/// The schemas of a CRD (every version's, and v1beta1's `spec.validation`), each node with the
/// schemas below it: `properties`, `patternProperties`, `definitions` and `dependencies`
/// values, `items` (one or a list), `additionalProperties`/`additionalItems` schemas, `not`,
/// `allOf`/`anyOf`/`oneOf`.
fn schema_nodes(crd: &mut Json, each: &mut dyn FnMut(&mut serde_json::Map<String, Json>)) {
    fn walk(node: &mut Json, each: &mut dyn FnMut(&mut serde_json::Map<String, Json>)) {
        let Some(map) = node.as_object_mut() else { return };
        each(map);
        for (key, child) in map.iter_mut() {
            match key.as_str() {
                "properties" | "patternProperties" | "definitions" | "dependencies" => {
                    for v in child.as_object_mut().into_iter().flat_map(|m| m.values_mut()) {
                        walk(v, each);
                    }
                }
                "items" | "allOf" | "anyOf" | "oneOf" if child.is_array() => {
                    for v in child.as_array_mut().into_iter().flatten() {
                        walk(v, each);
                    }
                }
                "items" | "additionalProperties" | "additionalItems" | "not" => walk(child, each),
                _ => {}
            }
        }
    }
    let Some(spec) = crd.get_mut("spec") else { return };
    if let Some(s) = spec.get_mut("validation").and_then(|v| v.get_mut("openAPIV3Schema")) {
        walk(s, each);
    }
    for v in spec.get_mut("versions").and_then(Json::as_array_mut).into_iter().flatten() {
        if let Some(s) = v.get_mut("schema").and_then(|v| v.get_mut("openAPIV3Schema")) {
            walk(s, each);
        }
    }
}

/// Whether a schema of the CRD has `default: null`.
pub(super) fn null_defaults(crd: &Json) -> bool {
    fn any(node: &Json) -> bool {
        let Some(map) = node.as_object() else { return false };
        map.get("default").is_some_and(Json::is_null)
            || map.iter().any(|(key, child)| match key.as_str() {
                "properties" | "patternProperties" | "definitions" | "dependencies" => {
                    child.as_object().into_iter().flat_map(|m| m.values()).any(any)
                }
                "items" | "allOf" | "anyOf" | "oneOf" if child.is_array() => {
                    child.as_array().into_iter().flatten().any(any)
                }
                "items" | "additionalProperties" | "additionalItems" | "not" => any(child),
                _ => false,
            })
    }
    let Some(spec) = crd.get("spec") else { return false };
    let schema = |v: &Json| v.get("openAPIV3Schema").is_some_and(any);
    spec.get("validation").is_some_and(schema)
        || spec
            .get("versions")
            .and_then(Json::as_array)
            .into_iter()
            .flatten()
            .any(|v| v.get("schema").is_some_and(schema))
}

/// A schema's `default: null` is no default: the API server decodes it into the `*JSON` field
/// `Default` as Go decodes a JSON null into a pointer, nil (apiextensions v1
/// `JSONSchemaProps.Default`).
pub(super) fn drop_null_defaults(crd: &mut Json) {
    schema_nodes(crd, &mut |m| {
        if m.get("default").is_some_and(Json::is_null) {
            m.remove("default");
        }
    });
}
