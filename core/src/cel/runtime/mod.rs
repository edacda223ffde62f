//! Running programs (cel-go's `interpreter` and `cel.Program`): a [`Program`] built from
//! source, optionally folded as Kubernetes builds it (`optimize`), evaluated against an
//! [`Activation`] by the interpreter, which calls functions through the one dispatcher that
//! names every library (`dispatch`) and tracks Kubernetes' runtime [`cost`]; and [`access`],
//! what of its variables a program reads.

pub mod access;
mod activation;
mod comprehension;
pub mod cost;
mod dispatch;
mod eval;
mod in_place;
mod optimize;
mod program;

pub use activation::{Activation, MapVars, NoVars};
#[cfg(feature = "policy")]
pub(crate) use eval::is_mutation_type;
pub(crate) use eval::Interpreter;
pub use eval::{EvalError, COST_EXCEEDED};
pub use program::{Bound, Evaluated, Program};
