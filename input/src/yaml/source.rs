//! The text libyaml-safer is given: where libyaml 0.2.5 reads differently from the libyaml
//! go-yaml v2 was ported from, the text is rewritten so that libyaml-safer reads what go-yaml
//! v2 reads. Every rewrite keeps the text's length (one ASCII character for another), so every
//! position libyaml-safer reports is a position in the original text.
//!
//! Each rewrite is found by parsing: libyaml-safer stops at the first place go-yaml v2 reads
//! differently, the place is rewritten, and the text is parsed again (only texts holding such
//! a place are parsed more than once).

use std::borrow::Cow;

use libyaml_safer::{Mark, Parser};

/// Where the text was rewritten (byte offsets).
#[derive(Default)]
pub(super) struct Rewrites {
    /// The backslashes of `\'` read as `\"` (see [`go_source`]).
    pub quotes: Vec<usize>,
    /// The `:`s read as `x`.
    pub colons: Vec<usize>,
    /// What byte order marks past the text's start are read as (see [`go_source`]).
    pub bom: Option<char>,
}

/// go-yaml v2 skips a byte order mark at the start of a line only when its decoded buffer
/// begins with one (yamlprivateh.go `is_bom` looks at the buffer's first bytes, not at the
/// position): past the stream's start (whose mark the reader takes), a mark is a character
/// (`\n\u{feff}a:` is the key `\u{feff}a`), where libyaml skips it at the start of any line.
/// Each is read as a character of the private use area the text does not hold (as long in
/// UTF-8, so every position stays), made a mark again in the scalars (`restore_bom`).
/// Not modeled: the buffer beginning with a mark elsewhere than at the start (a second mark
/// there, or one where the reader refilled its buffer, every 512 bytes or so).
fn byte_order_marks(source: &mut Cow<'_, str>) -> Option<char> {
    let start = if source.starts_with('\u{feff}') { '\u{feff}'.len_utf8() } else { 0 };
    if !source[start..].contains('\u{feff}') {
        return None;
    }
    let stand_in = ('\u{e000}'..='\u{e0ff}').find(|c| !source.contains(*c))?;
    let rest = source[start..].replace('\u{feff}', stand_in.encode_utf8(&mut [0; 4]));
    source.to_mut().replace_range(start.., &rest);
    Some(stand_in)
}

/// A scalar's value with the byte order marks [`byte_order_marks`] read as `bom`.
pub(super) fn restore_bom(value: &mut String, bom: Option<char>) {
    if let Some(c) = bom.filter(|c| value.contains(*c)) {
        *value = value.replace(c, "\u{feff}");
    }
}

/// A character of a tag for libyaml 0.2.5 outside a verbatim `!<…>` (scanner.c
/// `yaml_parser_scan_tag_handle` and `_uri` with `uri_char` false).
fn tag_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"_-;/?:@&=+$.%!~*'()".contains(&b)
}

/// The offsets of the `,`, `[` and `]` that may end a tag for libyaml 0.2.5 and continue it
/// for go-yaml v2 (scannerc.go `yaml_parser_scan_tag_uri` takes them as URI characters): each
/// right after a run of tag characters holding a `!`, and not yet known (`passed`) to be
/// elsewhere than after a tag.
fn tag_ends(text: &str, passed: &[usize]) -> Vec<usize> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    // Whether the run of tag characters that ends here holds a `!`.
    let mut bang = false;
    for (i, &b) in bytes.iter().enumerate() {
        if matches!(b, b',' | b'[' | b']') && bang && !passed.contains(&i) {
            out.push(i);
        }
        bang = match tag_char(b) {
            true => bang || b == b'!',
            false => false,
        };
    }
    out
}

