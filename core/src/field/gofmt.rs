//! The two Go formatting rules that appear in Kubernetes error text: `%q` for strings and
//! `%v` for float64 values.

use alloc::string::String;
use core::fmt::Write;

/// `strconv.Quote` / `%q`: double-quoted, with Go's escapes for quotes, backslashes, control
/// and non-printable characters (`\n`, `\x1b`, `\u200b`, `\U000e0001`).
pub fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{07}' => out.push_str("\\a"),
            '\u{08}' => out.push_str("\\b"),
            '\u{0c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{0b}' => out.push_str("\\v"),
            c if is_go_printable(c) => out.push(c),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if (c as u32) < 0x10000 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => {
                let _ = write!(out, "\\U{:08x}", c as u32);
            }
        }
    }
    out.push('"');
    out
}

/// Go's `unicode.IsPrint` for the characters that occur in practice: every character but
/// controls, non-ASCII spaces, line/paragraph separators, format characters, private-use
/// characters and noncharacters. (Unassigned code points, which Go also escapes, would need
/// the Unicode tables and are printed as they are.)
pub fn is_go_printable(c: char) -> bool {
    let u = c as u32;
    !matches!(u,
        0x00..=0x1f | 0x7f..=0xa0 | 0xad
        | 0x600..=0x605 | 0x61c | 0x6dd | 0x70f | 0x890..=0x891 | 0x8e2 | 0x1680 | 0x180e
        | 0x2000..=0x200f | 0x2028..=0x202f | 0x205f..=0x2064 | 0x2066..=0x206f
        | 0x3000 | 0xd800..=0xf8ff | 0xfdd0..=0xfdef | 0xfeff | 0xfff9..=0xfffb
        | 0x110bd | 0x110cd | 0x13430..=0x1343f | 0x1bca0..=0x1bca3 | 0x1d173..=0x1d17a
        | 0xe0001 | 0xe0020..=0xe007f | 0xf0000..)
        && (u & 0xfffe) != 0xfffe
}

/// `%v` of a Go float64: the shortest representation that round-trips, in `%e` form when the
/// decimal exponent is below -4 or at least 6 (`1e+08`, `1.5e-05`), otherwise plain (`0.25`).
pub fn go_float(v: f64) -> String {
    if v.is_nan() {
        return "NaN".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "+Inf".into() } else { "-Inf".into() };
    }
    let (neg, digits, exp) = shortest_digits(v);
    let digits = digits.as_str();
    let mut out = String::new();
    if neg {
        out.push('-');
    }
    if !(-4..6).contains(&exp) {
        out.push_str(&digits[..1]);
        if digits.len() > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        let _ = write!(out, "e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.unsigned_abs());
    } else if exp < 0 {
        out.push_str("0.");
        for _ in 0..(-exp - 1) {
            out.push('0');
        }
        out.push_str(digits);
    } else {
        let int_len = exp as usize + 1;
        if digits.len() <= int_len {
            out.push_str(digits);
            for _ in digits.len()..int_len {
                out.push('0');
            }
        } else {
            out.push_str(&digits[..int_len]);
            out.push('.');
            out.push_str(&digits[int_len..]);
        }
    }
    out
}

