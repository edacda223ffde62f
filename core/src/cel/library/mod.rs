//! CEL's standard library (cel-go's standard declarations and their overloads): the operators,
//! `size` and indexing, the conversions and types, `contains`/`startsWith`/`endsWith` and
//! `matches`, the timestamp and duration accessors, and optional values; and what the other
//! libraries ([`ext`](crate::cel::ext), [`k8s`](crate::cel::k8s)) build on: a call's operands
//! (`Call`) and regular expressions as Go reads them ([`Regex`]).
//!
//! Each family of functions answers a call with `Some(result)`, or `None` when it has no
//! overload for the operands; the runtime's dispatcher (`runtime::dispatch`) then tries a
//! Kubernetes object's methods, and else says "no such overload".

pub(crate) mod conversions;
pub(crate) mod datetime;
mod dfa;
pub(crate) mod operators;
pub(crate) mod optionals;
mod regex;
pub(crate) mod strings;

pub use conversions::type_ident;
pub(crate) use regex::{go_regex_error, uses_unicode_classes};
pub use regex::{Regex, RegexCache};

use crate::cel::value::{no_overload, Fail, Value};

/// One call's operands, as every library's functions read them.
pub(crate) struct Call<'a> {
    /// The function's name, for "no such overload".
    pub name: &'a str,
    /// A method call (`x.f(...)`), whose receiver is `a0`.
    pub method: bool,
    /// The receiver and the arguments, in order.
    pub all: &'a [&'a Value],
    /// The first operand: the receiver, else the first argument (`null` without either).
    pub a0: &'a Value,
    /// The operands after `a0`.
    pub rest: &'a [Value],
    /// The program's compiled patterns.
    pub regexes: &'a RegexCache,
}

impl<'a> Call<'a> {
    /// How many operands, the receiver included.
    pub fn arity(&self) -> usize {
        self.all.len()
    }

    /// The `i`-th operand after `a0` (`null` when absent).
    pub fn arg(&self, i: usize) -> &'a Value {
        arg(self.rest, i)
    }

    /// "no such overload" for these operands.
    pub fn bad(&self) -> Fail {
        no_overload(self.name, self.all)
    }

    /// An operand that must be a string.
    pub fn str(&self, v: &'a Value) -> Result<&'a str, Fail> {
        str_arg(self.name, v, self.all)
    }

    /// An operand that must be an int.
    pub fn int(&self, v: &Value) -> Result<i64, Fail> {
        int_arg(self.name, v, self.all)
    }
}

/// The `i`-th of `args` (`null` when absent).
pub(crate) fn arg(args: &[Value], i: usize) -> &Value {
    args.get(i).unwrap_or(&Value::Null)
}

/// A string operand of `name`, else "no such overload" for the call's operands `all`.
pub(crate) fn str_arg<'v>(name: &str, v: &'v Value, all: &[&Value]) -> Result<&'v str, Fail> {
    match v {
        Value::String(s) => Ok(s),
        _ => Err(no_overload(name, all)),
    }
}

/// An int operand of `name`, else "no such overload" for the call's operands `all`.
pub(crate) fn int_arg(name: &str, v: &Value, all: &[&Value]) -> Result<i64, Fail> {
    match v {
        Value::Int(i) => Ok(*i),
        _ => Err(no_overload(name, all)),
    }
}
