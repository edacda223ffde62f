//! `kubedv-diff`: the differential runner's kubedv side (`cargo xtask diff` drives it with the
//! oracle).
//!
//! - `kubedv-diff list`: the suites, with their oracle mode;
//! - `kubedv-diff cases SUITE`: the suite's cases as JSON lines (what `oracle MODE` reads);
//! - `kubedv-diff record SUITE FILE VERSION`: records the oracle's output (FILE) as the suite's
//!   answers (`tests/oracle/answers/SUITE.jsonl`);
//! - `kubedv-diff judge MODE CASES ANSWERS`: compares kubedv with the oracle on cases made
//!   elsewhere (the differential fuzzer's), printing each differing case as a JSON line (a
//!   difference only in the `managedFields` the API server stamps on the request, or a CRD the
//!   API server cannot decode, is counted as explained: see
//!   [`kubedv_diff::only_request_managed_fields`], [`kubedv_diff::crd_decoding`]);
//! - `kubedv-diff compare [-v] [SUITE...]`: kubedv against the recorded answers, per suite, then
//!   exactly `diff: N cases, A agree, E explained, U unexplained` (N counts compared answers);
//!   exit 1 on an unexplained difference.

use std::io::Write;
use std::process::ExitCode;

use kubedv_diff::{compare, record, suites};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("kubedv-diff: {e}");
            ExitCode::from(2)
        }
    }
}

fn suite(name: &str) -> Result<kubedv_diff::Suite, String> {
    suites::find(name).ok_or_else(|| format!("no suite {name:?} (kubedv-diff list)"))
}

fn run(args: &[String]) -> Result<ExitCode, String> {
    let mut out = std::io::stdout().lock();
    match args.first().map(String::as_str) {
        Some("list") => {
            for s in suites::all() {
                let _ = writeln!(out, "{}\t{}\t{}", s.name, s.mode, s.about);
            }
        }
        Some("cases") => {
            let s = suite(args.get(1).ok_or("cases SUITE")?)?;
            for c in (s.cases)()? {
                let mut line = c.input;
                line["id"] = serde_json::Value::String(c.id);
                let _ = writeln!(out, "{line}");
            }
        }
        Some("cases-of") => {
            // The requests the `builtin` suite would make of these manifest files.
            let roots: Vec<&str> = args[1..].iter().map(String::as_str).collect();
            for c in suites::builtin::cases_in(&roots)? {
                let mut line = c.input;
                line["id"] = serde_json::Value::String(c.id);
                let _ = writeln!(out, "{line}");
            }
        }
        Some("record") => {
            let [_, name, file, version] = args else { return Err("record SUITE FILE VERSION".into()) };
            let s = suite(name)?;
            let output = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
            let n = record::write(s.name, version, &(s.cases)()?, &output)?;
            let _ = writeln!(out, "{}: {n} answers recorded", s.name);
        }
        Some("judge") => {
            let [_, mode, cases, answers] = args else { return Err("judge MODE CASES ANSWERS".into()) };
            let items = suites::items_of_mode(mode).ok_or_else(|| format!("no oracle mode {mode:?}"))?;
            let read = |p: &String| std::fs::read_to_string(p).map_err(|e| format!("{p}: {e}"));
            let mut by_id = std::collections::BTreeMap::new();
            for line in read(answers)?.lines().filter(|l| !l.trim().is_empty()) {
                // An answer serde_json cannot hold (a number beyond f64, which Go's encoder
                // writes as it read it) is a difference of its own: kept, marked.
                let v: serde_json::Value = serde_json::from_str(line).unwrap_or_else(|e| {
                    let id = line.rsplit_once("\"id\":\"").and_then(|(_, r)| r.split_once('"')).map_or("", |(id, _)| id);
                    serde_json::json!({"id": id, "unreadable": format!("{e}")})
                });
                by_id.insert(v["id"].as_str().unwrap_or_default().to_string(), v);
            }
            let (mut n, mut differ, mut explained) = (0, 0, 0);
            for line in read(cases)?.lines().filter(|l| !l.trim().is_empty()) {
                let input: serde_json::Value = serde_json::from_str(line).map_err(|e| e.to_string())?;
                let id = input["id"].as_str().unwrap_or_default().to_string();
                let Some(answer) = by_id.get(&id) else { continue };
                let case = kubedv_diff::Case { id, input: input.clone() };
                n += 1;
                if let Some(item) = items(&case, answer).into_iter().find(|i| i.kubedv != i.oracle) {
                    let known = match mode.as_str() {
                        "cel" => kubedv_diff::same_first_syntax_error(&item.kubedv, &item.oracle),
                        _ => {
                            kubedv_diff::only_request_managed_fields(&item.kubedv, &item.oracle)
                                || kubedv_diff::crd_decoding(&item.oracle)
                        }
                    };
                    if known {
                        explained += 1;
                        continue;
                    }
                    differ += 1;
                    let row = serde_json::json!({"case": input, "item": item.id, "kubedv": item.kubedv, "oracle": item.oracle});
                    let _ = writeln!(out, "{row}");
                }
            }
            let family = match mode.as_str() {
                "cel" => "syntax errors recovered differently",
                _ => "request-time managedFields, CRDs the API server cannot decode",
            };
            eprintln!("judge {mode}: {n} cases, {differ} differ, {explained} explained ({family})");
        }
        Some("compare") => {
            let verbose = args.iter().any(|a| a == "-v" || a == "--verbose");
            let names: Vec<&String> = args[1..].iter().filter(|a| !a.starts_with('-')).collect();
            let chosen: Vec<kubedv_diff::Suite> = if names.is_empty() {
                suites::all()
            } else {
                names.iter().map(|n| suite(n)).collect::<Result<_, _>>()?
            };
            let exceptions = record::exceptions()?;
            let (mut n, mut a, mut e, mut u) = (0, 0, 0, 0);
            for s in &chosen {
                let recorded = record::read(s.name)?;
                let t = compare::run(s, &recorded, &exceptions)?;
                for line in t.report(s.name, &recorded.oracle, verbose) {
                    let _ = writeln!(out, "{line}");
                }
                n += t.items;
                a += t.agree;
                e += t.explained;
                u += t.unexplained();
            }
            let _ = writeln!(out, "diff: {n} cases, {a} agree, {e} explained, {u} unexplained");
            return Ok(if u == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE });
        }
        _ => {
            return Err(
                "usage: kubedv-diff <list | cases SUITE | record SUITE FILE VERSION | judge MODE CASES ANSWERS | compare [-v] [SUITE...]>".into()
            )
        }
    }
    Ok(ExitCode::SUCCESS)
}
