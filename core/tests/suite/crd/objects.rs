//! Custom resource validation, case by case: OpenAPI errors in the API server's form
//! (apiextensions-apiserver pkg/apiserver/validation/validation.go mapping go-openapi's
//! messages, kube-openapi pkg/validation/errors), list-type duplicates
//! (pkg/apiserver/schema/listtype/validation.go), and x-kubernetes-validations
//! (pkg/apiserver/schema/cel/validation.go; validation_test.go for the behaviours).

use kubedv_core::crd::{Crd, Options};
use serde_json::{json, Value};

/// A CRD with this schema under `spec`.
fn crd(spec_schema: Value) -> Crd {
    let doc = json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition", "metadata": {"name": "widgets.example.com"},
        "spec": {"group": "example.com", "scope": "Namespaced", "names": {"kind": "Widget", "plural": "widgets"}, "versions": [{"name": "v1", "served": true, "storage": true,
            "schema": {"openAPIV3Schema": {"type": "object", "properties": {"spec": spec_schema}}}}]}
    });
    Crd::load(&doc, None).unwrap_or_else(|e| panic!("{:?}", e.iter().map(|x| x.text()).collect::<Vec<_>>()))
}

fn errors(c: &Crd, spec: Value, old: Option<Value>) -> Vec<String> {
    let obj = json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"}, "spec": spec});
    let old =
        old.map(|o| json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"}, "spec": o}));
    c.validate(&obj, old.as_ref()).iter().map(|e| e.text()).collect()
}

/// `uniqueItems: true` is refused in a CRD (validation.go: "the runtime complexity becomes
/// quadratic"), so kube-openapi's DuplicateItems is only reachable through the OpenAPI
/// validator itself: it carries no value, and apiextensions prints "".
#[test]
fn unique_items_in_the_openapi_validator() {
    let schema = json!({"type": "object", "properties": {"tags": {"type": "array", "uniqueItems": true, "items": {"type": "string"}}}});
    let mut errors = Vec::new();
    kubedv_core::crd::openapi::validate(&json!({"tags": ["a", "a"]}), &schema, None, &mut errors);
    let texts: Vec<String> = errors.iter().map(|e| e.text()).collect();
    assert_eq!(texts, ["tags: Invalid value: \"\": tags in body shouldn't contain duplicates"]);
}

#[test]
fn openapi_value_validation() {
    let c = crd(json!({"type": "object", "required": ["name"], "properties": {
        "name": {"type": "string", "minLength": 2, "maxLength": 5, "pattern": "^[a-z]+$"},
        "replicas": {"type": "integer", "minimum": 1, "maximum": 10, "format": "int32"},
        "ratio": {"type": "number", "exclusiveMaximum": true, "maximum": 1, "multipleOf": 0.25},
        "color": {"type": "string", "enum": ["red", "blue"]},
        "when": {"type": "string", "format": "date-time"},
        "tags": {"type": "array", "minItems": 1, "maxItems": 2, "items": {"type": "string"}},
        "labels": {"type": "object", "maxProperties": 1, "additionalProperties": {"type": "string", "maxLength": 3}},
        "note": {"type": "string", "nullable": true},
        "count": {"type": "integer"},
        "any": {"x-kubernetes-int-or-string": true}
    }}));
    // Non-blocking errors: the rules would still run.
    assert_eq!(
        errors(
            &c,
            json!({"name": "A", "replicas": 0, "ratio": 1, "when": "yesterday", "tags": ["a", "a"], "note": null, "any": "50%"}),
            None
        ),
        [
            // string_validator.go: the first failing string check only (minLength before pattern).
            "spec.name: Invalid value: \"A\": spec.name in body should be at least 2 chars long",
            // values.go MultipleOfNativeType: integer data truncates the factor (0.25 → 0).
            "spec.ratio: Invalid value: 0: factor MultipleOf declared for spec.ratio must be positive: 0",
            "spec.ratio: Invalid value: 1: spec.ratio in body should be less than 1",
            "spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1",
            "spec.when: Invalid value: \"yesterday\": spec.when in body must be of type date-time: \"yesterday\"",
        ]
    );
    assert_eq!(
        errors(&c, json!({"name": "toolong", "replicas": 11, "ratio": 0.3, "tags": []}), None),
        [
            "spec.name: Too long: may not be more than 5 bytes",
            "spec.ratio: Invalid value: 0.3: spec.ratio in body should be a multiple of 0.25",
            "spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10",
            // TooFewItems carries the count.
            "spec.tags: Invalid value: 0: spec.tags in body should have at least 1 items",
            // No notice: this CRD has no rules (strategy.go: celValidator is nil).
        ]
    );
    // Types, required, enum, maps (by dotted names), nulls, int-or-string.
    assert_eq!(
        errors(
            &c,
            json!({"replicas": "three", "color": "green", "labels": {"a": "x", "b": "long"}, "count": null, "any": 1.5}),
            None
        ),
        [
            // type.go: a type error's value is the type found; `count: null` is pruned
            // (PruneNonNullableNullsWithoutDefaults); field.TooMany says "item" for 1.
            "spec.any: Invalid value: \"number\": spec.any in body must be of type integer,string: \"number\"",
            "spec.color: Unsupported value: \"green\": supported values: \"red\", \"blue\"",
            "spec.labels: Too many: 2: must have at most 1 item",
            "spec.labels.b: Too long: may not be more than 3 bytes",
            "spec.replicas: Invalid value: \"string\": spec.replicas in body must be of type integer: \"string\"",
            "spec.name: Required value",
        ]
    );
    // Unknown fields are pruned, not errors.
    assert_eq!(errors(&c, json!({"name": "ok", "unknown": {"x": 1}}), None), Vec::<String>::new());
}

#[test]
fn list_types() {
    let c = crd(json!({"type": "object", "properties": {
        "set": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "integer"}},
        "ports": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["port", "protocol"],
            "items": {"type": "object", "required": ["port"],
                "properties": {"port": {"type": "integer"}, "protocol": {"type": "string", "default": "TCP"}}}}
    }}));
    assert_eq!(
        errors(
            &c,
            json!({"set": [1, 2, 1], "ports": [{"port": 80, "protocol": "TCP"}, {"port": 80, "protocol": "TCP"}, {"port": 80, "protocol": "UDP"}]}),
            None
        ),
        ["spec.ports[1]: Duplicate value: {\"port\":80,\"protocol\":\"TCP\"}", "spec.set[2]: Duplicate value: 1",]
    );
}

