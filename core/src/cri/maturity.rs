//! "Kubernetes feature development and container runtimes" (SIG Node): which stage a feature
//! that needs CRI changes may take, given how far containerd and CRI-O have implemented it.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;

/// The Kubernetes stage a feature wants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stage {
    /// Alpha (off by default).
    Alpha,
    /// Beta, disabled by default.
    BetaOff,
    /// Beta, enabled by default.
    BetaOn,
    /// Generally available.
    Ga,
}

impl Stage {
    /// Every stage with its name.
    pub const ALL: [(Stage, &'static str); 4] =
        [(Stage::Alpha, "alpha"), (Stage::BetaOff, "beta-off"), (Stage::BetaOn, "beta-on"), (Stage::Ga, "ga")];

    /// The stage for `alpha`, `beta-off`, `beta-on` or `ga`.
    pub fn from_name(name: &str) -> Option<Stage> {
        Stage::ALL.iter().find(|(_, n)| *n == name).map(|(s, _)| *s)
    }

    fn words(self) -> &'static str {
        match self {
            Stage::Alpha => "alpha",
            Stage::BetaOff => "beta (disabled by default)",
            Stage::BetaOn => "beta enabled by default",
            Stage::Ga => "GA",
        }
    }
}

/// How far one runtime has implemented the CRI API a feature needs, from least to most.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// No implementation.
    None,
    /// A pull request in the runtime's repository demonstrates it.
    PrOpen,
    /// Merged into the runtime's main branch, not released.
    Merged,
    /// Available but marked experimental.
    Experimental,
    /// In a runtime pre-release (alpha, beta, rc): release readiness, not feature maturity.
    Released,
    /// In a GA (stable) runtime release, not experimental.
    ReleasedGa,
}

impl Status {
    /// Every status with its name.
    pub const ALL: [(Status, &'static str); 6] = [
        (Status::None, "none"),
        (Status::PrOpen, "pr-open"),
        (Status::Merged, "merged"),
        (Status::Experimental, "experimental"),
        (Status::Released, "released"),
        (Status::ReleasedGa, "released-ga"),
    ];

    /// The status for its name (`released-ga`, …).
    pub fn from_name(name: &str) -> Option<Status> {
        Status::ALL.iter().find(|(_, n)| *n == name).map(|(s, _)| *s)
    }

    fn name(self) -> &'static str {
        Status::ALL.iter().find(|(s, _)| *s == self).map_or("", |(_, n)| n)
    }
}

/// The question: a stage, both participating runtimes' status, and (for GA) whether a
/// Kubernetes release already shipped the feature as beta enabled by default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Feature {
    /// The stage asked for.
    pub stage: Stage,
    /// containerd's implementation status.
    pub containerd: Status,
    /// CRI-O's implementation status.
    pub crio: Status,
    /// Whether at least one Kubernetes release had the feature beta and enabled by default.
    pub shipped_beta_on: bool,
}

/// One rule of the policy applied to the feature.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Rule {
    /// The policy section (`Safe Kubernetes defaults`).
    pub rule: &'static str,
    /// Whether the feature meets it.
    pub satisfied: bool,
    /// Why, in terms of the given statuses.
    pub reason: String,
}

/// The answer: allowed when every applicable rule is satisfied.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Verdict {
    /// Whether the policy allows the stage.
    pub allowed: bool,
    /// The applicable rules, each with its verdict.
    pub rules: Vec<Rule>,
    /// What the policy also requires that kubedv cannot check (maintainer agreement, tests).
    pub reminders: Vec<&'static str>,
    /// One sentence: allowed, or the first rule that blocks the stage and why.
    pub summary: String,
}

/// Applies the policy's rules for `feature.stage`.
pub fn check(feature: &Feature) -> Verdict {
    let (c, o) = (feature.containerd, feature.crio);
    let statuses = format!("containerd: {}, CRI-O: {}", c.name(), o.name());
    let at_least_one = |min: Status| c >= min || o >= min;
    let ga_count = [c, o].iter().filter(|s| **s == Status::ReleasedGa).count();
    let mut rules = Vec::new();

    rules.push(Rule {
        rule: "Guaranteed implementation",
        satisfied: at_least_one(Status::PrOpen),
        reason: format!(
            "CRI API changes can only merge with a pull request in at least one container runtime using the API and demoing the feature end to end ({statuses})"
        ),
    });
    match feature.stage {
        Stage::Alpha => rules.push(Rule {
            rule: "Same maturity level (for alpha)",
            satisfied: at_least_one(Status::Merged),
            reason: format!(
                "alpha needs at least one implementation merged into a runtime's main branch or marked experimental ({statuses})"
            ),
        }),
        Stage::BetaOff => rules.push(Rule {
            rule: "Safe Kubernetes defaults",
            satisfied: ga_count >= 1,
            reason: format!(
                "beta disabled by default needs a GA release of at least one runtime implementing the API, not as experimental ({statuses})"
            ),
        }),
        Stage::BetaOn => rules.push(Rule {
            rule: "Safe Kubernetes defaults",
            satisfied: ga_count == 2,
            reason: format!(
                "beta enabled by default needs a GA release of both containerd and CRI-O implementing the API, not as experimental ({statuses})"
            ),
        }),
        Stage::Ga => {
            rules.push(Rule {
                rule: "Minimal number of implementations",
                satisfied: ga_count == 2,
                reason: format!(
                    "GA needs a GA release of both containerd and CRI-O implementing the API, not as experimental ({statuses})"
                ),
            });
            rules.push(Rule {
                rule: "Safe Kubernetes defaults",
                satisfied: feature.shipped_beta_on,
                reason: String::from(if feature.shipped_beta_on {
                    "a Kubernetes release already had the feature beta and enabled by default"
                } else {
                    "GA needs at least one Kubernetes release with the feature beta and enabled by default first"
                }),
            });
        }
    }
    let mut reminders = alloc::vec![
        "Guarantee portability: the KEP must be lgtm-ed by containerd and CRI-O maintainers, who agree on the design and API shape",
        "Features discoverability: the feature needs explicit Pod or Node API configuration, not hidden node or runtime settings",
    ];
    if feature.stage == Stage::Alpha {
        reminders.push("Same maturity level (for alpha): an e2e test demonstrating the feature is merged alongside the runtime code");
    }
    let summary = match rules.iter().find(|r| !r.satisfied) {
        None => format!("{} is allowed by the CRI feature policy", feature.stage.words()),
        Some(blocking) => format!("{} is blocked by \"{}\": {}", feature.stage.words(), blocking.rule, blocking.reason),
    };
    Verdict { allowed: rules.iter().all(|r| r.satisfied), rules, reminders, summary }
}
