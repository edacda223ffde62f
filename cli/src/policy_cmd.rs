//! `kubedv policy`: evaluate admission policies against a request as the API server would —
//! which bindings match and why, each validation's result and cost, the denial text, the
//! warnings and audit annotations. `kubedv policy test SUITE` runs a suite of such cases.

use std::io::Write;

use kubedv_core::cel::k8s::authz::Rule;
use kubedv_core::declarative::shadow;
use kubedv_core::diag::Severity;
use kubedv_core::policy::{is_policy_document, PolicySet, Request, UserInfo};
use serde_json::Value;

use crate::input;
use crate::output::{count, Outcome};
use crate::{CliFormat, UsageError};

#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Args {
    #[command(subcommand)]
    test: Option<Sub>,
    /// Policies (files may hold several documents: policies, bindings and params).
    #[arg(long)]
    policy: Vec<String>,
    /// Bindings.
    #[arg(long)]
    binding: Vec<String>,
    /// Params objects.
    #[arg(long)]
    params: Vec<String>,
    /// The object of the request (none for DELETE).
    #[arg(long)]
    object: Option<String>,
    /// The existing object (UPDATE, DELETE).
    #[arg(long)]
    old: Option<String>,
    /// CREATE, UPDATE, DELETE or CONNECT (default: from which objects are given).
    #[arg(long)]
    operation: Option<String>,
    /// The namespace of the request, as an object (its labels decide `namespaceSelector`).
    #[arg(long)]
    namespace_object: Option<String>,
    /// The requesting user.
    #[arg(long)]
    user: Option<String>,
    /// A group of the requesting user (repeatable).
    #[arg(long)]
    group: Vec<String>,
    /// An authorization the authorizer grants: `user=alice,verb=create,apiGroup=apps,
    /// resource=deployments,namespace=prod` (keys also userGroup, subresource, name, path,
    /// reason; an absent key or `*` matches anything). Repeatable; anything else is denied.
    #[arg(long)]
    allow: Vec<String>,
    /// The subresource of the request (`status`, `scale`).
    #[arg(long)]
    subresource: Option<String>,
    /// The resource (plural) when it is not the kind's usual plural (a CRD's `spec.names.plural`).
    #[arg(long)]
    resource: Option<String>,
    /// The namespace, when the object does not say (default `default` for namespaced kinds).
    #[arg(long)]
    namespace: Option<String>,
    /// A dry run.
    #[arg(long)]
    dry_run: bool,
    /// The Kubernetes version whose API server is modeled (default: the newest supported). It
    /// compiles the policies' expressions in its CEL environment for new expressions.
    #[arg(long = "k8s-version", value_name = "1.N")]
    k8s_version: Option<String>,
}

#[derive(clap::Subcommand)]
enum Sub {
    /// Run a policy test suite: cases of object / oldObject / params / request → expected
    /// verdict, message, warnings and audit annotations.
    Test(crate::policy_suite::Args),
}

/// Policies, bindings and params from files: policy documents go to the set, the rest are params.
pub fn load(paths: &[&String]) -> Result<(Vec<Value>, Vec<Value>), UsageError> {
    let (mut policies, mut params) = (Vec::new(), Vec::new());
    for path in paths {
        let text = input::read(path)?;
        for doc in input::objects(path, &text)? {
            if is_policy_document(&doc) {
                policies.push(doc);
            } else {
                params.push(doc);
            }
        }
    }
    Ok((policies, params))
}

/// Refuses documents the API server would refuse; warns about the others.
pub fn check_problems(set: &PolicySet) -> Result<(), UsageError> {
    let mut errors = Vec::new();
    for p in &set.problems {
        let field = if p.field.is_empty() { String::new() } else { format!("{}: ", p.field) };
        let line = format!("{}: {field}{}", p.document, p.message);
        match p.severity {
            Severity::Error => errors.push(line),
            Severity::Warning => eprintln!("kubedv: warning: {line}"),
        }
    }
    if errors.is_empty() {
        return Ok(());
    }
    Err(UsageError(format!("the API server would refuse these policies:\n{}", errors.join("\n"))))
}