#[test]
fn rules_print_scalars_and_omit_objects() {
    let c = crd(json!({"type": "object",
    "x-kubernetes-validations": [{"rule": "self.min <= self.max", "message": "min must not exceed max"}],
    "properties": {
        "min": {"type": "integer"},
        "max": {"type": "integer", "x-kubernetes-validations": [{"rule": "self < 100"}]},
        "limits": {"type": "object", "additionalProperties": {"type": "string", "x-kubernetes-validations": [{"rule": "self != ''", "message": "must not be empty"}]}},
        "tags": {"type": "array", "items": {"type": "string"}, "x-kubernetes-validations": [{"rule": "self.size() < 2", "message": "at most one tag"}]}
    }}));
    assert_eq!(
        errors(&c, json!({"min": 300, "max": 200, "limits": {"cpu": ""}, "tags": ["a", "b"]}), None),
        [
            "spec: Invalid value: min must not exceed max",
            "spec.limits[cpu]: Invalid value: \"\": must not be empty",
            "spec.max: Invalid value: 200: failed rule: self < 100",
            "spec.tags: Invalid value: at most one tag",
        ]
    );
    // Before 1.35 (kubernetes PRs #132798 and #133832 changed it) every failed rule printed
    // its schema's type as the value (kubernetes issue #132528 shows 1.32's
    // `spec.name: Invalid value: "string": ...`).
    let doc = json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition", "metadata": {"name": "widgets.example.com"},
        "spec": {"group": "example.com", "scope": "Namespaced", "names": {"kind": "Widget", "plural": "widgets"}, "versions": [{"name": "v1", "served": true, "storage": true,
            "schema": {"openAPIV3Schema": {"type": "object", "properties": {"spec": {"type": "object",
                "x-kubernetes-validations": [{"rule": "self.min <= self.max", "message": "min must not exceed max"}],
                "properties": {
                    "min": {"type": "integer"},
                    "max": {"type": "integer", "x-kubernetes-validations": [{"rule": "self < 100"}]},
                    "tags": {"type": "array", "items": {"type": "string"}, "x-kubernetes-validations": [{"rule": "self.size() < 2", "reason": "FieldValueDuplicate"}]}
                }}}}}}]}
    });
    for (minor, expected) in [
        (
            34,
            [
                "spec: Invalid value: \"object\": min must not exceed max",
                "spec.max: Invalid value: \"integer\": failed rule: self < 100",
                "spec.tags: Duplicate value: \"array\"",
            ],
        ),
        (
            35,
            [
                "spec: Invalid value: min must not exceed max",
                "spec.max: Invalid value: 200: failed rule: self < 100",
                "spec.tags: Duplicate value",
            ],
        ),
    ] {
        let c = Crd::load_at(&doc, None, minor).unwrap_or_else(|e| panic!("{:?}", e[0].text()));
        assert_eq!(errors(&c, json!({"min": 300, "max": 200, "tags": ["a", "b"]}), None), expected, "1.{minor}");
    }
}

