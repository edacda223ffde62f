//! CRD validation families checked against the API server's code (issue 15), each test naming
//! the Kubernetes source of its expectation: apiextensions-apiserver at 1aa2717a (pkg/registry/
//! customresource/strategy.go, validator.go; pkg/apiserver/schema/{defaulting,pruning,listtype};
//! pkg/apiserver/validation/{validation,ratcheting}.go; pkg/apis/apiextensions/validation),
//! apiserver at 24a394e5 (pkg/cel/common/equality.go), kube-openapi at d427ff9e
//! (pkg/validation/validate) and apimachinery (pkg/util/validation/field/errors.go,
//! pkg/api/validation/objectmeta.go).

use kubedv_core::crd::{Crd, Options};
use serde_json::{json, Value};

fn load(root: Value) -> Crd {
    let doc = json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition", "metadata": {"name": "widgets.example.com"},
        "spec": {"group": "example.com", "scope": "Namespaced", "names": {"kind": "Widget", "plural": "widgets"}, "versions": [{"name": "v1", "served": true, "storage": true,
            "schema": {"openAPIV3Schema": root}}]}
    });
    Crd::load(&doc, None).unwrap_or_else(|e| panic!("{:?}", e.iter().map(|x| x.text()).collect::<Vec<_>>()))
}

fn crd(spec: Value) -> Crd {
    load(json!({"type": "object", "properties": {"spec": spec}}))
}

fn obj(spec: Value) -> Value {
    json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"}, "spec": spec})
}

fn texts(c: &Crd, spec: Value, old: Option<Value>) -> Vec<String> {
    c.validate(&obj(spec), old.map(obj).as_ref()).iter().map(|e| e.text()).collect()
}

const NOTICE: &str = "<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation";

/// Family 1 — strategy.go: the notice comes from the CEL validator, which is nil without rules.
#[test]
fn notice_only_when_the_crd_has_rules() {
    let plain = crd(json!({"type": "object", "required": ["a"], "properties": {"a": {"type": "string"}}}));
    assert_eq!(texts(&plain, json!({}), None), ["spec.a: Required value"]);
    let ruled = crd(json!({"type": "object", "required": ["a"], "properties": {"a": {"type": "string"}},
        "x-kubernetes-validations": [{"rule": "true"}]}));
    assert_eq!(texts(&ruled, json!({}), None), ["spec.a: Required value", NOTICE]);
    // A non-blocking error (Invalid) lets the rules run.
    let ruled = crd(json!({"type": "object", "properties": {"a": {"type": "string", "minLength": 3}},
        "x-kubernetes-validations": [{"rule": "self.a != 'x'", "message": "not x"}]}));
    assert_eq!(
        texts(&ruled, json!({"a": "x"}), None),
        ["spec.a: Invalid value: \"x\": spec.a in body should be at least 3 chars long", "spec: Invalid value: not x"]
    );
}

