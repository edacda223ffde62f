//! Type conversions (`int`, `uint`, `double`, `string`, `bytes`, `bool`, `timestamp`,
//! `duration`, `dyn`) and types (`type(x)`, the type names an identifier may denote), as
//! cel-go's standard library has them.

use alloc::format;
use alloc::string::{String, ToString};

use super::operators::{OVERFLOW, UINT_OVERFLOW};
use super::Call;
use crate::cel::syntax::Builtin;
use crate::cel::value::time::{self, Timestamp};
use crate::cel::value::{no_overload, timestamp_in_range, Fail, Type, Value};

/// The conversions and `type`, each of one operand.
pub(crate) fn call(b: Builtin, c: &Call<'_>) -> Option<Result<Value, Fail>> {
    use Builtin as B;
    if c.arity() != 1 {
        return None;
    }
    let a0 = c.a0;
    Some(match b {
        B::Int => to_int(a0),
        B::Uint => to_uint(a0),
        B::Double => to_double(a0),
        B::String => to_string(a0).map(Value::from),
        B::Bytes => to_bytes(a0),
        B::Bool => to_bool(a0),
        B::Type => Ok(type_of(a0)),
        B::Dyn => Ok(a0.clone()),
        B::Timestamp => to_timestamp(a0),
        B::Duration => to_duration(a0),
        _ => return None,
    })
}

/// Go's `strconv.FormatFloat(d, 'g', -1, 64)`, as cel-go's `string(double)`: the same text as
/// Go's `%v` (`1e+06`, `0.0045`).
pub fn double_to_string(d: f64) -> String {
    crate::field::go_float(d)
}

/// `string(x)`.
pub fn to_string(a: &Value) -> Result<String, Fail> {
    Ok(match a {
        Value::String(s) => String::from(&**s),
        Value::Int(i) => i.to_string(),
        Value::Uint(u) => u.to_string(),
        Value::Double(d) => double_to_string(*d),
        Value::Bool(b) => b.to_string(),
        Value::Bytes(b) => match core::str::from_utf8(b) {
            Ok(s) => String::from(s),
            Err(_) => return Err("invalid UTF-8 in bytes, cannot convert to string".into()),
        },
        Value::Timestamp(t) => t.to_rfc3339(),
        Value::Duration(d) => time::duration_to_string(*d),
        Value::Type(t) => String::from(t.name()),
        Value::Object(o) => o.to_string(),
        _ => return Err(no_overload("string", &[a])),
    })
}

/// `int(x)`.
pub fn to_int(a: &Value) -> Result<Value, Fail> {
    Ok(Value::Int(match a {
        Value::Int(i) => *i,
        Value::Uint(u) => i64::try_from(*u).map_err(|_| "integer overflow")?,
        Value::Double(d) => {
            if d.is_nan() || *d <= -9.223372036854776e18 || *d >= 9.223372036854776e18 {
                return Err(OVERFLOW.into());
            }
            *d as i64
        }
        Value::String(s) => s.parse::<i64>().map_err(|_| conversion_error("int"))?,
        Value::Timestamp(t) => t.secs,
        // cel-go `duration_to_int64`: nanoseconds. (No bool: cel-go has no `int(bool)`.)
        Value::Duration(d) => *d,
        _ => return Err(no_overload("int", &[a])),
    }))
}

/// `uint(x)`.
pub fn to_uint(a: &Value) -> Result<Value, Fail> {
    Ok(Value::Uint(match a {
        Value::Uint(u) => *u,
        Value::Int(i) => u64::try_from(*i).map_err(|_| UINT_OVERFLOW)?,
        Value::Double(d) => {
            if d.is_nan() || *d < 0.0 || *d >= 1.8446744073709552e19 {
                return Err(UINT_OVERFLOW.into());
            }
            *d as u64
        }
        Value::String(s) => s.parse::<u64>().map_err(|_| conversion_error("uint"))?,
        _ => return Err(no_overload("uint", &[a])),
    }))
}

/// `double(x)`.
pub fn to_double(a: &Value) -> Result<Value, Fail> {
    Ok(Value::Double(match a {
        Value::Double(d) => *d,
        Value::Int(i) => *i as f64,
        Value::Uint(u) => *u as f64,
        Value::String(s) => parse_go_float(s).ok_or_else(|| conversion_error("double"))?,
        _ => return Err(no_overload("double", &[a])),
    }))
}

