//! `cargo xtask minimize PATH [FILE]`: shrinks the differential fuzzer's finds while kubedv and
//! the oracle keep differing the same way. FILE (default `target/oracle/fuzz-diff/PATH.found.jsonl`)
//! holds the rows `fuzz-diff` writes (`{"case", "kubedv", "oracle"}`); each row's case is cut
//! down by delta debugging, every candidate of a round asked of the oracle and judged in one
//! batch (`kubedv-diff judge`), the shortest that still differs alike kept, until nothing more
//! can go:
//!
//! - the text paths (`cel`: the expression, `yaml`: the file's text): the text less one of its
//!   pieces, for pieces of a half, a quarter, … a character;
//! - the JSON paths (`crd`, `go`, `builtin`, `builtin-ROOM`, `policy`): the case less one
//!   member of an object or one item of a list anywhere in it (the largest first), or less a
//!   piece of a string (a Go source's lines, a CEL expression's characters) — never what makes
//!   the request one (the case's own fields, a document's `apiVersion`, `kind` and
//!   `metadata.name`/`namespace`, a Go case's requests).
//!
//! "Alike": the same answer fields differ, each side's CEL compile error (if any) is of the
//! same sort (a syntax error or another), and the lines only one side prints (an error list's
//! `field: reason`, list indexes aside) are the same. The minimized rows go to
//! `PATH.minimized.jsonl` beside FILE, with the sizes. A round is as large as one of the
//! path's fuzzing batches, so a round of the `policy` path (20 requests, each waiting for the
//! API server's admission plugins) takes about a minute.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::PathBuf;
use std::process::Command;

use serde_json::{json, Value};

use crate::env::Env;
use crate::oracle::{build_for, captured, oracle_command, path_mode};

/// A line's `field: reason` (what precedes its second `: `), list indexes made `[*]`.
fn head(line: &str) -> String {
    let mut parts = line.splitn(3, ": ");
    let head = [parts.next(), parts.next()].into_iter().flatten().collect::<Vec<_>>().join(": ");
    let mut out = String::with_capacity(head.len());
    let mut rest = head.as_str();
    while let Some(open) = rest.find('[') {
        out.push_str(&rest[..=open]);
        rest = &rest[open + 1..];
        let digits = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
        if digits > 0 && rest[digits..].starts_with(']') {
            out.push('*');
            rest = &rest[digits..];
        }
    }
    out.push_str(rest);
    out
}

/// The lines of an answer field (a string or a list of strings).
fn lines(v: Option<&Value>) -> BTreeSet<String> {
    match v {
        Some(Value::String(s)) => s.lines().map(head).collect(),
        Some(Value::Array(items)) => items.iter().filter_map(Value::as_str).map(head).collect(),
        _ => BTreeSet::new(),
    }
}

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
    let mut sig = format!("{} k={} o={}", keys.join(","), sort(k), sort(o));
    for key in keys.iter().filter(|key| **key != "compile") {
        let (kl, ol) = (lines(k.get(*key)), lines(o.get(*key)));
        for line in kl.symmetric_difference(&ol) {
            let side = if kl.contains(line) { "k" } else { "o" };
            sig.push_str(&format!(" {side}:{line}"));
        }
    }
    sig
}

/// The texts `text` less one of its pieces, for pieces of len/2, len/4, … 1 units (characters,
/// or lines when `by_lines`), at most `most`.
fn cuts(text: &str, by_lines: bool, most: usize) -> Vec<String> {
    let units: Vec<&str> = match by_lines {
        true => text.split_inclusive('\n').collect(),
        false => text.char_indices().map(|(i, c)| &text[i..i + c.len_utf8()]).collect(),
    };
    let mut out: Vec<String> = Vec::new();
    let mut n = 2;
    while n <= units.len().max(1) && out.len() < most {
        let size = units.len().div_ceil(n);
        for start in (0..units.len()).step_by(size.max(1)) {
            let end = (start + size).min(units.len());
            let cut: String = units[..start].iter().chain(&units[end..]).copied().collect();
            if !out.contains(&cut) {
                out.push(cut);
            }
        }
        n *= 2;
    }
    out.truncate(most);
    out
}

/// One step into a JSON value.
#[derive(Clone)]
enum Step {
    Key(String),
    Index(usize),
}

