//! The operators (`+`, `-`, `*`, `/`, `%`, `==`, `!=`, `<`, ..., `in`, `!`, unary `-`), `size`
//! and indexing: cel-go's standard overloads of them (common/types' traits).

use alloc::format;
use alloc::string::String;
use core::cmp::Ordering;

use super::conversions::{double_to_string, to_string, TIMESTAMP_OVERFLOW};
use super::Call;
use crate::cel::syntax::Builtin;
use crate::cel::value::{no_overload, Fail, ListKind, Value};

/// The binary operators on two operands, the bulk of the calls in rules: without a call's
/// other bookkeeping. `None` for any other function.
pub(crate) fn binary(b: Builtin, x: &Value, y: &Value) -> Option<Result<Value, Fail>> {
    use Builtin as B;
    Some(match b {
        B::Add => add(x, y),
        B::Sub => sub(x, y),
        B::Mul => mul(x, y),
        B::Div => div(x, y),
        B::Mod => rem(x, y),
        B::Eq => eq(x, y),
        B::Ne => Ok(Value::Bool(x.eq_op(y) != Ok(true))),
        B::Lt | B::Le | B::Gt | B::Ge => relation(b, x, y),
        B::In | B::InSet => contains_elem(x, y),
        _ => return None,
    })
}

/// The operators, `!`, unary `-` and `size`, for operands of the right number.
pub(crate) fn call(b: Builtin, c: &Call<'_>) -> Option<Result<Value, Fail>> {
    use Builtin as B;
    let (a0, arity) = (c.a0, c.arity());
    Some(match b {
        B::Add if arity == 2 => add(a0, c.arg(0)),
        B::Sub if arity == 2 => sub(a0, c.arg(0)),
        B::Mul if arity == 2 => mul(a0, c.arg(0)),
        B::Div if arity == 2 => div(a0, c.arg(0)),
        B::Mod if arity == 2 => rem(a0, c.arg(0)),
        B::Eq if arity == 2 => eq(a0, c.arg(0)),
        B::Ne if arity == 2 => Ok(Value::Bool(a0.eq_op(c.arg(0)) != Ok(true))),
        B::Lt | B::Le | B::Gt | B::Ge if arity == 2 => relation(b, a0, c.arg(0)),
        B::In if arity == 2 => contains_elem(a0, c.arg(0)),
        B::Not if arity == 1 => match a0 {
            Value::Bool(v) => Ok(Value::Bool(!v)),
            _ => Err(c.bad()),
        },
        B::Neg if arity == 1 => neg(a0),
        B::Size if arity == 1 => size(a0),
        _ => return None,
    })
}

/// cel-go's `errIntOverflow`.
pub(crate) const OVERFLOW: &str = "integer overflow";

/// cel-go's `errUintOverflow` (common/types/overflow.go: uint arithmetic).
pub(crate) const UINT_OVERFLOW: &str = "unsigned integer overflow";

/// `a + b`.
pub fn add(a: &Value, b: &Value) -> Result<Value, Fail> {
    use Value::*;
    Ok(match (a, b) {
        (Int(x), Int(y)) => Int(x.checked_add(*y).ok_or(OVERFLOW)?),
        (Uint(x), Uint(y)) => Uint(x.checked_add(*y).ok_or(UINT_OVERFLOW)?),
        (Double(x), Double(y)) => Double(x + y),
        (String(x), String(y)) => {
            let mut s = alloc::string::String::with_capacity(x.len() + y.len());
            s.push_str(x);
            s.push_str(y);
            Value::from(s)
        }
        (Bytes(x), Bytes(y)) => Bytes([&x[..], &y[..]].concat().into()),
        (List(x), List(y)) => {
            if x.is_empty() {
                return Ok(b.clone());
            }
            if y.is_empty() {
                return Ok(a.clone());
            }
            List(x.concat(y))
        }
        (Duration(x), Duration(y)) => Duration(x.checked_add(*y).ok_or(OVERFLOW)?),
        (Timestamp(t), Duration(d)) | (Duration(d), Timestamp(t)) => {
            Timestamp(t.add_nanos(i128::from(*d)).ok_or(TIMESTAMP_OVERFLOW)?)
        }
        _ => return Err(no_overload("_+_", &[a, b])),
    })
}

