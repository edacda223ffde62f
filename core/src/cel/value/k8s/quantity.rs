//! `resource.Quantity` as apimachinery parses it (`ParseQuantity`): a signed decimal number
//! with an SI, binary-SI or exponent suffix, rounded up to the nano; binary-SI values are
//! capped at 2^63-1, decimal ones are not (they are `inf.Dec`).

use alloc::format;
use core::cmp::Ordering;
use core::fmt;

use crate::cel::value::Fail;

/// `maxAllowed`, the cap of binary-SI quantities: 2^63-1.
const MAX_ALLOWED: i128 = i64::MAX as i128;
/// At most this many significant digits are kept; further digits only round up.
const MAX_DIGITS: u32 = 36;

/// apimachinery `resource.ErrFormatWrong`.
pub const ERR_FORMAT: &str =
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
/// apimachinery `resource.ErrSuffix`.
pub const ERR_SUFFIX: &str = "unable to parse quantity's suffix";

/// A quantity: `mantissa × 10^exponent`, normalized (no trailing zeros in the mantissa).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Quantity {
    mantissa: i128,
    exponent: i32,
}

fn digits(m: i128) -> u32 {
    let mut n = 0;
    let mut v = m.unsigned_abs();
    while v > 0 {
        v /= 10;
        n += 1;
    }
    n
}

/// The suffix of a quantity: (power of ten, power of two, binary SI).
fn suffix(s: &str) -> Option<(i32, u32, bool)> {
    Some(match s {
        "" => (0, 0, false),
        "n" => (-9, 0, false),
        "u" => (-6, 0, false),
        "m" => (-3, 0, false),
        "k" => (3, 0, false),
        "M" => (6, 0, false),
        "G" => (9, 0, false),
        "T" => (12, 0, false),
        "P" => (15, 0, false),
        "E" => (18, 0, false),
        "Ki" => (0, 10, true),
        "Mi" => (0, 20, true),
        "Gi" => (0, 30, true),
        "Ti" => (0, 40, true),
        "Pi" => (0, 50, true),
        "Ei" => (0, 60, true),
        _ => {
            let exp = s.strip_prefix('e').or_else(|| s.strip_prefix('E'))?;
            let digits = exp.strip_prefix(['+', '-']).unwrap_or(exp);
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            (exp.parse::<i32>().ok()?, 0, false)
        }
    })
}

impl Quantity {
    fn new(mut mantissa: i128, mut exponent: i32) -> Quantity {
        if mantissa == 0 {
            return Quantity { mantissa: 0, exponent: 0 };
        }
        while mantissa % 10 == 0 {
            mantissa /= 10;
            exponent += 1;
        }
        Quantity { mantissa, exponent }
    }

    /// Parses like `resource.ParseQuantity`, with its errors.
    pub fn parse(s: &str) -> Result<Quantity, Fail> {
        if s.is_empty() {
            return Err(ERR_FORMAT.into());
        }
        let b = s.as_bytes();
        let mut pos = 0;
        let mut negative = false;
        match b[0] {
            b'-' => {
                negative = true;
                pos += 1;
            }
            b'+' => pos += 1,
            _ => {}
        }
        let int_start = pos;
        while pos < b.len() && b[pos].is_ascii_digit() {
            pos += 1;
        }
        let int_part = &s[int_start..pos];
        let mut frac_part = "";
        if pos < b.len() && b[pos] == b'.' {
            pos += 1;
            let start = pos;
            while pos < b.len() && b[pos].is_ascii_digit() {
                pos += 1;
            }
            frac_part = &s[start..pos];
        }
        // The suffix: letters from "eEinumkKMGTP", then an optional sign and digits.
        let suffix_start = pos;
        while pos < b.len() && b"eEinumkKMGTP".contains(&b[pos]) {
            pos += 1;
        }
        if pos < b.len() && matches!(b[pos], b'+' | b'-') {
            pos += 1;
        }
        while pos < b.len() && b[pos].is_ascii_digit() {
            pos += 1;
        }
        if pos != b.len() {
            return Err(ERR_FORMAT.into());
        }
        let (exp10, exp2, binary) = suffix(&s[suffix_start..]).ok_or(ERR_SUFFIX)?;
        let mut mantissa: i128 = 0;
        let mut exponent: i32 = exp10 - frac_part.len() as i32;
        let mut sticky = false;
        for c in int_part.bytes().chain(frac_part.bytes()) {
            if digits(mantissa) >= MAX_DIGITS {
                exponent += 1;
                sticky |= c != b'0';
                continue;
            }
            mantissa = mantissa * 10 + i128::from(c - b'0');
        }
        if sticky {
            mantissa += 1;
        }
        // Round up (away from zero) to the nano.
        if exponent < -9 && mantissa != 0 {
            let shift = (-9 - exponent) as u32;
            let (q, r) = match 10i128.checked_pow(shift) {
                Some(p) => (mantissa / p, mantissa % p),
                None => (0, mantissa),
            };
            mantissa = q + i128::from(r != 0);
            exponent = -9;
        }
        if binary {
            for _ in 0..exp2 {
                match mantissa.checked_mul(2) {
                    Some(m) => mantissa = m,
                    None => {
                        mantissa = MAX_ALLOWED;
                        exponent = 0;
                        break;
                    }
                }
            }
            if Quantity::new(mantissa, exponent).compare(&Quantity::new(MAX_ALLOWED, 0)) == Ordering::Greater {
                mantissa = MAX_ALLOWED;
                exponent = 0;
            }
        }
        Ok(Quantity::new(if negative { -mantissa } else { mantissa }, exponent))
    }

