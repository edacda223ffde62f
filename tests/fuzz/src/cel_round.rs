//! CEL: seeds from the conformance tests, the tokens mutations splice in, and one run of an
//! expression through parser, checker, estimator and evaluator (with the access-plan property).

use super::*;

pub(crate) const CEL_TOKENS: &[&str] = &[
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ".",
    ".?",
    "[?",
    ",",
    ":",
    "?",
    "!",
    "-",
    "+",
    "*",
    "/",
    "%",
    "==",
    "!=",
    "<",
    "<=",
    ">",
    ">=",
    "&&",
    "||",
    " in ",
    "'",
    "\"",
    "'''",
    "r'",
    "b'",
    "\\",
    "\\u00",
    "\\x",
    "0x",
    "1u",
    "1.5e300",
    "9223372036854775807",
    "-9223372036854775808",
    "18446744073709551615u",
    "null",
    "true",
    "self",
    "oldSelf",
    "x",
    ".all(x, ",
    ".exists(x, ",
    ".exists_one(x, ",
    ".map(x, ",
    ".filter(x, ",
    ".transformMap(k, v, ",
    ".sortBy(x, ",
    ".sort()",
    ".distinct()",
    ".reverse()",
    ".slice(0, ",
    ".flatten(",
    "lists.range(",
    "cel.bind(x, ",
    "self.?",
    "self.a.b",
    "has(self.",
    "size(",
    "int(",
    "uint(",
    "double(",
    "string(",
    "bytes(",
    "timestamp('",
    "duration('",
    ".matches('",
    "'(a*)*b'",
    ".find('",
    ".split(',')",
    ".substring(",
    ".charAt(",
    "quantity('",
    "ip('",
    "cidr('",
    "url('",
    "semver('",
    "format.named('",
    ".validate(",
    "optional.of(",
    ".orValue(",
    "cel.bind(x, ",
    "lists.range(",
    "math.greatest(",
    "sets.contains(",
    "[1, 2, 3]",
    "{'a': 1}",
    "dyn(",
    "type(",
];

pub(crate) fn cel_seeds() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../conformance/cel-spec");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("the CEL conformance files") {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "textproto") {
            continue;
        }
        for line in std::fs::read_to_string(&path).unwrap().lines() {
            if let Some(rest) = line.trim().strip_prefix("expr: ") {
                out.push(rest.trim_matches(|c| c == '"' || c == '\'').replace("\\\\", "\\").replace("\\'", "'"));
            }
        }
    }
    out.push("self.spec.replicas <= 10 && self.metadata.name.startsWith('web')".into());
    out.push(
        "self.items.all(i, i.name.matches('^[a-z]+$')) && quantity(self.limit).isLessThan(quantity('1Gi'))".into(),
    );
    out
}

/// Parses, checks and evaluates one expression; errors are fine, panics and hangs are not.
pub(crate) fn run_cel(src: &str, self_value: &Value) {
    let Ok(program) = Program::compile(src) else { return };
    let mut decls = checker::Decls::default();
    decls.declare("self", checker::CelType::Dyn);
    let _ = checker::check(&program, &decls);
    let _ = checker::check_kubernetes(&program, &decls);
    let mut vars = std::collections::BTreeMap::new();
    vars.insert(String::from("self"), cel::from_json(self_value));
    let _ = program.eval(&vars);
    // As Kubernetes compiles rules (constant folding) and estimates their cost.
    let _ = cel::estimate::estimate(&program, &[]);
    if let Ok(optimized) = Program::compile_optimized(src) {
        let whole = optimized.eval(&vars);
        // The access plan (what the npm package converts of a plain object): evaluating with
        // only the values it names gives the same value, cost and error.
        let names: Vec<String> = optimized.variables().map(String::from).collect();
        let plans = cel::access::plan(optimized.ast(), names.len());
        let mut projected = std::collections::BTreeMap::new();
        for (name, plan) in names.iter().zip(&plans) {
            if name == "self" {
                projected.insert(name.clone(), cel::from_json(&project(self_value, plan)));
            }
        }
        let part = optimized.eval(&projected);
        let show = |r: &Result<cel::Evaluated, cel::CelError>| match r {
            Ok(r) => format!("{} {} cost {}", cel::to_json(&r.value), r.value.type_name(), r.cost),
            Err(e) => format!("error {e}"),
        };
        if show(&whole) != show(&part) {
            panic!(
                "the access plan changed {src:?}: {} with the whole value, {} with {plans:?}",
                show(&whole),
                show(&part)
            );
        }
    }
}

/// A JSON value as far as an access plan reads it (as the npm package's snippet projects it).
pub(crate) fn project(v: &Value, plan: &cel::access::Plan) -> Value {
    use cel::access::Plan;
    match (plan, v) {
        (Plan::Fields(fields), Value::Object(m)) => {
            Value::Object(fields.iter().filter_map(|(k, p)| Some((k.to_string(), project(m.get(&**k)?, p)))).collect())
        }
        (Plan::Each(p), Value::Array(items)) => Value::Array(items.iter().map(|x| project(x, p)).collect()),
        _ => v.clone(),
    }
}
