//! `cargo run --profile fuzz -p kubedv-fuzz -- [SECONDS] [SEED]`
//!
//! Mutation fuzzing of the untrusted-input paths of kubedv-core: Go source → `Schema::compile`
//! (lexer, parser, tag grammar, compiler) and `Schema::validate` on random JSON; CEL expressions
//! → parser, checker and evaluator (with a random `self`), including very deep nesting; CRD
//! schemas (structured mutations of keywords, extensions, defaults and rules) → `Crd::load`
//! and `Crd::check` on random objects, on create and on update; admission policy streams →
//! `PolicySet::new` and `evaluate` on random requests. Seeds
//! are the declarative table files and the CEL conformance expressions; mutations splice in the
//! tokens that matter to the grammars. Any
//! panic is caught, its input saved under `target/fuzz-crashes/`, and the run fails. cargo-fuzz
//! needs a nightly toolchain, which this project does not assume.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use kubedv_core::builtin::Catalog;
use kubedv_core::cel::{self, checker, Program};
use kubedv_core::check::Checker;
use kubedv_core::crd::{self as crds, Crd};
use kubedv_core::declarative::{Options, Schema};
use kubedv_core::policy;
use kubedv_core::tags;
use kubedv_input::manifests;
use kubedv_input::positions::{self, Positions};
use serde_json::{json, Value};

/// xorshift64*: deterministic for a seed, good enough to drive mutations.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const TOKENS: &[&str] = &[
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    "*",
    ".",
    ",",
    ";",
    "=",
    ":",
    "\"",
    "`",
    "'",
    "\\",
    "/*",
    "*/",
    "//",
    "\n",
    "\t",
    " ",
    "+k8s:",
    "+k8s:required",
    "+k8s:eachVal=",
    "+k8s:subfield(",
    "+k8s:alpha(since: \"1.36\")=",
    "+k8s:ifEnabled(X)=",
    "+k8s:maxLength=",
    "+k8s:minimum=-",
    "+k8s:format=k8s-",
    "+k8s:enum",
    "+k8s:listMapKey=",
    "+k8s:item(a: 1, b: \"x\")=",
    "=+",
    "0x",
    "99999999999999999999",
    "type ",
    "struct",
    "map[",
    "[]",
    "*[]",
    "interface{}",
    "func(",
    "const (",
    "import \"",
    "package ",
    "json:\"",
    ",inline",
    ",omitempty",
    "metav1.ObjectMeta",
    "é",
    "\u{200b}",
    "#",
    "-",
    "_",
    "TypeMeta int\n",
];

