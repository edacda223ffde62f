//! Manifests: mutated YAML/JSON streams through the reader, the position locator and `check`;
//! catalogs written and read back; manifest trees on disk (symlinks, binary files, kustomizations).

use super::*;

/// Manifest streams to mutate for the YAML reader, the position locator and `check`.
pub(crate) const MANIFESTS: &[&str] = &[
    include_str!("../../../cli/tests/fixtures/repo/base/widgets.yaml"),
    include_str!("../../../cli/tests/fixtures/repo/base/legacy.yaml"),
    include_str!("../../../cli/tests/fixtures/repo/base/gizmos.json"),
    include_str!("../../../cli/tests/fixtures/repo/crds/widget.yaml"),
    include_str!("../../../cli/tests/fixtures/builtin/apps.yaml"),
    include_str!("../../../cli/tests/fixtures/builtin/other.yaml"),
];

/// The built-in kinds the manifest rounds route to the 1.37 catalog.
pub(crate) const BUILTIN_API_VERSIONS: &[&str] = &["v1", "apps/v1", "policy/v1", "resource.k8s.io/v1", "batch/v1"];

/// The 1.37 catalog's text (the CLI embeds the same file).
pub(crate) fn catalog_text() -> String {
    use std::io::Read;
    let mut text = String::new();
    flate2::read::GzDecoder::new(&include_bytes!("../../../catalog/1.37.gz")[..])
        .read_to_string(&mut text)
        .expect("the 1.37 catalog decompresses");
    text
}

/// A mutated catalog: read (never a panic), and the packages of one that still reads compiled.
/// Property: a catalog written from what was read reads back the same.
pub(crate) fn catalog_round(rng: &mut Rng, small: &str) -> Result<usize, String> {
    let text = mutate_with(rng, small, CATALOG_TOKENS);
    let Ok(catalog) = Catalog::parse(&text) else { return Ok(0) };
    let packages: Vec<(String, String, String)> = catalog
        .packages
        .iter()
        .map(|p| (p.import_path.to_string(), p.group.to_string(), p.source.to_string()))
        .collect();
    let sources: Vec<String> = catalog.sources.iter().map(|s| s.to_string()).collect();
    let written = Catalog::write(catalog.kubernetes, &sources, &packages);
    let again = Catalog::parse(&written).map_err(|e| format!("a written catalog does not read: {e}"))?;
    if again.packages.len() != catalog.packages.len() || again.kubernetes != catalog.kubernetes {
        return Err(format!("writing and reading changed the catalog:\n{text}"));
    }
    for p in catalog.packages.iter().take(2) {
        let _ = catalog.compile(p, 37);
    }
    Ok(catalog.packages.len())
}

pub(crate) const CATALOG_TOKENS: &[&str] = &[
    "package ",
    "kubedv-catalog 1\n",
    "kubernetes 1.37\n",
    "source x\n",
    " - ",
    " 0\n",
    " 99999999999999999999\n",
    "\n",
    "k8s.io/api/core/v1",
    "import corev1 \"k8s.io/api/core/v1\"\n",
    "é",
    "// +k8s:required\n",
];

pub(crate) const YAML_TOKENS: &[&str] = &[
    "---\n",
    "...\n",
    "\n",
    "\r\n",
    "\t",
    "  ",
    "- ",
    ": ",
    "&a ",
    "*a",
    "!!str ",
    "!!binary ",
    "? ",
    "[",
    "]",
    "{",
    "}",
    ",",
    "\"",
    "'",
    "#",
    "|\n",
    ">-\n",
    "\u{feff}",
    "\\",
    "%YAML 1.2\n",
    "<<: *a\n",
    "null",
    "~",
    "9223372036854775808",
    "1e999",
    "-0",
    ".nan",
    "items:\n",
    "kind: List\n",
    "apiVersion: v1\n",
    "kind: Widget\n",
    "kind: Deployment\n",
    "apiVersion: apps/v1\n",
    "replicas: \"3\"\n",
    "containerPort: 1.5\n",
    "finalizers: [a]\n",
    "name: a/b\n",
    "x",
];

/// A mutated manifest stream: split, read, located and checked. Properties beyond "no panic":
/// every position is inside its document, and checking is deterministic.
pub(crate) fn yaml_round(rng: &mut Rng, checker: &Checker) -> Result<(), String> {
    let base = MANIFESTS[rng.below(MANIFESTS.len())];
    let mut text = mutate_with(rng, base, YAML_TOKENS);
    if rng.below(100) == 0 {
        text.push_str(&"x".repeat(1 + rng.below(200_000)));
    }
    for piece in positions::split(&text) {
        let lines = piece.text.lines().count() + 1;
        let Ok(doc) = kubedv_input::document(piece.text) else { continue };
        let at = Positions::of(piece.text);
        for path in ["", "<nil>", "spec", "spec.size", "metadata.name", "items[0].spec", "spec.ports[1].name", "a[b.c]"]
        {
            if let Some((line, column)) = at.locate(path) {
                if line == 0 || line > lines || column == 0 {
                    return Err(format!(
                        "{path:?} located at {line}:{column} in a document of {lines} lines:\n{}",
                        piece.text
                    ));
                }
            }
        }
        let first = checker.check(&doc, Some(&doc));
        let again = checker.check(&doc, Some(&doc));
        let texts = |r: &kubedv_core::check::Report| {
            let undecodable = r.undecodable.iter().map(|u| format!("{}: {}", u.field, u.message));
            r.errors.iter().map(|e| e.text()).chain(undecodable).collect::<Vec<_>>()
        };
        if texts(&first) != texts(&again) {
            return Err(format!("checking twice differs:\n{}", piece.text));
        }
    }
    // The in-memory `kubedv check` (npm's checkManifests, the playground's Manifests view):
    // every position inside the file, the same JSON twice.
    let files = [manifests::File { path: "f.yaml", text: &text }];
    let options = manifests::Options {
        minor: 37,
        strict: false,
        field_validation: Default::default(),
        crds: Vec::new(),
        types: Vec::new(),
        old: Vec::new(),
        catalog: None,
        crd_catalog: None,
    };
    let run = || manifests::check_files(&files, &options).map(|o| serde_json::to_string(&o).unwrap_or_default());
    let (once, twice) = (run(), run());
    if once.as_ref().ok() != twice.as_ref().ok() {
        return Err(format!("check_files twice differs:\n{text}"));
    }
    if let Ok(outcome) = manifests::check_files(&files, &options) {
        let lines = yaml_lines(&text);
        if let Some((l, c)) = outcome.documents.iter().find_map(|d| outside(d, lines)) {
            return Err(format!("check_files located a problem at {l}:{c} in a file of {lines} lines:\n{text}"));
        }
    }
    Ok(())
}

