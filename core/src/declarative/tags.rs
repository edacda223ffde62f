//! The `+k8s:` comment tag grammar, after gengo's `codetags` (k8s.io/gengo/v2/codetags):
//!
//! ```text
//! +k8s:name
//! +k8s:name=50 | =identifier | ="quoted" | =`raw` | =true
//! +k8s:name("positional")=...
//! +k8s:name(key: "v", n: 10, b: true)=...
//! +k8s:name=+k8s:other(arg)=value        (a tag as the payload, chained)
//! +k8s:name=value  # trailing comment
//! ```
//!
//! Arguments are one positional value or named `key: value` pairs (not mixed); values are
//! strings (quoted, or identifiers with `-` and `.`), integers (Go syntax: `10`, `-1`, `0x1f`)
//! or booleans. Errors carry the column where the problem is.

use alloc::boxed::Box;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::field::strconv::parse_int;
use crate::golang::{Comment, Pos};

/// The kind of a scalar value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueKind {
    /// A quoted string or an identifier.
    String,
    /// An integer literal (kept as written; see [`parse_int`](crate::field::strconv::parse_int)).
    Int,
    /// `true` or `false`.
    Bool,
}

/// An argument: `name: value` or a positional value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arg {
    /// The name of a named argument.
    pub name: Option<String>,
    /// The value as text (strings unquoted).
    pub value: String,
    /// What kind of value it is.
    pub kind: ValueKind,
}

/// A tag's payload after `=`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Payload {
    /// No `=`.
    None,
    /// A scalar.
    Scalar(String, ValueKind),
    /// Another tag (`+k8s:eachVal=+k8s:minimum=1`).
    Tag(Box<Tag>),
}

/// A parsed tag.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tag {
    /// The name without `+` (`k8s:maxLength`).
    pub name: String,
    /// The arguments in parentheses.
    pub args: Vec<Arg>,
    /// What follows `=`.
    pub payload: Payload,
    /// Where the tag's `+` is.
    pub pos: Pos,
}

impl Tag {
    /// The named argument `name`, or the positional one when `name` is `""`.
    pub fn arg(&self, name: &str) -> Option<&Arg> {
        self.args.iter().find(|a| a.name.as_deref().unwrap_or("") == name)
    }
}

/// A malformed tag: what is wrong and where (the 1-based column on the comment's line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TagError {
    /// Where.
    pub pos: Pos,
    /// What.
    pub message: String,
}

/// The validation tags in a comment block, each parsed, with errors for malformed ones.
///
/// Like validation-gen's registry (`ExtractTags`), a comment tag whose name is not a
/// validation tag is skipped before it is parsed: `+k8s:deepcopy-gen=package`,
/// `+k8s:prerelease-lifecycle-gen:introduced=1.19` and `+k8s:deprecated=kind` belong to other
/// generators. [`unregistered`] lists the skipped ones.
pub fn extract(comments: &[Comment]) -> Vec<Result<Tag, TagError>> {
    let mut out = Vec::new();
    for (text, pos) in comment_tags(comments) {
        let name = tag_name(text);
        if super::catalog::is_registered(name) && !SUBRESOURCE_TAGS.contains(&name) {
            out.push(parse(text, pos));
        }
    }
    out
}

/// The tags naming the request paths a type's validation answers, read apart from the others
/// ([`subresource_tags`]).
const SUBRESOURCE_TAGS: [&str; 2] = ["k8s:supportsSubresource", "k8s:isSubresource"];

/// A block's `+k8s:supportsSubresource` / `+k8s:isSubresource` tags, each as its name, its text
/// (without the `+`) and the position of the `+`.
pub fn subresource_tags(comments: &[Comment]) -> Vec<(&str, &str, Pos)> {
    let mut out = Vec::new();
    for (text, pos) in comment_tags(comments) {
        let name = tag_name(text);
        if SUBRESOURCE_TAGS.contains(&name) {
            out.push((name, text, pos));
        }
    }
    out
}

