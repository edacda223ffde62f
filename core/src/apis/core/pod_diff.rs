//! The text of apimachinery `diff.Diff` (`pkg/util/diff/diff.go`, 1.37: no `usegocmp` build
//! tag), which `ValidatePodUpdate` prints after "pod updates may not change fields other
//! than …": both values as `json.MarshalIndent(x, "", " ")` ([`super::pod_gojson`]), split
//! into lines by `difflib.SplitLines`, compared by github.com/pmezard/go-difflib's
//! `SequenceMatcher` (autojunk on: a line found more than 1% + 1 times in a text of 200 lines
//! or more is "popular") and written by `WriteUnifiedDiff` with 3 lines of context and no
//! file header.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Match {
    a: usize,
    b: usize,
    size: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct OpCode {
    tag: u8,
    i1: usize,
    i2: usize,
    j1: usize,
    j2: usize,
}

/// `difflib.SequenceMatcher` over lines (no junk function, autojunk on).
struct Matcher<'a> {
    a: &'a [String],
    b: &'a [String],
    b2j: BTreeMap<&'a str, Vec<usize>>,
}

impl<'a> Matcher<'a> {
    /// `NewMatcher` (`chainB`).
    fn new(a: &'a [String], b: &'a [String]) -> Matcher<'a> {
        let mut b2j: BTreeMap<&'a str, Vec<usize>> = BTreeMap::new();
        for (i, s) in b.iter().enumerate() {
            b2j.entry(s.as_str()).or_default().push(i);
        }
        let n = b.len();
        if n >= 200 {
            let ntest = n / 100 + 1;
            b2j.retain(|_, indices| indices.len() <= ntest);
        }
        Matcher { a, b, b2j }
    }

    fn line_a(&self, i: usize) -> &str {
        self.a.get(i).map_or("", String::as_str)
    }

    fn line_b(&self, j: usize) -> &str {
        self.b.get(j).map_or("", String::as_str)
    }

    /// `findLongestMatch` (no b-junk: the junk extension loops never run).
    fn find_longest_match(&self, alo: usize, ahi: usize, blo: usize, bhi: usize) -> Match {
        let (mut besti, mut bestj, mut bestsize) = (alo, blo, 0usize);
        let mut j2len: BTreeMap<usize, usize> = BTreeMap::new();
        for i in alo..ahi {
            let mut newj2len: BTreeMap<usize, usize> = BTreeMap::new();
            if let Some(indices) = self.b2j.get(self.line_a(i)) {
                for &j in indices {
                    if j < blo {
                        continue;
                    }
                    if j >= bhi {
                        break;
                    }
                    let prev = if j == 0 { 0 } else { j2len.get(&(j - 1)).copied().unwrap_or(0) };
                    let k = prev + 1;
                    newj2len.insert(j, k);
                    if k > bestsize {
                        besti = i + 1 - k;
                        bestj = j + 1 - k;
                        bestsize = k;
                    }
                }
            }
            j2len = newj2len;
        }
        while besti > alo && bestj > blo && self.line_a(besti - 1) == self.line_b(bestj - 1) {
            besti -= 1;
            bestj -= 1;
            bestsize += 1;
        }
        while besti + bestsize < ahi
            && bestj + bestsize < bhi
            && self.line_a(besti + bestsize) == self.line_b(bestj + bestsize)
        {
            bestsize += 1;
        }
        Match { a: besti, b: bestj, size: bestsize }
    }

    /// `GetMatchingBlocks` (the recursion as a work list, then sorted as Python's difflib
    /// does: the same blocks in the same order).
    fn matching_blocks(&self) -> Vec<Match> {
        let mut queue = alloc::vec![(0usize, self.a.len(), 0usize, self.b.len())];
        let mut matched: Vec<Match> = Vec::new();
        while let Some((alo, ahi, blo, bhi)) = queue.pop() {
            let m = self.find_longest_match(alo, ahi, blo, bhi);
            if m.size > 0 {
                matched.push(m);
                if alo < m.a && blo < m.b {
                    queue.push((alo, m.a, blo, m.b));
                }
                if m.a + m.size < ahi && m.b + m.size < bhi {
                    queue.push((m.a + m.size, ahi, m.b + m.size, bhi));
                }
            }
        }
        matched.sort_by_key(|m| (m.a, m.b));
        let mut out = Vec::new();
        let (mut i1, mut j1, mut k1) = (0, 0, 0);
        for m in matched {
            if i1 + k1 == m.a && j1 + k1 == m.b {
                k1 += m.size;
            } else {
                if k1 > 0 {
                    out.push(Match { a: i1, b: j1, size: k1 });
                }
                (i1, j1, k1) = (m.a, m.b, m.size);
            }
        }
        if k1 > 0 {
            out.push(Match { a: i1, b: j1, size: k1 });
        }
        out.push(Match { a: self.a.len(), b: self.b.len(), size: 0 });
        out
    }

    /// `GetOpCodes`.
    fn op_codes(&self) -> Vec<OpCode> {
        let (mut i, mut j) = (0, 0);
        let mut codes = Vec::new();
        for m in self.matching_blocks() {
            let tag = if i < m.a && j < m.b {
                b'r'
            } else if i < m.a {
                b'd'
            } else if j < m.b {
                b'i'
            } else {
                0
            };
            if tag > 0 {
                codes.push(OpCode { tag, i1: i, i2: m.a, j1: j, j2: m.b });
            }
            i = m.a + m.size;
            j = m.b + m.size;
            if m.size > 0 {
                codes.push(OpCode { tag: b'e', i1: m.a, i2: i, j1: m.b, j2: j });
            }
        }
        codes
    }

    /// `GetGroupedOpCodes(n)`.
    fn grouped_op_codes(&self, n: usize) -> Vec<Vec<OpCode>> {
        let mut codes = self.op_codes();
        if codes.is_empty() {
            codes.push(OpCode { tag: b'e', i1: 0, i2: 1, j1: 0, j2: 1 });
        }
        if let Some(c) = codes.first_mut() {
            if c.tag == b'e' {
                c.i1 = c.i1.max(c.i2.saturating_sub(n));
                c.j1 = c.j1.max(c.j2.saturating_sub(n));
            }
        }
        if let Some(c) = codes.last_mut() {
            if c.tag == b'e' {
                c.i2 = c.i2.min(c.i1 + n);
                c.j2 = c.j2.min(c.j1 + n);
            }
        }
        let nn = n + n;
        let mut groups = Vec::new();
        let mut group = Vec::new();
        for c in codes {
            let (mut i1, i2, mut j1, j2) = (c.i1, c.i2, c.j1, c.j2);
            if c.tag == b'e' && i2 - i1 > nn {
                group.push(OpCode { tag: c.tag, i1, i2: i2.min(i1 + n), j1, j2: j2.min(j1 + n) });
                groups.push(core::mem::take(&mut group));
                i1 = i1.max(i2.saturating_sub(n));
                j1 = j1.max(j2.saturating_sub(n));
            }
            group.push(OpCode { tag: c.tag, i1, i2, j1, j2 });
        }
        if !(group.is_empty() || group.len() == 1 && group.first().is_some_and(|g| g.tag == b'e')) {
            groups.push(group);
        }
        groups
    }
}