const CEL_TOKENS: &[&str] = &[
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

fn cel_seeds() -> Vec<String> {
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
fn run_cel(src: &str, self_value: &Value) {
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
fn project(v: &Value, plan: &cel::access::Plan) -> Value {
    use cel::access::Plan;
    match (plan, v) {
        (Plan::Fields(fields), Value::Object(m)) => {
            Value::Object(fields.iter().filter_map(|(k, p)| Some((k.to_string(), project(m.get(&**k)?, p)))).collect())
        }
        (Plan::Each(p), Value::Array(items)) => Value::Array(items.iter().map(|x| project(x, p)).collect()),
        _ => v.clone(),
    }
}

fn mutate_with(rng: &mut Rng, base: &str, tokens: &[&str]) -> String {
    let mut chars: Vec<char> = base.chars().collect();
    for _ in 0..1 + rng.below(8) {
        let at = rng.below(chars.len() + 1);
        match rng.below(4) {
            0 if !chars.is_empty() => {
                let end = (at + rng.below(16)).min(chars.len());
                chars.drain(at.min(chars.len())..end);
            }
            1 => {
                let tok = tokens[rng.below(tokens.len())];
                chars.splice(at..at, tok.chars());
            }
            2 if !chars.is_empty() => {
                // Duplicate a slice: nests and repeats structures.
                let start = rng.below(chars.len());
                let end = (start + rng.below(64)).min(chars.len());
                let piece: Vec<char> = chars[start..end].to_vec();
                chars.splice(at..at, piece);
            }
            _ => {
                let c = char::from_u32(rng.below(0x80) as u32).unwrap_or('x');
                chars.insert(at.min(chars.len()), c);
            }
        }
    }
    chars.into_iter().collect()
}

/// Manifest streams to mutate for the YAML reader, the position locator and `check`.
const MANIFESTS: &[&str] = &[
    include_str!("../../../cli/tests/fixtures/repo/base/widgets.yaml"),
    include_str!("../../../cli/tests/fixtures/repo/base/legacy.yaml"),
    include_str!("../../../cli/tests/fixtures/repo/base/gizmos.json"),
    include_str!("../../../cli/tests/fixtures/repo/crds/widget.yaml"),
    include_str!("../../../cli/tests/fixtures/builtin/apps.yaml"),
    include_str!("../../../cli/tests/fixtures/builtin/other.yaml"),
];

/// The built-in kinds the manifest rounds route to the 1.37 catalog.
const BUILTIN_API_VERSIONS: &[&str] = &["v1", "apps/v1", "policy/v1", "resource.k8s.io/v1", "batch/v1"];

/// The 1.37 catalog's text (the CLI embeds the same file).
fn catalog_text() -> String {
    use std::io::Read;
    let mut text = String::new();
    flate2::read::GzDecoder::new(&include_bytes!("../../../catalog/1.37.gz")[..])
        .read_to_string(&mut text)
        .expect("the 1.37 catalog decompresses");
    text
}

/// A mutated catalog: read (never a panic), and the packages of one that still reads compiled.
/// Property: a catalog written from what was read reads back the same.
fn catalog_round(rng: &mut Rng, small: &str) -> Result<usize, String> {
    let text = mutate_with(rng, small, CATALOG_TOKENS);
    let Ok(catalog) = Catalog::parse(&text) else { return Ok(0) };
    let packages: Vec<(String, String, String)> = catalog
        .packages
        .iter()
        .map(|p| (p.import_path.to_string(), p.group.to_string(), p.source.to_string()))
        .collect();
    let sources: Vec<String> = catalog.sources.iter().map(|s| s.to_string()).collect();
    let written = Catalog::write(catalog.kubernetes, &sources, &packages);
    let again = Catalog::parse(&written).map_err(|e| format!("a written catalog does not read: {e}"))?;
    if again.packages.len() != catalog.packages.len() || again.kubernetes != catalog.kubernetes {
        return Err(format!("writing and reading changed the catalog:\n{text}"));
    }
    for p in catalog.packages.iter().take(2) {
        let _ = catalog.compile(p, 37);
    }
    Ok(catalog.packages.len())
}

const CATALOG_TOKENS: &[&str] = &[
    "package ",
    "kubedv-catalog 1\n",
    "kubernetes 1.37\n",
    "source x\n",
    " - ",
    " 0\n",
    " 99999999999999999999\n",
    "\n",
    "k8s.io/api/core/v1",
    "import corev1 \"k8s.io/api/core/v1\"\n",
    "é",
    "// +k8s:required\n",
];

const YAML_TOKENS: &[&str] = &[
    "---\n",
    "...\n",
    "\n",
    "\r\n",
    "\t",
    "  ",
    "- ",
    ": ",
    "&a ",
    "*a",
    "!!str ",
    "!!binary ",
    "? ",
    "[",
    "]",
    "{",
    "}",
    ",",
    "\"",
    "'",
    "#",
    "|\n",
    ">-\n",
    "\u{feff}",
    "\\",
    "%YAML 1.2\n",
    "<<: *a\n",
    "null",
    "~",
    "9223372036854775808",
    "1e999",
    "-0",
    ".nan",
    "items:\n",
    "kind: List\n",
    "apiVersion: v1\n",
    "kind: Widget\n",
    "kind: Deployment\n",
    "apiVersion: apps/v1\n",
    "replicas: \"3\"\n",
    "containerPort: 1.5\n",
    "finalizers: [a]\n",
    "name: a/b\n",
    "x",
];

/// A mutated manifest stream: split, read, located and checked. Properties beyond "no panic":
/// every position is inside its document, and checking is deterministic.
fn yaml_round(rng: &mut Rng, checker: &Checker) -> Result<(), String> {
    let base = MANIFESTS[rng.below(MANIFESTS.len())];
    let mut text = mutate_with(rng, base, YAML_TOKENS);
    if rng.below(100) == 0 {
        text.push_str(&"x".repeat(1 + rng.below(200_000)));
    }
    for piece in positions::split(&text) {
        let lines = piece.text.lines().count() + 1;
        let Ok(doc) = kubedv_input::document(piece.text) else { continue };
        let at = Positions::of(piece.text);
        for path in ["", "<nil>", "spec", "spec.size", "metadata.name", "items[0].spec", "spec.ports[1].name", "a[b.c]"]
        {
            if let Some((line, column)) = at.locate(path) {
                if line == 0 || line > lines || column == 0 {
                    return Err(format!(
                        "{path:?} located at {line}:{column} in a document of {lines} lines:\n{}",
                        piece.text
                    ));
                }
            }
        }
        let first = checker.check(&doc, Some(&doc));
        let again = checker.check(&doc, Some(&doc));
        let texts = |r: &kubedv_core::check::Report| {
            let undecodable = r.undecodable.iter().map(|u| format!("{}: {}", u.field, u.message));
            r.errors.iter().map(|e| e.text()).chain(undecodable).collect::<Vec<_>>()
        };
        if texts(&first) != texts(&again) {
            return Err(format!("checking twice differs:\n{}", piece.text));
        }
    }
    // The in-memory `kubedv check` (npm's checkManifests, the playground's Manifests view):
    // every position inside the file, the same JSON twice.
    let files = [manifests::File { path: "f.yaml", text: &text }];
    let options = manifests::Options {
        minor: 37,
        strict: false,
        crds: Vec::new(),
        types: Vec::new(),
        old: Vec::new(),
        catalog: None,
    };
    let run = || manifests::check_files(&files, &options).map(|o| serde_json::to_string(&o).unwrap_or_default());
    let (once, twice) = (run(), run());
    if once.as_ref().ok() != twice.as_ref().ok() {
        return Err(format!("check_files twice differs:\n{text}"));
    }
    if let Ok(outcome) = manifests::check_files(&files, &options) {
        let lines = yaml_lines(&text);
        if let Some((l, c)) = outcome.documents.iter().find_map(|d| outside(d, lines)) {
            return Err(format!("check_files located a problem at {l}:{c} in a file of {lines} lines:\n{text}"));
        }
    }
    Ok(())
}

/// A text's lines as YAML counts them: it breaks at CR LF, LF and a lone CR (editors too).
fn yaml_lines(text: &str) -> usize {
    text.replace("\r\n", "\n").matches(['\n', '\r']).count() + 1
}

/// A position a checked document reports outside its file of `lines` lines (or at column 0).
fn outside(d: &manifests::Checked, lines: usize) -> Option<(usize, usize)> {
    let mut at = vec![d.at, (d.line, 1)];
    at.extend(d.errors.iter().chain(&d.update_errors).map(|e| (e.line, e.column)));
    at.extend(d.warnings.iter().map(|w| (w.line, w.column)));
    at.into_iter().find(|(l, c)| *l == 0 || *l > lines || *c == 0)
}

/// A manifest tree on disk, as `kubedv check DIR` walks it: nested directories, mutated
/// manifests, binary and non-UTF-8 files, kustomizations listing patches (some missing, some
/// outside), hidden entries and symlinks (loops back to an ancestor, to files, dangling).
/// Properties beyond "no panic": the walk ends, reading a file twice gives the same documents,
/// and every position a checked document reports is inside its file.
#[cfg(unix)]
fn tree_round(rng: &mut Rng, checker: &Checker, root: &Path) -> Result<usize, String> {
    use kubedv_input::files;
    let _ = std::fs::remove_dir_all(root);
    std::fs::create_dir_all(root).map_err(|e| format!("{}: {e}", root.display()))?;
    let mut dirs = vec![root.to_path_buf()];
    let mut made: Vec<PathBuf> = Vec::new();
    for i in 0..1 + rng.below(14) {
        let dir = dirs[rng.below(dirs.len())].clone();
        let hidden = if rng.below(10) == 0 { "." } else { "" };
        let file = |ext: &str| dir.join(format!("{hidden}f{i}{ext}"));
        let written = match rng.below(10) {
            0 => {
                let d = dir.join(format!("{hidden}d{i}"));
                let _ = std::fs::create_dir(&d);
                dirs.push(d);
                continue;
            }
            1 => {
                let bytes: Vec<u8> = (0..rng.below(64)).map(|_| rng.below(256) as u8).chain([0]).collect();
                (file(".yaml"), bytes)
            }
            2 => (file(".yml"), vec![0xff, 0xfe, b'k', b':', b' ', 0xc3]),
            3 => {
                let names = ["f0.yaml", "../f1.yaml", "./d2/../f3.yaml", "missing.yaml", "/etc/passwd", "f4.json"];
                let listed: Vec<String> =
                    (0..1 + rng.below(3)).map(|_| format!("- {}", names[rng.below(names.len())])).collect();
                (
                    dir.join("kustomization.yaml"),
                    format!("resources: [.]\npatches:\n{}\n", listed.join("\n")).into_bytes(),
                )
            }
            4 => {
                let target = &dirs[rng.below(dirs.len())];
                let _ = std::os::unix::fs::symlink(target, dir.join(format!("l{i}")));
                continue;
            }
            5 => {
                let _ = std::os::unix::fs::symlink(dir.join("nowhere.yaml"), file(".yaml"));
                continue;
            }
            6 if !made.is_empty() => {
                let _ = std::os::unix::fs::symlink(&made[rng.below(made.len())], file(".json"));
                continue;
            }
            _ => {
                let base = MANIFESTS[rng.below(MANIFESTS.len())];
                let text = mutate_with(rng, base, YAML_TOKENS);
                (file(if rng.below(4) == 0 { ".json" } else { ".yaml" }), text.into_bytes())
            }
        };
        let _ = std::fs::write(&written.0, &written.1);
        made.push(written.0);
    }
    let found = files::collect(&[root.display().to_string()])?;
    let notes = files::kustomize_patches(&found);
    let mut documents = 0;
    for f in &found {
        let read = files::read_docs(f, &notes, None);
        let again = files::read_docs(f, &notes, None);
        let summary = |docs: &[manifests::Doc]| -> Vec<String> {
            docs.iter()
                .map(|d| format!("{}:{}:{:?}", d.index, d.line, d.value.as_ref().map_err(|e| &e.message)))
                .collect()
        };
        if summary(&read) != summary(&again) {
            return Err(format!("{f}: reading twice differs"));
        }
        let lines = yaml_lines(&String::from_utf8_lossy(&std::fs::read(f).unwrap_or_default()));
        for d in &read {
            let c = manifests::check_one(d, Some(checker), &std::collections::BTreeMap::new());
            if let Some((l, col)) = outside(&c, lines) {
                return Err(format!("{f}: a problem located at {l}:{col} in a file of {lines} lines"));
            }
        }
        documents += read.len();
    }
    Ok(documents)
}

fn mutate(rng: &mut Rng, base: &str) -> String {
    mutate_with(rng, base, TOKENS)
}

/// Admission policies: the CLI's fixtures (validating with params, variables, audit
/// annotations; mutating with JSONPatch and ApplyConfiguration).
const POLICIES: &[&str] = &[
    concat!(
        include_str!("../../../cli/tests/fixtures/policy/policy.yaml"),
        "---\n",
        include_str!("../../../cli/tests/fixtures/policy/params.yaml")
    ),
    include_str!("../../../cli/tests/fixtures/policy/mutating.yaml"),
];

const POLICY_TOKENS: &[&str] = &[
    "JSONPatch{op: 'add', path: '/metadata/labels/a', value: 'b'}",
    "Object{spec: Object.spec{replicas: 1}}",
    "authorizer.path('/x').check('get').allowed()",
    "variables.replicas",
    "params.maxReplicas",
    "namespaceObject.metadata.name",
    "request.userInfo.username",
    "object.spec.replicas",
    "'~/'",
    "[",
    "]",
    "{",
    "}",
    "null",
    "\n- ",
    ": ",
    "Ignore",
    "Warn",
    "Audit",
    "IfNeeded",
    "*",
    "/-",
    "remove",
    "test",
];

/// A mutated policy stream, compiled and evaluated against a random object on a random
/// operation, with and without the authorizer allowing anything. Properties beyond "no panic":
/// evaluating twice gives the same outcome, and a denied request names its first denial.
fn policy_round(rng: &mut Rng) -> Result<bool, String> {
    let base = POLICIES[rng.below(POLICIES.len())];
    // One in four streams unmutated: the evaluation paths past compilation get exercised too.
    let text = if rng.below(4) == 0 { String::from(base) } else { mutate_with(rng, base, POLICY_TOKENS) };
    let Ok(docs) = kubedv_input::documents(&text) else { return Ok(false) };
    let (policies, params): (Vec<Value>, Vec<Value>) = docs.into_iter().partition(policy::is_policy_document);
    let set = policy::PolicySet::new(&policies);
    let mut object = random_json(rng, 0);
    if rng.below(4) != 0 {
        object = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "ns", "labels": {"a": "b"}}, "spec": {"replicas": rng.below(200)}, "extra": object});
    }
    let mut req = policy::Request { object: Some(object.clone()), ..Default::default() };
    match rng.below(6) {
        0..=2 => {}
        3 => req.old_object = Some(random_json(rng, 0)),
        4 => {
            req.old_object = req.object.take();
            req.operation = "DELETE".into();
        }
        _ => req.operation = "CONNECT".into(),
    }
    if rng.below(4) != 0 {
        req.namespace_object = Some(json!({"metadata": {"name": "ns", "labels": {"environment": "test"}}}));
    }
    req.infer();
    let allow = if rng.below(2) == 0 { Vec::new() } else { vec![kubedv_core::cel::k8s::authz::Rule::default()] };
    let outcome = set.evaluate(&req, &params, &allow);
    if set.evaluate(&req, &params, &allow) != outcome {
        return Err(format!("evaluating twice differs:\n{text}"));
    }
    if outcome.allowed == outcome.status.is_some() || outcome.allowed != outcome.denials.is_empty() {
        return Err(format!("the verdict, the status and the denials disagree:\n{text}"));
    }
    Ok(outcome.evaluations.iter().any(|e| e.matched))
}

