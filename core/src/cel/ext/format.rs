//! `"...".format([args])` as Kubernetes has it: cel-go's strings extension at the version
//! Kubernetes enables (`ext.StringsVersion(2)`, apiserver `pkg/cel/environment/base.go`), which
//! formats with `ext/formatting.go` (not `formatting_v2.go`, used from version 4) in the `en_US`
//! locale — cel-go v0.29.2, the version Kubernetes 1.37 pins:
//!
//! - `%s`: a value's string conversion; lists and maps as CEL literals (`formatList`,
//!   `formatMap`): strings `%q`-quoted, bytes `b"…"`, doubles `%.6f` (NaN and infinities
//!   quoted), timestamps `timestamp("…")`, durations `duration("…")`, map entries `key:value`
//!   sorted by key;
//! - `%f` and `%e`: doubles (or the strings `NaN`, `Infinity`, `-Infinity`), printed by
//!   golang.org/x/text's `message.Printer` for English: `%f` groups thousands
//!   (`1,234,567.00`) and prints `∞`; `%e` prints `2.718280 × 10⁰⁰` with narrow no-break
//!   spaces, and always 6 decimals (cel-go builds its verb as `%{precision}e`, a width);
//! - `%d`, `%o`: integers; `%b`: integers and bools; `%x`/`%X`: integers, strings and bytes.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::cel::library::conversions::to_string;
use crate::cel::value::{Fail, Key, Value};
use crate::field::go_quote;

/// Formats `args` into `template` with the verbs `%s %d %f %e %x %X %o %b %%` (and a precision,
/// `%.2f`).
pub fn format(template: &str, args: &[Value]) -> Result<String, Fail> {
    let mut out = String::new();
    walk(template, args.len(), true, &mut |text| out.push_str(text), &mut |index, verb, precision| {
        let arg = &args[index];
        match verb {
            's' => string_clause(arg),
            'd' => decimal(arg),
            'f' => match precision.unwrap_or(6) {
                // kubedv's guard: Go would build the whole digit string.
                p if p > 1000 => Err(format!("precision {p} is too large (the most is 1000)")),
                p => float_arg(arg, 'f').map(|d| fixed(d, p)),
            },
            'e' => float_arg(arg, 'e').map(scientific),
            'x' | 'X' => hex(arg, verb == 'X'),
            'o' => match arg {
                Value::Int(i) => Ok(signed(*i, format!("{:o}", i.unsigned_abs()))),
                Value::Uint(u) => Ok(format!("{u:o}")),
                _ => Err(wrong_type('o', arg)),
            },
            _ => match arg {
                Value::Int(i) => Ok(signed(*i, format!("{:b}", i.unsigned_abs()))),
                Value::Uint(u) => Ok(format!("{u:b}")),
                Value::Bool(b) => Ok(String::from(if *b { "1" } else { "0" })),
                _ => Err(wrong_type('b', arg)),
            },
        }
    })?;
    Ok(out)
}

/// Reads a format string as cel-go's `parseFormatString` does (ext/formatting.go, v0.29.2):
/// text goes to `text`; each clause, `%` with an optional `.precision` and a verb, takes the
/// next of `args` arguments and goes to `clause` (argument index, verb, precision), whose text
/// goes to `text` and whose error is "error during formatting: ..."; `%%` is a `%`. At run time (`runtime`) a missing argument
/// is found first (`stringArgList.Arg`), before a `%` that ends the string; the string-format
/// validator counts the clauses instead. Returns how many clauses there are; the errors are
/// cel-go's.
pub(crate) fn walk(
    template: &str,
    args: usize,
    runtime: bool,
    text: &mut dyn FnMut(&str),
    clause: &mut dyn FnMut(usize, char, Option<usize>) -> Result<String, Fail>,
) -> Result<usize, Fail> {
    let b = template.as_bytes();
    let (mut i, mut from, mut next) = (0, 0, 0);
    while i < b.len() {
        if b[i] != b'%' {
            i += 1;
            continue;
        }
        text(&template[from..i]);
        if b.get(i + 1) == Some(&b'%') {
            text("%");
            i += 2;
            from = i;
            continue;
        }
        if (runtime || i + 1 < b.len()) && next >= args {
            return Err(format!("index {next} out of range"));
        }
        if i + 1 >= b.len() {
            return Err(String::from("unexpected end of string"));
        }
        i += 1;
        let (precision, verb) = precision_and_verb(b, &mut i)
            .map_err(|e| format!("could not parse formatting clause: error while parsing precision: {e}"))?;
        if !matches!(verb, 's' | 'd' | 'f' | 'e' | 'b' | 'x' | 'X' | 'o') {
            return Err(format!("could not parse formatting clause: unrecognized formatting clause \"{verb}\""));
        }
        text(&clause(next, verb, precision).map_err(|e| format!("error during formatting: {e}"))?);
        next += 1;
        from = i;
    }
    text(&template[from..]);
    Ok(next)
}

