//! CEL's regular expressions as Go's `regexp` (RE2) reads them, for `matches`, `find` and
//! `findAll`: the pattern rewritten where regex-automata reads it otherwise (ASCII Perl
//! classes, `(?i)` as ASCII letter classes), Go's error messages, and Go's `Expand` for
//! replacement templates.

use alloc::format;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;
use core::cell::RefCell;

use regex_automata::nfa::thompson::{self, pikevm, pikevm::PikeVM};
use regex_automata::{Anchored, Input};

use crate::cel::value::Fail;

/// Compiled regular expressions, cached per program (patterns are usually literals).
#[derive(Default)]
pub struct RegexCache {
    entries: RefCell<Vec<(Rc<str>, Rc<Regex>)>>,
}

impl RegexCache {
    /// The compiled form of a pattern.
    pub fn get(&self, pattern: &str) -> Result<Rc<Regex>, Fail> {
        if let Some((_, r)) = self.entries.borrow().iter().find(|(p, _)| &**p == pattern) {
            return Ok(r.clone());
        }
        let r = Rc::new(Regex::new(pattern)?);
        let mut entries = self.entries.borrow_mut();
        if entries.len() >= 64 {
            entries.remove(0);
        }
        entries.push((Rc::from(pattern), r.clone()));
        Ok(r)
    }
}

/// A compiled RE2-syntax regular expression (linear time): one Thompson NFA, run by a lazily
/// built DFA for `matches` (see `dfa.rs`), else by the PikeVM. (The regex crate's `meta` engine
/// adds ~20 KB gzipped of strategy code to the WebAssembly build; the bounded backtracker, a
/// speed-up for short haystacks, 4 KB: the npm core module's budget keeps neither.)
pub struct Regex {
    /// Answers `matches` for patterns without word boundaries or multi-line anchors.
    dfa: Option<super::dfa::Dfa>,
    pikevm: PikeVM,
    cache: RefCell<pikevm::Cache>,
    /// The pattern can only match at the start (`^...`, as most Kubernetes patterns): one
    /// attempt at the start position instead of one per position.
    anchored: bool,
}

impl Regex {
    /// Compiles a pattern, with the error cel-go reports for a bad one.
    pub fn new(pattern: &str) -> Result<Regex, Fail> {
        if let Some(e) = go_refusal(pattern) {
            return Err(e);
        }
        let nfa = thompson::Compiler::new()
            .configure(thompson::Config::new().nfa_size_limit(Some(8 << 20)))
            .build(&ascii_perl_classes(&case_insensitive(&go_literals(pattern))))
            .map_err(|e| match uses_unicode_classes(pattern) {
                // Go accepts these; builds without Unicode tables (WebAssembly) cannot.
                true => String::from(
                    "given regex uses \\p{..} Unicode classes, which kubedv's WebAssembly build does not include (the native CLI does)",
                ),
                false => go_regex_error(pattern).unwrap_or_else(|| format!("given regex is invalid: {e}")),
            })?;
        let anchored = nfa.is_always_start_anchored();
        let dfa = super::dfa::Dfa::new(&nfa, anchored);
        let pikevm = PikeVM::new_from_nfa(nfa).map_err(|e| format!("given regex is invalid: {e}"))?;
        let cache = RefCell::new(pikevm.create_cache());
        Ok(Regex { dfa, pikevm, cache, anchored })
    }

    /// The leftmost-first match in `s` at or after `start` (with `earliest`, any match, found
    /// as soon as possible: enough to answer whether there is one).
    fn find_at(&self, s: &str, start: usize, earliest: bool) -> Option<regex_automata::Match> {
        let anchored = if self.anchored { Anchored::Yes } else { Anchored::No };
        let input = Input::new(s).range(start..).anchored(anchored).earliest(earliest);
        self.pikevm.find(&mut self.cache.borrow_mut(), input)
    }

