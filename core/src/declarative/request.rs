//! One declarative validation request, the entry every front end calls (`kubedv validate`,
//! npm's `Schema.validate`, the playground's Declarative view): the object validated as the
//! request states it, each error marked as the API server returns it (or compared with
//! handwritten errors), and for a built-in kind its metadata and the update refusal.
//!
//! What a front end decides before (once for many objects): the root type ([`Schema::root`],
//! each front end words its errors) and the [`Enforcement`] of the Kubernetes version and gates
//! ([`Enforcement::from_request`], [`Enforcement::set_comparison`]).

use alloc::string::String;

use serde_json::Value;

use super::schema::{Schema, TypeId};
use super::shadow::{Enforcement, Handwritten, Shadow};
use super::validate::{Options, Report};

/// What to validate, and how: [`Request::new`], then what the request adds.
#[derive(Clone, Copy)]
pub struct Request<'a> {
    root: TypeId,
    object: &'a Value,
    old: Option<&'a Value>,
    subresource: Option<&'a str>,
    options: Option<&'a Options>,
    enforcement: &'a Enforcement,
    #[cfg_attr(not(feature = "shadow"), allow(dead_code))]
    handwritten: Option<&'a [Handwritten]>,
    #[cfg_attr(not(feature = "apis"), allow(dead_code))]
    builtin: Option<(&'a str, &'a str)>,
}

impl<'a> Request<'a> {
    /// `object` as an instance of the declared type `root`, created, under `enforcement`: the
    /// API server's configuration, which decides the errors it returns.
    pub fn new(root: TypeId, object: &'a Value, enforcement: &'a Enforcement) -> Request<'a> {
        let (old, subresource, options, handwritten, builtin) = (None, None, None, None, None);
        Request { root, object, old, subresource, options, enforcement, handwritten, builtin }
    }

    /// The old object of an update (ratcheting, `+k8s:immutable`, `+k8s:update`); `None`: a create.
    pub fn old(self, old: Option<&'a Value>) -> Self {
        Request { old, ..self }
    }

    /// The subresource (`/status`); `None` or `/` for the resource itself.
    pub fn subresource(self, subresource: Option<&'a str>) -> Self {
        Request { subresource, ..self }
    }

    /// The validation options turned on, and whether defaults apply ([`Options::default`] without it).
    pub fn options(self, options: &'a Options) -> Self {
        Request { options: Some(options), ..self }
    }

    /// Handwritten errors to compare with, as the API server compares them (`None`: each error
    /// is marked as the API server returns it without them).
    #[cfg(feature = "shadow")]
    pub fn compare_with(self, handwritten: Option<&'a [Handwritten]>) -> Self {
        Request { handwritten, ..self }
    }

    /// A built-in kind's API group and kind: its metadata is checked as its own validation and
    /// the checks every create or update get check it, and an update naming another object is
    /// refused.
    #[cfg(feature = "apis")]
    pub fn builtin(self, group: &'a str, kind: &'a str) -> Self {
        Request { builtin: Some((group, kind)), ..self }
    }
}

/// The API server's answer to one request.
#[derive(Clone, Debug)]
pub struct Verdict {
    /// The errors (each marked `enforced`) and what did not decode into the types.
    pub report: Report,
    /// The comparison with the handwritten errors, when they were given.
    pub shadow: Option<Shadow>,
}

/// Why the API server refuses the request before validating it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// A built-in kind's update whose body names another object than the old one
    /// ([`update_refusal`](crate::objectmeta::update_refusal): a Bad Request).
    Update(String),
}

impl Schema {
    /// Validates one request as the API server does.
    pub fn check(&self, req: &Request<'_>) -> Result<Verdict, Refusal> {
        let default = Options::default();
        let options = req.options.unwrap_or(&default);
        #[cfg(feature = "apis")]
        if let (Some(_), Some(old)) = (req.builtin, req.old) {
            if let Some(why) = crate::objectmeta::update_refusal(req.object, old) {
                return Err(Refusal::Update(why));
            }
        }
        let mut report = self.validate_request(req.root, req.object, req.old, req.subresource, options);
        #[cfg(feature = "shadow")]
        let shadow = req.handwritten.map(|h| super::shadow::compare(req.enforcement, &mut report.errors, h));
        #[cfg(not(feature = "shadow"))]
        let shadow = None;
        if shadow.is_none() {
            for e in &mut report.errors {
                e.enforced = req.enforcement.verdict(e).0;
            }
        }
        #[cfg(feature = "apis")]
        if let Some((group, kind)) = req.builtin {
            use crate::objectmeta::{builtin_create_errors, builtin_update_errors};
            let declarative = core::mem::take(&mut report.errors);
            report.errors = match req.old {
                None => builtin_create_errors(group, kind, req.object, declarative),
                Some(old) => builtin_update_errors(group, kind, req.object, old, req.enforcement.minor, declarative),
            };
        }
        Ok(Verdict { report, shadow })
    }
}
