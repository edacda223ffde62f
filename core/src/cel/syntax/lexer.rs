//! CEL tokens: the lexical grammar of the CEL specification (langdef.md), with byte offsets.

use alloc::string::String;
use alloc::vec::Vec;

use crate::cel::common::RESERVED;

/// One token.
#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    Int(i64),
    /// An int literal too big for i64; only valid right after a unary minus (`-9223372036854775808`).
    IntOverflow(u64),
    Uint(u64),
    Double(f64),
    Str(String),
    Bytes(Vec<u8>),
    Ident(String),
    /// A backtick-quoted field name (``a.`b-c` ``).
    Quoted(String),
    True,
    False,
    Null,
    In,
    /// A reserved word that cannot be used as an identifier.
    Reserved(&'static str),
    Punct(&'static str),
    Eof,
}

/// A token and where it starts (byte offset).
#[derive(Clone, Debug)]
pub struct Token {
    pub tok: Tok,
    pub start: usize,
    /// Where the token's text ends.
    pub end: usize,
}

/// A syntax error at a byte offset (the lexer's or the parser's).
#[derive(Debug)]
pub struct SyntaxError {
    pub offset: usize,
    pub message: String,
}

/// A lexical error, and where lexing goes on after it: after a token recognition error
/// ANTLR's lexer drops the character it failed on and carries on; `None` stops it.
#[derive(Debug)]
pub struct LexError {
    pub error: SyntaxError,
    pub resume: Option<usize>,
}

const PUNCT: &[&str] = &[
    "==", "!=", "<=", ">=", "&&", "||", ".?", "<", ">", "!", "+", "-", "*", "/", "%", "?", ":", ".", ",", "(", ")",
    "[", "]", "{", "}",
];

/// Splits `src` into tokens, ending with `Eof`, with the token recognition errors met on the
/// way (the text they dropped makes no token); any other lexical error stops it.
pub fn tokenize(src: &str) -> Result<(Vec<Token>, Vec<SyntaxError>), LexError> {
    let mut lexer = Lexer { src, bytes: src.as_bytes(), pos: 0 };
    let (mut out, mut errors) = (Vec::new(), Vec::new());
    loop {
        lexer.skip_space_and_comments();
        let start = lexer.pos;
        if start >= lexer.bytes.len() {
            out.push(Token { tok: Tok::Eof, start, end: start });
            return Ok((out, errors));
        }
        match lexer.next_token() {
            Ok(tok) => out.push(Token { tok, start, end: lexer.pos }),
            Err(LexError { error, resume: Some(at) }) => {
                errors.push(error);
                lexer.pos = at;
            }
            Err(e) => return Err(e),
        }
    }
}

struct Lexer<'a> {
    src: &'a str,
    bytes: &'a [u8],
    pos: usize,
}