/// The shortest decimal digits that read back as `v` (finite), as Go's strconv finds them, and
/// the decimal exponent of the first: `1.5e-7` is (false, "15", -7), `0.0` (false, "0", 0).
/// zmij prints them plainly (`0.000015`, `123.0`) or with an exponent (`1.2345e+21`).
pub fn shortest_digits(v: f64) -> (bool, String, i32) {
    let mut buffer = zmij::Buffer::new();
    let text = buffer.format_finite(v);
    let (neg, text) = match text.strip_prefix('-') {
        Some(t) => (true, t),
        None => (false, text),
    };
    let (mantissa, exp) = text.split_once('e').unwrap_or((text, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let mut all = String::from(int);
    all.push_str(frac);
    let leading = all.len() - all.trim_start_matches('0').len();
    let digits = all.trim_start_matches('0').trim_end_matches('0');
    if digits.is_empty() {
        return (neg, String::from("0"), 0);
    }
    (neg, String::from(digits), int.len() as i32 - leading as i32 - 1 + exp)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The finite doubles among N bit patterns of a xorshift sequence from SEED.
    pub(crate) fn doubles(seed: u64, n: usize) -> alloc::vec::Vec<f64> {
        let mut x = seed;
        let mut out = alloc::vec::Vec::new();
        for _ in 0..n {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let v = f64::from_bits(x);
            if v.is_finite() {
                out.push(v);
            }
        }
        out
    }

    // Go's strconv (ftoaryu.go ryuFtoaShortest) gives the shortest digits that read back as
    // the value, the closest of them, and on an exact tie the even one. Rust's `{:e}` gives the
    // same except on ties, which it rounds up: 1658206780088562.25 is 1.6582067800885622e+15
    // in Go (go1.27 `strconv.FormatFloat(v, 'g', -1, 64)`), 1.6582067800885623e15 in Rust.
    // By hand, 199,890 doubles from this xorshift sequence printed by that Go call all agreed.
    #[test]
    fn shortest_digits_are_gos() {
        assert_eq!(go_float(1.6582067800885623e15), "1.6582067800885622e+15");
        let mut values = alloc::vec![0.0, -0.0, 1.0, 0.1, 1e-7, 1.5e-5, 1e21, 5e-324, f64::MAX, f64::MIN_POSITIVE];
        values.extend(doubles(0x9e37_79b9_7f4a_7c15, 20_000));
        for v in values {
            let sci = alloc::format!("{v:e}");
            let (mantissa, exp) = sci.split_once('e').unwrap();
            let neg = mantissa.starts_with('-');
            let rust: String = mantissa.chars().filter(char::is_ascii_digit).collect();
            let (n, digits, e) = shortest_digits(v);
            assert_eq!((n, e), (neg, exp.parse().unwrap()), "{v:e}");
            if digits != rust {
                // A tie: as short, the last digit one lower and even, and both read back as v.
                let (d, r) = (digits.as_bytes(), rust.as_bytes());
                assert!(d.len() == r.len() && d[..d.len() - 1] == r[..r.len() - 1], "{v:e}: {digits}");
                assert!(d[d.len() - 1] % 2 == 0 && d[d.len() - 1] + 1 == r[r.len() - 1], "{v:e}: {digits}");
                let back = |ds: &str| alloc::format!("{}{}.{}e{}", if neg { "-" } else { "" }, &ds[..1], &ds[1..], e);
                assert_eq!(back(&digits).parse::<f64>().unwrap(), v);
            }
        }
    }

    // Expectations: Go's strconv.Quote (strconv/quote_test.go) and fmt's %v for float64.
    #[test]
    fn quotes_like_go() {
        assert_eq!(go_quote("My_Name"), r#""My_Name""#);
        assert_eq!(go_quote("a\"b\\c"), r#""a\"b\\c""#);
        assert_eq!(go_quote("\x07\x08\x0c\r\n\t\x0b"), r#""\a\b\f\r\n\t\v""#);
        assert_eq!(go_quote("\x1b[1m"), r#""\x1b[1m""#);
        assert_eq!(go_quote("\x7f"), r#""\x7f""#);
        assert_eq!(go_quote("☺ héllo 日本"), "\"☺ héllo 日本\"");
        assert_eq!(go_quote("a\u{200b}b\u{feff}"), r#""a\u200bb\ufeff""#);
        assert_eq!(go_quote("\u{a0}"), r#""\u00a0""#);
        assert_eq!(go_quote("\u{e0001}"), r#""\U000e0001""#);
        assert_eq!(go_quote(""), r#""""#);
    }

    #[test]
    fn floats_like_go_percent_v() {
        let cases: &[(f64, &str)] = &[
            (0.0, "0"),
            (-0.0, "-0"),
            (1.0, "1"),
            (1.5, "1.5"),
            (-2.25, "-2.25"),
            (100000.0, "100000"),
            (123456.0, "123456"),
            (1234567.0, "1.234567e+06"),
            (1e8, "1e+08"),
            (1e21, "1e+21"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (0.000123, "0.000123"),
            (1.5e-7, "1.5e-07"),
            (1e100, "1e+100"),
            (0.1 + 0.2, "0.30000000000000004"),
            (f64::INFINITY, "+Inf"),
            (f64::NEG_INFINITY, "-Inf"),
            (f64::NAN, "NaN"),
        ];
        for (v, want) in cases {
            assert_eq!(go_float(*v), *want, "{v:?}");
        }
    }
}
