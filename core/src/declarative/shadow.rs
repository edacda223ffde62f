//! Enforcement and shadow mode: which declarative errors the API server returns, and how they
//! compare with handwritten validation, per Kubernetes version ([`VERSIONS`], one row each).
//!
//! - 1.33–1.35 (the strategies' `ValidateDeclaratively` + `CompareDeclarativeErrorsAndEmitMismatches`;
//!   apiserver v0.35 `ValidateDeclarativelyWithMigrationChecks`): with DeclarativeValidation
//!   on, handwritten validation is authoritative unless DeclarativeValidationTakeover is on,
//!   which returns the handwritten errors less the covered ones plus every declarative error;
//!   every declarative error is compared; handwritten duplicates are exact ones; a declarative
//!   error is used up by the first handwritten error it matches.
//! - 1.36 (apiserver v0.36.3): a resource that opted into declarative enforcement returns
//!   stable rules, `+k8s:beta` rules while DeclarativeValidationBeta is on, internal errors
//!   always, never `+k8s:alpha` ones, and drops a covered handwritten error that is itself
//!   marked beta while the gate is on (`filterHandwrittenErrors`); one that did not opt in
//!   returns its handwritten errors and compares every declarative error. Takeover is accepted
//!   and ignored.
//! - 1.37 (apiserver after PR #140117): no opt-in — every resource with declarative validation
//!   enforces it; a covered handwritten error is dropped only when an enforced beta declarative
//!   error matches it (apimachinery `validate.FilterCoveredHandwrittenErrors`); matching is
//!   many-to-many; Takeover is locked to false.
//!
//! From 1.36 only alpha and beta errors are compared, and handwritten duplicates are found with
//! the matcher. A `since:` argument of a lifecycle tag has no effect at run time in any version.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::Serialize;

use crate::field::{Error, ErrorType, Stability};

/// How the API server treats declarative validation in one Kubernetes minor: one row of
/// [`VERSIONS`] (adding a version is adding a row).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Version {
    /// The minor (1.N).
    pub minor: u32,
    /// DeclarativeValidation is GA and locked on (1.36+); before, a Beta gate, default on.
    pub dv_locked: bool,
    /// DeclarativeValidationBeta exists (1.36+): the stability levels are enforced.
    pub levels: bool,
    /// DeclarativeValidationTakeover is honored (1.33–1.35).
    pub takeover_honored: bool,
    /// DeclarativeValidationTakeover is locked to false (1.37+).
    pub takeover_locked: bool,
    /// Resources opt into declarative enforcement one by one (1.36 only).
    pub opt_in: bool,
    /// A covered handwritten error is dropped by matching it against enforced beta errors
    /// (1.37+, PR #140117) rather than by its own beta mark (1.36).
    pub reverse_lookup: bool,
    /// Matching is many-to-many (1.37+); before, a declarative error is used up by the first
    /// handwritten error that matches it.
    pub many_to_many: bool,
    /// Handwritten duplicates are exact ones (type, field, value, origin, detail: 1.33–1.35);
    /// after, those the matcher cannot tell apart.
    pub exact_dedup: bool,
    /// A resource's normalization rules rewrite declarative error paths before matching
    /// (apimachinery `field.NormalizationRule`, `ByFieldNormalized`: 1.35+).
    pub normalization: bool,
    /// A short-circuiting declarative error can stand for handwritten errors on its field's
    /// children (`DeclarativeValidationConfig.ShortCircuitMismatch`,
    /// `MatchAncestorShortCircuit`: 1.37+, per resource).
    pub short_circuit_match: bool,
}

const fn row(minor: u32) -> Version {
    Version {
        minor,
        dv_locked: minor >= 36,
        levels: minor >= 36,
        takeover_honored: minor <= 35,
        takeover_locked: minor >= 37,
        opt_in: minor == 36,
        reverse_lookup: minor >= 37,
        many_to_many: minor >= 37,
        exact_dedup: minor <= 35,
        normalization: minor >= 35,
        short_circuit_match: minor >= 37,
    }
}

/// The Kubernetes versions kubedv models, oldest first; the last is the default.
pub const VERSIONS: &[Version] = &[row(33), row(34), row(35), row(36), row(37)];

