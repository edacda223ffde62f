//! IP addresses and CIDR values as the core group's legacy fields validate them: k8s.io/utils
//! `net.ParseIPSloppy` / `ParseCIDRSloppy` (Go 1.16's `net.ParseIP`, leading zeros allowed),
//! the stricter `net/netip` parsers, `net.IP`'s classification and `String()`, and
//! apimachinery `pkg/util/validation/ip.go` (`IsValidIPForLegacyField`,
//! `IsValidCIDRForLegacyField`, `GetWarningsForIP`, `GetWarningsForCIDR`) with
//! `pkg/apis/core/validation`'s `ValidateEndpointIP`. `StrictIPCIDRValidation` is on by
//! default since 1.36, so strict validation applies.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;

use crate::field::{Error, Path};

/// A parsed address as `net.IP` holds it: 16 bytes, IPv4 as `::ffff:a.b.c.d`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ip {
    /// The 16 bytes.
    pub bytes: [u8; 16],
    /// Written in dotted IPv4 form (netip would read it as an IPv4 address).
    pub text_v4: bool,
    /// Readable by `netip.ParseAddr` too (no leading zeros, at most 4 hex digits a field).
    pub strict: bool,
}

const V4_IN_V6: [u8; 12] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff];

/// `dtoi`: a decimal prefix, its length, and whether it is below 0xFFFFFF.
fn dtoi(s: &[u8]) -> (u32, usize, bool) {
    let mut n: u32 = 0;
    let mut i = 0;
    while i < s.len() && s[i].is_ascii_digit() {
        n = n * 10 + u32::from(s[i] - b'0');
        if n >= 0xFF_FFFF {
            return (0xFF_FFFF, i, false);
        }
        i += 1;
    }
    (n, i, i > 0)
}

/// `xtoi`: a hexadecimal prefix.
fn xtoi(s: &[u8]) -> (u32, usize, bool) {
    let mut n: u32 = 0;
    let mut i = 0;
    while i < s.len() {
        let d = match s[i] {
            c @ b'0'..=b'9' => c - b'0',
            c @ b'a'..=b'f' => c - b'a' + 10,
            c @ b'A'..=b'F' => c - b'A' + 10,
            _ => break,
        };
        n = n * 16 + u32::from(d);
        if n >= 0xFF_FFFF {
            return (0, i, false);
        }
        i += 1;
    }
    (n, i, i > 0)
}

/// The forked `parseIPv4`: the 4 bytes and whether no octet has a leading zero.
fn parse_v4(s: &[u8]) -> Option<([u8; 4], bool)> {
    let mut p = [0u8; 4];
    let mut rest = s;
    let mut strict = true;
    for (i, slot) in p.iter_mut().enumerate() {
        if rest.is_empty() {
            return None;
        }
        if i > 0 {
            if rest[0] != b'.' {
                return None;
            }
            rest = &rest[1..];
        }
        let (n, c, ok) = dtoi(rest);
        if !ok || n > 0xFF {
            return None;
        }
        if c > 1 && rest[0] == b'0' {
            strict = false;
        }
        rest = &rest[c..];
        *slot = n as u8;
    }
    rest.is_empty().then_some((p, strict))
}

