//! Function dispatch: the standard library, the cel-go extensions the Kubernetes environment
//! includes (strings, lists, sets, math, encoders, optionals) and the Kubernetes libraries'
//! object types (in [`super::k8s`]).

use alloc::format;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;
use core::cmp::Ordering;

use super::eval::RegexCache;
use super::functions::{self as f, no_overload, Builtin, Fail};
use super::k8s;
use super::value::Value;

pub use super::k8s::{named_format, Object};
pub use super::regex::Regex;
pub(crate) use super::regex::{go_regex_error, uses_unicode_classes};

fn arg(args: &[Value], i: usize) -> &Value {
    args.get(i).unwrap_or(&Value::Null)
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
        Value::Duration(d) => super::time::duration_to_go(*d),
        Value::Timestamp(ts) => {
            let c = super::time::civil(ts, i64::from(ts.offset));
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

fn str_arg<'v>(name: &str, v: &'v Value, all: &[&Value]) -> Result<&'v str, Fail> {
    match v {
        Value::String(s) => Ok(s),
        _ => Err(no_overload(name, all)),
    }
}

fn int_arg(name: &str, v: &Value, all: &[&Value]) -> Result<i64, Fail> {
    match v {
        Value::Int(i) => Ok(*i),
        _ => Err(no_overload(name, all)),
    }
}

