//! Enforcement and the handwritten-vs-declarative comparison, per version and gates.
//! Sources: apiserver pkg/registry/rest/validate.go (ValidateDeclarativelyWithMigrationChecks,
//! gatherDeclarativeValidationMismatches: alpha/beta errors compared, handwritten de-duplicated,
//! "unmatched error(s)" / "extra error(s)"), apimachinery pkg/api/validate/errors.go
//! (FilterEnforcedDeclarativeErrors, FilterCoveredHandwrittenErrors), field/error_matcher.go
//! (ByType, ByOrigin, RequireOriginWhenInvalid, ByField), and the 1.34 reference page
//! (DeclarativeValidation / DeclarativeValidationTakeover). Per version: apiserver v0.35.7 and
//! v0.36.3 (validate.go; 1.36 filterHandwrittenErrors by the handwritten error's own beta mark,
//! opt-in with WithDeclarativeEnforcement), apiserver after kubernetes PR #140117 for 1.37
//! (reverse lookup, many-to-many, no opt-in), pkg/features/kube_features.go for the gates
//! (Takeover locked to false in 1.37) and component-base feature_gate.go for the refusals.

use kubedv_core::declarative::shadow::{compare, parse_handwritten, Enforcement};
use kubedv_core::declarative::{Options, Schema};
use kubedv_core::field::Error;

const TYPES: &str = r#"package v1
type Thing struct {
	TypeMeta int
	// +k8s:minimum=0
	Replicas int32 `json:"replicas"`
	// +k8s:beta(since: "1.36")=+k8s:maxLength=5
	Color string `json:"color"`
	// +k8s:alpha(since: "1.36")=+k8s:format=k8s-short-name
	Name string `json:"name"`
}
"#;

const HANDWRITTEN: &str = "replicas: Invalid value: -1: must be greater than or equal to 0
color: Too long: may not be more than 5 characters [origin=maxLength, covered]
name: Invalid value: \"Bad_Name\": not a short name [origin=format=k8s-short-name, covered]
spec.other: Required value
";

fn declarative() -> Vec<Error> {
    let schema = Schema::compile(TYPES);
    let root = schema.type_named("Thing").unwrap();
    let obj = serde_json::json!({"replicas": -1, "color": "magenta", "name": "Bad_Name"});
    schema.validate(root, &obj, &Options::default()).errors
}

fn fields(errs: &[Error]) -> Vec<String> {
    errs.iter().map(|e| format!("{}:{}", e.field, if e.enforced { "enforced" } else { "shadowed" })).collect()
}

fn returned(errs: &[Error]) -> Vec<&str> {
    errs.iter().map(|e| e.field.as_str()).collect()
}

#[test]
fn newest_defaults() {
    let mut decl = declarative();
    let hw = parse_handwritten(HANDWRITTEN).unwrap();
    let s = compare(&Enforcement::default(), &mut decl, &hw);
    assert_eq!(fields(&decl), ["replicas:enforced", "color:enforced", "name:shadowed"]);
    assert_eq!(s.matched.len(), 2);
    assert!(s.unmatched_handwritten.is_empty() && s.extra_declarative.is_empty());
    assert_eq!(s.mismatches, 0);
    // The covered handwritten color error is replaced by the enforced beta one; the alpha rule
    // leaves the handwritten name error in place.
    assert_eq!(returned(&s.returned), ["replicas", "name", "spec.other", "replicas", "color"]);
    assert!(s.explanations.contains(&"color: Too long: may not be more than 5 characters: beta rule, gate DeclarativeValidationBeta=true → returned".to_string()));
}

#[test]
fn beta_gate_off_shadows_beta_rules() {
    let mut decl = declarative();
    let hw = parse_handwritten(HANDWRITTEN).unwrap();
    let mut config = Enforcement::default();
    config.set_gate("DeclarativeValidationBeta", false).unwrap();
    let s = compare(&config, &mut decl, &hw);
    assert_eq!(fields(&decl), ["replicas:enforced", "color:shadowed", "name:shadowed"]);
    assert_eq!(returned(&s.returned), ["replicas", "color", "name", "spec.other", "replicas"]);
    assert_eq!(s.mismatches, 0);
}

