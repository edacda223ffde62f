//! Cases from Kubernetes' `pkg/apis/networking/validation/validation_test.go` and
//! `pkg/registry/networking/*/strategy_test.go`, run through the whole path
//! ([`crate::apis::admit`]: defaulting, strategy, validation), with the API server's texts.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{json, Value as Json};

use crate::apis::apps::tests::texts;
use crate::apis::{admit, Request};

const GROUP: &str = "networking.k8s.io";

/// A case: the changes to a valid base object (JSON pointer, value), and the errors expected.
type Case<'a> = (Vec<(&'a str, Json)>, Vec<String>);

/// An IPAddress case: the name, the changes, the errors expected.
type NamedCase<'a> = (&'a str, &'a [(&'a str, Json)], &'a [&'a str]);

/// The outcome of a create (`old` `None`) or update: (errors, warnings, the object).
fn run(kind: &str, object: &Json, old: Option<&Json>) -> (Vec<String>, Vec<String>, Json) {
    let request = Request { group: GROUP, version: "v1", kind, object, old, minor: 37 };
    let o = admit(&request).expect("modeled");
    (o.errors.iter().map(|e| e.text()).collect(), o.warnings, o.object)
}

fn errors(kind: &str, object: &Json) -> Vec<String> {
    texts(GROUP, kind, object, None)
}

/// Sets `pointer` (`/spec/rules/0/host`) in `v`, creating objects on the way (list items must
/// exist); `null` removes it.
fn set(v: &mut Json, pointer: &str, value: Json) {
    let keys: Vec<&str> = pointer.split('/').skip(1).collect();
    let Some((last, path)) = keys.split_last() else { return };
    let mut at = v;
    for key in path {
        at = match at {
            Json::Array(items) => match key.parse::<usize>().ok().and_then(|i| items.get_mut(i)) {
                Some(item) => item,
                None => return,
            },
            Json::Object(map) => map.entry(String::from(*key)).or_insert_with(|| json!({})),
            _ => return,
        };
    }
    match at {
        Json::Object(map) if value.is_null() => {
            map.remove(*last);
        }
        Json::Object(map) => {
            map.insert(String::from(*last), value);
        }
        Json::Array(items) => {
            if let Some(item) = last.parse::<usize>().ok().and_then(|i| items.get_mut(i)) {
                *item = value;
            }
        }
        _ => {}
    }
}

fn with(base: &Json, changes: &[(&str, Json)]) -> Json {
    let mut object = base.clone();
    for (pointer, value) in changes {
        set(&mut object, pointer, value.clone());
    }
    object
}

fn network_policy() -> Json {
    json!({"metadata": {"name": "foo", "namespace": "bar"}, "spec": {"podSelector": {"matchLabels": {"a": "b"}}}})
}

const RANGE: &str = "must be between 1 and 65535, inclusive";

// TestValidateNetworkPolicy: the success cases.
#[test]
fn network_policy_valid() {
    let base = network_policy();
    let ipv4 = json!({"cidr": "192.168.0.0/16", "except": ["192.168.3.0/24", "192.168.4.0/24"]});
    let ipv6 = json!({"cidr": "fd00:192:168::/48", "except": ["fd00:192:168:3::/64", "fd00:192:168:4::/64"]});
    let ports = json!([{"port": 80}, {"protocol": "TCP"}, {"protocol": "TCP", "port": 443},
                       {"protocol": "UDP", "port": "dns"}, {"protocol": "SCTP", "port": 7777}]);
    let cases = [
        with(&base, &[("/spec/ingress", json!([{}]))]),
        with(&base, &[("/spec/ingress", json!([{"ports": [{}], "from": [{"podSelector": {}}]}]))]),
        with(&base, &[("/spec/ingress", json!([{"ports": ports}]))]),
        with(&base, &[("/spec/ingress", json!([{"from": [{"podSelector": {"matchLabels": {"c": "d"}}}]}]))]),
        with(&base, &[("/spec/ingress", json!([{"from": [{"namespaceSelector": {"matchLabels": {"c": "d"}}}]}]))]),
        with(&base, &[("/spec/ingress", json!([{"from": [{"ipBlock": ipv4}]}]))]),
        with(&base, &[("/spec/ingress", json!([{"from": [{"ipBlock": ipv6}]}]))]),
        with(
            &base,
            &[("/spec/egress", json!([{"to": [{"ipBlock": ipv4}]}])), ("/spec/policyTypes", json!(["Egress"]))],
        ),
        with(
            &base,
            &[
                ("/spec/egress", json!([{"to": [{"ipBlock": ipv6}]}])),
                ("/spec/policyTypes", json!(["Ingress", "Egress"])),
            ],
        ),
        with(
            &base,
            &[(
                "/spec/egress",
                json!([{"ports": [{"port": 32000, "endPort": 32768}, {"protocol": "UDP", "port": "dns"}]}]),
            )],
        ),
        with(&base, &[("/spec/ingress", json!([{"ports": [{"protocol": "TCP", "port": 32768, "endPort": 32768}]}]))]),
    ];
    for case in &cases {
        assert_eq!(errors("NetworkPolicy", case), Vec::<String>::new(), "{case}");
    }
}

