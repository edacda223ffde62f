//! `kubedv cri-skew`, `kubedv cri-range` and `kubedv cri-feature`.

use kubedv_core::cri::maturity::{self, Feature, Stage, Status};
use kubedv_core::cri::skew;

use crate::output::{count, Outcome, OutputFormat};
use crate::UsageError;

#[derive(clap::Args)]
pub struct SkewArgs {
    /// The kubelet's Kubernetes version (1.30.2).
    #[arg(long)]
    kubelet: String,
    /// The container runtime: the k8s.io/cri-api version it implements (v0.27.1) or a product
    /// and its version (containerd=1.7.20, cri-o=1.30.1).
    #[arg(long)]
    runtime: String,
    /// Another CRI client of the runtime, NAME=VERSION (crictl=1.27.0, or a cri-api tag). Repeatable.
    #[arg(long = "client", value_name = "NAME=VERSION")]
    clients: Vec<String>,
    /// An image-service proxy the kubelet calls and which calls the runtime, NAME=VERSION. Repeatable.
    #[arg(long = "image-service", value_name = "NAME=VERSION")]
    image_services: Vec<String>,
}

pub fn skew(args: SkewArgs, format: OutputFormat) -> Result<Outcome, UsageError> {
    let report =
        skew::check_node(&args.kubelet, &args.runtime, &args.clients, &args.image_services).map_err(UsageError)?;
    match format {
        OutputFormat::Text => {
            for p in &report.pairs {
                let verdict = if p.supported { "supported" } else { "NOT supported" };
                println!(
                    "{} {} -> {} {}: {verdict}: {}",
                    p.client, p.client_version, p.server, p.server_version, p.reason
                );
            }
            let bad = report.pairs.iter().filter(|p| !p.supported).count();
            if bad == 0 {
                eprintln!("supported: every pair is within the CRI API version skew policy");
            } else {
                eprintln!(
                    "not supported: {} of {} outside the CRI API version skew policy",
                    count(bad, "pair"),
                    report.pairs.len()
                );
            }
        }
        OutputFormat::Json => print_json(&report),
    }
    Ok(if report.supported { Outcome::Clean } else { Outcome::Invalid })
}

#[derive(clap::Args)]
#[group(required = true, multiple = false)]
pub struct RangeArgs {
    /// Show the runtimes a kubelet of this version works with.
    #[arg(long)]
    kubelet: Option<String>,
    /// Show the kubelets a runtime works with (v0.27.1, containerd=1.7.20, cri-o=1.30.1).
    #[arg(long)]
    runtime: Option<String>,
}

pub fn range(args: RangeArgs, format: OutputFormat) -> Result<Outcome, UsageError> {
    let range = match (&args.kubelet, &args.runtime) {
        (Some(k), _) => skew::range_for_kubelet(k),
        (_, Some(r)) => skew::range_for_runtime(r),
        (None, None) => unreachable!("clap requires one of --kubelet and --runtime"),
    }
    .map_err(UsageError)?;
    match format {
        OutputFormat::Text => {
            println!("{}", range.text);
            for r in &range.runtimes {
                println!("  {r}");
            }
        }
        OutputFormat::Json => print_json(&range),
    }
    Ok(Outcome::Clean)
}

#[derive(clap::Args)]
pub struct FeatureArgs {
    /// The stage asked for: alpha, beta-off (beta, disabled by default), beta-on (beta, enabled by default), ga.
    #[arg(long)]
    stage: String,
    /// containerd's status: none, pr-open, merged, experimental, released (a pre-release), released-ga.
    #[arg(long)]
    containerd: String,
    /// CRI-O's status (as for --containerd).
    #[arg(long = "cri-o")]
    crio: String,
    /// A Kubernetes release already shipped the feature as beta enabled by default (needed for ga).
    #[arg(long)]
    shipped_beta_on: bool,
}

pub fn feature(args: FeatureArgs, format: OutputFormat) -> Result<Outcome, UsageError> {
    let names = |all: &[&str]| all.join(", ");
    let stage = Stage::from_name(&args.stage).ok_or_else(|| {
        UsageError(format!(
            "--stage: unknown stage {:?}; the stages are: {}",
            args.stage,
            names(&Stage::ALL.map(|(_, n)| n))
        ))
    })?;
    let status = |flag: &str, v: &str| {
        Status::from_name(v).ok_or_else(|| {
            UsageError(format!(
                "{flag}: unknown status {v:?}; the statuses are: {}",
                names(&Status::ALL.map(|(_, n)| n))
            ))
        })
    };
    let feature = Feature {
        stage,
        containerd: status("--containerd", &args.containerd)?,
        crio: status("--cri-o", &args.crio)?,
        shipped_beta_on: args.shipped_beta_on,
    };
    let verdict = maturity::check(&feature);
    match format {
        OutputFormat::Text => {
            for r in &verdict.rules {
                println!("{} {}: {}", if r.satisfied { "ok     " } else { "BLOCKED" }, r.rule, r.reason);
            }
            for r in &verdict.reminders {
                println!("also   {r}");
            }
            eprintln!("{}", verdict.summary);
        }
        OutputFormat::Json => print_json(&verdict),
    }
    Ok(if verdict.allowed { Outcome::Clean } else { Outcome::Invalid })
}

fn print_json<T: serde::Serialize>(value: &T) {
    println!("{}", serde_json::to_string_pretty(value).expect("serializable result"));
}
