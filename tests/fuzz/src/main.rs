//! `cargo run --profile fuzz -p kubedv-fuzz -- [SECONDS] [SEED]`
//!
//! Mutation fuzzing of the untrusted-input paths of kubedv-core: Go source → `Schema::compile`
//! (lexer, parser, tag grammar, compiler) and `Schema::validate` on random JSON; CEL expressions
//! → parser, checker and evaluator (with a random `self`), including very deep nesting; CRD
//! schemas (structured mutations of keywords, extensions, defaults and rules) → `Crd::load`
//! and `Crd::check` on random objects, on create and on update; admission policy streams →
//! `PolicySet::new` and `evaluate` on random requests. Seeds
//! are the declarative table files and the CEL conformance expressions; mutations splice in the
//! tokens that matter to the grammars. Any panic or broken property is caught, its input saved
//! under `target/fuzz-crashes/`, and the run fails; so does a round over 1 s
//! (`KUBEDV_FUZZ_SLOW_MS`). Each round draws from its own seed: `kubedv-fuzz replay PATH SEED`
//! runs one again.
//!
//! Coverage-guided: built with `cargo afl build --features afl` (stable Rust; cargo-fuzz needs
//! nightly), `kubedv-fuzz afl` is AFL++'s persistent-mode target, and the input's bytes are the
//! generators' choices ([`Rng::from_tape`]), so AFL++'s coverage feedback steers the same
//! structured generators. `cargo xtask fuzz-afl` runs it on each path.
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
use kubedv_core::declarative::tags;
use kubedv_core::declarative::{Options, Schema};
use kubedv_core::policy;
use kubedv_input::manifests;
use kubedv_input::positions::{self, Positions};
use serde_json::{json, Value};

mod builtin_cases;
mod cel_round;
mod crd_round;
mod diff_cases;
mod manifest_round;
mod policy_round;

use cel_round::*;
use crd_round::*;
use manifest_round::*;
use policy_round::*;

/// The choices that drive the generators: xorshift64* from a seed (the random driver), or the
/// bytes of an input (`afl` mode: AFL++ mutates the choices, so its coverage feedback steers
/// the structured generators), then xorshift64* once they run out.
pub(crate) struct Rng {
    state: u64,
    tape: Vec<u8>,
    at: usize,
}