// TestValidateNetworkPolicy: the error cases.
#[test]
fn network_policy_invalid() {
    let base = network_policy();
    let ipv4 = |cidr: &str, except: Json| {
        with(&base, &[("/spec/ingress", json!([{"from": [{"ipBlock": {"cidr": cidr, "except": except}}]}]))])
    };
    let egress_ports =
        |ports: Json| with(&base, &[("/spec/egress", json!([{"to": [{"namespaceSelector": {}}], "ports": ports}]))]);
    let bad_label = "NoUppercaseOrSpecialCharsLike=Equals";
    let label_msg = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
    let cases: Vec<(Json, Vec<String>)> = alloc::vec![
        (
            with(&base, &[("/spec/ingress", json!([{"from": [{"namespaceSelector": {"matchLabels": {"c": "d"}}, "ipBlock": {"cidr": "192.168.0.0/16"}}]}]))]),
            alloc::vec!["spec.ingress[0].from[0]: Forbidden: may not specify both ipBlock and another peer".into()],
        ),
        (
            with(&base, &[("/spec/ingress", json!([{"from": [{}]}])), ("/spec/egress", json!([{"to": [{}]}]))]),
            alloc::vec![
                "spec.ingress[0].from[0]: Required value: must specify a peer".into(),
                "spec.egress[0].to[0]: Required value: must specify a peer".into(),
            ],
        ),
        (
            with(&base, &[("/spec/podSelector", json!({"matchLabels": {bad_label: "b"}}))]),
            alloc::vec![format!("spec.podSelector.matchLabels: Invalid value: \"{bad_label}\": {label_msg}")],
        ),
        (
            with(&base, &[("/spec/ingress", json!([{"ports": [{"protocol": "ICMP", "port": 80}]}]))]),
            alloc::vec!["spec.ingress[0].ports[0].protocol: Unsupported value: \"ICMP\": supported values: \"TCP\", \"UDP\", \"SCTP\"".into()],
        ),
        (
            with(&base, &[("/spec/ingress", json!([{"ports": [{"protocol": "TCP", "port": 123456789}]}]))]),
            alloc::vec![format!("spec.ingress[0].ports[0].port: Invalid value: 123456789: {RANGE}")],
        ),
        (
            with(&base, &[("/spec/egress", json!([{"ports": [{"protocol": "TCP", "port": "!@#$"}]}]))]),
            alloc::vec![
                "spec.egress[0].ports[0].port: Invalid value: \"!@#$\": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)".into(),
                "spec.egress[0].ports[0].port: Invalid value: \"!@#$\": must contain at least one letter (a-z)".into(),
            ],
        ),
        (
            with(&base, &[("/spec/egress", json!([{"to": [{"podSelector": {"matchLabels": {bad_label: "b"}}}]}]))]),
            alloc::vec![format!("spec.egress[0].to[0].podSelector.matchLabels: Invalid value: \"{bad_label}\": {label_msg}")],
        ),
        (ipv4("", json!(null)), alloc::vec!["spec.ingress[0].from[0].ipBlock.cidr: Required value".into()]),
        (
            ipv4("192.168.5.6", json!(null)),
            alloc::vec!["spec.ingress[0].from[0].ipBlock.cidr: Invalid value: \"192.168.5.6\": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)".into()],
        ),
        (
            ipv4("001.002.003.000/0", json!(null)),
            alloc::vec!["spec.ingress[0].from[0].ipBlock.cidr: Invalid value: \"001.002.003.000/0\": must not have leading 0s in IP or prefix length".into()],
        ),
        (
            ipv4("192.168.0.0/16", json!([" "])),
            alloc::vec!["spec.ingress[0].from[0].ipBlock.except[0]: Invalid value: \" \": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)".into()],
        ),
        (
            ipv4("192.168.8.0/24", json!(["192.168.9.1/32"])),
            alloc::vec!["spec.ingress[0].from[0].ipBlock.except[0]: Invalid value: \"192.168.9.1/32\": must be a strict subset of `cidr`".into()],
        ),
        (
            ipv4("192.168.0.0/24", json!(["192.168.0.0/24"])),
            alloc::vec!["spec.ingress[0].from[0].ipBlock.except[0]: Invalid value: \"192.168.0.0/24\": must be a strict subset of `cidr`".into()],
        ),
        (
            ipv4("fd00:192:168:1::/64", json!(["fd00:192:168:2::/64"])),
            alloc::vec!["spec.ingress[0].from[0].ipBlock.except[0]: Invalid value: \"fd00:192:168:2::/64\": must be a strict subset of `cidr`".into()],
        ),
        (
            with(&base, &[("/spec/policyTypes", json!(["foo", "bar"]))]),
            alloc::vec![
                "spec.policyTypes[0]: Unsupported value: \"foo\": supported values: \"Ingress\", \"Egress\"".into(),
                "spec.policyTypes[1]: Unsupported value: \"bar\": supported values: \"Ingress\", \"Egress\"".into(),
            ],
        ),
        (
            with(&base, &[("/spec/policyTypes", json!(["foo", "bar", "baz"]))]),
            alloc::vec!["spec.policyTypes: Invalid value: [\"foo\",\"bar\",\"baz\"]: may not specify more than two policyTypes".into()],
        ),
        (
            egress_ports(json!([{"protocol": "UDP", "port": 35000, "endPort": 32768}, {"port": 32000, "endPort": 32768}])),
            alloc::vec!["spec.egress[0].ports[0].endPort: Invalid value: 32768: must be greater than or equal to `port`".into()],
        ),
        (
            egress_ports(json!([{"protocol": "UDP", "port": "dns", "endPort": 32768}])),
            alloc::vec!["spec.egress[0].ports[0].endPort: Invalid value: 32768: may not be specified when `port` is non-numeric".into()],
        ),
        (
            egress_ports(json!([{"protocol": "TCP", "endPort": 32768}])),
            alloc::vec!["spec.egress[0].ports[0].endPort: Invalid value: 32768: may not be specified when `port` is not specified".into()],
        ),
        (
            egress_ports(json!([{"protocol": "TCP", "port": 30000, "endPort": 65537}])),
            alloc::vec![format!("spec.egress[0].ports[0].endPort: Invalid value: 65537: {RANGE}")],
        ),
    ];
    for (object, want) in &cases {
        assert_eq!(&errors("NetworkPolicy", object), want, "{object}");
    }
}

