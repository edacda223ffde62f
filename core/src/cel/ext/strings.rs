//! cel-go's strings extension at the version Kubernetes enables (`ext.Strings`, version 2):
//! `charAt`, `indexOf`, `lastIndexOf`, `lowerAscii`, `upperAscii`, `replace`, `split`,
//! `substring`, `trim`, `join`, `strings.quote`, and `format` (in [`format`](super::format)),
//! with Go's `strings` semantics.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::cel::library::{int_arg, str_arg, Call};
use crate::cel::syntax::Builtin;
use crate::cel::value::{no_overload, time, Fail, Value};

/// The strings extension's functions (with `"...".format(list)`, cel-go's string formatting).
pub(crate) fn call(b: Builtin, c: &Call<'_>) -> Option<Result<Value, Fail>> {
    use Builtin as B;
    let arity = c.arity();
    Some(match b {
        B::CharAt
        | B::IndexOf
        | B::LastIndexOf
        | B::LowerAscii
        | B::UpperAscii
        | B::Replace
        | B::Split
        | B::Substring
        | B::Trim
            if matches!(c.a0, Value::String(_)) =>
        {
            strings(b, c.name, c.a0, c.rest, c.all)
        }
        B::Join if arity <= 2 => join(c),
        B::Quote if arity == 1 => c.str(c.a0).map(|s| Value::from(quote(s))),
        B::Format if arity == 2 => {
            let Value::List(args) = c.arg(0) else { return Some(Err(c.bad())) };
            c.str(c.a0).and_then(|template| super::format::format(template, args)).map(Value::from)
        }
        _ => return None,
    })
}

/// Go's `%v` of a cel-go value where kubedv knows it: numbers, booleans, `null` (the enum's
/// `0`), bytes (`[97 98]`), durations and timestamps (`time.Duration` and `time.Time`'s
/// `String`, promoted from the embedded field: `1h0m0s`, `2020-01-01 00:00:00 +0000 UTC`).
/// Lists, maps and the rest print Go structs kubedv does not model: their type name stands in.
fn go_v(v: &Value) -> String {
    match v {
        Value::Int(i) => format!("{i}"),
        Value::Uint(u) => format!("{u}"),
        Value::Double(d) => crate::field::go_float(*d),
        Value::Bool(b) => format!("{b}"),
        Value::Null => String::from("0"),
        Value::Bytes(b) => format!("{:?}", &b[..]).replace(',', ""),
        Value::Duration(d) => time::duration_to_go(*d),
        Value::Timestamp(ts) => {
            let c = time::civil(ts, i64::from(ts.offset));
            let mut frac = format!(".{:09}", ts.nanos);
            while frac.ends_with('0') {
                frac.pop();
            }
            if frac == "." {
                frac.clear();
            }
            let (sign, off) = if ts.offset < 0 { ('-', -ts.offset) } else { ('+', ts.offset) };
            let zone = format!("{sign}{:02}{:02}", off / 3600, off / 60 % 60);
            let name = if ts.offset == 0 { "UTC" } else { &zone };
            format!(
                "{:04}-{:02}-{:02} {:02}:{:02}:{:02}{frac} {zone} {name}",
                c.year, c.month, c.day, c.hour, c.minute, c.second
            )
        }
        other => String::from(other.type_name()),
    }
}

/// `join`: strings version 2's `joinValSeparator` (cel-go ext/strings.go): an element of a
/// `list(dyn)` that is no string is Go's `%v` of it.
fn join(c: &Call<'_>) -> Result<Value, Fail> {
    let Value::List(items) = c.a0 else { return Err(c.bad()) };
    let sep = match c.rest.first() {
        Some(v) => c.str(v)?,
        None => "",
    };
    let mut out = String::new();
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(sep);
        }
        let Value::String(s) = item else { return Err(format!("join: invalid input: {}", go_v(item))) };
        out.push_str(s);
    }
    Ok(Value::from(out))
}

