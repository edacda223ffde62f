//! The GitHub Action (`action.yml` → `scripts/action-check.sh`) and the pre-commit hook
//! (`.pre-commit-hooks.yaml`), run locally as their hosts would run them: the action's check step
//! with INPUT_* variables and kubedv on the PATH, the hook's `entry` with the staged file names.

use std::path::{Path, PathBuf};
use std::process::Command;

fn kubedv_dir() -> PathBuf {
    assert_cmd::cargo::cargo_bin("kubedv").parent().unwrap().to_path_buf()
}

fn path_with_kubedv() -> String {
    format!("{}:{}", kubedv_dir().display(), std::env::var("PATH").unwrap_or_default())
}

#[test]
fn the_action_check_step_annotates_and_writes_sarif() {
    let action = std::fs::read_to_string("../action.yml").unwrap();
    assert!(action.contains("run: bash \"$GITHUB_ACTION_PATH/scripts/action-check.sh\""));
    let sarif = std::env::temp_dir().join(format!("kubedv-action-{}.sarif", std::process::id()));
    let out = Command::new("bash")
        .arg("../scripts/action-check.sh")
        .env("PATH", path_with_kubedv())
        .env("INPUT_PATHS", "tests/fixtures/repo/base/widgets.yaml")
        .env("INPUT_CRDS", "tests/fixtures/repo/crds")
        .env("INPUT_K8S_VERSION", "1.37")
        .env("INPUT_FORMAT", "github")
        .env("INPUT_SARIF", &sarif)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("::error file=tests/fixtures/repo/base/widgets.yaml,line=16,col=1,title=Widget/too-big::spec: Invalid value: size must not exceed max\n"),
        "{stdout}"
    );
    let doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&sarif).unwrap()).unwrap();
    assert_eq!(doc["version"], "2.1.0");
    assert!(!doc["runs"][0]["results"].as_array().unwrap().is_empty());
}

#[test]
fn the_pre_commit_hook_entry_checks_the_staged_files() {
    let hooks = std::fs::read_to_string("../.pre-commit-hooks.yaml").unwrap();
    let entry = hooks.lines().find_map(|l| l.trim().strip_prefix("entry: ")).expect("an entry");
    let files = hooks.lines().find_map(|l| l.trim().strip_prefix("files: ")).expect("a files pattern");
    assert_eq!(files, r"\.(ya?ml|json)$");
    let mut words = entry.split_whitespace();
    let program = words.next().unwrap();
    assert_eq!(program, "kubedv");
    let staged = ["tests/fixtures/repo/base/legacy.yaml", "tests/fixtures/repo/base/gizmos.json"];
    let out = Command::new(kubedv_dir().join(program))
        .args(words)
        .args(["--crds", "tests/fixtures/repo/crds"])
        .args(staged)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("legacy.yaml:1:1: Deployment/legacy: apiVersion: Invalid value")
    );
    assert!(Path::new(staged[1]).exists());
}
