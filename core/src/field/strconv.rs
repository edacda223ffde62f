//! Go's `strconv` integer parsing with base 0, as the tag grammar and YAML's integers read
//! numbers (beside this module's Go printing of values).

/// Parses an integer in Go syntax (`strconv.ParseInt(s, 0, 64)`): decimal, `0x`, `0o`, `0b`,
/// or a leading `0` for octal, with an optional sign.
pub fn parse_int(s: &str) -> Option<i64> {
    let (neg, digits) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let magnitude = parse_uint(digits)?;
    if neg {
        if magnitude <= i64::MAX as u64 + 1 {
            Some((magnitude as i64).wrapping_neg())
        } else {
            None
        }
    } else {
        i64::try_from(magnitude).ok()
    }
}

/// `strconv.ParseUint(s, 0, 64)`: no sign; decimal, `0x`, `0o`, `0b`, or a leading `0` for
/// octal; only the base's digits after the prefix (Rust's `from_str_radix` would take a `+`).
pub fn parse_uint(s: &str) -> Option<u64> {
    let (radix, body) = match s.as_bytes() {
        [b'0', b'x' | b'X', ..] => (16, &s[2..]),
        [b'0', b'o' | b'O', ..] => (8, &s[2..]),
        [b'0', b'b' | b'B', ..] => (2, &s[2..]),
        [b'0', _, ..] => (8, &s[1..]),
        _ => (10, s),
    };
    if body.is_empty() || !body.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    u64::from_str_radix(body, radix).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// strconv.ParseInt(s, 0, 64)'s answers.
    #[test]
    fn go_integers() {
        assert_eq!(parse_int("10"), Some(10));
        assert_eq!(parse_int("-1"), Some(-1));
        assert_eq!(parse_int("0x1f"), Some(31));
        assert_eq!(parse_int("010"), Some(8));
        assert_eq!(parse_int("0b11"), Some(3));
        assert_eq!(parse_int("-9223372036854775808"), Some(i64::MIN));
        assert_eq!(parse_int("9223372036854775808"), None);
        assert_eq!(parse_int("08"), None);
        assert_eq!(parse_int("-"), None);
    }
}