    /// Whether the pattern matches anywhere in `s`.
    pub fn is_match(&self, s: &str) -> bool {
        if let Some(found) = self.dfa.as_ref().and_then(|dfa| dfa.is_match(s.as_bytes())) {
            return found;
        }
        self.find_at(s, 0, true).is_some()
    }

    /// The matched substrings, left to right, at most `limit` (an empty match just after
    /// another is skipped, as Go's FindAllString does).
    pub fn find_all<'s>(&self, s: &'s str, limit: usize) -> Vec<&'s str> {
        let mut out = Vec::new();
        let mut at = 0;
        let mut last_end = None;
        while out.len() < limit && at <= s.len() {
            let Some(m) = self.find_at(s, at, false) else { break };
            if m.is_empty() && Some(m.end()) == last_end {
                // Step over one character and look again.
                at = m.end() + s[m.end()..].chars().next().map_or(1, char::len_utf8);
                continue;
            }
            out.push(&s[m.range()]);
            last_end = Some(m.end());
            at = if m.is_empty() { m.end() + s[m.end()..].chars().next().map_or(1, char::len_utf8) } else { m.end() };
        }
        out
    }
}

impl Regex {
    /// Go's `Regexp.ReplaceAllString`: every non-overlapping match (an empty match right after
    /// another is skipped) replaced by `template` expanded as `Regexp.Expand` does (`$1`,
    /// `${1}`, `$name`: the longest run of letters, digits and `_`; an unknown group is empty;
    /// `$$` is `$`).
    pub fn replace_all(&self, s: &str, template: &str) -> String {
        let nfa = self.pikevm.get_nfa();
        let info = nfa.group_info();
        let mut slots = alloc::vec![None; info.slot_len()];
        let mut out = String::new();
        let (mut at, mut copied, mut last_end) = (0, 0, None);
        while at <= s.len() {
            let input = Input::new(s).range(at..);
            let found = { self.pikevm.search_slots(&mut self.cache.borrow_mut(), &input, &mut slots) };
            let (Some(_), Some(start), Some(end)) = (found, slots[0], slots[1]) else { break };
            let (start, end) = (start.get(), end.get());
            let step = |i: usize| i + s[i..].chars().next().map_or(1, char::len_utf8);
            if start == end && Some(end) == last_end {
                at = step(end);
                continue;
            }
            out.push_str(&s[copied..start]);
            expand(template, &mut out, |group| {
                let index = match group.parse::<usize>() {
                    Ok(i) => i,
                    Err(_) => info.to_index(regex_automata::PatternID::ZERO, group)?,
                };
                let (a, b) = (slots.get(index * 2).copied()??, slots.get(index * 2 + 1).copied()??);
                s.get(a.get()..b.get())
            });
            copied = end;
            last_end = Some(end);
            at = if start == end { step(end) } else { end };
        }
        out.push_str(&s[copied..]);
        out
    }
}

/// Go's `regexp.expand` for a template, `group` giving a group's text by number or name.
fn expand<'a>(template: &str, out: &mut String, group: impl Fn(&str) -> Option<&'a str>) {
    let mut rest = template;
    while let Some(i) = rest.find('$') {
        out.push_str(&rest[..i]);
        rest = &rest[i + 1..];
        if let Some(r) = rest.strip_prefix('$') {
            out.push('$');
            rest = r;
            continue;
        }
        let (name, after) = match rest.strip_prefix('{') {
            Some(r) => match r.find('}') {
                Some(j) if j > 0 && r[..j].bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') => {
                    (&r[..j], &r[j + 1..])
                }
                // Malformed: Go copies the `$` literally.
                _ => ("", rest),
            },
            None => {
                let n = rest.bytes().take_while(|b| b.is_ascii_alphanumeric() || *b == b'_').count();
                (&rest[..n], &rest[n..])
            }
        };
        if name.is_empty() {
            out.push('$');
            continue;
        }
        out.push_str(group(name).unwrap_or(""));
        rest = after;
    }
    out.push_str(rest);
}