/// Calls a function on evaluated arguments.
pub fn call(b: Builtin, name: &str, recv: Option<&Value>, args: &[Value], regexes: &RegexCache) -> Result<Value, Fail> {
    use Builtin as B;
    // Operators first: they are most of the calls in rules.
    if let (None, [x, y]) = (recv, args) {
        match b {
            B::Add => return f::add(x, y),
            B::Sub => return f::sub(x, y),
            B::Mul => return f::mul(x, y),
            B::Div => return f::div(x, y),
            B::Mod => return f::rem(x, y),
            B::Eq => return f::eq(x, y),
            B::Ne => return Ok(Value::Bool(x.eq_op(y) != Ok(true))),
            B::Lt | B::Le | B::Gt | B::Ge => return f::relation(b, x, y),
            B::In | B::InSet => return f::contains_elem(x, y),
            _ => {}
        }
    }
    // The receiver and arguments as one list (for overload errors), without allocating for
    // the usual few arguments.
    const NULL: Value = Value::Null;
    let mut small: [&Value; 4] = [&NULL; 4];
    let big: Vec<&Value>;
    let n = usize::from(recv.is_some()) + args.len();
    let all: &[&Value] = if n <= 4 {
        for (slot, v) in small.iter_mut().zip(recv.into_iter().chain(args.iter())) {
            *slot = v;
        }
        &small[..n]
    } else {
        big = recv.into_iter().chain(args.iter()).collect();
        &big
    };
    // Methods take the receiver as their first operand.
    let (a0, rest): (&Value, &[Value]) = match recv {
        Some(r) => (r, args),
        None => match args.split_first() {
            Some((first, rest)) => (first, rest),
            None => (&Value::Null, args),
        },
    };
    let arity = all.len();
    let bad = || no_overload(name, all);
    match b {
        B::Add if arity == 2 => f::add(a0, arg(rest, 0)),
        B::Sub if arity == 2 => f::sub(a0, arg(rest, 0)),
        B::Mul if arity == 2 => f::mul(a0, arg(rest, 0)),
        B::Div if arity == 2 => f::div(a0, arg(rest, 0)),
        B::Mod if arity == 2 => f::rem(a0, arg(rest, 0)),
        B::Eq if arity == 2 => f::eq(a0, arg(rest, 0)),
        B::Ne if arity == 2 => Ok(Value::Bool(a0.eq_op(arg(rest, 0)) != Ok(true))),
        B::Lt | B::Le | B::Gt | B::Ge if arity == 2 => f::relation(b, a0, arg(rest, 0)),
        B::In if arity == 2 => f::contains_elem(a0, arg(rest, 0)),
        B::Not if arity == 1 => match a0 {
            Value::Bool(v) => Ok(Value::Bool(!v)),
            _ => Err(bad()),
        },
        B::Neg if arity == 1 => f::neg(a0),
        B::Size if arity == 1 => f::size(a0),
        B::Int if arity == 1 => f::to_int(a0),
        B::Uint if arity == 1 => f::to_uint(a0),
        B::Double if arity == 1 => f::to_double(a0),
        B::String if arity == 1 => f::to_string(a0).map(Value::from),
        B::Bytes if arity == 1 => f::to_bytes(a0),
        B::Bool if arity == 1 => f::to_bool(a0),
        B::Type if arity == 1 => Ok(f::type_of(a0)),
        B::Dyn if arity == 1 => Ok(a0.clone()),
        B::Timestamp if arity == 1 => f::to_timestamp(a0),
        B::Duration if arity == 1 => f::to_duration(a0),
        B::Matches if arity == 2 => {
            let s = str_arg(name, a0, all)?;
            let re = regexes.get(str_arg(name, arg(rest, 0), all)?)?;
            Ok(Value::Bool(re.is_match(s)))
        }
        B::Contains | B::StartsWith | B::EndsWith if arity == 2 => {
            let s = str_arg(name, a0, all)?;
            let t = str_arg(name, arg(rest, 0), all)?;
            Ok(Value::Bool(match b {
                B::Contains => s.contains(t),
                B::StartsWith => s.starts_with(t),
                _ => s.ends_with(t),
            }))
        }
        B::GetFullYear
        | B::GetMonth
        | B::GetDate
        | B::GetDayOfMonth
        | B::GetDayOfWeek
        | B::GetDayOfYear
        | B::GetHours
        | B::GetMinutes
        | B::GetSeconds
        | B::GetMilliseconds
            if recv.is_some() && arity <= 2 =>
        {
            f::time_accessor(b, name, a0, rest.first())
        }
        B::OptionalOf if arity == 1 => Ok(Value::Optional(Some(Rc::new(a0.clone())))),
        B::OptionalOfNonZero if arity == 1 => Ok(Value::Optional((!f::is_zero(a0)).then(|| Rc::new(a0.clone())))),
        B::OptionalNone if arity == 0 => Ok(Value::Optional(None)),
        // cel-go library.go optUnwrap: the values of the present optionals, in order.
        B::OptionalUnwrap if arity == 1 => match a0 {
            Value::List(items) => {
                let mut out = Vec::new();
                for item in items.iter() {
                    match item {
                        Value::Optional(Some(v)) => out.push((**v).clone()),
                        Value::Optional(None) => {}
                        other => return Err(format!("value {} is not optional", super::to_json(other))),
                    }
                }
                Ok(Value::list(out))
            }
            _ => Err(no_overload(name, all)),
        },
        B::OptValue if arity == 1 => match a0 {
            Value::Optional(Some(v)) => Ok((**v).clone()),
            Value::Optional(None) => Err("optional.none() dereference".into()),
            _ => Err(bad()),
        },
        B::OptHasValue if arity == 1 => match a0 {
            Value::Optional(o) => Ok(Value::Bool(o.is_some())),
            _ => Err(bad()),
        },
        B::OptOr if arity == 2 => match (a0, arg(rest, 0)) {
            (Value::Optional(Some(_)), Value::Optional(_)) => Ok(a0.clone()),
            (Value::Optional(None), other @ Value::Optional(_)) => Ok(other.clone()),
            _ => Err(bad()),
        },
        B::OptOrValue if arity == 2 => match a0 {
            Value::Optional(Some(v)) => Ok((**v).clone()),
            Value::Optional(None) => Ok(arg(rest, 0).clone()),
            _ => Err(bad()),
        },
        // lists.go includes: a list has the element, or the target equals it.
        B::Includes if arity == 2 => {
            let x = arg(rest, 0);
            Ok(Value::Bool(match a0 {
                Value::List(items) => items.iter().any(|v| v.equals(x)),
                other => other.equals(x),
            }))
        }
        B::IndexOf | B::LastIndexOf if matches!(a0, Value::List(_)) && arity == 2 => {
            let Value::List(items) = a0 else { return Err(bad()) };
            let x = arg(rest, 0);
            let found = if b == B::IndexOf {
                items.iter().position(|v| v.equals(x))
            } else {
                items.iter().rposition(|v| v.equals(x))
            };
            Ok(Value::Int(found.map_or(-1, |i| i as i64)))
        }
        B::CharAt
        | B::IndexOf
        | B::LastIndexOf
        | B::LowerAscii
        | B::UpperAscii
        | B::Replace
        | B::Split
        | B::Substring
        | B::Trim
            if matches!(a0, Value::String(_)) =>
        {
            strings(b, name, a0, rest, all)
        }
        B::Join if arity <= 2 => {
            let Value::List(items) = a0 else { return Err(bad()) };
            let sep = match rest.first() {
                Some(v) => str_arg(name, v, all)?,
                None => "",
            };
            let mut out = String::new();
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(sep);
                }
                // Strings version 2's joinValSeparator (cel-go ext/strings.go): an element of
                // a `list(dyn)` that is no string is Go's `%v` of it.
                let Value::String(s) = item else { return Err(format!("join: invalid input: {}", go_v(item))) };
                out.push_str(s);
            }
            Ok(Value::from(out))
        }
        B::Quote if arity == 1 => Ok(Value::from(quote(str_arg(name, a0, all)?))),
        // pkg/cel/library/jsonpatch.go: `/` → `~1`, `~` → `~0` (one pass).
        #[cfg(feature = "policy")]
        B::JsonPatchEscapeKey if arity == 1 => {
            Ok(Value::from(str_arg(name, a0, all)?.replace('~', "~0").replace('/', "~1")))
        }
        B::Format if arity == 2 => {
            let Value::List(fargs) = arg(rest, 0) else { return Err(bad()) };
            super::format::format(str_arg(name, a0, all)?, fargs).map(Value::from)
        }
        B::IsSorted
        | B::Sum
        | B::SumUint
        | B::SumDouble
        | B::SumDuration
        | B::Min
        | B::Max
        | B::Distinct
        | B::Flatten
        | B::Slice
        | B::Sort
        | B::SortByKeys
        | B::First
        | B::Last
        | B::Reverse
            if matches!(a0, Value::List(_)) =>
        {
            let Value::List(items) = a0 else { return Err(bad()) };
            lists(b, name, items, rest, all)
        }
        // cel-go v0.29.2 ext/lists.go genRange, with the library's default cap.
        B::ListsRange if arity == 1 => match int_arg(name, a0, all)? {
            n if n < 0 => Err(format!("lists.range: size must be non-negative, got {n}")),
            n if n > 1_000_000 => Err(format!("lists.range: size {n} exceeds maximum allowed (1000000)")),
            n => Ok(Value::list((0..n).map(Value::Int).collect())),
        },
        B::Find | B::FindAll if arity >= 2 => {
            let s = str_arg(name, a0, all)?;
            // regex.go: `types.NewErr("Illegal regex: %v", err)`.
            let re = regexes.get(str_arg(name, arg(rest, 0), all)?).map_err(|e| format!("Illegal regex: {e}"))?;
            if b == B::Find {
                return Ok(Value::from(re.find_all(s, 1).first().copied().unwrap_or("")));
            }
            let limit = match rest.get(1) {
                Some(v) => int_arg(name, v, all)?,
                None => -1,
            };
            let limit = if limit < 0 { usize::MAX } else { limit as usize };
            Ok(Value::list(re.find_all(s, limit).into_iter().map(Value::from).collect()))
        }
        #[cfg(feature = "cel-extensions")]
        B::Base64Encode if arity == 1 => match a0 {
            Value::Bytes(bytes) => Ok(Value::from(f::base64_encode(bytes))),
            _ => Err(bad()),
        },
        #[cfg(feature = "cel-extensions")]
        B::Base64Decode if arity == 1 => {
            let s = str_arg(name, a0, all)?;
            f::base64_decode(s).map(|b| Value::Bytes(b.into())).ok_or_else(|| String::from("illegal base64 data"))
        }
        #[cfg(feature = "cel-extensions")]
        B::MathGreatest | B::MathLeast => {
            let items: Vec<Value> = match (arity, a0) {
                (1, Value::List(l)) => l.iter().cloned().collect(),
                _ => all.iter().map(|v| (*v).clone()).collect(),
            };
            extreme(&items, b == B::MathGreatest, name)
        }
        #[cfg(feature = "cel-extensions")]
        B::MathCeil
        | B::MathFloor
        | B::MathRound
        | B::MathTrunc
        | B::MathAbs
        | B::MathSign
        | B::MathIsInf
        | B::MathIsNaN
        | B::MathIsFinite
        | B::MathBitAnd
        | B::MathBitOr
        | B::MathBitXor
        | B::MathBitNot
        | B::MathBitShiftLeft
        | B::MathBitShiftRight
        | B::MathSqrt => super::math::call(b, name, all),
        B::SetsContains | B::SetsEquivalent | B::SetsIntersects if arity == 2 => {
            let (Value::List(x), Value::List(y)) = (a0, arg(rest, 0)) else { return Err(bad()) };
            let has = |list: &[Value], v: &Value| list.iter().any(|w| w.equals(v));
            Ok(Value::Bool(match b {
                B::SetsContains => y.iter().all(|v| has(x, v)),
                B::SetsEquivalent => y.iter().all(|v| has(x, v)) && x.iter().all(|v| has(y, v)),
                _ => x.iter().any(|v| has(y, v)),
            }))
        }
        B::IpIsCanonical if arity == 1 => k8s::ip_is_canonical(str_arg(name, a0, all)?),
        B::QuantitySign if arity == 1 => match a0 {
            Value::Object(o) => match &**o {
                k8s::Object::Quantity(q) => Ok(Value::Int(q.sign())),
                _ => Err(no_overload(name, all)),
            },
            _ => Err(no_overload(name, all)),
        },
        B::Quantity
        | B::IsQuantity
        | B::Ip
        | B::IsIp
        | B::Cidr
        | B::IsCidr
        | B::Url
        | B::IsUrl
        | B::Semver
        | B::IsSemver
        | B::FormatNamed
        | B::FormatByName => k8s::construct(b, name, all),
        B::ObjectMethod | B::IndexOf | B::Sum | B::Min | B::Max | B::IsSorted | B::Reverse => match a0 {
            Value::Object(o) if recv.is_some() => k8s::method(o, name, rest, all),
            _ => Err(bad()),
        },
        B::Unknown => Err(format!("undeclared reference to '{name}' (in container '')")),
        _ => match a0 {
            Value::Object(o) if recv.is_some() => k8s::method(o, name, rest, all),
            _ => Err(bad()),
        },
    }
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

