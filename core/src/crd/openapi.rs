//! OpenAPI value validation of a custom resource, as the API server runs it: kube-openapi's
//! schema validator (`pkg/validation/validate`: every validator that applies to the value's
//! kind runs, a type error does not stop the others) with apiextensions-apiserver's mapping
//! to field errors (`pkg/apiserver/validation/validation.go` `kubeOpenAPIResultToFieldErrors`),
//! ratcheted on update (`pkg/apiserver/validation/ratcheting.go`: the errors under a node
//! that correlates with an unchanged old value are dropped).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value as Json;

use super::correlate;
use crate::field::{Error, ErrorType, Path};

/// Appends the OpenAPI errors of a custom resource (`old`: its correlated old version, on
/// update, for ratcheting).
pub fn validate(value: &Json, schema: &Json, old: Option<&Json>, errors: &mut Vec<Error>) {
    node("", value, schema, old, errors);
}

fn flag(schema: &Json, key: &str) -> bool {
    schema.get(key).and_then(Json::as_bool).unwrap_or(false)
}

/// The field path of a go-openapi name (`spec.a[0].b`, map keys joined with dots): apiextensions
/// makes it one path element; the root is `<nil>`.
fn at(name: &str) -> Path<'_> {
    match name.trim_start_matches('.') {
        "" => Path::root(),
        n => Path::named(n),
    }
}

fn child(name: &str, key: &str) -> String {
    if name.is_empty() {
        String::from(key)
    } else {
        format!("{name}.{key}")
    }
}

/// The schema's types as kube-openapi sees them (`x-kubernetes-int-or-string` is
/// `integer,string`).
fn types(schema: &Json) -> &str {
    if flag(schema, "x-kubernetes-int-or-string") {
        return "integer,string";
    }
    schema.get("type").and_then(Json::as_str).unwrap_or("")
}

/// The formats the API server keeps for each type (apiextensions `formats.go`; the rest are
/// stripped and behave as if absent). `-` is ignored in names, as strfmt does.
fn kept_format<'s>(schema: &'s Json, t: &str) -> Option<&'s str> {
    let f = schema.get("format").and_then(Json::as_str).filter(|f| !f.is_empty())?;
    let name: String = f.chars().filter(|c| *c != '-').collect();
    let keep = match t {
        "" | "string" => STRING_FORMATS.contains(&name.as_str()),
        "integer" => matches!(f, "int32" | "int64"),
        "number" => matches!(f, "float" | "double"),
        _ => false,
    };
    keep.then_some(f)
}

const STRING_FORMATS: &[&str] = &[
    "bsonobjectid",
    "uri",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "cidr",
    "mac",
    "uuid",
    "uuid3",
    "uuid4",
    "uuid5",
    "isbn",
    "isbn10",
    "isbn13",
    "creditcard",
    "ssn",
    "hexcolor",
    "rgbcolor",
    "byte",
    "password",
    "date",
    "duration",
    "datetime",
    "k8sshortname",
    "k8slongname",
];

/// A JSON number as Go decodes it into unstructured content: `int64` when integral and in
/// range, else `float64`.
fn as_int(value: &Json) -> Option<i64> {
    value.as_i64()
}

/// The type kube-openapi finds for a value, and its Go "format" (`int64`, `float64`, or none).
fn found(value: &Json) -> (&'static str, &'static str) {
    match value {
        Json::Null => ("null", ""),
        Json::Bool(_) => ("boolean", ""),
        Json::Number(_) if as_int(value).is_some() => ("integer", "int64"),
        Json::Number(_) => ("number", "float64"),
        Json::String(_) => ("string", ""),
        Json::Array(_) => ("array", ""),
        Json::Object(_) => ("object", ""),
    }
}

/// `swag.IsFloat64AJSONInteger`.
fn is_json_integer(f: f64) -> bool {
    if f.is_nan() || f.is_infinite() || libm::fabs(f) > 9_007_199_254_740_991.0 {
        return false;
    }
    let diff = libm::fabs(f - libm::round(f));
    diff == 0.0 || diff < 1e-9 * libm::fabs(f).max(1.0)
}

