//! YAML read as kubectl reads a manifest before it sends it: `sigs.k8s.io/yaml` v1.6.0
//! `YAMLToJSON`, which decodes with go-yaml v2 (YAML 1.1 scalars: `yes` is `true`, `0644` is
//! 420; `<<` merges) and writes JSON (keys as strings), which the API server reads back. Built
//! on saphyr-parser's events, the parser field positions come from, so one parser reads every
//! document. See `scalar` for the scalars.
//!
//! Not modeled: kubectl splits a stream at lines that begin with `---` before parsing (so
//! `--- foo` is its error, and what follows a `...` in a piece is dropped); here the YAML
//! parser's documents are the documents. go-yaml refuses `%YAML 1.2`; collections nest at
//! most 128 deep here (go-yaml: 10,000), serde_json's limit.

use saphyr_parser::{Event, Parser, ScanError};
use serde_json::{Map, Value};

use crate::ParseError;

mod scalar;

/// How deeply collections may nest: serde_json's limit, with its words.
const MAX_DEPTH: usize = 128;

/// A mapping's pending key: a name, or the merge key `<<`.
enum Key {
    Name(String),
    Merge,
}

enum Frame {
    Map { anchor: usize, map: Map<String, Value>, key: Option<Key> },
    Seq { anchor: usize, items: Vec<Value> },
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

/// Every non-empty document of a YAML stream, as JSON.
pub(crate) fn documents(text: &str) -> Result<Vec<Value>, ParseError> {
    let mut b = Builder::default();
    for event in Parser::new_from_str(text) {
        let (event, span) = event.map_err(|e| scan_error(&e))?;
        b.event(event).map_err(|message| ParseError {
            line: Some(span.start.line()),
            column: Some(span.start.col() + 1),
            message: format!("invalid YAML: {message}"),
        })?;
    }
    Ok(b.docs)
}

/// The documents so far, and the collections open.
#[derive(Default)]
struct Builder {
    docs: Vec<Value>,
    stack: Vec<Frame>,
    /// Anchored values of this document by anchor id (a later one shadows an earlier one).
    anchors: Vec<(usize, Value)>,
    /// Nodes decoded, and of them copied through aliases (see [`excessive`]).
    decoded: usize,
    aliased: usize,
}

impl Builder {
    fn event(&mut self, event: Event<'_>) -> Result<(), String> {
        self.decoded += 1;
        let awaiting_key = matches!(self.stack.last(), Some(Frame::Map { key: None, .. }));
        let (value, anchor) = match event {
            Event::DocumentStart(_) => {
                self.anchors.clear();
                return Ok(());
            }
            Event::MappingStart(..) | Event::SequenceStart(..) if awaiting_key => {
                return Err(String::from("invalid map key: a mapping or sequence"));
            }
            Event::MappingStart(..) | Event::SequenceStart(..) if self.stack.len() >= MAX_DEPTH => {
                return Err(String::from("recursion limit exceeded"));
            }
            Event::MappingStart(anchor, _) => {
                self.stack.push(Frame::Map { anchor, map: Map::new(), key: None });
                return Ok(());
            }
            Event::SequenceStart(anchor, _) => {
                self.stack.push(Frame::Seq { anchor, items: Vec::new() });
                return Ok(());
            }
            Event::MappingEnd | Event::SequenceEnd => match self.stack.pop() {
                Some(Frame::Map { anchor, map, .. }) => (Value::Object(map), anchor),
                Some(Frame::Seq { anchor, items }) => (Value::Array(items), anchor),
                None => return Ok(()),
            },
            Event::Scalar(text, style, anchor, tag) if awaiting_key => {
                let key = if scalar::is_merge(&text, style, tag.as_deref()) {
                    Key::Merge
                } else {
                    let name = scalar::key(&scalar::decode(&text, style, tag.as_deref())?)?;
                    if anchor != 0 {
                        self.anchors.push((anchor, Value::String(name.clone())));
                    }
                    Key::Name(name)
                };
                return self.set_key(key);
            }
            Event::Scalar(text, style, anchor, tag) => {
                (scalar::to_json(scalar::decode(&text, style, tag.as_deref())?)?, anchor)
            }
            Event::Alias(id) => {
                let value = self.alias(id)?;
                if awaiting_key {
                    let name = match value {
                        Value::String(s) => s,
                        Value::Bool(_) | Value::Number(_) => value.to_string(),
                        _ => return Err(String::from("invalid map key: an alias to a collection or null")),
                    };
                    return self.set_key(Key::Name(name));
                }
                (value, 0)
            }
            _ => return Ok(()),
        };
        if anchor != 0 {
            self.anchors.push((anchor, value.clone()));
        }
        match self.stack.last_mut() {
            None if value.is_null() => {}
            None => self.docs.push(value),
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
    fn alias(&mut self, id: usize) -> Result<Value, String> {
        if self
            .stack
            .iter()
            .any(|f| matches!(f, Frame::Map { anchor, .. } | Frame::Seq { anchor, .. } if *anchor == id))
        {
            return Err(String::from("anchor value contains itself"));
        }
        let Some((_, value)) = self.anchors.iter().rev().find(|(a, _)| *a == id) else {
            return Err(String::from("unknown anchor referenced"));
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

/// The parser's error where it found it (1-based column), said in its message too.
fn scan_error(e: &ScanError) -> ParseError {
    let (line, column) = (e.marker().line(), e.marker().col() + 1);
    let message = format!("invalid YAML: {} at line {line} column {column}", e.info());
    ParseError { line: Some(line), column: Some(column), message }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    fn one(text: &str) -> Result<serde_json::Value, String> {
        super::documents(text).map(|mut d| d.pop().unwrap_or_default()).map_err(|e| e.message)
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
        assert!(one("a: &a\n  b: *a\n").unwrap_err().contains("anchor value contains itself"));
        assert_eq!(
            one("mode: 0644\nenabled: yes\nratio: 1.0\nname: '0644'\n").unwrap(),
            json!({"mode": 420, "enabled": true, "ratio": 1, "name": "0644"})
        );
        assert_eq!(super::documents("---\n---\nnull\n---\na: 1\n").unwrap(), [json!({"a": 1})]);
    }
}
