//! What the API server refuses when a CRD is created, in its words and order. Every expectation
//! comes from apiextensions-apiserver v0.37.0-beta.0 (HEAD 1aa2717a):
//! `pkg/apis/apiextensions/validation/validation.go` (`ValidateCustomResourceDefinition` and
//! the functions it calls), `pkg/apis/apiextensions/v1/{defaults,conversion}.go` (the object it
//! validates), `pkg/apiserver/schema/{validation,complete,convert}.go` (structural schemas),
//! `pkg/apihelpers/helpers.go` (API approval), apiserver `pkg/util/webhook/validation.go`.

use kubedv_core::crd::Crd;
use serde_json::{json, Value};

fn widget(spec: Value) -> Value {
    json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"}, "spec": spec})
}

fn schema(spec: Value) -> Value {
    json!({"openAPIV3Schema": {"type": "object", "properties": {"spec": spec}}})
}

fn base() -> Value {
    json!({"group": "example.com", "scope": "Namespaced", "names": {"kind": "Widget", "plural": "widgets"},
        "versions": [{"name": "v1", "served": true, "storage": true, "schema": schema(json!({"type": "object"}))}]})
}

/// The errors of a CRD (empty when it is accepted).
fn refused(doc: &Value) -> Vec<String> {
    match Crd::load_all(doc) {
        Ok(_) => Vec::new(),
        Err(e) => e.iter().map(|e| e.text()).collect(),
    }
}

/// A CRD whose `spec` schema is `spec_schema`, and its errors.
fn refused_schema(spec_schema: Value) -> Vec<String> {
    let mut spec = base();
    spec["versions"][0]["schema"] = schema(spec_schema);
    refused(&widget(spec))
}

const AT: &str = "spec.validation.openAPIV3Schema.properties[spec]";

#[test]
fn a_complete_crd_is_accepted() {
    assert_eq!(refused(&widget(base())), Vec::<String>::new());
}

/// validation.go ValidateCustomResourceDefinition: metadata (the name function adds
/// `must be spec.names.plural+"."+spec.group`), then the spec in its order (group, scope,
/// versions, storage, names), then status.storedVersions (none without a storage version).
#[test]
fn names_group_scope_and_storage() {
    let doc = json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "Widgets.example"},
        "spec": {"group": "example", "names": {"kind": "my_kind", "listKind": "my_kind", "shortNames": ["W"]},
            "versions": [{"name": "V1", "served": true, "storage": false, "schema": schema(json!({"type": "object"}))}]}});
    let dns1035 = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
    let versions = r#"[{"Name":"V1","Served":true,"Storage":false,"Deprecated":false,"DeprecationWarning":null,"Schema":null,"Subresources":null,"AdditionalPrinterColumns":null,"SelectableFields":null}]"#;
    assert_eq!(
        refused(&doc),
        [
            "metadata.name: Invalid value: \"Widgets.example\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')".to_string(),
            "metadata.name: Invalid value: \"Widgets.example\": must be spec.names.plural+\".\"+spec.group".into(),
            "spec.group: Invalid value: \"example\": should be a domain with at least one dot".into(),
            "spec.scope: Required value".into(),
            format!("spec.versions[0].name: Invalid value: \"V1\": {dns1035}"),
            format!("spec.versions: Invalid value: {versions}: must have exactly one version marked as storage version"),
            // The internal spec.version is the first version's name.
            format!("spec.version: Invalid value: \"V1\": {dns1035}"),
            "spec.names.plural: Required value".into(),
            format!("spec.names.singular: Invalid value: \"my_kind\": {dns1035}"),
            format!("spec.names.kind: Invalid value: \"my_kind\": may have mixed case, but should otherwise match: {dns1035}"),
            format!("spec.names.listKind: Invalid value: \"my_kind\": may have mixed case, but should otherwise match: {dns1035}"),
            format!("spec.names.shortNames[0]: Invalid value: \"W\": {dns1035}"),
            "spec.names.listKind: Invalid value: \"my_kind\": kind and listKind may not be the same".into(),
            "status.storedVersions: Invalid value: null: must have at least one stored version".into(),
        ]
    );
}

