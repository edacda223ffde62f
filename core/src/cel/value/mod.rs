//! CEL values (cel-go's `common/types`): the runtime representation, CEL's heterogeneous
//! equality and ordering, timestamps and durations ([`time`]), the Kubernetes libraries' value
//! types ([`k8s`]: `Value` is a closed enum, so they live here, below every function), the
//! conversion from JSON (how Kubernetes objects reach CEL) and back, and the "no such
//! overload" error every function gives.

use alloc::boxed::Box;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;
use core::cmp::Ordering;

mod err;
mod json;
pub mod k8s;
pub mod time;

pub use crate::field::base64::{base64_decode, base64_encode};
pub use err::{no_overload, Fail};
pub use json::{from_json, from_json_text, to_json};

use crate::cel::common::{escape, RESERVED};
use k8s::Object;
use time::{Timestamp, MAX_TS, MIN_TS};

/// A CEL value. Cloning is cheap: compound values are shared.
#[derive(Clone, Debug)]
pub enum Value {
    /// `null`.
    Null,
    /// `bool`.
    Bool(bool),
    /// `int` (64-bit).
    Int(i64),
    /// `uint` (64-bit).
    Uint(u64),
    /// `double`.
    Double(f64),
    /// `string`.
    String(Rc<str>),
    /// `bytes`.
    Bytes(Rc<[u8]>),
    /// `list`.
    List(List),
    /// `map`.
    Map(Rc<Map>),
    /// `google.protobuf.Timestamp`.
    Timestamp(Timestamp),
    /// `google.protobuf.Duration`, in nanoseconds (Go's `time.Duration` range, as cel-go).
    Duration(i64),
    /// A type value (`int`, `list`, ...).
    Type(Type),
    /// `optional_type`: `optional.none()` or `optional.of(v)`.
    Optional(Option<Rc<Value>>),
    /// A value of a Kubernetes library type (quantity, IP, CIDR, URL, semver, format).
    Object(Rc<Object>),
}

/// A list. Lists from `x-kubernetes-list-type: set` or `map` schemas keep that kind: Kubernetes
/// compares them regardless of order and concatenates them as a union or a merge by keys
/// (apiserver `pkg/cel/common/values.go`, `unstructuredSetList`, `unstructuredMapList`).
#[derive(Clone, Debug)]
pub struct List {
    items: Rc<[Value]>,
    kind: ListKind,
}

/// How a list compares and concatenates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ListKind {
    /// An ordinary list (literal or computed).
    Plain,
    /// An object's atomic list (a schema `array` without a list type: `unstructuredList`). It
    /// concatenates as a plain list but compares as object data does (see [`Value::eq_op`]).
    Atomic,
    /// A set: equal to any list with the same elements; `+` is a union.
    Set,
    /// A list-map with these key fields: equal by keys; `+` replaces items with the same keys.
    Map(Rc<[Rc<str>]>),
}

impl List {
    /// A list of a kind.
    pub fn with_kind(items: Rc<[Value]>, kind: ListKind) -> List {
        List { items, kind }
    }

    /// The list's kind.
    pub fn kind(&self) -> &ListKind {
        &self.kind
    }

    /// The items, shared.
    pub fn items(&self) -> &Rc<[Value]> {
        &self.items
    }

    /// The key fields of a list-map item, to find its counterpart.
    fn key_of<'a>(keys: &[Rc<str>], item: &'a Value) -> Vec<Option<&'a Value>> {
        keys.iter()
            .map(|k| match item {
                Value::Map(m) => m.raw_field(k),
                _ => None,
            })
            .collect()
    }

    fn same_keys(keys: &[Rc<str>], a: &Value, b: &Value) -> bool {
        let (x, y) = (List::key_of(keys, a), List::key_of(keys, b));
        x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| matches!((p, q), (Some(p), Some(q)) if p.equals(q)))
    }

    /// `==` with the left operand's semantics.
    pub fn equals(&self, other: &List) -> bool {
        if self.len() != other.len() {
            return false;
        }
        match &self.kind {
            // cel-go baseList.Equal: only an element's `false` decides; its error is skipped.
            ListKind::Plain => self.iter().zip(other.iter()).all(|(x, y)| x.eq_op(y) != Ok(false)),
            ListKind::Atomic => self.iter().zip(other.iter()).all(|(x, y)| x.equals(y)),
            ListKind::Set => self.iter().all(|x| other.iter().any(|y| x.equals(y))),
            ListKind::Map(keys) => {
                self.iter().all(|x| other.iter().any(|y| List::same_keys(keys, x, y) && x.equals(y)))
            }
        }
    }

    /// `+` with the left operand's semantics.
    pub fn concat(&self, other: &List) -> List {
        match &self.kind {
            ListKind::Plain | ListKind::Atomic => {
                List { items: self.iter().chain(other.iter()).cloned().collect(), kind: ListKind::Plain }
            }
            ListKind::Set => {
                let mut out: Vec<Value> = self.to_vec();
                for v in other.iter() {
                    if !out.iter().any(|x| x.equals(v)) {
                        out.push(v.clone());
                    }
                }
                List { items: out.into(), kind: self.kind.clone() }
            }
            ListKind::Map(keys) => {
                let mut out: Vec<Value> = self.to_vec();
                for v in other.iter() {
                    match out.iter().position(|x| List::same_keys(keys, x, v)) {
                        Some(i) => out[i] = v.clone(),
                        None => out.push(v.clone()),
                    }
                }
                List { items: out.into(), kind: self.kind.clone() }
            }
        }
    }
}

