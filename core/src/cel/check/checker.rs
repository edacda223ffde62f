//! The type checker: infers each expression's type from declared variables and the overloads of
//! the environment's functions (cel-go `checker`), so undeclared names, calls with no matching
//! overload and wrong result types are reported before evaluation, with positions.

use alloc::boxed::Box;
use alloc::format;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;

use super::signatures::{parse_signature, signatures};
use super::types::{go_name, go_signature, list, literal_type, map, optional, type_value, CelType};
use super::{Decls, Undeclared};
use crate::cel::common::{error_at, CelError, ErrorKind, RESERVED};
#[cfg(feature = "policy")]
use crate::cel::runtime::is_mutation_type;
use crate::cel::runtime::Program;
use crate::cel::syntax::ast::{CompKind, Expr, Kind};
use crate::cel::syntax::Builtin;

/// Checks a program against declarations and returns its type.
pub fn check(program: &Program, decls: &Decls) -> Result<CelType, CelError> {
    let mut c = Checker::new(program, decls, None);
    let t = c.check(program.ast())?;
    c.take_errors()?;
    Ok(c.finalize(&t))
}

/// Checks that a program's type is `want` (or dyn), as Kubernetes requires of rules (bool) and
/// message expressions (string).
pub fn check_result(program: &Program, decls: &Decls, want: &CelType) -> Result<CelType, CelError> {
    let t = check(program, decls)?;
    if t != CelType::Dyn && t != *want {
        return Err(error_at(program.source(), ErrorKind::Check, 0, format!("must evaluate to {want}, got {t}")));
    }
    Ok(t)
}

/// A check with what the environment's validators need after it: the types of list and map
/// literals' elements, finalized, and the overloads the run-time dispatch cannot tell.
pub(crate) struct Collected {
    /// The expression's type.
    pub t: CelType,
    /// Each list literal's element types, by offset (literals outside `format` and
    /// `cel.block`).
    pub lists: Vec<Vec<(u32, CelType)>>,
    /// Each map literal's key and value types, by offset.
    pub maps: Vec<Vec<(u32, CelType, u32, CelType)>>,
    /// The element (and key and value) types of the exempt literals, by offset.
    pub exempt: Vec<(u32, CelType)>,
    /// The overloads chosen where the run-time dispatch cannot tell them, by call offset.
    pub overloads: Vec<(u32, Builtin)>,
}

/// Checks in an environment that lacks some of kubedv's functions (`undeclared` reports
/// them), collecting the literals' types.
pub(crate) fn check_collecting(
    program: &Program,
    decls: &Decls,
    undeclared: Undeclared,
) -> Result<Collected, CelError> {
    let mut c = Checker::new(program, decls, Some(Literals::default()));
    c.undeclared = Some(undeclared);
    let t = c.check(program.ast())?;
    let t = c.finalize(&t);
    c.take_errors()?;
    let literals = c.literals.take().unwrap_or_default();
    let typed = |items: &[(u32, CelType)]| items.iter().map(|(offset, t)| (*offset, c.finalize(t))).collect();
    Ok(Collected {
        t,
        lists: literals.lists.iter().map(|items| typed(items)).collect(),
        maps: literals
            .maps
            .iter()
            .map(|entries| entries.iter().map(|(ko, kt, vo, vt)| (*ko, c.finalize(kt), *vo, c.finalize(vt))).collect())
            .collect(),
        exempt: typed(&literals.exempt),
        overloads: core::mem::take(&mut c.overloads),
    })
}

/// Errors found in `src`, by offset, as one error sorted by position as cel-go prints them
/// (the first, with the others in `also`). cel-go keeps the first 100 errors found
/// (`maxErrorsToReport`) and says how many more.
pub(crate) fn report(src: &str, mut all: Vec<(u32, String)>) -> Result<(), CelError> {
    let more = all.len().saturating_sub(100);
    all.truncate(100);
    // A stable sort: errors at one place keep the order they were found in.
    crate::sort::sort_by_key(&mut all, |(offset, _)| *offset);
    let mut it = all.into_iter().map(|(offset, m)| error_at(src, ErrorKind::Check, offset as usize, m));
    match it.next() {
        None => Ok(()),
        Some(mut first) => {
            first.also = it.collect();
            if more > 0 {
                // No position: printed as the message alone.
                let mut note = error_at("", ErrorKind::Check, 0, format!("{more} more errors were truncated"));
                note.line = 0;
                first.also.push(note);
            }
            Err(first)
        }
    }
}

