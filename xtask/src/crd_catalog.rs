//! `cargo xtask crd-catalog`: writes `catalog/crds/`, the compact CRD catalog every front end
//! loads on demand, from the raw one (`crds/catalog/`, each file byte for byte from its
//! project's release, listed in `SOURCES.tsv`): the index, one gzipped JSON file per project
//! ([`kubedv_input::crd_catalog::build`]), and `embed.rs`, the list the CLI embeds.
//!
//! By hand, after the raw catalog changes; a test (`cli/tests/suite/crd_catalog.rs`) checks the
//! committed files are what this writes.

use std::fmt::Write as _;

use kubedv_input::crd_catalog::{build, SourceFile, VARIANTS};

use crate::env::Env;

pub fn run(env: &Env) -> Result<(), String> {
    let files = SourceFile::read_all(&env.root.join("crds/catalog"))?;
    let (index, projects) = build(&files, VARIANTS)?;
    if build(&files, VARIANTS)?.0 != index {
        return Err("writing the catalog twice gave different bytes".into());
    }
    let out = env.root.join("catalog/crds");
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    std::fs::write(out.join("index.txt"), &index).map_err(|e| e.to_string())?;
    let mut embed = String::from(
        "// Written by `cargo xtask crd-catalog`: the CRD catalog's project files, embedded by the CLI.\n&[\n",
    );
    let (mut raw_total, mut gz_total) = (0, 0);
    for (name, text) in &projects {
        let gz = crate::catalog::gzip(text)?;
        raw_total += text.len();
        gz_total += gz.len();
        std::fs::write(out.join(format!("{name}.json.gz")), &gz).map_err(|e| e.to_string())?;
        let _ = writeln!(embed, "    ({name:?}, include_bytes!(\"{name}.json.gz\")),");
    }
    embed.push_str("]\n");
    std::fs::write(out.join("embed.rs"), embed).map_err(|e| e.to_string())?;
    let raw_bytes: usize = files.iter().map(|f| f.text.len()).sum();
    println!(
        "==> catalog/crds: {} projects, {} rows; raw {raw_bytes} B in {} files -> compact {raw_total} B, {gz_total} B gzipped; index {} B",
        projects.len(),
        index.lines().filter(|l| l.starts_with("crd\t")).count(),
        files.len(),
        index.len()
    );
    Ok(())
}
