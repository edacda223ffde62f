//! cel-go's literal-argument validators, which Kubernetes adds to its environment (cel-go
//! cel/validator.go `ValidateDurationLiterals`, `ValidateTimestampLiterals`,
//! `ValidateRegexLiterals`): a `duration`, `timestamp` or `matches` call whose first argument
//! is a literal must work, or the expression does not compile. The homogeneous-literal
//! validator needs types and lives in the checker (`checker::check_kubernetes`).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::ast::{Expr, Kind};
use super::eval::{Interpreter, NoVars, RegexCache};
use super::library::Regex;
use super::value::Value;

/// Adds `(offset, message)` for each invalid literal argument under `e`.
pub(crate) fn literal_arguments(e: &Expr, issues: &mut Vec<(u32, String)>) {
    if let Kind::Call { target, name, args, .. } = &e.kind {
        // cel-go looks at the first argument after the receiver, whatever the call's form.
        if let Some(arg @ Expr { kind: Kind::Lit(literal), .. }) = args.first() {
            let invalid = match &**name {
                // Evaluated as cel-go does (the conversion itself decides).
                "duration" | "timestamp" if target.is_none() => {
                    let regexes = RegexCache::default();
                    Interpreter::new(&NoVars, &[], u64::MAX, &regexes, false).eval(e).is_err()
                }
                "matches" => matches!(literal, Value::String(p) if Regex::new(p).is_err()),
                _ => false,
            };
            if invalid {
                issues.push((arg.offset, format!("invalid {name} argument")));
            }
        }
    }
    for child in children(e) {
        literal_arguments(child, issues);
    }
}

/// The direct sub-expressions of `e`.
fn children(e: &Expr) -> Vec<&Expr> {
    match &e.kind {
        Kind::Lit(_) | Kind::Ident(_) | Kind::Local { .. } | Kind::Var { .. } => Vec::new(),
        Kind::Select { operand, .. } | Kind::Has { operand, .. } => alloc::vec![&**operand],
        Kind::Index { operand, index, .. } => alloc::vec![&**operand, &**index],
        Kind::Call { target, args, .. } => target.as_deref().into_iter().chain(args.iter()).collect(),
        Kind::And(a, b) | Kind::Or(a, b) => alloc::vec![&**a, &**b],
        Kind::Cond(c, a, b) => alloc::vec![&**c, &**a, &**b],
        Kind::List(items) => items.iter().map(|(item, _)| item).collect(),
        Kind::Map(entries) => entries.iter().flat_map(|(k, v, _)| [k, v]).collect(),
        Kind::Message { fields, .. } => fields.iter().map(|(_, v, _)| v).collect(),
        Kind::Comprehension(c) => [Some(&c.range), c.filter.as_ref(), Some(&c.step)].into_iter().flatten().collect(),
        Kind::Bind { init, body, .. } => alloc::vec![&**init, &**body],
        Kind::Block { inits, body } => inits.iter().map(|(_, init)| init).chain([&**body]).collect(),
    }
}