/// The `+k8s:` comment tags of a block that are not validation tags, by name and position.
pub fn unregistered(comments: &[Comment]) -> Vec<(&str, Pos)> {
    comment_tags(comments)
        .map(|(text, pos)| (tag_name(text), pos))
        .filter(|(name, _)| !super::catalog::is_registered(name))
        .collect()
}

/// Each `+k8s:` comment tag without its `+`, with the position of the `+`.
fn comment_tags(comments: &[Comment]) -> impl Iterator<Item = (&str, Pos)> {
    comments.iter().filter_map(|c| {
        let trimmed = c.text.trim_start_matches([' ', '\t']);
        let indent = c.text.chars().count() - trimmed.chars().count();
        let text = trimmed.strip_prefix('+').filter(|t| t.starts_with("k8s:"))?;
        Some((text, Pos { line: c.pos.line, column: c.pos.column + indent as u32 }))
    })
}

/// A tag's name: what comes before its arguments, its `=` or the end (gengo's codetags).
fn tag_name(text: &str) -> &str {
    let end = text.find(|c: char| c == '(' || c == '=' || c.is_whitespace()).unwrap_or(text.len());
    &text[..end]
}

fn is_ident_begin(c: char) -> bool {
    c.is_alphabetic() || c == '_'
}

fn is_ident_interior(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '.' | '-')
}

fn is_tag_name_interior(c: char) -> bool {
    is_ident_interior(c) || c == ':'
}

struct Scanner {
    chars: Vec<char>,
    at: usize,
    /// The position of the tag's `+` (column of chars[0] is one more).
    origin: Pos,
}

impl Scanner {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn peek_n(&self, n: usize) -> Option<char> {
        self.chars.get(self.at + n).copied()
    }

    fn err<T>(&self, message: String) -> Result<T, TagError> {
        let pos = Pos { line: self.origin.line, column: self.origin.column + 1 + self.at as u32 };
        Err(TagError { pos, message })
    }

    fn skip_ws(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.at += 1;
        }
    }

    fn ident(&mut self, interior: fn(char) -> bool) -> String {
        let start = self.at;
        self.at += 1;
        while self.peek().is_some_and(interior) {
            self.at += 1;
        }
        self.chars[start..self.at].iter().collect()
    }

    fn number(&mut self) -> Result<String, TagError> {
        let start = self.at;
        if matches!(self.peek(), Some('+' | '-')) {
            self.at += 1;
        }
        while self.peek().is_some_and(|c| c.is_ascii_alphanumeric()) {
            self.at += 1;
        }
        let text: String = self.chars[start..self.at].iter().collect();
        if parse_int(&text).is_none() {
            self.at = start;
            return self.err(format!("invalid number {text:?}: expected an integer like 10, -1 or 0x1f"));
        }
        Ok(text)
    }

    fn string(&mut self) -> Result<String, TagError> {
        let start = self.at;
        let quote = self.chars[self.at];
        self.at += 1;
        let mut out = String::new();
        loop {
            match self.peek() {
                None => {
                    self.at = start;
                    return self.err(format!("unterminated string: add the closing {quote}"));
                }
                Some('\\') => {
                    match self.peek_n(1) {
                        Some(c) if c == quote || c == '\\' => out.push(c),
                        Some(c) => {
                            self.at += 1;
                            return self
                                .err(format!("unsupported escape \\{c} in a tag string (only \\{quote} and \\\\)"));
                        }
                        None => return self.err("unterminated string".into()),
                    }
                    self.at += 2;
                }
                Some(c) if c == quote => {
                    self.at += 1;
                    return Ok(out);
                }
                Some(c) => {
                    out.push(c);
                    self.at += 1;
                }
            }
        }
    }

    /// Whitespace then `#` (a trailing comment), or nothing.
    fn at_end_or_comment(&mut self) -> bool {
        let mut i = 0;
        while self.peek_n(i).is_some_and(char::is_whitespace) {
            i += 1;
        }
        match self.peek_n(i) {
            None => true,
            Some('#') => {
                self.at = self.chars.len();
                true
            }
            _ => false,
        }
    }
}

