//! One AFL++ target over kubedv's untrusted-input paths; the first byte of an input picks the
//! path, the rest is its text: 0 Go declarations (compiled, then an object validated on create
//! and update), 1 a CEL expression (compiled and evaluated), 2 a manifest stream (read, located
//! and checked, built-in kinds by the 1.37 catalog), 3 a CRD (loaded, then checked), 4 a catalog.
//! A panic aborts the process, which AFL records as a crash.

use std::io::Read;

use kubedv_core::builtin::Catalog;
use kubedv_core::cel;
use kubedv_core::check::Checker;
use kubedv_core::declarative::{Options, Schema};
use kubedv_input::positions::{self, Positions};
use serde_json::json;

fn main() {
    let mut catalog_text = String::new();
    flate2::read::GzDecoder::new(&include_bytes!("../../../catalog/1.37.gz")[..])
        .read_to_string(&mut catalog_text)
        .expect("catalog");
    let catalog = Catalog::parse(&catalog_text).expect("catalog");
    let mut checker = Checker::new(37, false);
    for p in ["v1", "apps/v1"].iter().filter_map(|av| catalog.serving(av)) {
        checker.add_types(p.source, &catalog.dependencies(p), Some(p.group), true);
    }
    checker.serve_builtin_groups(catalog.packages.iter().map(|p| p.group));
    let object = json!({"spec": {"replicas": 3, "name": "a"}, "metadata": {"name": "x"}});
    // A panic aborts the process: nothing is observed after one.
    let checker = std::panic::AssertUnwindSafe(checker);
    afl::fuzz!(|data: &[u8]| {
        let Some((&which, rest)) = data.split_first() else { return };
        let Ok(text) = std::str::from_utf8(rest) else { return };
        match which % 5 {
            0 => {
                let schema = Schema::compile(text);
                for name in schema.type_names() {
                    if let Some(id) = schema.type_named(name) {
                        let _ = schema.validate(id, &object, &Options::default());
                        let _ = schema.validate_update(id, &object, Some(&json!({})), &Options::default());
                    }
                }
            }
            1 => {
                if let Ok(program) = cel::Program::compile(text) {
                    let mut decls = cel::checker::Decls::default();
                    decls.declare("self", cel::checker::CelType::Dyn);
                    let _ = cel::checker::check_kubernetes(&program, &decls);
                    let mut vars = std::collections::BTreeMap::new();
                    vars.insert(String::from("self"), cel::from_json(&object));
                    let _ = program.eval_with_limit(&vars, 1_000_000);
                }
            }
            2 => {
                for piece in positions::split(text) {
                    if let Ok(doc) = kubedv_input::document(piece.text) {
                        let at = Positions::of(piece.text);
                        let _ = at.locate("spec.template.spec.containers[0].image");
                        let _ = checker.check(&doc, Some(&doc));
                    }
                }
            }
            3 => {
                if let Ok(doc) = kubedv_input::document(text) {
                    if let Ok(crds) = kubedv_core::crd::Crd::load_all(&doc) {
                        for crd in crds {
                            let _ = crd.check(&object, Some(&object), &Default::default());
                        }
                    }
                }
            }
            _ => {
                if let Ok(c) = Catalog::parse(text) {
                    for p in c.packages.iter().take(2) {
                        let _ = c.compile(p, 37);
                    }
                }
            }
        }
    });
}
