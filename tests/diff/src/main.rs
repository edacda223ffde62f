//! `kubedv-diff`: the differential runner's kubedv side (`cargo xtask diff` drives it with the
//! oracle).
//!
//! - `kubedv-diff list`: the suites, with their oracle mode;
//! - `kubedv-diff cases SUITE`: the suite's cases as JSON lines (what `oracle MODE` reads);
//! - `kubedv-diff record SUITE FILE VERSION`: records the oracle's output (FILE) as the suite's
//!   answers (`tests/oracle/answers/SUITE.jsonl`);
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
        Some("record") => {
            let [_, name, file, version] = args else { return Err("record SUITE FILE VERSION".into()) };
            let s = suite(name)?;
            let output = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
            let n = record::write(s.name, version, &(s.cases)()?, &output)?;
            let _ = writeln!(out, "{}: {n} answers recorded", s.name);
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
                let _ = writeln!(
                    out,
                    "{}: {} cases, {} compared, {} agree, {} explained, {} unexplained ({})",
                    s.name,
                    t.cases,
                    t.items,
                    t.agree,
                    t.explained,
                    t.unexplained(),
                    recorded.oracle
                );
                for stale in &t.stale {
                    let _ = writeln!(out, "  STALE {stale} (cargo xtask diff --record {})", s.name);
                }
                for (id, kubedv, oracle) in &t.differences {
                    let _ = writeln!(out, "  DIFF {id}");
                    if verbose {
                        let _ = writeln!(out, "    kubedv: {kubedv}\n    oracle: {oracle}");
                    }
                }
                for id in &t.unused_exceptions {
                    let _ = writeln!(out, "  exception no longer needed: {id}");
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
                "usage: kubedv-diff <list | cases SUITE | record SUITE FILE VERSION | compare [-v] [SUITE...]>".into()
            )
        }
    }
    Ok(ExitCode::SUCCESS)
}
