//! The CLI's tests: one test binary, a module per command as in `src/` (`cel`, `check`, `crd`,
//! `cri`, `format`, `policy`, `validate`), plus the released CRDs (`real_crds`), the GitHub
//! Action and pre-commit hook (`integrations`) and the documentation's examples
//! (`docs_examples`). Helpers shared between modules are in `common`. Every test runs in
//! `cli/` (where `cargo test` runs the binary): inputs are `tests/fixtures/...`, the
//! repository's corpora `../tests/corpus/...`.
//!
//! `cargo test -p kubedv-cli --test suite check::` runs one module's tests.

mod common;

mod cel;
mod check;
mod crd;
mod crd_catalog;
mod cri;
mod docs_examples;
mod format;
mod integrations;
mod policy;
mod real_crds;
mod validate;
