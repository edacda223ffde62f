//! Kubernetes' own API packages, the source of built-in kinds: the catalog of the chosen
//! Kubernetes version embedded in the binary (`catalog/1.N.gz`, written by `cargo xtask
//! catalog`), or a k8s.io/api checkout given with `--k8s-api DIR`.

use std::io::Read;
use std::path::Path;
use std::sync::OnceLock;

use kubedv_core::builtin::Catalog;
use kubedv_core::declarative::Dependency;

use crate::UsageError;

/// The embedded catalogs, one per supported Kubernetes version (core's `shadow::VERSIONS`).
const EMBEDDED: &[(u32, &[u8])] = &[
    (33, include_bytes!("../../catalog/1.33.gz")),
    (34, include_bytes!("../../catalog/1.34.gz")),
    (35, include_bytes!("../../catalog/1.35.gz")),
    (36, include_bytes!("../../catalog/1.36.gz")),
    (37, include_bytes!("../../catalog/1.37.gz")),
];

/// The text of each embedded catalog, decompressed the first time it is needed.
static TEXTS: [OnceLock<Result<String, String>>; EMBEDDED.len()] = [const { OnceLock::new() }; EMBEDDED.len()];

/// The catalog to route built-in kinds to: `dir`'s packages when given, else the embedded
/// catalog of Kubernetes 1.`minor`.
pub(crate) fn catalog(dir: Option<&str>, minor: u32) -> Result<Catalog<'static>, UsageError> {
    let text: &'static str = match dir {
        Some(dir) => Box::leak(from_dir(Path::new(dir), minor)?.into_boxed_str()),
        None => embedded(minor)?,
    };
    Catalog::parse(text).map_err(UsageError)
}

/// `deps` with the catalog's packages for the imports of `texts` that no dependency answers
/// (a pasted file's `corev1 "k8s.io/api/core/v1"`), and the packages those import.
pub(crate) fn complete<'a>(
    mut deps: Vec<Dependency<'a>>,
    texts: &[&str],
    catalog: &'a Catalog<'a>,
) -> Vec<Dependency<'a>> {
    for text in texts {
        for d in catalog.dependencies_of_source(text) {
            if !deps.iter().any(|e| e.import_path == d.import_path) {
                deps.push(d);
            }
        }
    }
    deps
}

fn embedded(minor: u32) -> Result<&'static str, UsageError> {
    let i = EMBEDDED
        .iter()
        .position(|e| e.0 == minor)
        .ok_or_else(|| UsageError(format!("no built-in kinds catalog for Kubernetes 1.{minor}")))?;
    let text = TEXTS[i].get_or_init(|| {
        let mut text = String::new();
        flate2::read::GzDecoder::new(EMBEDDED[i].1).read_to_string(&mut text).map(|_| text).map_err(|e| e.to_string())
    });
    text.as_deref().map_err(|e| UsageError(format!("the built-in catalog of 1.{minor} is damaged: {e}")))
}

/// A checkout of k8s.io/api as a catalog: every `GROUP/VERSION/types.go`, its group read from
/// the package's `+groupName` or `GroupName`, as `cargo xtask catalog` reads a release.
fn from_dir(dir: &Path, minor: u32) -> Result<String, UsageError> {
    if !dir.join("core/v1/types.go").is_file() {
        return Err(UsageError(format!(
            "--k8s-api {}: no core/v1/types.go there (expected a k8s.io/api checkout)",
            dir.display()
        )));
    }
    let mut packages = Vec::new();
    for group_dir in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        for version_dir in std::fs::read_dir(group_dir.path()).into_iter().flatten().flatten() {
            let path = version_dir.path();
            let Ok(source) = std::fs::read_to_string(path.join("types.go")) else { continue };
            let rel = path.strip_prefix(dir).unwrap_or(&path).to_string_lossy().replace('\\', "/");
            let group = if rel == "core/v1" {
                String::new()
            } else {
                let text = ["doc.go", "register.go"]
                    .iter()
                    .filter_map(|f| std::fs::read_to_string(path.join(f)).ok())
                    .collect::<String>();
                let Some(group) = kubedv_core::golang::group_name(&text) else { continue };
                group.to_string()
            };
            packages.push((format!("k8s.io/api/{rel}"), group, source));
        }
    }
    Ok(Catalog::write(&format!("1.{minor}"), &[format!("k8s.io/api {}", dir.display())], &packages))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every supported version has its catalog, each readable and naming its version.
    #[test]
    fn every_supported_version_has_a_catalog() {
        let supported: Vec<u32> = kubedv_core::declarative::shadow::VERSIONS.iter().map(|v| v.minor).collect();
        let embedded: Vec<u32> = EMBEDDED.iter().map(|e| e.0).collect();
        assert_eq!(supported, embedded);
        assert_eq!(TEXTS.len(), EMBEDDED.len());
        for minor in supported {
            let Ok(catalog) = catalog(None, minor) else { panic!("no catalog for 1.{minor}") };
            assert_eq!(catalog.kubernetes, format!("1.{minor}"));
            assert!(catalog.serving("apps/v1").is_some() && catalog.serving("v1").is_some());
        }
    }
}
