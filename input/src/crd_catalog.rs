//! The ecosystem's CRDs, built in: the released CRDs of `crds/catalog/` (Gateway API, Istio,
//! cert-manager, Argo, Flux, …, two releases each, byte for byte from each project's release),
//! in the compact form every front end loads on demand, and the routing that picks the CRD a
//! custom resource is checked with when the user gives none.
//!
//! - The **index** (`catalog/crds/index`, a few KB): every project with its releases (newest
//!   first), and a `crd` row per (group, kind, project, release) with the versions it serves,
//!   in the order routing prefers them.
//! - A **project file** (`catalog/crds/<project>.json.gz`): the project's distinct CRDs as
//!   compact JSON, their `description` texts removed (no verdict reads them), and each
//!   release's list of them.
//!
//! [`build`] writes both from the raw catalog (`cargo xtask crd-catalog`; a test checks the
//! committed files are what it writes); [`Index::route`] picks a CRD; [`needed`] and
//! [`crds_of`] are what a front end calls around its own loading (the CLI decompresses the
//! files it embeds, the npm package and the playground fetch them).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

/// The index's first line.
pub const MAGIC: &str = "kubedv-crd-catalog 1";

/// The catalog's variants: projects routing takes only when pinned, as a cluster holds one
/// project's CRDs or the other's (Gateway API's standard channel, not its experimental one;
/// Argo Workflows' default CRDs, not its full-schema ones).
pub const VARIANTS: &[&str] = &["gateway-api-experimental", "argo-workflows-full"];

/// A project of the catalog.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Project {
    /// The catalog's short name (`cert-manager`, `gateway-api-standard`).
    pub name: String,
    /// Where its files come from (GitHub `owner/name`).
    pub repository: String,
    /// SPDX id of its licence.
    pub license: String,
    /// The releases kept, newest first.
    pub releases: Vec<String>,
    /// A variant of another project's CRDs (`gateway-api-experimental`, the full-schema Argo
    /// Workflows CRDs): routing takes it only when pinned, or when no other project serves the
    /// kind.
    pub variant: bool,
}

/// One CRD of one release of a project.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub group: String,
    pub kind: String,
    pub project: String,
    pub release: String,
    /// The versions the CRD serves.
    pub versions: Vec<String>,
}

impl Row {
    /// `project@release`, as verdicts name the CRD that answered and as `--crd-catalog` pins it.
    pub fn source(&self) -> String {
        format!("{}@{}", self.project, self.release)
    }
}

/// The index: projects and CRD rows.
#[derive(Debug, Clone, Default)]
pub struct Index {
    pub projects: Vec<Project>,
    /// In routing order: for each (group, kind), the owning project's releases newest first,
    /// then the other projects' (variants last).
    pub rows: Vec<Row>,
}

/// A user's choice of project (and release) for the kinds it serves: `istio` or
/// `istio@1.28` (a release, or its prefix at a `.`; a leading `v` may be left out).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pin {
    pub project: String,
    pub release: Option<String>,
}

impl Pin {
    pub fn parse(text: &str) -> Result<Pin, String> {
        let (project, release) = match text.split_once('@') {
            Some((p, r)) => (p, Some(r)),
            None => (text, None),
        };
        if project.is_empty() || release == Some("") {
            return Err(format!("{text:?}: expected PROJECT or PROJECT@RELEASE (kubedv crds list shows them)"));
        }
        Ok(Pin { project: project.to_string(), release: release.map(String::from) })
    }

    fn matches(&self, release: &str) -> bool {
        let Some(want) = &self.release else { return true };
        let bare = |s: &str| s.strip_prefix('v').unwrap_or(s).to_string();
        let (want, have) = (bare(want), bare(release));
        have == want || have.strip_prefix(&want).is_some_and(|rest| rest.starts_with('.'))
    }
}

impl Index {
    /// Reads the index text [`build`] writes.
    pub fn parse(text: &str) -> Result<Index, String> {
        let mut lines = text.lines();
        if lines.next() != Some(MAGIC) {
            return Err(format!("not a kubedv CRD catalog index (it must begin with `{MAGIC}`)"));
        }
        let mut index = Index::default();
        for line in lines.filter(|l| !l.is_empty()) {
            let fields: Vec<&str> = line.split('\t').collect();
            match fields.as_slice() {
                ["project", name, repository, license, variant, releases @ ..] if !releases.is_empty() => {
                    index.projects.push(Project {
                        name: name.to_string(),
                        repository: repository.to_string(),
                        license: license.to_string(),
                        releases: releases.iter().map(|r| r.to_string()).collect(),
                        variant: *variant == "variant",
                    })
                }
                ["crd", group, kind, project, release, versions] => index.rows.push(Row {
                    group: group.to_string(),
                    kind: kind.to_string(),
                    project: project.to_string(),
                    release: release.to_string(),
                    versions: versions.split(',').map(String::from).collect(),
                }),
                _ => return Err(format!("CRD catalog index: unexpected line `{line}`")),
            }
        }
        Ok(index)
    }

