//! Kubernetes' CEL environments by version (apiserver 24a394e5 `pkg/cel/environment/base.go`:
//! each library's `IntroducedVersion`), and which one an API server compiles a new expression
//! in: its minimum compatibility version, one minor below its own (component-base
//! `compatibility/version.go` `SetEmulationVersion`: `emulationVersion.SubtractMinor(1)`;
//! `DefaultCompatibilityVersion` returns it; apiextensions `validation.go` `RuleEnv` and
//! admissionregistration's validation pick `NewExpressionsEnv` for an expression not already
//! stored). A name the environment lacks is cel-go's checker error
//! (`checker/errors.go` `undeclaredReference`; checker.go reports a namespaced function's
//! namespace, and a member call at its `(`).

use kubedv_core::cel::checker::{check_kubernetes, Decls};
use kubedv_core::cel::environment::new_expressions;
use kubedv_core::cel::Program;
use kubedv_core::crd::Crd;
use kubedv_core::policy::PolicySet;
use serde_json::json;

fn check_at(src: &str, compatibility: u32) -> Result<(), (String, i32)> {
    let p = Program::compile(src).map_err(|e| (e.message.clone(), e.column))?;
    let mut decls = Decls::default();
    decls.set_compatibility(compatibility);
    decls.declare("l", kubedv_core::cel::checker::CelType::Dyn);
    check_kubernetes(&p, &decls).map(|_| ()).map_err(|e| (e.message, e.column))
}

/// (expression, the last compatibility version without it, the name reported, its column).
const GATED: &[(&str, u32, &str, i32)] = &[
    // library.IP / library.CIDR: 1.30.
    ("ip('1.2.3.4').family() == 4", 29, "ip", 3),
    ("isCIDR('10.0.0.0/8')", 29, "isCIDR", 7),
    ("ip.isCanonical('1.2.3.4')", 29, "ip", 1),
    ("l.isLoopback()", 29, "isLoopback", 13),
    // library.Format: 1.31.
    ("format.dns1123Label().validate('a') == optional.none()", 30, "format", 1),
    // Two-variable comprehensions: 1.32 (without them, a call of an undeclared function).
    ("[1].all(i, v, v > i)", 31, "all", 8),
    ("[1].exists_one(i, v, v > i)", 31, "exists_one", 15),
    ("[1].transformList(i, v, v)", 31, "transformList", 18),
    // library.SemverLib version 1: 1.33.
    ("semver('1.0.0').major() == 1", 32, "semver", 7),
    ("isSemver('1.0.0')", 32, "isSemver", 9),
    ("l.minor() == 1", 32, "minor", 8),
    // cel-go ext.Lists version 3: 1.34.
    ("lists.range(3).size() == 3", 33, "lists", 1),
    ("[1, 2].slice(0, 1) == [1]", 33, "slice", 13),
    ("[[1]].flatten() == [1]", 33, "flatten", 14),
    ("[2, 1].sort() == [1, 2]", 33, "sort", 12),
    ("[1, 1].distinct() == [1]", 33, "distinct", 16),
    ("[1, 2].reverse() == [2, 1]", 33, "reverse", 15),
    ("[2, 1].sortBy(x, x) == [1, 2]", 33, "sortBy", 14),
    // library.Lists version 1: 1.37.
    ("[1, 2].includes(1)", 36, "includes", 16),
    ("'abc'.includes('abc')", 36, "includes", 15),
];

#[test]
fn a_library_is_declared_from_the_version_that_introduced_it() {
    for &(src, without, name, column) in GATED {
        assert_eq!(
            check_at(src, without),
            Err((format!("undeclared reference to '{name}' (in container '')"), column)),
            "{src} at compatibility 1.{without}"
        );
        assert_eq!(check_at(src, without + 1), Ok(()), "{src} at compatibility 1.{}", without + 1);
    }
}

#[test]
fn what_every_modeled_environment_has() {
    // Introduced before 1.30: quantity (1.28), optionals (1.28), sets (1.29), strings v2.
    for src in ["quantity('1Gi').isGreaterThan(quantity('1Mi'))", "sets.contains([1], [1])", "'a'.lowerAscii() == 'a'"]
    {
        assert_eq!(check_at(src, 29), Ok(()), "{src}");
    }
    // One-variable macros are the standard ones.
    assert_eq!(check_at("[1].all(v, v > 0) && [1].exists_one(v, v > 0)", 29), Ok(()));
}

#[test]
fn the_checker_error_comes_before_the_validators() {
    // cel-go runs its AST validators on a checked expression only: the undeclared function,
    // not the heterogeneous list (at an earlier column), is the error.
    assert_eq!(
        check_at("[1, 'a'] == [] || [1].includes(1)", 36),
        Err((String::from("undeclared reference to 'includes' (in container '')"), 31))
    );
}

