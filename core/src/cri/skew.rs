//! The CRI API version skew policy (SIG Node, "CRI API version skew policy").
//!
//! A client (the kubelet, crictl, an image-service proxy, a daemonset) works with a server (the
//! container runtime, or an image-service proxy the kubelet calls) when both speak the same
//! CRI major version and the server's `k8s.io/cri-api` minor is at most three Kubernetes minors
//! older or newer than the client's.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::Serialize;

use super::runtimes::{self, Product};
use super::version::{parse_client, parse_cri_api, parse_kube, ApiLevel};

/// How many Kubernetes minors the policy lets a runtime be older or newer than its client.
pub const MAX_SKEW: u32 = 3;

/// A component on the node, resolved to the CRI API it speaks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Component {
    /// `kubelet`, `containerd`, `crictl`, …
    pub name: String,
    /// The version as given.
    pub version: String,
    /// The CRI API level and majors.
    pub level: ApiLevel,
    /// What it is built against, when known (`k8s.io/cri-api v0.27.1`).
    pub implements: Option<String>,
}

impl Component {
    /// The kubelet at a Kubernetes version.
    pub fn kubelet(version: &str) -> Result<Component, String> {
        let level = parse_kube(version).map_err(|e| format!("--kubelet: {e}"))?;
        Ok(Component { name: "kubelet".into(), version: version.trim().into(), level, implements: None })
    }

    /// A runtime: `v0.N.P` (the cri-api it implements) or `PRODUCT=VERSION`.
    pub fn runtime(spec: &str) -> Result<Component, String> {
        let spec = spec.trim();
        if let Some((product, version)) = spec.split_once('=') {
            let p = Product::from_name(product).ok_or_else(|| {
                format!("--runtime: unknown runtime {product:?}: kubedv knows containerd and cri-o; for another runtime give the k8s.io/cri-api version it implements (v0.N.P)")
            })?;
            let release = runtimes::lookup(p, version).map_err(|e| format!("--runtime: {e}"))?;
            return Ok(Component {
                name: p.name().into(),
                version: version.trim().into(),
                level: release.level,
                implements: Some(release.implements),
            });
        }
        let level = parse_cri_api(spec).map_err(|e| {
            format!("--runtime: {e}, or a runtime and its version like containerd=1.7.20 or cri-o=1.30.1")
        })?;
        Ok(Component {
            name: "container runtime".into(),
            version: spec.into(),
            level,
            implements: Some(format!("k8s.io/cri-api {}", with_v(spec))),
        })
    }

    /// Another CRI component given as `NAME=VERSION` (Kubernetes-style or a cri-api tag).
    pub fn named(flag: &str, spec: &str) -> Result<Component, String> {
        let (name, version) = spec
            .split_once('=')
            .filter(|(n, _)| !n.trim().is_empty())
            .ok_or_else(|| format!("{flag}: expected NAME=VERSION (e.g. crictl=1.27.0), got {spec:?}"))?;
        let level = parse_client(version).map_err(|e| format!("{flag} {name}: {e}"))?;
        let version = version.trim();
        let implements = version.starts_with("v0.").then(|| format!("k8s.io/cri-api {version}"));
        Ok(Component { name: name.trim().into(), version: version.into(), level, implements })
    }

    fn label(&self) -> String {
        format!("{} {}", self.name, self.version)
    }
}

fn with_v(s: &str) -> String {
    if s.starts_with('v') {
        s.to_string()
    } else {
        format!("v{s}")
    }
}

/// The verdict for one client→server pair.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Pair {
    /// The calling component.
    pub client: String,
    /// Its version as given.
    pub client_version: String,
    /// The called component.
    pub server: String,
    /// Its version as given.
    pub server_version: String,
    /// Whether the policy covers the pair.
    pub supported: bool,
    /// The policy sentence that decides it, applied to these versions.
    pub reason: String,
}

/// The verdicts for a node: `supported` only when every pair is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Report {
    /// Whether every pair is supported.
    pub supported: bool,
    /// One verdict per client→server pair.
    pub pairs: Vec<Pair>,
}

/// Judges one client→server pair.
pub fn judge(client: &Component, server: &Component) -> Pair {
    let (supported, reason) = verdict(client, server);
    Pair {
        client: client.name.clone(),
        client_version: client.version.clone(),
        server: server.name.clone(),
        server_version: server.version.clone(),
        supported,
        reason,
    }
}

