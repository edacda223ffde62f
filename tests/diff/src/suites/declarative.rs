//! `declarative`: the declarative validation tables (`core/tests/declarative/*.txt`) against
//! validation-gen v0.37.2: each table's types become a generated package, its objects are
//! validated by the generated code (the oracle's `declarative` mode) and by kubedv's
//! `Schema::validate_request`. Compared per case: every error with its stability level (errors
//! sorted: the generated code walks Go maps in random order), or that an object does not
//! decode; per table whose types are refused: that both refuse them.
//!
//! Tables whose types carry `+default` values and are validated defaulted are left out: the
//! oracle does not run defaulter-gen (yet), and kubedv applies them as the API server's decoding
//! does.

use kubedv_core::declarative::{Options, Schema};
use kubedv_core::field::Stability;
use serde_json::{json, Value};

use super::files;
use crate::{Case, Item, Suite};

pub const SUITE: Suite = Suite {
    name: "declarative",
    mode: "declarative",
    about: "the declarative validation tables (core/tests/declarative) against validation-gen's generated code",
    cases,
    items,
};

/// One `== types` block of a table file and its cases (the file format is described in
/// `core/tests/declarative.rs`).
#[derive(Default)]
struct Table {
    types: String,
    root: Option<String>,
    defaults: bool,
    cases: Vec<Value>,
    names: Vec<String>,
}

fn parse(text: &str) -> Vec<Table> {
    let mut tables: Vec<Table> = Vec::new();
    let mut section = String::new();
    let (mut options, mut subresource): (Vec<String>, Option<String>) = (Vec::new(), None);
    let mut object = String::new();
    let mut old: Option<String> = None;
    let flush = |tables: &mut Vec<Table>, object: &mut String, old: &mut Option<String>| {
        if let Some(c) = tables.last_mut().and_then(|t| t.cases.last_mut()) {
            if c["object"].is_null() {
                c["object"] = json!(std::mem::take(object).trim());
                c["old"] = old.take().map_or(Value::Null, |o| json!(o.trim()));
            }
        }
    };
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("== ") {
            let (head, arg) = rest.split_once(' ').unwrap_or((rest, ""));
            if !matches!(head, "old") {
                flush(&mut tables, &mut object, &mut old);
            }
            section = head.to_string();
            match head {
                "types" => tables.push(Table { defaults: true, ..Table::default() }),
                "root" => tables.last_mut().unwrap().root = Some(arg.trim().to_string()),
                "no-defaults" => tables.last_mut().unwrap().defaults = false,
                "options" => options = arg.split(',').map(|s| s.trim().to_string()).collect(),
                "subresource" => subresource = Some(arg.trim().to_string()),
                "case" => {
                    let t = tables.last_mut().unwrap();
                    t.names.push(arg.to_string());
                    t.cases.push(json!({
                        "object": null,
                        "options": std::mem::take(&mut options),
                        "subresource": subresource.take().unwrap_or_default(),
                    }));
                }
                "old" => old = Some(String::new()),
                _ => {}
            }
            continue;
        }
        if line.starts_with('#') {
            continue;
        }
        match section.as_str() {
            "types" => {
                let t = tables.last_mut().unwrap();
                t.types.push_str(line);
                t.types.push('\n');
            }
            "case" => {
                object.push_str(line);
                object.push('\n');
            }
            "old" => {
                let o = old.get_or_insert_with(String::new);
                o.push_str(line);
                o.push('\n');
            }
            _ => {}
        }
    }
    flush(&mut tables, &mut object, &mut old);
    tables
}

