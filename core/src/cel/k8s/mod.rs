//! The Kubernetes CEL libraries (apiserver `pkg/cel/library`): the lists library (`isSorted`,
//! `sum`, `min`, `max`, `indexOf`, `lastIndexOf`, `includes`), the regex library (`find`,
//! `findAll`), quantity, IP, CIDR, URL, semver, the format library, the authorizer
//! ([`authz`], with admission policies) and `jsonpatch.escapeKey`: their constructors,
//! methods, costs and error strings. Their value types are [`Object`]'s, in the value room.

use alloc::format;
use alloc::rc::Rc;
use alloc::string::{String, ToString};
use core::cmp::Ordering;

use crate::cel::library::Call;
use crate::cel::syntax::Builtin;
use crate::cel::value::{actual_size, no_overload, Fail, Key, Map, Value};

#[cfg(feature = "policy")]
pub mod authz;
mod format;
mod lists;
mod regex;

pub use crate::cel::value::k8s::{named_format, Cidr, Ip, NamedFormat, Object, Quantity, Semver, Url, FORMATS};
pub use format::{is_datetime, is_dns1035_label, is_full_date, is_uuid};

/// The Kubernetes libraries' functions; a method of one of their objects is
/// [`object_method`]'s.
pub(crate) fn call(b: Builtin, c: &Call<'_>) -> Option<Result<Value, Fail>> {
    use Builtin as B;
    let arity = c.arity();
    match b {
        B::Includes
        | B::IndexOf
        | B::LastIndexOf
        | B::IsSorted
        | B::Sum
        | B::SumUint
        | B::SumDouble
        | B::SumDuration
        | B::Min
        | B::Max => lists::call(b, c),
        B::Find | B::FindAll => regex::call(b, c),
        B::IpIsCanonical if arity == 1 => Some(c.str(c.a0).and_then(ip_is_canonical)),
        B::QuantitySign if arity == 1 => Some(match c.a0 {
            Value::Object(o) => match &**o {
                Object::Quantity(q) => Ok(Value::Int(q.sign())),
                _ => Err(c.bad()),
            },
            _ => Err(c.bad()),
        }),
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
        | B::FormatByName => Some(construct(b, c.name, c.all)),
        // pkg/cel/library/jsonpatch.go: `/` → `~1`, `~` → `~0` (one pass).
        #[cfg(feature = "policy")]
        B::JsonPatchEscapeKey if arity == 1 => {
            Some(c.str(c.a0).map(|s| Value::from(s.replace('~', "~0").replace('/', "~1"))))
        }
        _ => None,
    }
}

/// A method of a Kubernetes library object (the receiver), if the call is one.
pub(crate) fn object_method(c: &Call<'_>) -> Option<Result<Value, Fail>> {
    match c.a0 {
        Value::Object(o) if c.method => Some(method(o, c.name, c.rest, c.all)),
        _ => None,
    }
}

fn object(o: Object) -> Value {
    Value::Object(Rc::new(o))
}

/// Kubernetes library global functions.
pub fn construct(b: Builtin, name: &str, all: &[&Value]) -> Result<Value, Fail> {
    use Builtin as B;
    let bad = || no_overload(name, all);
    let s = match all.first() {
        Some(Value::String(s)) => s.clone(),
        _ if b == B::FormatByName && all.is_empty() => Rc::from(""),
        _ => return Err(bad()),
    };
    match (b, all.len()) {
        (B::Quantity, 1) => Quantity::parse(&s).map(|q| object(Object::Quantity(q))),
        (B::IsQuantity, 1) => Ok(Value::Bool(Quantity::parse(&s).is_ok())),
        (B::Ip, 1) => Ip::parse(&s).map(|ip| object(Object::Ip(ip))),
        (B::IsIp, 1) => Ok(Value::Bool(Ip::parse(&s).is_ok())),
        // `stringToCIDR` wraps `parseCIDR`'s error in the same words again.
        (B::Cidr, 1) => Cidr::parse(&s).map(|c| object(Object::Cidr(c))).map_err(|e| {
            if e.starts_with("network address") {
                format!("network address parse error during conversion from string: {e}")
            } else {
                e
            }
        }),
        (B::IsCidr, 1) => Ok(Value::Bool(Cidr::parse(&s).is_ok())),
        (B::Url, 1) => Url::parse_request_uri(&s)
            .map(|u| object(Object::Url(u)))
            .map_err(|e| format!("URL parse error during conversion from string: {e}")),
        (B::IsUrl, 1) => Ok(Value::Bool(Url::parse_request_uri(&s).is_ok())),
        (B::Semver | B::IsSemver, 1 | 2) => {
            let normalize = match all.get(1) {
                Some(Value::Bool(n)) => *n,
                None => false,
                Some(_) => return Err(bad()),
            };
            let parsed = if normalize { Semver::parse_normalized(&s) } else { Semver::parse(&s) };
            if b == B::IsSemver {
                return Ok(Value::Bool(parsed.is_ok()));
            }
            parsed.map(|v| object(Object::Semver(v)))
        }
        (B::FormatNamed, 1) => Ok(Value::Optional(named_format(&s).map(|f| Rc::new(object(Object::Format(f)))))),
        (B::FormatByName, 0) => {
            let key = name.strip_prefix("format.").unwrap_or(name);
            named_format(key).map(|f| object(Object::Format(f))).ok_or_else(bad)
        }
        _ => Err(bad()),
    }
}

