//! The functions of the CEL standard library and its extensions, resolved by name at parse time
//! to a [`Builtin`] and dispatched on the argument values at run time (as cel-go's overloads).

use alloc::format;
use alloc::rc::Rc;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::cmp::Ordering;

use super::time::{self, Timestamp};
use super::value::{Key, ListKind, Map, Type, Value};

/// A function known to kubedv's CEL environment.
#[allow(missing_docs)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    // Operators.
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    In,
    /// `x in [constants]` after constant folding: a set lookup that costs nothing.
    InSet,
    Not,
    Neg,
    // Standard library.
    Size,
    Int,
    Uint,
    Double,
    String,
    Bytes,
    Bool,
    Type,
    Dyn,
    Timestamp,
    Duration,
    Matches,
    Contains,
    StartsWith,
    EndsWith,
    GetFullYear,
    GetMonth,
    GetDate,
    GetDayOfMonth,
    GetDayOfWeek,
    GetDayOfYear,
    GetHours,
    GetMinutes,
    GetSeconds,
    GetMilliseconds,
    // Optional types.
    OptionalOf,
    OptionalOfNonZero,
    OptionalNone,
    OptValue,
    OptHasValue,
    OptOr,
    OptOrValue,
    // Extended strings.
    CharAt,
    IndexOf,
    LastIndexOf,
    /// `<dyn>.includes(<dyn>)` (Kubernetes lists library v1, 1.37).
    Includes,
    LowerAscii,
    UpperAscii,
    Replace,
    Split,
    Substring,
    Trim,
    Join,
    Reverse,
    Quote,
    /// `jsonpatch.escapeKey` (Kubernetes' JSONPatch library, mutating admission policies only).
    JsonPatchEscapeKey,
    Format,
    // Lists (Kubernetes and cel-go ext).
    IsSorted,
    Sum,
    /// `sum` where the checker chose the overload of a `list(uint)`, `list(double)` or
    /// `list(duration)` (cel-go calls that overload, whose zero is its type's, for an empty list).
    SumUint,
    SumDouble,
    SumDuration,
    Min,
    Max,
    Distinct,
    Flatten,
    Slice,
    Sort,
    /// `@sortByAssociatedKeys`, the call `sortBy` expands to (cel-go `ext/lists.go`).
    SortByKeys,
    First,
    Last,
    ListsRange,
    // Regex.
    Find,
    FindAll,
    // Encoders and math.
    Base64Encode,
    Base64Decode,
    MathGreatest,
    MathLeast,
    MathCeil,
    MathFloor,
    MathRound,
    MathTrunc,
    MathAbs,
    MathSign,
    MathIsInf,
    MathIsNaN,
    MathIsFinite,
    MathBitAnd,
    MathBitOr,
    MathBitXor,
    MathBitNot,
    MathBitShiftLeft,
    MathBitShiftRight,
    MathSqrt,
    // Sets.
    SetsContains,
    SetsEquivalent,
    SetsIntersects,
    // Kubernetes types: constructors and checks.
    Quantity,
    IsQuantity,
    Ip,
    IsIp,
    IpIsCanonical,
    /// `optional.unwrap(list)` / `list.unwrapOpt()` (cel-go optional types): the present values.
    OptionalUnwrap,
    /// `sign(quantity)`: a global function in Kubernetes' quantity library (not a method).
    QuantitySign,
    Cidr,
    IsCidr,
    Url,
    IsUrl,
    Semver,
    IsSemver,
    FormatNamed,
    FormatByName,
    /// Any method of a Kubernetes library object, dispatched on the object.
    ObjectMethod,
    /// Not a known function: evaluating it is an error.
    Unknown,
}