/// The forked `parseIPv6`.
fn parse_v6(s: &[u8]) -> Option<([u8; 16], bool)> {
    let mut ip = [0u8; 16];
    let mut strict = true;
    let mut ellipsis: Option<usize> = None;
    let mut s = s;
    if s.len() >= 2 && s[0] == b':' && s[1] == b':' {
        ellipsis = Some(0);
        s = &s[2..];
        if s.is_empty() {
            return Some((ip, true));
        }
    }
    let mut i = 0;
    while i < 16 {
        let (n, c, ok) = xtoi(s);
        if !ok || n > 0xFFFF {
            return None;
        }
        if c < s.len() && s[c] == b'.' {
            if ellipsis.is_none() && i != 12 {
                return None;
            }
            if i + 4 > 16 {
                return None;
            }
            let (v4, st) = parse_v4(s)?;
            strict &= st;
            ip[i..i + 4].copy_from_slice(&v4);
            s = &[];
            i += 4;
            break;
        }
        if c > 4 {
            strict = false;
        }
        ip[i] = (n >> 8) as u8;
        ip[i + 1] = n as u8;
        i += 2;
        s = &s[c..];
        if s.is_empty() {
            break;
        }
        if s[0] != b':' || s.len() == 1 {
            return None;
        }
        s = &s[1..];
        if s[0] == b':' {
            if ellipsis.is_some() {
                return None;
            }
            ellipsis = Some(i);
            s = &s[1..];
            if s.is_empty() {
                break;
            }
        }
    }
    if !s.is_empty() {
        return None;
    }
    if i < 16 {
        let e = ellipsis?;
        let n = 16 - i;
        let mut j = i;
        while j > e {
            j -= 1;
            ip[j + n] = ip[j];
        }
        for b in ip.iter_mut().skip(e).take(n) {
            *b = 0;
        }
    } else if ellipsis.is_some() {
        return None;
    }
    Some((ip, strict))
}

/// `netutils.ParseIPSloppy`.
pub fn parse_sloppy(s: &str) -> Option<Ip> {
    for &c in s.as_bytes() {
        match c {
            b'.' => {
                let (v4, strict) = parse_v4(s.as_bytes())?;
                let mut bytes = [0u8; 16];
                bytes[..12].copy_from_slice(&V4_IN_V6);
                bytes[12..].copy_from_slice(&v4);
                return Some(Ip { bytes, text_v4: true, strict });
            }
            b':' => {
                let (bytes, strict) = parse_v6(s.as_bytes())?;
                return Some(Ip { bytes, text_v4: false, strict });
            }
            _ => {}
        }
    }
    None
}

impl Ip {
    /// `ip.To4() != nil`.
    pub fn is_v4(&self) -> bool {
        self.bytes[..12] == V4_IN_V6
    }

    /// netip's `Is4In6()`: written as IPv6, holding an IPv4-mapped address.
    pub fn is_4in6(&self) -> bool {
        !self.text_v4 && self.is_v4()
    }

    fn v4(&self) -> [u8; 4] {
        [self.bytes[12], self.bytes[13], self.bytes[14], self.bytes[15]]
    }

    /// `IsUnspecified()`.
    pub fn is_unspecified(&self) -> bool {
        self.bytes == [0; 16] || (self.is_v4() && self.v4() == [0; 4])
    }

    /// `IsLoopback()`.
    pub fn is_loopback(&self) -> bool {
        if self.is_v4() {
            return self.bytes[12] == 127;
        }
        let mut one = [0u8; 16];
        one[15] = 1;
        self.bytes == one
    }

    /// `IsLinkLocalUnicast()`.
    pub fn is_link_local_unicast(&self) -> bool {
        if self.is_v4() {
            return self.bytes[12] == 169 && self.bytes[13] == 254;
        }
        self.bytes[0] == 0xfe && self.bytes[1] & 0xc0 == 0x80
    }

    /// `IsLinkLocalMulticast()`.
    pub fn is_link_local_multicast(&self) -> bool {
        if self.is_v4() {
            return self.bytes[12] == 224 && self.bytes[13] == 0 && self.bytes[14] == 0;
        }
        self.bytes[0] == 0xff && self.bytes[1] & 0x0f == 0x02
    }

    /// `net.IP.String()`: dotted for IPv4 (and IPv4-mapped), RFC 5952 otherwise.
    pub fn go_string(&self) -> String {
        if self.is_v4() {
            let v = self.v4();
            return format!("{}.{}.{}.{}", v[0], v[1], v[2], v[3]);
        }
        v6_string(&self.bytes)
    }

