//! The estimated cost of each function, as cel-go's `checker/cost.go` and the Kubernetes
//! libraries' estimators (apiserver `pkg/cel/library/cost.go`) give it.

use super::sized::{Hint, UNBOUNDED};
use super::{ceil_factor, list_call, mul, Info};
use crate::cel::common::{REGEX_LENGTH, STRING_TRAVERSAL};
#[cfg(feature = "policy")]
use crate::cel::k8s::authz;
use crate::cel::syntax::Builtin;

/// The estimated cost (min, max) of one call, the size of its result and what it is.
/// `pathless`: the call's target (if any) is not a path into a variable, so the elements of a
/// list it gives have no schema size (library cost.go `listElementNode`).
pub(super) fn call_estimate(
    b: Builtin,
    name: &str,
    infos: &[Info],
    consts: &[Option<u64>],
    pathless: bool,
) -> (u64, u64, u64, Hint) {
    use Builtin as B;
    let size = |i: usize| infos.get(i).map_or(0, |x| x.size);
    let hint = |i: usize| infos.get(i).map_or(Hint::Unknown, |x| x.hint);
    let sized = |h: Hint| matches!(h, Hint::Str | Hint::Bytes | Hint::Container | Hint::Unknown);
    let traversal = |i: usize| ceil_factor(size(i), STRING_TRAVERSAL);
    let fixed = |c: u64, size: u64, h: Hint| (c, c, size, h);
    match b {
        // Numbers, booleans, times: a result of size 1.
        B::Size
        | B::Int
        | B::Uint
        | B::Double
        | B::Bool
        | B::Timestamp
        | B::Duration
        | B::Neg
        | B::Mul
        | B::Div
        | B::Mod
        | B::Sub => fixed(1, 1, Hint::Other),
        B::Not => fixed(1, 1, Hint::Other),
        B::Type => fixed(1, UNBOUNDED, Hint::Other),
        B::Dyn => fixed(1, size(0), hint(0)),
        // cost.go `_==_` of two URLs: 1 to the traversal of the right one (it reads the
        // right operand's size twice).
        B::Eq | B::Ne if hint(0) == Hint::Url && hint(1) == Hint::Url => (1, traversal(1).max(1), 1, Hint::Other),
        // Equality traverses the smaller operand; sizes of schema scalars are 0.
        // An unknown size (optionals, types) is MaxUint64 there, times 0.1 in float64.
        B::Eq | B::Ne => {
            let t = |i: usize| match size(i) {
                UNBOUNDED => (UNBOUNDED as f64 * STRING_TRAVERSAL) as u64,
                _ => traversal(i),
            };
            fixed(t(0).min(t(1)), 1, Hint::Other)
        }
        B::Lt | B::Le | B::Gt | B::Ge if sized(hint(0)) && sized(hint(1)) && hint(0) != Hint::Container => {
            fixed(traversal(0).min(traversal(1)).max(1), 1, Hint::Other)
        }
        B::Lt | B::Le | B::Gt | B::Ge => fixed(1, 1, Hint::Other),
        B::Add if matches!(hint(0), Hint::Str | Hint::Bytes) => {
            let total = size(0).saturating_add(size(1));
            fixed(ceil_factor(total, STRING_TRAVERSAL), total, hint(0))
        }
        // A sum of numbers, times or durations is a scalar: cel-go `computeTypeSize` gives it
        // size 1 (it is not a schema value, whose scalars have size 0).
        B::Add if hint(0) == Hint::Other && hint(1) == Hint::Other => fixed(1, 1, Hint::Other),
        B::Add => fixed(
            1,
            size(0).saturating_add(size(1)),
            if hint(0) == Hint::Container { Hint::Container } else { Hint::Other },
        ),
        B::In if hint(1) == Hint::Container && !infos.get(1).is_some_and(|i| i.ty.as_ref().is_some_and(|t| t.map)) => {
            fixed(size(1), 1, Hint::Other)
        }
        B::In => fixed(1, 1, Hint::Other),
        B::InSet => fixed(0, 1, Hint::Other),
        B::String if matches!(hint(0), Hint::Bytes) => fixed(traversal(0), UNBOUNDED, Hint::Str),
        B::String => fixed(1, UNBOUNDED, Hint::Str),
        B::Bytes if matches!(hint(0), Hint::Str) => fixed(traversal(0), UNBOUNDED, Hint::Bytes),
        B::Bytes => fixed(1, UNBOUNDED, Hint::Bytes),
        B::StartsWith | B::EndsWith => fixed(traversal(1), 1, Hint::Other),
        B::Contains => fixed(mul(traversal(0), traversal(1)), 1, Hint::Other),
        B::Matches | B::Find | B::FindAll => {
            let c = mul(ceil_factor(size(0).saturating_add(1), STRING_TRAVERSAL), ceil_factor(size(1), REGEX_LENGTH));
            let h = match b {
                B::Matches => Hint::Other,
                B::Find => Hint::Str,
                _ => Hint::Container,
            };
            fixed(c, if b == B::Matches { 1 } else { size(0) }, h)
        }
        B::LowerAscii | B::UpperAscii | B::Trim | B::Substring => fixed(traversal(0), size(0), Hint::Str),
        // cost.go: a URL's result size is its text's (its equality traverses it).
        B::Url => fixed(traversal(0), size(0), Hint::Url),
        B::JsonPatchEscapeKey => fixed(traversal(0), size(0), Hint::Str),
        B::Quantity | B::IsQuantity | B::Semver | B::IsSemver | B::Cidr | B::IsCidr | B::IsIp | B::Ip => {
            fixed(traversal(0), 1, Hint::Other)
        }
        // Parsed, then compared with the text: two traversals.
        B::IpIsCanonical => fixed(ceil_factor(size(0), 2.0 * STRING_TRAVERSAL), 1, Hint::Other),
        B::Replace => fixed(ceil_factor(size(0), 2.0 * STRING_TRAVERSAL), size(0), Hint::Str),
        B::Split => fixed(ceil_factor(size(0), 2.0 * STRING_TRAVERSAL), size(0), Hint::Container),
        B::IndexOf
        | B::LastIndexOf
        | B::Includes
        | B::IsSorted
        | B::Sum
        | B::SumUint
        | B::SumDouble
        | B::SumDuration
        | B::Min
        | B::Max => {
            // apiserver library cost.go: over a list, 1 per element, plus a traversal of each
            // element of a list of strings or bytes (its schema's bound, else none); over a
            // string (`indexOf`, `lastIndexOf`), a traversal; `includes` of a string compares
            // its size's worth.
            let elem = infos.first().and_then(|i| i.ty.as_ref()).and_then(|t| t.elem.as_ref());
            match (hint(0), elem) {
                (Hint::Container, Some(e)) if matches!(e.hint, Hint::Str | Hint::Bytes) => {
                    let each = if pathless { UNBOUNDED } else { e.max_elements };
                    let per = ceil_factor(each, STRING_TRAVERSAL).saturating_add(1);
                    (size(0), mul(size(0), per), 1, Hint::Other)
                }
                (Hint::Str | Hint::Bytes, _) if b != B::Includes => fixed(traversal(0), 1, Hint::Other),
                _ => fixed(size(0), 1, Hint::Other),
            }
        }
        B::CharAt => fixed(1, 1, Hint::Str),
        // cost.go `join`: the list's size times its elements' (their schema's, else unknown:
        // `listElementNode` has no path), plus the separator's times one less than the list's,
        // traversed at 0.1; the result is that size.
        B::Join => {
            let elem = infos.first().and_then(|i| i.ty.as_ref()).and_then(|t| t.elem.as_ref());
            let each = match elem {
                Some(e) if !pathless => e.max_elements,
                _ => UNBOUNDED,
            };
            let separators = if infos.len() > 1 { mul(size(1), size(0).saturating_sub(1)) } else { 0 };
            let total = mul(size(0), each).saturating_add(separators);
            (0, ceil_factor(total, STRING_TRAVERSAL), total, Hint::Str)
        }
        // cel-go `ext/lists.go` (version 3) estimators: a call and a list allocation (11) plus
        // the output size, the input times the depth, or n² comparisons (whose "result size"
        // cel-go also takes to be n²).
        B::ListsRange => {
            let n = consts.first().copied().flatten().unwrap_or(UNBOUNDED);
            fixed(list_call(n, 1.0), n, Hint::Container)
        }
        B::Slice => {
            let start = consts.get(1).copied().flatten().unwrap_or(0);
            let end = consts.get(2).copied().flatten().unwrap_or(size(0));
            let n = if end == UNBOUNDED { UNBOUNDED } else { end.wrapping_sub(start) };
            fixed(list_call(n, 1.0), n, Hint::Container)
        }
        B::Reverse if hint(0) == Hint::Container => {
            (list_call(0, 1.0), list_call(size(0), 1.0), size(0), Hint::Container)
        }
        B::Flatten => {
            let depth = if infos.len() > 1 { consts.get(1).copied().flatten().unwrap_or(UNBOUNDED) } else { 1 };
            let max = if depth == UNBOUNDED { UNBOUNDED } else { list_call(size(0), depth as f64) };
            (list_call(0, depth as f64), max, size(0), Hint::Container)
        }
        B::Distinct | B::Sort | B::SortByKeys => {
            let keys = if b == B::SortByKeys { 1 } else { 0 };
            let strings = infos.get(keys).and_then(|i| i.ty.as_ref()).and_then(|t| t.elem.as_ref()).map(|e| e.hint);
            let factor = match (b, strings) {
                (B::Distinct, _) => 2.0,
                (_, Some(Hint::Str | Hint::Bytes)) => 2.0 + STRING_TRAVERSAL,
                _ => 2.0,
            };
            let n = size(keys);
            let squared = if n == UNBOUNDED { UNBOUNDED } else { mul(n, n) };
            (list_call(0, factor), list_call(squared, factor), squared, Hint::Container)
        }
        B::ObjectMethod => match name {
            // Two IPs of 4 to 16 bytes compared (then the CIDR's bits: one more traversal and
            // 1), plus the parse of a string argument.
            "containsIP" | "containsCIDR" => {
                let (min, max) = if name == "containsIP" { (1, 4) } else { (3, 7) };
                let parse = if hint(1) == Hint::Str { traversal(1) } else { 0 };
                (min + parse, max + parse, 1, Hint::Other)
            }
            // The name's traversal times the largest named-format regex (128) at 0.25 a char.
            // The result, an `optional(list(string))`, has no size for cel-go's estimator
            // (apiserver library/cost.go gives no ResultSize; checker/cost.go `computeTypeSize`
            // sizes only scalars): `format.dns1123Label().validate(s) == optional.none()` is
            // refused on its estimated cost when a CRD is created (the real kube-apiserver
            // v1.37.2 through the oracle: apiextensions-expressions, validation_expressions.json
            // "format").
            "validate" => fixed(ceil_factor(traversal(1), 128.0 * REGEX_LENGTH), UNBOUNDED, Hint::Unknown),
            // The authorizer library's estimates are its runtime costs (`selectorCostEstimate` of
            // the selector's size).
            #[cfg(feature = "policy")]
            "check" => fixed(authz::CHECK_COST, 1, Hint::Other),
            #[cfg(feature = "policy")]
            "fieldSelector" | "labelSelector" => {
                let c = if size(1) == UNBOUNDED { UNBOUNDED } else { authz::selector_cost(size(1)) };
                fixed(c, 1, Hint::Other)
            }
            _ => fixed(1, UNBOUNDED, Hint::Unknown),
        },
        // An optional of a scalar has size 1 (cel-go `isScalar` of `optional_type(T)`); of
        // anything else, none (celcoststability: `optional.of('a') != optional.none()`).
        B::OptionalOf | B::OptionalOfNonZero => {
            let scalar = infos.first().is_some_and(|i| match &i.ty {
                Some(t) => t.scalar,
                None => i.hint == Hint::Other && i.size == 1,
            });
            if scalar {
                fixed(1, 1, Hint::Other)
            } else {
                fixed(1, UNBOUNDED, Hint::Unknown)
            }
        }
        B::SetsContains | B::SetsIntersects => fixed(mul(size(0), size(1)).saturating_add(1), 1, Hint::Other),
        B::SetsEquivalent => fixed(mul(2, mul(size(0), size(1))).saturating_add(1), 1, Hint::Other),
        _ => {
            let _ = name;
            fixed(1, UNBOUNDED, Hint::Unknown)
        }
    }
}