/// The newest Kubernetes minor kubedv models ([`crate::release::NEWEST_MINOR`]).
pub const NEWEST_MINOR: u32 = crate::release::NEWEST_MINOR;
/// The oldest minor with declarative validation ([`crate::release::OLDEST_DECLARATIVE_MINOR`]).
pub const OLDEST_MINOR: u32 = crate::release::OLDEST_DECLARATIVE_MINOR;
const _: () = assert!(VERSIONS[0].minor == OLDEST_MINOR && VERSIONS[VERSIONS.len() - 1].minor == NEWEST_MINOR);

/// The supported versions as a list (`1.33, 1.34, ...`), for messages.
pub fn supported_versions() -> String {
    VERSIONS.iter().map(|v| format!("1.{}", v.minor)).collect::<Vec<_>>().join(", ")
}

/// The minor of a supported version written `1.N` (or `v1.N`), the newest when none is given;
/// else an error listing them.
pub fn parse_version(given: Option<&str>) -> Result<u32, String> {
    let Some(v) = given else { return Ok(NEWEST_MINOR) };
    match crate::release::minor(v).and_then(version) {
        Some(row) => Ok(row.minor),
        None => Err(format!(
            "Kubernetes version {v:?} is not supported: expected one of {} (declarative validation started in 1.{OLDEST_MINOR})",
            supported_versions()
        )),
    }
}

/// The row of a supported minor.
pub fn version(minor: u32) -> Option<Version> {
    VERSIONS.iter().copied().find(|v| v.minor == minor)
}

/// The API server's configuration for one request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Enforcement {
    /// The Kubernetes minor version (1.N).
    pub minor: u32,
    /// Whether the resource opted into declarative enforcement (1.36 only: before, there was
    /// no enforcement without Takeover; from 1.37 every resource with declarative validation
    /// enforces it).
    pub opted_in: bool,
    /// DeclarativeValidation (GA and locked on since 1.36; from then it only controls the
    /// mismatch comparison).
    pub declarative_validation: bool,
    /// DeclarativeValidationBeta (1.36+, default on).
    pub beta: bool,
    /// DeclarativeValidationTakeover (1.33–1.35, default off; ignored in 1.36, locked off in 1.37).
    pub takeover: bool,
    /// The resource's normalization rules (`regexp`, `replacement`), as its strategy passes
    /// them (`rest.WithNormalizationRules`; 1.35+): see [`normalization_rules`].
    pub normalization: Vec<(String, String)>,
    /// The resource sets `ShortCircuitMismatch` (1.37+).
    pub short_circuit_mismatch: bool,
}

impl Default for Enforcement {
    fn default() -> Self {
        Enforcement::for_version(NEWEST_MINOR)
    }
}

impl Enforcement {
    /// The defaults of Kubernetes 1.`minor`.
    pub fn for_version(minor: u32) -> Enforcement {
        Enforcement {
            minor,
            opted_in: true,
            declarative_validation: true,
            beta: true,
            takeover: false,
            normalization: Vec::new(),
            short_circuit_mismatch: false,
        }
    }

    fn row(&self) -> Version {
        version(self.minor).unwrap_or_else(|| row(self.minor))
    }

    /// The configuration for a request: `version` as `1.N` (default the newest), feature gates
    /// by name, and whether the resource opted into declarative enforcement (1.36; refused from
    /// 1.37, which has no opt-in). Errors say what is accepted.
    pub fn from_request(version: Option<&str>, gates: &[(&str, bool)], opted_in: bool) -> Result<Enforcement, String> {
        let minor = parse_version(version)?;
        let mut config = Enforcement::for_version(minor);
        if !opted_in {
            if minor > 36 {
                return Err(format!(
                    "1.{minor} has no per-resource opt-in: every resource with declarative validation enforces it (set DeclarativeValidationBeta=false to stop enforcing beta rules)"
                ));
            }
            config.opted_in = false;
        }
        for (name, on) in gates {
            config.set_gate(name, *on)?;
        }
        Ok(config)
    }

