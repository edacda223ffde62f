//! The catalog of Kubernetes' own API packages: the `types.go` of every k8s.io/api group and
//! version of one release, with their `+k8s:` tags, import paths and API groups, so built-in
//! kinds (a Deployment, a ResourceClaim) validate with their declarative rules and a pasted
//! file's `corev1 "k8s.io/api/core/v1"` import resolves without a checkout.
//!
//! A catalog is text, one per Kubernetes version, written by `cargo xtask catalog` from the
//! release's k8s.io/api sources (and kube-aggregator's, for `APIService`) and shipped compressed
//! (the CLI embeds it, the npm package loads it on demand). Its form, so it can be read without this crate:
//!
//! ```text
//! kubedv-catalog 1
//! kubernetes 1.37
//! source k8s.io/api v0.37.2
//! source k8s.io/kube-aggregator v0.37.2
//! package k8s.io/api/apps/v1 apps 51234
//! <51234 bytes: the package's types.go, comment text stripped>
//! package k8s.io/api/core/v1 - 612345
//! ...
//! ```
//!
//! The group is `-` for the core group. Sources keep every declaration, every `+` tag line and
//! every line break: a comment line that is not a tag becomes `//` ([`strip`]), so line numbers
//! and comment groups are the real file's.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::declarative::{Dependency, Schema};

/// The first line of every catalog.
const MAGIC: &str = "kubedv-catalog 1";

/// One Kubernetes release's API packages.
#[derive(Clone, Debug)]
pub struct Catalog<'a> {
    /// The Kubernetes version (`1.37`).
    pub kubernetes: &'a str,
    /// Where the sources come from (`k8s.io/api <commit> <tag or note>`), one per line.
    pub sources: Vec<&'a str>,
    /// The packages, ordered by import path.
    pub packages: Vec<Package<'a>>,
}

/// One k8s.io/api package.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Package<'a> {
    /// `k8s.io/api/apps/v1`.
    pub import_path: &'a str,
    /// The API group (`apps`; empty for the core group).
    pub group: &'a str,
    /// The package's `types.go`, comment text stripped.
    pub source: &'a str,
    /// How diagnostics name the source (`k8s.io/api/apps/v1/types.go`).
    pub label: String,
}

impl<'a> Package<'a> {
    /// The API version (`v1`, `v1beta2`): the package's last path element.
    pub fn version(&self) -> &'a str {
        self.import_path.rsplit('/').next().unwrap_or(self.import_path)
    }

    /// `apps/v1`, or `v1` for the core group.
    pub fn api_version(&self) -> String {
        if self.group.is_empty() {
            String::from(self.version())
        } else {
            format!("{}/{}", self.group, self.version())
        }
    }
}

impl<'a> Catalog<'a> {
    /// Reads a catalog's text.
    pub fn parse(text: &'a str) -> Result<Catalog<'a>, String> {
        let mut rest = text.strip_prefix(MAGIC).and_then(|r| r.strip_prefix('\n')).ok_or_else(|| {
            String::from("not a kubedv catalog (it must begin with `kubedv-catalog 1`): regenerate it with `cargo xtask catalog`")
        })?;
        let mut catalog = Catalog { kubernetes: "", sources: Vec::new(), packages: Vec::new() };
        while !rest.is_empty() {
            let (line, after) = rest.split_once('\n').unwrap_or((rest, ""));
            rest = after;
            if let Some(v) = line.strip_prefix("kubernetes ") {
                catalog.kubernetes = v;
            } else if let Some(s) = line.strip_prefix("source ") {
                catalog.sources.push(s);
            } else if let Some(p) = line.strip_prefix("package ") {
                let mut words = p.split(' ');
                let (Some(import_path), Some(group), Some(len), None) =
                    (words.next(), words.next(), words.next(), words.next())
                else {
                    return Err(format!("catalog: malformed package line `{line}`"));
                };
                let len: usize = len.parse().map_err(|_| format!("catalog: malformed length in `{line}`"))?;
                let source = rest.get(..len).ok_or_else(|| format!("catalog: {import_path} is cut short"))?;
                rest = &rest[len..];
                let group = if group == "-" { "" } else { group };
                catalog.packages.push(Package { import_path, group, source, label: format!("{import_path}/types.go") });
            } else if !line.is_empty() {
                return Err(format!("catalog: unexpected line `{line}`"));
            }
        }
        if catalog.kubernetes.is_empty() {
            return Err(String::from("catalog: no `kubernetes` line"));
        }
        Ok(catalog)
    }

    /// Writes a catalog: `packages` are (import path, group, source), written in import-path order.
    pub fn write(kubernetes: &str, sources: &[String], packages: &[(String, String, String)]) -> String {
        let mut sorted: Vec<&(String, String, String)> = packages.iter().collect();
        sorted.sort_by(|a, b| a.0.cmp(&b.0));
        let mut out = format!("{MAGIC}\nkubernetes {kubernetes}\n");
        for s in sources {
            out.push_str(&format!("source {s}\n"));
        }
        for (path, group, source) in sorted {
            let group = if group.is_empty() { "-" } else { group };
            out.push_str(&format!("package {path} {group} {}\n", source.len()));
            out.push_str(source);
        }
        out
    }

    /// The package serving an `apiVersion` (`apps/v1`, `v1`).
    pub fn serving(&self, api_version: &str) -> Option<&Package<'a>> {
        let (group, version) = api_version.rsplit_once('/').unwrap_or(("", api_version));
        self.packages.iter().find(|p| p.group == group && p.version() == version)
    }