    /// netip `Addr.String()` of a valid address (`::ffff:1.2.3.4` for 4-in-6).
    pub fn netip_string(&self) -> String {
        if self.text_v4 {
            return self.go_string();
        }
        if self.is_v4() {
            let v = self.v4();
            return format!("::ffff:{}.{}.{}.{}", v[0], v[1], v[2], v[3]);
        }
        v6_string(&self.bytes)
    }
}

/// IPv6 text: lowercase hex, the longest run (≥ 2) of zero groups as `::`.
fn v6_string(b: &[u8; 16]) -> String {
    let groups: Vec<u16> = (0..8).map(|i| u16::from_be_bytes([b[2 * i], b[2 * i + 1]])).collect();
    let (mut best, mut best_len) = (usize::MAX, 0);
    let mut i = 0;
    while i < 8 {
        let mut j = i;
        while j < 8 && groups[j] == 0 {
            j += 1;
        }
        if j - i > best_len && j - i >= 2 {
            best = i;
            best_len = j - i;
        }
        i = if j > i { j } else { i + 1 };
    }
    let mut out = String::new();
    let mut i = 0;
    while i < 8 {
        if i == best {
            out.push_str("::");
            i += best_len;
            continue;
        }
        if i > 0 && !out.ends_with(':') {
            out.push(':');
        }
        let _ = write!(out, "{:x}", groups[i]);
        i += 1;
    }
    out
}

/// A CIDR as `netutils.ParseCIDRSloppy` gives it.
#[derive(Clone, Copy, Debug)]
pub struct Cidr {
    /// The address as written.
    pub ip: Ip,
    /// The prefix length.
    pub bits: u32,
    /// 32 for an address written as IPv4, else 128.
    pub addr_bits: u32,
    /// The prefix length had a leading zero.
    pub bits_leading_zero: bool,
}

/// `netutils.ParseCIDRSloppy`.
pub fn parse_cidr_sloppy(s: &str) -> Option<Cidr> {
    let i = s.find('/')?;
    let (addr, mask) = (&s[..i], &s.as_bytes()[i + 1..]);
    let (ip, addr_bits) = match parse_v4(addr.as_bytes()) {
        Some((v4, strict)) => {
            let mut bytes = [0u8; 16];
            bytes[..12].copy_from_slice(&V4_IN_V6);
            bytes[12..].copy_from_slice(&v4);
            (Ip { bytes, text_v4: true, strict }, 32)
        }
        None => {
            let (bytes, strict) = parse_v6(addr.as_bytes())?;
            (Ip { bytes, text_v4: false, strict }, 128)
        }
    };
    let (n, c, ok) = dtoi(mask);
    if !ok || c != mask.len() || n > addr_bits {
        return None;
    }
    Some(Cidr { ip, bits: n, addr_bits, bits_leading_zero: mask.len() > 1 && mask[0] == b'0' })
}

impl Cidr {
    /// The address with the bits past the prefix cleared (`ipnet.IP`).
    pub fn masked(&self) -> Ip {
        let mut bytes = self.ip.bytes;
        let total = if self.addr_bits == 32 { 96 + self.bits } else { self.bits };
        for (i, b) in bytes.iter_mut().enumerate() {
            let start = (i as u32) * 8;
            if start >= total {
                *b = 0;
            } else if start + 8 > total {
                *b &= 0xffu8 << (8 - (total - start));
            }
        }
        Ip { bytes, ..self.ip }
    }

    /// `ipnet.String()`: an IPv4 network (also a 4-in-6 one with a prefix of 96 bits or more)
    /// prints dotted with its IPv4 prefix length.
    pub fn go_string(&self) -> String {
        let net = self.masked();
        let bits = if self.addr_bits == 128 && net.is_v4() { self.bits.saturating_sub(96) } else { self.bits };
        format!("{}/{}", net.go_string(), bits)
    }

    /// Readable by `netip.ParsePrefix`.
    pub fn strict(&self) -> bool {
        self.ip.strict && !self.bits_leading_zero
    }
}

