//! URLs as Go's `net/url` parses them for the Kubernetes URL library: `url.ParseRequestURI`
//! decides validity (absolute URLs and absolute paths), then `url.Parse` splits the fragment.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::cel::value::Fail;

/// A parsed URL.
#[derive(Clone, Debug)]
pub struct Url {
    /// The text it was parsed from.
    pub raw: String,
    /// Lower-cased scheme.
    pub scheme: String,
    /// `host[:port]`.
    pub host: String,
    path: String,
    query: String,
}

fn unhex(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|d| d as u8)
}

/// Go's `unescape`: checks `%XX` escapes; `+` becomes a space in query components.
fn unescape(s: &str, query: bool) -> Result<String, String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' => {
                let (Some(h), Some(l)) = (b.get(i + 1).and_then(|c| unhex(*c)), b.get(i + 2).and_then(|c| unhex(*c)))
                else {
                    let end = (i + 3).min(b.len());
                    return Err(format!("invalid URL escape {:?}", &s[i..end]));
                };
                out.push(h * 16 + l);
                i += 3;
            }
            b'+' if query => {
                out.push(b' ');
                i += 1;
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    Ok(String::from_utf8_lossy(&out).into_owned())
}

fn valid_optional_port(port: &str) -> bool {
    port.is_empty() || port.strip_prefix(':').is_some_and(|p| p.bytes().all(|b| b.is_ascii_digit()))
}

fn parse_host(host: &str) -> Result<(), String> {
    if let Some(rest) = host.strip_prefix('[') {
        let Some(end) = rest.find(']') else { return Err(String::from("missing ']' in host")) };
        let port = &rest[end + 1..];
        if !valid_optional_port(port) {
            return Err(format!("invalid port {port:?} after host"));
        }
        return Ok(());
    }
    if let Some(i) = host.rfind(':') {
        let port = &host[i..];
        if !valid_optional_port(port) {
            return Err(format!("invalid port {port:?} after host"));
        }
    }
    for c in host.chars() {
        let ok = c.is_ascii_alphanumeric() || "-._~!$&'()*+,;=:%[]".contains(c) || !c.is_ascii();
        if !ok {
            return Err(format!("invalid character {:?} in host name", String::from(c)));
        }
    }
    unescape(host, false).map(|_| ())
}

impl Url {
    /// `url.ParseRequestURI`, with Go's error text (`parse "x": invalid URI for request`).
    pub fn parse_request_uri(raw: &str) -> Result<Url, Fail> {
        let fail = |why: String| format!("parse {raw:?}: {why}");
        if raw.bytes().any(|b| b < 0x20 || b == 0x7f) {
            return Err(fail(String::from("net/url: invalid control character in URL")));
        }
        if raw.is_empty() {
            return Err(fail(String::from("empty url")));
        }
        let (scheme, rest) = get_scheme(raw).map_err(fail)?;
        let (rest, query) = match rest.find('?') {
            Some(i) => (&rest[..i], &rest[i + 1..]),
            None => (rest, ""),
        };
        if !rest.starts_with('/') {
            if !scheme.is_empty() {
                // An opaque URL (`mailto:x`): valid, with no host or path.
                return Ok(Url {
                    raw: String::from(raw),
                    scheme,
                    host: String::new(),
                    path: String::new(),
                    query: without_fragment(query),
                });
            }
            return Err(fail(String::from("invalid URI for request")));
        }
        let mut host = String::new();
        let mut path = rest;
        if !scheme.is_empty() && rest.starts_with("//") {
            let authority_end = rest[2..].find('/').map_or(rest.len(), |i| i + 2);
            let authority = &rest[2..authority_end];
            path = &rest[authority_end..];
            let host_part = match authority.rfind('@') {
                Some(i) => &authority[i + 1..],
                None => authority,
            };
            parse_host(host_part).map_err(fail)?;
            host = String::from(host_part);
        }
        unescape(path, false).map_err(fail)?;
        // `url.Parse` (used for the accessors) splits off the fragment.
        let (path, query) = if query.is_empty() {
            (without_fragment(path), String::new())
        } else {
            (String::from(path), without_fragment(query))
        };
        Ok(Url { raw: String::from(raw), scheme, host: host.split('#').next().unwrap_or("").into(), path, query })
    }

    /// The host without the port (and without brackets for IPv6).
    pub fn hostname(&self) -> &str {
        let (host, _) = split_host_port(&self.host);
        host
    }

    /// The port, or "".
    pub fn port(&self) -> &str {
        split_host_port(&self.host).1
    }

    /// The path, escaped as in the URL.
    pub fn escaped_path(&self) -> String {
        let valid = self.path.chars().all(|c| c.is_ascii_alphanumeric() || "-._~!$&'()*+,;=:@/%".contains(c));
        if valid {
            return self.path.clone();
        }
        let decoded = unescape(&self.path, false).unwrap_or_default();
        let mut out = String::new();
        for b in decoded.bytes() {
            if b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/".contains(&b) {
                out.push(b as char);
            } else {
                out.push_str(&format!("%{b:02X}"));
            }
        }
        out
    }

    /// Go's `url.Query()`: keys to values in order, invalid pairs skipped.
    pub fn query(&self) -> Vec<(String, Vec<String>)> {
        let mut out: Vec<(String, Vec<String>)> = Vec::new();
        for pair in self.query.split('&') {
            if pair.is_empty() || pair.contains(';') {
                continue;
            }
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            let (Ok(k), Ok(v)) = (unescape(k, true), unescape(v, true)) else { continue };
            match out.iter_mut().find(|(key, _)| *key == k) {
                Some((_, vs)) => vs.push(v),
                None => out.push((k, Vec::from([v]))),
            }
        }
        out
    }
}

fn without_fragment(s: &str) -> String {
    String::from(s.split('#').next().unwrap_or(""))
}

fn split_host_port(host: &str) -> (&str, &str) {
    if let Some(rest) = host.strip_prefix('[') {
        if let Some(end) = rest.find(']') {
            let port = rest[end + 1..].strip_prefix(':').unwrap_or("");
            return (&rest[..end], port);
        }
    }
    match host.rfind(':') {
        Some(i) => (&host[..i], &host[i + 1..]),
        None => (host, ""),
    }
}

/// Go's `getScheme`: a scheme ends at the first ':'; other characters mean there is none.
fn get_scheme(raw: &str) -> Result<(String, &str), String> {
    for (i, c) in raw.char_indices() {
        match c {
            'a'..='z' | 'A'..='Z' => {}
            '0'..='9' | '+' | '-' | '.' if i > 0 => {}
            '0'..='9' | '+' | '-' | '.' => return Ok((String::new(), raw)),
            ':' if i == 0 => return Err(String::from("missing protocol scheme")),
            ':' => return Ok((raw[..i].to_ascii_lowercase(), &raw[i + 1..])),
            _ => return Ok((String::new(), raw)),
        }
    }
    Ok((String::new(), raw))
}
