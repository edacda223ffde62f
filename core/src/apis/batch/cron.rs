//! Cron schedules as CronJob validation parses them: Kubernetes'
//! `pkg/util/parsers.ParseCronScheduleWithPanicRecovery`, i.e. `github.com/robfig/cron/v3`
//! `ParseStandard` (`Parser.Parse`, `normalizeFields`, `getField`, `getRange`,
//! `parseIntOrName`, `mustParseInt`, `parseDescriptor`), with Go's `time.LoadLocation` (the
//! `TZ=` prefix) and `time.ParseDuration` (`@every`). Only whether a schedule parses, and the
//! error text, are modeled.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::zones;
use crate::apis::apps::common::{atoi, atoi_error_text};

/// A field's bounds and names (`bounds`).
struct Bounds {
    min: u64,
    max: u64,
    names: &'static [(&'static str, u64)],
}

const MINUTES: Bounds = Bounds { min: 0, max: 59, names: &[] };
const HOURS: Bounds = Bounds { min: 0, max: 23, names: &[] };
const DOM: Bounds = Bounds { min: 1, max: 31, names: &[] };
const MONTHS: Bounds = Bounds {
    min: 1,
    max: 12,
    names: &[
        ("jan", 1),
        ("feb", 2),
        ("mar", 3),
        ("apr", 4),
        ("may", 5),
        ("jun", 6),
        ("jul", 7),
        ("aug", 8),
        ("sep", 9),
        ("oct", 10),
        ("nov", 11),
        ("dec", 12),
    ],
};
const DOW: Bounds = Bounds {
    min: 0,
    max: 6,
    names: &[("sun", 0), ("mon", 1), ("tue", 2), ("wed", 3), ("thu", 4), ("fri", 5), ("sat", 6)],
};

/// `ParseCronScheduleWithPanicRecovery(schedule)`: `Err` with the error's text.
pub fn parse_standard(spec: &str) -> Result<(), String> {
    if spec.is_empty() {
        return Err(String::from("empty spec string"));
    }
    let mut spec = spec;
    if spec.starts_with("TZ=") || spec.starts_with("CRON_TZ=") {
        let Some(i) = spec.find(' ') else {
            // spec[eq+1 : -1] panics; the panic is recovered.
            return Err(String::from("invalid schedule format: runtime error: slice bounds out of range [:-1]"));
        };
        let eq = spec.find('=').unwrap_or(0);
        let name = spec.get(eq + 1..i).unwrap_or("");
        if let Err(e) = load_location(name) {
            return Err(format!("provided bad location {name}: {e}"));
        }
        spec = spec.get(i..).unwrap_or("").trim_matches(is_go_space);
    }
    if spec.starts_with('@') {
        return descriptor(spec);
    }
    let fields: Vec<&str> = spec.split(is_go_space).filter(|f| !f.is_empty()).collect();
    if fields.len() != 5 {
        return Err(format!("expected exactly 5 fields, found {}: [{}]", fields.len(), fields.join(" ")));
    }
    // Seconds are "0"; then minute, hour, day of month, month, day of week, first error wins.
    for (f, bounds) in fields.iter().zip([&MINUTES, &HOURS, &DOM, &MONTHS, &DOW]) {
        get_field(f, bounds)?;
    }
    Ok(())
}

/// Go's `unicode.IsSpace` (what `strings.Fields` and `strings.TrimSpace` split on).
fn is_go_space(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ' | '\u{85}' | '\u{a0}')
        || (c > '\u{ff}' && c.is_whitespace())
}

/// Go's `time.LoadLocation` against the embedded database.
pub fn load_location(name: &str) -> Result<(), String> {
    if matches!(name, "" | "UTC" | "Local") {
        return Ok(());
    }
    if name.contains("..") || name.starts_with('/') || name.starts_with('\\') {
        return Err(String::from("time: invalid location name"));
    }
    if zones::known(name) {
        Ok(())
    } else {
        Err(format!("unknown time zone {name}"))
    }
}