#[test]
fn rule_options_message_expression_reason_field_path() {
    let c = crd(json!({"type": "object",
        "x-kubernetes-validations": [
            {"rule": "self.replicas <= 5", "messageExpression": "self.replicas > 10 ? 'replicas far over 5' : 'replicas ' + 'over 5'", "reason": "FieldValueForbidden", "fieldPath": ".replicas"},
            {"rule": "has(self.owner)", "message": "owner is required", "reason": "FieldValueRequired", "fieldPath": ".owner"},
            {"rule": "self.replicas != 3", "reason": "FieldValueDuplicate"}
        ],
        "properties": {"replicas": {"type": "integer"}, "owner": {"type": "string"}}}));
    assert_eq!(
        errors(&c, json!({"replicas": 7}), None),
        ["spec.replicas: Forbidden: replicas over 5", "spec.owner: Required value: owner is required"]
    );
    // Duplicate carries no detail; an object's value is omitted.
    assert_eq!(errors(&c, json!({"replicas": 3, "owner": "me"}), None), ["spec: Duplicate value"]);
}

#[test]
fn transition_rules_and_ratcheting() {
    let c = crd(json!({"type": "object",
    "x-kubernetes-validations": [{"rule": "self.size >= oldSelf.size", "message": "size may only grow"}],
    "properties": {
        "size": {"type": "integer"},
        "name": {"type": "string", "x-kubernetes-validations": [{"rule": "self.startsWith('w')", "message": "must start with w"}]},
        "mode": {"type": "string", "x-kubernetes-validations": [{"rule": "!oldSelf.hasValue() || oldSelf.value() == self", "optionalOldSelf": true, "message": "mode is immutable once set"}]}
    }}));
    // Create: the transition rule does not run; the optional one sees no oldSelf.
    assert_eq!(
        errors(&c, json!({"size": 1, "name": "x", "mode": "a"}), None),
        ["spec.name: Invalid value: \"x\": must start with w"]
    );
    // Update: transition rules run; an unchanged bad name is ratcheted (not reported).
    assert_eq!(
        errors(&c, json!({"size": 1, "name": "x", "mode": "b"}), Some(json!({"size": 2, "name": "x", "mode": "a"}))),
        ["spec: Invalid value: size may only grow", "spec.mode: Invalid value: \"b\": mode is immutable once set"]
    );
    assert_eq!(
        errors(&c, json!({"size": 3, "name": "y", "mode": "a"}), Some(json!({"size": 2, "name": "x", "mode": "a"}))),
        ["spec.name: Invalid value: \"y\": must start with w"]
    );
}

