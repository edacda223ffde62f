//! `fuzz-yaml`, `fuzz-crd`, `fuzz-go`, `fuzz-builtin`, `fuzz-cel`,
//! `fuzz-policy`: the inputs on which the differential fuzzer
//! (`cargo xtask fuzz-diff`) found kubedv and Kubernetes differing, kept as cases
//! (`tests/oracle/fuzz/<path>.jsonl`, one oracle case per line, as `kubedv-fuzz cases` made it):
//! once fixed they agree, or they stay listed as explained exceptions.

use serde_json::Value;

use crate::{Case, Suite};

pub const SUITES: [Suite; 6] = [
    Suite {
        name: "fuzz-yaml",
        mode: "yaml",
        about: "manifest streams the differential fuzzer found read differently",
        cases: || found("yaml"),
        items: super::yaml::items,
    },
    Suite {
        name: "fuzz-crd",
        mode: "apiserver",
        about: "CRDs and objects the differential fuzzer found judged differently",
        cases: || found("crd"),
        items: super::crds::request_items,
    },
    Suite {
        name: "fuzz-go",
        mode: "declarative",
        about: "Go types and objects the differential fuzzer found judged differently",
        cases: || found("go"),
        items: super::declarative::items,
    },
    Suite {
        name: "fuzz-builtin",
        mode: "apiserver",
        about: "built-in objects the differential fuzzer found judged differently",
        cases: || found("builtin"),
        items: super::crds::request_items,
    },
    Suite {
        name: "fuzz-cel",
        mode: "cel",
        about: "CEL expressions the differential fuzzer found compiled or evaluated differently",
        cases: || found("cel"),
        items: super::cel::items,
    },
    Suite {
        name: "fuzz-policy",
        mode: "apiserver",
        about: "admission policies and requests the differential fuzzer found judged differently",
        cases: || found("policy"),
        items: super::policy::items,
    },
];

fn found(path: &str) -> Result<Vec<Case>, String> {
    let file = crate::root().join(format!("tests/oracle/fuzz/{path}.jsonl"));
    let Ok(text) = std::fs::read_to_string(&file) else { return Ok(Vec::new()) };
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).map_err(|e| format!("{}: {e}", file.display()))?;
            let id = v["id"].as_str().unwrap_or_default().to_string();
            if let Some(m) = v.as_object_mut() {
                m.remove("id");
            }
            Ok(Case { id, input: v })
        })
        .collect()
}