/// Whether the value at `at` (below the case; `parent` holds it) names the request: the
/// case's settings, a document's `apiVersion` and `kind`, a `metadata.name` or `namespace`.
fn naming(at: &[Step], parent: &Value) -> bool {
    let key = match at.last() {
        Some(Step::Key(k)) => k.as_str(),
        _ => "",
    };
    let in_metadata = at.len() >= 2 && matches!(&at[at.len() - 2], Step::Key(m) if m == "metadata");
    (at.len() == 1 && matches!(key, "id" | "fieldValidation" | "root" | "names" | "subresource" | "operation"))
        || (matches!(key, "apiVersion" | "kind") && is_document(parent))
        || (matches!(key, "name" | "namespace") && in_metadata)
}

/// Whether V is a Kubernetes document (it has an `apiVersion` and a `kind`).
fn is_document(v: &Value) -> bool {
    v.get("apiVersion").is_some() && v.get("kind").is_some()
}

/// Whether the member at `at` stays: it names the request, is one of the case's own fields, a
/// document's `metadata`, or a Go case's request (each named in `names`) or one of its fields.
fn kept(at: &[Step], parent: &Value) -> bool {
    naming(at, parent)
        || at.len() == 1
        || (matches!(&at[0], Step::Key(k) if k == "cases") && at.len() <= 3)
        || (is_document(parent) && matches!(at.last(), Some(Step::Key(k)) if k == "metadata"))
}

fn get_mut<'v>(v: &'v mut Value, at: &[Step]) -> Option<&'v mut Value> {
    at.iter().try_fold(v, |v, step| match step {
        Step::Key(k) => v.get_mut(k.as_str()),
        Step::Index(i) => v.get_mut(*i),
    })
}

/// The case less one of its parts, each at most once, the largest parts first (at most `most`).
fn json_cuts(case: &Value, most: usize) -> Vec<Value> {
    let mut found: Vec<(usize, Vec<Step>, Option<String>)> = Vec::new();
    // Returns V's length as compact JSON, summed from its parts' (one pass, not a serialization
    // per node).
    fn walk(v: &Value, at: &mut Vec<Step>, found: &mut Vec<(usize, Vec<Step>, Option<String>)>, most: usize) -> usize {
        let children: Vec<(Step, &Value)> = match v {
            Value::Object(m) => m.iter().map(|(k, c)| (Step::Key(k.clone()), c)).collect(),
            Value::Array(a) => a.iter().enumerate().map(|(i, c)| (Step::Index(i), c)).collect(),
            _ => return v.to_string().len(),
        };
        // The brackets and the commas between the parts.
        let mut len = 2 + children.len().saturating_sub(1);
        for (step, child) in children {
            if let Step::Key(k) = &step {
                len += Value::String(k.clone()).to_string().len() + 1;
            }
            at.push(step);
            let child_len = match child {
                // A Go source is cut by lines, any other string by characters.
                Value::String(s) if s.len() > 1 && !naming(at, v) => {
                    for cut in cuts(s, s.contains('\n'), most.min(16)) {
                        found.push((s.len() - cut.len(), at.clone(), Some(cut)));
                    }
                    child.to_string().len()
                }
                _ => walk(child, at, found, most),
            };
            if !kept(at, v) {
                found.push((child_len, at.clone(), None));
            }
            len += child_len;
            at.pop();
        }
        len
    }
    walk(case, &mut Vec::new(), &mut found, most);
    found.sort_by_key(|(size, _, _)| std::cmp::Reverse(*size));
    let mut out = Vec::new();
    for (_, at, replacement) in found {
        let mut smaller = case.clone();
        let done = match replacement {
            Some(text) => get_mut(&mut smaller, &at).map(|v| *v = Value::String(text)).is_some(),
            None => {
                let (last, parent) = (at.last().cloned(), get_mut(&mut smaller, &at[..at.len() - 1]));
                match (last, parent) {
                    (Some(Step::Key(k)), Some(Value::Object(m))) => m.remove(&k).is_some(),
                    (Some(Step::Index(i)), Some(Value::Array(a))) if i < a.len() => {
                        a.remove(i);
                        true
                    }
                    _ => false,
                }
            }
        };
        if done && !out.contains(&smaller) {
            out.push(smaller);
        }
        if out.len() >= most {
            break;
        }
    }
    out
}

