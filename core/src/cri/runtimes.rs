//! Which CRI API each container runtime release implements.
//!
//! containerd: the `k8s.io/cri-api` version in each release tag's `go.mod` (before 1.4, the
//! Kubernetes CRI it vendored), and the CRI services its CRI plugin registers: 1.5 and older
//! only `runtime.v1alpha2`, 1.6 and 1.7 both, 2.0 and later only `runtime.v1` (containerd's
//! RELEASES.md says the same of 1.6, 1.7 and 2.0, and lists CRI v1 for 1.5 with Kubernetes
//! 1.23+, but the 1.5 branch registers no v1 service).
//!
//! CRI-O: its README's "Compatibility matrix: CRI-O ⬄ Kubernetes": CRI-O follows Kubernetes
//! minors, so CRI-O 1.N implements the CRI API of Kubernetes 1.N; its server registers
//! `runtime.v1` from 1.20 and `runtime.v1alpha2` until 1.25.

use alloc::format;
use alloc::string::String;

use super::version::{parse_semver, ApiLevel};

/// A container runtime product kubedv knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Product {
    /// containerd (its CRI plugin).
    Containerd,
    /// CRI-O.
    CriO,
}

impl Product {
    /// The product for a name as users write it (`containerd`, `cri-o`, `crio`).
    pub fn from_name(name: &str) -> Option<Product> {
        match name.trim().to_ascii_lowercase().as_str() {
            "containerd" => Some(Product::Containerd),
            "cri-o" | "crio" => Some(Product::CriO),
            _ => None,
        }
    }

    /// The canonical name.
    pub fn name(self) -> &'static str {
        match self {
            Product::Containerd => "containerd",
            Product::CriO => "cri-o",
        }
    }
}

/// What a runtime release implements.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuntimeRelease {
    /// The product.
    pub product: Product,
    /// The CRI API level and majors it serves.
    pub level: ApiLevel,
    /// The CRI API it is built against, as text (`k8s.io/cri-api v0.27.1`).
    pub implements: String,
}

/// One row of the containerd table: releases from `from` (major, minor, patch) up to the next
/// row implement `cri_api` (a cri-api minor, with its text), serving the given majors.
struct ContainerdRow {
    from: (u32, u32, u32),
    minor: u32,
    implements: &'static str,
    v1alpha2: bool,
    v1: bool,
}

const fn row(from: (u32, u32, u32), minor: u32, implements: &'static str, v1alpha2: bool, v1: bool) -> ContainerdRow {
    ContainerdRow { from, minor, implements, v1alpha2, v1 }
}

/// containerd release tags → CRI API (see the module documentation for the sources).
const CONTAINERD: &[ContainerdRow] = &[
    row((1, 2, 0), 12, "the CRI of Kubernetes v1.12.0 (vendored)", true, false),
    row((1, 3, 0), 16, "the CRI of Kubernetes 1.16 (k8s.io/cri-api kubernetes-1.16.0-rc.2)", true, false),
    row((1, 4, 0), 19, "k8s.io/cri-api v0.19.x", true, false),
    row((1, 5, 0), 20, "k8s.io/cri-api v0.20.6", true, false),
    row((1, 6, 0), 23, "k8s.io/cri-api v0.23.1", true, true),
    row((1, 6, 9), 25, "k8s.io/cri-api v0.25.0", true, true),
    row((1, 7, 0), 26, "k8s.io/cri-api v0.26.2", true, true),
    row((1, 7, 1), 27, "k8s.io/cri-api v0.27.1", true, true),
    row((2, 0, 0), 31, "k8s.io/cri-api v0.31.2", false, true),
    row((2, 1, 0), 32, "k8s.io/cri-api v0.32.3", false, true),
    row((2, 2, 0), 34, "k8s.io/cri-api v0.34.1", false, true),
    row((2, 2, 7), 34, "k8s.io/cri-api v0.34.10", false, true),
    row((2, 3, 0), 36, "k8s.io/cri-api v0.36.0", false, true),
    row((2, 3, 4), 36, "k8s.io/cri-api v0.36.3", false, true),
];
/// The newest containerd minor the table covers; later releases are unknown to kubedv.
const CONTAINERD_NEWEST: (u32, u32) = (2, 3);
/// CRI-O releases before 1.9 did not follow Kubernetes minors.
const CRIO_FIRST_MINOR: u32 = 9;

/// Looks up a product release (`containerd`, `1.7.20`).
pub fn lookup(product: Product, version: &str) -> Result<RuntimeRelease, String> {
    let v = parse_semver(version.trim()).ok_or_else(|| {
        format!(
            "{:?} is not a valid {} version: expected a release like {}",
            version,
            product.name(),
            match product {
                Product::Containerd => "1.7.20 or 2.0.0",
                Product::CriO => "1.30.1",
            }
        )
    })?;
    match product {
        Product::Containerd => {
            let at = (v.major, v.minor, v.patch.unwrap_or(0));
            if (v.major, v.minor) > CONTAINERD_NEWEST {
                return Err(format!(
                    "containerd {version} is newer than kubedv's table (up to {}.{}): give the k8s.io/cri-api version from its go.mod instead (--runtime v0.N.P)",
                    CONTAINERD_NEWEST.0, CONTAINERD_NEWEST.1
                ));
            }
            let row = CONTAINERD.iter().rev().find(|r| r.from <= at).ok_or_else(|| {
                format!(
                    "containerd {version} predates CRI v1alpha2 (containerd 1.0 used cri-containerd and CRI v1alpha1)"
                )
            })?;
            Ok(RuntimeRelease {
                product,
                level: ApiLevel { minor: row.minor, v1alpha2: row.v1alpha2, v1: row.v1, prerelease: v.prerelease },
                implements: row.implements.into(),
            })
        }
        Product::CriO => {
            if v.major != 1 || v.minor < CRIO_FIRST_MINOR {
                return Err(format!(
                    "CRI-O {version} is not covered: CRI-O 1.{CRIO_FIRST_MINOR} and later follow Kubernetes minors"
                ));
            }
            Ok(RuntimeRelease {
                product,
                level: ApiLevel::at_minor(v.minor, v.prerelease),
                implements: format!("the CRI API of Kubernetes 1.{}", v.minor),
            })
        }
    }
}

/// Every known release line, for range views: `(label, release)` with the first version of
/// each containerd row and each CRI-O minor up to `crio_newest`.
pub(crate) fn known_lines(crio_newest: u32) -> impl Iterator<Item = (String, RuntimeRelease)> {
    let containerd = CONTAINERD.iter().enumerate().map(|(i, r)| {
        let (ma, mi, pa) = r.from;
        let label = match CONTAINERD.get(i + 1) {
            Some(next) if next.from.0 == ma && next.from.1 == mi => {
                format!("containerd {ma}.{mi}.{pa}–{ma}.{mi}.{}", next.from.2 - 1)
            }
            _ if pa == 0 => format!("containerd {ma}.{mi}.x"),
            _ => format!("containerd {ma}.{mi}.{pa}+"),
        };
        let release = RuntimeRelease {
            product: Product::Containerd,
            level: ApiLevel { minor: r.minor, v1alpha2: r.v1alpha2, v1: r.v1, prerelease: false },
            implements: r.implements.into(),
        };
        (label, release)
    });
    let crio = (CRIO_FIRST_MINOR..=crio_newest).map(|m| {
        let release = RuntimeRelease {
            product: Product::CriO,
            level: ApiLevel::at_minor(m, false),
            implements: format!("the CRI API of Kubernetes 1.{m}"),
        };
        (format!("cri-o 1.{m}.x"), release)
    });
    containerd.chain(crio)
}