impl core::ops::Deref for List {
    type Target = [Value];
    fn deref(&self) -> &[Value] {
        &self.items
    }
}

impl From<Vec<Value>> for List {
    fn from(items: Vec<Value>) -> List {
        List { items: items.into(), kind: ListKind::Plain }
    }
}

impl FromIterator<Value> for List {
    fn from_iter<I: IntoIterator<Item = Value>>(iter: I) -> List {
        List { items: iter.into_iter().collect(), kind: ListKind::Plain }
    }
}

/// A type value: a builtin type's name, or a message name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Type {
    /// A type with a fixed name.
    Named(&'static str),
    /// A type named at run time (messages, not otherwise supported).
    Other(Rc<str>),
}

impl Type {
    /// The type's name.
    pub fn name(&self) -> &str {
        match self {
            Type::Named(n) => n,
            Type::Other(n) => n,
        }
    }
}

/// A map key: CEL allows bool, int, uint and string keys.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Key {
    /// A bool key.
    Bool(bool),
    /// An int key.
    Int(i64),
    /// A uint key.
    Uint(u64),
    /// A string key.
    String(Rc<str>),
}

impl Key {
    /// The key as a value.
    pub fn to_value(&self) -> Value {
        match self {
            Key::Bool(b) => Value::Bool(*b),
            Key::Int(i) => Value::Int(*i),
            Key::Uint(u) => Value::Uint(*u),
            Key::String(s) => Value::String(s.clone()),
        }
    }

    /// The key for a value, if the value can be a key.
    pub fn from_value(v: &Value) -> Option<Key> {
        match v {
            Value::Bool(b) => Some(Key::Bool(*b)),
            Value::Int(i) => Some(Key::Int(*i)),
            Value::Uint(u) => Some(Key::Uint(*u)),
            Value::String(s) => Some(Key::String(s.clone())),
            _ => None,
        }
    }
}

/// A CEL map: entries sorted by key, looked up by binary search (string keys without
/// allocating a key).
#[derive(Clone, Debug, Default)]
pub struct Map {
    entries: Vec<(Key, Value)>,
    /// An object's data read through its schema (apiserver's `unstructuredMap`): it compares as
    /// object data does (see [`Value::eq_op`]).
    pub(crate) data: bool,
    /// For an object read through its schema: what CEL cannot read but size and equality see
    /// (apiserver `pkg/cel/common/valuesunstructured.go` `unstructuredMap`).
    raw: Option<Box<RawFields>>,
}

/// The fields of a schema-typed object that are not entries: apiserver's `unstructuredMap`
/// keeps the whole object, finds only declared, non-null fields, and counts and compares the
/// rest.
#[derive(Clone, Debug, Default)]
pub struct RawFields {
    /// The object's own field count (`Size()`: `len(t.value)`), nulls and unknown fields included.
    pub size: usize,
    /// Declared fields set to null (escaped names): absent to `has()` and selection.
    pub nulls: Vec<Rc<str>>,
    /// Fields CEL cannot name, by their names in the object: undeclared ones (kept by
    /// `x-kubernetes-preserve-unknown-fields`) and declared ones whose names cannot be escaped.
    /// Equality compares each with the other object's field of that name, when it has one.
    pub hidden: Vec<(Rc<str>, Value)>,
}

/// String equality compared byte by byte in place: field names and the strings rules compare
/// are a few bytes long, and `==` is a call to `memcmp`, a generic byte loop in WebAssembly.
pub(crate) fn same_str(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).all(|(x, y)| x == y)
}

