//! A double printed to a fixed number of decimals, as `format!("{v:.p$}")` and
//! `format!("{v:.p$e}")` print it (and Go's `%.pf` / `%.pe`, whose digits are the same: both
//! round the value's exact decimal expansion, a tie to the even digit).
//!
//! Written here so that the WebAssembly modules do not link Rust's exact float formatting
//! (core::fmt's Grisu and Dragon "exact" modes and their big numbers, about 9 KB): the
//! expansion is computed in base 10⁹, where its digits can be read off directly. It is only
//! used for the few messages that print a rounded double (CEL's `%f`/`%e`, cost factors, YAML's
//! float32 keys), none on a hot path.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;

/// `format!("{v:.precision$}")`: `precision` digits after the point, none (and no point) for 0.
pub fn fixed(v: f64, precision: usize) -> String {
    if let Some(s) = non_finite(v) {
        return s;
    }
    let (digits, exp) = expansion(v);
    // Keep the digits down to the 10^-precision place: `kept` of them.
    let kept = exp + 1 + precision as i64;
    let mut rounded = round(&digits, kept);
    // `rounded` is the integer v·10^precision rounded; at least one digit before the point.
    while rounded.len() < precision + 1 {
        rounded.insert(0, 0);
    }
    let mut out = sign(v);
    let point = rounded.len() - precision;
    push_digits(&mut out, &rounded[..point]);
    if precision > 0 {
        out.push('.');
        push_digits(&mut out, &rounded[point..]);
    }
    out
}

/// `format!("{v:.precision$e}")`: one digit, `precision` after the point, then `e` and the
/// exponent (`1.50e3`, `2e-7`, `0.00e0`).
pub fn scientific(v: f64, precision: usize) -> String {
    if let Some(s) = non_finite(v) {
        return s;
    }
    let (digits, mut exp) = expansion(v);
    let mut rounded = round(&digits, precision as i64 + 1);
    if rounded.len() > precision + 1 {
        // 9.99… rounded up to 10.0…: one digit more, the exponent one up.
        rounded.pop();
        exp += 1;
    }
    let mut out = sign(v);
    push_digits(&mut out, &rounded[..1]);
    if precision > 0 {
        out.push('.');
        push_digits(&mut out, &rounded[1..]);
    }
    let _ = write!(out, "e{exp}");
    out
}

fn non_finite(v: f64) -> Option<String> {
    if v.is_nan() {
        Some(String::from("NaN"))
    } else if v.is_infinite() {
        Some(String::from(if v > 0.0 { "inf" } else { "-inf" }))
    } else {
        None
    }
}

fn sign(v: f64) -> String {
    String::from(if v.is_sign_negative() { "-" } else { "" })
}

fn push_digits(out: &mut String, digits: &[u8]) {
    out.extend(digits.iter().map(|d| char::from(b'0' + d)));
}

/// The exact decimal expansion of a finite |v|: its digits (0–9, the first non-zero unless v is
/// 0, which is `[0]`) and the power of ten of the first.
fn expansion(v: f64) -> (Vec<u8>, i64) {
    const BASE: u64 = 1_000_000_000;
    let bits = v.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i64;
    let fraction = bits & ((1 << 52) - 1);
    let (mantissa, exp2) = if biased == 0 { (fraction, -1074) } else { (fraction | (1 << 52), biased - 1075) };
    if mantissa == 0 {
        return (alloc::vec![0], 0);
    }
    // v = mantissa·2^exp2 = mantissa·5^-exp2 / 10^-exp2 for a negative exp2: a big integer in
    // base 10⁹ (least significant limb first) times a power of ten.
    let mut limbs: Vec<u64> = alloc::vec![mantissa % BASE, mantissa / BASE % BASE, mantissa / BASE / BASE];
    let multiply = |limbs: &mut Vec<u64>, factor: u64| {
        let mut carry = 0;
        for limb in limbs.iter_mut() {
            let x = *limb * factor + carry;
            *limb = x % BASE;
            carry = x / BASE;
        }
        while carry > 0 {
            limbs.push(carry % BASE);
            carry /= BASE;
        }
    };
    let (step, factor, mut times) = if exp2 >= 0 { (29, 2u64, exp2) } else { (13, 5u64, -exp2) };
    while times > 0 {
        let n = times.min(step);
        multiply(&mut limbs, factor.pow(n as u32));
        times -= n;
    }
    while limbs.last() == Some(&0) {
        limbs.pop();
    }
    let mut digits = Vec::with_capacity(limbs.len() * 9);
    for (i, limb) in limbs.iter().rev().enumerate() {
        let mut chunk = [0u8; 9];
        let mut x = *limb;
        for d in chunk.iter_mut().rev() {
            *d = (x % 10) as u8;
            x /= 10;
        }
        let skip = if i == 0 { chunk.iter().take_while(|d| **d == 0).count() } else { 0 };
        digits.extend_from_slice(&chunk[skip..]);
    }
    let exp = digits.len() as i64 - 1 + exp2.min(0);
    (digits, exp)
}