/// A case's size: its text's (`field`) for a text path, its JSON's otherwise.
fn size(case: &Value, field: Option<&str>) -> usize {
    match field {
        Some(f) => case[f].as_str().map_or(usize::MAX, str::len),
        None => case.to_string().len(),
    }
}

pub fn run(env: &Env, args: &[String]) -> Result<(), String> {
    let path = args
        .first()
        .map(String::as_str)
        .ok_or("usage: cargo xtask minimize PATH [FILE] (PATH: cel, yaml, crd, go, builtin, builtin-ROOM, policy)")?;
    let (mode, judged_as, round) = path_mode(path)?;
    let field = match path {
        "cel" => Some("expr"),
        "yaml" => Some("text"),
        _ => None,
    };
    let work = env.root.join("target/oracle/fuzz-diff");
    let file = args.get(1).map_or_else(|| work.join(format!("{path}.found.jsonl")), PathBuf::from);
    build_for(env, &[mode])?;
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
        let mut probes = 0usize;
        loop {
            let current = size(&best["case"], field);
            let smaller: Vec<Value> = match field {
                Some(f) => cuts(best["case"][f].as_str().unwrap_or_default(), false, round)
                    .into_iter()
                    .map(|cut| {
                        let mut c = best["case"].clone();
                        c[f] = json!(cut);
                        c
                    })
                    .collect(),
                None => json_cuts(&best["case"], round),
            };
            if smaller.is_empty() {
                break;
            }
            probes += smaller.len();
            let cases: Vec<Value> = smaller
                .into_iter()
                .enumerate()
                .map(|(i, mut c)| {
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
                Command::new(&judge).args(["judge", judged_as]).arg(&case_file).arg(&answer_file),
            )?;
            let shortest = differ
                .lines()
                .filter_map(|l| serde_json::from_str::<Value>(l).ok())
                .filter(|r| signature(r) == want)
                .min_by_key(|r| size(&r["case"], field));
            match shortest {
                Some(r) if size(&r["case"], field) < current => best = r,
                _ => break,
            }
        }
        let (from, to) = (size(&row["case"], field), size(&best["case"], field));
        before += from;
        after += to;
        best["case"]["id"] = row["case"]["id"].clone();
        best["minimizedFrom"] = json!(from);
        let _ = writeln!(out, "{best}");
        println!("==> minimize {path} #{n}: {from} → {to} characters, {probes} probes ({want})");
    }
    println!("==> minimize {path}: {before} → {after} characters ({})", out_file.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{head, json_cuts, signature};
    use serde_json::json;

    #[test]
    fn a_difference_is_known_by_its_fields_and_reasons() {
        assert_eq!(head("spec.a[12].b: Invalid value: \"x\": must be y"), "spec.a[*].b: Invalid value");
        assert_eq!(head("spec.properties[status].x: Forbidden: no"), "spec.properties[status].x: Forbidden");
        let row = |k: &str| json!({"kubedv": {"errors": [k, "z: Required value"]}, "oracle": {"errors": ["z: Required value"]}});
        assert_eq!(signature(&row("a[1]: Invalid value: 1: no")), signature(&row("a[0]: Invalid value: 2: no")));
        assert_ne!(signature(&row("a[1]: Invalid value: 1: no")), signature(&row("b: Invalid value: 1: no")));
    }

    #[test]
    fn a_request_keeps_what_makes_it_one() {
        let case = json!({"id": "x", "object": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "labels": {"a": "b"}}, "spec": {"x": [1, 2]}}});
        let cuts = json_cuts(&case, 100);
        assert!(cuts
            .iter()
            .all(|c| c["id"] == "x" && c["object"]["kind"] == "Pod" && c["object"]["metadata"]["name"] == "p"));
        assert!(cuts.contains(&json!({"id": "x", "object": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "labels": {"a": "b"}}}})));
        assert!(cuts.contains(&json!({"id": "x", "object": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "labels": {"a": "b"}}, "spec": {"x": [2]}}})));
        // The largest part first.
        assert_eq!(cuts[0]["object"].get("spec"), None);
    }
}