// SetDefaults_NetworkPolicy, SetDefaults_NetworkPolicyPort (networking/v1 defaults_test.go).
#[test]
fn network_policy_defaults() {
    let object = with(&network_policy(), &[("/spec/egress", json!([{"ports": [{"port": 53}]}]))]);
    let (_, _, defaulted) = run("NetworkPolicy", &object, None);
    assert_eq!(defaulted["spec"]["policyTypes"], json!(["Ingress", "Egress"]));
    assert_eq!(defaulted["spec"]["egress"][0]["ports"][0]["protocol"], json!("TCP"));
    assert_eq!(defaulted["metadata"]["generation"], json!(1));
    let (_, _, defaulted) = run("NetworkPolicy", &network_policy(), None);
    assert_eq!(defaulted["spec"]["policyTypes"], json!(["Ingress"]));
}

// TestValidateNetworkPolicyUpdate: an invalid old selector lets invalid label values through;
// old CIDRs are allowed even if invalid (the strategy's warnings still name them).
#[test]
fn network_policy_update() {
    let old = with(
        &network_policy(),
        &[
            (
                "/spec/podSelector",
                json!({"matchExpressions": [{"key": "a", "operator": "In", "values": ["bad value!"]}]}),
            ),
            ("/spec/ingress", json!([{"from": [{"ipBlock": {"cidr": "10.0.0.1/8"}}]}])),
        ],
    );
    let new = with(
        &old,
        &[(
            "/spec/egress",
            json!([{"to": [{"podSelector": {"matchExpressions": [{"key": "b", "operator": "In", "values": ["also bad!"]}]}}]}]),
        )],
    );
    let (errors, warnings, object) = run("NetworkPolicy", &new, Some(&old));
    assert_eq!(errors, Vec::<String>::new());
    assert_eq!(
        warnings,
        ["spec.ingress[0].from[0].ipBlock.cidr: CIDR value \"10.0.0.1/8\" is ambiguous in this context (should be \"10.0.0.0/8\" or \"10.0.0.1/32\"?)"]
    );
    assert_eq!(object["metadata"]["generation"], json!(2));
    let (errors, _, _) = run("NetworkPolicy", &new, None);
    assert_eq!(errors.len(), 3, "{errors:?}");
}

