//! `cel`: CEL expressions in Kubernetes' CEL environment as a CRD validation rule sees it
//! (apiserver v0.37.2's base environment, the oracle's `cel` mode) and in kubedv's. The
//! expressions are Kubernetes' own — every `expr:` of apiserver `pkg/cel/library`'s test tables
//! (`tests/corpus/cel/apiserver-library.jsonl`, made by `oracle cel-exprs`) — and every
//! expression of kubedv's CEL tables (`core/tests/suite/cel`: the library, cost, estimate,
//! lists and compatibility tables, read from their source so a new row is a new case).
//!
//! Compared per expression, as one item: the compile error as cel-go prints its issues (or that
//! it compiles), the checked type, a refusal to build the program (a constant that cannot be
//! folded, a regex that does not compile), and the evaluation — the value (rendered with its type,
//! `render`) or the error's text — with its runtime cost; as a second item (`… estimate`): the
//! static cost estimate's maximum (`estimated_max`).

use kubedv_core::cel::checker::{self, CelType, Decls};
use kubedv_core::cel::estimate::{estimate, sized_type};
use kubedv_core::cel::{self, display_error, Key, Program, Value};
use serde_json::{json, Value as Json};

use super::files;
use crate::{Case, Item, Suite};

pub const SUITE: Suite = Suite {
    name: "cel",
    mode: "cel",
    about: "CEL expressions of Kubernetes' library tests and kubedv's CEL tables, in Kubernetes' CEL environment",
    cases,
    items,
};

/// kubedv's tables read as cases: (file under `core/tests/suite/cel`, the `const` table, which
/// string of a row is the expression).
const TABLES: &[(&str, &str, usize)] = &[
    ("library.rs", "KUBERNETES_CASES", 1),
    ("library.rs", "MORE_CASES", 1),
    ("cost.rs", "CASES", 0),
    ("cost.rs", "ESTIMATES", 0),
    ("lists.rs", "VALUES", 0),
    ("environment.rs", "GATED", 0),
    ("parse_errors.rs", "RECOVERY", 0),
    ("parse_errors.rs", "MACRO_ERRORS", 0),
];

fn cases() -> Result<Vec<Case>, String> {
    let mut out = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for (path, text) in files(&["tests/corpus/cel"], &[".jsonl"])? {
        let name = path.rsplit('/').next().unwrap_or(&path).to_string();
        for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            let row: Json = serde_json::from_str(line).map_err(|e| format!("{path}:{}: {e}", n + 1))?;
            let id = format!("{name} {}", row["source"].as_str().unwrap_or_default());
            let mut input = row.clone();
            input.as_object_mut().map(|o| o.remove("source"));
            out.push(Case { id, input });
        }
    }
    for (file, table, index) in TABLES {
        let path = format!("core/tests/suite/cel/{file}");
        let text = std::fs::read_to_string(crate::root().join(&path)).map_err(|e| format!("{path}: {e}"))?;
        let rows = table_rows(&text, table).ok_or_else(|| format!("{path}: no table {table}"))?;
        for row in rows {
            let Some(expr) = row.get(*index) else { continue };
            if seen.insert((*table, expr.clone())) {
                out.push(Case { id: format!("{file} {table} {expr}"), input: json!({"expr": expr}) });
            }
        }
    }
    Ok(out)
}

pub(super) fn items(case: &Case, answer: &Json) -> Vec<Item> {
    let mine = kubedv(&case.input);
    let keys = ["compile", "type", "program", "value", "valueType", "error", "cost"];
    // The cost of a failed evaluation is not compared: Kubernetes reports none (kubedv keeps
    // none).
    let pick = |v: &Json| {
        let failed = v.get("error").is_some();
        let keep = |k: &&&str| !(failed && **k == "cost");
        Json::Object(keys.iter().filter(keep).filter_map(|k| Some((k.to_string(), v.get(*k)?.clone()))).collect())
    };
    let mut out = vec![Item { id: case.id.clone(), kubedv: pick(&mine), oracle: pick(answer) }];
    if mine.get("estimate").is_some() || answer.get("estimate").is_some() {
        out.push(Item {
            id: format!("{} estimate", case.id),
            kubedv: estimated_max(&mine["estimate"]),
            oracle: estimated_max(&answer["estimate"]),
        });
    }
    out
}

