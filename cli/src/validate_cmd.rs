//! `kubedv validate`: declarative validation of objects against `+k8s:` tagged Go types.

use kubedv_core::declarative::shadow::{self, Enforcement, Shadow};
use kubedv_core::declarative::{import_provided_by, Dependency, Options, Refusal, Report, Request, RootError, Schema};
use kubedv_core::diag::Diagnostic;
use kubedv_core::golang;

use crate::input;
use crate::output::{count, Outcome, OutputFormat};
use crate::UsageError;

#[derive(clap::Args)]
pub struct Args {
    /// The Go source with the types and their +k8s: tags (types.go). Repeat it for the packages
    /// the first one imports (`--types apps/v1/types.go --types core/v1/types.go`): each further
    /// file answers the import whose path ends with the file's directories, or the one written
    /// before it (`--types k8s.io/api/core/v1=core.go`). apimachinery's meta/v1 is built in.
    /// Without it, the objects are built-in kinds: their apiVersion and kind (or --kind) pick the
    /// package of the built-in catalog of --k8s-version, validated with its declarative rules
    /// (Kubernetes' handwritten validation is not modeled).
    #[arg(long)]
    types: Vec<String>,
    /// The built-in kind to validate the objects as (`apps/v1/Deployment`, `v1/Pod`), instead
    /// of their apiVersion and kind.
    #[arg(long, value_name = "GROUP/VERSION/KIND", conflicts_with = "types")]
    kind: Option<String>,
    /// For built-in kinds: a checkout of k8s.io/api (the directory holding core/v1/types.go) to
    /// read instead of the built-in catalog.
    #[arg(long = "k8s-api", value_name = "DIR", conflicts_with = "types")]
    k8s_api: Option<String>,
    /// The object(s) to validate: JSON, or YAML with one or more documents (`-` for stdin).
    #[arg(long)]
    object: String,
    /// The old object(s), to validate an update: ratcheting, +k8s:immutable and +k8s:update.
    /// With several documents, they pair with the objects by position.
    #[arg(long)]
    old: Option<String>,
    /// The subresource the request is for (`/status`, `/scale`); the resource itself when omitted.
    #[arg(long)]
    subresource: Option<String>,
    /// The type of the object (default: the only root-looking type).
    #[arg(long = "type")]
    type_name: Option<String>,
    /// Turn a validation option on (+k8s:ifEnabled / +k8s:ifDisabled). Repeatable.
    #[arg(long = "option", value_name = "NAME")]
    options: Vec<String>,
    /// Do not apply the types' `+default` values before validating (the API server applies them).
    #[arg(long)]
    no_defaults: bool,
    /// The Kubernetes version whose enforcement rules apply (1.33 to 1.37; default 1.37).
    #[arg(long = "k8s-version", value_name = "1.N")]
    k8s_version: Option<String>,
    /// A feature gate: DeclarativeValidation, DeclarativeValidationBeta (1.36+) or
    /// DeclarativeValidationTakeover (honored 1.33-1.35), as NAME=true|false. Repeatable.
    #[arg(long = "gate", value_name = "NAME=BOOL")]
    gates: Vec<String>,
    /// Handwritten errors to compare with (Kubernetes error lines, optionally ending in
    /// `[origin=NAME, covered, beta]`, or a JSON list of {field, type, origin, covered, stability}).
    #[arg(long)]
    handwritten: Option<String>,
    /// Model a resource that has not opted into declarative enforcement (Kubernetes 1.36; 1.37
    /// has no opt-in).
    #[arg(long)]
    no_declarative_enforcement: bool,
    /// A normalization rule for the comparison with --handwritten, REGEXP=REPLACEMENT (Go
    /// syntax, `$1` for groups), as a resource's strategy passes them (1.35+): declarative
    /// error paths are rewritten before matching. Kubernetes' own rules (ResourceClaim) apply
    /// without it. Repeatable.
    #[arg(long = "normalization-rule", value_name = "REGEXP=REPLACEMENT")]
    normalization_rules: Vec<String>,
    /// Model a resource that sets ShortCircuitMismatch (1.37+): a short-circuiting declarative
    /// error matches the handwritten errors on its field's children.
    #[arg(long)]
    short_circuit_mismatch: bool,
}