/// The element types of list and map literals, kept for the homogeneity check.
#[derive(Default)]
struct Literals {
    lists: Vec<Vec<(u32, CelType)>>,
    maps: Vec<Vec<(u32, CelType, u32, CelType)>>,
    /// The element (and key and value) types of the exempt literals, by offset, for the
    /// string-format validator.
    exempt: Vec<(u32, CelType)>,
}

struct Checker<'d> {
    decls: &'d Decls,
    locals: Vec<(String, CelType)>,
    subst: Vec<(Rc<str>, CelType)>,
    fresh: usize,
    src: &'d str,
    /// Collected for the environment's validators ([`check_collecting`]).
    literals: Option<Literals>,
    /// Inside a `format` call or a `cel.block` (exempt from the homogeneity check, as cel-go's
    /// string-format and block extensions configure it).
    exempt: usize,
    /// The overloads chosen where the run-time dispatch cannot tell them, by call offset.
    overloads: Vec<(u32, Builtin)>,
    /// The errors found, by offset: cel-go's checker reports every one, and gives the node of
    /// an error the error type, which any type accepts (so one mistake is reported once).
    errors: Vec<(u32, String)>,
    /// The functions the environment lacks (Kubernetes' at its compatibility version).
    undeclared: Option<Undeclared>,
}

type TResult = Result<CelType, CelError>;

impl<'d> Checker<'d> {
    fn new(program: &'d Program, decls: &'d Decls, literals: Option<Literals>) -> Self {
        Checker {
            decls,
            locals: Vec::new(),
            subst: Vec::new(),
            fresh: 0,
            src: program.source(),
            literals,
            exempt: 0,
            overloads: Vec::new(),
            errors: Vec::new(),
            undeclared: None,
        }
    }

    /// Records an error at `e`; the node's type is then cel-go's error type, which behaves as
    /// `dyn` does.
    fn err(&mut self, e: &Expr, message: String) -> TResult {
        self.errors.push((e.offset, message));
        Ok(CelType::Dyn)
    }

    /// The errors recorded, sorted by position as cel-go prints them, as one error (the first,
    /// with the others in `also`). cel-go keeps the first 100 errors found
    /// (`maxErrorsToReport`) and says how many more.
    fn take_errors(&mut self) -> Result<(), CelError> {
        report(self.src, core::mem::take(&mut self.errors))
    }

    fn fresh(&mut self) -> CelType {
        self.fresh += 1;
        CelType::Param(Rc::from(format!("_var{}", self.fresh).as_str()))
    }

    fn resolve(&self, t: &CelType) -> CelType {
        match t {
            CelType::Param(p) => match self.subst.iter().rev().find(|(n, _)| n == p) {
                Some((_, bound)) if bound != t => self.resolve(&bound.clone()),
                _ => t.clone(),
            },
            _ => t.clone(),
        }
    }

    /// Substitutes bound parameters everywhere and turns free ones into `dyn`.
    fn finalize(&self, t: &CelType) -> CelType {
        match self.resolve(t) {
            CelType::Param(_) => CelType::Dyn,
            CelType::List(e) => list(self.finalize(&e)),
            CelType::Map(k, v) => map(self.finalize(&k), self.finalize(&v)),
            CelType::Type(e) => CelType::Type(Rc::new(self.finalize(&e))),
            CelType::Optional(e) => optional(self.finalize(&e)),
            CelType::Opaque(n, ps) => CelType::Opaque(n, ps.iter().map(|p| self.finalize(p)).collect()),
            other => other,
        }
    }

    fn substitute(&self, t: &CelType) -> CelType {
        match self.resolve(t) {
            CelType::List(e) => list(self.substitute(&e)),
            CelType::Map(k, v) => map(self.substitute(&k), self.substitute(&v)),
            CelType::Type(e) => CelType::Type(Rc::new(self.substitute(&e))),
            CelType::Optional(e) => optional(self.substitute(&e)),
            CelType::Opaque(n, ps) => CelType::Opaque(n, ps.iter().map(|p| self.substitute(p)).collect()),
            other => other,
        }
    }

