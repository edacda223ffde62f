//! What the API server does to a custom resource before its rules, against apiextensions'
//! own test tables (kubernetes/apiextensions-apiserver at 1aa2717a; the Go files and their
//! tables as JSON in `tests/corpus/apiextensions`):
//! - `pkg/apiserver/schema/pruning/algorithm_test.go` `TestPrune` (`prune.json`): the pruned
//!   object exactly, the pruned paths exactly (sorted, as the algorithm returns them), and a
//!   second prune that changes nothing;
//! - `pkg/apiserver/schema/defaulting/algorithm_test.go` `TestDefault` (`defaulting.json`): the
//!   defaulted object exactly (an integer and a float differ, as Go's `DeepEqual` has them);
//! - `pkg/apiserver/schema/listtype/validation_test.go` `TestValidateListSetsAndMaps`
//!   (`listtype.json`): the duplicate errors by type and field, in any order.

use kubedv_core::crd::{decode, openapi};
use kubedv_core::field::Path;
use serde_json::{json, Value as Json};

fn table(name: &str) -> Vec<Json> {
    let text = match name {
        "prune" => corpus!("apiextensions/prune.json"),
        "defaulting" => corpus!("apiextensions/defaulting.json"),
        _ => corpus!("apiextensions/listtype.json"),
    };
    serde_json::from_str(text).unwrap()
}

fn check_line(go: &str, line: u64, name: &str) {
    let at = go.lines().skip(line as usize - 1).take(3).collect::<Vec<_>>().join(" ");
    assert!(at.contains(&format!("{}", json!(name))), "line {line} does not start {name:?}");
}

#[test]
fn test_prune() {
    const GO: &str = corpus!("apiextensions/pruning_algorithm_test.go");
    let rows = table("prune");
    let mut failures = Vec::new();
    for row in &rows {
        let (line, name) = (row["line"].as_u64().unwrap(), row["name"].as_str().unwrap());
        check_line(GO, line, name);
        let root = row["isResourceRoot"] == json!(true);
        let schema = Some(&row["schema"]).filter(|s| !s.is_null());
        let mut object = row["json"].clone();
        let mut pruned = Vec::new();
        decode::prune(&mut object, schema, root, "", &mut pruned);
        pruned.sort();
        let want: Vec<String> =
            row["expectedPruned"].as_array().unwrap().iter().map(|p| p.as_str().unwrap().to_string()).collect();
        if object != row["expectedObject"] || pruned != want {
            failures.push(format!(
                "line {line} {name}:\n    object {object}\n    want   {}\n    pruned {pruned:?}\n    want   {want:?}",
                row["expectedObject"]
            ));
        }
        let again = object.clone();
        let mut more = Vec::new();
        decode::prune(&mut object, schema, root, "", &mut more);
        if object != again || !more.is_empty() {
            failures.push(format!("line {line} {name}: a second prune changed it ({more:?})"));
        }
    }
    assert_eq!(rows.len(), 11);
    assert!(failures.is_empty(), "{} differ:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn test_default() {
    const GO: &str = corpus!("apiextensions/defaulting_algorithm_test.go");
    let rows = table("defaulting");
    let mut failures = Vec::new();
    for row in &rows {
        let (line, name) = (row["line"].as_u64().unwrap(), row["name"].as_str().unwrap());
        check_line(GO, line, name);
        let mut object = row["json"].clone();
        if !row["schema"].is_null() {
            decode::apply_defaults(&mut object, &row["schema"]);
        }
        if object != row["expected"] {
            failures.push(format!("line {line} {name}: {object}, want {}", row["expected"]));
        }
    }
    assert_eq!(rows.len(), 13);
    assert!(failures.is_empty(), "{} differ:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn test_validate_list_sets_and_maps() {
    const GO: &str = corpus!("apiextensions/listtype_validation_test.go");
    let rows = table("listtype");
    let mut failures = Vec::new();
    for row in &rows {
        let (line, name) = (row["line"].as_u64().unwrap(), row["name"].as_str().unwrap());
        check_line(GO, line, name);
        let mut errors = Vec::new();
        if !row["schema"].is_null() {
            openapi::list_types(&Path::named("root"), &row["obj"], &row["schema"], &mut errors);
        }
        let mut got: Vec<String> =
            errors.iter().map(|e| format!("{}: {}", e.field, e.text().split(": ").nth(1).unwrap_or(""))).collect();
        let mut want: Vec<String> = row["errors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| format!("{}: {}", e["field"].as_str().unwrap(), e["type"].as_str().unwrap()))
            .collect();
        got.sort();
        want.sort();
        if got != want {
            failures.push(format!("line {line} {name}:\n    got  {got:?}\n    want {want:?}"));
        }
    }
    assert_eq!(rows.len(), 17);
    assert!(failures.is_empty(), "{} differ:\n{}", failures.len(), failures.join("\n"));
}

/// apiextensions' `TestValidateCustomResource` (pkg/apiserver/validation/validation_test.go at
/// 1aa2717a, its table in `openapi_validation.json`): kube-openapi's checks of a custom resource
/// against its schema, in the API server's words. As the test checks: an object that passes
/// gives no error; a failing one gives exactly the expected error texts (as a set), from the
/// OpenAPI checks and, for the cases with rules, the rules (on the CRD the schema is the root of;
/// the CRD's own checks of the object, which the test does not run, are left out).
#[test]
fn test_validate_custom_resource() {
    const GO: &str = corpus!("apiextensions/validation_validation_test.go");
    let rows: Vec<Json> = serde_json::from_str(corpus!("apiextensions/openapi_validation.json")).unwrap();
    let rows: Vec<&Json> = rows.iter().filter(|r| r["test"] == "TestValidateCustomResource").collect();
    let mut failures = Vec::new();
    let errors_of = |schema: &Json, object: &Json, old: Option<&Json>| -> Vec<String> {
        let mut errors = Vec::new();
        openapi::validate(object, schema, None, &mut errors);
        let mut texts: Vec<String> = errors.iter().map(|e| e.text()).collect();
        if schema.to_string().contains("x-kubernetes-validations") {
            texts.extend(rule_errors(schema, object, old));
        }
        texts.sort();
        texts.dedup();
        texts
    };
    for row in &rows {
        let (line, name) = (row["line"].as_u64().unwrap(), row["name"].as_str().unwrap());
        check_line(GO, line, name);
        let schema = &row["schema"];
        let olds = row["oldObjects"].as_array();
        for (i, object) in row["objects"].as_array().into_iter().flatten().enumerate() {
            let old = olds.filter(|o| o.len() == row["objects"].as_array().unwrap().len()).map(|o| &o[i]);
            let got = errors_of(schema, object, old);
            if !got.is_empty() {
                failures.push(format!("line {line} {name}: {object} should pass: {got:?}"));
            }
        }
        for failing in row["failingObjects"].as_array().into_iter().flatten() {
            let got = errors_of(schema, &failing["object"], failing.get("oldObject"));
            let mut want: Vec<String> =
                failing["expectedErrors"].as_array().unwrap().iter().map(|e| e.as_str().unwrap().to_string()).collect();
            want.sort();
            want.dedup();
            if got != want {
                failures.push(format!(
                    "line {} {name} {}:\n    got  {got:?}\n    want {want:?}",
                    failing["line"], failing["object"]
                ));
            }
        }
    }
    assert_eq!(rows.len(), 20);
    assert!(failures.is_empty(), "{} differ:\n{}", failures.len(), failures.join("\n"));
}

/// The errors of a schema's rules over an object (and an old one): a CRD whose root the schema
/// is, its errors less the OpenAPI checks' and the type and metadata checks of a resource.
fn rule_errors(schema: &Json, object: &Json, old: Option<&Json>) -> Vec<String> {
    // A CRD's list-map keys must be required (or defaulted); the test's schema need not.
    fn keys_required(s: &mut Json) {
        let Some(map) = s.as_object_mut() else { return };
        if let (Some(keys), Some(items)) = (map.get("x-kubernetes-list-map-keys").cloned(), map.get_mut("items")) {
            items["required"] = keys;
        }
        for v in map.values_mut() {
            keys_required(v);
        }
    }
    let mut schema = schema.clone();
    keys_required(&mut schema);
    let crd = json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {"group": "example.com", "scope": "Namespaced",
            "names": {"kind": "Widget", "plural": "widgets", "singular": "widget", "listKind": "WidgetList"},
            "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": &schema}}]}
    });
    let crd = kubedv_core::crd::Crd::load_at(&crd, None, u32::MAX).unwrap_or_else(|e| panic!("{e:?}"));
    let resource = |o: &Json| {
        let mut o = o.clone();
        o["apiVersion"] = json!("example.com/v1");
        o["kind"] = json!("Widget");
        o["metadata"] = json!({"name": "w", "namespace": "default"});
        o
    };
    let mut openapi_errors = Vec::new();
    openapi::validate(object, &schema, None, &mut openapi_errors);
    let openapi_texts: Vec<String> = openapi_errors.iter().map(|e| e.text()).collect();
    let old = old.map(resource);
    crd.validate(&resource(object), old.as_ref())
        .iter()
        .map(|e| e.text())
        .filter(|t| {
            !openapi_texts.contains(t)
                && !t.starts_with("metadata")
                && !t.starts_with("<nil>: Invalid value: null: some validation rules")
        })
        .collect()
}

