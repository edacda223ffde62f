//! kubedv-core: Kubernetes API validation that runs anywhere.
//!
//! Everything here mirrors what the Kubernetes API server and its code generators do, with
//! the strings Kubernetes prints. The crate is `no_std` + `alloc`: no I/O, no printing and no
//! panics on any input, so the same code serves the CLI, the npm package (WebAssembly) and the
//! browser playground.
//!
//! - [`field`]: Kubernetes' field error model (`field.Error`, `field.Path`) and its text form.
//! - [`content`]: the string-content checks of `k8s.io/apimachinery/pkg/api/validate/content`
//!   (DNS labels and subdomains, label keys and values, C identifiers, path segments).
//! - [`format`]: the `+k8s:format=NAME` validators, which turn content checks into field errors.
//! - [`cri`]: the CRI API version skew policy and the CRI feature-maturity policy.
//! - [`quantity`]: `resource.Quantity`, which built-in kinds and the declarative engine share.
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

extern crate alloc;
#[cfg(any(feature = "std", test))]
extern crate std;

#[cfg(feature = "apis")]
pub mod apis;
pub mod builtin;
pub mod cel;
pub mod check;
pub mod content;
pub mod crd;
pub mod cri;
pub mod declarative;
pub mod diag;
pub mod field;
pub mod format;
pub mod golang;
pub mod lifecycle;
pub mod metav1;
pub mod objectmeta;
#[cfg(feature = "policy")]
pub mod policy;
#[cfg(feature = "apis")]
pub mod quantity;
pub mod release;
mod sort;

/// The version of kubedv (the crate version).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