    /// Whether `a` and `b` can be the same type, binding type parameters as needed.
    fn unify(&mut self, a: &CelType, b: &CelType) -> bool {
        let (a, b) = (self.resolve(a), self.resolve(b));
        use CelType as T;
        match (&a, &b) {
            (T::Param(x), T::Param(y)) if x == y => true,
            (T::Param(x), other) | (other, T::Param(x)) => {
                if occurs(x, other, self) {
                    return false;
                }
                self.subst.push((x.clone(), other.clone()));
                true
            }
            (T::Dyn, _) | (_, T::Dyn) => true,
            // Type values are all of type `type` at run time: any two can be compared.
            (T::Type(_), T::Type(_)) => true,
            (T::List(x), T::List(y)) | (T::Optional(x), T::Optional(y)) => self.unify(x, y),
            (T::Map(k1, v1), T::Map(k2, v2)) => self.unify(k1, k2) && self.unify(v1, v2),
            (T::Opaque(n1, p1), T::Opaque(n2, p2)) => {
                n1 == n2 && p1.len() == p2.len() && p1.iter().zip(p2.iter()).all(|(x, y)| self.unify(x, y))
            }
            // cel-go checker/types.go internalIsAssignableNull: null is assignable to the
            // "legacy nullable" kinds (opaque types such as optionals, objects, timestamps,
            // durations). A schema object is not a map (`self.o == {'a': 1}` does not check).
            (T::Null, o) | (o, T::Null) => {
                matches!(o, T::Null | T::Optional(_) | T::Opaque(..) | T::Object(_) | T::Timestamp | T::Duration)
            }
            _ => a == b,
        }
    }

    fn lookup(&self, name: &str) -> Option<CelType> {
        for (n, t) in self.locals.iter().rev() {
            if n == name {
                return Some(t.clone());
            }
        }
        self.decls.vars.get(name).cloned()
    }

