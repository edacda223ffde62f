//! Version strings of the CRI world and what they imply.

use alloc::string::String;
use core::fmt;

use serde::Serialize;

/// A major version of the CRI API (the protobuf package).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub enum CriMajor {
    /// `runtime.v1alpha2`: removed from Kubernetes in 1.26.
    #[serde(rename = "v1alpha2")]
    V1alpha2,
    /// `runtime.v1`: the stable API, since Kubernetes 1.20.
    #[serde(rename = "v1")]
    V1,
}

impl fmt::Display for CriMajor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CriMajor::V1alpha2 => "v1alpha2",
            CriMajor::V1 => "v1",
        })
    }
}

/// Kubernetes minor that added `runtime.v1` (cri-api v0.20).
pub const V1_SINCE_MINOR: u32 = 20;
/// Kubernetes minor that removed `runtime.v1alpha2` (cri-api v0.26).
pub const V1ALPHA2_REMOVED_MINOR: u32 = 26;

/// What one component speaks: the CRI API feature level (the Kubernetes minor `N` of
/// `k8s.io/cri-api` v0.N) and which CRI major versions it can use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ApiLevel {
    /// The Kubernetes minor of the CRI API (`27` for cri-api v0.27.x or Kubernetes 1.27).
    pub minor: u32,
    /// Whether it speaks `v1alpha2`.
    pub v1alpha2: bool,
    /// Whether it speaks `v1`.
    pub v1: bool,
    /// Whether the version was an alpha/beta/rc tag.
    pub prerelease: bool,
}

impl ApiLevel {
    /// The majors of the CRI API at Kubernetes minor `minor`: v1alpha2 until 1.25, v1 from 1.20.
    pub fn at_minor(minor: u32, prerelease: bool) -> ApiLevel {
        ApiLevel { minor, v1alpha2: minor < V1ALPHA2_REMOVED_MINOR, v1: minor >= V1_SINCE_MINOR, prerelease }
    }

    /// The majors both sides speak, newest first.
    pub fn common_major(&self, other: &ApiLevel) -> Option<CriMajor> {
        if self.v1 && other.v1 {
            Some(CriMajor::V1)
        } else if self.v1alpha2 && other.v1alpha2 {
            Some(CriMajor::V1alpha2)
        } else {
            None
        }
    }

    /// `v1`, `v1alpha2`, or `v1 and v1alpha2`.
    pub fn majors_text(&self) -> &'static str {
        match (self.v1, self.v1alpha2) {
            (true, true) => "v1 and v1alpha2",
            (true, false) => "v1",
            (false, true) => "v1alpha2",
            (false, false) => "no CRI version",
        }
    }
}

/// A version string that is not one of the accepted forms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VersionError {
    /// The offending input.
    pub input: String,
    /// What was expected there.
    pub expected: &'static str,
}

impl fmt::Display for VersionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} is not a valid version: expected {}", self.input, self.expected)
    }
}

#[cfg(feature = "std")]
impl std::error::Error for VersionError {}

/// A parsed `[v]MAJOR.MINOR[.PATCH][-PRERELEASE]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Semver {
    pub major: u32,
    pub minor: u32,
    pub patch: Option<u32>,
    pub prerelease: bool,
}

/// Parses `[v]MAJOR.MINOR[.PATCH][-PRE][+BUILD]`; numbers are decimal without sign.
pub(crate) fn parse_semver(input: &str) -> Option<Semver> {
    let s = input.strip_prefix('v').unwrap_or(input);
    let s = s.split_once('+').map_or(s, |(core, _build)| core);
    let (core, pre) = match s.split_once('-') {
        Some((core, pre)) if !pre.is_empty() && pre.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'.') => {
            (core, true)
        }
        Some(_) => return None,
        None => (s, false),
    };
    let mut parts = core.split('.');
    let major = number(parts.next()?)?;
    let minor = number(parts.next()?)?;
    let patch = match parts.next() {
        Some(p) => Some(number(p)?),
        None => None,
    };
    if parts.next().is_some() {
        return None;
    }
    Some(Semver { major, minor, patch, prerelease: pre })
}

fn number(s: &str) -> Option<u32> {
    if s.is_empty() || s.len() > 6 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

const KUBE_FORMS: &str =
    "a Kubernetes version like 1.30, 1.30.2 or v1.31.0-beta.0 (kubelet and CRI tools follow Kubernetes minors)";
const CRI_API_FORMS: &str = "a k8s.io/cri-api version like v0.27.1 or v0.26.0-beta.0";
const EITHER_FORMS: &str =
    "a Kubernetes version like 1.27.0 (CRI tools follow Kubernetes minors) or a k8s.io/cri-api version like v0.27.1";

/// A kubelet version: `1.N[.P][-pre]`, with or without `v`.
pub(crate) fn parse_kube(input: &str) -> Result<ApiLevel, VersionError> {
    match parse_semver(input.trim()) {
        Some(v) if v.major == 1 => Ok(ApiLevel::at_minor(v.minor, v.prerelease)),
        _ => Err(VersionError { input: input.into(), expected: KUBE_FORMS }),
    }
}

/// A `k8s.io/cri-api` tag: `v0.N.P[-pre]` (the `v` is optional).
pub(crate) fn parse_cri_api(input: &str) -> Result<ApiLevel, VersionError> {
    match parse_semver(input.trim()) {
        Some(v) if v.major == 0 && v.patch.is_some() => Ok(ApiLevel::at_minor(v.minor, v.prerelease)),
        _ => Err(VersionError { input: input.into(), expected: CRI_API_FORMS }),
    }
}

/// A CRI client's version: Kubernetes-style (`1.27.0`) or a cri-api tag (`v0.27.1`).
pub(crate) fn parse_client(input: &str) -> Result<ApiLevel, VersionError> {
    match parse_semver(input.trim()) {
        Some(v) if v.major == 1 => Ok(ApiLevel::at_minor(v.minor, v.prerelease)),
        Some(v) if v.major == 0 && v.patch.is_some() => Ok(ApiLevel::at_minor(v.minor, v.prerelease)),
        _ => Err(VersionError { input: input.into(), expected: EITHER_FORMS }),
    }
}
