//! YAML read as kubectl reads a manifest before it sends it: apimachinery's YAMLReader splits
//! the stream at lines that begin with `---`, and each piece is decoded by `sigs.k8s.io/yaml`
//! v1.6.0 `Unmarshal` (`YAMLToJSON`): go-yaml v2 (libyaml's state machine ported to Go; YAML
//! 1.1 scalars: `yes` is `true`, `0644` is 420; `<<` merges) reads the piece's first document,
//! and the value is written as JSON (keys as strings), which the API server reads back.
//!
//! The events come from libyaml-safer, a safe Rust port of libyaml 0.2.5, the C state machine
//! go-yaml v2 was ported from: the same leniencies (a quoted scalar or a flow collection
//! continued at or below its key's indentation, tabs after `:`, any break in a double-quoted
//! scalar) and the same refusals (control characters in what is read, tabs as indentation).
//! Where libyaml 0.2.5 moved on from the libyaml go-yaml v2 was ported from, go-yaml v2 is
//! followed: `%YAML` other than 1.1 is refused, `\/` is not an escape and `\'` is (see
//! [`events`]). See `scalar` for the scalars.
//!
//! A `:` right before a flow indicator inside a plain scalar of a flow collection (`[a:]`,
//! `[2001:db8::]`) is part of the scalar for go-yaml v2 (no "found unexpected ':'", which
//! libyaml 0.2.5 added), and so are `,`, `[` and `]` of a tag (`[!x,y]`): see [`source`].
//!
//! A `?` inside a plain scalar of a flow collection ends the scalar for go-yaml v2 (an error),
//! and a byte order mark past the text's start is a character (see [`source`]).
//!
//! Not modeled: collections nest at most 128 deep here (go-yaml: 10,000), serde_json's limit.

use libyaml_safer::{Error as YamlError, Event, EventData, Mark, Parser, ScalarStyle};
use serde_json::{Map, Value};

use crate::ParseError;

mod scalar;
mod source;

use source::{restore_bom, restore_colons, Chunks, Rewrites};

/// How deeply collections may nest: serde_json's limit, with its words.
const MAX_DEPTH: usize = 128;

/// A mapping's pending key: a name, or the merge key `<<`.
enum Key {
    Name(String),
    Merge,
}

enum Frame {
    Map { anchor: Option<String>, map: Map<String, Value>, key: Option<Key> },
    Seq { anchor: Option<String>, items: Vec<Value> },
}

/// go-yaml's guard against alias bombs (decode.go `allowedAliasRatio`): once more than 100 of
/// over 1,000 decoded nodes come from aliases, their share may not pass 99% (up to 400,000
/// nodes), falling to 10% at 4,000,000.
fn excessive(aliased: usize, decoded: usize) -> bool {
    let ratio = match decoded {
        ..=400_000 => 0.99,
        4_000_000.. => 0.10,
        n => 0.99 - 0.89 * ((n - 400_000) as f64 / 3_600_000.0),
    };
    aliased > 100 && decoded > 1_000 && aliased as f64 / decoded as f64 > ratio
}

/// One piece's value, as go-yaml v2 `Unmarshal` reads it: the first document (what follows
/// its end is not read), `None` when it is empty or `null`. A line of the piece that begins
/// with `---` and more than a comment is kubectl's error (see [`crate::positions::split`]).
pub(crate) fn document(text: &str, separated: bool) -> Result<Option<Value>, ParseError> {
    for (n, line) in text.split('\n').enumerate() {
        if let Some(Err(rest)) = line.strip_prefix("---").map(crate::positions::separator) {
            return Err(ParseError {
                line: Some(n + 1),
                column: Some(1),
                message: format!("invalid YAML: invalid Yaml document separator: {rest}"),
            });
        }
    }
    // A piece after a `---` line starts with the rest of that line (a comment at most), which
    // kubectl's pieces leave out: a byte order mark on the next line starts the piece for
    // go-yaml, which reads it as the stream's (elsewhere, it is a character: see `source`).
    if let Some((first, rest)) = text.split_once('\n').filter(|_| separated) {
        if rest.starts_with('\u{feff}') && (first.trim().is_empty() || first.trim_start().starts_with('#')) {
            return document(rest, false).map_err(|e| ParseError {
                line: e.line.map(|l| l + 1),
                message: crate::positions::shift_lines(&e.message, 1),
                ..e
            });
        }
    }
    let mut b = Builder::default();
    events(text, |event| {
        let at = event.start_mark;
        b.event(event).map_err(|message| ParseError {
            line: Some(at.line as usize + 1),
            column: Some(at.column as usize + 1),
            message: format!("invalid YAML: {message}"),
        })
    })?;
    Ok(b.doc.filter(|v| !v.is_null()))
}