    fn check(&mut self, e: &Expr) -> TResult {
        // A function the environment lacks: its errors, and its children checked.
        if let Some(undeclared) = self.undeclared {
            if undeclared(e, self.src, self.decls.compatibility, &mut self.errors) {
                return self.unchecked(e);
            }
        }
        use CelType as T;
        match &e.kind {
            Kind::Lit(v) => Ok(literal_type(v)),
            Kind::Ident(name) | Kind::Local { name, .. } | Kind::Var { name, .. } => {
                if let Some(t) = self.lookup(name) {
                    return Ok(t);
                }
                if let Some(t) = type_value(name) {
                    return Ok(T::Type(Rc::new(t)));
                }
                self.err(e, format!("undeclared reference to '{name}' (in container '')"))
            }
            Kind::Select { operand, field, optional: opt } => {
                if let Some(t) = self.qualified(e) {
                    return Ok(t);
                }
                let t = self.check(operand)?;
                let t = self.resolve(&t);
                let (inner, was_optional) = match t {
                    T::Optional(inner) => ((*inner).clone(), true),
                    other => (other, false),
                };
                let field_type = self.field(e, &inner, field)?;
                Ok(if *opt || was_optional { optional(field_type) } else { field_type })
            }
            Kind::Has { operand, field } => {
                let t = self.check(operand)?;
                let t = self.resolve(&t);
                let inner = match t {
                    T::Optional(inner) => (*inner).clone(),
                    other => other,
                };
                self.field(e, &inner, field)?;
                Ok(T::Bool)
            }
            Kind::Index { operand, index, optional: opt } => {
                let t = self.check(operand)?;
                let i = self.check(index)?;
                let t = self.resolve(&t);
                let (inner, was_optional) = match t {
                    T::Optional(inner) => ((*inner).clone(), true),
                    other => (other, false),
                };
                let elem = match &inner {
                    T::List(elem) => {
                        // cel-go stdlib: `_[_]` of a list is `(list(A), int)` only (a `uint` index
                        // passes only as `dyn`, at run time).
                        if !self.unify(&i, &T::Int) {
                            return self
                                .err(e, format!("found no matching overload for '_[_]' applied to '({inner}, {i})'"));
                        }
                        (**elem).clone()
                    }
                    T::Map(k, v) => {
                        let k = (**k).clone();
                        if !self.unify(&k, &i) {
                            return self
                                .err(e, format!("found no matching overload for '_[_]' applied to '({inner}, {i})'"));
                        }
                        (**v).clone()
                    }
                    // A schema object is not a map: it has fields, no index (cel-go has no
                    // `_[_]` overload for object types; Kubernetes rejects `self.o['f']`).
                    T::Object(_) => {
                        let shown = go_signature(&[inner.clone(), self.resolve(&i)], false);
                        return self.err(e, format!("found no matching overload for '_[_]' applied to '{shown}'"));
                    }
                    T::Dyn | T::Param(_) => T::Dyn,
                    other => {
                        return self
                            .err(e, format!("found no matching overload for '_[_]' applied to '({other}, {i})'"))
                    }
                };
                Ok(if *opt || was_optional { optional(elem) } else { elem })
            }
            Kind::And(a, b) | Kind::Or(a, b) => {
                // cel-go checks the logical operators' operands one by one (checker.go
                // `resolveOverload`: a type mismatch at each operand that is not a bool).
                let ta = self.check(a)?;
                let tb = self.check(b)?;
                for (operand, t) in [(a, ta), (b, tb)] {
                    if !self.unify(&t, &T::Bool) {
                        let found = self.substitute(&t);
                        self.err(operand, format!("expected type 'bool' but found '{}'", go_name(&found)))?;
                    }
                }
                Ok(T::Bool)
            }
            Kind::Cond(c, a, b) => {
                // cel-go: the call `_?_:_` (at the `?`) of the three arguments, whose one
                // overload is `(bool, A, A) -> A`.
                let tc = self.check(c)?;
                let ta = self.check(a)?;
                let tb = self.check(b)?;
                let mark = self.subst.len();
                if !(self.unify(&tc, &T::Bool) && self.unify(&ta, &tb)) {
                    self.subst.truncate(mark);
                    let all = [self.finalize(&tc), self.finalize(&ta), self.finalize(&tb)];
                    let shown = go_signature(&all, false);
                    return self.err(e, format!("found no matching overload for '_?_:_' applied to '{shown}'"));
                }
                Ok(self.join(&ta, &tb))
            }
            Kind::List(items) => {
                let mut elem: Option<CelType> = None;
                // Element types, kept only for the environment's validators.
                let collect = self.literals.is_some() && self.exempt == 0;
                let mut seen = Vec::new();
                for (item, opt) in items {
                    let mut t = self.check(item)?;
                    if *opt {
                        t = match self.resolve(&t) {
                            T::Optional(inner) => (*inner).clone(),
                            T::Dyn => T::Dyn,
                            other => self
                                .err(item, format!("expected type 'optional_type' but found '{}'", go_name(&other)))?,
                        };
                    }
                    if collect {
                        seen.push((item.offset, t.clone()));
                    } else if let Some(literals) = self.literals.as_mut() {
                        literals.exempt.push((item.offset, t.clone()));
                    }
                    elem = Some(match elem {
                        None => t,
                        Some(prev) => self.join(&prev, &t),
                    });
                }
                if let (Some(literals), true) = (self.literals.as_mut(), collect) {
                    literals.lists.push(seen);
                }
                let elem = match elem {
                    Some(t) => t,
                    None => self.fresh(),
                };
                Ok(list(elem))
            }
            Kind::Map(entries) => {
                let mut kt: Option<CelType> = None;
                let mut vt: Option<CelType> = None;
                let collect = self.literals.is_some() && self.exempt == 0;
                let mut seen = Vec::new();
                for (k, v, opt) in entries {
                    let tk = self.check(k)?;
                    if !matches!(self.resolve(&tk), T::String | T::Int | T::Uint | T::Bool | T::Dyn | T::Param(_)) {
                        self.err(k, format!("unsupported map key type: {tk}"))?;
                    }
                    let mut tv = self.check(v)?;
                    if *opt {
                        tv = match self.resolve(&tv) {
                            T::Optional(inner) => (*inner).clone(),
                            T::Dyn => T::Dyn,
                            other => {
                                self.err(v, format!("expected type 'optional_type' but found '{}'", go_name(&other)))?
                            }
                        };
                    }
                    if collect {
                        seen.push((k.offset, tk.clone(), v.offset, tv.clone()));
                    } else if let Some(literals) = self.literals.as_mut() {
                        literals.exempt.extend([(k.offset, tk.clone()), (v.offset, tv.clone())]);
                    }
                    kt = Some(match kt {
                        None => tk,
                        Some(prev) => self.join(&prev, &tk),
                    });
                    vt = Some(match vt {
                        None => tv,
                        Some(prev) => self.join(&prev, &tv),
                    });
                }
                if let (Some(literals), true) = (self.literals.as_mut(), collect) {
                    literals.maps.push(seen);
                }
                let k = kt.unwrap_or_else(|| self.fresh());
                let v = vt.unwrap_or_else(|| self.fresh());
                Ok(map(k, v))
            }
            #[cfg(feature = "policy")]
            Kind::Message { name, fields } if self.decls.patch_types && is_mutation_type(name) => {
                for (field, v, optional) in fields {
                    let t = self.check(v)?;
                    let t = if *optional {
                        match self.resolve(&t) {
                            T::Optional(inner) => (*inner).clone(),
                            other => other,
                        }
                    } else {
                        t
                    };
                    // JSONPatch's `op`, `path` and `from` are strings (pkg/cel/mutation/jsonpatch.go).
                    if &**name == "JSONPatch" {
                        let want = if matches!(&**field, "op" | "path" | "from") { Some(T::String) } else { None };
                        if !matches!(&**field, "op" | "path" | "from" | "value") {
                            self.err(v, format!("undefined field '{field}'"))?;
                        }
                        if let Some(want) = want {
                            if !self.unify(&t, &want) {
                                let t = self.finalize(&t);
                                self.err(
                                    v,
                                    format!(
                                        "expected type of field '{field}' is '{}' but provided type is '{}'",
                                        go_name(&want),
                                        go_name(&t)
                                    ),
                                )?;
                            }
                        }
                    }
                }
                Ok(T::Opaque(Rc::from(&**name), Rc::from([])))
            }
            // No message types (Kubernetes' environments declare none): cel-go's undeclared
            // type name.
            Kind::Message { name, .. } => self.err(e, format!("undeclared reference to '{name}' (in container '')")),
            Kind::Bind { name, init, body, .. } => {
                let t = self.check(init)?;
                self.locals.push((String::from(&**name), t));
                let r = self.check(body);
                self.locals.pop();
                r
            }
            Kind::Block { inits, body } => {
                self.exempt += 1;
                let r = self.block(inits, body);
                self.exempt -= 1;
                r
            }
            Kind::Comprehension(c) => {
                let range = self.check(&c.range)?;
                let range = self.resolve(&range);
                let two = c.var2.is_some();
                let (t1, t2) = match &range {
                    T::List(elem) if two => (T::Int, (**elem).clone()),
                    T::List(elem) => ((**elem).clone(), T::Dyn),
                    T::Map(k, v) => ((**k).clone(), (**v).clone()),
                    T::Object(_) => (T::String, T::Dyn),
                    T::Dyn | T::Param(_) => (T::Dyn, T::Dyn),
                    other => {
                        // cel-go goes on with the variables of the error type.
                        self.err(&c.range, format!("expression of type '{}' cannot be range of a comprehension (must be list, map, or dynamic)", go_name(other)))?;
                        (T::Dyn, T::Dyn)
                    }
                };
                let base = self.locals.len();
                self.locals.push((String::from(&*c.var), t1.clone()));
                if let Some(v2) = &c.var2 {
                    self.locals.push((String::from(&**v2), t2.clone()));
                }
                let r = self.comprehension(e, c.kind, c.filter.as_ref(), &c.step, &t1, &range);
                self.locals.truncate(base);
                r
            }
            Kind::Call { target, name, args, .. } => {
                let exempt = usize::from(&**name == "format");
                self.exempt += exempt;
                let checked = (|| {
                    let recv = match target {
                        Some(t) => Some(self.check(t)?),
                        None => None,
                    };
                    let mut arg_types = Vec::with_capacity(args.len());
                    for a in args {
                        arg_types.push(self.check(a)?);
                    }
                    Ok((recv, arg_types))
                })();
                self.exempt -= exempt;
                let (recv, arg_types) = checked?;
                self.call(e, name, recv, arg_types)
            }
        }
    }

