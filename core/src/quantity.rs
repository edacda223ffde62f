//! `resource.Quantity` (k8s.io/apimachinery `pkg/api/resource`, `quantity.go`, `amount.go`,
//! `suffix.go`): parsing as `ParseQuantity` does, exact comparison (`Cmp`), and the text
//! `Quantity.String()` prints (`CanonicalizeBytes`, or the parsed text where `ParseQuantity`
//! keeps it).
//!
//! The value is held exactly, as Go's `inf.Dec` holds it: a sign, the decimal digits of the
//! magnitude (no leading nor trailing zeros) and a base-10 exponent, so huge exponents and long
//! mantissas compare and print exactly.

use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use core::cmp::Ordering;

use serde_json::Value as Json;

/// `ErrFormatWrong`'s text.
pub const FORMAT_WRONG: &str =
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
/// `ErrNumeric`'s text.
pub const NUMERIC: &str = "unable to parse numeric part of quantity";
/// `ErrSuffix`'s text.
pub const SUFFIX: &str = "unable to parse quantity's suffix";

/// `resource.Format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `DecimalExponent` (`12e6`).
    DecimalExponent,
    /// `BinarySI` (`12Mi`).
    BinarySI,
    /// `DecimalSI` (`12M`).
    DecimalSI,
}

/// A parsed quantity: `(-1)^neg × digits × 10^exp`.
#[derive(Clone, Debug)]
pub struct Quantity {
    neg: bool,
    /// The magnitude's decimal digits (values 0-9), most significant first; no leading or
    /// trailing zeros; empty for zero.
    digits: Vec<u8>,
    exp: i64,
    /// The format `ParseQuantity` chose.
    pub format: Format,
    /// The text `ParseQuantity` kept (`q.s`), printed as is by `String()`.
    s: Option<String>,
}

/// `parseQuantityString`'s parts: (positive, value, num, denom, suffix).
fn split(str: &str) -> Result<(bool, &str, &str, &str, &str), &'static str> {
    let b = str.as_bytes();
    let end = b.len();
    let mut positive = true;
    let mut pos = 0;
    match b.first() {
        Some(b'-') => {
            positive = false;
            pos += 1;
        }
        Some(b'+') => pos += 1,
        _ => {}
    }
    // Zeroes.
    loop {
        if pos >= end {
            return Ok((positive, "0", "0", "", ""));
        }
        if b[pos] == b'0' {
            pos += 1;
        } else {
            break;
        }
    }
    // Num.
    let start = pos;
    while pos < end && b[pos].is_ascii_digit() {
        pos += 1;
    }
    if pos >= end {
        return Ok((positive, str, &str[start..], "", ""));
    }
    let num = if pos == start { "0" } else { &str[start..pos] };
    let mut denom = "";
    if b[pos] == b'.' {
        pos += 1;
        let d = pos;
        while pos < end && b[pos].is_ascii_digit() {
            pos += 1;
        }
        if pos >= end {
            return Ok((positive, str, num, &str[d..], ""));
        }
        denom = &str[d..pos];
    }
    let value = &str[..pos];
    let suffix_start = pos;
    while pos < end && b"eEinumkKMGTP".contains(&b[pos]) {
        pos += 1;
    }
    if pos < end && matches!(b[pos], b'-' | b'+') {
        pos += 1;
    }
    while pos < end && b[pos].is_ascii_digit() {
        pos += 1;
    }
    if pos >= end {
        return Ok((positive, value, num, denom, &str[suffix_start..]));
    }
    Err(FORMAT_WRONG)
}

/// `suffixer.interpret`: (base, exponent, format).
fn interpret(suffix: &str) -> Option<(u32, i32, Format)> {
    let dec = |e| Some((10, e, Format::DecimalSI));
    let bin = |e| Some((2, e, Format::BinarySI));
    match suffix {
        "" => dec(0),
        "n" => dec(-9),
        "u" => dec(-6),
        "m" => dec(-3),
        "k" => dec(3),
        "M" => dec(6),
        "G" => dec(9),
        "T" => dec(12),
        "P" => dec(15),
        "E" => dec(18),
        "Ki" => bin(10),
        "Mi" => bin(20),
        "Gi" => bin(30),
        "Ti" => bin(40),
        "Pi" => bin(50),
        "Ei" => bin(60),
        _ => {
            let rest = suffix.strip_prefix(['e', 'E']).filter(|r| !r.is_empty())?;
            // strconv.ParseInt(rest, 10, 64), then int32(parsed) (wrapping).
            let parsed = parse_int64(rest)?;
            Some((10, parsed as i32, Format::DecimalExponent))
        }
    }
}