fn type_invalid(name: &str, expected: &str, found: &str) -> Error {
    let detail = format!("{} in body must be of type {expected}: \"{found}\"", name.trim_start_matches('.'));
    Error::new(ErrorType::TypeInvalid, &at(name), Some(Json::from(found)), detail)
}

fn invalid(name: &str, value: Json, detail: String) -> Error {
    Error::new(ErrorType::Invalid, &at(name), Some(value), detail)
}

/// An error kube-openapi returns as a plain error (no field): apiextensions puts it at the
/// root with an empty value.
fn plain(detail: String) -> Error {
    Error::new(ErrorType::Invalid, &Path::root(), Some(Json::from("")), detail)
}

/// minItems/maxItems or minProperties/maxProperties: kube-openapi's TooFewItems /
/// TooFewProperties (Invalid, the count as the value) and TooManyItems / TooManyProperties
/// (field.TooMany).
fn counts(
    name: &str,
    count: usize,
    schema: &Json,
    (min_key, max_key, unit): (&str, &str, &str),
    errors: &mut Vec<Error>,
) {
    if let Some(min) = schema.get(min_key).and_then(Json::as_i64) {
        if (count as i64) < min {
            let n = name.trim_start_matches('.');
            errors.push(invalid(name, Json::from(count), format!("{n} in body should have at least {min} {unit}")));
        }
    }
    if let Some(max) = schema.get(max_key).and_then(Json::as_i64) {
        if count as i64 > max {
            errors.push(Error::too_many(&at(name), count, max));
        }
    }
}

/// One schema node (`SchemaValidator.Validate`), ratcheted when it correlates with `old`.
fn node(name: &str, value: &Json, schema: &Json, old: Option<&Json>, errors: &mut Vec<Error>) {
    let start = errors.len();
    check(name, value, schema, old, errors);
    if errors.len() > start && old.is_some_and(|o| correlate::unchanged(schema, value, o)) {
        errors.truncate(start);
    }
}

fn check(name: &str, value: &Json, schema: &Json, old: Option<&Json>, errors: &mut Vec<Error>) {
    let t = types(schema);
    let nullable = flag(schema, "nullable");
    if value.is_null() {
        // Only the type and enum validators run on null.
        if !t.is_empty() && !nullable {
            errors.push(type_invalid(name, t, "null"));
        }
        enumeration(name, value, schema, errors);
        return;
    }
    type_check(name, value, schema, t, errors);
    combinators(name, value, schema, errors);
    match value {
        Json::String(s) => {
            string(name, s, schema, errors);
            if let Some(f) = kept_format(schema, t).filter(|_| t.is_empty() || t == "string") {
                if !format_ok(f, s) {
                    let detail = format!(
                        "{} in body must be of type {f}: {}",
                        name.trim_start_matches('.'),
                        crate::field::go_quote(s)
                    );
                    errors.push(Error::new(ErrorType::TypeInvalid, &at(name), Some(value.clone()), detail));
                }
            }
        }
        Json::Number(_) => numeric(name, value, schema, t, errors),
        Json::Array(items) => array(name, value, items, schema, old, errors),
        _ => {}
    }
    enumeration(name, value, schema, errors);
    if let Json::Object(fields) = value {
        object(name, value, fields, schema, old, errors);
    }
}

/// The type validator (`validate/type.go`).
fn type_check(name: &str, value: &Json, schema: &Json, t: &str, errors: &mut Vec<Error>) {
    let format = kept_format(schema, t);
    if t.is_empty() && format.is_none() {
        return;
    }
    let (found_type, found_format) = found(value);
    let contains = |x: &str| t.split(',').any(|y| y == x);
    let float_int = found_type == "number" && value.as_f64().is_some_and(is_json_integer) && contains("integer");
    let int_float = found_type == "integer" && contains("number");
    let string_or_array = matches!(value, Json::String(_) | Json::Array(_));
    if let Some(f) = format {
        let lower = (f == "int64" && found_format == "int32") || (f == "double" && found_format == "float32");
        if !(string_or_array || contains(found_type) || found_format == f || float_int || int_float || lower) {
            errors.push(type_invalid(name, f, found_format));
            return;
        }
        if !(contains("number") || contains("integer")) && string_or_array {
            return;
        }
    }
    if !(contains(found_type) || float_int || int_float) {
        errors.push(type_invalid(name, t, found_type));
    }
}

