use alloc::string::String;
use core::fmt;
use serde::ser::{SerializeStruct, Serializer};
use serde::Serialize;
use serde_json::Value;

use super::gofmt::{go_float, go_quote};
use super::Path;

/// Kubernetes' `field.ErrorType`: the machine-readable kind of a field error.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorType {
    /// `FieldValueNotFound`, printed `Not found`.
    NotFound,
    /// `FieldValueRequired`, printed `Required value`.
    Required,
    /// `FieldValueDuplicate`, printed `Duplicate value`.
    Duplicate,
    /// `FieldValueInvalid`, printed `Invalid value`.
    Invalid,
    /// `FieldValueNotSupported`, printed `Unsupported value`.
    NotSupported,
    /// `FieldValueForbidden`, printed `Forbidden`.
    Forbidden,
    /// `FieldValueTooLong`, printed `Too long`.
    TooLong,
    /// `FieldValueTooShort`, printed `Too short`.
    TooShort,
    /// `FieldValueTooMany`, printed `Too many`.
    TooMany,
    /// `FieldValueTooFew`, printed `Too few`.
    TooFew,
    /// `FieldValueTypeInvalid`, printed `Invalid value`.
    TypeInvalid,
    /// `InternalError`, printed `Internal error`.
    Internal,
}

impl ErrorType {
    /// The wire name (`FieldValueInvalid`), as in Kubernetes' API status causes.
    pub fn name(self) -> &'static str {
        match self {
            ErrorType::NotFound => "FieldValueNotFound",
            ErrorType::Required => "FieldValueRequired",
            ErrorType::Duplicate => "FieldValueDuplicate",
            ErrorType::Invalid => "FieldValueInvalid",
            ErrorType::NotSupported => "FieldValueNotSupported",
            ErrorType::Forbidden => "FieldValueForbidden",
            ErrorType::TooLong => "FieldValueTooLong",
            ErrorType::TooShort => "FieldValueTooShort",
            ErrorType::TooMany => "FieldValueTooMany",
            ErrorType::TooFew => "FieldValueTooFew",
            ErrorType::TypeInvalid => "FieldValueTypeInvalid",
            ErrorType::Internal => "InternalError",
        }
    }

    /// The canonical message Go's `ErrorType.String()` gives.
    pub fn message(self) -> &'static str {
        match self {
            ErrorType::NotFound => "Not found",
            ErrorType::Required => "Required value",
            ErrorType::Duplicate => "Duplicate value",
            ErrorType::Invalid | ErrorType::TypeInvalid => "Invalid value",
            ErrorType::NotSupported => "Unsupported value",
            ErrorType::Forbidden => "Forbidden",
            ErrorType::TooLong => "Too long",
            ErrorType::TooShort => "Too short",
            ErrorType::TooMany => "Too many",
            ErrorType::TooFew => "Too few",
            ErrorType::Internal => "Internal error",
        }
    }

    /// Whether `ErrorBody()` prints the bad value for this type.
    pub fn prints_value(self) -> bool {
        !matches!(
            self,
            ErrorType::Required | ErrorType::Forbidden | ErrorType::TooLong | ErrorType::TooShort | ErrorType::Internal
        )
    }
}

/// The stability level of the validation that produced an error: declarative tags wrapped in
/// `+k8s:alpha` or `+k8s:beta`, or neither.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Stability {
    /// Wrapped in `+k8s:alpha`.
    Alpha,
    /// Wrapped in `+k8s:beta`.
    Beta,
    /// Not wrapped: enforced whenever declarative validation is.
    #[default]
    Stable,
}

