//! Helpers the apps and batch validations share, each after the Go function it ports:
//! apimachinery `pkg/api/validation` (`ValidateNonnegativeField`, `ValidateAnnotations`,
//! `ValidateImmutableField`), `pkg/apis/meta/v1/validation` (`ValidateLabels`), `intstr.IntOrString`
//! (`IntValue`, its JSON), Go's `strconv.Atoi`, and the strategies' metadata-name warning.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value as Json;

use crate::content;
use crate::field::{go_json, go_quote, Error, ErrorType, Path};

/// apimachinery `ValidateNonnegativeField`: `must be greater than or equal to 0`.
pub(crate) fn nonnegative(value: i64, path: &Path<'_>, errors: &mut Vec<Error>) {
    if value < 0 {
        errors.push(Error::invalid(path, value, "must be greater than or equal to 0").with_origin("minimum"));
    }
}

/// `field.Required(path, detail)`.
pub(crate) fn required(path: &Path<'_>, detail: &str) -> Error {
    Error::new(ErrorType::Required, path, None, detail)
}

/// `field.Forbidden(path, detail)`.
pub(crate) fn forbidden(path: &Path<'_>, detail: &str) -> Error {
    Error::new(ErrorType::Forbidden, path, None, detail)
}

/// An error whose bad value Go prints as `rendered` (`json.Marshal` of a struct or pointer).
pub(crate) fn with_rendered(mut error: Error, rendered: String) -> Error {
    error.rendered_value = Some(rendered);
    error
}

/// `field.Invalid(path, value, detail)` with the value printed as `rendered`.
pub(crate) fn invalid_rendered(path: &Path<'_>, value: Json, rendered: String, detail: &str) -> Error {
    with_rendered(Error::invalid(path, value, detail), rendered)
}

/// `field.NotSupported(path, value, supported)` for a value Go prints as `rendered`.
pub(crate) fn not_supported_rendered(path: &Path<'_>, value: Json, rendered: String, supported: &[&str]) -> Error {
    let mut e = Error::not_supported(path, "", supported);
    e.value = Some(value);
    with_rendered(e, rendered)
}

/// apimachinery `ValidateImmutableField` (`field is immutable`), comparing the JSON of both
/// values (Go compares the internal values with `Semantic.DeepEqual`). `rendered` is how Go prints
/// the new value.
pub(crate) fn immutable(new: &Json, old: &Json, path: &Path<'_>, rendered: String, errors: &mut Vec<Error>) {
    if !same(new, old) {
        errors.push(invalid_rendered(path, new.clone(), rendered, "field is immutable"));
    }
}

/// Equality as `apiequality.Semantic.DeepEqual` sees two decoded values: an absent field equals
/// a `null` one, and (as the forked DeepEqual treats nil and empty slices and maps, and Go's zero
/// string) an empty list, map or string.
pub(crate) fn same(a: &Json, b: &Json) -> bool {
    fn zero(v: &Json) -> bool {
        match v {
            Json::Null => true,
            Json::Array(x) => x.is_empty(),
            Json::Object(x) => x.is_empty(),
            Json::String(x) => x.is_empty(),
            _ => false,
        }
    }
    if zero(a) && zero(b) {
        return true;
    }
    match (a, b) {
        (Json::Object(x), Json::Object(y)) => {
            let keys = x.keys().chain(y.keys());
            keys.clone().all(|k| same(x.get(k).unwrap_or(&Json::Null), y.get(k).unwrap_or(&Json::Null)))
        }
        (Json::Array(x), Json::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q)),
        _ => a == b,
    }
}

/// Go's `%v` of a `[]string` (`[a b]`).
pub(crate) fn go_list(items: &[String]) -> String {
    format!("[{}]", items.join(" "))
}

