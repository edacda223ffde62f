//! The variables an evaluation sees (cel-go `interpreter.Activation`): by name, by position
//! when bound to one program ([`Program::bind`](super::Program::bind)), or computed when first
//! read.

use alloc::boxed::Box;
use alloc::collections::BTreeMap;
use alloc::rc::Rc;
use alloc::string::String;

use crate::cel::value::{Map, Value};

/// Variables visible to an expression.
pub trait Activation {
    /// The value of a variable, if it is bound (borrowed: evaluation clones only what it
    /// returns).
    fn resolve(&self, name: &str) -> Option<&Value>;

    /// The values of `names` (a program's free variables) by position, when this activation
    /// was bound to that program ([`super::Program::bind`]); `None` to look names up.
    fn by_position(&self, _names: &[Box<str>]) -> Option<&[Option<Value>]> {
        None
    }

    /// A value computed when it is first read, by its qualified name (`variables.name` in
    /// admission policies: cel-go's composited variables), or the error that computing it
    /// gave. Asked only for names [`Activation::resolve`] does not know.
    fn resolve_lazy(&self, _name: &str) -> Option<Result<Value, String>> {
        None
    }
}

/// No variables.
pub struct NoVars;

impl Activation for NoVars {
    fn resolve(&self, _: &str) -> Option<&Value> {
        None
    }
}

impl Activation for BTreeMap<String, Value> {
    fn resolve(&self, name: &str) -> Option<&Value> {
        self.get(name)
    }
}

/// Variables as the entries of a CEL map (a parsed JSON object of variables).
pub struct MapVars(pub Rc<Map>);

impl Activation for MapVars {
    fn resolve(&self, name: &str) -> Option<&Value> {
        self.0.get_str(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cel::value::from_json_text;

    #[test]
    fn map_vars_resolve_the_entries() {
        let Value::Map(m) = from_json_text(r#"{"self": {"n": 1}}"#).unwrap() else { panic!() };
        assert!(MapVars(m).resolve("self").is_some());
    }
}
