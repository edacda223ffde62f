//! Enforcement and shadow mode: which declarative errors the API server returns, and how they
//! compare with handwritten validation.
//!
//! Kubernetes 1.36+ (apiserver pkg/registry/rest/validate.go ValidateDeclarativelyWithMigrationChecks,
//! apimachinery pkg/api/validate/errors.go): stable rules are enforced, `+k8s:beta` rules while
//! DeclarativeValidationBeta is on (the default), `+k8s:alpha` rules never, internal errors
//! always; only alpha and beta errors are compared with handwritten ones; a handwritten error
//! marked as covered is dropped when an enforced beta error matches it. A resource that has not
//! opted into declarative enforcement returns its handwritten errors only, and every
//! declarative error is compared. Kubernetes 1.33–1.35 (the 1.34 reference page): with
//! DeclarativeValidation on, handwritten validation is authoritative unless
//! DeclarativeValidationTakeover is on; every declarative error is compared.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::Serialize;

use crate::field::{Error, ErrorType, Stability};

/// The newest Kubernetes minor kubedv models.
pub const NEWEST_MINOR: u32 = 36;
/// The oldest minor with declarative validation.
pub const OLDEST_MINOR: u32 = 33;

/// The API server's configuration for one request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Enforcement {
    /// The Kubernetes minor version (1.N).
    pub minor: u32,
    /// Whether the resource opted into declarative enforcement (new and migrated APIs do).
    pub opted_in: bool,
    /// DeclarativeValidation (GA and locked on since 1.36).
    pub declarative_validation: bool,
    /// DeclarativeValidationBeta (1.36+, default on).
    pub beta: bool,
    /// DeclarativeValidationTakeover (1.33–1.35, default off; no longer honored in 1.36).
    pub takeover: bool,
}

impl Default for Enforcement {
    fn default() -> Self {
        Enforcement::for_version(NEWEST_MINOR)
    }
}

impl Enforcement {
    /// The defaults of Kubernetes 1.`minor`.
    pub fn for_version(minor: u32) -> Enforcement {
        Enforcement { minor, opted_in: true, declarative_validation: true, beta: true, takeover: false }
    }

    /// The configuration for a request: `version` as `1.N` (default the newest; newer ones
    /// behave as the newest), feature gates by name, and whether the resource opted into
    /// declarative enforcement. Errors say what is accepted.
    pub fn from_request(version: Option<&str>, gates: &[(&str, bool)], opted_in: bool) -> Result<Enforcement, String> {
        let minor = match version {
            None => NEWEST_MINOR,
            Some(v) => {
                let minor = v.trim().trim_start_matches('v').strip_prefix("1.").and_then(|m| m.parse::<u32>().ok());
                match minor {
                    Some(m) if m >= OLDEST_MINOR => m.min(NEWEST_MINOR),
                    _ => {
                        return Err(format!(
                            "Kubernetes version {v:?}: expected 1.{OLDEST_MINOR} to 1.{NEWEST_MINOR} (declarative validation started in 1.{OLDEST_MINOR})"
                        ))
                    }
                }
            }
        };
        let mut config = Enforcement::for_version(minor);
        config.opted_in = opted_in;
        for (name, on) in gates {
            config.set_gate(name, *on)?;
        }
        Ok(config)
    }

    /// Sets a feature gate by name; errors name the gates that exist in this version.
    pub fn set_gate(&mut self, name: &str, on: bool) -> Result<(), String> {
        let modern = self.minor >= NEWEST_MINOR;
        match name {
            "DeclarativeValidation" if modern && !on => {
                Err(format!("DeclarativeValidation is GA and locked to true in 1.{}", self.minor))
            }
            "DeclarativeValidation" => {
                self.declarative_validation = on;
                Ok(())
            }
            "DeclarativeValidationBeta" if modern => {
                self.beta = on;
                Ok(())
            }
            "DeclarativeValidationTakeover" if !modern => {
                self.takeover = on;
                Ok(())
            }
            // Deprecated in 1.36: accepted, not honored.
            "DeclarativeValidationTakeover" => Ok(()),
            _ => {
                let gates = if modern {
                    "DeclarativeValidation, DeclarativeValidationBeta"
                } else {
                    "DeclarativeValidation, DeclarativeValidationTakeover"
                };
                Err(format!("unknown feature gate {name:?} for 1.{}: the gates are {gates}", self.minor))
            }
        }
    }

    /// Whether declarative validation runs at all.
    pub fn runs(&self) -> bool {
        self.minor >= NEWEST_MINOR || self.declarative_validation
    }