    /// Adds a resource's comparison settings as the CLI and npm take them: normalization rules
    /// as `REGEXP=REPLACEMENT` (1.35+) and ShortCircuitMismatch (1.37+). Errors say why.
    pub fn set_comparison(&mut self, rules: &[String], short_circuit_mismatch: bool) -> Result<(), String> {
        for rule in rules {
            let (re, to) = rule
                .rsplit_once('=')
                .ok_or_else(|| format!("normalization rule {rule:?}: expected REGEXP=REPLACEMENT"))?;
            self.normalization.push((String::from(re), String::from(to)));
        }
        check_rules(&self.normalization)?;
        if !rules.is_empty() && !self.row().normalization {
            return Err(format!("Kubernetes 1.{} has no normalization rules (they came in 1.35)", self.minor));
        }
        if short_circuit_mismatch && !self.row().short_circuit_match {
            return Err(format!("Kubernetes 1.{} has no ShortCircuitMismatch (it came in 1.37)", self.minor));
        }
        self.short_circuit_mismatch = short_circuit_mismatch;
        Ok(())
    }

    /// Sets a feature gate by name, refused as component-base refuses it (locked gates,
    /// gates the version does not have).
    pub fn set_gate(&mut self, name: &str, on: bool) -> Result<(), String> {
        let row = self.row();
        let locked = |to: bool| format!("cannot set feature gate {name} to {on}, feature is locked to {to}");
        match name {
            "DeclarativeValidation" if row.dv_locked && !on => Err(locked(true)),
            "DeclarativeValidation" => {
                self.declarative_validation = on;
                Ok(())
            }
            "DeclarativeValidationBeta" if row.levels => {
                self.beta = on;
                Ok(())
            }
            "DeclarativeValidationTakeover" if row.takeover_locked && on => Err(locked(false)),
            "DeclarativeValidationTakeover" if row.takeover_honored => {
                self.takeover = on;
                Ok(())
            }
            // Deprecated in 1.36: accepted, not honored.
            "DeclarativeValidationTakeover" => Ok(()),
            _ => {
                let gates = if row.levels {
                    "DeclarativeValidation, DeclarativeValidationBeta, DeclarativeValidationTakeover"
                } else {
                    "DeclarativeValidation, DeclarativeValidationTakeover"
                };
                Err(format!("unrecognized feature gate: {name} (Kubernetes 1.{} has {gates})", self.minor))
            }
        }
    }

    /// Whether declarative validation runs at all.
    pub fn runs(&self) -> bool {
        self.row().dv_locked || self.declarative_validation
    }

    /// Whether the stability levels decide enforcement for this resource (1.36 opted in, 1.37).
    fn leveled(&self) -> bool {
        let row = self.row();
        row.levels && (self.opted_in || !row.opt_in)
    }

    /// Whether the API server returns this declarative error, and the sentence that decides it.
    pub fn verdict(&self, e: &Error) -> (bool, String) {
        let n = self.minor;
        let row = self.row();
        let level = match e.stability {
            Stability::Alpha => "alpha rule",
            Stability::Beta => "beta rule",
            Stability::Stable => "stable rule",
        };
        if !self.runs() {
            return (false, format!("DeclarativeValidation=false in 1.{n}: declarative validation does not run"));
        }
        if !row.levels {
            if !self.takeover {
                return (false, format!("{level}, 1.{n} with DeclarativeValidationTakeover=false: handwritten validation is authoritative, this error is only compared"));
            }
            // Before 1.36 there are no stability levels: Takeover returns every declarative error.
            return (true, format!("{level}, 1.{n} with DeclarativeValidationTakeover=true: every declarative error is returned (1.{n} has no stability levels)"));
        }
        if !self.leveled() {
            return (
                false,
                format!(
                    "{level}: the resource has not opted into declarative enforcement (1.36), so this error is only compared"
                ),
            );
        }
        if e.kind == ErrorType::Internal {
            return (true, "internal error: always returned".to_string());
        }
        match e.stability {
            Stability::Stable => (true, "stable rule: declarative validation is authoritative → returned".to_string()),
            Stability::Beta if self.beta => {
                (true, "beta rule, gate DeclarativeValidationBeta=true → returned".to_string())
            }
            Stability::Beta => {
                (false, "beta rule, gate DeclarativeValidationBeta=false → shadowed, only compared".to_string())
            }
            Stability::Alpha => (false, "alpha rule: always shadowed, handwritten validation wins".to_string()),
        }
    }