    /// The children of a node whose function the environment lacks (its errors are recorded):
    /// checked for their own errors, the node itself of the error type.
    fn unchecked(&mut self, e: &Expr) -> TResult {
        let base = self.locals.len();
        match &e.kind {
            // `sortBy` without its macro: `l.sortBy(e, key)` is a call with the arguments `e`
            // and `key`, where `e` is no variable.
            Kind::Call { target, args, builtin: Builtin::SortByKeys, .. } => {
                for child in target.iter().map(|t| &**t) {
                    self.check(child)?;
                }
                if let [Expr { kind: Kind::Comprehension(c), .. }] = &args[..] {
                    self.check(&c.range)?;
                    self.written_vars(e.offset, 1);
                    self.check(&c.step)?;
                }
            }
            Kind::Call { .. } => {
                for child in e.children() {
                    self.check(child)?;
                }
            }
            // `cel.bind(x, init, body)` without its macro: `x` is an argument, not a variable.
            Kind::Bind { init, body, written: true, .. } => {
                self.written_vars(e.offset, 1);
                self.check(init)?;
                self.check(body)?;
            }
            Kind::Bind { name, init, body, .. } => {
                self.check(init)?;
                self.locals.push((String::from(&**name), CelType::Dyn));
                self.check(body)?;
            }
            Kind::Block { inits, body } => {
                self.exempt += 1;
                let r = self.block(inits, body);
                self.exempt -= 1;
                r?;
            }
            // A two-variable macro without its library: a call whose first two arguments are
            // identifiers that name no variable.
            Kind::Comprehension(c) => {
                self.check(&c.range)?;
                self.written_vars(e.offset, 1 + usize::from(c.var2.is_some()));
                for child in c.filter.iter().chain([&c.step]) {
                    self.check(child)?;
                }
            }
            _ => {}
        }
        self.locals.truncate(base);
        Ok(CelType::Dyn)
    }

