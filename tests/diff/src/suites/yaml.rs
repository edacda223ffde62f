//! `yaml`: every YAML file of the repository's corpora and fixtures, and the reading cases of
//! `tests/oracle/cases/yaml` (go-yaml v2's leniencies and refusals, kubectl's splitting of a
//! stream, JSON streams), read as kubectl reads a manifest file (cli-runtime's StreamVisitor
//! over sigs.k8s.io/yaml) and as kubedv reads it.
//! Compared: the documents read, as JSON values, and whether reading stopped at an error (the
//! error's words are not compared: kubedv's give a line and column, kubectl's do not).

use serde_json::{json, Value};

use super::files;
use crate::{Case, Item, Suite};

pub const SUITE: Suite = Suite {
    name: "yaml",
    mode: "yaml",
    about: "YAML files of tests/corpus, cli/tests/fixtures, www/test and tests/oracle/cases/yaml, read as kubectl reads them",
    cases,
    items,
};

fn cases() -> Result<Vec<Case>, String> {
    Ok(files(&["tests/corpus", "cli/tests/fixtures", "www/test", "tests/oracle/cases/yaml"], &[".yaml", ".yml"])?
        .into_iter()
        .map(|(path, text)| Case { id: path, input: json!({"text": text}) })
        .collect())
}

/// kubedv's reading, as `kubedv check` reads a file: each piece of the file in turn
/// (`positions::split`, then the piece's value), empty and `null` documents skipped as kubectl
/// skips them, up to the first that cannot be read.
fn kubedv(text: &str) -> Value {
    let mut docs = Vec::new();
    for piece in kubedv_input::positions::split(text) {
        match kubedv_input::piece(&piece) {
            Ok(Value::Null) => {}
            Ok(v) => docs.push(v),
            Err(_) => return json!({"documents": docs, "error": true}),
        }
    }
    json!({"documents": docs, "error": false})
}

pub(super) fn items(case: &Case, answer: &Value) -> Vec<Item> {
    let oracle = json!({"documents": answer["documents"], "error": !answer["error"].is_null()});
    vec![Item { id: case.id.clone(), kubedv: kubedv(case.input["text"].as_str().unwrap_or_default()), oracle }]
}
