//! Reading objects from text: JSON (one value) or YAML (one or more `---`-separated documents).
//! The CLI, the npm package and the playground all read objects through here, so a manifest is
//! accepted or refused the same way everywhere, and every refusal carries a line and column a
//! person can go to.

use core::fmt;

pub mod files;
pub mod manifests;
pub mod positions;
mod yaml;

use serde_json::Value;

/// Why text could not be read as an object, and where (1-based; absent when the parser gives
/// no position, e.g. at the end of the input).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    pub line: Option<usize>,
    pub column: Option<usize>,
    /// The parser's sentence, prefixed with `invalid JSON: ` or `invalid YAML: `.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (Some(line), Some(column)) => write!(f, "{line}:{column}: {}", self.message),
            _ => f.write_str(&self.message),
        }
    }
}

/// Every non-empty document in `text`. JSON-looking text that is not valid JSON may still be
/// flow-style YAML (`{spec: {a: 1}}`); when neither reads it, the JSON error is the useful one.
pub fn documents(text: &str) -> Result<Vec<Value>, ParseError> {
    let trimmed = text.trim_start();
    let mut json_error = None;
    if trimmed.starts_with('{') || trimmed.starts_with('[') {
        match serde_json::from_str(text) {
            Ok(value) => return Ok(vec![value]),
            Err(e) => {
                // serde_json says column 0 right after a newline: the line's first column.
                let (line, column) = inside(text, e.line(), e.column());
                json_error =
                    Some(ParseError { line: Some(line), column: Some(column), message: format!("invalid JSON: {e}") })
            }
        }
    }
    yaml::documents(text).map_err(|e| {
        json_error.unwrap_or_else(|| {
            let at = e.line.zip(e.column).map(|(l, c)| inside(text, l, c));
            ParseError { line: at.map(|a| a.0), column: at.map(|a| a.1), ..e }
        })
    })
}

/// A parser's position made one a person can go to: serde_json's column 0 (right after a
/// newline) is the line's first column, and the YAML parser's end of input (a line past the
/// last, as if the text ended with a newline) is the end of the last line. Lines break at CR LF, LF and
/// a lone CR, as in YAML.
fn inside(text: &str, line: usize, column: usize) -> (usize, usize) {
    let normalized = text.replace("\r\n", "\n");
    let lines: Vec<&str> = normalized.split(['\n', '\r']).collect();
    match lines.get(line.max(1) - 1) {
        Some(_) => (line.max(1), column.max(1)),
        None => (lines.len(), lines.last().map_or(0, |l| l.chars().count()) + 1),
    }
}

/// The first document in `text`; `null` when there is none (an empty editor).
pub fn document(text: &str) -> Result<Value, ParseError> {
    Ok(documents(text)?.into_iter().next().unwrap_or(Value::Null))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_and_yaml_read_the_same_object() {
        let json = document(r#"{"spec": {"replicas": 3, "name": "a"}}"#).unwrap();
        let yaml = document("spec:\n  replicas: 3\n  name: a\n").unwrap();
        assert_eq!(json, yaml);
    }

    #[test]
    fn flow_yaml_that_is_not_json_is_read() {
        assert_eq!(document("{spec: {a: 1}}").unwrap(), serde_json::json!({"spec": {"a": 1}}));
    }

    #[test]
    fn documents_skip_empty_ones() {
        let docs = documents("---\na: 1\n---\n---\nb: 2\n").unwrap();
        assert_eq!(docs, vec![serde_json::json!({"a": 1}), serde_json::json!({"b": 2})]);
        assert_eq!(document("").unwrap(), Value::Null);
    }

    #[test]
    fn errors_carry_their_position() {
        let e = document("a: 1\nb: [1, 2\n").unwrap_err();
        assert!(e.message.starts_with("invalid YAML: "), "{e}");
        assert!(e.line.is_some() && e.column.is_some(), "{e:?}");
        let e = document("{\"a\": 1,\n \"b\": ]}").unwrap_err();
        assert_eq!((e.line, e.column), (Some(2), Some(7)));
        assert_eq!(e.to_string(), "2:7: invalid JSON: expected value at line 2 column 7");
        // Cut short after a newline: serde_json's column 0 is the line's first column.
        let e = document("{\"a\": [1,\n").unwrap_err();
        assert_eq!((e.line, e.column), (Some(2), Some(1)), "{e}");
        // The YAML parser's end of input is a line past the last: the end of the last line.
        let e = document("a: 1\n&a ").unwrap_err();
        assert_eq!((e.line, e.column), (Some(2), Some(4)), "{e}");
    }
}

#[cfg(test)]
mod limits {
    use super::*;

    #[test]
    fn deep_nesting_is_an_error_not_a_stack_overflow() {
        let deep = "[".repeat(100_000);
        let e = document(&deep).unwrap_err();
        assert!(e.message.contains("recursion limit exceeded"), "{e}");
        let deep_block = (0..1_000).map(|i| format!("{}a:\n", " ".repeat(i))).collect::<String>();
        assert!(document(&deep_block).is_err());
    }

    #[test]
    fn alias_bombs_are_refused() {
        // The "billion laughs": nine levels of nine aliases each.
        let mut text =
            String::from("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
        for level in 1..9u8 {
            let (name, prev) = ((b'a' + level) as char, (b'a' + level - 1) as char);
            let refs = vec![format!("*{prev}"); 9].join(",");
            text.push_str(&format!("{name}: &{name} [{refs}]\n"));
        }
        let e = document(&text).unwrap_err();
        // go-yaml v2.4.0 decode.go `allowedAliasRatio`, with its words.
        assert!(e.message.contains("document contains excessive aliasing"), "{e}");
    }
}