/// A macro its environment lacks is not expanded: cel-go parses a call, and its checker
/// (checker.go `checkCall`: the arguments, then the target, then the function) reports every
/// argument written as a variable, and each use of it, as an undeclared identifier. Errors are
/// sorted by position (common/errors.go `ToDisplayString`).
#[test]
fn an_absent_macros_variables_name_nothing() {
    let all = |src: &str, compatibility: u32| -> Vec<(String, i32)> {
        let p = Program::compile(src).unwrap();
        let mut decls = Decls::default();
        decls.set_compatibility(compatibility);
        decls.declare("l", kubedv_core::cel::checker::CelType::Dyn);
        let e = check_kubernetes(&p, &decls).map(|_| ()).unwrap_err();
        core::iter::once(&e).chain(&e.also).map(|e| (e.message.clone(), e.column)).collect()
    };
    let undeclared = |names: &[(&str, i32)]| -> Vec<(String, i32)> {
        names.iter().map(|&(n, c)| (format!("undeclared reference to '{n}' (in container '')"), c)).collect()
    };
    // Two-variable comprehensions before 1.32.
    assert_eq!(all("[1].all(i, v, v > i)", 31), undeclared(&[("all", 8), ("i", 9), ("v", 12), ("v", 15), ("i", 19)]));
    assert_eq!(
        all("l.transformMap(k, v, v != 0, k)", 31),
        undeclared(&[("transformMap", 15), ("k", 16), ("v", 19), ("v", 22), ("k", 30)])
    );
    // A variable of an enclosing comprehension is a variable: only the inner one is reported.
    assert_eq!(all("l.all(x, [1].exists(i, x, x > i))", 31), undeclared(&[("exists", 20), ("i", 21), ("i", 31)]));
    // `sortBy` before 1.35 (ext lists version 3, introduced 1.34).
    assert_eq!(all("[2, 1].sortBy(x, -x)", 33), undeclared(&[("sortBy", 14), ("x", 15), ("x", 19)]));
    // `cel.bind`: never enabled by Kubernetes (ext.Bindings).
    assert_eq!(all("cel.bind(x, 1, x + 1) == 2", 36), undeclared(&[("cel", 1), ("bind", 9), ("x", 10), ("x", 16)]));
    // Comments and line breaks between the arguments.
    assert_eq!(
        all("[1].all(i, // the index\n  v, v > 0)", 31),
        vec![
            (String::from("undeclared reference to 'all' (in container '')"), 8),
            (String::from("undeclared reference to 'i' (in container '')"), 9),
            (String::from("undeclared reference to 'v' (in container '')"), 3),
            (String::from("undeclared reference to 'v' (in container '')"), 6),
        ]
    );
}

fn crd_with_rule(rule: &str) -> serde_json::Value {
    json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {
            "group": "example.com",
            "names": {"kind": "Widget", "plural": "widgets"},
            "scope": "Namespaced",
            "versions": [{
                "name": "v1", "served": true, "storage": true,
                "schema": {"openAPIV3Schema": {
                    "type": "object",
                    "properties": {"spec": {
                        "type": "object",
                        "properties": {"tags": {"type": "array", "maxItems": 4, "items": {"type": "string", "maxLength": 8}}},
                        "x-kubernetes-validations": [{"rule": rule}]
                    }}
                }}
            }]
        }
    })
}

/// A new CRD's rules are new expressions: `includes` came in 1.37, so no API server kubedv
/// models accepts it in a new CRD (1.37 compiles new expressions at 1.36); ext lists came in
/// 1.34, so 1.34 refuses them and 1.35 accepts them.
#[test]
fn a_new_crd_rule_is_compiled_one_minor_back() {
    let refused = |rule: &str, minor: u32| -> Option<String> {
        Crd::load_all_at(&crd_with_rule(rule), minor).err().map(|e| e[0].text())
    };
    for minor in 33..=37 {
        let text = refused("self.tags.includes('a')", minor).unwrap_or_else(|| panic!("1.{minor} accepted includes"));
        assert!(text.ends_with(concat!(
            "compilation failed: ERROR: <input>:1:19: undeclared reference to 'includes' (in container '')\n",
            " | self.tags.includes('a')\n",
            " | ..................^"
        )));
    }
    assert!(refused("self.tags.sort() == self.tags", 34).is_some());
    assert_eq!(refused("self.tags.sort() == self.tags", 35), None);
    assert!(refused("semver('1.0.0').major() == 1", 33).is_some());
    assert_eq!(refused("semver('1.0.0').major() == 1", 34), None);
    assert_eq!(new_expressions(37), 36);
}

/// A policy's expressions are new expressions too (admissionregistration validation.go:
/// `environment.NewExpressions` unless the expression is already stored).
#[test]
fn a_new_policy_expression_is_compiled_one_minor_back() {
    let policy = |expression: &str| {
        json!({
            "apiVersion": "admissionregistration.k8s.io/v1",
            "kind": "ValidatingAdmissionPolicy",
            "metadata": {"name": "p"},
            "spec": {
                "failurePolicy": "Fail",
                "matchConstraints": {"resourceRules": [{"apiGroups": ["apps"], "apiVersions": ["v1"], "operations": ["CREATE"], "resources": ["deployments"]}]},
                "validations": [{"expression": expression}]
            }
        })
    };
    let errors =
        |expression: &str, minor: u32| kubedv_core::policy::creation_errors(&policy(expression), minor).unwrap();
    let found = errors("[1].includes(1)", 37);
    assert_eq!(found.len(), 1);
    assert!(found[0].text().contains("undeclared reference to 'includes' (in container '')"), "{}", found[0].text());
    assert!(errors("lists.range(2).size() == 2", 34)[0].text().contains("undeclared reference to 'lists'"));
    assert!(errors("lists.range(2).size() == 2", 35).is_empty());
    let set = PolicySet::new_at(&[policy("[1].includes(1)")], 37);
    assert_eq!(set.problems.len(), 1);
}