/// The strategies' `WarningsOnCreate` name warning (Deployment, ReplicaSet, Job, CronJob): a name
/// that is not a DNS label.
pub(crate) fn name_warning(object: &Json) -> Option<String> {
    let meta = |k: &str| object.get("metadata").and_then(|m| m.get(k)).and_then(Json::as_str).unwrap_or("");
    let name = match meta("name") {
        // The API server generates the name first (a random 5-character suffix).
        "" if !meta("generateName").is_empty() => format!("{}xxxxx", meta("generateName")),
        n => String::from(n),
    };
    let msgs = content::is_dns1123_label(&name);
    (!msgs.is_empty()).then(|| {
        format!(
            "metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: {}",
            go_list(&msgs)
        )
    })
}

pub(crate) use crate::apis::core::common::{validate_annotations, validate_labels};

/// Why Go's `strconv.Atoi` refuses a string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AtoiError {
    /// `invalid syntax` (the value is 0).
    Syntax,
    /// `value out of range`, with the clamped value Go returns.
    Range(i64),
}

/// Go's `strconv.Atoi` on a 64-bit platform.
pub(crate) fn atoi(s: &str) -> Result<i64, AtoiError> {
    let (neg, digits) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(AtoiError::Syntax);
    }
    let mut n: i128 = 0;
    for b in digits.bytes() {
        n = n * 10 + i128::from(b - b'0');
        if n > i128::from(i64::MAX) + 1 {
            break;
        }
    }
    let n = if neg { -n } else { n };
    if n > i128::from(i64::MAX) {
        return Err(AtoiError::Range(i64::MAX));
    }
    if n < i128::from(i64::MIN) {
        return Err(AtoiError::Range(i64::MIN));
    }
    Ok(n as i64)
}

/// The text of a `strconv.Atoi` error (`strconv.Atoi: parsing "x": invalid syntax`).
pub(crate) fn atoi_error_text(s: &str, e: AtoiError) -> String {
    let why = match e {
        AtoiError::Syntax => "invalid syntax",
        AtoiError::Range(_) => "value out of range",
    };
    format!("strconv.Atoi: parsing {}: {why}", go_quote(s))
}

/// An `intstr.IntOrString` as decoded (an absent one is the zero value, the integer 0).
#[derive(Clone, Copy, Debug)]
pub(crate) enum IntOrString<'a> {
    /// `Type: Int`.
    Int(i64),
    /// `Type: String`.
    Str(&'a str),
}

impl<'a> IntOrString<'a> {
    /// Reads a field; absent or `null` is `Int(0)`.
    pub(crate) fn of(v: Option<&'a Json>) -> IntOrString<'a> {
        match v {
            Some(Json::String(s)) => IntOrString::Str(s),
            Some(x) => IntOrString::Int(x.as_i64().unwrap_or(0)),
            None => IntOrString::Int(0),
        }
    }

    /// The value as JSON.
    pub(crate) fn json(self) -> Json {
        match self {
            IntOrString::Int(n) => Json::from(n),
            IntOrString::Str(s) => Json::from(s),
        }
    }

    /// `json.Marshal` of the value (`IntOrString.MarshalJSON`).
    pub(crate) fn render(self) -> String {
        go_json(&self.json())
    }

    /// `IntValue()`: a string is read with `strconv.Atoi` (0 when it does not parse).
    pub(crate) fn int_value(self) -> i64 {
        match self {
            IntOrString::Int(n) => n,
            IntOrString::Str(s) => match atoi(s) {
                Ok(n) | Err(AtoiError::Range(n)) => n,
                Err(AtoiError::Syntax) => 0,
            },
        }
    }
}

/// `field.Invalid(path, intOrString, detail)`: the value printed as its JSON.
pub(crate) fn invalid_int_or_string(path: &Path<'_>, v: IntOrString<'_>, detail: &str) -> Error {
    invalid_rendered(path, v.json(), v.render(), detail)
}

/// `json.Marshal` of an `*intstr.IntOrString` (`null` when nil).
pub(crate) fn render_opt_int_or_string(v: Option<&Json>) -> String {
    v.filter(|x| !x.is_null()).map_or_else(|| String::from("null"), |x| IntOrString::of(Some(x)).render())
}
