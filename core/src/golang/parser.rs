//! Recursive-descent parsing of Go declarations.

use alloc::boxed::Box;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::ast::{Comment, ConstDecl, FieldDecl, File, Import, Pos, TypeDecl, TypeExpr};
use super::lexer::{lex, RawComment, Tok, Token};
use super::Diagnostic;

/// How deeply type expressions may nest (`[][]map[string]*struct{...}`) before the parser
/// gives up with a diagnostic instead of risking the stack.
const MAX_DEPTH: usize = 64;

/// Parses Go source into the declarations validation needs, with diagnostics for anything
/// that cannot be read.
pub fn parse_file(src: &str) -> (File, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let lexed = lex(src, &mut diags);
    let mut p = Parser { toks: lexed.tokens, at: 0, comments: lexed.comments, diags, depth: 0 };
    let file = p.file();
    (file, p.diags)
}

struct Parser {
    toks: Vec<Token>,
    at: usize,
    comments: Vec<RawComment>,
    diags: Vec<Diagnostic>,
    depth: usize,
}

/// A parse failure already reported as a diagnostic; the caller recovers.
struct Bail;

type PResult<T> = Result<T, Bail>;

impl Parser {
    fn peek(&self) -> &Tok {
        &self.toks[self.at.min(self.toks.len() - 1)].tok
    }

    fn peek_at(&self, n: usize) -> &Tok {
        &self.toks[(self.at + n).min(self.toks.len() - 1)].tok
    }

    fn pos(&self) -> Pos {
        self.toks[self.at.min(self.toks.len() - 1)].pos
    }

    fn next(&mut self) -> Tok {
        let t = self.peek().clone();
        if self.at < self.toks.len() - 1 {
            self.at += 1;
        }
        t
    }

    fn is_punct(&self, c: char) -> bool {
        *self.peek() == Tok::Punct(c)
    }

    fn is_ident(&self, word: &str) -> bool {
        matches!(self.peek(), Tok::Ident(w) if w == word)
    }

    fn fail<T>(&mut self, message: String) -> PResult<T> {
        let pos = self.pos();
        self.diags.push(Diagnostic::error(pos, message));
        Err(Bail)
    }

    fn describe(tok: &Tok) -> String {
        match tok {
            Tok::Ident(s) => format!("{s:?}"),
            Tok::Str(_) => "a string".into(),
            Tok::Lit(s) => format!("{s:?}"),
            Tok::Punct(c) => format!("'{c}'"),
            Tok::Semi => "the end of the line".into(),
            Tok::Eof => "the end of the input".into(),
        }
    }

    fn expect_punct(&mut self, c: char, context: &str) -> PResult<()> {
        if self.is_punct(c) {
            self.next();
            Ok(())
        } else {
            let found = Self::describe(self.peek());
            self.fail(format!("expected '{c}' {context}, found {found}"))
        }
    }

    fn ident(&mut self, what: &str) -> PResult<(String, Pos)> {
        let pos = self.pos();
        match self.peek().clone() {
            Tok::Ident(s) => {
                self.next();
                Ok((s, pos))
            }
            other => {
                let found = Self::describe(&other);
                self.fail(format!("expected {what}, found {found}"))
            }
        }
    }

    fn skip_semis(&mut self) {
        while *self.peek() == Tok::Semi {
            self.next();
        }
    }

    /// The doc comment block ending on the line just above `line`: contiguous comment lines,
    /// none of them trailing code.
    fn doc_comments(&self, line: u32) -> Vec<Comment> {
        let end = self.comments.partition_point(|c| c.end_line < line);
        let mut start = end;
        let mut want = line.saturating_sub(1);
        while start > 0 {
            let c = &self.comments[start - 1];
            if c.trailing || c.end_line != want {
                break;
            }
            want = c.lines.first().map_or(want, |l| l.pos.line).saturating_sub(1);
            start -= 1;
        }
        self.comments[start..end].iter().flat_map(|c| c.lines.iter().cloned()).collect()
    }

    fn file(&mut self) -> File {
        let mut file = File::default();
        self.skip_semis();
        if self.is_ident("package") {
            let pos = self.pos();
            file.package_comments = self.doc_comments(pos.line);
            self.next();
            match self.ident("the package name") {
                Ok((name, _)) => file.package = name,
                Err(Bail) => self.recover(),
            }
        }
        loop {
            self.skip_semis();
            let result = match self.peek().clone() {
                Tok::Eof => break,
                Tok::Ident(w) if w == "import" => self.imports(&mut file),
                Tok::Ident(w) if w == "type" => self.type_decls(&mut file),
                Tok::Ident(w) if w == "const" => self.const_decls(&mut file),
                Tok::Ident(w) if w == "var" || w == "func" => {
                    self.skip_declaration();
                    Ok(())
                }
                Tok::Ident(w) if w == "package" => {
                    self.fail("a second package clause: paste one file at a time".into())
                }
                other => {
                    let found = Self::describe(&other);
                    self.fail(format!("expected a declaration (type, const, var, func or import), found {found}"))
                }
            };
            if result.is_err() {
                self.recover();
            }
        }
        file
    }