/// `IsValidIPForLegacyField` with strict validation (origin `format=ip-sloppy`).
pub fn validate_ip_legacy(path: &Path<'_>, value: &str, valid_old: &[String], errors: &mut Vec<Error>) -> bool {
    if valid_old.iter().any(|o| o == value) {
        return true;
    }
    let Some(ip) = parse_sloppy(value) else {
        errors.push(
            Error::invalid(path, value, "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)")
                .with_origin("format=ip-sloppy"),
        );
        return false;
    };
    let mut ok = true;
    if !ip.strict {
        errors.push(Error::invalid(path, value, "must not have leading 0s").with_origin("format=ip-sloppy"));
        ok = false;
    }
    if ip.strict && ip.is_4in6() {
        errors.push(
            Error::invalid(path, value, "must not be an IPv4-mapped IPv6 address").with_origin("format=ip-sloppy"),
        );
        ok = false;
    }
    ok
}

/// `IsValidCIDRForLegacyField` with strict validation.
pub fn validate_cidr_legacy(path: &Path<'_>, value: &str, valid_old: &[String], errors: &mut Vec<Error>) {
    if valid_old.iter().any(|o| o == value) {
        return;
    }
    let Some(cidr) = parse_cidr_sloppy(value) else {
        errors.push(Error::invalid(path, value, "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)"));
        return;
    };
    if !cidr.strict() {
        errors.push(Error::invalid(path, value, "must not have leading 0s in IP or prefix length"));
    } else if cidr.ip.is_4in6() {
        errors.push(Error::invalid(path, value, "must not have an IPv4-mapped IPv6 address"));
    } else if cidr.masked().bytes != cidr.ip.bytes {
        errors.push(Error::invalid(path, value, "must not have bits set beyond the prefix length"));
    }
}

/// `GetWarningsForIP`.
pub fn warnings_for_ip(path: &str, value: &str) -> Vec<String> {
    let Some(ip) = parse_sloppy(value) else { return Vec::new() };
    if !ip.strict || ip.is_4in6() {
        return alloc::vec![format!(
            "{path}: non-standard IP address {} is invalid: use {}",
            go_q(value),
            go_q(&ip.go_string())
        )];
    }
    if !ip.text_v4 {
        let canonical = ip.netip_string();
        if canonical != value {
            return alloc::vec![format!(
                "{path}: IPv6 address {} should be in RFC 5952 canonical format ({})",
                go_q(value),
                go_q(&canonical)
            )];
        }
    }
    Vec::new()
}

/// `GetWarningsForCIDR`.
pub fn warnings_for_cidr(path: &str, value: &str) -> Vec<String> {
    let Some(cidr) = parse_cidr_sloppy(value) else { return Vec::new() };
    let mut warnings = Vec::new();
    let net = cidr.go_string();
    if cidr.masked().bytes != cidr.ip.bytes {
        let single = format!("{}/{}", cidr.ip.go_string(), cidr.addr_bits);
        warnings.push(format!(
            "{path}: CIDR value {} is ambiguous in this context (should be {} or {}?)",
            go_q(value),
            go_q(&net),
            go_q(&single)
        ));
    }
    if !cidr.strict() || cidr.ip.is_4in6() {
        warnings.push(format!("{path}: non-standard CIDR value {} is invalid: use {}", go_q(value), go_q(&net)));
    }
    if warnings.is_empty() && !cidr.ip.text_v4 {
        let canonical = format!("{}/{}", cidr.ip.netip_string(), cidr.bits);
        if canonical != value {
            warnings.push(format!(
                "{path}: IPv6 CIDR value {} should be in RFC 5952 canonical format ({})",
                go_q(value),
                go_q(&canonical)
            ));
        }
    }
    warnings
}

