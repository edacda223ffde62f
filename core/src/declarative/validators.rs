//! The validators a tag compiles to, and what each does to one Go value — mirroring
//! apimachinery `pkg/api/validate` (required.go, limits.go, enum.go, equality.go, strfmt.go,
//! testing.go) with Kubernetes' exact errors and origins.

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value;

use crate::field::{Error, ErrorType, Path, Stability};
use crate::format::Format;

/// A compiled validation, attached to a type, a field, or a list item/map value/key.
#[derive(Debug)]
pub(crate) struct Validator {
    pub check: Check,
    pub stability: Stability,
    /// The outer tag's name: validation-gen orders a field's validations by it.
    pub sort_key: &'static str,
    /// Runs before the others; when it reports, the field's remaining validations are skipped.
    pub short_circuit: bool,
    /// Short-circuits without reporting an error (`+k8s:optional`).
    pub non_error: bool,
}

impl Validator {
    /// Whether validation-gen makes this validation in a deferred callback (`AddDeferred` in
    /// validators/each.go, list.go, update.go, subfield.go, item.go, union.go, zeroorone.go,
    /// mode.go, dependentrequired.go), which places it after the site's other validations.
    /// Wrappers (`alpha`, `beta`, `ifEnabled`) pass their payload's deferral through.
    pub(crate) fn is_deferred(&self) -> bool {
        match &self.check {
            Check::EachVal(_)
            | Check::Subfield { .. }
            | Check::Update(_)
            | Check::Dependent { .. }
            | Check::Unique(_)
            | Check::Union(_)
            | Check::Item { .. }
            | Check::ListUnion { .. }
            | Check::Modes { .. } => true,
            // each.go: eachKey adds its payload's functions at once, deferring only what the
            // payload itself defers (eachVal defers everything, for the list keys).
            Check::IfOption { validators, .. } | Check::EachKey(validators) => {
                validators.iter().all(Validator::is_deferred)
            }
            _ => false,
        }
    }
}

/// What a validator checks.
#[derive(Debug)]
pub(crate) enum Check {
    Required,
    Optional,
    Forbidden,
    Minimum(i64),
    Maximum(i64),
    MinLength(usize),
    MaxLength(usize),
    MaxBytes(usize),
    MinItems(usize),
    MaxItems(usize),
    MinProperties(usize),
    MaxProperties(usize),
    Format(Format),
    Enum {
        values: Vec<String>,
        exclusions: Vec<EnumExclusion>,
    },
    Neq(Literal),
    /// each.go `PtrSliceNoNils`, which validation-gen 1.37 puts first on a `[]*T` field: a nil
    /// item is `Required` at its index.
    NoNilItems,
    EachKey(Vec<Validator>),
    EachVal(Vec<Validator>),
    Subfield {
        json_name: String,
        validators: Vec<Validator>,
        /// subfield.go: the member's own short-circuits join the cohort (as NonError), unless
        /// the field is `+k8s:opaqueType` (`isFieldOpaque`; an opaque type is checked when run).
        inherit: bool,
    },
    IfOption {
        option: String,
        enabled: bool,
        validators: Vec<Validator>,
    },
    /// A named cohort (`+k8s:validateFalse(cohort: "c")`, testing.go `fn.Cohort`): its
    /// short-circuits stop only its own validators; it runs after the default cohort.
    Cohort {
        name: String,
        validators: Vec<Validator>,
    },
    /// `+k8s:validateFalse` / `validateTrue`: a fixed result.
    Fixed {
        pass: bool,
        arg: String,
    },
    /// `+k8s:immutable` (immutable.go): any update that reaches it (a changed value) fails.
    Immutable,
    /// `+k8s:update=...` constraints (update.go), in tag order.
    Update(Vec<UpdateConstraint>),
    /// `+k8s:monotonic` (monotonic.go): on update, a number may not decrease.
    Monotonic,
    /// `+k8s:dependentRequired` / `+k8s:dependentForbidden` (dependent.go), run by the parent
    /// struct: when `trigger` is set, `dependent` must (must not) be set.
    Dependent {
        trigger: String,
        dependent: String,
        required: bool,
    },
    /// Duplicate items of a set or map list (each.go ValSliceUnique), identified as the list
    /// type says, or as `+k8s:subfield(name)=+k8s:listType=...` tags say (given here).
    Unique(Option<super::schema::ListSpec>),
    /// A union of struct fields (union.go, zeroorone.go).
    Union(Union),
    /// `+k8s:item(key: value, ...)=...` (item.go ValSliceItem): the first item whose fields
    /// have these values gets the validators.
    Item {
        criteria: Criteria,
        validators: Vec<Validator>,
    },
    /// A union of list items: member `i` is set when an item matches `criteria[i]`.
    ListUnion {
        union: Union,
        criteria: Vec<Criteria>,
    },
    /// `+k8s:ifMode` rules of one field (discriminator.go Discriminated): the validators of the
    /// rule for the discriminator's value; in any other mode the field is forbidden.
    Modes {
        discriminator: String,
        field: String,
        rules: Vec<(String, Vec<Validator>)>,
    },
}