#[test]
fn runtime_errors_and_escaped_names() {
    let c = crd(json!({"type": "object",
        "x-kubernetes-validations": [{"rule": "self.items[3] > 0"}, {"rule": "self.image__dash__tag != 'latest'", "message": "pin the image"}],
        "properties": {"items": {"type": "array", "items": {"type": "integer"}}, "image-tag": {"type": "string"}}}));
    assert_eq!(
        errors(&c, json!({"items": [1], "image-tag": "latest"}), None),
        [
            "spec: Invalid value: \"object\": index out of bounds: 3 evaluating rule: self.items[3] > 0",
            "spec: Invalid value: pin the image"
        ]
    );
}

/// An int-or-string value is `dyn` to the checker, so a wrong call fails only at run time:
/// apiextensions-apiserver schema/cel/validation.go quotes cel-go's error (`'%v': call
/// arguments did not match ...`); cel-go v0.29.2 common/decls/decls.go MaybeNoSuchOverload
/// names the function and the argument types, a string receiving `_<_` says no more.
#[test]
fn runtime_overload_errors_quote_cel_go() {
    let c = crd(json!({"type": "object",
        "x-kubernetes-validations": [{"rule": "self.port.charAt(0) == '8'"}, {"rule": "self.port < 9000"}],
        "properties": {"port": {"x-kubernetes-int-or-string": true}}}));
    let tail = "call arguments did not match a supported operator, function or macro signature for rule";
    assert_eq!(
        errors(&c, json!({"port": 8080}), None)[0],
        format!(
            "spec: Invalid value: \"object\": 'no such overload: charAt(int, int)': {tail}: self.port.charAt(0) == '8'"
        )
    );
    assert_eq!(
        errors(&c, json!({"port": "8080"}), None),
        [format!("spec: Invalid value: \"object\": 'no such overload': {tail}: self.port < 9000")]
    );
}

#[test]
fn resource_root_exposes_metadata_name() {
    let doc = json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition", "metadata": {"name": "widgets.example.com"},
        "spec": {"group": "example.com", "scope": "Namespaced", "names": {"kind": "Widget", "plural": "widgets"}, "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {
            "type": "object", "x-kubernetes-validations": [{"rule": "self.metadata.name.startsWith('w-')", "message": "names start with w-"}],
            "properties": {"spec": {"type": "object"}}}}}]}});
    let c = Crd::load(&doc, None).unwrap_or_else(|_| panic!("loads"));
    let bad = c.validate(
        &json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "web"}, "spec": {}}),
        None,
    );
    assert_eq!(bad.iter().map(|e| e.text()).collect::<Vec<_>>(), ["<nil>: Invalid value: names start with w-"]);
}

