//! validation-gen's lint, fatal from Kubernetes 1.36 (code-generator `cmd/validation-gen/
//! lint.go`, `lint_rules.go`; "lint failed:" is `klog.Fatalf` in `targets.go`). The rows are
//! `lint_test.go`'s (`TestRuleAlphaBetaPrefix`, `TestRuleStability`, `TestLintRequiredness`) at
//! v0.36.3 (1.36) and at the 1.37 revision, written as whole files with a root type; the tag
//! stabilities are the registry's at each (`validators/*.go` `Docs().StabilityLevel`). The real
//! k8s.io/api files of both versions lint clean (real_api.rs compiles them all).

use kubedv_core::declarative::Schema;

/// The lint messages for type `T` (the root) of `body`, compiled as package `pkg` for 1.`minor`.
fn lint(minor: u32, pkg: &str, body: &str) -> Vec<String> {
    lint_with(minor, pkg, body, "")
}

/// The same, with further declarations after `T`.
fn lint_with(minor: u32, pkg: &str, body: &str, decls: &str) -> Vec<String> {
    let src = format!("package {pkg}\n\ntype T struct {{\n\tTypeMeta int `json:\",inline\"`\n{body}\n}}\n\n{decls}");
    let schema = Schema::compile_with(&src, &[], minor);
    schema
        .diagnostics
        .iter()
        .filter_map(|d| d.message.strip_prefix(&format!("lint failed: type {pkg}.T: ")).map(String::from))
        .collect()
}

const E: &str = "field with validation must have +k8s:optional, +k8s:required or +k8s:forbidden";

fn field(name: &str) -> String {
    format!("field {name}: {E}")
}

/// `Inner` has validation of its own (lint_test.go's `Inner{Bar int +k8s:minimum=0}`).
const INNER: &str = "type Inner struct {\n\t// +k8s:optional\n\t// +k8s:minimum=0\n\tBar int `json:\"bar\"`\n}\n";

/// A map key type with validation.
const KEY: &str = "// +k8s:minLength=1\ntype KeyType string\n";

#[test]
fn requiredness_of_fields_with_validation() {
    // (lint_test.go case, the fields of T, further declarations, expected messages on T).
    let rows: &[(&str, &str, String, Vec<String>)] = &[
        ("1 pointer field without validation", "\tFoo *string `json:\"foo\"`", String::new(), vec![]),
        ("2 direct validation", "\t// +k8s:minimum=0\n\tFoo *int `json:\"foo\"`", String::new(), vec![field("Foo")]),
        ("3 transitive validation", "\tFoo *Inner `json:\"foo\"`", INNER.into(), vec![field("Foo")]),
        (
            "4 with +k8s:optional",
            "\t// +k8s:optional\n\t// +k8s:minimum=0\n\tFoo *int `json:\"foo\"`",
            String::new(),
            vec![],
        ),
        ("5 slice", "\t// +k8s:maxItems=10\n\tItems []string `json:\"items\"`", String::new(), vec![field("Items")]),
        (
            "6 map",
            "\t// +k8s:maxProperties=5\n\tData map[string]string `json:\"data\"`",
            String::new(),
            vec![field("Data")],
        ),
        ("7 struct value (exempt)", "\tNested Inner `json:\"nested\"`", INNER.into(), vec![]),
        (
            "12 opaqueType stops the walk (1.37)",
            "\t// +k8s:opaqueType\n\tFoo *Inner `json:\"foo\"`",
            INNER.into(),
            vec![],
        ),
        (
            "15 eachVal=opaqueType on a slice",
            "\t// +k8s:eachVal=+k8s:opaqueType\n\tFoo []Inner `json:\"foo\"`",
            INNER.into(),
            vec![],
        ),
        (
            "18 a map key type with validation",
            "\tFoo map[KeyType]string `json:\"foo\"`",
            KEY.into(),
            vec![field("Foo")],
        ),
        (
            "17 the same, eachKey=opaqueType",
            "\t// +k8s:eachKey=+k8s:opaqueType\n\tFoo map[KeyType]string `json:\"foo\"`",
            KEY.into(),
            vec![],
        ),
        (
            "24 alias to a slice",
            "\tFoo MyAlias `json:\"foo\"`",
            format!("type MyAlias []Inner\n\n{INNER}"),
            vec![field("Foo")],
        ),
        (
            "26 eachVal=opaqueType on the alias' type",
            "\tFoo MyAlias `json:\"foo\"`",
            format!("// +k8s:eachVal=+k8s:opaqueType\ntype MyAlias []Inner\n\n{INNER}"),
            vec![],
        ),
        (
            "30 the alias' own validation still counts",
            "\tWidgets WidgetList `json:\"widgets\"`",
            format!("// +k8s:maxItems=100\n// +k8s:eachVal=+k8s:opaqueType\ntype WidgetList []Inner\n\n{INNER}"),
            vec![field("Widgets")],
        ),
        (
            "33 one alias, two opacities",
            "\t// +k8s:opaqueType\n\tFoo MyAlias `json:\"foo\"`\n\tBar MyAlias `json:\"bar\"`",
            format!("type MyAlias []Inner\n\n{INNER}"),
            vec![field("Bar")],
        ),
    ];
    for (name, body, decls, want) in rows {
        assert_eq!(&lint_with(37, "v1", body, decls), want, "1.37 {name}");
    }
    // 1.36 counted every known tag (`hasAnyValidationTag`) and walked types without opacity:
    // an opaque field or element still needs its requiredness (and opaqueType was alpha).
    let opaque = "\t// +k8s:opaqueType\n\tFoo *Inner `json:\"foo\"`";
    assert_eq!(
        lint_with(36, "v1", opaque, INNER),
        [
            String::from(
                "field Foo: tag \"k8s:opaqueType\" with stability level \"Alpha\" cannot be used in Stable validation"
            ),
            field("Foo")
        ]
    );
    let each = "\t// +k8s:eachVal=+k8s:opaqueType\n\tFoo []Inner `json:\"foo\"`";
    assert_eq!(lint_with(36, "v1alpha1", each, INNER), [field("Foo")]);
    // Before 1.36 lint only warned: nothing is refused.
    assert_eq!(lint(35, "v1", "\t// +k8s:minimum=0\n\tFoo *int `json:\"foo\"`"), Vec::<String>::new());
}

