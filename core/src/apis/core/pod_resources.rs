//! Pod-level resources, after `pkg/apis/core/validation/validation.go`
//! (`validatePodResources`, `validatePodResourceConsistency`), `pkg/api/pod/util.go`
//! (`DefaultPodLevelResources`: `defaultHugePagePodLevelLimits`, `defaultPodLevelRequests`,
//! `defaultPodLevelLimits`, `aggregateContainerLimits`) and component-helpers
//! `resource/helpers.go` (`AggregateContainerRequests`, `AggregateContainerLimits`,
//! `aggregateContainerResourcesByFn`, `addResourceList`, `maxResourceList`), with the
//! arithmetic of `resource.Quantity` they need (`Add`, `Cmp`, `String` after an `Add`).
//!
//! Go walks these resource maps in random order; kubedv walks them sorted by name.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::cmp::Ordering;

use serde_json::{Map, Value as Json};

use super::super::json::{field, get, list, object, str};
use super::super::quantity::{self, Format};
use super::pod_common::*;
use crate::field::{Error, Path};

/// An exact quantity: `m × 10^e` (binary suffixes expanded), its format, and the text
/// `String()` prints while it is an unmodified copy.
#[derive(Clone, Debug)]
pub struct Amount {
    m: i128,
    e: i32,
    format: Format,
    text: Option<String>,
}

fn pow10(n: u32) -> Option<i128> {
    10i128.checked_pow(n)
}

impl Amount {
    /// A quantity of the decoded object (`None` when it does not parse or overflows).
    pub fn from_json(v: &Json) -> Option<Amount> {
        let q = quantity::from_json(v)?;
        let text = q.canonical();
        let mut a = parse_text(&text)?;
        a.format = q.format;
        a.text = Some(text);
        Some(a)
    }

    fn is_zero(&self) -> bool {
        self.m == 0
    }

    /// Both mantissas at the smaller exponent.
    fn aligned(&self, other: &Amount) -> Option<(i128, i128, i32)> {
        let e = self.e.min(other.e);
        let a = self.m.checked_mul(pow10(u32::try_from(self.e.checked_sub(e)?).ok()?)?)?;
        let b = other.m.checked_mul(pow10(u32::try_from(other.e.checked_sub(e)?).ok()?)?)?;
        Some((a, b, e))
    }

    /// `q.Cmp(y)`.
    pub fn cmp(&self, other: &Amount) -> Ordering {
        match self.aligned(other) {
            Some((a, b, _)) => a.cmp(&b),
            None => self.m.signum().cmp(&other.m.signum()),
        }
    }

    /// `q.Add(y)` (the format of `y` when `q` is zero).
    fn add(&mut self, y: &Amount) {
        if self.is_zero() {
            self.format = y.format;
        }
        if let Some((a, b, e)) = self.aligned(y) {
            if let Some(m) = a.checked_add(b) {
                self.m = m;
                self.e = e;
            }
        }
        self.text = None;
    }

    /// `q.String()`.
    pub fn text(&self) -> String {
        if let Some(t) = &self.text {
            return t.clone();
        }
        canonical(self.m, self.e, self.format)
    }
}

/// A quantity's text read exactly (`<sign><digits>[.<digits>]<suffix>`).
fn parse_text(text: &str) -> Option<Amount> {
    let (neg, rest) = match text.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let end = rest.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(rest.len());
    let (number, suffix) = rest.split_at(end);
    let (int_part, frac) = number.split_once('.').unwrap_or((number, ""));
    let mut m: i128 = 0;
    for c in int_part.bytes().chain(frac.bytes()) {
        m = m.checked_mul(10)?.checked_add(i128::from(c - b'0'))?;
    }
    let mut e = -i32::try_from(frac.len()).ok()?;
    let binary = |k: u32| 1024i128.checked_pow(k);
    match suffix {
        "" => {}
        "n" => e -= 9,
        "u" => e -= 6,
        "m" => e -= 3,
        "k" => e += 3,
        "M" => e += 6,
        "G" => e += 9,
        "T" => e += 12,
        "P" => e += 15,
        "E" => e += 18,
        "Ki" | "Mi" | "Gi" | "Ti" | "Pi" | "Ei" => {
            let k = match suffix {
                "Ki" => 1,
                "Mi" => 2,
                "Gi" => 3,
                "Ti" => 4,
                "Pi" => 5,
                _ => 6,
            };
            m = m.checked_mul(binary(k)?)?;
        }
        s => {
            let exp = s.strip_prefix(['e', 'E'])?.parse::<i32>().ok()?;
            e = e.checked_add(exp)?;
        }
    }
    Some(Amount { m: if neg { -m } else { m }, e, format: Format::DecimalSI, text: None })
}

