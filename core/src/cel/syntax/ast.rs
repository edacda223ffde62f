//! The CEL abstract syntax tree, after macro expansion. Every node keeps the byte offset of the
//! token that produced it, for error positions. [`Expr::children`] and [`Expr::children_mut`]
//! are the one traversal of it: the walks that treat most nodes alike recurse through them.

use alloc::boxed::Box;
use alloc::vec::Vec;
use core::slice;

use super::Builtin;
use crate::cel::value::Value;

/// An expression node.
#[derive(Clone, Debug)]
pub struct Expr {
    /// Byte offset in the source.
    pub offset: u32,
    /// What the node is.
    pub kind: Kind,
}

/// The node kinds. (Each variant's doc names its fields.)
#[allow(missing_docs)]
#[derive(Clone, Debug)]
pub enum Kind {
    /// A literal.
    Lit(Value),
    /// A variable, or a (possibly qualified) type name such as `int` or `google.protobuf.Duration`,
    /// as parsed; name resolution turns it into `Local` or `Var`.
    Ident(Box<str>),
    /// A comprehension, bind or block variable: its slot on the evaluator's stack.
    Local { slot: u32, name: Box<str> },
    /// A free variable (or type name): its index in the program's variable table.
    Var { index: u32, name: Box<str> },
    /// `operand.field`, `operand.?field` (optional).
    Select { operand: Box<Expr>, field: Box<str>, optional: bool },
    /// `has(operand.field)`.
    Has { operand: Box<Expr>, field: Box<str> },
    /// `operand[index]`, `operand[?index]` (optional).
    Index { operand: Box<Expr>, index: Box<Expr>, optional: bool },
    /// A function or method call, including operators other than `&&`, `||`, `?:`.
    Call { target: Option<Box<Expr>>, name: Box<str>, builtin: Builtin, args: Vec<Expr> },
    /// `a && b`, with CEL's commutative error absorption.
    And(Box<Expr>, Box<Expr>),
    /// `a || b`.
    Or(Box<Expr>, Box<Expr>),
    /// `c ? a : b`.
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `[a, ?b]`: elements and whether each is optional.
    List(Vec<(Expr, bool)>),
    /// `{k: v, ?k2: v2}`.
    Map(Vec<(Expr, Expr, bool)>),
    /// `Name{field: value}`: a message literal (kubedv has no protobuf messages).
    Message { name: Box<str>, fields: Vec<(Box<str>, Expr, bool)> },
    /// A macro comprehension.
    Comprehension(Box<Comprehension>),
    /// `cel.bind(name, init, body)`: written by the user (cel-go's ext.Bindings, which Kubernetes'
    /// environment does not enable) when `written`; else made by the parser for a macro
    /// (`sortBy`, `optMap`, `optFlatMap`), which Kubernetes has.
    Bind { name: Box<str>, init: Box<Expr>, body: Box<Expr>, written: bool },
    /// `cel.block([inits], body)`: `@index0`, `@index1`, ... name the inits.
    Block { inits: Vec<(Box<str>, Expr)>, body: Box<Expr> },
}

/// What a comprehension computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompKind {
    /// `all(x, p)`.
    All,
    /// `exists(x, p)`.
    Exists,
    /// `exists_one(x, p)` / `existsOne`.
    ExistsOne,
    /// `map(x, t)` and `map(x, p, t)` (with a filter).
    Map,
    /// `filter(x, p)`.
    Filter,
    /// `transformList(i, v, [p,] t)`.
    TransformList,
    /// `transformMap(k, v, [p,] t)`.
    TransformMap,
    /// `transformMapEntry(k, v, [p,] entry)`.
    TransformMapEntry,
}

/// A comprehension over a list or map.
#[derive(Clone, Debug)]
pub struct Comprehension {
    /// What it computes.
    pub kind: CompKind,
    /// The (first) iteration variable.
    pub var: Box<str>,
    /// The second variable of a two-variable comprehension.
    pub var2: Option<Box<str>>,
    /// What is iterated.
    pub range: Expr,
    /// The filter of `map(x, p, t)` and the transform macros.
    pub filter: Option<Expr>,
    /// The predicate, or the transform.
    pub step: Expr,
}

impl Expr {
    /// A node at an offset.
    pub fn new(offset: usize, kind: Kind) -> Expr {
        Expr { offset: offset as u32, kind }
    }
}

