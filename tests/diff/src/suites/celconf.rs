//! `cel-conformance`: the CEL specification's conformance tests (`tests/conformance/cel-spec`),
//! run by kubedv's conformance runner and by cel-go at the version Kubernetes v1.37.2 builds
//! with. Compared per test: whether each meets the specification's expectation. The tests
//! kubedv skips (protobuf messages, containers) are not compared.

use kubedv_conformance::Outcome;
use serde_json::{json, Value};

use super::files;
use crate::{Case, Item, Suite};

pub const SUITE: Suite = Suite {
    name: "cel-conformance",
    mode: "cel-conformance",
    about: "the CEL specification's conformance tests, kubedv's outcome against cel-go v0.29.2's",
    cases,
    items,
};

fn cases() -> Result<Vec<Case>, String> {
    Ok(files(&["tests/conformance/cel-spec"], &[".textproto"])?
        .into_iter()
        .map(|(path, text)| Case { id: path, input: json!({"text": text}) })
        .collect())
}

fn items(case: &Case, answer: &Value) -> Vec<Item> {
    let Ok(outcomes) = kubedv_conformance::run_file(case.input["text"].as_str().unwrap_or_default()) else {
        return vec![Item { id: case.id.clone(), kubedv: json!("unreadable"), oracle: json!("read") }];
    };
    outcomes
        .into_iter()
        .filter_map(|(name, outcome)| {
            let kubedv = match outcome {
                Outcome::Pass => true,
                Outcome::Fail(_) => false,
                Outcome::Skip(_) => return None,
            };
            let oracle = answer["tests"][&name]["pass"].as_bool();
            Some(Item { id: name, kubedv: json!({"pass": kubedv}), oracle: json!({"pass": oracle}) })
        })
        .collect()
}