fn random_json(rng: &mut Rng, depth: usize) -> Value {
    match rng.below(if depth > 6 { 5 } else { 8 }) {
        0 => Value::Null,
        1 => json!(rng.below(2) == 1),
        2 => json!(rng.next() as i64 >> rng.below(64)),
        3 => json!(
            ["", "a", "My_Name", "a.b", "abc-123", "x/y", "é", "123e4567-e89b-12d3-a456-426614174000"][rng.below(8)]
        ),
        4 => json!(1.5),
        5 | 6 => Value::Array((0..rng.below(4)).map(|_| random_json(rng, depth + 1)).collect()),
        _ => {
            let keys = ["spec", "name", "replicas", "items", "metadata", "a", "b", "labels", "stringField", "intField"];
            Value::Object(
                (0..rng.below(5))
                    .map(|_| (keys[rng.below(keys.len())].to_string(), random_json(rng, depth + 1)))
                    .collect(),
            )
        }
    }
}

/// A schema keyword or extension with a random value of the kinds that matter to it.
fn random_keyword(rng: &mut Rng, depth: usize) -> (String, Value) {
    let types = ["object", "array", "string", "integer", "number", "boolean", ""];
    let rules = [
        "self.size() > 0",
        "self == oldSelf",
        "has(self.a) || !has(self.b)",
        "self.all(k, k.matches('(?i)^a'))",
        "self.a.startsWith('x')",
        "format.dns1123Label().validate(self) == null",
        "self.map(x, x).size() < 3",
        "int(self) > 1",
        "self.exists(x, x == 1)",
        "'a(' .matches(self)",
        "self[0] == 1",
        "sign(quantity(self)) == 1",
    ];
    let key = [
        "type",
        "properties",
        "items",
        "additionalProperties",
        "required",
        "enum",
        "default",
        "nullable",
        "minItems",
        "maxItems",
        "minLength",
        "maxLength",
        "minProperties",
        "maxProperties",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "multipleOf",
        "pattern",
        "format",
        "allOf",
        "anyOf",
        "oneOf",
        "not",
        "x-kubernetes-list-type",
        "x-kubernetes-list-map-keys",
        "x-kubernetes-map-type",
        "x-kubernetes-int-or-string",
        "x-kubernetes-preserve-unknown-fields",
        "x-kubernetes-embedded-resource",
        "x-kubernetes-validations",
        "uniqueItems",
    ];
    let k = key[rng.below(key.len())];
    let v = match k {
        "type" => json!(types[rng.below(types.len())]),
        "properties" => Value::Object(
            (0..rng.below(3))
                .map(|i| (["a", "b", "name", "metadata"][i % 4].to_string(), random_schema(rng, depth + 1)))
                .collect(),
        ),
        "items" | "additionalProperties" | "not" => {
            if rng.below(5) == 0 {
                json!(rng.below(2) == 1)
            } else {
                random_schema(rng, depth + 1)
            }
        }
        "allOf" | "anyOf" | "oneOf" => {
            Value::Array((0..1 + rng.below(2)).map(|_| random_schema(rng, depth + 1)).collect())
        }
        "required" | "x-kubernetes-list-map-keys" => json!(["a", "name"][..1 + rng.below(2)]),
        "x-kubernetes-list-type" => json!(["set", "map", "atomic", "bogus"][rng.below(4)]),
        "x-kubernetes-map-type" => json!(["granular", "atomic"][rng.below(2)]),
        "pattern" => json!(["^a", "(?i)x", "a(", "[z-a]", "\\q", "^x(?i:ab)y$"][rng.below(6)]),
        "format" => {
            json!(["int32", "date-time", "uuid", "k8s-short-name", "byte", "duration", "ipv4", "cidr"][rng.below(8)])
        }
        "x-kubernetes-validations" => Value::Array(
            (0..1 + rng.below(2))
                .map(|_| {
                    let mut r = json!({"rule": rules[rng.below(rules.len())]});
                    if rng.below(3) == 0 {
                        r["messageExpression"] = json!("'bad ' + string(self)");
                    }
                    if rng.below(4) == 0 {
                        r["optionalOldSelf"] = json!(true);
                    }
                    r
                })
                .collect(),
        ),
        "default" | "enum" => random_json(rng, depth + 2),
        _ => random_json(rng, depth + 3),
    };
    (k.to_string(), v)
}