/// What the checker decided that a program is built with (cel-go's reference map): the
/// overloads of `sum` over typed lists, whose zero for an empty list is the overload's (cel-go
/// calls the overload it resolved).
#[derive(Clone, Debug, Default)]
pub struct Checked {
    /// The overload by the call's offset.
    pub overloads: Vec<(u32, Builtin)>,
}

impl Expr {
    /// The direct subexpressions, in the order evaluation meets them: an operand before its
    /// index, a call's target before its arguments, a map entry's key before its value, a
    /// comprehension's range, filter and step, a block's initialisers before its body.
    pub fn children(&self) -> impl Iterator<Item = &Expr> {
        let mut it = Children { first: [None, None, None], seq: Seq::Empty, pending: None, last: None };
        match &self.kind {
            Kind::Lit(_) | Kind::Ident(_) | Kind::Local { .. } | Kind::Var { .. } => {}
            Kind::Select { operand, .. } | Kind::Has { operand, .. } => it.first[0] = Some(operand),
            Kind::Index { operand, index, .. } => it.first = [Some(operand), Some(index), None],
            Kind::Call { target, args, .. } => {
                it.first[0] = target.as_deref();
                it.seq = Seq::Exprs(args.iter());
            }
            Kind::And(a, b) | Kind::Or(a, b) => it.first = [Some(a), Some(b), None],
            Kind::Cond(c, a, b) => it.first = [Some(c), Some(a), Some(b)],
            Kind::List(items) => it.seq = Seq::Items(items.iter()),
            Kind::Map(entries) => it.seq = Seq::Entries(entries.iter()),
            Kind::Message { fields, .. } => it.seq = Seq::Fields(fields.iter()),
            Kind::Comprehension(c) => it.first = [Some(&c.range), c.filter.as_ref(), Some(&c.step)],
            Kind::Bind { init, body, .. } => it.first = [Some(init), Some(body), None],
            Kind::Block { inits, body } => {
                it.seq = Seq::Inits(inits.iter());
                it.last = Some(body);
            }
        }
        it
    }

    /// [`Expr::children`], to change them.
    pub fn children_mut(&mut self) -> impl Iterator<Item = &mut Expr> {
        let mut it = ChildrenMut { first: [None, None, None], seq: SeqMut::Empty, pending: None, last: None };
        match &mut self.kind {
            Kind::Lit(_) | Kind::Ident(_) | Kind::Local { .. } | Kind::Var { .. } => {}
            Kind::Select { operand, .. } | Kind::Has { operand, .. } => it.first[0] = Some(operand),
            Kind::Index { operand, index, .. } => it.first = [Some(operand), Some(index), None],
            Kind::Call { target, args, .. } => {
                it.first[0] = target.as_deref_mut();
                it.seq = SeqMut::Exprs(args.iter_mut());
            }
            Kind::And(a, b) | Kind::Or(a, b) => it.first = [Some(a), Some(b), None],
            Kind::Cond(c, a, b) => it.first = [Some(c), Some(a), Some(b)],
            Kind::List(items) => it.seq = SeqMut::Items(items.iter_mut()),
            Kind::Map(entries) => it.seq = SeqMut::Entries(entries.iter_mut()),
            Kind::Message { fields, .. } => it.seq = SeqMut::Fields(fields.iter_mut()),
            Kind::Comprehension(c) => {
                let c = &mut **c;
                it.first = [Some(&mut c.range), c.filter.as_mut(), Some(&mut c.step)];
            }
            Kind::Bind { init, body, .. } => it.first = [Some(init), Some(body), None],
            Kind::Block { inits, body } => {
                it.seq = SeqMut::Inits(inits.iter_mut());
                it.last = Some(body);
            }
        }
        it
    }
}

/// The children of one node: up to three single ones, then those of a list of them (a map
/// entry gives its key, then its value), then a last single one.
struct Children<'a> {
    first: [Option<&'a Expr>; 3],
    seq: Seq<'a>,
    /// The value of the map entry whose key came last.
    pending: Option<&'a Expr>,
    last: Option<&'a Expr>,
}

