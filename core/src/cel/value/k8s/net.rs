//! IP addresses and CIDR prefixes as Go's `net/netip` parses and prints them, with the
//! restrictions of the Kubernetes IP and CIDR libraries (no zones, no IPv4-mapped IPv6).

use alloc::format;
use alloc::string::String;
use core::fmt;

use crate::cel::value::Fail;

/// An IPv4 or IPv6 address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ip {
    /// IPv4.
    V4([u8; 4]),
    /// IPv6.
    V6([u8; 16]),
}

/// A netip parse error: the message and, for some, the rest of the input where it happened.
type NetErr = (&'static str, Option<String>);

/// Go's `parseIPv4`: four decimal fields, no leading zeros, each at most 255.
fn parse_v4(s: &str) -> Result<[u8; 4], NetErr> {
    let b = s.as_bytes();
    let mut out = [0u8; 4];
    let (mut pos, mut val, mut digits) = (0usize, 0u32, 0);
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'0'..=b'9' => {
                if digits == 1 && val == 0 {
                    return Err(("IPv4 field has octet with leading zero", None));
                }
                val = val * 10 + u32::from(c - b'0');
                digits += 1;
                if val > 255 {
                    return Err(("IPv4 field has value >255", None));
                }
            }
            b'.' => {
                if i == 0 || i == b.len() - 1 || b[i - 1] == b'.' {
                    return Err(("IPv4 field must have at least one digit", Some(String::from(&s[i..]))));
                }
                if pos == 3 {
                    return Err(("IPv4 address too long", None));
                }
                out[pos] = val as u8;
                pos += 1;
                val = 0;
                digits = 0;
            }
            _ => return Err(("unexpected character", Some(String::from(&s[i..])))),
        }
    }
    if pos < 3 {
        return Err(("IPv4 address too short", None));
    }
    out[3] = val as u8;
    Ok(out)
}

fn parse_v6(s: &str) -> Result<[u8; 16], NetErr> {
    let mut groups: [u16; 8] = [0; 8];
    let (head, tail) = match s.find("::") {
        Some(i) => (&s[..i], Some(&s[i + 2..])),
        None => (s, None),
    };
    if let Some(t) = tail {
        if let Some(i) = t.find("::") {
            return Err(("multiple :: in address", Some(String::from(&t[i..]))));
        }
    }
    let parse_side = |text: &str, out: &mut [u16; 8], max: usize| -> Result<usize, NetErr> {
        if text.is_empty() {
            return Ok(0);
        }
        let mut n = 0;
        let parts: alloc::vec::Vec<&str> = text.split(':').collect();
        let mut offset = 0usize;
        for (i, p) in parts.iter().enumerate() {
            let here = offset;
            offset += p.len() + 1;
            if p.contains('.') {
                if i + 1 != parts.len() {
                    return Err(("unexpected character", Some(String::from(&text[here..]))));
                }
                let v4 = parse_v4(p)?;
                if n + 2 > max {
                    return Err(("address string too long", None));
                }
                out[n] = u16::from_be_bytes([v4[0], v4[1]]);
                out[n + 1] = u16::from_be_bytes([v4[2], v4[3]]);
                n += 2;
                continue;
            }
            if p.is_empty() {
                let rest = if here == 0 { text } else { &text[here - 1..] };
                return Err(("each colon-separated field must have at least one digit", Some(String::from(rest))));
            }
            if p.len() > 4 {
                return Err((
                    "each colon-separated field must have at most 4 hex digits",
                    Some(String::from(&text[here..])),
                ));
            }
            let v =
                u16::from_str_radix(p, 16).map_err(|_| ("unexpected character", Some(String::from(&text[here..]))))?;
            if n >= max {
                return Err(("address string too long", None));
            }
            out[n] = v;
            n += 1;
        }
        Ok(n)
    };
    let mut front = [0u16; 8];
    let nf = parse_side(head, &mut front, 8)?;
    match tail {
        None => {
            if nf != 8 {
                return Err(("address string too short", None));
            }
            groups = front;
        }
        Some(t) => {
            let mut back = [0u16; 8];
            let nb = parse_side(t, &mut back, 8)?;
            if nf + nb > 7 {
                return Err(("address string too long", None));
            }
            groups[..nf].copy_from_slice(&front[..nf]);
            groups[8 - nb..].copy_from_slice(&back[..nb]);
        }
    }
    let mut out = [0u8; 16];
    for (i, g) in groups.iter().enumerate() {
        out[2 * i..2 * i + 2].copy_from_slice(&g.to_be_bytes());
    }
    Ok(out)
}

