//! `apiextensions-*`: apiextensions-apiserver's own test tables (`tests/corpus/apiextensions`,
//! each case with the Go file and line it comes from) sent to the real API server. A table's
//! schema becomes the `spec` of a CRD made for the case (its own group, so cases never share
//! one), its objects custom resources of that CRD; a table about CRDs or their root schema is
//! a CRD created as it is. The table's own expectation is not used here: kubedv is compared
//! with what the API server answers for the same documents.

use serde_json::{json, Value};

use super::crds::request_items;
use crate::{Case, Suite};

macro_rules! table_suite {
    ($name:literal, $file:literal, $about:literal) => {
        Suite { name: $name, mode: "apiserver", about: $about, cases: || cases($name, $file), items: request_items }
    };
}

pub const SUITES: [Suite; 10] = [
    table_suite!("apiextensions-expressions", "validation_expressions", "TestValidationExpressions: rules on objects"),
    table_suite!("apiextensions-openapi", "openapi_validation", "TestValidateCustomResource and kin: OpenAPI checks"),
    table_suite!("apiextensions-optional-old-self", "optional_old_self", "TestOptionalOldSelf: transition rules"),
    table_suite!("apiextensions-ratcheting", "ratcheting", "TestRatcheting: updates"),
    table_suite!("apiextensions-schema-levels", "validation_schema_levels", "rules at every schema level"),
    table_suite!("apiextensions-listtype", "listtype", "TestValidateListSetsAndMaps: list types"),
    table_suite!("apiextensions-reason-fieldpath", "reason_fieldpath", "rules' reason and fieldPath"),
    table_suite!("apiextensions-compilation", "compilation", "TestCelCompilation: rules compiled at CRD creation"),
    table_suite!("apiextensions-cost", "cost_estimation", "TestCostEstimation: CRDs refused or not on estimated cost"),
    table_suite!("apiextensions-crd", "crd_validation", "ValidateCustomResourceDefinition's table: CRDs created"),
];

/// A second table of CRD root schemas, kept with `apiextensions-crd`'s file family.
pub const SCHEMAS: Suite = table_suite!(
    "apiextensions-crd-schema",
    "crd_schema_validation",
    "ValidateCustomResourceDefinitionOpenAPISchema's table: root schemas in CRDs created"
);

/// A CRD of one version (`v1`) with `root` as its schema, in a group of its own.
fn crd(group: &str, root: &Value) -> Value {
    json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": format!("cases.{group}")},
        "spec": {
            "group": group,
            "scope": "Cluster",
            "names": {"plural": "cases", "singular": "case", "kind": "Case", "listKind": "CaseList"},
            "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": root}}],
        },
    })
}

/// The schema as the `spec` property of an object root.
fn wrapped(schema: &Value) -> Value {
    json!({"type": "object", "properties": {"spec": schema}})
}

fn object(group: &str, spec: &Value) -> Value {
    let mut o = json!({"apiVersion": format!("{group}/v1"), "kind": "Case", "metadata": {"name": "case"}});
    if !spec.is_null() {
        o["spec"] = spec.clone();
    }
    o
}

/// A custom resource's request: the case's CRD made first, then the object (an update of `old`
/// when given).
fn resource(group: &str, schema: &Value, obj: &Value, old: Option<&Value>) -> Value {
    let mut input =
        json!({"setup": [crd(group, &wrapped(schema))], "object": object(group, obj), "fieldValidation": "Warn"});
    if let Some(old) = old {
        input["old"] = object(group, old);
    }
    input
}

fn created(crd: Value) -> Value {
    json!({"object": crd, "fieldValidation": "Warn"})
}

fn cases(suite: &str, file: &str) -> Result<Vec<Case>, String> {
    let path = crate::root().join(format!("tests/corpus/apiextensions/{file}.json"));
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let table: Vec<Value> = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let label = suite.trim_start_matches("apiextensions-");
    let mut out = Vec::new();
    for (n, row) in table.iter().enumerate() {
        let id = format!("{file}.json:{}:{}", row["line"], row["name"].as_str().unwrap_or_default());
        let group = |k: usize| format!("c{n}x{k}.{label}.oracle.kubedv.dev");
        let schema = &row["schema"];
        let mut push = |k: usize, input: Value| {
            let id = if k == 0 { id.clone() } else { format!("{id}#{k}") };
            out.push(Case { id, input });
        };
        match file {
            "validation_expressions" => {
                let mut schema = schema.clone();
                let rules: Vec<Value> = row["valid"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .cloned()
                    .chain(row["errors"].as_object().into_iter().flat_map(|m| m.keys().map(|k| json!(k))))
                    .map(|rule| json!({"rule": rule}))
                    .collect();
                schema["x-kubernetes-validations"] = json!(rules);
                push(0, resource(&group(0), &schema, &row["obj"], row.get("oldObj").filter(|o| !o.is_null())));
            }
            "openapi_validation" => {
                if !schema.is_object() {
                    continue;
                }
                let mut objects: Vec<&Value> = row["objects"].as_array().into_iter().flatten().collect();
                objects.extend(row["failingObjects"].as_array().into_iter().flatten().map(|f| &f["object"]));
                if let Some(o) = row.get("object") {
                    objects.push(o);
                }
                let old = row.get("oldObj").filter(|o| !o.is_null());
                for (k, o) in objects.into_iter().enumerate() {
                    push(k, resource(&group(k), schema, o, old));
                }
            }
            "ratcheting" => push(0, resource(&group(0), schema, &row["newObj"], Some(&row["oldObj"]))),
            "optional_old_self" | "validation_schema_levels" | "listtype" | "reason_fieldpath" => {
                if schema.is_object() {
                    push(0, resource(&group(0), schema, &row["obj"], row.get("oldObj").filter(|o| !o.is_null())));
                }
            }
            "compilation" => push(0, created(crd(&group(0), &wrapped(schema)))),
            "cost_estimation" => {
                for (k, key) in ["calcSchema", "setSchema", "schema"].into_iter().enumerate() {
                    if let Some(s) = row.get(key).filter(|s| s.is_object()) {
                        push(k, created(crd(&group(k), &wrapped(s))));
                    }
                }
            }
            "crd_validation" => {
                if row["representable"] == true {
                    push(0, created(row["crd"].clone()));
                }
            }
            "crd_schema_validation" => {
                if schema.is_object() {
                    push(0, created(crd(&group(0), schema)));
                }
            }
            _ => return Err(format!("no suite reads {file}.json")),
        }
    }
    Ok(out)
}
