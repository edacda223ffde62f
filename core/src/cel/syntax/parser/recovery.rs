//! ANTLR's recovery where it goes on parsing (cel-go's parser reports the error and reads on,
//! and so does kubedv): DefaultErrorStrategy's single-token deletion ("extraneous input 'X'
//! expecting ...": the token after X is one the grammar wants, X is skipped) and single-token
//! insertion at the end ("missing ')' at '<EOF>'": the closing token is taken as there when
//! the end can follow it). Where ANTLR throws instead ("mismatched input", "no viable
//! alternative"), kubedv's parse stops: ANTLR's recovery from those (its resynchronising, the
//! errors it reports after) is not reproduced (docs/fidelity.md, CEL).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::{token_text, PResult, ParseError, Parser, OPERAND};
use crate::cel::syntax::lexer::Tok;

impl Parser<'_> {
    /// The token after the current one.
    pub(super) fn next_tok(&self) -> &Tok {
        &self.tokens[(self.at + 1).min(self.tokens.len() - 1)].tok
    }

    /// An error ANTLR reports and recovers from: kept, the parse goes on.
    fn report(&mut self, offset: usize, message: String) {
        self.recovered.push(ParseError { offset, message });
    }

    /// Single-token deletion: the current token is reported (`extraneous input 'X' expecting
    /// {expecting}`) and skipped.
    pub(super) fn extraneous(&mut self, expecting: &str) {
        let found = token_text(self.src, &self.tokens, self.at.min(self.tokens.len() - 1));
        let message = format!("Syntax error: extraneous input '{found}' expecting {expecting}");
        self.report(self.offset(), message);
        self.at += 1;
    }

    /// ANTLR's `match` of a closing token (`)`, `]`, `}`, or a conditional's `:`): the token;
    /// else, the token after the current one being it, the current one is extraneous; else,
    /// at the end and with nothing else open (the end can follow the token: `f(a`, not
    /// `[f(a` nor `a ? f(b`), the token is missing; else the mismatch.
    pub(super) fn close(&mut self, closer: &str) -> Result<(), ParseError> {
        if self.eat(closer) {
            return Ok(());
        }
        if matches!(self.next_tok(), Tok::Punct(p) if *p == closer) {
            self.extraneous(&format!("'{closer}'"));
            self.at += 1;
            return Ok(());
        }
        // Single-token insertion: an operand can follow `:`; the end can follow a closing
        // token that closes the last open one.
        let fits = match closer {
            ":" => operand(self.tok()),
            _ => matches!(self.tok(), Tok::Eof) && self.open == 1,
        };
        if fits {
            let found = token_text(self.src, &self.tokens, self.at.min(self.tokens.len() - 1));
            self.report(self.offset(), format!("Syntax error: missing '{closer}' at '{found}'"));
            return Ok(());
        }
        self.unexpected(&format!("'{closer}'"))
    }

    /// The end of a list, map or message literal (CEL.g4 `... ','? ']'`): ANTLR synchronises
    /// before the optional comma, on `{']', ','}`: a token before one of them is extraneous,
    /// any other the mismatch; then the comma, if any, and the closing token.
    pub(super) fn close_literal(&mut self, closer: &str) -> Result<(), ParseError> {
        if self.eat(closer) {
            return Ok(());
        }
        let set = format!("{{'{closer}', ','}}");
        if !self.is(",") {
            if !matches!(self.next_tok(), Tok::Punct(p) if *p == closer || *p == ",") {
                return self.unexpected(&set);
            }
            self.extraneous(&set);
        }
        self.eat(",");
        self.close(closer)
    }

    /// A list, map or message literal after its opening token (CEL.g4 `'[' listInit? ','?
    /// ']'` and alike): ANTLR synchronises on the elements' first tokens (those `starts`
    /// takes), the closing token and `,` (`expecting`, as ANTLR prints them); then the
    /// elements `element` reads, each after a `,`, until the closing token — or none (`[]`,
    /// `[,]`). ANTLR's loop leaves when what follows a comma cannot start an element, the
    /// comma being the optional trailing one (`[1,`, `[1,)`, `[1,,]`).
    pub(super) fn literal<T>(
        &mut self,
        closer: &str,
        starts: fn(&Tok) -> bool,
        expecting: &str,
        mut element: impl FnMut(&mut Self) -> Result<T, ParseError>,
    ) -> Result<Vec<T>, ParseError> {
        let mut out = Vec::new();
        self.open += 1;
        self.sync(|t| starts(t) || matches!(t, Tok::Punct(p) if *p == closer || *p == ","), expecting)?;
        if starts(self.tok()) {
            loop {
                out.push(element(self)?);
                if !self.eat(",") {
                    self.close_literal(closer)?;
                    break;
                }
                if !starts(self.tok()) {
                    self.close(closer)?;
                    break;
                }
            }
        } else {
            self.eat(",");
            self.close(closer)?;
        }
        self.open -= 1;
        Ok(out)
    }

    /// Where ANTLR synchronises before something that must start with one of `expecting` (an
    /// operand; a call's arguments or `)`; a list's first element, `,` or `]`): a token that
    /// cannot, before one that can, is extraneous.
    pub(super) fn sync(&mut self, fits: impl Fn(&Tok) -> bool, expecting: &str) -> Result<(), ParseError> {
        if fits(self.tok()) {
            return Ok(());
        }
        if fits(self.next_tok()) {
            self.extraneous(expecting);
            return Ok(());
        }
        self.unexpected(expecting)
    }

    /// After `!` (CEL.g4 `('!')+ member`): a token that cannot start a member is extraneous
    /// there (ANTLR's loop synchronises on it, then recovers to the end: the only error).
    pub(super) fn after_not(&self) -> Result<(), ParseError> {
        if self.starts_member() || self.is("-") {
            return Ok(());
        }
        let found = token_text(self.src, &self.tokens, self.at.min(self.tokens.len() - 1));
        self.error(self.offset(), format!("Syntax error: extraneous input '{found}' expecting {OPERAND}"))
    }
}

