//! Syntax (cel-go's `parser` and `common/ast`): the lexer, the parser with the macros it
//! expands, the abstract syntax tree with its one traversal ([`ast::Expr::children`]), the
//! functions a call's name resolves to ([`Builtin`]), and name resolution, which turns each
//! identifier into a local's slot or a free variable's index.

pub mod ast;
mod builtin;
pub(crate) mod lexer;
pub(crate) mod parser;
pub(crate) mod resolve;

pub use builtin::Builtin;
pub use parser::{MAX_DEPTH, MAX_LEN};
pub use resolve::MAX_HEIGHT;
