//! apiextensions' estimated rule costs by schema shape: `TestCostEstimation` and
//! `TestMetadataNameCostIsBounded` in `pkg/apiserver/schema/cel/compilation_test.go`
//! (kubernetes/apiextensions-apiserver at 1aa2717a), kept as JSON in
//! `tests/corpus/apiextensions/cost_estimation.json` (each case's two generated schemas: without
//! size limits, "calc", and with its `setMaxElements` as `maxItems`, `maxProperties` or
//! `maxLength`, "set"). As `schemaChecker` checks: the rule compiles, and its `MaxCost` (the
//! estimate's maximum, the schema a node of its own, not a resource root) equals the expected
//! cost, or is at least the expected lower bound where the case says the limit is exceeded.

use kubedv_core::cel::estimate::{estimate, sized_type};
use kubedv_core::cel::Program;
use kubedv_core::crd::Crd;
use serde_json::{json, Value as Json};

const TABLE: &str = corpus!("apiextensions/cost_estimation.json");
const GO: &str = corpus!("apiextensions/compilation_test.go");

/// The rule of a generated schema and its estimated maximum cost.
fn max_cost(schema: &Json) -> Result<(String, u64), String> {
    let rule = schema["x-kubernetes-validations"][0]["rule"].as_str().ok_or("no rule")?.to_string();
    let mut bare = schema.clone();
    bare.as_object_mut().unwrap().remove("x-kubernetes-validations");
    let program = Program::compile(&rule).map_err(|e| e.to_string())?;
    let sized = sized_type(&bare).ok_or("schema has no CEL type")?;
    Ok((rule, estimate(&program, &[("self", sized)]).max))
}

#[test]
fn test_cost_estimation() {
    let rows: Vec<Json> = serde_json::from_str(TABLE).unwrap();
    let mut failures = Vec::new();
    let mut checked = 0;
    for row in rows.iter().filter(|r| r["test"] == "TestCostEstimation") {
        let line = row["line"].as_u64().unwrap();
        let name = row["name"].as_str().unwrap();
        let go = GO.lines().skip(line as usize - 1).take(3).collect::<Vec<_>>().join(" ");
        assert!(go.contains(&format!("{}", json!(name))), "line {line} does not start {name:?}");
        for (schema, exact, at_least) in [
            ("calcSchema", "expectedCalcCost", "expectCalcCostExceedsLimit"),
            ("setSchema", "expectedSetCost", "expectedSetCostExceedsLimit"),
        ] {
            checked += 1;
            match max_cost(&row[schema]) {
                Err(e) => failures.push(format!("line {line} {name} ({schema}): {e}")),
                Ok((rule, cost)) => {
                    if let Some(want) = row[exact].as_u64().filter(|w| *w > 0) {
                        if cost != want {
                            failures.push(format!("line {line} {name} ({schema}) {rule:?}: {cost}, want {want}"));
                        }
                    }
                    if let Some(floor) = row[at_least].as_u64().filter(|w| *w > 0) {
                        if cost < floor {
                            failures
                                .push(format!("line {line} {name} ({schema}) {rule:?}: {cost}, want at least {floor}"));
                        }
                    }
                }
            }
        }
    }
    assert_eq!(checked, 136, "68 cases, two schemas each");
    assert!(failures.is_empty(), "{} of {checked} differ:\n{}", failures.len(), failures.join("\n"));
}

/// `TestMetadataNameCostIsBounded`: a rule on a resource root's `metadata.name` or
/// `metadata.generateName` is estimated with the name's bounded length (253), not the request
/// size: at most 10,000. Compiled as the CRD's root rule.
#[test]
fn metadata_name_cost_is_bounded() {
    let rows: Vec<Json> = serde_json::from_str(TABLE).unwrap();
    let cases: Vec<&Json> = rows.iter().filter(|r| r["test"] == "TestMetadataNameCostIsBounded").collect();
    assert_eq!(cases.len(), 2);
    for row in cases {
        let crd = json!({
            "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "widgets.example.com"},
            "spec": {"group": "example.com", "scope": "Namespaced",
                "names": {"kind": "Widget", "plural": "widgets", "singular": "widget", "listKind": "WidgetList"},
                "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": row["schema"]}}]}
        });
        let crd = Crd::load_at(&crd, None, u32::MAX).unwrap_or_else(|e| panic!("{}: {e:?}", row["name"]));
        let cost = crd.rules()[0].estimated_cost;
        assert!(cost > 0 && cost <= 10_000, "{}: {cost}", row["name"]);
    }
}