    pub fn project(&self, name: &str) -> Option<&Project> {
        self.projects.iter().find(|p| p.name == name)
    }

    /// Refuses a pin naming no project or release of the catalog, saying what there is.
    pub fn check_pins(&self, pins: &[Pin]) -> Result<(), String> {
        for pin in pins {
            let Some(project) = self.project(&pin.project) else {
                return Err(format!("no project {:?} in the CRD catalog (kubedv crds list shows them)", pin.project));
            };
            if !project.releases.iter().any(|r| pin.matches(r)) {
                return Err(format!(
                    "no release {:?} of {} in the CRD catalog (it has {})",
                    pin.release.as_deref().unwrap_or_default(),
                    project.name,
                    project.releases.join(", ")
                ));
            }
        }
        Ok(())
    }

    /// The CRD that answers `group/version` `kind`: a pinned project's (its pinned release, or
    /// its newest) when a pin names a project serving the kind; else the newest release, of
    /// the kind's owning project (a variant only when nothing else serves the version), that
    /// serves `version` — or, when none does, the newest release of the kind, whose CRD then
    /// says the version is not served.
    pub fn route(&self, group: &str, version: &str, kind: &str, pins: &[Pin]) -> Option<&Row> {
        let of_kind = || self.rows.iter().filter(move |r| r.group == group && r.kind == kind);
        let variant = |r: &Row| self.project(&r.project).is_some_and(|p| p.variant);
        let pinned: Vec<&Row> =
            of_kind().filter(|r| pins.iter().any(|p| p.project == r.project && p.matches(&r.release))).collect();
        let serves = |r: &Row| r.versions.iter().any(|v| v == version);
        let candidates: Vec<&Row> = if !pinned.is_empty() {
            pinned
        } else if of_kind().any(|r| !variant(r) && serves(r)) || !of_kind().any(|r| variant(r) && serves(r)) {
            // The owner's releases; a variant's only when it alone serves the version (an
            // experimental channel's `v1alpha3`), or serves the kind at all.
            let plain: Vec<&Row> = of_kind().filter(|r| !variant(r)).collect();
            if plain.is_empty() {
                of_kind().collect()
            } else {
                plain
            }
        } else {
            of_kind().filter(|r| variant(r)).collect()
        };
        // Releases are newest first within a project, and the owner comes first.
        let owner = &candidates.first()?.project;
        let owned = || candidates.iter().filter(|r| &r.project == owner);
        owned().find(|r| r.versions.iter().any(|v| v == version)).or_else(|| owned().next()).copied()
    }
}

/// The catalog's CRDs a run needs: for every `apiVersion` and kind its documents name (as
/// sets: a light pass over the text cannot pair them), the row answering it, unless the
/// group's API is built in or a CRD given already serves the group and kind (the user's CRDs
/// win). Each row once.
pub fn needed<'a>(
    index: &'a Index,
    api_versions: &BTreeSet<String>,
    kinds: &BTreeSet<String>,
    given: &[Value],
    builtin_group: &dyn Fn(&str) -> bool,
    pins: &[Pin],
) -> Vec<&'a Row> {
    let given: BTreeSet<(&str, &str)> = given
        .iter()
        .map(|c| {
            let at = |k: &str| c.get("spec").and_then(|s| s.get(k));
            let group = at("group").and_then(Value::as_str).unwrap_or_default();
            let kind = at("names").and_then(|n| n.get("kind")).and_then(Value::as_str).unwrap_or_default();
            (group, kind)
        })
        .collect();
    let mut out: Vec<&Row> = Vec::new();
    for av in api_versions {
        let Some((group, version)) = av.split_once('/') else { continue };
        if builtin_group(group) {
            continue;
        }
        for kind in kinds {
            if given.contains(&(group, kind.as_str())) {
                continue;
            }
            if let Some(row) = index.route(group, version, kind, pins) {
                if !out.iter().any(|r| std::ptr::eq(*r, row)) {
                    out.push(row);
                }
            }
        }
    }
    out
}

