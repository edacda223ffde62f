//! Helpers more than one module uses.

/// CRD schema and object builders (the CEL cost tests).
pub mod schemas;

/// The built-in catalogs and the equivalence harness of the real k8s.io/api types.
pub mod harness;
