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
        "prune" => include_str!("../../tests/corpus/apiextensions/prune.json"),
        "defaulting" => include_str!("../../tests/corpus/apiextensions/defaulting.json"),
        _ => include_str!("../../tests/corpus/apiextensions/listtype.json"),
    };
    serde_json::from_str(text).unwrap()
}

fn check_line(go: &str, line: u64, name: &str) {
    let at = go.lines().skip(line as usize - 1).take(3).collect::<Vec<_>>().join(" ");
    assert!(at.contains(&format!("{}", json!(name))), "line {line} does not start {name:?}");
}

#[test]
fn test_prune() {
    const GO: &str = include_str!("../../tests/corpus/apiextensions/pruning_algorithm_test.go");
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
    const GO: &str = include_str!("../../tests/corpus/apiextensions/defaulting_algorithm_test.go");
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
    const GO: &str = include_str!("../../tests/corpus/apiextensions/listtype_validation_test.go");
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