/// allOf / anyOf / oneOf / not (`schema_props.go`): the branches are validated at the same
/// place, without ratcheting; their messages are plain errors at the root.
fn combinators(name: &str, value: &Json, schema: &Json, errors: &mut Vec<Error>) {
    let branches = |key: &str| schema.get(key).and_then(Json::as_array).map(Vec::as_slice).unwrap_or(&[]);
    let run = |s: &Json| {
        let mut e = Vec::new();
        check(name, value, s, None, &mut e);
        e
    };
    let quoted = crate::field::go_quote(name.trim_start_matches('.'));
    let any_of = branches("anyOf");
    if !any_of.is_empty() {
        // The branches fail until one passes.
        let mut failed = Vec::new();
        let ok = any_of.iter().any(|b| {
            let e = run(b);
            let passed = e.is_empty();
            failed.push((b, e));
            passed
        });
        if !ok {
            errors.push(plain(format!("{quoted} must validate at least one schema (anyOf)")));
            errors.extend(most_matched(value, failed).map(|(_, e)| e).unwrap_or_default());
        }
    }
    let one_of = branches("oneOf");
    if !one_of.is_empty() {
        let results: Vec<Vec<Error>> = one_of.iter().map(run).collect();
        let valid = results.iter().filter(|e| e.is_empty()).count();
        if valid != 1 {
            let found =
                if valid == 0 { String::from("Found none valid") } else { format!("Found {valid} valid alternatives") };
            errors.push(plain(format!("{quoted} must validate one and only one schema (oneOf). {found}")));
            if valid == 0 {
                errors.extend(most_matched(value, one_of.iter().zip(results)).map(|(_, e)| e).unwrap_or_default());
            }
        }
    }
    let all_of = branches("allOf");
    if !all_of.is_empty() {
        let mut valid = 0;
        for b in all_of {
            let e = run(b);
            valid += usize::from(e.is_empty());
            errors.extend(e);
        }
        if valid != all_of.len() {
            let none = if valid == 0 { ". None validated" } else { "" };
            errors.push(plain(format!("{quoted} must validate all the schemas (allOf){none}")));
        }
    }
    if let Some(not) = schema.get("not").filter(|n| n.is_object()) {
        if run(not).is_empty() {
            errors.push(plain(format!("{quoted} must not validate the schema (not)")));
        }
    }
}

/// Of failed branches (each with what goes with it), the one kube-openapi reports: the highest
/// `MatchCount`, the first of equals (`validate/schema_props.go`).
fn most_matched<'a, T>(value: &Json, branches: impl IntoIterator<Item = (&'a Json, T)>) -> Option<(usize, T)> {
    let mut best: Option<(usize, T)> = None;
    for (b, t) in branches {
        let count = match_count(value, b);
        if best.as_ref().is_none_or(|(c, _)| count > *c) {
            best = Some((count, t));
        }
    }
    best
}