/// Go's error for a pattern its regexp refuses (regexp/syntax `Error`: "error parsing regexp:
/// <code>: `<expr>`", the expression part as parse.go reports it for that code), when
/// regex-syntax refuses it for the same reason; `None` for the other refusals.
#[inline(never)]
pub(crate) fn go_regex_error(pattern: &str) -> Option<String> {
    use regex_syntax::ast::ErrorKind as K;
    if let Some(e) = go_refusal(pattern) {
        return Some(e);
    }
    // What Go reads as written and regex-syntax otherwise (`[` in a class) is rewritten first.
    regex_syntax::ast::parse::Parser::new().parse(&go_literals(pattern)).err()?;
    let err = regex_syntax::ast::parse::Parser::new().parse(pattern).err()?;
    let span = err.span();
    let text = pattern.get(span.start.offset..span.end.offset).unwrap_or("");
    let (code, expr) = match err.kind() {
        K::GroupUnclosed => ("missing closing )", pattern),
        K::GroupUnopened => ("unexpected )", pattern),
        K::ClassUnclosed => ("missing closing ]", pattern.get(span.start.offset..).unwrap_or("")),
        K::EscapeUnrecognized => ("invalid escape sequence", text),
        K::ClassRangeInvalid => ("invalid character class range", text),
        K::RepetitionMissing => {
            // The operator itself (`*`, `+`, `?`, `{n,m}`).
            let rest = pattern.get(span.start.offset..).unwrap_or("");
            let op = match rest.chars().next() {
                Some('{') => rest.find('}').map_or(rest, |i| &rest[..=i]),
                Some(c) => &rest[..c.len_utf8()],
                None => "",
            };
            ("missing argument to repetition operator", op)
        }
        K::RepetitionCountInvalid => ("invalid repeat count", text),
        K::EscapeUnexpectedEof => ("trailing backslash at end of expression", ""),
        K::NestLimitExceeded(_) => ("expression nests too deeply", pattern),
        K::GroupNameInvalid | K::GroupNameEmpty | K::GroupNameUnexpectedEof => ("invalid named capture", text),
        K::FlagUnrecognized | K::FlagUnexpectedEof | K::FlagDanglingNegation => {
            ("invalid or unsupported Perl syntax", text)
        }
        _ => return None,
    };
    Some(format!("error parsing regexp: {code}: `{expr}`"))
}

/// Go's refusal of stacked repetition operators, which regex-syntax accepts (`a**` is a
/// repetition of a repetition there): in Perl mode, as `regexp.Compile` parses, regexp/syntax
/// parse.go `repeat` refuses an operator (`*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`, each with an
/// optional non-greedy `?`) right after another, naming both: `a++` → "invalid nested
/// repetition operator: `++`". Escapes, `\Q...\E` and character classes are skipped; a `{`
/// that begins no count is a literal.
fn nested_repetition(pattern: &str) -> Option<String> {
    let b = pattern.as_bytes();
    let mut i = 0;
    // Where the operator just read starts, when the item before `i` is a repetition.
    let mut last: Option<usize> = None;
    while i < b.len() {
        let op_end = match b[i] {
            b'*' | b'+' | b'?' => Some(i + 1),
            b'{' => counted(b, i),
            _ => None,
        };
        if let Some(mut end) = op_end {
            if b.get(end) == Some(&b'?') {
                end += 1;
            }
            if let Some(start) = last {
                return Some(format!(
                    "error parsing regexp: invalid nested repetition operator: `{}`",
                    &pattern[start..end]
                ));
            }
            last = Some(i);
            i = end;
            continue;
        }
        last = None;
        i = match b[i] {
            b'\\' if b.get(i + 1) == Some(&b'Q') => pattern[i + 2..].find("\\E").map_or(b.len(), |e| i + 2 + e + 2),
            b'\\' => i + 2,
            b'[' => class_end(b, i),
            // A group's `(?` is no repetition.
            b'(' if b.get(i + 1) == Some(&b'?') => i + 2,
            _ => i + 1,
        };
    }
    None
}