    /// The first `n` arguments of the call whose `(` is at `open`, written as identifiers
    /// (a macro's variables where the macro is absent), checked as the identifiers they are:
    /// cel-go's checker reports each that names no variable.
    fn written_vars(&mut self, open: u32, n: usize) {
        let src = self.src;
        let mut at = open as usize + 1;
        for _ in 0..n {
            at = skip_blank(src, at);
            let len =
                src.get(at..).map_or(0, |s| s.bytes().take_while(|b| b.is_ascii_alphanumeric() || *b == b'_').count());
            if len == 0 {
                return;
            }
            // As an identifier: an error unless it names a variable or a type.
            let name = &src[at..at + len];
            if self.lookup(name).is_none() && type_value(name).is_none() {
                self.errors.push((at as u32, format!("undeclared reference to '{name}' (in container '')")));
            }
            at = skip_blank(src, at + len) + 1; // the comma
        }
    }

    /// `cel.block`: each initialiser in turn, visible to the later ones and the body.
    fn block(&mut self, inits: &[(Box<str>, Expr)], body: &Expr) -> TResult {
        let base = self.locals.len();
        for (name, init) in inits {
            let t = match self.check(init) {
                Ok(t) => t,
                Err(err) => {
                    self.locals.truncate(base);
                    return Err(err);
                }
            };
            self.locals.push((String::from(&**name), t));
        }
        let r = self.check(body);
        self.locals.truncate(base);
        r
    }

    fn comprehension(
        &mut self,
        e: &Expr,
        kind: CompKind,
        filter: Option<&Expr>,
        step: &Expr,
        t1: &CelType,
        range: &CelType,
    ) -> TResult {
        use CelType as T;
        if let Some(f) = filter {
            let tf = self.check(f)?;
            if !self.unify(&tf, &T::Bool) {
                let found = self.substitute(&tf);
                self.err(f, format!("expected type 'bool' but found '{}'", go_name(&found)))?;
            }
        }
        let ts = self.check(step)?;
        let boolean = |c: &mut Self, t: &CelType| -> Result<(), CelError> {
            if !c.unify(t, &T::Bool) {
                let found = c.substitute(t);
                c.err(step, format!("expected type 'bool' but found '{}'", go_name(&found)))?;
            }
            Ok(())
        };
        match kind {
            CompKind::All | CompKind::Exists | CompKind::ExistsOne => {
                boolean(self, &ts)?;
                Ok(T::Bool)
            }
            CompKind::Filter => {
                boolean(self, &ts)?;
                Ok(list(t1.clone()))
            }
            CompKind::Map | CompKind::TransformList => Ok(list(ts)),
            CompKind::TransformMap => {
                let k = match range {
                    T::List(_) => T::Int,
                    T::Map(k, _) => (**k).clone(),
                    _ => T::Dyn,
                };
                Ok(map(k, ts))
            }
            CompKind::TransformMapEntry => match self.resolve(&ts) {
                T::Map(k, v) => Ok(map((*k).clone(), (*v).clone())),
                T::Dyn => Ok(map(T::Dyn, T::Dyn)),
                other => self.err(e, format!("transformMapEntry expects a map, got {other}")),
            },
        }
    }

    /// The most specific type that both are: equal types stay, anything else is `dyn`.
    fn join(&mut self, a: &CelType, b: &CelType) -> CelType {
        let (ra, rb) = (self.substitute(a), self.substitute(b));
        if ra == rb {
            return ra;
        }
        let mark = self.subst.len();
        if matches!(ra, CelType::Param(_)) || matches!(rb, CelType::Param(_)) {
            if self.unify(&ra, &rb) {
                return self.substitute(&ra);
            }
            self.subst.truncate(mark);
        }
        match (&ra, &rb) {
            (CelType::List(x), CelType::List(y)) => list(self.join(x, y)),
            (CelType::Map(k1, v1), CelType::Map(k2, v2)) => {
                let k = self.join(k1, k2);
                let v = self.join(v1, v2);
                map(k, v)
            }
            (CelType::Optional(x), CelType::Optional(y)) => optional(self.join(x, y)),
            (CelType::Opaque(n1, p1), CelType::Opaque(n2, p2)) if n1 == n2 && p1.len() == p2.len() => {
                let params: Vec<CelType> = p1.iter().zip(p2.iter()).map(|(x, y)| self.join(x, y)).collect();
                CelType::Opaque(n1.clone(), params.into())
            }
            // null is assignable to the nullable (abstract and object) types.
            (
                CelType::Null,
                other @ (CelType::Optional(_)
                | CelType::Opaque(..)
                | CelType::Object(_)
                | CelType::Timestamp
                | CelType::Duration),
            )
            | (
                other @ (CelType::Optional(_)
                | CelType::Opaque(..)
                | CelType::Object(_)
                | CelType::Timestamp
                | CelType::Duration),
                CelType::Null,
            ) => other.clone(),
            _ => CelType::Dyn,
        }
    }