fn ingress() -> Json {
    json!({"metadata": {"name": "foo", "namespace": "default"}, "spec": {
        "defaultBackend": {"service": {"name": "default-backend", "port": {"number": 80}}},
        "rules": [{"host": "foo.bar.com", "http": {"paths": [
            {"path": "/foo", "pathType": "ImplementationSpecific",
             "backend": {"service": {"name": "default-backend", "port": {"number": 80}}}}]}}]}})
}

const BACKEND: &str = "/spec/rules/0/http/paths/0/backend";

// TestValidateIngress, TestValidateIngressCreate, TestValidateIngressRuleValue.
#[test]
fn ingress_create() {
    let base = ingress();
    assert_eq!(errors("Ingress", &base), Vec::<String>::new());
    let subdomain = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    let wildcard = "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    let cases: Vec<Case<'_>> = alloc::vec![
        (
            alloc::vec![("/spec/defaultBackend", json!(null)), ("/spec/rules", json!([]))],
            alloc::vec!["spec: Invalid value: []: either `defaultBackend` or `rules` must be specified".into()],
        ),
        (
            alloc::vec![("/spec/defaultBackend", json!(null)), ("/spec/rules", json!(null))],
            alloc::vec!["spec: Invalid value: null: either `defaultBackend` or `rules` must be specified".into()],
        ),
        (
            alloc::vec![("/spec/rules/0/host", json!("127.0.0.1"))],
            alloc::vec!["spec.rules[0].host: Invalid value: \"127.0.0.1\": must be a DNS name, not an IP address".into()],
        ),
        (
            alloc::vec![("/spec/rules/0/host", json!("foo.*.bar.com"))],
            alloc::vec![format!("spec.rules[0].host: Invalid value: \"foo.*.bar.com\": {wildcard}")],
        ),
        (alloc::vec![("/spec/rules/0/host", json!("*.bar.com"))], alloc::vec![]),
        (
            alloc::vec![("/spec/rules/0/host", json!("Foo.bar.com"))],
            alloc::vec![format!("spec.rules[0].host: Invalid value: \"Foo.bar.com\": {subdomain}")],
        ),
        (
            alloc::vec![("/spec/rules/0/http/paths", json!([]))],
            alloc::vec!["spec.rules[0].http.paths: Required value".into()],
        ),
        (
            alloc::vec![("/spec/rules/0/http/paths/0/pathType", json!(null))],
            alloc::vec!["spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified".into()],
        ),
        (
            alloc::vec![("/spec/rules/0/http/paths/0/pathType", json!("Exact")), ("/spec/rules/0/http/paths/0/path", json!("/foo/../bar"))],
            alloc::vec!["spec.rules[0].http.paths[0].path: Invalid value: \"/foo/../bar\": must not contain '/../'".into()],
        ),
        (
            alloc::vec![("/spec/rules/0/http/paths/0/pathType", json!("Prefix")), ("/spec/rules/0/http/paths/0/path", json!("/foo/."))],
            alloc::vec!["spec.rules[0].http.paths[0].path: Invalid value: \"/foo/.\": cannot end with '/.'".into()],
        ),
        (
            alloc::vec![("/spec/rules/0/http/paths/0/path", json!("foo"))],
            alloc::vec!["spec.rules[0].http.paths[0].path: Invalid value: \"foo\": must be an absolute path".into()],
        ),
        (alloc::vec![("/spec/rules/0/http/paths/0/path", json!(""))], alloc::vec![]),
        (
            alloc::vec![("/spec/rules/0/http/paths/0/pathType", json!("Regex"))],
            alloc::vec!["spec.rules[0].http.paths[0].pathType: Unsupported value: \"Regex\": supported values: \"Exact\", \"ImplementationSpecific\", \"Prefix\"".into()],
        ),
        (
            alloc::vec![(BACKEND, json!({"resource": {"apiGroup": "example.com", "kind": "foo", "name": "bar"}}))],
            alloc::vec![],
        ),
        (
            alloc::vec![(BACKEND, json!({"resource": {"kind": "foo", "name": "bar"}, "service": {"name": "s", "port": {"number": 80}}}))],
            alloc::vec!["spec.rules[0].http.paths[0].backend: Invalid value: \"\": cannot set both resource and service backends".into()],
        ),
        (
            alloc::vec![(BACKEND, json!({}))],
            alloc::vec!["spec.rules[0].http.paths[0].backend: Invalid value: \"\": resource or service backend is required".into()],
        ),
        (
            alloc::vec![(BACKEND, json!({"service": {"name": "s", "port": {"name": "http", "number": 80}}}))],
            alloc::vec!["spec.rules[0].http.paths[0].backend: Invalid value: \"\": cannot set both port name & port number".into()],
        ),
        (
            alloc::vec![(BACKEND, json!({"service": {"name": "s", "port": {}}}))],
            alloc::vec!["spec.rules[0].http.paths[0].backend: Required value: port name or number is required".into()],
        ),
        (
            alloc::vec![(BACKEND, json!({"service": {"port": {"number": 80}}}))],
            alloc::vec!["spec.rules[0].http.paths[0].backend.service.name: Required value".into()],
        ),
        // TestAllowRelaxedServiceNameValidation: a DNS label that is no DNS-1035 label is fine.
        (alloc::vec![(BACKEND, json!({"service": {"name": "1-service", "port": {"number": 80}}}))], alloc::vec![]),
        (
            alloc::vec![(BACKEND, json!({"service": {"name": "s", "port": {"number": 70000}}}))],
            alloc::vec![format!("spec.rules[0].http.paths[0].backend.service.port.number: Invalid value: 70000: {RANGE}")],
        ),
        (
            alloc::vec![(BACKEND, json!({"resource": {"apiGroup": "Bad_Group", "kind": "a/b", "name": ""}}))],
            alloc::vec![
                format!("spec.rules[0].http.paths[0].backend.resource.apiGroup: Invalid value: \"Bad_Group\": {subdomain}"),
                "spec.rules[0].http.paths[0].backend.resource.kind: Invalid value: \"a/b\": may not contain '/'".into(),
                "spec.rules[0].http.paths[0].backend.resource.name: Required value".into(),
            ],
        ),
        (
            alloc::vec![("/spec/ingressClassName", json!("Bad"))],
            alloc::vec![format!("spec.ingressClassName: Invalid value: \"Bad\": {subdomain}")],
        ),
        (
            alloc::vec![("/metadata/annotations", json!({"kubernetes.io/ingress.class": "foo"})), ("/spec/ingressClassName", json!("bar"))],
            alloc::vec!["annotations.kubernetes.io/ingress.class: Invalid value: \"foo\": must match `ingressClassName` when both are specified".into()],
        ),
        (
            alloc::vec![("/metadata/annotations", json!({"kubernetes.io/ingress.class": "foo"})), ("/spec/ingressClassName", json!("foo"))],
            alloc::vec![],
        ),
    ];
    for (changes, want) in &cases {
        assert_eq!(&errors("Ingress", &with(&base, changes)), want, "{changes:?}");
    }
}