/// kube-openapi's `Result.MatchCount` of `value` against `schema`, by which anyOf and oneOf
/// choose the failed branch whose errors they report (`validate/schema_props.go`):
/// `SchemaValidator.Validate` counts one for each validator that applies and one at the end;
/// the type, number, slice and schema-props validators count one more themselves; children's
/// counts are merged in (`validate/schema.go`, `type.go`, `validator.go`, `slice_validator.go`,
/// `object_validator.go`).
fn match_count(value: &Json, schema: &Json) -> usize {
    let t = types(schema);
    let format = kept_format(schema, t);
    if value.is_null() {
        // Only the type validator (counting itself) and the common one run on null.
        return 1;
    }
    let is_valid = |s: &Json| {
        let mut e = Vec::new();
        check("", value, s, None, &mut e);
        e.is_empty()
    };
    let branches = |key: &str| schema.get(key).and_then(Json::as_array).map(Vec::as_slice).unwrap_or(&[]);
    // The schema-props validator: the branch whose result it merges, then its own count.
    let best = |list: &[Json]| most_matched(value, list.iter().map(|b| (b, ()))).map_or(0, |(c, ())| c);
    let mut props = 1;
    let any_of = branches("anyOf");
    if !any_of.is_empty() {
        props += any_of.iter().find(|b| is_valid(b)).map_or_else(|| best(any_of), |b| match_count(value, b));
    }
    let one_of = branches("oneOf");
    if !one_of.is_empty() {
        let valid: Vec<&Json> = one_of.iter().filter(|b| is_valid(b)).collect();
        props += match valid.as_slice() {
            [] => best(one_of),
            [only] => match_count(value, only),
            _ => 0,
        };
    }
    props += branches("allOf").iter().map(|b| match_count(value, b)).sum::<usize>();
    // The schema validator: the type (if a type or kept format is set), schema-props and
    // common validators, those of the value's kind, and one at the end.
    let mut n = usize::from(!t.is_empty() || format.is_some()) * 2 + (props + 1) + 1 + 1;
    n += match value {
        // The format validator applies to strings of a known string format (as in `check`).
        Json::String(_) => 1 + usize::from(format.is_some() && (t.is_empty() || t == "string")),
        Json::Number(_) => 2,
        Json::Array(items) => {
            let item = schema.get("items").filter(|i| i.is_object());
            item.map_or(0, |s| items.iter().map(|v| match_count(v, s)).sum::<usize>()) + 2
        }
        Json::Object(fields) => {
            let props = schema.get("properties").and_then(Json::as_object);
            let additional = schema.get("additionalProperties").filter(|a| a.is_object());
            let children: usize = fields
                .iter()
                .filter_map(|(k, v)| match props.and_then(|p| p.get(k)) {
                    Some(p) => Some(match_count(v, p)),
                    None => additional.map(|a| match_count(v, a)),
                })
                .sum();
            children + 1
        }
        _ => 0,
    };
    n
}

/// The string validator: maxLength, minLength, pattern, the first failure only.
fn string(name: &str, s: &str, schema: &Json, errors: &mut Vec<Error>) {
    let chars = s.chars().count() as i64;
    let n = name.trim_start_matches('.');
    if let Some(max) = schema.get("maxLength").and_then(Json::as_i64) {
        if chars > max {
            errors.push(Error::too_long(&at(name), max));
            return;
        }
    }
    if let Some(min) = schema.get("minLength").and_then(Json::as_i64) {
        if chars < min {
            errors.push(invalid(name, Json::from(s), format!("{n} in body should be at least {min} chars long")));
            return;
        }
    }
    if let Some(pattern) = schema.get("pattern").and_then(Json::as_str) {
        let detail = match crate::cel::library::Regex::new(pattern) {
            Ok(re) if re.is_match(s) => return,
            Ok(_) => format!("{n} in body should match '{pattern}'"),
            Err(e) => format!("{n} in body should match '{pattern}, but pattern is invalid: {e}'"),
        };
        errors.push(invalid(name, Json::from(s), detail));
    }
}

/// kube-openapi's `byte` check (strfmt `Default.Add("byte", ..., govalidator.IsBase64)`): the
/// pattern `^(?:[A-Za-z0-9+\/]{4})*(?:[A-Za-z0-9+\/]{2}==|[A-Za-z0-9+\/]{3}=|[A-Za-z0-9+\/]{4})$`
/// (third_party/govalidator/patterns.go): padded, and not empty. The empty string is refused
/// (the real kube-apiserver v1.37.2 through the oracle: `fuzz-crd`).
fn is_base64(s: &str) -> bool {
    let b = s.as_bytes();
    if b.is_empty() || b.len() % 4 != 0 {
        return false;
    }
    let alpha = |c: &u8| c.is_ascii_alphanumeric() || *c == b'+' || *c == b'/';
    let (body, last) = b.split_at(b.len() - 4);
    body.iter().all(alpha)
        && match last {
            [x, y, b'=', b'='] => alpha(x) && alpha(y),
            [x, y, z, b'='] => alpha(x) && alpha(y) && alpha(z),
            all => all.iter().all(alpha),
        }
}

