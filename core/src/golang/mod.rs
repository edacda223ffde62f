//! A parser for the Go declarations found in Kubernetes `types.go` and `doc.go` files.
//!
//! It reads what validation needs — the package clause, imports, type declarations (structs,
//! typedefs, pointers, slices, maps, arrays), const blocks (typed string constants for enums),
//! and the comment block above each declaration and field — and skips what it does not
//! (functions, methods, vars). Malformed input becomes [`Diagnostic`]s with a line and column;
//! the parser recovers at the next top-level declaration and never panics.

mod ast;
mod lexer;
mod parser;

pub use crate::diag::Pos;
pub use ast::{Comment, ConstDecl, FieldDecl, File, Import, StructTag, TypeDecl, TypeExpr};
pub use parser::parse_file;

pub use crate::diag::{Diagnostic, Severity};

/// The API group a Go package's sources declare: a `// +groupName=` tag (types.go, doc.go),
/// else a `GroupName = "..."` constant (register.go).
pub fn group_name(text: &str) -> Option<&str> {
    let tag =
        text.lines().find_map(|l| l.trim_start().strip_prefix("//")?.trim().strip_prefix("+groupName=").map(str::trim));
    tag.or_else(|| text.lines().find_map(|l| l.split("GroupName = \"").nth(1)?.split('"').next()))
}
