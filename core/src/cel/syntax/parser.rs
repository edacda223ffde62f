//! The CEL parser: recursive descent over the grammar of the CEL specification (CEL.g4), with
//! the standard macros (and the Kubernetes environment's extensions) expanded as they are read.

use alloc::boxed::Box;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::ast::{CompKind, Comprehension, Expr, Kind};
use super::lexer::{tokenize, Tok, Token};
use super::Builtin;
use crate::cel::common::NO_LOCATION;
use crate::cel::value::Value;

/// What ANTLR expects where an operand must start (CEL.g4 `primary` and the unary operators).
const OPERAND: &str =
    "{'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}";
/// After a call's `(` (`'(' exprList? ')'`).
const ARGS: &str =
    "{'[', '{', '(', ')', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}";
/// After an index's `[` (`'[' '?'? expr ']'`).
const INDEX: &str =
    "{'[', '{', '(', '.', '-', '!', '?', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}";
/// After a list's `[` (`'[' listInit? ','? ']'`, elements `'?'? expr`).
const LIST_FIRST: &str = "{'[', ']', '{', '(', '.', ',', '-', '!', '?', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}";
/// After a map's `{`.
const MAP_FIRST: &str = "{'[', '{', '}', '(', '.', ',', '-', '!', '?', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}";
/// Where a message literal's first field initializer may start (`'{' fieldInitializerList? ','? '}'`).
const FIRST_FIELD: &str = "{'}', ',', '?', IDENTIFIER, ESC_IDENTIFIER}";

mod recovery;

use recovery::operand;

/// An element of a list or a map: an operand, or `?` before one.
fn element(t: &Tok) -> bool {
    operand(t) || matches!(t, Tok::Punct("?"))
}

/// What may start a message literal's field: a name (reserved words are names), or `?`.
fn field(t: &Tok) -> bool {
    matches!(t, Tok::Ident(_) | Tok::Quoted(_) | Tok::Reserved(_) | Tok::Punct("?"))
}

/// cel-go's default parser recursion limit (parser.go `maxRecursionDepth`), which bounds two
/// things: how deeply each grammar rule of CEL.g4 nests while ANTLR parses (the
/// `recursionListener`: `expression recursion limit exceeded: 250`), and how many operators,
/// conditionals, selections, method calls and indexes lie on one path of the parse tree the
/// visitor then walks (`max recursion depth exceeded`). Both errors have no position.
pub const MAX_DEPTH: usize = 250;
/// Set in the offset of each node cel-go's visitor counts toward its limit (parser.go `Visit`:
/// conditionals, relation and arithmetic operators, selections, method calls, indexes; not `!`,
/// `-`, `&&`, `||`, global calls, literals nor the nodes macros add). Name resolution, which
/// walks the tree next, reads and clears it (expressions are far shorter than 2 GiB).
pub const COUNTED: usize = 1 << 31;

/// A node's offset, without the [`COUNTED`] mark.
fn at(e: &Expr) -> usize {
    e.offset as usize & !COUNTED
}
/// The rules of CEL.g4 whose nesting can reach the limit first: `expr` (the rules every nested
/// expression enters once: `conditionalOr` ... `primary` stay at its depth), and `relation` and
/// `calc`, whose right operands nest inside their left-recursive loop.
const EXPR: usize = 0;
const RELATION: usize = 1;
const CALC: usize = 2;
/// The longest expression accepted, in bytes (Kubernetes caps rules well below this).
pub const MAX_LEN: usize = 100_000;

/// A syntax error at a byte offset.
pub use super::lexer::SyntaxError as ParseError;

/// Parses a CEL expression. `macros` turns macro expansion on (the CEL default); `limit` is
/// cel-go's `MaxRecursionDepth` ([`MAX_DEPTH`] unless a test sets its own). The errors
/// come in order of position: after a token recognition error, cel-go's ANTLR lexer drops the
/// text and the parser reads on, so its errors follow.
pub fn parse_limited(src: &str, macros: bool, limit: usize) -> Result<Expr, Vec<ParseError>> {
    if src.len() > MAX_LEN {
        return Err(alloc::vec![ParseError {
            offset: 0,
            message: format!("expression is {} bytes long; the limit is {MAX_LEN}", src.len()),
        }]);
    }
    let (tokens, mut errors) = tokenize(src).map_err(|e| alloc::vec![e.error])?;
    let mut p = Parser { src, tokens, at: 0, rules: [0; 3], limit, macros, open: 0, recovered: Vec::new() };
    let parsed = p.expr().and_then(|e| if p.tok() == &Tok::Eof { Ok(e) } else { Err(trailing(src, &p.tokens, p.at)) });
    // The lexer's errors, those the parser recovered from, and the one it stopped at (kubedv's
    // parser stops where ANTLR's throws; ANTLR's may recover and report more), by position as
    // cel-go's `Errors.ToDisplayString` sorts them (each after those at or before it).
    let place = |errors: &mut Vec<ParseError>, e: ParseError| {
        let at = errors.iter().position(|l| l.offset > e.offset).unwrap_or(errors.len());
        errors.insert(at, e);
    };
    for e in core::mem::take(&mut p.recovered) {
        place(&mut errors, e);
    }
    match parsed {
        Ok(e) if errors.is_empty() => Ok(e),
        Ok(_) => Err(errors),
        Err(e) => {
            place(&mut errors, e);
            Err(errors)
        }
    }
}