impl Map {
    /// A map from entries in any order; a repeated key keeps the last value.
    pub fn from_entries(mut entries: Vec<(Key, Value)>) -> Map {
        if entries.len() <= 16 {
            // Objects have a handful of fields, often in order already: sorted in place, with
            // no index buffer (stable: equal keys keep their order).
            for i in 1..entries.len() {
                let mut j = i;
                while j > 0 && entries[j - 1].0 > entries[j].0 {
                    entries.swap(j - 1, j);
                    j -= 1;
                }
            }
        } else {
            crate::sort::sort_by(&mut entries, |a, b| a.0.cmp(&b.0));
        }
        // Of equal keys the last value stays, in the first one's place.
        entries.dedup_by(|later, kept| {
            let same = later.0 == kept.0;
            if same {
                core::mem::swap(&mut later.1, &mut kept.1);
            }
            same
        });
        Map { entries, raw: None, data: false }
    }

    /// Inserts or replaces an entry.
    pub fn insert(&mut self, key: Key, value: Value) {
        match self.entries.binary_search_by(|(k, _)| k.cmp(&key)) {
            Ok(i) => self.entries[i].1 = value,
            Err(i) => self.entries.insert(i, (key, value)),
        }
    }

    /// The entries in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&Key, &Value)> {
        self.entries.iter().map(|(k, v)| (k, v))
    }

    /// The i-th entry in key order.
    pub fn entry(&self, i: usize) -> Option<(&Key, &Value)> {
        self.entries.get(i).map(|(k, v)| (k, v))
    }

    /// Looks a key up exactly.
    pub fn get_key(&self, key: &Key) -> Option<&Value> {
        self.entries.binary_search_by(|(k, _)| k.cmp(key)).ok().map(|i| &self.entries[i].1)
    }

    /// Looks a key up with CEL's numeric key equivalence (`{1u: x}[1]`, `{1: x}[1.0]`).
    pub fn get(&self, key: &Value) -> Option<&Value> {
        match key {
            Value::String(s) => self.get_str(s),
            Value::Bool(b) => self.get_key(&Key::Bool(*b)),
            Value::Int(i) => {
                self.get_key(&Key::Int(*i)).or_else(|| u64::try_from(*i).ok().and_then(|u| self.get_key(&Key::Uint(u))))
            }
            Value::Uint(u) => {
                self.get_key(&Key::Uint(*u)).or_else(|| i64::try_from(*u).ok().and_then(|i| self.get_key(&Key::Int(i))))
            }
            Value::Double(d) => {
                if libm::trunc(*d) != *d || !d.is_finite() {
                    return None;
                }
                if *d >= -9.223372036854776e18 && *d < 9.223372036854776e18 {
                    if let Some(v) = self.get_key(&Key::Int(*d as i64)) {
                        return Some(v);
                    }
                }
                if *d >= 0.0 && *d < 1.8446744073709552e19 {
                    return self.get_key(&Key::Uint(*d as u64));
                }
                None
            }
            _ => None,
        }
    }

    /// Looks a string key up.
    pub fn get_str(&self, key: &str) -> Option<&Value> {
        // Objects usually have a handful of fields: a scan beats a binary search there.
        if self.entries.len() <= 8 {
            return self.entries.iter().find_map(|(k, v)| match k {
                Key::String(s) if same_str(s, key) => Some(v),
                _ => None,
            });
        }
        self.entries
            .binary_search_by(|(k, _)| match k {
                Key::String(s) => (**s).cmp(key),
                _ => Ordering::Less,
            })
            .ok()
            .map(|i| &self.entries[i].1)
    }

    /// How many entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Gives a schema-typed object the fields CEL does not see (none: a plain map).
    pub fn set_raw(&mut self, raw: RawFields) {
        self.raw =
            (!raw.nulls.is_empty() || !raw.hidden.is_empty() || raw.size != self.entries.len()).then(|| Box::new(raw));
    }

    /// The size cel-go sees (`Size()`): an object's own field count, else the entries.
    pub fn size(&self) -> usize {
        self.raw.as_ref().map_or(self.entries.len(), |r| r.size)
    }

    /// A field selected by name (`m.f`, `has(m.f)`). A reserved word also names its escaped
    /// property, as a schema-typed object stores it: apiserver's `unstructuredMap` unescapes the
    /// name it is asked for, and the checker lets `self.spec.namespace` select `__namespace__`
    /// from 1.31. (A map of other origin with a key like `__if__` is found by `m.if` too, where
    /// cel-go would not find it: no JSON object Kubernetes validates is known to have one.)
    pub fn field(&self, name: &str) -> Option<&Value> {
        self.get_str(name).or_else(|| {
            let keyword = RESERVED.contains(&name);
            keyword.then(|| self.get_str(&alloc::format!("__{name}__"))).flatten()
        })
    }

    /// A field by its name in the object (list-map keys are such names): a hidden one, or an
    /// entry under that name or its escaped form.
    pub fn raw_field(&self, name: &str) -> Option<&Value> {
        if let Some(raw) = &self.raw {
            if let Some((_, v)) = raw.hidden.iter().find(|(k, _)| same_str(k, name)) {
                return Some(v);
            }
        }
        self.get_str(name).or_else(|| escape(name).and_then(|e| self.get_str(&e)))
    }

    /// `==` on maps; for schema-typed objects, `unstructuredMap.Equal`: the same size, each
    /// declared field found on both sides or neither and equal, each hidden field equal to the
    /// other's of that name when it has one.
    pub fn equals(&self, other: &Map) -> bool {
        if self.raw.is_none() && other.raw.is_none() {
            // cel-go baseMap.Equal: a value's error is skipped, as in lists.
            return self.len() == other.len()
                && self.iter().all(|(k, v)| other.get(&k.to_value()).is_some_and(|w| v.eq_op(w) != Ok(false)));
        }
        if self.size() != other.size() {
            return false;
        }
        if !self.iter().all(|(k, v)| other.get(&k.to_value()).is_some_and(|w| v.equals(w))) {
            return false;
        }
        let Some(raw) = &self.raw else { return true };
        raw.nulls.iter().all(|n| other.get_str(n).is_none())
            && raw.hidden.iter().all(|(k, v)| {
                let theirs = other.raw.as_ref().and_then(|r| r.hidden.iter().find(|(j, _)| same_str(j, k)));
                theirs.is_none_or(|(_, w)| v.equals(w))
            })
    }

    /// Whether the map is empty.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::String(Rc::from(s))
    }
}

