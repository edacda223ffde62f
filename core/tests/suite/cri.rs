//! The CRI policies, sentence by sentence. Sources (shared/reference):
//! - "CRI API version skew policy" (cri-api-version-skew-policy.md), quoted as SKEW;
//! - "Kubernetes feature development and container runtimes" (cri-feature-development-policy.md),
//!   quoted as FEATURE;
//! - containerd release tags' go.mod and CRI plugin, CRI-O's README compatibility matrix (the
//!   table in core/src/cri/runtimes.rs).

use kubedv_core::cri::maturity::{self, Feature, Stage, Status};
use kubedv_core::cri::skew::{self, check_node, Component};

fn pair(kubelet: &str, runtime: &str) -> skew::Pair {
    skew::judge(&Component::kubelet(kubelet).unwrap(), &Component::runtime(runtime).unwrap())
}

// SKEW: "Kubelet must work with the older Container Runtime if it implements the same semantic
// version of CRI API (e.g. v1) of up to three Kubernetes minor versions back. ... For example,
// Kubelet of version 1.26 must work with Container Runtime implementing k8s.io/cri-api@v0.23.0+."
#[test]
fn up_to_three_minors_back() {
    for runtime in ["v0.23.0", "v0.24.3", "v0.25.5", "v0.26.0"] {
        assert!(pair("1.26.0", runtime).supported, "{runtime}");
    }
    let p = pair("1.26.0", "v0.22.17");
    assert!(!p.supported);
    assert_eq!(
        p.reason,
        "container runtime v0.22.17 (Kubernetes 1.22 CRI, k8s.io/cri-api v0.22.17) is 4 minor versions older than kubelet 1.26.0: a runtime of the same CRI major version is supported up to three Kubernetes minor versions back (kubelet 1.26 works with k8s.io/cri-api v0.23.0+)"
    );
    assert_eq!(
        pair("1.26.0", "v0.23.0").reason,
        "container runtime v0.23.0 (Kubernetes 1.23 CRI, k8s.io/cri-api v0.23.0) is 3 minor versions older than kubelet 1.26.0: within three minor versions back on CRI v1 (older runtimes must degrade new features gracefully)"
    );
}

// SKEW: "Kubelet must work with Container Runtime if it implements the same semantic version of
// CRI API (e.g. v1) of up to three minor versions up. ... For example, Kubelet of version 1.22
// must work with Container Runtime implementing k8s.io/cri-api@v0.25.5."
#[test]
fn up_to_three_minors_up() {
    let p = pair("1.22.0", "v0.25.5");
    assert!(p.supported);
    assert!(p.reason.ends_with("is 3 minor versions newer than kubelet 1.22.0: within three minor versions up on CRI v1 (new CRI features must not change old calls)"), "{}", p.reason);
    let p = pair("1.22.0", "v0.26.0");
    assert!(!p.supported);
    assert!(p.reason.contains("is 4 minor versions newer than kubelet 1.22.0: a runtime of the same CRI major version is supported up to three minor versions up (kubelet 1.22 works with k8s.io/cri-api v0.25.5)"), "{}", p.reason);
}

// SKEW: "Major semantic version (known versions are v1alpha2 (removed in 1.26), v1)" and the
// requirement of "the same semantic version of CRI API".
#[test]
fn same_major_version_required() {
    // containerd 1.5 serves only runtime.v1alpha2 (its CRI plugin registers no v1 service).
    let p = pair("1.26.1", "containerd=1.5.18");
    assert!(!p.supported);
    assert_eq!(
        p.reason,
        "kubelet 1.26.1 speaks CRI v1 and containerd 1.5.18 (Kubernetes 1.20 CRI, k8s.io/cri-api v0.20.6) serves CRI v1alpha2: they share no major CRI version; the policy needs the same major version (v1alpha2 was removed in Kubernetes 1.26)"
    );
    // Kubelets before 1.20 only speak v1alpha2; containerd 2.x only serves v1.
    assert!(!pair("1.19.16", "containerd=2.0.0").supported);
    // 1.20-1.25 kubelets speak both, so a v1alpha2-only runtime in range is fine.
    let p = pair("1.22.3", "containerd=1.5.18");
    assert!(p.supported);
    assert!(p.reason.contains("on CRI v1alpha2"), "{}", p.reason);
    // Both sides speak both: v1 is used.
    assert!(pair("1.23.0", "containerd=1.6.0").reason.contains("on CRI v1"));
}

