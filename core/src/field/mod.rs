//! Kubernetes' field-level error model, after `k8s.io/apimachinery/pkg/util/validation/field`.
//!
//! An [`Error`] prints exactly as Go's `(*field.Error).Error()` does; a [`Path`] prints as
//! `(*field.Path).String()` does (`spec.containers[0].name`, `<nil>` for the root).

mod error;
pub mod exact;
mod gofmt;
pub(crate) mod gojson;
mod path;

pub use error::{Error, ErrorType, Stability};
pub use gofmt::{go_float, go_quote, is_go_printable, shortest_digits};
pub use gojson::go_json;
pub use path::Path;