    /// Whether a declarative error takes part in the mismatch comparison.
    fn compared(&self, e: &Error) -> bool {
        if !self.runs() {
            return false;
        }
        if self.leveled() {
            matches!(e.stability, Stability::Alpha | Stability::Beta)
        } else {
            true
        }
    }
}

/// A handwritten error to compare: Kubernetes' field.Error with the migration marks.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Handwritten {
    /// The error.
    #[serde(flatten)]
    pub error: Error,
    /// `CoveredByDeclarative`: a declarative rule is meant to produce the same error.
    pub covered: bool,
    /// The handwritten error's own lifecycle mark (`MarkAlpha` / `MarkBeta`), which 1.36 uses
    /// to decide whether a covered error is dropped.
    pub stability: Stability,
}

/// One handwritten error matched with one declarative error.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Match {
    /// The handwritten error.
    pub handwritten: Handwritten,
    /// The declarative error.
    pub declarative: Error,
}

/// The mismatch comparison and what the API server returns.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Shadow {
    /// Covered handwritten errors and the declarative errors they match.
    pub matched: Vec<Match>,
    /// Covered handwritten errors no declarative error matches ("unmatched error(s)").
    pub unmatched_handwritten: Vec<Handwritten>,
    /// Compared declarative errors that match no covered handwritten error ("extra error(s)").
    pub extra_declarative: Vec<Error>,
    /// How much `apiserver_validation_declarative_validation_mismatch_total` grows.
    pub mismatches: usize,
    /// What the API server returns, in order: handwritten errors (less the covered ones an
    /// enforced declarative error replaces), then the enforced declarative errors.
    pub returned: Vec<Error>,
    /// One sentence per step, for a reviewer.
    pub explanations: Vec<String>,
}

/// resource.k8s.io `ResourceNormalizationRules` (kubernetes
/// `pkg/apis/resource/validation/validation.go`): v1beta1's flattened request fields and
/// ResourceSlice's `basic` map to v1's paths. Unanchored, so they also apply inside a
/// ResourceClaimTemplate's `spec.spec.devices`.
const RESOURCE_RULES: &[(&str, &str)] = &[
    (
        r"spec.devices\.requests\[(\d+)\]\.(deviceClassName|selectors|allocationMode|count|adminAccess|tolerations)",
        "spec.devices.requests[$1].exactly.$2",
    ),
    (r"spec.devices\[(\d+)\]\.basic\.", "spec.devices[$1]."),
];

/// node.k8s.io `NodeNormalizationRules` (kubernetes `pkg/apis/node/validation/validation.go`):
/// RuntimeClass v1alpha1 nests `runtimeHandler` and `scheduling` under `spec`, the internal type
/// (and v1) has them at the top. Anchored, so a list's `items[i].` prefix keeps them from firing.
/// 1.36 has the first rule (kubernetes PR #135046, first in 1.36.0-alpha.1); 1.37 adds the second
/// (kubernetes commit 8976f7a9, first in 1.37.0-alpha.2).
const NODE_RULES_36: &[(&str, &str)] = &[(r"^spec\.runtimeHandler(.*)$", "handler$1")];
const NODE_RULES_37: &[(&str, &str)] = &[(r"^spec\.scheduling(.*)$", "scheduling$1")];

/// The normalization rules of Kubernetes' own resources, by API group and kind, with the
/// first minor whose strategy passes them, in Go's order (rows of one kind concatenate):
/// - ResourceClaim's strategy since 1.35;
/// - ResourceClaimTemplate's since 1.37 (kubernetes PR #138725, merged 2026-04-30: "ResourceClaim
///   strategy had it, ResourceClaimTemplate was missed");
/// - ResourceSlice's 1.37 `DeclarativeValidationConfig` (kubernetes PR #138323's strategy shape;
///   whether its 1.35 and 1.36 strategies passed them could not be read, so they get none);
/// - RuntimeClass's since 1.36 ([`NODE_RULES_36`], [`NODE_RULES_37`]).
const RULES: &[ResourceRules] = &[
    ("resource.k8s.io", "ResourceClaim", 35, RESOURCE_RULES),
    ("resource.k8s.io", "ResourceClaimTemplate", 37, RESOURCE_RULES),
    ("resource.k8s.io", "ResourceSlice", 37, RESOURCE_RULES),
    ("node.k8s.io", "RuntimeClass", 36, NODE_RULES_36),
    ("node.k8s.io", "RuntimeClass", 37, NODE_RULES_37),
];