/// v1/conversion.go: identical per-version schemas move to spec.validation; different ones
/// stay, and their errors are at spec.versions[i].schema.
#[test]
fn schemas_are_reported_where_conversion_puts_them() {
    let mut spec = base();
    let bad = schema(json!({"type": "object", "uniqueItems": true}));
    spec["versions"] = json!([
        {"name": "v1beta1", "served": true, "storage": false, "schema": bad},
        {"name": "v1", "served": true, "storage": true, "schema": bad}
    ]);
    let unique = "Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic";
    assert_eq!(refused(&widget(spec.clone())), [format!("{AT}.uniqueItems: {unique}")]);
    spec["versions"][0]["schema"] = schema(json!({"type": "object"}));
    assert_eq!(
        refused(&widget(spec)),
        [format!("spec.versions[1].schema.openAPIV3Schema.properties[spec].uniqueItems: {unique}")]
    );
}

/// specStandardValidatorV3.validate and the checks of ValidateCustomResourceDefinitionOpenAPISchema.
#[test]
fn unsupported_keywords_and_extensions() {
    assert_eq!(
        refused_schema(json!({"type": "object", "properties": {
            "a": {"type": "null"},
            "b": {"type": "string", "x-kubernetes-map-type": "atomic"},
            "c": {"type": "array", "x-kubernetes-list-type": "bag", "items": {"type": "string"}},
            "d": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "object"}},
            "e": {"type": "array", "x-kubernetes-list-type": "map", "items": {"type": "object",
                "properties": {"k": {"type": "string"}, "o": {"type": "object"}}}, "x-kubernetes-list-map-keys": ["k", "o", "x"]},
            "f": {"type": "string", "x-kubernetes-preserve-unknown-fields": false}
        }})),
        [
            format!("{AT}.properties[a].type: Unsupported value: \"null\": supported values: \"array\", \"boolean\", \"integer\", \"number\", \"object\", \"string\""),
            format!("{AT}.properties[a].type: Forbidden: type cannot be set to null, use nullable as an alternative"),
            format!("{AT}.properties[b].type: Invalid value: \"string\": must be object if x-kubernetes-map-type is specified"),
            format!("{AT}.properties[c].x-kubernetes-list-type: Unsupported value: \"bag\": supported values: \"atomic\", \"set\", \"map\""),
            // Go prints the item's list type here, which is unset.
            format!("{AT}.properties[d].items.x-kubernetes-map-type: Invalid value: null: must be atomic as item of a list with x-kubernetes-list-type=set"),
            // ... and the item's type for a key that is not a scalar.
            format!("{AT}.properties[e].items.properties[o].type: Invalid value: \"object\": must be a scalar type if parent array's x-kubernetes-list-type is map"),
            format!("{AT}.properties[e].x-kubernetes-list-map-keys: Invalid value: [\"k\",\"o\",\"x\"]: entries must all be names of item properties"),
            format!("{AT}.properties[e].items.properties[k].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property"),
            format!("{AT}.properties[e].items.properties[o].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property"),
            format!("{AT}.properties[f].x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined"),
        ]
    );
}

/// validation.go, per rule: its fields are checked before any rule of the node compiles, and
/// a node with schema errors compiles none.
#[test]
fn rule_fields() {
    assert_eq!(
        refused_schema(json!({"type": "object", "properties": {"a": {"type": "string"}}, "x-kubernetes-validations": [
            {"rule": "  "},
            {"rule": "true", "message": " "},
            {"rule": "true &&\ntrue"},
            {"rule": "true", "reason": "FieldValueTooLong", "fieldPath": ".b"},
            {"rule": "true", "messageExpression": " "}
        ]})),
        [
            format!("{AT}.x-kubernetes-validations[0].rule: Required value: rule is not specified"),
            format!("{AT}.x-kubernetes-validations[1].message: Invalid value: \" \": must be non-empty if specified"),
            format!("{AT}.x-kubernetes-validations[2].message: Required value: message must be specified if rule contains line breaks"),
            format!("{AT}.x-kubernetes-validations[3].reason: Unsupported value: \"FieldValueTooLong\": supported values: \"FieldValueDuplicate\", \"FieldValueForbidden\", \"FieldValueInvalid\", \"FieldValueRequired\""),
            format!("{AT}.x-kubernetes-validations[3].fieldPath: Invalid value: \".b\": must be a valid path"),
            format!("{AT}.x-kubernetes-validations[4].messageExpression: Required value: messageExpression must be non-empty if specified"),
        ]
    );
}

