//! Reading objects from text as kubectl reads a manifest file: JSON (one or more values) or YAML
//! (one or more `---`-separated documents).
//! The CLI, the npm package and the playground all read objects through here, so a manifest is
//! accepted or refused the same way everywhere, and every refusal carries a line and column a
//! person can go to.

use core::fmt;

pub mod crd_catalog;
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

/// Every non-empty document in `text`, as kubectl reads a manifest file: the pieces
/// [`positions::split`] finds (JSON values one after another when the text begins with `{`,
/// else YAML split at `---` lines), each read on its own ([`piece`]), `null` ones skipped, up
/// to the first that cannot be read.
pub fn documents(text: &str) -> Result<Vec<Value>, ParseError> {
    let mut docs = Vec::new();
    let mut after_json = text.trim_start().starts_with('{');
    for p in positions::split(text) {
        match read_piece(&p) {
            Ok(Some(v)) => docs.push(v),
            Ok(None) => {}
            // Where kubectl went on with YAML after JSON that did not parse, its error is the
            // JSON one when the YAML does not read either (and the useful one).
            Err(_) if after_json && !p.json => return Err(json_error(text)),
            Err(e) => {
                // A piece that starts inside a line (a JSON value after another): its first
                // line's columns are the line's from there on.
                let start = p.text.as_ptr() as usize - text.as_ptr() as usize;
                let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
                let column = match e.line {
                    Some(1) => e.column.map(|c| c + text[line_start..start].chars().count()),
                    _ => e.column,
                };
                let shift = p.line - 1;
                return Err(ParseError {
                    line: e.line.map(|l| l + shift),
                    column,
                    message: positions::shift_lines(&e.message, shift),
                });
            }
        }
        after_json &= p.json;
    }
    Ok(docs)
}

/// A piece of a stream ([`positions::split`]) read as kubectl reads it: a JSON stream's value
/// as JSON, else YAML as go-yaml v2 reads it (the first document); `null` when it has none.
/// Positions are the piece's own.
pub fn piece(p: &positions::Piece<'_>) -> Result<Value, ParseError> {
    read_piece(p).map(|v| v.unwrap_or(Value::Null))
}

fn read_piece(p: &positions::Piece<'_>) -> Result<Option<Value>, ParseError> {
    if p.json {
        return match serde_json::from_str::<Value>(p.text) {
            Ok(v) => Ok(Some(v).filter(|v| !v.is_null())),
            Err(e) => {
                // serde_json says column 0 right after a newline: the line's first column.
                let (line, column) = inside(p.text, e.line(), e.column());
                Err(ParseError { line: Some(line), column: Some(column), message: format!("invalid JSON: {e}") })
            }
        };
    }
    yaml::document(p.text, p.separated).map_err(|e| {
        let at = e.line.zip(e.column).map(|(l, c)| inside(p.text, l, c));
        ParseError { line: at.map(|a| a.0), column: at.map(|a| a.1), ..e }
    })
}

