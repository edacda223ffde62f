//! The standard library's string functions: `contains`, `startsWith`, `endsWith` and
//! `matches` (RE2, as Go's `regexp` reads it).

use super::Call;
use crate::cel::syntax::Builtin;
use crate::cel::value::{Fail, Value};

/// `contains`, `startsWith`, `endsWith` and `matches`, of two operands.
pub(crate) fn call(b: Builtin, c: &Call<'_>) -> Option<Result<Value, Fail>> {
    use Builtin as B;
    match b {
        B::Matches if c.arity() == 2 => Some(matches(c)),
        B::Contains | B::StartsWith | B::EndsWith if c.arity() == 2 => Some(test(b, c)),
        _ => None,
    }
}

fn matches(c: &Call<'_>) -> Result<Value, Fail> {
    let s = c.str(c.a0)?;
    let re = c.regexes.get(c.str(c.arg(0))?)?;
    Ok(Value::Bool(re.is_match(s)))
}

fn test(b: Builtin, c: &Call<'_>) -> Result<Value, Fail> {
    let s = c.str(c.a0)?;
    let t = c.str(c.arg(0))?;
    Ok(Value::Bool(match b {
        Builtin::Contains => s.contains(t),
        Builtin::StartsWith => s.starts_with(t),
        _ => s.ends_with(t),
    }))
}
