//! The internal flowcontrol types (`pkg/apis/flowcontrol/types.go`) as `field.Error` prints a
//! bad value of theirs: Go's `json.Marshal` of a struct without JSON tags (Go field names, in
//! declaration order, every field, `null` for nil pointers and slices), from the `v1` object
//! converted to the internal one.
//!
//! With `canon`, empty lists print as `null`: the rendering then compares as
//! `apiequality.Semantic.DeepEqual` does (nil and empty slices alike).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value as Json;

use crate::apis::json::{get, int, str};
use crate::field::go_json;

/// A Go struct: `{"A":a,"B":b}`.
fn go_struct(fields: &[(&str, String)]) -> String {
    let body: Vec<String> = fields.iter().map(|(k, v)| format!("\"{k}\":{v}")).collect();
    format!("{{{}}}", body.join(","))
}

fn string(v: &Json, key: &str) -> String {
    go_json(&Json::from(str(v, key)))
}

fn int32(v: &Json, key: &str) -> String {
    format!("{}", int(v, key).unwrap_or(0))
}

fn ptr_int32(v: &Json, key: &str) -> String {
    int(v, key).map_or_else(|| String::from("null"), |n| format!("{n}"))
}

fn boolean(v: &Json, key: &str) -> String {
    String::from(if crate::apis::json::bool(v, key) == Some(true) { "true" } else { "false" })
}

fn ptr(v: &Json, key: &str, f: impl Fn(&Json) -> String) -> String {
    get(v, key).map_or_else(|| String::from("null"), f)
}

fn slice(v: &Json, key: &str, canon: bool, f: impl Fn(&Json) -> String) -> String {
    match get(v, key).and_then(Json::as_array) {
        None => String::from("null"),
        Some(items) if items.is_empty() && canon => String::from("null"),
        Some(items) => format!("[{}]", items.iter().map(f).collect::<Vec<_>>().join(",")),
    }
}

fn strings(v: &Json, key: &str, canon: bool) -> String {
    slice(v, key, canon, |s| go_json(&Json::from(s.as_str().unwrap_or(""))))
}

/// `flowcontrol.FlowDistinguisherMethod`.
pub(crate) fn distinguisher_method(dm: &Json) -> String {
    go_struct(&[("Type", string(dm, "type"))])
}

fn subject(s: &Json) -> String {
    go_struct(&[
        ("Kind", string(s, "kind")),
        ("User", ptr(s, "user", |u| go_struct(&[("Name", string(u, "name"))]))),
        ("Group", ptr(s, "group", |g| go_struct(&[("Name", string(g, "name"))]))),
        (
            "ServiceAccount",
            ptr(s, "serviceAccount", |sa| {
                go_struct(&[("Namespace", string(sa, "namespace")), ("Name", string(sa, "name"))])
            }),
        ),
    ])
}

fn rule(r: &Json, canon: bool) -> String {
    go_struct(&[
        ("Subjects", slice(r, "subjects", canon, subject)),
        (
            "ResourceRules",
            slice(r, "resourceRules", canon, |rr| {
                go_struct(&[
                    ("Verbs", strings(rr, "verbs", canon)),
                    ("APIGroups", strings(rr, "apiGroups", canon)),
                    ("Resources", strings(rr, "resources", canon)),
                    ("ClusterScope", boolean(rr, "clusterScope")),
                    ("Namespaces", strings(rr, "namespaces", canon)),
                ])
            }),
        ),
        (
            "NonResourceRules",
            slice(r, "nonResourceRules", canon, |nr| {
                go_struct(&[
                    ("Verbs", strings(nr, "verbs", canon)),
                    ("NonResourceURLs", strings(nr, "nonResourceURLs", canon)),
                ])
            }),
        ),
    ])
}

/// `flowcontrol.FlowSchemaSpec`.
pub(crate) fn flow_schema_spec(spec: &Json, canon: bool) -> String {
    go_struct(&[
        (
            "PriorityLevelConfiguration",
            go_struct(&[("Name", string(crate::apis::json::field(spec, "priorityLevelConfiguration"), "name"))]),
        ),
        ("MatchingPrecedence", int32(spec, "matchingPrecedence")),
        ("DistinguisherMethod", ptr(spec, "distinguisherMethod", distinguisher_method)),
        ("Rules", slice(spec, "rules", canon, |r| rule(r, canon))),
    ])
}

/// `flowcontrol.ExemptPriorityLevelConfiguration`.
pub(crate) fn exempt(e: &Json) -> String {
    go_struct(&[
        ("NominalConcurrencyShares", ptr_int32(e, "nominalConcurrencyShares")),
        ("LendablePercent", ptr_int32(e, "lendablePercent")),
    ])
}

/// `flowcontrol.PriorityLevelConfigurationSpec`; `exempt_as` replaces the `Exempt` field.
pub(crate) fn priority_level_spec(spec: &Json, exempt_as: Option<String>) -> String {
    let limited = ptr(spec, "limited", |l| {
        let lr = crate::apis::json::field(l, "limitResponse");
        go_struct(&[
            // A nil *int32 converts to 0.
            ("NominalConcurrencyShares", int32(l, "nominalConcurrencyShares")),
            (
                "LimitResponse",
                go_struct(&[
                    ("Type", string(lr, "type")),
                    (
                        "Queuing",
                        ptr(lr, "queuing", |q| {
                            go_struct(&[
                                ("Queues", int32(q, "queues")),
                                ("HandSize", int32(q, "handSize")),
                                ("QueueLengthLimit", int32(q, "queueLengthLimit")),
                            ])
                        }),
                    ),
                ]),
            ),
            ("LendablePercent", ptr_int32(l, "lendablePercent")),
            ("BorrowingLimitPercent", ptr_int32(l, "borrowingLimitPercent")),
        ])
    });
    let exempt = exempt_as.unwrap_or_else(|| ptr(spec, "exempt", exempt));
    go_struct(&[("Type", string(spec, "type")), ("Limited", limited), ("Exempt", exempt)])
}