/// Resources whose 1.37 strategy sets `ShortCircuitMismatch`: RoleBinding and
/// ClusterRoleBinding (kubernetes PR #137982 enabled it in their strategies; their
/// declarative validation tests, `test/declarative_validation/rbac/rolebinding`, expect
/// `roleRef.name`'s short-circuited error with no test option, so the strategy supplies it).
const SHORT_CIRCUIT_MISMATCH: &[(&str, &str, u32)] =
    &[("rbac.authorization.k8s.io", "RoleBinding", 37), ("rbac.authorization.k8s.io", "ClusterRoleBinding", 37)];

/// Whether Kubernetes 1.`minor`'s strategy for a resource sets `ShortCircuitMismatch`.
pub fn short_circuit_mismatch(group: &str, kind: &str, minor: u32) -> bool {
    SHORT_CIRCUIT_MISMATCH.iter().any(|(g, k, since)| *g == group && *k == kind && minor >= *since)
}

/// (API group, kind, first minor, rules as (regexp, replacement)).
type ResourceRules = (&'static str, &'static str, u32, &'static [(&'static str, &'static str)]);

/// The normalization rules Kubernetes 1.`minor` applies to a resource's errors (none before
/// 1.35, and none for resources without rules).
pub fn normalization_rules(group: &str, kind: &str, minor: u32) -> Vec<(String, String)> {
    RULES
        .iter()
        .filter(|(g, k, since, _)| *g == group && *k == kind && minor >= *since)
        .flat_map(|(_, _, _, rules)| rules.iter().map(|(r, t)| (String::from(*r), String::from(*t))))
        .collect()
}

/// Compiled normalization rules.
struct Rules(Vec<(crate::cel::library::Regex, String)>);

impl Rules {
    /// The first rule that changes `path` decides (error_matcher.go `normalizePath`).
    fn normalize(&self, path: &str) -> Option<String> {
        self.0.iter().map(|(re, to)| re.replace_all(path, to)).find(|p| p != path)
    }
}

/// Checks normalization rules (the CLI and npm options): each must be a regular expression
/// Go accepts.
pub fn check_rules(rules: &[(String, String)]) -> Result<(), String> {
    compile_rules(rules).map(|_| ())
}

fn compile_rules(rules: &[(String, String)]) -> Result<Rules, String> {
    let mut out = Vec::new();
    for (re, to) in rules {
        let compiled = crate::cel::library::Regex::new(re).map_err(|e| format!("normalization rule {re:?}: {e}"))?;
        out.push((compiled, to.clone()));
    }
    Ok(Rules(out))
}

/// field.ErrorMatcher{}.ByType().ByOrigin().RequireOriginWhenInvalid() with
/// `ByFieldNormalized(rules)`: the declarative error's path (`got`) is normalized when it
/// differs.
fn matches(want: &Error, got: &Error, rules: &Rules) -> bool {
    want.kind == got.kind
        && (want.field == got.field || rules.normalize(&got.field).is_some_and(|p| p == want.field))
        && want.origin == got.origin
        && !(want.kind == ErrorType::Invalid && (want.origin.is_empty() || got.origin.is_empty()))
}

/// `MatchAncestorShortCircuit`: a short-circuiting declarative error on a strict ancestor of
/// the handwritten error's field (raw or normalized path), whatever their types and origins.
fn short_circuit_covers(want: &Error, got: &Error, rules: &Rules) -> bool {
    let child = |parent: &str| {
        !parent.is_empty()
            && want.field.len() > parent.len()
            && want.field.starts_with(parent)
            && matches!(want.field.as_bytes()[parent.len()], b'.' | b'[')
    };
    got.short_circuit && (child(&got.field) || rules.normalize(&got.field).is_some_and(|p| child(&p)))
}

/// The line the API server logs for one mismatch, as validate.go's
/// `gatherDeclarativeValidationMismatches` writes it (`kind`: `unmatched` or `extra`), with
/// `ErrorMatcher.Render` of the error (`Field="normalized" (aka "raw")` from 1.35) and the
/// recommendation of the version: Takeover's before 1.36, DeclarativeValidationBeta's when beta
/// errors are enforced (1.36 opted in, 1.37), and the authoritative one for an alpha error.
fn mismatch_log(config: &Enforcement, kind: &str, e: &Error, stability: Stability, rules: &Rules) -> String {
    use crate::field::go_quote;
    const AUTHORITATIVE: &str =
        "This difference should not affect system operation since hand written validation is authoritative.";
    let levels = config.row().levels;
    // Before 1.36 one sentence serves every error; from 1.36 an alpha error is never enforced.
    let enforced =
        if levels { config.leveled() && config.beta && stability != Stability::Alpha } else { config.takeover };
    let recommendation = match (enforced, levels) {
        (false, _) => AUTHORITATIVE,
        (true, false) => "Consider disabling the DeclarativeValidationTakeover feature gate to keep data persisted in etcd consistent with prior versions of Kubernetes.",
        (true, true) => "Consider disabling the DeclarativeValidationBeta feature gate to keep data persisted in etcd consistent with prior versions of Kubernetes.",
    };
    let field = match rules.normalize(&e.field) {
        Some(normalized) => format!("{} (aka {})", go_quote(&normalized), go_quote(&e.field)),
        None => go_quote(&e.field),
    };
    format!(
        "Unexpected difference between hand written validation and declarative validation error results, {kind} error(s) found {{Type={}, Field={field}, Origin={}}}. This indicates an issue with declarative validation. {recommendation}",
        go_quote(e.kind.message()),
        go_quote(&e.origin)
    )
}

/// Marks each declarative error `enforced` for `config` and compares it with handwritten
/// errors as the API server does.
pub fn compare(config: &Enforcement, declarative: &mut [Error], handwritten: &[Handwritten]) -> Shadow {
    for e in declarative.iter_mut() {
        e.enforced = config.verdict(e).0;
    }
    let mut explanations = Vec::new();
    let row = config.row();
    let rules = match row.normalization {
        // Checked when the options were read; a bad rule here normalizes nothing.
        true => compile_rules(&config.normalization).unwrap_or(Rules(Vec::new())),
        false => Rules(Vec::new()),
    };
    // De-duplicate the handwritten errors (keep the first of each): exact duplicates up to
    // 1.35 (`ErrorMatcher{}.Exactly()`), those the matcher cannot tell apart after.
    let same = |a: &Error, b: &Error| {
        if row.exact_dedup {
            a.kind == b.kind && a.field == b.field && a.value == b.value && a.origin == b.origin && a.detail == b.detail
        } else {
            matches(a, b, &rules)
        }
    };
    let mut deduped: Vec<&Handwritten> = Vec::new();
    if !config.runs() {
        // The strategies (1.33, 1.34) and ValidateDeclarativelyWithMigrationChecks (1.35) return
        // the handwritten errors before any comparison when DeclarativeValidation is off.
        explanations.push(format!(
            "DeclarativeValidation=false in 1.{}: no comparison is made, the handwritten errors are returned",
            config.minor
        ));
    }
    for h in handwritten.iter().filter(|_| config.runs()) {
        if !deduped.iter().any(|d| same(&d.error, &h.error)) {
            deduped.push(h);
        } else {
            explanations
                .push(format!("{}: a duplicate of an earlier handwritten error, compared once", h.error.text()));
        }
    }
    let candidates: Vec<&Error> = declarative.iter().filter(|e| config.compared(e)).collect();
    let mut matched_decl = alloc::vec![false; candidates.len()];
    let mut matched = Vec::new();
    let mut unmatched = Vec::new();
    for h in &deduped {
        if !h.covered {
            explanations.push(format!("{}: not covered by declarative validation, not compared", h.error.text()));
            continue;
        }
        let mut count = 0;
        for (i, d) in candidates.iter().enumerate() {
            // Up to 1.36 a declarative error is used up by the first handwritten error it matches.
            if (row.many_to_many || !matched_decl[i]) && matches(&h.error, d, &rules) {
                count += 1;
                matched_decl[i] = true;
                matched.push(Match { handwritten: (*h).clone(), declarative: (*d).clone() });
            }
        }
        // validate.go (1.37): with ShortCircuitMismatch, an unmatched handwritten error on a
        // child of a short-circuited field counts as matched (the declarative error is not
        // used up by it).
        if count == 0 && row.short_circuit_match && config.short_circuit_mismatch {
            if let Some(d) = candidates.iter().find(|d| short_circuit_covers(&h.error, d, &rules)) {
                explanations.push(format!(
                    "{}: covered; matched by the short-circuiting declarative error {} on an ancestor field (ShortCircuitMismatch)",
                    h.error.text(),
                    d.text()
                ));
                continue;
            }
        }
        if count == 0 {
            explanations.push(mismatch_log(config, "unmatched", &h.error, h.stability, &rules));
            unmatched.push((*h).clone());
        }
    }
    let extra: Vec<Error> =
        candidates.iter().zip(&matched_decl).filter(|(_, m)| !**m).map(|(d, _)| (*d).clone()).collect();
    for d in &extra {
        explanations.push(mismatch_log(config, "extra", d, d.stability, &rules));
    }
    let mismatches = if config.runs() { unmatched.len() + extra.len() } else { 0 };

    let enforced: Vec<&Error> = declarative.iter().filter(|e| e.enforced).collect();
    let mut returned: Vec<Error> = Vec::new();
    // The handwritten errors are filtered through ErrorList.Filter (1.36 filterHandwrittenErrors
    // for an opted-in resource, 1.37 FilterCoveredHandwrittenErrors), whose ToAggregate first
    // drops every error whose text (`%v`) an earlier one has, origin and marks unseen.
    let filtered = config.runs() && config.leveled();
    let mut seen: Vec<String> = Vec::new();
    for h in handwritten {
        if filtered {
            let text = h.error.text();
            if seen.contains(&text) {
                explanations.push(format!(
                    "{text}: the same text as an earlier handwritten error, dropped (ErrorList.Filter aggregates by text)"
                ));
                continue;
            }
            seen.push(text);
        }
        let replaced = h.covered
            && if row.reverse_lookup {
                // errors.go FilterCoveredHandwrittenErrors: only an enforced beta error replaces it.
                enforced.iter().any(|d| d.stability == Stability::Beta && matches(&h.error, d, &rules))
            } else if row.levels {
                // 1.36 filterHandwrittenErrors: the handwritten error's own beta mark decides.
                config.leveled() && h.stability == Stability::Beta && config.beta
            } else {
                // 1.33–1.35 takeover: RemoveCoveredByDeclarative.
                config.takeover && config.runs()
            };
        if replaced {
            explanations.push(format!("{}: covered and replaced by the enforced declarative error", h.error.text()));
        } else {
            returned.push(h.error.clone());
        }
    }
    for d in &enforced {
        returned.push((*d).clone());
    }
    for d in declarative.iter() {
        explanations.push(format!("{}: {}", d.text(), config.verdict(d).1));
    }
    Shadow { matched, unmatched_handwritten: unmatched, extra_declarative: extra, mismatches, returned, explanations }
}

/// Reads handwritten errors: Kubernetes' error lines (`spec.x: Invalid value: 1: detail`),
/// each optionally ending in `[origin=minimum, covered]`, or a JSON list of
/// `{field, type, origin?, covered?, detail?}`. Errors name the line.
pub fn parse_handwritten(text: &str) -> Result<Vec<Handwritten>, String> {
    let trimmed = text.trim_start();
    if trimmed.starts_with('[') {
        return parse_json(trimmed);
    }
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        out.push(parse_line(line).map_err(|e| format!("line {}: {e}", i + 1))?);
    }
    Ok(out)
}