/// `CanonicalizeBytes` of `m × 10^e` in `format`.
fn canonical(m: i128, e: i32, format: Format) -> String {
    if m == 0 {
        return String::from("0");
    }
    let mut format = format;
    if format == Format::BinarySI {
        let integer = if e >= 0 { pow10(e.unsigned_abs()).and_then(|p| m.checked_mul(p)) } else { None };
        let integer = integer.or_else(|| {
            let p = pow10(e.unsigned_abs())?;
            (e < 0 && m % p == 0).then(|| m / p)
        });
        match integer {
            Some(v) if v > -1024 && v < 1024 => format = Format::DecimalSI,
            Some(v) => {
                let (mut amount, mut k) = (v, 0usize);
                while amount % 1024 == 0 && k < 6 {
                    amount /= 1024;
                    k += 1;
                }
                let suffix = ["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"].get(k).copied().unwrap_or("");
                return format!("{amount}{suffix}");
            }
            None => format = Format::DecimalSI,
        }
    }
    // AsCanonicalBytes: factors of 10 out, then the exponent a multiple of 3.
    let (mut amount, mut exp) = (m, e);
    while amount % 10 == 0 {
        amount /= 10;
        exp = exp.saturating_add(1);
    }
    let (factor, shift) = match exp % 3 {
        1 | -2 => (10, 1),
        2 | -1 => (100, 2),
        _ => (1, 0),
    };
    match amount.checked_mul(factor) {
        Some(a) => {
            amount = a;
            exp = exp.saturating_sub(shift);
        }
        None => return format!("{amount}e{exp}"),
    }
    if format == Format::DecimalExponent {
        return if exp == 0 { format!("{amount}") } else { format!("{amount}e{exp}") };
    }
    match quantity::decimal_suffix(i64::from(exp)) {
        Some(suffix) => format!("{amount}{suffix}"),
        None => format!("{amount}e{exp}"),
    }
}

/// A `v1.ResourceList` being aggregated.
pub type List = BTreeMap<String, Amount>;

fn resource_list(v: &Json, key: &str) -> List {
    let mut out = List::new();
    for (k, q) in object(v, key).into_iter().flatten() {
        if let Some(a) = Amount::from_json(q) {
            out.insert(k.clone(), a);
        }
    }
    out
}

/// `addResourceList`.
fn add_list(list: &mut List, new: &List) {
    for (name, q) in new {
        match list.get_mut(name) {
            Some(v) => v.add(q),
            None => {
                list.insert(name.clone(), q.clone());
            }
        }
    }
}

/// `maxResourceList`.
fn max_list(list: &mut List, new: &List) {
    for (name, q) in new {
        if list.get(name).is_none_or(|v| q.cmp(v) == Ordering::Greater) {
            list.insert(name.clone(), q.clone());
        }
    }
}

