//! The Kubernetes lists library (apiserver `pkg/cel/library/lists.go`): `isSorted`, `sum`,
//! `min`, `max`, `indexOf` and `lastIndexOf` of a list, and `includes` (version 1, 1.37).

use alloc::format;
use alloc::string::String;
use core::cmp::Ordering;

use crate::cel::library::operators::{add, comparable, comparer};
use crate::cel::library::Call;
use crate::cel::syntax::Builtin;
use crate::cel::value::{no_overload, Fail, Value};

/// The lists library's functions (`indexOf` and `lastIndexOf` of a list; of a string they are
/// the strings extension's).
pub(crate) fn call(b: Builtin, c: &Call<'_>) -> Option<Result<Value, Fail>> {
    use Builtin as B;
    let (a0, arity) = (c.a0, c.arity());
    match b {
        // lists.go includes: a list has the element, or the target equals it.
        B::Includes if arity == 2 => {
            let x = c.arg(0);
            Some(Ok(Value::Bool(match a0 {
                Value::List(items) => items.iter().any(|v| v.equals(x)),
                other => other.equals(x),
            })))
        }
        B::IndexOf | B::LastIndexOf if arity == 2 => {
            let Value::List(items) = a0 else { return None };
            let x = c.arg(0);
            let found = if b == B::IndexOf {
                items.iter().position(|v| v.equals(x))
            } else {
                items.iter().rposition(|v| v.equals(x))
            };
            Some(Ok(Value::Int(found.map_or(-1, |i| i as i64))))
        }
        B::IsSorted | B::Sum | B::SumUint | B::SumDouble | B::SumDuration | B::Min | B::Max => match a0 {
            Value::List(items) => Some(lists(b, c.name, items, c.rest, c.all)),
            _ => None,
        },
        _ => None,
    }
}

/// lists.go `sum`: the overload's zero, then `acc.Add(next)`; another type is cel-go's "no such
/// overload".
fn sum(mut acc: Value, items: &[Value]) -> Result<Value, Fail> {
    for v in items {
        if core::mem::discriminant(v) != core::mem::discriminant(&acc) {
            return Err(String::from("no such overload"));
        }
        acc = add(&acc, v)?;
    }
    Ok(acc)
}

fn lists(b: Builtin, name: &str, items: &[Value], rest: &[Value], all: &[&Value]) -> Result<Value, Fail> {
    use Builtin as B;
    let bad = || no_overload(name, all);
    match (b, rest.len()) {
        // apiserver pkg/cel/library/lists.go (v0.37): one overload per element type, which cel-go
        // picks at run time by the first element's type (an empty list takes the first, int,
        // and is sorted: validation_test.go "stdlib list functions"); the later elements'
        // comparison errors are ignored (`cmp == IntOne` only).
        (B::IsSorted, 0) => {
            let Some(first) = items.first() else { return Ok(Value::Bool(true)) };
            let mut prev = Some(first).filter(|v| comparable(v)).ok_or_else(|| no_overload(name, all))?;
            for v in &items[1..] {
                if !comparer(v) {
                    return Err(String::from("no such overload"));
                }
                if let Ok(Some(Ordering::Greater)) = prev.compare(v) {
                    return Ok(Value::Bool(false));
                }
                prev = v;
            }
            Ok(Value::Bool(true))
        }
        // The zero of the chosen overload's type, then `acc.Add(next)`: another type is cel-go's
        // "no such overload".
        (B::SumUint, 0) => sum(Value::Uint(0), items),
        (B::SumDouble, 0) => sum(Value::Double(0.0), items),
        (B::SumDuration, 0) => sum(Value::Duration(0), items),
        (B::Sum, 0) => {
            let acc = match items.first() {
                None | Some(Value::Int(_)) => Value::Int(0),
                Some(Value::Uint(_)) => Value::Uint(0),
                Some(Value::Double(_)) => Value::Double(0.0),
                Some(Value::Duration(_)) => Value::Duration(0),
                Some(_) => return Err(bad()),
            };
            sum(acc, items)
        }
        (B::Min | B::Max, 0) => {
            let Some(first) = items.first() else {
                return Err(format!("{name} called on empty list"));
            };
            if !comparable(first) {
                return Err(bad());
            }
            let mut best = first;
            for v in &items[1..] {
                if !comparer(v) {
                    return Err(String::from("no such overload"));
                }
                let prefer = if b == B::Max { Ordering::Less } else { Ordering::Greater };
                if let Ok(Some(o)) = best.compare(v) {
                    if o == prefer {
                        best = v;
                    }
                }
            }
            Ok(best.clone())
        }
        _ => Err(bad()),
    }
}