// TestValidateIngressTLS, TestValidateEmptyIngressTLS.
#[test]
fn ingress_tls() {
    let base = ingress();
    let ok = with(
        &base,
        &[("/spec/tls", json!([{"hosts": ["*.bar.com", "foo.bar.com"], "secretName": "s"}, {}, {"hosts": []}]))],
    );
    assert_eq!(errors("Ingress", &ok), Vec::<String>::new());
    let bad = with(&base, &[("/spec/tls", json!([{"hosts": ["foo.*.bar.com"], "secretName": "Bad_Name"}]))]);
    let errs = errors("Ingress", &bad);
    assert_eq!(errs.len(), 2, "{errs:?}");
    assert!(
        errs[0].starts_with("spec.tls[0].hosts[0]: Invalid value: \"foo.*.bar.com\": a wildcard DNS-1123 subdomain")
    );
    assert!(errs[1].starts_with("spec.tls[0].secretName: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain"));
}

// TestValidateIngressUpdate: an old invalid secret name or invalid wildcard rule lets the same
// through; TestIngressStrategy: status and generation.
#[test]
fn ingress_update() {
    let old = with(
        &ingress(),
        &[
            ("/spec/tls", json!([{"secretName": "Bad_Name"}])),
            ("/spec/rules/0/host", json!("*.bar.com")),
            ("/spec/rules/0/http/paths/0/path", json!("rel")),
            ("/status", json!({"loadBalancer": {"ingress": [{"ip": "1.2.3.4"}]}})),
        ],
    );
    let new = with(&old, &[("/spec/tls/0/secretName", json!("Other_Bad")), ("/status", json!(null))]);
    let (errors, warnings, object) = run("Ingress", &new, Some(&old));
    assert_eq!(errors, Vec::<String>::new());
    assert!(warnings.is_empty());
    // The old object is stored as created: its status reset.
    assert_eq!(object["status"], json!({}));
    assert_eq!(object["metadata"]["generation"], json!(2));
    // The annotation check and warning are the create's only.
    let annotated = with(&ingress(), &[("/metadata/annotations", json!({"kubernetes.io/ingress.class": "nginx"}))]);
    let (errors, warnings, object) = run("Ingress", &annotated, None);
    assert_eq!(errors, Vec::<String>::new());
    assert_eq!(
        warnings,
        ["annotation \"kubernetes.io/ingress.class\" is deprecated, please use 'spec.ingressClassName' instead"]
    );
    assert_eq!(object["status"], json!({}));
    let (_, warnings, _) = run("Ingress", &annotated, Some(&ingress()));
    assert!(warnings.is_empty());
    let fresh = ingress();
    let (errors, _, _) = run(
        "Ingress",
        &with(&fresh, &[("/spec/rules/0/host", json!("*.bar.com")), ("/spec/rules/0/http/paths/0/path", json!("rel"))]),
        Some(&fresh),
    );
    assert_eq!(errors, ["spec.rules[0].http.paths[0].path: Invalid value: \"rel\": must be an absolute path"]);
}