#[test]
fn mismatches_unmatched_and_extra() {
    let mut decl = declarative();
    // A covered handwritten error nothing matches, and no handwritten twin for the alpha rule.
    let hw = parse_handwritten(
        "color: Too long: may not be more than 5 characters [origin=maxLength, covered]\n\
         spec.size: Invalid value: 3: too big [origin=maximum, covered]\n\
         color: Too long: may not be more than 5 characters [origin=maxLength, covered]\n",
    )
    .unwrap();
    let s = compare(&Enforcement::default(), &mut decl, &hw);
    assert_eq!(s.matched.len(), 1, "duplicates are compared once");
    assert_eq!(returned(&s.unmatched_handwritten.iter().map(|h| h.error.clone()).collect::<Vec<_>>()), ["spec.size"]);
    assert_eq!(returned(&s.extra_declarative), ["name"]);
    assert_eq!(s.mismatches, 2);
}

#[test]
fn invalid_errors_need_an_origin_on_both_sides() {
    let mut decl = declarative();
    let hw = parse_handwritten("name: Invalid value: \"Bad_Name\": not a short name [covered]\n").unwrap();
    let s = compare(&Enforcement::default(), &mut decl, &hw);
    assert!(s.matched.is_empty());
    assert_eq!(s.mismatches, 3, "unmatched name, extra color and name");
}

#[test]
fn resource_not_opted_in_returns_handwritten_and_compares_everything() {
    let mut decl = declarative();
    let hw = parse_handwritten(HANDWRITTEN).unwrap();
    let config = Enforcement { opted_in: false, ..Enforcement::for_version(36) };
    let s = compare(&config, &mut decl, &hw);
    assert_eq!(fields(&decl), ["replicas:shadowed", "color:shadowed", "name:shadowed"]);
    assert_eq!(returned(&s.returned), ["replicas", "color", "name", "spec.other"]);
    assert_eq!(returned(&s.extra_declarative), ["replicas"], "the stable error has no covered handwritten twin");
}

#[test]
fn kubernetes_1_34_handwritten_authoritative_by_default() {
    let mut decl = declarative();
    let hw = parse_handwritten(HANDWRITTEN).unwrap();
    let s = compare(&Enforcement::for_version(34), &mut decl, &hw);
    assert!(decl.iter().all(|e| !e.enforced));
    assert_eq!(returned(&s.returned), ["replicas", "color", "name", "spec.other"]);
    assert_eq!(s.mismatches, 1);
    assert!(s.explanations.iter().any(|e| e.ends_with("1.34 with DeclarativeValidationTakeover=false: handwritten validation is authoritative, this error is only compared")));
}

#[test]
fn kubernetes_1_34_takeover() {
    let mut decl = declarative();
    let hw = parse_handwritten(HANDWRITTEN).unwrap();
    let mut config = Enforcement::for_version(34);
    config.set_gate("DeclarativeValidationTakeover", true).unwrap();
    let s = compare(&config, &mut decl, &hw);
    // No stability levels before 1.36: RemoveCoveredByDeclarative, then every declarative error.
    assert_eq!(fields(&decl), ["replicas:enforced", "color:enforced", "name:enforced"]);
    assert_eq!(returned(&s.returned), ["replicas", "spec.other", "replicas", "color", "name"]);
}

#[test]
fn kubernetes_1_33_declarative_validation_off() {
    let mut decl = declarative();
    let hw = parse_handwritten(HANDWRITTEN).unwrap();
    let mut config = Enforcement::for_version(33);
    config.set_gate("DeclarativeValidation", false).unwrap();
    let s = compare(&config, &mut decl, &hw);
    assert!(decl.iter().all(|e| !e.enforced));
    assert_eq!(s.mismatches, 0, "nothing runs, nothing is compared");
    assert_eq!(returned(&s.returned), ["replicas", "color", "name", "spec.other"]);
}

