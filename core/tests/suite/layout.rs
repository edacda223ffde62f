//! The crate's layering (docs/architecture.md, "The layers"): imports between the top-level
//! modules of `core/src` run one way, and the YAML reader of `input/` imports nothing of core
//! but `field`. Read from the sources: every `crate::NAME` outside comments and `#[cfg(test)]`
//! modules is an edge.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The `.rs` files under `dir` (or the file itself).
fn sources(path: &Path, out: &mut Vec<std::path::PathBuf>) {
    if path.is_dir() {
        for entry in std::fs::read_dir(path).expect("readable source directory") {
            sources(&entry.expect("directory entry").path(), out);
        }
    } else if path.extension().is_some_and(|e| e == "rs") {
        out.push(path.to_path_buf());
    }
}

/// The names following `prefix` (`crate::`) in a file's code: comments and test modules left out.
fn references(text: &str, prefix: &str) -> BTreeSet<String> {
    let code = text.split("#[cfg(test)]\nmod tests").next().unwrap_or(text);
    let mut out = BTreeSet::new();
    for line in code.lines().filter(|l| !l.trim_start().starts_with("//")) {
        for (i, _) in line.match_indices(prefix) {
            let name: String =
                line[i + prefix.len()..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            out.insert(name);
        }
    }
    out
}

#[test]
fn no_import_circle_among_core_modules() {
    let src = Path::new("src");
    let mut modules: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for entry in std::fs::read_dir(src).expect("core/src") {
        let path = entry.expect("directory entry").path();
        let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or("").to_string();
        if name != "lib" {
            modules.insert(name, BTreeSet::new());
        }
    }
    let names: BTreeSet<String> = modules.keys().cloned().collect();
    for (name, imports) in modules.iter_mut() {
        let mut files = Vec::new();
        let dir = src.join(name);
        sources(&if dir.is_dir() { dir } else { src.join(format!("{name}.rs")) }, &mut files);
        for file in files {
            let text = std::fs::read_to_string(&file).expect("source file");
            imports.extend(references(&text, "crate::").into_iter().filter(|m| m != name && names.contains(m)));
        }
    }
    // Depth-first search for a path back to where it started.
    fn circle(from: &str, at: &str, modules: &BTreeMap<String, BTreeSet<String>>, path: &mut Vec<String>) -> bool {
        for next in &modules[at] {
            if next == from {
                return true;
            }
            if !path.contains(next) {
                path.push(next.clone());
                if circle(from, next, modules, path) {
                    return true;
                }
                path.pop();
            }
        }
        false
    }
    for name in modules.keys() {
        let mut path = vec![name.clone()];
        assert!(!circle(name, name, &modules, &mut path), "an import circle: {} → {name}", path.join(" → "));
    }
    // The engines are above what they share: nothing shared imports an engine.
    for shared in ["field", "diag", "release", "quantity", "sort", "content", "golang"] {
        let engines: Vec<&String> = modules[shared]
            .iter()
            .filter(|m| ["apis", "cel", "check", "crd", "declarative", "policy"].contains(&m.as_str()))
            .collect();
        assert!(engines.is_empty(), "{shared} imports the engines {engines:?}");
    }
}

#[test]
fn the_yaml_reader_imports_only_field() {
    let mut files = Vec::new();
    sources(Path::new("../input/src/yaml"), &mut files);
    assert!(!files.is_empty());
    for file in files {
        let text = std::fs::read_to_string(&file).expect("source file");
        let used = references(&text, "kubedv_core::");
        assert!(used.iter().all(|m| m == "field"), "{} imports kubedv_core::{used:?}", file.display());
    }
}