// SKEW: "So on a single node it may happen that Container Runtime is serving a newer version'd
// kubelet and older versioned crictl. This is a supported scenario within the version skew policy."
#[test]
fn newer_kubelet_and_older_crictl_on_one_node() {
    let report = check_node("1.30.2", "containerd=1.7.20", &["crictl=1.27.0".into()], &[]).unwrap();
    assert!(report.supported);
    assert_eq!(report.pairs.len(), 2);
    let kubelet = &report.pairs[0];
    assert_eq!((kubelet.client.as_str(), kubelet.server.as_str()), ("kubelet", "containerd"));
    assert_eq!(
        kubelet.reason,
        "containerd 1.7.20 (Kubernetes 1.27 CRI, k8s.io/cri-api v0.27.1) is 3 minor versions older than kubelet 1.30.2: within three minor versions back on CRI v1 (older runtimes must degrade new features gracefully)"
    );
    let crictl = &report.pairs[1];
    assert_eq!((crictl.client.as_str(), crictl.client_version.as_str()), ("crictl", "1.27.0"));
    assert_eq!(
        crictl.reason,
        "containerd 1.7.20 (Kubernetes 1.27 CRI, k8s.io/cri-api v0.27.1) matches crictl 1.27.0's minor version on CRI v1"
    );
}

// SKEW: "Kubelet may call into Container Runtime ... and Image Service Proxy ... Image Service
// Proxy calls into Container Runtime."
#[test]
fn image_service_proxy_is_server_and_client() {
    let report = check_node("1.31.0", "cri-o=1.31.2", &[], &["stargz=v0.26.0".into()]).unwrap();
    let pairs: Vec<(&str, &str, bool)> =
        report.pairs.iter().map(|p| (p.client.as_str(), p.server.as_str(), p.supported)).collect();
    assert_eq!(pairs, [("kubelet", "cri-o", true), ("kubelet", "stargz", false), ("stargz", "cri-o", false)]);
    assert!(!report.supported, "one unsupported pair makes the node unsupported");
}

// SKEW: "Versions like v0.<minor>.<patch> (e.g. v0.25.5) are considered stable. It is
// discouraged to introduce CRI API changes in patch releases": the patch does not matter.
#[test]
fn patch_versions_do_not_change_verdicts() {
    for kubelet in ["1.24.0", "1.24.17", "1.28", "1.29.0"] {
        assert_eq!(pair(kubelet, "v0.25.0").supported, pair(kubelet, "v0.25.5").supported, "{kubelet}");
    }
}

// SKEW: "All alpha and beta versions (e.g. k8s.io/cri-api@v0.26.0-beta.0) should be backward
// and forward compatible."
#[test]
fn alpha_and_beta_tags() {
    let p = pair("1.26.0", "v0.26.0-beta.0");
    assert!(p.supported);
    assert!(p.reason.ends_with("; alpha and beta cri-api tags are meant to be backward and forward compatible"));
    assert!(pair("v1.27.0-alpha.1", "v0.24.0").supported);
    assert!(!pair("1.30.0", "v0.26.0-beta.0").supported, "a pre-release still counts at its minor");
}

#[test]
fn runtime_products() {
    // containerd go.mod: 1.6.0-1.6.8 v0.23.1, 1.6.9+ v0.25.0, 1.7.0 v0.26.2, 1.7.1+ v0.27.1, 2.0 v0.31.2.
    let cases = [
        ("containerd=1.6.8", 23, true, true),
        ("containerd=1.6.9", 25, true, true),
        ("containerd=1.7.0", 26, true, true),
        ("containerd=1.7.1", 27, true, true),
        ("containerd=2.0.4", 31, false, true),
        ("containerd=2.2.7", 34, false, true),
        ("containerd=1.4.13", 19, true, false),
        ("cri-o=1.25.0", 25, true, true),
        ("crio=1.26.0", 26, false, true),
        ("CRI-O=1.19.1", 19, true, false),
    ];
    for (spec, minor, v1alpha2, v1) in cases {
        let c = Component::runtime(spec).unwrap();
        assert_eq!((c.level.minor, c.level.v1alpha2, c.level.v1), (minor, v1alpha2, v1), "{spec}");
    }
}