impl Rng {
    pub(crate) fn seeded(seed: u64) -> Rng {
        Rng { state: seed | 1, tape: Vec::new(), at: 0 }
    }
    #[cfg_attr(not(feature = "afl"), allow(dead_code))]
    pub(crate) fn from_tape(bytes: &[u8]) -> Rng {
        Rng { state: 0x9E37_79B9_7F4A_7C15 ^ bytes.len() as u64, tape: bytes.to_vec(), at: 0 }
    }
    fn next(&mut self) -> u64 {
        if self.at < self.tape.len() {
            // Four bytes a choice, spread over 64 bits (splitmix64's finaliser).
            let end = (self.at + 4).min(self.tape.len());
            let mut word = [0u8; 4];
            word[..end - self.at].copy_from_slice(&self.tape[self.at..end]);
            self.at = end;
            let mut z = u64::from(u32::from_le_bytes(word)).wrapping_add(0x9E37_79B9_7F4A_7C15);
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            return z ^ (z >> 31);
        }
        self.state ^= self.state >> 12;
        self.state ^= self.state << 25;
        self.state ^= self.state >> 27;
        self.state.wrapping_mul(0x2545_F491_4F6C_DD1D)
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
        let path = entry.unwrap().path();
        // The tables only (a directory of cases kept aside would not be seeds).
        if path.extension().is_none_or(|e| e != "txt") {
            continue;
        }
        let text = std::fs::read_to_string(path).unwrap();
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

/// What every round shares: the seed corpora, the checker with the built-in kinds and a CRD,
/// a small catalog to mutate, where trees are written, and the input under way (the watchdog
/// saves it, and so does a failing round).
struct Shared {
    corpus: Vec<String>,
    real: Vec<Value>,
    cel_corpus: Vec<String>,
    checker: Checker,
    small: String,
    tree_root: PathBuf,
    crash_dir: PathBuf,
    current: Arc<Mutex<(Instant, String)>>,
    trace: bool,
}

impl Shared {
    fn new() -> Shared {
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
        Shared {
            corpus: seeds(),
            real: real_crds(),
            cel_corpus: cel_seeds(),
            checker,
            small,
            tree_root: std::env::temp_dir().join(format!("kubedv-fuzz-tree-{}", std::process::id())),
            crash_dir: Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/fuzz-crashes"),
            current: Arc::new(Mutex::new((Instant::now(), String::new()))),
            trace: std::env::var_os("KUBEDV_FUZZ_TRACE").is_some(),
        }
    }

    /// Notes the input under way (what the watchdog or a failure saves).
    fn note(&self, input: String) {
        *self.current.lock().unwrap() = (Instant::now(), input);
    }

    /// With `KUBEDV_FUZZ_TRACE` set, writes every input first: a stack overflow aborts the
    /// process before anything can be saved (slow; for reproducing).
    fn trace(&self, name: &str, input: &str) {
        if self.trace {
            std::fs::create_dir_all(&self.crash_dir).unwrap();
            std::fs::write(self.crash_dir.join(name), input).unwrap();
        }
    }

    /// One round of `path`, its choices from `rng`: a count for the summary (validations,
    /// CRDs loaded, packages, documents), or the property it broke.
    fn round(&self, path: &str, rng: &mut Rng) -> Result<u64, String> {
        match path {
            "go" => Ok(self.go_round(rng)),
            "tag" => {
                // The tag grammar on its own, with short random tag strings.
                let tag: String = (0..1 + rng.below(6)).map(|_| TOKENS[rng.below(TOKENS.len())]).collect();
                let tag = format!("k8s:{}", mutate(rng, &tag));
                self.note(format!("// tag\n{tag}"));
                let _ = tags::parse(&tag, Default::default());
                Ok(1)
            }
            "cel" => {
                // Mutated expressions, sometimes wrapped in very deep nesting.
                let pick = rng.below(self.cel_corpus.len());
                let mut expr = mutate_with(rng, &self.cel_corpus[pick], CEL_TOKENS);
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
                let self_value = random_json(rng, 0);
                self.note(format!("// self: {self_value}\n{expr}"));
                self.trace("last.cel", &expr);
                run_cel(&expr, &self_value);
                Ok(1)
            }
            // A structured random schema, or a real CRD mutated, loaded and used on create and update.
            // (A real CRD's round counts 2^32 besides its load.)
            "crd" if rng.below(4) == 0 => real_crd_round(rng, &self.real).map(|loaded| u64::from(loaded) + (1 << 32)),
            "crd" => crd_round(rng).map(u64::from),
            // Manifest text: the reader, the locator and `check`.
            "yaml" => yaml_round(rng, &self.checker).map(|()| 1),
            // Catalogs: mutated catalog text read, written back and compiled.
            "catalog" => catalog_round(rng, &self.small).map(|n| n as u64),
            // Admission policies: mutated policy documents evaluated against random requests.
            "policy" => policy_round(rng).map(u64::from),
            // A manifest tree on disk.
            #[cfg(unix)]
            "tree" => tree_round(rng, &self.checker, &self.tree_root).map(|n| n as u64),
            _ => Ok(0),
        }
    }

    /// A mutated Go source compiled, each of its types validating two random objects, on
    /// create and on update (ratcheting, immutable/update, unions and modes compare old and new).
    fn go_round(&self, rng: &mut Rng) -> u64 {
        let base = &self.corpus[rng.below(self.corpus.len())];
        let src = mutate(rng, base);
        let objects: Vec<Value> = (0..2).map(|_| random_json(rng, 0)).collect();
        let objects_text: String = objects.iter().map(|o| format!("// object: {o}\n")).collect();
        self.note(format!("{objects_text}{src}"));
        self.trace("last.go", &src);
        let schema = Schema::compile(&src);
        let mut n = 0;
        for name in schema.type_names() {
            let id = schema.type_named(name).unwrap();
            let options = Options { enabled: vec!["X".into()], ..Options::default() };
            for o in &objects {
                let _ = schema.validate(id, o, &options);
                n += 1;
            }
            let _ = schema.validate_update(id, &objects[0], Some(&objects[1]), &options);
            n += 1;
        }
        n
    }

    /// Runs one round of `path` from its own seed, stopping the fuzzer on a property violation
    /// or a panic with the input saved and the command that replays it.
    fn guarded(&self, path: &str, seed: u64) -> u64 {
        self.note(format!("# {path} round, seed {seed}"));
        let outcome = catch_unwind(AssertUnwindSafe(|| self.round(path, &mut Rng::seeded(seed))));
        let failure = match outcome {
            Ok(Ok(n)) => return n,
            Ok(Err(violation)) => format!("property violated: {violation}"),
            Err(_) => String::from("panic"),
        };
        let input = self.current.lock().unwrap().1.clone();
        std::fs::create_dir_all(&self.crash_dir).unwrap();
        let file = self.crash_dir.join(format!("crash-{path}-{seed}.txt"));
        std::fs::write(&file, input).unwrap();
        eprintln!(
            "{failure} in the {path} round; input saved to {}; replay: kubedv-fuzz replay {path} {seed}",
            file.display()
        );
        std::process::exit(1);
    }
}

/// The longest a round may take (`KUBEDV_FUZZ_SLOW_MS`, 1000 by default): a round over it is a
/// hang, or worse than linear.
fn slow_limit() -> Duration {
    let ms = std::env::var("KUBEDV_FUZZ_SLOW_MS").ok().and_then(|v| v.parse().ok()).unwrap_or(1000);
    Duration::from_millis(ms)
}

/// Saves the input under way and stops the process when a round takes over the limit.
fn watchdog(shared: &Shared) {
    let current = shared.current.clone();
    let crash_dir = shared.crash_dir.clone();
    let limit = slow_limit();
    std::thread::spawn(move || loop {
        std::thread::sleep(Duration::from_millis(100));
        let (started, input) = current.lock().unwrap().clone();
        if started.elapsed() > limit {
            std::fs::create_dir_all(&crash_dir).unwrap();
            let file = crash_dir.join("slow.txt");
            std::fs::write(&file, &input).unwrap();
            let what = input.lines().next().unwrap_or_default();
            eprintln!("an input took over {limit:?} ({what}); saved to {}", file.display());
            std::process::exit(1);
        }
    });
}

fn main() {
    // The work runs on a thread with WebAssembly's stack size (1 MiB): a stack overflow that
    // would kill the npm package or the playground must show up here too.
    let worker = std::thread::Builder::new().stack_size(1 << 20).spawn(fuzz).expect("thread");
    if worker.join().is_err() {
        std::process::exit(1);
    }
}

/// The paths `KUBEDV_FUZZ_ONLY` selects (all by default); an unknown name is exit 2.
fn selected_paths() -> Vec<&'static str> {
    let Ok(only) = std::env::var("KUBEDV_FUZZ_ONLY") else { return PATHS.to_vec() };
    for p in only.split(',') {
        if !PATHS.contains(&p.trim()) {
            eprintln!("KUBEDV_FUZZ_ONLY: unknown path {p:?}; the paths are {}", PATHS.join(", "));
            std::process::exit(2);
        }
    }
    PATHS.iter().copied().filter(|p| only.split(',').any(|o| o.trim() == *p)).collect()
}

pub(crate) fn fuzz() {
    // Replays one saved Go source against many random objects, timing the slowest.
    if let Ok(path) = std::env::var("KUBEDV_FUZZ_REPLAY") {
        let src = std::fs::read_to_string(&path).expect("replay file");
        let schema = Schema::compile(&src);
        let mut rng = Rng::seeded(7);
        let mut worst = Duration::ZERO;
        for _ in 0..200_000 {
            let objects: Vec<Value> = (0..2).map(|_| random_json(&mut rng, 0)).collect();
            let start = Instant::now();
            for name in schema.type_names() {
                let id = schema.type_named(name).unwrap();
                let options = Options { enabled: vec!["X".into()], ..Options::default() };
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
    let args: Vec<String> = std::env::args().skip(1).collect();
    // `replay PATH SEED`: one round again, as a failure printed it, timed.
    if args.first().is_some_and(|a| a == "replay") {
        let (Some(path), Some(seed)) = (args.get(1), args.get(2).and_then(|s| s.parse().ok())) else {
            eprintln!("usage: kubedv-fuzz replay PATH SEED");
            std::process::exit(2);
        };
        let shared = Shared::new();
        let start = Instant::now();
        let outcome = shared.round(path, &mut Rng::seeded(seed));
        println!("{path} round {seed}: {outcome:?} in {:?}", start.elapsed());
        println!("{}", shared.current.lock().unwrap().1);
        return;
    }
    // `cases PATH N SEED`: oracle cases for the differential fuzzer, as JSON lines.
    if args.first().is_some_and(|a| a == "cases") {
        let (Some(path), Some(n), Some(seed)) =
            (args.get(1), args.get(2).and_then(|s| s.parse().ok()), args.get(3).and_then(|s| s.parse().ok()))
        else {
            eprintln!("usage: kubedv-fuzz cases PATH N SEED");
            std::process::exit(2);
        };
        match diff_cases::cases(path, n, seed) {
            Ok(cases) => {
                for c in cases {
                    println!("{c}");
                }
            }
            Err(e) => {
                eprintln!("kubedv-fuzz: {e}");
                std::process::exit(2);
            }
        }
        return;
    }
    #[cfg(feature = "afl")]
    if args.first().is_some_and(|a| a == "afl") {
        return afl_main();
    }
    let seconds: u64 = args.first().and_then(|s| s.parse().ok()).unwrap_or(10);
    let seed: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(0x9E37_79B9_7F4A_7C15);
    let paths = selected_paths();
    let every = paths.len() < PATHS.len();
    let shared = Shared::new();
    let mut rng = Rng::seeded(seed);
    let deadline = Instant::now() + Duration::from_secs(seconds);
    std::panic::set_hook(Box::new(|_| {}));
    watchdog(&shared);
    // Per path: rounds, and the round's own count.
    let mut counts = [(0u64, 0u64); PATHS.len()];
    let mut turn = 0u64;
    let mut slowest = (Duration::ZERO, "");
    while Instant::now() < deadline {
        for _ in 0..64 {
            turn += 1;
            for (i, path) in PATHS.iter().enumerate() {
                // A tree on disk every 16th turn (files are slow), unless it is the only path.
                if !paths.contains(path) || (*path == "tree" && !every && turn % 16 != 0) {
                    continue;
                }
                let started = Instant::now();
                let n = shared.guarded(path, rng.next());
                slowest = slowest.max((started.elapsed(), path));
                counts[i].0 += 1;
                counts[i].1 += n;
            }
        }
    }
    let _ = std::fs::remove_dir_all(&shared.tree_root);
    let c = |p: &str| counts[PATHS.iter().position(|q| *q == p).unwrap()];
    let (real, crd_loaded) = (c("crd").1 >> 32, c("crd").1 & 0xFFFF_FFFF);
    println!(
        "fuzz: {} Go sources compiled, {} validations, {} tag strings, {} CEL expressions, {} CRD schemas ({} of them real CRDs, mutated or not; {} loaded, each checked on create and update), {} manifest streams read, located and checked (built-in kinds included), {} catalogs ({} packages read), {} policy streams ({} with a binding evaluated), {} manifest trees on disk ({} documents) in {seconds} s, no round over {:?} (the slowest: {:?}, {}): no panic",
        c("go").0, c("go").1, c("tag").0, c("cel").0, c("crd").0, real, crd_loaded, c("yaml").0, c("catalog").0, c("catalog").1,
        c("policy").0, c("policy").1, c("tree").0, c("tree").1, slow_limit(), slowest.0, slowest.1
    );
}

/// `kubedv-fuzz afl`, built by `cargo afl build --features afl`: AFL++'s persistent-mode target.
/// The path is `KUBEDV_FUZZ_ONLY`'s first, and the input's bytes are the generators' choices.
/// A panic or a broken property aborts (AFL++ saves a crash); a round over AFL++'s `-t` limit
/// is saved as a hang.
#[cfg(feature = "afl")]
fn afl_main() {
    let path = selected_paths()[0];
    let shared = AssertUnwindSafe(Shared::new());
    afl::fuzz!(|data: &[u8]| {
        if let Err(violation) = shared.round(path, &mut Rng::from_tape(data)) {
            panic!("property violated in the {path} round: {violation}");
        }
    });
}