fn ingress_class() -> Json {
    json!({"metadata": {"name": "test123"}, "spec": {"controller": "foo.co/bar",
           "parameters": {"apiGroup": "example.com", "kind": "foo", "name": "bar"}}})
}

// TestValidateIngressClass, and SetDefaults_IngressClass.
#[test]
fn ingress_class_create() {
    let base = ingress_class();
    let (errs, _, object) = run("IngressClass", &base, None);
    assert_eq!(errs, Vec::<String>::new());
    assert_eq!(object["spec"]["parameters"]["scope"], json!("Cluster"));
    let long = alloc::format!("foo.co/{}", "a".repeat(250));
    let cases: Vec<Case<'_>> = alloc::vec![
        (alloc::vec![("/spec/controller", json!(""))], alloc::vec!["spec.controller: Required value".into()]),
        (
            alloc::vec![("/spec/controller", json!("foo"))],
            alloc::vec!["spec.controller: Invalid value: \"foo\": must be a domain-prefixed path (such as \"acme.io/foo\")".into()],
        ),
        (alloc::vec![("/spec/controller", json!(long))], alloc::vec!["spec.controller: Too long: may not be more than 250 bytes".into()]),
        (
            alloc::vec![("/spec/parameters", json!({"kind": "", "name": "", "scope": "Cluster"}))],
            alloc::vec!["spec.parameters.kind: Required value".into(), "spec.parameters.name: Required value".into()],
        ),
        (
            alloc::vec![("/spec/parameters", json!({"kind": "k", "name": "n", "scope": "Namespace"}))],
            alloc::vec!["spec.parameters.namespace: Required value: `parameters.scope` is set to 'Namespace'".into()],
        ),
        (alloc::vec![("/spec/parameters", json!({"kind": "k", "name": "n", "scope": "Namespace", "namespace": "ns"}))], alloc::vec![]),
        (
            alloc::vec![("/spec/parameters", json!({"kind": "k", "name": "n", "scope": "Namespace", "namespace": "Bad_NS"}))],
            alloc::vec!["spec.parameters.namespace: Invalid value: \"Bad_NS\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')".into()],
        ),
        (
            alloc::vec![("/spec/parameters", json!({"kind": "k", "name": "n", "scope": "Cluster", "namespace": "ns"}))],
            alloc::vec!["spec.parameters.namespace: Forbidden: `parameters.scope` is set to 'Cluster'".into()],
        ),
        (
            alloc::vec![("/spec/parameters", json!({"kind": "k", "name": "n", "scope": "foo"}))],
            alloc::vec!["spec.parameters.scope: Unsupported value: \"foo\": supported values: \"Cluster\", \"Namespace\"".into()],
        ),
    ];
    for (changes, want) in &cases {
        assert_eq!(&errors("IngressClass", &with(&base, changes)), want, "{changes:?}");
    }
}