fn one(path: &Option<String>) -> Result<Option<Value>, UsageError> {
    let Some(path) = path else { return Ok(None) };
    let text = input::read(path)?;
    let mut docs = input::objects(path, &text)?;
    if docs.len() > 1 {
        return Err(UsageError(format!(
            "{path}: {} documents; a request has one object (use `kubedv policy test` for many cases)",
            docs.len()
        )));
    }
    Ok(docs.pop())
}

pub fn run(args: Args, format: CliFormat) -> Result<Outcome, UsageError> {
    if let Some(Sub::Test(t)) = args.test {
        return crate::policy_suite::run(t, format);
    }
    if args.policy.is_empty() {
        return Err(UsageError(String::from("give the policies with --policy FILE")));
    }
    let files: Vec<&String> = args.policy.iter().chain(&args.binding).chain(&args.params).collect();
    let (docs, params) = load(&files)?;
    let minor =
        shadow::parse_version(args.k8s_version.as_deref()).map_err(|e| UsageError(format!("--k8s-version: {e}")))?;
    let set = PolicySet::new_at(&docs, minor);
    check_problems(&set)?;
    let object = one(&args.object)?;
    let old_object = one(&args.old)?;
    if object.is_none() && old_object.is_none() {
        return Err(UsageError(String::from(
            "give the request's object with --object FILE (or --old FILE for a DELETE)",
        )));
    }
    let allowed = args
        .allow
        .iter()
        .map(|a| Rule::parse(a).map_err(|e| UsageError(format!("--allow {a:?}: {e}"))))
        .collect::<Result<Vec<_>, _>>()?;
    let mut req = Request {
        operation: args.operation.clone().unwrap_or_default().to_ascii_uppercase(),
        sub_resource: args.subresource.clone().unwrap_or_default(),
        namespace: args.namespace.clone().unwrap_or_default(),
        user: UserInfo {
            username: args.user.clone().unwrap_or_default(),
            groups: args.group.clone(),
            ..UserInfo::default()
        },
        dry_run: args.dry_run,
        object,
        old_object,
        namespace_object: one(&args.namespace_object)?,
        ..Request::default()
    };
    if let Some(r) = &args.resource {
        req.resource.resource = r.clone();
    }
    if !matches!(req.operation.as_str(), "" | "CREATE" | "UPDATE" | "DELETE" | "CONNECT") {
        return Err(UsageError(format!("--operation {}: expected CREATE, UPDATE, DELETE or CONNECT", req.operation)));
    }
    req.infer();
    let outcome = set.evaluate(&req, &params, &allowed);
    if !outcome.unsupported.is_empty() {
        return Err(UsageError(format!("cannot give the API server's verdict:\n{}", outcome.unsupported.join("\n"))));
    }
    let (policies, bindings) = set.counts();
    let mut out = std::io::stdout().lock();
    let _ = match format {
        CliFormat::Github | CliFormat::Sarif | CliFormat::Junit => {
            return Err(UsageError(String::from("kubedv policy writes text or json (junit: kubedv policy test)")));
        }
        CliFormat::Json => {
            serde_json::to_writer_pretty(&mut out, &outcome).map_err(std::io::Error::other).and_then(|()| writeln!(out))
        }
        CliFormat::Text => {
            let r = outcome.denials.iter().try_for_each(|d| writeln!(out, "{}", d.text));
            for w in &outcome.warnings {
                eprintln!("Warning: {w}");
            }
            for (k, v) in &outcome.audit_annotations {
                eprintln!("audit annotation {k}: {v}");
            }
            let verdict = match &outcome.status {
                Some(s) => format!("denied ({} {}): {}", s.code, s.reason, s.message),
                None => String::from("allowed"),
            };
            eprintln!(
                "{} {}: {} and {} read, {}; {verdict}",
                req.operation,
                req.kind.kind,
                count(policies, "policy").replace("policys", "policies"),
                count(bindings, "binding"),
                count(outcome.evaluations.iter().filter(|e| e.matched).count(), "evaluation"),
            );
            r
        }
    };
    Ok(if outcome.allowed { Outcome::Clean } else { Outcome::Invalid })
}