#[test]
fn crds_with_bad_rules_are_refused() {
    let load = |rule: Value| {
        let doc = json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition", "metadata": {"name": "widgets.example.com"},
            "spec": {"group": "example.com", "scope": "Namespaced", "names": {"kind": "W", "plural": "widgets"}, "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {
                "type": "object", "properties": {"spec": {"type": "object", "properties": {"n": {"type": "integer"}, "list": {"type": "array", "items": {"type": "string"}}},
                "x-kubernetes-validations": [rule]}}}}}]}});
        Crd::load(&doc, None).err().map(|e| e.iter().map(|x| x.text()).collect::<Vec<_>>()).unwrap_or_default()
    };
    let at = "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0]";
    // validation.go: a compile error carries the rule (the internal ValidationRule, printed by
    // json.Marshal: Go field names, `>` escaped); compilation.go: "compilation failed: " and
    // cel-go's Issues.String() (common/error.go ToDisplayString: the line and a caret).
    let rule_json = |rule: &str| {
        format!("{{\"Rule\":{rule},\"Message\":\"\",\"MessageExpression\":\"\",\"Reason\":null,\"FieldPath\":\"\",\"OptionalOldSelf\":null}}")
    };
    assert_eq!(
        load(json!({"rule": "self.n > 'x'"})),
        [format!(
            "{at}.rule: Invalid value: {}: compilation failed: ERROR: <input>:1:8: found no matching overload for '_>_' applied to '(int, string)'\n | self.n > 'x'\n | .......^",
            rule_json("\"self.n \\u003e 'x'\"")
        )]
    );
    assert_eq!(
        load(json!({"rule": "self.n", "message": "m", "reason": "FieldValueForbidden", "optionalOldSelf": false})),
        // compilation.go returns before it looks for oldSelf, so validation.go then finds an
        // optionalOldSelf (set, even to false) that the rule does not use.
        [
            format!(
                "{at}.rule: Invalid value: {{\"Rule\":\"self.n\",\"Message\":\"m\",\"MessageExpression\":\"\",\"Reason\":\"FieldValueForbidden\",\"FieldPath\":\"\",\"OptionalOldSelf\":false}}: cel expression must evaluate to a bool"
            ),
            format!("{at}.optionalOldSelf: Invalid value: false: may not be set if oldSelf is not used in rule"),
        ]
    );
    // Multi-byte characters before the column are full-width dots (cel-go common/error.go).
    assert_eq!(
        load(json!({"rule": "'é' == self.n"})),
        [format!(
            "{at}.rule: Invalid value: {}: compilation failed: ERROR: <input>:1:5: found no matching overload for '_==_' applied to '(string, int)'\n | 'é' == self.n\n | .\u{ff0e}..^",
            rule_json("\"'é' == self.n\"")
        )]
    );
    // Kubernetes' AST validators (apiserver environment/base.go; cel-go cel/validator.go), as
    // apiextensions schema/cel/validation_test.go expects them: literal arguments must be valid
    // and list literals homogeneous (string format calls are exempt).
    let compile_error = |rule: &str| {
        load(json!({"rule": rule})).first().and_then(|e| {
            e.split_once(": compilation failed: ").map(|(_, d)| String::from(d.lines().next().unwrap_or("")))
        })
    };
    assert_eq!(
        compile_error("duration('1') == duration('1s')").as_deref(),
        Some("ERROR: <input>:1:10: invalid duration argument")
    );
    assert_eq!(
        compile_error("timestamp('1000-00-00T00:00:00Z') == timestamp(0)").as_deref(),
        Some("ERROR: <input>:1:11: invalid timestamp argument")
    );
    assert_eq!(compile_error("'abc'.matches(')')").as_deref(), Some("ERROR: <input>:1:15: invalid matches argument"));
    // apiextensions-apiserver 1aa2717a schema/cel/validation_test.go ("compile error: program
    // instantiation failed: error parsing regexp: unexpected ): `)`"): the regex library
    // compiles a literal `find`/`findAll` pattern when compilation.go builds the program.
    // The global `matches` with a literal pattern: cel-go v0.29.2 cel/program.go adds
    // MatchesRegexOptimization (RegexIndex 1) under the environment's cel.OptOptimize
    // (apiserver pkg/cel/environment/base.go), which compiles the pattern with the program.
    for (rule, json) in [
        ("'abc'.find(')') == ''", "\"'abc'.find(')') == ''\""),
        ("'abc'.findAll(')', 1) == []", "\"'abc'.findAll(')', 1) == []\""),
        ("matches('abc', ')')", "\"matches('abc', ')')\""),
    ] {
        assert_eq!(
            load(json!({"rule": rule})),
            [format!(
                "{at}.rule: Invalid value: {}: program instantiation failed: error parsing regexp: unexpected ): `)`",
                rule_json(json)
            )]
        );
    }
    assert!(load(json!({"rule": "'abc'.find('b+') == 'b'", "messageExpression": "'x'.find('(')"}))[0]
        .ends_with(": messageExpression instantiation failed: error parsing regexp: missing closing ): `(`"));
    // A constant type conversion is evaluated when the program is built (cel-go v0.29.2
    // interpreter/decorators.go maybeOptimizeConstUnary under OptOptimize), so its error is
    // compilation.go's instantiation error; the text is common/types/string.go ConvertToType's.
    assert_eq!(
        load(json!({"rule": "int('x') == 1"})),
        [format!(
            "{at}.rule: Invalid value: {}: program instantiation failed: type conversion error from 'string' to 'int'",
            rule_json("\"int('x') == 1\"")
        )]
    );
    assert!(load(json!({"rule": "true", "messageExpression": "string(int('x'))"}))[0]
        .ends_with(": messageExpression instantiation failed: type conversion error from 'string' to 'int'"));
    assert_eq!(
        compile_error("[1, 'a', false].filter(x, string(x) == 'a') == []").as_deref(),
        Some("ERROR: <input>:1:5: expected type 'int' but found 'string'")
    );
    assert_eq!(
        compile_error("{'a': 1, 'b': 'x'}.size() == 2").as_deref(),
        Some("ERROR: <input>:1:15: expected type 'int' but found 'string'")
    );
    assert!(load(json!({"rule": "'%s %d'.format(['a', 1]) == 'a 1' && duration('1s') > duration('0s')"})).is_empty());
    assert_eq!(
        load(json!({"rule": "self.n > 0", "messageExpression": "self.n"})),
        [format!(
            "{at}.messageExpression: Invalid value: {{\"Rule\":\"self.n \\u003e 0\",\"Message\":\"\",\"MessageExpression\":\"self.n\",\"Reason\":null,\"FieldPath\":\"\",\"OptionalOldSelf\":null}}: messageExpression must evaluate to a string"
        )]
    );
    assert_eq!(
        load(json!({"rule": "self.n > 0", "optionalOldSelf": true})),
        [format!("{at}.optionalOldSelf: Invalid value: true: may not be set if oldSelf is not used in rule")]
    );
    let costly = load(json!({"rule": "self.list.all(a, self.list.all(b, a.size() + b.size() < 100))"}));
    // validation.go: over the per-rule limit, and (being over 1% of it) named among the
    // contributors to the CRD total, which is over its limit too.
    assert_eq!(
        costly,
        [
            format!("{at}.rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)"),
            format!("{at}.rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema"),
            String::from("spec.validation.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)"),
        ]
    );
}

