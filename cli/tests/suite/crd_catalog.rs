//! The CRD catalog built into `kubedv check` (`catalog/crds/`, made from `crds/catalog/` by
//! `cargo xtask crd-catalog`): the committed compact files are what the raw catalog gives, and
//! custom resources no `--crds` serve are checked with the newest catalog release serving
//! them, each verdict naming that CRD.
//!
//! The fixture's objects (`tests/fixtures/catalog/app.yaml`) and where each error comes from:
//! - cert-manager v1.21.1 `deploy/crds/cert-manager.io_certificates.yaml`:
//!   `spec.privateKey.algorithm` has `enum: [RSA, ECDSA, Ed25519]` (apiextensions-apiserver
//!   words an enum miss as `Unsupported value: …: supported values: …`);
//! - gateway-api v1.6.1 `config/crd/standard/gateway.networking.k8s.io_httproutes.yaml`: the
//!   rule on `path` with the message "value must be an absolute path and start with '/' when
//!   type one of ['Exact', 'PathPrefix']" (a CEL rule's failure, `Invalid value` without the
//!   value for an object);
//! - prometheus-operator v0.93.0 `example/prometheus-operator-crd/monitoring.coreos.com_servicemonitors.yaml`:
//!   `endpoints[].interval` has the duration `pattern` (kube-openapi's `should match` wording);
//! - `example.com/v1 Widget` is in no catalog project: skipped.

use std::io::Read;
use std::path::Path;

use kubedv_input::crd_catalog::{build, SourceFile, VARIANTS};
use serde_json::Value;

use crate::common::kubedv;

const APP: &str = "tests/fixtures/catalog/app.yaml";

