//! A call of a function on evaluated operands: the one place that names every library. The
//! binary operators go first (most calls in rules); any other function goes to its family —
//! the standard library, cel-go's extensions, the Kubernetes libraries — which answers, or has
//! no overload for the operands; those fall through to a Kubernetes object's methods, else
//! "no such overload".

use alloc::format;
use alloc::vec::Vec;

use crate::cel::ext;
use crate::cel::k8s;
use crate::cel::library::{conversions, datetime, operators, optionals, strings, Call, RegexCache};
use crate::cel::syntax::Builtin;
use crate::cel::value::{Fail, Value};

/// Calls a function on evaluated arguments (`recv`, the receiver of a method call).
pub(crate) fn call(
    b: Builtin,
    name: &str,
    recv: Option<&Value>,
    args: &[Value],
    regexes: &RegexCache,
) -> Result<Value, Fail> {
    if let (None, [x, y]) = (recv, args) {
        if let Some(r) = operators::binary(b, x, y) {
            return r;
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
    let c = Call { name, method: recv.is_some(), all, a0, rest, regexes };
    let answered = family(b, &c);
    answered.unwrap_or_else(|| match b {
        Builtin::Unknown => Err(format!("undeclared reference to '{name}' (in container '')")),
        _ => k8s::object_method(&c).unwrap_or_else(|| Err(c.bad())),
    })
}

/// The library a function belongs to, asked to answer the call.
fn family(b: Builtin, c: &Call<'_>) -> Option<Result<Value, Fail>> {
    use Builtin as B;
    match b {
        B::Add
        | B::Sub
        | B::Mul
        | B::Div
        | B::Mod
        | B::Eq
        | B::Ne
        | B::Lt
        | B::Le
        | B::Gt
        | B::Ge
        | B::In
        | B::Not
        | B::Neg
        | B::Size => operators::call(b, c),
        B::Int
        | B::Uint
        | B::Double
        | B::String
        | B::Bytes
        | B::Bool
        | B::Type
        | B::Dyn
        | B::Timestamp
        | B::Duration => conversions::call(b, c),
        B::Matches | B::Contains | B::StartsWith | B::EndsWith => strings::call(b, c),
        B::GetFullYear
        | B::GetMonth
        | B::GetDate
        | B::GetDayOfMonth
        | B::GetDayOfWeek
        | B::GetDayOfYear
        | B::GetHours
        | B::GetMinutes
        | B::GetSeconds
        | B::GetMilliseconds => datetime::call(b, c),
        B::OptionalOf
        | B::OptionalOfNonZero
        | B::OptionalNone
        | B::OptionalUnwrap
        | B::OptValue
        | B::OptHasValue
        | B::OptOr
        | B::OptOrValue => optionals::call(b, c),
        // Of a list, the Kubernetes lists library's; of a string, the strings extension's.
        B::IndexOf | B::LastIndexOf => k8s::call(b, c).or_else(|| ext::strings::call(b, c)),
        B::CharAt
        | B::LowerAscii
        | B::UpperAscii
        | B::Replace
        | B::Split
        | B::Substring
        | B::Trim
        | B::Join
        | B::Quote
        | B::Format => ext::strings::call(b, c),
        B::ListsRange
        | B::Distinct
        | B::Flatten
        | B::Slice
        | B::Sort
        | B::SortByKeys
        | B::First
        | B::Last
        | B::Reverse => ext::lists::call(b, c),
        B::SetsContains | B::SetsEquivalent | B::SetsIntersects => ext::sets::call(b, c),
        #[cfg(feature = "cel-extensions")]
        B::Base64Encode | B::Base64Decode => ext::encoders::call(b, c),
        #[cfg(feature = "cel-extensions")]
        B::MathGreatest
        | B::MathLeast
        | B::MathCeil
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
        | B::MathSqrt => ext::math::call(b, c),
        B::Includes
        | B::IsSorted
        | B::Sum
        | B::SumUint
        | B::SumDouble
        | B::SumDuration
        | B::Min
        | B::Max
        | B::Find
        | B::FindAll
        | B::IpIsCanonical
        | B::QuantitySign
        | B::Quantity
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
        | B::FormatByName
        | B::JsonPatchEscapeKey => k8s::call(b, c),
        // `InSet` (the folded `in`, with its operands), a Kubernetes object's methods, unknown
        // functions, and the extensions built without their feature.
        _ => None,
    }
}
