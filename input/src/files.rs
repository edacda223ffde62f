//! Manifest files on disk, as `kubedv check` reads a repository: paths walked recursively in a
//! stable order (hidden entries skipped, `.yaml`/`.yml`/`.json` files, each directory once so a
//! symlink loop ends), the files a kustomization lists as patches, and each file's documents
//! (kubedv-input's [`manifests`](crate::manifests)).

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::manifests::{self, Doc};

/// The manifest files under the paths, in a stable order; `-` is standard input.
pub fn collect(paths: &[String]) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut seen_dirs = HashSet::new();
    for p in paths {
        if p == "-" {
            out.push(p.clone());
            continue;
        }
        let meta = std::fs::metadata(p).map_err(|e| format!("cannot read {p}: {e}"))?;
        if meta.is_dir() {
            walk(Path::new(p), &mut out, &mut seen_dirs);
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}

fn walk(dir: &Path, out: &mut Vec<String>, seen: &mut HashSet<PathBuf>) {
    // A symlink loop comes back to a directory already seen.
    let Ok(real) = std::fs::canonicalize(dir) else { return };
    if !seen.insert(real) {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if name.starts_with('.') {
            continue;
        }
        if path.is_dir() {
            walk(&path, out, seen);
        } else if [".yaml", ".yml", ".json"].iter().any(|ext| name.ends_with(ext)) {
            out.push(path.to_string_lossy().into_owned());
        }
    }
}

/// Files a `kustomization.yaml` lists as patches (they are not resources), with the note saying
/// so; kustomization files themselves are noted too.
pub fn kustomize_patches(files: &[String]) -> HashMap<PathBuf, String> {
    let mut out = std::collections::HashMap::new();
    for f in files {
        let path = Path::new(f);
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if !manifests::is_kustomization(name) {
            continue;
        }
        let real = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        out.insert(real, String::from("a Kustomize kustomization, not a resource"));
        let Ok(text) = std::fs::read_to_string(path) else { continue };
        let dir = path.parent().unwrap_or(Path::new("."));
        let listed = manifests::kustomization_patches(&text);
        for p in listed {
            let file = dir.join(&p);
            let real = std::fs::canonicalize(&file).unwrap_or(file);
            out.insert(real, format!("a Kustomize patch (listed in {f}), not a resource"));
        }
    }
    out
}

/// The documents of one file (list items expanded), each parsed on its own so a broken one
/// does not hide the others.
pub fn read_docs(file: &str, notes: &HashMap<PathBuf, String>, stdin: Option<&str>) -> Vec<Doc> {
    let note =
        (file != "-").then(|| std::fs::canonicalize(file).ok()).flatten().and_then(|real| notes.get(&real).cloned());
    let name: Arc<str> = Arc::from(file);
    let bytes = if file == "-" {
        stdin.unwrap_or_default().as_bytes().to_vec()
    } else {
        match std::fs::read(file) {
            Ok(b) => b,
            Err(e) => return vec![Doc::unreadable_file(name, format!("cannot read the file: {e}"))],
        }
    };
    manifests::read_bytes(name, &bytes, note)
}