    /// Whether the API server returns this declarative error, and the sentence that decides it.
    pub fn verdict(&self, e: &Error) -> (bool, String) {
        let n = self.minor;
        let level = match e.stability {
            Stability::Alpha => "alpha rule",
            Stability::Beta => "beta rule",
            Stability::Stable => "stable rule",
        };
        if !self.runs() {
            return (false, format!("DeclarativeValidation=false in 1.{n}: declarative validation does not run"));
        }
        if n < NEWEST_MINOR {
            if !self.takeover {
                return (false, format!("{level}, 1.{n} with DeclarativeValidationTakeover=false: handwritten validation is authoritative, this error is only compared"));
            }
            if e.stability == Stability::Alpha {
                return (false, format!("alpha rule, 1.{n}: shadowed, handwritten validation wins"));
            }
            return (true, format!("{level}, 1.{n} with DeclarativeValidationTakeover=true: declarative validation is authoritative → returned"));
        }
        if !self.opted_in {
            return (
                false,
                format!(
                    "{level}: the resource has not opted into declarative enforcement, so this error is only compared"
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
        if n_modern(self) && self.opted_in {
            matches!(e.stability, Stability::Alpha | Stability::Beta)
        } else {
            true
        }
    }
}

fn n_modern(e: &Enforcement) -> bool {
    e.minor >= NEWEST_MINOR
}

/// A handwritten error to compare: Kubernetes' field.Error with the migration marks.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Handwritten {
    /// The error.
    #[serde(flatten)]
    pub error: Error,
    /// `CoveredByDeclarative`: a declarative rule is meant to produce the same error.
    pub covered: bool,
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

/// field.ErrorMatcher{}.ByType().ByOrigin().RequireOriginWhenInvalid().ByField().
fn matches(want: &Error, got: &Error) -> bool {
    want.kind == got.kind
        && want.field == got.field
        && want.origin == got.origin
        && !(want.kind == ErrorType::Invalid && (want.origin.is_empty() || got.origin.is_empty()))
}

/// Marks each declarative error `enforced` for `config` and compares it with handwritten
/// errors as the API server does.
pub fn compare(config: &Enforcement, declarative: &mut [Error], handwritten: &[Handwritten]) -> Shadow {
    for e in declarative.iter_mut() {
        e.enforced = config.verdict(e).0;
    }
    let mut explanations = Vec::new();
    // De-duplicate the handwritten errors with the matcher (keep the first of each).
    let mut deduped: Vec<&Handwritten> = Vec::new();
    for h in handwritten {
        if !deduped.iter().any(|d| matches(&d.error, &h.error)) {
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
            if matches(&h.error, d) {
                count += 1;
                matched_decl[i] = true;
                matched.push(Match { handwritten: (*h).clone(), declarative: (*d).clone() });
            }
        }
        if count == 0 {
            explanations.push(format!(
                "{}: covered, but no declarative error matches it (unmatched error: a mismatch)",
                h.error.text()
            ));
            unmatched.push((*h).clone());
        }
    }
    let extra: Vec<Error> =
        candidates.iter().zip(&matched_decl).filter(|(_, m)| !**m).map(|(d, _)| (*d).clone()).collect();
    for d in &extra {
        explanations.push(format!("{}: no covered handwritten error matches it (extra error: a mismatch)", d.text()));
    }
    let mismatches = if config.runs() { unmatched.len() + extra.len() } else { 0 };

    let enforced: Vec<&Error> = declarative.iter().filter(|e| e.enforced).collect();
    let modern = n_modern(config);
    let mut returned: Vec<Error> = Vec::new();
    for h in handwritten {
        let replaced = h.covered
            && if modern {
                // errors.go FilterCoveredHandwrittenErrors: only an enforced beta error replaces it.
                enforced.iter().any(|d| d.stability == Stability::Beta && matches(&h.error, d))
            } else {
                // 1.33–1.35 takeover: declarative validation is authoritative for covered rules.
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
    for mark in marks.into_iter().flat_map(|m| m.split(',')).map(str::trim).filter(|m| !m.is_empty()) {
        if let Some(o) = mark.strip_prefix("origin=") {
            origin = o.trim().to_string();
        } else if mark == "covered" {
            covered = true;
        } else {
            return Err(format!("unknown mark {mark:?}: expected origin=NAME or covered"));
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
    Ok(Handwritten { error, covered })
}

fn parse_json(text: &str) -> Result<Vec<Handwritten>, String> {
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Item {
        field: String,
        #[serde(rename = "type")]
        kind: String,
        #[serde(default)]
        origin: String,
        #[serde(default)]
        covered: bool,
        #[serde(default)]
        detail: String,
    }
    let items: Vec<Item> = serde_json::from_str(text).map_err(|e| format!("line {}: {e}", e.line()))?;
    items
        .into_iter()
        .enumerate()
        .map(|(i, it)| {
            let kind = TYPE_NAMES
                .iter()
                .map(|(_, k)| *k)
                .chain([ErrorType::TypeInvalid])
                .find(|k| k.name() == it.kind)
                .ok_or_else(|| {
                    format!(
                        "item {i}: unknown type {:?} (expected FieldValueInvalid, FieldValueRequired, ...)",
                        it.kind
                    )
                })?;
            let mut error = Error::new(kind, &crate::field::Path::named(&it.field), None, it.detail);
            error.field = it.field;
            error.origin = it.origin;
            Ok(Handwritten { error, covered: it.covered })
        })
        .collect()
}
