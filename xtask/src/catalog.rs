//! `cargo xtask catalog GITDIR [1.N...]`: writes `catalog/1.N.gz`, the built-in kinds catalog of
//! each supported Kubernetes version, from a k8s.io/api git repository (a clone, or the git
//! directory of a fetched snapshot): every package's `types.go` at the version's release tag,
//! comment text stripped ([`kubedv_core::builtin::strip`]), with its API group and the commit.
//!
//! By hand only (CI has no k8s.io/api). It checks what it writes: every package compiles with
//! no error diagnostics, stripping changes nothing kubedv compiles, and writing twice gives the
//! same bytes.

use std::io::Write;
use std::path::Path;
use std::process::Command;

use kubedv_core::builtin::{strip, Catalog};

use crate::env::Env;

/// The k8s.io/api revision each Kubernetes version's catalog is read from: the newest patch
/// release. 1.37: no v0.37.0 tag is in the snapshot, so the newest commit of master after the
/// code freeze (v0.37.0-beta.0), recorded as such in the catalog.
const RELEASES: &[(u32, &str, &str)] = &[
    (33, "v0.33.13", "v0.33.13"),
    (34, "v0.34.10", "v0.34.10"),
    (35, "v0.35.7", "v0.35.7"),
    (36, "v0.36.3", "v0.36.3"),
    (37, "10b39a39bcee995dfe7cd5e8e7b922be5e46f1e2", "master after v0.37.0-beta.0 (no v0.37.0 tag could be read)"),
];

pub fn run(env: &Env, args: &[String]) -> Result<(), String> {
    let Some(git_dir) = args.first() else {
        return Err("usage: cargo xtask catalog GITDIR [1.N...] (GITDIR: a k8s.io/api git directory)".into());
    };
    let wanted: Vec<u32> = args[1..].iter().filter_map(|v| v.strip_prefix("1.")?.parse().ok()).collect();
    let out_dir = env.root.join("catalog");
    std::fs::create_dir_all(&out_dir).map_err(|e| format!("{}: {e}", out_dir.display()))?;
    for &(minor, rev, what) in RELEASES.iter().filter(|r| wanted.is_empty() || wanted.contains(&r.0)) {
        let (text, raw) = generate(Path::new(git_dir), minor, rev, what)?;
        let bytes = gzip(&text)?;
        if generate(Path::new(git_dir), minor, rev, what)?.0 != text || gzip(&text)? != bytes {
            return Err(format!("1.{minor}: writing the catalog twice gave different bytes"));
        }
        verify(&text, &raw, minor)?;
        let file = out_dir.join(format!("1.{minor}.gz"));
        std::fs::write(&file, &bytes).map_err(|e| format!("{}: {e}", file.display()))?;
        println!("==> {}: {} B raw, {} B gz", file.display(), text.len(), bytes.len());
    }
    Ok(())
}

fn git(git_dir: &Path, args: &[&str]) -> Result<String, String> {
    let out = Command::new("git")
        .arg("--git-dir")
        .arg(git_dir)
        .args(args)
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if !out.status.success() {
        return Err(format!("git {}: {}", args.join(" "), String::from_utf8_lossy(&out.stderr).trim()));
    }
    String::from_utf8(out.stdout).map_err(|_| format!("git {}: not UTF-8", args.join(" ")))
}

/// The catalog text of one version, and the same catalog with the sources unstripped.
fn generate(git_dir: &Path, minor: u32, rev: &str, what: &str) -> Result<(String, String), String> {
    let commit = git(git_dir, &["rev-parse", &format!("{rev}^{{commit}}")])?.trim().to_string();
    let date = git(git_dir, &["log", "-1", "--format=%cs", &commit])?.trim().to_string();
    let files = git(git_dir, &["ls-tree", "-r", "--name-only", &commit])?;
    let mut packages = Vec::new();
    for types in files.lines().filter(|f| f.ends_with("/types.go")) {
        let dir = types.trim_end_matches("/types.go");
        let source = git(git_dir, &["show", &format!("{commit}:{types}")])?;
        let group = if dir == "core/v1" {
            String::new()
        } else {
            let mut text = String::new();
            for f in ["doc.go", "register.go"] {
                text.push_str(&git(git_dir, &["show", &format!("{commit}:{dir}/{f}")]).unwrap_or_default());
            }
            let tag = text.lines().find_map(|l| l.trim().strip_prefix("// +groupName=").map(str::trim));
            let constant =
                text.lines().find_map(|l| l.split("GroupName = \"").nth(1).and_then(|r| r.split('"').next()));
            match tag.or(constant) {
                Some(g) => g.to_string(),
                None => {
                    println!("    {dir}: no API group (no +groupName, no GroupName): left out");
                    continue;
                }
            }
        };
        packages.push((format!("k8s.io/api/{dir}"), group, source));
    }
    let sources = [format!("k8s.io/api {commit} {date} {what}")];
    let raw = Catalog::write(&format!("1.{minor}"), &sources, &packages);
    for p in &mut packages {
        p.2 = strip(&p.2);
    }
    Ok((Catalog::write(&format!("1.{minor}"), &sources, &packages), raw))
}

/// Deterministic gzip (no name, no time), best compression.
fn gzip(text: &str) -> Result<Vec<u8>, String> {
    let mut enc = flate2::GzBuilder::new().mtime(0).write(Vec::new(), flate2::Compression::best());
    enc.write_all(text.as_bytes()).map_err(|e| e.to_string())?;
    enc.finish().map_err(|e| e.to_string())
}

/// Every package compiles without error diagnostics for its version, and stripping changed
/// nothing kubedv compiles: each package gives the same schema from its real source (and its
/// dependencies' real sources), positions included.
fn verify(text: &str, raw: &str, minor: u32) -> Result<(), String> {
    let catalog = Catalog::parse(text)?;
    let real = Catalog::parse(raw)?;
    let mut failed = Vec::new();
    for (p, r) in catalog.packages.iter().zip(&real.packages) {
        let schema = catalog.compile(p, minor);
        if let Some(d) = schema.diagnostics.iter().find(|d| d.is_error()) {
            failed.push(format!("{}: {d}", p.import_path));
        }
        if format!("{schema:?}") != format!("{:?}", real.compile(r, minor)) {
            failed.push(format!("{}: stripping its comments changed what kubedv compiles", p.import_path));
        }
    }
    println!("    1.{minor}: {} packages, {} problems", catalog.packages.len(), failed.len());
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!("1.{minor}:\n{}", failed.join("\n")))
    }
}
