//! The comparison's matcher beyond type, field and origin: normalization rules (apimachinery
//! `field.NormalizationRule`, `ErrorMatcher.ByFieldNormalized`, from v0.35) and short-circuit
//! matching (apimachinery `MatchAncestorShortCircuit` and apiserver `ShortCircuitMismatch`,
//! v0.37 / master), with rows of apiserver `pkg/registry/rest/validate_test.go` (v0.35.0,
//! v0.36.3, master) and apimachinery `field/error_matcher_test.go` (master).

use kubedv_core::declarative::shadow::{
    compare, normalization_rules, parse_handwritten, short_circuit_mismatch, Enforcement,
};
use kubedv_core::declarative::{Options, Schema};
use kubedv_core::field::Error;

/// Declarative errors, written as error lines (`[origin=…, beta]` marks their level).
fn declarative(lines: &str, short_circuit: bool) -> Vec<Error> {
    parse_handwritten(lines)
        .unwrap()
        .into_iter()
        .map(|h| Error { stability: h.stability, short_circuit, ..h.error })
        .collect()
}

fn config(minor: u32, rules: &[&str], short_circuit: bool) -> Enforcement {
    let mut c = Enforcement::for_version(minor);
    let rules: Vec<String> = rules.iter().map(|r| r.to_string()).collect();
    c.set_comparison(&rules, short_circuit).unwrap();
    c
}

/// validate_test.go v0.35.0: a rule maps the declarative path onto the handwritten one, so
/// the errors match ("…errors don't match - mismatch" expects no mismatch with the rule).
#[test]
fn normalization_1_35() {
    let hw = parse_handwritten("spec.minReadySeconds: Invalid value: -1: bad [origin=minimum, covered]").unwrap();
    let decl = "spec.fakeminReadySeconds: Invalid value: -1: bad [origin=minimum, beta]";
    let s = compare(
        &config(35, &["spec.fakeminReadySeconds=spec.minReadySeconds"], false),
        &mut declarative(decl, false),
        &hw,
    );
    assert_eq!(s.mismatches, 0, "{:?}", s.explanations);
    // Without the rule the two errors are an unmatched and an extra one.
    let s = compare(&Enforcement::for_version(35), &mut declarative(decl, false), &hw);
    assert_eq!(s.mismatches, 2);
}

/// validate_test.go v0.36.3 and master, "Field normalization - no mismatch".
#[test]
fn normalization_1_36_and_1_37() {
    let hw = parse_handwritten("spec.standard: Invalid value: 1: bad [origin=min, covered]").unwrap();
    let decl = "spec.standardAliased: Invalid value: 1: bad [origin=min, beta]";
    for minor in [36, 37] {
        let s =
            compare(&config(minor, &["spec.standardAliased=spec.standard"], false), &mut declarative(decl, false), &hw);
        assert_eq!(s.mismatches, 0, "1.{minor}: {:?}", s.explanations);
    }
}

/// Rules came in 1.35; ShortCircuitMismatch in 1.37.
#[test]
fn settings_refused_before_their_version() {
    let mut c = Enforcement::for_version(34);
    assert!(c.set_comparison(&["a=b".into()], false).unwrap_err().contains("came in 1.35"));
    let mut c = Enforcement::for_version(36);
    assert!(c.set_comparison(&[], true).unwrap_err().contains("came in 1.37"));
    let mut c = Enforcement::for_version(37);
    assert!(c.set_comparison(&["a(=b".into()], false).unwrap_err().contains("normalization rule"));
    assert!(c.set_comparison(&["no separator".into()], false).unwrap_err().contains("REGEXP=REPLACEMENT"));
}

/// validate_test.go master, "Short-circuit match: DV parent covers HV parent and child".
#[test]
fn short_circuit_covers_children_1_37() {
    let hw = parse_handwritten(
        "spec.standard: Invalid value: 1: field is immutable [origin=immutable, covered]\n\
         spec.standard.kind: Required value [origin=min, covered]",
    )
    .unwrap();
    let decl = "spec.standard: Invalid value: 1: field is immutable [origin=immutable, beta]";
    let s = compare(&config(37, &[], true), &mut declarative(decl, true), &hw);
    assert_eq!(s.mismatches, 0, "{:?}", s.explanations);
    // Without ShortCircuitMismatch the child error is unmatched.
    let s = compare(&config(37, &[], false), &mut declarative(decl, true), &hw);
    assert_eq!(s.mismatches, 1);
    // A declarative error that did not short-circuit covers nothing.
    let s = compare(&config(37, &[], true), &mut declarative(decl, false), &hw);
    assert_eq!(s.mismatches, 1);
}

