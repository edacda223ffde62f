//! Constant folding, as cel-go's `OptOptimize` does it (Kubernetes compiles CRD rules with it,
//! apiserver `pkg/cel/environment/base.go`): type conversions of constants are evaluated once
//! when the program is built, constant list and map literals are built once,
//! and `x in [constants]` becomes a set lookup. This changes runtime cost (folded parts cost
//! nothing), and a constant call that fails makes the program fail to build.

use alloc::string::String;
use alloc::vec::Vec;

use super::dispatch;
use super::eval::make_map;
use crate::cel::library::RegexCache;
use crate::cel::syntax::ast::{Expr, Kind};
use crate::cel::syntax::Builtin;
use crate::cel::value::Value;

/// Folds `e` in place; a failing constant call is an error (message, offset). `chosen` are the
/// overloads the checker picked for calls the run-time dispatch cannot tell (`sum` of a typed
/// empty list), by the call's offset.
pub fn optimize(e: &mut Expr, regexes: &RegexCache, chosen: &[(u32, Builtin)]) -> Result<(), (String, u32)> {
    // The children first: a literal made of folded ones folds in turn.
    for child in e.children_mut() {
        optimize(child, regexes, chosen)?;
    }
    match &mut e.kind {
        Kind::List(items) if items.iter().all(|(item, optional)| !optional && matches!(item.kind, Kind::Lit(_))) => {
            let values: Vec<Value> = items.iter().map(|(item, _)| literal(item)).collect();
            e.kind = Kind::Lit(Value::list(values));
        }
        Kind::Map(entries)
            if entries.iter().all(|(k, v, optional)| {
                !optional && matches!(k.kind, Kind::Lit(_)) && matches!(v.kind, Kind::Lit(_))
            }) =>
        {
            let pairs = entries.iter().map(|(k, v, _)| (literal(k), literal(v))).collect();
            let map = make_map(pairs).map_err(|m| (m, e.offset))?;
            e.kind = Kind::Lit(map);
        }
        Kind::Call { target, name, builtin, args } => {
            if *builtin == Builtin::Sum {
                if let Some((_, b)) = chosen.iter().find(|(at, _)| *at == e.offset) {
                    *builtin = *b;
                }
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
            let value = dispatch::call(*builtin, name, recv.as_ref(), &values, regexes).map_err(|m| (m, e.offset))?;
            e.kind = Kind::Lit(value);
        }
        _ => {}
    }
    Ok(())
}

fn literal(e: &Expr) -> Value {
    match &e.kind {
        Kind::Lit(v) => v.clone(),
        _ => Value::Null,
    }
}
