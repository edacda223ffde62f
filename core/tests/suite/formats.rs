//! `+k8s:format` validators against the text Kubernetes prints.
//!
//! Expectations come from apimachinery `pkg/api/validate/strfmt.go` and `strfmt_test.go`
//! (which the detail strings of `pkg/api/validate/content/{dns,kube,identifier,path,errors}.go`
//! complete), rendered by `pkg/util/validation/field/errors.go`.

use kubedv_core::field::{ErrorType, Path};
use kubedv_core::format::Format;

const LABEL_MSG: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const SUBDOMAIN_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const KEY_NAME_MSG: &str = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

/// The lines Kubernetes prints for `value` at field path `test` (the path strfmt_test.go uses).
fn texts(format: Format, value: &str) -> Vec<String> {
    let root = Path::root();
    let path = root.child("test");
    let errs = format.validate(&path, value);
    for e in &errs {
        assert_eq!(e.origin, format.origin(), "every error carries the format's origin");
    }
    errs.iter().map(|e| e.text()).collect()
}

fn invalid(value: &str, detail: &str) -> String {
    format!("test: Invalid value: {value:?}: {detail}")
}

#[test]
fn short_name() {
    assert!(texts(Format::ShortName, "abc-123").is_empty());
    for bad in ["", "-abc-123", "abc-123-", "ABC-123", "abc_123"] {
        assert_eq!(texts(Format::ShortName, bad), [invalid(bad, LABEL_MSG)], "{bad}");
    }
    let long = "01234567890123456789012345678901234567890123456789012345678901234";
    assert_eq!(texts(Format::ShortName, long), [invalid(long, "must be no more than 63 bytes")]);
    // A valid subdomain that is not a label: content.IsDNS1123Label reports the dots.
    assert_eq!(texts(Format::ShortName, "a.b"), [invalid("a.b", "must not contain dots")]);
}

#[test]
fn long_name() {
    assert!(texts(Format::LongName, "a.b.c").is_empty());
    for bad in ["", "-a.b.c", "a.b.c-", "A.b.c", "a_b.c", "a..b"] {
        assert_eq!(texts(Format::LongName, bad), [invalid(bad, SUBDOMAIN_MSG)], "{bad}");
    }
    let long = "a".repeat(254);
    assert_eq!(texts(Format::LongName, &long), [invalid(&long, "must be no more than 253 bytes")]);
}

#[test]
fn long_name_caseless() {
    assert!(texts(Format::LongNameCaseless, "Example.COM").is_empty());
    // Kubernetes' caseless message still quotes the lowercase regex.
    assert_eq!(
        texts(Format::LongNameCaseless, "Ex_ample"),
        [invalid("Ex_ample", "an RFC 1123 subdomain must consist of alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'Example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')")]
    );
}

#[test]
fn label_key() {
    let long_prefix = format!("{}.{}.{}.{}/app", "a".repeat(63), "b".repeat(63), "c".repeat(63), "d".repeat(55));
    for good in ["app", "app-name", "app.name", "app_name", "example.com/app", "A1", long_prefix.as_str()] {
        assert!(texts(Format::LabelKey, good).is_empty(), "{good}");
    }
    assert_eq!(texts(Format::LabelKey, ""), [invalid("", "name part must be non-empty"), invalid("", KEY_NAME_MSG)]);
    for bad in ["-app", "app-", "app^"] {
        assert_eq!(texts(Format::LabelKey, bad), [invalid(bad, KEY_NAME_MSG)], "{bad}");
    }
    let long = "a".repeat(64);
    assert_eq!(texts(Format::LabelKey, &long), [invalid(&long, "name part must be no more than 63 bytes")]);
    assert_eq!(texts(Format::LabelKey, "/app"), [invalid("/app", "prefix part must be non-empty")]);
    assert_eq!(
        texts(Format::LabelKey, "example-.com/app"),
        [invalid("example-.com/app", &format!("prefix part {SUBDOMAIN_MSG}"))]
    );
    let long_prefix = format!("{}/app", "a".repeat(254));
    assert_eq!(
        texts(Format::LabelKey, &long_prefix),
        [invalid(&long_prefix, "prefix part must be no more than 253 bytes")]
    );
    assert_eq!(
        texts(Format::LabelKey, "a/b/c"),
        [invalid("a/b/c", "a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')")]
    );
}

#[test]
fn prefixed_label_key() {
    assert!(texts(Format::PrefixedLabelKey, "example.com/app").is_empty());
    for bad in ["app", "app-name", "app.name", "app_name"] {
        assert_eq!(
            texts(Format::PrefixedLabelKey, bad),
            [invalid(bad, "must include a prefix (e.g. 'example.com/key')")]
        );
    }
    // An invalid key reports the key's errors, not the missing prefix.
    assert_eq!(texts(Format::PrefixedLabelKey, "-app"), [invalid("-app", KEY_NAME_MSG)]);
}