fn random_schema(rng: &mut Rng, depth: usize) -> Value {
    if depth > 5 {
        return json!({"type": "string"});
    }
    Value::Object((0..1 + rng.below(4)).map(|_| random_keyword(rng, depth)).collect())
}

/// One CRD round: a random schema under `spec` (or at the root), loaded, then a random object
/// checked on create and on update. Returns whether the CRD loaded; a property violated is an
/// error: loading and checking are deterministic.
fn crd_round(rng: &mut Rng) -> Result<bool, String> {
    let mut root = json!({"type": "object", "properties": {"spec": random_schema(rng, 0)}});
    if rng.below(4) == 0 {
        let (k, v) = random_keyword(rng, 1);
        root[k] = v;
    }
    let doc = json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition", "metadata": {"name": "ws.example.com"},
        "spec": {"group": "example.com", "scope": "Namespaced", "names": {"kind": "W", "plural": "ws"}, "versions": [{"name": "v1", "served": true, "storage": true,
            "schema": {"openAPIV3Schema": root}}]}});
    let mut doc = doc;
    if rng.below(2) == 0 {
        definition_fields(rng, &mut doc);
    }
    let Some(all) = load_twice(&doc)? else { return Ok(false) };
    // The storage version, as `Crd::load` picks it.
    let versions = doc["spec"]["versions"].as_array();
    let storage = versions.and_then(|vs| vs.iter().position(|v| v["storage"] == true)).unwrap_or(0);
    let Some(c) = all.get(storage) else { return Ok(true) };
    let object = |rng: &mut Rng| json!({"apiVersion": "example.com/v1", "kind": "W", "metadata": {"name": "w"}, "spec": random_json(rng, 0)});
    let (new, old) = (object(rng), object(rng));
    check_twice(c, &new, &old, &crds::Options { defaults: rng.below(2) == 0 })?;
    Ok(true)
}

fn texts(errors: &[kubedv_core::field::Error]) -> Vec<String> {
    errors.iter().map(|e| e.text()).collect()
}

/// Loads a CRD's versions twice: both loads must agree (`None`: refused both times).
fn load_twice(doc: &Value) -> Result<Option<Vec<Crd>>, String> {
    match (Crd::load_all(doc), Crd::load_all(doc)) {
        (Ok(all), Ok(_)) => Ok(Some(all)),
        (Err(a), Err(b)) if texts(&a) == texts(&b) => Ok(None),
        _ => Err(format!("loading twice differs:\n{doc}")),
    }
}

/// Checks `new` on create twice (the results must agree), then as an update of `old` and of
/// itself. (An unchanged update can have errors its create has not: ratcheting removes a
/// blocking type error, and then the rules run on the ill-typed value, in Kubernetes too.)
fn check_twice(c: &Crd, new: &Value, old: &Value, options: &crds::Options) -> Result<(), String> {
    if texts(&c.check(new, None, options).errors) != texts(&c.check(new, None, options).errors) {
        return Err(format!("checking twice differs:\n{new}"));
    }
    let _ = c.check(new, Some(old), options);
    let _ = c.check(new, Some(new), options);
    Ok(())
}