/// What Go's regexp/syntax parser (Perl mode) refuses and regex-syntax accepts, in the order a
/// left-to-right parse meets it: stacked repetitions ([`nested_repetition`]), escapes Go does
/// not know (`\u`, `\e`, a lone `\1`-`\9` back-reference, `\b` or `\A` in a class: parse.go
/// `parseEscape` "invalid escape sequence"), flags other than `imsU` (`(?x`: `parsePerlFlags`
/// "invalid or unsupported Perl syntax"), repeat counts above 1000 (`parseRepeat` "invalid
/// repeat count") and nested counts whose product passes 1000 (`(a{500}){3}`: `repeat` with
/// `repeatIsValid(re, 1000)`, "invalid repeat count" naming the outer operator).
fn go_refusal(pattern: &str) -> Option<String> {
    let b = pattern.as_bytes();
    let bad = |code: &str, text: &str| Some(format!("error parsing regexp: {code}: `{text}`"));
    // A top-level (`in_class` false) or class escape at `i`: its end, or Go's error.
    let escape = |i: usize, in_class: bool| -> Result<usize, Option<String>> {
        let Some(&c) = b.get(i + 1) else { return Ok(b.len()) };
        match c {
            _ if octal_digits(b, i) > 0 => Ok(i + 1 + octal_digits(b, i)),
            b'a' | b'f' | b'n' | b'r' | b't' | b'v' | b'x' | b'd' | b'D' | b's' | b'S' | b'w' | b'W' | b'p' | b'P' => {
                Ok(i + 2)
            }
            b'A' | b'b' | b'B' | b'z' | b'Q' if !in_class => Ok(i + 2),
            c if c.is_ascii_alphanumeric() => Err(bad("invalid escape sequence", &pattern[i..i + 2])),
            _ => Ok(i + 2),
        }
    };
    // repeatIsValid as a budget: the least `n` with which an item passes, `x{m}` needing
    // max(m, m × need(x)); `x{0}` needs none; `*`, `+`, `?` and `{0,}` pass x's through. `last`
    // is the latest item's need, `most` the group's others, `groups` the enclosing groups'.
    let (mut groups, mut most, mut last, mut after_op) = (Vec::new(), 0u32, 0u32, false);
    let mut i = 0;
    while i < b.len() {
        let op = matches!(b[i], b'*' | b'+' | b'?') || (b[i] == b'{' && counted(b, i).is_some());
        if !op {
            most = most.max(last);
            last = 0;
        }
        let was_op = core::mem::replace(&mut after_op, op);
        i = match b[i] {
            b')' => {
                last = most;
                most = groups.pop().unwrap_or(0);
                i + 1
            }
            b'\\' if b.get(i + 1) == Some(&b'Q') => pattern[i + 2..].find("\\E").map_or(b.len(), |e| i + 2 + e + 2),
            b'\\' => match escape(i, false) {
                Ok(end) => end,
                Err(e) => return e,
            },
            b'[' => {
                let end = class_end(b, i);
                let mut j = i + 1;
                while j < end {
                    j = match b[j] {
                        b'\\' => match escape(j, true) {
                            Ok(e) => e,
                            Err(e) => return e,
                        },
                        _ => j + 1,
                    };
                }
                end
            }
            b'(' if b.get(i + 1) == Some(&b'?') => {
                let rest = &b[i + 2..];
                if rest.starts_with(b"P<") || rest.starts_with(b"<") {
                    groups.push(most);
                    most = 0;
                    i + 2
                } else {
                    // parsePerlFlags: i, m, s, U, one '-' (followed by a flag), then ':' or ')'.
                    let (mut j, mut negated, mut flagged) = (i + 2, false, false);
                    loop {
                        match b.get(j) {
                            Some(b'i' | b'm' | b's' | b'U') => flagged = true,
                            Some(b'-') if !negated => (negated, flagged) = (true, false),
                            Some(b':' | b')') if !negated || flagged => break,
                            Some(_) => {
                                return bad("invalid or unsupported Perl syntax", &pattern[i..char_end(pattern, j + 1)])
                            }
                            // Unfinished: regex-syntax reports it.
                            None => break,
                        }
                        j += 1;
                    }
                    // `(?flags)` sets flags; `(?flags:` opens a group.
                    if b.get(j) == Some(&b':') {
                        groups.push(most);
                        most = 0;
                    }
                    j + 1
                }
            }
            b'(' => {
                groups.push(most);
                most = 0;
                i + 1
            }
            b'{' => match counted(b, i) {
                Some(end) => {
                    // Bounds beyond 1000 (or beyond u32) are refused; `{n,}` has no maximum.
                    let text = &pattern[i + 1..end - 1];
                    let (lo, hi) = text.split_once(',').unwrap_or((text, text));
                    let num = |s: &str| s.parse::<u32>().unwrap_or(u32::MAX);
                    let (min, max) = (num(lo), (!hi.is_empty()).then(|| num(hi)));
                    if min > 1000 || max.is_some_and(|m| m > 1000) {
                        return bad("invalid repeat count", &pattern[i..end]);
                    }
                    let need = match (min, max) {
                        (_, Some(0)) => 0,
                        (0, None) => last,
                        (m, None) | (_, Some(m)) => m.max(m * last),
                    };
                    // A stacked operator is refused before its size (nested_repetition).
                    if !was_op && (min >= 2 || max.is_some_and(|m| m >= 2)) && need > 1000 {
                        let lazy = usize::from(b.get(end) == Some(&b'?'));
                        return bad("invalid repeat count", &pattern[i..end + lazy]);
                    }
                    last = need;
                    end
                }
                None => i + 1,
            },
            _ => i + 1,
        };
    }
    nested_repetition(pattern)
}

