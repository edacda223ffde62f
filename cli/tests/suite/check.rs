//! `kubedv check` end to end over a repository fixture (`tests/fixtures/repo`: a CRD directory,
//! custom resources with CEL rules, Go types, removed and deprecated API versions, a `List`, a
//! Kustomize overlay with a patch, broken documents) and an update against a git revision.
//!
//! Expectations: the CRD errors are apiextensions-apiserver's (`pkg/apiserver/schema/cel`
//! validation.go: object-typed rule failures omit the value; strategy.go: the "some validation
//! rules were not checked" notice), the Go types' are validation-gen's, the deprecation warning
//! text is apiserver `pkg/endpoints/deprecation` `WarningMessage` and the CRD's
//! apiextensions-apiserver `customresource_handler.go` `defaultDeprecationWarning`, the missing
//! kind apimachinery's `runtime.NewMissingKindErr`.

use assert_cmd::Command;
use serde_json::Value;

use crate::common::kubedv;

const REPO: &str = "tests/fixtures/repo";

fn repo_args<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "check",
        REPO,
        "--crds",
        "tests/fixtures/repo/crds",
        "--types",
        "tests/fixtures/repo/types/gizmo_types.go",
    ];
    args.extend_from_slice(extra);
    args
}

#[test]
fn a_repository_in_text_each_problem_at_its_line() {
    let out = kubedv(&repo_args(&[]));
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&out.stdout), OUT);
    assert_eq!(String::from_utf8_lossy(&out.stderr), ERR);
}

#[test]
fn github_annotations() {
    let out = kubedv(&repo_args(&["--format", "github"]));
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&out.stdout), GITHUB);
}

#[test]
fn json_documents_and_summary() {
    let out = kubedv(&repo_args(&["--format", "json"]));
    assert_eq!(out.status.code(), Some(1));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        doc["summary"],
        serde_json::json!({"documents": 14, "valid": 4, "invalid": 5, "skipped": 2, "unreadable": 3})
    );
    let docs = doc["documents"].as_array().unwrap();
    let find = |file: &str, index: u64, name: &str| {
        docs.iter()
            .find(|d| d["file"].as_str().unwrap().ends_with(file) && d["index"] == index && d["name"] == name)
            .unwrap_or_else(|| panic!("{file} #{index} {name}"))
    };
    let big = find("base/widgets.yaml", 1, "too-big");
    assert_eq!(big["status"], "invalid");
    assert_eq!(big["line"], 10);
    assert_eq!(
        (big["apiVersion"].as_str(), big["kind"].as_str(), big["namespace"].as_str()),
        (Some("example.com/v1"), Some("Widget"), Some("shop"))
    );
    assert_eq!(
        big["errors"],
        serde_json::json!([{"field": "spec", "type": "FieldValueInvalid", "detail": "size must not exceed max",
            "origin": "", "stability": "stable", "enforced": true,
            "text": "spec: Invalid value: size must not exceed max", "line": 16, "column": 1}])
    );
    let old = find("base/widgets.yaml", 3, "old-style");
    assert_eq!(old["status"], "valid");
    assert_eq!(
        old["warnings"],
        serde_json::json!([{"message": "example.com/v1beta1 Widget is deprecated; use example.com/v1 Widget", "line": 26, "column": 1}])
    );
    let broken = find("base/widgets.yaml", 2, "");
    assert_eq!(broken["status"], "unreadable");
    assert!(broken["why"].as_str().unwrap().starts_with("invalid YAML: while parsing a flow sequence, expected ','"));
    // A built-in kind kubedv models whole: the API server's path (crate::apis).
    let settings = find("base/legacy.yaml", 2, "settings");
    assert_eq!(settings["status"], "valid");
    assert_eq!(settings["checkedBy"], "kubernetes");
    let legacy = find("base/legacy.yaml", 0, "legacy");
    assert_eq!(legacy["errors"][0]["origin"], "removedAPI");
    assert_eq!(legacy["errors"][0]["field"], "apiVersion");
}