#[cfg(feature = "cel-extensions")]
fn compare_or_err(a: &Value, b: &Value, name: &str) -> Result<Ordering, Fail> {
    match a.compare(b) {
        Ok(Some(o)) => Ok(o),
        Ok(None) => Ok(Ordering::Equal),
        Err(_) => Err(no_overload(name, &[a, b])),
    }
}

#[cfg(feature = "cel-extensions")]
fn extreme(items: &[Value], greatest: bool, name: &str) -> Result<Value, Fail> {
    let Some(first) = items.first() else {
        return Err(format!("{name}(list) argument must not be empty"));
    };
    let mut best = first;
    for v in &items[1..] {
        if !matches!(v, Value::Int(_) | Value::Uint(_) | Value::Double(_)) {
            return Err(no_overload(name, &[v]));
        }
        let o = compare_or_err(v, best, name)?;
        if (greatest && o == Ordering::Greater) || (!greatest && o == Ordering::Less) {
            best = v;
        }
    }
    if !matches!(best, Value::Int(_) | Value::Uint(_) | Value::Double(_)) {
        return Err(no_overload(name, &[best]));
    }
    Ok(best.clone())
}

/// The element types the Kubernetes list library's `isSorted`, `min` and `max` are declared
/// for (lists.go `comparableTypes`), which ext lists' sort keys must be too: the types `<`
/// orders.
fn comparable(v: &Value) -> bool {
    matches!(
        v,
        Value::Int(_)
            | Value::Uint(_)
            | Value::Double(_)
            | Value::Bool(_)
            | Value::Duration(_)
            | Value::Timestamp(_)
            | Value::String(_)
            | Value::Bytes(_)
    )
}