/// Family 2 — kube-openapi type.go / object_validator.go / slice_validator.go, apiextensions
/// kubeOpenAPIResultToFieldErrors (expectations from validation_test.go where it has them).
#[test]
fn openapi_values_are_kube_openapis() {
    let c = crd(json!({"type": "object", "properties": {
        "size": {"type": "string", "enum": ["a", "b"]},
        "hosts": {"type": "array", "minItems": 1, "items": {"type": "string"}},
        "labels": {"type": "object", "minProperties": 2, "additionalProperties": {"type": "string"}},
        "n": {"type": "integer"},
        "f": {"type": "number", "format": "float"},
        "closed": {"type": "object", "additionalProperties": false},
        "short": {"type": "string", "format": "k8s-short-name"}
    }}));
    assert_eq!(
        texts(
            &c,
            json!({"size": true, "hosts": [], "labels": {"a": "x"}, "n": 1.5, "closed": {"x": 1}, "short": "a-"}),
            None
        ),
        [
            // Both the type error (value: the type found) and the enum error (the value).
            "spec.closed: Invalid value: \"x\": spec.closed.x in body is a forbidden property",
            "spec.hosts: Invalid value: 0: spec.hosts in body should have at least 1 items",
            "spec.labels: Invalid value: 1: spec.labels in body should have at least 2 properties",
            "spec.n: Invalid value: \"number\": spec.n in body must be of type integer: \"number\"",
            "<nil>: Invalid value: \"\": Checked value must be of type integer (default format) in spec.n",
            "spec.short: Invalid value: \"a-\": spec.short in body must be of type k8s-short-name: \"a-\"",
            "spec.size: Invalid value: \"boolean\": spec.size in body must be of type string: \"boolean\"",
            "spec.size: Unsupported value: true: supported values: \"a\", \"b\"",
        ]
    );
    // A nullable field's null still fails a non-empty enum; a null array item is a type error.
    let c = crd(json!({"type": "object", "properties": {
        "e": {"type": "string", "nullable": true, "enum": ["a"]},
        "l": {"type": "array", "items": {"type": "string"}}
    }}));
    assert_eq!(
        texts(&c, json!({"e": null, "l": ["a", null]}), None),
        [
            "spec.e: Unsupported value: null: supported values: \"a\"",
            "spec.l[1]: Invalid value: \"null\": spec.l[1] in body must be of type string: \"null\"",
        ]
    );
}

/// Family 3 — field/errors.go TooMany/TooLong: singular for 1.
#[test]
fn counts_and_plurals() {
    let c = crd(json!({"type": "object", "properties": {
        "one": {"type": "array", "maxItems": 1, "items": {"type": "string"}},
        "two": {"type": "object", "maxProperties": 2, "additionalProperties": {"type": "string"}},
        "s": {"type": "string", "maxLength": 1}
    }}));
    assert_eq!(
        texts(&c, json!({"one": ["a", "b"], "two": {"a": "", "b": "", "c": ""}, "s": "ab"}), None),
        [
            "spec.one: Too many: 2: must have at most 1 item",
            "spec.s: Too long: may not be more than 1 byte",
            "spec.two: Too many: 3: must have at most 2 items",
        ]
    );
}

/// Family 4 — listtype/validation.go: JSON values, the second occurrence only.
#[test]
fn list_type_duplicates() {
    let c = crd(json!({"type": "object", "properties": {
        "set": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}},
        "ports": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
            "items": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}, "port": {"type": "integer"}}}}
    }}));
    assert_eq!(
        texts(
            &c,
            json!({"set": ["a", "b", "a", "a"], "ports": [{"name": "http", "port": 1}, {"name": "http", "port": 2}, {"port": 3}, {"port": 4}]}),
            None
        ),
        // The key is required (a map list's keys must be required or defaulted, validation.go
        // validateMapListKeysMapSet): the OpenAPI errors come first.
        [
            "spec.ports[2].name: Required value",
            "spec.ports[3].name: Required value",
            "spec.ports[1]: Duplicate value: {\"name\":\"http\"}",
            "spec.ports[3]: Duplicate value: {}",
            "spec.set[2]: Duplicate value: \"a\"",
        ]
    );
}

/// Family 5 — prunenulls.go: a null non-nullable field without a default is dropped first.
#[test]
fn non_nullable_nulls_are_pruned() {
    let c = crd(json!({"type": "object", "required": ["a"], "properties": {
        "a": {"type": "string"}, "b": {"type": "string", "nullable": true}, "m": {"type": "object",
            "additionalProperties": {"type": "string"}}
    }}));
    assert_eq!(texts(&c, json!({"a": null, "b": null, "m": {"k": null}}), None), ["spec.a: Required value"]);
}

