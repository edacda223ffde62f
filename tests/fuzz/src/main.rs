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
//!
//! `KUBEDV_FUZZ_ONLY=crd,yaml` gives the whole run to some paths (see [`PATHS`]). The rounds
//! live by path: `cel_round`, `crd_round`, `manifest_round` (streams, catalogs, trees),
//! `policy_round`; the Go sources, tags and the driver are here.

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

mod cel_round;
mod crd_round;
mod manifest_round;
mod policy_round;

use cel_round::*;
use crd_round::*;
use manifest_round::*;
use policy_round::*;

/// xorshift64*: deterministic for a seed, good enough to drive mutations.
pub(crate) struct Rng(u64);

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

pub(crate) const TOKENS: &[&str] = &[
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

pub(crate) fn mutate_with(rng: &mut Rng, base: &str, tokens: &[&str]) -> String {
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

pub(crate) fn mutate(rng: &mut Rng, base: &str) -> String {
    mutate_with(rng, base, TOKENS)
}

pub(crate) fn random_json(rng: &mut Rng, depth: usize) -> Value {
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

pub(crate) fn seeds() -> Vec<String> {
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
pub(crate) const PATHS: &[&str] = &["go", "tag", "cel", "crd", "yaml", "catalog", "policy", "tree"];

/// Runs one round under the watchdog (`label` and the rng state name the input) and stops the
/// fuzzer, with the state to replay, on a property violation or a panic (`panic` says where).
fn guarded<T>(
    rng: &mut Rng,
    current: &Mutex<(Instant, String)>,
    label: &str,
    panic: &str,
    round: impl FnOnce(&mut Rng) -> Result<T, String>,
) -> T {
    let state = rng.0;
    *current.lock().unwrap() = (Instant::now(), format!("{label}, rng state {state}"));
    match catch_unwind(AssertUnwindSafe(|| round(rng))) {
        Ok(Ok(t)) => t,
        Ok(Err(violation)) => {
            eprintln!("property violated (rng state {state}): {violation}");
            std::process::exit(1);
        }
        Err(_) => {
            eprintln!("{panic}; replay with the rng state {state}");
            std::process::exit(1);
        }
    }
}

fn main() {
    // The work runs on a thread with WebAssembly's stack size (1 MiB): a stack overflow that
    // would kill the npm package or the playground must show up here too.
    let worker = std::thread::Builder::new().stack_size(1 << 20).spawn(fuzz).expect("thread");
    if worker.join().is_err() {
        std::process::exit(1);
    }
}

pub(crate) fn fuzz() {
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
                let round = |rng: &mut Rng| {
                    if rng.below(4) == 0 {
                        real_runs.set(real_runs.get() + 1);
                        real_crd_round(rng, &real)
                    } else {
                        crd_round(rng)
                    }
                };
                let loaded = guarded(&mut rng, &current, "// crd round", "panic in CRD validation", |rng| round(rng));
                crds_loaded += u64::from(loaded);
                crd_runs += 1;
            }
            // Manifest text: the reader, the locator and `check`.
            if on("yaml") {
                guarded(&mut rng, &current, "# yaml round", "panic reading or checking manifests", |rng| {
                    yaml_round(rng, &checker)
                });
                yaml_runs += 1;
            }
            // Catalogs: mutated catalog text read, written back and compiled.
            if on("catalog") {
                let n = guarded(&mut rng, &current, "# catalog round", "panic reading a catalog", |rng| {
                    catalog_round(rng, &small)
                });
                catalog_packages += n as u64;
                catalog_runs += 1;
            }
            // Admission policies: mutated policy documents evaluated against random requests.
            if on("policy") {
                let evaluated = guarded(&mut rng, &current, "# policy round", "panic in admission policies", |rng| {
                    policy_round(rng)
                });
                policy_evals += u64::from(evaluated);
                policy_runs += 1;
            }
            // A manifest tree on disk, every 16th time round (files are slow).
            #[cfg(unix)]
            if on("tree") && (only.is_some() || runs % 16 == 0) {
                let n =
                    guarded(&mut rng, &current, "# tree round", "panic walking or reading a manifest tree", |rng| {
                        tree_round(rng, &checker, &tree_root)
                    });
                tree_runs += 1;
                tree_docs += n as u64;
            }
        }
    }
    let _ = std::fs::remove_dir_all(&tree_root);
    println!(
        "fuzz: {runs} Go sources compiled, {validations} validations, {tag_runs} tag strings, {cel_runs} CEL expressions, {crd_runs} CRD schemas ({} of them real CRDs, mutated or not; {crds_loaded} loaded, each checked on create and update), {yaml_runs} manifest streams read, located and checked (built-in kinds included), {catalog_runs} catalogs ({catalog_packages} packages read), {policy_runs} policy streams ({policy_evals} with a binding evaluated), {tree_runs} manifest trees on disk ({tree_docs} documents) in {seconds} s: no panic",
        real_runs.get()
    );
}
