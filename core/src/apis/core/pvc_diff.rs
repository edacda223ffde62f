//! The diff the PersistentVolumeClaim update error prints: apimachinery
//! `pkg/util/diff.Diff` (`json.MarshalIndent(x, "", " ")` of both values, then
//! github.com/pmezard/go-difflib's `UnifiedDiff` with 3 lines of context), ported with
//! difflib's `SequenceMatcher` (`findLongestMatch`, `GetMatchingBlocks`, `GetOpCodes`,
//! `GetGroupedOpCodes`; no junk: its auto-junk heuristic applies only from 200 lines).

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// A JSON value with its object keys in a chosen order (a Go struct's field order).
#[derive(Clone, Debug, PartialEq)]
pub enum GoJson {
    /// `null`.
    Null,
    /// A string (encoded as Go's encoder does).
    Str(String),
    /// An array.
    Arr(Vec<GoJson>),
    /// An object, in the given order.
    Obj(Vec<(String, GoJson)>),
}

/// `json.MarshalIndent(v, "", " ")`.
pub fn marshal_indent(v: &GoJson) -> String {
    let mut out = String::new();
    write(&mut out, v, 0);
    out
}

fn newline(out: &mut String, depth: usize) {
    out.push('\n');
    for _ in 0..depth {
        out.push(' ');
    }
}

fn write(out: &mut String, v: &GoJson, depth: usize) {
    // Iterative over siblings; nesting depth is that of a PVC spec (a few levels).
    match v {
        GoJson::Null => out.push_str("null"),
        GoJson::Str(s) => crate::field::gojson::write_string(out, s),
        GoJson::Arr(items) => {
            if items.is_empty() {
                out.push_str("[]");
                return;
            }
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, depth + 1);
                if depth < 16 {
                    write(out, item, depth + 1);
                }
            }
            newline(out, depth);
            out.push(']');
        }
        GoJson::Obj(fields) => {
            if fields.is_empty() {
                out.push_str("{}");
                return;
            }
            out.push('{');
            for (i, (k, item)) in fields.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, depth + 1);
                crate::field::gojson::write_string(out, k);
                out.push_str(": ");
                if depth < 16 {
                    write(out, item, depth + 1);
                }
            }
            newline(out, depth);
            out.push('}');
        }
    }
}

/// `diff.Diff(a, b)` of two marshalled values.
pub fn diff(a: &GoJson, b: &GoJson) -> String {
    unified_diff(&marshal_indent(a), &marshal_indent(b))
}

/// difflib `SplitLines`.
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

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct OpCode {
    tag: u8,
    i1: usize,
    i2: usize,
    j1: usize,
    j2: usize,
}

struct Matcher<'a> {
    a: &'a [String],
    b: &'a [String],
    b2j: BTreeMap<&'a str, Vec<usize>>,
}

