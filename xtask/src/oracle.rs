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
    build_for(env, &["apiserver"])
}

/// Builds what the oracle's MODES need: the harness always, validation-gen for `declarative`,
/// kube-apiserver and etcd for `apiserver` (the longest builds: `yaml` and `cel` need neither).
pub fn build_for(env: &Env, modes: &[&str]) -> Result<(), String> {
    let server = modes.contains(&"apiserver");
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
    let mut packages = vec!["./cmd/oracle"];
    if server || modes.contains(&"declarative") {
        packages.push("k8s.io/code-generator/cmd/validation-gen");
    }
    if server {
        packages.push("k8s.io/kubernetes/cmd/kube-apiserver");
    }
    env.run(
        &format!("go build {} (tests/oracle)", packages.join(" ")),
        go(env).args(["build", "-trimpath", "-ldflags", &ldflags, "-o", &dest]).args(&packages),
    )?;
    if server {
        let etcd = out.join("etcd").display().to_string();
        env.run(
            "go build etcd (tests/oracle)",
            go(env).args(["build", "-trimpath", "-o", &etcd, "go.etcd.io/etcd/server/v3"]),
        )?;
    }
    println!("==> the oracle is built in {:.0} s: {}", start.elapsed().as_secs_f64(), out.display());
    Ok(())
}

/// `oracle MODE` with what the mode needs: the binaries' directory (the API server's output
/// goes to `target/oracle/apiserver.log`), and the module the declarative mode generates in.
pub(crate) fn oracle_command(env: &Env, mode: &str) -> Command {
    let out = dir(env);
    let mut cmd = Command::new(out.join("oracle"));
    cmd.arg(mode);
    match mode {
        "apiserver" => {
            cmd.args(["--bin", &out.display().to_string(), "--log", &out.join("apiserver.log").display().to_string()]);
        }
        "declarative" => {
            cmd.args([
                "--bin",
                &out.display().to_string(),
                "--module",
                &env.root.join("tests/oracle").display().to_string(),
            ]);
        }
        _ => {}
    }
    cmd
}

fn diff_tool(env: &Env, args: &[&str], answers: &Path) -> Command {
    let mut cmd = env.command("cargo");
    cmd.args(["run", "--quiet", "--release", "-p", "kubedv-diff", "--"]).args(args).env("KUBEDV_DIFF_ANSWERS", answers);
    cmd
}