fn verdict(client: &Component, server: &Component) -> (bool, String) {
    let (c, s) = (&client.level, &server.level);
    let server_api = match &server.implements {
        Some(text) => format!("{} (Kubernetes 1.{} CRI, {})", server.label(), s.minor, text),
        None => format!("{} (Kubernetes 1.{} CRI)", server.label(), s.minor),
    };
    let Some(major) = c.common_major(s) else {
        return (
            false,
            format!(
                "{} speaks CRI {} and {server_api} serves CRI {}: they share no major CRI version; the policy needs the same major version (v1alpha2 was removed in Kubernetes 1.26)",
                client.label(),
                c.majors_text(),
                s.majors_text()
            ),
        );
    };
    let mut reason = if s.minor + MAX_SKEW < c.minor {
        let d = c.minor - s.minor;
        return (
            false,
            format!(
                "{server_api} is {d} minor versions older than {}: a runtime of the same CRI major version is supported up to three Kubernetes minor versions back (kubelet 1.26 works with k8s.io/cri-api v0.23.0+)",
                client.label()
            ),
        );
    } else if c.minor + MAX_SKEW < s.minor {
        let d = s.minor - c.minor;
        return (
            false,
            format!(
                "{server_api} is {d} minor versions newer than {}: a runtime of the same CRI major version is supported up to three minor versions up (kubelet 1.22 works with k8s.io/cri-api v0.25.5)",
                client.label()
            ),
        );
    } else if s.minor < c.minor {
        format!(
            "{server_api} is {} older than {}: within three minor versions back on CRI {major} (older runtimes must degrade new features gracefully)",
            minors(c.minor - s.minor),
            client.label()
        )
    } else if s.minor > c.minor {
        format!(
            "{server_api} is {} newer than {}: within three minor versions up on CRI {major} (new CRI features must not change old calls)",
            minors(s.minor - c.minor),
            client.label()
        )
    } else {
        format!("{server_api} matches {}'s minor version on CRI {major}", client.label())
    };
    if c.prerelease || s.prerelease {
        reason.push_str("; alpha and beta cri-api tags are meant to be backward and forward compatible");
    }
    (true, reason)
}

fn minors(n: u32) -> String {
    if n == 1 {
        "1 minor version".into()
    } else {
        format!("{n} minor versions")
    }
}

/// The node to check: the kubelet and runtime, other CRI clients of the runtime (crictl,
/// daemonsets: `NAME=VERSION`), and image-service proxies (`NAME=VERSION`), which the kubelet
/// calls and which call the runtime.
pub fn check_node(
    kubelet: &str,
    runtime: &str,
    clients: &[String],
    image_services: &[String],
) -> Result<Report, String> {
    let kubelet = Component::kubelet(kubelet)?;
    let runtime = Component::runtime(runtime)?;
    let clients = clients.iter().map(|c| Component::named("--client", c)).collect::<Result<Vec<_>, _>>()?;
    let proxies =
        image_services.iter().map(|p| Component::named("--image-service", p)).collect::<Result<Vec<_>, _>>()?;
    let mut pairs = alloc::vec![judge(&kubelet, &runtime)];
    for proxy in &proxies {
        pairs.push(judge(&kubelet, proxy));
        pairs.push(judge(proxy, &runtime));
    }
    pairs.extend(clients.iter().map(|c| judge(c, &runtime)));
    Ok(Report { supported: pairs.iter().all(|p| p.supported), pairs })
}

/// A supported range, with the known runtime releases inside it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Range {
    /// What the range is for (`kubelet 1.30.2`).
    pub subject: String,
    /// The first supported minor (`27` for cri-api v0.27 or kubelet 1.27).
    pub from: u32,
    /// The last supported minor.
    pub to: u32,
    /// The range in words.
    pub text: String,
    /// Known runtime release lines inside the range (for a kubelet).
    pub runtimes: Vec<String>,
}

/// Newest CRI-O minor listed in range views (later ones follow the same rule).
const CRIO_NEWEST_LISTED: u32 = 36;

/// For a kubelet version: the runtimes (cri-api versions and known releases) the policy covers.
pub fn range_for_kubelet(version: &str) -> Result<Range, String> {
    let kubelet = Component::kubelet(version)?;
    let k = kubelet.level;
    let supports = |minor: u32| k.common_major(&ApiLevel::at_minor(minor, false)).is_some();
    let (from, to) = span(k.minor, supports).ok_or("no CRI API version shares a major version with this kubelet")?;
    let runtimes = runtimes::known_lines(CRIO_NEWEST_LISTED)
        .filter(|(_, release)| {
            let l = release.level;
            k.common_major(&l).is_some() && l.minor + MAX_SKEW >= k.minor && l.minor <= k.minor + MAX_SKEW
        })
        .map(|(label, release)| format!("{label} ({})", release.implements))
        .collect();
    Ok(Range {
        subject: kubelet.label(),
        from,
        to,
        text: format!(
            "{} works with runtimes implementing k8s.io/cri-api v0.{from}.0 through v0.{to}.x on CRI {}",
            kubelet.label(),
            k.majors_text()
        ),
        runtimes,
    })
}

/// For a runtime (`v0.N.P` or `PRODUCT=VERSION`): the kubelet versions the policy covers.
pub fn range_for_runtime(spec: &str) -> Result<Range, String> {
    let runtime = Component::runtime(spec)?;
    let r = runtime.level;
    let supports = |minor: u32| ApiLevel::at_minor(minor, false).common_major(&r).is_some();
    let (from, to) =
        span(r.minor, supports).ok_or("no kubelet version shares a major CRI version with this runtime")?;
    Ok(Range {
        subject: runtime.label(),
        from,
        to,
        text: format!("{} works with kubelet 1.{from} through 1.{to} (CRI {})", runtime.label(), r.majors_text()),
        runtimes: Vec::new(),
    })
}

/// The minors within three of `center` for which `ok` holds (contiguous: majors change once).
fn span(center: u32, ok: impl Fn(u32) -> bool) -> Option<(u32, u32)> {
    let mut inside = (center.saturating_sub(MAX_SKEW)..=center + MAX_SKEW).filter(|m| ok(*m));
    let from = inside.next()?;
    let to = inside.last().unwrap_or(from);
    Some((from, to))
}