/// Runs `f` on the events of `text`'s first document (from the stream's start to the
/// document's end), as go-yaml v2's parser makes them: libyaml's, with go-yaml's own escapes
/// (`\'` is one, `\/` is not) and only `%YAML 1.1` accepted.
pub(crate) fn events(text: &str, mut f: impl FnMut(Event) -> Result<(), ParseError>) -> Result<(), ParseError> {
    // A text is read as ending in a line break, as kubectl reads it (go-yaml v2: `a: "x\` is
    // "found unexpected end of stream" on the next line, `a: |\n  x` the value `x` and a line
    // break). libyaml-safer 0.3.0 reads past the end of a text that does not (a block scalar or
    // an escape cut by the end: "unexpected end of input", a panic); every position stays.
    let ended;
    let text = match text.is_empty() || text.ends_with(['\n', '\r']) {
        true => text,
        false => {
            ended = format!("{text}\n");
            ended.as_str()
        }
    };
    let (source, Rewrites { quotes: patched, colons, bom }) = source::go_source(text);
    let mut parser = Parser::new();
    parser.set_input(Chunks::new(&source));
    for event in parser {
        let mut event = event.map_err(|e| parse_error(text, &e))?;
        let at = event.start_mark;
        let done = match &mut event.data {
            EventData::DocumentStart { version_directive: Some(v), .. } if (v.major, v.minor) != (1, 1) => {
                return Err(error_at(self::at(at), "found incompatible YAML document"));
            }
            EventData::Scalar { value, style: ScalarStyle::DoubleQuoted, .. } => {
                go_escapes(text, at, event.end_mark, value, &patched)?;
                false
            }
            EventData::Scalar { value, style: ScalarStyle::Plain, .. } if !colons.is_empty() => {
                restore_colons(&source, at, event.end_mark, value, &colons);
                false
            }
            EventData::DocumentEnd { .. } | EventData::StreamEnd => true,
            _ => false,
        };
        if let EventData::Scalar { value, .. } = &mut event.data {
            restore_bom(value, bom);
        }
        f(event)?;
        if done {
            break;
        }
    }
    Ok(())
}

/// go-yaml v2's escapes in a double-quoted scalar (`span`, its text from the original source):
/// `\/` is refused (libyaml 0.2.5 reads `/`), and the `"` of each `\'` read as `\"` (at an
/// offset in `patched`) is made `'` again: in a double-quoted scalar, every `"` of the value
/// comes from an escape, in order.
fn go_escapes(text: &str, at: Mark, end: Mark, value: &mut String, patched: &[usize]) -> Result<(), ParseError> {
    let start = at.index as usize;
    let span = text.get(start..end.index as usize).unwrap_or("");
    let mut quotes = Vec::new();
    let mut chars = span.char_indices();
    while let Some((i, c)) = chars.next() {
        if c != '\\' {
            continue;
        }
        let Some((_, escape)) = chars.next() else { break };
        let digits = &span[i + 1 + escape.len_utf8()..];
        let quote = match escape {
            '/' => return Err(error_at(mark_of(text, start + i), "found unknown escape character")),
            '"' | '\'' => true,
            'x' => digits.starts_with("22"),
            'u' => digits.starts_with("0022"),
            'U' => digits.starts_with("00000022"),
            _ => false,
        };
        if quote {
            quotes.push(patched.contains(&(start + i)));
        }
    }
    if quotes.iter().any(|p| *p) {
        let mut flags = quotes.into_iter();
        *value = value.chars().map(|c| if c == '"' && flags.next() == Some(true) { '\'' } else { c }).collect();
    }
    Ok(())
}

/// An error at a 0-based line and column, said in its message too.
fn error_at((line, column): (usize, usize), problem: &str) -> ParseError {
    let (line, column) = (line + 1, column + 1);
    ParseError {
        line: Some(line),
        column: Some(column),
        message: format!("invalid YAML: {problem} at line {line} column {column}"),
    }
}

