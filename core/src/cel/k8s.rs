//! The Kubernetes CEL libraries' types (apiserver `pkg/cel/library`): quantity, IP, CIDR, URL,
//! semver and named formats, with the constructors, methods, costs and error strings there.

use alloc::format;
use alloc::rc::Rc;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::cmp::Ordering;
use core::fmt;

use super::functions::{no_overload, Builtin, Fail};
use super::value::{Key, Map, Value};
use crate::content;

#[cfg(feature = "policy")]
pub mod authz;
mod net;
mod quantity;
mod semver;
mod url;

pub use net::{Cidr, Ip};
pub use quantity::Quantity;
pub use semver::Semver;
pub use url::Url;

/// A value of a Kubernetes library type.
#[derive(Clone, Debug)]
pub enum Object {
    /// `kubernetes.Quantity`.
    Quantity(Quantity),
    /// `net.IP`.
    Ip(Ip),
    /// `net.CIDR`.
    Cidr(Cidr),
    /// `kubernetes.URL`.
    Url(Url),
    /// `kubernetes.Semver`.
    Semver(Semver),
    /// `kubernetes.NamedFormat`.
    Format(&'static NamedFormat),
    /// The authorizer library's values (`kubernetes.authorization.*`).
    #[cfg(feature = "policy")]
    Authz(authz::Authz),
}

impl Object {
    /// The CEL type name.
    pub fn type_name(&self) -> &'static str {
        match self {
            Object::Quantity(_) => "kubernetes.Quantity",
            Object::Ip(_) => "net.IP",
            Object::Cidr(_) => "net.CIDR",
            Object::Url(_) => "kubernetes.URL",
            Object::Semver(_) => "kubernetes.Semver",
            Object::Format(_) => "kubernetes.NamedFormat",
            #[cfg(feature = "policy")]
            Object::Authz(a) => a.type_name(),
        }
    }

    /// `==` as each type's `Equal` defines it.
    pub fn equals(&self, other: &Object) -> bool {
        match (self, other) {
            (Object::Quantity(a), Object::Quantity(b)) => a.compare(b) == Ordering::Equal,
            (Object::Ip(a), Object::Ip(b)) => a == b,
            (Object::Cidr(a), Object::Cidr(b)) => a == b,
            (Object::Url(a), Object::Url(b)) => a.raw == b.raw,
            (Object::Semver(a), Object::Semver(b)) => a.compare(b) == Ordering::Equal,
            (Object::Format(a), Object::Format(b)) => a.name == b.name,
            #[cfg(feature = "policy")]
            (Object::Authz(a), Object::Authz(b)) => a == b,
            _ => false,
        }
    }

    /// The library types have no `<`: comparisons go through methods.
    pub fn compare(&self, _: &Object) -> Option<Ordering> {
        None
    }
}

impl fmt::Display for Object {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Object::Quantity(q) => write!(f, "{q}"),
            Object::Ip(ip) => write!(f, "{ip}"),
            Object::Cidr(c) => write!(f, "{c}"),
            Object::Url(u) => f.write_str(&u.raw),
            Object::Semver(v) => write!(f, "{v}"),
            Object::Format(n) => f.write_str(n.name),
            #[cfg(feature = "policy")]
            Object::Authz(a) => f.write_str(a.type_name()),
        }
    }
}

fn object(o: Object) -> Value {
    Value::Object(Rc::new(o))
}

/// A named format of the format library (`format.dns1123Label()`, ...).
#[derive(Debug)]
pub struct NamedFormat {
    /// The name used in CEL (`format.<key>()`, `format.named("<key>")`).
    pub key: &'static str,
    /// The format's name.
    pub name: &'static str,
    /// The regex size Kubernetes assumes for its cost.
    pub max_regex_size: u64,
}

/// The formats, as `ConstantFormats` in apiserver `pkg/cel/library/format.go`.
pub const FORMATS: &[NamedFormat] = &[
    NamedFormat { key: "dns1123Label", name: "DNS1123Label", max_regex_size: 30 },
    NamedFormat { key: "dns1123Subdomain", name: "DNS1123Subdomain", max_regex_size: 60 },
    NamedFormat { key: "dns1035Label", name: "DNS1035Label", max_regex_size: 30 },
    NamedFormat { key: "qualifiedName", name: "QualifiedName", max_regex_size: 60 },
    NamedFormat { key: "dns1123LabelPrefix", name: "DNS1123LabelPrefix", max_regex_size: 30 },
    NamedFormat { key: "dns1123SubdomainPrefix", name: "DNS1123SubdomainPrefix", max_regex_size: 60 },
    NamedFormat { key: "dns1035LabelPrefix", name: "DNS1035LabelPrefix", max_regex_size: 30 },
    NamedFormat { key: "labelValue", name: "LabelValue", max_regex_size: 40 },
    NamedFormat { key: "uri", name: "URI", max_regex_size: 1103 },
    NamedFormat { key: "uuid", name: "uuid", max_regex_size: 70 },
    NamedFormat { key: "byte", name: "byte", max_regex_size: 84 },
    NamedFormat { key: "date", name: "date", max_regex_size: 71 },
    NamedFormat { key: "datetime", name: "datetime", max_regex_size: 71 },
];

