//! Values as the API server prints them when they are apiextensions' *internal* types: Go's
//! `json.Marshal` of structs without json tags, so every field under its Go name, in
//! declaration order, zero values included (`pkg/apis/apiextensions/types.go`,
//! `types_jsonschema.go`). A CRD's errors about whole versions or schemas print these.

use alloc::string::String;

use serde_json::Value as Json;

use crate::field::go_json;

/// The v1 keys of `JSONSchemaProps`, in the internal struct's field order (internal
/// `Nullable` comes right after `Type`).
pub(super) const SCHEMA_FIELD_ORDER: &[&str] = &[
    "id",
    "$schema",
    "$ref",
    "description",
    "type",
    "nullable",
    "format",
    "title",
    "default",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "maxItems",
    "minItems",
    "uniqueItems",
    "multipleOf",
    "enum",
    "maxProperties",
    "minProperties",
    "required",
    "items",
    "allOf",
    "oneOf",
    "anyOf",
    "not",
    "properties",
    "additionalProperties",
    "patternProperties",
    "dependencies",
    "additionalItems",
    "definitions",
    "externalDocs",
    "example",
    "x-kubernetes-preserve-unknown-fields",
    "x-kubernetes-embedded-resource",
    "x-kubernetes-int-or-string",
    "x-kubernetes-list-map-keys",
    "x-kubernetes-list-type",
    "x-kubernetes-map-type",
    "x-kubernetes-validations",
];

/// The Go field names, in the same order.
const SCHEMA_GO_NAMES: &[&str] = &[
    "ID",
    "Schema",
    "Ref",
    "Description",
    "Type",
    "Nullable",
    "Format",
    "Title",
    "Default",
    "Maximum",
    "ExclusiveMaximum",
    "Minimum",
    "ExclusiveMinimum",
    "MaxLength",
    "MinLength",
    "Pattern",
    "MaxItems",
    "MinItems",
    "UniqueItems",
    "MultipleOf",
    "Enum",
    "MaxProperties",
    "MinProperties",
    "Required",
    "Items",
    "AllOf",
    "OneOf",
    "AnyOf",
    "Not",
    "Properties",
    "AdditionalProperties",
    "PatternProperties",
    "Dependencies",
    "AdditionalItems",
    "Definitions",
    "ExternalDocs",
    "Example",
    "XPreserveUnknownFields",
    "XEmbeddedResource",
    "XIntOrString",
    "XListMapKeys",
    "XListType",
    "XMapType",
    "XValidations",
];

/// `{"Go":value,...}` from (name, rendered value) pairs.
fn object<'a>(fields: impl IntoIterator<Item = (&'a str, String)>) -> String {
    let mut out = String::from("{");
    for (i, (k, v)) in fields.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push('"');
        out.push_str(k);
        out.push_str("\":");
        out.push_str(&v);
    }
    out.push('}');
    out
}

fn string(v: Option<&Json>) -> String {
    go_json(&Json::from(v.and_then(Json::as_str).unwrap_or("")))
}

fn boolean(v: Option<&Json>) -> String {
    String::from(if v.and_then(Json::as_bool) == Some(true) { "true" } else { "false" })
}

/// A pointer or slice of scalars: `null` when absent, its JSON otherwise.
fn nullable(v: Option<&Json>) -> String {
    v.map_or_else(|| String::from("null"), go_json)
}

/// A list of values rendered one by one (`null` when absent).
fn list(v: Option<&Json>, each: fn(&Json) -> String) -> String {
    match v.and_then(Json::as_array) {
        None => String::from("null"),
        Some(items) => {
            let rendered: alloc::vec::Vec<String> = items.iter().map(each).collect();
            alloc::format!("[{}]", rendered.join(","))
        }
    }
}

/// An internal `JSONSchemaProps`.
pub(super) fn schema(s: &Json) -> String {
    let fields = SCHEMA_FIELD_ORDER.iter().zip(SCHEMA_GO_NAMES).map(|(key, go)| {
        let v = s.get(*key).filter(|v| !v.is_null());
        let rendered = match *key {
            "id" | "$schema" | "description" | "type" | "format" | "title" | "pattern" => string(v),
            "nullable"
            | "exclusiveMaximum"
            | "exclusiveMinimum"
            | "uniqueItems"
            | "x-kubernetes-embedded-resource"
            | "x-kubernetes-int-or-string" => boolean(v),
            "items" => v.map_or_else(|| String::from("null"), schema_or_array),
            "allOf" | "oneOf" | "anyOf" => list(v, schema),
            "not" => v.map_or_else(|| String::from("null"), schema),
            "properties" | "patternProperties" | "definitions" => schema_map(v),
            "additionalProperties" | "additionalItems" => v.map_or_else(|| String::from("null"), schema_or_bool),
            "dependencies" => dependencies(v),
            "externalDocs" => v.map_or_else(
                || String::from("null"),
                |d| object([("Description", string(d.get("description"))), ("URL", string(d.get("url")))]),
            ),
            "x-kubernetes-validations" => list(v, rule),
            // Pointers, scalar slices and free JSON.
            _ => nullable(v),
        };
        (*go, rendered)
    });
    object(fields)
}