/// The static estimate's maximum, the number Kubernetes uses (apiextensions compilation.go
/// `MaxCost = costEst.Max`; the minimum is never read). From 10^10 on — a hundred times the
/// largest static limit, `StaticEstimatedCRDCostLimit` — Kubernetes shows an estimate only as
/// "more than 100x" the limit, so every such number is compared as `unbounded` (cel-go's
/// saturating arithmetic and kubedv's reach different huge numbers there).
fn estimated_max(estimate: &Json) -> Json {
    match estimate[1].as_u64() {
        Some(max) if max >= 10_000_000_000 => json!("unbounded"),
        Some(max) => json!(max),
        None => Json::Null,
    }
}

/// kubedv's answer to a case, as a rule's expression is compiled (checked in Kubernetes'
/// environment, before folding), estimated and evaluated (folded) by kubedv.
fn kubedv(input: &Json) -> Json {
    let expr = input["expr"].as_str().unwrap_or_default();
    let schema = input.get("schema").filter(|s| !s.is_null());
    let self_type = schema.and_then(|s| cel::schema::decl_type(s, false)).unwrap_or(CelType::Dyn);
    // The oracle's environment: a 1.37 API server's for new expressions (compatibility 1.36).
    let mut decls = Decls::default();
    decls.set_compatibility(cel::environment::new_expressions(37));
    let mut vars = std::collections::BTreeMap::new();
    for name in ["self", "oldSelf"] {
        if schema.is_some() || input.get(name).is_some() {
            decls.declare(name, self_type.clone());
        }
        if let Some(v) = input.get(name) {
            let value = match schema {
                Some(s) => cel::schema::value(v, s, false),
                None => cel::from_json(v),
            };
            vars.insert(name.to_string(), value);
        }
    }
    let mut out = serde_json::Map::new();
    let unoptimized = match Program::compile(expr) {
        Ok(p) => p,
        Err(e) => return json!({"compile": display_error("", &e, expr)}),
    };
    let (ty, checked) = match checker::check_kubernetes_overloads(&unoptimized, &decls) {
        Ok(t) => t,
        Err(e) => return json!({"compile": display_error("", &e, expr)}),
    };
    out.insert("compile".into(), json!(""));
    out.insert("type".into(), json!(ty.to_string()));
    let sized: Vec<_> =
        schema.and_then(sized_type).map(|t| vec![("self", t.clone()), ("oldSelf", t)]).unwrap_or_default();
    let est = estimate(&unoptimized, &sized);
    out.insert("estimate".into(), json!([est.min, est.max]));
    // The program as the API server builds it (folded, regexes compiled), as a CRD rule's.
    let program = match checker::instantiate(&unoptimized, expr, &checked) {
        Ok(p) => p,
        Err(m) => {
            out.insert("program".into(), json!(m));
            return Json::Object(out);
        }
    };
    match program.eval(&vars) {
        Ok(done) => {
            out.insert("value".into(), json!(render(&done.value)));
            out.insert("valueType".into(), json!(done.value.type_name()));
            out.insert("cost".into(), json!(done.cost));
        }
        Err(e) => {
            out.insert("error".into(), json!(e.message));
        }
    }
    Json::Object(out)
}

/// A value in the typed text the oracle writes (tests/oracle/cmd/oracle/cel.go `renderCEL`).
fn render(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Uint(u) => format!("{u}u"),
        Value::Double(d) => format!("double({})", kubedv_core::field::go_float(*d)),
        Value::String(s) => Json::String(s.to_string()).to_string(),
        Value::Bytes(b) => format!("b64({})", cel::functions::base64_encode(b)),
        Value::Duration(d) => format!("duration({})", cel::time::duration_to_go(*d)),
        Value::Timestamp(t) => format!("timestamp({})", t.to_rfc3339()),
        Value::Type(t) => format!("type({})", t.name()),
        Value::Optional(None) => "optional.none()".into(),
        Value::Optional(Some(v)) => format!("optional.of({})", render(v)),
        Value::List(items) => format!("[{}]", items.iter().map(render).collect::<Vec<_>>().join(", ")),
        Value::Map(m) => {
            let mut parts: Vec<String> = m
                .iter()
                .map(|(k, v)| {
                    let key = match k {
                        Key::String(s) => Json::String(s.to_string()).to_string(),
                        Key::Bool(b) => b.to_string(),
                        Key::Int(i) => i.to_string(),
                        Key::Uint(u) => format!("{u}u"),
                    };
                    format!("{key}: {}", render(v))
                })
                .collect();
            parts.sort();
            format!("{{{}}}", parts.join(", "))
        }
        Value::Object(o) => format!("{}({o})", v.type_name()),
    }
}

