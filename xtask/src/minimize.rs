//! `cargo xtask minimize PATH [FILE]`: shrinks the differential fuzzer's finds of a text path
//! (`cel`: the expression; `yaml`: the file's text) while kubedv and the oracle keep differing
//! the same way. FILE (default `target/oracle/fuzz-diff/PATH.found.jsonl`) holds the rows
//! `fuzz-diff` writes (`{"case", "kubedv", "oracle"}`); each row's case is cut down by delta
//! debugging — the text split in 2, 4, 8, … pieces, every piece removed in turn, all the
//! candidates of a round asked of the oracle and judged in one batch (`kubedv-diff judge`), the
//! shortest that still differs alike kept — until no piece can go. "Alike": the same answer
//! fields differ, and each side's compile error (if any) is of the same sort (a syntax error or
//! another). The minimized rows go to `PATH.minimized.jsonl` beside FILE, with the sizes.

use std::io::Write;
use std::path::PathBuf;
use std::process::Command;

use serde_json::{json, Value};

use crate::env::Env;
use crate::oracle::{build, captured, oracle_command};

/// At most this many candidates per round (the shortest pieces first dropped when more).
const ROUND: usize = 400;

/// How a difference looks, for "still differs alike".
fn signature(row: &Value) -> String {
    let (k, o) = (&row["kubedv"], &row["oracle"]);
    let (Some(km), Some(om)) = (k.as_object(), o.as_object()) else { return String::from("whole") };
    let mut keys: Vec<&str> =
        km.keys().chain(om.keys()).map(String::as_str).filter(|key| k.get(*key) != o.get(*key)).collect();
    keys.sort_unstable();
    keys.dedup();
    let sort = |v: &Value| match v["compile"].as_str() {
        Some("") | None => "none",
        Some(c) if c.lines().next().is_some_and(|l| l.contains("Syntax error")) => "syntax",
        Some(_) => "other",
    };
    format!("{} k={} o={}", keys.join(","), sort(k), sort(o))
}

/// The texts `text` less one of its pieces, for pieces of len/2, len/4, … 1 characters.
fn candidates(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out: Vec<String> = Vec::new();
    let mut n = 2;
    while n <= chars.len().max(1) && out.len() < ROUND {
        let size = chars.len().div_ceil(n);
        for start in (0..chars.len()).step_by(size.max(1)) {
            let end = (start + size).min(chars.len());
            let cut: String = chars[..start].iter().chain(&chars[end..]).collect();
            if !out.contains(&cut) {
                out.push(cut);
            }
        }
        n *= 2;
    }
    out.truncate(ROUND);
    out
}

pub fn run(env: &Env, args: &[String]) -> Result<(), String> {
    let path = args.first().map(String::as_str).ok_or("usage: cargo xtask minimize PATH [FILE] (PATH: cel, yaml)")?;
    let (mode, field) = match path {
        "cel" => ("cel", "expr"),
        "yaml" => ("yaml", "text"),
        other => return Err(format!("minimize: no text path {other:?} (cel, yaml)")),
    };
    let work = env.root.join("target/oracle/fuzz-diff");
    let file = args.get(1).map_or_else(|| work.join(format!("{path}.found.jsonl")), PathBuf::from);
    build(env)?;
    env.run(
        "cargo build kubedv-diff",
        env.command("cargo").args(["build", "--quiet", "--release", "-p", "kubedv-diff"]),
    )?;
    let judge = env.root.join("target/release/kubedv-diff");
    let text = std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
    let out_file = file.with_file_name(format!("{path}.minimized.jsonl"));
    let mut out = std::fs::File::create(&out_file).map_err(|e| e.to_string())?;
    let (mut before, mut after) = (0usize, 0usize);
    for (n, line) in text.lines().filter(|l| !l.trim().is_empty()).enumerate() {
        let row: Value = serde_json::from_str(line).map_err(|e| format!("{}: {e}", file.display()))?;
        let want = signature(&row);
        let mut best = row.clone();
        loop {
            let current = best["case"][field].as_str().unwrap_or_default().to_string();
            let cuts = candidates(&current);
            if cuts.is_empty() {
                break;
            }
            let cases: Vec<Value> = cuts
                .iter()
                .enumerate()
                .map(|(i, cut)| {
                    let mut c = best["case"].clone();
                    c[field] = json!(cut);
                    c["id"] = json!(format!("m{i}"));
                    c
                })
                .collect();
            let case_file = work.join(format!("minimize-{path}.cases.jsonl"));
            let answer_file = work.join(format!("minimize-{path}.answers.jsonl"));
            let body: String = cases.iter().map(|c| format!("{c}\n")).collect();
            std::fs::write(&case_file, body).map_err(|e| e.to_string())?;
            let stdin = std::fs::File::open(&case_file).map_err(|e| e.to_string())?;
            let answers = captured(&format!("oracle {mode}"), oracle_command(env, mode).stdin(stdin))?;
            std::fs::write(&answer_file, answers).map_err(|e| e.to_string())?;
            let differ = captured(
                "kubedv-diff judge",
                Command::new(&judge).args(["judge", mode]).arg(&case_file).arg(&answer_file),
            )?;
            let shortest = differ
                .lines()
                .filter_map(|l| serde_json::from_str::<Value>(l).ok())
                .filter(|r| signature(r) == want)
                .min_by_key(|r| r["case"][field].as_str().map_or(usize::MAX, str::len));
            match shortest {
                Some(r) if r["case"][field].as_str().map_or(0, str::len) < current.len() => best = r,
                _ => break,
            }
        }
        let (from, to) =
            (row["case"][field].as_str().map_or(0, str::len), best["case"][field].as_str().map_or(0, str::len));
        before += from;
        after += to;
        best["case"]["id"] = row["case"]["id"].clone();
        best["minimizedFrom"] = json!(from);
        let _ = writeln!(out, "{best}");
        println!("==> minimize {path} #{n}: {from} → {to} characters ({want})");
    }
    println!("==> minimize {path}: {before} → {after} characters ({})", out_file.display());
    Ok(())
}