/// Family 6 — defaulting/algorithm.go: defaults apply on decode, nested, in items and map
/// values, and over non-nullable nulls; `Options::defaults` turns them off.
#[test]
fn defaults_are_applied_before_validation() {
    // (A rule on `replicas` itself would refuse the CRD: its default is checked against it.)
    let c = crd(json!({"type": "object", "required": ["tls"],
        "x-kubernetes-validations": [{"rule": "self.replicas < 1", "message": "the default reached the rules"}],
        "properties": {
        "replicas": {"type": "integer", "default": 1, "minimum": 1},
        "tls": {"type": "object", "default": {}, "properties": {"mode": {"type": "string", "default": "strict"}}},
        "ports": {"type": "array", "items": {"type": "object", "properties": {
            "protocol": {"type": "string", "default": "TCP"}}}},
        "nulled": {"type": "string", "default": "x"}
    }}));
    let out = c.check(&obj(json!({"ports": [{}], "nulled": null})), None, &Options::default());
    assert_eq!(
        out.object["spec"],
        json!({"replicas": 1, "tls": {"mode": "strict"}, "ports": [{"protocol": "TCP"}], "nulled": "x"})
    );
    // The defaulted value is what the rules see; tls's default satisfies `required`.
    let errors: Vec<String> = out.errors.iter().map(|e| e.text()).collect();
    assert_eq!(errors, ["spec: Invalid value: the default reached the rules"]);
    // Without defaults the required tls is missing.
    let off = c.check(&obj(json!({})), None, &Options { defaults: false });
    let errors: Vec<String> = off.errors.iter().map(|e| e.text()).collect();
    assert_eq!(errors, ["spec.tls: Required value", NOTICE]);
    assert_eq!(off.object["spec"], json!({}));
    // Unknown fields are pruned, with the API server's warning.
    let out = c.check(&obj(json!({"extra": 1, "ports": [{"x": 1}]})), None, &Options::default());
    assert_eq!(out.warnings, ["unknown field \"spec.ports[0].x\"", "unknown field \"spec.extra\""]);
}

/// Family 7 — ratcheting.go + equality.go: map-list items correlate by key wherever they
/// moved; atomic lists only as a whole; CEL rules follow the same correlation.
#[test]
fn ratcheting_follows_correlation() {
    let c = crd(json!({"type": "object", "properties": {
        "ports": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
            "items": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}, "port": {"type": "integer", "maximum": 10},
                "host": {"type": "string", "x-kubernetes-validations": [{"rule": "!self.startsWith('bad')", "message": "bad host"}]}}}},
        "atomic": {"type": "array", "items": {"type": "integer", "maximum": 10}},
        "other": {"type": "string"}
    }}));
    let old = json!({"ports": [{"name": "a", "port": 99, "host": "bad"}, {"name": "b", "port": 1}], "atomic": [99, 1]});
    // Reordered map list, unchanged items: their errors are ratcheted.
    let new = json!({"ports": [{"name": "b", "port": 1}, {"name": "a", "port": 99, "host": "bad"}], "atomic": [99, 1], "other": "x"});
    assert_eq!(texts(&c, new, Some(old.clone())), Vec::<String>::new());
    // An atomic list with one changed item is re-validated whole.
    let new = json!({"ports": [{"name": "a", "port": 99, "host": "bad"}, {"name": "b", "port": 1}], "atomic": [99, 2]});
    assert_eq!(
        texts(&c, new, Some(old.clone())),
        ["spec.atomic[0]: Invalid value: 99: spec.atomic[0] in body should be less than or equal to 10"]
    );
    // A changed map-list item is re-validated, but its unchanged fields still correlate
    // (host is equal to its old value: its rule's error is ratcheted).
    let new = json!({"ports": [{"name": "a", "port": 98, "host": "bad"}, {"name": "b", "port": 1}], "atomic": [99, 1]});
    assert_eq!(
        texts(&c, new, Some(old.clone())),
        ["spec.ports[0].port: Invalid value: 98: spec.ports[0].port in body should be less than or equal to 10"]
    );
    let new =
        json!({"ports": [{"name": "a", "port": 99, "host": "bad2"}, {"name": "b", "port": 1}], "atomic": [99, 1]});
    assert_eq!(texts(&c, new, Some(old)), ["spec.ports[0].host: Invalid value: \"bad2\": bad host"]);
}

