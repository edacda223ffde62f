//! Optional values (cel-go's optional types library: `optional.of`, `optional.none`,
//! `value()`, `hasValue()`, `or`, `orValue`, `optional.unwrap`).

use alloc::format;
use alloc::rc::Rc;
use alloc::vec::Vec;

use super::Call;
use crate::cel::syntax::Builtin;
use crate::cel::value::{no_overload, time, to_json, Fail, Value};

/// The optional types library's functions.
pub(crate) fn call(b: Builtin, c: &Call<'_>) -> Option<Result<Value, Fail>> {
    use Builtin as B;
    let (a0, arity) = (c.a0, c.arity());
    Some(match b {
        B::OptionalOf if arity == 1 => Ok(Value::Optional(Some(Rc::new(a0.clone())))),
        B::OptionalOfNonZero if arity == 1 => Ok(Value::Optional((!is_zero(a0)).then(|| Rc::new(a0.clone())))),
        B::OptionalNone if arity == 0 => Ok(Value::Optional(None)),
        // cel-go library.go optUnwrap: the values of the present optionals, in order.
        B::OptionalUnwrap if arity == 1 => unwrap(c),
        B::OptValue if arity == 1 => match a0 {
            Value::Optional(Some(v)) => Ok((**v).clone()),
            Value::Optional(None) => Err("optional.none() dereference".into()),
            _ => Err(c.bad()),
        },
        B::OptHasValue if arity == 1 => match a0 {
            Value::Optional(o) => Ok(Value::Bool(o.is_some())),
            _ => Err(c.bad()),
        },
        B::OptOr if arity == 2 => match (a0, c.arg(0)) {
            (Value::Optional(Some(_)), Value::Optional(_)) => Ok(a0.clone()),
            (Value::Optional(None), other @ Value::Optional(_)) => Ok(other.clone()),
            _ => Err(c.bad()),
        },
        B::OptOrValue if arity == 2 => match a0 {
            Value::Optional(Some(v)) => Ok((**v).clone()),
            Value::Optional(None) => Ok(c.arg(0).clone()),
            _ => Err(c.bad()),
        },
        _ => return None,
    })
}

/// `optional.unwrap(list)`: the values of the present optionals, in order.
fn unwrap(c: &Call<'_>) -> Result<Value, Fail> {
    match c.a0 {
        Value::List(items) => {
            let mut out = Vec::new();
            for item in items.iter() {
                match item {
                    Value::Optional(Some(v)) => out.push((**v).clone()),
                    Value::Optional(None) => {}
                    other => return Err(format!("value {} is not optional", to_json(other))),
                }
            }
            Ok(Value::list(out))
        }
        _ => Err(no_overload(c.name, c.all)),
    }
}

/// Whether a value is its type's zero value (for `optional.ofNonZeroValue`).
pub fn is_zero(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Bool(b) => !b,
        Value::Int(i) => *i == 0,
        Value::Uint(u) => *u == 0,
        Value::Double(d) => *d == 0.0,
        Value::String(s) => s.is_empty(),
        Value::Bytes(b) => b.is_empty(),
        Value::List(l) => l.is_empty(),
        Value::Map(m) => m.is_empty(),
        // cel-go `Timestamp.IsZeroValue` is Go's `time.Time.IsZero`: 0001-01-01T00:00:00Z (its
        // comment says epoch 0; validation_test.go "optionals" shows which).
        Value::Timestamp(t) => t.secs == time::MIN_TS && t.nanos == 0,
        Value::Duration(d) => *d == 0,
        Value::Optional(o) => o.is_none(),
        _ => false,
    }
}