impl<'a> Matcher<'a> {
    fn new(a: &'a [String], b: &'a [String]) -> Matcher<'a> {
        let mut b2j: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
        for (i, s) in b.iter().enumerate() {
            b2j.entry(s.as_str()).or_default().push(i);
        }
        if b.len() >= 200 {
            let ntest = b.len() / 100 + 1;
            b2j.retain(|_, v| v.len() <= ntest);
        }
        Matcher { a, b, b2j }
    }

    fn find_longest_match(&self, alo: usize, ahi: usize, blo: usize, bhi: usize) -> (usize, usize, usize) {
        let (mut besti, mut bestj, mut bestsize) = (alo, blo, 0usize);
        let mut j2len: BTreeMap<usize, usize> = BTreeMap::new();
        for i in alo..ahi {
            let mut new_j2len: BTreeMap<usize, usize> = BTreeMap::new();
            if let Some(js) = self.b2j.get(self.a[i].as_str()) {
                for &j in js {
                    if j < blo {
                        continue;
                    }
                    if j >= bhi {
                        break;
                    }
                    let k = j.checked_sub(1).and_then(|p| j2len.get(&p)).copied().unwrap_or(0) + 1;
                    new_j2len.insert(j, k);
                    if k > bestsize {
                        besti = i + 1 - k;
                        bestj = j + 1 - k;
                        bestsize = k;
                    }
                }
            }
            j2len = new_j2len;
        }
        while besti > alo && bestj > blo && self.a[besti - 1] == self.b[bestj - 1] {
            besti -= 1;
            bestj -= 1;
            bestsize += 1;
        }
        while besti + bestsize < ahi && bestj + bestsize < bhi && self.a[besti + bestsize] == self.b[bestj + bestsize] {
            bestsize += 1;
        }
        (besti, bestj, bestsize)
    }

    /// `GetMatchingBlocks`, with an explicit stack instead of recursion (the blocks sorted).
    fn matching_blocks(&self) -> Vec<(usize, usize, usize)> {
        let mut queue = alloc::vec![(0, self.a.len(), 0, self.b.len())];
        let mut matched = Vec::new();
        while let Some((alo, ahi, blo, bhi)) = queue.pop() {
            let (i, j, k) = self.find_longest_match(alo, ahi, blo, bhi);
            if k > 0 {
                matched.push((i, j, k));
                if alo < i && blo < j {
                    queue.push((alo, i, blo, j));
                }
                if i + k < ahi && j + k < bhi {
                    queue.push((i + k, ahi, j + k, bhi));
                }
            }
        }
        matched.sort_unstable();
        let mut out = Vec::new();
        let (mut i1, mut j1, mut k1) = (0, 0, 0);
        for (i2, j2, k2) in matched {
            if i1 + k1 == i2 && j1 + k1 == j2 {
                k1 += k2;
            } else {
                if k1 > 0 {
                    out.push((i1, j1, k1));
                }
                (i1, j1, k1) = (i2, j2, k2);
            }
        }
        if k1 > 0 {
            out.push((i1, j1, k1));
        }
        out.push((self.a.len(), self.b.len(), 0));
        out
    }

    fn opcodes(&self) -> Vec<OpCode> {
        let (mut i, mut j) = (0, 0);
        let mut codes = Vec::new();
        for (ai, bj, size) in self.matching_blocks() {
            let tag = if i < ai && j < bj {
                b'r'
            } else if i < ai {
                b'd'
            } else if j < bj {
                b'i'
            } else {
                0
            };
            if tag > 0 {
                codes.push(OpCode { tag, i1: i, i2: ai, j1: j, j2: bj });
            }
            i = ai + size;
            j = bj + size;
            if size > 0 {
                codes.push(OpCode { tag: b'e', i1: ai, i2: i, j1: bj, j2: j });
            }
        }
        codes
    }

    fn grouped_opcodes(&self, n: usize) -> Vec<Vec<OpCode>> {
        let mut codes = self.opcodes();
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
                group.push(OpCode { tag: b'e', i1, i2: i2.min(i1 + n), j1, j2: j2.min(j1 + n) });
                groups.push(core::mem::take(&mut group));
                i1 = i1.max(i2.saturating_sub(n));
                j1 = j1.max(j2.saturating_sub(n));
            }
            group.push(OpCode { tag: c.tag, i1, i2, j1, j2 });
        }
        if !(group.is_empty() || group.len() == 1 && group[0].tag == b'e') {
            groups.push(group);
        }
        groups
    }
}

/// difflib `formatRangeUnified`.
fn range(start: usize, stop: usize) -> String {
    let beginning = start + 1;
    let length = stop - start;
    if length == 1 {
        return format!("{beginning}");
    }
    if length == 0 {
        return format!("{},{}", beginning - 1, length);
    }
    format!("{beginning},{length}")
}

/// `difflib.GetUnifiedDiffString` with no file names and 3 lines of context.
pub fn unified_diff(a: &str, b: &str) -> String {
    let (la, lb) = (split_lines(a), split_lines(b));
    let m = Matcher::new(&la, &lb);
    let mut out = String::new();
    for g in m.grouped_opcodes(3) {
        let (Some(first), Some(last)) = (g.first(), g.last()) else { continue };
        out.push_str(&format!("@@ -{} +{} @@\n", range(first.i1, last.i2), range(first.j1, last.j2)));
        for c in &g {
            if c.tag == b'e' {
                for line in &la[c.i1..c.i2] {
                    out.push(' ');
                    out.push_str(line);
                }
                continue;
            }
            if c.tag == b'r' || c.tag == b'd' {
                for line in &la[c.i1..c.i2] {
                    out.push('-');
                    out.push_str(line);
                }
            }
            if c.tag == b'r' || c.tag == b'i' {
                for line in &lb[c.j1..c.j2] {
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

    #[test]
    fn unified() {
        let a = "{\n \"a\": 1,\n \"b\": 2,\n \"c\": 3\n}";
        let b = "{\n \"a\": 1,\n \"b\": 5,\n \"c\": 3\n}";
        assert_eq!(unified_diff(a, b), "@@ -1,5 +1,5 @@\n {\n  \"a\": 1,\n- \"b\": 2,\n+ \"b\": 5,\n  \"c\": 3\n }\n");
        let v = GoJson::Obj(alloc::vec![
            (String::from("A"), GoJson::Arr(alloc::vec![GoJson::Str(String::from("x"))])),
            (String::from("B"), GoJson::Obj(Vec::new())),
            (String::from("C"), GoJson::Null),
        ]);
        assert_eq!(marshal_indent(&v), "{\n \"A\": [\n  \"x\"\n ],\n \"B\": {},\n \"C\": null\n}");
    }
}
