//! Semantic versions as `github.com/blang/semver/v4` parses and orders them (the Kubernetes
//! semver library), including `normalizeAndParse` of apiserver `pkg/cel/library/semverlib.go`.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::cmp::Ordering;
use core::fmt;

use crate::cel::value::Fail;

/// A semantic version.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Semver {
    /// Major.
    pub major: u64,
    /// Minor.
    pub minor: u64,
    /// Patch.
    pub patch: u64,
    /// Pre-release identifiers.
    pub pre: Vec<String>,
    /// Build metadata.
    pub build: Vec<String>,
}

fn is_numeric(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

fn valid_ident_chars(s: &str) -> bool {
    s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

fn number(s: &str, what: &str) -> Result<u64, Fail> {
    if !is_numeric(s) {
        return Err(format!("Invalid character(s) found in {what} number {s:?}"));
    }
    if s.len() > 1 && s.starts_with('0') {
        let cap = match what {
            "major" => "Major",
            "minor" => "Minor",
            _ => "Patch",
        };
        return Err(format!("{cap} number must not contain leading zeroes {s:?}"));
    }
    s.parse().map_err(|_| format!("Invalid character(s) found in {what} number {s:?}"))
}

impl Semver {
    /// `semver.Parse`.
    pub fn parse(s: &str) -> Result<Semver, Fail> {
        if s.is_empty() {
            return Err("Version string empty".into());
        }
        let parts: Vec<&str> = s.splitn(3, '.').collect();
        if parts.len() != 3 {
            return Err("No Major.Minor.Patch elements found".into());
        }
        let major = number(parts[0], "major")?;
        let minor = number(parts[1], "minor")?;
        let rest = parts[2];
        let patch_end = rest.find(['+', '-']).unwrap_or(rest.len());
        let patch = number(&rest[..patch_end], "patch")?;
        let mut v = Semver { major, minor, patch, pre: Vec::new(), build: Vec::new() };
        let tail = &rest[patch_end..];
        let (pre_text, build_text) = match tail.find('+') {
            Some(i) => (&tail[..i], Some(&tail[i + 1..])),
            None => (tail, None),
        };
        if let Some(pre) = pre_text.strip_prefix('-') {
            for p in pre.split('.') {
                if p.is_empty() {
                    return Err("Prerelease is empty".into());
                }
                if !valid_ident_chars(p) {
                    return Err(format!("Invalid character(s) found in prerelease {p:?}"));
                }
                if is_numeric(p) && p.len() > 1 && p.starts_with('0') {
                    return Err(format!("Numeric PreRelease version must not contain leading zeroes {p:?}"));
                }
                v.pre.push(String::from(p));
            }
        }
        if let Some(build) = build_text {
            for b in build.split('.') {
                if b.is_empty() {
                    return Err(format!("Build meta data can not be empty {b:?}"));
                }
                if !valid_ident_chars(b) {
                    return Err(format!("Invalid character(s) found in build meta data {b:?}"));
                }
                v.build.push(String::from(b));
            }
        }
        Ok(v)
    }

    /// `normalizeAndParse`: an optional `v`, leading zeros removed, missing parts filled in.
    pub fn parse_normalized(s: &str) -> Result<Semver, Fail> {
        let s = s.strip_prefix('v').unwrap_or(s);
        let mut parts: Vec<String> = s.splitn(3, '.').map(String::from).collect();
        for p in parts.iter_mut() {
            if p.len() > 1 {
                let trimmed = p.trim_start_matches('0');
                *p = if trimmed.is_empty() || !trimmed.as_bytes()[0].is_ascii_digit() {
                    format!("0{trimmed}")
                } else {
                    String::from(trimmed)
                };
            }
        }
        if parts.len() < 3 {
            if parts.last().is_some_and(|p| p.contains(['+', '-'])) {
                return Err("short version cannot contain PreRelease/Build meta data".into());
            }
            while parts.len() < 3 {
                parts.push(String::from("0"));
            }
        }
        Semver::parse(&parts.join("."))
    }

    /// Precedence (semver 2.0.0 §11; build metadata ignored).
    pub fn compare(&self, other: &Semver) -> Ordering {
        let core = (self.major, self.minor, self.patch).cmp(&(other.major, other.minor, other.patch));
        if core != Ordering::Equal {
            return core;
        }
        match (self.pre.is_empty(), other.pre.is_empty()) {
            (true, true) => return Ordering::Equal,
            (true, false) => return Ordering::Greater,
            (false, true) => return Ordering::Less,
            _ => {}
        }
        for (a, b) in self.pre.iter().zip(other.pre.iter()) {
            let o = match (is_numeric(a), is_numeric(b)) {
                (true, true) => a.parse::<u64>().unwrap_or(0).cmp(&b.parse::<u64>().unwrap_or(0)),
                (true, false) => Ordering::Less,
                (false, true) => Ordering::Greater,
                (false, false) => a.cmp(b),
            };
            if o != Ordering::Equal {
                return o;
            }
        }
        self.pre.len().cmp(&other.pre.len())
    }
}

impl fmt::Display for Semver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)?;
        if !self.pre.is_empty() {
            write!(f, "-{}", self.pre.join("."))?;
        }
        if !self.build.is_empty() {
            write!(f, "+{}", self.build.join("."))?;
        }
        Ok(())
    }
}
