//! A checkout of k8s.io/api as the source of built-in kinds: the packages an apiVersion names
//! (`apps/v1` → `DIR/apps/v1/types.go`), each with the k8s.io/api packages it imports.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::UsageError;

/// A k8s.io/api package a document needs: its group, source and the packages it imports.
pub(crate) struct Builtin {
    pub group: String,
    pub text: String,
    pub deps: Vec<(String, String, String)>,
}

/// The packages of a k8s.io/api checkout that the documents' apiVersions name (`apps/v1` →
/// `DIR/apps/v1/types.go`, its group read from the package's `+groupName` or `GroupName`),
/// each with the k8s.io/api packages it imports, transitively. Packages that do not compile are
/// left out with a warning: their kinds stay unchecked.
pub(crate) fn packages(dir: &Path, api_versions: &BTreeSet<String>, minor: u32) -> Result<Vec<Builtin>, UsageError> {
    if !dir.join("core/v1/types.go").is_file() {
        return Err(UsageError(format!(
            "--k8s-api {}: no core/v1/types.go there (expected a k8s.io/api checkout)",
            dir.display()
        )));
    }
    // Group → package directories, from each package's doc.go / register.go.
    let mut by_group: BTreeMap<(String, String), PathBuf> = BTreeMap::new();
    by_group.insert((String::new(), "v1".into()), dir.join("core/v1"));
    for group_dir in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        for version_dir in std::fs::read_dir(group_dir.path()).into_iter().flatten().flatten() {
            let path = version_dir.path();
            if !path.join("types.go").is_file() || path.ends_with("core/v1") {
                continue;
            }
            let text = ["doc.go", "register.go"]
                .iter()
                .filter_map(|f| std::fs::read_to_string(path.join(f)).ok())
                .collect::<String>();
            let group =
                text.lines().find_map(|l| l.trim().strip_prefix("// +groupName=").map(str::trim)).or_else(|| {
                    text.lines().find_map(|l| l.split("GroupName = \"").nth(1).and_then(|r| r.split('"').next()))
                });
            let version = path.file_name().and_then(|v| v.to_str()).unwrap_or("");
            if let Some(group) = group {
                by_group.insert((group.to_string(), version.to_string()), path.clone());
            }
        }
    }
    let mut wanted: Vec<(String, String)> = api_versions
        .iter()
        .map(|av| {
            let (g, v) = av.rsplit_once('/').unwrap_or(("", av));
            (g.to_string(), v.to_string())
        })
        .filter(|k| by_group.contains_key(k))
        .collect();
    wanted.sort();
    wanted.dedup();
    let mut out = Vec::new();
    for key in wanted {
        let path = &by_group[&key];
        let text = std::fs::read_to_string(path.join("types.go"))
            .map_err(|e| UsageError(format!("--k8s-api: cannot read {}: {e}", path.join("types.go").display())))?;
        // The k8s.io/api packages it imports, and theirs.
        let mut deps: Vec<(String, String, String)> = Vec::new();
        let mut queue: Vec<String> = imports_of(&text);
        while let Some(import) = queue.pop() {
            let Some(rel) = import.strip_prefix("k8s.io/api/") else { continue };
            if deps.iter().any(|d| d.0 == import) {
                continue;
            }
            let file = dir.join(rel).join("types.go");
            let Ok(dep) = std::fs::read_to_string(&file) else { continue };
            queue.extend(imports_of(&dep));
            deps.push((import, file.to_string_lossy().into_owned(), dep));
        }
        let package = Builtin { group: key.0, text, deps };
        let compiled =
            kubedv_core::declarative::Schema::compile_with(&package.text, &package.dependencies(), minor.max(33));
        if let Some(d) = compiled.diagnostics.iter().find(|d| d.is_error()) {
            eprintln!("kubedv: warning: {}/types.go does not compile ({d}); its kinds are not checked", path.display());
            continue;
        }
        out.push(package);
    }
    Ok(out)
}

fn imports_of(src: &str) -> Vec<String> {
    kubedv_core::golang::parse_file(src).0.imports.into_iter().map(|i| i.path).collect()
}

impl Builtin {
    /// The package's imports as compile dependencies.
    pub(crate) fn dependencies(&self) -> Vec<kubedv_core::declarative::Dependency<'_>> {
        crate::validate_cmd::as_dependencies(&self.deps)
    }
}
