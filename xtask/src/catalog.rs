//! `cargo xtask catalog [1.N...]`: writes `catalog/1.N.gz`, the built-in kinds catalog of each
//! supported Kubernetes version, from the Go module proxy: every package's `types.go` of
//! `k8s.io/api` at the release's newest patch, and the aggregator's `APIService`
//! (`k8s.io/kube-aggregator/pkg/apis/apiregistration/*`) of the same release, comment text
//! stripped ([`kubedv_core::builtin::strip`]), each with its API group.
//!
//! By hand only (it needs Go and the module proxy; CI has neither). It checks what it writes:
//! every package compiles with no error diagnostics, stripping changes nothing kubedv compiles,
//! and writing twice gives the same bytes.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use kubedv_core::builtin::{strip, Catalog};

use crate::env::Env;

/// The module version each Kubernetes version's catalog is read from: the newest patch
/// release of `k8s.io/api` and `k8s.io/kube-aggregator` (tagged together with Kubernetes).
const RELEASES: &[(u32, &str)] =
    &[(33, "v0.33.13"), (34, "v0.34.10"), (35, "v0.35.7"), (36, "v0.36.3"), (37, "v0.37.2")];

/// The aggregator's API packages, beside k8s.io/api's (the API server serves them itself).
const AGGREGATOR: &str = "pkg/apis/apiregistration";

pub fn run(env: &Env, args: &[String]) -> Result<(), String> {
    let wanted: Vec<u32> = args.iter().filter_map(|v| v.strip_prefix("1.")?.parse().ok()).collect();
    let out_dir = env.root.join("catalog");
    std::fs::create_dir_all(&out_dir).map_err(|e| format!("{}: {e}", out_dir.display()))?;
    for &(minor, version) in RELEASES.iter().filter(|r| wanted.is_empty() || wanted.contains(&r.0)) {
        let (text, raw) = generate(minor, version)?;
        let bytes = gzip(&text)?;
        if generate(minor, version)?.0 != text || gzip(&text)? != bytes {
            return Err(format!("1.{minor}: writing the catalog twice gave different bytes"));
        }
        verify(&text, &raw, minor)?;
        let file = out_dir.join(format!("1.{minor}.gz"));
        std::fs::write(&file, &bytes).map_err(|e| format!("{}: {e}", file.display()))?;
        println!("==> {}: {} B raw, {} B gz", file.display(), text.len(), bytes.len());
    }
    Ok(())
}

/// The directory of a module in the Go module cache, downloaded from the proxy if need be.
fn module_dir(module: &str, version: &str) -> Result<PathBuf, String> {
    let out = Command::new("go")
        .args(["mod", "download", "-json", &format!("{module}@{version}")])
        .output()
        .map_err(|e| format!("cannot run go: {e}"))?;
    let json: serde_json::Value = serde_json::from_slice(&out.stdout)
        .map_err(|e| format!("go mod download {module}@{version}: {e}: {}", String::from_utf8_lossy(&out.stderr)))?;
    match json["Dir"].as_str() {
        Some(dir) if out.status.success() => Ok(PathBuf::from(dir)),
        _ => Err(format!("go mod download {module}@{version}: {}", json["Error"].as_str().unwrap_or("failed"))),
    }
}

/// Every `types.go` under `dir`, as paths relative to it, sorted.
fn types_files(dir: &Path, at: &Path, out: &mut Vec<String>) -> Result<(), String> {
    let entries = std::fs::read_dir(at).map_err(|e| format!("{}: {e}", at.display()))?;
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            types_files(dir, &path, out)?;
        } else if path.file_name().is_some_and(|n| n == "types.go") {
            out.push(path.strip_prefix(dir).unwrap_or(&path).to_string_lossy().replace('\\', "/"));
        }
    }
    out.sort();
    Ok(())
}

/// A package's API group: its `+groupName` tag or `GroupName` constant (`""` for core/v1).
fn group_of(package_dir: &Path) -> Option<String> {
    let mut text = String::new();
    for f in ["doc.go", "register.go"] {
        text.push_str(&std::fs::read_to_string(package_dir.join(f)).unwrap_or_default());
    }
    kubedv_core::golang::group_name(&text).map(String::from)
}

/// The catalog text of one version, and the same catalog with the sources unstripped.
fn generate(minor: u32, version: &str) -> Result<(String, String), String> {
    let mut packages = Vec::new();
    for (module, under) in [("k8s.io/api", ""), ("k8s.io/kube-aggregator", AGGREGATOR)] {
        let root = module_dir(module, version)?;
        let mut files = Vec::new();
        types_files(&root, &root.join(under), &mut files)?;
        for types in files {
            let dir = types.trim_end_matches("/types.go");
            // The aggregator's internal (unversioned) types are not served.
            if module != "k8s.io/api" && dir == under {
                continue;
            }
            let source = std::fs::read_to_string(root.join(&types)).map_err(|e| format!("{types}: {e}"))?;
            let group = if module == "k8s.io/api" && dir == "core/v1" {
                String::new()
            } else {
                match group_of(&root.join(dir)) {
                    Some(g) => g,
                    None => {
                        println!("    {module}/{dir}: no API group (no +groupName, no GroupName): left out");
                        continue;
                    }
                }
            };
            packages.push((format!("{module}/{dir}"), group, source));
        }
    }
    let sources = [format!("k8s.io/api {version}"), format!("k8s.io/kube-aggregator {version}")];
    let raw = Catalog::write(&format!("1.{minor}"), &sources, &packages);
    for p in &mut packages {
        p.2 = strip(&p.2);
    }
    Ok((Catalog::write(&format!("1.{minor}"), &sources, &packages), raw))
}

/// Deterministic gzip (no name, no time), best compression.
pub(crate) fn gzip(text: &str) -> Result<Vec<u8>, String> {
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