/// How many tags one chain (`a=+b=+c...`) may hold.
const MAX_CHAIN: usize = 32;

/// Parses one tag (without its leading `+`) found at `pos`.
pub fn parse(input: &str, pos: Pos) -> Result<Tag, TagError> {
    let mut s = Scanner { chars: input.trim_end().chars().collect(), at: 0, origin: pos };
    // A chain `a=+b=+c=v` is parsed in a loop, then nested from the end.
    let mut chain: Vec<Tag> = Vec::new();
    let payload = loop {
        // Tags nest a few levels in practice; a long chain would only cost stack when dropped.
        if chain.len() >= MAX_CHAIN {
            return s.err(format!("tags nest more than {MAX_CHAIN} levels deep"));
        }
        let tag_pos = Pos { line: pos.line, column: pos.column + s.at as u32 };
        if !s.peek().is_some_and(is_ident_begin) {
            return s.err("expected a tag name".into());
        }
        let name = s.ident(is_tag_name_interior);
        let mut args = Vec::new();
        if s.peek() == Some('(') {
            s.at += 1;
            args = parse_args(&mut s)?;
        }
        chain.push(Tag { name, args, payload: Payload::None, pos: tag_pos });
        if s.peek() != Some('=') {
            if !s.at_end_or_comment() {
                let c = s.peek().unwrap_or(' ');
                return s.err(format!("unexpected character {c:?} after the tag name"));
            }
            break Payload::None;
        }
        s.at += 1;
        match s.peek() {
            Some('+') if s.peek_n(1).is_some_and(is_ident_begin) => {
                s.at += 1;
                continue;
            }
            Some(c) if c == '-' || c == '+' || c.is_ascii_digit() => {
                let n = s.number()?;
                if !s.at_end_or_comment() {
                    return s.err("unexpected text after the value".into());
                }
                break Payload::Scalar(n, ValueKind::Int);
            }
            Some('"' | '`') => {
                let v = s.string()?;
                if !s.at_end_or_comment() {
                    return s.err("unexpected text after the value".into());
                }
                break Payload::Scalar(v, ValueKind::String);
            }
            Some(c) if is_ident_begin(c) => {
                let v = s.ident(is_ident_interior);
                if !s.at_end_or_comment() {
                    let c = s.peek().unwrap_or(' ');
                    return s.err(format!("unexpected character {c:?} in the value: quote values that contain it"));
                }
                let kind = if v == "true" || v == "false" { ValueKind::Bool } else { ValueKind::String };
                break Payload::Scalar(v, kind);
            }
            None => return s.err("expected a value after '='".into()),
            Some(c) => {
                return s.err(format!(
                    "unexpected character {c:?}: a value is a number, a quoted string, an identifier or a +tag"
                ))
            }
        }
    };
    let mut tag = chain.pop().expect("the loop pushes before breaking");
    tag.payload = payload;
    while let Some(mut outer) = chain.pop() {
        outer.payload = Payload::Tag(Box::new(tag));
        tag = outer;
    }
    Ok(tag)
}