/// A value cel-go can compare at all (`traits.Comparer`; the Kubernetes library objects too).
fn comparer(v: &Value) -> bool {
    comparable(v) || matches!(v, Value::Object(_))
}

/// lists.go `sum`: the overload's zero, then `acc.Add(next)`; another type is cel-go's "no such
/// overload".
fn sum(mut acc: Value, items: &[Value]) -> Result<Value, Fail> {
    for v in items {
        if core::mem::discriminant(v) != core::mem::discriminant(&acc) {
            return Err(String::from("no such overload"));
        }
        acc = f::add(&acc, v)?;
    }
    Ok(acc)
}

/// The Kubernetes list library and cel-go's `ext.Lists`.
fn lists(b: Builtin, name: &str, items: &[Value], rest: &[Value], all: &[&Value]) -> Result<Value, Fail> {
    use Builtin as B;
    let bad = || no_overload(name, all);
    match (b, rest.len()) {
        // apiserver pkg/cel/library/lists.go (v0.37): one overload per element type, which cel-go
        // picks at run time by the first element's type (an empty list takes the first, int,
        // and is sorted: validation_test.go "stdlib list functions"); the later elements'
        // comparison errors are ignored (`cmp == IntOne` only).
        (B::IsSorted, 0) => {
            let Some(first) = items.first() else { return Ok(Value::Bool(true)) };
            let mut prev = Some(first).filter(|v| comparable(v)).ok_or_else(|| no_overload(name, all))?;
            for v in &items[1..] {
                if !comparer(v) {
                    return Err(String::from("no such overload"));
                }
                if let Ok(Some(Ordering::Greater)) = prev.compare(v) {
                    return Ok(Value::Bool(false));
                }
                prev = v;
            }
            Ok(Value::Bool(true))
        }
        // The zero of the chosen overload's type, then `acc.Add(next)`: another type is cel-go's
        // "no such overload".
        (B::SumUint, 0) => sum(Value::Uint(0), items),
        (B::SumDouble, 0) => sum(Value::Double(0.0), items),
        (B::SumDuration, 0) => sum(Value::Duration(0), items),
        (B::Sum, 0) => {
            let acc = match items.first() {
                None | Some(Value::Int(_)) => Value::Int(0),
                Some(Value::Uint(_)) => Value::Uint(0),
                Some(Value::Double(_)) => Value::Double(0.0),
                Some(Value::Duration(_)) => Value::Duration(0),
                Some(_) => return Err(bad()),
            };
            sum(acc, items)
        }
        (B::Min | B::Max, 0) => {
            let Some(first) = items.first() else {
                return Err(format!("{name} called on empty list"));
            };
            if !comparable(first) {
                return Err(bad());
            }
            let mut best = first;
            for v in &items[1..] {
                if !comparer(v) {
                    return Err(String::from("no such overload"));
                }
                let prefer = if b == B::Max { Ordering::Less } else { Ordering::Greater };
                if let Ok(Some(o)) = best.compare(v) {
                    if o == prefer {
                        best = v;
                    }
                }
            }
            Ok(best.clone())
        }
        (B::Distinct, 0) => {
            let mut out: Vec<Value> = Vec::new();
            for v in items.iter() {
                if !out.iter().any(|w| w.equals(v)) {
                    out.push(v.clone());
                }
            }
            Ok(Value::list(out))
        }
        (B::Flatten, 0 | 1) => {
            let depth = match rest.first() {
                Some(v) => int_arg(name, v, all)?,
                None => 1,
            };
            if depth < 0 {
                return Err("level must be non-negative".into());
            }
            let mut out = Vec::new();
            flatten(items, depth, &mut out);
            Ok(Value::list(out))
        }
        (B::Slice, 2) => {
            let start = int_arg(name, &rest[0], all)?;
            let end = int_arg(name, &rest[1], all)?;
            if start < 0 || end < 0 {
                return Err(format!("cannot slice({start}, {end}), negative indexes not supported"));
            }
            if start > end {
                return Err(format!(
                    "cannot slice({start}, {end}), start index must be less than or equal to end index"
                ));
            }
            if end as usize > items.len() {
                return Err(format!("cannot slice({start}, {end}), list is length {}", items.len()));
            }
            Ok(Value::list(items[start as usize..end as usize].to_vec()))
        }
        (B::Sort, 0) => sort_by_keys(items, items),
        (B::SortByKeys, 1) => match &rest[0] {
            Value::List(keys) => sort_by_keys(items, keys),
            _ => Err(bad()),
        },
        (B::First | B::Last, 0) => {
            let v = if b == B::First { items.first() } else { items.last() };
            Ok(Value::Optional(v.map(|v| Rc::new(v.clone()))))
        }
        (B::Reverse, 0) => Ok(Value::list(items.iter().rev().cloned().collect())),
        _ => Err(bad()),
    }
}