#[test]
fn gates_per_version() {
    let mut c = Enforcement::default();
    assert_eq!(c.minor, 37);
    assert_eq!(
        c.set_gate("DeclarativeValidation", false).unwrap_err(),
        "cannot set feature gate DeclarativeValidation to false, feature is locked to true"
    );
    assert_eq!(
        c.set_gate("DeclarativeValidationTakeover", true).unwrap_err(),
        "cannot set feature gate DeclarativeValidationTakeover to true, feature is locked to false"
    );
    assert!(c.set_gate("DeclarativeValidationTakeover", false).is_ok());
    let mut c36 = Enforcement::for_version(36);
    assert!(c36.set_gate("DeclarativeValidationTakeover", true).is_ok(), "1.36: accepted, not honored");
    assert!(!c36.takeover);
    assert!(c.set_gate("Nope", true).unwrap_err().starts_with("unrecognized feature gate: Nope (Kubernetes 1.37 has"));
    let mut old = Enforcement::for_version(35);
    assert!(old
        .set_gate("DeclarativeValidationBeta", true)
        .unwrap_err()
        .starts_with("unrecognized feature gate: DeclarativeValidationBeta"));
    // Versions: one table; unknown ones are refused with the list.
    assert_eq!(
        Enforcement::from_request(Some("1.40"), &[], true).unwrap_err(),
        "Kubernetes version \"1.40\" is not supported: expected one of 1.33, 1.34, 1.35, 1.36, 1.37 (declarative validation started in 1.33)"
    );
    assert!(Enforcement::from_request(Some("1.37"), &[], false)
        .unwrap_err()
        .starts_with("1.37 has no per-resource opt-in"));
    assert!(!Enforcement::from_request(Some("1.36"), &[], false).unwrap().opted_in);
}

/// 1.36 drops a covered handwritten error by its own beta mark (no matching needed);
/// 1.37 only when an enforced beta declarative error matches it (PR #140117).
#[test]
fn handwritten_filter_1_36_vs_1_37() {
    let hw = parse_handwritten(
        "color: Too long: may not be more than 5 characters [origin=maxLength, covered, beta]\n\
         spec.gone: Required value [covered, beta]\n",
    )
    .unwrap();
    let mut decl = declarative();
    let s36 = compare(&Enforcement::for_version(36), &mut decl, &hw);
    assert_eq!(returned(&s36.returned), ["replicas", "color"], "both beta-marked covered errors dropped");
    let mut decl = declarative();
    let s37 = compare(&Enforcement::for_version(37), &mut decl, &hw);
    assert_eq!(returned(&s37.returned), ["spec.gone", "replicas", "color"], "spec.gone has no declarative twin");
}

/// Up to 1.36 a declarative error is used up by the first handwritten error it matches; 1.37
/// matches many-to-many. Up to 1.35 only exact duplicates are merged.
#[test]
fn matching_multiplicity_per_version() {
    let hw = parse_handwritten(
        "color: Too long: may not be more than 5 characters [origin=maxLength, covered]\n\
         color: Too long: may not be more than 6 characters [origin=maxLength, covered]\n",
    )
    .unwrap();
    let mismatches = |minor: u32| {
        let mut decl = declarative();
        compare(&Enforcement::for_version(minor), &mut decl, &hw).mismatches
    };
    // 1.35: two distinct handwritten errors (details differ), one declarative twin: the second is
    // unmatched; replicas and name are extra (every declarative error is compared).
    assert_eq!(mismatches(35), 3);
    // 1.36: the matcher merges them; name (alpha) is extra.
    assert_eq!(mismatches(36), 1);
    assert_eq!(mismatches(37), 1);
}

