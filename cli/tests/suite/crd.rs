//! `kubedv crd` on three CRDs written to resemble common ones (a cert-manager-style
//! Certificate, a Gateway-API-style HTTPRoute, a policy with transition rules): the exact error
//! lists. Sources of the forms: apiextensions-apiserver pkg/apiserver/validation/validation.go
//! (OpenAPI errors), pkg/apiserver/schema/listtype/validation.go (duplicates),
//! pkg/apiserver/schema/cel/validation.go (rule errors: no value for objects since 1.35; map
//! keys in brackets), pkg/registry/customresource/strategy.go (CEL skipped on blocking errors),
//! pkg/apis/apiextensions/validation/validation.go (cost limits).

use assert_cmd::Command;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/crd");

fn crd(args: &[&str]) -> (Option<i32>, String, String) {
    let full: Vec<String> =
        args.iter().map(|a| if a.ends_with(".yaml") { format!("{DIR}/{a}") } else { String::from(*a) }).collect();
    let out = Command::cargo_bin("kubedv").unwrap().arg("crd").args(&full).output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn certificate() {
    assert_eq!(crd(&["--crd", "certificate.yaml", "--object", "certificate-good.yaml"]).0, Some(0));
    let (code, out, err) = crd(&["--crd", "certificate.yaml", "--object", "certificate-bad.yaml"]);
    assert_eq!(code, Some(1));
    assert_eq!(
        out,
        "spec: Invalid value: at least one of commonName or dnsNames must be set\n\
         spec: Invalid value: renewBefore must be shorter than duration\n\
         spec.privateKey.size: Invalid value: RSA keys must be 2048, 3072 or 4096 bits, not 1024\n"
    );
    assert_eq!(err, "1 object validated against Certificate v1: 3 errors\n");
    // Schema errors block the rules, with the API server's notice.
    let (_, out, _) = crd(&["--crd", "certificate.yaml", "--object", "certificate-schema-bad.yaml"]);
    assert_eq!(
        out,
        "spec.issuerRef.kind: Unsupported value: \"Vault\": supported values: \"Issuer\", \"ClusterIssuer\"\n\
         spec.issuerRef.name: Required value\n\
         spec.privateKey.size: Invalid value: 100000: spec.privateKey.size in body should be less than or equal to 8192\n\
         spec.secretName: Invalid value: \"Web_TLS\": spec.secretName in body should match '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$'\n\
         spec.dnsNames[1]: Duplicate value: \"a.example.com\"\n\
         <nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation\n"
    );
}

#[test]
fn gateway_route() {
    assert_eq!(crd(&["--crd", "httproute.yaml", "--object", "httproute-good.yaml"]).0, Some(0));
    let (code, out, err) = crd(&["--crd", "httproute.yaml", "--object", "httproute-bad.yaml"]);
    assert_eq!(code, Some(1));
    assert_eq!(
        out,
        "spec.rules[0].matches[0].headers[1]: Duplicate value: {\"name\":\"x-env\"}\n\
         spec.hostnames[0]: Invalid value: \"store.*.example.com\": a wildcard is only allowed as the leftmost label\n\
         spec.rules[0]: Invalid value: at least one backendRef must have a non-zero weight\n\
         spec.rules[0].matches[0].path.value: Invalid value: must be an absolute path\n"
    );
    assert_eq!(err, "1 object validated against HTTPRoute v1: 4 errors\n");
    // --version picks another served version; the object states v1 (validator.go ValidateTypeMeta).
    let (code, out, _) = crd(&["--crd", "httproute.yaml", "--object", "httproute-bad.yaml", "--version", "v1beta1"]);
    assert_eq!(code, Some(1));
    assert_eq!(out, "apiVersion: Invalid value: \"net.example.com/v1\": must be net.example.com/v1beta1\n");
}

#[test]
fn policy_transition_rules_and_ratcheting() {
    // On create, transition rules (oldSelf) do not run.
    let (_, out, _) = crd(&["--crd", "policy.yaml", "--object", "policy-new.yaml"]);
    assert_eq!(
        out,
        "spec.limits[memory]: Invalid value: \"lots\": not a quantity: lots\n\
         spec.maxUnavailable: Invalid value: \"25 percent\": must be a non-negative count or a percentage\n"
    );
    let (code, out, _) = crd(&["--crd", "policy.yaml", "--object", "policy-new.yaml", "--old", "policy-old.yaml"]);
    assert_eq!(code, Some(1));
    assert_eq!(
        out,
        "spec: Invalid value: cannot go from Enforce back to Audit\n\
         spec.limits[memory]: Invalid value: \"lots\": not a quantity: lots\n\
         spec.maxUnavailable: Invalid value: \"25 percent\": must be a non-negative count or a percentage\n\
         spec.selector: Invalid value: selector is immutable\n"
    );
    // Unchanged: nothing to report.
    assert_eq!(crd(&["--crd", "policy.yaml", "--object", "policy-old.yaml", "--old", "policy-old.yaml"]).0, Some(0));
    // Another object's body is a Bad Request before validation (apiserver
    // pkg/endpoints/handlers/rest.go `checkName`).
    let renamed = std::env::temp_dir().join(format!("kubedv-crd-renamed-{}.yml", std::process::id()));
    let old = std::fs::read_to_string(format!("{DIR}/policy-old.yaml")).unwrap();
    std::fs::write(&renamed, old.replacen("name: ", "name: other-", 1)).unwrap();
    let (code, _, err) =
        crd(&["--crd", "policy.yaml", "--object", "policy-old.yaml", "--old", renamed.to_str().unwrap()]);
    std::fs::remove_file(&renamed).ok();
    assert_eq!(code, Some(2));
    assert_eq!(
        err,
        "kubedv: the API server refuses this update (Bad Request):\nthe name of the object (web) does not match the name on the URL (other-web)\n"
    );
}

#[test]
fn crds_the_api_server_refuses() {
    let (code, out, err) = crd(&["--crd", "expensive.yaml", "--object", "certificate-good.yaml"]);
    assert_eq!((code, out.as_str()), (Some(2), ""));
    assert!(err.contains("spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)"), "{err}");
    assert!(err.contains("(estimated cost 345880409622760653; the limit is 10000000 per rule)"), "{err}");
    let (code, _, err) = crd(&["--crd", "broken.yaml", "--object", "certificate-good.yaml"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("spec.validation.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields"), "{err}");
}

/// `--k8s-version` picks the API server, whose CEL environment for a new CRD's rules is its
/// minimum compatibility version's, one minor back (apiserver pkg/cel/environment/base.go:
/// semver came in 1.33, so 1.33 refuses it in a new rule and 1.34 accepts it).
#[test]
fn the_k8s_version_picks_the_cel_environment() {
    let run = |v: &str| crd(&["--crd", "semver-rule.yaml", "--object", "semver-widget.yaml", "--k8s-version", v]);
    let (code, _, err) = run("1.33");
    assert_eq!(code, Some(2));
    assert!(
        err.contains("compilation failed: ERROR: <input>:1:7: undeclared reference to 'semver' (in container '')"),
        "{err}"
    );
    let (code, out, _) = run("1.34");
    assert_eq!(code, Some(1));
    assert!(out.contains("spec: Invalid value: \"object\": failed rule: semver(self.version).major() >= 1"), "{out}");
    let (code, _, err) = run("1.40");
    assert_eq!(code, Some(2));
    assert!(err.contains("--k8s-version: Kubernetes version \"1.40\" is not supported"), "{err}");
}

/// A file of several CRDs (Istio ships all of its CRDs in one, `crd-all.gen.yaml`): the one of
/// the object's group and kind is used; an object no CRD of the file serves is a usage error
/// naming them.
#[test]
fn a_file_of_several_crds_serves_the_objects_kind() {
    let corpus = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/corpus/crds");
    let run = |object: &str| {
        let out = Command::cargo_bin("kubedv")
            .unwrap()
            .args(["crd", "--crd", &format!("{corpus}/istio/crd-all.gen.yaml"), "--object"])
            .arg(format!("{corpus}/objects/{object}"))
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, out, err) = run("serviceentry-invalid.yaml");
    assert_eq!(code, Some(1));
    assert!(out.starts_with("spec: Invalid value: NONE mode cannot set endpoints\n"), "{out}");
    assert_eq!(err, "1 object validated against ServiceEntry v1: 4 errors\n");
    let (code, _, err) = run("scaledobject-valid.yaml");
    assert_eq!(code, Some(2));
    assert!(err.contains("no CRD for ScaledObject in group \"keda.sh\" among its 15 documents (TrafficExtension.extensions.istio.io, "), "{err}");
}