/// The extended strings library (cel-go `ext.Strings`, version 2).
fn strings(b: Builtin, name: &str, s: &Value, rest: &[Value], all: &[&Value]) -> Result<Value, Fail> {
    use Builtin as B;
    let Value::String(s) = s else { return Err(no_overload(name, all)) };
    let chars = || s.chars();
    let len = chars().count() as i64;
    let bad = || no_overload(name, all);
    match (b, rest.len()) {
        (B::CharAt, 1) => {
            let i = int_arg(name, &rest[0], all)?;
            if i < 0 || i > len {
                return Err(format!("index out of range: {i}"));
            }
            Ok(Value::from(chars().nth(i as usize).map(String::from).unwrap_or_default()))
        }
        // cel-go v0.29.2 (the version Kubernetes 1.37 pins) ext/strings.go indexOfOffset /
        // lastIndexOfOffset: offsets in runes; only a negative offset is an error; an empty
        // needle is found at min(offset, len); an offset at or past the end finds nothing.
        (B::IndexOf | B::LastIndexOf, 1 | 2) => {
            let sub = str_arg(name, &rest[0], all)?;
            let hay: Vec<char> = chars().collect();
            let needle: Vec<char> = sub.chars().collect();
            let last = b == B::LastIndexOf;
            let offset = match rest.get(1) {
                Some(v) => {
                    let o = int_arg(name, v, all)?;
                    if o < 0 {
                        return Err(format!("index out of range: {o}"));
                    }
                    o
                }
                None if last => {
                    if needle.is_empty() {
                        return Ok(Value::Int(len));
                    }
                    if s.len() < sub.len() {
                        return Ok(Value::Int(-1));
                    }
                    len - 1
                }
                None => 0,
            };
            if needle.is_empty() {
                return Ok(Value::Int(offset.min(len)));
            }
            if offset >= len {
                return Ok(Value::Int(-1));
            }
            let offset = offset as usize;
            let fits = |i: usize| i + needle.len() <= hay.len() && hay[i..i + needle.len()] == needle[..];
            let found = if last {
                let start = offset.min(hay.len().saturating_sub(needle.len()));
                (0..=start).rev().find(|&i| fits(i))
            } else {
                (offset..hay.len()).find(|&i| fits(i))
            };
            Ok(Value::Int(found.map_or(-1, |i| i as i64)))
        }
        (B::LowerAscii, 0) => Ok(Value::from(s.to_ascii_lowercase())),
        (B::UpperAscii, 0) => Ok(Value::from(s.to_ascii_uppercase())),
        (B::Replace, 2 | 3) => {
            let from = str_arg(name, &rest[0], all)?;
            let to = str_arg(name, &rest[1], all)?;
            let n = match rest.get(2) {
                Some(v) => int_arg(name, v, all)?,
                None => -1,
            };
            Ok(Value::from(go_replace(s, from, to, n)))
        }
        (B::Split, 1 | 2) => {
            let sep = str_arg(name, &rest[0], all)?;
            let n = match rest.get(1) {
                Some(v) => int_arg(name, v, all)?,
                None => -1,
            };
            Ok(Value::list(go_split(s, sep, n).into_iter().map(Value::from).collect()))
        }
        (B::Substring, 1 | 2) => {
            let start = int_arg(name, &rest[0], all)?;
            let end = match rest.get(1) {
                Some(v) => int_arg(name, v, all)?,
                None => len,
            };
            // ext/strings.go substrRange: the range first, then each bound (`substr`, the
            // one-argument form, checks only the start).
            if start > end && rest.len() == 2 {
                return Err(format!("invalid substring range. start: {start}, end: {end}"));
            }
            if start < 0 || start > len {
                return Err(format!("index out of range: {start}"));
            }
            if end < 0 || end > len {
                return Err(format!("index out of range: {end}"));
            }
            Ok(Value::from(chars().skip(start as usize).take((end - start) as usize).collect::<String>()))
        }
        (B::Trim, 0) => Ok(Value::from(s.trim_matches(is_go_space))),
        _ => Err(bad()),
    }
}

/// Go's `unicode.IsSpace`.
fn is_go_space(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\u{0B}' | '\u{0C}' | '\r' | ' ' | '\u{85}' | '\u{A0}')
        || (c as u32 > 0xFF && c.is_whitespace())
}

/// Go's `strings.Replace(s, old, new, n)` (n < 0: all).
fn go_replace(s: &str, from: &str, to: &str, n: i64) -> String {
    if n == 0 || (from == to) {
        return String::from(s);
    }
    let limit = if n < 0 { usize::MAX } else { n as usize };
    if from.is_empty() {
        // Go inserts `to` before each code point and at the end.
        let mut out = String::new();
        let mut done = 0;
        for c in s.chars() {
            if done < limit {
                out.push_str(to);
                done += 1;
            }
            out.push(c);
        }
        if done < limit {
            out.push_str(to);
        }
        return out;
    }
    let mut out = String::new();
    let mut rest = s;
    let mut done = 0;
    while done < limit {
        match rest.find(from) {
            Some(i) => {
                out.push_str(&rest[..i]);
                out.push_str(to);
                rest = &rest[i + from.len()..];
                done += 1;
            }
            None => break,
        }
    }
    out.push_str(rest);
    out
}

/// Go's `strings.SplitN(s, sep, n)`.
fn go_split<'s>(s: &'s str, sep: &str, n: i64) -> Vec<&'s str> {
    if n == 0 {
        return Vec::new();
    }
    let limit = if n < 0 { usize::MAX } else { n as usize };
    if sep.is_empty() {
        let mut out: Vec<&str> = Vec::new();
        for (i, c) in s.char_indices() {
            if out.len() + 1 == limit {
                out.push(&s[i..]);
                return out;
            }
            out.push(&s[i..i + c.len_utf8()]);
        }
        return out;
    }
    let mut out = Vec::new();
    let mut rest = s;
    while out.len() + 1 < limit {
        match rest.find(sep) {
            Some(i) => {
                out.push(&rest[..i]);
                rest = &rest[i + sep.len()..];
            }
            None => break,
        }
    }
    out.push(rest);
    out
}

/// `strings.quote`: a double-quoted CEL string literal.
fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '\x07' => out.push_str("\\a"),
            '\x08' => out.push_str("\\b"),
            '\x0c' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\x0b' => out.push_str("\\v"),
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