#[test]
fn recursive_types_end() {
    let node = |tags: &str, ty: &str| {
        format!("package v1\n\n{ty}type Node struct {{\n\tTypeMeta int `json:\",inline\"`\n{tags}\tNext *Node `json:\"next\"`\n}}\n")
    };
    let messages = |src: &str| -> Vec<String> {
        Schema::compile_with(src, &[], 37).diagnostics.iter().map(|d| d.message.clone()).collect()
    };
    // lint_test.go cases 8-10.
    assert!(messages(&node("\t// +k8s:optional\n", "")).is_empty());
    assert_eq!(messages(&node("\t// +k8s:immutable\n", "")), [format!("lint failed: type v1.Node: field Next: {E}")]);
    assert!(messages(&node("\t// +k8s:optional\n", "// +k8s:immutable\n")).is_empty());
}

#[test]
fn alpha_and_beta_only_as_the_outermost_tag() {
    // TestRuleAlphaBetaPrefix.
    let e = |tags: &str| lint(37, "v1", &format!("{tags}\n\t// +k8s:optional\n\tFoo *int `json:\"foo\"`"));
    assert_eq!(e("\t// +k8s:alpha=+k8s:minimum=1"), Vec::<String>::new());
    assert_eq!(e("\t// +k8s:beta=+k8s:minimum=1"), Vec::<String>::new());
    assert_eq!(e("\t// +k8s:alpha"), ["field Foo: tag \"k8s:alpha\" requires a validation tag as its value payload"]);
    assert_eq!(e("\t// +k8s:beta=foo"), ["field Foo: tag \"k8s:beta\" requires a validation tag as its value payload"]);
    let list = "\t// +k8s:listType=map\n\t// +k8s:listMapKey=type\n\t// +k8s:optional\n\t// +k8s:item(type: \"Approved\")=+k8s:alpha=+k8s:zeroOrOneOfMember\n\tConditions []Condition `json:\"conditions\"`";
    let condition = "type Condition struct {\n\t// +k8s:required\n\tType string `json:\"type\"`\n}\n";
    assert_eq!(
        lint_with(37, "v1", list, condition),
        [
            "field Conditions: tag \"k8s:alpha\" can't be used in between",
            "field Conditions: tag \"k8s:alpha\" with stability level \"Beta\" cannot be used in Stable validation"
        ]
    );
}