/// SARIF 2.1.0 as GitHub code scanning reads it: version, one run whose driver lists every
/// rule a result names, each result with a message and a region.
#[test]
fn sarif_results_at_their_regions() {
    let out = kubedv(&repo_args(&["--format", "sarif"]));
    assert_eq!(out.status.code(), Some(1));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["version"], "2.1.0");
    let run = &doc["runs"][0];
    assert_eq!(run["tool"]["driver"]["name"], "kubedv");
    let rules: Vec<&str> =
        run["tool"]["driver"]["rules"].as_array().unwrap().iter().map(|r| r["id"].as_str().unwrap()).collect();
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), 13, "10 errors and three warnings (a deprecation, two migration notes)");
    for r in results {
        assert!(rules.contains(&r["ruleId"].as_str().unwrap()), "{r}");
        assert!(matches!(r["level"].as_str(), Some("error" | "warning")));
        assert!(!r["message"]["text"].as_str().unwrap().is_empty());
        let region = &r["locations"][0]["physicalLocation"]["region"];
        assert!(region["startLine"].as_u64().unwrap() >= 1 && region["startColumn"].as_u64().unwrap() >= 1);
    }
    let first = &results[0];
    assert_eq!(first["ruleId"], "minimum");
    assert_eq!(
        first["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "tests/fixtures/repo/base/gizmos.json"
    );
    assert_eq!(
        first["locations"][0]["physicalLocation"]["region"],
        serde_json::json!({"startLine": 6, "startColumn": 5})
    );
    assert!(rules.contains(&"FieldValueInvalid") && rules.contains(&"removedAPI") && rules.contains(&"unreadable"));
}

/// JUnit: a suite per file, a case per document; failures carry the problems at their lines.
#[test]
fn junit_cases_per_document() {
    let out = kubedv(&["check", "--format", "junit", "tests/fixtures/repo/base/legacy.yaml"]);
    assert_eq!(out.status.code(), Some(1));
    let xml = String::from_utf8_lossy(&out.stdout);
    assert!(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"kubedv check\" tests=\"5\" failures=\"3\" skipped=\"1\">"), "{xml}");
    assert!(xml.contains("<testcase name=\"Deployment/legacy (document 0, line 1)\" classname=\"tests/fixtures/repo/base/legacy.yaml\">\n      <failure message=\"1:1: apiVersion: Invalid value: &quot;extensions/v1beta1&quot;: extensions/v1beta1 Deployment is not served since v1.16; use apps/v1 Deployment\">"), "{xml}");
    assert!(xml.contains("<testcase name=\"ConfigMap/settings (document 2, line 12)\" classname=\"tests/fixtures/repo/base/legacy.yaml\"/>"), "{xml}");
    assert_eq!(xml.matches("<testcase ").count(), 5);
    assert!(xml.trim_end().ends_with("</testsuites>"));
}