/// `ip.isCanonical(string)`.
pub fn ip_is_canonical(s: &str) -> Result<Value, Fail> {
    let ip = Ip::parse(s)?;
    Ok(Value::Bool(ip.to_string() == s))
}

/// Methods of the library objects.
pub fn method(o: &Object, name: &str, args: &[Value], all: &[&Value]) -> Result<Value, Fail> {
    let bad = || no_overload(name, all);
    match (o, name, args) {
        #[cfg(feature = "policy")]
        (Object::Authz(a), _, _) => authz::method(a, name, args).unwrap_or_else(|| Err(bad())),
        (Object::Quantity(q), _, _) => quantity_method(q, name, args).ok_or_else(bad)?,
        (Object::Ip(ip), "family", []) => Ok(Value::Int(if ip.is_v4() { 4 } else { 6 })),
        (Object::Ip(ip), "isUnspecified", []) => Ok(Value::Bool(ip.is_unspecified())),
        (Object::Ip(ip), "isLoopback", []) => Ok(Value::Bool(ip.is_loopback())),
        (Object::Ip(ip), "isLinkLocalMulticast", []) => Ok(Value::Bool(ip.is_link_local_multicast())),
        (Object::Ip(ip), "isLinkLocalUnicast", []) => Ok(Value::Bool(ip.is_link_local_unicast())),
        (Object::Ip(ip), "isGlobalUnicast", []) => Ok(Value::Bool(ip.is_global_unicast())),
        (Object::Cidr(c), "containsIP", [other]) => {
            let ip = match other {
                Value::String(s) => Ip::parse(s)?,
                Value::Object(o) => match &**o {
                    Object::Ip(ip) => *ip,
                    _ => return Err(bad()),
                },
                _ => return Err(bad()),
            };
            Ok(Value::Bool(c.contains_ip(&ip)))
        }
        (Object::Cidr(c), "containsCIDR", [other]) => {
            let sub = match other {
                Value::String(s) => Cidr::parse(s)?,
                Value::Object(o) => match &**o {
                    Object::Cidr(sub) => *sub,
                    _ => return Err(bad()),
                },
                _ => return Err(bad()),
            };
            Ok(Value::Bool(c.contains_cidr(&sub)))
        }
        (Object::Cidr(c), "ip", []) => Ok(object(Object::Ip(c.ip))),
        (Object::Cidr(c), "masked", []) => Ok(object(Object::Cidr(c.masked()))),
        (Object::Cidr(c), "prefixLength", []) => Ok(Value::Int(i64::from(c.bits))),
        (Object::Url(u), "getScheme", []) => Ok(Value::from(u.scheme.as_str())),
        (Object::Url(u), "getHost", []) => Ok(Value::from(u.host.as_str())),
        (Object::Url(u), "getHostname", []) => Ok(Value::from(u.hostname())),
        (Object::Url(u), "getPort", []) => Ok(Value::from(u.port())),
        (Object::Url(u), "getEscapedPath", []) => Ok(Value::from(u.escaped_path())),
        (Object::Url(u), "getQuery", []) => {
            let mut m = Map::default();
            for (k, vs) in u.query() {
                m.insert(Key::String(Rc::from(k.as_str())), Value::list(vs.into_iter().map(Value::from).collect()));
            }
            Ok(Value::Map(Rc::new(m)))
        }
        (Object::Semver(v), "major", []) => Ok(Value::Int(v.major as i64)),
        (Object::Semver(v), "minor", []) => Ok(Value::Int(v.minor as i64)),
        (Object::Semver(v), "patch", []) => Ok(Value::Int(v.patch as i64)),
        (Object::Semver(v), "isGreaterThan" | "isLessThan" | "compareTo", [Value::Object(other)]) => {
            let Object::Semver(w) = &**other else { return Err(bad()) };
            let o = v.compare(w);
            Ok(match name {
                "isGreaterThan" => Value::Bool(o == Ordering::Greater),
                "isLessThan" => Value::Bool(o == Ordering::Less),
                _ => Value::Int(o as i64),
            })
        }
        (Object::Format(f), "validate", [Value::String(s)]) => {
            let errs = f.validate(s);
            Ok(Value::Optional(
                (!errs.is_empty()).then(|| Rc::new(Value::list(errs.into_iter().map(Value::from).collect()))),
            ))
        }
        _ => Err(bad()),
    }
}