/// Family 8 — strategy.go ValidateUpdate: list-type errors only when the old object had none.
#[test]
fn list_duplicates_on_update_only_when_old_was_clean() {
    let c = crd(json!({"type": "object", "properties": {
        "set": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}}}}));
    assert_eq!(texts(&c, json!({"set": ["a", "a"]}), Some(json!({"set": ["b", "b"]}))), Vec::<String>::new());
    assert_eq!(
        texts(&c, json!({"set": ["a", "a"]}), Some(json!({"set": ["a"]}))),
        ["spec.set[1]: Duplicate value: \"a\""]
    );
}

/// validator.go ValidateTypeMeta and objectmeta.go ValidateObjectMeta (custom resources:
/// names are DNS subdomains, in util/validation's "characters" wording).
#[test]
fn type_meta_and_metadata() {
    let c = crd(json!({"type": "object"}));
    let e: Vec<String> = c
        .validate(&json!({"apiVersion": "example.com/v2", "kind": "Widget", "metadata": {"name": "w"}}), None)
        .iter()
        .map(|e| e.text())
        .collect();
    assert_eq!(e, ["apiVersion: Invalid value: \"example.com/v2\": must be example.com/v1"]);
    let e: Vec<String> = c
        .validate(
            &json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "Bad_Name",
                "labels": {"a b": "x"}, "finalizers": ["orphan", "foregroundDeletion"]}}),
            None,
        )
        .iter()
        .map(|e| e.text())
        .collect();
    assert_eq!(
        e,
        [
            "metadata.name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
            "metadata.labels: Invalid value: \"a b\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
            "metadata.finalizers: Invalid value: [\"orphan\",\"foregroundDeletion\"]: finalizer orphan and foregroundDeletion cannot be both set",
        ]
    );
    let e = c.validate(&json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {}}), None);
    assert_eq!(e[0].text(), "metadata.name: Required value: name or generateName is required");
}

/// Family 10 — apiextensions cel_validation.go / compilation.go maxCardinality: under an
/// unbounded list, a rule runs at most 3 MiB / (its node's smallest size + 1) times, not the
/// product of every level's estimate; map keys have size 0 (library cost.go).
#[test]
fn rule_costs_use_kubernetes_cardinality() {
    // Prometheus Operator's receivers[].snsConfigs[].sigv4 shape: cost 3 × 1,048,576.
    let c = crd(json!({"type": "object", "properties": {"receivers": {"type": "array", "items": {"type": "object",
        "properties": {"sns": {"type": "array", "items": {"type": "object", "properties": {"sigv4": {"type": "object",
            "properties": {"externalId": {"type": "string"}, "roleArn": {"type": "string"}},
            "x-kubernetes-validations": [{"rule": "!has(self.externalId) || has(self.roleArn)"}]}}}}}}}}}));
    assert_eq!(c.rules()[0].estimated_cost, 3 * 1_048_576);
    // Gateway API's annotations: maxProperties 16, keys matched by a pattern.
    let c = crd(json!({"type": "object", "properties": {"annotations": {"type": "object", "maxProperties": 16,
        "additionalProperties": {"type": "string", "maxLength": 4096},
        "x-kubernetes-validations": [{"rule": "self.all(key, key.matches(r\"\"\"^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9]$\"\"\"))"}]}}}));
    assert!(c.rules()[0].estimated_cost < 10_000_000, "{}", c.rules()[0].estimated_cost);
}

