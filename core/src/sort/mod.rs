//! Stable sorting through one sort routine.
//!
//! `slice::sort_by` is generic over the element type, and each instantiation adds about 3 KB
//! of WebAssembly (the quicksort, drift-merge and small-sort routines); the crate sorts a
//! dozen element types. Here every sort orders a list of indices with the one non-generic
//! [`sort_indices`] — Go's pattern-defeating quicksort, which CEL's `sort()` needs anyway
//! ([`gosort`]), made stable by breaking ties by position — then moves the elements into
//! place.

pub(crate) mod gosort;

use alloc::vec::Vec;
use core::cmp::Ordering;

/// Sorts `items` stably by `compare` (as `slice::sort_by`).
pub(crate) fn sort_by<T>(items: &mut [T], mut compare: impl FnMut(&T, &T) -> Ordering) {
    if items.len() < 2 {
        return;
    }
    let mut order = sort_indices(items.len(), &mut |a, b| compare(&items[a], &items[b]));
    permute(items, &mut order);
}

/// Sorts stably by a key (as `slice::sort_by_key`).
pub(crate) fn sort_by_key<T, K: Ord>(items: &mut [T], mut key: impl FnMut(&T) -> K) {
    sort_by(items, |a, b| key(a).cmp(&key(b)));
}

#[inline(never)]
fn sort_indices(n: usize, compare: &mut dyn FnMut(usize, usize) -> Ordering) -> Vec<usize> {
    gosort::order(n, |a, b| compare(a, b).then(a.cmp(&b)) == Ordering::Less)
}

/// Moves `items[order[i]]` to position `i`, following each cycle of the permutation once
/// (`order` is used up as the record of finished positions).
fn permute<T>(items: &mut [T], order: &mut [usize]) {
    for start in 0..order.len() {
        let mut at = start;
        while order[at] != at {
            let from = order[at];
            order[at] = at;
            if from == start {
                break;
            }
            items.swap(at, from);
            at = from;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every arrangement of up to seven elements with repeated keys sorts exactly as the
    /// standard library's stable sort (same order of equal keys).
    #[test]
    fn matches_the_standard_stable_sort() {
        fn arrangements(n: usize, keys: u8, prefix: &mut Vec<(u8, usize)>, out: &mut Vec<Vec<(u8, usize)>>) {
            if prefix.len() == n {
                out.push(prefix.clone());
                return;
            }
            for k in 0..keys {
                prefix.push((k, prefix.len()));
                arrangements(n, keys, prefix, out);
                prefix.pop();
            }
        }
        for n in 0..=7 {
            let mut all = Vec::new();
            arrangements(n, 4, &mut Vec::new(), &mut all);
            for items in all {
                let mut ours = items.clone();
                sort_by(&mut ours, |a, b| a.0.cmp(&b.0));
                let mut std = items.clone();
                std.sort_by_key(|x| x.0);
                assert_eq!(ours, std, "{items:?}");
                let mut by_key = items.clone();
                sort_by_key(&mut by_key, |x| core::cmp::Reverse(x.0));
                std.sort_by_key(|x| core::cmp::Reverse(x.0));
                assert_eq!(by_key, std, "{items:?}");
            }
        }
    }
}