/// libyaml's error where it found it: `while parsing a flow sequence, expected ',' or ']'`.
/// The reader's (a control character) has no mark: the first such character is found here.
fn parse_error(text: &str, e: &YamlError) -> ParseError {
    let Some(mark) = e.problem_mark() else {
        let at = text.char_indices().find(|(_, c)| !printable(*c)).map_or(text.len(), |(i, _)| i);
        return error_at(mark_of(text, at), e.problem());
    };
    let problem = e.problem();
    let problem = problem.strip_prefix("did not find ").unwrap_or(problem);
    match e.context() {
        Some(context) if !context.is_empty() => error_at(at(mark), &format!("{context}, {problem}")),
        _ => error_at(at(mark), problem),
    }
}

/// A parser mark's 0-based line and column.
fn at(m: Mark) -> (usize, usize) {
    (m.line as usize, m.column as usize)
}

/// The 0-based line and column of a byte offset, lines broken as in YAML (CR LF, LF, CR).
fn mark_of(text: &str, at: usize) -> (usize, usize) {
    let before = text.get(..at.min(text.len())).unwrap_or(text);
    let line = before.matches('\n').count() + before.matches('\r').count() - before.matches("\r\n").count();
    let line_start = before.rfind(['\n', '\r']).map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count())
}