/// error_matcher_test.go master: a strict descendant only (`.` or `[` after the parent), and
/// the normalized path counts too (`f\[(\d+)\]\.a` → `f[$1].x.a`).
#[test]
fn short_circuit_ancestors() {
    let decl = "f[0].a: Invalid value: 1: x [origin=o, beta]";
    for (child, covered) in [
        ("f[0].a.child", true),
        ("f[0].x.a.child", true),
        ("f[0].a[1]", true),
        ("f[0].a_other", false),
        ("f[0].b.child", false),
    ] {
        let hw = parse_handwritten(&format!("{child}: Required value [origin=p, covered]")).unwrap();
        let s = compare(&config(37, &[r"f\[(\d+)\]\.a=f[$1].x.a"], true), &mut declarative(decl, true), &hw);
        // The declarative error itself matches no handwritten error: it stays an extra one.
        assert_eq!(s.unmatched_handwritten.is_empty(), covered, "{child}: {:?}", s.explanations);
    }
}

/// kubernetes pkg/apis/resource/validation `ResourceNormalizationRules`, which the
/// ResourceClaim strategy passes from 1.35: v1beta1's flattened request fields.
#[test]
fn resource_claim_rules() {
    assert!(normalization_rules("resource.k8s.io", "ResourceClaim", 34).is_empty());
    assert!(normalization_rules("apps", "Deployment", 37).is_empty());
    let rules = normalization_rules("resource.k8s.io", "ResourceClaim", 36);
    assert_eq!(rules.len(), 2);
    let mut c = Enforcement::for_version(36);
    c.normalization = rules;
    let hw = parse_handwritten(
        "spec.devices.requests[0].exactly.deviceClassName: Required value [origin=required, covered]",
    )
    .unwrap();
    let decl = "spec.devices.requests[0].deviceClassName: Required value [origin=required, beta]";
    let s = compare(&c, &mut declarative(decl, false), &hw);
    assert_eq!(s.mismatches, 0, "{:?}", s.explanations);
    // ResourceClaimTemplate's strategy passes them from 1.37 (kubernetes PR #138725); the
    // unanchored rules reach its `spec.spec.devices`.
    assert!(normalization_rules("resource.k8s.io", "ResourceClaimTemplate", 36).is_empty());
    c.normalization = normalization_rules("resource.k8s.io", "ResourceClaimTemplate", 37);
    let hw = parse_handwritten(
        "spec.spec.devices.requests[0].exactly.deviceClassName: Required value [origin=required, covered]",
    )
    .unwrap();
    let decl = "spec.spec.devices.requests[0].deviceClassName: Required value [origin=required, beta]";
    let s = compare(&c, &mut declarative(decl, false), &hw);
    assert_eq!(s.mismatches, 0, "{:?}", s.explanations);
}

/// kubernetes pkg/apis/node/validation `NodeNormalizationRules`, which the RuntimeClass strategy
/// passes: `^spec\.runtimeHandler(.*)$` from 1.36 (PR #135046), `^spec\.scheduling(.*)$` added
/// in 1.37 (commit 8976f7a9). And ResourceSlice's 1.37 strategy passes
/// `ResourceNormalizationRules` (its `DeclarativeValidationConfig`).
#[test]
fn runtime_class_and_resource_slice_rules() {
    assert!(normalization_rules("node.k8s.io", "RuntimeClass", 35).is_empty());
    assert_eq!(normalization_rules("node.k8s.io", "RuntimeClass", 36).len(), 1);
    let rules = normalization_rules("node.k8s.io", "RuntimeClass", 37);
    assert_eq!(rules.len(), 2);
    let mut c = Enforcement::for_version(37);
    c.normalization = rules;
    for (hw, decl, matched) in [
        (
            "handler: Required value [origin=required, covered]",
            "spec.runtimeHandler: Required value [origin=required, beta]",
            true,
        ),
        (
            "scheduling.tolerations[0].key: Invalid value: \"a/b/c\": bad [origin=format=k8s-label-key, covered]",
            "spec.scheduling.tolerations[0].key: Invalid value: \"a/b/c\": bad [origin=format=k8s-label-key, beta]",
            true,
        ),
        // Anchored: a list item's path keeps its prefix and does not match.
        (
            "items[0].handler: Required value [origin=required, covered]",
            "items[0].spec.runtimeHandler: Required value [origin=required, beta]",
            false,
        ),
    ] {
        let s = compare(&c, &mut declarative(decl, false), &parse_handwritten(hw).unwrap());
        assert_eq!(s.mismatches == 0, matched, "{hw}: {:?}", s.explanations);
    }
    // 1.36 knows only the first rule.
    c.normalization = normalization_rules("node.k8s.io", "RuntimeClass", 36);
    let hw = parse_handwritten(
        "scheduling.tolerations[0].key: Invalid value: \"a/b/c\": bad [origin=format=k8s-label-key, covered]",
    )
    .unwrap();
    let decl = "spec.scheduling.tolerations[0].key: Invalid value: \"a/b/c\": bad [origin=format=k8s-label-key, beta]";
    assert_ne!(compare(&c, &mut declarative(decl, false), &hw).mismatches, 0);

    assert!(normalization_rules("resource.k8s.io", "ResourceSlice", 36).is_empty());
    c.normalization = normalization_rules("resource.k8s.io", "ResourceSlice", 37);
    let hw = parse_handwritten(
        "spec.devices[0].taints[0].key: Invalid value: \"a/b/c\": bad [origin=format=k8s-label-key, covered]",
    )
    .unwrap();
    let decl = "spec.devices[0].basic.taints[0].key: Invalid value: \"a/b/c\": bad [origin=format=k8s-label-key, beta]";
    assert_eq!(compare(&c, &mut declarative(decl, false), &hw).mismatches, 0);
}

