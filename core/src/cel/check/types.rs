//! CEL's types as the checker sees them (cel-go's `common/types` types and the checker's
//! printing of them): [`CelType`], schema object types, the type names an identifier may
//! denote.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::cel::value::Value;

/// A CEL type.
#[derive(Clone, Debug, PartialEq)]
pub enum CelType {
    /// `dyn`: anything, checked at run time.
    Dyn,
    /// `null_type`.
    Null,
    /// `bool`.
    Bool,
    /// `int`.
    Int,
    /// `uint`.
    Uint,
    /// `double`.
    Double,
    /// `string`.
    String,
    /// `bytes`.
    Bytes,
    /// `google.protobuf.Timestamp`.
    Timestamp,
    /// `google.protobuf.Duration`.
    Duration,
    /// `list(T)`.
    List(Rc<CelType>),
    /// `map(K, V)`.
    Map(Rc<CelType>, Rc<CelType>),
    /// `type(T)`: the type of a type value.
    Type(Rc<CelType>),
    /// `optional_type(T)`.
    Optional(Rc<CelType>),
    /// A type parameter of an overload (`A`), or a free type variable.
    Param(Rc<str>),
    /// An opaque (library) type with parameters: `kubernetes.Quantity`, `net.IP`, ...
    Opaque(Rc<str>, Rc<[CelType]>),
    /// An object with known fields (a Kubernetes schema object); selecting another field is an error.
    Object(Rc<ObjectType>),
}

/// An object type from a schema: named fields and, for unknown names, whether they are allowed.
#[derive(Clone, Debug, PartialEq)]
pub struct ObjectType {
    /// The type's name in messages.
    pub name: String,
    /// Declared fields.
    pub fields: BTreeMap<String, CelType>,
}

impl fmt::Display for CelType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CelType::Dyn => f.write_str("dyn"),
            CelType::Null => f.write_str("null_type"),
            CelType::Bool => f.write_str("bool"),
            CelType::Int => f.write_str("int"),
            CelType::Uint => f.write_str("uint"),
            CelType::Double => f.write_str("double"),
            CelType::String => f.write_str("string"),
            CelType::Bytes => f.write_str("bytes"),
            CelType::Timestamp => f.write_str("google.protobuf.Timestamp"),
            CelType::Duration => f.write_str("google.protobuf.Duration"),
            CelType::List(t) => write!(f, "list({t})"),
            CelType::Map(k, v) => write!(f, "map({k}, {v})"),
            CelType::Type(t) => write!(f, "type({t})"),
            CelType::Optional(t) => write!(f, "optional_type({t})"),
            CelType::Param(p) => f.write_str(p),
            CelType::Opaque(n, params) if params.is_empty() => f.write_str(n),
            CelType::Opaque(n, params) => {
                write!(f, "{n}(")?;
                for (i, p) in params.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{p}")?;
                }
                f.write_str(")")
            }
            CelType::Object(o) => f.write_str(&o.name),
        }
    }
}

/// A type as cel-go's checker prints it in messages (`FormatCELType`): `null`, `timestamp`,
/// `duration`, `type`, and unbound type parameters as `dyn`.
pub(crate) fn go_name(t: &CelType) -> String {
    match t {
        CelType::Null => String::from("null"),
        CelType::Timestamp => String::from("timestamp"),
        CelType::Duration => String::from("duration"),
        CelType::Param(_) => String::from("dyn"),
        CelType::Type(inner) if matches!(**inner, CelType::Dyn | CelType::Param(_)) => String::from("type"),
        CelType::Type(inner) => format!("type({})", go_name(inner)),
        CelType::List(inner) => format!("list({})", go_name(inner)),
        CelType::Map(k, v) => format!("map({}, {})", go_name(k), go_name(v)),
        CelType::Optional(inner) => format!("optional_type({})", go_name(inner)),
        CelType::Opaque(n, params) if !params.is_empty() => {
            format!("{n}({})", params.iter().map(go_name).collect::<Vec<_>>().join(", "))
        }
        other => format!("{other}"),
    }
}

/// A call's argument types as cel-go's `formatFunctionDeclType` prints them: `(int, string)`, or
/// for a method `string.(int)` (the receiver, then the arguments).
pub(super) fn go_signature(all: &[CelType], member: bool) -> String {
    let names: Vec<String> = all.iter().map(go_name).collect();
    match (member, names.split_first()) {
        (true, Some((recv, rest))) => format!("{recv}.({})", rest.join(", ")),
        _ => format!("({})", names.join(", ")),
    }
}

/// `list(t)`.
pub(crate) fn list(t: CelType) -> CelType {
    CelType::List(Rc::new(t))
}

/// `map(k, v)`.
pub(crate) fn map(k: CelType, v: CelType) -> CelType {
    CelType::Map(Rc::new(k), Rc::new(v))
}

/// `optional_type(t)`.
pub(crate) fn optional(t: CelType) -> CelType {
    CelType::Optional(Rc::new(t))
}

/// The type of a literal.
pub(super) fn literal_type(v: &Value) -> CelType {
    match v {
        Value::Null => CelType::Null,
        Value::Bool(_) => CelType::Bool,
        Value::Int(_) => CelType::Int,
        Value::Uint(_) => CelType::Uint,
        Value::Double(_) => CelType::Double,
        Value::String(_) => CelType::String,
        Value::Bytes(_) => CelType::Bytes,
        _ => CelType::Dyn,
    }
}

/// The type a type name denotes.
/// A type's name used as a value (`int`, `list`, `net.IP`): what cel-go declares as a type
/// identifier. Not `dyn`, which cel-go declares as a function only (`dyn(x)`): `dyn` alone is
/// an undeclared reference.
pub(crate) fn type_value(name: &str) -> Option<CelType> {
    type_ident(name).filter(|_| name != "dyn")
}

pub(crate) fn type_ident(name: &str) -> Option<CelType> {
    use CelType as T;
    Some(match name {
        "int" => T::Int,
        "uint" => T::Uint,
        "double" => T::Double,
        "bool" => T::Bool,
        "string" => T::String,
        "bytes" => T::Bytes,
        "null_type" => T::Null,
        "list" => list(T::Dyn),
        "map" => map(T::Dyn, T::Dyn),
        "type" => T::Type(Rc::new(T::Dyn)),
        "dyn" => T::Dyn,
        "google.protobuf.Timestamp" => T::Timestamp,
        "google.protobuf.Duration" => T::Duration,
        "optional_type" => optional(T::Dyn),
        // Only these two are registered with the environment (apiserver pkg/cel/library ip.go,
        // cidr.go: `cel.Types(...)`); kubernetes.Quantity, URL and Semver are object types the
        // checker cannot resolve by name (`undeclared reference to 'kubernetes'`).
        "net.IP" | "net.CIDR" => T::Opaque(Rc::from(name), Rc::from([])),
        _ => return None,
    })
}
