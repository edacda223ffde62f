//! `cargo xtask oracle` and `cargo xtask diff`: Kubernetes itself beside kubedv.
//!
//! `oracle` builds, from the Go module `tests/oracle` (every k8s.io module at v1.37.2, from the
//! module proxy), into `target/oracle/`: `kube-apiserver` (k8s.io/kubernetes/cmd/kube-apiserver,
//! stamped v1.37.2 as the release build stamps it), `etcd` (go.etcd.io/etcd/server/v3),
//! `validation-gen` (k8s.io/code-generator/cmd/validation-gen) and `oracle` (the harness that
//! answers cases: `tests/oracle/cmd/oracle`).
//!
//! `diff [--record] [SUITE...]` builds the oracle, sends every suite's cases (`kubedv-diff
//! cases`) to it, one oracle run per mode (one API server for all its suites), keeps the
//! answers (`tests/oracle/answers/` with `--record`, else `target/oracle/answers/`) and
//! compares kubedv with them (`kubedv-diff compare`).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use crate::env::Env;

const RELEASE: &str = "v1.37.2";

fn dir(env: &Env) -> PathBuf {
    env.root.join("target/oracle")
}

fn go(env: &Env) -> Command {
    let mut cmd = env.command("go");
    cmd.current_dir(env.root.join("tests/oracle"));
    cmd
}

pub fn build(env: &Env) -> Result<(), String> {
    let out = dir(env);
    std::fs::create_dir_all(&out).map_err(|e| e.to_string())?;
    let start = Instant::now();
    // What hack/lib/version.sh stamps into a release build: without it the binary says
    // v0.0.0-master and reports no minor.
    let ldflags = format!(
        "-X k8s.io/component-base/version.gitVersion={RELEASE} -X k8s.io/component-base/version.gitMajor=1 \
         -X k8s.io/component-base/version.gitMinor=37 -X k8s.io/component-base/version.gitTreeState=clean \
         -X k8s.io/client-go/pkg/version.gitVersion={RELEASE} -X k8s.io/client-go/pkg/version.gitMajor=1 \
         -X k8s.io/client-go/pkg/version.gitMinor=37"
    );
    let dest = format!("{}/", out.display());
    env.run(
        "go build kube-apiserver, validation-gen and the oracle harness (tests/oracle)",
        go(env).args([
            "build",
            "-trimpath",
            "-ldflags",
            &ldflags,
            "-o",
            &dest,
            "k8s.io/kubernetes/cmd/kube-apiserver",
            "k8s.io/code-generator/cmd/validation-gen",
            "./cmd/oracle",
        ]),
    )?;
    let etcd = out.join("etcd").display().to_string();
    env.run(
        "go build etcd (tests/oracle)",
        go(env).args(["build", "-trimpath", "-o", &etcd, "go.etcd.io/etcd/server/v3"]),
    )?;
    println!("==> the oracle is built in {:.0} s: {}", start.elapsed().as_secs_f64(), out.display());
    Ok(())
}

fn diff_tool(env: &Env, args: &[&str], answers: &Path) -> Command {
    let mut cmd = env.command("cargo");
    cmd.args(["run", "--quiet", "--release", "-p", "kubedv-diff", "--"]).args(args).env("KUBEDV_DIFF_ANSWERS", answers);
    cmd
}

fn captured(what: &str, cmd: &mut Command) -> Result<String, String> {
    let out = cmd.stderr(Stdio::inherit()).output().map_err(|e| format!("{what}: {e}"))?;
    if !out.status.success() {
        return Err(format!("{what} failed ({})", out.status));
    }
    String::from_utf8(out.stdout).map_err(|e| format!("{what}: {e}"))
}

pub fn diff(env: &Env, args: &[String]) -> Result<(), String> {
    let record = args.iter().any(|a| a == "--record");
    let chosen: Vec<&str> = args.iter().filter(|a| !a.starts_with("--")).map(String::as_str).collect();
    build(env)?;
    let out = dir(env);
    let answers = if record { env.root.join("tests/oracle/answers") } else { out.join("answers") };
    std::fs::create_dir_all(&answers).map_err(|e| e.to_string())?;
    let bin = out.join("oracle");
    // The answers name where they come from: the harness' modules and the API server's release.
    let version = format!(
        "{}; {}",
        captured("oracle version", &mut Command::new(&bin).arg("version"))?.trim(),
        captured("kube-apiserver --version", &mut Command::new(out.join("kube-apiserver")).arg("--version"))?.trim()
    );
    let list = captured("kubedv-diff list", &mut diff_tool(env, &["list"], &answers))?;
    // Suites by oracle mode: one oracle run answers every suite of a mode.
    let mut by_mode: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for line in list.lines() {
        let mut parts = line.split('\t');
        let (Some(name), Some(mode)) = (parts.next(), parts.next()) else { continue };
        if chosen.is_empty() || chosen.contains(&name) {
            by_mode.entry(mode.to_string()).or_default().push(name.to_string());
        }
    }
    for (mode, suites) in &by_mode {
        let mut input = String::new();
        for s in suites {
            let cases = captured(&format!("kubedv-diff cases {s}"), &mut diff_tool(env, &["cases", s], &answers))?;
            // The suite's name goes in front of each id, so one run can answer several suites.
            for line in cases.lines() {
                let mut v: serde_json::Value = serde_json::from_str(line).map_err(|e| e.to_string())?;
                v["id"] = format!("{s}\t{}", v["id"].as_str().unwrap_or_default()).into();
                input.push_str(&v.to_string());
                input.push('\n');
            }
        }
        let start = Instant::now();
        println!("==> oracle {mode}: {} ({} cases)", suites.join(", "), input.lines().count());
        let mut cmd = Command::new(&bin);
        cmd.arg(mode);
        if mode == "apiserver" {
            cmd.args(["--bin", &out.display().to_string(), "--log", &out.join("apiserver.log").display().to_string()]);
        }
        let mut child =
            cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().map_err(|e| format!("oracle {mode}: {e}"))?;
        let mut stdin = child.stdin.take().expect("piped stdin");
        let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
        let output = child.wait_with_output().map_err(|e| format!("oracle {mode}: {e}"))?;
        let _ = writer.join();
        if !output.status.success() {
            return Err(format!("oracle {mode} failed ({})", output.status));
        }
        println!("==> oracle {mode} answered in {:.0} s", start.elapsed().as_secs_f64());
        let mut per_suite: BTreeMap<&str, String> = BTreeMap::new();
        for line in String::from_utf8_lossy(&output.stdout).lines() {
            let mut v: serde_json::Value = serde_json::from_str(line).map_err(|e| e.to_string())?;
            let full = v["id"].as_str().unwrap_or_default().to_string();
            let (suite, id) = full.split_once('\t').ok_or("an answer without its suite")?;
            let suite = suites.iter().find(|s| *s == suite).ok_or("an answer of another suite")?;
            v["id"] = id.into();
            let text = per_suite.entry(suite.as_str()).or_default();
            text.push_str(&v.to_string());
            text.push('\n');
        }
        for (suite, text) in per_suite {
            let raw = out.join(format!("{suite}.oracle.jsonl"));
            std::fs::write(&raw, text).map_err(|e| e.to_string())?;
            let raw = raw.display().to_string();
            env.run(
                &format!("kubedv-diff record {suite}"),
                &mut diff_tool(env, &["record", suite, &raw, &version], &answers),
            )?;
        }
    }
    let mut compare = vec!["compare"];
    compare.extend(chosen.iter().copied());
    env.run("kubedv-diff compare", &mut diff_tool(env, &compare, &answers))
}