/// `strconv.ParseInt(s, 10, 64)`.
fn parse_int64(s: &str) -> Option<i64> {
    let (neg, digits) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let mut v: i128 = 0;
    for c in digits.bytes() {
        v = v * 10 + i128::from(c - b'0');
        if v > i128::from(i64::MAX) + 1 {
            return None;
        }
    }
    let v = if neg { -v } else { v };
    i64::try_from(v).ok()
}

/// Digits of a decimal string (ASCII digits only), leading zeros dropped.
fn digit_vec(s: &str) -> Vec<u8> {
    let mut v: Vec<u8> = s.bytes().filter(u8::is_ascii_digit).map(|c| c - b'0').collect();
    let lead = v.iter().take_while(|d| **d == 0).count();
    v.drain(..lead);
    v
}

impl Quantity {
    fn build(neg: bool, mut digits: Vec<u8>, mut exp: i64, format: Format) -> Quantity {
        let lead = digits.iter().take_while(|d| **d == 0).count();
        digits.drain(..lead);
        while digits.last() == Some(&0) {
            digits.pop();
            exp = exp.saturating_add(1);
        }
        if digits.is_empty() {
            return Quantity { neg: false, digits, exp: 0, format, s: None };
        }
        Quantity { neg, digits, exp, format, s: None }
    }

    /// A quantity from an integer, in `format` (`resource.NewQuantity`).
    pub fn from_i64(value: i64, format: Format) -> Quantity {
        let text = format!("{}", value.unsigned_abs());
        Quantity::build(value < 0, digit_vec(&text), 0, format)
    }

    /// `q.Add(y)`, exactly (inf.Dec's addition), in `q`'s format (`y`'s when `q` is zero);
    /// `None` when their exponents lie more than 400 digits apart (no value a check compares).
    pub fn add(&self, y: &Quantity) -> Option<Quantity> {
        let format = if self.is_zero() { y.format } else { self.format };
        let e = self.exp.min(y.exp);
        // Each magnitude's digits, least significant first, at exponent `e`.
        let widen = |q: &Quantity| -> Option<Vec<u8>> {
            let shift = usize::try_from(q.exp.checked_sub(e)?).ok().filter(|n| n + q.digits.len() <= 400)?;
            let mut v = vec![0; shift];
            v.extend(q.digits.iter().rev());
            Some(v)
        };
        let (a, b) = (widen(self)?, widen(y)?);
        let (neg, digits) = if self.is_zero() || y.is_zero() || self.neg == y.neg {
            let mut out = Vec::with_capacity(a.len().max(b.len()) + 1);
            let mut carry = 0;
            for i in 0..a.len().max(b.len()) {
                let d = a.get(i).copied().unwrap_or(0) + b.get(i).copied().unwrap_or(0) + carry;
                out.push(d % 10);
                carry = d / 10;
            }
            out.push(carry);
            (if self.is_zero() { y.neg } else { self.neg }, out)
        } else {
            // The smaller magnitude from the larger, with the larger's sign.
            let (big, small, neg) = if self.cmp_abs(y).is_ge() { (&a, &b, self.neg) } else { (&b, &a, y.neg) };
            let mut out = Vec::with_capacity(big.len());
            let mut borrow = 0;
            for (i, d) in big.iter().enumerate() {
                let mut d = *d as i8 - small.get(i).copied().unwrap_or(0) as i8 - borrow;
                borrow = i8::from(d < 0);
                if d < 0 {
                    d += 10;
                }
                out.push(d as u8);
            }
            (neg, out)
        };
        Some(Quantity::build(neg, digits.into_iter().rev().collect(), e, format))
    }

