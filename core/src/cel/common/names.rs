//! Names: the words CEL reserves, and Kubernetes' escaping of property names that are no CEL
//! identifiers (apiserver `pkg/cel/escaping.go`), which the lexer, values, schemas and the
//! cost estimate share.

use alloc::format;
use alloc::string::String;

/// Words CEL reserves (identifiers may not use them; field selection may).
pub(crate) const RESERVED: &[&str] = &[
    "as",
    "break",
    "const",
    "continue",
    "else",
    "for",
    "function",
    "if",
    "import",
    "let",
    "loop",
    "package",
    "namespace",
    "return",
    "var",
    "void",
    "while",
];

/// Kubernetes' `Escape`: a property name as a CEL identifier (`foo-bar` → `foo__dash__bar`,
/// `namespace` → `__namespace__`), or `None` when it cannot be one.
pub fn escape(name: &str) -> Option<String> {
    let first = *name.as_bytes().first()?;
    if first.is_ascii_digit() {
        return None;
    }
    if matches!(name, "true" | "false" | "null" | "in") || RESERVED.contains(&name) {
        return Some(format!("__{name}__"));
    }
    let mut out = String::with_capacity(name.len());
    let mut chars = name.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '_' if chars.peek() == Some(&'_') => {
                chars.next();
                out.push_str("__underscores__");
            }
            '.' => out.push_str("__dot__"),
            '-' => out.push_str("__dash__"),
            '/' => out.push_str("__slash__"),
            c if c.is_ascii_alphanumeric() || c == '_' => out.push(c),
            _ => return None,
        }
    }
    Some(out)
}