#[test]
fn malformed_versions_name_the_accepted_forms() {
    let err = Component::kubelet("1.x").unwrap_err();
    assert_eq!(err, "--kubelet: \"1.x\" is not a valid version: expected a Kubernetes version like 1.30, 1.30.2 or v1.31.0-beta.0 (kubelet and CRI tools follow Kubernetes minors)");
    assert!(Component::kubelet("2.30.0").is_err());
    assert!(Component::kubelet("").is_err());
    assert!(Component::kubelet("1.30.2.1").is_err());
    assert!(Component::kubelet("1.30.-1").is_err());
    assert!(Component::kubelet("1.99999999999999.0").is_err(), "no overflow");
    let err = Component::runtime("v0.27").unwrap_err();
    assert_eq!(err, "--runtime: \"v0.27\" is not a valid version: expected a k8s.io/cri-api version like v0.27.1 or v0.26.0-beta.0, or a runtime and its version like containerd=1.7.20 or cri-o=1.30.1");
    let err = Component::runtime("docker=20.10").unwrap_err();
    assert!(err.starts_with("--runtime: unknown runtime \"docker\": kubedv knows containerd and cri-o"), "{err}");
    let err = Component::runtime("containerd=abc").unwrap_err();
    assert_eq!(err, "--runtime: \"abc\" is not a valid containerd version: expected a release like 1.7.20 or 2.0.0");
    let err = Component::runtime("containerd=9.0.0").unwrap_err();
    assert!(err.contains("newer than kubedv's table"), "{err}");
    assert!(Component::runtime("containerd=1.0.3").unwrap_err().contains("predates CRI v1alpha2"));
    assert!(Component::runtime("cri-o=1.8.0").is_err());
    let err = Component::named("--client", "crictl").unwrap_err();
    assert_eq!(err, "--client: expected NAME=VERSION (e.g. crictl=1.27.0), got \"crictl\"");
    assert!(Component::named("--client", "=1.27.0").is_err());
    let err = Component::named("--client", "crictl=27").unwrap_err();
    assert!(
        err.starts_with("--client crictl: \"27\" is not a valid version: expected a Kubernetes version like 1.27.0"),
        "{err}"
    );
    assert!(Component::runtime("v0.27.1-").is_err());
}

#[test]
fn ranges() {
    let r = skew::range_for_kubelet("1.26.0").unwrap();
    assert_eq!((r.from, r.to), (23, 29));
    assert_eq!(
        r.text,
        "kubelet 1.26.0 works with runtimes implementing k8s.io/cri-api v0.23.0 through v0.29.x on CRI v1"
    );
    assert!(r.runtimes.contains(&"containerd 1.7.1+ (k8s.io/cri-api v0.27.1)".to_string()), "{:?}", r.runtimes);
    assert!(r.runtimes.contains(&"containerd 1.6.0–1.6.8 (k8s.io/cri-api v0.23.1)".to_string()), "{:?}", r.runtimes);
    assert!(!r.runtimes.iter().any(|l| l.starts_with("containerd 1.5")));
    assert!(r.runtimes.contains(&"cri-o 1.29.x (the CRI API of Kubernetes 1.29)".to_string()));
    assert!(!r.runtimes.iter().any(|l| l.starts_with("cri-o 1.30")));

    let r = skew::range_for_runtime("containerd=2.0.0").unwrap();
    assert_eq!((r.from, r.to), (28, 34));
    assert_eq!(r.text, "containerd 2.0.0 works with kubelet 1.28 through 1.34 (CRI v1)");
    // A v1alpha2-only runtime is not usable by 1.26+ kubelets, whatever the minor.
    let r = skew::range_for_runtime("containerd=1.5.0").unwrap();
    assert_eq!((r.from, r.to), (17, 23));
    let r = skew::range_for_runtime("v0.1.0").unwrap();
    assert_eq!((r.from, r.to), (0, 4), "no underflow below 0");
}

fn verdict(stage: Stage, containerd: Status, crio: Status, shipped_beta_on: bool) -> maturity::Verdict {
    maturity::check(&Feature { stage, containerd, crio, shipped_beta_on })
}