    /// Skips to the next top-level keyword at the start of a statement.
    fn recover(&mut self) {
        loop {
            self.skip_declaration();
            if !matches!(self.next(), Tok::Semi) {
                return;
            }
            if matches!(self.peek(), Tok::Ident(w) if ["type", "const", "var", "func", "import"].contains(&w.as_str()))
            {
                return;
            }
        }
    }

    /// Skips to the end of the current statement (the next `;` outside brackets), without
    /// consuming it; bodies and literals in between are balanced.
    fn skip_declaration(&mut self) {
        let mut depth = 0i32;
        loop {
            match self.peek() {
                Tok::Eof => return,
                Tok::Punct('{' | '(' | '[') => depth += 1,
                Tok::Punct('}' | ')' | ']') => depth -= 1,
                Tok::Semi if depth <= 0 => return,
                _ => {}
            }
            self.next();
        }
    }

    /// `( spec ; spec ; ... )` or a single spec.
    fn group(&mut self, mut spec: impl FnMut(&mut Self) -> PResult<()>) -> PResult<()> {
        if self.is_punct('(') {
            self.next();
            loop {
                self.skip_semis();
                if self.is_punct(')') {
                    self.next();
                    return Ok(());
                }
                if *self.peek() == Tok::Eof {
                    return self.fail("unclosed '(' in a declaration group: add the closing ')'".into());
                }
                if spec(self).is_err() {
                    // Skip the bad spec and keep the rest of the group.
                    let mut depth = 0i32;
                    loop {
                        match self.peek() {
                            Tok::Eof => return Err(Bail),
                            Tok::Punct('{' | '(' | '[') => depth += 1,
                            Tok::Punct(')') if depth == 0 => break,
                            Tok::Punct('}' | ')' | ']') => depth -= 1,
                            Tok::Semi if depth <= 0 => break,
                            _ => {}
                        }
                        self.next();
                    }
                }
            }
        }
        spec(self)
    }

    fn imports(&mut self, file: &mut File) -> PResult<()> {
        self.next();
        self.group(|p| {
            let alias = match p.peek().clone() {
                Tok::Ident(a) => {
                    p.next();
                    Some(a)
                }
                Tok::Punct('.') => {
                    p.next();
                    Some(".".into())
                }
                _ => None,
            };
            match p.next() {
                Tok::Str(path) => {
                    let name = alias.unwrap_or_else(|| path.rsplit('/').next().unwrap_or(&path).to_string());
                    file.imports.push(Import { name, path });
                    Ok(())
                }
                other => {
                    let found = Self::describe(&other);
                    p.fail(format!("expected an import path string, found {found}"))
                }
            }
        })
    }

    fn type_decls(&mut self, file: &mut File) -> PResult<()> {
        self.next();
        self.group(|p| {
            let (name, pos) = p.ident("a type name")?;
            let comments = p.doc_comments(pos.line);
            let above = comments.first().map_or(pos.line, |c| c.pos.line);
            let second_comments = p.doc_comments(above.saturating_sub(1));
            // Generic type parameters: `type X[T any] ...` (an array has a length or `]`).
            if p.is_punct('[') && matches!(p.peek_at(1), Tok::Ident(_)) && !matches!(p.peek_at(2), Tok::Punct(']')) {
                return p
                    .fail(format!("type {name} has type parameters: generic types are not supported in API types"));
            }
            let alias = p.is_punct('=');
            if alias {
                p.next();
            }
            let ty = p.type_expr()?;
            file.types.push(TypeDecl { name, pos, comments, second_comments, ty, alias });
            Ok(())
        })
    }

