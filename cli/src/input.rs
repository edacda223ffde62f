//! Reading input files: Go sources as text, objects as JSON or (multi-document) YAML. Errors
//! name the file and position so a person can fix them.

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
/// documents are skipped). Errors read `path:line:column: invalid YAML: ...`.
pub fn objects(path: &str, text: &str) -> Result<Vec<Value>, UsageError> {
    let docs = kubedv_input::documents(text).map_err(|e| match e.line {
        Some(_) => UsageError(format!("{path}:{e}")),
        None => UsageError(format!("{path}: {e}")),
    })?;
    if docs.is_empty() {
        return Err(UsageError(format!("{path}: no object found (expected JSON or YAML)")));
    }
    Ok(docs)
}
