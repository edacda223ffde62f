//! A lazily built DFA that answers whether a pattern matches anywhere (`matches`, the regex
//! function rules use most) with one table lookup per byte.
//!
//! Its states are sets of states of the Thompson NFA the backtracker and PikeVM run, each
//! built the first time a byte leads to it and kept for later evaluations (a program's
//! patterns are compiled once). Only the `^`/`\A` and `$`/`\z` assertions are supported: word
//! boundaries and multi-line anchors would need the previous byte in the state. Other
//! patterns, and patterns whose DFA would outgrow [`MAX_STATES`], are left to the
//! backtracker and the PikeVM.

use alloc::vec;
use alloc::vec::Vec;
use core::cell::RefCell;

use regex_automata::nfa::thompson::{State, NFA};
use regex_automata::util::alphabet::ByteClasses;
use regex_automata::util::look::{Look, LookSet};
use regex_automata::util::primitives::StateID;

/// The most DFA states kept per pattern (at most ~0.5 MB of transitions).
const MAX_STATES: usize = 512;
/// A transition not computed yet.
const UNKNOWN: u32 = u32::MAX;
/// The state with no NFA states: nothing can match any more.
const DEAD: u32 = 0;

/// A lazily built DFA for one pattern.
pub(crate) struct Dfa {
    nfa: NFA,
    classes: ByteClasses,
    start: StateID,
    cache: RefCell<Cache>,
}

/// The DFA states built so far.
struct Cache {
    /// The NFA states of each DFA state (sorted: the set's identity).
    sets: Vec<Vec<StateID>>,
    /// Each state's transitions, one per byte class (`UNKNOWN` until first taken).
    next: Vec<u32>,
    /// The state contains a match.
    matched: Vec<bool>,
    /// The state matches if the input ends here (when known).
    at_end: Vec<Option<bool>>,
    /// The DFA outgrew `MAX_STATES`: every search is left to the other engines.
    full: bool,
}

impl Dfa {
    /// The DFA of a single-pattern NFA, if its assertions are ones the DFA supports.
    /// `anchored`: the pattern can only match at the start of the input.
    pub(crate) fn new(nfa: &NFA, anchored: bool) -> Option<Dfa> {
        let supported = LookSet::singleton(Look::Start).insert(Look::End);
        if nfa.pattern_len() != 1 || !nfa.look_set_any().subtract(supported).is_empty() {
            return None;
        }
        let start = if anchored { nfa.start_anchored() } else { nfa.start_unanchored() };
        let mut cache =
            Cache { sets: Vec::new(), next: Vec::new(), matched: Vec::new(), at_end: Vec::new(), full: false };
        let width = nfa.byte_classes().alphabet_len();
        cache.intern(nfa, Vec::new(), width);
        Some(Dfa { nfa: nfa.clone(), classes: *nfa.byte_classes(), start, cache: RefCell::new(cache) })
    }

    /// Whether the pattern matches somewhere in `haystack`; `None` when the DFA has grown too
    /// big and the caller must ask another engine.
    pub(crate) fn is_match(&self, haystack: &[u8]) -> Option<bool> {
        let nfa = &self.nfa;
        if haystack.is_empty() {
            // Both `^` and `$` hold: not a state worth keeping.
            return Some(contains_match(nfa, &closure(nfa, &[self.start], true, true)));
        }
        let mut cache = self.cache.borrow_mut();
        if cache.full {
            return None;
        }
        let width = self.classes.alphabet_len();
        let mut state = match cache.sets.len() {
            // The start state (the first after DEAD) is built on first use.
            1 => cache.intern(nfa, closure(nfa, &[self.start], true, false), width)?,
            _ => 1,
        };
        for &byte in haystack {
            if cache.matched[state as usize] {
                return Some(true);
            }
            let slot = state as usize * width + usize::from(self.classes.get(byte));
            let mut next = cache.next[slot];
            if next == UNKNOWN {
                let set = closure(nfa, &step(nfa, &cache.sets[state as usize], byte), false, false);
                next = cache.intern(nfa, set, width)?;
                cache.next[slot] = next;
            }
            if next == DEAD {
                return Some(false);
            }
            state = next;
        }
        Some(cache.matched[state as usize] || cache.accepts_at_end(nfa, state))
    }
}

impl Cache {
    /// The state of an NFA state set, added if new; `None` (and `full`) past `MAX_STATES`.
    fn intern(&mut self, nfa: &NFA, set: Vec<StateID>, width: usize) -> Option<u32> {
        if let Some(i) = self.sets.iter().position(|s| *s == set) {
            return Some(i as u32);
        }
        if self.sets.len() == MAX_STATES {
            self.full = true;
            return None;
        }
        self.matched.push(contains_match(nfa, &set));
        self.at_end.push(None);
        self.next.extend(core::iter::repeat_n(UNKNOWN, width));
        self.sets.push(set);
        Some(self.sets.len() as u32 - 1)
    }

    /// Whether the input may end in `state` (past its first byte): `$` now holds.
    fn accepts_at_end(&mut self, nfa: &NFA, state: u32) -> bool {
        let i = state as usize;
        *self.at_end[i].get_or_insert_with(|| contains_match(nfa, &closure(nfa, &self.sets[i], false, true)))
    }
}

