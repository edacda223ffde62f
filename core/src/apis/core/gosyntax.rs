//! Go library behaviour that Secret and Pod validation and warnings depend on:
//! `encoding/json`'s `Unmarshal` into a `map[string]interface{}` and into the legacy
//! tolerations annotation's `[]core.Toleration` (its scanner, `scanner.go`, with its error
//! texts; `Unmarshal` checks the whole input before decoding) and the PEM block search of
//! `crypto/tls.X509KeyPair` (`encoding/pem.Decode`).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// `json.Unmarshal(data, &map[string]interface{}{})`: `None` when it succeeds, else the
/// error's text (`invalid character 'x' looking for beginning of value`, `unexpected end of
/// JSON input`, `json: cannot unmarshal array into Go value of type map[string]interface {}`).
pub fn unmarshal_into_map(data: &[u8]) -> Option<String> {
    if let Some(err) = check_valid(data) {
        return Some(err);
    }
    let first = data.iter().find(|c| !is_space(**c)).copied().unwrap_or(b'n');
    let kind = match first {
        b'{' | b'n' => return None,
        b'[' => "array",
        b'"' => "string",
        b't' | b'f' => "bool",
        _ => "number",
    };
    Some(format!("json: cannot unmarshal {kind} into Go value of type map[string]interface {{}}"))
}