/// The RBAC binding strategies set `ShortCircuitMismatch` from 1.37 (kubernetes PR #137982).
#[test]
fn short_circuit_mismatch_by_resource() {
    assert!(short_circuit_mismatch("rbac.authorization.k8s.io", "RoleBinding", 37));
    assert!(short_circuit_mismatch("rbac.authorization.k8s.io", "ClusterRoleBinding", 37));
    assert!(!short_circuit_mismatch("rbac.authorization.k8s.io", "RoleBinding", 36));
    assert!(!short_circuit_mismatch("rbac.authorization.k8s.io", "Role", 37));
}

/// validation-gen (1.37) marks the errors of short-circuiting validators (`+k8s:required`,
/// `+k8s:maxItems`, ...) and not the others.
#[test]
fn short_circuiting_validators_mark_their_errors() {
    let schema = Schema::compile(
        r#"package v1
type Thing struct {
	TypeMeta int
	// +k8s:required
	Name *string `json:"name,omitempty"`
	// +k8s:maxItems=1
	// +k8s:eachVal=+k8s:minimum=0
	Items []int32 `json:"items"`
	// +k8s:minimum=0
	Replicas int32 `json:"replicas"`
}
"#,
    );
    let root = schema.type_named("Thing").unwrap();
    let obj = serde_json::json!({"items": [1, -1], "replicas": -1});
    let errs = schema.validate(root, &obj, &Options::default()).errors;
    let marks: Vec<(String, bool)> = errs.iter().map(|e| (e.field.clone(), e.short_circuit)).collect();
    assert_eq!(marks, [("name".to_string(), true), ("items".to_string(), true), ("replicas".to_string(), false)]);
}

/// What the API server returns passes through `ErrorList.Filter` (apiserver release-1.36
/// `filterHandwrittenErrors` for an opted-in resource; apimachinery v0.37.0-beta.0
/// `pkg/api/validate/errors.go` `FilterCoveredHandwrittenErrors`), whose `ToAggregate`
/// (`field/errors.go`) keeps the first of the handwritten errors that print the same text,
/// whatever their origins and marks. 1.33–1.35 (`RemoveCoveredByDeclarative`) and a 1.36
/// resource that has not opted in keep every one.
#[test]
fn returned_handwritten_errors_deduplicated_by_text_when_filtered() {
    let hw = parse_handwritten(
        "spec.other: Invalid value: 1: bad\n\
         color: Too long: may not be more than 5 characters [origin=maxLength, covered, beta]\n\
         spec.other: Invalid value: 1: bad [origin=minimum]\n\
         color: Too long: may not be more than 5 characters",
    )
    .unwrap();
    let decl = "color: Too long: may not be more than 5 characters [origin=maxLength, beta]";
    let texts = |c: &Enforcement| {
        let s = compare(c, &mut declarative(decl, false), &hw);
        s.returned.iter().map(Error::text).collect::<Vec<_>>()
    };
    // 1.37: the first `color` error is covered and matches the enforced beta error, so it is
    // dropped; its unmarked twin was already dropped by the aggregate.
    let want = ["spec.other: Invalid value: 1: bad", "color: Too long: may not be more than 5 characters"];
    assert_eq!(texts(&Enforcement::for_version(37)), want);
    // 1.36 opted in: the same, the covered beta error dropped by its own mark.
    let mut opted = Enforcement::for_version(36);
    opted.opted_in = true;
    assert_eq!(texts(&opted), want);
    // 1.36 not opted in and 1.35: every handwritten error, duplicates included.
    let mut not_opted = Enforcement::for_version(36);
    not_opted.opted_in = false;
    assert_eq!(texts(&not_opted).len(), 4);
    assert_eq!(texts(&Enforcement::for_version(35)).len(), 4);
}