/// objectmeta/validation.go: embedded resources need apiVersion and kind in the right form.
#[test]
fn embedded_resources_are_checked() {
    let c = crd(
        json!({"type": "object", "properties": {"template": {"type": "object", "x-kubernetes-embedded-resource": true,
        "x-kubernetes-preserve-unknown-fields": true}}}),
    );
    assert_eq!(
        errors(&c, json!({"template": {"kind": "Pod_Template", "metadata": {"name": "a/b"}}}), None),
        [
            "spec.template.apiVersion: Required value",
            "spec.template.kind: Invalid value: \"Pod_Template\": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
            "spec.template.metadata.name: Invalid value: \"a/b\": may not contain '/'",
        ]
    );
    assert_eq!(
        errors(&c, json!({"template": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}}}), None),
        Vec::<String>::new()
    );
}

/// values.go: set lists compare regardless of order, so a transition rule sees no change.
#[test]
fn set_lists_compare_as_sets_in_rules() {
    let c = crd(
        json!({"type": "object", "properties": {"tags": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"},
        "x-kubernetes-validations": [{"rule": "self == oldSelf", "message": "tags are immutable"}]}}}),
    );
    assert_eq!(errors(&c, json!({"tags": ["b", "a"]}), Some(json!({"tags": ["a", "b"]}))), Vec::<String>::new());
    assert_eq!(
        errors(&c, json!({"tags": ["a", "c"]}), Some(json!({"tags": ["a", "b"]}))),
        ["spec.tags: Invalid value: tags are immutable"]
    );
}