/// `aggregateContainerResourcesByFn` over the containers' `requests` or `limits` (`kind`).
pub fn aggregate(spec: &Json, kind: &str) -> List {
    let mut result = List::new();
    for c in list(spec, "containers") {
        add_list(&mut result, &resource_list(field(c, "resources"), kind));
    }
    let mut restartable = List::new();
    let mut init = List::new();
    for c in list(spec, "initContainers") {
        let mut resources = resource_list(field(c, "resources"), kind);
        if str(c, "restartPolicy") == "Always" {
            add_list(&mut result, &resources);
            add_list(&mut restartable, &resources);
            resources = restartable.clone();
        } else {
            let mut combined = List::new();
            add_list(&mut combined, &resources);
            add_list(&mut combined, &restartable);
            resources = combined;
        }
        max_list(&mut init, &resources);
    }
    max_list(&mut result, &init);
    result
}

/// `IsSupportedPodLevelResource`.
fn supported(name: &str) -> bool {
    name == "cpu" || name == "memory" || name.starts_with("hugepages-")
}

/// `validatePodResourceConsistency`.
pub fn validate_pod_resource_consistency(spec: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let res = field(spec, "resources");
    let pod_requests = resource_list(res, "requests");
    let pod_limits = resource_list(res, "limits");
    let rp = path.child("requests");
    for (name, ctr) in aggregate(spec, "requests") {
        let Some(pod) = pod_requests.get(&name) else { continue };
        if ctr.cmp(pod) == Ordering::Greater {
            let msg = format!("must be greater than or equal to aggregate container requests of {}", ctr.text());
            errors.push(Error::invalid(&rp.key(&name), pod.text(), msg));
        }
    }
    let lp = path.child("limits");
    for (name, ctr) in aggregate(spec, "limits") {
        if !is_huge_page(&name) {
            continue;
        }
        let Some(pod) = pod_limits.get(&name) else { continue };
        if ctr.cmp(pod) == Ordering::Greater {
            let msg = format!("must be greater than or equal to aggregate container limits of {}", ctr.text());
            errors.push(Error::invalid(&lp.key(&name), pod.text(), msg));
        }
    }
    let cp = path.child("containers");
    for (i, c) in list(spec, "containers").iter().enumerate() {
        for (name, limit) in resource_list(field(c, "resources"), "limits") {
            let Some(pod) = pod_limits.get(&name) else { continue };
            if limit.cmp(pod) == Ordering::Greater {
                let at = cp.index(i);
                let at = at.key(&name);
                let msg = format!("must be less than or equal to pod limits of {}", pod.text());
                errors.push(Error::invalid(&at.child("limits"), limit.text(), msg));
            }
        }
    }
}

fn to_json(list: &List) -> Json {
    Json::Object(list.iter().map(|(k, v)| (k.clone(), Json::from(v.text()))).collect::<Map<String, Json>>())
}