impl Builtin {
    /// A global function (or a namespaced one, `math.greatest`).
    pub fn global(name: &str) -> Builtin {
        use Builtin::*;
        match name {
            "size" => Size,
            "int" => Int,
            "uint" => Uint,
            "double" => Double,
            "string" => String,
            "bytes" => Bytes,
            "bool" => Bool,
            "type" => Type,
            "dyn" => Dyn,
            "timestamp" => Timestamp,
            "duration" => Duration,
            "matches" => Matches,
            "optional.of" => OptionalOf,
            "optional.ofNonZeroValue" => OptionalOfNonZero,
            "optional.none" => OptionalNone,
            "optional.unwrap" => OptionalUnwrap,
            "strings.quote" => Quote,
            #[cfg(feature = "policy")]
            "jsonpatch.escapeKey" => JsonPatchEscapeKey,
            "lists.range" => ListsRange,
            "base64.encode" => Base64Encode,
            "base64.decode" => Base64Decode,
            "math.greatest" => MathGreatest,
            "math.least" => MathLeast,
            "math.ceil" => MathCeil,
            "math.floor" => MathFloor,
            "math.round" => MathRound,
            "math.trunc" => MathTrunc,
            "math.abs" => MathAbs,
            "math.sign" => MathSign,
            "math.isInf" => MathIsInf,
            "math.isNaN" => MathIsNaN,
            "math.isFinite" => MathIsFinite,
            "math.bitAnd" => MathBitAnd,
            "math.bitOr" => MathBitOr,
            "math.bitXor" => MathBitXor,
            "math.bitNot" => MathBitNot,
            "math.bitShiftLeft" => MathBitShiftLeft,
            "math.bitShiftRight" => MathBitShiftRight,
            "math.sqrt" => MathSqrt,
            "sets.contains" => SetsContains,
            "sets.equivalent" => SetsEquivalent,
            "sets.intersects" => SetsIntersects,
            "quantity" => Quantity,
            "isQuantity" => IsQuantity,
            "ip" => Ip,
            "isIP" => IsIp,
            "ip.isCanonical" => IpIsCanonical,
            "sign" => QuantitySign,
            "cidr" => Cidr,
            "isCIDR" => IsCidr,
            "url" => Url,
            "isURL" => IsUrl,
            "semver" => Semver,
            "isSemver" => IsSemver,
            "format.named" => FormatNamed,
            _ if name.starts_with("format.") && super::library::named_format(&name[7..]).is_some() => FormatByName,
            _ => Unknown,
        }
    }

    /// A method (receiver-style call).
    pub fn method(name: &str) -> Builtin {
        use Builtin::*;
        match name {
            "size" => Size,
            "contains" => Contains,
            "startsWith" => StartsWith,
            "endsWith" => EndsWith,
            "matches" => Matches,
            "getFullYear" => GetFullYear,
            "getMonth" => GetMonth,
            "getDate" => GetDate,
            "getDayOfMonth" => GetDayOfMonth,
            "getDayOfWeek" => GetDayOfWeek,
            "getDayOfYear" => GetDayOfYear,
            "getHours" => GetHours,
            "getMinutes" => GetMinutes,
            "getSeconds" => GetSeconds,
            "getMilliseconds" => GetMilliseconds,
            "value" => OptValue,
            "hasValue" => OptHasValue,
            "or" => OptOr,
            "orValue" => OptOrValue,
            "charAt" => CharAt,
            "indexOf" => IndexOf,
            "includes" => Includes,
            "lastIndexOf" => LastIndexOf,
            "lowerAscii" => LowerAscii,
            "upperAscii" => UpperAscii,
            "replace" => Replace,
            "split" => Split,
            "substring" => Substring,
            "trim" => Trim,
            "join" => Join,
            "reverse" => Reverse,
            "format" => Format,
            "isSorted" => IsSorted,
            "sum" => Sum,
            "min" => Min,
            "max" => Max,
            "distinct" => Distinct,
            "flatten" => Flatten,
            "slice" => Slice,
            "sort" => Sort,
            "@sortByAssociatedKeys" => SortByKeys,
            "first" => First,
            "unwrapOpt" => OptionalUnwrap,
            "last" => Last,
            "find" => Find,
            "findAll" => FindAll,
            _ => ObjectMethod,
        }
    }
}

/// An evaluation error message (the position is added by the evaluator).
pub type Fail = String;