#[test]
fn tag_stability_against_its_context() {
    // TestRuleStability, with real tags: k8s:neq is alpha, k8s:forbidden beta (both versions).
    let with = |minor: u32, pkg: &str, tags: &str| {
        lint(minor, pkg, &format!("{tags}\n\t// +k8s:optional\n\tFoo string `json:\"foo\"`"))
    };
    let neq = |context: &str| {
        vec![format!(
            "field Foo: tag \"k8s:neq\" with stability level \"Alpha\" cannot be used in {context} validation"
        )]
    };
    assert_eq!(with(37, "v1", "\t// +k8s:neq=\"x\""), neq("Stable"));
    assert_eq!(with(37, "v1", "\t// +k8s:beta=+k8s:neq=\"x\""), neq("Beta"));
    assert_eq!(with(37, "v1beta1", "\t// +k8s:neq=\"x\""), neq("Beta"));
    assert_eq!(with(37, "v1", "\t// +k8s:ifEnabled(Gate)=+k8s:neq=\"x\""), neq("Beta"));
    assert!(with(37, "v1", "\t// +k8s:alpha=+k8s:neq=\"x\"").is_empty());
    assert!(with(37, "v1alpha1", "\t// +k8s:neq=\"x\"").is_empty());
    // Beta tags: refused in a stable context, allowed under ifEnabled and in beta packages.
    let forbidden = |tags: &str, pkg: &str| lint(37, pkg, &format!("{tags}\n\tFoo string `json:\"foo\"`"));
    assert_eq!(
        forbidden("\t// +k8s:forbidden", "v1"),
        ["field Foo: tag \"k8s:forbidden\" with stability level \"Beta\" cannot be used in Stable validation"]
    );
    assert!(forbidden("\t// +k8s:forbidden", "v1beta1").is_empty());
    assert!(forbidden("\t// +k8s:ifEnabled(Gate)=+k8s:forbidden", "v1").is_empty());
    // Promoted in 1.37: maxLength was beta in 1.36's registry.
    assert_eq!(
        with(36, "v1", "\t// +k8s:maxLength=5"),
        ["field Foo: tag \"k8s:maxLength\" with stability level \"Beta\" cannot be used in Stable validation"]
    );
    assert!(with(37, "v1", "\t// +k8s:maxLength=5").is_empty());
}

#[test]
fn nolint_on_the_package_or_a_type() {
    let body = "\t// +k8s:minimum=0\n\tFoo *int `json:\"foo\"`";
    let src = format!("// +k8s:validation-gen-nolint\npackage v1\n\ntype T struct {{\n\tTypeMeta int `json:\",inline\"`\n{body}\n}}\n");
    assert!(!Schema::compile_with(&src, &[], 37).has_errors());
    let src = format!("package v1\n\n// +k8s:validation-gen-nolint\ntype T struct {{\n\tTypeMeta int `json:\",inline\"`\n{body}\n}}\n");
    assert!(!Schema::compile_with(&src, &[], 37).has_errors());
    // A list type (embedding ListMeta) is no root: validation-gen never lints from it.
    let src = format!("package v1\n\ntype TList struct {{\n\tTypeMeta int `json:\",inline\"`\n\tListMeta int `json:\"metadata\"`\n{body}\n}}\n");
    assert!(!Schema::compile_with(&src, &[], 37).has_errors());
}

/// A real file with one requiredness tag taken out is refused, at that field.
#[test]
fn a_real_file_missing_a_requiredness_tag() {
    let path = "../tests/corpus/k8s-api/1.37/certificates/v1/types.go";
    let src = std::fs::read_to_string(path).unwrap();
    let line =
        "\t// +k8s:beta(since: \"1.37\")=+k8s:optional\n\t// +k8s:beta(since: \"1.37\")=+k8s:item(type: \"Approved\")";
    assert!(src.contains(line));
    let cut = src.replacen(line, "\t// +k8s:beta(since: \"1.37\")=+k8s:item(type: \"Approved\")", 1);
    let schema = Schema::compile_with(&cut, &kubedv_core_deps(&cut), 37);
    let errors: Vec<String> = schema.diagnostics.iter().filter(|d| d.is_error()).map(|d| d.to_string()).collect();
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert!(
        errors[0]
            .ends_with(&format!("error: lint failed: type v1.CertificateSigningRequestStatus: field Conditions: {E}")),
        "{errors:#?}"
    );
    let at = cut.lines().position(|l| l.contains("Conditions []CertificateSigningRequestCondition")).unwrap() + 1;
    assert!(errors[0].starts_with(&format!("{at}:")), "{errors:#?}");
}

/// The packages a real file imports, from the 1.37 catalog.
fn kubedv_core_deps(src: &str) -> Vec<kubedv_core::declarative::Dependency<'static>> {
    use std::io::Read;
    let bytes = std::fs::read("../catalog/1.37.gz").unwrap();
    let mut text = String::new();
    flate2::read::GzDecoder::new(&bytes[..]).read_to_string(&mut text).unwrap();
    let text: &'static str = Box::leak(text.into_boxed_str());
    let catalog: &'static kubedv_core::builtin::Catalog<'static> =
        Box::leak(Box::new(kubedv_core::builtin::Catalog::parse(text).unwrap()));
    catalog.dependencies_of_source(src)
}
