//! The Kubernetes regex library (apiserver `pkg/cel/library/regex.go`): `find` and `findAll`.

use alloc::format;

use crate::cel::library::Call;
use crate::cel::syntax::Builtin;
use crate::cel::value::{Fail, Value};

/// `s.find(re)`, `s.findAll(re)` and `s.findAll(re, limit)`.
pub(crate) fn call(b: Builtin, c: &Call<'_>) -> Option<Result<Value, Fail>> {
    match b {
        Builtin::Find | Builtin::FindAll if c.arity() >= 2 => Some(find(b, c)),
        _ => None,
    }
}

fn find(b: Builtin, c: &Call<'_>) -> Result<Value, Fail> {
    let s = c.str(c.a0)?;
    // regex.go: `types.NewErr("Illegal regex: %v", err)`.
    let re = c.regexes.get(c.str(c.arg(0))?).map_err(|e| format!("Illegal regex: {e}"))?;
    if b == Builtin::Find {
        return Ok(Value::from(re.find_all(s, 1).first().copied().unwrap_or("")));
    }
    let limit = match c.rest.get(1) {
        Some(v) => c.int(v)?,
        None => -1,
    };
    let limit = if limit < 0 { usize::MAX } else { limit as usize };
    Ok(Value::list(re.find_all(s, limit).into_iter().map(Value::from).collect()))
}