/// cel-go v0.29.2's run-time error when no overload of `name` takes `args` (the checker's
/// "found no matching overload" is a compile-time message; this is what evaluation of `dyn`
/// values gives, and what Kubernetes quotes in a CRD rule's error).
///
/// - The operators with one shared binding (interpretable.go evalUnary / evalBinary): the
///   first operand's own method (its trait, or a string, timestamp or duration receiving the
///   call) answers bare `no such overload`; without either, `no such overload: <fn>`.
/// - `&&`, `||`, `!`, `?:`, `in`, the macros' predicates and the strings' `contains`,
///   `startsWith`, `endsWith` (no type guards): bare `no such overload`.
/// - Every other function (decls.go MaybeNoSuchOverload): `no such overload: <fn>(<types>)`,
///   the receiver first.
pub fn no_overload(name: &str, args: &[&Value]) -> Fail {
    const BARE: &str = "no such overload";
    let first = args.first().copied();
    let has = |types: &[&str]| first.is_some_and(|v| types.contains(&v.type_name()));
    const NUMBERS: [&str; 3] = ["int", "uint", "double"];
    let trait_of: Option<&[&str]> = match name {
        "_+_" => Some(&["int", "uint", "double", "string", "bytes", "list"]),
        "_-_" | "_*_" | "_/_" => Some(&NUMBERS),
        "_%_" => Some(&["int", "uint"]),
        "-_" => Some(&["int", "double", "bool"]),
        "_<_" | "_<=_" | "_>_" | "_>=_" => Some(&["bool", "int", "uint", "double", "string", "bytes"]),
        "size" => Some(&["string", "bytes", "list", "map"]),
        "matches" => Some(&["string"]),
        _ => None,
    };
    match trait_of {
        Some(types)
            if has(types) || matches!(first, Some(Value::String(_) | Value::Timestamp(_) | Value::Duration(_))) =>
        {
            String::from(BARE)
        }
        Some(_) => format!("{BARE}: {name}"),
        None if matches!(
            name,
            "_&&_" | "_||_" | "!_" | "_?_:_" | "@in" | "filter" | "exists_one" | "contains" | "startsWith" | "endsWith"
        ) =>
        {
            String::from(BARE)
        }
        None => {
            let types: Vec<&str> = args.iter().map(|v| v.type_name()).collect();
            format!("{BARE}: {name}({})", types.join(", "))
        }
    }
}

const OVERFLOW: &str = "integer overflow";

/// `a + b`.
pub fn add(a: &Value, b: &Value) -> Result<Value, Fail> {
    use Value::*;
    Ok(match (a, b) {
        (Int(x), Int(y)) => Int(x.checked_add(*y).ok_or(OVERFLOW)?),
        (Uint(x), Uint(y)) => Uint(x.checked_add(*y).ok_or(OVERFLOW)?),
        (Double(x), Double(y)) => Double(x + y),
        (String(x), String(y)) => {
            let mut s = alloc::string::String::with_capacity(x.len() + y.len());
            s.push_str(x);
            s.push_str(y);
            Value::from(s)
        }
        (Bytes(x), Bytes(y)) => Bytes([&x[..], &y[..]].concat().into()),
        (List(x), List(y)) => {
            if x.is_empty() {
                return Ok(b.clone());
            }
            if y.is_empty() {
                return Ok(a.clone());
            }
            List(x.concat(y))
        }
        (Duration(x), Duration(y)) => Duration(x.checked_add(*y).ok_or(OVERFLOW)?),
        (Timestamp(t), Duration(d)) | (Duration(d), Timestamp(t)) => {
            Timestamp(t.add_nanos(i128::from(*d)).ok_or(OVERFLOW)?)
        }
        _ => return Err(no_overload("_+_", &[a, b])),
    })
}

/// `a - b`.
pub fn sub(a: &Value, b: &Value) -> Result<Value, Fail> {
    use Value::*;
    Ok(match (a, b) {
        (Int(x), Int(y)) => Int(x.checked_sub(*y).ok_or(OVERFLOW)?),
        (Uint(x), Uint(y)) => Uint(x.checked_sub(*y).ok_or(OVERFLOW)?),
        (Double(x), Double(y)) => Double(x - y),
        (Duration(x), Duration(y)) => Duration(x.checked_sub(*y).ok_or(OVERFLOW)?),
        (Timestamp(t), Duration(d)) => Timestamp(t.add_nanos(-i128::from(*d)).ok_or(OVERFLOW)?),
        (Timestamp(x), Timestamp(y)) => Duration(i64::try_from(x.diff_nanos(y)).map_err(|_| OVERFLOW)?),
        _ => return Err(no_overload("_-_", &[a, b])),
    })
}