/// Go's `strconv.ParseFloat(s, 64)` for the forms CEL strings use.
fn parse_go_float(s: &str) -> Option<f64> {
    let lower = s.to_ascii_lowercase();
    let (sign, body) = match lower.strip_prefix('-') {
        Some(b) => (-1.0, b),
        None => (1.0, lower.strip_prefix('+').unwrap_or(&lower)),
    };
    match body {
        "inf" | "infinity" => return Some(sign * f64::INFINITY),
        "nan" => return Some(f64::NAN),
        _ => {}
    }
    if body.is_empty() || !body.bytes().all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'+' | b'-' | b'_')) {
        return None;
    }
    s.parse::<f64>().ok()
}

/// `bool(x)`: Go's `strconv.ParseBool` spellings.
pub fn to_bool(a: &Value) -> Result<Value, Fail> {
    match a {
        Value::Bool(b) => Ok(Value::Bool(*b)),
        Value::String(s) => match &**s {
            "1" | "t" | "T" | "TRUE" | "true" | "True" => Ok(Value::Bool(true)),
            "0" | "f" | "F" | "FALSE" | "false" | "False" => Ok(Value::Bool(false)),
            _ => Err(conversion_error("bool")),
        },
        _ => Err(no_overload("bool", &[a])),
    }
}

/// `bytes(x)`.
pub fn to_bytes(a: &Value) -> Result<Value, Fail> {
    match a {
        Value::Bytes(_) => Ok(a.clone()),
        Value::String(s) => Ok(Value::Bytes(s.as_bytes().into())),
        _ => Err(no_overload("bytes", &[a])),
    }
}

/// cel-go's message when a string does not convert (common/types/string.go ConvertToType).
fn conversion_error(to: &str) -> Fail {
    format!("type conversion error from 'string' to '{to}'")
}

/// cel-go common/types/err.go `errTimestampOverflow`.
/// cel-go's `errTimestampOverflow` (a timestamp out of range, by conversion or arithmetic).
pub(crate) const TIMESTAMP_OVERFLOW: &str = "timestamp overflow";

/// `timestamp(x)`.
pub fn to_timestamp(a: &Value) -> Result<Value, Fail> {
    match a {
        Value::Timestamp(_) => Ok(a.clone()),
        Value::String(s) => match Timestamp::parse(s) {
            Some(t) if timestamp_in_range(&t) => Ok(Value::Timestamp(t)),
            Some(_) => Err(TIMESTAMP_OVERFLOW.into()),
            None => Err(conversion_error("google.protobuf.Timestamp")),
        },
        Value::Int(i) => {
            let t = Timestamp::utc(*i, 0);
            if timestamp_in_range(&t) {
                Ok(Value::Timestamp(t))
            } else {
                Err(TIMESTAMP_OVERFLOW.into())
            }
        }
        _ => Err(no_overload("timestamp", &[a])),
    }
}

/// `duration(x)`.
pub fn to_duration(a: &Value) -> Result<Value, Fail> {
    match a {
        Value::Duration(_) => Ok(a.clone()),
        Value::String(s) => {
            time::parse_duration(s).map(Value::Duration).ok_or_else(|| conversion_error("google.protobuf.Duration"))
        }
        Value::Int(i) => Ok(Value::Duration(i.checked_mul(1_000_000_000).ok_or(OVERFLOW)?)),
        _ => Err(no_overload("duration", &[a])),
    }
}

/// The type value for a type name an identifier may denote.
pub fn type_ident(name: &str) -> Option<Type> {
    Some(Type::Named(match name {
        "int" => "int",
        "uint" => "uint",
        "double" => "double",
        "bool" => "bool",
        "string" => "string",
        "bytes" => "bytes",
        "list" => "list",
        "map" => "map",
        "null_type" => "null_type",
        "type" => "type",
        "optional_type" => "optional_type",
        "google.protobuf.Timestamp" => "google.protobuf.Timestamp",
        "google.protobuf.Duration" => "google.protobuf.Duration",
        "net.IP" => "net.IP",
        "net.CIDR" => "net.CIDR",
        _ => return None,
    }))
}

/// `type(x)`.
pub fn type_of(a: &Value) -> Value {
    match a {
        Value::Object(o) => Value::Type(Type::Named(o.type_name())),
        Value::Type(_) => Value::Type(Type::Named("type")),
        _ => Value::Type(type_ident(a.type_name()).unwrap_or(Type::Named("dyn"))),
    }
}
