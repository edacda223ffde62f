//! A CRD's conversion webhook and API approval, as the API server checks them on create
//! (apiserver `pkg/util/webhook/validation.go`, apiextensions-apiserver `pkg/apihelpers`).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value as Json;

use crate::field::{Error, ErrorType, Path};

const FORM: &str = "; desired format: https://host[/path]";
const APPROVAL: &str = "api-approved.kubernetes.io";

fn invalid(path: &str, value: impl Into<Json>, detail: &str) -> Error {
    Error::new(ErrorType::Invalid, &Path::named(path), Some(value.into()), detail)
}

/// What Go's `net/url.Parse` finds in a webhook URL: scheme, userinfo, host, query and
/// fragment, or its error (the usual ones: control characters, a missing scheme, a colon in a
/// first path segment, a bad port or host character).
struct Url<'a> {
    scheme: String,
    user: Option<&'a str>,
    host: &'a str,
    query: &'a str,
    fragment: &'a str,
}

fn parse_url(raw: &str) -> Result<Url<'_>, String> {
    let (rest, fragment) = raw.split_once('#').unwrap_or((raw, ""));
    let fail = |why: &str| Err(format!("parse {}: {why}", crate::field::go_quote(rest)));
    if rest.bytes().any(|b| b < 0x20 || b == 0x7f) {
        return fail("net/url: invalid control character in URL");
    }
    // getScheme: letters first, then letters, digits, '+', '-', '.', up to ':'.
    let mut scheme = "";
    let mut after = rest;
    for (i, c) in rest.char_indices() {
        match c {
            'a'..='z' | 'A'..='Z' => {}
            '0'..='9' | '+' | '-' | '.' if i > 0 => {}
            ':' if i == 0 => return fail("missing protocol scheme"),
            ':' => {
                scheme = &rest[..i];
                after = &rest[i + 1..];
                break;
            }
            _ => break,
        }
    }
    let (after, query) = after.split_once('?').unwrap_or((after, ""));
    let mut url = Url { scheme: scheme.to_ascii_lowercase(), user: None, host: "", query, fragment };
    if !after.starts_with('/') {
        if scheme.is_empty() && after.split('/').next().is_some_and(|seg| seg.contains(':')) {
            return fail("first path segment in URL cannot contain colon");
        }
        return Ok(url);
    }
    if let Some(authority) = after.strip_prefix("//") {
        let authority = authority.split('/').next().unwrap_or("");
        let host = match authority.rfind('@') {
            Some(i) => {
                url.user = Some(&authority[..i]);
                &authority[i + 1..]
            }
            None => authority,
        };
        // parseHost: an IP literal in brackets, with an optional port after them.
        if let Some(open) = host.rfind('[') {
            if open > 0 {
                return fail("invalid IP-literal");
            }
            let Some(close) = host.rfind(']') else { return fail("missing ']' in host") };
            let port = &host[close + 1..];
            let valid_port =
                port.is_empty() || (port.starts_with(':') && port[1..].bytes().all(|b| b.is_ascii_digit()));
            if !valid_port {
                return fail(&format!("invalid port {} after host", crate::field::go_quote(port)));
            }
        } else {
            if let Some(i) = host.rfind(':') {
                let port = &host[i..];
                if !port[1..].bytes().all(|b| b.is_ascii_digit()) {
                    return fail(&format!("invalid port {} after host", crate::field::go_quote(port)));
                }
            }
            let allowed = |c: char| c.is_ascii_alphanumeric() || "-._~!$&'()*+,;=:[]<>\"%".contains(c) || !c.is_ascii();
            if let Some(bad) = host.chars().find(|c| !allowed(*c)) {
                return fail(&format!("invalid character {} in host name", crate::field::go_quote(&String::from(bad))));
            }
        }
        url.host = host;
    }
    Ok(url)
}

/// `ValidateWebhookURL` with `forceHttps`.
pub(crate) fn url(path: &str, raw: &str, errors: &mut Vec<Error>) {
    let u = match parse_url(raw) {
        Ok(u) => u,
        Err(e) => {
            let detail = format!("url must be a valid URL: {e}{FORM}");
            errors.push(Error::new(ErrorType::Required, &Path::named(path), None, detail));
            return;
        }
    };
    if u.scheme != "https" {
        errors.push(invalid(path, u.scheme.as_str(), &format!("'https' is the only allowed URL scheme{FORM}")));
    }
    if u.host.is_empty() {
        errors.push(invalid(path, "", &format!("host must be specified{FORM}")));
    }
    if let Some(user) = u.user {
        errors.push(invalid(path, user, "user information is not permitted in the URL"));
    }
    if !u.fragment.is_empty() {
        errors.push(invalid(path, u.fragment, "fragments are not permitted in the URL"));
    }
    if !u.query.is_empty() {
        errors.push(invalid(path, u.query, "query parameters are not permitted in the URL"));
    }
}

