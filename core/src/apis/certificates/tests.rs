//! Cases from Kubernetes' `pkg/apis/certificates/validation/validation_test.go`
//! (`TestValidateCertificateSigningRequestCreate`, `TestValidateClusterTrustBundle`,
//! `TestValidateClusterTrustBundleUpdate`) and Go's `encoding/pem` `pem_test.go`, run through
//! the whole path, with the texts the API server gives.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{json, Value as Json};

use super::{der, pem};
use crate::apis::{admit, Request};

/// A P-256 certificate request (`CN=alice, O=dev`), made with openssl.
const CSR: &str = r"-----BEGIN CERTIFICATE REQUEST-----
MIHZMIGAAgEAMB4xDjAMBgNVBAMMBWFsaWNlMQwwCgYDVQQKDANkZXYwWTATBgcq
hkjOPQIBBggqhkjOPQMBBwNCAAQ0J/F+nYmJur8gihxOIoj2gJJpQpbZ6KYzV0eF
y9MKhF8tIrF3sxmru01bPOy/4R5Al7o4RcF040U0GPmS8jnXoAAwCgYIKoZIzj0E
AwIDSAAwRQIgTXVelKAPuJl+w9H7/MQ9KKDBJStu04tcWthIl1FiVbICIQCL2ujF
4CKHX/YwDWVjd0RGiSvnFn33dVafU5kY+3RGnA==
-----END CERTIFICATE REQUEST-----
";

/// A self-signed CA certificate (basic constraints critical, CA:TRUE).
const CA: &str = r"-----BEGIN CERTIFICATE-----
MIIBiTCCAS+gAwIBAgIUVL1pYzEYTsWskYM0JgX/RSIpKrgwCgYIKoZIzj0EAwIw
GjEYMBYGA1UEAwwPRXhhbXBsZSBSb290IENBMB4XDTI2MTIwNzA4MTMxN1oXDTM2
MTIwNDA4MTMxN1owGjEYMBYGA1UEAwwPRXhhbXBsZSBSb290IENBMFkwEwYHKoZI
zj0CAQYIKoZIzj0DAQcDQgAECTG9ZUp/H+woDJmnHojOnlQs+4BzwabE9nsQSHVY
Eej/hCWfazAIetHLypHyjRyH+aKKaK9HBx+02VU20nKXUaNTMFEwHQYDVR0OBBYE
FHg68MBMzNZ/pc/L92lAa51dilZfMB8GA1UdIwQYMBaAFHg68MBMzNZ/pc/L92lA
a51dilZfMA8GA1UdEwEB/wQFMAMBAf8wCgYIKoZIzj0EAwIDSAAwRQIgPgT6KQgU
X44/QTBZbzpFUDacZDWV257Q1XvFubZvXRwCIQDSlsQjYalmE+ZbO/U/Mxagcsp0
tGdyHSzfVY4+oPsY7w==
-----END CERTIFICATE-----
";

/// A self-signed leaf certificate (CA:FALSE).
const LEAF: &str = r"-----BEGIN CERTIFICATE-----
MIIBcDCCARagAwIBAgIUO7JBlzGYubpIFlbtDtwUjPWgY+cwCgYIKoZIzj0EAwIw
DzENMAsGA1UEAwwEbGVhZjAeFw0yNjEyMDcwODEzMTdaFw0yNzEyMDcwODEzMTda
MA8xDTALBgNVBAMMBGxlYWYwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAAQ/y3OW
2s0VcMAGHtbYi5G5h9E9BpP2YCqdXTldYtSkpu4+keHQyE6tpBQyJ1TFapW/Ud13
YYBFbJFM5H6nabgmo1AwTjAdBgNVHQ4EFgQUXDcQtSSqkjuhyx2xndMXvKHmscgw
HwYDVR0jBBgwFoAUXDcQtSSqkjuhyx2xndMXvKHmscgwDAYDVR0TAQH/BAIwADAK
BggqhkjOPQQDAgNIADBFAiEAj6EPaVGy773yMhnftROy1Xsf0pA2V/fqhySiv/Xn
7d8CIGEVkTE9v8evzRhv3c1gAKzfycdQUXyVTNDeliVPtEb/
-----END CERTIFICATE-----
";

