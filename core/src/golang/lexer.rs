//! Go tokens, with the language's automatic semicolons. Comments are collected on the side
//! (with whether they stand on their own line) so the parser can attach doc blocks by line.

use alloc::string::String;
use alloc::vec::Vec;

use super::ast::{Comment, Pos};
use super::Diagnostic;

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Tok {
    Ident(String),
    /// A string literal, decoded (interpreted or raw).
    Str(String),
    /// A numeric, rune or other literal, as written.
    Lit(String),
    /// One punctuation character (`{`, `*`, `.`, ...). Multi-character operators arrive as
    /// several; the parser only needs them to skip function bodies.
    Punct(char),
    /// `;`, written or automatic.
    Semi,
    Eof,
}

#[derive(Clone, Debug)]
pub(crate) struct Token {
    pub tok: Tok,
    pub pos: Pos,
}

/// A comment and whether code precedes it on its line (a trailing comment is no doc comment).
#[derive(Clone, Debug)]
pub(crate) struct RawComment {
    pub lines: Vec<Comment>,
    /// The line the comment ends on.
    pub end_line: u32,
    pub trailing: bool,
}

pub(crate) struct Lexed {
    pub tokens: Vec<Token>,
    pub comments: Vec<RawComment>,
}

struct Lexer<'a> {
    chars: core::iter::Peekable<core::str::Chars<'a>>,
    line: u32,
    column: u32,
    tokens: Vec<Token>,
    comments: Vec<RawComment>,
    /// Whether a newline now ends a statement (Go's semicolon rule).
    semi_on_newline: bool,
    /// Whether a token has been seen on the current line.
    code_on_line: bool,
    diags: &'a mut Vec<Diagnostic>,
}

pub(crate) fn lex(src: &str, diags: &mut Vec<Diagnostic>) -> Lexed {
    let mut lx = Lexer {
        chars: src.chars().peekable(),
        line: 1,
        column: 1,
        tokens: Vec::new(),
        comments: Vec::new(),
        semi_on_newline: false,
        code_on_line: false,
        diags,
    };
    lx.run();
    Lexed { tokens: lx.tokens, comments: lx.comments }
}

