//! Built-in kinds as the API server admits them: for a create or an update of a Pod, a
//! Deployment, a Service…, what `kube-apiserver` v1.37 does after decoding the body and before
//! storing it, in its order and with its words:
//!
//! 1. **defaulting**: the handwritten `SetDefaults_*` of the served version
//!    (`pkg/apis/<group>/<version>/defaults.go`), so validation sees what the API server sees
//!    (a container without `imagePullPolicy` gets one, a Deployment without `strategy` gets
//!    `RollingUpdate` 25%/25%);
//! 2. **the strategy**: `PrepareForCreate` / `PrepareForUpdate` of `pkg/registry/<group>/<kind>`
//!    (status reset, fields of disabled feature gates dropped, generation);
//! 3. **handwritten validation**: `pkg/apis/<group>/validation`'s `ValidateX` /
//!    `ValidateXUpdate`, the object's `metadata` aside ([`crate::objectmeta`] checks it, with
//!    the kind's name rule, for every built-in kind);
//! 4. **warnings**: the strategy's `WarningsOnCreate` / `WarningsOnUpdate`
//!    (`pkg/api/pod/warnings.go` and its kin);
//! 5. **validating admission** of the default plugins that need no other object
//!    ([`admission`]: PodSecurity's namespace labels).
//!
//! The declarative `+k8s:` rules of the same kinds run beside this, in [`crate::check`], from
//! the release's k8s.io/api catalog. One room per API group, after Kubernetes' `pkg/apis`:
//!
//! - [`core`](self::core): the core group (`v1`): Pod, PodTemplate, ReplicationController and
//!   the whole PodSpec, Service, Endpoints, ConfigMap, Secret, Namespace, ServiceAccount,
//!   PersistentVolumeClaim;
//! - [`apps`]: Deployment, ReplicaSet, StatefulSet, DaemonSet, ControllerRevision;
//! - [`batch`]: Job, CronJob;
//! - [`json`]: reading the decoded object (a `serde_json::Value`) the way the Go code reads
//!   its typed fields, and printing bad values as Go's `field.Error` prints them;
//! - [`quantity`]: `resource.Quantity` (parsing, comparison, the API server's texts).
//!
//! One entry per request: [`admit`].

pub mod admission;
pub mod apps;
pub mod batch;
pub mod core;
pub mod json;
pub mod quantity;

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value as Json;

use crate::field::Error;

/// One request for a built-in kind: a create (`old` is `None`) or an update.
#[derive(Clone, Copy, Debug)]
pub struct Request<'a> {
    /// The API group (`apps`; empty for the core group).
    pub group: &'a str,
    /// The served version (`v1`).
    pub version: &'a str,
    /// The kind (`Deployment`).
    pub kind: &'a str,
    /// The decoded body, before defaulting.
    pub object: &'a Json,
    /// The stored object of an update, as stored (defaulted).
    pub old: Option<&'a Json>,
    /// The Kubernetes release (1.`minor`): its default feature gates apply.
    pub minor: u32,
}

/// What the API server's path gives for one request.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The object as validation saw it: defaulted, then prepared by the strategy.
    pub object: Json,
    /// The handwritten validation's errors (for an update, `ValidateXUpdate`'s, which include
    /// the create's checks of the new object where Kubernetes runs them).
    pub errors: Vec<Error>,
    /// The strategy's warnings, in the API server's words.
    pub warnings: Vec<String>,
    /// What validating admission refuses ([`admission`]): the API server asks admission only
    /// when all of validation passed (metadata and declarative rules included), which the
    /// caller knows.
    pub admission: Vec<Error>,
}

/// Options every validator of a request shares (Kubernetes passes them as
/// `PodValidationOptions` and their kin, from feature gates and the old object).
#[derive(Clone, Copy, Debug)]
pub struct Context {
    /// The Kubernetes release (1.`minor`).
    pub minor: u32,
    /// An update (the old object exists).
    pub update: bool,
}

/// Whether kubedv models the API server's path for this group and kind.
pub fn handles(group: &str, kind: &str) -> bool {
    match group {
        "" => self::core::KINDS.contains(&kind),
        "apps" => apps::KINDS.contains(&kind),
        "batch" => batch::KINDS.contains(&kind),
        _ => false,
    }
}

/// Defaults the object as the API server does on decoding (and the old object of an update
/// is already stored defaulted). Kinds not modeled are left as they are.
pub fn default(group: &str, version: &str, kind: &str, object: &mut Json) {
    match group {
        "" => self::core::default(version, kind, object),
        "apps" => apps::default(version, kind, object),
        "batch" => batch::default(version, kind, object),
        _ => {}
    }
}

/// The API server's path for one request of a kind [`handles`] names; `None` for others.
pub fn admit(request: &Request<'_>) -> Option<Outcome> {
    if !handles(request.group, request.kind) {
        return None;
    }
    let mut object = request.object.clone();
    default(request.group, request.version, request.kind, &mut object);
    // The old object of an update is the stored one: what the create path made of it
    // (defaulted, then prepared by the strategy: a Job's generated selector, a Service's
    // allocated addresses, a reset status).
    let old = request.old.map(|old| {
        let mut stored = old.clone();
        default(request.group, request.version, request.kind, &mut stored);
        let create = Group { kind: request.kind, context: Context { minor: request.minor, update: false } };
        let _ = run(request.group, &create, &mut stored, None);
        stored
    });
    let context = Context { minor: request.minor, update: old.is_some() };
    let group = Group { kind: request.kind, context };
    let (errors, warnings) = run(request.group, &group, &mut object, old.as_ref())?;
    let admission = admission::validate(request.group, request.kind, &object, old.as_ref());
    Some(Outcome { object, errors, warnings, admission })
}

/// One group's room: its strategy, validation and warnings for a request.
fn run(group: &str, g: &Group<'_>, object: &mut Json, old: Option<&Json>) -> Option<(Vec<Error>, Vec<String>)> {
    Some(match group {
        "" => self::core::admit(g, object, old),
        "apps" => apps::admit(g, object, old),
        "batch" => batch::admit(g, object, old),
        _ => return None,
    })
}

/// What a group's room is asked: the kind, and the request's context.
#[derive(Clone, Copy, Debug)]
pub struct Group<'a> {
    /// The kind (`Deployment`).
    pub kind: &'a str,
    /// The request's context.
    pub context: Context,
}