    fn const_decls(&mut self, file: &mut File) -> PResult<()> {
        self.next();
        self.group(|p| {
            let (name, pos) = p.ident("a constant name")?;
            let comments = p.doc_comments(pos.line);
            let mut names = alloc::vec![(name, pos)];
            while p.is_punct(',') {
                p.next();
                names.push(p.ident("a constant name")?);
            }
            let type_name = match p.peek().clone() {
                Tok::Ident(t) => {
                    p.next();
                    if p.is_punct('.') {
                        p.next();
                        Some(p.ident("a type name")?.0)
                    } else {
                        Some(t)
                    }
                }
                _ => None,
            };
            let mut type_name = type_name;
            let mut string_value = None;
            let mut value_ref = None;
            if p.is_punct('=') {
                p.next();
                value_ref = p.constant_ref(&mut type_name);
                if let Tok::Str(s) = p.peek().clone() {
                    if matches!(p.peek_at(1), Tok::Semi | Tok::Punct(')')) {
                        string_value = Some(s);
                    }
                }
                // A conversion, `Mode = DeviceAllocationMode("All")`, types the constant.
                if let (Tok::Ident(t), Tok::Punct('('), Tok::Str(s), Tok::Punct(')')) =
                    (p.peek().clone(), p.peek_at(1).clone(), p.peek_at(2).clone(), p.peek_at(3).clone())
                {
                    if type_name.is_none() && matches!(p.peek_at(4), Tok::Semi | Tok::Punct(')')) {
                        type_name = Some(t);
                        string_value = Some(s);
                    }
                }
                // Skip the expression (`iota`, `1 << 3`, `"a" + "b"`, ...).
                let mut depth = 0i32;
                loop {
                    match p.peek() {
                        Tok::Eof => break,
                        Tok::Punct('(' | '[' | '{') => depth += 1,
                        Tok::Punct(')') if depth == 0 => break,
                        Tok::Punct(')' | ']' | '}') => depth -= 1,
                        Tok::Semi if depth <= 0 => break,
                        _ => {}
                    }
                    p.next();
                }
            }
            for (name, pos) in names {
                file.consts.push(ConstDecl {
                    name,
                    pos,
                    comments: comments.clone(),
                    type_name: type_name.clone(),
                    string_value: string_value.clone(),
                    value_ref: value_ref.clone(),
                });
            }
            Ok(())
        })
    }

    /// A constant's value that only names another constant (`X`, `pkg.X`, `T(X)`, `T(pkg.X)`),
    /// read ahead without moving; a conversion types the constant when it has no type.
    fn constant_ref(&self, type_name: &mut Option<String>) -> Option<(Option<String>, String)> {
        let ends = |i: usize| matches!(self.peek_at(i), Tok::Semi | Tok::Punct(')'));
        let name_at = |i: usize| match (self.peek_at(i), self.peek_at(i + 1), self.peek_at(i + 2)) {
            (Tok::Ident(pkg), Tok::Punct('.'), Tok::Ident(n)) => Some(((Some(pkg.clone()), n.clone()), i + 3)),
            (Tok::Ident(n), _, _) => Some(((None, n.clone()), i + 1)),
            _ => None,
        };
        let (first, after) = name_at(0)?;
        if ends(after) {
            return Some(first);
        }
        // A conversion: the type (maybe qualified), `(`, a constant's name, `)`.
        if !matches!(self.peek_at(after), Tok::Punct('(')) {
            return None;
        }
        let (inner, close) = name_at(after + 1)?;
        if !matches!(self.peek_at(close), Tok::Punct(')')) || !ends(close + 1) {
            return None;
        }
        if type_name.is_none() && first.0.is_none() {
            *type_name = Some(first.1);
        }
        Some(inner)
    }

    fn type_expr(&mut self) -> PResult<TypeExpr> {
        if self.depth >= MAX_DEPTH {
            return self.fail(format!("types nest more than {MAX_DEPTH} levels deep"));
        }
        self.depth += 1;
        let result = self.type_expr_inner();
        self.depth -= 1;
        result
    }

    fn type_expr_inner(&mut self) -> PResult<TypeExpr> {
        let pos = self.pos();
        match self.peek().clone() {
            Tok::Punct('*') => {
                self.next();
                Ok(TypeExpr::Pointer(Box::new(self.type_expr()?)))
            }
            Tok::Punct('(') => {
                self.next();
                let t = self.type_expr()?;
                self.expect_punct(')', "after a parenthesized type")?;
                Ok(t)
            }
            Tok::Punct('[') => {
                self.next();
                if self.is_punct(']') {
                    self.next();
                    return Ok(TypeExpr::Slice(Box::new(self.type_expr()?)));
                }
                // An array length: any constant expression up to ']'.
                while !self.is_punct(']') {
                    if matches!(self.peek(), Tok::Eof | Tok::Semi) {
                        return self.fail("unclosed '[' in an array type: add the closing ']'".into());
                    }
                    self.next();
                }
                self.next();
                Ok(TypeExpr::Array(Box::new(self.type_expr()?)))
            }
            Tok::Ident(w) if w == "map" => {
                self.next();
                self.expect_punct('[', "after map")?;
                let k = self.type_expr()?;
                self.expect_punct(']', "after the map key type")?;
                let v = self.type_expr()?;
                Ok(TypeExpr::Map(Box::new(k), Box::new(v)))
            }
            Tok::Ident(w) if w == "struct" => {
                self.next();
                self.struct_body()
            }
            Tok::Ident(w) if w == "interface" => {
                self.next();
                self.skip_braces()?;
                Ok(TypeExpr::Opaque { what: "interface", pos })
            }
            Tok::Ident(w) if w == "func" => {
                self.next();
                self.skip_parens()?;
                // Results: a type or a parenthesized list.
                if self.is_punct('(') {
                    self.skip_parens()?;
                } else if !matches!(self.peek(), Tok::Semi | Tok::Str(_) | Tok::Punct(')' | ']' | '}' | ',')) {
                    self.type_expr()?;
                }
                Ok(TypeExpr::Opaque { what: "func", pos })
            }
            // `chan T`, `chan<- T`, `<-chan T`.
            Tok::Ident(w) if w == "chan" => {
                self.next();
                if self.is_punct('<') && *self.peek_at(1) == Tok::Punct('-') {
                    self.next();
                    self.next();
                }
                self.type_expr()?;
                Ok(TypeExpr::Opaque { what: "chan", pos })
            }
            Tok::Punct('<')
                if *self.peek_at(1) == Tok::Punct('-') && matches!(self.peek_at(2), Tok::Ident(w) if w == "chan") =>
            {
                self.next();
                self.next();
                self.type_expr()
            }
            Tok::Ident(first) => {
                self.next();
                if self.is_punct('.') {
                    self.next();
                    let (name, _) = self.ident("a type name after the package qualifier")?;
                    Ok(TypeExpr::Named { package: Some(first), name, pos })
                } else {
                    Ok(TypeExpr::Named { package: None, name: first, pos })
                }
            }
            other => {
                let found = Self::describe(&other);
                self.fail(format!("expected a type, found {found}"))
            }
        }
    }