/// `a - b`.
pub fn sub(a: &Value, b: &Value) -> Result<Value, Fail> {
    use Value::*;
    Ok(match (a, b) {
        (Int(x), Int(y)) => Int(x.checked_sub(*y).ok_or(OVERFLOW)?),
        (Uint(x), Uint(y)) => Uint(x.checked_sub(*y).ok_or(UINT_OVERFLOW)?),
        (Double(x), Double(y)) => Double(x - y),
        (Duration(x), Duration(y)) => Duration(x.checked_sub(*y).ok_or(OVERFLOW)?),
        (Timestamp(t), Duration(d)) => Timestamp(t.add_nanos(-i128::from(*d)).ok_or(TIMESTAMP_OVERFLOW)?),
        (Timestamp(x), Timestamp(y)) => Duration(i64::try_from(x.diff_nanos(y)).map_err(|_| OVERFLOW)?),
        _ => return Err(no_overload("_-_", &[a, b])),
    })
}

/// `a * b`.
pub fn mul(a: &Value, b: &Value) -> Result<Value, Fail> {
    use Value::*;
    Ok(match (a, b) {
        (Int(x), Int(y)) => Int(x.checked_mul(*y).ok_or(OVERFLOW)?),
        (Uint(x), Uint(y)) => Uint(x.checked_mul(*y).ok_or(UINT_OVERFLOW)?),
        (Double(x), Double(y)) => Double(x * y),
        _ => return Err(no_overload("_*_", &[a, b])),
    })
}

/// `a / b`.
pub fn div(a: &Value, b: &Value) -> Result<Value, Fail> {
    use Value::*;
    Ok(match (a, b) {
        (Int(_), Int(0)) | (Uint(_), Uint(0)) => return Err("division by zero".into()),
        (Int(x), Int(y)) => Int(x.checked_div(*y).ok_or(OVERFLOW)?),
        (Uint(x), Uint(y)) => Uint(x / y),
        (Double(x), Double(y)) => Double(x / y),
        _ => return Err(no_overload("_/_", &[a, b])),
    })
}

/// `a % b`.
pub fn rem(a: &Value, b: &Value) -> Result<Value, Fail> {
    use Value::*;
    Ok(match (a, b) {
        (Int(_), Int(0)) | (Uint(_), Uint(0)) => return Err("modulus by zero".into()),
        (Int(x), Int(y)) => Int(x.checked_rem(*y).ok_or(OVERFLOW)?),
        (Uint(x), Uint(y)) => Uint(x % y),
        _ => return Err(no_overload("_%_", &[a, b])),
    })
}

/// `-a`.
pub fn neg(a: &Value) -> Result<Value, Fail> {
    match a {
        Value::Int(x) => Ok(Value::Int(x.checked_neg().ok_or(OVERFLOW)?)),
        Value::Double(x) => Ok(Value::Double(-x)),
        // duration.go Negate.
        Value::Duration(d) => Ok(Value::Duration(d.checked_neg().ok_or(OVERFLOW)?)),
        _ => Err(no_overload("-_", &[a])),
    }
}

/// `<`, `<=`, `>`, `>=`.
pub fn relation(op: Builtin, a: &Value, b: &Value) -> Result<Value, Fail> {
    let name = match op {
        Builtin::Lt => "_<_",
        Builtin::Le => "_<=_",
        Builtin::Gt => "_>_",
        _ => "_>=_",
    };
    let ord = a.compare(b).map_err(|_| no_overload(name, &[a, b]))?;
    // Only a NaN has no order: cel-go's Double.Compare and Int/Uint.Compare (common/types,
    // v0.29.2) answer an error, which the relational operators return.
    let Some(ord) = ord else { return Err(String::from("NaN values cannot be ordered")) };
    Ok(Value::Bool(match op {
        Builtin::Lt => ord == Ordering::Less,
        Builtin::Le => ord != Ordering::Greater,
        Builtin::Gt => ord == Ordering::Greater,
        _ => ord != Ordering::Less,
    }))
}

/// `a == b` ([`Value::eq_op`]): object data compared with what is not a list (map) is bare
/// `no such overload` (`MaybeNoSuchOverloadErr`).
pub fn eq(a: &Value, b: &Value) -> Result<Value, Fail> {
    a.eq_op(b).map(Value::Bool).map_err(|_| String::from(NO_OVERLOAD))
}

