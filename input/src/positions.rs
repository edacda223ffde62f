//! Where things are in a YAML or JSON document: the line and column of every field, found from
//! the parser's events, so an error about `spec.template.spec.containers[0].image` points at
//! the line a person edits. A field that is not there (a missing required field) is located at
//! its nearest parent that is.

use libyaml_safer::EventData;

/// A 1-based line and column.
pub type At = (usize, usize);

/// The positions of one document's nodes.
#[derive(Debug, Default)]
pub struct Positions {
    root: Option<Node>,
}

#[derive(Debug)]
struct Node {
    at: At,
    kids: Kids,
}

#[derive(Debug)]
enum Kids {
    Leaf,
    /// Keys with the position of the key (where the field is written) and the value's node.
    Map(Vec<(String, At, Node)>),
    List(Vec<Node>),
}

enum Frame {
    Map { at: At, entries: Vec<(String, At, Node)>, key: Option<(String, At)> },
    List { at: At, items: Vec<Node> },
}

impl Positions {
    /// The positions in the first document of `text` (positions past a syntax error are not
    /// known: what was read until then is kept).
    pub fn of(text: &str) -> Positions {
        let mut stack: Vec<Frame> = Vec::new();
        let mut root = None;
        // An error ends the events: what was read until then is kept.
        let _ = crate::yaml::events(text, |event| {
            let at = (event.start_mark.line as usize + 1, event.start_mark.column as usize + 1);
            let node = match event.data {
                EventData::MappingStart { .. } => {
                    stack.push(Frame::Map { at, entries: Vec::new(), key: None });
                    return Ok(());
                }
                EventData::SequenceStart { .. } => {
                    stack.push(Frame::List { at, items: Vec::new() });
                    return Ok(());
                }
                EventData::MappingEnd | EventData::SequenceEnd => match stack.pop() {
                    Some(Frame::Map { at, entries, .. }) => Node { at, kids: Kids::Map(entries) },
                    Some(Frame::List { at, items }) => Node { at, kids: Kids::List(items) },
                    None => return Ok(()),
                },
                EventData::Scalar { value, .. } => {
                    // A scalar in key position is a key.
                    // (A byte order mark on a piece's second line after `---` is where kubectl's
                    // piece starts: not part of the key.)
                    if let Some(Frame::Map { key: key @ None, .. }) = stack.last_mut() {
                        let value = value.strip_prefix('\u{feff}').map_or(value.clone(), String::from);
                        *key = Some((value, at));
                        return Ok(());
                    }
                    Node { at, kids: Kids::Leaf }
                }
                EventData::Alias { .. } => Node { at, kids: Kids::Leaf },
                _ => return Ok(()),
            };
            match stack.last_mut() {
                None => root = Some(node),
                Some(Frame::List { items, .. }) => items.push(node),
                Some(Frame::Map { entries, key, .. }) => match key.take() {
                    Some((k, key_at)) => entries.push((k, key_at, node)),
                    // A mapping or sequence used as a key: not a field; keep the structure sane.
                    None => *key = Some((String::new(), node.at)),
                },
            }
            Ok(())
        });
        Positions { root }
    }

    /// Where the field at a Kubernetes field path (`spec.containers[0].image`,
    /// `metadata.labels[app.kubernetes.io/name]`, `<nil>` or empty for the root) is written: its
    /// key's position, or the nearest parent's when it is not in the document. `None` when the
    /// document has no node at all.
    pub fn locate(&self, path: &str) -> Option<At> {
        self.locate_depth(path).map(|(at, _)| at)
    }