fn enforcement(args: &Args) -> Result<Enforcement, UsageError> {
    let mut gates = Vec::new();
    for g in &args.gates {
        let parsed = g.split_once('=').and_then(|(name, value)| match value {
            "true" => Some((name, true)),
            "false" => Some((name, false)),
            _ => None,
        });
        gates.push(parsed.ok_or_else(|| UsageError(format!("--gate {g}: expected NAME=true or NAME=false")))?);
    }
    let mut config = Enforcement::from_request(args.k8s_version.as_deref(), &gates, !args.no_declarative_enforcement)
        .map_err(|e| UsageError(format!("--k8s-version/--gate: {e}")))?;
    config
        .set_comparison(&args.normalization_rules, args.short_circuit_mismatch)
        .map_err(|e| UsageError(format!("--normalization-rule/--short-circuit-mismatch: {e}")))?;
    Ok(config)
}

pub fn run(args: Args, format: OutputFormat) -> Result<Outcome, UsageError> {
    let mut config = enforcement(&args)?;
    let text = input::read(&args.object)?;
    let objects = input::objects(&args.object, &text)?;
    // `builtin`: a built-in kind's API group and kind.
    let (schema, main, builtin) = match args.types.is_empty() {
        true => builtin_schema(args.k8s_api.as_deref(), args.kind.as_deref(), &objects, config.minor)?,
        false => {
            let main = args.types[0].clone();
            let src = input::read(&main)?;
            let sources: Vec<(String, String)> = args.types[1..]
                .iter()
                .map(|t| Ok((t.clone(), input::read(dependency_file(t))?)))
                .collect::<Result<_, _>>()?;
            let resolved = dependencies(&src, &sources, false)?;
            // Imports of k8s.io/api that no further --types answers: the built-in catalog's.
            let texts: Vec<&str> = std::iter::once(src.as_str()).chain(sources.iter().map(|s| s.1.as_str())).collect();
            let catalog = match texts.iter().any(|t| t.contains("\"k8s.io/api/")) {
                true => Some(crate::k8s_api::catalog(None, config.minor)?),
                false => None,
            };
            let mut deps = as_dependencies(&resolved);
            if let Some(catalog) = &catalog {
                deps = crate::k8s_api::complete(deps, &texts, catalog);
            }
            (Schema::compile_with(&src, &deps, config.minor), main, None)
        }
    };
    let main = &main;
    let located = |d: &Diagnostic| match d.file {
        Some(_) => d.to_string(),
        None => format!("{main}:{d}"),
    };
    if schema.has_errors() {
        let lines: Vec<String> = schema.diagnostics.iter().map(located).collect();
        return Err(UsageError(format!("{main} cannot be used:\n{}", lines.join("\n"))));
    }
    let root = match (&builtin, &args.type_name) {
        (Some((_, kind)), None) => schema.type_named(kind).ok_or_else(|| {
            UsageError(format!("{main} has no kind {kind}; its kinds are: {}", schema.root_candidates().join(", ")))
        })?,
        _ => pick_root(&schema, args.type_name.as_deref())?,
    };
    // Kubernetes' own normalization rules for the resource (its group: the built-in kind's,
    // or the types' `+groupName`).
    let group = match &builtin {
        Some((group, _)) => Some(group.clone()),
        None => golang::group_name(&input::read(main)?).map(String::from),
    };
    if let Some(group) = group {
        let own = shadow::normalization_rules(&group, schema.type_name(root), config.minor);
        config.normalization.splice(0..0, own);
        config.short_circuit_mismatch |= shadow::short_circuit_mismatch(&group, schema.type_name(root), config.minor);
    }
    // What a built-in kind's verdict covers, said with it.
    let coverage = builtin.as_ref().map(|(group, kind)| {
        let metadata = if args.old.is_some() {
            ", and metadata as every update's checks and ValidateObjectMetaUpdate see it; the rest of Kubernetes' handwritten validation"
        } else if kubedv_core::objectmeta::builtin_checks_metadata(group, kind) {
            ", and metadata as ValidateObjectMeta checks it; the rest of Kubernetes' handwritten validation"
        } else {
            "; Kubernetes' handwritten validation (metadata included)"
        };
        format!(
            "{main} {kind}: declarative rules on {}{metadata} is not modeled",
            count(schema.validated_fields(root), "field")
        )
    });
    let known = schema.options();
    for o in &args.options {
        if !known.iter().any(|k| k == o) {
            let list = if known.is_empty() { "none".to_string() } else { known.join(", ") };
            return Err(UsageError(format!("--option {o}: the types mention no such option (they mention: {list})")));
        }
    }
    let options = Options { enabled: args.options.clone(), defaults: !args.no_defaults };
    let handwritten = match &args.handwritten {
        None => None,
        Some(path) => {
            Some(shadow::parse_handwritten(&input::read(path)?).map_err(|e| UsageError(format!("{path}: {e}")))?)
        }
    };
    let olds = match &args.old {
        None => None,
        Some(path) => {
            let olds = input::objects(path, &input::read(path)?)?;
            if olds.len() != objects.len() {
                return Err(UsageError(format!(
                    "--old {path} has {} but --object {} has {}: they pair by position",
                    count(olds.len(), "document"),
                    args.object,
                    count(objects.len(), "document")
                )));
            }
            Some(olds)
        }
    };
    if handwritten.is_some() && objects.len() > 1 {
        return Err(UsageError("--handwritten compares one object: give a single document".into()));
    }
    // One request per object; an update whose body names another object is refused before
    // validation (all such documents said together).
    let mut reports: Vec<Report> = Vec::with_capacity(objects.len());
    let mut shadows: Vec<Option<Shadow>> = Vec::with_capacity(objects.len());
    let mut refusals: Vec<String> = Vec::new();
    for (i, object) in objects.iter().enumerate() {
        let mut request = Request::new(root, object, &config)
            .old(olds.as_ref().map(|v| &v[i]))
            .subresource(args.subresource.as_deref())
            .options(&options)
            .compare_with(handwritten.as_deref());
        if let Some((group, kind)) = &builtin {
            request = request.builtin(group, kind);
        }
        match schema.check(&request) {
            Ok(verdict) => {
                reports.push(verdict.report);
                shadows.push(verdict.shadow);
            }
            Err(Refusal::Update(why)) => refusals.push(doc_prefix(i, objects.len()) + &why),
        }
    }
    if !refusals.is_empty() {
        let why = refusals.join("\n");
        return Err(UsageError(format!("the API server refuses this update (Bad Request):\n{why}")));
    }

    // Objects that do not decode into the types are unreadable input, as for the API server:
    // the first value the types cannot hold, in the API server's words, else the walker's.
    let n = objects.len();
    let kind_of = |o: &serde_json::Value| {
        o.get("kind").and_then(serde_json::Value::as_str).unwrap_or(schema.type_name(root)).to_string()
    };
    // The decoder keeps the first such value in the document: found by position in the text
    // (each document's piece of it), else the first in key order.
    let pieces = kubedv_input::positions::split(&text);
    let first_in_text = |i: usize, errors: Vec<kubedv_core::declarative::TypeError>| {
        let at = pieces.get(i).filter(|_| pieces.len() == n).map(|p| kubedv_input::positions::Positions::of(p.text));
        errors.into_iter().min_by_key(|t| at.as_ref().and_then(|a| a.locate(&t.path)).unwrap_or((usize::MAX, 0)))
    };
    let decode: Vec<String> = reports
        .iter()
        .enumerate()
        .flat_map(|(i, r)| match first_in_text(i, schema.decoding(root, &objects[i]).type_errors) {
            Some(t) => vec![format!(
                "{}{}: {}",
                doc_prefix(i, n),
                t.path,
                t.refusal(&kind_of(&objects[i]), schema.package_name())
            )],
            None => r.diagnostics.iter().map(|d| doc_prefix(i, n) + &d.to_string()).collect(),
        })
        .collect();
    if !decode.is_empty() {
        return Err(UsageError(format!("{} does not decode into the types:\n{}", args.object, decode.join("\n"))));
    }
    // A built-in kind's warnings are about Kubernetes' own sources, not the input: its
    // coverage statement says what is not modeled.
    let warnings: Vec<&Diagnostic> = schema.diagnostics.iter().filter(|_| builtin.is_none()).collect();
    let total: usize = reports.iter().map(|r| r.errors.len()).sum();
    match format {
        OutputFormat::Text => {
            for w in &warnings {
                eprintln!("{}", located(w));
            }
            // Enforced errors first, then the shadowed ones, marked.
            for e in reports.iter().flat_map(|r| &r.errors).filter(|e| e.enforced) {
                println!("{e}");
            }
            for e in reports.iter().flat_map(|r| &r.errors).filter(|e| !e.enforced) {
                println!("shadowed: {e}");
            }
            let enforced = reports.iter().flat_map(|r| &r.errors).filter(|e| e.enforced).count();
            let per_doc = if reports.len() > 1 {
                let counts: Vec<String> = reports.iter().map(|r| r.errors.len().to_string()).collect();
                format!(" (per document: {})", counts.join(", "))
            } else {
                String::new()
            };
            if let Some(c) = &coverage {
                eprintln!("{c}");
            }
            eprintln!(
                "{} validated against {}: {}, {enforced} enforced{per_doc}",
                count(n, "object"),
                schema.type_name(root),
                count(total, "error"),
            );
            if let Some(s) = &shadows[0] {
                eprintln!(
                    "shadow: {} matched, {} unmatched handwritten, {} extra declarative: the mismatch metric grows by {}; the API server returns {}",
                    s.matched.len(),
                    s.unmatched_handwritten.len(),
                    s.extra_declarative.len(),
                    s.mismatches,
                    count(s.returned.len(), "error")
                );
            }
        }
        OutputFormat::Json => {
            let docs: Vec<Doc> = reports
                .iter()
                .zip(&shadows)
                .map(|(r, s)| Doc {
                    errors: &r.errors,
                    diagnostics: &warnings,
                    shadow: s.as_ref(),
                    coverage: coverage.as_deref(),
                })
                .collect();
            let out = if docs.len() == 1 {
                serde_json::to_string_pretty(&docs[0])
            } else {
                serde_json::to_string_pretty(&docs)
            };
            println!("{}", out.expect("serializable report"));
        }
    }
    // Exit status: whether the API server would return errors.
    let returned = match &handwritten {
        Some(_) => shadows.iter().flatten().map(|s| s.returned.len()).sum::<usize>(),
        None => reports.iter().flat_map(|r| &r.errors).filter(|e| e.enforced).count(),
    };
    Ok(if returned == 0 { Outcome::Clean } else { Outcome::Invalid })
}