/// `difflib.SplitLines`: lines with their `\n`, the last one given one.
fn split_lines(s: &str) -> Vec<String> {
    let mut lines: Vec<String> = s.split_inclusive('\n').map(String::from).collect();
    if s.is_empty() || s.ends_with('\n') {
        lines.push(String::new());
    }
    if let Some(last) = lines.last_mut() {
        last.push('\n');
    }
    lines
}

/// `formatRangeUnified`.
fn range(start: usize, stop: usize) -> String {
    let mut beginning = start + 1;
    let length = stop - start;
    if length == 1 {
        return format!("{beginning}");
    }
    if length == 0 {
        beginning -= 1;
    }
    format!("{beginning},{length}")
}

/// `difflib.GetUnifiedDiffString` of two texts (`Context: 3`, no file names).
pub fn unified_diff(a: &str, b: &str) -> String {
    let la = split_lines(a);
    let lb = split_lines(b);
    let m = Matcher::new(&la, &lb);
    let mut out = String::new();
    for g in m.grouped_op_codes(3) {
        let (Some(first), Some(last)) = (g.first(), g.last()) else { continue };
        out.push_str(&format!("@@ -{} +{} @@\n", range(first.i1, last.i2), range(first.j1, last.j2)));
        for c in &g {
            if c.tag == b'e' {
                for line in la.get(c.i1..c.i2).unwrap_or(&[]) {
                    out.push(' ');
                    out.push_str(line);
                }
                continue;
            }
            if c.tag == b'r' || c.tag == b'd' {
                for line in la.get(c.i1..c.i2).unwrap_or(&[]) {
                    out.push('-');
                    out.push_str(line);
                }
            }
            if c.tag == b'r' || c.tag == b'i' {
                for line in lb.get(c.j1..c.j2).unwrap_or(&[]) {
                    out.push('+');
                    out.push_str(line);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    // Python's difflib.unified_diff (go-difflib's model) on small texts.
    #[test]
    fn unified() {
        let a = "{\n \"A\": 1,\n \"B\": 2,\n \"C\": 3\n}";
        let b = "{\n \"A\": 1,\n \"B\": 5,\n \"C\": 3\n}";
        assert_eq!(unified_diff(a, b), "@@ -1,5 +1,5 @@\n {\n  \"A\": 1,\n- \"B\": 2,\n+ \"B\": 5,\n  \"C\": 3\n }\n");
        assert_eq!(unified_diff(a, a), "");
        let a: String = (0..20).map(|i| format!("l{i}\n")).collect();
        let b = a.replace("l10\n", "x\n");
        assert_eq!(unified_diff(&a, &b), "@@ -8,7 +8,7 @@\n l7\n l8\n l9\n-l10\n+x\n l11\n l12\n l13\n");
    }
}