    /// [`Positions::locate`], with how many of the path's steps were found (0: none, the
    /// position is the document's).
    pub fn locate_depth(&self, path: &str) -> Option<(At, usize)> {
        let mut node = self.root.as_ref()?;
        let mut at = node.at;
        let mut depth = 0;
        for segment in segments(path) {
            let next = match (&node.kids, segment) {
                (Kids::Map(entries), Segment::Field(name) | Segment::Key(name)) => {
                    entries.iter().find(|(k, _, _)| k == name).map(|(_, key_at, n)| (*key_at, n))
                }
                (Kids::List(items), Segment::Index(i)) => items.get(i).map(|n| (n.at, n)),
                _ => None,
            };
            match next {
                Some((found, n)) => {
                    at = found;
                    node = n;
                    depth += 1;
                }
                None => break,
            }
        }
        Some((at, depth))
    }
}

impl Positions {
    /// [`Positions::locate`] for a field of an item inside the document: `prefix` is the item's
    /// path (`items[2]` for a list's item, empty for the document itself), `field` the
    /// Kubernetes field path within the item (empty or `<nil>` for the item).
    pub fn locate_in(&self, prefix: &str, field: &str) -> Option<At> {
        let at_item = field.is_empty() || field == "<nil>";
        match (prefix.is_empty(), at_item) {
            (true, _) => self.locate(field),
            (false, true) => self.locate(prefix),
            (false, false) => self.locate(&format!("{prefix}.{field}")),
        }
    }
}

#[derive(Debug, PartialEq)]
enum Segment<'a> {
    Field(&'a str),
    Index(usize),
    Key(&'a str),
}

/// A field path's segments: `a.b[0].c[key]`.
fn segments(path: &str) -> Vec<Segment<'_>> {
    let mut out = Vec::new();
    if path == "<nil>" {
        return out;
    }
    let mut rest = path;
    while !rest.is_empty() {
        if let Some(inner) = rest.strip_prefix('[') {
            let end = inner.find(']').unwrap_or(inner.len());
            let key = &inner[..end];
            out.push(match key.parse::<usize>() {
                Ok(i) => Segment::Index(i),
                Err(_) => Segment::Key(key),
            });
            rest = inner.get(end + 1..).unwrap_or("");
        } else {
            let rest_trim = rest.strip_prefix('.').unwrap_or(rest);
            let end = rest_trim.find(['.', '[']).unwrap_or(rest_trim.len());
            if end > 0 {
                out.push(Segment::Field(&rest_trim[..end]));
            }
            rest = &rest_trim[end..];
        }
    }
    out
}

/// One document of a stream: its text and the line it starts on (1-based).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Piece<'a> {
    pub text: &'a str,
    pub line: usize,
    /// Read as JSON, and only as JSON: a value of a JSON stream, or what follows where kubectl
    /// stops reading one with a JSON error ([`crate::piece`] reads a piece as kubectl does).
    pub json: bool,
    /// The piece follows a `---` line that ended kubectl's previous piece: it starts with the
    /// rest of that line (a comment at most), which kubectl's piece leaves out, so a byte
    /// order mark on its next line is the start of kubectl's piece.
    pub separated: bool,
}