/// `a * b`.
pub fn mul(a: &Value, b: &Value) -> Result<Value, Fail> {
    use Value::*;
    Ok(match (a, b) {
        (Int(x), Int(y)) => Int(x.checked_mul(*y).ok_or(OVERFLOW)?),
        (Uint(x), Uint(y)) => Uint(x.checked_mul(*y).ok_or(OVERFLOW)?),
        (Double(x), Double(y)) => Double(x * y),
        _ => return Err(no_overload("_*_", &[a, b])),
    })
}

/// `a / b`.
pub fn div(a: &Value, b: &Value) -> Result<Value, Fail> {
    use Value::*;
    Ok(match (a, b) {
        (Int(_), Int(0)) | (Uint(_), Uint(0)) => return Err("division by zero".into()),
        (Int(x), Int(y)) => Int(x.checked_div(*y).ok_or(OVERFLOW)?),
        (Uint(x), Uint(y)) => Uint(x / y),
        (Double(x), Double(y)) => Double(x / y),
        _ => return Err(no_overload("_/_", &[a, b])),
    })
}

/// `a % b`.
pub fn rem(a: &Value, b: &Value) -> Result<Value, Fail> {
    use Value::*;
    Ok(match (a, b) {
        (Int(_), Int(0)) | (Uint(_), Uint(0)) => return Err("modulus by zero".into()),
        (Int(x), Int(y)) => Int(x.checked_rem(*y).ok_or(OVERFLOW)?),
        (Uint(x), Uint(y)) => Uint(x % y),
        _ => return Err(no_overload("_%_", &[a, b])),
    })
}

/// `-a`.
pub fn neg(a: &Value) -> Result<Value, Fail> {
    match a {
        Value::Int(x) => Ok(Value::Int(x.checked_neg().ok_or(OVERFLOW)?)),
        Value::Double(x) => Ok(Value::Double(-x)),
        // duration.go Negate.
        Value::Duration(d) => Ok(Value::Duration(d.checked_neg().ok_or(OVERFLOW)?)),
        _ => Err(no_overload("-_", &[a])),
    }
}

/// `<`, `<=`, `>`, `>=`.
pub fn relation(op: Builtin, a: &Value, b: &Value) -> Result<Value, Fail> {
    let name = match op {
        Builtin::Lt => "_<_",
        Builtin::Le => "_<=_",
        Builtin::Gt => "_>_",
        _ => "_>=_",
    };
    let ord = a.compare(b).map_err(|_| no_overload(name, &[a, b]))?;
    // Only a NaN has no order: cel-go's Double.Compare and Int/Uint.Compare (common/types,
    // v0.29.2) answer an error, which the relational operators return.
    let Some(ord) = ord else { return Err(String::from("NaN values cannot be ordered")) };
    Ok(Value::Bool(match op {
        Builtin::Lt => ord == Ordering::Less,
        Builtin::Le => ord != Ordering::Greater,
        Builtin::Gt => ord == Ordering::Greater,
        _ => ord != Ordering::Less,
    }))
}

/// `a == b` ([`Value::eq_op`]): object data compared with what is not a list (map) is bare
/// `no such overload` (`MaybeNoSuchOverloadErr`).
pub fn eq(a: &Value, b: &Value) -> Result<Value, Fail> {
    a.eq_op(b).map(Value::Bool).map_err(|_| String::from(NO_OVERLOAD))
}

const NO_OVERLOAD: &str = "no such overload";