    /// `q.IsZero()`.
    pub fn is_zero(&self) -> bool {
        self.digits.is_empty()
    }

    /// Magnitude comparison.
    fn cmp_abs(&self, other: &Quantity) -> Ordering {
        match (self.digits.is_empty(), other.digits.is_empty()) {
            (true, true) => return Ordering::Equal,
            (true, false) => return Ordering::Less,
            (false, true) => return Ordering::Greater,
            _ => {}
        }
        let oa = self.exp.saturating_add(self.digits.len() as i64);
        let ob = other.exp.saturating_add(other.digits.len() as i64);
        if oa != ob {
            return oa.cmp(&ob);
        }
        let n = self.digits.len().max(other.digits.len());
        for i in 0..n {
            let a = self.digits.get(i).copied().unwrap_or(0);
            let b = other.digits.get(i).copied().unwrap_or(0);
            if a != b {
                return a.cmp(&b);
            }
        }
        Ordering::Equal
    }

    /// `q.Cmp(other)`. Not `Ord`: values of different formats compare equal here (`1Ki` and
    /// `1024`) while they are different quantities to print.
    #[allow(clippy::should_implement_trait)]
    pub fn cmp(&self, other: &Quantity) -> Ordering {
        match (self.sign(), other.sign()) {
            (a, b) if a != b => a.cmp(&b),
            (0, _) => Ordering::Equal,
            (1, _) => self.cmp_abs(other),
            _ => other.cmp_abs(self),
        }
    }

    /// `q.CmpInt64(y)`.
    pub fn cmp_i64(&self, y: i64) -> Ordering {
        self.cmp(&Quantity::from_i64(y, Format::DecimalSI))
    }

    /// `q.Sign()`: -1, 0 or 1.
    pub fn sign(&self) -> i32 {
        match (self.digits.is_empty(), self.neg) {
            (true, _) => 0,
            (false, true) => -1,
            (false, false) => 1,
        }
    }

    /// The magnitude rounded up (away from zero) to `10^scale` (inf.Dec `Round(…, RoundUp)`),
    /// and whether that was exact.
    fn round_up(&self, scale: i64) -> (Quantity, bool) {
        if self.digits.is_empty() || self.exp >= scale {
            return (self.clone(), true);
        }
        let drop = scale.saturating_sub(self.exp);
        let keep = (self.digits.len() as i64).saturating_sub(drop);
        let mut digits: Vec<u8> = if keep > 0 { self.digits[..keep as usize].to_vec() } else { Vec::new() };
        // Every dropped part is nonzero (the last digit is), so the magnitude goes up by one.
        crate::field::exact::increment(&mut digits);
        (Quantity::build(self.neg, digits, scale, self.format), false)
    }

    /// The magnitude multiplied by `2^k` (`k` at most 60).
    fn shl(&mut self, k: u32) {
        let factor: u128 = 1u128 << k.min(64);
        let mut carry: u128 = 0;
        for d in self.digits.iter_mut().rev() {
            let v = u128::from(*d) * factor + carry;
            *d = (v % 10) as u8;
            carry = v / 10;
        }
        while carry > 0 {
            self.digits.insert(0, (carry % 10) as u8);
            carry /= 10;
        }
        let q = Quantity::build(self.neg, core::mem::take(&mut self.digits), self.exp, self.format);
        self.digits = q.digits;
        self.exp = q.exp;
    }

    /// The value as an integer (`None` when fractional or beyond `i128`).
    fn as_i128(&self) -> Option<i128> {
        if self.exp < 0 {
            return None;
        }
        let mut v: i128 = 0;
        for d in &self.digits {
            v = v.checked_mul(10)?.checked_add(i128::from(*d))?;
        }
        for _ in 0..self.exp {
            v = v.checked_mul(10)?;
        }
        Some(if self.neg { -v } else { v })
    }

