//! kubedv against the oracle's recorded answers (`tests/oracle/answers`), every suite: each
//! compared answer agrees or is an explained exception, and every case has an answer recorded
//! for its current input. `cargo xtask diff --record` re-records them from Kubernetes itself.

use kubedv_diff::{compare, record, suites};

#[test]
fn every_suite_agrees_with_the_recorded_oracle() {
    let exceptions = record::exceptions().expect("tests/oracle/exceptions.json");
    let mut report = Vec::new();
    let mut unexplained = 0;
    let mut compared = 0;
    for s in suites::all() {
        let recorded = record::read(s.name).unwrap_or_else(|e| panic!("{}: {e}", s.name));
        let t = compare::run(&s, &recorded, &exceptions).unwrap_or_else(|e| panic!("{}: {e}", s.name));
        assert!(t.cases == 0 || !recorded.oracle.is_empty(), "{}: the recorded answers name no oracle", s.name);
        assert!(t.cases == 0 || t.items > 0, "{}: nothing compared", s.name);
        compared += t.items;
        unexplained += t.unexplained();
        report.extend(t.report(s.name, &recorded.oracle, true));
    }
    println!("{}", report.join("\n"));
    assert!(compared >= 3000, "only {compared} answers compared");
    assert_eq!(unexplained, 0, "unexplained differences with the oracle:\n{}", report.join("\n"));
}

/// The comparison can fail: an answer recorded for another input is stale, and a different
/// verdict is a difference.
#[test]
fn a_changed_case_or_verdict_is_caught() {
    let s = suites::find("crd-objects").expect("the crd-objects suite");
    let mut recorded = record::read(s.name).expect("recorded answers");
    let exceptions = Default::default();
    let first = recorded.answers.keys().next().cloned().expect("an answer");
    // Another digest: the case's input changed since it was recorded.
    recorded.answers.get_mut(&first).unwrap().0 = String::from("0000000000000000");
    let t = compare::run(&s, &recorded, &exceptions).unwrap();
    assert_eq!(t.stale.len(), 1);
    // Another verdict: the oracle refused what kubedv accepts, or the reverse.
    let mut recorded = record::read(s.name).unwrap();
    for (_, answer) in recorded.answers.values_mut() {
        answer["status"] = serde_json::json!({"message": "refused by a test"});
        answer["warnings"] = serde_json::json!([]);
        if let Some(m) = answer.as_object_mut() {
            m.remove("setupStatus");
            m.remove("setupError");
        }
    }
    let t = compare::run(&s, &recorded, &exceptions).unwrap();
    assert_eq!(t.differences.len(), t.items, "every case now differs");
}