/// Family 10 — cel-go checker/types.go internalIsAssignableNull (optionals are nullable) and
/// Go's regexp flags anywhere (Gateway API's GRPCRoute method rule).
#[test]
fn real_rule_shapes_compile() {
    let c = crd(json!({"type": "object", "properties": {"name": {"type": "string", "maxLength": 63,
    "x-kubernetes-validations": [
        {"rule": "self.matches(r\"\"\"^(?i)\\.?[a-z_][a-z_0-9]*$\"\"\")", "message": "ident"},
        {"rule": "self.matches('^x(?i:AB)y$')", "message": "scoped"}
    ]}}}));
    assert_eq!(texts(&c, json!({"name": "Ab"}), None), ["spec.name: Invalid value: \"Ab\": scoped"]);
    assert_eq!(texts(&c, json!({"name": "xaby"}), None), Vec::<String>::new());
    assert_eq!(texts(&c, json!({"name": "xabY"}), None), ["spec.name: Invalid value: \"xabY\": scoped"]);
    // Gateway API's XBackend port name rule type-checks, and (common/types/util.go Equal: an
    // optional is never equal to null) fails for every non-empty name, as in Kubernetes.
    let c = crd(json!({"type": "object", "properties": {"name": {"type": "string", "maxLength": 63,
    "x-kubernetes-validations": [
        {"rule": "size(self) == 0 || format.dns1123Label().validate(self) == null", "message": "dns"}
    ]}}}));
    assert_eq!(texts(&c, json!({"name": ""}), None), Vec::<String>::new());
    assert_eq!(texts(&c, json!({"name": "ok"}), None), ["spec.name: Invalid value: \"ok\": dns"]);
}

/// Schema objects are not maps (apiextensions-apiserver schema/cel validation_test.go: comparing
/// an object with a map literal and indexing an object by a string are "no matching overload"
/// compile errors): the CRD is refused.
#[test]
fn schema_objects_are_not_maps() {
    for rule in ["self.o == {'a': 'x'}", "self.o['a'] == 'x'"] {
        let doc = json!({
            "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition", "metadata": {"name": "widgets.example.com"},
            "spec": {"group": "example.com", "scope": "Namespaced", "names": {"kind": "Widget", "plural": "widgets"}, "versions": [{"name": "v1", "served": true, "storage": true,
                "schema": {"openAPIV3Schema": {"type": "object", "properties": {"spec": {"type": "object",
                    "properties": {"o": {"type": "object", "properties": {"a": {"type": "string"}}}},
                    "x-kubernetes-validations": [{"rule": rule}]}}}}}]}
        });
        let errors = match Crd::load(&doc, None) {
            Ok(_) => panic!("{rule}: accepted"),
            Err(e) => e,
        };
        let text = errors[0].text();
        assert!(text.contains("found no matching overload for '_"), "{rule}: {text}");
    }
}

/// Family 9 — defaults must be valid where they stand (defaulting/validation.go ValidateDefaults:
/// pruned, then the node's OpenAPI checks under `<path>.default`); the cases of
/// pkg/apis/apiextensions/validation/validation_test.go's defaults test (a, c, d, e).
#[test]
fn invalid_defaults_refuse_the_crd() {
    let doc = json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition", "metadata": {"name": "widgets.example.com"},
        "spec": {"group": "example.com", "scope": "Namespaced", "names": {"kind": "Widget", "plural": "widgets"}, "versions": [{"name": "v1", "served": true, "storage": true,
            "schema": {"openAPIV3Schema": {"type": "object", "properties": {"spec": {"type": "object", "properties": {
                "a": {"type": "object", "properties": {"foo": {"type": "string"}}, "default": {"foo": "abc", "bar": 42}},
                "b": {"type": "object", "properties": {"foo": {"type": "string"}}, "default": {"foo": "abc"}},
                "c": {"type": "object", "properties": {"foo": {"type": "string"}}, "default": {"foo": 42}},
                "d": {"type": "object", "properties": {"good": {"type": "string", "pattern": "a"},
                    "bad": {"type": "string", "pattern": "b"}}, "default": {"good": "a", "bad": "a"}},
                "e": {"type": "object", "properties": {"preserveUnknownFields": {"type": "object",
                    "default": {"foo": "abc", "bar": 42}}}}
            }}}}}}]}
    });
    let errors = match Crd::load(&doc, None) {
        Ok(_) => panic!("accepted"),
        Err(e) => e.iter().map(|e| e.text()).collect::<Vec<_>>(),
    };
    let at = "spec.validation.openAPIV3Schema.properties[spec]";
    assert_eq!(
        errors,
        [
            format!("{at}.properties[a].default: Invalid value: {{\"bar\":42,\"foo\":\"abc\"}}: must not have unknown fields"),
            format!("{at}.properties[c].default.foo: Invalid value: \"integer\": foo in body must be of type string: \"integer\""),
            format!("{at}.properties[d].default.bad: Invalid value: \"a\": bad in body should match 'b'"),
            format!("{at}.properties[e].properties[preserveUnknownFields].default: Invalid value: {{\"bar\":42,\"foo\":\"abc\"}}: must not have unknown fields"),
        ]
    );
}