/// apiextensions-apiserver pkg/apiserver/schema/validation.go (validateStructuralInvariants,
/// validateStructuralMetadataInvariants, validateExtensions): the structural-schema rules.
#[test]
fn non_structural_schemas_are_refused_with_the_api_servers_lines() {
    let load = |schema: Value| {
        let doc = json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition", "metadata": {"name": "widgets.example.com"},
            "spec": {"group": "example.com", "scope": "Namespaced", "names": {"kind": "W", "plural": "widgets"}, "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": schema}}]}});
        Crd::load(&doc, None).err().map(|e| e.iter().map(|x| x.text()).collect::<Vec<_>>()).unwrap_or_default()
    };
    let at = "spec.validation.openAPIV3Schema";
    assert_eq!(
        load(json!({"type": "object", "properties": {"tags": {"type": "array", "items": {"maxLength": 3}}}})),
        [format!("{at}.properties[tags].items.type: Required value: must not be empty for specified array items")]
    );
    assert_eq!(
        load(json!({"type": "object", "additionalProperties": {"type": "string"}})),
        [format!("{at}.additionalProperties: Forbidden: must not be used at the root")]
    );
    assert_eq!(
        load(json!({"type": "object", "properties": {"kind": {"type": "integer"}, "metadata": {"type": "object",
            "properties": {"labels": {"type": "object"}}}}})),
        [
            format!("{at}.properties[kind].type: Invalid value: \"integer\": must be string"),
            format!("{at}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified"),
        ]
    );
    // name and generateName may be constrained at the root.
    assert!(load(json!({"type": "object", "properties": {"metadata": {"type": "object",
        "properties": {"name": {"type": "string", "maxLength": 20}}}}}))
    .is_empty());
    assert_eq!(
        load(json!({"type": "object", "properties": {"tpl": {"x-kubernetes-embedded-resource": true}}})),
        // ValidateStructural sorts its errors by their text.
        [
            format!("{at}.properties[tpl].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields"),
            format!("{at}.properties[tpl].type: Required value: must be object if x-kubernetes-embedded-resource is true"),
        ]
    );
    assert_eq!(
        load(json!({"type": "object", "properties": {"port": {"x-kubernetes-int-or-string": true,
            "x-kubernetes-preserve-unknown-fields": true}}})),
        [format!("{at}.properties[port].x-kubernetes-preserve-unknown-fields: Invalid value: true: must be false if x-kubernetes-int-or-string is true")]
    );
}

/// apiserver pkg/cel/library/lists.go: `sum` has one overload per summable type, each starting
/// from its type's zero (`zeroValuesOfSummableTypes`); the checker resolves a typed list's
/// overload and cel-go calls it, so an empty `list(double)` sums to `0.0` and an empty
/// `list(duration)` to `duration('0s')`. Run-time dispatch of a `dyn` list takes the first
/// overload, int.
#[test]
fn sum_of_an_empty_typed_list_is_its_types_zero() {
    let c = crd(json!({"type": "object",
    "properties": {
        "weights": {"type": "array", "maxItems": 4, "items": {"type": "number"}},
        "waits": {"type": "array", "maxItems": 4, "items": {"type": "string", "format": "duration", "maxLength": 10}}
    },
    "x-kubernetes-validations": [
        {"rule": "type(self.weights.sum()) == double", "message": "weights"},
        {"rule": "self.waits.sum() == duration('0s')", "message": "waits"},
        {"rule": "self.waits.sum() < duration('1h')", "message": "waits under an hour"},
        {"rule": "type([].sum()) == int", "message": "dyn"}
    ]}));
    assert_eq!(errors(&c, json!({"weights": [], "waits": []}), None), Vec::<String>::new());
    assert_eq!(
        errors(&c, json!({"weights": [0.5], "waits": ["2h"]}), None),
        ["spec: Invalid value: waits", "spec: Invalid value: waits under an hour"]
    );
}

/// apiserver pkg/cel/library/cost.go `EstimateCallCost` for `isSorted`, `indexOf`, ... over a
/// list of strings: 1 per element plus a traversal of each (the element's `maxLength` by its
/// schema path, `@items`); a list with no schema path (a literal) has elements of no known
/// size (apiextensions compilation.go `sizeEstimator` returns nothing without a path), so the
/// rule's estimate is unbounded and the API server refuses it.
#[test]
fn list_functions_over_strings_estimate_each_elements_traversal() {
    let doc = |rule: &str| {
        json!({
            "apiVersion": "apiextensions.k8s.io/v1",
            "kind": "CustomResourceDefinition", "metadata": {"name": "widgets.example.com"},
            "spec": {"group": "example.com", "scope": "Namespaced", "names": {"kind": "Widget", "plural": "widgets"}, "versions": [{"name": "v1", "served": true, "storage": true,
                "schema": {"openAPIV3Schema": {"type": "object", "properties": {"spec": {"type": "object",
                    "properties": {"tags": {"type": "array", "maxItems": 10, "items": {"type": "string", "maxLength": 100}}},
                    "x-kubernetes-validations": [{"rule": rule}]}}}}}]}
        })
    };
    // `self` 1, the select 1, indexOf 10 × (1 + ceil(400 × 0.1)) (a maxLength of 100 is 400
    // bytes: schemas.go `estimateMaxElementsFromMaxLength`), `>=` 1.
    let crd = Crd::load(&doc("self.tags.indexOf('x') >= 0"), None).unwrap();
    assert_eq!(crd.rules()[0].estimated_cost, 413);
    // So are the lists a call or a comprehension gives.
    for rule in [
        "['a', 'b'].isSorted()",
        "'a,b'.split(',').indexOf('a') == 0",
        "self.tags.filter(t, t != '').lastIndexOf('x') == 0",
    ] {
        let refused = Crd::load(&doc(rule), None).err().unwrap_or_else(|| panic!("{rule} accepted"));
        assert!(refused[0].text().ends_with("Forbidden: estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)"), "{}", refused[0].text());
    }
}

