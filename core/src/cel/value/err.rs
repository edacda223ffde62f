//! How a function fails on its operands: a message, and cel-go's "no such overload" in the
//! forms its interpreter gives (common/types/err.go and the interpreter's dispatch).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::Value;

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
