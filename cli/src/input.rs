//! Reading input files: Go sources as text, objects as JSON or (multi-document) YAML. Errors
//! name the file and position so a person can fix them.

use serde::Deserialize;
use serde_json::Value;

use crate::UsageError;

/// Reads a whole file (`-` is standard input).
pub fn read(path: &str) -> Result<String, UsageError> {
    if path == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s)
            .map_err(|e| UsageError(format!("cannot read standard input: {e}")))?;
        return Ok(s);
    }
    std::fs::read_to_string(path).map_err(|e| UsageError(format!("cannot read {path}: {e}")))
}

/// Parses objects: JSON (one value) or YAML (one or more `---`-separated documents; empty
/// documents are skipped).
pub fn objects(path: &str, text: &str) -> Result<Vec<Value>, UsageError> {
    // JSON-looking text may still be flow-style YAML (`{spec: {a: 1}}`); if neither reads it,
    // the JSON error is the useful one.
    let trimmed = text.trim_start();
    let mut json_error = None;
    if trimmed.starts_with('{') || trimmed.starts_with('[') {
        match serde_json::from_str(text) {
            Ok(v) => return Ok(vec![v]),
            Err(e) => json_error = Some(UsageError(format!("{path}:{}:{}: invalid JSON: {e}", e.line(), e.column()))),
        }
    }
    let mut docs = Vec::new();
    for doc in serde_norway::Deserializer::from_str(text) {
        let value = match Value::deserialize(doc) {
            Ok(v) => v,
            Err(_) if json_error.is_some() => return Err(json_error.take().expect("checked")),
            Err(e) => {
                let at = e.location().map(|l| format!("{}:{}:", l.line(), l.column())).unwrap_or_default();
                return Err(UsageError(format!("{path}:{at} invalid YAML: {e}")));
            }
        };
        if !value.is_null() {
            docs.push(value);
        }
    }
    if docs.is_empty() {
        return Err(UsageError(format!("{path}: no object found (expected JSON or YAML)")));
    }
    Ok(docs)
}