/// cel-go `parsePrecision` and the verb after it, from `b[*i]` (past the `%`); the verb is one
/// byte, read as a rune as cel-go reads it.
fn precision_and_verb(b: &[u8], i: &mut usize) -> Result<(Option<usize>, char), Fail> {
    let mut precision = None;
    if b[*i] == b'.' {
        *i += 1;
        let start = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        if *i >= b.len() {
            return Err(String::from("could not find end of precision specifier"));
        }
        let digits = core::str::from_utf8(&b[start..*i]).unwrap_or("");
        let p = match digits.parse::<i64>() {
            Ok(p) => p,
            Err(_) if digits.is_empty() => {
                return Err(String::from(
                    "error while converting precision to integer: strconv.Atoi: parsing \"\": invalid syntax",
                ))
            }
            Err(_) => {
                return Err(format!(
                "error while converting precision to integer: strconv.Atoi: parsing \"{digits}\": value out of range"
            ))
            }
        };
        precision = Some(p as usize);
    }
    let verb = char::from(b[*i]);
    *i += 1;
    Ok((precision, verb))
}

/// What a clause takes, as cel-go says it (ext/formatting.go `*FormatError`), for the verbs
/// `walk` lets through.
pub(crate) fn clause_takes(verb: char) -> &'static str {
    match verb {
        's' => "string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps",
        'd' => "decimal clause can only be used on integers",
        'f' => "fixed-point clause can only be used on doubles",
        'e' => "scientific clause can only be used on doubles",
        'b' => "only integers and bools can be formatted as binary",
        'o' => "octal clause can only be used on integers",
        _ => "only integers, byte buffers, and strings can be formatted as hex",
    }
}

fn wrong_type(verb: char, arg: &Value) -> Fail {
    format!("{}, was given {}", clause_takes(verb), arg.type_name())
}

fn signed(i: i64, magnitude: String) -> String {
    if i < 0 {
        format!("-{magnitude}")
    } else {
        magnitude
    }
}

fn decimal(arg: &Value) -> Result<String, Fail> {
    match arg {
        Value::Int(i) => Ok(format!("{i}")),
        Value::Uint(u) => Ok(format!("{u}")),
        _ => Err(wrong_type('d', arg)),
    }
}

fn hex(arg: &Value, upper: bool) -> Result<String, Fail> {
    let digits = |bytes: &[u8]| -> String {
        bytes.iter().map(|b| if upper { format!("{b:02X}") } else { format!("{b:02x}") }).collect()
    };
    Ok(match arg {
        Value::Int(i) if upper => signed(*i, format!("{:X}", i.unsigned_abs())),
        Value::Int(i) => signed(*i, format!("{:x}", i.unsigned_abs())),
        Value::Uint(u) if upper => format!("{u:X}"),
        Value::Uint(u) => format!("{u:x}"),
        Value::String(s) => digits(s.as_bytes()),
        Value::Bytes(b) => digits(b),
        _ => return Err(wrong_type('x', arg)),
    })
}

/// `%f` / `%e` take doubles, and the strings naming NaN and the infinities.
fn float_arg(arg: &Value, verb: char) -> Result<f64, Fail> {
    match arg {
        Value::Double(d) => Ok(*d),
        Value::String(s) if &**s == "NaN" => Ok(f64::NAN),
        Value::String(s) if &**s == "Infinity" => Ok(f64::INFINITY),
        Value::String(s) if &**s == "-Infinity" => Ok(f64::NEG_INFINITY),
        _ => Err(wrong_type(verb, arg)),
    }
}

/// x/text's English number formatting of a non-finite value.
fn non_finite(d: f64) -> Option<&'static str> {
    if d.is_nan() {
        Some("NaN")
    } else if d.is_infinite() {
        Some(if d > 0.0 { "∞" } else { "-∞" })
    } else {
        None
    }
}