/// Released CRDs of the real-CRD corpus (`tests/corpus/crds`), whose schemas are mutated and
/// whose objects are drawn from the schemas.
const REAL_CRDS: &[&str] = &[
    include_str!("../../corpus/crds/keda/keda.sh_scaledobjects.yaml"),
    include_str!("../../corpus/crds/gateway-api/standard__gateway.networking.k8s.io_httproutes.yaml"),
    include_str!("../../corpus/crds/gateway-api/standard__gateway.networking.k8s.io_gateways.yaml"),
    include_str!("../../corpus/crds/crossplane/apiextensions.crossplane.io_compositions.yaml"),
    include_str!("../../corpus/crds/cert-manager/cert-manager.io_issuers.yaml"),
    include_str!("../../corpus/crds/flux-source-controller/source.toolkit.fluxcd.io_buckets.yaml"),
    include_str!("../../corpus/crds/istio/crd-all.gen.yaml"),
];

/// Every CRD document of [`REAL_CRDS`].
fn real_crds() -> Vec<Value> {
    REAL_CRDS.iter().flat_map(|text| kubedv_input::documents(text).expect("the corpus reads")).collect()
}

/// A value drawn from a schema: mostly of the declared shape (enum members, bounds, required
/// and optional properties, map entries, list items), sometimes of another.
fn sample(rng: &mut Rng, schema: &Value, depth: usize) -> Value {
    if depth > 12 || rng.below(25) == 0 {
        return random_json(rng, 3);
    }
    if let Some(members) = schema.get("enum").and_then(Value::as_array).filter(|m| !m.is_empty()) {
        if rng.below(5) != 0 {
            return members[rng.below(members.len())].clone();
        }
    }
    if schema.get("x-kubernetes-int-or-string") == Some(&Value::Bool(true)) {
        return if rng.below(2) == 0 {
            json!(rng.below(200) as i64 - 50)
        } else {
            json!(format!("{}%", rng.below(150)))
        };
    }
    let bound = |key: &str| schema.get(key).and_then(Value::as_i64);
    match schema.get("type").and_then(Value::as_str) {
        Some("object") => {
            let mut out = serde_json::Map::new();
            let required: Vec<&str> = schema
                .get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            for (k, v) in schema.get("properties").and_then(Value::as_object).into_iter().flatten() {
                if required.contains(&k.as_str()) && rng.below(12) != 0 || rng.below(3) == 0 {
                    out.insert(k.clone(), sample(rng, v, depth + 1));
                }
            }
            if let Some(ap) = schema.get("additionalProperties").filter(|a| a.is_object()) {
                for i in 0..rng.below(3) {
                    out.insert(
                        ["a", "b.c/d", "x", "*", ""][(i + rng.below(5)) % 5].to_string(),
                        sample(rng, ap, depth + 1),
                    );
                }
            }
            Value::Object(out)
        }
        Some("array") => {
            let item = schema.get("items").cloned().unwrap_or(Value::Null);
            let n = rng.below(4) + usize::from(bound("minItems").is_some_and(|m| m > 0));
            let mut items: Vec<Value> = (0..n).map(|_| sample(rng, &item, depth + 1)).collect();
            if n > 1 && rng.below(4) == 0 {
                items[1] = items[0].clone();
            }
            Value::Array(items)
        }
        Some("integer") => {
            let (lo, hi) = (bound("minimum").unwrap_or(-5), bound("maximum").unwrap_or(100));
            json!(lo
                .saturating_sub(1)
                .saturating_add(rng.below(hi.saturating_sub(lo).clamp(0, 1000) as usize + 3) as i64))
        }
        Some("number") => json!(rng.below(1000) as f64 / 7.0),
        Some("boolean") => json!(rng.below(2) == 0),
        Some("string") => {
            let pick =
                ["", "a", "web", "/path", "http://example.com", "1m", "10.0.0.1", "Bad_Value", "ä", "*.example.com"];
            let s = pick[rng.below(pick.len())].repeat(1 + rng.below(2));
            let max = bound("maxLength").unwrap_or(i64::MAX) as usize;
            if rng.below(6) == 0 && max < 1000 {
                json!("x".repeat(max + 1))
            } else {
                json!(s)
            }
        }
        _ => random_json(rng, 2),
    }
}

/// Replaces a random node of a schema (reached through properties, items and
/// additionalProperties) by a random schema, or adds a random keyword to it.
fn mutate_schema(rng: &mut Rng, schema: &mut Value, depth: usize) {
    let children: Vec<String> =
        schema.get("properties").and_then(Value::as_object).map_or(Vec::new(), |p| p.keys().cloned().collect());
    if depth < 8 && rng.below(3) != 0 {
        if !children.is_empty() {
            let k = children[rng.below(children.len())].clone();
            return mutate_schema(rng, &mut schema["properties"][k], depth + 1);
        }
        for key in ["items", "additionalProperties"] {
            if schema.get(key).is_some_and(Value::is_object) {
                return mutate_schema(rng, &mut schema[key], depth + 1);
            }
        }
    }
    if rng.below(2) == 0 {
        *schema = random_schema(rng, 1);
    } else if schema.is_object() {
        let (k, v) = random_keyword(rng, 1);
        schema[k] = v;
    }
}

/// A real CRD, its schema mutated at one node or not, loaded; then objects drawn from its
/// schema checked on create and as updates of one another. Loading and checking must be
/// deterministic. Returns whether the CRD loaded.
fn real_crd_round(rng: &mut Rng, crds: &[Value]) -> Result<bool, String> {
    let mut doc = crds[rng.below(crds.len())].clone();
    let versions = doc["spec"]["versions"].as_array().map_or(0, Vec::len);
    let v = rng.below(versions.max(1));
    if rng.below(2) == 0 {
        mutate_schema(rng, &mut doc["spec"]["versions"][v]["schema"]["openAPIV3Schema"], 0);
    }
    let Some(all) = load_twice(&doc)? else { return Ok(false) };
    let Some(c) = all.get(v) else { return Ok(true) };
    let schema = &doc["spec"]["versions"][v]["schema"]["openAPIV3Schema"];
    let group = doc["spec"]["group"].as_str().unwrap_or("");
    let object = |rng: &mut Rng| {
        let mut o = sample(rng, schema, 0);
        if o.is_object() {
            o["apiVersion"] = json!(format!("{group}/{}", c.version));
            o["kind"] = json!(c.kind);
            o["metadata"] = json!({"name": "x", "namespace": "y"});
        }
        o
    };
    let (new, old) = (object(rng), object(rng));
    check_twice(c, &new, &old, &crds::Options { defaults: rng.below(4) != 0 })?;
    Ok(true)
}