/// compilation.go: only `bool` rules; validation.go: `oldSelf` where it cannot be correlated.
#[test]
fn rule_types_and_uncorrelatable_old_self() {
    let errors = refused_schema(json!({"type": "object", "properties": {
        "any": {"x-kubernetes-int-or-string": true, "x-kubernetes-validations": [{"rule": "self"}]},
        "list": {"type": "array", "maxItems": 10, "items": {"type": "string", "maxLength": 10,
            "x-kubernetes-validations": [{"rule": "self == oldSelf"}]}}
    }}));
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(errors[0].ends_with(": cel expression must evaluate to a bool"), "{}", errors[0]);
    assert_eq!(
        errors[1],
        format!("{AT}.properties[list].items.x-kubernetes-validations[0].rule: Invalid value: \"self == oldSelf\": oldSelf cannot be used on the uncorrelatable portion of the schema within {AT}.properties[list]")
    );
}

/// schema/validation.go validateNestedValueValidation (errors sorted by text) and the
/// int-or-string pattern; validateValueValidation's pattern; complete.go.
#[test]
fn junctors_hold_only_value_validations() {
    assert_eq!(
        refused_schema(json!({"type": "object", "properties": {
            "port": {"x-kubernetes-int-or-string": true, "anyOf": [{"type": "integer"}, {"type": "string"}]},
            "name": {"type": "string", "pattern": "a(", "anyOf": [{"type": "string", "description": "d"}]},
            "x": {"type": "object", "properties": {"a": {"type": "string"}}, "oneOf": [{"properties": {"b": {"maxLength": 1}}}]}
        }})),
        [
            format!("{AT}.properties[name].anyOf[0].description: Forbidden: must be empty to be structural"),
            format!("{AT}.properties[name].anyOf[0].type: Forbidden: must be empty to be structural"),
            format!("{AT}.properties[name].pattern: Invalid value: \"a(\": must be a valid regular expression, but isn't: error parsing regexp: missing closing ): `a(`"),
        ]
    );
    // Completeness is checked from the root's own junctors.
    let mut spec = base();
    spec["versions"][0]["schema"] = json!({"openAPIV3Schema": {"type": "object", "properties": {"spec": {"type": "object"}},
        "anyOf": [{"properties": {"status": {"required": ["a"]}}}]}});
    assert_eq!(
        refused(&widget(spec)),
        ["spec.validation.openAPIV3Schema.properties[status]: Required value: because it is defined in spec.validation.openAPIV3Schema.anyOf[0].properties[status]"]
    );
}

/// validateCustomResourceDefinitionValidation: with the status subresource, only some
/// fields may be set at the root (the value is the internal schema, Go's field names).
#[test]
fn status_subresource_restricts_the_root() {
    let mut spec = base();
    spec["versions"][0]["subresources"] = json!({"status": {}});
    spec["versions"][0]["schema"] = json!({"openAPIV3Schema": {"type": "object", "minProperties": 1}});
    let errors = refused(&widget(spec));
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].starts_with("spec.validation.openAPIV3Schema: Invalid value: {\"ID\":\"\",\"Schema\":\"\",\"Ref\":null,\"Description\":\"\",\"Type\":\"object\",\"Nullable\":false,"), "{}", errors[0]);
    assert!(errors[0].contains(",\"MinProperties\":1,"), "{}", errors[0]);
    assert!(errors[0].ends_with("\"XValidations\":null}: only [Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations] fields are allowed at the root of the schema if the status subresource is enabled"), "{}", errors[0]);
}

/// ValidateCustomResourceDefinitionSubresources, ValidateCustomResourceColumnDefinition,
/// ValidateCustomResourceSelectableFields, validateDeprecationWarning.
#[test]
fn subresources_columns_selectable_fields_deprecation() {
    let mut spec = base();
    let v = &mut spec["versions"][0];
    v["deprecationWarning"] = json!("old");
    v["subresources"] = json!({"scale": {"specReplicasPath": "spec.replicas", "statusReplicasPath": ".spec.replicas"}});
    v["additionalPrinterColumns"] =
        json!([{"name": "Age", "type": "time", "format": "duration", "jsonPath": "metadata.x"}]);
    v["schema"] = json!({"openAPIV3Schema": {"type": "object", "properties": {
        "metadata": {"type": "object", "properties": {"name": {"type": "string"}}},
        "spec": {"type": "object", "properties": {"n": {"type": "number"}, "s": {"type": "string"}}}}}});
    v["selectableFields"] = json!([{"jsonPath": ".metadata.name"}, {"jsonPath": ".spec.n"}, {"jsonPath": ".spec.s"}, {"jsonPath": ".spec['s']"}, {"jsonPath": ".spec.s"}]);
    assert_eq!(
        refused(&widget(spec)),
        [
            "spec.versions[0].deprecationWarning: Invalid value: \"old\": can only be set for deprecated versions",
            "spec.subresources.scale.specReplicasPath: Invalid value: \"spec.replicas\": must be a simple json path starting with .",
            "spec.subresources.scale.statusReplicasPath: Invalid value: \".spec.replicas\": should be a json path under .status",
            "spec.additionalPrinterColumns[0].type: Invalid value: \"time\": must be one of boolean,date,integer,number,string",
            "spec.additionalPrinterColumns[0].format: Invalid value: \"duration\": must be one of byte,date,date-time,double,float,int32,int64,password",
            "spec.additionalPrinterColumns[0].JSONPath: Invalid value: \"metadata.x\": must be a simple json path starting with .",
            "spec.selectableFields[0].jsonPath: Invalid value: \".metadata.name\": must not point to fields in metadata",
            "spec.selectableFields[1].jsonPath: Invalid value: \".spec.n\": must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.",
            "spec.selectableFields[3].jsonPath: Invalid value: \".spec['s']\": is an invalid path: array notation is not allowed",
            "spec.selectableFields[4].jsonPath: Duplicate value: \".spec.s\"",
        ]
    );
}