impl From<String> for Value {
    fn from(s: String) -> Value {
        Value::String(Rc::from(s))
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}

impl Value {
    /// A list value.
    pub fn list(items: Vec<Value>) -> Value {
        Value::List(items.into())
    }

    /// The name `type(v)` gives.
    pub fn type_name(&self) -> &str {
        match self {
            Value::Null => "null_type",
            Value::Bool(_) => "bool",
            Value::Int(_) => "int",
            Value::Uint(_) => "uint",
            Value::Double(_) => "double",
            Value::String(_) => "string",
            Value::Bytes(_) => "bytes",
            Value::List(_) => "list",
            Value::Map(_) => "map",
            Value::Timestamp(_) => "google.protobuf.Timestamp",
            Value::Duration(_) => "google.protobuf.Duration",
            Value::Type(_) => "type",
            Value::Optional(_) => "optional_type",
            Value::Object(o) => o.type_name(),
        }
    }

    /// CEL equality (`==`): numbers compare across int, uint and double; values of different
    /// types are unequal; NaN equals nothing.
    pub fn equals(&self, other: &Value) -> bool {
        use Value::*;
        match (self, other) {
            (Null, Null) => true,
            (Bool(a), Bool(b)) => a == b,
            (Int(_) | Uint(_) | Double(_), Int(_) | Uint(_) | Double(_)) => {
                numeric_cmp(self, other) == Some(Ordering::Equal)
            }
            (String(a), String(b)) => a == b,
            (Bytes(a), Bytes(b)) => a == b,
            (List(a), List(b)) => a.equals(b),
            (Map(a), Map(b)) => a.equals(b),
            (Timestamp(a), Timestamp(b)) => a == b,
            (Duration(a), Duration(b)) => a == b,
            (Type(a), Type(b)) => a.name() == b.name(),
            (Optional(a), Optional(b)) => match (a, b) {
                (None, None) => true,
                (Some(x), Some(y)) => x.equals(y),
                _ => false,
            },
            (Object(a), Object(b)) => a.equals(b),
            _ => false,
        }
    }