/// One field error, as Kubernetes' `field.Error`.
///
/// `value` is the bad value as JSON, or `None` where Kubernetes omits it. Its text is what Go's
/// `Error()` prints: `<path>: <type message>[: <value>][: <detail>]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Error {
    /// The field path as Kubernetes prints it (`spec.replicas`, `<nil>` for the root).
    pub field: String,
    /// The error type.
    pub kind: ErrorType,
    /// The bad value; `None` when omitted.
    pub value: Option<Value>,
    /// The human-readable detail (may be empty).
    pub detail: String,
    /// What produced the error (`maximum`, `format=k8s-short-name`); empty when unknown.
    pub origin: String,
    /// The stability level of the producing validation.
    pub stability: Stability,
    /// Whether the API server would return this error (as opposed to only comparing it).
    pub enforced: bool,
    /// The value as Go's `json.Marshal` prints it, when that differs from `value`'s JSON (a
    /// struct's fields in declaration order, zero fields included).
    pub rendered_value: Option<String>,
    /// `ShortCircuit` (apimachinery 1.37+): produced by a short-circuiting validator, so the
    /// field's children were not validated. Only the shadow comparison reads it.
    pub short_circuit: bool,
    /// `MarkCoveredByDeclarative`: a handwritten error a declarative rule also reports. The API
    /// server drops it when an enforced beta declarative error matches it (type, origin,
    /// field: apimachinery `validate.FilterCoveredHandwrittenErrors`).
    pub covered: bool,
}

impl Error {
    /// A new, enforced, stable error.
    pub fn new(kind: ErrorType, path: &Path<'_>, value: Option<Value>, detail: impl Into<String>) -> Error {
        Error {
            field: path.render(),
            kind,
            value,
            detail: detail.into(),
            origin: String::new(),
            stability: Stability::Stable,
            enforced: true,
            rendered_value: None,
            short_circuit: false,
            covered: false,
        }
    }

    /// Go's `MarkCoveredByDeclarative`.
    pub fn covered(mut self) -> Error {
        self.covered = true;
        self
    }

    /// `field.Invalid(path, value, detail)`.
    pub fn invalid(path: &Path<'_>, value: impl Into<Value>, detail: impl Into<String>) -> Error {
        Error::new(ErrorType::Invalid, path, Some(value.into()), detail)
    }

    /// `field.TooLong(path, value, max)`: the detail counts bytes; the value is never printed.
    pub fn too_long(path: &Path<'_>, max_bytes: i64) -> Error {
        let detail = match max_bytes {
            1 => "may not be more than 1 byte".into(),
            n if n >= 0 => alloc::format!("may not be more than {n} bytes"),
            _ => String::from("value is too long"),
        };
        Error::new(ErrorType::TooLong, path, None, detail)
    }

    /// `field.TooMany(path, actual, max)`: `must have at most N items`.
    pub fn too_many(path: &Path<'_>, actual: usize, max: i64) -> Error {
        let detail =
            if max == 1 { "must have at most 1 item".into() } else { alloc::format!("must have at most {max} items") };
        Error::new(ErrorType::TooMany, path, Some(Value::from(actual)), detail)
    }

    /// `field.NotSupported(path, value, supported)`: the supported values quoted, in the order given.
    pub fn not_supported(path: &Path<'_>, value: &str, supported: &[&str]) -> Error {
        let quoted: alloc::vec::Vec<String> = supported.iter().map(|s| super::go_quote(s)).collect();
        let detail = alloc::format!("supported values: {}", quoted.join(", "));
        Error::new(ErrorType::NotSupported, path, Some(Value::from(value)), detail)
    }

    /// Sets the origin (Go's `WithOrigin`).
    pub fn with_origin(mut self, origin: impl Into<String>) -> Error {
        self.origin = origin.into();
        self
    }

    /// Prepends to the detail (Go's `ErrorList.PrefixDetail`).
    pub fn prefix_detail(mut self, prefix: &str) -> Error {
        self.detail.insert_str(0, prefix);
        self
    }

    /// The message without the field path (Go's `ErrorBody()`).
    pub fn body(&self) -> String {
        let mut s = String::from(self.kind.message());
        if self.kind.prints_value() {
            if let Some(text) = &self.rendered_value {
                s.push_str(": ");
                s.push_str(text);
            } else if let Some(value) = &self.value {
                s.push_str(": ");
                s.push_str(&go_value(value));
            }
        }
        if !self.detail.is_empty() {
            s.push_str(": ");
            s.push_str(&self.detail);
        }
        s
    }