    /// `q.ScaledValue(scale)`: `ceil(q / 10^scale)` (rounded away from zero), saturated to `i64`.
    pub fn scaled_value(&self, scale: i32) -> i64 {
        let mut q = self.clone();
        q.exp = q.exp.saturating_sub(i64::from(scale));
        let (r, _) = q.round_up(0);
        match r.as_i128() {
            Some(v) => v.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64,
            None if r.neg => i64::MIN,
            None => i64::MAX,
        }
    }

    /// `q.RoundUp(scale)` when it changes the quantity: the value rounded up (away from zero)
    /// to `10^scale`, its kept text dropped; `None` when already that precise.
    pub fn rounded_up(&self, scale: i64) -> Option<Quantity> {
        if self.digits.is_empty() || self.exp >= scale {
            return None;
        }
        let (mut r, _) = self.round_up(scale);
        r.s = None;
        Some(r)
    }

    /// `q.MilliValue()`.
    pub fn milli_value(&self) -> i64 {
        self.scaled_value(-3)
    }

    /// `q.Value()`.
    pub fn value(&self) -> i64 {
        self.scaled_value(0)
    }

    /// `q.String()`: the canonical text (`CanonicalizeBytes`), or the text `ParseQuantity`
    /// kept.
    pub fn canonical(&self) -> String {
        if let Some(s) = &self.s {
            return s.clone();
        }
        if self.is_zero() {
            return String::from("0");
        }
        let mut format = self.format;
        let mut rounded = None;
        if format == Format::BinarySI {
            if self.cmp_i64(-1024) == Ordering::Greater && self.cmp_i64(1024) == Ordering::Less {
                format = Format::DecimalSI;
            } else {
                let (r, exact) = self.round_up(0);
                match r.as_i128() {
                    Some(v) if exact => rounded = Some(v),
                    _ => format = Format::DecimalSI,
                }
            }
        }
        let sign = if self.neg { "-" } else { "" };
        if let (Format::BinarySI, Some(mut v)) = (format, rounded) {
            // AsCanonicalBase1024Bytes: factors of 1024 removed.
            let mut times = 0i32;
            while v != 0 && v % 1024 == 0 {
                v /= 1024;
                times += 1;
            }
            let suffix = match times {
                1 => "Ki",
                2 => "Mi",
                3 => "Gi",
                4 => "Ti",
                5 => "Pi",
                6 => "Ei",
                _ => "",
            };
            return format!("{v}{suffix}");
        }
        // AsCanonicalBytes: the exponent lowered to a multiple of three.
        let rem = self.exp.rem_euclid(3);
        let exponent = self.exp - rem;
        let mut out = String::from(sign);
        for d in &self.digits {
            out.push(char::from(b'0' + d));
        }
        for _ in 0..rem {
            out.push('0');
        }
        match format {
            Format::DecimalExponent => {
                if exponent != 0 {
                    out.push_str(&format!("e{}", exponent as i32));
                }
            }
            _ => out.push_str(decimal_suffix(exponent).unwrap_or("")),
        }
        out
    }
}