/// The documents of a stream, split as kubectl splits a manifest file (apimachinery's
/// YAMLOrJSONDecoder), so a broken document does not hide the others:
/// - a text whose first non-space character is `{` is JSON values one after another, each a
///   piece; where one does not parse, after a single value or none, the rest (from the next
///   line) is YAML (after two or more, kubectl stops with the JSON error: the rest is one
///   piece);
/// - YAML is split at every line that begins with `---` (a block scalar's lines are indented;
///   apimachinery's YAMLReader). Pieces with nothing but comments and blank lines are left out
///   (unless they hold a character go-yaml's reader refuses: that is kubectl's error).
///   A `---` line followed by more than a comment is kubectl's error (`invalid Yaml document
///   separator`), which loses the piece before it too: it does not split, and reading the
///   piece it is in says so. A `...` line does not split: it ends the piece's first document,
///   which is all that is read of a piece.
pub fn split<'t>(text: &'t str) -> Vec<Piece<'t>> {
    if !text.trim_start().starts_with('{') {
        return split_yaml(text, 0);
    }
    let mut pieces = Vec::new();
    let (mut end, mut count) = (0, 0);
    let line_at = |at: usize| 1 + text[..at].matches('\n').count();
    // kubectl's JSON error: the rest is one piece, which does not read as JSON.
    let stop = |at: usize| Piece { text: &text[at..], line: line_at(at), json: true, separated: false };
    loop {
        // Between JSON values, JSON's blanks (a `\v` is not one: it ends the stream).
        let start = end + text[end..].len() - text[end..].trim_start_matches([' ', '\t', '\n', '\r']).len();
        if start == text.len() {
            return pieces;
        }
        let value = &text[start..json_value_end(text, start)];
        match serde_json::from_str::<serde_json::Value>(value) {
            Ok(_) => {
                end = start + value.len();
                count += 1;
                pieces.push(Piece { text: value, line: line_at(start), json: true, separated: false });
            }
            Err(_) if count > 1 => {
                pieces.push(stop(end));
                return pieces;
            }
            Err(_) => break,
        }
    }
    // The YAML decoder reads on from there, once the space after the last value is eaten up to
    // and including the first newline, four bytes at a time: with fewer than four left, kubectl
    // stops with the JSON error (apimachinery YAMLOrJSONDecoder.consumeWhitespace).
    let mut rest = end;
    loop {
        let Some(c) = text[rest..].chars().next().filter(|_| text.len() - rest >= 4) else {
            pieces.push(stop(end));
            return pieces;
        };
        if !c.is_whitespace() {
            break;
        }
        rest += c.len_utf8();
        if c == '\n' {
            break;
        }
    }
    pieces.extend(split_yaml(&text[rest..], line_at(rest) - 1));
    pieces
}