/// A token after a whole expression, as cel-go's ANTLR parser reports it at `start: expr EOF`:
/// when the token after it is the end, single-token deletion ("extraneous input"), else
/// "mismatched input" (parser_test.go `a | b`, `TestAllTypes(){}`, `1 + 2\n3 +`); either way
/// the only error, as recovery then skips to the end.
fn trailing(src: &str, tokens: &[Token], at: usize) -> ParseError {
    let text = token_text(src, tokens, at);
    let how =
        if matches!(tokens.get(at + 1).map(|t| &t.tok), Some(Tok::Eof) | None) { "extraneous" } else { "mismatched" };
    let message = format!("Syntax error: {how} input '{text}' expecting <EOF>");
    ParseError { offset: tokens[at].start, message }
}

/// A token's text as ANTLR shows it (`<EOF>` at the end).
fn token_text<'s>(src: &'s str, tokens: &[Token], at: usize) -> &'s str {
    if matches!(tokens[at].tok, Tok::Eof) {
        return "<EOF>";
    }
    src.get(tokens[at].start..tokens[at].end).unwrap_or("")
}

struct Parser<'s> {
    src: &'s str,
    tokens: Vec<Token>,
    at: usize,
    /// How deeply `expr`, `relation` and `calc` nest at this point of the parse.
    rules: [usize; 3],
    limit: usize,
    macros: bool,
    /// How many brackets (and conditionals' `?`) are open: the end can follow a closing token
    /// only when it closes the last ([`Parser::close`]).
    open: usize,
    /// The errors ANTLR recovers from, reported and parsed past ([`recovery`]).
    recovered: Vec<ParseError>,
}

type PResult = Result<Expr, ParseError>;

/// A call's arguments cut short by a syntax error: those read whole, whether the error came
/// inside an argument (else at the closing bracket), and the error.
struct Unfinished {
    args: Vec<Expr>,
    in_arg: bool,
    error: ParseError,
}