/// The end of a `{n}`, `{n,}` or `{n,m}` count at `i` (parse.go `parseRepeat`), if it is one.
fn counted(b: &[u8], i: usize) -> Option<usize> {
    let digits = |from: usize| b[from.min(b.len())..].iter().take_while(|c| c.is_ascii_digit()).count();
    let mut j = i + 1;
    let n = digits(j);
    if n == 0 {
        return None;
    }
    j += n;
    if b.get(j) == Some(&b',') {
        j += 1 + digits(j + 1);
    }
    (b.get(j) == Some(&b'}')).then_some(j + 1)
}

/// The end of the character class at `i` (`[`): a `]` first (after `^`) is a member; escapes
/// and `[:name:]` are inside it. An unclosed class ends the pattern (regex-syntax reports it).
fn class_end(b: &[u8], i: usize) -> usize {
    let mut j = i + 1;
    if b.get(j) == Some(&b'^') {
        j += 1;
    }
    if b.get(j) == Some(&b']') {
        j += 1;
    }
    while j < b.len() {
        match b[j] {
            b']' => return j + 1,
            b'\\' => j += 2,
            b'[' if b.get(j + 1) == Some(&b':') => {
                j = b[j + 2..].windows(2).position(|w| w == b":]").map_or(j + 1, |p| j + 2 + p + 2);
            }
            _ => j += 1,
        }
    }
    b.len()
}

/// Whether a pattern names Unicode classes (`\pL`, `\p{Greek}`, `\P{..}`).
pub(crate) fn uses_unicode_classes(pattern: &str) -> bool {
    pattern.contains("\\p") || pattern.contains("\\P")
}