    fn qualified(&mut self, e: &Expr) -> Option<CelType> {
        let mut parts = Vec::new();
        let mut cur = e;
        loop {
            match &cur.kind {
                Kind::Select { operand, field, optional: false } => {
                    parts.push(&**field);
                    cur = operand;
                }
                Kind::Local { .. } => return None,
                Kind::Ident(root) | Kind::Var { name: root, .. } => {
                    parts.push(&**root);
                    break;
                }
                _ => return None,
            }
        }
        parts.reverse();
        // cel-go resolves the most qualified declared name first (`authorizer.requestResource`
        // is a variable of its own, not a field of `authorizer`).
        let root_declared = self.lookup(parts[0]).is_some();
        if root_declared && (parts.len() < 2 || !self.decls.vars.keys().any(|k| k.contains('.'))) {
            return None;
        }
        let name = parts.join(".");
        if let Some(t) = self.decls.vars.get(&name) {
            return Some(t.clone());
        }
        if root_declared {
            return None;
        }
        type_value(&name).map(|t| CelType::Type(Rc::new(t)))
    }

    fn field(&mut self, e: &Expr, t: &CelType, field: &str) -> TResult {
        use CelType as T;
        match t {
            T::Map(k, v) => {
                if !self.unify(k, &T::String) {
                    return self.err(e, format!("type '{}' does not support field selection", go_name(t)));
                }
                Ok((**v).clone())
            }
            T::Object(o) => match o.fields.get(field).or_else(|| {
                // From 1.31 a reserved word names its escaped field (apiserver types.go
                // `FindStructFieldType`, `SetRecognizeKeywordAsFieldName` in environment.go):
                // `self.spec.namespace` selects the property `namespace` (`__namespace__`).
                let keyword = self.decls.compatibility >= 31 && RESERVED.contains(&field);
                keyword.then(|| o.fields.get(format!("__{field}__").as_str())).flatten()
            }) {
                Some(ft) => Ok(ft.clone()),
                None => self.err(e, format!("undefined field '{field}'")),
            },
            T::Dyn | T::Param(_) => Ok(T::Dyn),
            other => self.err(e, format!("type '{}' does not support field selection", go_name(other))),
        }
    }

    fn call(&mut self, e: &Expr, name: &str, recv: Option<CelType>, args: Vec<CelType>) -> TResult {
        use CelType as T;
        let member = recv.is_some();
        let all: Vec<CelType> = recv.into_iter().chain(args).collect();
        if (name == "math.greatest" || name == "math.least") && !member {
            return self.extreme(e, name, &all);
        }
        if name == "type" && all.len() == 1 && !member {
            return Ok(T::Type(Rc::new(self.substitute(&all[0]))));
        }
        let declared: Vec<(Vec<CelType>, CelType)> = match self.decls.functions.get(name) {
            Some(list) => list
                .iter()
                .filter(|o| o.member == member)
                .map(|o| {
                    self.fresh += 1;
                    let n = self.fresh;
                    (o.params.iter().map(|t| rename(t, n)).collect(), rename(&o.result, n))
                })
                .collect(),
            None => Vec::new(),
        };
        let sigs = signatures(name, member);
        #[cfg(feature = "policy")]
        if name == "jsonpatch.escapeKey" && !member && self.decls.patch_types {
            return if all.len() == 1 && self.unify(&all[0], &T::String) {
                Ok(T::String)
            } else {
                let finals: Vec<CelType> = all.iter().map(|t| self.finalize(t)).collect();
                self.err(
                    e,
                    format!("found no matching overload for '{name}' applied to '{}'", go_signature(&finals, false)),
                )
            };
        }
        if name == "jsonpatch.escapeKey" {
            return self.err(e, format!("undeclared reference to '{name}' (in container '')"));
        }
        if sigs.is_empty() && declared.is_empty() {
            if !member && !Builtin::global(name).eq(&Builtin::Unknown) {
                // A known function without a signature entry: accept it dynamically.
                return Ok(T::Dyn);
            }
            // checker.go: a function declared only in the other form (a global `sign` called as
            // a method) has no matching overload; an unknown one is an undeclared reference.
            if !signatures(name, !member).is_empty() {
                let finals: Vec<CelType> = all.iter().map(|t| self.finalize(t)).collect();
                let shown = go_signature(&finals, member);
                return self.err(e, format!("found no matching overload for '{name}' applied to '{shown}'"));
            }
            return self.err(e, format!("undeclared reference to '{name}' (in container '')"));
        }
        let mut results: Vec<CelType> = Vec::new();
        let mut matched_subst: Option<Vec<(Rc<str>, CelType)>> = None;
        let parsed: Vec<(Vec<CelType>, CelType)> = sigs
            .iter()
            .filter_map(|sig| {
                self.fresh += 1;
                parse_signature(sig, self.fresh)
            })
            .collect();
        for (params, result) in declared.into_iter().chain(parsed) {
            if params.len() != all.len() {
                continue;
            }
            let mark = self.subst.len();
            if params.iter().zip(all.iter()).all(|(p, a)| self.unify(p, a)) {
                let r = self.substitute(&result);
                results.push(r);
                if matched_subst.is_none() {
                    matched_subst = Some(self.subst[mark..].to_vec());
                }
            }
            self.subst.truncate(mark);
        }
        match results.len() {
            0 => {
                let finals: Vec<CelType> = all.iter().map(|t| self.finalize(t)).collect();
                let shown = go_signature(&finals, member);
                self.err(e, format!("found no matching overload for '{name}' applied to '{shown}'"))
            }
            1 => {
                if let Some(s) = matched_subst {
                    self.subst.extend(s);
                }
                let result = results.pop().unwrap_or(T::Dyn);
                if name == "sum" && member {
                    let chosen = match self.resolve(&result) {
                        T::Uint => Some(Builtin::SumUint),
                        T::Double => Some(Builtin::SumDouble),
                        T::Duration => Some(Builtin::SumDuration),
                        _ => None,
                    };
                    self.overloads.extend(chosen.map(|b| (e.offset, b)));
                }
                Ok(result)
            }
            _ => {
                let first = results[0].clone();
                if results.iter().all(|r| *r == first) {
                    Ok(first)
                } else {
                    Ok(T::Dyn)
                }
            }
        }
    }

