//! The declared overloads of CEL's standard library, cel-go's extensions and Kubernetes'
//! libraries, written as signature strings (`int,int->int`, `list(A),A->int`), and their
//! parser. What each function's overloads are, and at which library version, is in the
//! comments beside them (apiserver `pkg/cel/library`, cel-go `ext/`).

use alloc::format;
use alloc::rc::Rc;
use alloc::vec::Vec;

use super::types::{list, map, optional, type_ident, CelType};

/// Parses a signature such as `int,int->int` or `list(A),list(A)->list(A)`; type parameters get
/// names unique to this use (`A` → `A#n`).
pub(super) fn parse_signature(sig: &str, n: usize) -> Option<(Vec<CelType>, CelType)> {
    let (params, result) = sig.split_once("->")?;
    let params = if params.is_empty() {
        Vec::new()
    } else {
        split_top(params).into_iter().map(|p| parse_type(p, n)).collect::<Option<Vec<_>>>()?
    };
    Some((params, parse_type(result, n)?))
}

fn split_top(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0;
    let mut start = 0;
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&s[start..]);
    out
}

fn parse_type(s: &str, n: usize) -> Option<CelType> {
    use CelType as T;
    let s = s.trim();
    if let Some(inner) = s.strip_prefix("list(").and_then(|r| r.strip_suffix(')')) {
        return Some(list(parse_type(inner, n)?));
    }
    if let Some(inner) = s.strip_prefix("optional(").and_then(|r| r.strip_suffix(')')) {
        return Some(optional(parse_type(inner, n)?));
    }
    if let Some(inner) = s.strip_prefix("type(").and_then(|r| r.strip_suffix(')')) {
        return Some(T::Type(Rc::new(parse_type(inner, n)?)));
    }
    if let Some(inner) = s.strip_prefix("map(").and_then(|r| r.strip_suffix(')')) {
        let parts = split_top(inner);
        return Some(map(parse_type(parts.first()?, n)?, parse_type(parts.get(1)?, n)?));
    }
    Some(match s {
        "A" | "B" => T::Param(Rc::from(format!("{s}#{n}").as_str())),
        "timestamp" => T::Timestamp,
        "duration" => T::Duration,
        "null" => T::Null,
        other => type_ident(other).unwrap_or_else(|| T::Opaque(Rc::from(other), Rc::from([]))),
    })
}

const NUMERIC_RELATIONS: &[&str] = &[
    "bool,bool->bool",
    "int,int->bool",
    "uint,uint->bool",
    "double,double->bool",
    "string,string->bool",
    "bytes,bytes->bool",
    "timestamp,timestamp->bool",
    "duration,duration->bool",
    "int,uint->bool",
    "int,double->bool",
    "uint,int->bool",
    "uint,double->bool",
    "double,int->bool",
    "double,uint->bool",
];

const Q: &str = "kubernetes.Quantity";