/// `%.{precision}f` through x/text's English printer: thousands grouped with `,`.
fn fixed(d: f64, precision: usize) -> String {
    if let Some(s) = non_finite(d) {
        return String::from(s);
    }
    let plain = crate::field::exact::fixed(d.abs(), precision);
    let (int_part, frac) = plain.split_once('.').map_or((plain.as_str(), None), |(i, f)| (i, Some(f)));
    let mut grouped = String::new();
    for (n, c) in int_part.chars().enumerate() {
        if n > 0 && (int_part.len() - n) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(c);
    }
    let sign = if d.is_sign_negative() { "-" } else { "" };
    match frac {
        Some(frac) => format!("{sign}{grouped}.{frac}"),
        None => format!("{sign}{grouped}"),
    }
}

/// `%e` through x/text's English printer: six decimals, then `×10` and the exponent in
/// superscript digits (at least two). No spaces around `×` with the golang.org/x/text Kubernetes
/// 1.33 to 1.37 build with (apiextensions-apiserver celcoststability_test.go: `'%e'.format([3.14])
/// == '3.140000×10⁰⁰'` holds); cel-go's own tests, at cel-go's x/text, have narrow no-break spaces.
fn scientific(d: f64) -> String {
    if let Some(s) = non_finite(d) {
        return String::from(s);
    }
    let s = crate::field::exact::scientific(d, 6);
    let (mantissa, exponent) = s.split_once('e').unwrap_or((&s, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    const SUPERSCRIPT: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    let digits: String =
        format!("{:02}", exponent.unsigned_abs()).bytes().map(|b| SUPERSCRIPT[usize::from(b - b'0')]).collect();
    format!("{mantissa}×10{}{digits}", if exponent < 0 { "⁻" } else { "" })
}

/// `%s` (`FormatString`): lists and maps as CEL literals, other values as `string(x)`.
fn string_clause(v: &Value) -> Result<String, Fail> {
    match v {
        Value::Null => Ok(String::from("null")),
        Value::List(items) => {
            let parts: Result<Vec<String>, Fail> = items.iter().map(literal).collect();
            Ok(format!("[{}]", parts?.join(", ")))
        }
        Value::Map(m) => {
            let mut entries = Vec::new();
            for (k, val) in m.iter() {
                let key = match k {
                    Key::String(s) => go_quote(s),
                    Key::Bool(b) => format!("{b}"),
                    Key::Int(i) => format!("{i}"),
                    Key::Uint(u) => format!("{u}"),
                };
                entries.push((key, literal(val)?));
            }
            // sort.SliceStable by the formatted key.
            crate::sort::sort_by(&mut entries, |a, b| a.0.cmp(&b.0));
            let parts: Vec<String> = entries.into_iter().map(|(k, v)| format!("{k}:{v}")).collect();
            Ok(format!("{{{}}}", parts.join(", ")))
        }
        Value::Type(t) => Ok(String::from(t.name())),
        Value::String(_)
        | Value::Int(_)
        | Value::Uint(_)
        | Value::Double(_)
        | Value::Bool(_)
        | Value::Bytes(_)
        | Value::Timestamp(_)
        | Value::Duration(_) => to_string(v),
        other => Err(wrong_type('s', other)),
    }
}

/// A list item or map value as a CEL literal (`clauseForType` then `quoteForCEL`).
fn literal(v: &Value) -> Result<String, Fail> {
    Ok(match v {
        Value::Int(i) => format!("{i}"),
        Value::Uint(u) => format!("{u}"),
        Value::String(s) => go_quote(s),
        Value::Bytes(_) => format!("b{}", go_quote(&to_string(v)?)),
        Value::Double(d) if d.is_nan() => String::from("\"NaN\""),
        Value::Double(d) if d.is_infinite() => String::from(if *d > 0.0 { "\"+Inf\"" } else { "\"-Inf\"" }),
        Value::Double(d) => crate::field::exact::fixed(*d, 6),
        Value::Timestamp(_) => format!("timestamp({})", go_quote(&to_string(v)?)),
        Value::Duration(_) => format!("duration({})", go_quote(&to_string(v)?)),
        Value::Bool(_) | Value::Null | Value::Type(_) | Value::List(_) | Value::Map(_) => string_clause(v)?,
        other => return Err(format!("no formatting function for {}", other.type_name())),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_and_signs() {
        assert_eq!(fixed(1234567.0, 2), "1,234,567.00");
        assert_eq!(fixed(-1234.5, 1), "-1,234.5");
        assert_eq!(fixed(999.0, 0), "999");
        assert_eq!(fixed(f64::INFINITY, 2), "∞");
        assert_eq!(scientific(-0.000123), "-1.230000×10⁻⁰⁴");
    }
}
