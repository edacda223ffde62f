//! cel-go's `ext.Math` library (`math.greatest`, `math.ceil`, `math.abs`, `math.bitAnd`, ...),
//! which Kubernetes' environment does not enable.

use alloc::format;
use alloc::vec::Vec;
use core::cmp::Ordering;

use crate::cel::library::Call;
use crate::cel::syntax::Builtin;
use crate::cel::value::{no_overload, Fail, Value};

/// The `math.*` functions.
pub(crate) fn call(b: Builtin, c: &Call<'_>) -> Option<Result<Value, Fail>> {
    use Builtin as B;
    Some(match b {
        B::MathGreatest | B::MathLeast => {
            let items: Vec<Value> = match (c.arity(), c.a0) {
                (1, Value::List(l)) => l.iter().cloned().collect(),
                _ => c.all.iter().map(|v| (*v).clone()).collect(),
            };
            extreme(&items, b == B::MathGreatest, c.name)
        }
        B::MathCeil
        | B::MathFloor
        | B::MathRound
        | B::MathTrunc
        | B::MathAbs
        | B::MathSign
        | B::MathIsInf
        | B::MathIsNaN
        | B::MathIsFinite
        | B::MathBitAnd
        | B::MathBitOr
        | B::MathBitXor
        | B::MathBitNot
        | B::MathBitShiftLeft
        | B::MathBitShiftRight
        | B::MathSqrt => math(b, c.name, c.all),
        _ => return None,
    })
}

/// One of the `math.*` functions other than `greatest`/`least`.
fn math(b: Builtin, name: &str, all: &[&Value]) -> Result<Value, Fail> {
    use Builtin as B;
    use Value::*;
    let bad = || no_overload(name, all);
    match (b, all) {
        (B::MathCeil, [Double(d)]) => Ok(Double(libm::ceil(*d))),
        (B::MathFloor, [Double(d)]) => Ok(Double(libm::floor(*d))),
        (B::MathRound, [Double(d)]) => Ok(Double(libm::round(*d))),
        (B::MathTrunc, [Double(d)]) => Ok(Double(libm::trunc(*d))),
        (B::MathIsInf, [Double(d)]) => Ok(Bool(d.is_infinite())),
        (B::MathIsNaN, [Double(d)]) => Ok(Bool(d.is_nan())),
        (B::MathIsFinite, [Double(d)]) => Ok(Bool(d.is_finite())),
        (B::MathAbs, [Int(i)]) => i.checked_abs().map(Int).ok_or_else(|| "integer overflow".into()),
        (B::MathAbs, [Uint(u)]) => Ok(Uint(*u)),
        (B::MathAbs, [Double(d)]) => Ok(Double(libm::fabs(*d))),
        (B::MathSign, [Int(i)]) => Ok(Int(i.signum())),
        (B::MathSign, [Uint(u)]) => Ok(Uint(u64::from(*u > 0))),
        (B::MathSign, [Double(d)]) => Ok(Double(if d.is_nan() {
            *d
        } else if *d > 0.0 {
            1.0
        } else if *d < 0.0 {
            -1.0
        } else {
            0.0
        })),
        (B::MathSqrt, [Double(d)]) => Ok(Double(libm::sqrt(*d))),
        (B::MathSqrt, [Int(i)]) => Ok(Double(libm::sqrt(*i as f64))),
        (B::MathSqrt, [Uint(u)]) => Ok(Double(libm::sqrt(*u as f64))),
        (B::MathBitAnd, [Int(x), Int(y)]) => Ok(Int(x & y)),
        (B::MathBitAnd, [Uint(x), Uint(y)]) => Ok(Uint(x & y)),
        (B::MathBitOr, [Int(x), Int(y)]) => Ok(Int(x | y)),
        (B::MathBitOr, [Uint(x), Uint(y)]) => Ok(Uint(x | y)),
        (B::MathBitXor, [Int(x), Int(y)]) => Ok(Int(x ^ y)),
        (B::MathBitXor, [Uint(x), Uint(y)]) => Ok(Uint(x ^ y)),
        (B::MathBitNot, [Int(x)]) => Ok(Int(!x)),
        (B::MathBitNot, [Uint(x)]) => Ok(Uint(!x)),
        (B::MathBitShiftLeft | B::MathBitShiftRight, [v, Int(n)]) => {
            if *n < 0 {
                return Err(format!("{name}() negative offset: {n}"));
            }
            let left = b == B::MathBitShiftLeft;
            match v {
                // Shifts of 64 or more give 0 (Go semantics); right shifts of ints are logical.
                Int(_) if *n >= 64 => Ok(Int(0)),
                Int(x) if left => Ok(Int(((*x as u64) << n) as i64)),
                Int(x) => Ok(Int(((*x as u64) >> n) as i64)),
                Uint(_) if *n >= 64 => Ok(Uint(0)),
                Uint(x) if left => Ok(Uint(x << n)),
                Uint(x) => Ok(Uint(x >> n)),
                _ => Err(bad()),
            }
        }
        _ => Err(bad()),
    }
}

fn compare_or_err(a: &Value, b: &Value, name: &str) -> Result<Ordering, Fail> {
    match a.compare(b) {
        Ok(Some(o)) => Ok(o),
        Ok(None) => Ok(Ordering::Equal),
        Err(_) => Err(no_overload(name, &[a, b])),
    }
}

fn extreme(items: &[Value], greatest: bool, name: &str) -> Result<Value, Fail> {
    let Some(first) = items.first() else {
        return Err(format!("{name}(list) argument must not be empty"));
    };
    let mut best = first;
    for v in &items[1..] {
        if !matches!(v, Value::Int(_) | Value::Uint(_) | Value::Double(_)) {
            return Err(no_overload(name, &[v]));
        }
        let o = compare_or_err(v, best, name)?;
        if (greatest && o == Ordering::Greater) || (!greatest && o == Ordering::Less) {
            best = v;
        }
    }
    if !matches!(best, Value::Int(_) | Value::Uint(_) | Value::Double(_)) {
        return Err(no_overload(name, &[best]));
    }
    Ok(best.clone())
}