impl Parser<'_> {
    /// The current token; past the end it stays `Eof` (the tokens end with one).
    fn tok(&self) -> &Tok {
        &self.tokens[self.at.min(self.tokens.len() - 1)].tok
    }

    fn offset(&self) -> usize {
        self.tokens[self.at.min(self.tokens.len() - 1)].start
    }

    /// Takes the current token; `self.at -= 1` after it steps back.
    fn bump(&mut self) -> Tok {
        let t = self.tok().clone();
        self.at += 1;
        t
    }

    fn is(&self, p: &str) -> bool {
        matches!(self.tok(), Tok::Punct(q) if *q == p)
    }

    fn eat(&mut self, p: &str) -> bool {
        if self.is(p) {
            self.bump();
            true
        } else {
            false
        }
    }

    fn error<T>(&self, offset: usize, message: String) -> Result<T, ParseError> {
        Err(ParseError { offset, message })
    }

    /// ANTLR's error where the current token is not one the grammar allows: `expected` is
    /// what it allows, as ANTLR prints it (`':'`, or a set in braces). A reserved word is
    /// cel-go's own error.
    fn unexpected<T>(&self, expected: &str) -> Result<T, ParseError> {
        if let Tok::Reserved(r) = self.tok() {
            return self.error(self.offset(), format!("reserved identifier: {r}"));
        }
        let at = self.at.min(self.tokens.len() - 1);
        let found = token_text(self.src, &self.tokens, at);
        self.error(self.offset(), format!("Syntax error: mismatched input '{found}' expecting {expected}"))
    }

    /// ANTLR's `no viable alternative`: no alternative of the decision that began at token
    /// `from` fits the current token; the text runs from that token to this one (to the end,
    /// without `<EOF>`, when the expression ends).
    fn no_viable<T>(&self, from: usize) -> Result<T, ParseError> {
        let end = self.tokens[self.at.min(self.tokens.len() - 1)].end;
        let text = self.src.get(self.tokens[from].start..end).unwrap_or("");
        self.error(self.offset(), format!("Syntax error: no viable alternative at input '{text}'"))
    }

    /// ANTLR enters a rule (`recursionListener.EnterEveryRule`).
    fn enter(&mut self, rule: usize) -> Result<(), ParseError> {
        self.rules[rule] += 1;
        if self.rules[rule] > self.limit {
            return self.error(NO_LOCATION, format!("expression recursion limit exceeded: {}", self.limit));
        }
        Ok(())
    }

    fn expr(&mut self) -> PResult {
        self.enter(EXPR)?;
        let r = self.conditional();
        self.rules[EXPR] -= 1;
        r
    }

    fn conditional(&mut self) -> PResult {
        let cond = self.or()?;
        if !self.is("?") {
            return Ok(cond);
        }
        let offset = self.offset();
        self.bump();
        self.open += 1;
        let a = self.or()?;
        self.close(":")?;
        self.open -= 1;
        let b = self.expr()?;
        Ok(Expr::new(offset | COUNTED, Kind::Cond(Box::new(cond), Box::new(a), Box::new(b))))
    }

    fn or(&mut self) -> PResult {
        self.logic_chain("||", Self::and)
    }

    fn and(&mut self) -> PResult {
        self.logic_chain("&&", Self::relation)
    }

    /// A chain of `&&` or `||`, built balanced.
    fn logic_chain(&mut self, op: &str, next: fn(&mut Self) -> PResult) -> PResult {
        let mut terms = Vec::from([next(self)?]);
        let mut offsets = Vec::new();
        while self.is(op) {
            offsets.push(self.offset());
            self.bump();
            terms.push(next(self)?);
        }
        Ok(balance(terms, &offsets, op == "&&"))
    }

    /// Left-associative binary operators of one rule (`relation` or `calc`): the rule is
    /// entered once for the chain when `base` (ANTLR's loop over a left-recursive rule exits
    /// and re-enters it at each link) and once more for each right operand.
    fn binary(&mut self, ops: &[(&str, Builtin)], next: fn(&mut Self) -> PResult, rule: usize, base: bool) -> PResult {
        if base {
            self.enter(rule)?;
        }
        let mut left = next(self)?;
        loop {
            let op = match self.tok() {
                Tok::Punct(p) => ops.iter().find(|(o, _)| o == p),
                Tok::In => ops.iter().find(|(o, _)| *o == "in"),
                _ => None,
            };
            let Some(&(name, builtin)) = op else { break };
            let offset = self.offset();
            self.bump();
            self.enter(rule)?;
            let right = next(self)?;
            self.rules[rule] -= 1;
            left = call(offset | COUNTED, operator_name(name), builtin, Vec::from([left, right]));
        }
        if base {
            self.rules[rule] -= 1;
        }
        Ok(left)
    }

    fn relation(&mut self) -> PResult {
        const OPS: &[(&str, Builtin)] = &[
            ("==", Builtin::Eq),
            ("!=", Builtin::Ne),
            ("<", Builtin::Lt),
            ("<=", Builtin::Le),
            (">", Builtin::Gt),
            (">=", Builtin::Ge),
            ("in", Builtin::In),
        ];
        self.binary(OPS, Self::addition, RELATION, true)
    }

    fn addition(&mut self) -> PResult {
        self.binary(&[("+", Builtin::Add), ("-", Builtin::Sub)], Self::multiplication, CALC, true)
    }

    fn multiplication(&mut self) -> PResult {
        self.binary(&[("*", Builtin::Mul), ("/", Builtin::Div), ("%", Builtin::Mod)], Self::unary, CALC, false)
    }

    fn unary(&mut self) -> PResult {
        self.sync(operand, OPERAND)?;
        let offset = self.offset();
        if self.is("!") || self.is("-") {
            let op = if self.is("!") { "!" } else { "-" };
            let mut count = 0;
            let mut sign = offset;
            while self.is(op) {
                sign = self.offset();
                self.bump();
                count += 1;
            }
            // CEL.g4 `(ops+='-')+ member` and `(ops+='!')+ member`: ANTLR predicts each `-` from
            // the token after it, which must start a member (`-!x`, `1 + -)`, `--`: no viable
            // alternative from that `-`); after `!`, a `-` is only a number's sign (`!-x`).
            let number = |t: Option<&Token>| {
                matches!(t.map(|t| &t.tok), Some(Tok::Int(_) | Tok::IntOverflow(_) | Tok::Double(_)))
            };
            if op == "-" && !self.starts_member() {
                return self.after_no_viable_minus(self.at - 1);
            }
            if op == "!" {
                self.after_not()?;
            }
            if op == "!" && self.is("-") && !number(self.tokens.get(self.at + 1)) {
                self.bump();
                return self.after_no_viable_minus(self.at - 1);
            }
            // `-` directly before a number literal is part of the literal (CEL.g4 `literal`).
            let mut operand = if op == "-" && matches!(self.tok(), Tok::Int(_) | Tok::IntOverflow(_) | Tok::Double(_)) {
                count -= 1;
                self.negative_literal(sign)?
            } else if self.is("-") {
                // After `!`: a negative number literal.
                let at = self.offset();
                self.bump();
                self.negative_literal(at)?
            } else {
                self.member()?
            };
            // cel-go `VisitLogicalNot`, `VisitNegate`: an even number of operators cancels out
            // (`!!x` is `x`, of x's type and cost); an odd number is one call, at the first.
            let (name, builtin) = if op == "!" { ("!_", Builtin::Not) } else { ("-_", Builtin::Neg) };
            if count % 2 == 1 {
                operand = call(offset, name, builtin, Vec::from([operand]));
            }
            return Ok(operand);
        }
        self.member()
    }

    /// A number literal after its `-` (at `offset`, where cel-go's literal and its errors
    /// start). Literals strconv cannot parse are cel-go's `invalid int literal` and
    /// `invalid double literal` (parser.go VisitInt, VisitDouble).
    fn negative_literal(&mut self, offset: usize) -> PResult {
        let value = match self.bump() {
            Tok::Int(v) => Value::Int(-v),
            Tok::IntOverflow(v) if v == 1u64 << 63 => Value::Int(i64::MIN),
            Tok::IntOverflow(_) => return self.error(offset, String::from("invalid int literal")),
            Tok::Double(v) if v.is_infinite() => return self.error(offset, String::from("invalid double literal")),
            Tok::Double(v) => Value::Double(-v),
            _ => unreachable_literal(),
        };
        self.postfix(Expr::new(offset, Kind::Lit(value)))
    }

    /// Whether the current token can begin a member (CEL.g4 `primary`: a literal, a name, `.`,
    /// `(`, `[` or `{`; reserved words are names to ANTLR).
    fn starts_member(&self) -> bool {
        match self.tok() {
            Tok::Punct(p) => matches!(*p, "." | "(" | "[" | "{"),
            Tok::Eof | Tok::In | Tok::Quoted(_) => false,
            _ => true,
        }
    }

    fn member(&mut self) -> PResult {
        let primary = self.primary()?;
        self.postfix(primary)
    }

    /// Selections, calls and indexes after `e`.
    fn postfix(&mut self, mut e: Expr) -> PResult {
        loop {
            let offset = self.offset();
            if self.is(".") || self.is(".?") {
                let optional = self.is(".?");
                self.bump();
                let field = self.field_name()?;
                if !optional && self.is("(") {
                    // cel-go places a call at its `(` (VisitMemberCall `ctx.GetOpen()`).
                    let open = self.offset();
                    self.bump();
                    let args = match self.args(")") {
                        Ok(args) => args,
                        Err(u) => return Err(self.unfinished_call(open, Some(e), field, u)),
                    };
                    e = self.method(open, e, field, args)?;
                    e.offset |= COUNTED as u32;
                } else {
                    e = Expr::new(
                        offset | COUNTED,
                        Kind::Select { operand: Box::new(e), field: field.into(), optional },
                    );
                }
            } else if self.is("[") {
                self.bump();
                self.open += 1;
                self.sync(element, INDEX)?;
                let optional = self.eat("?");
                let index = self.expr()?;
                self.close("]")?;
                self.open -= 1;
                e = Expr::new(offset | COUNTED, Kind::Index { operand: Box::new(e), index: Box::new(index), optional });
            } else if self.is("{") && is_type_name(&e) {
                // CEL.g4 reads `a.b.M{...}` as one `primary`: its selections are dropped.
                e = self.message(e)?;
            } else {
                break;
            }
        }
        Ok(e)
    }

    /// A field or method name after `.` (kept out of [`Parser::postfix`], whose frame every
    /// nested call's arguments stack up).
    #[inline(never)]
    fn field_name(&mut self) -> Result<String, ParseError> {
        Ok(match self.bump() {
            Tok::Ident(name) | Tok::Quoted(name) => name,
            // Reserved words (not keywords) may name fields and methods.
            Tok::Reserved(r) => String::from(r),
            // cel-go (parser_test.go `self.true == 1`): the literal keyword token where the
            // grammar wants an identifier.
            t @ (Tok::True | Tok::False | Tok::Null) => {
                let word = match t {
                    Tok::True => "true",
                    Tok::False => "false",
                    _ => "null",
                };
                let at = self.tokens[self.at - 1].start;
                return self.error(at, format!("Syntax error: mismatched input '{word}' expecting IDENTIFIER"));
            }
            // `member '.' ...`: neither a selection nor a method call fits (parser_test.go
            // `{"a": 1}."a"`; `a.in` too: cel-go rewrites only the literal keywords).
            _ => {
                self.at -= 1;
                return self.no_viable(self.at - 1);
            }
        })
    }

    /// A message literal `Name{...}`, placed at its `{` as cel-go places it (its parser's
    /// `VisitCreateMessage` takes the id of the `{` token).
    #[inline(never)]
    fn message(&mut self, name: Expr) -> PResult {
        let brace = self.offset();
        self.bump();
        let fields = self.message_fields()?;
        Ok(Expr::new(brace, Kind::Message { name: qualified_name(&name).into(), fields }))
    }

    fn primary(&mut self) -> PResult {
        let offset = self.offset();
        let tok = self.bump();
        let lit = |v: Value| Ok(Expr::new(offset, Kind::Lit(v)));
        match tok {
            Tok::Int(v) => lit(Value::Int(v)),
            Tok::IntOverflow(_) => self.error(offset, String::from("invalid int literal")),
            Tok::Uint(v) => lit(Value::Uint(v)),
            Tok::Double(v) if v.is_infinite() => self.error(offset, String::from("invalid double literal")),
            Tok::Double(v) => lit(Value::Double(v)),
            Tok::Str(s) => lit(Value::from(s.as_str())),
            Tok::Bytes(b) => lit(Value::Bytes(b.into())),
            Tok::True => lit(Value::Bool(true)),
            Tok::False => lit(Value::Bool(false)),
            Tok::Null => lit(Value::Null),
            Tok::Ident(name) => {
                if self.is("(") {
                    // At its `(` (VisitGlobalCall `ctx.GetOp()`).
                    let open = self.offset();
                    self.bump();
                    let args = self.args(")").map_err(|u| self.unfinished_call(open, None, name.clone(), u))?;
                    return self.global(open, name, args);
                }
                Ok(Expr::new(offset, Kind::Ident(name.into())))
            }
            Tok::Punct(".") => {
                // A leading dot names the root scope: `.name`. ANTLR predicts `primary`'s
                // alternatives on the token after it: none fits another token than a name
                // (`..`: "no viable alternative at input '..'"), but for the literals cel-go
                // words as a name expected.
                let dot = self.at - 1;
                if !matches!(self.tok(), Tok::Ident(_) | Tok::True | Tok::False | Tok::Null | Tok::Eof) {
                    return self.no_viable(dot);
                }
                match self.bump() {
                    Tok::Ident(name) => {
                        if self.is("(") {
                            let open = self.offset();
                            self.bump();
                            let args = self.args(")").map_err(|u| self.unfinished_call(open, None, name.clone(), u))?;
                            return self.global(open, name, args);
                        }
                        Ok(Expr::new(offset, Kind::Ident(name.into())))
                    }
                    _ => {
                        self.at -= 1;
                        self.unexpected("IDENTIFIER")
                    }
                }
            }
            Tok::Punct("(") => {
                self.open += 1;
                let e = self.expr()?;
                self.close(")")?;
                self.open -= 1;
                Ok(e)
            }
            Tok::Punct("[") => {
                let elems = self.literal("]", element, LIST_FIRST, |p| {
                    let optional = p.eat("?");
                    Ok((p.expr()?, optional))
                })?;
                Ok(Expr::new(offset, Kind::List(elems)))
            }
            Tok::Punct("{") => {
                let entries = self.literal("}", element, MAP_FIRST, |p| {
                    let optional = p.eat("?");
                    let k = p.expr()?;
                    p.close(":")?;
                    Ok((k, p.expr()?, optional))
                })?;
                Ok(Expr::new(offset, Kind::Map(entries)))
            }
            Tok::Reserved(r) => self.error(offset, format!("reserved identifier: {r}")),
            _ => {
                self.at -= 1;
                self.unexpected(OPERAND)
            }
        }
    }

    /// A call's arguments (CEL.g4 `exprList`: no trailing comma, so `f(1,)` wants an operand).
    /// A call's arguments up to its closing bracket; on a syntax error, those read whole.
    fn args(&mut self, close: &str) -> Result<Vec<Expr>, Unfinished> {
        let mut args = Vec::new();
        self.open += 1;
        if let Err(error) = self.sync(|t| operand(t) || matches!(t, Tok::Punct(")")), ARGS) {
            return Err(Unfinished { args, in_arg: false, error });
        }
        if !self.is(close) {
            loop {
                match self.expr() {
                    Ok(e) => args.push(e),
                    Err(error) => return Err(Unfinished { args, in_arg: true, error }),
                }
                if !self.eat(",") {
                    break;
                }
            }
        }
        if let Err(error) = self.close(close) {
            return Err(Unfinished { args, in_arg: false, error });
        }
        self.open -= 1;
        Ok(args)
    }

    /// A call whose arguments did not parse. cel-go's ANTLR parser recovers and builds the call
    /// from what it read, so a macro is still expanded and reports its own errors before the
    /// syntax error (`f.sortBy(!x, `: `argument is not an identifier` at `!x`). kubedv expands
    /// it with the arguments read whole and a stand-in name for the one that failed, whose
    /// partial tree it does not build (so `has(` of a broken argument reports the syntax error
    /// alone, where cel-go may also find the partial argument no selection).
    #[inline(never)]
    fn unfinished_call(&mut self, open: usize, target: Option<Expr>, name: String, mut u: Unfinished) -> ParseError {
        if u.in_arg {
            if target.is_none() {
                return u.error;
            }
            u.args.push(Expr::new(u.error.offset, Kind::Ident("".into())));
        }
        let _ = match target {
            Some(target) => self.method(open, target, name, u.args),
            None => self.global(open, name, u.args),
        };
        u.error
    }

    fn message_fields(&mut self) -> Result<Vec<(Box<str>, Expr, bool)>, ParseError> {
        self.literal("}", field, FIRST_FIELD, |p| {
            let optional = p.eat("?");
            let name = match p.bump() {
                Tok::Ident(n) | Tok::Quoted(n) => n,
                // A reserved word is an identifier of the grammar: cel-go refuses it as a
                // variable or a function's name only (parser.go `VisitIdent`, `VisitGlobalCall`).
                Tok::Reserved(r) => String::from(r),
                _ => {
                    p.at -= 1;
                    return p.unexpected("{IDENTIFIER, ESC_IDENTIFIER}");
                }
            };
            p.close(":")?;
            Ok((name.into(), p.expr()?, optional))
        })
    }

    /// A global call, or the `has` macro.
    fn global(&mut self, offset: usize, name: String, mut args: Vec<Expr>) -> PResult {
        if self.macros && name == "has" && args.len() == 1 {
            let arg = args.pop().unwrap_or_else(|| Expr::new(offset, Kind::Lit(Value::Null)));
            return match arg.kind {
                // Its selection counts.
                Kind::Select { operand, field, optional: false } => {
                    Ok(Expr::new(offset | COUNTED, Kind::Has { operand, field }))
                }
                _ => Ok(self.macro_error(ParseError {
                    offset: at(&arg),
                    message: String::from("invalid argument to has() macro"),
                })),
            };
        }
        let builtin = Builtin::global(&name);
        Ok(Expr::new(offset, Kind::Call { target: None, name: name.into(), builtin, args }))
    }

    /// A macro's error: reported, and the parse goes on (cel-go's `reportError` in the macro
    /// expander returns an empty expression and the visitor carries on, so a syntax error after
    /// it is reported too: `[].exists_one(a, a == 7, 7))`).
    fn macro_error(&mut self, e: ParseError) -> Expr {
        let offset = e.offset;
        self.recovered.push(e);
        Expr::new(offset, Kind::Lit(Value::Null))
    }

    /// A method call, or a receiver-style macro.
    #[inline(never)]
    fn method(&mut self, offset: usize, target: Expr, name: String, mut args: Vec<Expr>) -> PResult {
        if self.macros {
            match self.macro_call(offset, &target, &name, &mut args) {
                Ok(Some(e)) => return Ok(e),
                Ok(None) => {}
                Err(e) => return Ok(self.macro_error(e)),
            }
        }
        if let Kind::Ident(ns) = &target.kind {
            // Namespaced functions (`math.greatest`, `base64.encode`, `optional.of`, ...).
            let qualified = format!("{ns}.{name}");
            let builtin = Builtin::global(&qualified);
            if builtin != Builtin::Unknown {
                return Ok(Expr::new(offset, Kind::Call { target: None, name: qualified.into(), builtin, args }));
            }
        }
        let builtin = Builtin::method(&name);
        Ok(Expr::new(offset, Kind::Call { target: Some(Box::new(target)), name: name.into(), builtin, args }))
    }

    fn macro_call(
        &mut self,
        offset: usize,
        target: &Expr,
        name: &str,
        args: &mut Vec<Expr>,
    ) -> Result<Option<Expr>, ParseError> {
        let n = args.len();
        if let Kind::Ident(ns) = &target.kind {
            if &**ns == "cel" {
                return self.cel_namespace(offset, name, args);
            }
        }
        let kind = match (name, n) {
            ("all", 2 | 3) => CompKind::All,
            ("exists", 2 | 3) => CompKind::Exists,
            // cel-go's standard macros have only `exists_one` with one variable (cel/macro.go
            // StandardMacros; `existsOne` is in parser.AllMacros, which Kubernetes does not use);
            // two-variable comprehensions add both spellings (ext/comprehensions.go).
            ("exists_one", 2 | 3) | ("existsOne", 3) => CompKind::ExistsOne,
            ("map", 2 | 3) => CompKind::Map,
            ("filter", 2) => CompKind::Filter,
            ("transformList", 3 | 4) => CompKind::TransformList,
            ("transformMap", 3 | 4) => CompKind::TransformMap,
            ("transformMapEntry", 3 | 4) => CompKind::TransformMapEntry,
            ("optMap" | "optFlatMap", 2) => return self.opt_map(offset, target, name == "optFlatMap", args).map(Some),
            ("sortBy", 2) => return self.sort_by(offset, target, args).map(Some),
            _ => return Ok(None),
        };
        let two_vars = match kind {
            CompKind::All | CompKind::Exists | CompKind::ExistsOne => n == 3,
            CompKind::TransformList | CompKind::TransformMap | CompKind::TransformMapEntry => true,
            _ => false,
        };
        // cel-go parser/macro.go (one variable) and ext/comprehensions.go (two): the variables
        // must be plain names other than the accumulator's.
        let not_ident = if matches!(kind, CompKind::Map | CompKind::Filter) && !two_vars {
            "argument is not an identifier"
        } else {
            "argument must be a simple name"
        };
        let mut it = core::mem::take(args).into_iter();
        let (var, var_at) = self.macro_var(it.next(), not_ident)?;
        let var2 = if two_vars { Some(self.macro_var(it.next(), not_ident)?) } else { None };
        if let Some((v2, at2)) = &var2 {
            if *v2 == var {
                return self.error(*at2, format!("duplicate variable name: {var}"));
            }
        }
        for (v, at) in core::iter::once((&var, var_at)).chain(var2.iter().map(|(v, at)| (v, *at))) {
            if &**v == "__result__" {
                return self.error(at, String::from("iteration variable overwrites accumulator variable"));
            }
        }
        let var2 = var2.map(|(v, _)| v);
        let rest: Vec<Expr> = it.collect();
        let (filter, step) = match rest.len() {
            1 => (None, rest.into_iter().next()),
            _ => {
                let mut r = rest.into_iter();
                (r.next(), r.next())
            }
        };
        let step = step.unwrap_or_else(|| Expr::new(offset, Kind::Lit(Value::Null)));
        let comp = Comprehension { kind, var, var2, range: target.clone(), filter, step };
        Ok(Some(Expr::new(offset, Kind::Comprehension(Box::new(comp)))))
    }

    /// A macro's variable and where it is; else `message` there.
    fn macro_var(&self, e: Option<Expr>, message: &str) -> Result<(Box<str>, usize), ParseError> {
        match e {
            Some(Expr { kind: Kind::Ident(name), offset, .. }) => Ok((name, offset as usize)),
            Some(e) => self.error(at(&e), String::from(message)),
            None => self.error(self.offset(), String::from(message)),
        }
    }

    /// cel-go's `sortBy` macro (`ext/lists.go` `sortByMacro`, lists version 3):
    /// `l.sortBy(e, key)` → `cel.bind(@__sortBy_input__, l,
    /// @__sortBy_input__.@sortByAssociatedKeys(@__sortBy_input__.map(e, key)))`.
    fn sort_by(&mut self, offset: usize, target: &Expr, args: &mut Vec<Expr>) -> PResult {
        // Operators, indexing and `has` are calls and selects in cel-go's AST: only literals,
        // map literals and messages are refused.
        if matches!(target.kind, Kind::Lit(_) | Kind::Map(_) | Kind::Message { .. }) {
            return self.error(
                at(target),
                String::from(
                    "sortBy can only be applied to a list, identifier, comprehension, call or select expression",
                ),
            );
        }
        let mut it = core::mem::take(args).into_iter();
        // Through parser.MakeMap (ext/lists.go sortByMacro).
        let (var, _) = self.macro_var(it.next(), "argument is not an identifier")?;
        let key = it.next().unwrap_or_else(|| Expr::new(offset, Kind::Lit(Value::Null)));
        let input: Box<str> = "@__sortBy_input__".into();
        let ident = || Expr::new(offset, Kind::Ident(input.clone()));
        let keys = Comprehension { kind: CompKind::Map, var, var2: None, range: ident(), filter: None, step: key };
        let call = Kind::Call {
            target: Some(Box::new(ident())),
            name: "@sortByAssociatedKeys".into(),
            builtin: Builtin::SortByKeys,
            args: alloc::vec![Expr::new(offset, Kind::Comprehension(Box::new(keys)))],
        };
        let body = Expr::new(offset, call);
        Ok(Expr::new(
            offset,
            Kind::Bind { name: input.clone(), init: Box::new(target.clone()), body: Box::new(body), written: false },
        ))
    }

    /// `cel.bind`, `cel.block`, `cel.index`, `cel.iterVar`, `cel.accuVar`.
    fn cel_namespace(&mut self, offset: usize, name: &str, args: &mut Vec<Expr>) -> Result<Option<Expr>, ParseError> {
        let mut it = core::mem::take(args).into_iter();
        match (name, it.len()) {
            ("bind", 3) => {
                let var = match it.next() {
                    Some(Expr { kind: Kind::Ident(name), .. }) => name,
                    other => {
                        let pos = other.map_or(offset, |e| at(&e));
                        return self.error(pos, String::from("cel.bind() variable names must be simple identifiers"));
                    }
                };
                let (init, body) = (it.next(), it.next());
                let (Some(init), Some(body)) = (init, body) else { return Ok(None) };
                Ok(Some(Expr::new(
                    offset,
                    Kind::Bind { name: var, init: Box::new(init), body: Box::new(body), written: true },
                )))
            }
            ("block", 2) => {
                let (list, body) = (it.next(), it.next());
                let (Some(list), Some(body)) = (list, body) else { return Ok(None) };
                let Kind::List(items) = list.kind else {
                    return self.error(at(&list), String::from("cel.block requires a list literal"));
                };
                let inits = items.into_iter().enumerate().map(|(i, (e, _))| (format!("@index{i}").into(), e)).collect();
                Ok(Some(Expr::new(offset, Kind::Block { inits, body: Box::new(body) })))
            }
            ("index", 1) => {
                let arg = it.next();
                match arg.map(|a| a.kind) {
                    Some(Kind::Lit(Value::Int(i))) if i >= 0 => {
                        Ok(Some(Expr::new(offset, Kind::Ident(format!("@index{i}").into()))))
                    }
                    _ => self.error(offset, String::from("cel.index requires a non-negative int literal")),
                }
            }
            ("iterVar" | "accuVar", 2) => {
                let a = it.next().map(|a| a.kind);
                let b = it.next().map(|a| a.kind);
                match (a, b) {
                    (Some(Kind::Lit(Value::Int(i))), Some(Kind::Lit(Value::Int(j)))) => {
                        let prefix = if name == "iterVar" { "@it" } else { "@ac" };
                        Ok(Some(Expr::new(offset, Kind::Ident(format!("{prefix}:{i}:{j}").into()))))
                    }
                    _ => self.error(offset, format!("cel.{name} requires two int literals")),
                }
            }
            _ => {
                *args = it.collect();
                Ok(None)
            }
        }
    }

    /// `opt.optMap(x, e)` → `opt.hasValue() ? optional.of(bind x = opt.value() in e) : optional.none()`;
    /// `optFlatMap` leaves the body's optional as the result.
    fn opt_map(&mut self, offset: usize, target: &Expr, flat: bool, args: &mut Vec<Expr>) -> PResult {
        let mut it = core::mem::take(args).into_iter();
        let name = if flat { "optFlatMap" } else { "optMap" };
        let (var, _) = self.macro_var(it.next(), &format!("{name}() variable name must be a simple identifier"))?;
        let body = it.next().unwrap_or_else(|| Expr::new(offset, Kind::Lit(Value::Null)));
        let method = |name: &str, b: Builtin| {
            Expr::new(
                offset,
                Kind::Call { target: Some(Box::new(target.clone())), name: name.into(), builtin: b, args: Vec::new() },
            )
        };
        let bound = Expr::new(
            offset,
            Kind::Bind {
                name: var,
                init: Box::new(method("value", Builtin::OptValue)),
                body: Box::new(body),
                written: false,
            },
        );
        let some = if flat { bound } else { call(offset, "optional.of", Builtin::OptionalOf, Vec::from([bound])) };
        let none = call(offset, "optional.none", Builtin::OptionalNone, Vec::new());
        Ok(Expr::new(
            offset,
            Kind::Cond(Box::new(method("hasValue", Builtin::OptHasValue)), Box::new(some), Box::new(none)),
        ))
    }
}