/// RE2's `i` flag (`(?i)` anywhere, `(?i:...)`, `(?-i)`, combined as `(?is)`, scoped to its
/// group), spelled out as ASCII letter classes: `a(?i)b[x-z]` → `a[bB][x-zX-Z]`. Unicode case
/// folding would need 21 KB (gzipped) of tables in the WebAssembly build, so only ASCII letters
/// fold (Go also folds `k` with U+212A and `s` with U+017F). Other flags stay as written.
fn case_insensitive(pattern: &str) -> String {
    if !pattern.contains("(?") {
        return String::from(pattern);
    }
    let mut out = String::with_capacity(pattern.len() * 3);
    let mut chars = pattern.chars().peekable();
    let mut ci = false;
    // The `i` state to restore at each open group's `)`.
    let mut groups: Vec<bool> = Vec::new();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                out.push(c);
                if let Some(n) = chars.next() {
                    out.push(n);
                }
            }
            '(' if chars.peek() == Some(&'?') => {
                // A flag group `(?flags)` / `(?flags:`, or another `(?` group (`(?P<n>`, `(?:`).
                let rest: String = chars.clone().skip(1).take_while(|c| *c != ')' && *c != ':').collect();
                let end = chars.clone().nth(1 + rest.chars().count());
                let is_flags = !rest.is_empty() && rest.chars().all(|c| "imsU-".contains(c)) && end.is_some();
                if !is_flags {
                    groups.push(ci);
                    out.push(c);
                    continue;
                }
                for _ in 0..=rest.chars().count() + 1 {
                    chars.next();
                }
                let (on, off) = rest.split_once('-').unwrap_or((&rest, ""));
                let mut new_ci = ci;
                if on.contains('i') {
                    new_ci = true;
                }
                if off.contains('i') {
                    new_ci = false;
                }
                let keep = |s: &str| s.chars().filter(|c| *c != 'i').collect::<String>();
                let (on, off) = (keep(on), keep(off));
                let flags = if off.is_empty() { on } else { format!("{on}-{off}") };
                if end == Some(':') {
                    groups.push(ci);
                    out.push_str(&format!("(?{flags}:"));
                } else if !flags.is_empty() {
                    out.push_str(&format!("(?{flags})"));
                }
                ci = new_ci;
            }
            '(' => {
                groups.push(ci);
                out.push(c);
            }
            ')' => {
                if let Some(saved) = groups.pop() {
                    ci = saved;
                }
                out.push(c);
            }
            '[' => {
                out.push(c);
                class(&mut chars, &mut out, ci);
            }
            c if ci && c.is_ascii_alphabetic() => {
                out.push('[');
                out.push(c);
                out.push(swap_case(c));
                out.push(']');
            }
            c => out.push(c),
        }
    }
    out
}

/// Copies a bracketed class after its `[` (through its `]`), adding the other case of each
/// letter and letter range when `ci`. `[:alpha:]` names and escapes are copied as they are.
fn class(chars: &mut core::iter::Peekable<core::str::Chars<'_>>, out: &mut String, ci: bool) {
    if chars.peek() == Some(&'^') {
        out.push('^');
        chars.next();
    }
    if chars.peek() == Some(&']') {
        out.push(']');
        chars.next();
    }
    while let Some(c) = chars.next() {
        match c {
            ']' => {
                out.push(c);
                return;
            }
            '\\' => {
                out.push(c);
                if let Some(n) = chars.next() {
                    out.push(n);
                }
            }
            '[' if chars.peek() == Some(&':') => {
                out.push(c);
                for n in chars.by_ref() {
                    out.push(n);
                    if n == ']' {
                        break;
                    }
                }
            }
            c if ci && c.is_ascii_alphabetic() => {
                let mut ahead = chars.clone();
                match (ahead.next(), ahead.next()) {
                    (Some('-'), Some(end)) if end.is_ascii_alphabetic() => {
                        chars.next();
                        chars.next();
                        out.extend([c, '-', end, swap_case(c), '-', swap_case(end)]);
                    }
                    // The other case first, so that `a-~` stays a range.
                    _ => out.extend([swap_case(c), c]),
                }
            }
            c => out.push(c),
        }
    }
}