/// The characters libyaml's reader takes (yaml_parser_update_buffer): the rest are "control
/// characters are not allowed".
pub(crate) fn printable(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | ' '..='~' | '\u{85}' | '\u{A0}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

/// The document so far, and the collections open.
#[derive(Default)]
struct Builder {
    doc: Option<Value>,
    stack: Vec<Frame>,
    /// Anchored values of this document by name (a later one shadows an earlier one).
    anchors: Vec<(String, Value)>,
    /// Nodes decoded, and of them copied through aliases (see [`excessive`]).
    decoded: usize,
    aliased: usize,
}

impl Builder {
    fn event(&mut self, event: Event) -> Result<(), String> {
        self.decoded += 1;
        let awaiting_key = matches!(self.stack.last(), Some(Frame::Map { key: None, .. }));
        let (value, anchor) = match event.data {
            EventData::MappingStart { .. } | EventData::SequenceStart { .. } if awaiting_key => {
                return Err(String::from("invalid map key: a mapping or sequence"));
            }
            EventData::MappingStart { .. } | EventData::SequenceStart { .. } if self.stack.len() >= MAX_DEPTH => {
                return Err(String::from("recursion limit exceeded"));
            }
            EventData::MappingStart { anchor, .. } => {
                self.stack.push(Frame::Map { anchor, map: Map::new(), key: None });
                return Ok(());
            }
            EventData::SequenceStart { anchor, .. } => {
                self.stack.push(Frame::Seq { anchor, items: Vec::new() });
                return Ok(());
            }
            EventData::MappingEnd | EventData::SequenceEnd => match self.stack.pop() {
                Some(Frame::Map { anchor, map, .. }) => (Value::Object(map), anchor),
                Some(Frame::Seq { anchor, items }) => (Value::Array(items), anchor),
                None => return Ok(()),
            },
            EventData::Scalar { value, style, anchor, tag, .. } if awaiting_key => {
                let key = if scalar::is_merge(&value, style, tag.as_deref()) {
                    Key::Merge
                } else {
                    let name = scalar::key(&scalar::decode(&value, style, tag.as_deref())?)?;
                    if let Some(anchor) = anchor {
                        self.anchors.push((anchor, Value::String(name.clone())));
                    }
                    Key::Name(name)
                };
                return self.set_key(key);
            }
            EventData::Scalar { value, style, anchor, tag, .. } => {
                (scalar::to_json(scalar::decode(&value, style, tag.as_deref())?)?, anchor)
            }
            EventData::Alias { anchor } => {
                let value = self.alias(&anchor)?;
                if awaiting_key {
                    let name = match value {
                        Value::String(s) => s,
                        Value::Bool(_) | Value::Number(_) => value.to_string(),
                        _ => return Err(String::from("invalid map key: an alias to a collection or null")),
                    };
                    return self.set_key(Key::Name(name));
                }
                (value, None)
            }
            _ => return Ok(()),
        };
        if let Some(anchor) = anchor {
            self.anchors.push((anchor, value.clone()));
        }
        match self.stack.last_mut() {
            None => self.doc = Some(value),
            Some(Frame::Seq { items, .. }) => items.push(value),
            Some(Frame::Map { map, key, .. }) => match key.take() {
                Some(Key::Merge) => merge(map, value)?,
                Some(Key::Name(k)) => {
                    map.insert(k, value);
                }
                None => {}
            },
        }
        Ok(())
    }

    fn set_key(&mut self, k: Key) -> Result<(), String> {
        if let Some(Frame::Map { key, .. }) = self.stack.last_mut() {
            *key = Some(k);
        }
        Ok(())
    }

    /// A copy of an anchored value (go-yaml decode.go `alias`, with its errors and guard).
    fn alias(&mut self, name: &str) -> Result<Value, String> {
        if self
            .stack
            .iter()
            .any(|f| matches!(f, Frame::Map { anchor: Some(a), .. } | Frame::Seq { anchor: Some(a), .. } if a == name))
        {
            return Err(format!("anchor '{name}' value contains itself"));
        }
        let Some((_, value)) = self.anchors.iter().rev().find(|(a, _)| a == name) else {
            return Err(format!("unknown anchor '{name}' referenced"));
        };
        let n = nodes(value);
        self.decoded += n;
        self.aliased += n;
        if excessive(self.aliased, self.decoded) {
            return Err(String::from("document contains excessive aliasing"));
        }
        Ok(value.clone())
    }
}

/// A merge key's value set into the mapping where the `<<` is (decode.go `merge`): a mapping's
/// entries, or a sequence of mappings from the last to the first, each overwriting what is
/// there, so the first wins and so do they over keys written before the `<<` (go-yaml v2).
fn merge(map: &mut Map<String, Value>, value: Value) -> Result<(), String> {
    let maps = match value {
        Value::Object(m) => Vec::from([m]),
        Value::Array(items) => items
            .into_iter()
            .rev()
            .map(|v| match v {
                Value::Object(m) => Ok(m),
                _ => Err(()),
            })
            .collect::<Result<Vec<_>, ()>>()
            .map_err(|()| String::from("map merge requires map or sequence of maps as the value"))?,
        _ => return Err(String::from("map merge requires map or sequence of maps as the value")),
    };
    for m in maps {
        map.extend(m);
    }
    Ok(())
}

/// How many nodes a value has (keys included): what copying it through an alias decodes.
fn nodes(v: &Value) -> usize {
    match v {
        Value::Array(items) => 1 + items.iter().map(nodes).sum::<usize>(),
        Value::Object(map) => 1 + map.values().map(|v| 1 + nodes(v)).sum::<usize>(),
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    fn one(text: &str) -> Result<serde_json::Value, String> {
        crate::documents(text).map(|mut d| d.pop().unwrap_or_default()).map_err(|e| e.message)
    }

    /// go-yaml v2.4.0 decode.go `merge` (decode_test.go's merge rows): `<<` sets a mapping's
    /// entries where it stands, a sequence's from the last to the first.
    #[test]
    fn merge_keys_as_go_yaml_v2() {
        let base = "b: &b {a: 1, c: 2}\nx: &x {a: 10}\n";
        assert_eq!(one(&format!("{base}m:\n  <<: *b\n  a: 9\n")).unwrap()["m"], json!({"a": 9, "c": 2}));
        // A key written before the `<<` is overwritten (go-yaml v2, not YAML's merge spec).
        assert_eq!(one(&format!("{base}m:\n  a: 9\n  <<: *b\n")).unwrap()["m"], json!({"a": 1, "c": 2}));
        assert_eq!(one(&format!("{base}m:\n  <<: [*x, *b]\n")).unwrap()["m"], json!({"a": 10, "c": 2}));
        assert_eq!(one(&format!("{base}m:\n  !!merge <<: *x\n")).unwrap()["m"], json!({"a": 10}));
        // Quoted, it is an ordinary key.
        assert_eq!(one(&format!("{base}m:\n  \"<<\": *x\n")).unwrap()["m"], json!({"<<": {"a": 10}}));
        assert_eq!(
            one("a: &a 1\nm:\n  <<: *a\n"),
            Err(String::from("invalid YAML: map merge requires map or sequence of maps as the value"))
        );
    }

    /// go-yaml v2.4.4 scannerc.go `yaml_parser_scan_plain_scalar`: a `:` before a flow
    /// indicator stays in the plain scalar (the oracle's `yaml` suite reads
    /// tests/oracle/cases/yaml/flow-colon-before-indicator.yaml, from Istio's ServiceEntry test
    /// data, as kubectl does).
    #[test]
    fn a_colon_before_a_flow_indicator_is_part_of_the_scalar() {
        assert_eq!(one("a: [1.2.3.4, 001:db8::]\n").unwrap(), json!({"a": ["1.2.3.4", "001:db8::"]}));
        assert_eq!(one("a: [x:, y:]\nb: {k: v:}\n").unwrap(), json!({"a": ["x:", "y:"], "b": {"k": "v:"}}));
        // Where the colon is not before an indicator, and in block context, nothing changes.
        assert_eq!(one("a: [x:y]\nb: c:]\n").unwrap(), json!({"a": ["x:y"], "b": "c:]"}));
        // Positions after it stay: the error of the next line is where it is.
        let e = crate::documents("a: [2001:db8::]\nb: \"\\/\"\n").unwrap_err();
        assert_eq!((e.line, e.column), (Some(2), Some(5)), "{}", e.message);
    }

    /// go-yaml v2.4.4 scannerc.go `yaml_parser_scan_tag_uri` takes `,`, `[` and `]` into a tag
    /// (libyaml 0.2.5 ends the tag there; libyaml-safer 0.3.0 panicked on a `,` after a tag in
    /// a flow collection: found by `cargo xtask fuzz-diff yaml`, whose find is in the
    /// `fuzz-yaml` suite). Each answer is `oracle yaml`'s (kubectl's reading).
    #[test]
    fn commas_and_brackets_after_a_tag_are_part_of_it() {
        assert_eq!(one("a: !x,y b\n").unwrap(), json!({"a": "b"}));
        assert_eq!(one("a: {k: !x,c: d}\n").unwrap(), json!({"a": {"k": "d"}}));
        assert_eq!(one("x: [!!str, 1]\n").unwrap(), json!({"x": ["1"]}));
        for text in ["[!,]\n", "a: [b, !x,c]\n", "a: [!x]\n"] {
            let e = crate::documents(text).unwrap_err();
            assert!(e.message.contains("expected ',' or ']'"), "{text:?}: {}", e.message);
        }
        // JSON, whose fields are found in its YAML reading (`positions`).
        let json = "{\"a\": {\"b\": 1}!, \"c\": 2}\n";
        assert!(crate::documents(json).is_err());
        for piece in crate::positions::split(json) {
            assert!(crate::piece(&piece).is_err());
        }
        // Elsewhere than after a tag, nothing changes.
        assert_eq!(
            one("a: \"Hi!, there\"\nb: [c!, d]\nc: [!x , e]\n").unwrap(),
            json!({"a": "Hi!, there", "b": ["c!", "d"], "c": ["", "e"]})
        );
    }

    /// sigs.k8s.io/yaml v1.6.0 yaml_test.go `TestYAMLToJSON`: keys become strings, tags on
    /// collections are ignored, aliases are copies, the last of repeated keys wins.
    #[test]
    fn documents_as_yaml_to_json() {
        assert_eq!(
            one("1: a\n1.5: b\ntrue: c\nno: d\n0x10: e\n").unwrap(),
            json!({"1": "a", "1.5": "b", "true": "c", "false": "d", "16": "e"})
        );
        assert_eq!(one("!!map {a: !foo [1]}\n").unwrap(), json!({"a": [1]}));
        assert_eq!(one("a: &x [1, 2]\nb: *x\n").unwrap(), json!({"a": [1, 2], "b": [1, 2]}));
        assert_eq!(one("a: 1\na: 2\n").unwrap(), json!({"a": 2}));
        assert!(one("~: a\n").unwrap_err().contains("unsupported map key"));
        assert!(one("[a]: b\n").unwrap_err().contains("invalid map key"));
        assert!(one("a: &a\n  b: *a\n").unwrap_err().contains("anchor 'a' value contains itself"));
        assert_eq!(
            one("mode: 0644\nenabled: yes\nratio: 1.0\nname: '0644'\n").unwrap(),
            json!({"mode": 420, "enabled": true, "ratio": 1, "name": "0644"})
        );
        assert_eq!(crate::documents("---\n---\nnull\n---\na: 1\n").unwrap(), [json!({"a": 1})]);
    }
}
