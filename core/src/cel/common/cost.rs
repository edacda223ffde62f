//! The cost model's constants (cel-go `common/cost.go`), shared by the runtime cost, the
//! libraries' costs and the static estimate.

/// Reading a variable or selecting a field (`common.SelectAndIdentCost`).
pub const SELECT: u64 = 1;
/// Creating a list (`common.ListCreateBaseCost`).
pub const LIST_CREATE: u64 = 10;
/// Creating a map (`common.MapCreateBaseCost`).
pub const MAP_CREATE: u64 = 30;
/// `common.StringTraversalCostFactor`.
pub(crate) const STRING_TRAVERSAL: f64 = 0.1;
/// `common.RegexStringLengthCostFactor`.
pub(crate) const REGEX_LENGTH: f64 = 0.25;

/// `ceil(size * factor)`, as cel-go's cost functions round (in integers: `libm::ceil` is a
/// software routine on every call, and this runs on every string function call). Sizes
/// beyond 2^53 lose precision as Go's float64 does; the cast saturates.
pub(crate) fn ceil_factor(size: u64, factor: f64) -> u64 {
    let x = size as f64 * factor;
    let t = x as u64;
    if (t as f64) < x {
        t.saturating_add(1)
    } else {
        t
    }
}
