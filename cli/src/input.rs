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
    let trimmed = text.trim_start();
    if trimmed.starts_with('{') || trimmed.starts_with('[') {
        return serde_json::from_str(text)
            .map(|v| vec![v])
            .map_err(|e| UsageError(format!("{path}:{}:{}: invalid JSON: {e}", e.line(), e.column())));
    }
    let mut docs = Vec::new();
    for doc in serde_norway::Deserializer::from_str(text) {
        let value = Value::deserialize(doc).map_err(|e| {
            let at = e.location().map(|l| format!("{}:{}:", l.line(), l.column())).unwrap_or_default();
            UsageError(format!("{path}:{at} invalid YAML: {e}"))
        })?;
        if !value.is_null() {
            docs.push(value);
        }
    }
    if docs.is_empty() {
        return Err(UsageError(format!("{path}: no object found (expected JSON or YAML)")));
    }
    Ok(docs)
}
