//! CEL, the Common Expression Language, as Kubernetes runs it.
//!
//! ```
//! use kubedv_core::cel::{Program, NoVars};
//! let program = Program::compile("[1, 2, 3].all(x, x > 0) && 'abc'.startsWith('a')").unwrap();
//! let result = program.eval(&NoVars).unwrap();
//! assert_eq!(kubedv_core::cel::to_json(&result.value), serde_json::json!(true));
//! ```
//!
//! # A tour
//!
//! The engine is laid out in cel-go's rooms, each a module that imports only the rooms below
//! it (a room's files import each other freely; rooms on one line never import each other):
//!
//! ```text
//! environment            Kubernetes' environment: versions, check_kubernetes, validators, schemas
//!      |
//! check     estimate     the type checker | the static cost estimate
//!      |     |
//! runtime                Program, interpreter, the one function dispatch, runtime cost, folding
//!      |
//! ext       k8s          cel-go's extensions | the Kubernetes libraries
//!      |     |
//! library                the standard library; a call's operands; regular expressions
//!      |
//! syntax                 lexer, parser and macros, AST and its traversal, Builtin, names
//!      |
//! value                  values, time, JSON, the Kubernetes libraries' value types
//!      |
//! common                 errors and positions, the cost model's constants, reserved words
//! ```
//!
//! - [`common`]: what every room shares: [`CelError`] and source positions, the cost model's
//!   constants (cel-go `common/cost.go`), CEL's reserved words and Kubernetes' escaping of
//!   property names.
//! - [`value`]: [`Value`] with CEL's equality and ordering, timestamps and durations, JSON both
//!   ways, and "no such overload". `Value` is a closed enum, so the Kubernetes libraries' types
//!   (quantity, IP, CIDR, URL, semver, formats, the authorizer's) are values here too: values
//!   sit below every function and the AST, whose literals are values (as cel-go's
//!   `common/types` sits below its `common/ast`).
//! - [`syntax`]: the lexer, the parser (with macro expansion), the [`ast`] with its one
//!   traversal, [`ast::Expr::children`] / [`ast::Expr::children_mut`], the [`syntax::Builtin`]
//!   each call's name resolves to, and name resolution (locals' slots, free variables' indexes).
//! - [`library`]: the standard library's functions, in families (operators, conversions, string
//!   tests and `matches`, time accessors, optionals), each answering a call or declining it.
//! - [`ext`]: cel-go's extensions (strings and `format`, lists, sets; math and encoders with
//!   the `cel-extensions` feature). [`k8s`]: the Kubernetes libraries' functions and costs
//!   (lists, regex, quantity, IP, CIDR, URL, semver, format, authorizer).
//! - [`runtime`]: [`Program`], the interpreter and its in-place fast paths, the dispatcher that
//!   names every library, Kubernetes' runtime [`cost`], constant folding and [`access`] plans.
//! - [`check`]: the type checker and its declarations; an environment may tell it which
//!   functions it lacks. [`estimate`]: the static cost estimate of a CRD's rules.
//! - [`environment`]: Kubernetes' environment by version, [`checker::check_kubernetes`] (the
//!   check, then cel-go's validators), [`checker::instantiate`], and [`schema`] types and values.
//!
//! A new function touches one room per concern: its [`syntax::Builtin`] (and the name that
//! resolves to it), its body in its library's family, its route in the runtime's dispatcher,
//! its overloads in the checker's signatures, its cost in [`cost`] and in [`estimate`], and
//! the version that introduced it in [`environment`].
//!
//! The paths other crates used before the rooms ([`checker`], [`functions`], [`schema`],
//! [`time`], [`cost`], [`access`], [`ast`]) stay, as re-exports.

pub mod check;
pub mod common;
pub mod environment;
pub mod estimate;
pub mod ext;
pub mod k8s;
pub mod library;
pub mod runtime;
pub mod syntax;
pub mod value;

pub use common::{display_error, position, CelError, ErrorKind};
pub use runtime::{access, cost};
pub use runtime::{Activation, Bound, EvalError, Evaluated, MapVars, NoVars, Program, COST_EXCEEDED};
pub use syntax::ast;
pub use syntax::{MAX_DEPTH, MAX_HEIGHT, MAX_LEN};
pub use value::{from_json, from_json_text, time, to_json, Key, List, ListKind, Map, Type, Value};

#[cfg(feature = "policy")]
pub(crate) use common::RESERVED;
pub use environment::schema;

/// The checker and Kubernetes' check of an expression, at the path they had before the rooms:
/// [`check`]'s checker and declarations, and [`environment`]'s
/// `check_kubernetes` and `instantiate`.
pub mod checker {
    pub use super::check::{check, check_result, CelType, Decls, ObjectType, Overload, ALL};
    pub use super::environment::{check_kubernetes, check_kubernetes_overloads, instantiate};
    pub use super::syntax::ast::Checked;
}

/// Helpers other crates use, at the path they had before the rooms.
pub mod functions {
    pub use super::library::type_ident;
    pub use super::value::{base64_decode, base64_encode};
}
