//! Go's `sort.Slice` order, for cel-go's `sort()` and `sortBy()` (`ext/lists.go`
//! `sortListByAssociatedKeys` sorts an index list with `sort.Slice`).
//!
//! `sort.Slice` is not stable: elements with equal keys come out in the order Go's
//! pattern-defeating quicksort leaves them, which a rule comparing a `sortBy` result can see.
//! This is the algorithm of Go's `sort/zsortfunc.go` (`pdqsort_func` and its helpers, Go 1.19
//! onward), written for a permutation of indexes, so that ties come out exactly as in cel-go.

use alloc::vec::Vec;

/// The indexes `0..n` in the order `sort.Slice` puts them, `less(a, b)` comparing the
/// elements at original indexes `a` and `b`.
pub(crate) fn order(n: usize, mut less: impl FnMut(usize, usize) -> bool) -> Vec<usize> {
    order_dyn(n, &mut less)
}

/// One instantiation for every caller.
#[inline(never)]
fn order_dyn(n: usize, less: &mut dyn FnMut(usize, usize) -> bool) -> Vec<usize> {
    let mut s = Sorter { idx: (0..n).collect(), less };
    let limit = usize::BITS - n.leading_zeros();
    s.pdqsort(0, n, limit);
    s.idx
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Hint {
    Unknown,
    Increasing,
    Decreasing,
}

struct Sorter<'a> {
    idx: Vec<usize>,
    less: &'a mut dyn FnMut(usize, usize) -> bool,
}