const TYPE_NAMES: [(&str, ErrorType); 11] = [
    ("Required value", ErrorType::Required),
    ("Invalid value", ErrorType::Invalid),
    ("Unsupported value", ErrorType::NotSupported),
    ("Duplicate value", ErrorType::Duplicate),
    ("Forbidden", ErrorType::Forbidden),
    ("Too long", ErrorType::TooLong),
    ("Too short", ErrorType::TooShort),
    ("Too many", ErrorType::TooMany),
    ("Too few", ErrorType::TooFew),
    ("Internal error", ErrorType::Internal),
    ("Not found", ErrorType::NotFound),
];

fn parse_line(line: &str) -> Result<Handwritten, String> {
    // A trailing `[origin=..., covered]`.
    let (body, marks) = match line.rfind(" [") {
        Some(i) if line.ends_with(']') => (&line[..i], Some(&line[i + 2..line.len() - 1])),
        _ => (line, None),
    };
    let mut origin = String::new();
    let mut covered = false;
    let mut stability = Stability::Stable;
    for mark in marks.into_iter().flat_map(|m| m.split(',')).map(str::trim).filter(|m| !m.is_empty()) {
        if let Some(o) = mark.strip_prefix("origin=") {
            origin = o.trim().to_string();
        } else if mark == "covered" {
            covered = true;
        } else if mark == "alpha" {
            stability = Stability::Alpha;
        } else if mark == "beta" {
            stability = Stability::Beta;
        } else {
            return Err(format!("unknown mark {mark:?}: expected origin=NAME, covered, alpha or beta"));
        }
    }
    // `<field>: <Type name>...`: find the type name after a ": ".
    let found = TYPE_NAMES.iter().find_map(|(name, kind)| {
        let needle = format!(": {name}");
        body.find(&needle).map(|at| (at, *name, *kind))
    });
    let Some((at, name, kind)) = found else {
        return Err("expected a Kubernetes error line like `spec.replicas: Invalid value: -1: must be greater than or equal to 0`".into());
    };
    let field = body[..at].to_string();
    let rest = body[at + 2 + name.len()..].trim_start_matches(": ").to_string();
    let mut error = Error::new(kind, &crate::field::Path::named(&field), None, rest);
    error.field = field;
    error.origin = origin;
    Ok(Handwritten { error, covered, stability })
}

