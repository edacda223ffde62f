//! What the real-types tests share: the built-in catalogs, and cases run against a root type
//! in each version of a package, compared as Kubernetes' equivalence harness compares them.

use std::io::Read;
use std::path::Path;

use kubedv_core::builtin::Catalog;
use kubedv_core::declarative::{Options, Schema};
use serde_json::Value;

/// The built-in catalog of Kubernetes 1.`minor`, decompressed.
pub fn catalog_text(minor: u32) -> String {
    let bytes = std::fs::read(format!("../catalog/1.{minor}.gz")).expect("catalog file");
    let mut text = String::new();
    flate2::read::GzDecoder::new(&bytes[..]).read_to_string(&mut text).expect("gzip");
    text
}

pub struct Case {
    pub what: &'static str,
    pub object: Value,
    pub old: Option<Value>,
    /// `type field origin`, in order.
    pub want: &'static [&'static str],
}

/// Runs the cases against `root` in each version of `packages` (`apps/v1,v1beta1,v1beta2`): the
/// versions Kubernetes' test of the kind iterates over (its `apiVersions`, in kubernetes
/// `test/declarative_validation/<group>/<resource>/zz_generated.validations.main_test.go`)
/// whose JSON has the first version's shape. Kubernetes converts one internal object to each
/// version; versions of another shape (resource v1beta1's requests without `exactly` and
/// devices with `basic`, node v1alpha1's `spec.runtimeHandler`) are left out here. Its matcher
/// ignores order: the first version's errors must come in the order given (the generated
/// order), the other versions' in any order (their tags are in another order).
pub fn run(api: &Path, packages: &str, root: &str, cases: Vec<Case>) -> Vec<String> {
    run_at(api, packages, root, None, cases)
}

/// [`run`] for requests to a subresource (`/scale`): the root type declares it with
/// `+k8s:isSubresource` and answers only it.
#[allow(dead_code)]
pub fn run_at(api: &Path, packages: &str, root: &str, subresource: Option<&str>, cases: Vec<Case>) -> Vec<String> {
    let (group, versions) = packages.split_once('/').expect("group/versions");
    let text = catalog_text(37);
    let catalog = Catalog::parse(&text).unwrap();
    let mut failures = Vec::new();
    for version in versions.split(',') {
        let package = format!("{group}/{version}");
        let main = std::fs::read_to_string(api.join(&package).join("types.go")).expect("types.go");
        let schema = Schema::compile_with(&main, &catalog.dependencies_of_source(&main), 37);
        assert!(!schema.has_errors(), "{package}: {:#?}", schema.diagnostics);
        let id = schema.type_named(root).expect("root type");
        let first = version == versions.split(',').next().unwrap();
        for c in &cases {
            let report = schema.validate_request(id, &c.object, c.old.as_ref(), subresource, &Options::default());
            let got: Vec<String> = report
                .errors
                .iter()
                .map(|e| {
                    format!("{:?} {} {}", e.kind, e.field, if e.origin.is_empty() { "-" } else { e.origin.as_str() })
                })
                .collect();
            let sorted = |v: &[String]| {
                let mut v = v.to_vec();
                v.sort();
                v
            };
            let want: Vec<String> = c.want.iter().map(|w| w.to_string()).collect();
            if if first { got != want } else { sorted(&got) != sorted(&want) } {
                failures.push(format!("{package} {root}: {}\n  got:  {got:?}\n  want: {:?}", c.what, c.want));
            }
        }
    }
    failures
}

#[allow(dead_code)] // Not every test file uses every helper.
pub fn many(n: usize, f: impl Fn(usize) -> Value) -> Value {
    Value::Array((0..n).map(f).collect())
}
