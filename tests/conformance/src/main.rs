//! `kubedv-conformance FILE.textproto...`: runs the CEL specification's "simple" conformance
//! tests against kubedv's CEL engine. Prints one line per file, the failures by name, and last
//! exactly `N passed, M failed, K skipped`. Tests that need protobuf messages or a container are
//! skipped (counted), never passed.
//!
//! `--min-pass-rate P` exits non-zero when fewer than P percent of the non-skipped tests pass.
use std::io::Write;
use std::process::ExitCode;

use kubedv_conformance::{run_file, Outcome};

/// Prints a line; a closed pipe (`| head`) ends the output quietly instead of panicking.
macro_rules! out {
    ($($arg:tt)*) => {
        if writeln!(std::io::stdout(), $($arg)*).is_err() {
            std::process::exit(0);
        }
    };
}

fn main() -> ExitCode {
    let mut files = Vec::new();
    let mut min_rate: Option<f64> = None;
    let mut verbose = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--min-pass-rate" => min_rate = args.next().and_then(|v| v.parse().ok()),
            "--verbose" | "-v" => verbose = true,
            _ => files.push(a),
        }
    }
    if files.is_empty() {
        eprintln!("usage: kubedv-conformance [--min-pass-rate P] [-v] FILE.textproto...");
        return ExitCode::from(2);
    }
    let (mut passed, mut failed, mut skipped) = (0usize, 0usize, 0usize);
    let mut failures = Vec::new();
    for path in &files {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("{path}: {e}");
                return ExitCode::from(2);
            }
        };
        let outcomes = match run_file(&text) {
            Ok(o) => o,
            Err(e) => {
                eprintln!("{path}: {e}");
                return ExitCode::from(2);
            }
        };
        let (mut p, mut f, mut s) = (0, 0, 0);
        for (name, outcome) in outcomes {
            match outcome {
                Outcome::Pass => p += 1,
                Outcome::Fail(why) => {
                    f += 1;
                    failures.push(format!("FAIL {name}: {why}"));
                }
                Outcome::Skip(why) => {
                    s += 1;
                    if verbose {
                        out!("skip {name}: {why}");
                    }
                }
            }
        }
        let short = std::path::Path::new(path).file_name().map_or(path.clone(), |n| n.to_string_lossy().into_owned());
        out!("{short}: {p} passed, {f} failed, {s} skipped");
        passed += p;
        failed += f;
        skipped += s;
    }
    for line in &failures {
        out!("{line}");
    }
    out!("{passed} passed, {failed} failed, {skipped} skipped");
    if let Some(rate) = min_rate {
        let run = passed + failed;
        let actual = if run == 0 { 0.0 } else { 100.0 * passed as f64 / run as f64 };
        if actual < rate {
            eprintln!("pass rate {actual:.2}% is below the bar of {rate}%");
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
