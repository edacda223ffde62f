//! `cargo xtask setup`: installs only what is missing, printing each step.

use std::path::Path;

use crate::env::{Env, CHROMEDRIVER, CHROMIUM};

const TARGETS: [&str; 2] = ["wasm32-unknown-unknown", "x86_64-unknown-none"];
const WASM_PACK_VERSION: &str = "0.15.1";
/// Trunk 0.22 needs a newer rustc; 0.21.14 only builds with its lock file.
const TRUNK_VERSION: &str = "0.21.14";
/// Debian's binaryen is too old for Rust 1.95's output; npm's binaryen 132 is not.
const BINARYEN_VERSION: &str = "132";

pub fn run() -> Result<(), String> {
    let env = Env::new();
    targets(&env)?;
    wasm_bindgen(&env)?;
    cargo_tool(&env, "wasm-pack", "wasm-pack", WASM_PACK_VERSION, &["--locked"])?;
    cargo_tool(&env, "trunk", "trunk", TRUNK_VERSION, &["--locked"])?;
    wasm_opt(&env)?;
    chromium(&env)?;
    // Trunk builds with --offline, which makes cargo offline too: fetch the crates first.
    env.run("setup: cargo fetch", env.command("cargo").arg("fetch"))?;
    println!("==> setup: done");
    Ok(())
}

fn targets(env: &Env) -> Result<(), String> {
    let installed = env.output("rustup", &["target", "list", "--installed"]).ok_or(
        "setup: rustup is needed to add the wasm32-unknown-unknown and x86_64-unknown-none targets (https://rustup.rs)",
    )?;
    let missing: Vec<&str> = TARGETS.into_iter().filter(|t| !installed.lines().any(|l| l.trim() == *t)).collect();
    if missing.is_empty() {
        println!("==> setup: rustup targets present");
        return Ok(());
    }
    env.run(
        &format!("setup: rustup target add {}", missing.join(" ")),
        env.command("rustup").args(["target", "add"]).args(&missing),
    )
}

/// wasm-bindgen-cli must be exactly the version of the wasm-bindgen crate in Cargo.lock.
fn wasm_bindgen(env: &Env) -> Result<(), String> {
    let version = locked_version(&env.root.join("Cargo.lock"), "wasm-bindgen")?;
    // `--locked` fails for wasm-bindgen-cli: a locked dependency is missing from crates.io.
    cargo_tool(env, "wasm-bindgen-cli", "wasm-bindgen", &version, &[])
}

fn locked_version(lock: &Path, package: &str) -> Result<String, String> {
    let text = std::fs::read_to_string(lock).map_err(|e| format!("setup: cannot read {}: {e}", lock.display()))?;
    let needle = format!("name = \"{package}\"\nversion = \"");
    let start =
        text.find(&needle).ok_or_else(|| format!("setup: {package} is not in {}", lock.display()))? + needle.len();
    Ok(text[start..].split('"').next().unwrap_or_default().to_string())
}

/// Installs a crate's binary with `cargo install` unless `binary --version` already reports
/// `version`.
fn cargo_tool(env: &Env, krate: &str, binary: &str, version: &str, flags: &[&str]) -> Result<(), String> {
    let have = env.output(binary, &["--version"]).unwrap_or_default();
    if have.split_whitespace().nth(1) == Some(version) {
        println!("==> setup: {binary} {version} present");
        return Ok(());
    }
    env.run(
        &format!("setup: cargo install {krate} {version} (a few minutes, once)"),
        env.command("cargo").args(["install", krate, "--version", version, "--force"]).args(flags),
    )
}

fn wasm_opt(env: &Env) -> Result<(), String> {
    let have = env.output("wasm-opt", &["--version"]).unwrap_or_default();
    if have.contains(&format!("version {BINARYEN_VERSION}")) {
        println!("==> setup: wasm-opt {BINARYEN_VERSION} present");
        return Ok(());
    }
    if env.output("npm", &["--version"]).is_none() {
        apt_install(env, &["nodejs", "npm"])?;
    }
    std::fs::create_dir_all(&env.tools).map_err(|e| format!("setup: cannot create {}: {e}", env.tools.display()))?;
    let prefix = env.tools.to_string_lossy().into_owned();
    env.run(
        &format!("setup: npm install binaryen@{BINARYEN_VERSION} into .tools"),
        env.command("npm")
            .args(["install", "--no-audit", "--no-fund", "--prefix", &prefix])
            .arg(format!("binaryen@{BINARYEN_VERSION}")),
    )
}

fn chromium(env: &Env) -> Result<(), String> {
    if Path::new(CHROMIUM).is_file() && Path::new(CHROMEDRIVER).is_file() {
        println!("==> setup: chromium and chromedriver present");
        return Ok(());
    }
    apt_install(env, &["chromium", "chromium-driver"])
}

/// `apt-get update` then `apt-get install -y`, through sudo when not root.
fn apt_install(env: &Env, packages: &[&str]) -> Result<(), String> {
    let root = env.output("id", &["-u"]).as_deref() == Some("0");
    let apt = |args: &[&str]| {
        let mut cmd = env.command(if root { "apt-get" } else { "sudo" });
        if !root {
            cmd.arg("apt-get");
        }
        cmd.args(args).env("DEBIAN_FRONTEND", "noninteractive");
        cmd
    };
    let what = packages.join(" ");
    env.run("setup: apt-get update", &mut apt(&["update"]))
        .and_then(|()| env.run(&format!("setup: apt-get install {what}"), apt(&["install", "-y"]).args(packages)))
        .map_err(|e| format!("{e}: Debian's {what} are needed (install them as root)"))
}