/// With DeclarativeValidation off (1.33–1.35), the strategies (release-1.33/1.34) and
/// `ValidateDeclarativelyWithMigrationChecks` (release-1.35: `if !Enabled(DeclarativeValidation)
/// { return errs }`) make no comparison: nothing is matched, unmatched or extra.
#[test]
fn no_comparison_without_declarative_validation() {
    let hw =
        parse_handwritten("color: Too long: may not be more than 5 characters [origin=maxLength, covered]").unwrap();
    for minor in [33, 34, 35] {
        let mut c = Enforcement::for_version(minor);
        c.declarative_validation = false;
        let s = compare(&c, &mut declarative("spec.x: Required value [origin=required]", false), &hw);
        assert!(
            s.matched.is_empty() && s.unmatched_handwritten.is_empty() && s.extra_declarative.is_empty(),
            "1.{minor}"
        );
        assert_eq!(s.mismatches, 0);
        assert_eq!(s.returned.len(), 1, "1.{minor}: the handwritten error alone");
    }
}

/// The explanation of each mismatch is the line the API server logs for it (apiserver
/// `pkg/registry/rest/validate.go` `gatherDeclarativeValidationMismatches`, release-1.33 to
/// v0.37.0-beta.0, with apimachinery `ErrorMatcher.Render`): Takeover's recommendation before
/// 1.36, DeclarativeValidationBeta's when beta errors are enforced, the authoritative sentence
/// for an alpha error, and `Field="normalized" (aka "raw")` when a rule rewrites the path.
#[test]
fn mismatch_explanations_are_the_api_servers_log_lines() {
    const HEAD: &str = "Unexpected difference between hand written validation and declarative validation error results";
    const TAIL: &str = "This indicates an issue with declarative validation.";
    const AUTH: &str =
        "This difference should not affect system operation since hand written validation is authoritative.";
    let hw = parse_handwritten("spec.a: Invalid value: 1: bad [origin=minimum, covered]").unwrap();
    let decl = "spec.fake: Required value [origin=required, beta]\nspec.alpha: Forbidden [alpha]";
    let logs = |c: &Enforcement| {
        let s = compare(c, &mut declarative(decl, false), &hw);
        s.explanations.into_iter().filter(|e| e.starts_with(HEAD)).collect::<Vec<_>>()
    };
    let beta = "Consider disabling the DeclarativeValidationBeta feature gate to keep data persisted in etcd consistent with prior versions of Kubernetes.";
    assert_eq!(
        logs(&Enforcement::for_version(37)),
        [
            format!("{HEAD}, unmatched error(s) found {{Type=\"Invalid value\", Field=\"spec.a\", Origin=\"minimum\"}}. {TAIL} {beta}"),
            format!("{HEAD}, extra error(s) found {{Type=\"Required value\", Field=\"spec.fake\", Origin=\"required\"}}. {TAIL} {beta}"),
            format!("{HEAD}, extra error(s) found {{Type=\"Forbidden\", Field=\"spec.alpha\", Origin=\"\"}}. {TAIL} {AUTH}"),
        ]
    );
    // 1.34 with Takeover: every error is compared and Takeover's recommendation is given.
    let mut c = Enforcement::for_version(34);
    c.set_gate("DeclarativeValidationTakeover", true).unwrap();
    let takeover = "Consider disabling the DeclarativeValidationTakeover feature gate to keep data persisted in etcd consistent with prior versions of Kubernetes.";
    assert!(logs(&c).iter().all(|l| l.ends_with(takeover)), "{:?}", logs(&c));
    // 1.35 without Takeover: authoritative; a normalized path shows both forms.
    let logs35 = logs(&config(35, &["spec.fake=spec.b"], false));
    assert!(logs35.iter().all(|l| l.ends_with(AUTH)));
    assert!(logs35[1].contains(r#"Field="spec.b" (aka "spec.fake")"#), "{logs35:?}");
}