// TestValidateIngressClassUpdate, TestIngressClassStrategy.
#[test]
fn ingress_class_update() {
    let old = with(&ingress_class(), &[("/metadata/generation", json!(3))]);
    let new = with(&old, &[("/spec/controller", json!("foo.co/other")), ("/spec/parameters/name", json!("baz"))]);
    let (errs, _, object) = run("IngressClass", &new, Some(&old));
    assert_eq!(errs, ["spec.controller: Invalid value: \"foo.co/other\": field is immutable"]);
    assert_eq!(object["metadata"]["generation"], json!(2));
    let (errs, _, object) = run("IngressClass", &old, Some(&old));
    assert_eq!(errs, Vec::<String>::new());
    assert_eq!(object["metadata"]["generation"], json!(1));
}

fn service_cidr(cidrs: Json) -> Json {
    json!({"metadata": {"name": "test-name"}, "spec": {"cidrs": cidrs}})
}

// TestValidateServiceCIDR.
#[test]
fn service_cidr_create() {
    for ok in [json!(["192.168.0.0/24"]), json!(["fd00:1234::/64"]), json!(["192.168.0.0/24", "fd00:1234::/64"])] {
        assert_eq!(errors("ServiceCIDR", &service_cidr(ok.clone())), Vec::<String>::new(), "{ok}");
    }
    let cases: [(Json, &[&str]); 8] = [
        (json!([]), &["spec.cidrs: Required value: at least one CIDR required"]),
        (
            json!(["192.168.0.0/24", "192.168.0.0/16", "fd00:1234::/64"]),
            &["spec.cidrs: Invalid value: {\"CIDRs\":[\"192.168.0.0/24\",\"192.168.0.0/16\",\"fd00:1234::/64\"]}: may only hold up to 2 values"],
        ),
        (
            json!(["192.168.0.0/24", "192.168.0.0/16"]),
            &["spec.cidrs: Invalid value: [\"192.168.0.0/24\",\"192.168.0.0/16\"]: may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64"],
        ),
        (
            json!(["fd00:1234::/64", "fd00:9876::/64"]),
            &["spec.cidrs: Invalid value: [\"fd00:1234::/64\",\"fd00:9876::/64\"]: may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64"],
        ),
        (json!(["192.168.0.1/24"]), &["spec.cidrs[0]: Invalid value: \"192.168.0.1/24\": must not have bits set beyond the prefix length"]),
        (json!(["fd00:1234:0::/64"]), &["spec.cidrs[0]: Invalid value: \"fd00:1234:0::/64\": must be in canonical form (\"fd00:1234::/64\")"]),
        (json!(["192.168.000.000/24"]), &["spec.cidrs[0]: Invalid value: \"192.168.000.000/24\": must not have leading 0s in IP or prefix length"]),
        (json!(["::ffff:192.168.0.0/120"]), &["spec.cidrs[0]: Invalid value: \"::ffff:192.168.0.0/120\": must not have an IPv4-mapped IPv6 address"]),
    ];
    for (cidrs, want) in cases {
        assert_eq!(errors("ServiceCIDR", &service_cidr(cidrs.clone())), want, "{cidrs}");
    }
}

