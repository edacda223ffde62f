//! The CRI policies of SIG Node, as calculators.
//!
//! - [`skew`]: the CRI API version skew policy: will this kubelet (or crictl, or an image-service
//!   proxy) work with this container runtime? Each client→server pair gets a verdict with the
//!   policy sentence that decides it, and [`skew::range_for_kubelet`] /
//!   [`skew::range_for_runtime`] give the supported ranges.
//! - [`maturity`]: "Kubernetes feature development and container runtimes": may a feature that
//!   needs runtime support move to this stage, given the runtimes' implementation status?
//!
//! Versions: Kubernetes-style (`1.30.2`, `v1.31.0-beta.0`) for the kubelet and CRI tools, which
//! follow Kubernetes minors; `k8s.io/cri-api` tags (`v0.27.1`, `v0.26.0-beta.0`) for what a
//! runtime implements; or a runtime product (`containerd=1.7.20`, `cri-o=1.30.1`) mapped
//! through [`runtimes`].

pub mod maturity;
pub mod runtimes;
pub mod skew;
mod version;

pub use version::{ApiLevel, CriMajor, VersionError};