/// Family 2 — kube-openapi schema_props.go: a failed anyOf/oneOf reports the errors of the
/// branch with the highest `MatchCount` (checks passed, counted as schema.go, type.go,
/// validator.go, slice_validator.go and object_validator.go count them), the first of equals
/// — not the branch with the fewest errors.
#[test]
fn junctors_report_the_branch_with_the_most_checks_passed() {
    let c = crd(json!({"type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"type": "string"}, "c": {"type": "string"}},
        "oneOf": [{"required": ["a", "b"]}, {"required": ["c"]}]}));
    // Equal counts (5 each): the first branch's two errors, not the second's one.
    assert_eq!(
        texts(&c, json!({}), None),
        [
            // A composite error has no field: apiextensions puts it at the root, value "".
            r#"<nil>: Invalid value: "": "spec" must validate one and only one schema (oneOf). Found none valid"#,
            "spec.a: Required value",
            "spec.b: Required value",
        ]
    );
    // The second branch checks more (its property `a` is validated inside it): its errors.
    let c = crd(json!({"type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"type": "string"}, "c": {"type": "string"}},
        "anyOf": [{"required": ["c"]}, {"properties": {"a": {"minimum": 3}}, "required": ["b"]}]}));
    assert_eq!(
        texts(&c, json!({"a": 1}), None),
        [
            r#"<nil>: Invalid value: "": "spec" must validate at least one schema (anyOf)"#,
            "spec.a: Invalid value: 1: spec.a in body should be greater than or equal to 3",
            "spec.b: Required value",
        ]
    );
}

/// apiextensions-apiserver `pkg/registry/customresource/strategy.go` `WarningsOnCreate` /
/// `WarningsOnUpdate` and `validator.go` `validateKubeFinalizerName` (v0.33.0 to
/// v0.37.0-beta.0): the finalizers a valid request adds, sorted, each named as IsQualifiedName
/// and the standard names want.
#[test]
fn finalizer_warnings() {
    let c = crd(json!({"type": "object"}));
    let with = |finalizers: Value| json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w", "finalizers": finalizers}, "spec": {}});
    // (A name that is no qualified name is an error of ValidateObjectMeta first, so its warning
    // never shows.)
    let new = with(json!(["mycontroller", "example.com/ok", "my.controller", "orphan", "mycontroller"]));
    let out = c.check(&new, None, &kubedv_core::crd::Options::default());
    assert!(out.errors.is_empty(), "{:?}", out.errors);
    assert_eq!(
        out.warnings,
        [
            "metadata.finalizers: \"my.controller\": prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers",
            "metadata.finalizers: \"mycontroller\": prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers",
        ]
    );
    // An update warns about the finalizers it adds only.
    let old = with(json!(["mycontroller", "my.controller"]));
    let out = c.check(&with(json!(["mycontroller", "my.controller", "other"])), Some(&old), &Default::default());
    assert_eq!(
        out.warnings,
        ["metadata.finalizers: \"other\": prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers"]
    );
    // A request the API server refuses gets no warnings.
    let invalid = json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "Bad_Name", "finalizers": ["x"]}});
    assert!(c.check(&invalid, None, &Default::default()).warnings.is_empty());
}
