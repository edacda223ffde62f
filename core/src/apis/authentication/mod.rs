//! The `authentication.k8s.io` group: `TokenReview` and `SelfSubjectReview`, which the API
//! server answers on create without storing them (kubernetes `pkg/registry/authentication/
//! {tokenreview,selfsubjectreview}`). Neither has handwritten validation (`TokenRequest`, which
//! `pkg/apis/authentication/validation` checks, is the `serviceaccounts/token` subresource, not
//! a kind of its own); neither gets ObjectMeta's checks. A `TokenReview` without a token is
//! refused as a Bad Request ([`refusal`]).

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value as Json;

use super::Group;
use crate::apis::json::{field, str};
use crate::field::Error;

/// The kinds this room models.
pub const KINDS: &[&str] = &["TokenReview", "SelfSubjectReview"];

/// Neither kind has defaults.
pub fn default(_version: &str, _kind: &str, _object: &mut Json) {}

/// No strategy, no validation, no warnings: the REST handlers answer the review.
pub fn admit(_group: &Group<'_>, _object: &mut Json, _old: Option<&Json>) -> (Vec<Error>, Vec<String>) {
    (Vec::new(), Vec::new())
}

/// The Bad Request of `tokenreview.REST.Create` for a review without a token.
pub fn refusal(kind: &str, object: &Json) -> Option<String> {
    (kind == "TokenReview" && str(field(object, "spec"), "token").is_empty())
        .then(|| String::from("token is required for TokenReview in authentication"))
}
