//! `check_files`, the in-memory `kubedv check` the npm package and the playground use, gives the
//! CLI's verdicts: the CLI's repository fixture checked from memory yields the document the CLI
//! prints for it (`cli/tests/fixtures/repo-expected/check.json`), positions included.

use std::io::Read;

use kubedv_input::manifests::{check_files, File, Options, Types};

const ROOT: &str = "../cli/";

fn read(path: &str) -> String {
    std::fs::read_to_string(format!("{ROOT}{path}")).unwrap()
}

fn catalog(minor: u32) -> String {
    let gz = std::fs::read(format!("../catalog/1.{minor}.gz")).unwrap();
    let mut text = String::new();
    flate2::read::GzDecoder::new(&gz[..]).read_to_string(&mut text).unwrap();
    text
}

fn options(catalog: Option<&str>) -> Options<'_> {
    Options {
        minor: 37,
        strict: false,
        field_validation: Default::default(),
        crds: Vec::new(),
        types: Vec::new(),
        old: Vec::new(),
        catalog,
        crd_catalog: None,
    }
}

/// The repository's files in the order `kubedv check` walks them (sorted, `.go` not a manifest).
const FILES: [&str; 6] = [
    "tests/fixtures/repo/base/gizmos.json",
    "tests/fixtures/repo/base/legacy.yaml",
    "tests/fixtures/repo/base/widgets.yaml",
    "tests/fixtures/repo/crds/widget.yaml",
    "tests/fixtures/repo/overlays/prod/bigger.yaml",
    "tests/fixtures/repo/overlays/prod/kustomization.yaml",
];

#[test]
fn the_cli_repository_fixture_from_memory_gives_the_cli_report() {
    let texts: Vec<String> = FILES.iter().map(|f| read(f)).collect();
    let files: Vec<File<'_>> = FILES.iter().zip(&texts).map(|(path, text)| File { path, text }).collect();
    let crd = read("tests/fixtures/repo/crds/widget.yaml");
    let types = read("tests/fixtures/repo/types/gizmo_types.go");
    let catalog = catalog(37);
    let mut options = options(Some(&catalog));
    options.crds = vec![File { path: "tests/fixtures/repo/crds/widget.yaml", text: &crd }];
    options.types = vec![Types { source: &types, imports: Vec::new() }];
    let outcome = check_files(&files, &options).unwrap();
    let got = serde_json::to_value(&outcome).unwrap();
    let expected: serde_json::Value = serde_json::from_str(&read("tests/fixtures/repo-expected/check.json")).unwrap();
    assert_eq!(got, expected);
}

/// A kustomization's patch is matched by its path relative to the kustomization (`./`, `..`).
#[test]
fn kustomize_patches_are_found_by_relative_path() {
    let patch = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 3\n";
    let kustomization = "resources: [../base]\npatches:\n- path: ./patches/../replicas.yaml\n";
    let files = [
        File { path: "app/overlay/kustomization.yaml", text: kustomization },
        File { path: "app/overlay/replicas.yaml", text: patch },
    ];
    let outcome = check_files(&files, &options(None)).unwrap();
    let why: Vec<_> = outcome.documents.iter().map(|d| (d.status, d.why.clone().unwrap_or_default())).collect();
    assert_eq!(
        why,
        [
            ("skipped", String::from("a Kustomize kustomization, not a resource")),
            ("skipped", String::from("a Kustomize patch (listed in app/overlay/kustomization.yaml), not a resource")),
        ]
    );
}

/// One broken document among several does not hide the others; a binary file is named as one.
#[test]
fn bad_documents_are_positioned_and_the_rest_checked() {
    let stream = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---\nkind: [\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: Bad_Name\n";
    let files = [File { path: "s.yaml", text: stream }, File { path: "b.yaml", text: "\0\u{1}" }];
    let catalog = catalog(37);
    let outcome = check_files(&files, &options(Some(&catalog))).unwrap();
    let rows: Vec<_> = outcome.documents.iter().map(|d| (&*d.file, d.index, d.status)).collect();
    assert_eq!(
        rows,
        [("s.yaml", 0, "valid"), ("s.yaml", 1, "unreadable"), ("s.yaml", 2, "invalid"), ("b.yaml", 0, "unreadable")]
    );
    assert_eq!(outcome.documents[1].at.0, 7, "{:?}", outcome.documents[1].why);
    let bad = &outcome.documents[2].errors[0];
    assert_eq!((bad.line, bad.column), (11, 3));
    assert!(bad.error.text().starts_with("metadata.name: Invalid value: \"Bad_Name\": "), "{}", bad.error.text());
    assert_eq!(outcome.documents[3].why.as_deref(), Some("a binary file, not YAML or JSON"));
}

/// Update checks pair documents with the old revision by identity (as the CLI's
/// `updates_against_an_old_git_revision`): a transition rule's failure is an update error only.
#[test]
fn old_revisions_give_update_errors() {
    let crd = read("tests/fixtures/repo/crds/widget.yaml");
    let widget = |size: u32| {
        format!("apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  size: {size}\n  max: 5\n")
    };
    let (new, old) = (widget(3), widget(2));
    let files = [File { path: "w.yaml", text: &new }];
    let mut opts = options(None);
    opts.crds = vec![File { path: "crds/widget.yaml", text: &crd }];
    let create = check_files(&files, &opts).unwrap();
    assert_eq!(create.documents[0].status, "valid");
    opts.old = vec![File { path: "w.yaml", text: &old }];
    let update = check_files(&files, &opts).unwrap();
    let d = &update.documents[0];
    let rows: Vec<_> = d.update_errors.iter().map(|e| (e.line, e.column, e.error.text())).collect();
    assert_eq!(rows, [(5, 1, String::from("spec: Invalid value: size is immutable"))]);
    assert!(d.errors.is_empty());
}