/// The formats the API server checks (kube-openapi strfmt).
fn format_ok(format: &str, s: &str) -> bool {
    use crate::cel::k8s;
    let name: String = format.chars().filter(|c| *c != '-').collect();
    match name.as_str() {
        "date" => k8s::is_full_date(s),
        "datetime" => k8s::is_datetime(s),
        "byte" => is_base64(s),
        "uuid" | "uuid3" | "uuid4" | "uuid5" => k8s::is_uuid(s),
        "duration" => crate::cel::time::parse_duration(s).is_some(),
        "ipv4" => s.contains('.') && k8s::Ip::parse(s).is_ok(),
        "ipv6" => s.contains(':') && k8s::Ip::parse(s).is_ok(),
        "cidr" => k8s::Cidr::parse(s).is_ok(),
        "uri" => k8s::Url::parse_request_uri(s).is_ok(),
        "k8sshortname" => crate::content::is_dns1123_label(s).is_empty(),
        "k8slongname" => crate::content::is_dns1123_subdomain(s).is_empty(),
        _ => true,
    }
}

/// The number validator: the value's range for its type and format, multipleOf, minimum,
/// maximum. Integer data compares with the bounds truncated to integers (`values.go`).
fn numeric(name: &str, value: &Json, schema: &Json, t: &str, errors: &mut Vec<Error>) {
    let n = name.trim_start_matches('.');
    let format = schema.get("format").and_then(Json::as_str).unwrap_or("");
    if t == "integer" || t == "number" {
        let f = value.as_f64().unwrap_or(0.0);
        let fits = match (t, format) {
            ("integer", "int32") => as_int(value).is_some_and(|i| i32::try_from(i).is_ok()),
            ("integer", _) => as_int(value).is_some() || (libm::trunc(f) == f && libm::fabs(f) < 9.2e18),
            ("number", "float") => libm::fabs(f) <= f64::from(f32::MAX),
            _ => true,
        };
        if !fits {
            let kind = match (t, format) {
                (_, "int32" | "int64") if t == "integer" => format!("with format {format}"),
                ("number", "float" | "double") => format!("with format {format}"),
                _ => String::from("(default format)"),
            };
            errors.push(plain(format!("Checked value must be of type {t} {kind} in {n}")));
        }
    }
    let int = as_int(value);
    let f = value.as_f64().unwrap_or(0.0);
    let bound = |b: f64| match int {
        Some(_) => format!("{}", libm::trunc(b) as i64),
        None => crate::field::go_float(b),
    };
    if let Some(m) = schema.get("multipleOf").and_then(Json::as_f64) {
        let factor = if int.is_some() { libm::trunc(m) } else { m };
        if factor <= 0.0 {
            errors.push(invalid(
                name,
                Json::from(factor as i64),
                format!("factor MultipleOf declared for {n} must be positive: {}", bound(m)),
            ));
        } else {
            let mult = if factor < 1.0 { 1.0 / factor * f } else { f / factor };
            if !is_json_integer(mult) {
                errors.push(invalid(name, value.clone(), format!("{n} in body should be a multiple of {}", bound(m))));
            }
        }
    }
    let cmp = |b: f64| match int {
        Some(i) => (i as f64).partial_cmp(&libm::trunc(b)),
        None => f.partial_cmp(&b),
    };
    use core::cmp::Ordering::{Greater, Less};
    if let Some(min) = schema.get("minimum").and_then(Json::as_f64) {
        let exclusive = flag(schema, "exclusiveMinimum");
        let c = cmp(min);
        if c == Some(Less) || (exclusive && c != Some(Greater)) {
            let rel = if exclusive { "greater than" } else { "greater than or equal to" };
            errors.push(invalid(name, value.clone(), format!("{n} in body should be {rel} {}", bound(min))));
        }
    }
    if let Some(max) = schema.get("maximum").and_then(Json::as_f64) {
        let exclusive = flag(schema, "exclusiveMaximum");
        let c = cmp(max);
        if c == Some(Greater) || (exclusive && c != Some(Less)) {
            let rel = if exclusive { "less than" } else { "less than or equal to" };
            errors.push(invalid(name, value.clone(), format!("{n} in body should be {rel} {}", bound(max))));
        }
    }
}