/// Strings for the CRD's own fields: names, paths, URLs, with mutations.
const DEFINITION_STRINGS: &[&str] = &[
    "ws.example.com",
    "W",
    "ws",
    "w",
    "WList",
    "v1",
    "v1beta1",
    "V1",
    "",
    "Ä",
    "a-b",
    ".spec.replicas",
    ".status.replicas",
    ".spec.labels['a.b']",
    ".metadata.name",
    "spec",
    ".spec[0]",
    "'x'",
    "https://example.com/convert",
    "http://u:p@h:99999/p?q#f",
    "https://[::1]:443/x",
    "integer",
    "string",
    "date",
    "int32",
    "None",
    "Webhook",
    "v1beta1",
    "https://github.com/kubernetes/enhancements/pull/1111",
    "unapproved, x",
    "\u{0}",
];

fn definition_string(rng: &mut Rng) -> Value {
    let base = DEFINITION_STRINGS[rng.below(DEFINITION_STRINGS.len())];
    let s = if rng.below(3) == 0 { mutate(rng, base) } else { String::from(base) };
    if rng.below(20) == 0 {
        return Value::String(s.repeat(1 + rng.below(400)));
    }
    if rng.below(15) == 0 {
        return random_json(rng, 2);
    }
    Value::String(s)
}

/// Random values for the fields `ValidateCustomResourceDefinition` checks beyond the schema:
/// metadata, names, several versions (shared or distinct schemas, storage flags, deprecation),
/// subresources, printer columns, selectable fields, conversion and the API approval annotation.
fn definition_fields(rng: &mut Rng, doc: &mut Value) {
    let s = |rng: &mut Rng| definition_string(rng);
    if rng.below(3) == 0 {
        doc["metadata"]["name"] = s(rng);
    }
    if rng.below(4) == 0 {
        doc["metadata"]["annotations"] = json!({"api-approved.kubernetes.io": s(rng)});
        doc["spec"]["group"] = json!(["k8s.io", "x.k8s.io", "example.com", "ex"][rng.below(4)]);
    }
    for key in ["singular", "listKind", "kind", "plural"] {
        if rng.below(5) == 0 {
            doc["spec"]["names"][key] = s(rng);
        }
    }
    for key in ["shortNames", "categories"] {
        if rng.below(5) == 0 {
            doc["spec"]["names"][key] = Value::Array((0..rng.below(4)).map(|_| s(rng)).collect());
        }
    }
    if rng.below(4) == 0 {
        doc["spec"]["scope"] = s(rng);
    }
    if rng.below(6) == 0 {
        doc["spec"]["preserveUnknownFields"] = json!(rng.below(2) == 0);
    }
    let first = doc["spec"]["versions"][0].clone();
    let mut versions = Vec::new();
    for _ in 0..1 + rng.below(3) {
        let mut v = first.clone();
        if rng.below(2) == 0 {
            v["name"] = s(rng);
        }
        v["storage"] = json!(rng.below(3) != 0);
        v["served"] = json!(rng.below(4) != 0);
        if rng.below(4) == 0 {
            v["deprecated"] = json!(rng.below(2) == 0);
            v["deprecationWarning"] = s(rng);
        }
        if rng.below(3) == 0 {
            let mut sub = json!({});
            if rng.below(2) == 0 {
                sub["status"] = json!({});
            }
            if rng.below(2) == 0 {
                sub["scale"] =
                    json!({"specReplicasPath": s(rng), "statusReplicasPath": s(rng), "labelSelectorPath": s(rng)});
            }
            v["subresources"] = sub;
        }
        if rng.below(3) == 0 {
            let columns = (0..1 + rng.below(3))
                .map(|_| json!({"name": s(rng), "type": s(rng), "format": s(rng), "jsonPath": s(rng), "priority": rng.below(3) as i64 - 1}))
                .collect();
            v["additionalPrinterColumns"] = Value::Array(columns);
        }
        if rng.below(3) == 0 {
            v["selectableFields"] = Value::Array((0..1 + rng.below(3)).map(|_| json!({"jsonPath": s(rng)})).collect());
        }
        if rng.below(4) == 0 {
            v["schema"]["openAPIV3Schema"]["properties"]["spec"] = random_schema(rng, 0);
        }
        versions.push(v);
    }
    doc["spec"]["versions"] = Value::Array(versions);
    if rng.below(3) == 0 {
        let mut config = json!({});
        if rng.below(2) == 0 {
            config["url"] = s(rng);
        }
        if rng.below(2) == 0 {
            config["service"] =
                json!({"name": s(rng), "namespace": s(rng), "path": s(rng), "port": rng.below(70_000) as i64 - 10});
        }
        if rng.below(3) == 0 {
            config["caBundle"] = s(rng);
        }
        let review: Vec<Value> = (0..rng.below(4)).map(|_| s(rng)).collect();
        doc["spec"]["conversion"] =
            json!({"strategy": s(rng), "webhook": {"clientConfig": config, "conversionReviewVersions": review}});
    }
}

fn seeds() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../core/tests/declarative");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("the declarative tables") {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        for block in text.split("== types\n").skip(1) {
            let go: String = block.lines().take_while(|l| !l.starts_with("== ")).map(|l| format!("{l}\n")).collect();
            out.push(go);
        }
    }
    out
}

/// The input paths, as `KUBEDV_FUZZ_ONLY` names them: Go sources with objects, tag strings,
/// CEL, CRDs (random and real), manifest streams, catalogs, admission policies, manifest trees.
const PATHS: &[&str] = &["go", "tag", "cel", "crd", "yaml", "catalog", "policy", "tree"];

fn main() {
    // The work runs on a thread with WebAssembly's stack size (1 MiB): a stack overflow that
    // would kill the npm package or the playground must show up here too.
    let worker = std::thread::Builder::new().stack_size(1 << 20).spawn(fuzz).expect("thread");
    if worker.join().is_err() {
        std::process::exit(1);
    }
}