/// The CRDs of `rows` (all of one project) from that project's file.
pub fn crds_of(project_file: &str, rows: &[&Row]) -> Result<Vec<Value>, String> {
    let file: Value = serde_json::from_str(project_file).map_err(|e| format!("CRD catalog project file: {e}"))?;
    let crds = file.get("crds").and_then(Value::as_array).ok_or("CRD catalog project file: no `crds`")?;
    let mut out = Vec::new();
    for row in rows {
        let list = file
            .get("releases")
            .and_then(|r| r.get(&row.release))
            .and_then(Value::as_array)
            .ok_or_else(|| format!("CRD catalog: {} has no release {}", row.project, row.release))?;
        let found = list.iter().filter_map(|i| crds.get(i.as_u64()? as usize)).find(|c| {
            let spec = c.get("spec");
            spec.and_then(|s| s.get("group")).and_then(Value::as_str) == Some(&row.group)
                && spec.and_then(|s| s.get("names")).and_then(|n| n.get("kind")).and_then(Value::as_str)
                    == Some(&row.kind)
        });
        out.push(
            found.cloned().ok_or_else(|| format!("CRD catalog: {} has no {}/{}", row.source(), row.group, row.kind))?,
        );
    }
    Ok(out)
}

/// One file of the raw catalog, as `crds/catalog/SOURCES.tsv` lists it.
pub struct SourceFile {
    pub project: String,
    pub release: String,
    pub repository: String,
    pub license: String,
    /// The file's text.
    pub text: String,
}

impl SourceFile {
    /// The raw catalog's files, as its `SOURCES.tsv` lists them (project, release, repository,
    /// tag, commit, path, licence, sha256, file).
    pub fn read_all(raw: &std::path::Path) -> Result<Vec<SourceFile>, String> {
        let sources = std::fs::read_to_string(raw.join("SOURCES.tsv")).map_err(|e| format!("SOURCES.tsv: {e}"))?;
        let mut files = Vec::new();
        for line in sources.lines().skip(1).filter(|l| !l.is_empty()) {
            let c: Vec<&str> = line.split('\t').collect();
            let [project, release, repository, _tag, _commit, _path, license, _sha, file] = c[..] else {
                return Err(format!("SOURCES.tsv: unexpected line `{line}`"));
            };
            let text = std::fs::read_to_string(raw.join(file)).map_err(|e| format!("{file}: {e}"))?;
            files.push(SourceFile {
                project: project.into(),
                release: release.into(),
                repository: repository.into(),
                license: license.into(),
                text,
            });
        }
        Ok(files)
    }
}