impl Ip {
    /// Parses as `ip()` does (apiserver `pkg/cel/library/ip.go` `parseIPAddr`).
    pub fn parse(raw: &str) -> Result<Ip, Fail> {
        let wrap = |(why, at): NetErr| match at {
            Some(at) => format!(
                "IP Address {raw:?} parse error during conversion from string: ParseAddr({raw:?}): {why} (at {at:?})"
            ),
            None => format!("IP Address {raw:?} parse error during conversion from string: ParseAddr({raw:?}): {why}"),
        };
        if raw.is_empty() {
            return Err(wrap(("unable to parse IP", None)));
        }
        if raw.contains('%') {
            if raw.contains(':') {
                return Err(format!("IP address {raw:?} with zone value is not allowed"));
            }
            return Err(wrap(("unexpected character", None)));
        }
        if raw.contains(':') {
            let bytes = parse_v6(raw).map_err(wrap)?;
            let ip = Ip::V6(bytes);
            if bytes[..10].iter().all(|b| *b == 0) && bytes[10] == 0xff && bytes[11] == 0xff {
                return Err(format!("IPv4-mapped IPv6 address {raw:?} is not allowed"));
            }
            return Ok(ip);
        }
        if raw.contains('.') {
            return parse_v4(raw).map(Ip::V4).map_err(wrap);
        }
        Err(wrap(("unable to parse IP", None)))
    }

    /// IPv4?
    pub fn is_v4(&self) -> bool {
        matches!(self, Ip::V4(_))
    }

    fn bytes(&self) -> &[u8] {
        match self {
            Ip::V4(b) => b,
            Ip::V6(b) => b,
        }
    }

    /// `0.0.0.0` or `::`.
    pub fn is_unspecified(&self) -> bool {
        self.bytes().iter().all(|b| *b == 0)
    }

    /// `127.0.0.0/8` or `::1`.
    pub fn is_loopback(&self) -> bool {
        match self {
            Ip::V4(b) => b[0] == 127,
            Ip::V6(b) => b[..15].iter().all(|x| *x == 0) && b[15] == 1,
        }
    }

    fn is_multicast(&self) -> bool {
        match self {
            Ip::V4(b) => b[0] & 0xf0 == 0xe0,
            Ip::V6(b) => b[0] == 0xff,
        }
    }

    /// `224.0.0.0/24` or `ff02::/16`.
    pub fn is_link_local_multicast(&self) -> bool {
        match self {
            Ip::V4(b) => b[0] == 224 && b[1] == 0 && b[2] == 0,
            Ip::V6(b) => b[0] == 0xff && b[1] & 0x0f == 0x02,
        }
    }

    /// `169.254.0.0/16` or `fe80::/10`.
    pub fn is_link_local_unicast(&self) -> bool {
        match self {
            Ip::V4(b) => b[0] == 169 && b[1] == 254,
            Ip::V6(b) => b[0] == 0xfe && b[1] & 0xc0 == 0x80,
        }
    }

    /// Go's `netip.Addr.IsGlobalUnicast`.
    pub fn is_global_unicast(&self) -> bool {
        if let Ip::V4(b) = self {
            if *b == [255, 255, 255, 255] {
                return false;
            }
        }
        !self.is_unspecified() && !self.is_loopback() && !self.is_multicast() && !self.is_link_local_unicast()
    }

    fn masked(&self, bits: u8) -> Ip {
        let mut out = *self;
        let bytes: &mut [u8] = match &mut out {
            Ip::V4(b) => b,
            Ip::V6(b) => b,
        };
        for (i, byte) in bytes.iter_mut().enumerate() {
            let start = (i * 8) as u8;
            if start >= bits {
                *byte = 0;
            } else if bits - start < 8 {
                *byte &= 0xffu8 << (8 - (bits - start));
            }
        }
        out
    }
}