fn quantity_method(q: &Quantity, name: &str, args: &[Value]) -> Option<Result<Value, Fail>> {
    let other = || match args {
        [Value::Object(o)] => match &**o {
            Object::Quantity(p) => Some(p.clone()),
            _ => None,
        },
        [Value::Int(i)] if matches!(name, "add" | "sub") => Some(Quantity::from_int(*i)),
        _ => None,
    };
    Some(match (name, args.len()) {
        ("isInteger", 0) => Ok(Value::Bool(q.as_i64().is_some())),
        ("asInteger", 0) => q.as_i64().map(Value::Int).ok_or_else(|| String::from("cannot convert value to integer")),
        ("asApproximateFloat", 0) => Ok(Value::Double(q.as_f64())),
        ("isGreaterThan", 1) => Ok(Value::Bool(q.compare(&other()?) == Ordering::Greater)),
        ("isLessThan", 1) => Ok(Value::Bool(q.compare(&other()?) == Ordering::Less)),
        ("compareTo", 1) => Ok(Value::Int(q.compare(&other()?) as i64)),
        ("add", 1) => Ok(object(Object::Quantity(q.add(&other()?)))),
        ("sub", 1) => Ok(object(Object::Quantity(q.sub(&other()?)))),
        _ => return None,
    })
}

/// The cost of a library method (apiserver `pkg/cel/library/cost.go`): accessors and
/// comparisons are nominal; `containsIP`/`containsCIDR` and `validate` depend on sizes. The
/// library types are not sized, so Kubernetes' `actualSize` of a CIDR is 1.
pub fn method_cost(name: &str, recv: Option<&Value>, args: &[Value]) -> u64 {
    let ceil = |x: f64| libm::ceil(x) as u64;
    let string_cost = |v: Option<&Value>| match v {
        Some(s @ Value::String(_)) => ceil(actual_size(s) as f64 * 0.1),
        _ => 0,
    };
    #[cfg(feature = "policy")]
    if let Some(Value::Object(o)) = recv {
        if let Object::Authz(_) = &**o {
            return authz::cost(name, args).unwrap_or(1);
        }
    }
    match (name, recv) {
        ("containsIP", Some(_)) => ceil(2.0 * 0.1) + string_cost(args.first()),
        ("containsCIDR", Some(_)) => ceil(2.0 * 0.1) + ceil(0.1) + 1 + string_cost(args.first()),
        ("validate", Some(Value::Object(o))) => match (&**o, args.first()) {
            (Object::Format(f), Some(s)) => {
                ceil((1.0 + actual_size(s) as f64) * 0.1) * ceil(f.max_regex_size as f64 * 0.25)
            }
            _ => 1,
        },
        _ => 1,
    }
}

/// A list of the library's type names, for documentation.
pub fn type_names() -> [&'static str; 6] {
    ["kubernetes.Quantity", "net.IP", "net.CIDR", "kubernetes.URL", "kubernetes.Semver", "kubernetes.NamedFormat"]
}