impl Lexer<'_> {
    fn err<T>(&self, offset: usize, message: impl Into<String>) -> Result<T, LexError> {
        Err(LexError { error: SyntaxError { offset, message: message.into() }, resume: None })
    }

    fn peek(&self, n: usize) -> u8 {
        self.bytes.get(self.pos + n).copied().unwrap_or(0)
    }

    fn skip_space_and_comments(&mut self) {
        loop {
            match self.peek(0) {
                b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' => self.pos += 1,
                b'/' if self.peek(1) == b'/' => {
                    while self.pos < self.bytes.len() && self.bytes[self.pos] != b'\n' {
                        self.pos += 1;
                    }
                }
                _ => return,
            }
        }
    }

    fn next_token(&mut self) -> Result<Tok, LexError> {
        let c = self.peek(0);
        if c.is_ascii_digit() || (c == b'.' && self.peek(1).is_ascii_digit()) {
            return self.number();
        }
        if c == b'"' || c == b'\'' {
            return self.string(false, false);
        }
        if c == b'`' {
            let start = self.pos;
            self.pos += 1;
            let body_start = self.pos;
            while self.pos < self.bytes.len() && self.bytes[self.pos] != b'`' {
                let b = self.bytes[self.pos];
                if !(b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-' | b'/' | b' ')) {
                    // ESC_IDENTIFIER holds only letters, digits, '_', '.', '-', '/' and spaces.
                    return self.recognition(start, self.pos);
                }
                self.pos += 1;
            }
            if self.pos >= self.bytes.len() || self.pos == body_start {
                return self.recognition(start, self.pos);
            }
            let name = String::from(&self.src[body_start..self.pos]);
            self.pos += 1;
            return Ok(Tok::Quoted(name));
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            // String prefixes: r, b, rb, br (any case) directly followed by a quote.
            let (raw, bytes, len) = string_prefix(&self.bytes[self.pos..]);
            if len > 0 {
                self.pos += len;
                return self.string(raw, bytes);
            }
            let start = self.pos;
            while self.peek(0).is_ascii_alphanumeric() || self.peek(0) == b'_' {
                self.pos += 1;
            }
            let word = &self.src[start..self.pos];
            return Ok(match word {
                "true" => Tok::True,
                "false" => Tok::False,
                "null" => Tok::Null,
                "in" => Tok::In,
                _ => match RESERVED.iter().find(|r| **r == word) {
                    Some(r) => Tok::Reserved(r),
                    None => Tok::Ident(String::from(word)),
                },
            });
        }
        for p in PUNCT {
            if self.bytes[self.pos..].starts_with(p.as_bytes()) {
                self.pos += p.len();
                return Ok(Tok::Punct(p));
            }
        }
        // ANTLR's lexer: no token starts here. A lone '|', '&' or '=' fails on the character
        // after it (`||`, `&&`, `==`), which its message includes (parser_test.go `a | b`: '| ').
        let fail = if matches!(c, b'|' | b'&' | b'=') { self.pos + 1 } else { self.pos };
        self.recognition(self.pos, fail)
    }

    /// ANTLR's lexer error: `token recognition error at: '<text>'`, the text from where the
    /// token began to the character it failed on (inclusive; to the end when it ran out),
    /// reported where the token began (cel-go `parser_test.go` `1 + $`, `"\xFh"`).
    fn recognition<T>(&self, start: usize, fail: usize) -> Result<T, LexError> {
        Err(self.recognition_error(start, fail))
    }

    fn recognition_error(&self, start: usize, fail: usize) -> LexError {
        let end = self.src[fail.min(self.src.len())..].chars().next().map_or(self.src.len(), |c| fail + c.len_utf8());
        let end = end.min(self.src.len());
        // ANTLR's getErrorDisplay shows line breaks and tabs escaped.
        let mut message = String::from("Syntax error: token recognition error at: '");
        for c in self.src[start..end].chars() {
            match c {
                '\n' => message.push_str("\\n"),
                '\r' => message.push_str("\\r"),
                '\t' => message.push_str("\\t"),
                c => message.push(c),
            }
        }
        message.push('\'');
        LexError { error: SyntaxError { offset: start, message }, resume: Some(end) }
    }

    fn number(&mut self) -> Result<Tok, LexError> {
        let start = self.pos;
        if self.peek(0) == b'0' && matches!(self.peek(1), b'x' | b'X') {
            self.pos += 2;
            let digits = self.pos;
            while self.peek(0).is_ascii_hexdigit() {
                self.pos += 1;
            }
            if digits == self.pos {
                return self.err(start, "a hexadecimal literal needs digits after 0x");
            }
            let text = &self.src[digits..self.pos];
            let value = u64::from_str_radix(text, 16);
            return self.int_suffix(start, value.ok());
        }
        while self.peek(0).is_ascii_digit() {
            self.pos += 1;
        }
        let mut is_double = false;
        if self.peek(0) == b'.' && self.peek(1).is_ascii_digit() {
            is_double = true;
            self.pos += 1;
            while self.peek(0).is_ascii_digit() {
                self.pos += 1;
            }
        }
        if matches!(self.peek(0), b'e' | b'E') {
            let save = self.pos;
            self.pos += 1;
            if matches!(self.peek(0), b'+' | b'-') {
                self.pos += 1;
            }
            if self.peek(0).is_ascii_digit() {
                is_double = true;
                while self.peek(0).is_ascii_digit() {
                    self.pos += 1;
                }
            } else {
                self.pos = save;
            }
        }
        let text = &self.src[start..self.pos];
        if is_double {
            return match text.parse::<f64>() {
                Ok(v) => Ok(Tok::Double(v)),
                // Too large (infinite) is reported by the parser, which knows the sign.
                Err(_) => self.err(start, "invalid double literal"),
            };
        }
        let value = text.parse::<u64>().ok();
        self.int_suffix(start, value)
    }

    fn int_suffix(&mut self, start: usize, value: Option<u64>) -> Result<Tok, LexError> {
        if matches!(self.peek(0), b'u' | b'U') {
            self.pos += 1;
            return match value {
                Some(v) => Ok(Tok::Uint(v)),
                // cel-go's parser (VisitUint) reports a literal strconv cannot parse so.
                None => self.err(start, "invalid uint literal"),
            };
        }
        match value {
            Some(v) if v <= i64::MAX as u64 => Ok(Tok::Int(v as i64)),
            Some(v) => Ok(Tok::IntOverflow(v)),
            None => self.err(start, "invalid int literal"),
        }
    }

    fn string(&mut self, raw: bool, bytes: bool) -> Result<Tok, LexError> {
        let start = self.pos;
        let q = self.peek(0);
        let triple = self.peek(1) == q && self.peek(2) == q;
        self.pos += if triple { 3 } else { 1 };
        let mut out: Vec<u8> = Vec::new();
        loop {
            if self.pos >= self.bytes.len() {
                // Unterminated: the lexer ran out.
                return self.recognition(start, self.pos);
            }
            let c = self.bytes[self.pos];
            if c == q && (!triple || (self.peek(1) == q && self.peek(2) == q)) {
                self.pos += if triple { 3 } else { 1 };
                break;
            }
            if !triple && (c == b'\n' || c == b'\r') {
                // A quoted string cannot span lines (a triple-quoted one can).
                return self.recognition(start, self.pos);
            }
            if c == b'\\' && !raw {
                self.escape(start, &mut out, bytes)?;
                continue;
            }
            out.push(c);
            self.pos += 1;
        }
        if bytes {
            return Ok(Tok::Bytes(out));
        }
        match String::from_utf8(out) {
            Ok(s) => Ok(Tok::Str(s)),
            Err(_) => self.err(start, "string literal is not valid UTF-8"),
        }
    }

    /// One escape sequence of the literal that began at `start`. What the lexer's ESC_SEQ
    /// rules refuse is a token recognition error; a code point they accept but that is none
    /// (a surrogate, past U+10FFFF) is the parser's `invalid unicode code point` at the
    /// literal (cel-go `parser/unescape.go`).
    fn escape(&mut self, start: usize, out: &mut Vec<u8>, bytes: bool) -> Result<(), LexError> {
        let at = self.pos;
        let c = self.peek(1);
        self.pos += 2;
        let simple = match c {
            b'a' => Some(7),
            b'b' => Some(8),
            b'f' => Some(12),
            b'n' => Some(b'\n'),
            b'r' => Some(b'\r'),
            b't' => Some(b'\t'),
            b'v' => Some(11),
            b'\\' => Some(b'\\'),
            b'\'' => Some(b'\''),
            b'"' => Some(b'"'),
            b'`' => Some(b'`'),
            b'?' => Some(b'?'),
            _ => None,
        };
        if let Some(b) = simple {
            out.push(b);
            return Ok(());
        }
        let (digits, radix) = match c {
            b'x' | b'X' => (2, 16),
            b'u' if !bytes => (4, 16),
            b'U' if !bytes => (8, 16),
            b'0'..=b'3' => {
                self.pos -= 1;
                (3, 8)
            }
            // Not an escape: the lexer fails on the character after the backslash.
            _ => return self.recognition(start, at + 1),
        };
        let digit = |b: u8| if radix == 8 { (b'0'..=b'7').contains(&b) } else { b.is_ascii_hexdigit() };
        if let Some(bad) = (self.pos..self.pos + digits).find(|i| !self.bytes.get(*i).is_some_and(|b| digit(*b))) {
            return self.recognition(start, bad);
        }
        let end = self.pos + digits;
        let code = u32::from_str_radix(&self.src[self.pos..end], radix).unwrap_or(u32::MAX);
        self.pos = end;
        if bytes && (radix == 8 || digits == 2) {
            out.push(code as u8);
            return Ok(());
        }
        match char::from_u32(code) {
            Some(ch) => {
                let mut buf = [0u8; 4];
                out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                Ok(())
            }
            None => self.err(start, "invalid unicode code point"),
        }
    }
}

/// Recognises a string prefix (`r`, `b`, `rb`, `br`, any case) directly followed by a quote.
fn string_prefix(rest: &[u8]) -> (bool, bool, usize) {
    let is_quote = |i: usize| matches!(rest.get(i), Some(b'"') | Some(b'\''));
    let lower = |i: usize| rest.get(i).map(|b| b.to_ascii_lowercase());
    match (lower(0), lower(1)) {
        (Some(b'r'), Some(b'b')) if is_quote(2) => (true, true, 2),
        (Some(b'b'), Some(b'r')) if is_quote(2) => (true, true, 2),
        (Some(b'r'), _) if is_quote(1) => (true, false, 1),
        (Some(b'b'), _) if is_quote(1) => (false, true, 1),
        _ => (false, false, 0),
    }
}