/// The text go-yaml v2 reads, for libyaml-safer:
///
/// - `\'` in a double-quoted scalar is `'` for go-yaml v2, and refused by libyaml 0.2.1 and
///   later: each `\'` libyaml stops at is read as `\"`, and `go_escapes` makes its `"` a `'`
///   again ([`Rewrites::quotes`]).
/// - A `:` followed by a flow indicator (`,?[]{}`) inside a plain scalar of a flow collection
///   is part of the scalar for go-yaml v2 (scannerc.go `yaml_parser_scan_plain_scalar` ends a
///   plain scalar only at `:` and a blank, or at the indicator), where libyaml 0.2.5 refuses it
///   ("found unexpected ':'"): each such `:` is read as `x`, and [`restore_colons`] makes it
///   `:` again in the scalar's value ([`Rewrites::colons`]).
/// - `,`, `[` and `]` right after a tag are part of the tag for go-yaml v2 (`a: !x,y b` is the
///   string `b` tagged `!x,y`; `[!x]` is "did not find expected ',' or ']'"), where libyaml
///   0.2.5 ends the tag: refused ("did not find expected whitespace or line break"), or, before
///   a `,` in a flow collection, a panic of libyaml-safer 0.3.0 (`scan_tag`'s "TODO: What is
///   expected here?", where libyaml goes on). Each is read as `;`, a tag character for both:
///   the tag's text differs, which no reading of a tag in kubedv looks at but the core tags
///   (`!!int`), none of which holds one.
///
/// libyaml-safer never sees a `,` that may end a tag: while such places are left, each parse
/// is given them as `^` (no tag character), and decides the first: a tag ends there if the
/// parse stops there, refusing the `^`; otherwise (the parse went past it) the place is no
/// tag's end, and keeps its character. Places past the first error no rewrite removes are
/// read as `;` (a parse stops before them).
pub(super) fn go_source(text: &str) -> (Cow<'_, str>, Rewrites) {
    let mut source = Cow::Borrowed(text);
    let mut rewrites = Rewrites::default();
    let before_indicator = |t: &str| [":,", ":?", ":[", ":]", ":{", ":}"].iter().any(|p| t.contains(p));
    rewrites.bom = byte_order_marks(&mut source);
    let mut passed = Vec::new();
    if !text.contains("\\'") && !before_indicator(text) && tag_ends(text, &passed).is_empty() && !flow(text) {
        return (source, rewrites);
    }
    // At most one parse per character: each makes a rewrite or decides one place.
    for _ in 0..=text.len() {
        let ends = tag_ends(&source, &passed);
        let mut probe = source.clone();
        for &at in &ends {
            probe.to_mut().replace_range(at..at + 1, "^");
        }
        let mut parser = Parser::new();
        parser.set_input(Chunks::new(&probe));
        let error = match parser.find(Result::is_err) {
            // The reader's error (a control character) stops before the scanner reads its chunk.
            Some(Err(e)) => match e.problem_mark() {
                Some(m) => Some((m.index as usize, e.problem(), e.context())),
                None => break,
            },
            _ => None,
        };
        let first = ends.first().copied();
        match error {
            Some((at, problem, context)) if Some(at) == first => {
                if problem != "did not find expected whitespace or line break"
                    || context != Some("while scanning a tag")
                {
                    break;
                }
                source.to_mut().replace_range(at..at + 1, ";");
            }
            Some((at, _, _)) if first.is_some_and(|f| f < at) => passed.extend(first),
            None if first.is_some() => passed.extend(first),
            Some((at, "found unknown escape character", _)) if source[at..].starts_with("\\'") => {
                source.to_mut().replace_range(at + 1..at + 2, "\"");
                rewrites.quotes.push(at);
            }
            Some((at, "found unexpected ':'", _)) if source[at..].starts_with(':') => {
                source.to_mut().replace_range(at..at + 1, "x");
                rewrites.colons.push(at);
            }
            _ => break,
        }
    }
    for at in tag_ends(&source, &passed) {
        source.to_mut().replace_range(at..at + 1, ";");
    }
    if let Some(at) = flow_question_mark(&source) {
        source.to_mut().replace_range(at..at + 1, "[");
    }
    (source, rewrites)
}

/// Whether a `?` may be inside a flow collection.
fn flow(text: &str) -> bool {
    text.find(['[', '{']).is_some_and(|at| text[at..].contains('?'))
}

/// The first error of `text`'s parse, with `replace`'s characters put in, and every `,` that
/// may end a tag past the first of them read as `^` (see [`go_source`]): where, the problem,
/// its context. `None` when it parses (or its reader refuses a character).
fn probe(text: &str, replace: &[usize], with: &str) -> Option<(usize, &'static str, Option<&'static str>)> {
    let mut probe = Cow::Borrowed(text);
    for &at in replace {
        probe.to_mut().replace_range(at..at + 1, with);
    }
    let first = replace.first().copied().unwrap_or(0);
    for at in tag_ends(&probe.clone(), &[]).into_iter().filter(|at| *at > first) {
        probe.to_mut().replace_range(at..at + 1, "^");
    }
    let mut parser = Parser::new();
    parser.set_input(Chunks::new(&probe));
    match parser.find(Result::is_err) {
        Some(Err(e)) => e.problem_mark().map(|m| (m.index as usize, e.problem(), e.context())),
        _ => None,
    }
}