/// `a in b`. In object data (apiserver `valuesunstructured.go`): a list's `Contains` asks each
/// element's `Equal`, and without a match gives the first error met; a map's refuses a key
/// that is not a string. Elsewhere (cel-go `baseList.Contains`) an element's error is skipped.
pub fn contains_elem(a: &Value, b: &Value) -> Result<Value, Fail> {
    match b {
        Value::List(items) if items.kind() != &ListKind::Plain => {
            let mut failed = false;
            for x in items.iter() {
                match x.eq_op(a) {
                    Ok(true) => return Ok(Value::Bool(true)),
                    Ok(false) => {}
                    Err(_) => failed = true,
                }
            }
            if failed {
                Err(String::from(NO_OVERLOAD))
            } else {
                Ok(Value::Bool(false))
            }
        }
        Value::List(items) => Ok(Value::Bool(items.iter().any(|x| x.equals(a)))),
        Value::Map(m) if m.data && !matches!(a, Value::String(_)) => Err(String::from(NO_OVERLOAD)),
        Value::Map(m) => Ok(Value::Bool(m.get(a).is_some())),
        _ => Err(no_overload("@in", &[a, b])),
    }
}

/// `size(x)`: code points of a string, bytes, elements, entries.
pub fn size(a: &Value) -> Result<Value, Fail> {
    let n = match a {
        Value::String(s) => s.chars().count(),
        Value::Bytes(b) => b.len(),
        Value::List(l) => l.len(),
        Value::Map(m) => m.len(),
        _ => return Err(no_overload("size", &[a])),
    };
    Ok(Value::Int(n as i64))
}

/// `container[index]`.
pub fn index(container: &Value, index: &Value) -> Result<Value, Fail> {
    match container {
        Value::List(items) => {
            let i = list_position(index)?;
            usize::try_from(i)
                .ok()
                .and_then(|i| items.get(i))
                .cloned()
                .ok_or_else(|| format!("index out of bounds: {i}"))
        }
        Value::Map(m) => match index {
            Value::Bool(_) | Value::Int(_) | Value::Uint(_) | Value::String(_) | Value::Double(_) => {
                m.get(index).cloned().ok_or_else(|| format!("no such key: {}", key_text(index)))
            }
            _ => Err(no_overload("_[_]", &[container, index])),
        },
        // attributes.go refQualify: a value that is no container has no key.
        _ => Err(format!("no such key: {}", key_text(index))),
    }
}

/// A list index as cel-go's `types.IndexOrError` reads it (list.go; the type names as
/// types.go `Type.String()` prints them): an int, a uint or a whole double.
pub fn list_position(index: &Value) -> Result<i64, Fail> {
    match index {
        Value::Int(i) => Ok(*i),
        Value::Uint(u) => i64::try_from(*u).map_err(|_| format!("unsupported index value {u} in list")),
        Value::Double(d) if libm::trunc(*d) == *d && d.is_finite() => Ok(*d as i64),
        Value::Double(d) => Err(format!("unsupported index value {} in list", double_to_string(*d))),
        other => {
            let shown = match other {
                Value::List(_) => "list(dyn)",
                Value::Map(_) => "map(dyn, dyn)",
                v => v.type_name(),
            };
            Err(format!("unsupported index type '{shown}' in list"))
        }
    }
}