/// Where the JSON value that starts at `at` ends, as far as its brackets and strings say
/// (whether it is JSON is for the parser to say). A number or a literal at the top ends where
/// its characters do, as encoding/json's Decoder ends it (`7}` is the value 7, then `}`).
fn json_value_end(text: &str, at: usize) -> usize {
    let rest = &text.as_bytes()[at.min(text.len())..];
    match rest.first() {
        Some(b'-' | b'0'..=b'9') => {
            // A leading zero is a whole integer part: `08` is 0, then 8.
            let sign = usize::from(rest[0] == b'-');
            if rest.get(sign) == Some(&b'0') && rest.get(sign + 1).is_some_and(u8::is_ascii_digit) {
                return at + sign + 1;
            }
            let n = rest.iter().position(|b| !matches!(b, b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-'));
            return at + n.unwrap_or(rest.len());
        }
        Some(b't' | b'f' | b'n') => {
            if let Some(word) = ["true", "false", "null"].iter().find(|w| rest.starts_with(w.as_bytes())) {
                return at + word.len();
            }
        }
        _ => {}
    }
    let b = text.as_bytes();
    let (mut depth, mut string, mut i) = (0i32, false, at);
    while i < b.len() {
        match (string, b[i]) {
            (true, b'\\') => i += 1,
            (true, b'"') if depth == 0 => return i + 1,
            (true, b'"') | (false, b'"') => string = !string,
            (false, b'{' | b'[') => depth += 1,
            (false, b'}' | b']') if depth <= 1 => return i + 1,
            (false, b'}' | b']') => depth -= 1,
            (false, b' ' | b'\t' | b'\n' | b'\r' | b',' | b':') if depth == 0 && i > at => return i,
            _ => {}
        }
        i += 1;
    }
    b.len()
}

/// YAML split at `---` lines (see [`split`]); `lines_before` is added to each piece's line.
fn split_yaml(text: &str, lines_before: usize) -> Vec<Piece<'_>> {
    let mut pieces = Vec::new();
    let (mut start, mut start_line, mut offset) = (0usize, 1usize, 0usize);
    fn push<'t>(body: &'t str, line: usize, separated: bool, pieces: &mut Vec<Piece<'t>>) {
        // (go-yaml reads a piece of comments too: a character its reader refuses is an error.)
        // (Lines end at a carriage return too: `# a\rb: 1` is a comment, then `b: 1`.)
        if body.split(['\n', '\r']).any(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
            || !body.chars().all(crate::yaml::printable)
        {
            pieces.push(Piece { text: body, line, json: false, separated });
        }
    }
    // Whether kubectl's reader holds lines of the piece: a `---` line read when it holds none
    // (the text's first line, or right after another separator) does not end a piece for
    // kubectl (apimachinery YAMLReader.Read keeps it, and go-yaml reads it as a document's
    // start), so what follows is not read as the start of a stream.
    let (mut buffered, mut separated) = (false, false);
    for (n, line) in text.split_inclusive('\n').enumerate() {
        // More than a comment after `---` is kubectl's error, which loses the piece read so
        // far: the line stays in it, and reading the piece says so.
        if line.strip_prefix("---").is_some_and(|rest| separator(rest).is_ok()) {
            push(&text[start..offset], start_line + lines_before, separated, &mut pieces);
            // The next piece starts at the end of the `---` line (kubectl drops the line).
            start = offset + line.strip_suffix('\n').unwrap_or(line).len();
            start_line = n + 1;
            separated = buffered;
            buffered = !buffered;
        } else {
            buffered = true;
        }
        offset += line.len();
    }
    push(&text[start.min(text.len())..], start_line + lines_before, separated, &mut pieces);
    pieces
}

/// What follows `---` at the start of a line: nothing or a comment (a document separator), or
/// kubectl's error (`invalid Yaml document separator: ...`) with the text that follows.
pub(crate) fn separator(rest: &str) -> Result<(), &str> {
    match rest.trim() {
        rest if rest.is_empty() || rest.starts_with('#') => Ok(()),
        rest => Err(rest),
    }
}

/// A parser message about one document of a stream, its `line N` made lines of the file.
pub fn shift_lines(message: &str, by: usize) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(i) = rest.find("line ") {
        out.push_str(&rest[..i + 5]);
        rest = &rest[i + 5..];
        let digits = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
        match rest[..digits].parse::<usize>() {
            Ok(n) if digits > 0 => out.push_str(&(n + by).to_string()),
            _ => out.push_str(&rest[..digits]),
        }
        rest = &rest[digits..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  labels:\n    app.kubernetes.io/name: web\nspec:\n  template:\n    spec:\n      containers:\n        - name: a\n          image: nginx\n        - name: b\n";

    #[test]
    fn fields_are_found_at_their_keys() {
        let p = Positions::of(DOC);
        assert_eq!(p.locate("metadata.name"), Some((4, 3)));
        assert_eq!(p.locate("spec.template.spec.containers[0].image"), Some((12, 11)));
        assert_eq!(p.locate("spec.template.spec.containers[1]"), Some((13, 11)));
        assert_eq!(p.locate("metadata.labels[app.kubernetes.io/name]"), Some((6, 5)));
    }

    #[test]
    fn missing_fields_are_found_at_their_nearest_parent() {
        let p = Positions::of(DOC);
        assert_eq!(p.locate("spec.replicas"), Some((7, 1)));
        assert_eq!(p.locate("spec.template.spec.containers[1].image"), Some((13, 11)));
        assert_eq!(p.locate("spec.template.spec.containers[5].name"), Some((10, 7)));
        assert_eq!(p.locate("<nil>"), Some((1, 1)));
    }

    #[test]
    fn fields_of_list_items_are_found_under_their_item() {
        let p = Positions::of("kind: List\nitems:\n  - kind: A\n    spec:\n      x: 1\n");
        assert_eq!(p.locate_in("items[0]", "spec.x"), Some((5, 7)));
        assert_eq!(p.locate_in("items[0]", "<nil>"), Some((3, 5)));
        assert_eq!(p.locate_in("", "kind"), Some((1, 1)));
    }

    #[test]
    fn json_documents_have_positions_too() {
        let p = Positions::of("{\n  \"spec\": {\n    \"replicas\": -1\n  }\n}\n");
        assert_eq!(p.locate("spec.replicas"), Some((3, 5)));
    }

    #[test]
    fn streams_split_at_document_markers_with_their_lines() {
        let text = "# leading comment\n---\na: 1\n---\n# only a comment\n--- # note\nb: 2\n...\n";
        let pieces = split(text);
        assert_eq!(pieces.len(), 2);
        assert_eq!((pieces[0].line, pieces[0].text), (2, "\na: 1\n"));
        assert_eq!(pieces[1].line, 6);
        assert!(pieces[1].text.contains("b: 2"));
        assert!(!pieces[1].text.contains("note"));
    }

    /// apimachinery's YAMLReader: every line that begins with `---` splits; more than a comment
    /// after it is an error, which the piece before it takes.
    #[test]
    fn streams_split_as_kubectl_splits_them() {
        let pieces = split("a: 1\n---\t# c\nb: 2\n---x\nc: 3\n--- \nd: 4\n...\ne: 5\n");
        let texts: Vec<&str> = pieces.iter().map(|p| p.text).collect();
        assert_eq!(texts, ["a: 1\n", "\nb: 2\n---x\nc: 3\n", "\nd: 4\n...\ne: 5\n"]);
        assert_eq!(pieces.iter().map(|p| p.line).collect::<Vec<_>>(), [1, 2, 6]);
        assert!(pieces.iter().all(|p| !p.json));
    }

    /// apimachinery's YAMLOrJSONDecoder: JSON values one after another; after one value (or
    /// none) that does not parse, YAML from the next line; after two, the JSON error.
    #[test]
    fn json_streams_split_into_their_values() {
        let pieces = split("{\"a\": 1} {\"b\": \"}\\\"\"}\n[1, 2]\n");
        let texts: Vec<(&str, usize, bool)> = pieces.iter().map(|p| (p.text, p.line, p.json)).collect();
        assert_eq!(texts, [("{\"a\": 1}", 1, true), ("{\"b\": \"}\\\"\"}", 1, true), ("[1, 2]", 2, true)]);
        let pieces = split("{\"a\": 1}\nb: 2\n---\nc: 3\n");
        let texts: Vec<(&str, usize, bool)> = pieces.iter().map(|p| (p.text, p.line, p.json)).collect();
        assert_eq!(texts, [("{\"a\": 1}", 1, true), ("b: 2\n", 2, false), ("\nc: 3\n", 3, false)]);
        let pieces = split("{\"a\": 1}\n{\"b\": 2}\nc: 3\n");
        assert_eq!(pieces.last().map(|p| (p.text, p.json)), Some(("\nc: 3\n", true)));
        // Fewer than four bytes after the value: no YAML (consumeWhitespace reads four).
        assert_eq!(split("{\"a\": 1}\n#").last().map(|p| (p.text, p.json)), Some(("\n#", true)));
        assert_eq!(split("{a: 1}").iter().map(|p| (p.text, p.json)).collect::<Vec<_>>(), [("{a: 1}", false)]);
    }

    #[test]
    fn parser_lines_shift_to_the_stream() {
        assert_eq!(
            shift_lines("did not find expected ',' at line 7 column 1, while parsing at line 6 column 7", 15),
            "did not find expected ',' at line 22 column 1, while parsing at line 21 column 7"
        );
        assert_eq!(shift_lines("no line here", 3), "no line here");
    }

    #[test]
    fn odd_text_never_panics() {
        for text in ["", "---", "[", "{a: [1, {b: ]", "- - - -", "a: &x 1\nb: *x\n", "? [a]\n: 1\n", "\u{feff}a: 1"] {
            let p = Positions::of(text);
            let _ = p.locate("a.b[3][x]");
            let _ = split(text);
        }
    }
}
