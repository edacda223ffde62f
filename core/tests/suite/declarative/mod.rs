//! Declarative validation (`kubedv_core::declarative`): Go types with `+k8s:` tags, the tables
//! of `core/tests/declarative/`, the shadow comparison, the real k8s.io/api types.

mod decoding;
mod lint;
mod packages;
mod real_api;
mod real_api_kinds;
mod regressions;
mod shadow;
mod shadow_matcher;
mod tables;