fn b64(s: &str) -> String {
    pem::std_encode(s.as_bytes())
}

fn run(version: &str, kind: &str, object: &Json, old: Option<&Json>) -> Vec<String> {
    let request = Request { group: "certificates.k8s.io", version, kind, object, old, minor: 37 };
    admit(&request).expect("modeled").errors.iter().map(|e| e.text()).collect()
}

fn csr(spec: Json) -> Json {
    json!({"metadata": {"name": "csr"}, "spec": spec})
}

// encoding/pem TestDecode (the shapes `validateTrustBundle` meets).
#[test]
fn pem_decode() {
    let (block, rest) = pem::decode(CA.as_bytes());
    let block = block.expect("a block");
    assert_eq!(block.ty, "CERTIFICATE");
    assert!(block.headers.is_empty() && rest.is_empty());
    assert_eq!(der::basic_constraints(&block.bytes), Some((true, true)));
    let leaf = pem::decode(LEAF.as_bytes()).0.expect("a block");
    assert_eq!(der::basic_constraints(&leaf.bytes), Some((true, false)));
    let with_headers = "-----BEGIN X-----\nProc-Type: 4,ENCRYPTED\nA:  b \n\naGVsbG8=\n-----END X-----\ntail";
    let (block, rest) = pem::decode(with_headers.as_bytes());
    let block = block.expect("a block");
    assert_eq!(
        block.headers,
        [(String::from("Proc-Type"), String::from("4,ENCRYPTED")), (String::from("A"), String::from("b"))]
    );
    assert_eq!(block.bytes, b"hello");
    assert_eq!(rest, b"tail");
    assert_eq!(pem::decode(b"-----BEGIN X-----\n-----END X-----\n").0.map(|b| b.bytes), Some(Vec::new()));
    assert!(pem::decode(b"-----BEGIN X-----\naGVsbG8\n-----END X-----").0.is_none());
    assert!(pem::decode(b"-----BEGIN X-----\naGVsbG8=\n-----END Y-----").0.is_none());
    assert!(pem::decode(b"no pem").0.is_none());
    assert_eq!(der::basic_constraints(b"hello"), None);
}

// TestValidateCertificateSigningRequestCreate.
#[test]
fn csr_create() {
    let ok = csr(
        json!({"request": b64(CSR), "signerName": "example.com/signer", "usages": ["client auth"], "expirationSeconds": 600}),
    );
    assert_eq!(run("v1", "CertificateSigningRequest", &ok, None), Vec::<String>::new());
    let cases: Vec<(Json, Vec<&str>)> = alloc::vec![
        (csr(json!({"request": b64("hello world"), "signerName": "kubernetes.io/legacy-unknown"})),
         alloc::vec![
             "spec.request: Invalid value: \"aGVsbG8gd29ybGQ=\": PEM block type must be CERTIFICATE REQUEST",
             "spec.usages: Required value",
             "spec.signerName: Invalid value: \"kubernetes.io/legacy-unknown\": the legacy signerName is not allowed via this API version",
         ]),
        (csr(json!({"request": b64(CSR), "signerName": "nodomain/x", "usages": ["client auth", "flying", "client auth"], "expirationSeconds": 599})),
         alloc::vec![
             "spec.usages[1]: Unsupported value: \"flying\": supported values: \"any\", \"cert sign\", \"client auth\", \"code signing\", \"content commitment\", \"crl sign\", \"data encipherment\", \"decipher only\", \"digital signature\", \"email protection\", \"encipher only\", \"ipsec end system\", \"ipsec tunnel\", \"ipsec user\", \"key agreement\", \"key encipherment\", \"microsoft sgc\", \"netscape sgc\", \"ocsp signing\", \"s/mime\", \"server auth\", \"signing\", \"timestamping\"",
             "spec.usages[2]: Duplicate value: \"client auth\"",
             "spec.signerName: Invalid value: \"nodomain\": should be a domain with at least two segments separated by dots",
             "spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 600 seconds (10 minutes)",
         ]),
        (csr(json!({"request": b64(CSR), "signerName": "", "usages": ["client auth"]})),
         alloc::vec!["spec.signerName: Required value"]),
        // The strategy resets the status: a requested approval and certificate go.
        (csr(json!({"request": b64(CSR), "signerName": "example.com/s", "usages": ["client auth"]})
            .as_object().cloned().map(|mut m| { m.insert(String::from("status"), json!({"conditions": [{"type": "Approved", "status": "False"}, {"type": "Denied", "status": "True"}], "certificate": b64("junk")})); Json::Object(m) }).unwrap_or_default()),
         alloc::vec![]),
    ];
    for (object, want) in cases {
        assert_eq!(run("v1", "CertificateSigningRequest", &object, None), want, "{object}");
    }
}