impl Parser<'_> {
    /// ANTLR's `no viable alternative` at a `-` whose operand cannot start there (`-)`, `-!a`,
    /// `a ? - : b`, from token `from`): reported, then ANTLR reads on at the token it stopped
    /// on as at an operand's start (an operand, `!` included, parses; a token before one is
    /// extraneous; else the mismatch, and past an infix operator (`-*`) its right operand's).
    pub(super) fn after_no_viable_minus(&mut self, from: usize) -> PResult {
        if let Err(e) = self.no_viable::<()>(from) {
            self.recovered.push(e);
        }
        if let Err(e) = self.sync(operand, OPERAND) {
            if !infix(self.tok()) {
                return Err(e);
            }
            self.recovered.push(e);
            self.at += 1;
            return self.unexpected(OPERAND);
        }
        self.unary()
    }
}

/// An infix operator's token (CEL.g4 `relation`, `calc`, `conditionalAnd`/`Or`, `expr`'s `?`).
fn infix(t: &Tok) -> bool {
    match t {
        Tok::Punct(p) => {
            matches!(*p, "==" | "!=" | "<" | "<=" | ">" | ">=" | "&&" | "||" | "+" | "-" | "*" | "/" | "%" | "?")
        }
        Tok::In => true,
        _ => false,
    }
}

/// Whether a token can start an operand (CEL.g4 `unary`: a member, `!` or `-`).
pub(super) fn operand(t: &Tok) -> bool {
    match t {
        Tok::Punct(p) => matches!(*p, "." | "(" | "[" | "{" | "!" | "-"),
        Tok::Eof | Tok::In | Tok::Quoted(_) => false,
        _ => true,
    }
}