/// `ValidateWebhookService` as the CRD code calls it: with the service's name and namespace
/// swapped (validation.go passes `Name, Namespace` to `(namespace, name)`), so an empty
/// namespace is reported at `.name` and the other way round. The port defaults to 443.
pub(crate) fn service(at: &str, service: &Json, errors: &mut Vec<Error>) {
    let text = |k: &str| service.get(k).and_then(Json::as_str).unwrap_or("");
    // Go's `name` parameter holds the namespace, and the other way round.
    let (name_param, namespace_param) = (text("namespace"), text("name"));
    if name_param.is_empty() {
        errors.push(Error::new(ErrorType::Required, &Path::named(&format!("{at}.name")), None, ""));
    }
    if namespace_param.is_empty() {
        errors.push(Error::new(ErrorType::Required, &Path::named(&format!("{at}.namespace")), None, ""));
    }
    let port = service.get("port").and_then(Json::as_i64).unwrap_or(443);
    if !(1..=65535).contains(&port) {
        errors.push(invalid(&format!("{at}.port"), port, "port is not valid: must be between 1 and 65535, inclusive"));
    }
    let Some(p) = service.get("path").and_then(Json::as_str) else { return };
    let at = format!("{at}.path");
    if p == "/" || p.is_empty() {
        return;
    }
    if p == "//" {
        errors.push(invalid(&at, p, "segment[0] may not be empty"));
        return;
    }
    if !p.starts_with('/') {
        errors.push(invalid(&at, p, "must start with a '/'"));
    }
    // Go drops the first byte whatever it is, then one trailing '/'.
    let check = p.get(1..).unwrap_or("");
    let check = check.strip_suffix('/').unwrap_or(check);
    let subdomain = crate::cel::k8s::named_format("dns1123Subdomain");
    for (i, segment) in check.split('/').enumerate() {
        if segment.is_empty() {
            errors.push(invalid(&at, p, &format!("segment[{i}] may not be empty")));
            continue;
        }
        for msg in subdomain.map_or(Vec::new(), |f| f.validate(segment)) {
            errors.push(invalid(&at, p, &format!("segment[{i}]: {msg}")));
        }
    }
}

/// `validateAPIApproval` on create: a group of the Kubernetes community (`k8s.io`,
/// `kubernetes.io` or a subdomain of either) needs `api-approved.kubernetes.io`: a URL with a
/// scheme and host, or a reason starting with `unapproved`.
pub(super) fn api_approval(crd: &Json, group: &str, errors: &mut Vec<Error>) {
    let protected = group == "k8s.io"
        || group.ends_with(".k8s.io")
        || group == "kubernetes.io"
        || group.ends_with(".kubernetes.io");
    if !protected {
        return;
    }
    let annotation = crd
        .get("metadata")
        .and_then(|m| m.get("annotations"))
        .and_then(|a| a.get(APPROVAL))
        .and_then(Json::as_str)
        .unwrap_or("");
    let path = format!("metadata.annotations[{APPROVAL}]");
    if annotation.is_empty() {
        let detail = format!(
            "protected groups must have approval annotation {}, see https://github.com/kubernetes/enhancements/pull/1111",
            crate::field::go_quote(APPROVAL)
        );
        errors.push(Error::new(ErrorType::Required, &Path::named(&path), None, detail));
        return;
    }
    if annotation.starts_with("unapproved") {
        return;
    }
    // url.ParseRequestURI: an absolute URI with a scheme and a host.
    let approved = annotation.split_once("://").is_some_and(|(scheme, rest)| {
        !scheme.is_empty()
            && scheme.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
            && scheme.chars().all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
            && !rest.split(['/', '?']).next().unwrap_or("").is_empty()
            && !annotation.bytes().any(|b| b < 0x20 || b == 0x7f)
    });
    if !approved {
        let detail = format!(
            "protected groups must have approval annotation {} with either a URL or a reason starting with \"unapproved\", see https://github.com/kubernetes/enhancements/pull/1111",
            crate::field::go_quote(APPROVAL)
        );
        errors.push(invalid(&path, annotation, &detail));
    }
}

#[cfg(test)]
mod tests {
    use super::parse_url;

    // Go 1.26 net/url parseHost, as the API server's ValidateWebhookURL reports it.
    #[test]
    fn ip_literals() {
        assert!(parse_url("https://[::1]:8443/x").is_ok());
        assert_eq!(parse_url("https://[::1").err().as_deref(), Some("parse \"https://[::1\": missing ']' in host"));
        assert_eq!(parse_url("https://a[::1]").err().as_deref(), Some("parse \"https://a[::1]\": invalid IP-literal"));
        assert_eq!(
            parse_url("https://[::1]x").err().as_deref(),
            Some("parse \"https://[::1]x\": invalid port \"x\" after host")
        );
    }
}