/// The slice validator: the items in order, then minItems, maxItems, uniqueItems.
fn array(name: &str, value: &Json, items: &[Json], schema: &Json, old: Option<&Json>, errors: &mut Vec<Error>) {
    if let Some(item_schema) = schema.get("items").filter(|i| i.is_object()) {
        for (i, item) in items.iter().enumerate() {
            let o = old.and_then(|o| correlate::index(schema, value, o, i));
            node(&format!("{name}[{i}]"), item, item_schema, o, errors);
        }
    }
    counts(name, items.len(), schema, ("minItems", "maxItems", "items"), errors);
    let n = name.trim_start_matches('.');
    if flag(schema, "uniqueItems") && items.iter().enumerate().any(|(i, a)| items[..i].contains(a)) {
        errors.push(invalid(name, Json::from(""), format!("{n} in body shouldn't contain duplicates")));
    }
}

/// Whether a value matches an enum member after Go's conversion to the member's type
/// (`basicCommonValidator`: `1.5` converts to `1`; `null` never matches).
fn enum_matches(value: &Json, member: &Json) -> bool {
    match (value, member) {
        (Json::Null, _) | (_, Json::Null) => false,
        (Json::Number(v), Json::Number(m)) => match (as_int(member), as_int(value)) {
            (Some(mi), Some(vi)) => mi == vi,
            (Some(mi), None) => v.as_f64().is_some_and(|f| libm::fabs(f) < 9.2e18 && libm::trunc(f) as i64 == mi),
            (None, _) => v.as_f64() == m.as_f64(),
        },
        // Go converts an int64 to the string of that code point.
        (Json::Number(_), Json::String(m)) => {
            as_int(value).and_then(|i| u32::try_from(i).ok()).and_then(char::from_u32).is_some_and(|c| {
                let mut buf = [0u8; 4];
                m == c.encode_utf8(&mut buf)
            })
        }
        _ => value == member,
    }
}

/// The enum check (`EnumFail` → field.NotSupported with every member).
fn enumeration(name: &str, value: &Json, schema: &Json, errors: &mut Vec<Error>) {
    let Some(options) = schema.get("enum").and_then(Json::as_array).filter(|o| !o.is_empty()) else { return };
    if options.iter().any(|o| enum_matches(value, o)) {
        return;
    }
    let quoted: Vec<String> = options
        .iter()
        .map(|o| match o {
            Json::String(s) => crate::field::go_quote(s),
            other => crate::field::go_quote(&crate::field::go_json(other)),
        })
        .collect();
    errors.push(Error::new(
        ErrorType::NotSupported,
        &at(name),
        Some(value.clone()),
        format!("supported values: {}", quoted.join(", ")),
    ));
}

/// The object validator: minProperties, maxProperties, additionalProperties, properties,
/// required.
fn object(
    name: &str,
    value: &Json,
    fields: &serde_json::Map<String, Json>,
    schema: &Json,
    old: Option<&Json>,
    errors: &mut Vec<Error>,
) {
    counts(name, fields.len(), schema, ("minProperties", "maxProperties", "properties"), errors);
    let props = schema.get("properties").and_then(Json::as_object);
    let additional = schema.get("additionalProperties");
    // The root's apiVersion and kind are never ratcheted on their own (`isTypeMetaField`).
    let correlated = |k: &str| {
        if name.is_empty() && (k == "apiVersion" || k == "kind") {
            return None;
        }
        old.and_then(|o| correlate::key(schema, value, o, k))
    };
    for (k, v) in fields {
        if props.is_some_and(|p| p.contains_key(k)) {
            continue;
        }
        match additional {
            Some(Json::Bool(false)) => errors.push(invalid(
                name,
                Json::from(k.as_str()),
                format!("{} in body is a forbidden property", child(name, k)),
            )),
            Some(ap @ Json::Object(_)) => node(&child(name, k), v, ap, correlated(k), errors),
            _ => {}
        }
    }
    if let Some(props) = props {
        for (k, v) in fields {
            if let Some(prop) = props.get(k) {
                node(&child(name, k), v, prop, correlated(k), errors);
            }
        }
    }
    if let Some(required) = schema.get("required").and_then(Json::as_array) {
        for r in required.iter().filter_map(Json::as_str) {
            if !fields.contains_key(r) {
                errors.push(Error::new(ErrorType::Required, &at(&child(name, r)), None, ""));
            }
        }
    }
}