/// validateCustomResourceConversion and apiserver's ValidateWebhookURL / ValidateWebhookService
/// (called with the service's name and namespace swapped).
#[test]
fn conversion_webhooks() {
    let mut spec = base();
    spec["conversion"] = json!({"strategy": "Webhook", "webhook": {"clientConfig": {"url": "http://x?a=1"}, "conversionReviewVersions": ["v2"]}});
    assert_eq!(
        refused(&widget(spec.clone())),
        [
            "spec.conversion.webhookClientConfig.url: Invalid value: \"http\": 'https' is the only allowed URL scheme; desired format: https://host[/path]",
            "spec.conversion.webhookClientConfig.url: Invalid value: \"a=1\": query parameters are not permitted in the URL",
            "spec.conversion.conversionReviewVersions: Invalid value: [\"v2\"]: must include at least one of v1, v1beta1",
        ]
    );
    spec["conversion"] = json!({"strategy": "Webhook", "webhook": {"clientConfig": {"service": {"name": "conv", "port": 0, "path": "a"}}, "conversionReviewVersions": ["v1"]}});
    assert_eq!(
        refused(&widget(spec.clone())),
        [
            "spec.conversion.webhookClientConfig.service.name: Required value",
            "spec.conversion.webhookClientConfig.service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive",
            "spec.conversion.webhookClientConfig.service.path: Invalid value: \"a\": must start with a '/'",
            "spec.conversion.webhookClientConfig.service.path: Invalid value: \"a\": segment[0] may not be empty",
        ]
    );
    spec["conversion"] = json!({"strategy": "None", "webhook": {"conversionReviewVersions": ["v1"]}});
    assert_eq!(
        refused(&widget(spec)),
        ["spec.conversion.conversionReviewVersions: Forbidden: should not be set when strategy is not set to Webhook"]
    );
}

/// validateAPIApproval and validatePreserveUnknownFields.
#[test]
fn api_approval_and_preserve_unknown_fields() {
    let mut doc = widget(base());
    doc["metadata"]["name"] = json!("widgets.x.k8s.io");
    doc["spec"]["group"] = json!("x.k8s.io");
    assert_eq!(
        refused(&doc),
        ["metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation \"api-approved.kubernetes.io\", see https://github.com/kubernetes/enhancements/pull/1111"]
    );
    doc["metadata"]["annotations"] =
        json!({"api-approved.kubernetes.io": "https://github.com/kubernetes/kubernetes/pull/1"});
    assert_eq!(refused(&doc), Vec::<String>::new());
    doc["metadata"]["annotations"] = json!({"api-approved.kubernetes.io": "yes"});
    assert_eq!(refused(&doc).len(), 1);
    doc["metadata"]["annotations"] = json!({"api-approved.kubernetes.io": "unapproved, experimental"});
    assert_eq!(refused(&doc), Vec::<String>::new());
    let mut spec = base();
    spec["preserveUnknownFields"] = json!(true);
    assert_eq!(
        refused(&widget(spec)),
        ["spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead"]
    );
}

/// convert.go validateUnsupportedFields: `$schema` is refused only by NewStructural, whose
/// error is shown when nothing else is wrong.
#[test]
fn dollar_schema() {
    assert_eq!(
        refused_schema(json!({"type": "object", "$schema": "http://json-schema.org/draft-04/schema#"})),
        ["spec.validation.openAPIV3Schema: Invalid value: \"\": OpenAPIV3Schema 'schema' is not supported"]
    );
}
