//! cel-go's sets extension (`ext.Sets`): `sets.contains`, `sets.equivalent`,
//! `sets.intersects` of two lists.

use crate::cel::library::Call;
use crate::cel::syntax::Builtin;
use crate::cel::value::{Fail, Value};

/// The sets extension's functions.
pub(crate) fn call(b: Builtin, c: &Call<'_>) -> Option<Result<Value, Fail>> {
    use Builtin as B;
    match b {
        B::SetsContains | B::SetsEquivalent | B::SetsIntersects if c.arity() == 2 => {
            let (Value::List(x), Value::List(y)) = (c.a0, c.arg(0)) else { return Some(Err(c.bad())) };
            let has = |list: &[Value], v: &Value| list.iter().any(|w| w.equals(v));
            Some(Ok(Value::Bool(match b {
                B::SetsContains => y.iter().all(|v| has(x, v)),
                B::SetsEquivalent => y.iter().all(|v| has(x, v)) && x.iter().all(|v| has(y, v)),
                _ => x.iter().any(|v| has(y, v)),
            })))
        }
        _ => None,
    }
}