/// The JSON document for one object (docs/design.md: `{"errors": [...], "diagnostics": [...]}`).
#[derive(serde::Serialize)]
struct Doc<'a> {
    errors: &'a [kubedv_core::field::Error],
    diagnostics: &'a [&'a Diagnostic],
    #[serde(skip_serializing_if = "Option::is_none")]
    shadow: Option<&'a Shadow>,
    /// For a built-in kind: what its verdict covers.
    #[serde(skip_serializing_if = "Option::is_none")]
    coverage: Option<&'a str>,
}

fn doc_prefix(i: usize, n: usize) -> String {
    if n > 1 {
        format!("document {}: ", i + 1)
    } else {
        String::new()
    }
}

/// A built-in kind's API group and kind (`None`: the types were given).
type Builtin = Option<(String, String)>;

/// The built-in package of the objects' apiVersion (or `--kind`), its name, their group and kind:
/// every object must share the first one's apiVersion and kind.
fn builtin_schema(
    dir: Option<&str>,
    kind_arg: Option<&str>,
    objects: &[serde_json::Value],
    minor: u32,
) -> Result<(Schema, String, Builtin), UsageError> {
    let field = |o: &serde_json::Value, k: &str| o.get(k).and_then(serde_json::Value::as_str).unwrap_or("").to_string();
    let (api_version, kind) = match kind_arg {
        Some(k) => match k.rsplit_once('/') {
            Some((av, kind)) if !av.is_empty() && !kind.is_empty() => (av.to_string(), kind.to_string()),
            _ => {
                return Err(UsageError(format!(
                    "--kind {k}: expected GROUP/VERSION/KIND (apps/v1/Deployment) or VERSION/KIND (v1/Pod)"
                )))
            }
        },
        None => (field(&objects[0], "apiVersion"), field(&objects[0], "kind")),
    };
    if api_version.is_empty() || kind.is_empty() {
        return Err(UsageError(
            "the object needs apiVersion and kind to pick its built-in type (or give --kind, or its Go types with --types)".into(),
        ));
    }
    if kind_arg.is_none() {
        if let Some(other) = objects.iter().find(|o| field(o, "apiVersion") != api_version || field(o, "kind") != kind)
        {
            return Err(UsageError(format!(
                "every object must be of the same kind, {api_version} {kind}; one is {} {} (use kubedv check for mixed kinds)",
                field(other, "apiVersion"),
                field(other, "kind")
            )));
        }
    }
    let catalog = crate::k8s_api::catalog(dir, minor)?;
    let where_ =
        dir.map_or_else(|| format!("the built-in catalog of Kubernetes 1.{minor}"), |d| format!("--k8s-api {d}"));
    let Some(package) = catalog.serving(&api_version) else {
        return Err(UsageError(format!(
            "{api_version} is not a built-in API version in {where_}: give the kind's CRD to `kubedv crd`, or its Go types with --types"
        )));
    };
    let schema = catalog.compile(package, minor);
    Ok((schema, package.label.clone(), Some((package.group.to_string(), kind))))
}