    /// `==` as cel-go evaluates it (`types.Equal`: the left operand's `Equal`), with object data
    /// on the left as apiserver's `valuesunstructured.go` compares it: a list or map of object
    /// data against a value that is not a list (map) is `no such overload` (`Err`), and its
    /// elements are compared by their own `Equal`, the first that is not true deciding, an
    /// error included. Literal and computed lists and maps ([`Value::equals`]) skip an
    /// element's error (cel-go `baseList.Equal`). `!=` is "not true", so an error is `true`.
    pub fn eq_op(&self, other: &Value) -> Result<bool, NoSuchOverload> {
        match (self, other) {
            (Value::List(a), _) if a.kind != ListKind::Plain => {
                let Value::List(b) = other else { return Err(NoSuchOverload) };
                match a.kind {
                    ListKind::Atomic if a.len() == b.len() => {
                        for (x, y) in a.iter().zip(b.iter()) {
                            if !x.eq_op(y)? {
                                return Ok(false);
                            }
                        }
                        Ok(true)
                    }
                    _ => Ok(a.equals(b)),
                }
            }
            (Value::Map(a), _) if a.data => {
                let Value::Map(b) = other else { return Err(NoSuchOverload) };
                if a.size() != b.size() {
                    return Ok(false);
                }
                for (k, v) in a.iter() {
                    match b.get(&k.to_value()) {
                        Some(w) if !v.eq_op(w)? => return Ok(false),
                        Some(_) => {}
                        None => return Ok(false),
                    }
                }
                Ok(a.equals(b))
            }
            _ => Ok(self.equals(other)),
        }
    }

    /// CEL ordering for `<`, `<=`, `>`, `>=`; `None` when the types have no ordering (an error)
    /// or a NaN is involved (`Some` is never returned for NaN; see [`Value::less`]).
    pub fn compare(&self, other: &Value) -> Result<Option<Ordering>, NotComparable> {
        use Value::*;
        Ok(match (self, other) {
            (Int(_) | Uint(_) | Double(_), Int(_) | Uint(_) | Double(_)) => numeric_cmp(self, other),
            (Bool(a), Bool(b)) => Some(a.cmp(b)),
            (String(a), String(b)) => Some(a.cmp(b)),
            (Bytes(a), Bytes(b)) => Some(a.cmp(b)),
            (Timestamp(a), Timestamp(b)) => Some(a.cmp(b)),
            (Duration(a), Duration(b)) => Some(a.cmp(b)),
            (Object(a), Object(b)) => return a.compare(b).map(Some).ok_or(NotComparable),
            _ => return Err(NotComparable),
        })
    }
}

/// Object data compared with a value of another kind (`==` is "no such overload").
#[derive(Debug, PartialEq, Eq)]
pub struct NoSuchOverload;

/// The values' types have no ordering (`<` on them is "no such overload").
#[derive(Debug)]
pub struct NotComparable;

/// Compares two numbers of any CEL numeric types exactly (no rounding through double).
pub fn numeric_cmp(a: &Value, b: &Value) -> Option<Ordering> {
    use Value::*;
    match (a, b) {
        (Int(x), Int(y)) => Some(x.cmp(y)),
        (Uint(x), Uint(y)) => Some(x.cmp(y)),
        (Int(x), Uint(y)) => Some(if *x < 0 { Ordering::Less } else { (*x as u64).cmp(y) }),
        (Uint(x), Int(y)) => Some(if *y < 0 { Ordering::Greater } else { x.cmp(&(*y as u64)) }),
        (Double(x), Double(y)) => x.partial_cmp(y),
        (Double(x), Int(y)) => cmp_double_int(*x, *y),
        (Int(x), Double(y)) => cmp_double_int(*y, *x).map(Ordering::reverse),
        (Double(x), Uint(y)) => cmp_double_uint(*x, *y),
        (Uint(x), Double(y)) => cmp_double_uint(*y, *x).map(Ordering::reverse),
        _ => None,
    }
}

/// cel-go compares an int with a double by converting the int to a double (which rounds
/// integers beyond 2^53): `dyn(9223372036854775807) < 9223372036854775808.0` is false.
fn cmp_double_int(d: f64, i: i64) -> Option<Ordering> {
    d.partial_cmp(&(i as f64))
}

fn cmp_double_uint(d: f64, u: u64) -> Option<Ordering> {
    d.partial_cmp(&(u as f64))
}

/// Bounds check for timestamps (year 1 to 9999, as protobuf and cel-go).
pub fn timestamp_in_range(t: &Timestamp) -> bool {
    t.secs >= MIN_TS && t.secs <= MAX_TS
}

/// cel-go's `actualSize`: the size of sized values (`traits.Sizer`: a string's code points,
/// bytes, a list's elements, a map's entries as `Size()` counts them), 1 otherwise.
pub fn actual_size(v: &Value) -> u64 {
    match v {
        Value::String(s) => s.chars().count() as u64,
        Value::Bytes(b) => b.len() as u64,
        Value::List(l) => l.len() as u64,
        Value::Map(m) => m.size() as u64,
        _ => 1,
    }
}

impl From<Key> for Value {
    fn from(k: Key) -> Value {
        k.to_value()
    }
}
