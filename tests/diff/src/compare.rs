//! Running a suite against the oracle's answers and counting agreement.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::record::Recorded;
use crate::{digest, Suite};

/// One suite's result.
#[derive(Default)]
pub struct Tally {
    pub cases: usize,
    pub items: usize,
    pub agree: usize,
    pub explained: usize,
    /// The unexplained differences: item id, kubedv's answer, the oracle's.
    pub differences: Vec<(String, Value, Value)>,
    /// Cases without an answer recorded for them as they are now (missing, or recorded for
    /// another input).
    pub stale: Vec<String>,
    /// Exceptions of this suite whose item now agrees (or no longer exists): to remove.
    pub unused_exceptions: Vec<String>,
}

impl Tally {
    pub fn unexplained(&self) -> usize {
        self.differences.len() + self.stale.len()
    }

    /// The suite's lines as `kubedv-diff compare` prints them: counts and the oracle's version,
    /// then each stale case, each difference (with both answers when `verbose`) and each
    /// exception no longer needed.
    pub fn report(&self, suite: &str, oracle: &str, verbose: bool) -> Vec<String> {
        let mut out = vec![format!(
            "{suite}: {} cases, {} compared, {} agree, {} explained, {} unexplained ({oracle})",
            self.cases,
            self.items,
            self.agree,
            self.explained,
            self.unexplained()
        )];
        out.extend(self.stale.iter().map(|x| format!("  STALE {x} (cargo xtask diff --record {suite})")));
        for (id, kubedv, oracle) in &self.differences {
            out.push(format!("  DIFF {id}"));
            if verbose {
                out.push(format!("    kubedv: {kubedv}\n    oracle: {oracle}"));
            }
        }
        out.extend(self.unused_exceptions.iter().map(|x| format!("  exception no longer needed: {x}")));
        out
    }
}

pub fn run(
    suite: &Suite,
    recorded: &Recorded,
    exceptions: &BTreeMap<(String, String), String>,
) -> Result<Tally, String> {
    let cases = (suite.cases)()?;
    let mut t = Tally { cases: cases.len(), ..Tally::default() };
    let mut excused: Vec<&String> = exceptions.keys().filter(|(s, _)| s == suite.name).map(|(_, id)| id).collect();
    for case in &cases {
        let answer = match recorded.answers.get(&case.id) {
            Some((d, answer)) if *d == digest(&case.input) => answer,
            Some(_) => {
                t.stale.push(format!("{}: recorded for another input", case.id));
                continue;
            }
            None => {
                t.stale.push(format!("{}: no answer recorded", case.id));
                continue;
            }
        };
        for item in (suite.items)(case, answer) {
            t.items += 1;
            let key = (suite.name.to_string(), item.id.clone());
            let excepted = exceptions.contains_key(&key);
            if excepted {
                excused.retain(|id| **id != item.id);
            }
            if item.kubedv == item.oracle {
                t.agree += 1;
                if excepted {
                    t.unused_exceptions.push(item.id);
                }
            } else if excepted {
                t.explained += 1;
            } else {
                t.differences.push((item.id, item.kubedv, item.oracle));
            }
        }
    }
    t.unused_exceptions.extend(excused.into_iter().map(|id| format!("{id} (no such item)")));
    Ok(t)
}
