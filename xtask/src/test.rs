//! `cargo xtask test`: setup, then every check. A failing check does not stop the others;
//! the last line is `N passed, M failed`.

use std::process::ExitCode;
use std::time::Instant;

use crate::env::Env;
use crate::{npm, setup};

pub fn run() -> ExitCode {
    if let Err(e) = setup::run() {
        eprintln!("xtask: {e}");
        eprintln!("0 passed, 1 failed");
        return ExitCode::FAILURE;
    }
    let env = Env::new();
    let www = env.root.join("www");
    let mut results: Vec<(&str, Result<(), String>, f64)> = Vec::new();
    let mut check = |name: &'static str, f: &mut dyn FnMut() -> Result<(), String>| {
        let start = Instant::now();
        let outcome = f();
        results.push((name, outcome, start.elapsed().as_secs_f64()));
    };

    check("cargo fmt --check", &mut || {
        env.run("cargo fmt --check", env.command("cargo").args(["fmt", "--all", "--check"]))
    });
    check("cargo clippy", &mut || {
        env.run(
            "cargo clippy --workspace --all-targets -- -D warnings",
            env.command("cargo").args(["clippy", "--workspace", "--all-targets", "--", "-D", "warnings"]),
        )?;
        // The wasm facade's tests and the playground only compile for wasm32: lint them there too.
        env.run(
            "cargo clippy (wasm32: kubedv-wasm, kubedv-playground)",
            env.command("cargo").args([
                "clippy",
                "-p",
                "kubedv-wasm",
                "-p",
                "kubedv-playground",
                "--target",
                "wasm32-unknown-unknown",
                "--all-targets",
                "--",
                "-D",
                "warnings",
            ]),
        )
    });
    check("cargo test", &mut || env.run("cargo test --workspace", env.command("cargo").args(["test", "--workspace"])));
    check("core builds as no_std", &mut || {
        env.run(
            "cargo build -p kubedv-core --no-default-features --features policy --target x86_64-unknown-none",
            env.command("cargo").args([
                "build",
                "-p",
                "kubedv-core",
                "--no-default-features",
                "--features",
                "policy",
                "--target",
                "x86_64-unknown-none",
            ]),
        )
    });
    check("CEL conformance (>= 97% of non-skipped tests)", &mut || {
        // The CEL specification's conformance files, vendored from google/cel-spec (cel-spec/SOURCE.md).
        let dir = env.root.join("tests/conformance/cel-spec");
        let mut files: Vec<String> = std::fs::read_dir(&dir)
            .map_err(|e| format!("{}: {e}", dir.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "textproto"))
            .map(|p| p.display().to_string())
            .collect();
        files.sort();
        let mut cmd = env.command("cargo");
        cmd.args(["run", "--quiet", "--release", "-p", "kubedv-conformance", "--", "--min-pass-rate", "97"])
            .args(&files);
        env.run(
            "cargo run --release -p kubedv-conformance -- --min-pass-rate 97 tests/conformance/cel-spec/*.textproto",
            &mut cmd,
        )
    });
    check("fuzz smoke run (30 s)", &mut || {
        env.run(
            "cargo run --profile fuzz -p kubedv-fuzz -- 30",
            env.command("cargo").args(["run", "--quiet", "--profile", "fuzz", "-p", "kubedv-fuzz", "--", "30"]),
        )
    });
    check("wasm-pack test --node", &mut || {
        // Optimized, as the package ships: unoptimized WebAssembly frames are several times
        // larger, and the suite checks that 250 levels of CEL nesting fit the 1 MiB stack.
        env.run(
            "wasm-pack test --release --node wasm",
            env.command("wasm-pack").args(["test", "--release", "--node", "wasm"]),
        )
    });
    check("wasm-pack test --headless --chrome", &mut || {
        env.run(
            "wasm-pack test --release --headless --chrome wasm",
            // The suite is not configured for one runtime, so the same tests run in both;
            // this makes the runner take the browser.
            env.command("wasm-pack")
                .args(["test", "--release", "--headless", "--chrome", "wasm"])
                .env("WASM_BINDGEN_USE_BROWSER", "1"),
        )
    });
    check("npm package builds", &mut || npm::build(&env));
    check("www: node example and tests", &mut || {
        env.run(
            "npm install (www)",
            env.command("npm").current_dir(&www).args(["install", "--no-audit", "--no-fund"]),
        )?;
        env.run("node --test (www)", env.command("npm").current_dir(&www).args(["test"]))
    });
    check("trunk build --release", &mut || {
        env.run("trunk build --release --offline", env.command("trunk").args(["build", "--release", "--offline"]))?;
        if let Some(wasm) = std::fs::read_dir(env.root.join("dist"))
            .ok()
            .and_then(|d| d.flatten().map(|e| e.path()).find(|p| p.extension().is_some_and(|x| x == "wasm")))
        {
            let _ = npm::print_size(&env, &wasm);
        }
        Ok(())
    });
    check("browser end-to-end", &mut || {
        env.run("end-to-end in headless Chromium", env.command("cargo").args(["run", "--quiet", "-p", "kubedv-e2e"]))
    });

    println!("\n==> summary");
    let failed = results.iter().filter(|(_, r, _)| r.is_err()).count();
    for (name, outcome, secs) in &results {
        match outcome {
            Ok(()) => println!("  ok   {name} ({secs:.0} s)"),
            Err(e) => println!("  FAIL {name} ({secs:.0} s): {e}"),
        }
    }
    println!("{} passed, {} failed", results.len() - failed, failed);
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