/// `ParseQuantity(s)`: the quantity, or the error's text ([`FORMAT_WRONG`], [`SUFFIX`],
/// [`NUMERIC`]).
pub fn parse(str: &str) -> Result<Quantity, &'static str> {
    if str.is_empty() {
        return Err(FORMAT_WRONG);
    }
    if str == "0" {
        let mut q = Quantity::build(false, Vec::new(), 0, Format::DecimalSI);
        q.s = Some(String::from(str));
        return Ok(q);
    }
    let (positive, value, num, denom, suf) = split(str)?;
    let (base, exponent, format) = interpret(suf).ok_or(SUFFIX)?;

    // The int64 fast path: decides whether the text is kept.
    let (mut scale, precision, mantissa): (i64, i64, i64) = match format {
        Format::DecimalExponent | Format::DecimalSI => {
            (i64::from(exponent), 18 - (num.len() as i64 + denom.len() as i64), 1)
        }
        Format::BinarySI => {
            if exponent >= 0 && denom.is_empty() {
                let e = i64::from(exponent);
                (0, 15 - num.len() as i64 - (e * 3 / 10) - 1, 1i64 << (exponent.clamp(0, 62)))
            } else {
                (0, -1, 1)
            }
        }
    };
    if precision >= 0 {
        scale -= denom.len() as i64;
        if scale >= -9 {
            let shifted = format!("{num}{denom}");
            let v = parse_int64(&shifted).ok_or(NUMERIC)?;
            if let Some(result) = v.checked_mul(mantissa) {
                let text = format!("{}", result.unsigned_abs());
                let mut q = Quantity::build(!positive, digit_vec(&text), scale, format);
                let keep = match format {
                    Format::BinarySI => exponent % 10 == 0 && (v & 0x07) != 0,
                    _ => scale % 3 == 0 && !shifted.ends_with("000") && !shifted.starts_with('0'),
                };
                if keep {
                    q.s = Some(String::from(str));
                }
                return Ok(q);
            }
        }
    }

    // The inf.Dec path: `amount.SetString(value)`.
    let body = value.strip_prefix(['+', '-']).unwrap_or(value);
    let mut parts = body.splitn(2, '.');
    let (int, frac) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    if int.is_empty() && frac.is_empty() {
        return Err(NUMERIC);
    }
    let neg = value.starts_with('-');
    let mut digits = digit_vec(int);
    digits.extend(frac.bytes().map(|c| c.wrapping_sub(b'0')));
    let mut amount = Quantity::build(neg, digits, -(frac.len() as i64), format);
    if base == 10 {
        amount.exp = amount.exp.saturating_add(i64::from(exponent));
        if amount.digits.is_empty() {
            amount.exp = 0;
        }
    } else {
        amount.shl(exponent.clamp(0, 64) as u32);
    }
    if !amount.is_zero() {
        amount = amount.round_up(-9).0;
    }
    let mut format = format;
    let max = Quantity::from_i64(i64::MAX, Format::DecimalSI);
    if format == Format::BinarySI && amount.cmp_abs(&max) == Ordering::Greater {
        amount = Quantity { neg: amount.neg, ..max };
    }
    let one = Quantity::from_i64(1, Format::DecimalSI);
    if format == Format::BinarySI && !amount.is_zero() && amount.cmp_abs(&one) == Ordering::Less {
        format = Format::DecimalSI;
    }
    amount.format = format;
    amount.s = None;
    Ok(amount)
}

/// A quantity field as decoded (`Quantity.UnmarshalJSON`: a JSON string, trimmed, or a
/// number's text); `None` when absent, `null` or unparsable (decoding refused it first).
pub fn from_json(v: &Json) -> Option<Quantity> {
    match v {
        Json::String(s) => parse(s.trim()).ok(),
        Json::Number(n) => parse(&format!("{n}")).ok(),
        _ => None,
    }
}

/// `resource.MustParse` for built-in constants (zero when `s` does not parse).
pub fn must(s: &str) -> Quantity {
    parse(s).unwrap_or_else(|_| Quantity::build(false, vec![], 0, Format::DecimalSI))
}

