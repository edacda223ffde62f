//! Custom resources (`kubedv_core::crd`): objects against a CRD's schema and rules, and the CRD
//! itself as the API server checks it.

mod decode_corpus;
mod definition;
mod fidelity;
mod objects;
mod schema_corpus;
mod validation_expressions;
