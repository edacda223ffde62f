//! The Kubernetes CEL libraries' value types (apiserver `pkg/cel/library`): quantity, IP,
//! CIDR, URL, semver, named formats and the authorizer's values, as [`Object`], the one
//! variant of [`Value`](super::Value) they share. Their functions and costs are the
//! Kubernetes libraries' (`cel::k8s`).

use core::cmp::Ordering;
use core::fmt;

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
