//! Differential runs of kubedv against Kubernetes itself.
//!
//! A [`Suite`] turns inputs kept in the repository (tables, corpora, fixtures) into cases an
//! oracle of `tests/oracle` answers (`oracle <mode>` reads them as JSON lines). kubedv answers
//! the same cases in-process, through the same entries its front ends call; both answers are
//! brought to one comparable shape, and each pair either agrees, is listed with its reason in
//! `tests/oracle/exceptions.json`, or is an unexplained difference.
//!
//! The oracle's answers are recorded (`tests/oracle/answers/<suite>.jsonl`, written only by
//! `kubedv-diff record` from the oracle's own output, each line with the digest of the case it
//! answers), so the comparison runs without Go: `cargo test` compares kubedv with the recorded
//! answers, and `cargo xtask diff` asks the oracle afresh.
//!
//! - [`suites`]: the suites, one module per kind of input;
//! - [`record`]: the recorded answers and the exceptions;
//! - [`compare`]: running a suite and counting agreement.

pub mod compare;
pub mod record;
pub mod suites;

use serde_json::Value;

/// One question for the oracle: `input` is sent as a JSON line (with `"id"` added).
pub struct Case {
    pub id: String,
    pub input: Value,
}

/// One compared answer. A case may hold several (a CEL conformance file holds many tests).
pub struct Item {
    pub id: String,
    pub kubedv: Value,
    pub oracle: Value,
}

/// A suite of cases: where they come from, which oracle answers them and how the two answers
/// are brought to one shape.
pub struct Suite {
    pub name: &'static str,
    /// The oracle's mode (`oracle apiserver`, `oracle yaml`, ...).
    pub mode: &'static str,
    /// What is compared, and from where, in a sentence.
    pub about: &'static str,
    pub cases: fn() -> Result<Vec<Case>, String>,
    /// The compared items of a case, given the oracle's answer.
    pub items: fn(&Case, &Value) -> Vec<Item>,
}

/// The repository's root.
pub fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// 64-bit FNV-1a of a case's JSON text: a recorded answer names the case it answers.
pub fn digest(input: &Value) -> String {
    let text = input.to_string();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// Whether two answers differ only by the `managedFields` the API server prints inside an
/// object's metadata value (`metadata: Invalid value: {...,"managedFields":[...]}: must be
/// empty` of the authorization reviews): the field manager stamps them on the request (its
/// client's name and the request's time), which no manifest holds and kubedv cannot reproduce
/// (docs/fidelity.md). ObjectMeta marshals `managedFields` last, so it is removed as
/// `,"managedFields":[...]`.
pub fn only_request_managed_fields(kubedv: &Value, oracle: &Value) -> bool {
    let marker = r#",\"managedFields\":["#;
    let oracle = oracle.to_string();
    if !oracle.contains(marker) {
        return false;
    }
    let mut out = String::with_capacity(oracle.len());
    let mut rest = oracle.as_str();
    while let Some(at) = rest.find(marker) {
        out.push_str(&rest[..at]);
        let after = &rest[at + marker.len()..];
        let mut depth = 1;
        let mut end = after.len();
        for (i, c) in after.char_indices() {
            match c {
                '[' => depth += 1,
                ']' => depth -= 1,
                _ => {}
            }
            if depth == 0 {
                end = i + 1;
                break;
            }
        }
        rest = &after[end.min(after.len())..];
    }
    out.push_str(rest);
    serde_json::to_string(kubedv).is_ok_and(|k| k == out)
}

/// A CRD the API server cannot decode into its Go types (a schema keyword of another JSON type
/// than its field's: `minLength: true`, `x-kubernetes-embedded-resource: 1`): refused before
/// validation with encoding/json's error alone (`CustomResourceDefinition in version "v1"
/// cannot be handled as a CustomResourceDefinition: json: cannot unmarshal ...`), which
/// kubedv, reading CRDs as JSON, does not reproduce (docs/fidelity.md, CRDs). The
/// differential fuzzer's `crd` path counts these as explained.
pub fn crd_decoding(oracle: &Value) -> bool {
    const PREFIX: &str = "CustomResourceDefinition in version \"v1\" cannot be handled as a CustomResourceDefinition: json: cannot unmarshal ";
    matches!(oracle.get("setup").and_then(Value::as_array).map(Vec::as_slice), Some([Value::String(m)]) if m.starts_with(PREFIX))
}

/// A CEL compile error kubedv and cel-go both report as a syntax error at the same place (the
/// first error's line and column), worded or continued differently: ANTLR's recovery (its
/// single-token deletion, `extraneous input`; `no viable alternative`; the errors it reports
/// after recovering, and its lexer's `token recognition error at:` text), which kubedv's parser
/// does not reproduce (docs/fidelity.md, CEL). The differential fuzzer counts these as
/// explained; a difference in where the first error is, or in anything else, is a find.
pub fn same_first_syntax_error(kubedv: &Value, oracle: &Value) -> bool {
    let first = |v: &Value| -> Option<String> {
        let text = v.get("compile")?.as_str()?;
        let line = text.lines().next()?;
        let (place, message) = line.strip_prefix("ERROR: <input>:")?.split_once(": ")?;
        message.starts_with("Syntax error: ").then(|| place.to_string())
    };
    matches!((first(kubedv), first(oracle)), (Some(k), Some(o)) if k == o)
}

#[cfg(test)]
mod tests {
    use super::only_request_managed_fields;
    use serde_json::json;

    #[test]
    fn managed_fields_of_the_request_alone_are_explained() {
        let kubedv = json!(["metadata: Invalid value: {\"name\":\"x\"}: must be empty"]);
        let oracle = json!(["metadata: Invalid value: {\"name\":\"x\",\"managedFields\":[{\"manager\":\"m\",\"time\":\"2026-12-07T10:00:00Z\",\"fieldsV1\":{\"f:metadata\":{}}}]}: must be empty"]);
        assert!(only_request_managed_fields(&kubedv, &oracle));
        let other = json!(["metadata: Invalid value: {\"name\":\"y\"}: must be empty"]);
        assert!(!only_request_managed_fields(&other, &oracle));
        assert!(!only_request_managed_fields(&other, &kubedv));
    }
}