/// An item selector: list-map key fields and their values.
pub(crate) type Criteria = Vec<(String, Value)>;

/// A union's members: `(JSON name, discriminator value)` in field order.
#[derive(Clone, Debug)]
pub(crate) struct Union {
    /// The discriminator's JSON name, for a discriminated union.
    pub discriminator: Option<String>,
    pub members: Vec<(String, String)>,
    /// `+k8s:zeroOrOneOfMember`: none set is fine.
    pub zero_or_one: bool,
}

/// update.go's constraints (named as in Go).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(clippy::enum_variant_names)]
pub(crate) enum UpdateConstraint {
    NoSet,
    NoUnset,
    NoModify,
    NoAddItem,
    NoRemoveItem,
}

impl UpdateConstraint {
    pub fn from_name(name: &str) -> Option<UpdateConstraint> {
        Some(match name {
            "NoSet" => UpdateConstraint::NoSet,
            "NoUnset" => UpdateConstraint::NoUnset,
            "NoModify" => UpdateConstraint::NoModify,
            "NoAddItem" => UpdateConstraint::NoAddItem,
            "NoRemoveItem" => UpdateConstraint::NoRemoveItem,
            _ => return None,
        })
    }
}

/// `+k8s:enumExclude` on a constant, maybe only when an option has a given state.
#[derive(Clone, Debug)]
pub(crate) struct EnumExclusion {
    pub value: String,
    /// `None`: always excluded; `Some((option, when))`: excluded while the option is `when`.
    pub condition: Option<(String, bool)>,
}

/// A `+k8s:neq` value.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Literal {
    Str(String),
    Int(i64),
    Bool(bool),
}