fn blocking(v: &maturity::Verdict) -> Vec<&'static str> {
    v.rules.iter().filter(|r| !r.satisfied).map(|r| r.rule).collect()
}

// FEATURE: "Same maturity level (for alpha): There should be at least one implementation of an
// API needed for the Kubernetes feature merged into the container runtime development branch
// (main) or marked as experimental."
// FEATURE: "Guaranteed implementation: CRI API can only be merged if there is a PR in both -
// Kubernetes repository and container runtime repository (at least one)".
#[test]
fn alpha() {
    use Status::*;
    assert!(verdict(Stage::Alpha, Merged, None, false).allowed);
    assert!(verdict(Stage::Alpha, None, Experimental, false).allowed);
    assert!(verdict(Stage::Alpha, ReleasedGa, ReleasedGa, false).allowed);
    assert_eq!(blocking(&verdict(Stage::Alpha, PrOpen, None, false)), ["Same maturity level (for alpha)"]);
    assert_eq!(
        blocking(&verdict(Stage::Alpha, None, None, false)),
        ["Guaranteed implementation", "Same maturity level (for alpha)"]
    );
    let v = verdict(Stage::Alpha, Merged, None, false);
    assert!(v.reminders.iter().any(|r| r.starts_with("Guarantee portability")));
    assert!(v.reminders.iter().any(|r| r.contains("e2e test")));
}

// FEATURE: "The feature can be marked as beta, but disabled by default, if there is only one
// container runtime implementation of a required API that is released as GA."
// FEATURE (same maturity, beta and GA): "those APIs must not be marked as experimental
// features"; "Beta releases on container runtimes today are referring to the release readiness
// rather than feature completeness."
#[test]
fn beta_disabled_by_default() {
    use Status::*;
    assert!(verdict(Stage::BetaOff, ReleasedGa, None, false).allowed);
    assert!(verdict(Stage::BetaOff, Merged, ReleasedGa, false).allowed);
    assert_eq!(blocking(&verdict(Stage::BetaOff, Experimental, Released, false)), ["Safe Kubernetes defaults"]);
}

// FEATURE: "The feature cannot be enabled by default in Kubernetes as a beta feature before the
// required APIs are implemented in both container runtimes (containerd and CRI-O) and there is
// a GA release of a container runtime for each."
#[test]
fn beta_enabled_by_default() {
    use Status::*;
    assert!(verdict(Stage::BetaOn, ReleasedGa, ReleasedGa, false).allowed);
    let f = Feature { stage: Stage::BetaOn, containerd: ReleasedGa, crio: Released, shipped_beta_on: false };
    let v = maturity::check(&f);
    assert_eq!(blocking(&v), ["Safe Kubernetes defaults"]);
    assert_eq!(
        v.summary,
        "beta enabled by default is blocked by \"Safe Kubernetes defaults\": beta enabled by default needs a GA release of both containerd and CRI-O implementing the API, not as experimental (containerd: released-ga, CRI-O: released)"
    );
}

// FEATURE: "Minimal number of implementations: Both containerd and CRI-O must have a GA release
// with the implementations of an API needed for a Kubernetes feature before this Kubernetes
// feature can be promoted to GA." and "at least one release with the beta feature enabled by
// default is required before it is progressing to GA."
#[test]
fn general_availability() {
    use Status::*;
    assert!(verdict(Stage::Ga, ReleasedGa, ReleasedGa, true).allowed);
    assert_eq!(blocking(&verdict(Stage::Ga, ReleasedGa, ReleasedGa, false)), ["Safe Kubernetes defaults"]);
    assert_eq!(blocking(&verdict(Stage::Ga, ReleasedGa, Experimental, true)), ["Minimal number of implementations"]);
    let f = Feature { stage: Stage::Ga, containerd: ReleasedGa, crio: ReleasedGa, shipped_beta_on: true };
    assert_eq!(maturity::check(&f).summary, "GA is allowed by the CRI feature policy");
}

#[test]
fn names_parse() {
    assert_eq!(Stage::from_name("beta-on"), Some(Stage::BetaOn));
    assert_eq!(Stage::from_name("beta"), None);
    assert_eq!(Status::from_name("released-ga"), Some(Status::ReleasedGa));
    assert!(Status::None < Status::PrOpen && Status::Released < Status::ReleasedGa);
}