fn parse_args(s: &mut Scanner) -> Result<Vec<Arg>, TagError> {
    let mut args: Vec<Arg> = Vec::new();
    let mut name: Option<String> = None;
    loop {
        let value = match s.peek() {
            Some(')') if name.is_none() && args.is_empty() => {
                s.at += 1;
                return Ok(args);
            }
            Some(c) if c == '-' || c == '+' || c.is_ascii_digit() => Some((s.number()?, ValueKind::Int)),
            Some('"' | '`') => Some((s.string()?, ValueKind::String)),
            Some(c) if is_ident_begin(c) => {
                let ident = s.ident(is_ident_interior);
                match s.peek() {
                    Some(':') if name.is_none() => {
                        s.at += 1;
                        s.skip_ws();
                        name = Some(ident);
                        None
                    }
                    Some(',' | ')') => {
                        let kind =
                            if ident == "true" || ident == "false" { ValueKind::Bool } else { ValueKind::String };
                        Some((ident, kind))
                    }
                    _ => return s.err("expected ',', ')' or ':' after an argument".into()),
                }
            }
            None => return s.err("unexpected end of the tag: close the arguments with ')'".into()),
            Some(c) => return s.err(format!("unexpected character {c:?} in the arguments")),
        };
        let Some((value, kind)) = value else { continue };
        let arg = Arg { name: name.take(), value, kind };
        let named = arg.name.is_some();
        if let Some(first) = args.first() {
            if first.name.is_some() != named {
                return s.err("can't mix named and positional arguments".into());
            }
            if !named {
                return s.err("multiple arguments must use 'name: value' syntax".into());
            }
        }
        args.push(arg);
        match s.peek() {
            Some(',') => {
                s.at += 1;
                s.skip_ws();
            }
            Some(')') => {
                s.at += 1;
                return Ok(args);
            }
            None => return s.err("unexpected end of the tag: close the arguments with ')'".into()),
            Some(c) => return s.err(format!("unexpected character {c:?} after an argument: expected ',' or ')'")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Result<Tag, TagError> {
        parse(s, Pos { line: 1, column: 4 })
    }

    // Expectations from gengo v2/codetags/parser_test.go's grammar.
    #[test]
    fn grammar() {
        let t = p("k8s:required").unwrap();
        assert_eq!((t.name.as_str(), t.args.len(), &t.payload), ("k8s:required", 0, &Payload::None));
        let t = p("k8s:maxLength=10").unwrap();
        assert_eq!(t.payload, Payload::Scalar("10".into(), ValueKind::Int));
        let t = p("k8s:format=k8s-short-name  # a comment").unwrap();
        assert_eq!(t.payload, Payload::Scalar("k8s-short-name".into(), ValueKind::String));
        let t = p(r#"k8s:supportsSubresource="/status""#).unwrap();
        assert_eq!(t.payload, Payload::Scalar("/status".into(), ValueKind::String));
        let t = p(r#"k8s:item(type: "Approved", priority: 10, on: true)=+k8s:zeroOrOneOfMember"#).unwrap();
        assert_eq!(t.args.len(), 3);
        assert_eq!(t.arg("priority").unwrap().kind, ValueKind::Int);
        assert_eq!(t.arg("on").unwrap().kind, ValueKind::Bool);
        let Payload::Tag(inner) = &t.payload else { panic!("tag payload") };
        assert_eq!(inner.name, "k8s:zeroOrOneOfMember");
        let t = p(r#"k8s:alpha(since: "1.36")=+k8s:eachVal=+k8s:minimum=-1"#).unwrap();
        let Payload::Tag(each) = &t.payload else { panic!() };
        let Payload::Tag(min) = &each.payload else { panic!() };
        assert_eq!(min.payload, Payload::Scalar("-1".into(), ValueKind::Int));
        // The inner tag's '+' is the 40th character of the input (column 4 + 39).
        assert_eq!(min.pos.column, 4 + 39);
        let t = p("k8s:ifEnabled(MyFeature)=+k8s:required").unwrap();
        assert_eq!(t.arg("").unwrap().value, "MyFeature");
        assert_eq!(p("k8s:neq=true").unwrap().payload, Payload::Scalar("true".into(), ValueKind::Bool));
        assert_eq!(p(r#"k8s:neq="a \"b\"""#).unwrap().payload, Payload::Scalar("a \"b\"".into(), ValueKind::String));
    }

    #[test]
    fn malformed() {
        for bad in [
            "k8s:maxLength=",
            "k8s:maxLength=10x",
            "k8s:maxLength=99999999999999999999",
            "k8s:item(type: \"a\"",
            "k8s:item(a, b)",
            "k8s:item(a: 1, b)",
            "k8s:neq=\"open",
            "k8s:required extra",
            "k8s:format=a/b",
            "k8s:x(",
            "k8s:x=+",
            "",
        ] {
            assert!(p(bad).is_err(), "{bad}");
        }
        let e = p("k8s:maxLength=10x").unwrap_err();
        assert_eq!(e.pos, Pos { line: 1, column: 4 + 15 });
    }
}