fn text(out: &std::process::Output) -> (String, String) {
    (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn the_committed_compact_catalog_is_what_the_raw_catalog_gives() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let files = SourceFile::read_all(&root.join("crds/catalog")).unwrap();
    let (index, projects) = build(&files, VARIANTS).unwrap();
    let committed = std::fs::read_to_string(root.join("catalog/crds/index.txt")).unwrap();
    assert!(index == committed, "catalog/crds/index.txt is stale: run `cargo xtask crd-catalog`");
    let embed = std::fs::read_to_string(root.join("catalog/crds/embed.rs")).unwrap();
    for (name, text) in &projects {
        let mut gz = std::fs::File::open(root.join(format!("catalog/crds/{name}.json.gz"))).unwrap();
        let mut bytes = Vec::new();
        gz.read_to_end(&mut bytes).unwrap();
        let mut committed = String::new();
        flate2::read::GzDecoder::new(&bytes[..]).read_to_string(&mut committed).unwrap();
        assert!(*text == committed, "catalog/crds/{name}.json.gz is stale: run `cargo xtask crd-catalog`");
        assert!(embed.contains(&format!("include_bytes!(\"{name}.json.gz\")")), "{name} is not embedded");
    }
    // Two releases of at least 30 projects (variants aside).
    let index = kubedv_input::crd_catalog::Index::parse(&index).unwrap();
    let full = index.projects.iter().filter(|p| !p.variant && p.releases.len() >= 2).count();
    assert!(full >= 30, "{full} projects with two releases");
}

#[test]
fn custom_resources_are_checked_with_the_catalog_and_the_answering_crd_is_named() {
    let out = kubedv(&["check", APP]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(
        stdout.lines().collect::<Vec<_>>(),
        [
            "tests/fixtures/catalog/app.yaml:15:5: Certificate/web (CRD of cert-manager@v1.21.1): spec.privateKey.algorithm: Unsupported value: \"RSB\": supported values: \"RSA\", \"ECDSA\", \"Ed25519\"",
            "tests/fixtures/catalog/app.yaml:27:7: HTTPRoute/r (CRD of gateway-api-standard@v1.6.1): spec.rules[0].matches[0].path: Invalid value: value must be an absolute path and start with '/' when type one of ['Exact', 'PathPrefix']",
            "tests/fixtures/catalog/app.yaml:43:5: ServiceMonitor/sm (CRD of prometheus-operator@v0.93.0): spec.endpoints[0].interval: Invalid value: \"30x\": spec.endpoints[0].interval in body should match '^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$'",
        ]
    );
    assert!(stderr.contains("Widget/w: skipped: no schema for example.com/v1 Widget"), "{stderr}");
    assert!(
        stderr.contains("3 documents checked with CRDs of kubedv's catalog: cert-manager@v1.21.1 (1), gateway-api-standard@v1.6.1 (1), prometheus-operator@v0.93.0 (1)"),
        "{stderr}"
    );
    // JSON and SARIF name it too.
    let json: Value = serde_json::from_slice(&kubedv(&["check", "--format", "json", APP]).stdout).unwrap();
    let named: Vec<&str> =
        json["documents"].as_array().unwrap().iter().filter_map(|d| d["crdCatalog"].as_str()).collect();
    assert_eq!(named, ["cert-manager@v1.21.1", "gateway-api-standard@v1.6.1", "prometheus-operator@v0.93.0"]);
    let sarif = String::from_utf8(kubedv(&["check", "--format", "sarif", APP]).stdout).unwrap();
    assert!(sarif.contains("Certificate/web (CRD of cert-manager@v1.21.1)"), "{sarif}");
}

#[test]
fn pins_choose_the_release_and_the_users_crds_win() {
    let (stdout, _) = text(&kubedv(&["check", "--crd-catalog", "cert-manager@1.21.0", APP]));
    assert!(stdout.contains("Certificate/web (CRD of cert-manager@v1.21.0)"), "{stdout}");
    // The experimental channel only when pinned.
    let (stdout, _) = text(&kubedv(&["check", "--crd-catalog", "gateway-api-experimental", APP]));
    assert!(stdout.contains("HTTPRoute/r (CRD of gateway-api-experimental@"), "{stdout}");
    // A CRD given for the kind answers instead (here the raw file of the same release).
    let given = "../crds/catalog/cert-manager/v1.21.1/cert-manager.io_certificates.yaml";
    let (stdout, stderr) = text(&kubedv(&["check", "--crds", given, APP]));
    assert!(stdout.contains("Certificate/web: spec.privateKey.algorithm: Unsupported value"), "{stdout}");
    assert!(stderr.contains("2 documents checked with CRDs of kubedv's catalog"), "{stderr}");
    // No catalog.
    let (stdout, stderr) = text(&kubedv(&["check", "--crd-catalog", "none", APP]));
    assert_eq!(stdout, "");
    assert!(stderr.contains("4 documents: 0 valid, 0 invalid, 4 skipped"), "{stderr}");
}

#[test]
fn a_pin_naming_nothing_the_catalog_has_is_refused_with_what_it_has() {
    let out = kubedv(&["check", "--crd-catalog", "cert-manager@v9", APP]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out).1,
        "kubedv: --crd-catalog: no release \"v9\" of cert-manager in the CRD catalog (it has v1.21.1, v1.21.0)\n"
    );
    let out = kubedv(&["check", "--crd-catalog", "istioo", APP]);
    assert_eq!(
        text(&out).1,
        "kubedv: --crd-catalog: no project \"istioo\" in the CRD catalog (kubedv crds list shows them)\n"
    );
}

#[test]
fn crds_list_shows_projects_releases_and_sources() {
    let out = kubedv(&["--format", "json", "crds", "list"]);
    assert!(out.status.success());
    let list: Value = serde_json::from_slice(&out.stdout).unwrap();
    let cm = list.as_array().unwrap().iter().find(|p| p["project"] == "cert-manager").unwrap();
    assert_eq!(cm["releases"], serde_json::json!(["v1.21.1", "v1.21.0"]));
    assert_eq!(cm["repository"], "cert-manager/cert-manager");
    assert!(cm["kinds"].as_array().unwrap().iter().any(|k| k == "Certificate.cert-manager.io"));
    let (stdout, _) = text(&kubedv(&["crds", "list"]));
    assert!(stdout.lines().any(|l| l.starts_with("gateway-api-experimental") && l.ends_with("only when pinned)")));
}