fn ctb(name: &str, signer: Option<&str>, bundle: &str) -> Json {
    let mut spec = json!({"trustBundle": bundle});
    if let Some(s) = signer {
        spec["signerName"] = json!(s);
    }
    json!({"metadata": {"name": name}, "spec": spec})
}

// TestValidateClusterTrustBundle.
#[test]
fn cluster_trust_bundles() {
    let omitted = "spec.trustBundle: Invalid value: \"<value omitted>\": ";
    let two = format!("{CA}{CA}");
    let cases: Vec<(Json, Vec<String>)> = alloc::vec![
        (ctb("example.com:my-signer:roots", Some("example.com/my-signer"), CA), alloc::vec![]),
        (ctb("plain", None, CA), alloc::vec![]),
        (ctb("wrong-prefix", Some("example.com/my-signer"), CA),
         alloc::vec![String::from("metadata.name: Invalid value: \"wrong-prefix\": ClusterTrustBundle for signerName example.com/my-signer must be named with prefix example.com:my-signer:")]),
        (ctb("has:colon", None, CA),
         alloc::vec![String::from("metadata.name: Invalid value: \"has:colon\": ClusterTrustBundle without signer name must not have \":\" in its name")]),
        (ctb("dupes", None, &two), alloc::vec![format!("{omitted}duplicate trust anchor (indices [0 1])")]),
        (ctb("leaf", None, LEAF), alloc::vec![format!("{omitted}entry 0 does not have the CA bit set")]),
        (ctb("garbage", None, "-----BEGIN CERTIFICATE-----\naGVsbG8gd29ybGQ=\n-----END CERTIFICATE-----\n"),
         alloc::vec![format!("{omitted}entry 0 does not parse as X.509")]),
        (ctb("key", None, "-----BEGIN PRIVATE KEY-----\naGVsbG8=\n-----END PRIVATE KEY-----\n"),
         alloc::vec![format!("{omitted}entry 0 has bad block type: PRIVATE KEY")]),
        (ctb("empty", None, "not pem"), alloc::vec![format!("{omitted}at least one trust anchor must be provided")]),
    ];
    for (object, want) in cases {
        assert_eq!(run("v1", "ClusterTrustBundle", &object, None), want, "{object}");
        assert_eq!(run("v1beta1", "ClusterTrustBundle", &object, None), want, "{object}");
    }
}

// TestValidateClusterTrustBundleUpdate: the signer name is immutable; an unchanged bundle is not
// parsed again.
#[test]
fn cluster_trust_bundle_update() {
    let old = ctb("example.com:s:x", Some("example.com/s"), CA);
    let new = ctb("example.com:s:x", Some("example.com/t"), CA);
    assert_eq!(
        run("v1", "ClusterTrustBundle", &new, Some(&old)),
        [
            "metadata.name: Invalid value: \"example.com:s:x\": ClusterTrustBundle for signerName example.com/t must be named with prefix example.com:t:",
            "spec.signerName: Invalid value: \"example.com/t\": field is immutable",
        ]
    );
    let old = ctb("x", None, CA);
    let new = ctb("x", None, LEAF);
    assert_eq!(
        run("v1", "ClusterTrustBundle", &new, Some(&old)),
        ["spec.trustBundle: Invalid value: \"<value omitted>\": entry 0 does not have the CA bit set"]
    );
}