/// A Go value as decoding a JSON value into its declared type gives it.
#[derive(Clone, Copy, Debug)]
pub(crate) enum GoVal<'a> {
    /// A nil pointer, slice or map; an absent opaque value.
    Nil,
    Str(&'a str),
    Int(i64),
    Uint(u64),
    Float(f64),
    Bool(bool),
    /// A non-nil slice (maybe empty), or `[]byte` decoded from base64 (its length).
    List(&'a [Value]),
    Bytes(usize),
    /// A non-nil map.
    Map(&'a serde_json::Map<String, Value>),
    /// A struct; `None` when it is the zero struct (absent in JSON).
    Struct(Option<&'a serde_json::Map<String, Value>>),
    Opaque(&'a Value),
}

impl GoVal<'_> {
    /// Whether the value is unset as Kubernetes' required/optional/forbidden see it: nil, the
    /// zero value, or empty (for slices and maps). A non-nil pointer is set whatever it holds.
    pub fn is_unset(&self, pointer_nil: Option<bool>) -> bool {
        if let Some(nil) = pointer_nil {
            return nil;
        }
        match *self {
            GoVal::Nil => true,
            GoVal::Str(s) => s.is_empty(),
            GoVal::Int(i) => i == 0,
            GoVal::Uint(u) => u == 0,
            GoVal::Float(f) => f == 0.0,
            GoVal::Bool(b) => !b,
            GoVal::List(l) => l.is_empty(),
            GoVal::Bytes(n) => n == 0,
            GoVal::Map(m) => m.is_empty(),
            GoVal::Struct(_) => false,
            GoVal::Opaque(v) => v.is_null(),
        }
    }

    /// The value as the JSON Kubernetes' error would print for it.
    pub fn to_json(self) -> Value {
        match self {
            GoVal::Nil => Value::Null,
            GoVal::Str(s) => Value::String(s.into()),
            GoVal::Int(i) => i.into(),
            GoVal::Uint(u) => u.into(),
            GoVal::Float(f) => serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number),
            GoVal::Bool(b) => b.into(),
            GoVal::List(l) => Value::Array(l.to_vec()),
            GoVal::Bytes(_) => Value::Null,
            GoVal::Map(m) => Value::Object(m.clone()),
            GoVal::Struct(m) => m.map_or_else(|| Value::Object(serde_json::Map::new()), |m| Value::Object(m.clone())),
            GoVal::Opaque(v) => v.clone(),
        }
    }

    pub(crate) fn int(&self) -> Option<i128> {
        match *self {
            GoVal::Int(i) => Some(i as i128),
            GoVal::Uint(u) => Some(u as i128),
            _ => None,
        }
    }

    fn len(&self) -> usize {
        match *self {
            GoVal::List(l) => l.len(),
            GoVal::Map(m) => m.len(),
            GoVal::Bytes(n) => n,
            _ => 0,
        }
    }
}

/// Runs one simple (non-structural) check on a value. Structural checks (eachKey, eachVal,
/// subfield, ifEnabled) are the walker's; this returns `None` for them.
pub(crate) fn run_simple(
    check: &Check,
    path: &Path<'_>,
    value: GoVal<'_>,
    pointer_nil: Option<bool>,
    option_on: &dyn Fn(&str) -> bool,
) -> Option<Vec<Error>> {
    let nil = matches!(value, GoVal::Nil) || pointer_nil == Some(true);
    let one = |e: Error| alloc::vec![e];
    let errs = match check {
        // required.go: Required("") / Forbidden(""); optional reports Required with a detail
        // that the generated code never returns (it only stops the field's validation).
        Check::Required if value.is_unset(pointer_nil) => one(Error::new(ErrorType::Required, path, None, "")),
        Check::Optional if value.is_unset(pointer_nil) => {
            one(Error::new(ErrorType::Required, path, None, "optional value was not specified"))
        }
        Check::Forbidden if !value.is_unset(pointer_nil) => one(Error::new(ErrorType::Forbidden, path, None, "")),
        Check::Required | Check::Optional | Check::Forbidden => Vec::new(),
        // limits.go
        Check::Minimum(min) => match value.int() {
            Some(v) if !nil && v < *min as i128 => {
                one(Error::invalid(path, value.to_json(), alloc::format!("must be greater than or equal to {min}"))
                    .with_origin("minimum"))
            }
            _ => Vec::new(),
        },
        Check::Maximum(max) => match value.int() {
            Some(v) if !nil && v > *max as i128 => {
                one(Error::invalid(path, value.to_json(), alloc::format!("must be less than or equal to {max}"))
                    .with_origin("maximum"))
            }
            _ => Vec::new(),
        },
        Check::MaxLength(max) => match value {
            GoVal::Str(s) if !nil && s.len() > *max && s.chars().count() > *max => {
                let unit = if *max == 1 { "character" } else { "characters" };
                one(Error::new(ErrorType::TooLong, path, None, alloc::format!("may not be more than {max} {unit}"))
                    .with_origin("maxLength"))
            }
            _ => Vec::new(),
        },
        Check::MinLength(min) => match value {
            GoVal::Str(s) if !nil && s.chars().count() < *min => {
                let unit = if *min == 1 { "character" } else { "characters" };
                one(Error::new(
                    ErrorType::TooShort,
                    path,
                    Some(s.into()),
                    alloc::format!("must be at least {min} {unit}"),
                )
                .with_origin("minLength"))
            }
            _ => Vec::new(),
        },
        Check::MaxBytes(max) => match value {
            GoVal::Str(s) if !nil && s.len() > *max => one(Error::too_long(path, *max as i64).with_origin("maxBytes")),
            _ => Vec::new(),
        },
        Check::MaxItems(max) if value.len() > *max => one(count_error(path, value.len(), *max, true, "maxItems")),
        Check::MinItems(min) if value.len() < *min => one(count_error(path, value.len(), *min, false, "minItems")),
        Check::MaxProperties(max) if !nil && value.len() > *max => {
            one(count_error(path, value.len(), *max, true, "maxProperties"))
        }
        Check::MinProperties(min) if value.len() < *min => {
            one(count_error(path, value.len(), *min, false, "minProperties"))
        }
        Check::MaxItems(_) | Check::MinItems(_) | Check::MaxProperties(_) | Check::MinProperties(_) => Vec::new(),
        Check::Format(f) => match value {
            GoVal::Str(s) if !nil => f.validate(path, s),
            _ => Vec::new(),
        },
        Check::Enum { values, exclusions } => match value {
            GoVal::Str(s) if !nil => enum_check(path, s, values, exclusions, option_on),
            _ => Vec::new(),
        },
        Check::Neq(lit) => {
            let equal = match (lit, value) {
                (Literal::Str(a), GoVal::Str(b)) => a == b,
                (Literal::Int(a), v) => v.int() == Some(*a as i128),
                (Literal::Bool(a), GoVal::Bool(b)) => *a == b,
                _ => false,
            };
            if equal && !nil {
                let shown = match lit {
                    Literal::Str(s) => crate::field::go_quote(s),
                    Literal::Int(i) => alloc::format!("{i}"),
                    Literal::Bool(b) => alloc::format!("{b}"),
                };
                one(Error::invalid(path, value.to_json(), alloc::format!("must not be equal to {shown}"))
                    .with_origin("neq"))
            } else {
                Vec::new()
            }
        }
        Check::NoNilItems => match value {
            GoVal::List(items) => items
                .iter()
                .enumerate()
                .filter(|(_, item)| item.is_null())
                .map(|(i, _)| Error::new(ErrorType::Required, &path.index(i), None, ""))
                .collect(),
            _ => Vec::new(),
        },
        // testing.go FixedResult: Invalid(value, "forced failure: "+arg).
        Check::Fixed { pass: true, .. } => Vec::new(),
        Check::Fixed { pass: false, arg } => {
            let shown = if nil { Value::Null } else { value.to_json() };
            one(Error::invalid(path, shown, alloc::format!("forced failure: {arg}")).with_origin("validateFalse"))
        }
        Check::EachKey(_)
        | Check::EachVal(_)
        | Check::Subfield { .. }
        | Check::IfOption { .. }
        | Check::Cohort { .. }
        | Check::Immutable
        | Check::Monotonic
        | Check::Dependent { .. }
        | Check::Update(_)
        | Check::Unique(_)
        | Check::Union(_)
        | Check::Item { .. }
        | Check::Modes { .. }
        | Check::ListUnion { .. } => return None,
    };
    Some(errs)
}

/// field.TooMany / field.TooFew: the actual count as the value, "must have at most/least N
/// item(s)".
fn count_error(path: &Path<'_>, actual: usize, limit: usize, too_many: bool, origin: &str) -> Error {
    let unit = if limit == 1 { "item" } else { "items" };
    let (kind, bound) = if too_many { (ErrorType::TooMany, "at most") } else { (ErrorType::TooFew, "at least") };
    Error::new(kind, path, Some(actual.into()), alloc::format!("must have {bound} {limit} {unit}")).with_origin(origin)
}

/// enum.go `Enum`: NotSupported with the sorted supported values.
fn enum_check(
    path: &Path<'_>,
    value: &str,
    values: &[String],
    exclusions: &[EnumExclusion],
    option_on: &dyn Fn(&str) -> bool,
) -> Vec<Error> {
    let excluded = |v: &str| {
        exclusions.iter().any(|x| {
            x.value == v
                && match &x.condition {
                    None => true,
                    Some((option, when)) => option_on(option) == *when,
                }
        })
    };
    if values.iter().any(|v| v == value) && !excluded(value) {
        return Vec::new();
    }
    let mut supported: Vec<&String> = values.iter().filter(|v| !excluded(v)).collect();
    crate::sort::sort_by(&mut supported, |a, b| a.cmp(b));
    supported.dedup();
    let detail = if supported.is_empty() {
        String::new()
    } else {
        let quoted: Vec<String> = supported.iter().map(|v| crate::field::go_quote(v)).collect();
        alloc::format!("supported values: {}", quoted.join(", "))
    };
    alloc::vec![Error::new(ErrorType::NotSupported, path, Some(value.into()), detail)]
}
