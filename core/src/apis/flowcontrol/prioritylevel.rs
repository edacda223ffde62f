//! PriorityLevelConfiguration validation, after `pkg/apis/flowcontrol/validation/validation.go`
//! (`ValidatePriorityLevelConfiguration`, `ValidateIfMandatoryPriorityLevelConfigurationObject`,
//! `ValidatePriorityLevelConfigurationSpec`, `ValidateLimitedPriorityLevelConfiguration`,
//! `ValidateExemptPriorityLevelConfiguration`, `ValidateLimitResponse`,
//! `ValidatePriorityLevelQueuingConfiguration`, `ValidatePriorityLevelConfigurationStatus`) and
//! apiserver `pkg/util/shufflesharding` (`RequiredEntropyBits`).

use alloc::format;
use alloc::vec::Vec;

use serde_json::{json, Value as Json};

use super::flowschema::{typed, validate_status};
use super::render;
use crate::apis::apps::common::with_rendered;
use crate::apis::core::common::forbidden;
use crate::apis::json::{field, get, int, object, str};
use crate::field::{Error, Path};

const ENABLEMENTS: &[&str] = &["Exempt", "Limited"];
const LIMIT_RESPONSE_TYPES: &[&str] = &["Queue", "Reject"];
const MAX_QUEUES: i64 = 10_000_000;
const MAX_HASH_BITS: u32 = 60;
const PRESERVE_ZERO: &str = "flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares";

/// The `spec` of a mandatory priority level (`exempt`, `catch-all`), in `v1`.
fn mandatory_spec(name: &str) -> Option<Json> {
    match name {
        "exempt" => Some(json!({"type": "Exempt", "exempt": {"nominalConcurrencyShares": 0, "lendablePercent": 0}})),
        "catch-all" => Some(json!({
            "type": "Limited",
            "limited": {"nominalConcurrencyShares": 5, "lendablePercent": 0, "limitResponse": {"type": "Reject"}},
        })),
        _ => None,
    }
}

/// `ValidatePriorityLevelConfiguration` (metadata aside but its annotation rule), for a `v1`
/// request; the update validates the same.
pub(crate) fn validate(pl: &Json) -> Vec<Error> {
    let mut errors = Vec::new();
    let root = Path::root();
    let meta = field(pl, "metadata");
    if object(meta, "annotations").is_some_and(|a| a.contains_key(PRESERVE_ZERO)) {
        let mp = root.child("metadata");
        errors.push(forbidden(&mp.child("annotations"), &format!("annotation '{PRESERVE_ZERO}' is forbidden")));
    }
    let name = str(meta, "name");
    let spec = field(pl, "spec");
    let spec_path = root.child("spec");
    validate_spec(spec, name, &spec_path, &mut errors);
    validate_if_mandatory(spec, name, &spec_path, &mut errors);
    validate_status(field(pl, "status"), &root.child("status"), &mut errors);
    errors
}

/// `ValidateIfMandatoryPriorityLevelConfigurationObject`: the spec of `exempt` (but its
/// `exempt` field) and of `catch-all` is fixed.
fn validate_if_mandatory(spec: &Json, name: &str, path: &Path<'_>, errors: &mut Vec<Error>) {
    let Some(mandatory) = mandatory_spec(name) else { return };
    let (have, detail) = if name == "exempt" {
        let want_exempt = render::exempt(field(&mandatory, "exempt"));
        (
            render::priority_level_spec(spec, Some(want_exempt)),
            format!("spec of '{name}' except the 'spec.exempt' field must equal the fixed value"),
        )
    } else {
        (render::priority_level_spec(spec, None), format!("spec of '{name}' must equal the fixed value"))
    };
    if have != render::priority_level_spec(&mandatory, None) {
        errors.push(with_rendered(Error::invalid(path, spec.clone(), detail), render::priority_level_spec(spec, None)));
    }
}

/// `ValidatePriorityLevelConfigurationSpec`. Its errors marked `MarkCoveredByDeclarative`
/// (`limited` forbidden for `Exempt`, `exempt` forbidden and `limited` required for `Limited`,
/// `type` required) are replaced by the declarative rules' (beta, enforced) and left out here.
fn validate_spec(spec: &Json, name: &str, path: &Path<'_>, errors: &mut Vec<Error>) {
    let ty = str(spec, "type");
    if (name == "exempt") != (ty == "Exempt") {
        errors.push(typed(
            Error::invalid(&path.child("type"), ty, "must be 'Exempt' if and only if `name` is 'exempt'"),
            ty,
        ));
    }
    let (limited, exempt) = (get(spec, "limited"), get(spec, "exempt"));
    match ty {
        "Exempt" => {
            if let Some(exempt) = exempt {
                validate_exempt(exempt, &path.child("exempt"), errors);
            }
        }
        "Limited" => {
            if let Some(l) = limited {
                validate_limited(l, &path.child("limited"), errors);
            }
        }
        "" => {}
        _ => errors.push(typed(Error::not_supported(&path.child("type"), ty, ENABLEMENTS), ty)),
    }
}

