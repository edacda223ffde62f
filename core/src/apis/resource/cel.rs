//! DRA's CEL selectors: `validateCELExpression` of `pkg/apis/resource/validation` and the
//! compiler of `k8s.io/dynamic-resource-allocation/cel` (`CompileCELExpression`) it calls, in
//! the environment the release's default gates pick (`DRAConsumableCapacity` on,
//! `DRAListTypeAttributes` off: the `device` variable of type `kubernetes.DRADevice` with
//! `allowMultipleAllocations`, `driver`, `attributes` and `capacity`), for new expressions.
//!
//! An attribute value has type `any` in Kubernetes; kubedv's checker has no `any`, so it is
//! `dyn` here, and an expression whose type is `dyn` passes the output check unless it calls
//! `dyn()`. `cel.bind` (cel-go's ext.Bindings, which the DRA environment adds) is not in
//! kubedv's environment: an expression using it is not judged.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;

use crate::cel::check::{CelType, Decls, ObjectType};
use crate::cel::estimate::{estimate, Hint, SizedType};
use crate::cel::{checker, display_error, environment, Program};
use crate::field::{Error, ErrorType, Path};

/// `CELSelectorExpressionMaxLength`.
const MAX_LENGTH: usize = 10 * 1024;
/// `CELSelectorExpressionMaxCost`.
pub(super) const MAX_COST: u64 = 1_000_000;
/// `DeviceClaimDerivedAttributeCELMaxCost`.
pub(super) const DERIVED_MAX_COST: u64 = 1_000_000;

/// What compiling an expression gives: its error, or its estimated cost.
enum Compiled {
    /// `CompilationResult.Error`: Invalid (with the detail) or Internal.
    Invalid(String),
    Internal(String),
    /// Not judged (`cel.bind`).
    Unknown,
    Cost(u64),
}

fn map(k: CelType, v: CelType) -> CelType {
    CelType::Map(Rc::new(k), Rc::new(v))
}

/// The `device` variable's type (`deviceTypeV134ConsumableCapacity`).
fn device_type() -> CelType {
    let quantity = CelType::Opaque(Rc::from("kubernetes.Quantity"), Rc::from([]));
    let mut fields = BTreeMap::new();
    fields.insert(String::from("allowMultipleAllocations"), CelType::Bool);
    fields.insert(String::from("driver"), CelType::String);
    fields.insert(String::from("attributes"), map(CelType::String, map(CelType::String, CelType::Dyn)));
    fields.insert(String::from("capacity"), map(CelType::String, map(CelType::String, quantity)));
    CelType::Object(Rc::new(ObjectType { name: String::from("kubernetes.DRADevice"), fields }))
}

fn sized(max_elements: u64, hint: Hint, scalar: bool) -> SizedType {
    SizedType { max_elements, min_size: 1, fields: BTreeMap::new(), elem: None, map: false, hint, scalar }
}

fn sized_map(max: u64, elem: SizedType) -> SizedType {
    SizedType { elem: Some(Rc::new(elem)), map: true, ..sized(max, Hint::Container, false) }
}

/// The sizes the DRA compiler's `sizeEstimator` knows: 32 attributes or capacities per device,
/// domains of 63 bytes, identifiers of 32, attribute values of 64, driver names of 63.
fn device_sized() -> SizedType {
    let mut device = sized(0, Hint::Other, false);
    device.fields.insert(String::from("allowMultipleAllocations"), Rc::new(sized(1, Hint::Other, true)));
    device.fields.insert(String::from("driver"), Rc::new(sized(63, Hint::Str, false)));
    device
        .fields
        .insert(String::from("attributes"), Rc::new(sized_map(32, sized_map(32, sized(64, Hint::Unknown, false)))));
    device.fields.insert(String::from("capacity"), Rc::new(sized_map(32, sized_map(32, sized(0, Hint::Other, true)))));
    device
}

/// `CompileCELExpression` with `EnvType: NewExpressions`.
fn compile(expression: &str, minor: u32, derived: bool) -> Compiled {
    let mut decls = Decls::default();
    decls.set_compatibility(environment::new_expressions(minor));
    decls.declare("device", device_type());
    let unoptimized = match Program::compile(expression) {
        Ok(p) => p,
        Err(e) => return Compiled::Invalid(display_error("compilation failed: ", &e, expression)),
    };
    let (output, checked) = match checker::check_kubernetes_overloads(&unoptimized, &decls) {
        Ok(t) => t,
        Err(_) if expression.contains("cel.bind") => return Compiled::Unknown,
        Err(e) => return Compiled::Invalid(display_error("compilation failed: ", &e, expression)),
    };
    // validateOutputType.
    if derived {
        // DRAListTypeAttributes is off: no lists.
        let ok = matches!(output, CelType::Bool | CelType::Int | CelType::String | CelType::Dyn)
            || matches!(&output, CelType::Opaque(n, _) if &**n == "kubernetes.Semver");
        if !ok {
            return Compiled::Invalid(format!(
                "must evaluate to a primitive scalar (string, integer, boolean, semver), not {output}"
            ));
        }
    } else {
        let ok = output == CelType::Bool || (output == CelType::Dyn && !expression.contains("dyn("));
        if !ok {
            return Compiled::Invalid(format!("must evaluate to bool or the unknown type, not {output}"));
        }
    }
    if let Err(m) = checker::instantiate(&unoptimized, expression, &checked) {
        return Compiled::Internal(format!("program instantiation failed: {m}"));
    }
    Compiled::Cost(estimate(&unoptimized, &[("device", device_sized())]).max)
}

/// `validateCELExpression` for a new expression (the callers skip stored ones): the length,
/// the compilation (`convertCELErrorToValidationError`), the cost. A derived attribute's cost
/// is added to `total`.
pub(super) fn validate_cel_expression(
    expression: &str,
    path: &Path<'_>,
    minor: u32,
    derived: Option<&mut u64>,
    errors: &mut Vec<Error>,
) {
    if expression.len() > MAX_LENGTH {
        errors.push(Error::too_long(path, MAX_LENGTH as i64));
        return;
    }
    match compile(expression, minor, derived.is_some()) {
        Compiled::Invalid(detail) => errors.push(Error::invalid(path, expression, detail)),
        Compiled::Internal(detail) => errors.push(Error::new(ErrorType::Internal, path, None, detail)),
        Compiled::Unknown => {}
        Compiled::Cost(cost) => match derived {
            Some(total) => {
                if cost > MAX_COST.min(DERIVED_MAX_COST) {
                    errors.push(forbidden(path));
                }
                *total = total.saturating_add(cost);
            }
            None if cost > MAX_COST => errors.push(forbidden(path)),
            None => {}
        },
    }
}

fn forbidden(path: &Path<'_>) -> Error {
    Error::new(ErrorType::Forbidden, path, None, "too complex, exceeds cost limit")
}
