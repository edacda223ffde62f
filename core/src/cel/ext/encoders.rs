//! cel-go's encoders extension (`ext.Encoders`: `base64.encode`, `base64.decode`), which
//! Kubernetes' environment does not enable.

use alloc::string::String;

use crate::cel::library::Call;
use crate::cel::syntax::Builtin;
use crate::cel::value::{base64_decode, base64_encode, Fail, Value};

/// The encoders extension's functions.
pub(crate) fn call(b: Builtin, c: &Call<'_>) -> Option<Result<Value, Fail>> {
    match b {
        Builtin::Base64Encode if c.arity() == 1 => Some(match c.a0 {
            Value::Bytes(bytes) => Ok(Value::from(base64_encode(bytes))),
            _ => Err(c.bad()),
        }),
        Builtin::Base64Decode if c.arity() == 1 => Some(c.str(c.a0).and_then(|s| {
            base64_decode(s).map(|b| Value::Bytes(b.into())).ok_or_else(|| String::from("illegal base64 data"))
        })),
        _ => None,
    }
}