/// `json.Unmarshal(data, &[]core.Toleration{})` (helper `GetTolerationsFromPodAnnotations`):
/// the tolerations, as versioned objects (`key`, `operator`, `value`, `effect`,
/// `tolerationSeconds`), or the error's text. The internal type has no JSON tags: keys match
/// its Go field names without regard to case; the first type error is returned once the
/// whole value is decoded, as Go's decoder does.
pub fn unmarshal_tolerations(data: &[u8]) -> Result<Vec<serde_json::Value>, String> {
    use serde_json::Value;
    if let Some(err) = check_valid(data) {
        return Err(err);
    }
    let kind = |v: &Value| match v {
        Value::Object(_) => "object",
        Value::Array(_) => "array",
        Value::String(_) => "string",
        Value::Bool(_) => "bool",
        _ => "number",
    };
    let value: Value = serde_json::from_slice(data).map_err(|e| format!("{e}"))?;
    let items = match value {
        Value::Null => return Ok(Vec::new()),
        Value::Array(items) => items,
        other => {
            return Err(format!("json: cannot unmarshal {} into Go value of type []core.Toleration", kind(&other)))
        }
    };
    const FIELDS: [(&str, &str, &str); 5] = [
        ("Key", "key", "string"),
        ("Operator", "operator", "core.TolerationOperator"),
        ("Value", "value", "string"),
        ("Effect", "effect", "core.TaintEffect"),
        ("TolerationSeconds", "tolerationSeconds", "int64"),
    ];
    let mut first: Option<String> = None;
    let mut out = Vec::new();
    for item in items {
        let mut t = serde_json::Map::new();
        match item {
            Value::Null => {}
            Value::Object(o) => {
                for (k, v) in o {
                    // An exact name first, else one equal without regard to case.
                    let Some(&(go, json, ty)) = FIELDS
                        .iter()
                        .find(|f| f.0 == k)
                        .or_else(|| FIELDS.iter().find(|f| f.0.eq_ignore_ascii_case(&k)))
                    else {
                        continue;
                    };
                    let wrong = |what: String| {
                        format!("json: cannot unmarshal {what} into Go struct field Toleration.{go} of type {ty}")
                    };
                    match (&v, ty) {
                        (Value::Null, _) => {}
                        (Value::String(_), "int64")
                        | (Value::Bool(_), _)
                        | (Value::Object(_), _)
                        | (Value::Array(_), _) => {
                            first.get_or_insert_with(|| wrong(String::from(kind(&v))));
                        }
                        (Value::Number(_), "int64") => match v.as_i64() {
                            Some(n) => {
                                t.insert(String::from(json), Value::from(n));
                            }
                            None => {
                                first.get_or_insert_with(|| wrong(format!("number {v}")));
                            }
                        },
                        (Value::Number(_), _) => {
                            first.get_or_insert_with(|| wrong(String::from("number")));
                        }
                        (Value::String(s), _) => {
                            t.insert(String::from(json), Value::from(s.as_str()));
                        }
                    }
                }
            }
            other => {
                first.get_or_insert_with(|| {
                    format!("json: cannot unmarshal {} into Go value of type core.Toleration", kind(&other))
                });
            }
        }
        out.push(Value::Object(t));
    }
    match first {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\r' | b'\n')
}

/// `quoteChar`.
fn quote_char(c: u8) -> String {
    match c {
        b'\'' => String::from("'\\''"),
        b'"' => String::from("'\"'"),
        _ => {
            let mut s = String::new();
            s.push(char::from(c));
            let q = crate::field::go_quote(&s);
            let inner = q.get(1..q.len().saturating_sub(1)).unwrap_or("");
            format!("'{inner}'")
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum St {
    BeginValueOrEmpty,
    BeginValue,
    BeginStringOrEmpty,
    BeginString,
    EndValue,
    EndTop,
    InString,
    InStringEsc,
    EscU(u8),
    Neg,
    One,
    Zero,
    Dot,
    Dot0,
    E,
    ESign,
    E0,
    Lit(&'static [u8], usize, &'static str),
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Ps {
    ObjectKey,
    ObjectValue,
    ArrayValue,
}

struct Scanner {
    step: St,
    stack: Vec<Ps>,
    end_top: bool,
}

const MAX_DEPTH: usize = 10000;

impl Scanner {
    fn err(c: u8, context: &str) -> Result<(), String> {
        Err(format!("invalid character {} {context}", quote_char(c)))
    }

    fn push(&mut self, c: u8, ps: Ps, next: St) -> Result<(), String> {
        self.stack.push(ps);
        if self.stack.len() > MAX_DEPTH {
            return Self::err(c, "exceeded max depth");
        }
        self.step = next;
        Ok(())
    }

    fn pop(&mut self) {
        self.stack.pop();
        if self.stack.is_empty() {
            self.step = St::EndTop;
            self.end_top = true;
        } else {
            self.step = St::EndValue;
        }
    }

    fn begin_value(&mut self, c: u8) -> Result<(), String> {
        if is_space(c) {
            return Ok(());
        }
        self.step = match c {
            b'{' => return self.push(c, Ps::ObjectKey, St::BeginStringOrEmpty),
            b'[' => return self.push(c, Ps::ArrayValue, St::BeginValueOrEmpty),
            b'"' => St::InString,
            b'-' => St::Neg,
            b'0' => St::Zero,
            b't' => St::Lit(b"rue", 0, "true"),
            b'f' => St::Lit(b"alse", 0, "false"),
            b'n' => St::Lit(b"ull", 0, "null"),
            b'1'..=b'9' => St::One,
            _ => return Self::err(c, "looking for beginning of value"),
        };
        Ok(())
    }

    fn end_value(&mut self, c: u8) -> Result<(), String> {
        let Some(&ps) = self.stack.last() else {
            self.step = St::EndTop;
            self.end_top = true;
            return self.end_top_step(c);
        };
        if is_space(c) {
            self.step = St::EndValue;
            return Ok(());
        }
        match ps {
            Ps::ObjectKey => {
                if c == b':' {
                    if let Some(last) = self.stack.last_mut() {
                        *last = Ps::ObjectValue;
                    }
                    self.step = St::BeginValue;
                    return Ok(());
                }
                Self::err(c, "after object key")
            }
            Ps::ObjectValue => match c {
                b',' => {
                    if let Some(last) = self.stack.last_mut() {
                        *last = Ps::ObjectKey;
                    }
                    self.step = St::BeginString;
                    Ok(())
                }
                b'}' => {
                    self.pop();
                    Ok(())
                }
                _ => Self::err(c, "after object key:value pair"),
            },
            Ps::ArrayValue => match c {
                b',' => {
                    self.step = St::BeginValue;
                    Ok(())
                }
                b']' => {
                    self.pop();
                    Ok(())
                }
                _ => Self::err(c, "after array element"),
            },
        }
    }

    fn end_top_step(&mut self, c: u8) -> Result<(), String> {
        if !is_space(c) {
            return Self::err(c, "after top-level value");
        }
        Ok(())
    }

    fn step(&mut self, c: u8) -> Result<(), String> {
        match self.step {
            St::BeginValueOrEmpty => {
                if is_space(c) {
                    return Ok(());
                }
                if c == b']' {
                    return self.end_value(c);
                }
                self.begin_value(c)
            }
            St::BeginValue => self.begin_value(c),
            St::BeginStringOrEmpty => {
                if is_space(c) {
                    return Ok(());
                }
                if c == b'}' {
                    if let Some(last) = self.stack.last_mut() {
                        *last = Ps::ObjectValue;
                    }
                    return self.end_value(c);
                }
                self.begin_string(c)
            }
            St::BeginString => self.begin_string(c),
            St::EndValue => self.end_value(c),
            St::EndTop => self.end_top_step(c),
            St::InString => {
                match c {
                    b'"' => self.step = St::EndValue,
                    b'\\' => self.step = St::InStringEsc,
                    c if c < 0x20 => return Self::err(c, "in string literal"),
                    _ => {}
                }
                Ok(())
            }
            St::InStringEsc => {
                match c {
                    b'b' | b'f' | b'n' | b'r' | b't' | b'\\' | b'/' | b'"' => self.step = St::InString,
                    b'u' => self.step = St::EscU(0),
                    _ => return Self::err(c, "in string escape code"),
                }
                Ok(())
            }
            St::EscU(n) => {
                if !c.is_ascii_hexdigit() {
                    return Self::err(c, "in \\u hexadecimal character escape");
                }
                self.step = if n == 3 { St::InString } else { St::EscU(n + 1) };
                Ok(())
            }
            St::Neg => match c {
                b'0' => {
                    self.step = St::Zero;
                    Ok(())
                }
                b'1'..=b'9' => {
                    self.step = St::One;
                    Ok(())
                }
                _ => Self::err(c, "in numeric literal"),
            },
            St::One => {
                if c.is_ascii_digit() {
                    return Ok(());
                }
                self.zero(c)
            }
            St::Zero => self.zero(c),
            St::Dot => {
                if c.is_ascii_digit() {
                    self.step = St::Dot0;
                    return Ok(());
                }
                Self::err(c, "after decimal point in numeric literal")
            }
            St::Dot0 => {
                if c.is_ascii_digit() {
                    return Ok(());
                }
                if c == b'e' || c == b'E' {
                    self.step = St::E;
                    return Ok(());
                }
                self.end_value(c)
            }
            St::E => {
                if c == b'+' || c == b'-' {
                    self.step = St::ESign;
                    return Ok(());
                }
                self.e_sign(c)
            }
            St::ESign => self.e_sign(c),
            St::E0 => {
                if c.is_ascii_digit() {
                    return Ok(());
                }
                self.end_value(c)
            }
            St::Lit(rest, i, name) => {
                let want = rest.get(i).copied().unwrap_or(0);
                if c != want {
                    return Err(format!(
                        "invalid character {} in literal {name} (expecting '{}')",
                        quote_char(c),
                        char::from(want)
                    ));
                }
                self.step = if i + 1 == rest.len() { St::EndValue } else { St::Lit(rest, i + 1, name) };
                Ok(())
            }
        }
    }

    fn begin_string(&mut self, c: u8) -> Result<(), String> {
        if is_space(c) {
            return Ok(());
        }
        if c == b'"' {
            self.step = St::InString;
            return Ok(());
        }
        Self::err(c, "looking for beginning of object key string")
    }

    fn zero(&mut self, c: u8) -> Result<(), String> {
        match c {
            b'.' => {
                self.step = St::Dot;
                Ok(())
            }
            b'e' | b'E' => {
                self.step = St::E;
                Ok(())
            }
            _ => self.end_value(c),
        }
    }

    fn e_sign(&mut self, c: u8) -> Result<(), String> {
        if c.is_ascii_digit() {
            self.step = St::E0;
            return Ok(());
        }
        Self::err(c, "in exponent of numeric literal")
    }
}

/// `checkValid`: the scanner over the whole input, then `eof`.
fn check_valid(data: &[u8]) -> Option<String> {
    let mut s = Scanner { step: St::BeginValue, stack: Vec::new(), end_top: false };
    for &c in data {
        if let Err(e) = s.step(c) {
            return Some(e);
        }
    }
    if s.end_top {
        return None;
    }
    if let Err(e) = s.step(b' ') {
        return Some(e);
    }
    if s.end_top {
        return None;
    }
    Some(String::from("unexpected end of JSON input"))
}

/// The types of the PEM blocks `pem.Decode` finds in order: a block needs a
/// `-----BEGIN TYPE-----` line, a matching `-----END TYPE-----` line and a base64 body.
fn pem_block_types(data: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(data);
    let mut out = Vec::new();
    let mut rest: &str = &text;
    while let Some(start) = rest.find("-----BEGIN ") {
        let after = &rest[start + 11..];
        let line_end = after.find('\n').unwrap_or(after.len());
        let line = after[..line_end].trim_end_matches('\r');
        let Some(ty) = line.strip_suffix("-----") else {
            rest = after;
            continue;
        };
        let body_start = &after[line_end.min(after.len())..];
        let end_marker = format!("-----END {ty}-----");
        let Some(end) = body_start.find(&end_marker) else {
            rest = after;
            continue;
        };
        let body: String = body_start[..end].chars().filter(|c| !c.is_whitespace()).collect();
        if body.contains(':') || crate::cel::functions::base64_decode(&body).is_none() {
            rest = after;
            continue;
        }
        out.push(String::from(ty));
        rest = &body_start[end + end_marker.len()..];
    }
    out
}

/// The PEM checks of `tls.X509KeyPair`: its error's text, or `None` when the PEM blocks are
/// where it wants them (the certificate and key themselves are not parsed: a mismatched or
/// malformed pair passes here).
pub fn x509_key_pair_pem(cert: &[u8], key: &[u8]) -> Option<String> {
    let types = pem_block_types(cert);
    if !types.iter().any(|t| t == "CERTIFICATE") {
        if types.is_empty() {
            return Some(String::from("tls: failed to find any PEM data in certificate input"));
        }
        if types.len() == 1 && types.first().is_some_and(|t| t.ends_with("PRIVATE KEY")) {
            return Some(String::from(
                "tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched",
            ));
        }
        let skipped: Vec<&str> = types.iter().filter(|t| *t != "CERTIFICATE").map(String::as_str).collect();
        return Some(format!(
            "tls: failed to find \"CERTIFICATE\" PEM block in certificate input after skipping PEM blocks of the following types: [{}]",
            skipped.join(" ")
        ));
    }
    let mut skipped: Vec<String> = Vec::new();
    for t in pem_block_types(key) {
        if t == "PRIVATE KEY" || t.ends_with(" PRIVATE KEY") {
            return None;
        }
        skipped.push(t);
    }
    if skipped.is_empty() {
        return Some(String::from("tls: failed to find any PEM data in key input"));
    }
    if skipped.len() == 1 && skipped.first().is_some_and(|t| t == "CERTIFICATE") {
        return Some(String::from("tls: found a certificate rather than a key in the PEM for the private key"));
    }
    Some(format!(
        "tls: failed to find PEM block with type ending in \"PRIVATE KEY\" in key input after skipping PEM blocks of the following types: [{}]",
        skipped.join(" ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    // encoding/json scanner_test.go / TestValidateSecret's dockerconfigjson cases.
    #[test]
    fn go_json_errors() {
        assert_eq!(unmarshal_into_map(b"{\"auths\":{}}"), None);
        assert_eq!(unmarshal_into_map(b"null"), None);
        assert_eq!(unmarshal_into_map(b""), Some(String::from("unexpected end of JSON input")));
        assert_eq!(unmarshal_into_map(b"{"), Some(String::from("unexpected end of JSON input")));
        assert_eq!(
            unmarshal_into_map(b"x"),
            Some(String::from("invalid character 'x' looking for beginning of value"))
        );
        assert_eq!(unmarshal_into_map(b"{\"a\" 1}"), Some(String::from("invalid character '1' after object key")));
        assert_eq!(unmarshal_into_map(b"{} x"), Some(String::from("invalid character 'x' after top-level value")));
        assert_eq!(
            unmarshal_into_map(b"tru "),
            Some(String::from("invalid character ' ' in literal true (expecting 'e')"))
        );
        assert_eq!(
            unmarshal_into_map(b"[1]"),
            Some(String::from("json: cannot unmarshal array into Go value of type map[string]interface {}"))
        );
        assert_eq!(
            unmarshal_into_map(b"\"s\""),
            Some(String::from("json: cannot unmarshal string into Go value of type map[string]interface {}"))
        );
        assert_eq!(
            unmarshal_into_map(b"{'a':1}"),
            Some(String::from("invalid character '\\'' looking for beginning of object key string"))
        );
    }

    #[test]
    fn pem_checks() {
        assert_eq!(
            x509_key_pair_pem(b"nope", b"nope").as_deref(),
            Some("tls: failed to find any PEM data in certificate input")
        );
        let cert = b"-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
        let key = b"-----BEGIN RSA PRIVATE KEY-----\nMIIB\n-----END RSA PRIVATE KEY-----\n";
        assert_eq!(x509_key_pair_pem(cert, key), None);
        assert_eq!(
            x509_key_pair_pem(cert, cert).as_deref(),
            Some("tls: found a certificate rather than a key in the PEM for the private key")
        );
        assert_eq!(
            x509_key_pair_pem(key, cert).as_deref(),
            Some("tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched")
        );
    }

    /// encoding/json into `[]core.Toleration` (the legacy tolerations annotation; the API
    /// server's words checked by the `builtin` suite, tolerations-annotation.yaml).
    #[test]
    fn tolerations_as_go_unmarshals_them() {
        let t = |s: &str| unmarshal_tolerations(s.as_bytes());
        assert_eq!(
            t(r#"[{"KEY": "x", "operator": "Exists", "tolerationSeconds": 30, "other": 1}]"#).unwrap(),
            [serde_json::json!({"key": "x", "operator": "Exists", "tolerationSeconds": 30})]
        );
        assert_eq!(t("null").unwrap(), Vec::<serde_json::Value>::new());
        assert_eq!(
            t("[{\"key\": \"a\",}]").unwrap_err(),
            "invalid character '}' looking for beginning of object key string"
        );
        assert_eq!(
            t(r#"{"key": "a"}"#).unwrap_err(),
            "json: cannot unmarshal object into Go value of type []core.Toleration"
        );
        assert_eq!(
            t(r#"[{"key": 1, "value": true}]"#).unwrap_err(),
            "json: cannot unmarshal number into Go struct field Toleration.Key of type string"
        );
        assert_eq!(
            t(r#"[{"tolerationSeconds": 1.5}]"#).unwrap_err(),
            "json: cannot unmarshal number 1.5 into Go struct field Toleration.TolerationSeconds of type int64"
        );
        assert_eq!(t("[7]").unwrap_err(), "json: cannot unmarshal number into Go value of type core.Toleration");
    }
}