impl Sorter<'_> {
    fn less(&mut self, i: usize, j: usize) -> bool {
        let (a, b) = (self.idx[i], self.idx[j]);
        (self.less)(a, b)
    }

    fn swap(&mut self, i: usize, j: usize) {
        self.idx.swap(i, j);
    }

    fn insertion_sort(&mut self, a: usize, b: usize) {
        for i in a + 1..b {
            let mut j = i;
            while j > a && self.less(j, j - 1) {
                self.swap(j, j - 1);
                j -= 1;
            }
        }
    }

    fn sift_down(&mut self, lo: usize, hi: usize, first: usize) {
        let mut root = lo;
        loop {
            let mut child = 2 * root + 1;
            if child >= hi {
                return;
            }
            if child + 1 < hi && self.less(first + child, first + child + 1) {
                child += 1;
            }
            if !self.less(first + root, first + child) {
                return;
            }
            self.swap(first + root, first + child);
            root = child;
        }
    }

    fn heap_sort(&mut self, a: usize, b: usize) {
        let hi = b - a;
        // Go starts at (hi-1)/2; when hi is odd that node has no child, so starting below
        // hi/2 moves the same elements.
        for i in (0..hi / 2).rev() {
            self.sift_down(i, hi, a);
        }
        for i in (0..hi).rev() {
            self.swap(a, a + i);
            self.sift_down(0, i, a);
        }
    }

    fn pdqsort(&mut self, mut a: usize, mut b: usize, mut limit: u32) {
        const MAX_INSERTION: usize = 12;
        let (mut was_balanced, mut was_partitioned) = (true, true);
        loop {
            let length = b - a;
            if length <= MAX_INSERTION {
                self.insertion_sort(a, b);
                return;
            }
            if limit == 0 {
                self.heap_sort(a, b);
                return;
            }
            if !was_balanced {
                self.break_patterns(a, b);
                limit -= 1;
            }
            let (mut pivot, mut hint) = self.choose_pivot(a, b);
            if hint == Hint::Decreasing {
                self.reverse_range(a, b);
                pivot = (b - 1) - (pivot - a);
                hint = Hint::Increasing;
            }
            if was_balanced && was_partitioned && hint == Hint::Increasing && self.partial_insertion_sort(a, b) {
                return;
            }
            if a > 0 && !self.less(a - 1, pivot) {
                a = self.partition_equal(a, b, pivot);
                continue;
            }
            let (mid, already) = self.partition(a, b, pivot);
            was_partitioned = already;
            let (left, right) = (mid - a, b - mid);
            let threshold = length / 8;
            if left < right {
                was_balanced = left >= threshold;
                self.pdqsort(a, mid, limit);
                a = mid + 1;
            } else {
                was_balanced = right >= threshold;
                self.pdqsort(mid + 1, b, limit);
                b = mid;
            }
        }
    }

    /// One quicksort partition around `pivot` (`j` never steps below `a`: it stops at
    /// `i - 1 ≥ a`).
    fn partition(&mut self, a: usize, b: usize, pivot: usize) -> (usize, bool) {
        self.swap(a, pivot);
        let (mut i, mut j) = (a + 1, b - 1);
        while i <= j && self.less(i, a) {
            i += 1;
        }
        while i <= j && !self.less(j, a) {
            j -= 1;
        }
        if i > j {
            self.swap(j, a);
            return (j, true);
        }
        self.swap(i, j);
        i += 1;
        j -= 1;
        loop {
            while i <= j && self.less(i, a) {
                i += 1;
            }
            while i <= j && !self.less(j, a) {
                j -= 1;
            }
            if i > j {
                break;
            }
            self.swap(i, j);
            i += 1;
            j -= 1;
        }
        self.swap(j, a);
        (j, false)
    }

    fn partition_equal(&mut self, a: usize, b: usize, pivot: usize) -> usize {
        self.swap(a, pivot);
        let (mut i, mut j) = (a + 1, b - 1);
        loop {
            while i <= j && !self.less(a, i) {
                i += 1;
            }
            while i <= j && self.less(a, j) {
                j -= 1;
            }
            if i > j {
                return i;
            }
            self.swap(i, j);
            i += 1;
            j -= 1;
        }
    }

    fn partial_insertion_sort(&mut self, a: usize, b: usize) -> bool {
        const MAX_STEPS: usize = 5;
        const SHORTEST_SHIFTING: usize = 50;
        let mut i = a + 1;
        for _ in 0..MAX_STEPS {
            while i < b && !self.less(i, i - 1) {
                i += 1;
            }
            if i == b {
                return true;
            }
            if b - a < SHORTEST_SHIFTING {
                return false;
            }
            self.swap(i, i - 1);
            if i - a >= 2 {
                let mut j = i - 1;
                while j >= 1 {
                    if !self.less(j, j - 1) {
                        break;
                    }
                    self.swap(j, j - 1);
                    j -= 1;
                }
            }
            if b - i >= 2 {
                for j in i + 1..b {
                    if !self.less(j, j - 1) {
                        break;
                    }
                    self.swap(j, j - 1);
                }
            }
        }
        false
    }

    fn break_patterns(&mut self, a: usize, b: usize) {
        let length = b - a;
        if length < 8 {
            return;
        }
        let mut random = length as u64;
        let modulus = 1usize << (usize::BITS - length.leading_zeros());
        let mid = a + (length / 4) * 2;
        for idx in mid - 1..=mid + 1 {
            random ^= random << 13;
            random ^= random >> 7;
            random ^= random << 17;
            let mut other = (random as usize) & (modulus - 1);
            if other >= length {
                other -= length;
            }
            self.swap(idx, a + other);
        }
    }

    fn choose_pivot(&mut self, a: usize, b: usize) -> (usize, Hint) {
        const SHORTEST_NINTHER: usize = 50;
        const MAX_SWAPS: usize = 4 * 3;
        let l = b - a;
        let mut swaps = 0;
        let (mut i, mut j, mut k) = (a + l / 4, a + l / 4 * 2, a + l / 4 * 3);
        if l >= 8 {
            if l >= SHORTEST_NINTHER {
                i = self.median(i - 1, i, i + 1, &mut swaps);
                j = self.median(j - 1, j, j + 1, &mut swaps);
                k = self.median(k - 1, k, k + 1, &mut swaps);
            }
            j = self.median(i, j, k, &mut swaps);
        }
        match swaps {
            0 => (j, Hint::Increasing),
            MAX_SWAPS => (j, Hint::Decreasing),
            _ => (j, Hint::Unknown),
        }
    }

    fn order2(&mut self, a: usize, b: usize, swaps: &mut usize) -> (usize, usize) {
        if self.less(b, a) {
            *swaps += 1;
            (b, a)
        } else {
            (a, b)
        }
    }

    fn median(&mut self, a: usize, b: usize, c: usize, swaps: &mut usize) -> usize {
        let (a, b) = self.order2(a, b, swaps);
        let (b, c) = self.order2(b, c, swaps);
        let _ = c;
        let (_, b) = self.order2(a, b, swaps);
        b
    }

    fn reverse_range(&mut self, a: usize, b: usize) {
        let (mut i, mut j) = (a, b - 1);
        while i < j {
            self.swap(i, j);
            i += 1;
            j -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ties keep their original order on short lists (insertion sort), as in Go.
    #[test]
    fn short_lists_are_stable() {
        let keys = [2, 1, 2, 1, 0];
        assert_eq!(order(keys.len(), |a, b| keys[a] < keys[b]), [4, 1, 3, 0, 2]);
    }

    /// The orders Go's `sort.Slice` gives (Go 1.27.3, a by-hand program sorting `0..n` by these
    /// keys with `keys[idx[i]] < keys[idx[j]]`): pdqsort's partitions reorder ties.
    #[test]
    fn ties_come_out_as_in_go() {
        let cases: [(Vec<usize>, &[usize]); 3] = [
            (
                (0..20).map(|i| i * 7 % 3).collect(),
                &[9, 18, 15, 3, 12, 0, 6, 10, 7, 4, 13, 16, 1, 19, 8, 5, 11, 14, 2, 17],
            ),
            (
                (0..60).map(|i| i * 13 % 5).collect(),
                &[
                    25, 0, 20, 55, 30, 5, 50, 35, 15, 45, 10, 40, 12, 42, 37, 47, 7, 17, 32, 52, 2, 57, 22, 27, 29, 14,
                    59, 54, 4, 49, 19, 9, 44, 24, 34, 39, 41, 21, 26, 16, 1, 56, 11, 51, 6, 31, 46, 36, 8, 48, 18, 43,
                    28, 53, 23, 3, 33, 13, 58, 38,
                ],
            ),
            (
                (0..100).map(|i| (100 - i) / 10).collect(),
                &[
                    92, 97, 98, 91, 96, 95, 94, 93, 99, 90, 81, 89, 88, 87, 86, 85, 84, 83, 82, 76, 71, 79, 78, 77, 80,
                    75, 74, 73, 72, 66, 61, 69, 68, 67, 70, 65, 64, 63, 62, 51, 60, 59, 58, 57, 56, 55, 54, 53, 52, 49,
                    42, 50, 48, 47, 46, 45, 44, 43, 41, 31, 40, 39, 38, 37, 36, 35, 34, 33, 32, 26, 21, 29, 28, 27, 30,
                    25, 24, 23, 22, 16, 11, 19, 18, 17, 20, 15, 14, 13, 12, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0,
                ],
            ),
        ];
        for (keys, want) in cases {
            assert_eq!(order(keys.len(), |a, b| keys[a] < keys[b]), want);
        }
    }

    /// Long lists come out sorted (the tie order is Go's, checked against cel-go in
    /// `core/tests/cel_library.rs`).
    #[test]
    fn long_lists_sort() {
        for n in [13, 50, 51, 200, 1000] {
            let keys: Vec<u64> = (0..n as u64).map(|i| (i * 7919 + 13) % 97).collect();
            let idx = order(n, |a, b| keys[a] < keys[b]);
            assert!(idx.windows(2).all(|w| keys[w[0]] <= keys[w[1]]), "n = {n}");
            let mut seen = idx.clone();
            seen.sort_unstable();
            assert_eq!(seen, (0..n).collect::<Vec<_>>());
        }
        let keys: Vec<u64> = (0..300).rev().collect();
        let idx = order(300, |a, b| keys[a] < keys[b]);
        assert!(idx.windows(2).all(|w| keys[w[0]] <= keys[w[1]]));
    }
}