/// `getField`: comma-separated ranges (empty ones skipped).
fn get_field(field: &str, r: &Bounds) -> Result<(), String> {
    for expr in field.split(',').filter(|e| !e.is_empty()) {
        get_range(expr, r)?;
    }
    Ok(())
}

/// `getRange`: `number | number "-" number [ "/" number ]`, `*` or `?`.
fn get_range(expr: &str, r: &Bounds) -> Result<(), String> {
    let range_and_step: Vec<&str> = expr.split('/').collect();
    let low_and_high: Vec<&str> = range_and_step.first().copied().unwrap_or("").split('-').collect();
    let single = low_and_high.len() == 1;
    let first = low_and_high.first().copied().unwrap_or("");
    let (start, mut end) = if first == "*" || first == "?" {
        (r.min, r.max)
    } else {
        let start = parse_int_or_name(first, r)?;
        match low_and_high.len() {
            1 => (start, start),
            2 => (start, parse_int_or_name(low_and_high.get(1).copied().unwrap_or(""), r)?),
            _ => return Err(format!("too many hyphens: {expr}")),
        }
    };
    let step = match range_and_step.len() {
        1 => 1,
        2 => {
            let step = must_parse_int(range_and_step.get(1).copied().unwrap_or(""))?;
            if single {
                end = r.max;
            }
            step
        }
        _ => return Err(format!("too many slashes: {expr}")),
    };
    if start < r.min {
        return Err(format!("beginning of range ({start}) below minimum ({}): {expr}", r.min));
    }
    if end > r.max {
        return Err(format!("end of range ({end}) above maximum ({}): {expr}", r.max));
    }
    if start > end {
        return Err(format!("beginning of range ({start}) beyond end of range ({end}): {expr}"));
    }
    if step == 0 {
        return Err(format!("step of range should be a positive number: {expr}"));
    }
    Ok(())
}

/// `parseIntOrName`.
fn parse_int_or_name(expr: &str, r: &Bounds) -> Result<u64, String> {
    let lower = expr.to_lowercase();
    if let Some((_, n)) = r.names.iter().find(|(name, _)| *name == lower) {
        return Ok(*n);
    }
    must_parse_int(expr)
}

/// `mustParseInt`.
fn must_parse_int(expr: &str) -> Result<u64, String> {
    match atoi(expr) {
        Ok(n) if n < 0 => Err(format!("negative number ({n}) not allowed: {expr}")),
        Ok(n) => Ok(n.unsigned_abs()),
        Err(e) => Err(format!("failed to parse int from {expr}: {}", atoi_error_text(expr, e))),
    }
}

/// `parseDescriptor`.
fn descriptor(descriptor: &str) -> Result<(), String> {
    match descriptor {
        "@yearly" | "@annually" | "@monthly" | "@weekly" | "@daily" | "@midnight" | "@hourly" => Ok(()),
        _ => match descriptor.strip_prefix("@every ") {
            Some(d) => parse_duration(d).map_err(|e| format!("failed to parse duration {descriptor}: {e}")),
            None => Err(format!("unrecognized descriptor: {descriptor}")),
        },
    }
}

/// Go's `time.quote`: non-ASCII and control bytes as `\xNN`.
fn time_quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        if !(' '..'\u{80}').contains(&c) {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("\\x{b:02x}"));
            }
        } else {
            if c == '"' || c == '\\' {
                out.push('\\');
            }
            out.push(c);
        }
    }
    out.push('"');
    out
}