pub(crate) fn captured(what: &str, cmd: &mut Command) -> Result<String, String> {
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
        captured("oracle version", Command::new(&bin).arg("version"))?.trim(),
        captured("kube-apiserver --version", Command::new(out.join("kube-apiserver")).arg("--version"))?.trim()
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
        let mut cmd = oracle_command(env, mode);
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

/// `cargo xtask ask FILE...`: the API server's answer to the built-in objects of manifest files
/// (each document created with a server-side dry run, as the `builtin` suite makes its
/// requests: `X-update.yaml` updates the objects of `X.old`), beside kubedv's; prints every
/// difference and a count. For porting a kind: nothing is recorded.
pub fn ask(env: &Env, args: &[String]) -> Result<(), String> {
    if args.is_empty() {
        return Err("usage: cargo xtask ask FILE... (manifest files or directories)".into());
    }
    build(env)?;
    let work = dir(env).join(format!("ask-{}", std::process::id()));
    std::fs::create_dir_all(&work).map_err(|e| e.to_string())?;
    let files: Vec<String> = args
        .iter()
        .map(|a| std::fs::canonicalize(a).map(|p| p.display().to_string()).map_err(|e| format!("{a}: {e}")))
        .collect::<Result<_, _>>()?;
    let mut cases_of = vec!["cases-of"];
    cases_of.extend(files.iter().map(String::as_str));
    let cases = captured("kubedv-diff cases-of", &mut diff_tool(env, &cases_of, &work))?;
    let (case_file, answer_file) = (work.join("cases.jsonl"), work.join("answers.jsonl"));
    std::fs::write(&case_file, &cases).map_err(|e| e.to_string())?;
    let mut cmd = Command::new(dir(env).join("oracle"));
    cmd.args([
        "apiserver",
        "--bin",
        &dir(env).display().to_string(),
        "--log",
        &work.join("apiserver.log").display().to_string(),
    ]);
    let input = std::fs::File::open(&case_file).map_err(|e| e.to_string())?;
    let answers = captured("oracle apiserver", cmd.stdin(input))?;
    std::fs::write(&answer_file, &answers).map_err(|e| e.to_string())?;
    let (c, a) = (case_file.display().to_string(), answer_file.display().to_string());
    let judged = captured("kubedv-diff judge", &mut diff_tool(env, &["judge", "apiserver", &c, &a], &work))?;
    for line in judged.lines() {
        let row: serde_json::Value = serde_json::from_str(line).map_err(|e| e.to_string())?;
        println!(
            "--- {} ({})",
            row["case"]["id"].as_str().unwrap_or_default(),
            row["item"].as_str().unwrap_or_default()
        );
        println!("kubedv: {}", serde_json::to_string_pretty(&row["kubedv"]).unwrap_or_default());
        println!("oracle: {}", serde_json::to_string_pretty(&row["oracle"]).unwrap_or_default());
    }
    println!(
        "==> ask: {} requests, {} differ (cases and answers in {})",
        cases.lines().count(),
        judged.lines().count(),
        work.display()
    );
    Ok(())
}

/// A differential path's oracle mode, how its answers are judged (`kubedv-diff judge`), and
/// how many cases go to the oracle at once.
pub fn path_mode(path: &str) -> Result<(&'static str, &'static str, usize), String> {
    Ok(match path {
        "yaml" => ("yaml", "yaml", 500),
        "crd" => ("apiserver", "apiserver", 80),
        "go" => ("declarative", "declarative", 60),
        "cel" => ("cel", "cel", 400),
        "policy" => ("apiserver", "policy", 20),
        p if p == "builtin" || p.starts_with("builtin-") => ("apiserver", "apiserver", 150),
        other => {
            return Err(format!(
                "no differential path {other:?} (yaml, crd, go, cel, policy, builtin, builtin-ROOM: one API group's room of kubedv_core::apis, e.g. builtin-networking)"
            ))
        }
    })
}

/// `cargo xtask fuzz-diff [SECONDS] [PATH...] [--keep]`: the differential fuzzer. For each path
/// (`yaml`, `crd`, `go`, `cel`, `policy`, `builtin`, `builtin-ROOM`; the first three by default) for SECONDS (default 600), batches of the structured
/// generators' inputs (`kubedv-fuzz cases`) go to the oracle and to kubedv (`kubedv-diff
/// judge`); every difference is written to `target/oracle/fuzz-diff/PATH.found.jsonl` with both
/// answers, and with `--keep` its case is added to `tests/oracle/fuzz/PATH.jsonl` (the
/// `fuzz-PATH` suite; record it with `cargo xtask diff --record fuzz-PATH`).
pub fn fuzz_diff(env: &Env, args: &[String]) -> Result<(), String> {
    let keep = args.iter().any(|a| a == "--keep");
    let mut rest = args.iter().filter(|a| !a.starts_with("--"));
    let first = rest.next();
    let seconds: u64 = first.and_then(|s| s.parse().ok()).unwrap_or(600);
    let mut paths: Vec<&str> =
        first.filter(|s| s.parse::<u64>().is_err()).into_iter().chain(rest).map(String::as_str).collect();
    if paths.is_empty() {
        paths = vec!["yaml", "crd", "go"];
    }
    let modes = paths.iter().map(|p| path_mode(p).map(|m| m.0)).collect::<Result<Vec<_>, _>>()?;
    build_for(env, &modes)?;
    env.run(
        "cargo build kubedv-fuzz",
        env.command("cargo").args(["build", "--quiet", "--profile", "fuzz", "-p", "kubedv-fuzz"]),
    )?;
    env.run(
        "cargo build kubedv-diff",
        env.command("cargo").args(["build", "--quiet", "--release", "-p", "kubedv-diff"]),
    )?;
    let out = dir(env);
    let work = out.join("fuzz-diff");
    std::fs::create_dir_all(&work).map_err(|e| e.to_string())?;
    let fuzz = env.root.join("target/fuzz/kubedv-fuzz");
    let judge = env.root.join("target/release/kubedv-diff");
    for path in paths {
        let (mode, judged_as, batch) = path_mode(path)?;
        let start = Instant::now();
        let (mut cases, mut found) = (0usize, 0usize);
        // Cases and differences by the request object's kind (the builtin paths' counts).
        let mut by_kind: std::collections::BTreeMap<String, (usize, usize)> = Default::default();
        let kind_of = |line: &str| -> String {
            let v: serde_json::Value = serde_json::from_str(line).unwrap_or_default();
            let case = if v.get("case").is_some() { &v["case"] } else { &v };
            case["object"]["kind"].as_str().unwrap_or("-").to_string()
        };
        let found_file = work.join(format!("{path}.found.jsonl"));
        while start.elapsed().as_secs() < seconds {
            let seed =
                std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64);
            let text = captured(
                "kubedv-fuzz cases",
                Command::new(&fuzz).args(["cases", path, &batch.to_string(), &seed.to_string()]),
            )?;
            let case_file = work.join(format!("{path}-{seed}.cases.jsonl"));
            std::fs::write(&case_file, &text).map_err(|e| e.to_string())?;
            let mut cmd = oracle_command(env, mode);
            let answers = captured(
                &format!("oracle {mode}"),
                cmd.stdin(std::fs::File::open(&case_file).map_err(|e| e.to_string())?),
            )?;
            let answer_file = work.join(format!("{path}-{seed}.answers.jsonl"));
            std::fs::write(&answer_file, answers).map_err(|e| e.to_string())?;
            let differ = captured(
                "kubedv-diff judge",
                Command::new(&judge).args(["judge", judged_as]).arg(&case_file).arg(&answer_file),
            )?;
            cases += text.lines().count();
            for line in text.lines() {
                by_kind.entry(kind_of(line)).or_default().0 += 1;
            }
            for line in differ.lines() {
                by_kind.entry(kind_of(line)).or_default().1 += 1;
            }
            let mut f =
                std::fs::OpenOptions::new().create(true).append(true).open(&found_file).map_err(|e| e.to_string())?;
            for line in differ.lines() {
                found += 1;
                let _ = writeln!(f, "{line}");
                if keep {
                    let row: serde_json::Value = serde_json::from_str(line).map_err(|e| e.to_string())?;
                    // One group's finds are kept with the path's (`builtin-apps` → `builtin`).
                    let kept_as = path.split('-').next().unwrap_or(path);
                    let kept = env.root.join(format!("tests/oracle/fuzz/{kept_as}.jsonl"));
                    std::fs::create_dir_all(kept.parent().unwrap()).map_err(|e| e.to_string())?;
                    let mut k =
                        std::fs::OpenOptions::new().create(true).append(true).open(&kept).map_err(|e| e.to_string())?;
                    let _ = writeln!(k, "{}", row["case"]);
                }
            }
            let _ = std::fs::remove_file(&case_file);
            let _ = std::fs::remove_file(&answer_file);
            println!("==> fuzz-diff {path}: {cases} cases in {:.0} s, {found} differ", start.elapsed().as_secs_f64());
        }
        println!("==> fuzz-diff {path}: {cases} cases, {found} differ ({})", found_file.display());
        if path.starts_with("builtin") {
            let rows: Vec<String> = by_kind.iter().map(|(k, (n, d))| format!("{k} {n} ({d} differ)")).collect();
            println!("==> fuzz-diff {path} by kind: {}", rows.join(", "));
        }
    }
    Ok(())
}