/// `ValidateEndpointIP` (origins `format=ip-sloppy`, `format=endpoint-ip`).
pub fn validate_endpoint_ip(value: &str, path: &Path<'_>, errors: &mut Vec<Error>) {
    let Some(ip) = parse_sloppy(value) else {
        errors.push(Error::invalid(path, value, "must be a valid IP address").with_origin("format=ip-sloppy"));
        return;
    };
    let mut errs = Vec::new();
    if ip.is_unspecified() {
        errs.push(Error::invalid(path, value, format!("may not be unspecified ({value})")));
    }
    if ip.is_loopback() {
        errs.push(Error::invalid(path, value, "may not be in the loopback range (127.0.0.0/8, ::1/128)"));
    }
    if ip.is_link_local_unicast() {
        errs.push(Error::invalid(path, value, "may not be in the link-local range (169.254.0.0/16, fe80::/10)"));
    }
    if ip.is_link_local_multicast() {
        errs.push(Error::invalid(
            path,
            value,
            "may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)",
        ));
    }
    errors.extend(errs.into_iter().map(|e| e.with_origin("format=endpoint-ip")));
}

/// `netutils.IsIPv6String`.
pub fn is_ipv6_string(s: &str) -> bool {
    parse_sloppy(s).is_some_and(|ip| !ip.is_v4())
}

/// `netutils.IsIPv4String`.
pub fn is_ipv4_string(s: &str) -> bool {
    parse_sloppy(s).is_some_and(|ip| ip.is_v4())
}

fn go_q(s: &str) -> String {
    crate::field::go_quote(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    // k8s.io/utils net TestParseIPSloppy and apimachinery TestIsValidIPForLegacyField /
    // TestGetWarningsForIP / TestGetWarningsForCIDR (a selection).
    #[test]
    fn parses_and_warns() {
        assert!(parse_sloppy("1.2.3.4").is_some_and(|ip| ip.strict && ip.is_v4()));
        assert!(parse_sloppy("010.002.003.004").is_some_and(|ip| !ip.strict));
        assert!(parse_sloppy("1.2.3").is_none());
        assert!(parse_sloppy("2001:db8::1").is_some_and(|ip| !ip.is_v4()));
        assert!(parse_sloppy("::ffff:1.2.3.4").is_some_and(|ip| ip.is_4in6()));
        assert_eq!(parse_sloppy("2001:DB8:0:0:0:0:0:1").map(|ip| ip.netip_string()).as_deref(), Some("2001:db8::1"));
        assert_eq!(
            warnings_for_ip("spec.clusterIPs[0]", "010.0.0.1"),
            ["spec.clusterIPs[0]: non-standard IP address \"010.0.0.1\" is invalid: use \"10.0.0.1\""]
        );
        assert_eq!(
            warnings_for_ip("x", "2001:DB8::1"),
            ["x: IPv6 address \"2001:DB8::1\" should be in RFC 5952 canonical format (\"2001:db8::1\")"]
        );
        assert_eq!(
            warnings_for_cidr("x", "1.2.3.4/24"),
            ["x: CIDR value \"1.2.3.4/24\" is ambiguous in this context (should be \"1.2.3.0/24\" or \"1.2.3.4/32\"?)"]
        );
        assert!(warnings_for_cidr("x", "10.0.0.0/8").is_empty());
        let mut errors = Vec::new();
        validate_ip_legacy(&Path::root().child("ip"), "1.2.3.04", &[], &mut errors);
        assert_eq!(errors[0].text(), "ip: Invalid value: \"1.2.3.04\": must not have leading 0s");
        let mut errors = Vec::new();
        validate_endpoint_ip("127.0.0.1", &Path::root().child("ip"), &mut errors);
        assert_eq!(
            errors[0].text(),
            "ip: Invalid value: \"127.0.0.1\": may not be in the loopback range (127.0.0.0/8, ::1/128)"
        );
        let mut errors = Vec::new();
        validate_cidr_legacy(&Path::root().child("r"), "1.2.3.4/24", &[], &mut errors);
        assert_eq!(
            errors[0].text(),
            "r: Invalid value: \"1.2.3.4/24\": must not have bits set beyond the prefix length"
        );
    }
}