/// Calls `f` on each child of `value` that the schema describes (properties as `a.b`, map values
/// as `a[k]`, items as `a[i]`), with the child's schema: the walk of the passes that follow
/// the OpenAPI checks (list types, embedded resources).
pub(super) fn each_child(path: &Path<'_>, value: &Json, schema: &Json, mut f: impl FnMut(&Path<'_>, &Json, &Json)) {
    match value {
        Json::Object(fields) => {
            let props = schema.get("properties").and_then(Json::as_object);
            let additional = schema.get("additionalProperties").filter(|a| a.is_object());
            for (k, v) in fields {
                if let Some(s) = props.and_then(|p| p.get(k)) {
                    f(&path.child(k), v, s);
                } else if let Some(ap) = additional {
                    f(&path.key(k), v, ap);
                }
            }
        }
        Json::Array(items) => {
            if let Some(item_schema) = schema.get("items") {
                for (i, item) in items.iter().enumerate() {
                    f(&path.index(i), item, item_schema);
                }
            }
        }
        _ => {}
    }
}

/// `x-kubernetes-list-type` duplicates (set: values; map: keys), a separate pass after the
/// OpenAPI checks (apiextensions-apiserver `pkg/apiserver/schema/listtype/validation.go`): a
/// list's own duplicates, then its items'.
pub fn list_types(path: &Path<'_>, value: &Json, schema: &Json, errors: &mut Vec<Error>) {
    if let Json::Array(items) = value {
        duplicates(path, items, schema, errors);
    }
    each_child(path, value, schema, |p, v, s| list_types(p, v, s, errors));
}

/// How `validateListSet` tells values apart: scalars by their Go value (`1` and `1.0` differ:
/// int64 and float64), objects and lists by their JSON (where they do not).
fn set_key(v: &Json) -> String {
    match v {
        Json::Number(n) if n.as_i64().is_none() => format!("f:{}", crate::field::go_json(v)),
        Json::Array(_) | Json::Object(_) => format!("j:{}", crate::field::go_json(v)),
        other => format!("s:{}", crate::field::go_json(other)),
    }
}

/// The indexes of the second occurrence of each repeated key (a third is not reported).
fn second_occurrences(keys: &[String]) -> Vec<usize> {
    let mut out = Vec::new();
    for (i, k) in keys.iter().enumerate() {
        if keys[..i].iter().filter(|x| *x == k).count() == 1 {
            out.push(i);
        }
    }
    out
}