/// In 1.24 policy/v1beta1 is still served, with the API server's warning.
#[test]
fn deprecated_and_removed_versions_follow_the_release() {
    let out = kubedv(&["check", "--k8s-version", "1.24", "tests/fixtures/repo/base/legacy.yaml"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("legacy.yaml:6:1: PodDisruptionBudget/pdb: warning: policy/v1beta1 PodDisruptionBudget is deprecated in v1.21+, unavailable in v1.25+; use policy/v1 PodDisruptionBudget\n"),
        "{stderr}"
    );
    let out = kubedv(&["check", "--k8s-version", "1.15", REPO]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "kubedv: --k8s-version 1.15: expected 1.16 to 1.37\n");
}

#[test]
fn strict_makes_documents_without_a_schema_errors() {
    let out = Command::cargo_bin("kubedv")
        .unwrap()
        .args(["check", "--strict", "-"])
        .write_stdin("apiVersion: example.com/v1\nkind: Thing\nmetadata:\n  name: t\n")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("-:2:1: Thing/t: kind: Invalid value: \"Thing\": no schema for example.com/v1 Thing: give its CRD (--crds) or its Go types (--types)\n"), "{stdout}");
}

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("kubedv-check-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Unreadable files (binary, not UTF-8) and a symlink loop: each reported, the others checked.
#[test]
fn bad_input_is_reported_and_the_run_goes_on() {
    let dir = temp("bad");
    std::fs::write(dir.join("blob.json"), b"\x00\x01\x02").unwrap();
    std::fs::write(dir.join("latin1.yaml"), b"kind: \xe9\n").unwrap();
    std::fs::write(dir.join("ok.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n").unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(&dir, dir.join("loop")).unwrap();
    let out = kubedv(&["check", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("blob.json:1:1: document: a binary file, not YAML or JSON\n"), "{stdout}");
    assert!(stdout.contains("latin1.yaml:1:1: document: not UTF-8 text\n"), "{stdout}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("3 documents: 1 valid, 0 invalid, 0 skipped, 2 unreadable\n"), "{stderr}");
}

#[test]
fn standard_input_is_a_stream_of_documents() {
    let out = Command::cargo_bin("kubedv")
        .unwrap()
        .args(["check", "-", "--crds", "tests/fixtures/repo/crds"])
        .write_stdin("apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  size: 0\n  max: 1\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "-:6:3: Widget/w: spec.size: Invalid value: 0: spec.size in body should be greater than or equal to 1\n"
    );
}

/// An update against the same paths at a git revision: the transition rule rejects it, apart
/// from the create-time result.
#[test]
fn updates_against_an_old_git_revision() {
    let dir = temp("git");
    let git = |args: &[&str]| {
        let ok = std::process::Command::new("git")
            .args(["-c", "user.email=ci@example.com", "-c", "user.name=ci"])
            .args(args)
            .current_dir(&dir)
            .output()
            .unwrap()
            .status
            .success();
        assert!(ok, "git {args:?}");
    };
    git(&["init", "-q"]);
    std::fs::create_dir_all(dir.join("crds")).unwrap();
    std::fs::copy("tests/fixtures/repo/crds/widget.yaml", dir.join("crds/widget.yaml")).unwrap();
    let widget = |size: u32| {
        format!("apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  size: {size}\n  max: 5\n")
    };
    std::fs::write(dir.join("w.yaml"), widget(2)).unwrap();
    git(&["add", "-A"]);
    git(&["commit", "-qm", "base"]);
    std::fs::write(dir.join("w.yaml"), widget(3)).unwrap();
    let out = Command::cargo_bin("kubedv")
        .unwrap()
        .args(["check", "w.yaml", "--crds", "crds", "--old-ref", "HEAD"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "w.yaml:5:1: Widget/w: rejected on update: spec: Invalid value: size is immutable\n"
    );
    // Without the old revision it is a valid create.
    let out = Command::cargo_bin("kubedv")
        .unwrap()
        .args(["check", "w.yaml", "--crds", "crds"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
}

const OUT: &str = concat!(
        "tests/fixtures/repo/base/gizmos.json:6:5: Gizmo/g1: spec.replicas: Invalid value: -1: must be greater than or equal to 0\n",
        "tests/fixtures/repo/base/gizmos.json:7:5: Gizmo/g1: spec.mode: Unsupported value: \"Fast\": supported values: \"Safe\", \"Slow\"\n",
        "tests/fixtures/repo/base/legacy.yaml:1:1: Deployment/legacy: apiVersion: Invalid value: \"extensions/v1beta1\": extensions/v1beta1 Deployment is not served since v1.16; use apps/v1 Deployment\n",
        "tests/fixtures/repo/base/legacy.yaml:6:1: PodDisruptionBudget/pdb: apiVersion: Invalid value: \"policy/v1beta1\": policy/v1beta1 PodDisruptionBudget is not served since v1.25; use policy/v1 PodDisruptionBudget\n",
        "tests/fixtures/repo/base/legacy.yaml:21:5: Widget/listed: spec.size: Required value\n",
        "tests/fixtures/repo/base/legacy.yaml:16:5: Widget/listed: <nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation\n",
        "tests/fixtures/repo/base/legacy.yaml:27:1: document: Object 'Kind' is missing in '{\"metadata\":{\"name\":\"nokind\"}}'\n",
        "tests/fixtures/repo/base/widgets.yaml:16:1: Widget/too-big: spec: Invalid value: size must not exceed max\n",
        "tests/fixtures/repo/base/widgets.yaml:25:1: document: invalid YAML: while parsing a flow sequence, expected ',' or ']' at line 25 column 1\n",
        "tests/fixtures/repo/base/widgets.yaml:33:1: Widget/future: no matches for kind \"Widget\" in version \"example.com/v2\"\n",
    );

const ERR: &str = concat!(
        // The migration guide's notable changes for the removed versions (check/migration.rs).
        "tests/fixtures/repo/base/legacy.yaml:1:1: Deployment/legacy: warning: moving to apps/v1 Deployment: spec.rollbackTo is gone; spec.selector is required and immutable (use the template's labels); spec.progressDeadlineSeconds defaults to 600 (was none), spec.revisionHistoryLimit to 10 (was all) and a rolling update's maxSurge and maxUnavailable to 25% (was 1)\n",
        "tests/fixtures/repo/base/legacy.yaml:6:1: PodDisruptionBudget/pdb: warning: moving to policy/v1 PodDisruptionBudget: an empty spec.selector ({}) selects every pod of the namespace (in v1beta1 it selected none); an absent selector still selects none\n",
        "tests/fixtures/repo/base/widgets.yaml:26:1: Widget/old-style: warning: example.com/v1beta1 Widget is deprecated; use example.com/v1 Widget\n",
        "tests/fixtures/repo/overlays/prod/bigger.yaml:1:1: Widget/good: skipped: a Kustomize patch (listed in tests/fixtures/repo/overlays/prod/kustomization.yaml), not a resource\n",
        "tests/fixtures/repo/overlays/prod/kustomization.yaml:1:1: Kustomization: skipped: a Kustomize kustomization, not a resource\n",
        "14 documents: 4 valid, 5 invalid, 2 skipped, 3 unreadable\n",
    );

const GITHUB: &str = concat!(
        "::error file=tests/fixtures/repo/base/gizmos.json,line=6,col=5,title=Gizmo/g1::spec.replicas: Invalid value: -1: must be greater than or equal to 0\n",
        "::error file=tests/fixtures/repo/base/gizmos.json,line=7,col=5,title=Gizmo/g1::spec.mode: Unsupported value: \"Fast\": supported values: \"Safe\", \"Slow\"\n",
        "::error file=tests/fixtures/repo/base/legacy.yaml,line=1,col=1,title=Deployment/legacy::apiVersion: Invalid value: \"extensions/v1beta1\": extensions/v1beta1 Deployment is not served since v1.16; use apps/v1 Deployment\n",
        "::warning file=tests/fixtures/repo/base/legacy.yaml,line=1,col=1,title=Deployment/legacy::moving to apps/v1 Deployment: spec.rollbackTo is gone; spec.selector is required and immutable (use the template's labels); spec.progressDeadlineSeconds defaults to 600 (was none), spec.revisionHistoryLimit to 10 (was all) and a rolling update's maxSurge and maxUnavailable to 25%25 (was 1)\n",
        "::error file=tests/fixtures/repo/base/legacy.yaml,line=6,col=1,title=PodDisruptionBudget/pdb::apiVersion: Invalid value: \"policy/v1beta1\": policy/v1beta1 PodDisruptionBudget is not served since v1.25; use policy/v1 PodDisruptionBudget\n",
        "::warning file=tests/fixtures/repo/base/legacy.yaml,line=6,col=1,title=PodDisruptionBudget/pdb::moving to policy/v1 PodDisruptionBudget: an empty spec.selector ({}) selects every pod of the namespace (in v1beta1 it selected none); an absent selector still selects none\n",
        "::error file=tests/fixtures/repo/base/legacy.yaml,line=21,col=5,title=Widget/listed::spec.size: Required value\n",
        "::error file=tests/fixtures/repo/base/legacy.yaml,line=16,col=5,title=Widget/listed::<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation\n",
        "::error file=tests/fixtures/repo/base/legacy.yaml,line=27,col=1,title=document::Object 'Kind' is missing in '{\"metadata\":{\"name\":\"nokind\"}}'\n",
        "::error file=tests/fixtures/repo/base/widgets.yaml,line=16,col=1,title=Widget/too-big::spec: Invalid value: size must not exceed max\n",
        "::error file=tests/fixtures/repo/base/widgets.yaml,line=25,col=1,title=document::invalid YAML: while parsing a flow sequence, expected ',' or ']' at line 25 column 1\n",
        "::warning file=tests/fixtures/repo/base/widgets.yaml,line=26,col=1,title=Widget/old-style::example.com/v1beta1 Widget is deprecated; use example.com/v1 Widget\n",
        "::error file=tests/fixtures/repo/base/widgets.yaml,line=33,col=1,title=Widget/future::no matches for kind \"Widget\" in version \"example.com/v2\"\n",
    );

/// `--k8s-api`: built-in kinds validated with their own packages' declarative rules, the
/// packages found by group (`+groupName` in doc.go, `GroupName` in register.go) and version, and
/// imports resolved within the checkout; the summary says handwritten validation is not modeled.
/// The checkout here is a small one written for the test, shaped like k8s.io/api.
#[test]
fn built_in_kinds_from_a_k8s_api_checkout() {
    let api = temp("api");
    let write = |path: &str, text: &str| {
        let file = api.join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, text).unwrap();
    };
    write(
        "core/v1/types.go",
        "package v1\n\ntype PodSpec struct {\n\t// +k8s:optional\n\t// +k8s:minimum=0\n\tPriority *int32 `json:\"priority,omitempty\"`\n}\n",
    );
    write("apps/v1/doc.go", "// +k8s:deepcopy-gen=package\n// +groupName=apps\npackage v1\n");
    write(
        "apps/v1/types.go",
        "package v1\n\nimport (\n\tv1 \"k8s.io/api/core/v1\"\n\tmetav1 \"k8s.io/apimachinery/pkg/apis/meta/v1\"\n)\n\n// +k8s:prerelease-lifecycle-gen:introduced=1.9\ntype Deployment struct {\n\tmetav1.TypeMeta `json:\",inline\"`\n\tmetav1.ObjectMeta `json:\"metadata,omitempty\"`\n\tSpec DeploymentSpec `json:\"spec,omitempty\"`\n}\n\ntype DeploymentSpec struct {\n\t// +k8s:optional\n\t// +k8s:minimum=0\n\tReplicas *int32 `json:\"replicas,omitempty\"`\n\tTemplate v1.PodSpec `json:\"template\"`\n}\n",
    );
    let manifest = api.join("deploy.yaml");
    std::fs::write(
        &manifest,
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: -1\n  template:\n    priority: -5\n",
    )
    .unwrap();
    let out = kubedv(&["check", manifest.to_str().unwrap(), "--k8s-api", api.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains(
            "deploy.yaml:6:3: Deployment/web: spec.replicas: Invalid value: -1: must be greater than or equal to 0\n"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("deploy.yaml:8:5: Deployment/web: spec.template.priority: Invalid value: -5: must be greater than or equal to 0\n"), "{stdout}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.ends_with("1 document: 0 valid, 1 invalid, 0 skipped, 0 unreadable\n"), "{stderr}");
    let out = kubedv(&["check", manifest.to_str().unwrap(), "--k8s-api", "/nonexistent"]);
    assert_eq!(out.status.code(), Some(2));
}

/// The JSON, SARIF and JUnit reports of the fixture repository, byte for byte
/// (`tests/fixtures/repo-expected/`; `KUBEDV_BLESS=1` rewrites them after a deliberate change).
#[test]
fn reports_match_the_expected_files_exactly() {
    for format in ["json", "sarif", "junit"] {
        let out = kubedv(&repo_args(&["--format", format]));
        assert_eq!(out.status.code(), Some(1), "{format}");
        let expected_path = format!("tests/fixtures/repo-expected/check.{format}");
        if std::env::var_os("KUBEDV_BLESS").is_some() {
            std::fs::write(&expected_path, &out.stdout).unwrap();
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap();
        assert_eq!(String::from_utf8_lossy(&out.stdout), expected, "{format}");
    }
}

/// The report does not depend on how many workers check the documents.
#[test]
fn results_are_the_same_whatever_the_jobs() {
    let one = kubedv(&repo_args(&["--format", "json", "--jobs", "1"]));
    let four = kubedv(&repo_args(&["--format", "json", "--jobs", "4"]));
    assert_eq!(one.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&one.stdout), String::from_utf8_lossy(&four.stdout));
    let expected = std::fs::read_to_string("tests/fixtures/repo-expected/check.json").unwrap();
    assert_eq!(String::from_utf8_lossy(&one.stdout), expected);
}

/// Admission policies in a repository: what the API server refuses when they are created
/// (admissionregistration validation.go), at the expression's line.
#[test]
fn policies_that_the_api_server_refuses_are_reported_at_their_lines() {
    let dir = temp("policy");
    std::fs::write(
        dir.join("policy.yaml"),
        "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata:\n  name: p\nspec:\n  matchConstraints:\n    resourceRules:\n    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}\n  validations:\n  - expression: object.spec.replicas <=\n---\napiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\nmetadata:\n  name: b\nspec:\n  policyName: p\n  validationActions: [Deny, Warn]\n",
    )
    .unwrap();
    let out = kubedv(&["check", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("policy.yaml:10:5: ValidatingAdmissionPolicy/p: spec.validations[0].expression: Invalid value: \"object.spec.replicas <=\": compilation failed: ERROR: <input>:1:24: "),
        "{stdout}"
    );
    assert!(
        stdout.contains("policy.yaml:18:3: ValidatingAdmissionPolicyBinding/b: spec.validationActions: Invalid value: [\"Deny\",\"Warn\"]: must not contain both Deny and Warn"),
        "{stdout}"
    );
}

/// A CRD the API server refuses, in a repository: each refusal at the line of the field it
/// names. The API server words what all versions share for its internal form
/// (`spec.validation…`, apiextensions/v1 conversion.go); in the v1 text it is the first
/// version's (`spec.versions[0].schema…`).
#[test]
fn crd_refusals_are_reported_at_their_lines() {
    let dir = temp("crd");
    std::fs::write(
        dir.join("crd.yaml"),
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: widgets.example.com\nspec:\n  group: example.com\n  scope: Namespaced\n  names: {plural: widgets, kind: Widget}\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n          spec:\n            type: object\n            properties:\n              size:\n                type: integer\n                uniqueItems: true\n",
    )
    .unwrap();
    let out = kubedv(&["check", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("crd.yaml:22:17: CustomResourceDefinition/widgets.example.com: spec.validation.openAPIV3Schema.properties[spec].properties[size].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic\n"),
        "{stdout}"
    );
}

/// Built-in kinds without any flag: the built-in catalog of the release (k8s.io/api's types at
/// its release) and the API server's whole path (`core/src/apis`). Sources of the
/// expectations: a body the types cannot hold is refused before validation, with the first
/// value in the document the decoder could not store (apiserver pkg/endpoints/handlers/rest.go
/// `transformDecodeError`; sigs.k8s.io/json internal/golang/encoding/json/decode.go
/// `UnmarshalTypeError`, `addErrorContext`); StatefulSet names are DNS labels and core's
/// wrapper checks finalizer names (kubernetes pkg/apis/apps/validation `ValidateStatefulSetName`,
/// pkg/apis/core/validation `validateKubeFinalizerName`); Service names are DNS-1035 labels
/// (`ValidateServiceName`); PodDisruptionBudget's own validation checks no name, so the generic
/// check of every create applies (apiserver pkg/registry/rest/create.go `ValidateCreate`,
/// `path.ValidatePathSegmentName`); the ResourceClaim's enum is declarative
/// (k8s.io/api resource/v1 `+k8s:enum`).
#[test]
fn built_in_kinds_are_checked_with_the_release_catalog() {
    let out = kubedv(&["check", "tests/fixtures/builtin"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        concat!(
            "tests/fixtures/builtin/apps.yaml:18:11: Deployment/web: Deployment in version \"v1\" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field ContainerPort.spec.template.spec.containers.ports.containerPort of type int32\n",
            "tests/fixtures/builtin/apps.yaml:23:3: StatefulSet/db.v1: metadata.name: Invalid value: \"db.v1\": must not contain dots\n",
            "tests/fixtures/builtin/apps.yaml:24:16: StatefulSet/db.v1: metadata.finalizers[0]: Invalid value: \"cleanup\": name is neither a standard finalizer name nor is it fully qualified\n",
            "tests/fixtures/builtin/other.yaml:12:9: ResourceClaim/gpu: spec.devices.requests[0].exactly.allocationMode: Unsupported value: \"Sometimes\": supported values: \"All\", \"ExactCount\"\n",
            "tests/fixtures/builtin/other.yaml:17:3: PodDisruptionBudget/web/pdb: metadata.name: Invalid value: \"web/pdb\": may not contain '/'\n",
            "tests/fixtures/builtin/other.yaml:24:3: Service/1web: metadata.name: Invalid value: \"1web\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')\n",
        )
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        // Every kind here is modeled whole (`core/src/apis`): no document is judged by its
        // declarative rules and metadata only, so no coverage line follows.
        "6 documents: 1 valid, 4 invalid, 0 skipped, 1 unreadable\n"
    );
    // A version or kind of a built-in group that the release does not serve: kubectl's REST
    // mapping finds nothing (apimachinery pkg/api/meta errors.go NoKindMatchError).
    let out = Command::cargo_bin("kubedv")
        .unwrap()
        .args(["check", "--k8s-version", "1.33", "-"])
        .write_stdin("apiVersion: apps/v1\nkind: Deploymnt\nmetadata: {name: x}\n---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c}\n")
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "-:2:1: Deploymnt/x: no matches for kind \"Deploymnt\" in version \"apps/v1\"\n-:6:1: ResourceClaim/c: no matches for kind \"ResourceClaim\" in version \"resource.k8s.io/v1\"\n"
    );
    // Before 1.33 built-in kinds had no declarative rules: no catalog, nothing routed to one.
    let out = kubedv(&["check", "--k8s-version", "1.32", "tests/fixtures/builtin/apps.yaml"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("3 documents: 0 valid, 0 invalid, 3 skipped, 0 unreadable"));
}

/// YAML as kubectl sends it (sigs.k8s.io/yaml v1.6.0 `YAMLToJSON` over go-yaml v2.4.0, YAML
/// 1.1): a Secret volume's `defaultMode: 0644` is the octal 420, so the Deployment is valid; a
/// ConfigMap's `enabled: yes` is the bool `true`, which the API server refuses to decode into
/// `data`'s strings (its words); quoted, it is the string.
#[test]
fn yaml_is_read_as_kubectl_reads_it() {
    let dir = temp("yaml11");
    std::fs::write(
        dir.join("deploy.yaml"),
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n      - name: web\n        image: nginx\n      volumes:\n      - name: cfg\n        secret:\n          secretName: s\n          defaultMode: 0644\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("config.yaml"),
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: flags\ndata:\n  enabled: yes\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: quoted\ndata:\n  enabled: \"yes\"\n",
    )
    .unwrap();
    let out = kubedv(&["check", dir.to_str().unwrap(), "--format", "json"]);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let status = |file: &str, name: &str| {
        report["documents"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["file"].as_str().unwrap().ends_with(file) && d["name"] == name)
            .map(|d| (d["status"].as_str().unwrap().to_string(), d["why"].as_str().unwrap_or("").to_string()))
    };
    assert_eq!(status("deploy.yaml", "web"), Some((String::from("valid"), String::new())), "{report}");
    assert_eq!(status("config.yaml", "quoted"), Some((String::from("valid"), String::new())), "{report}");
    let (flags, why) = status("config.yaml", "").or_else(|| status("config.yaml", "flags")).unwrap();
    assert_eq!(flags, "unreadable", "{report}");
    assert!(why.ends_with("json: cannot unmarshal bool into Go struct field ConfigMap.data of type string"), "{why}");
}