fn schema_map(v: Option<&Json>) -> String {
    match v.and_then(Json::as_object) {
        None => String::from("null"),
        Some(m) => keyed(m, schema),
    }
}

/// `{"key":value,...}` with JSON-escaped keys in Go's sorted order.
fn keyed(m: &serde_json::Map<String, Json>, each: fn(&Json) -> String) -> String {
    let mut out = String::from("{");
    for (i, (k, v)) in m.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&go_json(&Json::from(k.as_str())));
        out.push(':');
        out.push_str(&each(v));
    }
    out.push('}');
    out
}

/// `JSONSchemaPropsOrArray`.
pub(super) fn schema_or_array(v: &Json) -> String {
    match v {
        Json::Array(_) => object([("Schema", String::from("null")), ("JSONSchemas", list(Some(v), schema))]),
        other => object([("Schema", schema(other)), ("JSONSchemas", String::from("null"))]),
    }
}

/// `JSONSchemaPropsOrBool`.
fn schema_or_bool(v: &Json) -> String {
    match v {
        Json::Bool(b) => {
            object([("Allows", String::from(if *b { "true" } else { "false" })), ("Schema", String::from("null"))])
        }
        other => object([("Allows", String::from("true")), ("Schema", schema(other))]),
    }
}

/// `JSONSchemaDependencies`: each a schema or a list of property names.
fn dependencies(v: Option<&Json>) -> String {
    match v.and_then(Json::as_object) {
        None => String::from("null"),
        Some(m) => keyed(m, |d| match d {
            Json::Array(_) => object([("Schema", String::from("null")), ("Property", go_json(d))]),
            other => object([("Schema", schema(other)), ("Property", String::from("null"))]),
        }),
    }
}

/// A `ValidationRule`.
pub(super) fn rule(r: &Json) -> String {
    object([
        ("Rule", string(r.get("rule"))),
        ("Message", string(r.get("message"))),
        ("MessageExpression", string(r.get("messageExpression"))),
        ("Reason", nullable(r.get("reason"))),
        ("FieldPath", string(r.get("fieldPath"))),
        ("OptionalOldSelf", nullable(r.get("optionalOldSelf"))),
    ])
}

/// The internal `[]CustomResourceDefinitionVersion`, with the fields that moved to the top
/// level (`collapsed`: schema, subresources, printer columns, selectable fields) `null`.
pub(super) fn versions(
    versions: &[Json],
    schema_top: bool,
    sub_top: bool,
    columns_top: bool,
    selectable_top: bool,
) -> String {
    let each = versions.iter().map(|v| {
        let moved = |top: bool, key: &str| if top { None } else { v.get(key).filter(|x| !x.is_null()) };
        object([
            ("Name", string(v.get("name"))),
            ("Served", boolean(v.get("served"))),
            ("Storage", boolean(v.get("storage"))),
            ("Deprecated", boolean(v.get("deprecated"))),
            ("DeprecationWarning", nullable(v.get("deprecationWarning").filter(|x| !x.is_null()))),
            (
                "Schema",
                moved(schema_top, "schema").map_or_else(
                    || String::from("null"),
                    |s| {
                        object([(
                            "OpenAPIV3Schema",
                            s.get("openAPIV3Schema")
                                .filter(|x| !x.is_null())
                                .map_or_else(|| String::from("null"), schema),
                        )])
                    },
                ),
            ),
            ("Subresources", moved(sub_top, "subresources").map_or_else(|| String::from("null"), subresources)),
            ("AdditionalPrinterColumns", list(moved(columns_top, "additionalPrinterColumns"), column)),
            (
                "SelectableFields",
                list(moved(selectable_top, "selectableFields"), |f| object([("JSONPath", string(f.get("jsonPath")))])),
            ),
        ])
    });
    let rendered: alloc::vec::Vec<String> = each.collect();
    alloc::format!("[{}]", rendered.join(","))
}

fn subresources(s: &Json) -> String {
    let status = s.get("status").filter(|x| !x.is_null()).map_or_else(|| String::from("null"), |_| String::from("{}"));
    let scale = s.get("scale").filter(|x| !x.is_null()).map_or_else(
        || String::from("null"),
        |sc| {
            object([
                ("SpecReplicasPath", string(sc.get("specReplicasPath"))),
                ("StatusReplicasPath", string(sc.get("statusReplicasPath"))),
                ("LabelSelectorPath", nullable(sc.get("labelSelectorPath").filter(|x| !x.is_null()))),
            ])
        },
    );
    object([("Status", status), ("Scale", scale)])
}

fn column(c: &Json) -> String {
    object([
        ("Name", string(c.get("name"))),
        ("Type", string(c.get("type"))),
        ("Format", string(c.get("format"))),
        ("Description", string(c.get("description"))),
        ("Priority", alloc::format!("{}", c.get("priority").and_then(Json::as_i64).unwrap_or(0))),
        ("JSONPath", string(c.get("jsonPath"))),
    ])
}