/// The compact catalog of the raw one: the index text and each project's file (JSON), by
/// project name. `variants`: the projects routing takes only when pinned. Deterministic: the
/// same files give the same bytes.
pub fn build(files: &[SourceFile], variants: &[&str]) -> Result<(String, BTreeMap<String, String>), String> {
    struct Gathered {
        repository: String,
        license: String,
        /// Releases, each with its CRDs (indices into `crds`).
        releases: BTreeMap<String, Vec<usize>>,
        crds: Vec<Value>,
    }
    let mut projects: BTreeMap<String, Gathered> = BTreeMap::new();
    for f in files {
        let p = projects.entry(f.project.clone()).or_insert_with(|| Gathered {
            repository: f.repository.clone(),
            license: f.license.clone(),
            releases: BTreeMap::new(),
            crds: Vec::new(),
        });
        let docs = crate::documents(&f.text).map_err(|e| format!("{} {}: {e}", f.project, f.release))?;
        for mut crd in docs.into_iter().filter(crate::manifests::is_crd) {
            strip_descriptions(&mut crd);
            let at = match p.crds.iter().position(|c| *c == crd) {
                Some(i) => i,
                None => {
                    p.crds.push(crd);
                    p.crds.len() - 1
                }
            };
            p.releases.entry(f.release.clone()).or_default().push(at);
        }
    }
    let mut index = vec![String::from(MAGIC)];
    let mut rows: Vec<(Row, bool)> = Vec::new();
    let mut files_out = BTreeMap::new();
    for (name, p) in &projects {
        let mut releases: Vec<&String> = p.releases.keys().collect();
        releases.sort_by(|a, b| release_order(b, a));
        let variant = variants.contains(&name.as_str());
        let mut line =
            format!("project\t{name}\t{}\t{}\t{}", p.repository, p.license, if variant { "variant" } else { "-" });
        for r in &releases {
            line.push('\t');
            line.push_str(r);
        }
        index.push(line);
        for r in &releases {
            for &i in &p.releases[*r] {
                let spec = &p.crds[i]["spec"];
                let versions: Vec<&str> = spec["versions"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter(|v| v["served"].as_bool() == Some(true))
                    .filter_map(|v| v["name"].as_str())
                    .collect();
                let row = Row {
                    group: spec["group"].as_str().unwrap_or_default().to_string(),
                    kind: spec["names"]["kind"].as_str().unwrap_or_default().to_string(),
                    project: name.clone(),
                    release: r.to_string(),
                    versions: versions.iter().map(|v| v.to_string()).collect(),
                };
                rows.push((row, variant));
            }
        }
        let releases_json: Map<String, Value> = releases
            .iter()
            .map(|r| ((*r).clone(), Value::Array(p.releases[*r].iter().map(|&i| Value::from(i)).collect())))
            .collect();
        let file = serde_json::json!({
            "project": name,
            "repository": p.repository,
            "license": p.license,
            "releases": releases_json,
            "crds": p.crds,
        });
        files_out.insert(name.clone(), serde_json::to_string(&file).map_err(|e| e.to_string())?);
    }
    // The owner of a group is the project with most of its kinds (variants aside): a project
    // bundling a copy of another's CRD (an operator shipping a policy API) comes after it.
    let mut owned: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    let mut seen = BTreeSet::new();
    for (r, variant) in &rows {
        if !*variant && seen.insert((r.group.as_str(), r.kind.as_str(), r.project.as_str())) {
            *owned.entry((r.group.as_str(), r.project.as_str())).or_default() += 1;
        }
    }
    let rank = |r: &Row, variant: bool| {
        let count = owned.get(&(r.group.as_str(), r.project.as_str())).copied().unwrap_or(0);
        (variant, usize::MAX - count, r.project.clone())
    };
    let mut ordered: Vec<(&Row, (bool, usize, String))> = rows.iter().map(|(r, v)| (r, rank(r, *v))).collect();
    // Stable: releases keep their newest-first order within a project.
    ordered.sort_by(|a, b| (&a.0.group, &a.0.kind, &a.1).cmp(&(&b.0.group, &b.0.kind, &b.1)));
    for (r, _) in ordered {
        if r.group.contains('\t') || r.kind.contains('\t') || r.versions.iter().any(|v| v.contains([',', '\t'])) {
            return Err(format!("{}: a name the index cannot hold", r.source()));
        }
        index.push(format!("crd\t{}\t{}\t{}\t{}\t{}", r.group, r.kind, r.project, r.release, r.versions.join(",")));
    }
    index.push(String::new());
    Ok((index.join("\n"), files_out))
}

/// Newer releases compare greater: numbers compared as numbers, a pre-release (`-rc.1`)
/// before its release.
pub fn release_order(a: &str, b: &str) -> std::cmp::Ordering {
    let parts = |s: &str| -> (Vec<u64>, bool, String) {
        let s = s.strip_prefix('v').unwrap_or(s);
        let (main, pre) = s.split_once('-').map_or((s, None), |(m, p)| (m, Some(p)));
        let nums = main.split('.').map(|n| n.parse().unwrap_or(0)).collect();
        (nums, pre.is_none(), pre.unwrap_or_default().to_string())
    };
    parts(a).cmp(&parts(b)).then_with(|| a.cmp(b))
}

/// Removes the `description` keyword of every schema node of a CRD's versions (and of the
/// legacy top-level validation), keeping properties that happen to be named `description`.
pub fn strip_descriptions(crd: &mut Value) {
    let Some(spec) = crd.get_mut("spec") else { return };
    if let Some(v) = spec.get_mut("validation").and_then(|v| v.get_mut("openAPIV3Schema")) {
        strip_schema(v);
    }
    for version in spec.get_mut("versions").and_then(Value::as_array_mut).into_iter().flatten() {
        if let Some(s) = version.get_mut("schema").and_then(|s| s.get_mut("openAPIV3Schema")) {
            strip_schema(s);
        }
    }
}

fn strip_schema(node: &mut Value) {
    let Value::Object(o) = node else { return };
    if o.get("description").is_some_and(Value::is_string) {
        o.remove("description");
    }
    for key in ["properties", "patternProperties", "definitions", "dependencies"] {
        if let Some(Value::Object(children)) = o.get_mut(key) {
            children.values_mut().for_each(strip_schema);
        }
    }
    for key in ["items", "additionalProperties", "additionalItems", "not"] {
        match o.get_mut(key) {
            Some(Value::Array(list)) => list.iter_mut().for_each(strip_schema),
            Some(v) => strip_schema(v),
            None => {}
        }
    }
    for key in ["allOf", "anyOf", "oneOf"] {
        if let Some(Value::Array(list)) = o.get_mut(key) {
            list.iter_mut().for_each(strip_schema);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index() -> Index {
        Index::parse(concat!(
            "kubedv-crd-catalog 1\n",
            "project\tgw\towner/gw\tApache-2.0\t-\tv1.3.0\tv1.2.1\n",
            "project\tgw-x\towner/gw\tApache-2.0\tvariant\tv1.3.0\n",
            "crd\tgateway.networking.k8s.io\tHTTPRoute\tgw\tv1.3.0\tv1\n",
            "crd\tgateway.networking.k8s.io\tHTTPRoute\tgw\tv1.2.1\tv1,v1beta1\n",
            "crd\tgateway.networking.k8s.io\tHTTPRoute\tgw-x\tv1.3.0\tv1,v1alpha9\n",
            "crd\tgateway.networking.k8s.io\tXMesh\tgw-x\tv1.3.0\tv1alpha1\n",
        ))
        .unwrap()
    }

    #[test]
    fn routing_takes_the_newest_release_serving_the_version() {
        let i = index();
        let r = |v: &str, k: &str, pins: &[Pin]| i.route("gateway.networking.k8s.io", v, k, pins).map(Row::source);
        assert_eq!(r("v1", "HTTPRoute", &[]).as_deref(), Some("gw@v1.3.0"));
        assert_eq!(r("v1beta1", "HTTPRoute", &[]).as_deref(), Some("gw@v1.2.1"));
        // No release serves it: the newest answers (and says so).
        assert_eq!(r("v2", "HTTPRoute", &[]).as_deref(), Some("gw@v1.3.0"));
        // A variant when pinned, or alone in serving the version or the kind.
        assert_eq!(r("v1", "HTTPRoute", &[Pin::parse("gw-x").unwrap()]).as_deref(), Some("gw-x@v1.3.0"));
        assert_eq!(r("v1alpha9", "HTTPRoute", &[]).as_deref(), Some("gw-x@v1.3.0"));
        assert_eq!(r("v1alpha1", "XMesh", &[]).as_deref(), Some("gw-x@v1.3.0"));
        assert_eq!(r("v1", "HTTPRoute", &[Pin::parse("gw@1.2").unwrap()]).as_deref(), Some("gw@v1.2.1"));
        assert_eq!(r("v1", "Nothing", &[]), None);
    }

    #[test]
    fn pins_name_what_the_catalog_has() {
        let i = index();
        assert!(i.check_pins(&[Pin::parse("gw@v1.2.1").unwrap(), Pin::parse("gw@1").unwrap()]).is_ok());
        assert_eq!(
            i.check_pins(&[Pin::parse("gw@1.4").unwrap()]).unwrap_err(),
            "no release \"1.4\" of gw in the CRD catalog (it has v1.3.0, v1.2.1)"
        );
        assert!(i.check_pins(&[Pin::parse("istio").unwrap()]).unwrap_err().starts_with("no project \"istio\""));
        assert!(Pin::parse("gw@").is_err());
        // A prefix ends at a dot: 1.2 is not 1.21.
        assert!(!Pin::parse("gw@1.2").unwrap().matches("v1.21.0"));
    }

    #[test]
    fn descriptions_go_but_a_property_named_description_stays() {
        let mut crd = serde_json::json!({"spec": {"versions": [{"schema": {"openAPIV3Schema": {
            "description": "x", "type": "object",
            "properties": {"description": {"type": "string", "description": "y"}},
            "items": {"description": "z"}, "default": {"description": "kept"}
        }}}]}});
        strip_descriptions(&mut crd);
        assert_eq!(
            crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"],
            serde_json::json!({"type": "object", "properties": {"description": {"type": "string"}},
                "items": {}, "default": {"description": "kept"}})
        );
    }

    #[test]
    fn releases_order_as_versions() {
        let mut r = vec!["v1.9.0", "v1.10.0", "v1.10.0-rc.1", "1.2"];
        r.sort_by(|a, b| release_order(b, a));
        assert_eq!(r, ["v1.10.0", "v1.10.0-rc.1", "v1.9.0", "1.2"]);
    }
}