/// The NFA states reached from `set` by consuming `byte`.
fn step(nfa: &NFA, set: &[StateID], byte: u8) -> Vec<StateID> {
    set.iter()
        .filter_map(|&id| match nfa.state(id) {
            State::ByteRange { trans } => trans.matches_byte(byte).then_some(trans.next),
            State::Sparse(t) => t.matches_byte(byte),
            State::Dense(t) => t.matches_byte(byte),
            _ => None,
        })
        .collect()
}

/// The states reachable from `seeds` without consuming input — the ones that consume a byte
/// or match, plus `$` assertions not yet known to hold — in increasing order. `^` holds only
/// `at_start`, `$` only `at_end`.
fn closure(nfa: &NFA, seeds: &[StateID], at_start: bool, at_end: bool) -> Vec<StateID> {
    let mut seen = vec![false; nfa.states().len()];
    let mut member = vec![false; nfa.states().len()];
    let mut stack: Vec<StateID> = seeds.to_vec();
    while let Some(id) = stack.pop() {
        if core::mem::replace(&mut seen[id.as_usize()], true) {
            continue;
        }
        match nfa.state(id) {
            State::ByteRange { .. } | State::Sparse(_) | State::Dense(_) | State::Match { .. } => {
                member[id.as_usize()] = true
            }
            State::Look { look: Look::Start, next } if at_start => stack.push(*next),
            State::Look { look: Look::End, next } if at_end => stack.push(*next),
            State::Look { look: Look::End, .. } => member[id.as_usize()] = true,
            State::Look { .. } | State::Fail => {}
            State::Union { alternates } => stack.extend(alternates.iter().copied()),
            State::BinaryUnion { alt1, alt2 } => stack.extend([*alt1, *alt2]),
            State::Capture { next, .. } => stack.push(*next),
        }
    }
    (0..member.len()).filter(|&i| member[i]).filter_map(|i| StateID::new(i).ok()).collect()
}

fn contains_match(nfa: &NFA, set: &[StateID]) -> bool {
    set.iter().any(|&id| matches!(nfa.state(id), State::Match { .. }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::String;
    use regex_automata::nfa::thompson::{self, pikevm::PikeVM};
    use regex_automata::{Anchored, Input};

    /// The DFA agrees with the PikeVM on random patterns (classes, alternations, repetitions,
    /// anchors, multi-byte characters) and haystacks, anchored and unanchored.
    #[test]
    fn agrees_with_the_pikevm() {
        const PIECES: &[&str] = &[
            "a",
            "b",
            "é",
            "-",
            ".",
            "[a-c]",
            "[^a]",
            "[-a-z0-9]",
            "(a|b)",
            "(ab|é)",
            "a*",
            "b+",
            "c?",
            "(ab)*",
            "[a-z]{1,2}",
            "^",
            "$",
            "(a|$)",
            "(^|b)",
            "\\.",
        ];
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut rand = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let mut checked = 0;
        for _ in 0..4000 {
            let pattern: String = (0..1 + rand(5)).map(|_| PIECES[rand(PIECES.len())]).collect();
            let nfa = thompson::NFA::new(&pattern).expect("valid pattern");
            let anchored = nfa.is_always_start_anchored();
            let Some(dfa) = Dfa::new(&nfa, anchored) else { continue };
            let vm = PikeVM::new_from_nfa(nfa).expect("pikevm");
            let mut cache = vm.create_cache();
            for _ in 0..20 {
                let haystack: String = (0..rand(7)).map(|_| ["a", "b", "c", "é", "-", "."][rand(6)]).collect();
                let mode = if anchored { Anchored::Yes } else { Anchored::No };
                let expected = vm.find(&mut cache, Input::new(&haystack).anchored(mode).earliest(true)).is_some();
                assert_eq!(dfa.is_match(haystack.as_bytes()), Some(expected), "{pattern:?} on {haystack:?}");
                checked += 1;
            }
        }
        assert!(checked > 50_000, "only {checked} cases had a DFA");
    }

    /// A pattern whose DFA has thousands of states stops growing at `MAX_STATES` and hands
    /// its searches over (answers given before that are still right).
    #[test]
    fn gives_up_past_the_state_limit() {
        let nfa = thompson::NFA::new("[ab]*a[ab]{10}").expect("valid pattern");
        let dfa = Dfa::new(&nfa, false).expect("supported");
        let vm = PikeVM::new_from_nfa(nfa).expect("pikevm");
        let mut cache = vm.create_cache();
        let mut gave_up = false;
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..400 {
            let haystack: String = (0..40)
                .map(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    if seed % 2 == 0 {
                        'a'
                    } else {
                        'b'
                    }
                })
                .collect();
            let expected = vm.find(&mut cache, Input::new(&haystack).earliest(true)).is_some();
            match dfa.is_match(haystack.as_bytes()) {
                Some(found) => assert_eq!(found, expected, "{haystack}"),
                None => gave_up = true,
            }
        }
        assert!(gave_up);
        assert_eq!(dfa.cache.borrow().sets.len(), MAX_STATES);
    }

    /// Patterns with word boundaries or multi-line anchors have no DFA.
    #[test]
    fn unsupported_assertions() {
        for pattern in ["(?-u:\\b)a", "(?m)^a", "a(?m:$)"] {
            let nfa = thompson::NFA::new(pattern).expect("valid pattern");
            assert!(Dfa::new(&nfa, false).is_none(), "{pattern}");
        }
    }
}