fn fuzz() {
    // Replays one saved Go source against many random objects, timing the slowest.
    if let Ok(path) = std::env::var("KUBEDV_FUZZ_REPLAY") {
        let src = std::fs::read_to_string(&path).expect("replay file");
        let schema = Schema::compile(&src);
        let mut rng = Rng(7);
        let mut worst = Duration::ZERO;
        for _ in 0..200_000 {
            let objects: Vec<Value> = (0..2).map(|_| random_json(&mut rng, 0)).collect();
            let start = Instant::now();
            for name in schema.type_names() {
                let id = schema.type_named(name).unwrap();
                let options = Options { enabled: vec!["X".into()] };
                for o in &objects {
                    let _ = schema.validate(id, o, &options);
                }
                let _ = schema.validate_update(id, &objects[0], Some(&objects[1]), &options);
            }
            worst = worst.max(start.elapsed());
        }
        println!("replay: slowest of 200000 object pairs took {worst:?}");
        return;
    }
    let mut args = std::env::args().skip(1);
    let seconds: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(10);
    let seed: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(0x9E37_79B9_7F4A_7C15);
    let corpus = seeds();
    let real = real_crds();
    let real_runs = std::cell::Cell::new(0u64);
    let cel_corpus = cel_seeds();
    let mut rng = Rng(seed | 1);
    let trace = std::env::var_os("KUBEDV_FUZZ_TRACE").is_some();
    // KUBEDV_FUZZ_ONLY=crd,yaml runs only those paths (to give one path the whole run).
    let only = std::env::var("KUBEDV_FUZZ_ONLY").ok();
    let on = |path: &str| only.as_deref().is_none_or(|o| o.split(',').any(|p| p.trim() == path));
    for p in only.iter().flat_map(|o| o.split(',')) {
        if !PATHS.contains(&p.trim()) {
            eprintln!("KUBEDV_FUZZ_ONLY: unknown path {p:?}; the paths are {}", PATHS.join(", "));
            std::process::exit(2);
        }
    }
    let deadline = Instant::now() + Duration::from_secs(seconds);
    std::panic::set_hook(Box::new(|_| {}));
    let crash_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/fuzz-crashes");
    // A watchdog: an input that takes over 5 s is a hang (or worse than linear) — save it.
    let current: Arc<Mutex<(Instant, String)>> = Arc::new(Mutex::new((Instant::now(), String::new())));
    {
        let current = current.clone();
        let crash_dir: PathBuf = crash_dir.clone();
        std::thread::spawn(move || loop {
            std::thread::sleep(Duration::from_millis(500));
            let (started, input) = current.lock().unwrap().clone();
            if started.elapsed() > Duration::from_secs(5) {
                std::fs::create_dir_all(&crash_dir).unwrap();
                let file = crash_dir.join("slow.go");
                std::fs::write(&file, input).unwrap();
                eprintln!("an input took over 5 s; saved to {}", file.display());
                std::process::exit(1);
            }
        });
    }
    let (mut runs, mut validations, mut tag_runs, mut cel_runs) = (0u64, 0u64, 0u64, 0u64);
    let (mut crd_runs, mut crds_loaded, mut yaml_runs, mut policy_runs, mut policy_evals) =
        (0u64, 0u64, 0u64, 0u64, 0u64);
    let mut checker = Checker::new(37, false);
    let crd = kubedv_input::document(MANIFESTS[3]).expect("the fixture CRD reads");
    checker.add_crd(&crd).expect("the fixture CRD loads");
    // Built-in kinds: the 1.37 catalog's packages, as `kubedv check` adds them.
    let catalog_text = catalog_text();
    let catalog = Catalog::parse(&catalog_text).expect("the 1.37 catalog reads");
    for p in BUILTIN_API_VERSIONS.iter().filter_map(|av| catalog.serving(av)) {
        checker.add_types(p.source, &catalog.dependencies(p), Some(p.group), true);
    }
    // A small catalog to mutate: two packages, one importing the other.
    let small = Catalog::write(
        "1.37",
        &[String::from("k8s.io/api fuzz")],
        &[
            (String::from("k8s.io/api/core/v1"), String::new(), String::from("package v1\n\ntype PodSpec struct {\n\t// +k8s:minimum=0\n\tN int32 `json:\"n\"`\n}\n")),
            (
                String::from("k8s.io/api/apps/v1"),
                String::from("apps"),
                String::from("package v1\n\nimport corev1 \"k8s.io/api/core/v1\"\n\ntype D struct {\n\tTypeMeta int\n\tSpec corev1.PodSpec `json:\"spec\"`\n}\n"),
            ),
        ],
    );
    let (mut catalog_runs, mut catalog_packages) = (0u64, 0u64);
    let (mut tree_runs, mut tree_docs) = (0u64, 0u64);
    let tree_root = std::env::temp_dir().join(format!("kubedv-fuzz-tree-{}", std::process::id()));
    while Instant::now() < deadline {
        for _ in 0..64 {
            if on("go") {
                let base = &corpus[rng.below(corpus.len())];
                let src = mutate(&mut rng, base);
                let objects: Vec<Value> = (0..2).map(|_| random_json(&mut rng, 0)).collect();
                // The watchdog saves the source and the objects being validated.
                let objects_text: String = objects.iter().map(|o| format!("// object: {o}\n")).collect();
                *current.lock().unwrap() = (Instant::now(), format!("{objects_text}{src}"));
                // A stack overflow aborts the process before anything can be saved: with
                // KUBEDV_FUZZ_TRACE set, every input is written first (slow; for reproducing).
                if trace {
                    std::fs::create_dir_all(&crash_dir).unwrap();
                    std::fs::write(crash_dir.join("last.go"), &src).unwrap();
                }
                let result = catch_unwind(AssertUnwindSafe(|| {
                    let schema = Schema::compile(&src);
                    let mut n = 0;
                    for name in schema.type_names() {
                        let id = schema.type_named(name).unwrap();
                        let options = Options { enabled: vec!["X".into()] };
                        for o in &objects {
                            let _ = schema.validate(id, o, &options);
                            n += 1;
                        }
                        // Updates too: ratcheting, immutable/update, unions and modes compare old and new.
                        let _ = schema.validate_update(id, &objects[0], Some(&objects[1]), &options);
                        n += 1;
                    }
                    n
                }));
                runs += 1;
                match result {
                    Ok(n) => validations += n,
                    Err(_) => {
                        std::fs::create_dir_all(&crash_dir).unwrap();
                        let file = crash_dir.join(format!("crash-{runs}.go"));
                        std::fs::write(&file, &src).unwrap();
                        eprintln!("panic on input saved to {}", file.display());
                        std::process::exit(1);
                    }
                }
            }
            // The tag grammar on its own, with short random tag strings.
            if on("tag") {
                let tag: String = (0..1 + rng.below(6)).map(|_| TOKENS[rng.below(TOKENS.len())]).collect();
                let tag = format!("k8s:{}", mutate(&mut rng, &tag));
                *current.lock().unwrap() = (Instant::now(), format!("// tag\n{tag}"));
                if catch_unwind(|| tags::parse(&tag, Default::default())).is_err() {
                    eprintln!("panic in the tag parser on {tag:?}");
                    std::process::exit(1);
                }
                tag_runs += 1;
            }
            // CEL: mutated expressions, sometimes wrapped in very deep nesting.
            if on("cel") {
                let pick = rng.below(cel_corpus.len());
                let mut expr = mutate_with(&mut rng, &cel_corpus[pick], CEL_TOKENS);
                if rng.below(50) == 0 {
                    let n = 1 + rng.below(20_000);
                    let (open, close) = [
                        ("(", ")"),
                        ("[", "]"),
                        ("!", ""),
                        ("-", ""),
                        ("{1: ", "}"),
                        ("size(", ")"),
                        ("[1].map(x, ", ")"),
                    ][rng.below(7)];
                    expr = format!("{}{expr}{}", open.repeat(n), close.repeat(n));
                }
                let self_value = random_json(&mut rng, 0);
                *current.lock().unwrap() = (Instant::now(), expr.clone());
                if trace {
                    std::fs::create_dir_all(&crash_dir).unwrap();
                    std::fs::write(crash_dir.join("last.cel"), &expr).unwrap();
                }
                if catch_unwind(AssertUnwindSafe(|| run_cel(&expr, &self_value))).is_err() {
                    std::fs::create_dir_all(&crash_dir).unwrap();
                    let file = crash_dir.join(format!("crash-{cel_runs}.cel"));
                    std::fs::write(&file, &expr).unwrap();
                    eprintln!("panic in CEL on the expression saved to {}", file.display());
                    std::process::exit(1);
                }
                cel_runs += 1;
            }
            // CRDs: a structured random schema, loaded and used on create and update.
            if on("crd") {
                let state = rng.0;
                *current.lock().unwrap() = (Instant::now(), format!("// crd round, rng state {state}"));
                let round = |rng: &mut Rng| {
                    if rng.below(4) == 0 {
                        real_runs.set(real_runs.get() + 1);
                        real_crd_round(rng, &real)
                    } else {
                        crd_round(rng)
                    }
                };
                match catch_unwind(AssertUnwindSafe(|| round(&mut rng))) {
                    Ok(Ok(loaded)) => crds_loaded += u64::from(loaded),
                    Ok(Err(violation)) => {
                        eprintln!("property violated (rng state {state}): {violation}");
                        std::process::exit(1);
                    }
                    Err(_) => {
                        eprintln!("panic in CRD validation; replay with the rng state {state}");
                        std::process::exit(1);
                    }
                }
                crd_runs += 1;
            }
            // Manifest text: the reader, the locator and `check`.
            if on("yaml") {
                let state = rng.0;
                *current.lock().unwrap() = (Instant::now(), format!("# yaml round, rng state {state}"));
                match catch_unwind(AssertUnwindSafe(|| yaml_round(&mut rng, &checker))) {
                    Ok(Ok(())) => yaml_runs += 1,
                    Ok(Err(violation)) => {
                        eprintln!("property violated (rng state {state}): {violation}");
                        std::process::exit(1);
                    }
                    Err(_) => {
                        eprintln!("panic reading or checking manifests; replay with the rng state {state}");
                        std::process::exit(1);
                    }
                }
            }
            // Catalogs: mutated catalog text read, written back and compiled.
            if on("catalog") {
                let state = rng.0;
                *current.lock().unwrap() = (Instant::now(), format!("# catalog round, rng state {state}"));
                match catch_unwind(AssertUnwindSafe(|| catalog_round(&mut rng, &small))) {
                    Ok(Ok(n)) => catalog_packages += n as u64,
                    Ok(Err(violation)) => {
                        eprintln!("property violated (rng state {state}): {violation}");
                        std::process::exit(1);
                    }
                    Err(_) => {
                        eprintln!("panic reading a catalog; replay with the rng state {state}");
                        std::process::exit(1);
                    }
                }
                catalog_runs += 1;
            }
            // Admission policies: mutated policy documents evaluated against random requests.
            if on("policy") {
                let state = rng.0;
                *current.lock().unwrap() = (Instant::now(), format!("# policy round, rng state {state}"));
                match catch_unwind(AssertUnwindSafe(|| policy_round(&mut rng))) {
                    Ok(Ok(evaluated)) => policy_evals += u64::from(evaluated),
                    Ok(Err(violation)) => {
                        eprintln!("property violated (rng state {state}): {violation}");
                        std::process::exit(1);
                    }
                    Err(_) => {
                        eprintln!("panic in admission policies; replay with the rng state {state}");
                        std::process::exit(1);
                    }
                }
                policy_runs += 1;
            }
            // A manifest tree on disk, every 16th time round (files are slow).
            #[cfg(unix)]
            if on("tree") && (only.is_some() || runs % 16 == 0) {
                let state = rng.0;
                *current.lock().unwrap() = (Instant::now(), format!("# tree round, rng state {state}"));
                match catch_unwind(AssertUnwindSafe(|| tree_round(&mut rng, &checker, &tree_root))) {
                    Ok(Ok(n)) => {
                        tree_runs += 1;
                        tree_docs += n as u64;
                    }
                    Ok(Err(violation)) => {
                        eprintln!("property violated (rng state {state}): {violation}");
                        std::process::exit(1);
                    }
                    Err(_) => {
                        eprintln!("panic walking or reading a manifest tree; replay with the rng state {state}");
                        std::process::exit(1);
                    }
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&tree_root);
    println!(
        "fuzz: {runs} Go sources compiled, {validations} validations, {tag_runs} tag strings, {cel_runs} CEL expressions, {crd_runs} CRD schemas ({} of them real CRDs, mutated or not; {crds_loaded} loaded, each checked on create and update), {yaml_runs} manifest streams read, located and checked (built-in kinds included), {catalog_runs} catalogs ({catalog_packages} packages read), {policy_runs} policy streams ({policy_evals} with a binding evaluated), {tree_runs} manifest trees on disk ({tree_docs} documents) in {seconds} s: no panic",
        real_runs.get()
    );
}