fn duplicates(path: &Path<'_>, items: &[Json], schema: &Json, errors: &mut Vec<Error>) {
    match schema.get("x-kubernetes-list-type").and_then(Json::as_str) {
        Some("set") if items.len() > 1 => {
            let keys: Vec<String> = items.iter().map(set_key).collect();
            for i in second_occurrences(&keys) {
                errors.push(Error::new(ErrorType::Duplicate, &path.index(i), Some(items[i].clone()), ""));
            }
        }
        Some("map") => {
            if let Some(i) = items.iter().position(|x| !x.is_null() && !x.is_object()) {
                let detail = "must be an object for an array of list-type map";
                errors.push(Error::new(ErrorType::Invalid, &path.index(i), Some(items[i].clone()), detail));
                return;
            }
            if items.len() < 2 {
                return;
            }
            let names: Vec<&str> = schema
                .get("x-kubernetes-list-map-keys")
                .and_then(Json::as_array)
                .map_or(Vec::new(), |k| k.iter().filter_map(Json::as_str).collect());
            // The key fields an item has (a missing single key is `{}`, unlike an explicit null).
            let key_of = |item: &Json| {
                let mut key = serde_json::Map::new();
                for k in &names {
                    if let Some(v) = item.get(*k) {
                        key.insert(String::from(*k), v.clone());
                    }
                }
                key
            };
            let keys: Vec<serde_json::Map<String, Json>> = items.iter().map(key_of).collect();
            let texts: Vec<String> = match names.as_slice() {
                [one] => keys.iter().map(|k| k.get(*one).map_or(String::from("missing"), set_key)).collect(),
                _ => keys.iter().map(|k| set_key(&Json::Object(k.clone()))).collect(),
            };
            for i in second_occurrences(&texts) {
                errors.push(Error::new(ErrorType::Duplicate, &path.index(i), Some(Json::Object(keys[i].clone())), ""));
            }
        }
        _ => {}
    }
}

/// The API server's warnings on creating a CRD (apiextensions-apiserver
/// `registry/customresourcedefinition/strategy.go` `WarningsOnCreate`): `unrecognized format
/// "F"` for each format its type does not keep (`validation/formats.go`
/// `GetUnrecognizedFormats`), then, sorted and once each, lists of objects or lists declared
/// `x-kubernetes-list-type: set`. Every schema node is visited as `SchemaHas` visits it (items,
/// allOf/anyOf/oneOf/not, properties, additionalProperties, patternProperties,
/// additionalItems, definitions, dependencies); the API server walks properties in Go map
/// order, so the formats' order is not kubedv's to match.
pub fn creation_warnings(crd: &Json) -> Vec<String> {
    let mut formats = Vec::new();
    let mut sets = Vec::new();
    let spec = crd.get("spec");
    let roots = spec.and_then(|s| s.get("validation")).and_then(|v| v.get("openAPIV3Schema")).into_iter().chain(
        spec.and_then(|s| s.get("versions"))
            .and_then(Json::as_array)
            .into_iter()
            .flatten()
            .filter_map(|v| v.get("schema").and_then(|s| s.get("openAPIV3Schema"))),
    );
    for root in roots {
        visit(root, &mut |s| {
            if let Some(f) = s.get("format").and_then(Json::as_str).filter(|f| !f.is_empty()) {
                if kept_format(s, s.get("type").and_then(Json::as_str).unwrap_or("")).is_none() {
                    formats.push(format!("unrecognized format {}", crate::field::go_quote(f)));
                }
            }
            if s.get("x-kubernetes-list-type").and_then(Json::as_str) == Some("set") {
                if let Some(t @ ("object" | "array")) =
                    s.get("items").and_then(|i| i.get("type")).and_then(Json::as_str)
                {
                    sets.push(format!(
                        "x-kubernetes-list-type: set for items of type \"{t}\" is not supported by server-side apply or CEL validation rules"
                    ));
                }
            }
        });
    }
    sets.sort();
    sets.dedup();
    formats.extend(sets);
    formats
}

/// Every schema node under `s` (itself first), as apiextensions' `SchemaHas` walks them.
fn visit(s: &Json, f: &mut dyn FnMut(&Json)) {
    if !s.is_object() {
        return;
    }
    f(s);
    match s.get("items") {
        Some(Json::Array(list)) => list.iter().for_each(|i| visit(i, f)),
        Some(one) => visit(one, f),
        None => {}
    }
    for key in ["allOf", "anyOf", "oneOf"] {
        s.get(key).and_then(Json::as_array).into_iter().flatten().for_each(|i| visit(i, f));
    }
    if let Some(not) = s.get("not") {
        visit(not, f);
    }
    for key in ["properties", "patternProperties", "definitions", "dependencies"] {
        s.get(key).and_then(Json::as_object).into_iter().flat_map(|m| m.values()).for_each(|i| visit(i, f));
    }
    for key in ["additionalProperties", "additionalItems"] {
        if let Some(a) = s.get(key) {
            visit(a, f);
        }
    }
}