impl Lexer<'_> {
    fn pos(&self) -> Pos {
        Pos { line: self.line, column: self.column }
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }

    fn peek(&mut self) -> Option<char> {
        self.chars.peek().copied()
    }

    fn push(&mut self, tok: Tok, pos: Pos) {
        self.semi_on_newline =
            matches!(tok, Tok::Ident(_) | Tok::Str(_) | Tok::Lit(_)) || matches!(tok, Tok::Punct(')' | ']' | '}'));
        self.code_on_line = true;
        self.tokens.push(Token { tok, pos });
    }

    fn newline(&mut self, pos: Pos) {
        if self.semi_on_newline {
            self.tokens.push(Token { tok: Tok::Semi, pos });
            self.semi_on_newline = false;
        }
        self.code_on_line = false;
    }

    fn run(&mut self) {
        while let Some(c) = self.peek() {
            let pos = self.pos();
            match c {
                '\n' => {
                    self.bump();
                    self.newline(pos);
                }
                c if c.is_whitespace() => {
                    self.bump();
                }
                '/' => self.slash(pos),
                '"' => {
                    self.bump();
                    let s = self.interpreted_string(pos);
                    self.push(Tok::Str(s), pos);
                }
                '`' => {
                    self.bump();
                    let s = self.raw_string(pos);
                    self.push(Tok::Str(s), pos);
                }
                '\'' => {
                    self.bump();
                    let s = self.rune(pos);
                    self.push(Tok::Lit(s), pos);
                }
                c if c.is_alphabetic() || c == '_' => {
                    let mut s = String::new();
                    while let Some(c) = self.peek().filter(|c| c.is_alphanumeric() || *c == '_') {
                        s.push(c);
                        self.bump();
                    }
                    self.push(Tok::Ident(s), pos);
                }
                c if c.is_ascii_digit() => {
                    let mut s = String::new();
                    while let Some(c) = self.peek().filter(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_')) {
                        s.push(c);
                        self.bump();
                    }
                    self.push(Tok::Lit(s), pos);
                }
                ';' => {
                    self.bump();
                    self.tokens.push(Token { tok: Tok::Semi, pos });
                    self.semi_on_newline = false;
                }
                c => {
                    self.bump();
                    self.push(Tok::Punct(c), pos);
                    // `x++` and `x--` end statements too.
                    if matches!(c, '+' | '-') && self.peek() == Some(c) {
                        self.bump();
                        self.semi_on_newline = true;
                    }
                }
            }
        }
        let pos = self.pos();
        self.newline(pos);
        self.tokens.push(Token { tok: Tok::Eof, pos });
    }

    fn slash(&mut self, pos: Pos) {
        self.bump();
        match self.peek() {
            Some('/') => {
                self.bump();
                let text_pos = self.pos();
                let mut text = String::new();
                while let Some(c) = self.peek().filter(|c| *c != '\n') {
                    text.push(c);
                    self.bump();
                }
                let trailing = self.code_on_line;
                self.comments.push(RawComment {
                    lines: alloc::vec![Comment { text, pos: text_pos }],
                    end_line: pos.line,
                    trailing,
                });
            }
            Some('*') => {
                self.bump();
                let trailing = self.code_on_line;
                let mut lines = Vec::new();
                let mut text = String::new();
                let mut text_pos = self.pos();
                let mut closed = false;
                while let Some(c) = self.bump() {
                    if c == '*' && self.peek() == Some('/') {
                        self.bump();
                        closed = true;
                        break;
                    }
                    if c == '\n' {
                        lines.push(Comment { text: core::mem::take(&mut text), pos: text_pos });
                        text_pos = self.pos();
                    } else {
                        text.push(c);
                    }
                }
                lines.push(Comment { text, pos: text_pos });
                if !closed {
                    self.diags.push(Diagnostic::error(pos, "unterminated /* comment: add the closing */"));
                }
                let end_line = self.line;
                let multi_line = end_line > pos.line;
                self.comments.push(RawComment { lines, end_line, trailing });
                // A comment spanning lines acts like a newline.
                if multi_line {
                    self.newline(pos);
                }
            }
            _ => self.push(Tok::Punct('/'), pos),
        }
    }

    fn interpreted_string(&mut self, start: Pos) -> String {
        let mut s = String::new();
        loop {
            match self.peek() {
                None | Some('\n') => {
                    self.diags.push(Diagnostic::error(start, "unterminated string literal: add the closing \""));
                    return s;
                }
                Some('"') => {
                    self.bump();
                    return s;
                }
                Some('\\') => {
                    let esc_pos = self.pos();
                    self.bump();
                    self.escape(&mut s, '"', esc_pos);
                }
                Some(c) => {
                    s.push(c);
                    self.bump();
                }
            }
        }
    }

    fn raw_string(&mut self, start: Pos) -> String {
        let mut s = String::new();
        loop {
            match self.bump() {
                None => {
                    self.diags.push(Diagnostic::error(start, "unterminated raw string literal: add the closing `"));
                    return s;
                }
                Some('`') => return s,
                Some('\r') => {}
                Some(c) => s.push(c),
            }
        }
    }

    fn rune(&mut self, start: Pos) -> String {
        let mut s = String::from("'");
        loop {
            match self.peek() {
                None | Some('\n') => {
                    self.diags.push(Diagnostic::error(start, "unterminated rune literal: add the closing '"));
                    return s;
                }
                Some('\'') => {
                    self.bump();
                    s.push('\'');
                    return s;
                }
                Some('\\') => {
                    s.push('\\');
                    self.bump();
                    if let Some(c) = self.bump() {
                        s.push(c);
                    }
                }
                Some(c) => {
                    s.push(c);
                    self.bump();
                }
            }
        }
    }

    /// Decodes one escape after `\` (Go spec: `\a \b \f \n \r \t \v \\ \' \"`, octal, `\x`,
    /// `\u`, `\U`).
    fn escape(&mut self, out: &mut String, quote: char, pos: Pos) {
        let Some(c) = self.bump() else { return };
        let simple = match c {
            'a' => Some('\u{07}'),
            'b' => Some('\u{08}'),
            'f' => Some('\u{0c}'),
            'n' => Some('\n'),
            'r' => Some('\r'),
            't' => Some('\t'),
            'v' => Some('\u{0b}'),
            '\\' => Some('\\'),
            c if c == quote => Some(c),
            _ => None,
        };
        if let Some(ch) = simple {
            out.push(ch);
            return;
        }
        let (digits, radix, first) = match c {
            'x' => (2, 16, None),
            'u' => (4, 16, None),
            'U' => (8, 16, None),
            '0'..='7' => (2, 8, Some(c)),
            _ => {
                self.diags
                    .push(Diagnostic::error(pos, alloc::format!("unknown escape sequence \\{c} in string literal")));
                return;
            }
        };
        let mut value: u32 = first.map_or(0, |d| d as u32 - '0' as u32);
        for _ in 0..digits {
            match self.peek().and_then(|d| d.to_digit(radix)) {
                Some(d) => {
                    value = value.saturating_mul(radix).saturating_add(d);
                    self.bump();
                }
                None => {
                    self.diags.push(Diagnostic::error(pos, "incomplete escape sequence in string literal"));
                    return;
                }
            }
        }
        match char::from_u32(value) {
            Some(ch) => out.push(ch),
            None => self.diags.push(Diagnostic::error(pos, "escape sequence is not a valid Unicode code point")),
        }
    }
}
