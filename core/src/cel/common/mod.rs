//! What every room shares, below them all (cel-go's `common`): errors and their positions in
//! the source, the cost model's constants, and names (CEL's reserved words, Kubernetes'
//! escaping of property names).

mod cost;
mod error;
mod names;

pub(crate) use cost::{ceil_factor, REGEX_LENGTH, STRING_TRAVERSAL};
pub use cost::{LIST_CREATE, MAP_CREATE, SELECT};
pub(crate) use error::error_at;
pub use error::{display_error, position, CelError, ErrorKind, NO_LOCATION};
pub use names::escape;
pub(crate) use names::RESERVED;