/// cel-go `sortListByAssociatedKeys` (`sort()` sorts a list by itself): the items in the
/// order Go's `sort.Slice` gives their keys, with its errors.
fn sort_by_keys(items: &[Value], keys: &[Value]) -> Result<Value, Fail> {
    if items.len() != keys.len() {
        return Err(format!(
            "@sortByAssociatedKeys() expected a list of the same size as the associated keys list, but got {} and {} elements respectively",
            items.len(),
            keys.len()
        ));
    }
    let Some(first) = keys.first() else { return Ok(Value::list(Vec::new())) };
    // traits.Comparer: the types `<` orders.
    if !comparable(first) {
        return Err("list elements must be comparable".into());
    }
    let mut mixed = false;
    let same = |v: &Value| core::mem::discriminant(v) == core::mem::discriminant(first);
    let order = super::gosort::order(keys.len(), |a, b| {
        if !same(&keys[a]) || !same(&keys[b]) {
            mixed = true;
            return false;
        }
        // NaN orders with nothing (cel-go: "NaN values cannot be ordered", not -1).
        matches!(keys[a].compare(&keys[b]), Ok(Some(Ordering::Less)))
    });
    if mixed {
        return Err("list elements must have the same type".into());
    }
    Ok(Value::list(order.into_iter().map(|i| items[i].clone()).collect()))
}

fn flatten(items: &[Value], depth: i64, out: &mut Vec<Value>) {
    for v in items {
        match v {
            Value::List(inner) if depth > 0 => flatten(inner, depth - 1, out),
            other => out.push(other.clone()),
        }
    }
}
