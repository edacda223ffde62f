//! The CEL abstract syntax tree, after macro expansion. Every node keeps the byte offset of the
//! token that produced it, for error positions.

use alloc::boxed::Box;
use alloc::vec::Vec;

use super::functions::Builtin;
use super::value::Value;

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
