//! `cargo xtask …`: the commands the README gives.
//!
//! - `setup`: install what is missing (idempotent): rustup targets, wasm-bindgen-cli at the
//!   Cargo.lock version, wasm-pack, Trunk, wasm-opt (npm binaryen) and Debian's Chromium with
//!   its driver.
//! - `test`: setup, then every check, ending with `N passed, M failed`.
//! - `playground`: setup, then build and serve the playground on http://127.0.0.1:8080.
//! - `npm`: setup, then build the npm package into `wasm/pkg`.
//! - `fuzz [SECONDS] [SEED]`: every fuzz target (Go, tags, CEL, CRDs, manifests, admission
//!   policies) for SECONDS (default 600), by hand; CI runs a 30-second smoke run.
//! - `fuzz-afl [SECONDS] [PATH,...]`: coverage-guided fuzzing of each input path with AFL++
//!   (`cargo afl`), SECONDS per path (default 600), by hand.
//! - `oracle`: build Kubernetes v1.37.2's kube-apiserver, etcd, validation-gen and the oracle
//!   harness from the Go module proxy (`tests/oracle`), by hand.
//! - `diff [--record] [SUITE...]`: every suite's cases through kubedv and the oracle, compared
//!   (`--record` keeps the answers in `tests/oracle/answers`, which `cargo test` compares with).
//! - `ask FILE...`: the API server's answer to the built-in objects of manifest files beside
//!   kubedv's, differences printed (for porting a kind; nothing recorded).
//! - `fuzz-diff [SECONDS] [PATH...] [--keep]`: the differential fuzzer (yaml, crd, go, builtin), SECONDS
//!   per path (default 600), against the oracle, by hand.
//! - `crd-catalog`: regenerate `catalog/crds/` (the compact CRD catalog) from `crds/catalog/`, by
//!   hand.
//! - `catalog [1.N...]`: regenerate `catalog/1.N.gz` (built-in kinds) from the Go module proxy
//!   (k8s.io/api and kube-aggregator), by hand.

mod afl;
mod bench;
mod bench_check;
mod catalog;
mod crd_catalog;
mod env;
mod minimize;
mod npm;
mod oracle;
mod setup;
mod test;

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("setup") => setup::run(),
        Some("test") => return test::run(),
        Some("playground") => playground(),
        Some("npm") => setup::run().and_then(|()| npm::build(&env::Env::new())),
        Some("fuzz") => {
            let env = env::Env::new();
            let seconds = args.get(1).cloned().unwrap_or_else(|| String::from("600"));
            let mut cmd = env.command("cargo");
            cmd.args(["run", "--quiet", "--profile", "fuzz", "-p", "kubedv-fuzz", "--", &seconds]);
            cmd.args(args.get(2));
            env.run(&format!("fuzz every target for {seconds} s"), &mut cmd)
        }
        Some("fuzz-afl") => afl::run(&env::Env::new(), &args[1..]),
        Some("catalog") => catalog::run(&env::Env::new(), &args[1..]),
        Some("crd-catalog") => crd_catalog::run(&env::Env::new()),
        Some("oracle") => oracle::build(&env::Env::new()),
        Some("diff") => oracle::diff(&env::Env::new(), &args[1..]),
        Some("fuzz-diff") => oracle::fuzz_diff(&env::Env::new(), &args[1..]),
        Some("minimize") => minimize::run(&env::Env::new(), &args[1..]),
        Some("ask") => oracle::ask(&env::Env::new(), &args[1..]),
        Some("bench") => bench::run(&env::Env::new()),
        Some("bench-check") => {
            let sizes: Vec<usize> = args[1..].iter().filter_map(|a| a.parse().ok()).collect();
            let sizes = if sizes.is_empty() { vec![10_000, 50_000] } else { sizes };
            bench_check::run(&env::Env::new(), &sizes)
        }
        _ => {
            eprintln!(
                "usage: cargo xtask <setup | test | playground | npm | oracle | diff [--record] [SUITE...] | fuzz-diff [SECONDS] [PATH...] [--keep] | minimize PATH [FILE] | ask FILE... | fuzz [SECONDS [SEED]] | fuzz-afl [SECONDS [PATH,...]] | bench | bench-check [N...] | catalog [1.N...] | crd-catalog>"
            );
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}

fn playground() -> Result<(), String> {
    setup::run()?;
    let env = env::Env::new();
    println!("==> serving the playground at http://127.0.0.1:8080 (Ctrl-C stops it)");
    // Trunk rebuilds on change; --offline keeps it (and cargo) from downloading anything.
    env.run("trunk serve", env.command("trunk").args(["serve", "--offline", "--release"]))
}
