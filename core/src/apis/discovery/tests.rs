//! Cases from Kubernetes' `pkg/apis/discovery/validation/validation_test.go`
//! (`TestValidateEndpointSlice`, `TestValidateEndpointSliceCreate`,
//! `TestValidateEndpointSliceUpdate`: their error counts) and
//! `pkg/registry/discovery/endpointslice/strategy_test.go` (`Test_dropTopologyOnV1`,
//! `TestWarningsOnEndpointSliceAddressType`), run through the whole path, with the texts the
//! API server gives.

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{json, Value as Json};

use crate::apis::{admit, Request};

fn run(object: &Json, old: Option<&Json>) -> (Vec<String>, Vec<String>, Json) {
    let request = Request { group: "discovery.k8s.io", version: "v1", kind: "EndpointSlice", object, old, minor: 37 };
    let o = admit(&request).expect("modeled");
    (o.errors.iter().map(|e| e.text()).collect(), o.warnings, o.object)
}

fn errors(object: Json) -> Vec<String> {
    run(&object, None).0
}

fn slice(address_type: &str, ports: Json, endpoints: Json) -> Json {
    json!({"metadata": {"name": "hello", "namespace": "default"}, "addressType": address_type,
           "ports": ports, "endpoints": endpoints})
}

// TestValidateEndpointSlice: the valid cases.
#[test]
fn valid_slices() {
    for s in [
        slice(
            "IPv4",
            json!([{"name": "http", "protocol": "TCP"}]),
            json!([{"addresses": ["10.0.0.1"], "hostname": "valid-123"}]),
        ),
        slice("IPv6", json!([{"name": "https", "protocol": "TCP"}]), json!([{"addresses": ["2001:db8::1"]}])),
        slice(
            "FQDN",
            json!([{"name": "http"}]),
            json!([{"addresses": ["foo.example.com", "example.com", "example.com."]}]),
        ),
        slice(
            "IPv4",
            json!([{"name": "", "protocol": "UDP"}, {"name": "b", "protocol": "SCTP", "appProtocol": "example.com/custom"}]),
            json!([]),
        ),
        slice(
            "IPv4",
            json!([]),
            json!([{"addresses": ["10.0.0.1"], "hints": {"forZones": [{"name": "zone-a"}], "forNodes": [{"name": "node-1"}]}}]),
        ),
    ] {
        assert_eq!(errors(s), Vec::<String>::new());
    }
}

// TestValidateEndpointSlice: the expected failures (their counts), with the texts.
#[test]
fn bad_slices() {
    let cases: Vec<(Json, Vec<&str>)> = alloc::vec![
        (slice("IPv4", json!([{"name": ""}, {"name": ""}]), json!([])),
         alloc::vec!["ports[1].name: Duplicate value: \"\""]),
        (slice("IPv4", json!([{"name": "aCapital"}]), json!([])),
         alloc::vec!["ports[0].name: Invalid value: \"aCapital\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"]),
        (slice("IPv4", json!([{"name": "http", "protocol": "foo"}]), json!([])),
         alloc::vec!["ports[0].protocol: Unsupported value: \"foo\": supported values: \"SCTP\", \"TCP\", \"UDP\""]),
        (slice("IPv4", json!([{"name": "http", "appProtocol": "--"}]), json!([])),
         alloc::vec!["ports[0].appProtocol: Invalid value: \"--\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"]),
        (slice("IPv4", json!([]), json!([{"addresses": ["10.0.0.1"], "hostname": "--INVALID"}])),
         alloc::vec!["endpoints[0].hostname: Invalid value: \"--INVALID\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"]),
        (slice("IPv4", json!([]), json!([{"addresses": ["123.456.789.012"]}])),
         alloc::vec!["endpoints[0].addresses[0]: Invalid value: \"123.456.789.012\": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"]),
        (slice("IPv4", json!([]), json!([{"addresses": ["2001:db8::1"]}])),
         alloc::vec!["endpoints[0].addresses: Invalid value: \"2001:db8::1\": must be an IPv4 address"]),
        (slice("IPv6", json!([]), json!([{"addresses": ["10.0.0.1", "2001:DB8::1"]}])),
         alloc::vec![
             "endpoints[0].addresses: Invalid value: \"10.0.0.1\": must be an IPv6 address",
             "endpoints[0].addresses[1]: Invalid value: \"2001:DB8::1\": must be in canonical form (\"2001:db8::1\")",
         ]),
        (slice("FQDN", json!([]), json!([{"addresses": ["foo.*", "FOO.example.com", "underscores_are_bad.example.com", "*.example.com"]}])),
         alloc::vec![
             "endpoints[0].addresses[0]: Invalid value: \"foo.*\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
             "endpoints[0].addresses[1]: Invalid value: \"FOO.example.com\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
             "endpoints[0].addresses[2]: Invalid value: \"underscores_are_bad.example.com\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
             "endpoints[0].addresses[3]: Invalid value: \"*.example.com\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
         ]),
        (slice("FQDN", json!([]), json!([{"addresses": ["localhost", ""]}])),
         alloc::vec![
             "endpoints[0].addresses[0]: Invalid value: \"localhost\": should be a domain with at least two segments separated by dots",
             "endpoints[0].addresses[1]: Required value",
         ]),
        (slice("IP", json!([]), json!([])),
         alloc::vec!["addressType: Unsupported value: \"IP\": supported values: \"FQDN\", \"IPv4\", \"IPv6\""]),
        (slice("", json!([]), json!([])), alloc::vec!["addressType: Required value"]),
        (slice("IPv4", json!([]), json!([{"addresses": ["10.0.0.1"], "nodeName": "INVALID foo"}])),
         alloc::vec!["endpoints[0].nodeName: Invalid value: \"INVALID foo\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"]),
        (slice("IPv4", json!([]), json!([{"addresses": ["10.0.0.1"], "hints": {"forZones": [{"name": "a"}, {"name": "a"}]}}])),
         alloc::vec!["endpoints[0].hints.forZones[1].name: Duplicate value: \"a\""]),
        (slice("IPv4", json!([]), json!([{"addresses": ["10.0.0.1"], "hints": {"forZones": [{"name": "a"}, {"name": "b"}, {"name": "c"}, {"name": "d"}, {"name": "e"}, {"name": "f"}, {"name": "g"}, {"name": "h"}, {"name": "i"}]}}])),
         alloc::vec!["endpoints[0].hints.forZones: Too many: 9: must have at most 8 items"]),
    ];
    for (object, want) in cases {
        assert_eq!(errors(object.clone()), want, "{object}");
    }
}