/// The JSON error kubectl stops a JSON stream with (the text read as one value: the first that
/// does not parse, or what follows the first).
fn json_error(text: &str) -> ParseError {
    let e = serde_json::from_str::<Value>(text).err();
    let (line, column) = e.as_ref().map_or((1, 1), |e| inside(text, e.line(), e.column()));
    let message = e.map_or_else(|| String::from("invalid JSON"), |e| format!("invalid JSON: {e}"));
    ParseError { line: Some(line), column: Some(column), message }
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
mod kubectl {
    use super::*;
    use serde_json::json;

    fn read(text: &str) -> Result<Vec<Value>, String> {
        documents(text).map_err(|e| e.to_string())
    }

    /// Issue 42's two leniencies of real manifests: go-yaml v2 (libyaml) checks no
    /// indentation inside a quoted scalar or a flow collection.
    #[test]
    fn quoted_scalars_and_flow_collections_may_go_below_their_key() {
        assert_eq!(read("data:\n  k: \"abc\ndef\"\n"), Ok(vec![json!({"data": {"k": "abc def"}})]));
        assert_eq!(read("data:\n  k: 'abc\n  def'\n"), Ok(vec![json!({"data": {"k": "abc def"}})]));
        assert_eq!(
            read("metadata:\n  annotations:\n    a: [a,\n  b\n  ]\n"),
            Ok(vec![json!({"metadata": {"annotations": {"a": ["a", "b"]}}})])
        );
        assert_eq!(read("a: {b: 1,\nc: 2\n}\n"), Ok(vec![json!({"a": {"b": 1, "c": 2}})]));
    }

    /// What go-yaml v2 reads that libyaml 0.2.5 does not, and the reverse.
    #[test]
    fn go_yaml_escapes_and_directives() {
        assert_eq!(read("a: \"it\\'s \\\"q\\\" \\x22\\'\"\n"), Ok(vec![json!({"a": "it's \"q\" \"'"})]));
        assert_eq!(
            read("a: \"x\\/y\"\n"),
            Err(String::from("1:6: invalid YAML: found unknown escape character at line 1 column 6"))
        );
        assert!(read("%YAML 1.2\n---\na: 1\n").is_err());
        assert!(read("%YAML 1.1\n--- \na: 1\n").is_err(), "the directive is a piece of its own");
        assert_eq!(read("a: \"\\/\"\n---\nb: 1\n").map_err(|e| e.starts_with("1:5:")), Err(true));
    }

    /// kubectl's pieces: `---` lines with more than a comment refuse the piece before them,
    /// what follows `...` is not read, a control character refuses the piece.
    #[test]
    fn streams_read_as_kubectl_reads_them() {
        assert_eq!(read("a: 1\n...\nb: 2\n"), Ok(vec![json!({"a": 1})]));
        let e = read("a: 1\n---\nb: 2\n--- {c: 3}\n").unwrap_err();
        assert_eq!(e, "4:1: invalid YAML: invalid Yaml document separator: {c: 3}");
        assert_eq!(
            read("a: 1\nb: \"\u{1}\"\n").unwrap_err(),
            "2:5: invalid YAML: control characters are not allowed at line 2 column 5"
        );
        assert_eq!(read("\n---\n\u{feff}a: 1\nb: 2\n"), Ok(vec![json!({"a": 1, "b": 2})]));
        // A `---` that ends no piece (the text's first line) is kept in kubectl's piece, so
        // the mark after it is a character; after one that ends a piece, the piece's start.
        assert_eq!(read("---\n\u{feff}a: 1\n"), Ok(vec![json!({"\u{feff}a": 1})]));
        assert_eq!(read("x: 1\n---\n\u{feff}a: 1\n"), Ok(vec![json!({"x": 1}), json!({"a": 1})]));
        assert_eq!(read("a: 1\n---\n---\n\u{feff}b: 2\n"), Ok(vec![json!({"a": 1}), json!({"\u{feff}b": 2})]));
        assert_eq!(read("{\"a\": 1}\n{\"b\": 2}\n"), Ok(vec![json!({"a": 1}), json!({"b": 2})]));
        assert_eq!(read("{\"a\": 1}\nb: 2\n"), Ok(vec![json!({"a": 1}), json!({"b": 2})]));
        assert!(read("[\"a\\/b\"]\n").is_err(), "a text that begins with `[` is YAML");
    }

    /// Finds of `cargo xtask fuzz-diff yaml` (each answer is `oracle yaml`'s, kubectl's
    /// reading; the finds are kept in the `fuzz-yaml` suite).
    #[test]
    fn streams_read_as_kubectl_reads_them_where_the_fuzzer_looked() {
        // Past the start, a byte order mark is a character for go-yaml v2.
        assert_eq!(read("\n\u{feff}ec:\n"), Ok(vec![json!({"\u{feff}ec": null})]));
        assert_eq!(read("  me: \n\u{feff}  5\n"), Ok(vec![json!({"me": null})]));
        assert_eq!(read("{\n\u{feff}\n}\n"), Ok(vec![json!({"\u{feff}": null})]));
        assert!(read("me:\n\u{feff} \n").is_err());
        // A `?` ends a plain scalar of a flow collection.
        for text in ["a: {tg?}", "[c?]", "a: {b: [c ?d]}", "[a\n ?]\n"] {
            assert!(read(text).unwrap_err().contains("expected ',' or"), "{text:?}");
        }
        assert_eq!(read("a: b?c\n"), Ok(vec![json!({"a": "b?c"})]));
        assert_eq!(read("[? a : b]\n"), Ok(vec![json!([{"a": "b"}])]));
        // Between JSON values, only JSON's blanks; a number ends where its characters do.
        assert!(read("{\"\": \"o\",\"c\": { }\n}\u{b}").is_err());
        assert!(read("{\"a\": 1}\n7}\n").is_err());
        assert_eq!(read("\u{b}{\"a\": 1}, x\n"), Ok(vec![json!({"a": 1})]));
        // A comment ends at a carriage return; a piece of comments is read (and refused) too.
        assert_eq!(read("# a\rb: 1\n---\nc: 2\n"), Ok(vec![json!({"b": 1}), json!({"c": 2})]));
        assert!(read("# a\u{14}\n---\nc: 2\n").unwrap_err().contains("control characters"));
        // A multi-line plain scalar keeps its colons before an indicator.
        assert_eq!(read("{a: \"x\",\n b\n :,c: d}\n"), Ok(vec![json!({"a": "x", "b :": null, "c": "d"})]));
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
