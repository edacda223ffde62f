//! The recorded oracle answers and the explained exceptions.
//!
//! `tests/oracle/answers/<suite>.jsonl`: a first line `{"suite", "oracle"}` naming the suite
//! and the oracle's version (`oracle version`), then one line per case
//! `{"id", "digest", "answer"}`. Only [`write`] makes these files, from the oracle's output:
//! never edit one by hand.
//!
//! `tests/oracle/exceptions.json`: `[{"suite", "id", "reason"}]`, each a difference kept on
//! purpose or not yet fixed, with why.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde_json::{json, Value};

use crate::{digest, root, Case};

/// Where a suite's answers are: `tests/oracle/answers/`, or the directory `KUBEDV_DIFF_ANSWERS`
/// names (`cargo xtask diff` without `--record` keeps fresh answers in `target/oracle/answers`).
pub fn answers_path(suite: &str) -> PathBuf {
    let dir =
        std::env::var_os("KUBEDV_DIFF_ANSWERS").map_or_else(|| root().join("tests/oracle/answers"), PathBuf::from);
    dir.join(format!("{suite}.jsonl"))
}

/// A suite's recorded answers: the oracle's version and, by case id, (digest, answer).
pub struct Recorded {
    pub oracle: String,
    pub answers: BTreeMap<String, (String, Value)>,
}

/// A suite's recorded answers; none (every case then stale) when nothing was recorded yet.
pub fn read(suite: &str) -> Result<Recorded, String> {
    let path = answers_path(suite);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(Recorded { oracle: String::new(), answers: BTreeMap::new() });
        }
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let mut lines = text.lines();
    let head: Value = serde_json::from_str(lines.next().unwrap_or(""))
        .map_err(|e| format!("{}: the first line: {e}", path.display()))?;
    let mut answers = BTreeMap::new();
    for (n, line) in lines.enumerate() {
        let v: Value = serde_json::from_str(line).map_err(|e| format!("{}:{}: {e}", path.display(), n + 2))?;
        let id = v["id"].as_str().unwrap_or_default().to_string();
        answers.insert(id, (v["digest"].as_str().unwrap_or_default().to_string(), v["answer"].clone()));
    }
    Ok(Recorded { oracle: head["oracle"].as_str().unwrap_or_default().to_string(), answers })
}

/// Writes a suite's answers from the oracle's output (one JSON line per case, with `"id"`).
pub fn write(suite: &str, oracle_version: &str, cases: &[Case], oracle_output: &str) -> Result<usize, String> {
    let mut by_id: BTreeMap<String, Value> = BTreeMap::new();
    for line in oracle_output.lines().filter(|l| !l.trim().is_empty()) {
        let mut v: Value = serde_json::from_str(line).map_err(|e| format!("the oracle's output: {e}"))?;
        let id = v["id"].as_str().unwrap_or_default().to_string();
        if let Some(m) = v.as_object_mut() {
            m.remove("id");
        }
        by_id.insert(id, v);
    }
    let mut out = json!({"suite": suite, "oracle": oracle_version}).to_string();
    out.push('\n');
    for c in cases {
        let answer = by_id.remove(&c.id).ok_or_else(|| format!("the oracle gave no answer for {}", c.id))?;
        out.push_str(&json!({"id": c.id, "digest": digest(&c.input), "answer": answer}).to_string());
        out.push('\n');
    }
    let path = answers_path(suite);
    std::fs::create_dir_all(path.parent().unwrap()).map_err(|e| e.to_string())?;
    std::fs::write(&path, out).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(cases.len())
}

/// The explained exceptions, by (suite, item id): the reason.
pub fn exceptions() -> Result<BTreeMap<(String, String), String>, String> {
    let path = root().join("tests/oracle/exceptions.json");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let list: Vec<Value> = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = BTreeMap::new();
    for e in list {
        let key =
            (e["suite"].as_str().unwrap_or_default().to_string(), e["id"].as_str().unwrap_or_default().to_string());
        let reason = e["reason"].as_str().unwrap_or_default().to_string();
        if reason.is_empty() {
            return Err(format!("{}: the exception {key:?} gives no reason", path.display()));
        }
        out.insert(key, reason);
    }
    Ok(out)
}
