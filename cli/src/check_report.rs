//! `kubedv check`'s reports: the documents as checked, with positions, printed as text, JSON
//! (docs/design.md's contract), GitHub Actions annotations, SARIF 2.1.0 (code scanning) or JUnit XML
//! (one test case per document).

use std::io::Write;

use kubedv_core::field::Error;
use quick_xml::events::BytesText;

use crate::UsageError;
pub(crate) use kubedv_input::manifests::{Checked, Summary};

/// Text rows: problems on stdout, warnings and skips on stderr (printed as each batch is done).
pub(crate) fn text_rows(results: &[Checked]) {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for r in results {
        let file = &*r.file;
        let title = r.title();
        let _ = (|| -> std::io::Result<()> {
            if r.status == "unreadable" {
                writeln!(out, "{file}:{}:{}: {title}: {}", r.at.0, r.at.1, r.why.as_deref().unwrap_or(""))?;
            }
            for e in &r.errors {
                writeln!(out, "{file}:{}:{}: {title}: {}", e.line, e.column, e.error.text())?;
            }
            for e in &r.update_errors {
                writeln!(out, "{file}:{}:{}: {title}: rejected on update: {}", e.line, e.column, e.error.text())?;
            }
            Ok(())
        })();
        for w in &r.warnings {
            eprintln!("{file}:{}:{}: {title}: warning: {}", w.line, w.column, w.message);
        }
        if r.status == "skipped" {
            eprintln!("{file}:{}:{}: {title}: skipped: {}", r.at.0, r.at.1, r.why.as_deref().unwrap_or(""));
        }
    }
}

/// The closing line(s) on stderr.
pub(crate) fn print_summary(summary: &Summary) {
    eprintln!("{}", summary.line());
}

/// The JSON document, written as the batches are done: `{"documents": [...], "summary": {...}}`
/// (each document indented as the rest of the CLI's pretty JSON).
pub(crate) struct JsonStream {
    written: usize,
}

impl JsonStream {
    pub(crate) fn begin() -> JsonStream {
        println!("{{\n  \"documents\": [");
        JsonStream { written: 0 }
    }

    pub(crate) fn rows(&mut self, results: &[Checked]) -> Result<(), UsageError> {
        let mut out = std::io::stdout().lock();
        for r in results {
            let doc = r.json();
            let text = serde_json::to_string_pretty(&doc).map_err(|e| UsageError(format!("JSON output: {e}")))?;
            let indented = text.replace('\n', "\n    ");
            let sep = if self.written == 0 { "" } else { ",\n" };
            let _ = write!(out, "{sep}    {indented}");
            self.written += 1;
        }
        Ok(())
    }

    pub(crate) fn end(self, summary: &Summary) -> Result<(), UsageError> {
        let text = serde_json::to_string_pretty(summary).map_err(|e| UsageError(format!("JSON output: {e}")))?;
        let close = if self.written == 0 { "" } else { "\n" };
        println!("{close}  ],\n  \"summary\": {}\n}}", text.replace('\n', "\n  "));
        Ok(())
    }
}

/// GitHub Actions workflow commands: one annotation per problem, at its line.
pub(crate) fn github_rows(results: &[Checked]) {
    // Workflow command data escapes %, CR and LF; properties also `:` and `,`.
    let data = |s: &str| s.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A");
    let prop = |s: &str| data(s).replace(':', "%3A").replace(',', "%2C");
    for r in results {
        let file = prop(&r.file);
        let title = prop(&r.title());
        if r.status == "unreadable" {
            println!(
                "::error file={file},line={},col={},title={title}::{}",
                r.at.0,
                r.at.1,
                data(r.why.as_deref().unwrap_or(""))
            );
        }
        for e in &r.errors {
            println!("::error file={file},line={},col={},title={title}::{}", e.line, e.column, data(&e.error.text()));
        }
        for e in &r.update_errors {
            println!(
                "::error file={file},line={},col={},title={title} (update)::rejected on update: {}",
                e.line,
                e.column,
                data(&e.error.text())
            );
        }
        for w in &r.warnings {
            println!("::warning file={file},line={},col={},title={title}::{}", w.line, w.column, data(&w.message));
        }
    }
}

/// The SARIF rule of an error: its origin (`minimum`, `format=k8s-short-name`, `removedAPI`),
/// else its type (`FieldValueRequired`; CEL rule failures have none).
fn rule_id(e: &Error) -> String {
    if e.origin.is_empty() {
        serde_json::to_value(e.kind).ok().and_then(|v| v.as_str().map(String::from)).unwrap_or_default()
    } else {
        e.origin.clone()
    }
}

