//! Declarative validation table tests: each `tests/declarative/*.txt` file holds Go types and
//! cases of (object, expected Kubernetes error lines). Every file and case names the Kubernetes
//! source of its expectations (apimachinery `pkg/api/validate/*.go`,
//! `pkg/util/validation/field`, code-generator `cmd/validation-gen/output_tests`).
//!
//! File format, line based:
//!
//! ```text
//! # comment (sources)
//! == types                     Go source follows, until the next `==` line
//! == root NAME                 the type to validate (default: the only root candidate)
//! == diagnostics               expected diagnostics follow, one `LINE:COL: severity: message`
//! == case NAME                 an object (JSON) follows
//! == options A,B               validation options turned on for the next case
//! == old                       the old object (JSON) of the case before: validates an update
//! == subresource PATH          the request's subresource for the next case (`/status`)
//! == no-defaults               the suite's objects are validated as written, without their
//!                              `+default` values (validation-gen's output tests do not default)
//! == expect                    the expected error lines follow (exact, in order); a line may
//!                              end in ` [alpha]` or ` [beta]` for the error's stability
//! ```

use std::path::Path;

use kubedv_core::declarative::{Options, Schema};
use kubedv_core::field::Stability;

#[derive(Default)]
struct Case {
    name: String,
    object: String,
    old: Option<String>,
    subresource: Option<String>,
    options: Vec<String>,
    expect: Vec<String>,
}

struct Suite {
    types: String,
    root: Option<String>,
    diagnostics: Option<Vec<String>>,
    cases: Vec<Case>,
    defaults: bool,
}

fn parse_file(text: &str) -> Vec<Suite> {
    let mut suites: Vec<Suite> = Vec::new();
    let mut section = String::new();
    let mut pending_options: Vec<String> = Vec::new();
    let mut pending_subresource: Option<String> = None;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("== ") {
            let (head, arg) = rest.split_once(' ').unwrap_or((rest, ""));
            section = head.to_string();
            match head {
                "types" => suites.push(Suite {
                    types: String::new(),
                    root: None,
                    diagnostics: None,
                    cases: Vec::new(),
                    defaults: true,
                }),
                "root" => suites.last_mut().unwrap().root = Some(arg.trim().to_string()),
                "diagnostics" => suites.last_mut().unwrap().diagnostics = Some(Vec::new()),
                "no-defaults" => suites.last_mut().unwrap().defaults = false,
                "options" => pending_options = arg.split(',').map(|s| s.trim().to_string()).collect(),
                "subresource" => pending_subresource = Some(arg.trim().to_string()),
                "case" => {
                    let options = std::mem::take(&mut pending_options);
                    let subresource = pending_subresource.take();
                    suites.last_mut().unwrap().cases.push(Case {
                        name: arg.to_string(),
                        options,
                        subresource,
                        ..Case::default()
                    });
                }
                "old" => suites.last_mut().unwrap().cases.last_mut().unwrap().old = Some(String::new()),
                "expect" => {}
                other => panic!("unknown section {other:?}"),
            }
            continue;
        }
        if line.starts_with('#') {
            continue;
        }
        let Some(suite) = suites.last_mut() else { continue };
        match section.as_str() {
            "types" => {
                suite.types.push_str(line);
                suite.types.push('\n');
            }
            "diagnostics" if !line.trim().is_empty() => suite.diagnostics.as_mut().unwrap().push(line.to_string()),
            "case" => {
                let case = suite.cases.last_mut().unwrap();
                case.object.push_str(line);
                case.object.push('\n');
            }
            "old" => {
                let old = suites.last_mut().unwrap().cases.last_mut().unwrap().old.as_mut().unwrap();
                old.push_str(line);
                old.push('\n');
            }
            "expect" if !line.trim().is_empty() => suite.cases.last_mut().unwrap().expect.push(line.to_string()),
            _ => {}
        }
    }
    suites
}

fn stability_suffix(s: Stability) -> &'static str {
    match s {
        Stability::Alpha => " [alpha]",
        Stability::Beta => " [beta]",
        Stability::Stable => "",
    }
}

#[test]
fn declarative_tables() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/declarative");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    let (mut total, mut failures) = (0usize, Vec::new());
    for file in files.iter().filter(|f| f.extension().is_some_and(|e| e == "txt")) {
        let text = std::fs::read_to_string(file).unwrap();
        let fname = file.file_name().unwrap().to_string_lossy().to_string();
        for suite in parse_file(&text) {
            let schema = Schema::compile(&suite.types);
            let diags: Vec<String> = schema.diagnostics.iter().map(|d| d.to_string()).collect();
            match &suite.diagnostics {
                Some(want) => {
                    total += 1;
                    if &diags != want {
                        failures.push(format!("{fname}: diagnostics\n  got:  {diags:#?}\n  want: {want:#?}"));
                    }
                }
                None if schema.has_errors() => {
                    failures.push(format!("{fname}: unexpected diagnostics {diags:#?}"));
                    continue;
                }
                None => {}
            }
            if suite.cases.is_empty() {
                continue;
            }
            let root = match &suite.root {
                Some(name) => schema.type_named(name).unwrap_or_else(|| panic!("{fname}: no type {name}")),
                None => {
                    let c = schema.root_candidates();
                    assert_eq!(c.len(), 1, "{fname}: root candidates {c:?}; add `== root`");
                    schema.type_named(c[0]).unwrap()
                }
            };
            for case in &suite.cases {
                total += 1;
                let object: serde_json::Value = match serde_json::from_str(&case.object) {
                    Ok(v) => v,
                    Err(e) => {
                        failures.push(format!("{fname}: {}: bad JSON: {e}", case.name));
                        continue;
                    }
                };
                let old: Option<serde_json::Value> = match case.old.as_deref().map(serde_json::from_str) {
                    None => None,
                    Some(Ok(v)) => Some(v),
                    Some(Err(e)) => {
                        failures.push(format!("{fname}: {}: bad old JSON: {e}", case.name));
                        continue;
                    }
                };
                let options = Options { enabled: case.options.clone(), defaults: suite.defaults };
                let report =
                    schema.validate_request(root, &object, old.as_ref(), case.subresource.as_deref(), &options);
                let mut got: Vec<String> =
                    report.errors.iter().map(|e| format!("{}{}", e.text(), stability_suffix(e.stability))).collect();
                got.extend(report.diagnostics.iter().map(|d| format!("diagnostic {d}")));
                if got != case.expect {
                    failures.push(format!("{fname}: {}\n  got:  {got:#?}\n  want: {:#?}", case.name, case.expect));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} of {total} failed:\n{}", failures.len(), failures.join("\n"));
    assert!(total >= 150, "the tables hold {total} cases; keep at least 150");
    println!("{total} declarative cases passed");
}