    /// A quantity from an integer (`resource.NewQuantity(i, DecimalExponent)`).
    pub fn from_int(i: i64) -> Quantity {
        Quantity::new(i128::from(i), 0)
    }

    /// `AsInt64`: the value when it is an integer that fits.
    pub fn as_i64(&self) -> Option<i64> {
        if self.exponent < 0 {
            return None;
        }
        let scale = 10i128.checked_pow(self.exponent as u32)?;
        i64::try_from(self.mantissa.checked_mul(scale)?).ok()
    }

    /// `AsApproximateFloat64`.
    pub fn as_f64(&self) -> f64 {
        self.mantissa as f64 * libm::pow(10.0, f64::from(self.exponent))
    }

    /// -1, 0 or 1.
    pub fn sign(&self) -> i64 {
        self.mantissa.signum() as i64
    }

    /// Both mantissas at the smaller exponent, when that fits.
    fn aligned(&self, other: &Quantity) -> Option<(i128, i128, i32)> {
        let e = self.exponent.min(other.exponent);
        let a = self.mantissa.checked_mul(10i128.checked_pow((self.exponent - e) as u32)?)?;
        let b = other.mantissa.checked_mul(10i128.checked_pow((other.exponent - e) as u32)?)?;
        Some((a, b, e))
    }

    fn magnitude(&self) -> i64 {
        i64::from(digits(self.mantissa)) + i64::from(self.exponent)
    }

    /// `Add`.
    pub fn add(&self, other: &Quantity) -> Quantity {
        match self.aligned(other) {
            Some((a, b, e)) => Quantity::new(a.saturating_add(b), e),
            // Magnitudes too far apart to matter at this precision: the bigger one wins.
            None if self.magnitude() >= other.magnitude() => self.clone(),
            None => other.clone(),
        }
    }

    /// `Sub`.
    pub fn sub(&self, other: &Quantity) -> Quantity {
        self.add(&Quantity { mantissa: -other.mantissa, exponent: other.exponent })
    }

    /// `Cmp`.
    pub fn compare(&self, other: &Quantity) -> Ordering {
        let (sa, sb) = (self.mantissa.signum(), other.mantissa.signum());
        if sa != sb || sa == 0 {
            return sa.cmp(&sb);
        }
        if let Some((a, b, _)) = self.aligned(other) {
            return a.cmp(&b);
        }
        let o = self.magnitude().cmp(&other.magnitude());
        if sa < 0 {
            o.reverse()
        } else {
            o
        }
    }
}

impl fmt::Display for Quantity {
    /// A plain decimal form (`1500m` prints as `1.5`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (m, e) = (self.mantissa, self.exponent);
        if e >= 0 {
            write!(f, "{m}")?;
            for _ in 0..e {
                f.write_str("0")?;
            }
            return Ok(());
        }
        let sign = if m < 0 { "-" } else { "" };
        let text = format!("{}", m.unsigned_abs());
        let point = text.len() as i32 + e;
        if point > 0 {
            write!(f, "{sign}{}.{}", &text[..point as usize], &text[point as usize..])
        } else {
            write!(f, "{sign}0.")?;
            for _ in 0..(-point) {
                f.write_str("0")?;
            }
            f.write_str(&text)
        }
    }
}
