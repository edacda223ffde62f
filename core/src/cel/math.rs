//! cel-go's `ext.Math` library (`math.ceil`, `math.abs`, `math.bitAnd`, ...).

use alloc::format;

use super::functions::{no_overload, Builtin, Fail};
use super::value::Value;

/// Calls one of the `math.*` functions other than `greatest`/`least`.
pub fn call(b: Builtin, name: &str, all: &[&Value]) -> Result<Value, Fail> {
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