enum Seq<'a> {
    Empty,
    Exprs(slice::Iter<'a, Expr>),
    Items(slice::Iter<'a, (Expr, bool)>),
    Entries(slice::Iter<'a, (Expr, Expr, bool)>),
    Fields(slice::Iter<'a, (Box<str>, Expr, bool)>),
    Inits(slice::Iter<'a, (Box<str>, Expr)>),
}

impl<'a> Iterator for Children<'a> {
    type Item = &'a Expr;

    fn next(&mut self) -> Option<&'a Expr> {
        if let Some(e) = self.first.iter_mut().find_map(Option::take).or_else(|| self.pending.take()) {
            return Some(e);
        }
        let next = match &mut self.seq {
            Seq::Empty => None,
            Seq::Exprs(it) => it.next(),
            Seq::Items(it) => it.next().map(|(e, _)| e),
            Seq::Entries(it) => it.next().map(|(k, v, _)| {
                self.pending = Some(v);
                k
            }),
            Seq::Fields(it) => it.next().map(|(_, e, _)| e),
            Seq::Inits(it) => it.next().map(|(_, e)| e),
        };
        next.or_else(|| self.last.take())
    }
}

/// [`Children`], mutable.
struct ChildrenMut<'a> {
    first: [Option<&'a mut Expr>; 3],
    seq: SeqMut<'a>,
    pending: Option<&'a mut Expr>,
    last: Option<&'a mut Expr>,
}

enum SeqMut<'a> {
    Empty,
    Exprs(slice::IterMut<'a, Expr>),
    Items(slice::IterMut<'a, (Expr, bool)>),
    Entries(slice::IterMut<'a, (Expr, Expr, bool)>),
    Fields(slice::IterMut<'a, (Box<str>, Expr, bool)>),
    Inits(slice::IterMut<'a, (Box<str>, Expr)>),
}

impl<'a> Iterator for ChildrenMut<'a> {
    type Item = &'a mut Expr;

    fn next(&mut self) -> Option<&'a mut Expr> {
        if let Some(e) = self.first.iter_mut().find_map(Option::take).or_else(|| self.pending.take()) {
            return Some(e);
        }
        let next = match &mut self.seq {
            SeqMut::Empty => None,
            SeqMut::Exprs(it) => it.next(),
            SeqMut::Items(it) => it.next().map(|(e, _)| e),
            SeqMut::Entries(it) => it.next().map(|(k, v, _)| {
                self.pending = Some(v);
                k
            }),
            SeqMut::Fields(it) => it.next().map(|(_, e, _)| e),
            SeqMut::Inits(it) => it.next().map(|(_, e)| e),
        };
        next.or_else(|| self.last.take())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cel::syntax::parser::{parse_limited, MAX_DEPTH};
    use crate::cel::to_json;
    use alloc::string::{String, ToString};

    fn name(e: &Expr) -> String {
        match &e.kind {
            Kind::Lit(v) => to_json(v).to_string(),
            Kind::Ident(n) | Kind::Local { name: n, .. } | Kind::Var { name: n, .. } => String::from(&**n),
            Kind::Call { name, .. } => String::from(&**name),
            other => alloc::format!("{:?}", core::mem::discriminant(other)),
        }
    }

    /// The root's children by both traversals, which agree.
    fn children(src: &str) -> Vec<String> {
        let mut e = parse_limited(src, true, MAX_DEPTH).unwrap();
        let shared: Vec<String> = e.children().map(name).collect();
        let mutable: Vec<String> = e.children_mut().map(|e| name(e)).collect();
        assert_eq!(shared, mutable, "{src}");
        shared
    }

    #[test]
    fn children_come_in_evaluation_order() {
        assert_eq!(children("1"), Vec::<String>::new());
        assert_eq!(children("a.b"), ["a"]);
        assert_eq!(children("a[1]"), ["a", "1"]);
        assert_eq!(children("t.f(1, 2)"), ["t", "1", "2"]);
        assert_eq!(children("f(1, 2)"), ["1", "2"]);
        assert_eq!(children("a && b"), ["a", "b"]);
        assert_eq!(children("a ? b : c"), ["a", "b", "c"]);
        assert_eq!(children("[1, ?b]"), ["1", "b"]);
        assert_eq!(children("{'k': 1, 'j': v}"), ["\"k\"", "1", "\"j\"", "v"]);
        assert_eq!(children("M{f: 1, g: 2}"), ["1", "2"]);
        assert_eq!(children("l.map(x, x > 0, 2)"), ["l", "_>_", "2"]);
        assert_eq!(children("l.all(x, true)"), ["l", "true"]);
        assert_eq!(children("cel.bind(v, 1, v)"), ["1", "v"]);
        assert_eq!(children("cel.block([1, 2], 3)"), ["1", "2", "3"]);
    }
}