/// A format by its CEL name.
pub fn named_format(key: &str) -> Option<&'static NamedFormat> {
    FORMATS.iter().find(|f| f.key == key)
}

/// `util/validation` (which the name validators use) says "characters" where the newer
/// `validate/content` says "bytes".
fn characters(messages: Vec<String>) -> Vec<String> {
    messages.into_iter().map(|m| m.replace(" bytes", " characters")).collect()
}

/// apimachinery `maskTrailingDash`: a generated-name prefix may end in '-' (Go drops the last
/// two *bytes*: a multi-byte character before the dash leaves invalid UTF-8, shown here as
/// U+FFFD, which fails the name's pattern just as Go's bytes do).
pub(crate) fn mask_trailing_dash(s: &str) -> String {
    if s.len() > 1 && s.ends_with('-') {
        let mut out = String::from_utf8_lossy(&s.as_bytes()[..s.len() - 2]).into_owned();
        out.push('a');
        return out;
    }
    String::from(s)
}

/// apimachinery `util/validation.IsDNS1035Label`.
pub fn is_dns1035_label(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > 63 {
        errs.push(String::from("must be no more than 63 characters"));
    }
    let b = value.as_bytes();
    let ok = match (b.first(), b.last()) {
        (Some(f), Some(l)) => {
            f.is_ascii_lowercase()
                && (l.is_ascii_lowercase() || l.is_ascii_digit())
                && b.iter().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
        }
        _ => false,
    };
    if !ok {
        errs.push(content::regex_error(
            "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character",
            "[a-z]([-a-z0-9]*[a-z0-9])?",
            &["my-name", "abc-123"],
        ));
    }
    errs
}

impl NamedFormat {
    /// The format's validation messages for a string (empty when valid).
    pub fn validate(&self, s: &str) -> Vec<String> {
        match self.key {
            "dns1123Label" => characters(content::is_dns1123_label(s)),
            "dns1123LabelPrefix" => characters(content::is_dns1123_label(&mask_trailing_dash(s))),
            "dns1123Subdomain" => characters(content::is_dns1123_subdomain(s)),
            "dns1123SubdomainPrefix" => characters(content::is_dns1123_subdomain(&mask_trailing_dash(s))),
            "dns1035Label" => is_dns1035_label(s),
            "dns1035LabelPrefix" => is_dns1035_label(&mask_trailing_dash(s)),
            "qualifiedName" => content::is_label_key(s),
            "labelValue" => content::is_label_value(s),
            "uri" => match Url::parse_request_uri(s) {
                Ok(_) => Vec::new(),
                Err(e) => Vec::from([e]),
            },
            "uuid" => {
                if is_uuid(s) {
                    Vec::new()
                } else {
                    Vec::from([String::from("does not match the UUID format")])
                }
            }
            "byte" => {
                if super::functions::base64_decode(s).is_some() {
                    Vec::new()
                } else {
                    Vec::from([String::from("invalid base64")])
                }
            }
            "date" => {
                if is_full_date(s) {
                    Vec::new()
                } else {
                    Vec::from([String::from("invalid date")])
                }
            }
            _ => {
                if is_datetime(s) {
                    Vec::new()
                } else {
                    Vec::from([String::from("invalid datetime")])
                }
            }
        }
    }
}

/// strfmt's UUID: 32 hex digits, optionally grouped 8-4-4-4-12 by hyphens, any case.
pub fn is_uuid(s: &str) -> bool {
    let mut groups = [8usize, 4, 4, 4, 12].into_iter();
    let mut want = groups.next();
    let mut run = 0;
    for c in s.chars() {
        match c {
            '-' if Some(run) == want => {
                want = groups.next();
                run = 0;
            }
            c if c.is_ascii_hexdigit() => {
                run += 1;
                if Some(run) > want && want != Some(12) {
                    // An ungrouped form: a run continuing into the next group.
                    want = groups.next().map(|n| n + run - 1);
                }
            }
            _ => return false,
        }
    }
    let hex = s.chars().filter(char::is_ascii_hexdigit).count();
    hex == 32
        && (s.len() == 32 || s.len() == 36 || s.matches('-').count() <= 4)
        && !s.starts_with('-')
        && !s.ends_with('-')
        && !s.contains("--")
}

/// RFC 3339 full-date (`2006-01-02`).
pub fn is_full_date(s: &str) -> bool {
    super::time::Timestamp::parse(&format!("{s}T00:00:00Z")).is_some() && s.len() == 10
}

/// strfmt's date-time: RFC 3339 with `T` or a space, optional fraction, `Z` or an offset.
pub fn is_datetime(s: &str) -> bool {
    let mut t = String::from(s);
    if t.len() > 10 && t.as_bytes()[10] == b' ' {
        t.replace_range(10..11, "T");
    }
    super::time::Timestamp::parse(&t).is_some()
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
        Some(s @ Value::String(_)) => ceil(super::cost::actual_size(s) as f64 * 0.1),
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
                ceil((1.0 + super::cost::actual_size(s) as f64) * 0.1) * ceil(f.max_regex_size as f64 * 0.25)
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

#[allow(dead_code)]
fn _unused(_: &dyn ToString) {}