/// The overloads of a function: for methods the receiver is the first parameter.
pub(super) fn signatures(name: &str, member: bool) -> &'static [&'static str] {
    if member {
        return match name {
            "size" => &["string->int", "bytes->int", "list(A)->int", "map(A,B)->int"],
            "contains" | "startsWith" | "endsWith" | "matches" => &["string,string->bool"],
            "getFullYear" | "getMonth" | "getDate" | "getDayOfMonth" | "getDayOfWeek" | "getDayOfYear" => {
                &["timestamp->int", "timestamp,string->int"]
            }
            "getHours" | "getMinutes" | "getSeconds" | "getMilliseconds" => {
                &["timestamp->int", "timestamp,string->int", "duration->int"]
            }
            "value" => &["optional(A)->A"],
            "hasValue" => &["optional(A)->bool"],
            "or" => &["optional(A),optional(A)->optional(A)"],
            "orValue" => &["optional(A),A->A"],
            "charAt" => &["string,int->string"],
            "indexOf" | "lastIndexOf" => &["string,string->int", "string,string,int->int", "list(A),A->int"],
            // Kubernetes lists library v1 (1.37): `list_includes_dyn_dyn`.
            "includes" => &["dyn,dyn->bool"],
            "lowerAscii" | "upperAscii" | "trim" => &["string->string"],
            // Strings v2 (Kubernetes' version) has no string `reverse` (it came in v3); ext
            // lists v3 reverses lists.
            "reverse" => &["list(A)->list(A)"],
            "replace" => &["string,string,string->string", "string,string,string,int->string"],
            "split" => &["string,string->list(string)", "string,string,int->list(string)"],
            "substring" => &["string,int->string", "string,int,int->string"],
            "join" => &["list(string)->string", "list(string),string->string"],
            "format" => &["string,list(dyn)->string"],
            // apiserver pkg/cel/library/lists.go: per element type (`comparableTypes`,
            // `summableTypes`).
            "isSorted" => &[
                "list(int)->bool",
                "list(uint)->bool",
                "list(double)->bool",
                "list(bool)->bool",
                "list(duration)->bool",
                "list(timestamp)->bool",
                "list(string)->bool",
                "list(bytes)->bool",
            ],
            "min" | "max" => &[
                "list(int)->int",
                "list(uint)->uint",
                "list(double)->double",
                "list(bool)->bool",
                "list(duration)->duration",
                "list(timestamp)->timestamp",
                "list(string)->string",
                "list(bytes)->bytes",
            ],
            "sum" => &["list(int)->int", "list(uint)->uint", "list(double)->double", "list(duration)->duration"],
            "distinct" => &["list(A)->list(A)"],
            // ext/lists.go: `sort` and `@sortByAssociatedKeys` (what `sortBy` expands to) are
            // declared for each comparable element type.
            "sort" => &[
                "list(int)->list(int)",
                "list(uint)->list(uint)",
                "list(double)->list(double)",
                "list(bool)->list(bool)",
                "list(duration)->list(duration)",
                "list(timestamp)->list(timestamp)",
                "list(string)->list(string)",
                "list(bytes)->list(bytes)",
            ],
            "@sortByAssociatedKeys" => &[
                "list(A),list(int)->list(A)",
                "list(A),list(uint)->list(A)",
                "list(A),list(double)->list(A)",
                "list(A),list(bool)->list(A)",
                "list(A),list(duration)->list(A)",
                "list(A),list(timestamp)->list(A)",
                "list(A),list(string)->list(A)",
                "list(A),list(bytes)->list(A)",
            ],
            // ext/lists.go (v0.29.2): `list_flatten` for lists of lists, `list_flatten_int` for any.
            "flatten" => &["list(list(A))->list(A)", "list(dyn),int->list(dyn)"],
            "slice" => &["list(A),int,int->list(A)"],
            "first" | "last" => &["list(A)->optional(A)"],
            "unwrapOpt" => &["list(optional(A))->list(A)"],
            "find" => &["string,string->string"],
            "findAll" => &["string,string->list(string)", "string,string,int->list(string)"],
            // Kubernetes library types.
            "isInteger" => &["kubernetes.Quantity->bool"],
            "asInteger" => &["kubernetes.Quantity->int"],
            "asApproximateFloat" => &["kubernetes.Quantity->double"],
            "add" | "sub" => &[
                "kubernetes.Quantity,kubernetes.Quantity->kubernetes.Quantity",
                "kubernetes.Quantity,int->kubernetes.Quantity",
            ],
            "isGreaterThan" | "isLessThan" => {
                &["kubernetes.Quantity,kubernetes.Quantity->bool", "kubernetes.Semver,kubernetes.Semver->bool"]
            }
            "compareTo" => {
                &["kubernetes.Quantity,kubernetes.Quantity->int", "kubernetes.Semver,kubernetes.Semver->int"]
            }
            "major" | "minor" | "patch" => &["kubernetes.Semver->int"],
            "family" => &["net.IP->int"],
            "isUnspecified" | "isLoopback" | "isLinkLocalMulticast" | "isLinkLocalUnicast" | "isGlobalUnicast" => {
                &["net.IP->bool"]
            }
            "containsIP" => &["net.CIDR,string->bool", "net.CIDR,net.IP->bool"],
            "containsCIDR" => &["net.CIDR,string->bool", "net.CIDR,net.CIDR->bool"],
            "ip" => &["net.CIDR->net.IP"],
            "masked" => &["net.CIDR->net.CIDR"],
            "prefixLength" => &["net.CIDR->int"],
            "getScheme" | "getHost" | "getHostname" | "getPort" | "getEscapedPath" => &["kubernetes.URL->string"],
            "getQuery" => &["kubernetes.URL->map(string,list(string))"],
            "validate" => &["kubernetes.NamedFormat,string->optional(list(string))"],
            // The authorizer library (apiserver pkg/cel/library/authz.go).
            #[cfg(feature = "policy")]
            "path" => &["kubernetes.authorization.Authorizer,string->kubernetes.authorization.PathCheck"],
            #[cfg(feature = "policy")]
            "group" => &["kubernetes.authorization.Authorizer,string->kubernetes.authorization.GroupCheck"],
            #[cfg(feature = "policy")]
            "serviceAccount" => {
                &["kubernetes.authorization.Authorizer,string,string->kubernetes.authorization.Authorizer"]
            }
            #[cfg(feature = "policy")]
            "resource" => &["kubernetes.authorization.GroupCheck,string->kubernetes.authorization.ResourceCheck"],
            #[cfg(feature = "policy")]
            "subresource" | "namespace" | "name" | "fieldSelector" | "labelSelector" => {
                &["kubernetes.authorization.ResourceCheck,string->kubernetes.authorization.ResourceCheck"]
            }
            #[cfg(feature = "policy")]
            "check" => &[
                "kubernetes.authorization.PathCheck,string->kubernetes.authorization.Decision",
                "kubernetes.authorization.ResourceCheck,string->kubernetes.authorization.Decision",
            ],
            #[cfg(feature = "policy")]
            "allowed" | "errored" => &["kubernetes.authorization.Decision->bool"],
            #[cfg(feature = "policy")]
            "reason" | "error" => &["kubernetes.authorization.Decision->string"],
            _ => &[],
        };
    }
    let _ = Q;
    match name {
        "_+_" => &[
            "int,int->int",
            "uint,uint->uint",
            "double,double->double",
            "string,string->string",
            "bytes,bytes->bytes",
            "list(A),list(A)->list(A)",
            "timestamp,duration->timestamp",
            "duration,timestamp->timestamp",
            "duration,duration->duration",
        ],
        "_-_" => &[
            "int,int->int",
            "uint,uint->uint",
            "double,double->double",
            "timestamp,timestamp->duration",
            "timestamp,duration->timestamp",
            "duration,duration->duration",
        ],
        "_*_" | "_/_" => &["int,int->int", "uint,uint->uint", "double,double->double"],
        "_%_" => &["int,int->int", "uint,uint->uint"],
        "-_" => &["int->int", "double->double"],
        "!_" => &["bool->bool"],
        "_==_" | "_!=_" => &["A,A->bool"],
        "_<_" | "_<=_" | "_>_" | "_>=_" => NUMERIC_RELATIONS,
        "@in" => &["A,list(A)->bool", "A,map(A,B)->bool"],
        "size" => &["string->int", "bytes->int", "list(A)->int", "map(A,B)->int"],
        "int" => &["int->int", "uint->int", "double->int", "duration->int", "string->int", "timestamp->int"],
        "uint" => &["int->uint", "uint->uint", "double->uint", "string->uint"],
        "double" => &["int->double", "uint->double", "double->double", "string->double"],
        "string" => &[
            "int->string",
            "uint->string",
            "double->string",
            "bool->string",
            "bytes->string",
            "string->string",
            "timestamp->string",
            "duration->string",
            "net.IP->string",
            "net.CIDR->string",
        ],
        // quantity.go declares `sign` as a global overload (`cel.Overload`, not a member).
        "sign" => &["kubernetes.Quantity->int"],
        "bytes" => &["string->bytes", "bytes->bytes"],
        "bool" => &["bool->bool", "string->bool"],
        "timestamp" => &["string->timestamp", "timestamp->timestamp", "int->timestamp"],
        "duration" => &["string->duration", "duration->duration"],
        "dyn" => &["A->dyn"],
        "matches" => &["string,string->bool"],
        "optional.of" | "optional.ofNonZeroValue" => &["A->optional(A)"],
        "optional.none" => &["->optional(A)"],
        "optional.unwrap" => &["list(optional(A))->list(A)"],
        "strings.quote" => &["string->string"],
        "lists.range" => &["int->list(int)"],
        "base64.encode" => &["bytes->string"],
        "base64.decode" => &["string->bytes"],
        "math.ceil" | "math.floor" | "math.round" | "math.trunc" => &["double->double"],
        "math.abs" | "math.sign" => &["int->int", "uint->uint", "double->double"],
        "math.isInf" | "math.isNaN" | "math.isFinite" => &["double->bool"],
        "math.bitAnd" | "math.bitOr" | "math.bitXor" => &["int,int->int", "uint,uint->uint"],
        "math.bitNot" => &["int->int", "uint->uint"],
        "math.bitShiftLeft" | "math.bitShiftRight" => &["int,int->int", "uint,int->uint"],
        "math.sqrt" => &["int->double", "uint->double", "double->double"],
        "sets.contains" | "sets.equivalent" | "sets.intersects" => &["list(A),list(A)->bool"],
        "quantity" => &["string->kubernetes.Quantity"],
        "ip" => &["string->net.IP"],
        "cidr" => &["string->net.CIDR"],
        "url" => &["string->kubernetes.URL"],
        "semver" => &["string->kubernetes.Semver", "string,bool->kubernetes.Semver"],
        "isQuantity" | "isIP" | "isCIDR" | "isURL" | "ip.isCanonical" => &["string->bool"],
        "isSemver" => &["string->bool", "string,bool->bool"],
        "format.named" => &["string->optional(kubernetes.NamedFormat)"],
        _ if name.starts_with("format.") => &["->kubernetes.NamedFormat"],
        _ => &[],
    }
}