/// The rest of the same file's and `ratcheting_test.go`'s cases (their asserts written out as
/// rows, each with its line): `TestItemsProperty` (a field named `items` is no schema keyword),
/// and the OpenAPI checks' ratcheting (`TestScalarRatcheting`, `TestObjectScalarFieldsRatcheting`,
/// `TestObjectObjectFieldsRatcheting`, `TestNumericFormatRatcheting`: an update is valid when
/// what fails is unchanged since the old object). As the tests check: valid or not.
#[test]
fn items_property_and_openapi_ratcheting() {
    const GO: &str = corpus!("apiextensions/validation_validation_test.go");
    const RATCHETING_GO: &str = corpus!("apiextensions/validation_ratcheting_test.go");
    let rows: Vec<Json> = serde_json::from_str(corpus!("apiextensions/openapi_validation.json")).unwrap();
    let mut failures = Vec::new();
    let mut checked = 0;
    for row in rows.iter().filter(|r| r["test"] != "TestValidateCustomResource") {
        let line = row["line"].as_u64().unwrap();
        let (go, old, want_valid) = if row["test"] == "TestItemsProperty" {
            check_line(GO, line, row["name"].as_str().unwrap());
            (GO, None, !row["wantErr"].as_bool().unwrap())
        } else {
            let at = RATCHETING_GO.lines().nth(line as usize - 1).unwrap_or("");
            assert!(at.contains("ValidateUpdate"), "line {line} is no assert: {at}");
            (RATCHETING_GO, Some(&row["oldObj"]), row["expectValid"].as_bool().unwrap())
        };
        let _ = go;
        checked += 1;
        let mut errors = Vec::new();
        openapi::validate(&row["object"], &row["schema"], old, &mut errors);
        if errors.is_empty() != want_valid {
            failures.push(format!(
                "{} line {line}: valid {}, want {want_valid}: {errors:?}",
                row["test"],
                errors.is_empty()
            ));
        }
    }
    assert_eq!(checked, 13);
    assert!(failures.is_empty(), "{} differ:\n{}", failures.len(), failures.join("\n"));
}
