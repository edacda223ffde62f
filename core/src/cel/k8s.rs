//! The Kubernetes CEL libraries' object types.

use alloc::string::String;

use super::functions::{no_overload, Builtin, Fail};
use super::value::Value;

/// A value of a Kubernetes library type.
#[derive(Debug)]
pub enum Object {}

impl Object {
    /// The type name.
    pub fn type_name(&self) -> &'static str {
        match *self {}
    }
    /// Equality.
    pub fn equals(&self, _: &Object) -> bool {
        match *self {}
    }
    /// Ordering.
    pub fn compare(&self, _: &Object) -> Result<core::cmp::Ordering, ()> {
        match *self {}
    }
}

impl core::fmt::Display for Object {
    fn fmt(&self, _: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {}
    }
}

/// A named format.
pub fn named_format(_: &str) -> Option<()> {
    None
}

/// Constructors.
pub fn construct(_: Builtin, name: &str, all: &[&Value]) -> Result<Value, Fail> {
    Err(no_overload(name, all))
}

/// Methods.
pub fn method(o: &Object, _: &str, _: &[Value], _: &[&Value]) -> Result<Value, Fail> {
    match *o {}
}

/// Method costs.
pub fn method_cost(_: Option<&Value>, _: &[Value]) -> u64 {
    1
}

#[allow(dead_code)]
fn _unused(_: String) {}