/// A text's lines as YAML counts them: it breaks at CR LF, LF and a lone CR (editors too).
pub(crate) fn yaml_lines(text: &str) -> usize {
    text.replace("\r\n", "\n").matches(['\n', '\r']).count() + 1
}

/// A position a checked document reports outside its file of `lines` lines (or at column 0).
pub(crate) fn outside(d: &manifests::Checked, lines: usize) -> Option<(usize, usize)> {
    let mut at = vec![d.at, (d.line, 1)];
    at.extend(d.errors.iter().chain(&d.update_errors).map(|e| (e.line, e.column)));
    at.extend(d.warnings.iter().map(|w| (w.line, w.column)));
    at.into_iter().find(|(l, c)| *l == 0 || *l > lines || *c == 0)
}

/// A manifest tree on disk, as `kubedv check DIR` walks it: nested directories, mutated
/// manifests, binary and non-UTF-8 files, kustomizations listing patches (some missing, some
/// outside), hidden entries and symlinks (loops back to an ancestor, to files, dangling).
/// Properties beyond "no panic": the walk ends, reading a file twice gives the same documents,
/// and every position a checked document reports is inside its file.
#[cfg(unix)]
pub(crate) fn tree_round(rng: &mut Rng, checker: &Checker, root: &Path) -> Result<usize, String> {
    use kubedv_input::files;
    let _ = std::fs::remove_dir_all(root);
    std::fs::create_dir_all(root).map_err(|e| format!("{}: {e}", root.display()))?;
    let mut dirs = vec![root.to_path_buf()];
    let mut made: Vec<PathBuf> = Vec::new();
    for i in 0..1 + rng.below(14) {
        let dir = dirs[rng.below(dirs.len())].clone();
        let hidden = if rng.below(10) == 0 { "." } else { "" };
        let file = |ext: &str| dir.join(format!("{hidden}f{i}{ext}"));
        let written = match rng.below(10) {
            0 => {
                let d = dir.join(format!("{hidden}d{i}"));
                let _ = std::fs::create_dir(&d);
                dirs.push(d);
                continue;
            }
            1 => {
                let bytes: Vec<u8> = (0..rng.below(64)).map(|_| rng.below(256) as u8).chain([0]).collect();
                (file(".yaml"), bytes)
            }
            2 => (file(".yml"), vec![0xff, 0xfe, b'k', b':', b' ', 0xc3]),
            3 => {
                let names = ["f0.yaml", "../f1.yaml", "./d2/../f3.yaml", "missing.yaml", "/etc/passwd", "f4.json"];
                let listed: Vec<String> =
                    (0..1 + rng.below(3)).map(|_| format!("- {}", names[rng.below(names.len())])).collect();
                (
                    dir.join("kustomization.yaml"),
                    format!("resources: [.]\npatches:\n{}\n", listed.join("\n")).into_bytes(),
                )
            }
            4 => {
                let target = &dirs[rng.below(dirs.len())];
                let _ = std::os::unix::fs::symlink(target, dir.join(format!("l{i}")));
                continue;
            }
            5 => {
                let _ = std::os::unix::fs::symlink(dir.join("nowhere.yaml"), file(".yaml"));
                continue;
            }
            6 if !made.is_empty() => {
                let _ = std::os::unix::fs::symlink(&made[rng.below(made.len())], file(".json"));
                continue;
            }
            _ => {
                let base = MANIFESTS[rng.below(MANIFESTS.len())];
                let text = mutate_with(rng, base, YAML_TOKENS);
                (file(if rng.below(4) == 0 { ".json" } else { ".yaml" }), text.into_bytes())
            }
        };
        let _ = std::fs::write(&written.0, &written.1);
        made.push(written.0);
    }
    let found = files::collect(&[root.display().to_string()])?;
    let notes = files::kustomize_patches(&found);
    let mut documents = 0;
    for f in &found {
        let read = files::read_docs(f, &notes, None);
        let again = files::read_docs(f, &notes, None);
        let summary = |docs: &[manifests::Doc]| -> Vec<String> {
            docs.iter()
                .map(|d| format!("{}:{}:{:?}", d.index, d.line, d.value.as_ref().map_err(|e| &e.message)))
                .collect()
        };
        if summary(&read) != summary(&again) {
            return Err(format!("{f}: reading twice differs"));
        }
        let lines = yaml_lines(&String::from_utf8_lossy(&std::fs::read(f).unwrap_or_default()));
        for d in &read {
            let c = manifests::check_one(d, Some(checker), &std::collections::BTreeMap::new());
            if let Some((l, col)) = outside(&c, lines) {
                return Err(format!("{f}: a problem located at {l}:{col} in a file of {lines} lines"));
            }
        }
        documents += read.len();
    }
    Ok(documents)
}
