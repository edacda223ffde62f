//! Kubernetes' field-level error model, after `k8s.io/apimachinery/pkg/util/validation/field`.
//!
//! An [`Error`] prints exactly as Go's `(*field.Error).Error()` does; a [`Path`] prints as
//! `(*field.Path).String()` does (`spec.containers[0].name`, `<nil>` for the root). Beside them,
//! values printed and parsed as Go prints and parses them (`gofmt`, `gojson`, `exact`, `strconv`, `base64`),
//! which every engine and the YAML reader share.

pub mod base64;
mod error;
pub mod exact;
mod gofmt;
pub(crate) mod gojson;
mod path;
pub mod strconv;

pub use error::{Error, ErrorType, Stability};
pub use gofmt::{go_float, go_quote, is_go_printable, shortest_digits};
pub use gojson::go_json;
pub use path::Path;
