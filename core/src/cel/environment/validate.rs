//! cel-go's literal-argument validators, which Kubernetes adds to its environment (cel-go
//! cel/validator.go `ValidateDurationLiterals`, `ValidateTimestampLiterals`,
//! `ValidateRegexLiterals`): a `duration`, `timestamp` or `matches` call whose first argument
//! is a literal must work, or the expression does not compile. The homogeneous-literal
//! validator needs the checker's types ([`check_kubernetes`](super::check_kubernetes)).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::cel::check::CelType;
use crate::cel::ext::format::{clause_takes, walk};
use crate::cel::library::{uses_unicode_classes, Regex, RegexCache};
use crate::cel::runtime::{Interpreter, NoVars};
use crate::cel::syntax::ast::{Expr, Kind};
use crate::cel::value::Value;

/// Adds `(offset, message)` for each invalid literal argument under `e`.
pub(crate) fn literal_arguments(e: &Expr, issues: &mut Vec<(u32, String)>) {
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
    e.children().for_each(|child| literal_arguments(child, issues));
}

/// The error cel-go gives when it builds the program (`env.Program`): the Kubernetes regex
/// library's `cel.OptimizeRegex` compiles a literal pattern of `find` and `findAll` then
/// (apiserver pkg/cel/library/regex.go, cel-go interpreter/decorators.go), so an invalid one
/// is refused with the rule: Kubernetes prefixes it with "program instantiation failed: "
/// (apiextensions-apiserver compilation.go; validation_test.go `self.str.find(')')`).
///
/// The environment's `cel.OptOptimize` (apiserver pkg/cel/environment/base.go) also adds cel-go's
/// `MatchesRegexOptimization` (cel/program.go; `RegexIndex: 1`, the receiver counted as the
/// first argument), so a global `matches(s, '(')` with a bad literal pattern is refused the
/// same way; the method form never gets there (`ValidateRegexLiterals` refuses it first).
pub(crate) fn instantiation_error(e: &Expr) -> Option<String> {
    if let Kind::Call { target, name, args, .. } = &e.kind {
        let pattern = match (&**name, target.is_some()) {
            ("find" | "findAll", true) => args.first(),
            ("matches", false) => args.get(1),
            _ => None,
        };
        if let Some(Expr { kind: Kind::Lit(Value::String(p)), .. }) = pattern {
            // As for `matches`: Unicode classes this build lacks are left to evaluation.
            if let (false, Err(message)) = (uses_unicode_classes(p), Regex::new(p)) {
                return Some(message);
            }
        }
    }
    e.children().find_map(instantiation_error)
}

/// cel-go's string-format validator (ext/formatting.go `stringFormatValidator`, which strings
/// version 2 installs): a `format` call on a string literal with a list literal argument has
/// its format string parsed when the expression is written, each clause checked against the
/// type of its argument (`dyn` passes; `%s` looks into nested list and map literals), and
/// no argument may be left over. `types` are the checked types of the literals' elements, by
/// offset. A clause's error is at its argument, the others at the call.
pub(crate) fn format_calls(e: &Expr, types: &[(u32, CelType)], issues: &mut Vec<(u32, String)>) {
    if let Kind::Call { target: Some(t), name, args, .. } = &e.kind {
        if let (Kind::Lit(Value::String(template)), "format", [Expr { kind: Kind::List(items), .. }]) =
            (&t.kind, &**name, &args[..])
        {
            let type_of =
                |x: &Expr| types.iter().find(|(o, _)| *o == x.offset).map_or(CelType::Dyn, |(_, t)| t.clone());
            let mut at = e.offset;
            let walked = walk(template, items.len(), false, &mut |_| {}, &mut |i, verb, _| {
                let arg = &items[i].0;
                let bad = match verb {
                    's' => match string_argument(arg, &type_of) {
                        Some(bad) => bad,
                        None => return Ok(String::new()),
                    },
                    _ => {
                        use CelType as T;
                        let takes: &[CelType] = match verb {
                            'd' | 'o' => &[T::Int, T::Uint],
                            'f' | 'e' => &[T::Double, T::String],
                            'b' => &[T::Int, T::Uint, T::Bool],
                            _ => &[T::Int, T::Uint, T::String, T::Bytes],
                        };
                        let t = type_of(arg);
                        if t == T::Dyn || takes.contains(&t) {
                            return Ok(String::new());
                        }
                        arg
                    }
                };
                at = bad.offset;
                Err(format!("{}, was given {}", clause_takes(verb), type_name(&type_of(bad))))
            });
            match walked {
                Err(message) => issues.push((at, message)),
                Ok(seen) if items.len() > seen => issues.push((
                    e.offset,
                    format!("too many arguments supplied to string.format (expected {seen}, got {})", items.len()),
                )),
                Ok(_) => {}
            }
        }
    }
    e.children().for_each(|child| format_calls(child, types, issues));
}

/// The sub-expression a `%s` clause refuses (`verifyString`): a type other than the scalars,
/// lists, maps, types and null, looked for inside list and map literals.
fn string_argument<'e>(e: &'e Expr, type_of: &dyn Fn(&Expr) -> CelType) -> Option<&'e Expr> {
    use CelType as T;
    match type_of(e) {
        T::Dyn | T::Null | T::Bool | T::Int | T::Uint | T::Double | T::String | T::Bytes | T::Timestamp => {}
        T::Duration | T::List(_) | T::Map(..) | T::Type(_) => {}
        _ => return Some(e),
    }
    match &e.kind {
        Kind::List(items) => items.iter().find_map(|(item, _)| string_argument(item, type_of)),
        Kind::Map(entries) => {
            entries.iter().find_map(|(k, v, _)| string_argument(k, type_of).or_else(|| string_argument(v, type_of)))
        }
        _ => None,
    }
}

/// cel-go `Type.TypeName()`: a type's name without its parameters.
fn type_name(t: &CelType) -> String {
    match t {
        CelType::List(_) => String::from("list"),
        CelType::Map(..) => String::from("map"),
        CelType::Type(_) => String::from("type"),
        CelType::Optional(_) => String::from("optional_type"),
        CelType::Opaque(name, _) => String::from(&**name),
        CelType::Object(o) => o.name.clone(),
        other => format!("{other}"),
    }
}