/// The decimal SI suffix of a power of ten (`suffix.go`'s decimal table: `n` … `E`, `""` for
/// 10⁰); `None` for an exponent without one.
pub fn decimal_suffix(exp: i64) -> Option<&'static str> {
    Some(match exp {
        -9 => "n",
        -6 => "u",
        -3 => "m",
        0 => "",
        3 => "k",
        6 => "M",
        9 => "G",
        12 => "T",
        15 => "P",
        18 => "E",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canon(s: &str) -> String {
        parse(s).map(|q| q.canonical()).unwrap_or_else(String::from)
    }

    // apimachinery quantity_test.go TestAdd (values and formats), and the sums the request
    // policy check of a ResourceSlice prints (`one step 750m is larger than …`).
    #[test]
    fn add() {
        let sum = |a: &str, b: &str| must(a).add(&must(b)).map(|q| q.canonical());
        for (a, b, want) in [
            ("10", "1e1", "20"),
            ("10", "1Ki", "1034"),
            ("1Ki", "10", "1034"),
            ("1Ki", "1Ki", "2Ki"),
            ("0", "50", "50"),
            ("50", "0", "50"),
            ("0", "0", "0"),
            ("250m", "500m", "750m"),
            ("1", "-1500m", "-500m"),
            ("-2", "500m", "-1500m"),
            ("1.5", "1.5", "3"),
            ("999999999999999999", "1", "1E"),
            ("1n", "1", "1000000001n"),
        ] {
            assert_eq!(sum(a, b).as_deref(), Some(want), "{a} + {b}");
        }
        // Exponents too far apart to align: no sum.
        assert_eq!(sum("1e900", "1n"), None);
    }

    // TestQuantityParseEmit, TestQuantityString (the parsed alternates), TestParseQuantity.
    #[test]
    fn canonical_text() {
        for (input, want) in [
            ("1Ki", "1Ki"),
            ("1Mi", "1Mi"),
            ("1Gi", "1Gi"),
            ("1024Mi", "1Gi"),
            ("1000M", "1G"),
            (".001Ki", "1024m"),
            (".000001Ki", "1024u"),
            (".000000001Ki", "1024n"),
            (".000000000001Ki", "2n"),
            ("-.000000000001Ki", "-2n"),
            ("-1024Mi", "-1Gi"),
            ("1024Mi", "1Gi"),
            ("307200Ki", "300Mi"),
            ("1025024Mi", "1001Gi"),
            ("5000m", "5"),
            ("0.5", "500m"),
            ("1000M", "1G"),
            ("0.001T", "1G"),
            ("1000u", "1m"),
            ("1.08", "1080m"),
            ("1080000000n", "1080m"),
            (".001e12", "1e9"),
            ("0.001e0", "1e-3"),
            ("1000e-12", "1e-9"),
            ("00", "0"),
            ("100m", "100m"),
            ("1000m", "1"),
            ("01", "01"),
            ("+1", "+1"),
            ("-999999999999999999", "-999999999999999999"),
            ("999999999999999999.1", "999999999999999999100m"),
            ("1000000000000000000", "1E"),
            ("-1.0000000000000000001E", "-1000000000000000000100m"),
            ("10000000000000000000000m", "10E"),
            ("9Ei", "9223372036854775807"),
            ("1000E", "1"),
            ("1e3", "1e3"),
            ("1.5Gi", "1536Mi"),
            ("3.001n", "4n"),
            ("0.00000012345", "124n"),
            ("", FORMAT_WRONG),
            (" 1", FORMAT_WRONG),
            ("1 ", FORMAT_WRONG),
            ("1.1.M", FORMAT_WRONG),
            ("1+1.0M", FORMAT_WRONG),
            ("0.1mi", SUFFIX),
            ("aoeu", FORMAT_WRONG),
            ("-3.01e-", SUFFIX),
            ("1i", SUFFIX),
        ] {
            assert_eq!(canon(input), want, "{input}");
        }
    }

    // TestQuantityCmp, TestQuantityParse (values).
    #[test]
    fn compares() {
        let c = |a: &str, b: &str| must(a).cmp(&must(b));
        assert_eq!(c("0", "0"), Ordering::Equal);
        assert_eq!(c("100m", "50m"), Ordering::Greater);
        assert_eq!(c("50m", "100m"), Ordering::Less);
        assert_eq!(c("10000T", "100Gi"), Ordering::Greater);
        assert_eq!(c("100.035Ki", "102435.84"), Ordering::Equal);
        assert_eq!(c("0.05Gi", "53687091.2"), Ordering::Equal);
        assert_eq!(c("1.1E-9", "2n"), Ordering::Equal);
        assert_eq!(c("-1", "1"), Ordering::Less);
        assert_eq!(c("-2", "-1"), Ordering::Less);
        assert_eq!(c("1e100", "1e99"), Ordering::Greater);
        assert_eq!(c("9223372036854775807Ki", "9Ei"), Ordering::Equal);
        assert_eq!(must("0.000000000001Ki").format, Format::DecimalSI);
        assert_eq!(must("1.").cmp(&must("1")), Ordering::Equal);
        assert_eq!(parse(".").map(|q| q.sign()), Ok(0));
        assert_eq!(must("1").milli_value(), 1000);
        assert_eq!(must("1n").milli_value(), 1);
    }
}