fn swap_case(c: char) -> char {
    if c.is_ascii_lowercase() {
        c.to_ascii_uppercase()
    } else {
        c.to_ascii_lowercase()
    }
}

/// What Go's parser reads as literal text and regex-syntax does not, escaped: `\Q...\E` (Perl
/// mode: the text between, to `\E` or the end) and a `{` that begins no repeat count (parse.go
/// `parseRepeat` fails, so `{` is a literal: `x{a}` matches "x{a}"), outside character classes;
/// inside one, a `[` that begins no POSIX class and a doubled `&` or `~` (regex-syntax's nested
/// classes and set operations; Contour's `[^()<>@,;:\\"\/[\]?={} ...]`).
///
/// Escapes are rewritten where the two read them differently: `\<` and `\>` are the literal
/// characters in Go (any escaped punctuation is) and word boundaries in regex-syntax; `\0`,
/// `\012`, `\12` are octal in Go (parseEscape) and back-references or errors in regex-syntax.
fn go_literals(pattern: &str) -> String {
    if !pattern.contains("\\") && !pattern.contains('{') && !pattern.contains('[') {
        return String::from(pattern);
    }
    let b = pattern.as_bytes();
    let mut out = String::with_capacity(pattern.len() * 2);
    let mut i = 0;
    while i < b.len() {
        let next = match b[i] {
            b'\\' if b.get(i + 1) == Some(&b'Q') => {
                let text = &pattern[i + 2..];
                let (literal, after) = match text.find("\\E") {
                    Some(e) => (&text[..e], i + 2 + e + 2),
                    None => (text, b.len()),
                };
                out.push_str(&regex_syntax::escape(literal));
                i = after;
                continue;
            }
            b'\\' => {
                i = go_escape(pattern, i, &mut out);
                continue;
            }
            b'[' => {
                let end = class_end(b, i);
                out.push('[');
                i += 1;
                while i < end {
                    if b[i] == b'\\' {
                        i = go_escape(pattern, i, &mut out);
                    } else if b[i] == b'[' && b.get(i + 1) == Some(&b':') {
                        // A POSIX class (`[:alpha:]`), which both read alike.
                        let close = pattern[i + 2..end].find(":]").map_or(end, |p| i + 2 + p + 2);
                        out.push_str(&pattern[i..close]);
                        i = close;
                    } else if (b[i] == b'[' && i + 1 < end)
                        || (matches!(b[i], b'&' | b'~') && b.get(i + 1) == Some(&b[i]))
                    {
                        // Literal in Go; a nested class or a set operation (`&&`, `~~`) in
                        // regex-syntax.
                        out.push('\\');
                        out.push(char::from(b[i]));
                        i += 1;
                    } else {
                        let next = char_end(pattern, i + 1);
                        out.push_str(&pattern[i..next]);
                        i = next;
                    }
                }
                continue;
            }
            b'{' if counted(b, i).is_none() => {
                out.push_str("\\{");
                i += 1;
                continue;
            }
            _ => i + 1,
        };
        // Whole characters: `next` is past an ASCII byte, a class or an escape's next byte.
        let end = char_end(pattern, next);
        out.push_str(&pattern[i..end]);
        i = end;
    }
    out
}

/// Copies the escape at `i` as regex-syntax must read it to mean what Go reads (see
/// [`go_literals`]); the end of the escape.
fn go_escape(pattern: &str, i: usize, out: &mut String) -> usize {
    let b = pattern.as_bytes();
    let digits = octal_digits(b, i);
    if digits == 0 {
        if let Some(c @ (b'<' | b'>')) = b.get(i + 1) {
            out.push(char::from(*c));
            return i + 2;
        }
        let end = char_end(pattern, (i + 2).min(b.len()));
        out.push_str(&pattern[i..end]);
        return end;
    }
    let value = b[i + 1..=i + digits].iter().fold(0, |v, d| v * 8 + u32::from(d - b'0'));
    out.push_str(&format!("\\x{{{value:X}}}"));
    i + 1 + digits
}

