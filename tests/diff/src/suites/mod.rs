//! The suites: inputs kept in the repository made into oracle cases, and both answers brought
//! to one shape.
//!
//! | suite | oracle | cases |
//! |---|---|---|
//! | `yaml` | kubectl's reading (sigs.k8s.io/yaml) | every YAML file of the corpora and fixtures |
//! | `cel` | Kubernetes' CEL environment (apiserver v0.37.2) | the expressions of apiserver's CEL library tests (`tests/corpus/cel`) and of kubedv's CEL tables |
//! | `cel-conformance` | cel-go v0.29.2 | the CEL specification's conformance tests kubedv runs |
//! | `declarative` | validation-gen v0.37.2 | the declarative validation tables' types and objects |
//! | `crd-corpus` | kube-apiserver | every released CRD of `tests/corpus/crds`, created |
//! | `crd-objects` | kube-apiserver | the corpus' custom resources, created under their CRD |
//! | `crd-catalog` | kube-apiserver | every CRD of the ecosystem catalog (`crds/catalog`), created |
//! | `crd-catalog-objects` | kube-apiserver | real custom resources of the catalog's projects and targeted mistakes, kubedv routing them to the CRD catalog |
//! | `fuzz-yaml`, `fuzz-crd`, `fuzz-go`, `fuzz-builtin`, `fuzz-cel`, `fuzz-policy` | as their path | the differences the differential fuzzer found (`tests/oracle/fuzz/`) |
//! | `builtin` | kube-apiserver | built-in kinds of real manifests (`tests/corpus/manifests`) and targeted cases (`tests/oracle/cases/builtin`) |
//! | `policy` | kube-apiserver's admission plugins | the Kubernetes documentation's admission policies (`tests/corpus/policies`) and the requests of `tests/oracle/cases/policy` |
//! | `apiextensions-*` | kube-apiserver | apiextensions-apiserver's test tables (`tests/corpus/apiextensions`) as CRDs and objects |

mod apiextensions;
pub mod builtin;
mod cel;
mod celconf;
mod crds;
mod declarative;
mod fuzz;
mod policy;
mod verdict;
mod yaml;

use crate::Suite;

pub fn all() -> Vec<Suite> {
    let mut out =
        vec![yaml::SUITE, cel::SUITE, celconf::SUITE, declarative::SUITE, crds::CORPUS, crds::CATALOG, crds::OBJECTS];
    out.push(crds::CATALOG_OBJECTS);
    out.extend(apiextensions::SUITES);
    out.push(apiextensions::SCHEMAS);
    out.extend(fuzz::SUITES);
    out.push(builtin::SUITE);
    out.push(policy::SUITE);
    out
}

/// How answers of an oracle mode are compared (`kubedv-diff judge`, the differential fuzzer).
pub fn items_of_mode(mode: &str) -> Option<fn(&crate::Case, &serde_json::Value) -> Vec<crate::Item>> {
    match mode {
        "yaml" => Some(yaml::items),
        "apiserver" => Some(crds::request_items),
        "declarative" => Some(declarative::items),
        "cel" => Some(cel::items),
        // Not an oracle mode: the `apiserver` answers of admission policy cases.
        "policy" => Some(policy::items),
        _ => None,
    }
}

pub fn find(name: &str) -> Option<Suite> {
    all().into_iter().find(|s| s.name == name)
}

/// The files under `dirs` (relative to the repository's root; a file stands for itself) whose
/// names end in one of `exts`, sorted, with their text: (relative path, text).
fn files(dirs: &[&str], exts: &[&str]) -> Result<Vec<(String, String)>, String> {
    let root = crate::root();
    let mut out = Vec::new();
    let mut stack: Vec<std::path::PathBuf> = dirs.iter().map(|d| root.join(d)).collect();
    while let Some(dir) = stack.pop() {
        if dir.is_file() {
            let text = std::fs::read_to_string(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            out.push((dir.strip_prefix(&root).unwrap_or(&dir).to_string_lossy().replace('\\', "/"), text));
            continue;
        }
        let entries = std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if exts.iter().any(|x| path.to_string_lossy().ends_with(x)) {
                let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
                let rel = path.strip_prefix(&root).unwrap_or(&path).to_string_lossy().replace('\\', "/");
                out.push((rel, text));
            }
        }
    }
    out.sort();
    Ok(out)
}
