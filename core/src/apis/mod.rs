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
//! the release's k8s.io/api catalog. One room per API group, after Kubernetes' `pkg/apis`
//! (each a module exposing `KINDS`, `default` and `admit`, listed in one table, [`rooms`]):
//!
//! - [`core`](self::core): the core group (`v1`): Pod, PodTemplate, ReplicationController and
//!   the whole PodSpec, Service, Endpoints, ConfigMap, Secret, Namespace, ServiceAccount,
//!   PersistentVolumeClaim, PersistentVolume, ResourceQuota, LimitRange, Node, Event, Binding;
//! - [`apps`]: Deployment, ReplicaSet, StatefulSet, DaemonSet, ControllerRevision;
//! - [`batch`]: Job, CronJob;
//! - [`autoscaling`], [`networking`], [`policy`], [`rbac`], [`storage`], [`scheduling`],
//!   [`coordination`], [`discovery`], [`admissionregistration`], [`certificates`],
//!   [`flowcontrol`], [`node`], [`resource`], [`events`], [`apiserverinternal`],
//!   [`storagemigration`], [`lifecycle`] (nothing served by default): the other groups of
//!   k8s.io/api, each after its `pkg/apis/<group>/validation` and `pkg/registry/<group>`;
//! - [`apiregistration`]: the aggregator's APIService (kube-aggregator);
//! - [`authentication`], [`authorization`]: the reviews, answered on create and never stored;
//! - [`json`]: reading the decoded object (a `serde_json::Value`) the way the Go code reads
//!   its typed fields, and printing bad values as Go's `field.Error` prints them;
//! - [`quantity`] (re-exported from the crate root, where the declarative engine reads it too):
//!   `resource.Quantity` (parsing, comparison, the API server's texts);
//! - [`admission`]: the validating admission that needs no other object.
//!
//! One entry per request: [`admit`].

pub mod admission;
pub mod admissionregistration;
pub mod apiregistration;
pub mod apiserverinternal;
pub mod apps;
pub mod authentication;
pub mod authorization;
pub mod autoscaling;
pub mod batch;
pub mod certificates;
pub mod coordination;
pub mod core;
pub mod discovery;
pub mod events;
pub mod flowcontrol;
pub mod json;
pub mod lifecycle;
pub mod networking;
pub mod node;
pub mod policy;
pub use crate::quantity;
pub mod rbac;
pub mod resource;
pub mod scheduling;
pub mod storage;
pub mod storagemigration;

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
    /// The strategy's warnings, in the API server's words (`WarningsOnCreate`/`OnUpdate`: given
    /// only when the request passes).
    pub warnings: Vec<String>,
    /// Warnings the strategy's `PrepareForCreate` records on the request's context
    /// (`warning.AddWarning`), before validation: given whatever validation says (a Pod's
    /// deprecated AppArmor annotations, `applyAppArmorVersionSkew`).
    pub prepare_warnings: Vec<String>,
    /// What validating admission refuses ([`admission`]): the API server asks admission only
    /// when all of validation passed (metadata and declarative rules included), which the
    /// caller knows.
    pub admission: Vec<Error>,
    /// A Bad Request the kind's REST handler answers instead (a `TokenReview` without a token),
    /// when validation found nothing.
    pub refusal: Option<String>,
    /// The stored object of an update (defaulted, prepared by the create path), which the
    /// declarative rules compare with too.
    pub old: Option<Json>,
    /// The declarative validation options the strategy turns on (`+k8s:ifEnabled`), from
    /// feature gates and the old object (the HorizontalPodAutoscaler's `HPAScaleToZero`).
    pub options: Vec<String>,
    /// The registry refused the request before validation (a Service whose addresses or ports
    /// cannot be allocated: `beginCreate`/`beginUpdate`): `errors` are its only errors, no
    /// metadata or declarative rule runs.
    pub allocation_refused: bool,
}

/// Options every validator of a request shares (Kubernetes passes them as
/// `PodValidationOptions` and their kin, from feature gates and the old object).
#[derive(Clone, Copy, Debug)]
pub struct Context {
    /// The Kubernetes release (1.`minor`).
    pub minor: u32,
    /// An update (the old object exists).
    pub update: bool,
    /// The options a workload's pod template is validated with
    /// (`pod.GetValidationOptionsFromPodTemplate(new, old)`: what the old template already
    /// had is allowed to stay); a create's by default.
    pub template: self::core::pod::PodOpts,
}

impl Context {
    /// The context of a request to Kubernetes 1.`minor`.
    pub fn new(minor: u32, update: bool) -> Context {
        Context { minor, update, template: self::core::pod::PodOpts::default() }
    }
}

/// One API group's room: the kinds it models, their defaulting, and a request's strategy,
/// validation and warnings.
struct Room {
    name: &'static str,
    group: &'static str,
    kinds: &'static [&'static str],
    default: fn(version: &str, kind: &str, object: &mut Json),
    admit: Admit,
}

