//! Where things are in a YAML or JSON document: the line and column of every field, found from
//! the parser's events, so an error about `spec.template.spec.containers[0].image` points at
//! the line a person edits. A field that is not there (a missing required field) is located at
//! its nearest parent that is.

use saphyr_parser::{Event, Parser};

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
        for event in Parser::new_from_str(text) {
            let Ok((event, span)) = event else { break };
            let at = (span.start.line(), span.start.col() + 1);
            let node = match event {
                Event::DocumentEnd if root.is_some() => break,
                Event::MappingStart(..) => {
                    stack.push(Frame::Map { at, entries: Vec::new(), key: None });
                    continue;
                }
                Event::SequenceStart(..) => {
                    stack.push(Frame::List { at, items: Vec::new() });
                    continue;
                }
                Event::MappingEnd => match stack.pop() {
                    Some(Frame::Map { at, entries, .. }) => Node { at, kids: Kids::Map(entries) },
                    _ => break,
                },
                Event::SequenceEnd => match stack.pop() {
                    Some(Frame::List { at, items }) => Node { at, kids: Kids::List(items) },
                    _ => break,
                },
                Event::Scalar(value, ..) => {
                    // A scalar in key position is a key.
                    if let Some(Frame::Map { key: key @ None, .. }) = stack.last_mut() {
                        *key = Some((value.into_owned(), at));
                        continue;
                    }
                    Node { at, kids: Kids::Leaf }
                }
                Event::Alias(..) => Node { at, kids: Kids::Leaf },
                _ => continue,
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
        }
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

/// One document of a YAML stream: its text and the line it starts on (1-based).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Piece<'a> {
    pub text: &'a str,
    pub line: usize,
}

/// The documents of a YAML stream, split at `---` lines (a `---` at the start of a line always
/// starts a document: a block scalar's lines are indented), so a broken document does not hide
/// the others. Documents with nothing but comments and blank lines are left out. A `...` line
/// ends a document.
pub fn split(text: &str) -> Vec<Piece<'_>> {
    let mut pieces = Vec::new();
    let (mut start, mut start_line, mut offset) = (0usize, 1usize, 0usize);
    fn push<'t>(body: &'t str, line: usize, pieces: &mut Vec<Piece<'t>>) {
        if body.lines().any(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#')) {
            pieces.push(Piece { text: body, line });
        }
    }
    for (n, line) in text.split_inclusive('\n').enumerate() {
        let bare = line.trim_end_matches(['\n', '\r']);
        let marker = bare == "---" || bare.starts_with("--- ") || bare.starts_with("---\t");
        if marker || bare == "..." {
            push(&text[start..offset], start_line, &mut pieces);
            // The line's own text after `---` (`--- # comment`, `--- !tag`) stays in the next.
            start = if marker { offset + 3 } else { offset + line.len() };
            start_line = n + 1 + usize::from(!marker);
        }
        offset += line.len();
    }
    push(&text[start.min(text.len())..], start_line, &mut pieces);
    pieces
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
