//! `metav1.LabelSelector` as the apps and batch validations use it: apimachinery
//! `pkg/apis/meta/v1/validation` (`ValidateLabelSelector`, `ValidateLabelSelectorRequirement`,
//! `LabelSelectorHasInvalidLabelValue`), `pkg/apis/meta/v1/helpers.go`
//! (`LabelSelectorAsSelector`: whether it converts, and the selector's `Empty`/`Matches`), and
//! the selector's JSON as `field.Error` prints it.

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{Map, Value as Json};

use crate::content;
use crate::field::{go_json, Error, Path};

/// The operators a `LabelSelectorRequirement` may use.
const IN: &str = "In";
const NOT_IN: &str = "NotIn";
const EXISTS: &str = "Exists";
const DOES_NOT_EXIST: &str = "DoesNotExist";

/// meta/v1 validation `ValidateLabelSelector` (`selector` absent or `null`: nothing to check).
pub(crate) fn validate(
    selector: Option<&Json>,
    allow_invalid_label_value: bool,
    path: &Path<'_>,
    errors: &mut Vec<Error>,
) {
    crate::apis::core::common::validate_label_selector(selector, allow_invalid_label_value, path, errors);
}

/// meta/v1 validation `LabelSelectorHasInvalidLabelValue`.
pub(crate) fn has_invalid_label_value(selector: Option<&Json>) -> bool {
    let Some(sel) = selector else { return false };
    list(sel, "matchExpressions")
        .iter()
        .flat_map(|e| list(e, "values"))
        .any(|v| !content::is_label_value(v.as_str().unwrap_or("")).is_empty())
}

fn list<'a>(v: &'a Json, key: &str) -> &'a [Json] {
    v.get(key).and_then(Json::as_array).map_or(&[], Vec::as_slice)
}

/// A selector `LabelSelectorAsSelector` made.
#[derive(Clone, Debug)]
pub(crate) enum Selector<'a> {
    /// `labels.Nothing()`: the selector was nil.
    Nothing,
    /// `labels.Everything()`: no requirement.
    Everything,
    /// The requirements, all of which must hold.
    Requirements(Vec<(&'a str, &'a str, Vec<&'a str>)>),
}

impl Selector<'_> {
    /// `Selector.Empty()`: only `Everything` is.
    pub(crate) fn is_empty(&self) -> bool {
        matches!(self, Selector::Everything)
    }

    /// `Selector.Matches(labels.Set(labels))`.
    pub(crate) fn matches(&self, labels: Option<&Map<String, Json>>) -> bool {
        let get = |k: &str| labels.and_then(|l| l.get(k)).and_then(Json::as_str);
        match self {
            Selector::Nothing => false,
            Selector::Everything => true,
            Selector::Requirements(reqs) => reqs.iter().all(|(key, op, values)| match *op {
                IN => get(key).is_some_and(|v| values.contains(&v)),
                NOT_IN => get(key).is_none_or(|v| !values.contains(&v)),
                EXISTS => get(key).is_some(),
                _ => get(key).is_none(),
            }),
        }
    }
}

/// `metav1.LabelSelectorAsSelector`: `Err(())` where it fails (an unknown operator, or
/// `labels.NewRequirement` refusing a key, a value or the number of values).
pub(crate) fn as_selector(selector: Option<&Json>) -> Result<Selector<'_>, ()> {
    let Some(sel) = selector.filter(|s| !s.is_null()) else { return Ok(Selector::Nothing) };
    let labels = sel.get("matchLabels").and_then(Json::as_object);
    let exprs = list(sel, "matchExpressions");
    if labels.map_or(0, Map::len) + exprs.len() == 0 {
        return Ok(Selector::Everything);
    }
    let key_ok = |k: &str| content::is_label_key(k).is_empty();
    let value_ok = |v: &str| content::is_label_value(v).is_empty();
    let mut reqs = Vec::new();
    for (k, v) in labels.into_iter().flatten() {
        let v = v.as_str().unwrap_or("");
        if !key_ok(k) || !value_ok(v) {
            return Err(());
        }
        reqs.push((k.as_str(), IN, alloc::vec![v]));
    }
    for expr in exprs {
        let op = expr.get("operator").and_then(Json::as_str).unwrap_or("");
        let key = expr.get("key").and_then(Json::as_str).unwrap_or("");
        let values: Vec<&str> = list(expr, "values").iter().map(|v| v.as_str().unwrap_or("")).collect();
        let count_ok = match op {
            IN | NOT_IN => !values.is_empty(),
            EXISTS | DOES_NOT_EXIST => values.is_empty(),
            _ => return Err(()),
        };
        if !count_ok || !key_ok(key) || !values.iter().all(|v| value_ok(v)) {
            return Err(());
        }
        reqs.push((key, op, values));
    }
    Ok(Selector::Requirements(reqs))
}

/// `json.Marshal` of a `*metav1.LabelSelector` (`null` when nil): `matchLabels` then
/// `matchExpressions`, both omitted when empty; a requirement's `values` omitted when empty.
pub(crate) fn render(selector: Option<&Json>) -> String {
    let Some(sel) = selector.filter(|s| !s.is_null()) else { return String::from("null") };
    let mut parts = Vec::new();
    if let Some(labels) = sel.get("matchLabels").and_then(Json::as_object).filter(|m| !m.is_empty()) {
        parts.push(alloc::format!("\"matchLabels\":{}", go_json(&Json::Object(labels.clone()))));
    }
    let exprs = list(sel, "matchExpressions");
    if !exprs.is_empty() {
        let items: Vec<String> = exprs
            .iter()
            .map(|e| {
                let s = |k: &str| go_json(&Json::from(e.get(k).and_then(Json::as_str).unwrap_or("")));
                let values = list(e, "values");
                let mut item = alloc::format!("{{\"key\":{},\"operator\":{}", s("key"), s("operator"));
                if !values.is_empty() {
                    item.push_str(&alloc::format!(",\"values\":{}", go_json(&Json::Array(values.to_vec()))));
                }
                item.push('}');
                item
            })
            .collect();
        parts.push(alloc::format!("\"matchExpressions\":[{}]", items.join(",")));
    }
    alloc::format!("{{{}}}", parts.join(","))
}

/// `field.Invalid(path, selector, detail)`: the selector printed as its JSON.
pub(crate) fn invalid(path: &Path<'_>, selector: Option<&Json>, detail: &str) -> Error {
    let value = selector.cloned().unwrap_or(Json::Null);
    super::common::invalid_rendered(path, value, render(selector), detail)
}
