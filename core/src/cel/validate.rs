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
use super::library::{uses_unicode_classes, Regex};
use super::value::Value;

/// Adds `(offset, message)` for each invalid literal argument under `e`, and for each use of a
/// cel-go library that Kubernetes' environment does not enable (apiserver
/// `pkg/cel/environment/base.go` has no ext.Math, ext.Encoders or ext.Bindings: `math.greatest`,
/// `base64.encode` and `cel.bind` are undeclared references there).
pub(crate) fn literal_arguments(e: &Expr, issues: &mut Vec<(u32, String)>) {
    let outside = match &e.kind {
        Kind::Bind { written: true, .. } | Kind::Block { .. } => Some("cel"),
        Kind::Call { target: None, name, .. } => {
            name.split_once('.').map(|(ns, _)| ns).filter(|ns| matches!(*ns, "math" | "base64"))
        }
        _ => None,
    };
    if let Some(ns) = outside {
        // The call sits at the `.`; cel-go reports the namespace identifier before it.
        let at = e.offset.saturating_sub(ns.len() as u32);
        issues.push((at, format!("undeclared reference to '{ns}' (in container '')")));
    }
    if let Kind::Call { target, name, args, .. } = &e.kind {
        // cel-go looks at the first argument after the receiver, whatever the call's form.
        if let Some(arg @ Expr { kind: Kind::Lit(literal), .. }) = args.first() {
            let invalid = match &**name {
                // Evaluated as cel-go does (the conversion itself decides).
                "duration" | "timestamp" if target.is_none() => {
                    let regexes = RegexCache::default();
                    Interpreter::new(&NoVars, &[], u64::MAX, &regexes, false, &mut Vec::new()).eval(e).is_err()
                }
                // A pattern with Unicode classes is valid in Go even where this build lacks the
                // tables: it fails when evaluated instead, with a message saying so.
                "matches" => {
                    matches!(literal, Value::String(p) if !uses_unicode_classes(p) && Regex::new(p).is_err())
                }
                _ => false,
            };
            if invalid {
                issues.push((arg.offset, format!("invalid {name} argument")));
            }
        }
    }
    children(e, &mut |child| literal_arguments(child, issues));
}

/// Calls `visit` on each direct child of `e`.
fn children(e: &Expr, visit: &mut dyn FnMut(&Expr)) {
    match &e.kind {
        Kind::Lit(_) | Kind::Ident(_) | Kind::Local { .. } | Kind::Var { .. } => {}
        Kind::Select { operand, .. } | Kind::Has { operand, .. } => visit(operand),
        Kind::Index { operand, index, .. } => {
            visit(operand);
            visit(index);
        }
        Kind::Call { target, args, .. } => {
            if let Some(t) = target {
                visit(t);
            }
            args.iter().for_each(&mut *visit);
        }
        Kind::And(a, b) | Kind::Or(a, b) => {
            visit(a);
            visit(b);
        }
        Kind::Cond(c, a, b) => {
            visit(c);
            visit(a);
            visit(b);
        }
        Kind::List(items) => items.iter().for_each(|(item, _)| visit(item)),
        Kind::Map(entries) => entries.iter().for_each(|(k, v, _)| {
            visit(k);
            visit(v);
        }),
        Kind::Message { fields, .. } => fields.iter().for_each(|(_, v, _)| visit(v)),
        Kind::Comprehension(c) => {
            visit(&c.range);
            if let Some(f) = &c.filter {
                visit(f);
            }
            visit(&c.step);
        }
        Kind::Bind { init, body, .. } => {
            visit(init);
            visit(body);
        }
        Kind::Block { inits, body } => {
            inits.iter().for_each(|(_, init)| visit(init));
            visit(body);
        }
    }
}

/// The error cel-go gives when it builds the program (`env.Program`): the Kubernetes regex
/// library's `cel.OptimizeRegex` compiles a literal pattern of `find` and `findAll` then
/// (apiserver pkg/cel/library/regex.go, cel-go interpreter/decorators.go), so an invalid one
/// is refused with the rule: Kubernetes prefixes it with "program instantiation failed: "
/// (apiextensions-apiserver compilation.go; validation_test.go `self.str.find(')')`).
pub(crate) fn instantiation_error(e: &Expr) -> Option<String> {
    if let Kind::Call { target: Some(_), name, args, .. } = &e.kind {
        if let ("find" | "findAll", Some(Expr { kind: Kind::Lit(Value::String(p)), .. })) = (&**name, args.first()) {
            // As for `matches`: Unicode classes this build lacks are left to evaluation.
            if let (false, Err(message)) = (uses_unicode_classes(p), Regex::new(p)) {
                return Some(message);
            }
        }
    }
    let mut found = None;
    children(e, &mut |child| {
        if found.is_none() {
            found = instantiation_error(child);
        }
    });
    found
}