fn cases() -> Result<Vec<Case>, String> {
    let mut out = Vec::new();
    for (path, text) in files(&["core/tests/declarative"], &[".txt"])? {
        for (n, t) in parse(&text).into_iter().enumerate() {
            if t.cases.is_empty() || (t.defaults && t.types.contains("+default")) {
                continue;
            }
            let schema = Schema::compile(&t.types);
            let root = t.root.clone().or_else(|| match schema.root_candidates().as_slice() {
                [one] => Some(one.to_string()),
                _ => None,
            });
            // The objects as JSON values (the tables hold their text); the oracle decodes each
            // into the root's Go type as the API server decodes a body.
            let cases: Vec<Value> = t
                .cases
                .iter()
                .map(|c| {
                    let object: Value =
                        serde_json::from_str(c["object"].as_str().unwrap_or("null")).unwrap_or(Value::Null);
                    let old: Value =
                        c["old"].as_str().and_then(|o| serde_json::from_str(o).ok()).unwrap_or(Value::Null);
                    json!({"object": object, "old": old, "options": c["options"], "subresource": c["subresource"]})
                })
                .collect();
            out.push(Case {
                id: format!("{path}#{n}"),
                input: json!({"types": t.types, "root": root.unwrap_or_default(), "cases": cases, "names": t.names, "defaults": t.defaults}),
            });
        }
    }
    Ok(out)
}

fn stability(s: Stability) -> &'static str {
    match s {
        Stability::Alpha => "alpha",
        Stability::Beta => "beta",
        Stability::Stable => "stable",
    }
}

fn sorted_errors(mut v: Vec<Value>) -> Value {
    v.sort_by_key(|e| e.to_string());
    json!({"errors": v})
}

pub(super) fn items(case: &Case, answer: &Value) -> Vec<Item> {
    let input = &case.input;
    let schema = Schema::compile(input["types"].as_str().unwrap_or_default());
    let refused_by_oracle = answer.get("refused").is_some();
    if schema.has_errors() || refused_by_oracle {
        return vec![Item {
            id: case.id.clone(),
            kubedv: json!({"refused": schema.has_errors()}),
            oracle: json!({"refused": refused_by_oracle}),
        }];
    }
    let root = schema.type_named(input["root"].as_str().unwrap_or_default());
    let names = input["names"].as_array().cloned().unwrap_or_default();
    let results = answer["results"].as_array().cloned().unwrap_or_default();
    let cases = input["cases"].as_array().cloned().unwrap_or_default();
    cases
        .iter()
        .enumerate()
        // An old object that does not decode into the type never reaches validation in the API
        // server (it comes from storage): not compared.
        .filter(|(i, _)| {
            !results.get(*i).and_then(|r| r["undecodable"].as_str()).is_some_and(|w| w.starts_with("old: "))
        })
        .map(|(i, c)| {
            let id = format!("{}: {}", case.id, names.get(i).and_then(Value::as_str).unwrap_or_default());
            let oracle = match results.get(i) {
                Some(r) if r.get("undecodable").is_some() => json!({"undecodable": true}),
                // The generated code panicked (the API server would answer 500).
                Some(r) if r.get("panic").is_some() => json!({"panic": r["panic"]}),
                Some(r) => sorted_errors(r["errors"].as_array().cloned().unwrap_or_default()),
                None => json!({"missing": true}),
            };
            let kubedv = match root {
                None => json!({"noRoot": true}),
                Some(root) => {
                    let options = Options {
                        enabled: c["options"]
                            .as_array()
                            .into_iter()
                            .flatten()
                            .filter_map(|o| o.as_str().map(String::from))
                            .collect(),
                        defaults: input["defaults"].as_bool().unwrap_or(true),
                    };
                    let old = Some(&c["old"]).filter(|o| !o.is_null());
                    let sub = c["subresource"].as_str().filter(|s| !s.is_empty());
                    let report = schema.validate_request(root, &c["object"], old, sub, &options);
                    if report.diagnostics.iter().any(|d| d.is_error()) {
                        json!({"undecodable": true})
                    } else {
                        sorted_errors(
                            report
                                .errors
                                .iter()
                                .map(|e| json!({"text": e.text(), "stability": stability(e.stability)}))
                                .collect(),
                        )
                    }
                }
            };
            Item { id, kubedv, oracle }
        })
        .collect()
}