/// Resolved packages (import path, file, source) as compile dependencies.
pub(crate) fn as_dependencies(resolved: &[(String, impl AsRef<str>, impl AsRef<str>)]) -> Vec<Dependency<'_>> {
    resolved
        .iter()
        .map(|(import_path, label, text)| Dependency { import_path, label: label.as_ref(), text: text.as_ref() })
        .collect()
}

/// The file of a further `--types` (`IMPORT=FILE` or `FILE`).
fn dependency_file(arg: &str) -> &str {
    explicit_import(arg).map_or(arg, |(_, file)| file)
}

/// `k8s.io/api/core/v1=core.go`: an import path (a dotted host, then a path) before `=`.
pub(crate) fn explicit_import(arg: &str) -> Option<(&str, &str)> {
    let (import, file) = arg.split_once('=')?;
    let host = import.split('/').next()?;
    (host.contains('.') && import.contains('/') && !file.is_empty()).then_some((import, file))
}

/// Each further `--types` as the package an import resolves to: import path, file, source.
/// `lenient`: a file that answers no import is left out instead of refused.
pub(crate) fn dependencies<'a>(
    main: &str,
    sources: &'a [(String, String)],
    lenient: bool,
) -> Result<Vec<(String, &'a str, &'a str)>, UsageError> {
    let mut imports: Vec<String> = golang::parse_file(main).0.imports.into_iter().map(|i| i.path).collect();
    for (_, text) in sources {
        imports.extend(golang::parse_file(text).0.imports.into_iter().map(|i| i.path));
    }
    let imports: Vec<&str> = imports.iter().map(String::as_str).collect();
    let mut deps: Vec<(String, &'a str, &'a str)> = Vec::new();
    for (arg, text) in sources {
        let (import, label) = match explicit_import(arg) {
            Some((import, file)) => (import.to_string(), file),
            None => match import_provided_by(&imports, arg) {
                Some(import) => (import.to_string(), arg.as_str()),
                None if lenient => continue,
                None => {
                    return Err(UsageError(format!(
                        "--types {arg}: no import of the types ends with its directories; name the package: --types IMPORT/PATH={arg}"
                    )))
                }
            },
        };
        if deps.iter().any(|d| d.0 == import) {
            return Err(UsageError(format!("--types {arg}: package {import} is given twice")));
        }
        deps.push((import, label, text));
    }
    Ok(deps)
}

fn pick_root(schema: &Schema, name: Option<&str>) -> Result<usize, UsageError> {
    schema.root(name).map_err(|e| {
        UsageError(match e {
            RootError::NoSuchType { name, types } => {
                format!("--type {name}: no such type; the types are: {}", types.join(", "))
            }
            RootError::NoRoot { types } => {
                format!("no root type found; pick one with --type (the types are: {})", types.join(", "))
            }
            RootError::Several { candidates } => {
                format!("several types could be the root: {}; pick one with --type", candidates.join(", "))
            }
        })
    })
}
