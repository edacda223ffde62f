//! Declarative validation: the `+k8s:` tags of Kubernetes API types, evaluated as the code
//! validation-gen generates would evaluate them.
//!
//! `types.go` text → [`golang`](crate::golang) declarations → [`tags`](crate::declarative::tags) → a
//! compiled [`Schema`] (types resolved, validators attached in Kubernetes' order, diagnostics
//! with positions) → [`Schema::validate`] on a decoded object → Kubernetes' field errors.
//! Compile once, validate many: a `Schema` is immutable and cheap to run.
//! [`Schema::check`] is the one entry per request the front ends call: validation, each
//! error marked as the API server returns it (or compared with handwritten errors), a
//! built-in kind's metadata checks and update refusal.

pub mod catalog;
mod compile;
mod defaults;
mod equal;
mod gotime;
mod marshal;
mod prelude;
mod request;
mod schema;
pub mod shadow;
mod strict;
pub mod tags;
pub(crate) mod validate;
mod validators;

pub use compile::{import_provided_by, Dependency};
pub use request::{Refusal, Request, Verdict};
pub use schema::{RootError, Schema, TypeId};
pub use strict::{Decoding, TypeError};
pub use validate::{Options, Report};