/// The first `kept` digits of `digits` (a number's expansion, 0.d₁d₂… scaled), rounded on the
/// rest to the nearest, a tie to the even digit; zeros appended past the end. Rounding up from
/// all nines gives one digit more (`999` → `1000`); `kept` ≤ 0 gives `[]`, or `[1]` when the
/// value rounds up to one unit of the kept place.
fn round(digits: &[u8], kept: i64) -> Vec<u8> {
    if kept < 0 {
        return Vec::new();
    }
    let kept = kept as usize;
    if kept >= digits.len() {
        let mut out = digits.to_vec();
        out.resize(kept, 0);
        return out;
    }
    let mut out = digits[..kept].to_vec();
    let next = digits[kept];
    let rest = digits[kept + 1..].iter().any(|d| *d != 0);
    let odd = out.last().is_some_and(|d| d % 2 == 1);
    if next > 5 || (next == 5 && (rest || odd)) {
        increment(&mut out);
    }
    out
}

/// Adds one to a number's decimal digits (0–9, most significant first): `199` → `200`, `99` →
/// `100`, `[]` → `[1]`.
pub(crate) fn increment(digits: &mut Vec<u8>) {
    let mut i = digits.len();
    loop {
        if i == 0 {
            digits.insert(0, 1);
            return;
        }
        i -= 1;
        if digits[i] == 9 {
            digits[i] = 0;
        } else {
            digits[i] += 1;
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Expectation: Rust's own `{:.p$}` and `{:.p$e}` (core::fmt's exact modes), which these
    // functions replace; the sample covers ties (0.125, 2.5), subnormals, the extremes, values
    // that round to zero or up a digit, and 5,000 bit patterns (and as many every-day values) at precisions 0–20.
    #[test]
    fn same_as_rusts_exact_formatting() {
        let mut values = alloc::vec![
            0.0,
            -0.0,
            0.5,
            1.5,
            2.5,
            -2.5,
            0.125,
            0.375,
            9.995,
            9.5,
            99.5,
            0.05,
            0.0004999,
            1e22,
            1e23,
            5e-324,
            -5e-324,
            2.2250738585072014e-308,
            f64::MAX,
            f64::MIN,
            1234567.891,
            0.1,
            0.3,
            1.0 / 3.0,
            123456789012345680.0,
        ];
        let patterns = crate::field::gofmt::tests::doubles(0x2545_f491_4f6c_dd1d, 5_000);
        for (i, v) in patterns.into_iter().enumerate() {
            values.push(v);
            // Also values of every-day size.
            values.push((v.to_bits() % 2_000_000) as f64 / f64::from(1 << (i % 20)) - 1000.0);
        }
        for v in values {
            for p in 0..=20 {
                assert_eq!(fixed(v, p), alloc::format!("{v:.p$}"), "{v:e} .{p}");
                assert_eq!(scientific(v, p), alloc::format!("{v:.p$e}"), "{v:e} .{p}e");
            }
        }
        for v in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            assert_eq!(fixed(v, 2), alloc::format!("{v:.2}"));
            assert_eq!(scientific(v, 2), alloc::format!("{v:.2e}"));
        }
    }
}