/// The rows of `const NAME: &[...] = &[ ... ];` in Rust source: each row's string literals that
/// stand directly in its tuple (not inside a nested call), decoded.
fn table_rows(text: &str, name: &str) -> Option<Vec<Vec<String>>> {
    let start = text.find(&format!("const {name}: "))?;
    let body = start + text[start..].find("= &[")? + 4;
    let b = text.as_bytes();
    let (mut i, mut depth) = (body, 1usize);
    let mut rows = Vec::new();
    let mut row: Vec<String> = Vec::new();
    while i < b.len() && depth > 0 {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                i = text[i..].find('\n').map_or(b.len(), |n| i + n);
                continue;
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                depth -= 1;
                if depth == 1 && b[i] == b')' {
                    rows.push(std::mem::take(&mut row));
                }
            }
            b'r' if matches!(b.get(i + 1), Some(b'"' | b'#')) && !is_ident(b.get(i.wrapping_sub(1))) => {
                let hashes = b[i + 1..].iter().take_while(|&&c| c == b'#').count();
                let open = i + 1 + hashes + 1;
                let close = format!("\"{}", "#".repeat(hashes));
                let end = open + text[open..].find(&close)?;
                if depth == 2 {
                    row.push(text[open..end].to_string());
                }
                i = end + close.len();
                continue;
            }
            b'"' => {
                let (s, end) = plain_string(text, i + 1)?;
                if depth == 2 {
                    row.push(s);
                }
                i = end;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    Some(rows)
}

fn is_ident(c: Option<&u8>) -> bool {
    c.is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
}

/// A `"..."` literal's text from just after its opening quote: (decoded, index after it).
fn plain_string(text: &str, from: usize) -> Option<(String, usize)> {
    let mut out = String::new();
    let mut chars = text[from..].char_indices();
    while let Some((n, c)) = chars.next() {
        match c {
            '"' => return Some((out, from + n + 1)),
            '\\' => match chars.next()?.1 {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                'r' => out.push('\r'),
                '0' => out.push('\0'),
                '\\' => out.push('\\'),
                '"' => out.push('"'),
                '\'' => out.push('\''),
                'u' => {
                    let hex: String = chars.by_ref().skip(1).map(|(_, c)| c).take_while(|&c| c != '}').collect();
                    out.push(char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?);
                }
                '\n' => {
                    // A line continuation: the newline and the next line's indentation go.
                    let rest = &text[from + n..];
                    let skip = rest[2..].len() - rest[2..].trim_start().len();
                    for _ in 0..skip {
                        chars.next();
                    }
                }
                other => out.push(other),
            },
            c => out.push(c),
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_of_a_table() {
        let src = r##"
const T: &[(&str, &str, E)] = &[
    // a comment with "quotes" and (parens
    ("a", r#"x("y")"#, Val("not this")),
    ("b", "p \"q\"\n", Runs),
];
const U: &[(&str, u64)] = &[];
"##;
        let rows = table_rows(src, "T").unwrap();
        assert_eq!(rows, vec![vec!["a".to_string(), "x(\"y\")".to_string()], vec!["b".into(), "p \"q\"\n".into()]]);
        assert_eq!(table_rows(src, "U").unwrap(), Vec::<Vec<String>>::new());
    }

    #[test]
    fn every_table_is_read() {
        let cases = cases().unwrap();
        for (file, table, _) in TABLES {
            let n = cases.iter().filter(|c| c.id.starts_with(&format!("{file} {table} "))).count();
            assert!(n >= 5, "{file} {table}: {n} rows read");
        }
        assert!(cases.iter().filter(|c| c.id.starts_with("apiserver-library.jsonl ")).count() > 200);
    }
}
