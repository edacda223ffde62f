//! Runtime cost, as Kubernetes tracks it: cel-go's interpreter costs (`interpreter/runtimecost.go`,
//! constants from `common/cost.go`) with the Kubernetes libraries' costs taking precedence
//! (apiserver `pkg/cel/library/cost.go`, `CostEstimator.CallCost`).

use crate::cel::common::REGEX_LENGTH;
pub(crate) use crate::cel::common::{ceil_factor, STRING_TRAVERSAL};
pub use crate::cel::common::{LIST_CREATE, MAP_CREATE, SELECT};
use crate::cel::k8s;
use crate::cel::syntax::Builtin;
pub use crate::cel::value::actual_size;
use crate::cel::value::Value;

/// The per-expression runtime cost limit of Kubernetes validation rules
/// (apiextensions-apiserver `celconfig.PerCallLimit`).
pub const PER_CALL_LIMIT: u64 = 1_000_000;
/// The runtime cost budget of all rules of one object (`celconfig.RuntimeCELCostBudget`).
pub const RUNTIME_BUDGET: u64 = 10_000_000;

/// Kubernetes' `traversalCost`: a walk over a value (note: truncated, not rounded up).
fn traversal(v: &Value) -> u64 {
    match v {
        Value::String(s) => (s.len() as f64 * STRING_TRAVERSAL) as u64,
        Value::Bytes(b) => (b.len() as f64 * STRING_TRAVERSAL) as u64,
        Value::List(items) => items.iter().fold(0u64, |acc, v| acc.saturating_add(traversal(v))),
        Value::Map(m) => {
            m.iter().fold(0u64, |acc, (k, v)| acc.saturating_add(traversal(&k.to_value())).saturating_add(traversal(v)))
        }
        _ => 1,
    }
}

/// cel-go `trackAllocatingListCall`: `uint64(size * factor)` (truncated) plus the call and
/// the list allocation.
fn allocating_list(factor: f64, size: u64) -> u64 {
    let factor = if factor < 0.0 { 1.0 } else { factor };
    ((size as f64 * factor) as u64).saturating_add(1).saturating_add(LIST_CREATE)
}

/// cel-go `trackListSelfCompare`: n² comparisons, dearer for strings and bytes.
fn self_compare(list: &Value) -> u64 {
    let Value::List(items) = list else { return 1 };
    let factor = match items.first() {
        Some(Value::String(_) | Value::Bytes(_)) => 2.0 + STRING_TRAVERSAL,
        _ => 2.0,
    };
    let n = items.len() as u64;
    allocating_list(factor, n.saturating_mul(n))
}

fn regex_cost(s: &Value, re: &Value) -> u64 {
    ceil_factor(1 + actual_size(s), STRING_TRAVERSAL).saturating_mul(ceil_factor(actual_size(re), REGEX_LENGTH))
}