#[test]
fn label_value() {
    for good in ["", "MyValue", "my_value", "12345", "a.b-c_d"] {
        assert!(texts(Format::LabelValue, good).is_empty(), "{good}");
    }
    let msg = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
    assert_eq!(texts(Format::LabelValue, "-x"), [invalid("-x", msg)]);
    let long = format!("-{}", "a".repeat(63));
    assert_eq!(
        texts(Format::LabelValue, &long),
        [invalid(&long, "must be no more than 63 bytes"), invalid(&long, msg)]
    );
}

#[test]
fn uuid() {
    assert!(texts(Format::Uuid, "123e4567-e89b-12d3-a456-426614174000").is_empty());
    let msg = "must be a lowercase UUID in 8-4-4-4-12 format";
    for bad in [
        "",
        "123E4567-E89B-12D3-A456-426614174000",
        "123e4567e89b12d3a456426614174000",
        "123e4567-e89b-12d3-a456-42661417400g",
        "{123e4567-e89b-12d3-a456-426614174000}",
    ] {
        assert_eq!(texts(Format::Uuid, bad), [invalid(bad, msg)], "{bad}");
    }
}

#[test]
fn path_segment_name() {
    assert!(texts(Format::PathSegmentName, "Any name, even ünïcode").is_empty());
    assert!(texts(Format::PathSegmentName, "").is_empty(), "Kubernetes does not check emptiness here");
    assert_eq!(texts(Format::PathSegmentName, "."), [invalid(".", "may not be '.'")]);
    assert_eq!(texts(Format::PathSegmentName, ".."), [invalid("..", "may not be '..'")]);
    assert_eq!(
        texts(Format::PathSegmentName, "a/b%c"),
        [invalid("a/b%c", "may not contain '/'"), invalid("a/b%c", "may not contain '%'")]
    );
}

#[test]
fn resource_pool_name() {
    assert!(texts(Format::ResourcePoolName, "pool.example.com/a/b").is_empty());
    assert_eq!(texts(Format::ResourcePoolName, "a//b"), [invalid("a//b", "segment 1: must not be empty")]);
    // The segment's own value is reported, as Go passes the part to LongName.
    assert_eq!(texts(Format::ResourcePoolName, "ok/Bad"), [invalid("Bad", &format!("segment 1: {SUBDOMAIN_MSG}"))]);
    let long = format!("{}/{}", "a".repeat(200), "b".repeat(60));
    assert_eq!(texts(Format::ResourcePoolName, &long), ["test: Too long: may not be more than 253 bytes"]);
}

#[test]
fn extended_resource_name() {
    assert!(texts(Format::ExtendedResourceName, "example.com/gpu").is_empty());
    assert_eq!(
        texts(Format::ExtendedResourceName, "gpu"),
        [invalid("gpu", "a name must be a domain-prefixed path, such as 'example.com/my-prop'")]
    );
    assert_eq!(
        texts(Format::ExtendedResourceName, "kubernetes.io/gpu"),
        [invalid("kubernetes.io/gpu", "must not have \"kubernetes.io/\" domain")]
    );
    assert_eq!(
        texts(Format::ExtendedResourceName, "requests.example.com/gpu"),
        [invalid("requests.example.com/gpu", "must not have \"requests.\" prefix")]
    );
    // Checked as the quota name "requests.<value>".
    assert_eq!(texts(Format::ExtendedResourceName, "example.com/gpu-"), [invalid("example.com/gpu-", KEY_NAME_MSG)]);
}

#[test]
fn resource_fully_qualified_name() {
    assert!(texts(Format::ResourceFullyQualifiedName, "example.com/my_device").is_empty());
    assert_eq!(
        texts(Format::ResourceFullyQualifiedName, "device"),
        [invalid("device", "a fully qualified name must be a domain and a name separated by a slash")]
    );
    let c_msg = "a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName', regex used for validation is '[A-Za-z_][A-Za-z0-9_]*')";
    assert_eq!(texts(Format::ResourceFullyQualifiedName, "example.com/1dev"), [invalid("1dev", c_msg)]);
    assert_eq!(texts(Format::ResourceFullyQualifiedName, "/dev"), [invalid("", "prefix must not be empty")]);
    assert_eq!(texts(Format::ResourceFullyQualifiedName, "example.com/"), [invalid("", "name must not be empty")]);
    let long = format!("example.com/{}", "d".repeat(33));
    assert_eq!(texts(Format::ResourceFullyQualifiedName, &long), ["test: Too long: may not be more than 32 bytes"]);
    assert_eq!(
        texts(Format::ResourceFullyQualifiedName, "Example.com/dev"),
        [invalid("Example.com", &format!("prefix: {SUBDOMAIN_MSG}"))]
    );
}

#[test]
fn names_round_trip_and_types() {
    for f in Format::ALL {
        assert_eq!(Format::from_name(f.name()), Some(f));
        assert!(!f.summary().is_empty());
    }
    assert_eq!(Format::from_name("k8s-nope"), None);
    let root = Path::root();
    let errs = Format::ResourcePoolName.validate(&root, &"a".repeat(300));
    assert_eq!(errs[0].kind, ErrorType::TooLong);
    assert_eq!(errs[0].text(), "<nil>: Too long: may not be more than 253 bytes");
}