fn unreachable_literal() -> Value {
    Value::Null
}

fn call(offset: usize, name: &str, builtin: Builtin, args: Vec<Expr>) -> Expr {
    Expr::new(offset, Kind::Call { target: None, name: name.into(), builtin, args })
}

fn operator_name(op: &str) -> &'static str {
    match op {
        "==" => "_==_",
        "!=" => "_!=_",
        "<" => "_<_",
        "<=" => "_<=_",
        ">" => "_>_",
        ">=" => "_>=_",
        "in" => "@in",
        "+" => "_+_",
        "-" => "_-_",
        "*" => "_*_",
        "/" => "_/_",
        _ => "_%_",
    }
}

/// Builds `&&` / `||` chains as balanced trees, as cel-go does, so long chains stay shallow.
fn balance(mut terms: Vec<Expr>, offsets: &[usize], and: bool) -> Expr {
    if terms.len() == 1 {
        return terms.pop().unwrap_or_else(|| Expr::new(0, Kind::Lit(Value::Null)));
    }
    fn build(terms: &mut [Option<Expr>], offsets: &[usize], lo: usize, hi: usize, and: bool) -> Expr {
        if lo == hi {
            return terms[lo].take().unwrap_or_else(|| Expr::new(0, Kind::Lit(Value::Null)));
        }
        let mid = (lo + hi).div_ceil(2);
        let left = build(terms, offsets, lo, mid - 1, and);
        let right = build(terms, offsets, mid, hi, and);
        let offset = offsets[mid - 1];
        let kind =
            if and { Kind::And(Box::new(left), Box::new(right)) } else { Kind::Or(Box::new(left), Box::new(right)) };
        Expr::new(offset, kind)
    }
    let n = terms.len();
    let mut slots: Vec<Option<Expr>> = terms.into_iter().map(Some).collect();
    build(&mut slots, offsets, 0, n - 1, and)
}

fn is_type_name(e: &Expr) -> bool {
    match &e.kind {
        Kind::Ident(_) => true,
        Kind::Select { operand, optional: false, .. } => is_type_name(operand),
        _ => false,
    }
}

fn qualified_name(e: &Expr) -> String {
    match &e.kind {
        Kind::Ident(n) => String::from(&**n),
        Kind::Select { operand, field, .. } => format!("{}.{field}", qualified_name(operand)),
        _ => String::new(),
    }
}