/// The cost of one call; `args` are the receiver (if any) followed by the arguments.
pub fn call_cost(b: Builtin, name: &str, recv: Option<&Value>, args: &[Value]) -> u64 {
    use Builtin as B;
    let first = recv.or(args.first());
    let second = if recv.is_some() { args.first() } else { args.get(1) };
    let size0 = || first.map_or(0, actual_size);
    let is_str = |v: Option<&Value>| matches!(v, Some(Value::String(_) | Value::Bytes(_)));
    match b {
        // Kubernetes library costs.
        B::IsSorted
        | B::Sum
        | B::SumUint
        | B::SumDouble
        | B::SumDuration
        | B::Max
        | B::Min
        | B::IndexOf
        | B::LastIndexOf
        | B::Includes => first.map_or(0, traversal),
        B::Url | B::LowerAscii | B::UpperAscii | B::Substring | B::Trim => ceil_factor(size0(), STRING_TRAVERSAL),
        B::Replace | B::Split | B::IpIsCanonical => ceil_factor(size0(), 2.0 * STRING_TRAVERSAL),
        B::Join => {
            // The result's size: the elements and the separators.
            let (Some(Value::List(items)), sep) = (first, second) else { return 1 };
            let sep = sep.map_or(0, actual_size);
            let total = items
                .iter()
                .fold(0u64, |a, v| a.saturating_add(actual_size(v)))
                .saturating_add(sep.saturating_mul(items.len().saturating_sub(1) as u64));
            ceil_factor(total, 2.0 * STRING_TRAVERSAL)
        }
        B::Find | B::FindAll => match (first, second) {
            (Some(s), Some(re)) => regex_cost(s, re),
            _ => 1,
        },
        B::Cidr | B::IsIp | B::IsCidr | B::Quantity | B::IsQuantity | B::Semver | B::IsSemver => {
            ceil_factor(size0(), STRING_TRAVERSAL)
        }
        B::Ip => match first {
            Some(Value::String(_)) => ceil_factor(size0(), STRING_TRAVERSAL),
            _ => 1,
        },
        B::ObjectMethod => k8s::method_cost(name, recv, args),
        // cel-go `ext/lists.go` (version 3) cost trackers: a call, a list allocation, and the
        // output size (`lists.range`, `slice`, `reverse`), the input times the depth
        // (`flatten`) or a worst-case O(n²) comparison (`distinct`, `sort`, `sortBy`'s keys).
        // `lists.range` is charged before its list is built (kubedv's guard); a size it refuses
        // (negative, over 1,000,000) is an error, with the call's cost.
        B::ListsRange => match first {
            Some(Value::Int(n @ 0..=1_000_000)) => allocating_list(1.0, *n as u64),
            _ => 1,
        },
        B::Reverse if matches!(first, Some(Value::List(_))) => allocating_list(1.0, size0()),
        B::Slice => match (args.first(), args.get(1)) {
            (Some(Value::Int(start)), Some(Value::Int(end))) if end >= start => {
                allocating_list(1.0, end.abs_diff(*start))
            }
            _ => allocating_list(1.0, 0),
        },
        B::Flatten => {
            let depth = match args.first() {
                Some(Value::Int(d)) => *d as f64,
                _ => 1.0,
            };
            allocating_list(depth, size0())
        }
        B::Distinct | B::Sort => first.map_or(1, self_compare),
        B::SortByKeys => second.map_or(1, self_compare),
        // cel-go `ext/sets.go`: a comparison per pair of elements (both ways for equivalent).
        B::SetsContains | B::SetsIntersects | B::SetsEquivalent => {
            let pairs = first.map_or(0, actual_size).saturating_mul(second.map_or(0, actual_size));
            1u64.saturating_add(if b == B::SetsEquivalent { pairs.saturating_mul(2) } else { pairs })
        }
        // cel-go's costs.
        // Only the prefix or suffix is traversed (celcoststability: `startsWith('Rook')` is 1).
        B::StartsWith | B::EndsWith => ceil_factor(second.map_or(0, actual_size), STRING_TRAVERSAL),
        B::Quote | B::Format | B::JsonPatchEscapeKey => ceil_factor(size0(), STRING_TRAVERSAL),
        B::Bytes | B::String
            if is_str(first)
                && !matches!((b, first), (B::Bytes, Some(Value::Bytes(_))) | (B::String, Some(Value::String(_)))) =>
        {
            ceil_factor(size0(), STRING_TRAVERSAL)
        }
        // cel-go's set membership is not a call: only its operands cost.
        B::InSet => 0,
        B::In => match second {
            Some(Value::List(l)) => l.len() as u64,
            _ => 1,
        },
        B::Eq | B::Ne => {
            if matches!(first, Some(Value::Object(_))) {
                return 1;
            }
            let min = size0().min(second.map_or(0, actual_size));
            ceil_factor(min, STRING_TRAVERSAL)
        }
        B::Lt | B::Le | B::Gt | B::Ge if is_str(first) && is_str(second) => {
            let min = size0().min(second.map_or(0, actual_size));
            ceil_factor(min, STRING_TRAVERSAL)
        }
        B::Add if is_str(first) && is_str(second) => {
            ceil_factor(size0().saturating_add(second.map_or(0, actual_size)), STRING_TRAVERSAL)
        }
        B::Matches => match (first, second) {
            (Some(s), Some(re)) => regex_cost(s, re),
            _ => 1,
        },
        B::Contains => match (first, second) {
            (Some(s), Some(sub)) => ceil_factor(actual_size(s), STRING_TRAVERSAL)
                .saturating_mul(ceil_factor(actual_size(sub), STRING_TRAVERSAL)),
            _ => 1,
        },
        _ => 1,
    }
}
