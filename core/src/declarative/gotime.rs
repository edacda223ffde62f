//! Go's `time.Parse` for the two layouts the API server decodes timestamps with
//! (`metav1.Time`: RFC 3339; `metav1.MicroTime`: RFC 3339 with six fractional digits), to say
//! whether a value decodes and, when not, Go's `*time.ParseError` text
//! (`parsing time "notatime" as "2006-01-02T15:04:05Z07:00": cannot parse "notatime" as "2006"`).
//! After Go 1.26 `src/time/format.go` (`parse`, `skip`, `getnum`, `parseNanoseconds`, `quote`).

use alloc::string::String;
use alloc::vec::Vec;

/// `time.RFC3339`.
pub const RFC3339: &str = "2006-01-02T15:04:05Z07:00";
/// apimachinery's `RFC3339Micro`.
pub const RFC3339_MICRO: &str = "2006-01-02T15:04:05.000000Z07:00";

#[derive(Clone, Copy, PartialEq, Eq)]
enum Std {
    LongYear,
    ZeroMonth,
    ZeroDay,
    Hour,
    ZeroMinute,
    ZeroSecond,
    /// `.000000`: exactly this many digits.
    Frac(usize),
    ColonTz,
}

/// The layout as Go's `nextStdChunk` splits it: (literal prefix, element, its text).
fn chunks(layout: &str) -> Vec<(&'static str, Std, &'static str)> {
    let mut out = alloc::vec![
        ("", Std::LongYear, "2006"),
        ("-", Std::ZeroMonth, "01"),
        ("-", Std::ZeroDay, "02"),
        ("T", Std::Hour, "15"),
        (":", Std::ZeroMinute, "04"),
        (":", Std::ZeroSecond, "05"),
    ];
    if layout == RFC3339_MICRO {
        out.push(("", Std::Frac(6), ".000000"));
    }
    out.push(("", Std::ColonTz, "Z07:00"));
    out
}

/// Parses `value` with `layout` ([`RFC3339`] or [`RFC3339_MICRO`]): `Err` holds Go's message.
pub fn parse(layout: &str, value: &str) -> Result<(), String> {
    let v = value.as_bytes();
    let err = |layout_elem: &str, value_elem: &[u8], message: &str| -> String {
        if message.is_empty() {
            alloc::format!(
                "parsing time {} as {}: cannot parse {} as {}",
                quote(v),
                quote(layout.as_bytes()),
                quote(value_elem),
                quote(layout_elem.as_bytes())
            )
        } else {
            alloc::format!("parsing time {}{message}", quote(v))
        }
    };
    let steps = chunks(layout);
    let (mut year, mut month, mut day) = (0i64, -1i64, -1i64);
    let mut rest: &[u8] = v;
    for (i, (prefix, std, text)) in steps.iter().enumerate() {
        match skip(rest, prefix.as_bytes()) {
            Some(r) => rest = r,
            None => return Err(err(prefix, rest, "")),
        }
        let hold = rest;
        let mut range = "";
        let mut bad = false;
        match std {
            Std::LongYear => {
                if rest.len() < 4 || !digit(rest, 0) {
                    bad = true;
                } else {
                    match atoi(&rest[..4]) {
                        Some(y) => year = y,
                        None => bad = true,
                    }
                    rest = &rest[4..];
                }
            }
            Std::ZeroMonth | Std::ZeroDay | Std::Hour | Std::ZeroMinute | Std::ZeroSecond => {
                match getnum(rest, *std != Std::Hour) {
                    None => bad = true,
                    Some((n, r)) => {
                        rest = r;
                        match std {
                            Std::ZeroMonth => {
                                month = n;
                                if !(1..=12).contains(&n) {
                                    range = "month";
                                }
                            }
                            Std::ZeroDay => day = n,
                            Std::Hour if n >= 24 => range = "hour",
                            Std::ZeroMinute if n >= 60 => range = "minute",
                            Std::ZeroSecond if n >= 60 => range = "second",
                            Std::ZeroSecond => {
                                // A fractional second the layout does not have is taken.
                                let next_is_frac = matches!(steps.get(i + 1), Some((_, Std::Frac(_), _)));
                                if !next_is_frac && rest.len() >= 2 && comma_or_period(rest[0]) && digit(rest, 1) {
                                    let mut n = 2;
                                    while n < rest.len() && digit(rest, n) {
                                        n += 1;
                                    }
                                    match nanoseconds(rest, n) {
                                        Err(()) => bad = true,
                                        Ok(r) => range = r,
                                    }
                                    rest = &rest[n..];
                                }
                            }
                            _ => {}
                        }
                    }
                }
            }
            Std::Frac(digits) => {
                let n = 1 + digits;
                if rest.len() < n {
                    bad = true;
                } else {
                    match nanoseconds(rest, n) {
                        Err(()) => bad = true,
                        Ok(r) => range = r,
                    }
                    rest = &rest[n..];
                }
            }
            Std::ColonTz => {
                if rest.first() == Some(&b'Z') {
                    rest = &rest[1..];
                } else if rest.len() < 6 || rest[3] != b':' {
                    bad = true;
                } else {
                    let (sign, hour, min) = (rest[0], &rest[1..3], &rest[4..6]);
                    rest = &rest[6..];
                    match (getnum(hour, true), getnum(min, true)) {
                        (Some((hr, _)), Some((mm, _))) => {
                            if hr > 24 {
                                range = "time zone offset hour";
                            }
                            if mm > 60 {
                                range = "time zone offset minute";
                            }
                            if sign != b'+' && sign != b'-' {
                                bad = true;
                            }
                        }
                        _ => bad = true,
                    }
                }
            }
        }
        if !range.is_empty() {
            return Err(err(text, rest, &alloc::format!(": {range} out of range")));
        }
        if bad {
            return Err(err(text, hold, ""));
        }
    }
    if !rest.is_empty() {
        return Err(err("", rest, &alloc::format!(": extra text: {}", quote(rest))));
    }
    if day < 1 || day > days_in(month, year) {
        return Err(err("", rest, ": day out of range"));
    }
    Ok(())
}

