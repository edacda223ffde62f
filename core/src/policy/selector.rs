//! Label selectors (`metav1.LabelSelector`) as apimachinery converts and matches them
//! (`pkg/apis/meta/v1/helpers.go` `LabelSelectorAsSelector`, `pkg/labels/selector.go`
//! `Requirement.Matches`). Refusals read as `labels.NewRequirement`'s field errors, whose values
//! print as JSON (`field.Error.ErrorBody`).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{Map, Value as Json};

/// One requirement of a selector.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Requirement {
    In(String, Vec<String>),
    NotIn(String, Vec<String>),
    Exists(String),
    DoesNotExist(String),
}

/// A compiled label selector.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Selector {
    requirements: Vec<Requirement>,
}

impl Selector {
    /// The selector that matches everything (`{}`), which an unset selector defaults to in
    /// admission registration (`SetDefaults_MatchResources`).
    pub fn everything() -> Selector {
        Selector { requirements: Vec::new() }
    }

    /// Compiles a `LabelSelector`; `None`/`null` is the defaulted `{}`. The error is the text
    /// `LabelSelectorAsSelector` returns.
    pub fn parse(selector: Option<&Json>) -> Result<Selector, String> {
        let Some(sel) = selector.filter(|s| !s.is_null()) else {
            return Ok(Selector::everything());
        };
        let Some(sel) = sel.as_object() else {
            return Err(String::from("a label selector must be an object"));
        };
        let mut requirements = Vec::new();
        if let Some(labels) = sel.get("matchLabels").and_then(Json::as_object) {
            for (k, v) in labels {
                let v = v.as_str().ok_or_else(|| format!("matchLabels[{k:?}] must be a string"))?;
                requirements.push(Requirement::In(k.clone(), Vec::from([String::from(v)])));
            }
        }
        for expr in sel.get("matchExpressions").and_then(Json::as_array).map_or(&[][..], |a| &a[..]) {
            requirements.push(requirement(expr.as_object().ok_or("a matchExpressions item must be an object")?)?);
        }
        Ok(Selector { requirements })
    }

    /// Whether labels satisfy every requirement.
    pub fn matches(&self, labels: Option<&Map<String, Json>>) -> bool {
        let get = |k: &str| labels.and_then(|l| l.get(k)).and_then(Json::as_str);
        self.requirements.iter().all(|r| match r {
            Requirement::In(k, vs) => get(k).is_some_and(|v| vs.iter().any(|x| x == v)),
            Requirement::NotIn(k, vs) => get(k).is_none_or(|v| !vs.iter().any(|x| x == v)),
            Requirement::Exists(k) => get(k).is_some(),
            Requirement::DoesNotExist(k) => get(k).is_none(),
        })
    }

    /// Whether this is `{}`.
    pub fn is_everything(&self) -> bool {
        self.requirements.is_empty()
    }
}

fn requirement(expr: &Map<String, Json>) -> Result<Requirement, String> {
    let key = String::from(expr.get("key").and_then(Json::as_str).unwrap_or(""));
    let op = expr.get("operator").and_then(Json::as_str).unwrap_or("");
    let values: Vec<String> = expr
        .get("values")
        .and_then(Json::as_array)
        .map(|a| a.iter().filter_map(|v| v.as_str().map(String::from)).collect())
        .unwrap_or_default();
    // labels.NewRequirement's checks, in its order.
    match op {
        "In" | "NotIn" if values.is_empty() => {
            return Err(String::from(
                "values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty",
            ))
        }
        "Exists" | "DoesNotExist" if !values.is_empty() => {
            return Err(format!(
                "values: Invalid value: {}: values set must be empty for exists and does not exist",
                crate::field::go_json(&Json::from(values.clone()))
            ))
        }
        _ => {}
    }
    Ok(match op {
        "In" => Requirement::In(key, values),
        "NotIn" => Requirement::NotIn(key, values),
        "Exists" => Requirement::Exists(key),
        "DoesNotExist" => Requirement::DoesNotExist(key),
        other => return Err(format!("{other:?} is not a valid label selector operator")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn labels(v: Json) -> Map<String, Json> {
        v.as_object().cloned().unwrap()
    }

    // apimachinery pkg/labels/selector_test.go TestRequirementMatches semantics: NotIn and
    // DoesNotExist match a missing label; In and Exists do not.
    #[test]
    fn operators() {
        let l = labels(json!({"env": "prod", "tier": "web"}));
        let sel = |s: Json| Selector::parse(Some(&s)).unwrap();
        assert!(sel(json!({})).matches(Some(&l)));
        assert!(sel(json!({})).matches(None));
        assert!(sel(json!({"matchLabels": {"env": "prod"}})).matches(Some(&l)));
        assert!(!sel(json!({"matchLabels": {"env": "dev"}})).matches(Some(&l)));
        let expr =
            |op: &str, vals: Json| json!({"matchExpressions": [{"key": "team", "operator": op, "values": vals}]});
        assert!(sel(expr("NotIn", json!(["a"]))).matches(Some(&l)));
        assert!(!sel(expr("In", json!(["a"]))).matches(Some(&l)));
        assert!(sel(json!({"matchExpressions": [{"key": "team", "operator": "DoesNotExist"}]})).matches(Some(&l)));
        assert!(!sel(json!({"matchExpressions": [{"key": "env", "operator": "DoesNotExist"}]})).matches(Some(&l)));
        assert!(sel(json!({"matchExpressions": [{"key": "env", "operator": "Exists"}]})).matches(Some(&l)));
    }

    #[test]
    fn refusals() {
        let bad = |s: Json| Selector::parse(Some(&s)).unwrap_err();
        assert_eq!(
            bad(json!({"matchExpressions": [{"key": "a", "operator": "In"}]})),
            "values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty"
        );
        assert_eq!(
            bad(json!({"matchExpressions": [{"key": "a", "operator": "Exists", "values": ["x"]}]})),
            "values: Invalid value: [\"x\"]: values set must be empty for exists and does not exist"
        );
        assert_eq!(
            bad(json!({"matchExpressions": [{"key": "a", "operator": "Has"}]})),
            "\"Has\" is not a valid label selector operator"
        );
    }
}
