//! `cargo xtask fuzz-afl [SECONDS] [PATH,...]`: coverage-guided fuzzing with AFL++, by hand.
//!
//! Builds `kubedv-fuzz` with `cargo afl build --features afl` (into `target/afl`), then gives
//! each input path (`go`, `tag`, `cel`, `crd`, `yaml`, `catalog`, `policy`, `tree`; all by
//! default) SECONDS of `cargo afl fuzz` (default 600) with a 1-second limit per input. AFL++
//! mutates the bytes the structured generators draw their choices from, so its coverage
//! feedback steers them. Each path's queue, crashes and hangs stay under
//! `target/afl-runs/<path>/` (a later run resumes from its queue); the command prints each
//! path's executions, corpus and coverage, and fails when any path saved a crash or a hang.
//! Needs `cargo install cargo-afl` and `cargo afl config --build` (stable Rust is enough).

use std::path::Path;

use crate::env::Env;

const PATHS: &[&str] = &["go", "tag", "cel", "crd", "yaml", "catalog", "policy", "tree"];

pub fn run(env: &Env, args: &[String]) -> Result<(), String> {
    let seconds: u64 = args.first().map_or(Ok(600), |s| s.parse()).map_err(|_| "SECONDS must be a number")?;
    let paths: Vec<&str> = match args.get(1) {
        Some(list) => list.split(',').map(str::trim).collect(),
        None => PATHS.to_vec(),
    };
    if let Some(p) = paths.iter().find(|p| !PATHS.contains(p)) {
        return Err(format!("unknown path {p:?}; the paths are {}", PATHS.join(", ")));
    }
    if env.output("cargo", &["afl", "--version"]).is_none() {
        return Err(String::from(
            "cargo-afl is not installed: `cargo install cargo-afl` then `cargo afl config --build`",
        ));
    }
    env.run(
        "build kubedv-fuzz for AFL++",
        env.command("cargo")
            .args(["afl", "build", "--profile", "fuzz", "-p", "kubedv-fuzz", "--features", "afl"])
            .args(["--target-dir", "target/afl"]),
    )?;
    let runs = env.root.join("target/afl-runs");
    let mut failures = Vec::new();
    for path in paths {
        let out = runs.join(path);
        // Seeds: a few byte strings of choices (a resumed run keeps its queue instead).
        let seeds = runs.join("seeds");
        std::fs::create_dir_all(&seeds).map_err(|e| e.to_string())?;
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for i in 0..8 {
            let bytes: Vec<u8> = (0..64 << (i % 4))
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    state as u8
                })
                .collect();
            std::fs::write(seeds.join(format!("seed{i}")), bytes).map_err(|e| e.to_string())?;
        }
        let input = if out.join("default/queue").is_dir() { String::from("-") } else { seeds.display().to_string() };
        let mut cmd = env.command("cargo");
        cmd.args(["afl", "fuzz", "-i", &input, "-o"])
            .arg(&out)
            .args(["-t", "1000", "-V", &seconds.to_string(), "target/afl/fuzz/kubedv-fuzz", "afl"])
            .env("KUBEDV_FUZZ_ONLY", path)
            .env("AFL_NO_UI", "1")
            .env("AFL_SKIP_CPUFREQ", "1")
            .env("AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES", "1")
            .stdout(std::process::Stdio::null());
        env.run(&format!("AFL++ on the {path} path for {seconds} s"), &mut cmd)?;
        let stats = std::fs::read_to_string(out.join("default/fuzzer_stats")).unwrap_or_default();
        let stat = |key: &str| {
            stats
                .lines()
                .find_map(|l| l.strip_prefix(key)?.trim_start().strip_prefix(':').map(str::trim))
                .unwrap_or("?")
        };
        println!(
            "{path}: {} executions ({}/s), corpus {}, coverage {}, crashes {}, hangs {}",
            stat("execs_done"),
            stat("execs_per_sec"),
            stat("corpus_count"),
            stat("bitmap_cvg"),
            stat("saved_crashes"),
            stat("saved_hangs")
        );
        for kind in ["crashes", "hangs"] {
            if count(&out.join("default").join(kind)) > 0 {
                failures.push(format!("{path}: {kind} in {}", out.join("default").join(kind).display()));
            }
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(format!("AFL++ found inputs to fix (replay one with `KUBEDV_FUZZ_ONLY=PATH target/afl/fuzz/kubedv-fuzz afl < FILE`):\n{}", failures.join("\n")))
    }
}

/// The saved inputs in an AFL++ output folder (its README aside).
fn count(dir: &Path) -> usize {
    std::fs::read_dir(dir).map_or(0, |d| d.flatten().filter(|e| e.file_name() != "README.txt").count())
}