/// Go's `time.ParseDuration`: whether it parses, and its error.
pub fn parse_duration(orig: &str) -> Result<(), String> {
    let invalid = || format!("time: invalid duration {}", time_quote(orig));
    const LIMIT: u128 = 1 << 63;
    let mut s = orig;
    let mut neg = false;
    if let Some(c) = s.chars().next() {
        if c == '-' || c == '+' {
            neg = c == '-';
            s = &s[1..];
        }
    }
    if s == "0" {
        return Ok(());
    }
    if s.is_empty() {
        return Err(invalid());
    }
    let mut d: u128 = 0;
    while !s.is_empty() {
        let first = s.as_bytes().first().copied().unwrap_or(b' ');
        if !(first == b'.' || first.is_ascii_digit()) {
            return Err(invalid());
        }
        // leadingInt.
        let digits = s.bytes().take_while(u8::is_ascii_digit).count();
        let mut v: u128 = 0;
        for c in s[..digits].bytes() {
            if v > LIMIT / 10 {
                return Err(invalid());
            }
            v = v * 10 + u128::from(c - b'0');
            if v > LIMIT {
                return Err(invalid());
            }
        }
        let pre = digits > 0;
        s = &s[digits..];
        // leadingFraction.
        let (mut f, mut scale, mut post) = (0u128, 1f64, false);
        if let Some(rest) = s.strip_prefix('.') {
            let n = rest.bytes().take_while(u8::is_ascii_digit).count();
            let mut overflow = false;
            for c in rest[..n].bytes() {
                if overflow {
                    continue;
                }
                if f > (LIMIT - 1) / 10 {
                    overflow = true;
                    continue;
                }
                let y = f * 10 + u128::from(c - b'0');
                if y > LIMIT {
                    overflow = true;
                    continue;
                }
                f = y;
                scale *= 10.0;
            }
            post = n > 0;
            s = &rest[n..];
        }
        if !pre && !post {
            return Err(invalid());
        }
        let unit_len = s.bytes().take_while(|c| *c != b'.' && !c.is_ascii_digit()).count();
        if unit_len == 0 {
            return Err(format!("time: missing unit in duration {}", time_quote(orig)));
        }
        let u = &s[..unit_len];
        s = &s[unit_len..];
        let unit: u128 = match u {
            "ns" => 1,
            "us" | "\u{b5}s" | "\u{3bc}s" => 1_000,
            "ms" => 1_000_000,
            "s" => 1_000_000_000,
            "m" => 60_000_000_000,
            "h" => 3_600_000_000_000,
            _ => return Err(format!("time: unknown unit {} in duration {}", time_quote(u), time_quote(orig))),
        };
        if v > LIMIT / unit {
            return Err(invalid());
        }
        v *= unit;
        if f > 0 {
            v += (f as f64 * (unit as f64 / scale)) as u128;
            if v > LIMIT {
                return Err(invalid());
            }
        }
        d += v;
        if d > LIMIT {
            return Err(invalid());
        }
    }
    if !neg && d > LIMIT - 1 {
        return Err(invalid());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    // Expectations: robfig/cron v3 parser_test.go (TestParseScheduleErrors, TestStandardSpecSchedule)
    // and kubernetes pkg/apis/batch/validation validation_test.go (TestValidateCronJob schedules).
    #[test]
    fn parses_like_robfig() {
        for ok in ["* * * * ?", "0 0 15 */3 *", "@hourly", "@every 5m", "TZ=UTC 0 * * * *", "5 4 * jan-dec mon-fri"] {
            assert_eq!(parse_standard(ok), Ok(()), "{ok}");
        }
        let cases = [
            ("xyz", "expected exactly 5 fields, found 1: [xyz]"),
            ("60 0 * * *", "end of range (60) above maximum (59): 60"),
            ("0 0 * * XYZ", "failed to parse int from XYZ: strconv.Atoi: parsing \"XYZ\": invalid syntax"),
            ("@every 5", "failed to parse duration @every 5: time: missing unit in duration \"5\""),
            ("@unrecognized", "unrecognized descriptor: @unrecognized"),
            ("TZ=0", "invalid schedule format: runtime error: slice bounds out of range [:-1]"),
            ("TZ=Foo/Bar 0 * * * *", "provided bad location Foo/Bar: unknown time zone Foo/Bar"),
            ("0-5-6 * * * *", "too many hyphens: 0-5-6"),
            ("*/0 * * * *", "step of range should be a positive number: */0"),
            ("5-2 * * * *", "beginning of range (5) beyond end of range (2): 5-2"),
            ("* * 0 * *", "beginning of range (0) below minimum (1): 0"),
        ];
        for (spec, want) in cases {
            assert_eq!(parse_standard(spec), Err(String::from(want)), "{spec}");
        }
    }
}
