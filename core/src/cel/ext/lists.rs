//! cel-go's lists extension at the version Kubernetes enables (`ext.Lists`, version 3, from
//! 1.34): `lists.range`, `distinct`, `flatten`, `slice`, `sort`, `sortBy` (the macro's
//! `@sortByAssociatedKeys`), `first`, `last` and `reverse`.

use alloc::format;
use alloc::rc::Rc;
use alloc::vec::Vec;
use core::cmp::Ordering;

use crate::cel::library::operators::comparable;
use crate::cel::library::{int_arg, Call};
use crate::cel::syntax::Builtin;
use crate::cel::value::{no_overload, Fail, Value};
use crate::sort::gosort;

/// The lists extension's functions: `lists.range(n)`, and the methods of a list.
pub(crate) fn call(b: Builtin, c: &Call<'_>) -> Option<Result<Value, Fail>> {
    use Builtin as B;
    match b {
        // cel-go v0.29.2 ext/lists.go genRange, with the library's default cap.
        B::ListsRange if c.arity() == 1 => Some(c.int(c.a0).and_then(|n| match n {
            n if n < 0 => Err(format!("lists.range: size must be non-negative, got {n}")),
            n if n > 1_000_000 => Err(format!("lists.range: size {n} exceeds maximum allowed (1000000)")),
            n => Ok(Value::list((0..n).map(Value::Int).collect())),
        })),
        B::Distinct | B::Flatten | B::Slice | B::Sort | B::SortByKeys | B::First | B::Last | B::Reverse => match c.a0 {
            Value::List(items) => Some(lists(b, c.name, items, c.rest, c.all)),
            _ => None,
        },
        _ => None,
    }
}

fn lists(b: Builtin, name: &str, items: &[Value], rest: &[Value], all: &[&Value]) -> Result<Value, Fail> {
    use Builtin as B;
    let bad = || no_overload(name, all);
    match (b, rest.len()) {
        (B::Distinct, 0) => {
            let mut out: Vec<Value> = Vec::new();
            for v in items.iter() {
                if !out.iter().any(|w| w.equals(v)) {
                    out.push(v.clone());
                }
            }
            Ok(Value::list(out))
        }
        (B::Flatten, 0 | 1) => {
            let depth = match rest.first() {
                Some(v) => int_arg(name, v, all)?,
                None => 1,
            };
            if depth < 0 {
                return Err("level must be non-negative".into());
            }
            let mut out = Vec::new();
            flatten(items, depth, &mut out);
            Ok(Value::list(out))
        }
        (B::Slice, 2) => {
            let start = int_arg(name, &rest[0], all)?;
            let end = int_arg(name, &rest[1], all)?;
            if start < 0 || end < 0 {
                return Err(format!("cannot slice({start}, {end}), negative indexes not supported"));
            }
            if start > end {
                return Err(format!(
                    "cannot slice({start}, {end}), start index must be less than or equal to end index"
                ));
            }
            if end as usize > items.len() {
                return Err(format!("cannot slice({start}, {end}), list is length {}", items.len()));
            }
            Ok(Value::list(items[start as usize..end as usize].to_vec()))
        }
        (B::Sort, 0) => sort_by_keys(items, items),
        (B::SortByKeys, 1) => match &rest[0] {
            Value::List(keys) => sort_by_keys(items, keys),
            _ => Err(bad()),
        },
        (B::First | B::Last, 0) => {
            let v = if b == B::First { items.first() } else { items.last() };
            Ok(Value::Optional(v.map(|v| Rc::new(v.clone()))))
        }
        (B::Reverse, 0) => Ok(Value::list(items.iter().rev().cloned().collect())),
        _ => Err(bad()),
    }
}

/// cel-go `sortListByAssociatedKeys` (`sort()` sorts a list by itself): the items in the
/// order Go's `sort.Slice` gives their keys, with its errors.
fn sort_by_keys(items: &[Value], keys: &[Value]) -> Result<Value, Fail> {
    if items.len() != keys.len() {
        return Err(format!(
            "@sortByAssociatedKeys() expected a list of the same size as the associated keys list, but got {} and {} elements respectively",
            items.len(),
            keys.len()
        ));
    }
    let Some(first) = keys.first() else { return Ok(Value::list(Vec::new())) };
    // traits.Comparer: the types `<` orders.
    if !comparable(first) {
        return Err("list elements must be comparable".into());
    }
    let mut mixed = false;
    let same = |v: &Value| core::mem::discriminant(v) == core::mem::discriminant(first);
    let order = gosort::order(keys.len(), |a, b| {
        if !same(&keys[a]) || !same(&keys[b]) {
            mixed = true;
            return false;
        }
        // NaN orders with nothing (cel-go: "NaN values cannot be ordered", not -1).
        matches!(keys[a].compare(&keys[b]), Ok(Some(Ordering::Less)))
    });
    if mixed {
        return Err("list elements must have the same type".into());
    }
    Ok(Value::list(order.into_iter().map(|i| items[i].clone()).collect()))
}

fn flatten(items: &[Value], depth: i64, out: &mut Vec<Value>) {
    for v in items {
        match v {
            Value::List(inner) if depth > 0 => flatten(inner, depth - 1, out),
            other => out.push(other.clone()),
        }
    }
}