/// `ValidateLimitedPriorityLevelConfiguration` (a `v1` request: `nominalConcurrencyShares`).
fn validate_limited(l: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let shares = int(l, "nominalConcurrencyShares").unwrap_or(0);
    if shares < 0 {
        errors.push(Error::invalid(&path.child("nominalConcurrencyShares"), shares, "must be a non-negative integer"));
    }
    validate_limit_response(field(l, "limitResponse"), &path.child("limitResponse"), errors);
    if let Some(p) = int(l, "lendablePercent") {
        if !(0..=100).contains(&p) {
            errors.push(Error::invalid(&path.child("lendablePercent"), p, "must be between 0 and 100, inclusive"));
        }
    }
    if let Some(p) = int(l, "borrowingLimitPercent") {
        if p < 0 {
            errors.push(Error::invalid(
                &path.child("borrowingLimitPercent"),
                p,
                "if specified, must be a non-negative integer",
            ));
        }
    }
}

/// `ValidateExemptPriorityLevelConfiguration`.
fn validate_exempt(e: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    if let Some(n) = int(e, "nominalConcurrencyShares") {
        if n < 0 {
            errors.push(Error::invalid(&path.child("nominalConcurrencyShares"), n, "must be a non-negative integer"));
        }
    }
    if let Some(p) = int(e, "lendablePercent") {
        if !(0..=100).contains(&p) {
            errors.push(Error::invalid(&path.child("lendablePercent"), p, "must be between 0 and 100, inclusive"));
        }
    }
}

/// `ValidateLimitResponse`. Its covered errors (`queuing` forbidden for `Reject`, required for
/// `Queue`, `type` required) are the declarative rules' and left out here.
fn validate_limit_response(lr: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let queuing = get(lr, "queuing");
    match str(lr, "type") {
        "Reject" | "" => {}
        "Queue" => {
            if let Some(q) = queuing {
                validate_queuing(q, &path.child("queuing"), errors);
            }
        }
        ty => errors.push(typed(Error::not_supported(&path.child("type"), ty, LIMIT_RESPONSE_TYPES), ty)),
    }
}

/// `ValidatePriorityLevelQueuingConfiguration`.
fn validate_queuing(q: &Json, path: &Path<'_>, errors: &mut Vec<Error>) {
    let limit = int(q, "queueLengthLimit").unwrap_or(0);
    if limit <= 0 {
        errors.push(Error::invalid(&path.child("queueLengthLimit"), limit, "must be positive"));
    }
    let queues = int(q, "queues").unwrap_or(0);
    if queues <= 0 {
        errors.push(Error::invalid(&path.child("queues"), queues, "must be positive"));
    } else if queues > MAX_QUEUES {
        errors.push(Error::invalid(&path.child("queues"), queues, format!("must not be greater than {MAX_QUEUES}")));
    }
    let hand = int(q, "handSize").unwrap_or(0);
    let hp = path.child("handSize");
    if hand <= 0 {
        errors.push(Error::invalid(&hp, hand, "must be positive"));
    } else if hand > queues {
        errors.push(Error::invalid(&hp, hand, format!("should not be greater than queues ({queues})")));
    } else if entropy_exceeds(queues, hand) {
        errors.push(Error::invalid(
            &hp,
            hand,
            format!(
                "required entropy bits of deckSize {queues} and handSize {hand} should not be greater than {MAX_HASH_BITS}"
            ),
        ));
    }
}

/// `RequiredEntropyBits(deckSize, handSize) > MaxHashBits`: `ceil(log2(deck) * hand) > 60`,
/// that is `deck^hand > 2^60` (exact where Go's float is: powers of two).
fn entropy_exceeds(deck: i64, hand: i64) -> bool {
    let limit: u128 = 1u128 << MAX_HASH_BITS;
    let deck = u128::try_from(deck).unwrap_or(0);
    let mut product: u128 = 1;
    for _ in 0..hand {
        product = product.saturating_mul(deck);
        if product > limit {
            return true;
        }
    }
    false
}
