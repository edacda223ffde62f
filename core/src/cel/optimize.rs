//! Constant folding, as cel-go's `OptOptimize` does it (Kubernetes compiles CRD rules with it,
//! apiserver `pkg/cel/environment/base.go`): type conversions of constants are evaluated once
//! when the program is built, constant list and map literals are built once,
//! and `x in [constants]` becomes a set lookup. This changes runtime cost (folded parts cost
//! nothing), and a constant call that fails makes the program fail to build.

use alloc::string::String;
use alloc::vec::Vec;

use super::ast::{Expr, Kind};
use super::eval::RegexCache;
use super::functions::{self as f, Builtin};
use super::library;
use super::value::Value;

/// Folds `e` in place; a failing constant call is an error (message, offset). `chosen` are the
/// overloads the checker picked for calls the run-time dispatch cannot tell (`sum` of a typed
/// empty list), by the call's offset.
pub fn optimize(e: &mut Expr, regexes: &RegexCache, chosen: &[(u32, Builtin)]) -> Result<(), (String, u32)> {
    match &mut e.kind {
        Kind::Lit(_) | Kind::Ident(_) | Kind::Local { .. } | Kind::Var { .. } => {}
        Kind::Select { operand, .. } | Kind::Has { operand, .. } => optimize(operand, regexes, chosen)?,
        Kind::Index { operand, index, .. } => {
            optimize(operand, regexes, chosen)?;
            optimize(index, regexes, chosen)?;
        }
        Kind::And(a, b) | Kind::Or(a, b) => {
            optimize(a, regexes, chosen)?;
            optimize(b, regexes, chosen)?;
        }
        Kind::Cond(c, a, b) => {
            optimize(c, regexes, chosen)?;
            optimize(a, regexes, chosen)?;
            optimize(b, regexes, chosen)?;
        }
        Kind::Message { fields, .. } => {
            for (_, v, _) in fields {
                optimize(v, regexes, chosen)?;
            }
        }
        Kind::Comprehension(c) => {
            optimize(&mut c.range, regexes, chosen)?;
            if let Some(filter) = &mut c.filter {
                optimize(filter, regexes, chosen)?;
            }
            optimize(&mut c.step, regexes, chosen)?;
        }
        Kind::Bind { init, body, .. } => {
            optimize(init, regexes, chosen)?;
            optimize(body, regexes, chosen)?;
        }
        Kind::Block { inits, body } => {
            for (_, init) in inits {
                optimize(init, regexes, chosen)?;
            }
            optimize(body, regexes, chosen)?;
        }
        Kind::List(items) => {
            for (item, _) in items.iter_mut() {
                optimize(item, regexes, chosen)?;
            }
            if items.iter().all(|(item, optional)| !optional && matches!(item.kind, Kind::Lit(_))) {
                let values: Vec<Value> = items.iter().map(|(item, _)| literal(item)).collect();
                e.kind = Kind::Lit(Value::list(values));
            }
        }
        Kind::Map(entries) => {
            for (k, v, _) in entries.iter_mut() {
                optimize(k, regexes, chosen)?;
                optimize(v, regexes, chosen)?;
            }
            if entries
                .iter()
                .all(|(k, v, optional)| !optional && matches!(k.kind, Kind::Lit(_)) && matches!(v.kind, Kind::Lit(_)))
            {
                let pairs = entries.iter().map(|(k, v, _)| (literal(k), literal(v))).collect();
                let map = f::make_map(pairs).map_err(|m| (m, e.offset))?;
                e.kind = Kind::Lit(map);
            }
        }
        Kind::Call { target, name, builtin, args } => {
            if *builtin == Builtin::Sum {
                if let Some((_, b)) = chosen.iter().find(|(at, _)| *at == e.offset) {
                    *builtin = *b;
                }
            }
            if let Some(t) = target {
                optimize(t, regexes, chosen)?;
            }
            for a in args.iter_mut() {
                optimize(a, regexes, chosen)?;
            }
            let constant = target.as_ref().is_none_or(|t| matches!(t.kind, Kind::Lit(_)))
                && args.iter().all(|a| matches!(a.kind, Kind::Lit(_)));
            if *builtin == Builtin::In && !constant {
                if let Some(Kind::Lit(Value::List(items))) = args.get(1).map(|a| &a.kind) {
                    if items.iter().all(|v| {
                        matches!(
                            v,
                            Value::Bool(_) | Value::Int(_) | Value::Uint(_) | Value::Double(_) | Value::String(_)
                        )
                    }) {
                        *builtin = Builtin::InSet;
                    }
                }
                return Ok(());
            }
            // cel-go folds type conversions of constants, not other calls (celcoststability:
            // `double(5) < 10.0` costs 1, `2147483647 + 1` costs 1).
            let conversion = target.is_none()
                && matches!(
                    builtin,
                    Builtin::Int
                        | Builtin::Uint
                        | Builtin::Double
                        | Builtin::String
                        | Builtin::Bytes
                        | Builtin::Bool
                        | Builtin::Duration
                        | Builtin::Timestamp
                        | Builtin::Dyn
                        | Builtin::Type
                );
            if !constant || !conversion {
                return Ok(());
            }
            let recv = target.as_ref().map(|t| literal(t));
            let values: Vec<Value> = args.iter().map(literal).collect();
            let value = library::call(*builtin, name, recv.as_ref(), &values, regexes).map_err(|m| (m, e.offset))?;
            e.kind = Kind::Lit(value);
        }
    }
    Ok(())
}

fn literal(e: &Expr) -> Value {
    match &e.kind {
        Kind::Lit(v) => v.clone(),
        _ => Value::Null,
    }
}