/// With `/status` served, a request to the resource itself does not set `status`: the
/// strategy drops it on create and keeps the stored one on update before validation
/// (apiextensions-apiserver v0.37.2 registry/customresource/strategy.go PrepareForCreate,
/// PrepareForUpdate). The differential fuzzer found kubedv validating it (`fuzz-crd`), and the
/// real kube-apiserver v1.37.2 answers as asserted here.
#[test]
fn status_is_not_set_through_the_resource_when_status_is_a_subresource() {
    let crd = |status: bool| {
        let mut v = serde_json::json!({"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {
            "type": "object", "properties": {
                "spec": {"type": "object"},
                "status": {"type": "object", "required": ["phase"], "properties": {"phase": {"type": "string", "enum": ["Ready"]}}}}}}});
        if status {
            v["subresources"] = serde_json::json!({"status": {}});
        }
        serde_json::json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "widgets.example.com"},
            "spec": {"group": "example.com", "scope": "Namespaced",
                "names": {"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList"},
                "versions": [v]}})
    };
    let object = serde_json::json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"},
        "spec": {}, "status": {"phase": "Broken"}});
    let old = serde_json::json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"},
        "spec": {}, "status": {"phase": "Ready"}});
    let texts = |c: &Crd, old: Option<&serde_json::Value>| -> Vec<String> {
        c.check(&object, old, &Options::default()).errors.iter().map(|e| e.text()).collect()
    };
    let with = Crd::load(&crd(true), None).unwrap();
    assert!(texts(&with, None).is_empty());
    assert!(texts(&with, Some(&old)).is_empty());
    let outcome = with.check(&object, None, &Options::default());
    assert!(outcome.object.get("status").is_none());
    let without = Crd::load(&crd(false), None).unwrap();
    assert_eq!(texts(&without, None), ["status.phase: Unsupported value: \"Broken\": supported values: \"Ready\""]);
}

/// `format: byte` is kube-openapi's `govalidator.IsBase64` pattern
/// (`^(?:[A-Za-z0-9+\/]{4})*(?:[A-Za-z0-9+\/]{2}==|[A-Za-z0-9+\/]{3}=|[A-Za-z0-9+\/]{4})$`, strfmt
/// default.go): padded and not empty. The real kube-apiserver v1.37.2 refuses `""` (the
/// differential fuzzer's `fuzz-crd` case).
#[test]
fn byte_format_is_padded_base64_and_not_empty() {
    let c = crd(json!({"type": "object", "properties": {"b": {"type": "string", "format": "byte"}}}));
    for ok in ["QUI=", "QUJD", "QQ==", "YWJjZA==", "+/+/"] {
        assert!(errors(&c, json!({"b": ok}), None).is_empty(), "{ok}");
    }
    for bad in ["", "QUI", "QQ", "QQ=", "Q===", "QU=I", "QUJD=", "QU I="] {
        assert_eq!(
            errors(&c, json!({"b": bad}), None),
            [format!("spec.b: Invalid value: {bad:?}: spec.b in body must be of type byte: {bad:?}")],
            "{bad}"
        );
    }
}