/// SARIF 2.1.0: one run, a rule per origin or error type, a result per problem at its region.
pub(crate) fn print_sarif(results: &[Checked], summary: &Summary) -> Result<(), UsageError> {
    let mut rules: Vec<String> = Vec::new();
    let mut out = Vec::new();
    let mut result = |rule: String, level: &str, text: String, file: &str, line: usize, column: usize| {
        if !rules.contains(&rule) {
            rules.push(rule.clone());
        }
        out.push(serde_json::json!({
            "ruleId": rule,
            "level": level,
            "message": {"text": text},
            "locations": [{"physicalLocation": {
                "artifactLocation": {"uri": file.trim_start_matches("./")},
                "region": {"startLine": line, "startColumn": column}
            }}]
        }));
    };
    for r in results {
        let file = &*r.file;
        let title = r.title();
        if r.status == "unreadable" {
            result(
                "unreadable".into(),
                "error",
                format!("{title}: {}", r.why.as_deref().unwrap_or("")),
                file,
                r.at.0,
                r.at.1,
            );
        }
        for e in &r.errors {
            result(rule_id(&e.error), "error", format!("{title}: {}", e.error.text()), file, e.line, e.column);
        }
        for e in &r.update_errors {
            result(
                rule_id(&e.error),
                "error",
                format!("{title}: rejected on update: {}", e.error.text()),
                file,
                e.line,
                e.column,
            );
        }
        for w in &r.warnings {
            result("warning".into(), "warning", format!("{title}: {}", w.message), file, w.line, w.column);
        }
    }
    let rules: Vec<serde_json::Value> = rules.iter().map(|id| serde_json::json!({"id": id, "name": id})).collect();
    let doc = serde_json::json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "kubedv", "version": env!("CARGO_PKG_VERSION"), "rules": rules}},
            "results": out
        }]
    });
    let text = serde_json::to_string_pretty(&doc).map_err(|e| UsageError(format!("SARIF output: {e}")))?;
    println!("{text}");
    eprintln!("{}", summary.line());
    Ok(())
}

/// JUnit XML: a test suite per file, a test case per document (failed: invalid or unreadable;
/// skipped: no schema), each failure listing its problems at their lines.
pub(crate) fn print_junit(results: &[Checked], summary: &Summary) -> Result<(), UsageError> {
    let mut files: Vec<&str> = Vec::new();
    for r in results {
        if !files.contains(&&*r.file) {
            files.push(&*r.file);
        }
    }
    let mut w = quick_xml::Writer::new_with_indent(Vec::new(), b' ', 2);
    let failed = summary.invalid + summary.unreadable;
    let write = |w: &mut quick_xml::Writer<Vec<u8>>| -> std::io::Result<()> {
        w.create_element("testsuites")
            .with_attribute(("name", "kubedv check"))
            .with_attribute(("tests", summary.documents.to_string().as_str()))
            .with_attribute(("failures", failed.to_string().as_str()))
            .with_attribute(("skipped", summary.skipped.to_string().as_str()))
            .write_inner_content(|w| {
                for file in &files {
                    let docs: Vec<&Checked> = results.iter().filter(|r| &*r.file == *file).collect();
                    let fails = docs.iter().filter(|r| matches!(r.status, "invalid" | "unreadable")).count();
                    let skips = docs.iter().filter(|r| r.status == "skipped").count();
                    w.create_element("testsuite")
                        .with_attribute(("name", *file))
                        .with_attribute(("tests", docs.len().to_string().as_str()))
                        .with_attribute(("failures", fails.to_string().as_str()))
                        .with_attribute(("skipped", skips.to_string().as_str()))
                        .write_inner_content(|w| {
                            for r in docs {
                                junit_case(w, r)?;
                            }
                            Ok(())
                        })?;
                }
                Ok(())
            })?;
        Ok(())
    };
    write(&mut w).map_err(|e| UsageError(format!("JUnit output: {e}")))?;
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = stdout.write_all(&w.into_inner());
    let _ = stdout.write_all(b"\n");
    eprintln!("{}", summary.line());
    Ok(())
}

fn junit_case(w: &mut quick_xml::Writer<Vec<u8>>, r: &Checked) -> std::io::Result<()> {
    let name = format!("{} (document {}, line {})", r.title(), r.index, r.line);
    let case =
        w.create_element("testcase").with_attribute(("name", name.as_str())).with_attribute(("classname", &*r.file));
    let mut lines: Vec<String> = Vec::new();
    if r.status == "unreadable" {
        lines.push(format!("{}:{}: {}", r.at.0, r.at.1, r.why.as_deref().unwrap_or("")));
    }
    lines.extend(r.errors.iter().map(|e| format!("{}:{}: {}", e.line, e.column, e.error.text())));
    lines.extend(
        r.update_errors.iter().map(|e| format!("{}:{}: rejected on update: {}", e.line, e.column, e.error.text())),
    );
    match r.status {
        "invalid" | "unreadable" => {
            let message = lines.first().cloned().unwrap_or_default();
            case.write_inner_content(|w| {
                w.create_element("failure")
                    .with_attribute(("message", message.as_str()))
                    .write_text_content(BytesText::new(&lines.join("\n")))?;
                Ok(())
            })?;
        }
        "skipped" => {
            let why = r.why.clone().unwrap_or_default();
            case.write_inner_content(|w| {
                w.create_element("skipped").with_attribute(("message", why.as_str())).write_empty()?;
                Ok(())
            })?;
        }
        _ => {
            case.write_empty()?;
        }
    }
    Ok(())
}