impl fmt::Display for Ip {
    /// Go's `netip.Addr.String`: dotted IPv4; RFC 5952 IPv6 (the longest run of two or more zero
    /// groups, the first on a tie, becomes `::`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ip::V4(b) => write!(f, "{}.{}.{}.{}", b[0], b[1], b[2], b[3]),
            Ip::V6(b) => {
                let g: [u16; 8] = core::array::from_fn(|i| u16::from_be_bytes([b[2 * i], b[2 * i + 1]]));
                let (mut best, mut best_len) = (8usize, 0usize);
                let mut i = 0;
                while i < 8 {
                    if g[i] == 0 {
                        let start = i;
                        while i < 8 && g[i] == 0 {
                            i += 1;
                        }
                        if i - start > best_len && i - start >= 2 {
                            best = start;
                            best_len = i - start;
                        }
                    } else {
                        i += 1;
                    }
                }
                let mut i = 0;
                while i < 8 {
                    if i == best {
                        f.write_str("::")?;
                        i += best_len;
                        continue;
                    }
                    if i > 0 && i != best + best_len {
                        f.write_str(":")?;
                    }
                    write!(f, "{:x}", g[i])?;
                    i += 1;
                }
                Ok(())
            }
        }
    }
}

/// A CIDR prefix: an address (as written) and a prefix length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cidr {
    /// The address part.
    pub ip: Ip,
    /// The prefix length.
    pub bits: u8,
}

impl Cidr {
    /// Parses as `cidr()` does (apiserver `pkg/cel/library/cidr.go` `parseCIDR`).
    pub fn parse(raw: &str) -> Result<Cidr, Fail> {
        let wrap = |why: &str| {
            format!("network address parse error during conversion from string: netip.ParsePrefix({raw:?}): {why}")
        };
        let addr_err = |addr: &str, (why, at): NetErr| match at {
            Some(at) => wrap(&format!("ParseAddr({addr:?}): {why} (at {at:?})")),
            None => wrap(&format!("ParseAddr({addr:?}): {why}")),
        };
        let Some((addr, bits)) = raw.rsplit_once('/') else { return Err(wrap("no '/'")) };
        if addr.contains('%') {
            return Err(wrap("IPv6 zones cannot be present in a prefix"));
        }
        let ip = if addr.contains(':') {
            let bytes = parse_v6(addr).map_err(|e| addr_err(addr, e))?;
            if bytes[..10].iter().all(|b| *b == 0) && bytes[10] == 0xff && bytes[11] == 0xff {
                return Err(format!("IPv4-mapped IPv6 address {raw:?} is not allowed"));
            }
            Ip::V6(bytes)
        } else {
            Ip::V4(parse_v4(addr).map_err(|e| addr_err(addr, e))?)
        };
        let max = if ip.is_v4() { 32 } else { 128 };
        if bits.is_empty() || !bits.bytes().all(|b| b.is_ascii_digit()) || (bits.len() > 1 && bits.starts_with('0')) {
            return Err(wrap(&format!("bad bits after slash: {bits:?}")));
        }
        let n: u32 = bits.parse().map_err(|_| wrap(&format!("bad bits after slash: {bits:?}")))?;
        if n > max {
            return Err(wrap("prefix length out of range"));
        }
        Ok(Cidr { ip, bits: n as u8 })
    }

    /// The prefix with the host bits cleared.
    pub fn masked(&self) -> Cidr {
        Cidr { ip: self.ip.masked(self.bits), bits: self.bits }
    }

    /// Whether the prefix contains an address (of the same family).
    pub fn contains_ip(&self, ip: &Ip) -> bool {
        self.ip.is_v4() == ip.is_v4() && ip.masked(self.bits) == self.ip.masked(self.bits)
    }

    /// Whether the prefix contains another prefix entirely.
    pub fn contains_cidr(&self, other: &Cidr) -> bool {
        self.bits <= other.bits && self.contains_ip(&other.ip)
    }
}

impl fmt::Display for Cidr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.ip, self.bits)
    }
}

#[allow(dead_code)]
fn _unused(_: String) {}