    fn extreme(&mut self, e: &Expr, name: &str, all: &[CelType]) -> TResult {
        use CelType as T;
        let numeric = |t: &CelType| matches!(t, T::Int | T::Uint | T::Double | T::Dyn | T::Param(_));
        let items: Vec<CelType> = match all {
            [one] => match self.resolve(one) {
                T::List(elem) => Vec::from([(*elem).clone()]),
                other => Vec::from([other]),
            },
            _ => all.iter().map(|t| self.resolve(t)).collect(),
        };
        if items.is_empty() || !items.iter().all(numeric) {
            let shown: Vec<String> = all.iter().map(|t| format!("{t}")).collect();
            return self.err(e, format!("found no matching overload for '{name}' applied to '({})'", shown.join(", ")));
        }
        let first = items[0].clone();
        Ok(if items.iter().all(|t| *t == first) { first } else { T::Dyn })
    }
}

/// Gives a declared overload's type parameters names unique to one use.
fn rename(t: &CelType, n: usize) -> CelType {
    match t {
        CelType::Param(p) => CelType::Param(Rc::from(format!("{p}#{n}").as_str())),
        CelType::List(e) => list(rename(e, n)),
        CelType::Map(k, v) => map(rename(k, n), rename(v, n)),
        CelType::Type(e) => CelType::Type(Rc::new(rename(e, n))),
        CelType::Optional(e) => optional(rename(e, n)),
        CelType::Opaque(name, ps) => CelType::Opaque(name.clone(), ps.iter().map(|p| rename(p, n)).collect()),
        other => other.clone(),
    }
}

fn occurs(name: &Rc<str>, t: &CelType, c: &Checker<'_>) -> bool {
    match c.resolve(t) {
        CelType::Param(p) => p == *name,
        CelType::List(e) | CelType::Type(e) | CelType::Optional(e) => occurs(name, &e, c),
        CelType::Map(k, v) => occurs(name, &k, c) || occurs(name, &v, c),
        CelType::Opaque(_, ps) => ps.iter().any(|p| occurs(name, p, c)),
        _ => false,
    }
}

/// The offset of the next token at or after `at`: whitespace and `//` comments skipped.
fn skip_blank(src: &str, mut at: usize) -> usize {
    let bytes = src.as_bytes();
    loop {
        match bytes.get(at..) {
            Some([b' ' | b'\t' | b'\n' | b'\r' | b'\x0c', ..]) => at += 1,
            Some([b'/', b'/', rest @ ..]) => at += 2 + rest.iter().take_while(|b| **b != b'\n').count(),
            _ => return at,
        }
    }
}