fn key_text(v: &Value) -> String {
    match v {
        Value::String(s) => String::from(&**s),
        other => to_string(other).unwrap_or_default(),
    }
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
        Value::Int(i) => u64::try_from(*i).map_err(|_| "unsigned integer overflow")?,
        Value::Double(d) => {
            if d.is_nan() || *d < 0.0 || *d >= 1.8446744073709552e19 {
                return Err("unsigned integer overflow".into());
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
const TIMESTAMP_OVERFLOW: &str = "timestamp overflow";

/// `timestamp(x)`.
pub fn to_timestamp(a: &Value) -> Result<Value, Fail> {
    match a {
        Value::Timestamp(_) => Ok(a.clone()),
        Value::String(s) => match Timestamp::parse(s) {
            Some(t) if super::value::timestamp_in_range(&t) => Ok(Value::Timestamp(t)),
            Some(_) => Err(TIMESTAMP_OVERFLOW.into()),
            None => Err(conversion_error("google.protobuf.Timestamp")),
        },
        Value::Int(i) => {
            let t = Timestamp::utc(*i, 0);
            if super::value::timestamp_in_range(&t) {
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

/// Timestamp and duration accessors, with an optional time zone for timestamps.
pub fn time_accessor(f: Builtin, name: &str, target: &Value, zone: Option<&Value>) -> Result<Value, Fail> {
    match target {
        Value::Timestamp(ts) => {
            let offset = match zone {
                None => 0,
                Some(Value::String(z)) => time::zone_offset(z, ts)?,
                Some(other) => return Err(no_overload(name, &[target, other])),
            };
            let c = time::civil(ts, offset);
            Ok(Value::Int(match f {
                Builtin::GetFullYear => c.year,
                Builtin::GetMonth => i64::from(c.month) - 1,
                Builtin::GetDate => i64::from(c.day),
                Builtin::GetDayOfMonth => i64::from(c.day) - 1,
                Builtin::GetDayOfWeek => c.weekday,
                Builtin::GetDayOfYear => c.yearday,
                Builtin::GetHours => c.hour,
                Builtin::GetMinutes => c.minute,
                Builtin::GetSeconds => c.second,
                _ => i64::from(ts.nanos / 1_000_000),
            }))
        }
        Value::Duration(d) if zone.is_none() => Ok(Value::Int(match f {
            Builtin::GetHours => d / 3_600_000_000_000,
            Builtin::GetMinutes => d / 60_000_000_000,
            Builtin::GetSeconds => d / 1_000_000_000,
            Builtin::GetMilliseconds => d / 1_000_000,
            _ => return Err(no_overload(name, &[target])),
        })),
        _ => Err(no_overload(name, &[target].into_iter().chain(zone).collect::<Vec<_>>())),
    }
}

/// Whether a value is its type's zero value (for `optional.ofNonZeroValue`).
pub fn is_zero(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Bool(b) => !b,
        Value::Int(i) => *i == 0,
        Value::Uint(u) => *u == 0,
        Value::Double(d) => *d == 0.0,
        Value::String(s) => s.is_empty(),
        Value::Bytes(b) => b.is_empty(),
        Value::List(l) => l.is_empty(),
        Value::Map(m) => m.is_empty(),
        // cel-go `Timestamp.IsZeroValue` is Go's `time.Time.IsZero`: 0001-01-01T00:00:00Z (its
        // comment says epoch 0; validation_test.go "optionals" shows which).
        Value::Timestamp(t) => t.secs == super::time::MIN_TS && t.nanos == 0,
        Value::Duration(d) => *d == 0,
        Value::Optional(o) => o.is_none(),
        _ => false,
    }
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Standard base64 with padding.
pub fn base64_encode(b: &[u8]) -> String {
    let mut out = String::with_capacity(b.len().div_ceil(3) * 4);
    for chunk in b.chunks(3) {
        let n = (u32::from(chunk[0]) << 16)
            | (u32::from(*chunk.get(1).unwrap_or(&0)) << 8)
            | u32::from(*chunk.get(2).unwrap_or(&0));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(B64[(n >> (18 - 6 * i)) as usize & 63] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Standard base64, padded or not (cel-go accepts both).
pub fn base64_decode(s: &str) -> Option<Vec<u8>> {
    let trimmed = s.trim_end_matches('=');
    if s.len() - trimmed.len() > 2 || (s.len() != trimmed.len() && s.len() % 4 != 0) {
        return None;
    }
    let mut out = Vec::with_capacity(trimmed.len() * 3 / 4);
    let mut acc = 0u32;
    let mut bits = 0;
    for c in trimmed.bytes() {
        let v = B64.iter().position(|&b| b == c)? as u32;
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    if trimmed.len() % 4 == 1 {
        return None;
    }
    Some(out)
}

/// A map from entries in order, as cel-go v0.29.2 builds a map literal
/// (interpreter/interpretable.go `evalMap.Exec`, a Go map assigned entry by entry): a repeated
/// key keeps its last value (the CEL specification's conformance tests want an error there;
/// Kubernetes, which runs cel-go, gives the last value: the oracle's `cel-conformance` suite),
/// and an `int` and a `uint` key of one number are two entries.
pub fn make_map(entries: Vec<(Value, Value)>) -> Result<Value, Fail> {
    let mut map = Map::default();
    for (k, v) in entries {
        let key = Key::from_value(&k).ok_or_else(|| format!("unsupported key type: {}", k.type_name()))?;
        map.insert(key, v);
    }
    Ok(Value::Map(Rc::new(map)))
}