/// The number of octal digits of the escape whose backslash is at `i`, as Go's parseEscape
/// reads them: `\0` and up to two more, or `\1`-`\7` followed by one or two more (a lone
/// `\1` is a back-reference); 0 for any other escape.
fn octal_digits(b: &[u8], i: usize) -> usize {
    let octal = |j: usize| b.get(j).is_some_and(|d| (b'0'..=b'7').contains(d));
    match b.get(i + 1) {
        Some(b'0') => 1 + usize::from(octal(i + 2)) + usize::from(octal(i + 2) && octal(i + 3)),
        Some(b'1'..=b'7') if octal(i + 2) => 2 + usize::from(octal(i + 3)),
        _ => 0,
    }
}

/// The end of the character that continues at byte `i` (the next char boundary).
fn char_end(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i += 1;
    }
    i
}

/// RE2 (Go's regexp) reads `\d`, `\w`, `\s` and `\b` as ASCII classes: spell them out so the
/// Unicode versions (and their tables) are not needed.
fn ascii_perl_classes(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len() + 16);
    let mut chars = pattern.chars();
    let mut in_class = false;
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                let Some(next) = chars.next() else {
                    out.push(c);
                    break;
                };
                let class = match next {
                    'd' => Some("0-9"),
                    'w' => Some("0-9A-Za-z_"),
                    's' => Some("\\t\\n\\f\\r "),
                    _ => None,
                };
                let negated = match next {
                    'D' => Some("0-9"),
                    'W' => Some("0-9A-Za-z_"),
                    'S' => Some("\\t\\n\\f\\r "),
                    _ => None,
                };
                match (class, negated, next) {
                    (Some(set), _, _) if in_class => out.push_str(set),
                    (Some(set), _, _) => {
                        out.push('[');
                        out.push_str(set);
                        out.push(']');
                    }
                    (_, Some(set), _) => {
                        out.push_str("[^");
                        out.push_str(set);
                        out.push(']');
                    }
                    (_, _, 'b' | 'B') if !in_class => {
                        out.push_str("(?-u:\\");
                        out.push(next);
                        out.push(')');
                    }
                    _ => {
                        out.push('\\');
                        out.push(next);
                    }
                }
            }
            '[' if !in_class => {
                in_class = true;
                out.push(c);
                // A `]` right after `[` or `[^` is a literal.
                let rest = chars.as_str();
                let skip = if rest.starts_with("^]") {
                    2
                } else if rest.starts_with(']') {
                    1
                } else {
                    0
                };
                for _ in 0..skip {
                    if let Some(x) = chars.next() {
                        out.push(x);
                    }
                }
            }
            ']' if in_class => {
                in_class = false;
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{go_regex_error, Regex};

    // Go's regexp/syntax reads `[` inside a class as a literal (parse.go parseClass: only
    // `[:` begins a POSIX class), and `&&`, `~~` as literal characters; regex-syntax nests
    // classes and reads set operations there. Contour's HTTPProxy cookie name pattern.
    #[test]
    fn brackets_and_doubled_operators_in_classes_are_literal() {
        let contour = r#"^[^()<>@,;:\\"\/[\]?={} \t\x7f\x00\x01\x02]+$"#;
        assert_eq!(go_regex_error(contour), None);
        let re = Regex::new(contour).unwrap();
        assert!(re.is_match("session"));
        assert!(!re.is_match("a[b"));
        let ops = Regex::new("^[a&&b~~[:digit:]]+$").unwrap();
        assert!(ops.is_match("a&b~7") && !ops.is_match("c"));
    }
}
