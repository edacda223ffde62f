//! The Kubernetes CEL libraries, case by case. The rows are the cases of apiserver
//! `pkg/cel/library/{quantity,ip,cidr,semver,format}_test.go` with their expected values and
//! error strings (runtime errors as Kubernetes prints them; compile errors as the regexes those
//! tests use). Further rows below cover the list, regex, URL, strings and optional libraries,
//! named with their sources.

use kubedv_core::cel::checker::{self, Decls};
use kubedv_core::cel::library::Regex;
use kubedv_core::cel::{to_json, NoVars, Program};

enum Expect {
    /// Evaluates without error (the value is a library object).
    Runs,
    /// Evaluates to this JSON.
    Val(&'static str),
    /// Fails at run time with a message containing (or matching) this.
    Fails(&'static str),
    /// Fails to compile (parse or check) with a message matching this.
    Rejected(&'static str),
}
use Expect::*;

const KUBERNETES_CASES: &[(&str, &str, Expect)] = &[
    // quantity.go: `sign` is a global overload (cel.Overload), not a method.
    ("quantity", r#"sign(quantity('-10M')) == -1"#, Val("true")),
    ("quantity", r#"quantity('1').sign()"#, Rejected("found no matching overload for 'sign' applied to 'kubernetes.Quantity.()'")),
    ("quantity", r#"quantity("12Mi")"#, Runs),
    ("quantity", r#"quantity("10Mo")"#, Fails("quantities must match the regular expression.*")),
    ("quantity", r#"isQuantity("20")"#, Val("true")),
    ("quantity", r#"isQuantity("20M")"#, Val("true")),
    ("quantity", r#"isQuantity("20Mi")"#, Val("true")),
    ("quantity", r#"isQuantity("20Mo")"#, Val("false")),
    ("quantity", r#"isQuantity("10Mm")"#, Val("false")),
    ("quantity", r#"isQuantity([1, 2, 3])"#, Rejected("found no matching overload for 'isQuantity' applied to.*")),
    ("quantity", r#"quantity("200M") == quantity("200M")"#, Val("true")),
    ("quantity", r#"quantity("200M") == quantity("0.2G") && quantity("0.2G") == quantity("200M")"#, Val("true")),
    ("quantity", r#"quantity("2M") == quantity("0.002G") && quantity("2000k") == quantity("2M") && quantity("0.002G") == quantity("2000k")"#, Val("true")),
    ("quantity", r#"quantity("200M") == quantity("0.3G")"#, Val("false")),
    ("quantity", r#"quantity("50M").isLessThan(quantity("50Mi"))"#, Val("true")),
    ("quantity", r#"quantity("50M").isLessThan(quantity("100M"))"#, Val("true")),
    ("quantity", r#"quantity("100M").isLessThan(quantity("50M"))"#, Val("false")),
    ("quantity", r#"quantity("50Mi").isGreaterThan(quantity("50M"))"#, Val("true")),
    ("quantity", r#"quantity("150Mi").isGreaterThan(quantity("100Mi"))"#, Val("true")),
    ("quantity", r#"quantity("50M").isGreaterThan(quantity("100M"))"#, Val("false")),
    ("quantity", r#"quantity("200M").compareTo(quantity("0.2G"))"#, Val("0")),
    ("quantity", r#"quantity("50M").compareTo(quantity("50Mi"))"#, Val("-1")),
    ("quantity", r#"quantity("50Mi").compareTo(quantity("50M"))"#, Val("1")),
    ("quantity", r#"quantity("50k").add(quantity("20")) == quantity("50.02k")"#, Val("true")),
    ("quantity", r#"quantity("50k").add(20).isLessThan(quantity("50020"))"#, Val("false")),
    ("quantity", r#"quantity("50k").sub(quantity("20")) == quantity("49.98k")"#, Val("true")),
    ("quantity", r#"quantity("50k").sub(20) == quantity("49980")"#, Val("true")),
    ("quantity", r#"quantity("50k").add(20).sub(quantity("100k")).asInteger()"#, Val("-49980")),
    ("quantity", r#"quantity("50k").add(20).sub(quantity("100k")).sub(-50000).asInteger()"#, Val("20")),
    ("quantity", r#"quantity("50k").asInteger()"#, Val("50000")),
    ("quantity", r#"quantity("9999999999999999999999999999999999999G").asInteger()"#, Fails("cannot convert value to integer")),
    ("quantity", r#"quantity("9999999999999999999999999999999999999G").isInteger()"#, Val("false")),
    ("quantity", r#"quantity("50").isInteger()"#, Val("true")),
    ("quantity", r#"quantity("50.703k").asApproximateFloat()"#, Val("50703.0")),
    ("quantity", r#"[quantity("9999999999999999999999999999999999999")].all(x, x.add(quantity("1")).compareTo(x.add(quantity("2"))) == -1)"#, Val("true")),
    ("ip", r#"ip("192.168.0.1")"#, Runs),
    ("ip", r#"ip("192.168.0.1.0")"#, Fails("IP Address \"192.168.0.1.0\" parse error during conversion from string: ParseAddr(\"192.168.0.1.0\"): IPv4 address too long")),
    ("ip", r#"isIP("192.168.0.1")"#, Val("true")),
    ("ip", r#"isIP("192.168.0.1.0")"#, Val("false")),
    ("ip", r#"ip.isCanonical("127.0.0.1")"#, Val("true")),
    ("ip", r#"ip.isCanonical("127.0.0.1.0")"#, Fails("IP Address \"127.0.0.1.0\" parse error during conversion from string: ParseAddr(\"127.0.0.1.0\"): IPv4 address too long")),
    ("ip", r#"ip("192.168.0.1").family()"#, Val("4")),
    ("ip", r#"ip("0.0.0.0").isUnspecified()"#, Val("true")),
    ("ip", r#"ip("127.0.0.1").isUnspecified()"#, Val("false")),
    ("ip", r#"ip("127.0.0.1").isLoopback()"#, Val("true")),
    ("ip", r#"ip("1.2.3.4").isLoopback()"#, Val("false")),
    ("ip", r#"ip("224.0.0.1").isLinkLocalMulticast()"#, Val("true")),
    ("ip", r#"ip("224.0.1.1").isLinkLocalMulticast()"#, Val("false")),
    ("ip", r#"ip("169.254.169.254").isLinkLocalUnicast()"#, Val("true")),
    ("ip", r#"ip("192.168.0.1").isLinkLocalUnicast()"#, Val("false")),
    ("ip", r#"ip("192.168.0.1").isGlobalUnicast()"#, Val("true")),
    ("ip", r#"ip("255.255.255.255").isGlobalUnicast()"#, Val("false")),
    ("ip", r#"ip("2001:db8::68")"#, Runs),
    ("ip", r#"ip("2001:db8:::68")"#, Fails("IP Address \"2001:db8:::68\" parse error during conversion from string: ParseAddr(\"2001:db8:::68\"): each colon-separated field must have at least one digit (at \":68\")")),
    ("ip", r#"isIP("2001:db8::68")"#, Val("true")),
    ("ip", r#"isIP("2001:db8:::68")"#, Val("false")),
    ("ip", r#"ip.isCanonical("2001:db8::68")"#, Val("true")),
    ("ip", r#"ip.isCanonical("2001:DB8::68")"#, Val("false")),
    ("ip", r#"ip.isCanonical("2001:db8:::68")"#, Fails("IP Address \"2001:db8:::68\" parse error during conversion from string: ParseAddr(\"2001:db8:::68\"): each colon-separated field must have at least one digit (at \":68\")")),
    ("ip", r#"ip("2001:db8::68").family()"#, Val("6")),
    ("ip", r#"ip("::").isUnspecified()"#, Val("true")),
    ("ip", r#"ip("::1").isUnspecified()"#, Val("false")),
    ("ip", r#"ip("::1").isLoopback()"#, Val("true")),
    ("ip", r#"ip("2001:db8::abcd").isLoopback()"#, Val("false")),
    ("ip", r#"ip("ff02::1").isLinkLocalMulticast()"#, Val("true")),
    ("ip", r#"ip("fd00::1").isLinkLocalMulticast()"#, Val("false")),
    ("ip", r#"ip("fe80::1").isLinkLocalUnicast()"#, Val("true")),
    ("ip", r#"ip("fd80::1").isLinkLocalUnicast()"#, Val("false")),
    ("ip", r#"ip("2001:db8::abcd").isGlobalUnicast()"#, Val("true")),
    ("ip", r#"ip("ff00::1").isGlobalUnicast()"#, Val("false")),
    ("ip", r#"isIP(cidr("192.168.0.0/24"))"#, Rejected("found no matching overload for 'isIP' applied to '\\(net.CIDR\\)'")),
    ("ip", r#"string(ip("192.168.0.1"))"#, Val("\"192.168.0.1\"")),
    ("ip", r#"type(ip("192.168.0.1")) == net.IP"#, Val("true")),
    ("cidr", r#"cidr("192.168.0.0/24")"#, Runs),
    ("cidr", r#"cidr("192.168.0.0/")"#, Fails("network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix(\"192.168.0.0/\"): bad bits after slash: \"\"")),
    ("cidr", r#"cidr("192.168.0.0/24").containsIP(ip("192.168.0.1"))"#, Val("true")),
    ("cidr", r#"cidr("192.168.0.0/24").containsIP(ip("192.168.1.1"))"#, Val("false")),
    ("cidr", r#"cidr("192.168.0.0/24").containsIP("192.168.0.1")"#, Val("true")),
    ("cidr", r#"cidr("192.168.0.0/24").containsIP("192.168.1.1")"#, Val("false")),
    ("cidr", r#"cidr("192.168.0.0/24").containsCIDR(cidr("192.168.0.0/25"))"#, Val("true")),
    ("cidr", r#"cidr("192.168.0.0/24").containsCIDR(cidr("192.168.0.1/32"))"#, Val("true")),
    ("cidr", r#"cidr("192.168.0.0/24").containsCIDR(cidr("192.168.0.0/23"))"#, Val("false")),
    ("cidr", r#"cidr("192.168.0.0/24").containsCIDR(cidr("192.169.0.1/32"))"#, Val("false")),
    ("cidr", r#"cidr("192.168.0.0/24").containsCIDR("192.168.0.0/25")"#, Val("true")),
    ("cidr", r#"cidr("192.168.0.0/24").containsCIDR("192.168.0.0/23")"#, Val("false")),
    ("cidr", r#"cidr("192.168.0.0/24").ip()"#, Runs),
    ("cidr", r#"cidr("192.168.0.0/24").masked()"#, Runs),
    ("cidr", r#"cidr("192.168.0.1/24").masked()"#, Runs),
    ("cidr", r#"cidr("192.168.0.0/24").prefixLength()"#, Val("24")),
    ("cidr", r#"cidr("2001:db8::/32")"#, Runs),
    ("cidr", r#"cidr("2001:db8::/")"#, Fails("network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix(\"2001:db8::/\"): bad bits after slash: \"\"")),
    ("cidr", r#"cidr("2001:db8::/32").containsIP(ip("2001:db8::1"))"#, Val("true")),
    ("cidr", r#"cidr("2001:db8::/32").containsIP(ip("2001:dc8::1"))"#, Val("false")),
    ("cidr", r#"cidr("2001:db8::/32").containsIP("2001:db8::1")"#, Val("true")),
    ("cidr", r#"cidr("2001:db8::/32").containsIP("2001:dc8::1")"#, Val("false")),
    ("cidr", r#"cidr("2001:db8::/32").containsCIDR(cidr("2001:db8::/33"))"#, Val("true")),
    ("cidr", r#"cidr("2001:db8::/32").containsCIDR(cidr("2001:db8::/31"))"#, Val("false")),
    ("cidr", r#"cidr("2001:db8::/32").containsCIDR("2001:db8::/33")"#, Val("true")),
    ("cidr", r#"cidr("2001:db8::/32").containsCIDR("2001:db8::/31")"#, Val("false")),
    ("cidr", r#"cidr("2001:db8::/32").ip()"#, Runs),
    ("cidr", r#"cidr("2001:db8::/32").masked()"#, Runs),
    ("cidr", r#"cidr("2001:db8:1::/32").masked()"#, Runs),
    ("cidr", r#"cidr("2001:db8::/32").prefixLength()"#, Val("32")),
    ("cidr", r#"string(cidr("192.168.0.0/24"))"#, Val("\"192.168.0.0/24\"")),
    ("cidr", r#"type(cidr("192.168.0.0/24")) == net.CIDR"#, Val("true")),
    ("semver", r#"semver("1.2.3")"#, Runs),
    ("semver", r#"semver("v1.0")"#, Fails("No Major.Minor.Patch elements found")),
    ("semver", r#"isSemver("1.2.3-beta.1+build.1")"#, Val("true")),
    ("semver", r#"isSemver("")"#, Val("false")),
    ("semver", r#"isSemver("v1.0.0")"#, Val("false")),
    ("semver", r#"isSemver(" 1.0.0")"#, Val("false")),
    ("semver", r#"isSemver("1. 0.0")"#, Val("false")),
    ("semver", r#"isSemver("1.0.0 ")"#, Val("false")),
    ("semver", r#"isSemver("01.01.01")"#, Val("false")),
    ("semver", r#"isSemver("1")"#, Val("false")),
    ("semver", r#"isSemver("1.1")"#, Val("false")),
    ("semver", r#"isSemver("", true)"#, Val("false")),
    ("semver", r#"isSemver(" 1.0.0", true)"#, Val("false")),
    ("semver", r#"isSemver("1. 0.0", true)"#, Val("false")),
    ("semver", r#"isSemver("1.0.0 ", true)"#, Val("false")),
    ("semver", r#"isSemver("v1.0.0", true)"#, Val("true")),
    ("semver", r#"isSemver("01.01.01", true)"#, Val("true")),
    ("semver", r#"isSemver("1", true)"#, Val("true")),
    ("semver", r#"isSemver("1.1", true)"#, Val("true")),
    ("semver", r#"isSemver([1, 2, 3])"#, Rejected("found no matching overload for 'isSemver' applied to.*")),
    ("semver", r#"semver("v01.01", true) == semver("1.1.0")"#, Val("true")),
    ("semver", r#"semver("1.2.3") == semver("1.2.3")"#, Val("true")),
    ("semver", r#"semver("1.2.3") == semver("1.0.0")"#, Val("false")),
    ("semver", r#"semver("1.0.0").isLessThan(semver("1.2.3"))"#, Val("true")),
    ("semver", r#"semver("1.0.0").isLessThan(semver("1.0.0"))"#, Val("false")),
    ("semver", r#"semver("1.2.3").isGreaterThan(semver("1.0.0"))"#, Val("true")),
    ("semver", r#"semver("1.0.0").isGreaterThan(semver("1.0.0"))"#, Val("false")),
    ("semver", r#"semver("1.2.3").compareTo(semver("1.2.3"))"#, Val("0")),
    ("semver", r#"semver("1.0.0").compareTo(semver("1.2.3"))"#, Val("-1")),
    ("semver", r#"semver("1.2.3").compareTo(semver("1.0.0"))"#, Val("1")),
    ("semver", r#"semver("1.2.3").major()"#, Val("1")),
    ("semver", r#"semver("1.2.3").minor()"#, Val("2")),
    ("semver", r#"semver("1.2.3").patch()"#, Val("3")),
    ("format", r#"format.dns1123Label().validate("my-label-name")"#, Val("null")),
    ("format", r#"format.dns1123Subdomain().validate("apiextensions.k8s.io")"#, Val("null")),
    ("format", r#"format.qualifiedName().validate("apiextensions.k8s.io/v1beta1")"#, Val("null")),
    ("format", r#"format.dns1123LabelPrefix().validate("my-label-prefix-")"#, Val("null")),
    ("format", r#"format.dns1123SubdomainPrefix().validate("mysubdomain.prefix.-")"#, Val("null")),
    ("format", r#"format.dns1035LabelPrefix().validate("my-label-prefix-")"#, Val("null")),
    ("format", r#"format.uri().validate("http://example.com")"#, Val("null")),
    ("format", r#"format.uuid().validate("123e4567-e89b-12d3-a456-426614174000")"#, Val("null")),
    ("format", r#"format.byte().validate("aGVsbG8=")"#, Val("null")),
    ("format", r#"format.date().validate("2021-01-01")"#, Val("null")),
    ("format", r#"format.datetime().validate("2021-01-01T00:00:00Z")"#, Val("null")),
    ("format", r#"format.dns1123Label().validate("contains a space")"#, Val("[\"a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')\"]")),
    ("format", r#"format.dns1123Subdomain().validate("contains a space")"#, Val("[\"a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')\"]")),
    ("format", r#"format.dns1035Label().validate("contains a space")"#, Val("[\"a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')\"]")),
    ("format", r#"format.qualifiedName().validate("contains a space")"#, Val("[\"name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')\"]")),
    ("format", r#"format.dns1123LabelPrefix().validate("contains a space-")"#, Val("[\"a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')\"]")),
    ("format", r#"format.dns1123SubdomainPrefix().validate("contains a space-")"#, Val("[\"a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')\"]")),
    ("format", r#"format.dns1035LabelPrefix().validate("contains a space-")"#, Val("[\"a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')\"]")),
    ("format", r#"format.dns1123Label().validate("my-label-name")"#, Val("null")),
    ("format", r#"format.dns1123Subdomain().validate("example.com")"#, Val("null")),
    ("format", r#"format.dns1035Label().validate("my-label-name")"#, Val("null")),
    ("format", r#"format.qualifiedName().validate("my.name")"#, Val("null")),
    ("format", r#"format.date().validate("2020-01-01")"#, Val("null")),
    ("format", r#"format.date().validate("2020-01-32")"#, Val("[\"invalid date\"]")),
    ("format", r#"format.datetime().validate("2020-01-01T00:00:00Z")"#, Val("null")),
    ("format", r#"format.datetime().validate("2020-01-32T00:00:00Z")"#, Val("[\"invalid datetime\"]")),
    ("format", r#"format.named("unknown").hasValue()"#, Val("false")),
    ("format", r#"format.labelValue().validate("my-cool-label-Value")"#, Val("null")),
    ("format", r#"format.labelValue().validate("my-cool-label-Value!!\n\n!!!")"#, Runs),];

/// Cases for the libraries without a table in the files above; sources named per group.
const MORE_CASES: &[(&str, &str, Expect)] = &[
    // cel-go common/types/string.go ConvertToType and err.go: a string that does not convert,
    // and timestamps beyond year 9999. (Literal arguments are refused at compile time in
    // Kubernetes' environment; these are computed, as `self.x` would be.)
    // cel-go common/types/overflow.go (errUintOverflow, errTimestampOverflow): uint arithmetic
    // and a timestamp moved out of range name their overflow; the differential fuzzer's `cel`
    // path found kubedv saying `integer overflow` for both.
    ("conversions", "uint('0') - 1u", Fails("unsigned integer overflow")),
    ("conversions", "uint('18446744073709551615') * 2u", Fails("unsigned integer overflow")),
    ("conversions", "timestamp('9999-12-31T23:59:59Z') + duration('1s')", Fails("timestamp overflow")),
    ("conversions", "timestamp('0001-01-01T00:00:00Z') - duration('1s')", Fails("timestamp overflow")),
    ("conversions", r#"int('1' + 'x')"#, Fails("type conversion error from 'string' to 'int'")),
    ("conversions", r#"uint('-' + '1')"#, Fails("type conversion error from 'string' to 'uint'")),
    ("conversions", r#"double('x' + 'y')"#, Fails("type conversion error from 'string' to 'double'")),
    ("conversions", r#"bool('x' + 'y')"#, Fails("type conversion error from 'string' to 'bool'")),
    (
        "conversions",
        r#"duration('1' + '')"#,
        Fails("type conversion error from 'string' to 'google.protobuf.Duration'"),
    ),
    (
        "conversions",
        r#"timestamp('x' + '')"#,
        Fails("type conversion error from 'string' to 'google.protobuf.Timestamp'"),
    ),
    ("conversions", r#"timestamp(253402300800 + 0)"#, Fails("timestamp overflow")),
    // apiserver pkg/cel/library/lists.go (documented examples, cel-in-kubernetes.md "Kubernetes list library").
    ("lists", r#"[1, 2, 3].isSorted()"#, Val("true")),
    ("lists", r#"['a', 'c', 'b'].isSorted()"#, Val("false")),
    ("lists", r#"[1, 2, 3].sum() == 6"#, Val("true")),
    ("lists", r#"[1.5, 2.5].sum()"#, Val("4.0")),
    ("lists", r#"[duration('1s'), duration('2s')].sum() == duration('3s')"#, Val("true")),
    ("lists", r#"[1, 3, 2].max()"#, Val("3")),
    ("lists", r#"['b', 'a'].min()"#, Val("\"a\"")),
    ("lists", r#"[].min()"#, Fails("min called on empty list")),
    // apiserver 24a394e5 pkg/cel/library/lists.go: one overload per element type
    // (`comparableTypes`, `summableTypes`), so other lists are refused when checked...
    ("lists", r#"[[1]].min()"#, Rejected("found no matching overload for 'min' applied to 'list(list(int)).()'")),
    ("lists", r#"[{'a': 1}].isSorted()"#, Rejected("found no matching overload for 'isSorted'")),
    ("lists", r#"['a'].sum()"#, Rejected("found no matching overload for 'sum' applied to 'list(string).()'")),
    ("lists", r#"[true].sum()"#, Rejected("found no matching overload for 'sum'")),
    // ... and a list of dyn goes to the overload of its first element's type at run time (cel-go
    // v0.29.2 common/decls/decls.go dispatch, types.go defaultIsAssignableRuntimeType; an empty
    // list takes the first, int). `Compare` errors are ignored, `Add` errors are not.
    ("lists", r#"[].max()"#, Fails("max called on empty list")),
    ("lists", r#"[].sum() == 0"#, Val("true")),
    ("lists", r#"[1, 'a'].isSorted()"#, Val("true")),
    ("lists", r#"[2, 'a', 1].min()"#, Val("1")),
    ("lists", r#"[1, 2.5].max()"#, Val("2.5")),
    ("lists", r#"[1, [2]].min()"#, Fails("no such overload")),
    ("lists", r#"[1, 2.5].sum()"#, Fails("no such overload")),
    ("lists", r#"[2.5, 1].sum()"#, Fails("no such overload")),
    // Run-time overload errors (values typed `dyn` pass the checker), as cel-go v0.29.2 gives
    // them and Kubernetes quotes them in a rule's error: the operators of interpretable.go
    // evalBinary/evalUnary (bare when the first operand has the method or receives the call:
    // common/types string.go, timestamp.go, duration.go; else `no such overload: <fn>`),
    // common/decls/decls.go MaybeNoSuchOverload (`<fn>(<types>)`, the receiver first), the
    // strings' contains/startsWith/endsWith without type guards (standard.go), list.go's index
    // errors and attributes.go refQualify's `no such key`.
    ("strings", r#"dyn(true) + 1"#, Fails(r"^no such overload: _\+_$")),
    ("strings", r#"dyn('a') + 1"#, Fails("^no such overload$")),
    ("strings", r#"dyn(1) + 1.0"#, Fails("^no such overload$")),
    ("strings", r#"-dyn(1u)"#, Fails("^no such overload: -_$")),
    ("strings", r#"-dyn(duration('1s')) == duration('-1s')"#, Val("true")),
    ("strings", r#"dyn([1]) < 1"#, Fails("^no such overload: _<_$")),
    ("strings", r#"dyn('a') < 1"#, Fails("^no such overload$")),
    ("strings", r#"size(dyn(1))"#, Fails("^no such overload: size$")),
    ("strings", r#"int(dyn([1]))"#, Fails(r"^no such overload: int\(list\)$")),
    ("strings", r#"dyn(1).charAt(0)"#, Fails(r"^no such overload: charAt\(int, int\)$")),
    ("strings", r#"dyn(1).startsWith('a')"#, Fails("^no such overload$")),
    ("strings", r#"dyn([1])['a']"#, Fails("^unsupported index type 'string' in list$")),
    ("strings", r#"dyn([1])[1.5]"#, Fails(r"^unsupported index value 1\.5 in list$")),
    ("strings", r#"dyn(1)[0]"#, Fails("^no such key: 0$")),
    // attributes.go refQualify as a presence test (`[?`, `.?`): Kubernetes leaves
    // EnableErrorOnBadPresenceTest off, so a value that is no container gives none; a list's
    // bad index is still IndexOrError's error.
    ("optional", r#"dyn(1)[?0] == optional.none()"#, Val("true")),
    ("optional", r#"dyn('a').?b == optional.none()"#, Val("true")),
    ("optional", r#"dyn([1])[?'a']"#, Fails("^unsupported index type 'string' in list$")),
    ("optional", r#"dyn([1])[?1.5]"#, Fails(r"^unsupported index value 1\.5 in list$")),
    ("optional", r#"[1][?dyn(1u)] == optional.none()"#, Val("true")),
    // common/types double.go, int.go Compare (cel-go v0.29.2): a NaN has no order, and the
    // relational operators of standard.go return Compare's error.
    ("standard", r#"0.0/0.0 < 1.0"#, Fails("^NaN values cannot be ordered$")),
    ("standard", r#"dyn(1) >= 0.0/0.0"#, Fails("^NaN values cannot be ordered$")),
    ("standard", r#"0.0/0.0 != 0.0/0.0"#, Val("true")),
    (
        "strings",
        r#"dyn(timestamp('2020-01-01T00:00:00Z')).getHours(dyn(1))"#,
        Fails(r"^no such overload: getHours\(google\.protobuf\.Timestamp, int\)$"),
    ),
    (
        "quantity",
        r#"dyn(1).isGreaterThan(quantity('1'))"#,
        Fails(r"^no such overload: isGreaterThan\(int, kubernetes\.Quantity\)$"),
    ),
    // cel-go v0.29.2 ext/lists.go genRange and its default cap.
    ("lists", r#"lists.range(-1)"#, Fails("lists.range: size must be non-negative, got -1")),
    ("lists", r#"lists.range(1000001)"#, Fails("lists.range: size 1000001 exceeds maximum allowed (1000000)")),
    // ext/lists.go `list_flatten` takes a list of lists (`list_flatten_int` any list).
    ("lists", r#"[[1], [2, 3]].flatten() == [1, 2, 3]"#, Val("true")),
    ("lists", r#"[1, 2].flatten()"#, Rejected("found no matching overload for 'flatten' applied to 'list(int).()'")),
    ("lists", r#"[1, [2]].flatten(1) == [1, 2]"#, Val("true")),
    // ext/strings.go substr (the one-argument form checks the start only).
    ("strings", r#"'abc'.substring(5)"#, Fails("index out of range: 5")),
    ("strings", r#"'abc'.substring(3) == ''"#, Val("true")),
    // cel-go v0.29.2 common/types/timestamp.go timeZone: a name without ':' is Go's
    // time.LoadLocation's, else strconv.Atoi's hours and minutes (minutes 0..59).
    ("time", r#"timestamp('2020-01-01T00:00:00Z').getHours('+0530')"#, Fails("unknown time zone +0530")),
    ("time", r#"timestamp('2020-01-01T00:00:00Z').getHours('Z')"#, Fails("unknown time zone Z")),
    ("time", r#"timestamp('2020-01-01T00:00:00Z').getMinutes('+5:30')"#, Val("30")),
    ("time", r#"timestamp('2020-01-01T00:00:00Z').getHours('-00:30')"#, Val("23")),
    // common/stdlib/standard.go inTimeZone: the minutes are not range-checked (05:75 is
    // 6:15); Kubernetes' environment answers 6 (the oracle's `cel` suite).
    ("time", r#"timestamp('2020-01-01T00:00:00Z').getHours('05:75')"#, Val("6")),
    (
        "time",
        r#"timestamp('2020-01-01T00:00:00Z').getHours('x:00')"#,
        Fails("strconv.Atoi: parsing \"x\": invalid syntax"),
    ),
    ("time", r#"timestamp('2020-01-01T00:00:00Z').getHours('America/New_York')"#, Val("19")),
    (
        "time",
        r#"timestamp('2020-01-01T00:00:00Z').getHours('america/new_york')"#,
        Fails("unknown time zone america/new_york"),
    ),
    ("lists", r#"[1, 2, 2, 3].indexOf(2)"#, Val("1")),
    ("lists", r#"[1, 2, 2, 3].lastIndexOf(2)"#, Val("2")),
    ("lists", r#"[1, 2, 3].indexOf(4)"#, Val("-1")),
    // cel-go v0.29.2 cel/library.go (OptionalTypes, latest version): optional.unwrap / unwrapOpt.
    ("optional", r#"optional.unwrap([optional.of(42), optional.none()])"#, Val("[42]")),
    ("optional", r#"[optional.of('a'), optional.none(), optional.of('b')].unwrapOpt()"#, Val("[\"a\",\"b\"]")),
    // apiserver pkg/cel/library/lists.go (Lists v1, 1.37) includes: a list's element, or equality.
    ("lists", r#"[1, 2, 3].includes(2) && ![1, 2, 3].includes(4)"#, Val("true")),
    ("lists", r#"'model-a'.includes('model-a') && !'model-a'.includes('model-b')"#, Val("true")),
    // apiserver pkg/cel/library/regex.go.
    ("regex", r#"'abc 123'.find('[0-9]+')"#, Val("\"123\"")),
    ("regex", r#"'abc'.find('[0-9]+')"#, Val("\"\"")),
    ("regex", r#"'123 abc 456'.findAll('[0-9]+')"#, Val("[\"123\",\"456\"]")),
    ("regex", r#"'123 abc 456'.findAll('[0-9]+', 1)"#, Val("[\"123\"]")),
    // regex.go wraps Go's regexp error: "Illegal regex: error parsing regexp: <code>: `<expr>`"
    // (regexp/syntax parse.go: the class from its '[' for a missing ']').
    ("regex", r#"'abc'.find('[')"#, Fails("Illegal regex: error parsing regexp: missing closing \\]: `\\[`")),
    ("regex", r#"'abc'.findAll('a(', 1)"#, Fails("Illegal regex: error parsing regexp: missing closing \\): `a\\(`")),
    // cel-go matches: Go's error as it is.
    ("regex", r#"['a('].all(p, 'x'.matches(p))"#, Fails("^error parsing regexp: missing closing \\): `a\\(`$")),
    ("regex", r#"['a)'].all(p, 'x'.matches(p))"#, Fails("^error parsing regexp: unexpected \\): `a\\)`$")),
    ("regex", r#"['\\q'].all(p, 'x'.matches(p))"#, Fails("^error parsing regexp: invalid escape sequence: `\\\\q`$")),
    (
        "regex",
        r#"['*a'].all(p, 'x'.matches(p))"#,
        Fails("^error parsing regexp: missing argument to repetition operator: `\\*`$"),
    ),
    (
        "regex",
        r#"['[z-a]'].all(p, 'x'.matches(p))"#,
        Fails("^error parsing regexp: invalid character class range: `z-a`$"),
    ),
    // Go regexp/syntax parse.go (go1.25), where regex-syntax reads otherwise: parseEscape knows
    // no \u, \e or lone back-reference (`\1`), and no \b inside a class; parsePerlFlags takes
    // only i, m, s, U; parseRepeat counts to 1000; escaped punctuation (`\<`) is itself; \12 and
    // \012 are octal.
    (
        "regex",
        r#"['\\u0041'].all(p, 'A'.matches(p))"#,
        Fails(r"^error parsing regexp: invalid escape sequence: `\\u`$"),
    ),
    (
        "regex",
        r#"['(a)\\1'].all(p, 'aa'.matches(p))"#,
        Fails(r"^error parsing regexp: invalid escape sequence: `\\1`$"),
    ),
    ("regex", r#"['[\\b]'].all(p, 'a'.matches(p))"#, Fails(r"^error parsing regexp: invalid escape sequence: `\\b`$")),
    (
        "regex",
        r#"['(?x)a b'].all(p, 'ab'.matches(p))"#,
        Fails(r"^error parsing regexp: invalid or unsupported Perl syntax: `\(\?x`$"),
    ),
    (
        "regex",
        r#"['a{1001}'].all(p, 'a'.matches(p))"#,
        Fails(r"^error parsing regexp: invalid repeat count: `\{1001\}`$"),
    ),
    (
        "regex",
        r#"'a'.matches('^a{1,1000}$') && 'x<y>'.matches('^x\\<y\\>$') && '\n'.matches('^\\12$') && 'A'.matches('^[\\101]$')"#,
        Val("true"),
    ),
    ("regex", r#"'ab'.matches('(?i-s:A)b') && 'a'.matches('(?P<n>a)') && 'a'.matches('(?<n>a)')"#, Val("true")),
    // Go regexp/syntax: the Perl classes \d \w \s and \b are ASCII (RE2).
    ("regex", r#"'٣'.matches('^\\d$')"#, Val("false")),
    ("regex", r#"'7'.matches('^[\\d]$') && 'a_1'.matches('^\\w+$') && 'a\tb'.matches('a\\sb')"#, Val("true")),
    ("regex", r#"'é'.matches('^\\w$')"#, Val("false")),
    ("regex", r#"'ab'.matches('[^\\D]') || !'a-b'.matches('\\bb')"#, Val("false")),
    (
        "regex",
        r#"'ABc'.matches('(?i)^ab[a-c]$') && 'Web-1'.matches('(?i)^[a-z0-9-]+$') && !'x'.matches('(?i)^[^x]$')"#,
        Val("true"),
    ),
    // apiserver pkg/cel/library/urls.go.
    ("urls", r#"url('https://example.com:80/').getHost()"#, Val("\"example.com:80\"")),
    ("urls", r#"url('https://example.com:80/').getHostname()"#, Val("\"example.com\"")),
    ("urls", r#"url('https://[::1]:80/').getHostname()"#, Val("\"::1\"")),
    ("urls", r#"url('https://example.com:80/').getPort()"#, Val("\"80\"")),
    ("urls", r#"url('https://example.com/').getScheme()"#, Val("\"https\"")),
    ("urls", r#"url('https://example.com/path with spaces/').getEscapedPath()"#, Val("\"/path%20with%20spaces/\"")),
    ("urls", r#"url('https://example.com/?k=a&k=b&x=y').getQuery()"#, Val("{\"k\":[\"a\",\"b\"],\"x\":[\"y\"]}")),
    ("urls", r#"isURL('https://example.com/')"#, Val("true")),
    ("urls", r#"isURL('example.com')"#, Val("false")),
    (
        "urls",
        r#"url('example.com')"#,
        Fails("URL parse error during conversion from string: parse \"example.com\": invalid URI for request"),
    ),
    // cel-go ext/strings.go (version 2), as Kubernetes includes it.
    ("strings", r#"'hello'.charAt(1)"#, Val("\"e\"")),
    ("strings", r#"'hello'.charAt(5)"#, Val("\"\"")),
    ("strings", r#"'hello'.charAt(6)"#, Fails("index out of range: 6")),
    ("strings", r#"'hello mellow'.indexOf('ello')"#, Val("1")),
    ("strings", r#"'hello mellow'.indexOf('ello', 2)"#, Val("7")),
    ("strings", r#"'hello mellow'.lastIndexOf('ello')"#, Val("7")),
    // cel-go v0.29.2 ext/strings.go indexOfOffset / lastIndexOfOffset (Kubernetes 1.37's pin):
    // only a negative offset is an error; at or past the end nothing is found; an empty needle
    // is at min(offset, len).
    ("strings", r#"'abc'.lastIndexOf('c', 3)"#, Val("-1")),
    ("strings", r#"'abc'.indexOf('a', 7)"#, Val("-1")),
    ("strings", r#"'abc'.indexOf('', 7)"#, Val("3")),
    ("strings", r#"'abc'.lastIndexOf('')"#, Val("3")),
    ("strings", r#"'abc'.lastIndexOf('bc', 2)"#, Val("1")),
    ("strings", r#"'abc'.indexOf('a', -1)"#, Fails("index out of range: -1")),
    // substrRange checks the range before the bounds.
    ("strings", r#"'abc'.substring(5, 2)"#, Fails("invalid substring range. start: 5, end: 2")),
    ("strings", r#"'TacoCat'.lowerAscii()"#, Val("\"tacocat\"")),
    ("strings", r#"'TacoCÆt'.upperAscii()"#, Val("\"TACOCÆT\"")),
    ("strings", r#"'hello hello'.replace('he', 'we', 1)"#, Val("\"wello hello\"")),
    ("strings", r#"'a,b,c'.split(',')"#, Val("[\"a\",\"b\",\"c\"]")),
    ("strings", r#"'a,b,c'.split(',', 2)"#, Val("[\"a\",\"b,c\"]")),
    ("strings", r#"'tacocat'.substring(4)"#, Val("\"cat\"")),
    ("strings", r#"'tacocat'.substring(0, 4)"#, Val("\"taco\"")),
    ("strings", r#"'tacocat'.substring(4, 2)"#, Fails("invalid substring range. start: 4, end: 2")),
    ("strings", r#"'  \ttrim\n  '.trim()"#, Val("\"trim\"")),
    ("strings", r#"['a', 'b'].join('-')"#, Val("\"a-b\"")),
    // Strings version 2's joinValSeparator (cel-go ext/strings.go): `join: invalid input: %v`.
    ("strings", r#"['a', dyn(1)].join('-')"#, Fails("^join: invalid input: 1$")),
    ("strings", r#"['a', dyn(2.5)].join()"#, Fails("^join: invalid input: 2.5$")),
    ("strings", r#"['a', dyn(true)].join()"#, Fails("^join: invalid input: true$")),
    ("strings", r#"['a', dyn(duration('90m'))].join()"#, Fails("^join: invalid input: 1h30m0s$")),
    (
        "strings",
        r#"['a', dyn(timestamp('2020-01-02T03:04:05.5Z'))].join()"#,
        Fails("^join: invalid input: 2020-01-02 03:04:05.5 \\+0000 UTC$"),
    ),
    ("strings", r#"['a', dyn(b'ab')].join()"#, Fails("^join: invalid input: \\[97 98\\]$")),
    ("strings", r#"strings.quote('a"b\n')"#, Val("\"\\\"a\\\\\\\"b\\\\n\\\"\"")),
    // cel-go `string(double)`: Go's strconv.FormatFloat(d, 'g', -1, 64), %e from 1e+06 on.
    (
        "conversions",
        r#"[string(1000000.0), string(123456789.0), string(0.00001), string(-0.0), string(2.5)]"#,
        Val(r#"["1e+06","1.23456789e+08","1e-05","-0","2.5"]"#),
    ),
    // cel-go ext/sets.go.
    ("sets", r#"sets.contains([1, 2, 3], [2, 3])"#, Val("true")),
    ("sets", r#"sets.equivalent([1, 2], [2, 1, 1])"#, Val("true")),
    ("sets", r#"sets.intersects([1], [2])"#, Val("false")),
    // cel-go optional types (cel-spec optional proposal), enabled in Kubernetes.
    ("optional", r#"optional.of(1).value()"#, Val("1")),
    ("optional", r#"optional.none().orValue(2)"#, Val("2")),
    ("optional", r#"optional.none().value()"#, Fails("optional.none() dereference")),
    ("optional", r#"{'a': 1}.?b.orValue(5)"#, Val("5")),
    ("optional", r#"{'a': {'b': 1}}.?a.?b.value()"#, Val("1")),
    ("optional", r#"[1, 2][?5].hasValue()"#, Val("false")),
    ("optional", r#"optional.ofNonZeroValue('').hasValue()"#, Val("false")),
    ("optional", r#"optional.of(2).optMap(x, x * 2).value()"#, Val("4")),
    ("optional", r#"[1, ?optional.none(), ?optional.of(3)]"#, Val("[1,3]")),
    // cel-go two-variable comprehensions (ext.TwoVarComprehensions), in Kubernetes since 1.33.
    ("comprehensions", r#"{'a': 1, 'b': 2}.all(k, v, v > 0 && k != '')"#, Val("true")),
    ("comprehensions", r#"[10, 20].transformList(i, v, i + v)"#, Val("[10,21]")),
    ("comprehensions", r#"{'a': 1}.transformMap(k, v, v + 1)"#, Val("{\"a\":2}")),
    ("comprehensions", r#"{'a': 1}.transformMapEntry(k, v, {v: k})"#, Val("{\"1\":\"a\"}")),
    // The macro's step is `cel.@mapInsert(accumulator, entry)` (cel-go v0.29.2
    // ext/comprehensions.go): an entry that is no map fails its dispatch, a repeated key
    // types.InsertMapKeyValue.
    (
        "comprehensions",
        r#"{'a': 1}.transformMapEntry(k, v, dyn(v))"#,
        Fails(r"^no such overload: cel\.@mapInsert\(map, int\)$"),
    ),
    (
        "comprehensions",
        r#"{'a': 1, 'b': 1}.transformMapEntry(k, v, {v: k})"#,
        Fails("^insert failed: key 1 already exists$"),
    ),
    // cel-go ext/bindings.go.
    ("bindings", r#"cel.bind(x, 'abc', x + x)"#, Val("\"abcabc\"")),
    // string.format as Kubernetes has it: cel-go v0.29.2 ext/formatting.go (strings version 2
    // uses it, not formatting_v2.go), en_US; expectations from ext/formatting_test.go there,
    // the error texts from formatting.go's *FormatError helpers.
    ("format", r#""%s".format([[2.71]])"#, Val(r#""[2.710000]""#)),
    (
        "format",
        r#""%s".format([["abc", 3.14, null, [9, 8, 7, 6], timestamp("2023-02-03T23:31:20Z")]])"#,
        Val(r#""[\"abc\", 3.140000, null, [9, 8, 7, 6], timestamp(\"2023-02-03T23:31:20Z\")]""#),
    ),
    (
        "format",
        r#""%s".format([{"key1": b"xyz", "key5": null, "key2": duration("2h"), "key4": true, "key3": 2.71828}])"#,
        Val(r#""{\"key1\":b\"xyz\", \"key2\":duration(\"7200s\"), \"key3\":2.718280, \"key4\":true, \"key5\":null}""#),
    ),
    (
        "format",
        r#""map with multiple key types: %s".format([{1: "value1", uint(2): "value2", true: double("NaN")}])"#,
        Val(r#""map with multiple key types: {1:\"value1\", 2:\"value2\", true:\"NaN\"}""#),
    ),
    (
        "format",
        r#""%s".format([[double("NaN"), double("+Inf"), double("-Inf")]])"#,
        Val(r#""[\"NaN\", \"+Inf\", \"-Inf\"]""#),
    ),
    ("format", r#""%s".format([double("Inf")])"#, Val(r#""+Inf""#)),
    // cel-go's test spells narrow no-break spaces around × (its x/text); Kubernetes' build prints
    // none (apiextensions-apiserver celcoststability_test.go, 1.33 to 1.37).
    ("format", r#""%.6e".format([1052.032911275])"#, Val("\"1.052033\u{00d7}10\u{2070}\u{00b3}\"")),
    ("format", r#""%e".format([2.71828])"#, Val("\"2.718280\u{00d7}10\u{2070}\u{2070}\"")),
    ("format", r#""%f".format(["NaN"])"#, Val(r#""NaN""#)),
    ("format", r#""%f".format(["Infinity"])"#, Val("\"\u{221e}\"")),
    ("format", r#""%f".format(["-Infinity"])"#, Val("\"-\u{221e}\"")),
    ("format", r#""%b".format([true])"#, Val(r#""1""#)),
    (
        "format",
        r#""%f".format([1])"#,
        Fails("error during formatting: fixed-point clause can only be used on doubles, was given int"),
    ),
    (
        "format",
        r#""%o".format([1.5])"#,
        Fails("error during formatting: octal clause can only be used on integers, was given double"),
    ),
    (
        "format",
        r#""%b".format(["a"])"#,
        Fails("error during formatting: only integers and bools can be formatted as binary, was given string"),
    ),
    (
        "format",
        r#""%d".format([double("Inf")])"#,
        Fails("error during formatting: decimal clause can only be used on integers, was given double"),
    ),
];

fn run(lib: &str, expr: &str, expect: &Expect) -> Result<(), String> {
    let compiled = Program::compile(expr).and_then(|p| checker::check(&p, &Decls::default()).map(|_| p));
    let matches = |pattern: &str, message: &str| {
        message.contains(pattern) || Regex::new(pattern).is_ok_and(|r| r.is_match(message))
    };
    let program = match (compiled, expect) {
        (Err(e), Rejected(p)) if matches(p, &e.message) => return Ok(()),
        (Err(e), _) => return Err(format!("[{lib}] {expr}: compile error {e}")),
        (Ok(_), Rejected(p)) => return Err(format!("[{lib}] {expr}: compiled, want a compile error /{p}/")),
        (Ok(p), _) => p,
    };
    match (program.eval(&NoVars), expect) {
        (Ok(_), Runs) => Ok(()),
        (Ok(r), Val(want)) => {
            let want: serde_json::Value =
                serde_json::from_str(want).map_err(|e| format!("bad expectation {want}: {e}"))?;
            let got = to_json(&r.value);
            if got == want {
                Ok(())
            } else {
                Err(format!("[{lib}] {expr}: got {got}, want {want}"))
            }
        }
        (Err(e), Fails(p)) if matches(p, &e.message) => Ok(()),
        (Err(e), _) => Err(format!("[{lib}] {expr}: error {}", e.message)),
        (Ok(r), _) => Err(format!("[{lib}] {expr}: got {}, want an error", to_json(&r.value))),
    }
}

#[test]
fn kubernetes_library_cases() {
    let failures: Vec<String> = KUBERNETES_CASES
        .iter()
        .chain(MORE_CASES)
        .filter_map(|(lib, expr, expect)| run(lib, expr, expect).err())
        .collect();
    assert!(KUBERNETES_CASES.len() >= 150, "the ported table lost cases");
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

/// Go's regexp parses in Perl mode, where stacked repetition operators are refused (regexp/
/// syntax parse.go `repeat`: "invalid nested repetition operator"); regex-syntax accepts them
/// as a repetition of a repetition. The patterns are Go's `parse_test.go` `onlyPOSIX` (valid
/// in POSIX, bad in Perl), each with the text Go names; `onlyPerl` and non-greedy operators
/// stay valid.
#[test]
fn stacked_repetitions_are_refused_as_go_refuses_them() {
    for (pattern, named) in [
        ("a++", "++"),
        ("a**", "**"),
        ("a?*", "?*"),
        ("a+*", "+*"),
        ("a{1}*", "{1}*"),
        (".{1}{2}.{3}", "{1}{2}"),
        ("a*??", "*??"),
    ] {
        let err = Regex::new(pattern).err().unwrap_or_else(|| panic!("{pattern} compiled"));
        assert_eq!(err, format!("error parsing regexp: invalid nested repetition operator: `{named}`"), "{pattern}");
    }
    for pattern in
        [r"\Q*+?{[\E", r"\Q\\E", "(?:a)", "(?P<name>a)", "a*?", "a??", "a+?b", "a{2}?", "[*+]+", "x{a}*", r"\*\*"]
    {
        assert!(Regex::new(pattern).is_ok(), "{pattern}");
    }
    // Literal text as Go reads it: `\Q...\E`, and a `{` that begins no count.
    for (pattern, text) in
        [(r"^\Q*+?{[\E$", "*+?{["), (r"^a\Qb.c", "ab.c"), ("^x{a}*$", "x{a}}}"), ("^x{,2}$", "x{,2}")]
    {
        assert!(Regex::new(pattern).unwrap().is_match(text), "{pattern} on {text}");
    }
    assert!(!Regex::new(r"^a\Qb.c").unwrap().is_match("abxc"));
    // validation_test.go "stdlib regex functions": a constant pattern is checked when the rule
    // is compiled.
    let p = Program::compile("'x'.matches('x++')").unwrap();
    let e = kubedv_core::cel::checker::check_kubernetes(&p, &Decls::default()).unwrap_err();
    assert!(e.message.contains("invalid matches argument"), "{}", e.message);
}

/// Go refuses nested counts whose product passes 1000 (regexp/syntax parse.go `repeat` calls
/// `repeatIsValid(re, 1000)` on each `{n,m}` with a bound of 2 or more: "invalid repeat count"
/// naming that operator, its `?` included). Each expectation is what go1.27.3's
/// `regexp.Compile` printed for the pattern (`<nil>`: accepted).
#[test]
fn nested_repeat_counts_are_limited_as_go_limits_them() {
    let go = [
        ("(a{500}){3}", "invalid repeat count: `{3}`"),
        ("(a{500}){2}", "<nil>"),
        ("(a{333}){3}", "<nil>"),
        ("(a{334}){3}", "invalid repeat count: `{3}`"),
        ("((a{10}){10}){11}", "invalid repeat count: `{11}`"),
        ("((a{10}){10}){10}", "<nil>"),
        ("(a{500}){3}?", "invalid repeat count: `{3}?`"),
        ("(a{500})*{3}", "invalid nested repetition operator: `*{3}`"),
        ("(?:a{500}){3}", "invalid repeat count: `{3}`"),
        ("(?i:a{500}){3}", "invalid repeat count: `{3}`"),
        ("(?P<n>a{500}){3}", "invalid repeat count: `{3}`"),
        ("(?i)(a{500}){3}", "invalid repeat count: `{3}`"),
        ("(a{0}b{2000})", "invalid repeat count: `{2000}`"),
        ("(a{0}){1000}", "<nil>"),
        ("(a{0,}){1000}(b{2}){600}", "invalid repeat count: `{600}`"),
        ("(a{2,}){600}", "invalid repeat count: `{600}`"),
        ("(a{1,2}|b{500}){3}", "invalid repeat count: `{3}`"),
        ("(a|b{500}){2}x{1001}", "invalid repeat count: `{1001}`"),
        ("([a-z]{500}){3}", "invalid repeat count: `{3}`"),
        ("(a{1000}){1}", "<nil>"),
        ("((a{1000}){1}){2}", "invalid repeat count: `{2}`"),
        ("(a{500}){0,1}", "<nil>"),
        ("(a{500}){1,2}", "<nil>"),
        ("a{500}b{500}{3}", "invalid nested repetition operator: `{500}{3}`"),
        (r"(\Qa{\E{500}){3}", "invalid repeat count: `{3}`"),
    ];
    for (pattern, want) in go {
        let got = match Regex::new(pattern) {
            Ok(_) => String::from("<nil>"),
            Err(e) => e.strip_prefix("error parsing regexp: ").unwrap_or(&e).to_string(),
        };
        assert_eq!(got, want, "{pattern}");
    }
}