const NO_OVERLOAD: &str = "no such overload";

/// `a in b`. In object data (apiserver `valuesunstructured.go`): a list's `Contains` asks each
/// element's `Equal`, and without a match gives the first error met; a map's refuses a key
/// that is not a string. Elsewhere (cel-go `baseList.Contains`) an element's error is skipped.
pub fn contains_elem(a: &Value, b: &Value) -> Result<Value, Fail> {
    match b {
        Value::List(items) if items.kind() != &ListKind::Plain => {
            let mut failed = false;
            for x in items.iter() {
                match x.eq_op(a) {
                    Ok(true) => return Ok(Value::Bool(true)),
                    Ok(false) => {}
                    Err(_) => failed = true,
                }
            }
            if failed {
                Err(String::from(NO_OVERLOAD))
            } else {
                Ok(Value::Bool(false))
            }
        }
        Value::List(items) => Ok(Value::Bool(items.iter().any(|x| x.equals(a)))),
        Value::Map(m) if m.data && !matches!(a, Value::String(_)) => Err(String::from(NO_OVERLOAD)),
        Value::Map(m) => Ok(Value::Bool(m.get(a).is_some())),
        _ => Err(no_overload("@in", &[a, b])),
    }
}

/// `size(x)`: code points of a string, bytes, elements, entries.
pub fn size(a: &Value) -> Result<Value, Fail> {
    let n = match a {
        Value::String(s) => s.chars().count(),
        Value::Bytes(b) => b.len(),
        Value::List(l) => l.len(),
        Value::Map(m) => m.len(),
        _ => return Err(no_overload("size", &[a])),
    };
    Ok(Value::Int(n as i64))
}

/// `container[index]`.
pub fn index(container: &Value, index: &Value) -> Result<Value, Fail> {
    match container {
        Value::List(items) => {
            let i = list_position(index)?;
            usize::try_from(i)
                .ok()
                .and_then(|i| items.get(i))
                .cloned()
                .ok_or_else(|| format!("index out of bounds: {i}"))
        }
        Value::Map(m) => match index {
            Value::Bool(_) | Value::Int(_) | Value::Uint(_) | Value::String(_) | Value::Double(_) => {
                m.get(index).cloned().ok_or_else(|| format!("no such key: {}", key_text(index)))
            }
            _ => Err(no_overload("_[_]", &[container, index])),
        },
        // attributes.go refQualify: a value that is no container has no key.
        _ => Err(format!("no such key: {}", key_text(index))),
    }
}

/// A list index as cel-go's `types.IndexOrError` reads it (list.go; the type names as
/// types.go `Type.String()` prints them): an int, a uint or a whole double.
pub fn list_position(index: &Value) -> Result<i64, Fail> {
    match index {
        Value::Int(i) => Ok(*i),
        Value::Uint(u) => i64::try_from(*u).map_err(|_| format!("unsupported index value {u} in list")),
        Value::Double(d) if libm::trunc(*d) == *d && d.is_finite() => Ok(*d as i64),
        Value::Double(d) => Err(format!("unsupported index value {} in list", double_to_string(*d))),
        other => {
            let shown = match other {
                Value::List(_) => "list(dyn)",
                Value::Map(_) => "map(dyn, dyn)",
                v => v.type_name(),
            };
            Err(format!("unsupported index type '{shown}' in list"))
        }
    }
}

fn key_text(v: &Value) -> String {
    match v {
        Value::String(s) => String::from(&**s),
        other => to_string(other).unwrap_or_default(),
    }
}

/// The types `<` orders (the element types the Kubernetes list library's `isSorted`, `min`
/// and `max` are declared for, lists.go `comparableTypes`, which cel-go's `sort` keys must be
/// too).
pub(crate) fn comparable(v: &Value) -> bool {
    matches!(
        v,
        Value::Int(_)
            | Value::Uint(_)
            | Value::Double(_)
            | Value::Bool(_)
            | Value::Duration(_)
            | Value::Timestamp(_)
            | Value::String(_)
            | Value::Bytes(_)
    )
}

/// A value cel-go can compare at all (`traits.Comparer`; the Kubernetes library objects too).
pub(crate) fn comparer(v: &Value) -> bool {
    comparable(v) || matches!(v, Value::Object(_))
}
