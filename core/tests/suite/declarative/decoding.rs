//! Decoding a request body into the Go types, as the API server does before validating:
//! every value the types cannot hold, worded as sigs.k8s.io/json's `UnmarshalTypeError`
//! (internal/golang/encoding/json/decode.go: `Error`, `addErrorContext` — the innermost struct's
//! name, the JSON names of the struct fields from the root without list indices or map keys,
//! the target type as reflect prints it; `literalStore`: `number 1.5` for a number an integer
//! cannot hold), inside apiserver's refusal (pkg/endpoints/handlers/rest.go
//! `transformDecodeError`).

use kubedv_core::declarative::Schema;
use serde_json::json;

const SRC: &str = r#"package v1

type Widget struct {
	Spec WidgetSpec `json:"spec"`
}

type Mode string

type WidgetSpec struct {
	Replicas *int32 `json:"replicas,omitempty"`
	Paused bool `json:"paused"`
	Mode Mode `json:"mode"`
	Ports []Port `json:"ports"`
	Labels map[string]string `json:"labels"`
	Small int8 `json:"small"`
	Data []byte `json:"data"`
}

type Port struct {
	Number int32 `json:"number"`
}
"#;

fn messages(object: serde_json::Value) -> Vec<(String, String)> {
    let schema = Schema::compile(SRC);
    assert!(!schema.has_errors(), "{:?}", schema.diagnostics);
    let root = schema.type_named("Widget").unwrap();
    schema.decoding(root, &object).type_errors.into_iter().map(|t| (t.path, t.message)).collect()
}

#[test]
fn type_mismatches_in_the_decoders_words() {
    let got = messages(json!({"spec": {
        "replicas": "3", "paused": 1, "mode": true, "ports": [{"number": "80"}, 5],
        "labels": {"a": 2}, "small": 300, "data": 7
    }}));
    let want = [
        ("spec.data", "json: cannot unmarshal number into Go struct field WidgetSpec.spec.data of type []uint8"),
        ("spec.labels.a", "json: cannot unmarshal number into Go struct field WidgetSpec.spec.labels of type string"),
        ("spec.mode", "json: cannot unmarshal bool into Go struct field WidgetSpec.spec.mode of type v1.Mode"),
        ("spec.paused", "json: cannot unmarshal number into Go struct field WidgetSpec.spec.paused of type bool"),
        (
            "spec.ports[0].number",
            "json: cannot unmarshal string into Go struct field Port.spec.ports.number of type int32",
        ),
        ("spec.ports[1]", "json: cannot unmarshal number into Go struct field WidgetSpec.spec.ports of type v1.Port"),
        ("spec.replicas", "json: cannot unmarshal string into Go struct field WidgetSpec.spec.replicas of type int32"),
        ("spec.small", "json: cannot unmarshal number 300 into Go struct field WidgetSpec.spec.small of type int8"),
    ];
    let want: Vec<(String, String)> = want.iter().map(|(p, m)| (p.to_string(), m.to_string())).collect();
    assert_eq!(got, want);
}

#[test]
fn the_root_and_nulls() {
    assert_eq!(
        messages(json!([1])),
        [(String::new(), String::from("json: cannot unmarshal array into Go value of type v1.Widget"))]
    );
    // null leaves any field at its zero value; a valid body decodes silently.
    assert!(messages(json!({"spec": {"replicas": null, "paused": null, "ports": [{"number": 1}]}})).is_empty());
    let schema = Schema::compile(SRC);
    let t = &schema.decoding(schema.type_named("Widget").unwrap(), &json!({"spec": {"replicas": 1.5}})).type_errors[0];
    assert_eq!(
        t.refusal("Widget", "v1"),
        "Widget in version \"v1\" cannot be handled as a Widget: json: cannot unmarshal number 1.5 into Go struct field WidgetSpec.spec.replicas of type int32"
    );
}