/// go-yaml v2 ends a plain scalar of a flow collection at a `?` (scannerc.go
/// `yaml_parser_scan_plain_scalar` lists it with `,[]{}`), which then stands where a `,` or the
/// collection's end must: "did not find expected ',' or ']'" (or `'}'`) there. libyaml 0.2.5
/// reads it inside the scalar (`[a?b]` is `["a?b"]`, `[a\n ?]` `["a ?"]`). Every `?` but
/// one right after `[{,` (a key's indicator for both) is read as `[`, which ends a scalar where
/// it stands with that error; when that parse stops at one of them, and a parse with that one
/// alone does too, it is read so. The offset of that `?`. (A `?` that is a key's indicator in
/// block context, `? a`, read as `[`, may hide a later one: a complex key and such a `?` in
/// one text.)
fn flow_question_mark(text: &str) -> Option<usize> {
    if !flow(text) {
        return None;
    }
    let bytes = text.as_bytes();
    // Only where a bracket is open (quoted text skipped): a `?` in block context (`a: ?b`)
    // read as `[` would open a collection and hide the one that counts.
    let (mut depth, mut quote, mut open) = (0usize, None, vec![false; bytes.len()]);
    let mut i = 0;
    while i < bytes.len() {
        match (quote, bytes[i]) {
            // An escape in a double-quoted scalar: the next character is inside it.
            (Some(b'"'), b'\\') => i += 1,
            (Some(q), b) if b == q => quote = None,
            (Some(_), _) => {}
            (None, b @ (b'"' | b'\'')) => quote = Some(b),
            (None, b'[' | b'{') => depth += 1,
            (None, b']' | b'}') => depth = depth.saturating_sub(1),
            _ => {}
        }
        if let Some(o) = open.get_mut(i) {
            *o = depth > 0;
        }
        i += 1;
    }
    let marks: Vec<usize> = (1..bytes.len())
        .filter(|&i| bytes[i] == b'?' && open[i] && !matches!(bytes[i - 1], b'[' | b'{' | b','))
        .collect();
    let ends_here = |found: Option<(usize, &str, Option<&str>)>| match found {
        Some((at, problem, _)) if problem.starts_with("did not find expected ','") => Some(at),
        _ => None,
    };
    let at = ends_here(probe(text, &marks, "[")).filter(|at| marks.contains(at))?;
    ends_here(probe(text, &[at], "[")).filter(|found| *found == at)
}

/// The text as go-yaml v2's reader takes it in (readerc.go `yaml_parser_update_buffer`): 512
/// bytes at a time (`input_raw_buffer_size`, a character cut at the end left for the next),
/// each decoded (and its control characters refused) when the scanner needs more. So a
/// control character past what a piece's first document needed is not read, as in go-yaml.
pub(super) struct Chunks<'t> {
    text: &'t [u8],
    pos: usize,
    chunk_end: usize,
}

impl<'t> Chunks<'t> {
    const SIZE: usize = 512;

    pub(super) fn new(text: &'t str) -> Self {
        Chunks { text: text.as_bytes(), pos: 0, chunk_end: Self::SIZE }
    }

    /// The end of the current chunk, at a character boundary.
    fn end(&self) -> usize {
        let mut end = self.chunk_end.min(self.text.len());
        while end > self.pos && self.text.get(end).is_some_and(|b| b & 0xC0 == 0x80) {
            end -= 1;
        }
        end
    }
}

impl std::io::Read for Chunks<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let available = std::io::BufRead::fill_buf(self)?;
        let n = available.len().min(buf.len());
        buf[..n].copy_from_slice(&available[..n]);
        std::io::BufRead::consume(self, n);
        Ok(n)
    }
}

impl std::io::BufRead for Chunks<'_> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        if self.end() <= self.pos {
            self.chunk_end = self.pos + Self::SIZE;
        }
        Ok(&self.text[self.pos..self.end()])
    }

    fn consume(&mut self, amt: usize) {
        self.pos += amt;
    }
}

/// The `:`s [`go_source`] read as `x`, put back in a plain scalar's value (spanning `at` to
/// `end` in `source`). A plain scalar's value is its text folded: its line breaks and the
/// blanks around them are made a space or taken out, and nothing else, so the text's other
/// characters are the value's, in order.
pub(super) fn restore_colons(source: &str, at: Mark, end: Mark, value: &mut String, colons: &[usize]) {
    let (start, end) = (at.index as usize, end.index as usize);
    let Some(span) = source.get(start..end) else { return };
    let mut patched: Vec<usize> = colons.iter().filter(|&&c| (start..end).contains(&c)).map(|c| c - start).collect();
    if patched.is_empty() {
        return;
    }
    patched.reverse();
    let blank = |c: char| matches!(c, ' ' | '\t' | '\n' | '\r');
    let mut in_value = value.char_indices().filter(|(_, c)| !blank(*c));
    let mut out = Vec::new();
    for (i, c) in span.char_indices().filter(|(_, c)| !blank(*c)) {
        let Some((j, v)) = in_value.next() else { return };
        if v != c {
            return;
        }
        if patched.last() == Some(&i) {
            patched.pop();
            out.push(j);
        }
    }
    for j in out {
        value.replace_range(j..j + 1, ":");
    }
}