    /// The package of an import path.
    pub fn get(&self, import_path: &str) -> Option<&Package<'a>> {
        self.packages.iter().find(|p| p.import_path == import_path)
    }

    /// The packages `package` imports from this catalog, and theirs, as compile dependencies.
    pub fn dependencies(&self, package: &Package<'a>) -> Vec<Dependency<'_>> {
        let mut deps: Vec<Dependency<'_>> = Vec::new();
        let mut queue: Vec<String> = imports_of(package.source);
        while let Some(import) = queue.pop() {
            if import == package.import_path || deps.iter().any(|d| d.import_path == import) {
                continue;
            }
            if let Some(dep) = self.get(&import) {
                queue.extend(imports_of(dep.source));
                deps.push(Dependency { import_path: dep.import_path, label: &dep.label, text: dep.source });
            }
        }
        deps
    }

    /// Compiles one package with the packages it imports, for Kubernetes 1.`minor`.
    pub fn compile(&self, package: &Package<'a>, minor: u32) -> Schema {
        Schema::compile_with(package.source, &self.dependencies(package), minor)
    }

    /// Dependencies for a pasted file: the catalog packages its imports name (and theirs).
    pub fn dependencies_of_source(&self, src: &str) -> Vec<Dependency<'_>> {
        let mut deps: Vec<Dependency<'_>> = Vec::new();
        for import in imports_of(src) {
            if let Some(p) = self.get(&import) {
                if !deps.iter().any(|d| d.import_path == p.import_path) {
                    deps.push(Dependency { import_path: p.import_path, label: &p.label, text: p.source });
                }
                for d in self.dependencies(p) {
                    if !deps.iter().any(|e| e.import_path == d.import_path) {
                        deps.push(d);
                    }
                }
            }
        }
        deps
    }
}

fn imports_of(src: &str) -> Vec<String> {
    crate::golang::parse_file(src).0.imports.into_iter().map(|i| i.path).collect()
}

/// A Go source with the text of its `//` comments removed, as a catalog keeps it: a comment line
/// that is not a `+` tag becomes `//`, so comment groups, tags and line numbers stay as they
/// were. Lines inside `/* */` comments and code lines are kept whole.
pub fn strip(src: &str) -> String {
    let mut out = String::with_capacity(src.len() / 2);
    let mut in_block = false;
    for line in src.split_inclusive('\n') {
        let body = line.trim_end_matches(['\n', '\r']);
        let trimmed = body.trim_start();
        if in_block {
            in_block = !body.contains("*/");
            out.push_str(line);
            continue;
        }
        match trimmed.strip_prefix("//") {
            Some(comment) if !comment.trim_start().starts_with('+') => {
                out.push_str("//");
                if line.ends_with('\n') {
                    out.push('\n');
                }
            }
            _ => {
                in_block = trimmed.contains("/*") && !trimmed.contains("*/");
                out.push_str(line);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strip_keeps_tags_lines_and_code() {
        let src = "// Package doc.\n// +groupName=apps\npackage v1\n\n// Widget is a thing.\n//   indented text\n// +k8s:required\ntype Widget struct { // trailing\n\t// Name is it.\n\t//+optional\n\tName string `json:\"name\"`\n}\n/* a\n// +not a tag\n*/\n";
        let out = strip(src);
        assert_eq!(out.lines().count(), src.lines().count());
        assert_eq!(
            out,
            "//\n// +groupName=apps\npackage v1\n\n//\n//\n// +k8s:required\ntype Widget struct { // trailing\n//\n\t//+optional\n\tName string `json:\"name\"`\n}\n/* a\n// +not a tag\n*/\n"
        );
    }

    #[test]
    fn write_then_parse() {
        let packages = [
            (String::from("k8s.io/api/core/v1"), String::new(), String::from("package v1\n")),
            (
                String::from("k8s.io/api/apps/v1"),
                String::from("apps"),
                String::from("package v1\n\nimport corev1 \"k8s.io/api/core/v1\"\n"),
            ),
        ];
        let text = Catalog::write("1.37", &[String::from("k8s.io/api abc")], &packages);
        let catalog = Catalog::parse(&text).unwrap();
        assert_eq!(catalog.kubernetes, "1.37");
        assert_eq!(catalog.sources, ["k8s.io/api abc"]);
        assert_eq!(catalog.packages.len(), 2);
        assert_eq!(catalog.packages[0].import_path, "k8s.io/api/apps/v1");
        let apps = catalog.serving("apps/v1").unwrap();
        assert_eq!(apps.api_version(), "apps/v1");
        assert_eq!(catalog.serving("v1").unwrap().group, "");
        assert!(catalog.serving("apps/v2").is_none());
        let deps = catalog.dependencies(apps);
        assert_eq!(deps.len(), 1);
        assert_eq!(deps[0].import_path, "k8s.io/api/core/v1");
    }

    #[test]
    fn bad_catalogs_are_errors() {
        assert!(Catalog::parse("hello").unwrap_err().contains("not a kubedv catalog"));
        assert!(Catalog::parse("kubedv-catalog 1\nkubernetes 1.37\npackage a - 99\nshort")
            .unwrap_err()
            .contains("cut short"));
        assert!(Catalog::parse("kubedv-catalog 1\nkubernetes 1.37\npackage a 9\n").unwrap_err().contains("malformed"));
        assert!(Catalog::parse("kubedv-catalog 1\nkubernetes 1.37\npackage a - 2\néa").is_err());
        assert!(Catalog::parse("kubedv-catalog 1\n").unwrap_err().contains("no `kubernetes`"));
    }
}