    fn skip_balanced(&mut self, open: char, close: char, what: &str) -> PResult<()> {
        self.expect_punct(open, what)?;
        let mut depth = 1;
        while depth > 0 {
            match self.next() {
                Tok::Eof => return self.fail(format!("unclosed '{open}': add the closing '{close}'")),
                Tok::Punct(c) if c == open => depth += 1,
                Tok::Punct(c) if c == close => depth -= 1,
                _ => {}
            }
        }
        Ok(())
    }

    fn skip_braces(&mut self) -> PResult<()> {
        self.skip_balanced('{', '}', "to open the interface")
    }

    fn skip_parens(&mut self) -> PResult<()> {
        self.skip_balanced('(', ')', "to open the parameters")
    }

    fn struct_body(&mut self) -> PResult<TypeExpr> {
        self.expect_punct('{', "after struct")?;
        let mut fields = Vec::new();
        loop {
            self.skip_semis();
            match self.peek() {
                Tok::Punct('}') => {
                    self.next();
                    return Ok(TypeExpr::Struct(fields));
                }
                Tok::Eof => return self.fail("unclosed struct: add the closing '}'".into()),
                _ => {}
            }
            self.field(&mut fields)?;
            match self.peek() {
                Tok::Semi => {}
                Tok::Punct('}') => {}
                other => {
                    let found = Self::describe(other);
                    return self.fail(format!("expected the end of the field, found {found}"));
                }
            }
        }
    }

    fn field(&mut self, fields: &mut Vec<FieldDecl>) -> PResult<()> {
        let pos = self.pos();
        let comments = self.doc_comments(pos.line);
        // Embedded: `T`, `*T`, `pkg.T`, `*pkg.T`, optionally followed by a tag.
        let embedded = matches!(
            (self.peek(), self.peek_at(1)),
            (Tok::Punct('*'), _) | (Tok::Ident(_), Tok::Semi | Tok::Str(_) | Tok::Punct('.' | '}'))
        );
        if embedded {
            let ty = self.type_expr()?;
            let name = embedded_name(&ty).unwrap_or_default();
            let tag = self.struct_tag();
            fields.push(FieldDecl { name, embedded: true, pos, comments, ty, tag });
            return Ok(());
        }
        let mut names = alloc::vec![self.ident("a field name")?];
        while self.is_punct(',') {
            self.next();
            names.push(self.ident("a field name")?);
        }
        let ty = self.type_expr()?;
        let tag = self.struct_tag();
        for (name, npos) in names {
            fields.push(FieldDecl {
                name,
                embedded: false,
                pos: npos,
                comments: comments.clone(),
                ty: ty.clone(),
                tag: tag.clone(),
            });
        }
        Ok(())
    }

    fn struct_tag(&mut self) -> Option<String> {
        if let Tok::Str(s) = self.peek().clone() {
            self.next();
            Some(s)
        } else {
            None
        }
    }
}

/// The implicit field name of an embedded type (`*metav1.ObjectMeta` → `ObjectMeta`).
fn embedded_name(ty: &TypeExpr) -> Option<String> {
    match ty {
        TypeExpr::Named { name, .. } => Some(name.clone()),
        TypeExpr::Pointer(inner) => embedded_name(inner),
        _ => None,
    }
}