    /// The whole line Kubernetes prints (Go's `Error()`).
    pub fn text(&self) -> String {
        alloc::format!("{self}")
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.body())
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Error {}

/// A bad value as `ErrorBody()` prints it: strings `%q`, numbers and bools `%v`, anything else
/// as JSON (`null`, `[1,2]`, `{"a":1}`).
fn go_value(value: &Value) -> String {
    match value {
        Value::String(s) => go_quote(s),
        Value::Bool(b) => alloc::format!("{b}"),
        Value::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => alloc::format!("{i}"),
            (None, Some(u), _) => alloc::format!("{u}"),
            (None, None, Some(f)) => go_float(f),
            _ => alloc::format!("{n}"),
        },
        other => super::gojson::go_json(other),
    }
}

impl Serialize for ErrorType {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl Serialize for Error {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("Error", 8)?;
        s.serialize_field("field", &self.field)?;
        s.serialize_field("type", &self.kind)?;
        match &self.value {
            Some(v) if self.kind.prints_value() => s.serialize_field("value", v)?,
            _ => s.skip_field("value")?,
        }
        s.serialize_field("detail", &self.detail)?;
        s.serialize_field("origin", &self.origin)?;
        s.serialize_field("stability", &self.stability)?;
        s.serialize_field("enforced", &self.enforced)?;
        s.serialize_field("text", &self.text())?;
        s.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    // Expectations: apimachinery pkg/util/validation/field/errors.go (ErrorBody) and
    // errors_test.go.
    #[test]
    fn prints_like_field_error() {
        let root = Path::root();
        let spec = root.child("spec");
        let replicas = spec.child("replicas");
        assert_eq!(
            Error::invalid(&replicas, -1, "must be greater than or equal to 0").text(),
            "spec.replicas: Invalid value: -1: must be greater than or equal to 0"
        );
        assert_eq!(Error::invalid(&replicas, "x", "").text(), "spec.replicas: Invalid value: \"x\"");
        assert_eq!(Error::invalid(&replicas, 1.5, "d").text(), "spec.replicas: Invalid value: 1.5: d");
        assert_eq!(Error::invalid(&replicas, true, "d").text(), "spec.replicas: Invalid value: true: d");
        assert_eq!(Error::invalid(&replicas, Value::Null, "d").text(), "spec.replicas: Invalid value: null: d");
        assert_eq!(
            Error::invalid(&replicas, json!({"b": 1, "a": [1, "x"]}), "d").text(),
            "spec.replicas: Invalid value: {\"a\":[1,\"x\"],\"b\":1}: d"
        );
        assert_eq!(Error::new(ErrorType::Required, &spec, None, "").text(), "spec: Required value");
        assert_eq!(
            Error::new(ErrorType::Forbidden, &spec, Some("v".into()), "not allowed").text(),
            "spec: Forbidden: not allowed"
        );
        assert_eq!(Error::too_long(&spec, 253).text(), "spec: Too long: may not be more than 253 bytes");
        assert_eq!(Error::too_long(&spec, 1).text(), "spec: Too long: may not be more than 1 byte");
        assert_eq!(Error::too_long(&spec, -1).text(), "spec: Too long: value is too long");
        assert_eq!(
            Error::new(ErrorType::Internal, &root, None, "no validation found").text(),
            "<nil>: Internal error: no validation found"
        );
        assert_eq!(
            Error::new(ErrorType::Duplicate, &spec, Some("a".into()), "").text(),
            "spec: Duplicate value: \"a\""
        );
    }

    #[test]
    fn serializes_the_contract_shape() {
        let root = Path::root();
        let e = Error::invalid(&root.child("name"), "A", "bad").with_origin("format=k8s-short-name");
        assert_eq!(
            serde_json::to_value(&e).unwrap(),
            json!({"field": "name", "type": "FieldValueInvalid", "value": "A", "detail": "bad",
                   "origin": "format=k8s-short-name", "stability": "stable", "enforced": true,
                   "text": "name: Invalid value: \"A\": bad"})
        );
        let long = serde_json::to_value(Error::too_long(&root, 3)).unwrap();
        assert!(long.get("value").is_none());
    }
}
