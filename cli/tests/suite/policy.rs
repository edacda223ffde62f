//! `kubedv policy` and `kubedv policy test` (docs/design.md contract): exit 0 allowed, 1 denied,
//! 2 bad input; the API server's texts (apiserver validating/dispatcher.go).

use serde_json::Value;

use crate::common::command as kubedv;

const F: &str = "tests/fixtures/policy";

/// A fresh directory under the system's temporary one.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("kubedv-policy-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn policy(extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "policy".to_string(),
        "--policy".into(),
        format!("{F}/policy.yaml"),
        "--params".into(),
        format!("{F}/params.yaml"),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    kubedv().args(&args).output().unwrap()
}

#[test]
fn denial_prints_the_api_servers_text_and_exits_1() {
    let out = policy(&[
        "--object",
        &format!("{F}/deployment.yaml"),
        "--namespace-object",
        &format!("{F}/namespace-test.yaml"),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "ValidatingAdmissionPolicy 'replicalimit-policy.example.com' with binding 'replicalimit-binding-test.example.com' \
         denied request: object.spec.replicas must be no greater than 3\n"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("denied (422 Invalid): deployments.apps \"web\" is forbidden: ValidatingAdmissionPolicy"),
        "{stderr}"
    );
}

#[test]
fn json_reports_every_binding_and_why() {
    let out = policy(&["--object", &format!("{F}/deployment.yaml"), "--format", "json"]);
    assert_eq!(out.status.code(), Some(0));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["allowed"], true);
    let evals = doc["evaluations"].as_array().unwrap();
    assert_eq!(evals.len(), 2);
    assert!(evals[0]["why"].as_str().unwrap().contains("taken to have no labels"));
    let out = policy(&[
        "--object",
        &format!("{F}/deployment.yaml"),
        "--namespace-object",
        &format!("{F}/namespace-test.yaml"),
        "--format",
        "json",
    ]);
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["status"]["code"], 422);
    let test = &doc["evaluations"][1];
    assert_eq!(test["params"], "default/replica-limit-test.example.com");
    assert_eq!(test["validations"][0]["result"], false);
    assert!(test["validations"][0]["cost"].as_u64().unwrap() > 0);
}

#[test]
fn suite_passes() {
    let out = kubedv().args(["policy", "test", &format!("{F}/suite.yaml")]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stdout));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "5 cases: 5 passed, 0 failed\n");
}

#[test]
fn a_failing_case_says_what_differs() {
    let suite = scratch("suite").join("suite.yaml");
    let abs = std::fs::canonicalize(F).unwrap();
    std::fs::write(
        &suite,
        format!(
            "policies: [{0}/policy.yaml]\nparams: [{0}/params.yaml]\ncases:\n- name: wrong\n  objectFile: {0}/deployment.yaml\n  namespaceObjectFile: {0}/namespace-test.yaml\n  expect: {{allowed: true}}\n",
            abs.display()
        ),
    )
    .unwrap();
    let out = kubedv().args(["policy", "test", suite.to_str().unwrap(), "--format", "junit"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let xml = String::from_utf8_lossy(&out.stdout);
    assert!(
        xml.contains("<failure message=\"expected the request to be allowed, it was denied: ValidatingAdmissionPolicy"),
        "{xml}"
    );
}

#[test]
fn a_policy_that_does_not_compile_is_bad_input() {
    let p = scratch("bad").join("p.yaml");
    std::fs::write(
        &p,
        "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata: {name: p}\nspec:\n  matchConstraints: {resourceRules: [{apiGroups: ['*'], apiVersions: ['*'], operations: ['*'], resources: ['*']}]}\n  validations:\n  - expression: \"object.spec.replicas <=\"\n",
    )
    .unwrap();
    let out = kubedv()
        .args(["policy", "--policy", p.to_str().unwrap(), "--object", &format!("{F}/deployment.yaml")])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "ValidatingAdmissionPolicy \"p\": spec.validations[0].expression: Invalid value: \"object.spec.replicas <=\": compilation failed: ERROR: <input>:1:"
        ),
        "{stderr}"
    );
    let out = policy(&["--object", &format!("{F}/deployment.yaml"), "--allow", "colour=blue"]);
    assert_eq!(out.status.code(), Some(2));
    let out = policy(&["--object", &format!("{F}/deployment.yaml"), "--operation", "PATCH"]);
    assert_eq!(out.status.code(), Some(2));
}