// TestValidateEndpointSliceUpdate: endpoints an update leaves unchanged are not revalidated.
#[test]
fn update_keeps_unchanged_endpoints() {
    let old = slice("IPv6", json!([]), json!([{"addresses": ["2001:db8::1"]}]));
    // The address type changed (the declarative immutability rule's error), the endpoints not.
    let new = slice("IPv4", json!([]), json!([{"addresses": ["2001:db8::1"]}]));
    assert_eq!(run(&new, Some(&old)).0, Vec::<String>::new());
    let changed = slice("IPv4", json!([]), json!([{"addresses": ["2001:db8::2"]}]));
    assert_eq!(
        run(&changed, Some(&old)).0,
        ["endpoints[0].addresses: Invalid value: \"2001:db8::2\": must be an IPv4 address"]
    );
}

// Test_dropTopologyOnV1 and the generation: a v1 request drops deprecatedTopology.
#[test]
fn drop_topology_on_v1() {
    let s = slice(
        "IPv4",
        json!([]),
        json!([{"addresses": ["10.0.0.1"], "deprecatedTopology": {"kubernetes.io/hostname": "node-1", "topology.kubernetes.io/zone": "a"}}]),
    );
    let (errs, _, object) = run(&s, None);
    assert_eq!(errs, Vec::<String>::new());
    assert_eq!(object["endpoints"][0].get("deprecatedTopology"), None);
    assert_eq!(object["metadata"]["generation"], json!(1));
    // The defaults: each port's name "" and protocol TCP.
    let (_, _, object) = run(&slice("IPv4", json!([{"port": 80}]), json!([])), None);
    assert_eq!(object["ports"][0], json!({"name": "", "port": 80, "protocol": "TCP"}));
}

// TestWarningsOnEndpointSliceAddressType and warnOnBadIPs.
#[test]
fn warnings() {
    let (_, w, _) = run(&slice("FQDN", json!([]), json!([{"addresses": ["a.example.com"]}])), None);
    assert_eq!(w, ["spec.addressType: FQDN endpoints are deprecated"]);
    let (_, w, _) = run(&slice("IPv6", json!([]), json!([{"addresses": ["2001:db8:0:0:0:0:0:1"]}])), None);
    assert_eq!(
        w,
        ["endpoints[0].addresses[0]: IPv6 address \"2001:db8:0:0:0:0:0:1\" should be in RFC 5952 canonical format (\"2001:db8::1\")"]
    );
    let mut managed = slice("IPv6", json!([]), json!([{"addresses": ["2001:db8:0:0:0:0:0:1"]}]));
    managed["metadata"]["labels"] =
        json!({"endpointslice.kubernetes.io/managed-by": "endpointslice-controller.k8s.io"});
    assert_eq!(run(&managed, None).1, Vec::<String>::new());
}