fn digit(s: &[u8], i: usize) -> bool {
    s.get(i).is_some_and(u8::is_ascii_digit)
}

fn comma_or_period(b: u8) -> bool {
    b == b'.' || b == b','
}

/// `skip`: the value after the layout's literal prefix (a space matches any run of spaces).
fn skip<'a>(mut value: &'a [u8], mut prefix: &[u8]) -> Option<&'a [u8]> {
    while let Some(&p) = prefix.first() {
        if p == b' ' {
            if value.first().is_some_and(|&c| c != b' ') {
                return None;
            }
            prefix = trim_spaces(prefix);
            value = trim_spaces(value);
            continue;
        }
        if value.first() != Some(&p) {
            return None;
        }
        prefix = &prefix[1..];
        value = &value[1..];
    }
    Some(value)
}

fn trim_spaces(s: &[u8]) -> &[u8] {
    let n = s.iter().take_while(|&&c| c == b' ').count();
    &s[n..]
}

/// `getnum`: one or two digits (`fixed`: exactly two).
fn getnum(s: &[u8], fixed: bool) -> Option<(i64, &[u8])> {
    if !digit(s, 0) {
        return None;
    }
    if !digit(s, 1) {
        if fixed {
            return None;
        }
        return Some((i64::from(s[0] - b'0'), &s[1..]));
    }
    Some((i64::from(s[0] - b'0') * 10 + i64::from(s[1] - b'0'), &s[2..]))
}

/// `atoi`: an optional sign and digits only.
fn atoi(s: &[u8]) -> Option<i64> {
    let (neg, digits) = match s.first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        // leadingInt accepts an empty run; atoi then fails only on a remainder.
        if digits.is_empty() {
            return Some(0);
        }
        return None;
    }
    let mut x: i64 = 0;
    for d in digits {
        x = x.checked_mul(10)?.checked_add(i64::from(d - b'0'))?;
    }
    Some(if neg { -x } else { x })
}

/// `parseNanoseconds`: the range error's name (empty when in range), or a bad value.
fn nanoseconds(value: &[u8], nbytes: usize) -> Result<&'static str, ()> {
    if !comma_or_period(value[0]) {
        return Err(());
    }
    let n = nbytes.min(10);
    match atoi(&value[1..n]) {
        Some(ns) if ns < 0 => Ok("fractional second"),
        Some(_) => Ok(""),
        None => Err(()),
    }
}

fn days_in(month: i64, year: i64) -> i64 {
    match month {
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// The time package's own `quote`: non-ASCII and control bytes as `\xNN`.
fn quote(s: &[u8]) -> String {
    let mut out = String::from("\"");
    for &b in s {
        if !(b' '..0x80).contains(&b) {
            out.push_str(&alloc::format!("\\x{b:02x}"));
        } else {
            if b == b'"' || b == b'\\' {
                out.push('\\');
            }
            out.push(char::from(b));
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    // Expectations: Go 1.26 `time.Parse(time.RFC3339, …)` (src/time/format_test.go's
    // parseErrorTests and the printed errors).
    #[test]
    fn parses_as_go() {
        assert!(parse(RFC3339, "2024-01-02T03:04:05Z").is_ok());
        assert!(parse(RFC3339, "2024-01-02T03:04:05.123+02:00").is_ok());
        assert!(parse(RFC3339_MICRO, "2024-01-02T03:04:05.123456Z").is_ok());
        assert_eq!(
            parse(RFC3339, "notatime").unwrap_err(),
            r#"parsing time "notatime" as "2006-01-02T15:04:05Z07:00": cannot parse "notatime" as "2006""#
        );
        assert_eq!(
            parse(RFC3339, "2024-01-02").unwrap_err(),
            r#"parsing time "2024-01-02" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "T""#
        );
        assert_eq!(
            parse(RFC3339, "2024-13-02T00:00:00Z").unwrap_err(),
            r#"parsing time "2024-13-02T00:00:00Z": month out of range"#
        );
        assert_eq!(
            parse(RFC3339, "2023-02-29T00:00:00Z").unwrap_err(),
            r#"parsing time "2023-02-29T00:00:00Z": day out of range"#
        );
        assert_eq!(
            parse(RFC3339, "2024-01-02T03:04:05Zjunk").unwrap_err(),
            r#"parsing time "2024-01-02T03:04:05Zjunk": extra text: "junk""#
        );
    }
}
