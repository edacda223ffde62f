//! `kubedv policy test SUITE`: run a policy test suite (the format is documented in
//! `kubedv_core::policy::suite`). One line per case, a summary, exit 1 when a case fails;
//! `--format json` or `--format junit` for CI.

use std::io::Write;
use std::path::{Path, PathBuf};

use kubedv_core::policy::suite::{compare, read_case};
use kubedv_core::policy::{Outcome as Verdict, PolicySet};
use quick_xml::events::BytesText;
use serde_json::{json, Value};

use crate::output::{count, Outcome};
use crate::{input, policy_cmd, CliFormat, UsageError};

#[derive(clap::Args)]
pub struct Args {
    /// The suite (YAML or JSON).
    suite: String,
}

struct Ran {
    name: String,
    failures: Vec<String>,
    outcome: Option<Verdict>,
}

fn relative(base: &Path, file: &str) -> String {
    let p = Path::new(file);
    if p.is_absolute() {
        return file.to_string();
    }
    base.join(p).to_string_lossy().into_owned()
}

fn file_list(suite: &Value, key: &str, base: &Path) -> Result<Vec<String>, UsageError> {
    match suite.get(key) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(a)) => a
            .iter()
            .map(|f| {
                f.as_str().map(|f| relative(base, f)).ok_or_else(|| UsageError(format!("{key}: expected file names")))
            })
            .collect(),
        Some(_) => Err(UsageError(format!("{key}: expected a list of files"))),
    }
}

/// Replaces `objectFile`, `oldObjectFile` and `namespaceObjectFile` by the documents they name.
fn inline_files(case: &mut Value, base: &Path) -> Result<(), UsageError> {
    for (file_key, key) in
        [("objectFile", "object"), ("oldObjectFile", "oldObject"), ("namespaceObjectFile", "namespaceObject")]
    {
        if let Some(f) = case.get(file_key).and_then(Value::as_str) {
            let path = relative(base, f);
            let text = input::read(&path)?;
            let doc = input::objects(&path, &text)?.into_iter().next();
            case[key] = doc.unwrap_or(Value::Null);
        }
    }
    Ok(())
}

pub fn run(args: Args, format: CliFormat) -> Result<Outcome, UsageError> {
    let text = input::read(&args.suite)?;
    let suite = input::objects(&args.suite, &text)?.into_iter().next().unwrap_or(Value::Null);
    let base: PathBuf = Path::new(&args.suite).parent().map(Path::to_path_buf).unwrap_or_default();
    let mut files = file_list(&suite, "policies", &base)?;
    files.extend(file_list(&suite, "params", &base)?);
    let refs: Vec<&String> = files.iter().collect();
    let (docs, params) = policy_cmd::load(&refs)?;
    let set = PolicySet::new(&docs);
    policy_cmd::check_problems(&set)?;
    let cases = suite
        .get("cases")
        .and_then(Value::as_array)
        .ok_or_else(|| UsageError(format!("{}: no cases (a list under `cases:`)", args.suite)))?;
    let mut ran = Vec::new();
    for (i, c) in cases.iter().enumerate() {
        let mut c = c.clone();
        inline_files(&mut c, &base)?;
        match read_case(&c, i) {
            Err(e) => ran.push(Ran { name: format!("case {}", i + 1), failures: vec![e], outcome: None }),
            Ok(case) => {
                let mut all = params.clone();
                all.extend(case.params.iter().cloned());
                let outcome = set.evaluate(&case.request, &all, &case.allow);
                ran.push(Ran { name: case.name, failures: compare(&case.expect, &outcome), outcome: Some(outcome) });
            }
        }
    }
    let failed = ran.iter().filter(|r| !r.failures.is_empty()).count();
    let summary = format!("{}: {} passed, {} failed", count(ran.len(), "case"), ran.len() - failed, failed);
    let mut out = std::io::stdout().lock();
    match format {
        CliFormat::Json => {
            let cases: Vec<Value> = ran
                .iter()
                .map(|r| json!({"name": r.name, "passed": r.failures.is_empty(), "failures": r.failures, "outcome": r.outcome}))
                .collect();
            let doc = json!({"cases": cases, "summary": {"cases": ran.len(), "passed": ran.len() - failed, "failed": failed}});
            let _ = serde_json::to_writer_pretty(&mut out, &doc)
                .map_err(std::io::Error::other)
                .and_then(|()| writeln!(out));
        }
        CliFormat::Junit => {
            let xml = junit(&args.suite, &ran, failed).map_err(|e| UsageError(format!("JUnit output: {e}")))?;
            let _ = out.write_all(b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n").and_then(|()| out.write_all(&xml));
            let _ = writeln!(out);
            eprintln!("{summary}");
        }
        CliFormat::Text => {
            for r in &ran {
                let _ = match r.failures.is_empty() {
                    true => writeln!(out, "PASS {}", r.name),
                    false => writeln!(out, "FAIL {}\n  {}", r.name, r.failures.join("\n  ")),
                };
            }
            eprintln!("{summary}");
        }
        CliFormat::Github | CliFormat::Sarif => {
            return Err(UsageError(String::from("kubedv policy test writes text, json or junit")));
        }
    }
    Ok(if failed == 0 { Outcome::Clean } else { Outcome::Invalid })
}

fn junit(suite: &str, ran: &[Ran], failed: usize) -> std::io::Result<Vec<u8>> {
    let mut w = quick_xml::Writer::new_with_indent(Vec::new(), b' ', 2);
    w.create_element("testsuite")
        .with_attribute(("name", suite))
        .with_attribute(("tests", ran.len().to_string().as_str()))
        .with_attribute(("failures", failed.to_string().as_str()))
        .write_inner_content(|w| {
            for r in ran {
                let case = w
                    .create_element("testcase")
                    .with_attribute(("name", r.name.as_str()))
                    .with_attribute(("classname", suite));
                if r.failures.is_empty() {
                    case.write_empty()?;
                } else {
                    let first = r.failures[0].as_str();
                    case.write_inner_content(|w| {
                        w.create_element("failure")
                            .with_attribute(("message", first))
                            .write_text_content(BytesText::new(&r.failures.join("\n")))?;
                        Ok(())
                    })?;
                }
            }
            Ok(())
        })?;
    Ok(w.into_inner())
}
