//! The declarations the parser keeps.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;

pub use crate::diag::Pos;

/// One comment line (`// text`, or one line of a `/* */` block), without the markers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comment {
    /// The text after `//` (or inside `/* */`), untrimmed.
    pub text: String,
    /// Where the text starts.
    pub pos: Pos,
}

/// A parsed file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct File {
    /// The package name.
    pub package: String,
    /// The comment block above the package clause.
    pub package_comments: Vec<Comment>,
    /// Imports.
    pub imports: Vec<Import>,
    /// Type declarations, in order.
    pub types: Vec<TypeDecl>,
    /// Constant declarations, in order.
    pub consts: Vec<ConstDecl>,
}

/// `import alias "path"`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Import {
    /// The name the file uses: the alias, or the last path element.
    pub name: String,
    /// The import path.
    pub path: String,
}

/// `type Name Type` (or `type Name = Type`).
#[derive(Clone, Debug, PartialEq)]
pub struct TypeDecl {
    /// The type name.
    pub name: String,
    /// Where the name is.
    pub pos: Pos,
    /// The doc comment block.
    pub comments: Vec<Comment>,
    /// The comment block one blank line above the doc comment (gengo's
    /// `SecondClosestCommentLines`), where validation-gen also reads subresource tags.
    pub second_comments: Vec<Comment>,
    /// The underlying type.
    pub ty: TypeExpr,
    /// `type A = B`: another name for B (reflect prints B's name).
    pub alias: bool,
}

/// `Name Type = "value"` in a const block.
#[derive(Clone, Debug, PartialEq)]
pub struct ConstDecl {
    /// The constant's name.
    pub name: String,
    /// Where the name is.
    pub pos: Pos,
    /// The doc comment block.
    pub comments: Vec<Comment>,
    /// The declared type name, if any (`MyEnum`).
    pub type_name: Option<String>,
    /// The value, when it is a string literal.
    pub string_value: Option<String>,
    /// The value, when it names another constant (`X`, `pkg.X`, or converted, `T(pkg.X)`):
    /// the package name (`None`: this file's) and the constant's name.
    pub value_ref: Option<(Option<String>, String)>,
}

/// A type expression.
#[derive(Clone, Debug, PartialEq)]
pub enum TypeExpr {
    /// A type name, maybe qualified (`string`, `MyType`, `metav1.Time`).
    Named {
        /// The package qualifier, if any.
        package: Option<String>,
        /// The name.
        name: String,
        /// Where it is.
        pos: Pos,
    },
    /// `*T`.
    Pointer(Box<TypeExpr>),
    /// `[]T`.
    Slice(Box<TypeExpr>),
    /// `[N]T`.
    Array(Box<TypeExpr>),
    /// `map[K]V`.
    Map(Box<TypeExpr>, Box<TypeExpr>),
    /// `struct { ... }`.
    Struct(Vec<FieldDecl>),
    /// `interface{ ... }`, `any`, func and chan types: anything goes.
    Opaque {
        /// What it was (`interface`, `func`, `chan`).
        what: &'static str,
        /// Where it is.
        pos: Pos,
    },
}

/// A struct field (one per name: `A, B int` gives two).
#[derive(Clone, Debug, PartialEq)]
pub struct FieldDecl {
    /// The Go field name (for an embedded field, the type's name).
    pub name: String,
    /// Whether the field is embedded.
    pub embedded: bool,
    /// Where the field starts.
    pub pos: Pos,
    /// The doc comment block.
    pub comments: Vec<Comment>,
    /// The field's type.
    pub ty: TypeExpr,
    /// The raw struct tag (without backquotes), if any.
    pub tag: Option<String>,
}

/// The `json` key of a struct tag.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StructTag {
    /// The JSON name (`None` when the tag gives none).
    pub name: Option<String>,
    /// `json:"-"`: never serialized.
    pub skip: bool,
    /// `,omitempty`.
    pub omitempty: bool,
    /// `,inline`.
    pub inline: bool,
}

impl StructTag {
    /// Reads the `json` key of a Go struct tag (`json:"name,omitempty"`), as `reflect.StructTag`.
    pub fn parse(raw: &str) -> StructTag {
        let Some(value) = lookup(raw, "json") else {
            return StructTag::default();
        };
        if value == "-" {
            return StructTag { skip: true, ..StructTag::default() };
        }
        let mut parts = value.split(',');
        let name = parts.next().filter(|n| !n.is_empty()).map(String::from);
        let mut tag = StructTag { name, ..StructTag::default() };
        for opt in parts {
            match opt {
                "omitempty" | "omitzero" => tag.omitempty = true,
                "inline" => tag.inline = true,
                _ => {}
            }
        }
        tag
    }
}

/// `reflect.StructTag.Lookup`: `key:"value"` pairs separated by spaces.
fn lookup(tag: &str, key: &str) -> Option<String> {
    let mut rest = tag;
    loop {
        rest = rest.trim_start_matches(' ');
        if rest.is_empty() {
            return None;
        }
        let colon = rest.find(':')?;
        let name = &rest[..colon];
        if name.is_empty() || name.contains([' ', '"']) {
            return None;
        }
        let after = rest[colon + 1..].strip_prefix('"')?;
        // Find the closing quote, honouring backslash escapes.
        let mut end = None;
        let mut escaped = false;
        for (i, c) in after.char_indices() {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => {
                    end = Some(i);
                    break;
                }
                _ => {}
            }
        }
        let end = end?;
        if name == key {
            return Some(after[..end].replace("\\\"", "\"").replace("\\\\", "\\"));
        }
        rest = &after[end + 1..];
    }
}