fn parse_json(text: &str) -> Result<Vec<Handwritten>, String> {
    // Read through serde_json's Value (shared with every other JSON input) rather than a
    // derived Deserialize, which would add its own parser to the WebAssembly build.
    let items: Vec<serde_json::Value> = serde_json::from_str(text).map_err(|e| format!("line {}: {e}", e.line()))?;
    let mut out = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let Some(fields) = item.as_object() else {
            return Err(format!(
                "item {i}: expected an object {{field, type, origin?, covered?, detail?, stability?}}"
            ));
        };
        if let Some(k) = fields
            .keys()
            .find(|k| !matches!(k.as_str(), "field" | "type" | "origin" | "covered" | "detail" | "stability"))
        {
            return Err(format!("item {i}: unknown field `{k}`, expected one of `field`, `type`, `origin`, `covered`, `detail`, `stability`"));
        }
        let text = |key: &str| -> Result<Option<&str>, String> {
            match fields.get(key) {
                None | Some(serde_json::Value::Null) => Ok(None),
                Some(serde_json::Value::String(s)) => Ok(Some(s)),
                Some(_) => Err(format!("item {i}: `{key}` must be a string")),
            }
        };
        let field = text("field")?.ok_or_else(|| format!("item {i}: missing field `field`"))?;
        let kind_name = text("type")?.ok_or_else(|| format!("item {i}: missing field `type`"))?;
        let kind = TYPE_NAMES
            .iter()
            .map(|(_, k)| *k)
            .chain([ErrorType::TypeInvalid])
            .find(|k| k.name() == kind_name)
            .ok_or_else(|| {
            format!("item {i}: unknown type {kind_name:?} (expected FieldValueInvalid, FieldValueRequired, ...)")
        })?;
        let covered = match fields.get("covered") {
            None | Some(serde_json::Value::Null) => false,
            Some(serde_json::Value::Bool(b)) => *b,
            Some(_) => return Err(format!("item {i}: `covered` must be true or false")),
        };
        let stability = match text("stability")? {
            None | Some("stable") => Stability::Stable,
            Some("alpha") => Stability::Alpha,
            Some("beta") => Stability::Beta,
            Some(other) => {
                return Err(format!("item {i}: unknown stability {other:?} (expected alpha, beta or stable)"))
            }
        };
        let mut error = Error::new(kind, &crate::field::Path::named(field), None, text("detail")?.unwrap_or(""));
        error.field = String::from(field);
        error.origin = String::from(text("origin")?.unwrap_or(""));
        out.push(Handwritten { error, covered, stability });
    }
    Ok(out)
}