/// A room's strategy, validation and warnings for one request: (errors, warnings).
type Admit = fn(group: &Group<'_>, object: &mut Json, old: Option<&Json>) -> (Vec<Error>, Vec<String>);

macro_rules! room {
    ($m:ident, $group:literal) => {
        Room { name: stringify!($m), group: $group, kinds: $m::KINDS, default: $m::default, admit: $m::admit }
    };
}

/// Every room, by module name and API group.
const ROOMS: &[Room] = &[
    room!(core, ""),
    room!(admissionregistration, "admissionregistration.k8s.io"),
    room!(apiregistration, "apiregistration.k8s.io"),
    room!(apiserverinternal, "internal.apiserver.k8s.io"),
    room!(apps, "apps"),
    room!(authentication, "authentication.k8s.io"),
    room!(authorization, "authorization.k8s.io"),
    room!(autoscaling, "autoscaling"),
    room!(batch, "batch"),
    room!(certificates, "certificates.k8s.io"),
    room!(coordination, "coordination.k8s.io"),
    room!(discovery, "discovery.k8s.io"),
    room!(events, "events.k8s.io"),
    room!(flowcontrol, "flowcontrol.apiserver.k8s.io"),
    room!(lifecycle, "lifecycle.k8s.io"),
    room!(networking, "networking.k8s.io"),
    room!(node, "node.k8s.io"),
    room!(policy, "policy"),
    room!(rbac, "rbac.authorization.k8s.io"),
    room!(resource, "resource.k8s.io"),
    room!(scheduling, "scheduling.k8s.io"),
    room!(storage, "storage.k8s.io"),
    room!(storagemigration, "storagemigration.k8s.io"),
];

/// The room of an API group, by the group's name.
fn room(group: &str) -> Option<&'static Room> {
    ROOMS.iter().find(|r| r.group == group)
}

/// The rooms (by module name: `networking`) and the API group each models
/// (`networking.k8s.io`).
pub fn rooms() -> impl Iterator<Item = (&'static str, &'static str)> {
    ROOMS.iter().map(|r| (r.name, r.group))
}

/// The message the API server refuses a create of a kind it serves read-only with (a 405
/// from its router, before the body is read: no warnings, no validation).
pub fn read_only(group: &str, kind: &str) -> Option<&'static str> {
    (group.is_empty() && kind == "ComponentStatus")
        .then_some("the server does not allow this method on the requested resource")
}

/// Whether kubedv models the API server's path for this group and kind.
pub fn handles(group: &str, kind: &str) -> bool {
    room(group).is_some_and(|r| r.kinds.contains(&kind))
}

/// Defaults the object as the API server does on decoding (and the old object of an update
/// is already stored defaulted). Kinds not modeled are left as they are.
pub fn default(group: &str, version: &str, kind: &str, object: &mut Json) {
    if let Some(room) = room(group) {
        (room.default)(version, kind, object);
    }
}

/// A declarative error's field as the handwritten errors of `group` name it, when the two
/// differ (`rest.DeclarativeValidationConfig.NormalizationRules`: an older version's layout
/// brought to the internal one, for `FilterCoveredHandwrittenErrors`' matching); `None` when
/// no rule applies.
pub fn normalized_declarative_field(group: &str, field: &str) -> Option<String> {
    match group {
        "resource.k8s.io" => resource::normalized_field(field),
        _ => None,
    }
}

/// The API server's path for one request of a kind [`handles`] names; `None` for others.
pub fn admit(request: &Request<'_>) -> Option<Outcome> {
    let room = room(request.group).filter(|r| r.kinds.contains(&request.kind))?;
    let mut object = request.object.clone();
    (room.default)(request.version, request.kind, &mut object);
    let group =
        |update| Group { kind: request.kind, version: request.version, context: Context::new(request.minor, update) };
    // The old object of an update is the stored one: what the create path made of it
    // (defaulted, then prepared by the strategy: a Job's generated selector, a Service's
    // allocated addresses, a reset status).
    let old = request.old.map(|old| {
        let mut stored = old.clone();
        (room.default)(request.version, request.kind, &mut stored);
        let _ = (room.admit)(&group(false), &mut stored, None);
        stored
    });
    let prepare_warnings = match (request.group, request.kind, &old) {
        ("", "Pod", None) => self::core::pod::prepare_warnings(&object),
        _ => Vec::new(),
    };
    let (errors, warnings, allocation_refused) = match (request.group, request.kind) {
        ("", "Service") => {
            self::core::service_alloc::admit_allocating(group(old.is_some()).context, &mut object, old.as_ref())
        }
        _ => {
            let (errors, warnings) = (room.admit)(&group(old.is_some()), &mut object, old.as_ref());
            (errors, warnings, false)
        }
    };
    let admission = admission::validate(request.group, request.kind, &object, old.as_ref());
    let mut errors = errors;
    let refusal = match (request.group, request.kind) {
        ("authentication.k8s.io", kind) => authentication::refusal(kind, &object),
        ("authorization.k8s.io", kind) => authorization::refusal(kind, &object),
        // `BindingREST.Create` returns its validation errors as an internal error: a 500 whose
        // message is the aggregate's (apimachinery `utilerrors.NewAggregate`: one error's text,
        // several as `[a, b]`).
        ("", "Binding") if !errors.is_empty() => {
            let texts: Vec<String> = ::core::mem::take(&mut errors).iter().map(Error::text).collect();
            Some(match texts.as_slice() {
                [one] => one.clone(),
                many => alloc::format!("[{}]", many.join(", ")),
            })
        }
        _ => None,
    };
    let options = match (request.group, request.kind) {
        ("autoscaling", "HorizontalPodAutoscaler") => {
            autoscaling::declarative_options(&object, old.as_ref(), request.minor)
        }
        _ => Vec::new(),
    };
    Some(Outcome { object, errors, warnings, prepare_warnings, admission, refusal, old, options, allocation_refused })
}

/// What a group's room is asked: the kind, and the request's context.
#[derive(Clone, Copy, Debug)]
pub struct Group<'a> {
    /// The kind (`Deployment`).
    pub kind: &'a str,
    /// The served version of the request (`v1`): the body's, before conversion.
    pub version: &'a str,
    /// The request's context.
    pub context: Context,
}
