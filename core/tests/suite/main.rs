//! kubedv-core's integration tests: one test binary, a module per engine, laid out like `src/`
//! (`cel/`, `crd/`, `declarative/`, `policy/`, `check`, `cri`, `formats`, `golang`, `layout`,
//! `objectmeta`). A new test goes in the module of the engine it exercises, through the public
//! API only; a test of a private function stays next to it in `src/` (`#[cfg(test)]`).
//! Helpers shared between modules are in `common/`. Data files stay where they were:
//! `core/tests/declarative/*.txt` (the declarative tables, which the oracle's answers name by
//! path) and `tests/corpus/` at the repository root (`corpus!`). Relative paths read at run
//! time are relative to `core/`, the directory `cargo test` runs the binary in.
//!
//! `cargo test -p kubedv-core --test suite cel::` runs one engine's tests, `... crd::fidelity::`
//! one module's.

/// A file of the repository's `tests/corpus/`, included at compile time.
macro_rules! corpus {
    ($path:literal) => {
        include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/corpus/", $path))
    };
}

mod common;

mod cel;
mod check;
mod crd;
mod cri;
mod declarative;
mod formats;
mod golang;
mod layout;
mod objectmeta;
#[cfg(feature = "policy")]
mod policy;