/// `DefaultPodLevelResources` (PodLevelResources and PodLevelResourcesFixDefaulting on), run
/// by the pod create strategy.
pub fn default_pod_level_resources(pod: &mut Json) {
    let Some(spec) = pod.get("spec") else { return };
    let Some(res) = get(spec, "resources") else { return };
    let mut requests = resource_list(res, "requests");
    let mut limits = resource_list(res, "limits");
    let raw_requests = object(res, "requests").cloned().unwrap_or_default();
    let mut raw_limits = object(res, "limits").cloned().unwrap_or_default();
    if raw_requests.is_empty() && raw_limits.is_empty() {
        return;
    }
    // defaultHugePagePodLevelLimits.
    let mut limits_changed = false;
    for (key, aggr) in aggregate(spec, "limits") {
        if !supported(&key) || !is_huge_page(&key) || raw_requests.contains_key(&key) {
            continue;
        }
        if !raw_limits.contains_key(&key) {
            raw_limits.insert(key.clone(), Json::from(aggr.text()));
            limits.insert(key, aggr);
            limits_changed = true;
        }
    }
    // defaultPodLevelRequests.
    let mut new_requests = raw_requests.clone();
    for (key, aggr) in aggregate(spec, "requests") {
        if !new_requests.contains_key(&key) && supported(&key) && is_overcommit_allowed(&key) {
            new_requests.insert(key.clone(), Json::from(aggr.text()));
            requests.insert(key, aggr);
        }
    }
    for (key, lim) in &limits {
        if !new_requests.contains_key(key) && supported(key) {
            new_requests.insert(key.clone(), Json::from(lim.text()));
            requests.insert(key.clone(), lim.clone());
        }
    }
    // defaultPodLevelLimits.
    let mut candidates: Vec<String> =
        requests.keys().filter(|k| supported(k) && !raw_limits.contains_key(*k)).cloned().collect();
    for key in ["initContainers", "containers", "ephemeralContainers"] {
        for c in list(spec, key) {
            let lims = field(field(c, "resources"), "limits");
            candidates.retain(|r| lims.get(r).is_some());
        }
    }
    let mut default_limits = List::new();
    if !candidates.is_empty() {
        let aggr = aggregate(spec, "limits");
        for name in &candidates {
            let Some(val) = aggr.get(name) else { continue };
            let val = match requests.get(name) {
                Some(req) if req.cmp(val) == Ordering::Greater => req.clone(),
                _ => val.clone(),
            };
            default_limits.insert(name.clone(), val);
        }
    }
    let Some(res) = pod.get_mut("spec").and_then(|s| s.get_mut("resources")).and_then(Json::as_object_mut) else {
        return;
    };
    if !new_requests.is_empty() {
        res.insert(String::from("requests"), Json::Object(new_requests));
    }
    if limits_changed || !default_limits.is_empty() {
        if let Json::Object(extra) = to_json(&default_limits) {
            raw_limits.extend(extra);
        }
        res.insert(String::from("limits"), Json::Object(raw_limits));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn amount(s: &str) -> Amount {
        Amount::from_json(&json!(s)).unwrap_or(Amount { m: 0, e: 0, format: Format::DecimalSI, text: None })
    }

    // resource.Quantity Add / String (quantity_test.go TestQuantityAdd-style cases).
    #[test]
    fn arithmetic() {
        let mut a = amount("50Mi");
        a.add(&amount("50Mi"));
        assert_eq!(a.text(), "100Mi");
        let mut a = amount("100m");
        a.add(&amount("1"));
        assert_eq!(a.text(), "1100m");
        let mut a = amount("1Gi");
        a.add(&amount("1G"));
        assert_eq!(a.text(), "2073741824");
        assert_eq!(amount("1500m").cmp(&amount("50Mi")), Ordering::Less);
    }

    // TestValidatePodResourceConsistency.
    #[test]
    fn consistency() {
        let spec = json!({
            "resources": {"requests": {"memory": "1500m"}, "limits": {"cpu": "1"}},
            "containers": [
                {"resources": {"requests": {"memory": "20Mi"}, "limits": {"cpu": "2"}}},
                {"resources": {"requests": {"memory": "30Mi"}}}
            ],
        });
        let mut errors = Vec::new();
        validate_pod_resource_consistency(&spec, &Path::named("spec").child("resources"), &mut errors);
        let texts: Vec<String> = errors.iter().map(Error::text).collect();
        assert_eq!(
            texts,
            [
                "spec.resources.requests[memory]: Invalid value: \"1500m\": must be greater than or equal to aggregate container requests of 50Mi",
                "spec.resources.containers[0][cpu].limits: Invalid value: \"2\": must be less than or equal to pod limits of 1",
            ]
        );
    }

    // TestDefaultPodLevelResources (requests from the containers, limits from the pod requests).
    #[test]
    fn defaulting() {
        let mut pod = json!({"spec": {
            "resources": {"limits": {"memory": "1Gi"}},
            "containers": [{"resources": {"requests": {"cpu": "100m", "memory": "100Mi"}, "limits": {"cpu": "200m"}}}],
        }});
        default_pod_level_resources(&mut pod);
        assert_eq!(
            pod["spec"]["resources"],
            json!({"requests": {"cpu": "100m", "memory": "100Mi"}, "limits": {"cpu": "200m", "memory": "1Gi"}})
        );
    }
}