// TestValidateServiceCIDRUpdate, TestServiceCIDRStrategy (the status is wiped on create).
#[test]
fn service_cidr_update() {
    let old = service_cidr(json!(["192.168.0.0/24"]));
    let dual = service_cidr(json!(["192.168.0.0/24", "fd00:1234::/64"]));
    let update = |new: &Json, old: &Json| texts(GROUP, "ServiceCIDR", new, Some(old));
    assert_eq!(update(&dual, &old), Vec::<String>::new());
    assert_eq!(
        update(&service_cidr(json!(["192.168.1.0/24", "fd00:1234::/64"])), &old),
        ["spec.cidrs[0]: Invalid value: \"192.168.1.0/24\": field is immutable"]
    );
    assert_eq!(
        update(&service_cidr(json!(["192.168.1.0/24"])), &old),
        ["spec.cidrs[0]: Invalid value: \"192.168.1.0/24\": field is immutable"]
    );
    assert_eq!(update(&old, &dual), ["spec.cidrs: Invalid value: [\"192.168.0.0/24\"]: field is immutable"]);
    assert_eq!(
        update(&service_cidr(json!(["192.168.0.0/24", "10.0.0.0/24"])), &old),
        ["spec.cidrs: Invalid value: [\"192.168.0.0/24\",\"10.0.0.0/24\"]: may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64"]
    );
    let with_status = with(&old, &[("/status", json!({"conditions": [{"type": "Ready"}]}))]);
    let (_, _, object) = run("ServiceCIDR", &with_status, None);
    assert_eq!(object["status"], json!({}));
    assert!(object["metadata"].get("generation").is_none());
}

fn ip_address(name: &str) -> Json {
    json!({"metadata": {"name": name}, "spec": {"parentRef": {"group": "", "resource": "services", "name": "foo", "namespace": "bar"}}})
}

// TestValidateIPAddress.
#[test]
fn ip_address_create() {
    for ok in ["192.168.1.1", "2001:db8::2"] {
        assert_eq!(errors("IPAddress", &ip_address(ok)), Vec::<String>::new(), "{ok}");
    }
    let cases: [NamedCase<'_>; 7] = [
        ("192.168.001.1", &[], &["metadata.name: Invalid value: \"192.168.001.1\": must not have leading 0s"]),
        ("2001:db8:0::2", &[], &["metadata.name: Invalid value: \"2001:db8:0::2\": must be in canonical form (\"2001:db8::2\")"]),
        ("::ffff:192.168.1.1", &[], &["metadata.name: Invalid value: \"::ffff:192.168.1.1\": must not be an IPv4-mapped IPv6 address"]),
        ("not-an-ip", &[], &["metadata.name: Invalid value: \"not-an-ip\": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"]),
        ("192.168.1.1", &[("/spec/parentRef", Json::Null)], &["spec.parentRef: Required value"]),
        (
            "192.168.1.1",
            &[("/spec/parentRef", json!({"group": "", "resource": "", "name": ""}))],
            &["spec.parentRef.resource: Required value", "spec.parentRef.name: Required value"],
        ),
        (
            "192.168.1.1",
            &[("/spec/parentRef", json!({"group": "bad_group", "resource": "a/b", "name": "..", "namespace": "a%b"}))],
            &[
                "spec.parentRef.group: Invalid value: \"bad_group\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
                "spec.parentRef.resource: Invalid value: \"a/b\": may not contain '/'",
                "spec.parentRef.name: Invalid value: \"..\": may not be '..'",
                "spec.parentRef.namespace: Invalid value: \"a%b\": may not contain '%'",
            ],
        ),
    ];
    for (name, changes, want) in cases {
        assert_eq!(errors("IPAddress", &with(&ip_address(name), changes)), want, "{name} {changes:?}");
    }
}

// TestValidateIPAddressUpdate: the parent reference is immutable; from 1.37 the declarative
// rule reports it (the handwritten error is covered), before with the handwritten text.
#[test]
fn ip_address_update() {
    let old = ip_address("192.168.1.1");
    let new = with(&old, &[("/spec/parentRef/name", json!("other"))]);
    assert_eq!(texts(GROUP, "IPAddress", &new, Some(&old)), Vec::<String>::new());
    let request = Request { group: GROUP, version: "v1", kind: "IPAddress", object: &new, old: Some(&old), minor: 36 };
    let errs: Vec<String> = admit(&request).expect("modeled").errors.iter().map(|e| e.text()).collect();
    assert_eq!(
        errs,
        ["spec.parentRef: Invalid value: {\"Group\":\"\",\"Resource\":\"services\",\"Namespace\":\"bar\",\"Name\":\"other\"}: field is immutable"]
    );
}
