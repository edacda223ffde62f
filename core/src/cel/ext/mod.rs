//! cel-go's extension libraries (cel-go `ext/`): strings (with `format`), lists and sets, which
//! Kubernetes' environment enables; and math and encoders, which it does not, built with the
//! `cel-extensions` feature for the CEL conformance tests and `kubedv cel` (Kubernetes' checker
//! refuses them, so the npm core module leaves them out).

#[cfg(feature = "cel-extensions")]
pub(crate) mod encoders;
pub(crate) mod format;
pub(crate) mod lists;
#[cfg(feature = "cel-extensions")]
pub(crate) mod math;
pub(crate) mod sets;
pub(crate) mod strings;