#[test]
fn handwritten_input_forms() {
    let hw = parse_handwritten(
        r#"[{"field": "spec.x", "type": "FieldValueInvalid", "origin": "minimum", "covered": true}]"#,
    )
    .unwrap();
    assert_eq!((hw[0].error.field.as_str(), hw[0].error.origin.as_str(), hw[0].covered), ("spec.x", "minimum", true));
    assert_eq!(parse_handwritten("not an error line").unwrap_err().split(':').next(), Some("line 1"));
    assert!(parse_handwritten("a: Required value [bogus]").unwrap_err().contains("unknown mark \"bogus\""));
    assert!(parse_handwritten(r#"[{"field": "a", "type": "Nope"}]"#).is_err());
}

/// Every version and gate combination: (version, gates, not opted in) → enforced fields,
/// returned fields, mismatches.
#[test]
fn version_gate_matrix() {
    type Row = (u32, &'static [(&'static str, bool)], bool, &'static [&'static str], &'static [&'static str], usize);
    let rows: &[Row] = &[
        // 1.33–1.35: handwritten authoritative unless Takeover; everything compared.
        (33, &[], false, &[], &["replicas", "color", "name", "spec.other"], 1),
        (
            33,
            &[("DeclarativeValidationTakeover", true)],
            false,
            &["replicas", "color", "name"],
            &["replicas", "spec.other", "replicas", "color", "name"],
            1,
        ),
        (34, &[("DeclarativeValidation", false)], false, &[], &["replicas", "color", "name", "spec.other"], 0),
        (35, &[], false, &[], &["replicas", "color", "name", "spec.other"], 1),
        (
            35,
            &[("DeclarativeValidationTakeover", true)],
            false,
            &["replicas", "color", "name"],
            &["replicas", "spec.other", "replicas", "color", "name"],
            1,
        ),
        (
            35,
            &[("DeclarativeValidation", false), ("DeclarativeValidationTakeover", true)],
            false,
            &[],
            &["replicas", "color", "name", "spec.other"],
            0,
        ),
        // 1.36: stability levels and the beta gate; Takeover is accepted and ignored; the
        // handwritten color error is not marked beta, so it stays (filterHandwrittenErrors).
        (36, &[], false, &["replicas", "color"], &["replicas", "color", "name", "spec.other", "replicas", "color"], 0),
        (
            36,
            &[("DeclarativeValidationBeta", false)],
            false,
            &["replicas"],
            &["replicas", "color", "name", "spec.other", "replicas"],
            0,
        ),
        (
            36,
            &[("DeclarativeValidationTakeover", true)],
            false,
            &["replicas", "color"],
            &["replicas", "color", "name", "spec.other", "replicas", "color"],
            0,
        ),
        (36, &[], true, &[], &["replicas", "color", "name", "spec.other"], 1),
        (36, &[("DeclarativeValidationBeta", false)], true, &[], &["replicas", "color", "name", "spec.other"], 1),
        // 1.37: no opt-in; a covered handwritten error goes when an enforced beta error matches.
        (37, &[], false, &["replicas", "color"], &["replicas", "name", "spec.other", "replicas", "color"], 0),
        (
            37,
            &[("DeclarativeValidationBeta", false)],
            false,
            &["replicas"],
            &["replicas", "color", "name", "spec.other", "replicas"],
            0,
        ),
        (
            37,
            &[("DeclarativeValidationTakeover", false)],
            false,
            &["replicas", "color"],
            &["replicas", "name", "spec.other", "replicas", "color"],
            0,
        ),
    ];
    for (minor, gates, not_opted_in, enforced, want_returned, mismatches) in rows {
        let mut config = Enforcement::for_version(*minor);
        config.opted_in = !not_opted_in;
        for (gate, on) in *gates {
            config.set_gate(gate, *on).unwrap();
        }
        let mut decl = declarative();
        let hw = parse_handwritten(HANDWRITTEN).unwrap();
        let s = compare(&config, &mut decl, &hw);
        let got: Vec<&str> = decl.iter().filter(|e| e.enforced).map(|e| e.field.as_str()).collect();
        assert_eq!(&got, enforced, "1.{minor} {gates:?} opted_in={}", !not_opted_in);
        assert_eq!(&returned(&s.returned), want_returned, "1.{minor} {gates:?}");
        assert_eq!(s.mismatches, *mismatches, "1.{minor} {gates:?}");
    }
}
