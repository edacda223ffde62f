//! JSON and CEL values, both ways: a Kubernetes object's JSON as CEL values ([`from_json`], or
//! [`from_json_text`] straight from the text, without building a `serde_json::Value` first:
//! half the allocations on the npm package's hot path), values back as JSON ([`to_json`]), and
//! the base64 that JSON spells bytes in.
//!
//! [`from_json_text`] gives the values [`from_json`] gives for the same text: integers as
//! `int` (`uint` beyond `int`'s range), other numbers as `double`, objects as maps (a repeated
//! key keeps its last value). serde_json's parser and its nesting limit (128) apply.

use alloc::rc::Rc;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

use super::{Key, Map, Value};
use crate::field::base64::base64_encode;

/// Parses JSON text into a CEL value; the error is serde_json's message.
pub fn from_json_text(text: &str) -> Result<Value, String> {
    serde_json::from_str::<Cel>(text).map(|c| c.0).map_err(|e| e.to_string())
}

struct Cel(Value);

impl<'de> Deserialize<'de> for Cel {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Cel, D::Error> {
        d.deserialize_any(CelVisitor)
    }
}

struct CelVisitor;

impl<'de> Visitor<'de> for CelVisitor {
    type Value = Cel;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("JSON")
    }

    fn visit_bool<E>(self, b: bool) -> Result<Cel, E> {
        Ok(Cel(Value::Bool(b)))
    }

    fn visit_i64<E>(self, i: i64) -> Result<Cel, E> {
        Ok(Cel(Value::Int(i)))
    }

    fn visit_u64<E>(self, u: u64) -> Result<Cel, E> {
        Ok(Cel(i64::try_from(u).map_or(Value::Uint(u), Value::Int)))
    }

    fn visit_f64<E>(self, d: f64) -> Result<Cel, E> {
        Ok(Cel(Value::Double(d)))
    }

    fn visit_str<E>(self, s: &str) -> Result<Cel, E> {
        Ok(Cel(Value::from(s)))
    }

    fn visit_unit<E>(self) -> Result<Cel, E> {
        Ok(Cel(Value::Null))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Cel, A::Error> {
        let mut items = Vec::new();
        while let Some(Cel(v)) = seq.next_element()? {
            items.push(v);
        }
        Ok(Cel(Value::list(items)))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Cel, A::Error> {
        let mut entries = Vec::new();
        while let Some(KeyText(k)) = map.next_key()? {
            let Cel(v) = map.next_value()?;
            entries.push((Key::String(k), v));
        }
        Ok(Cel(Value::Map(Rc::new(Map::from_entries(entries)))))
    }
}

/// An object key.
struct KeyText(Rc<str>);

impl<'de> Deserialize<'de> for KeyText {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<KeyText, D::Error> {
        struct KeyVisitor;
        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = KeyText;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<KeyText, E> {
                Ok(KeyText(Rc::from(s)))
            }
        }
        d.deserialize_str(KeyVisitor)
    }
}

/// Converts JSON (a Kubernetes object) to CEL: integers that fit become `int`, other numbers
/// `double`; objects become maps with string keys.
pub fn from_json(v: &serde_json::Value) -> Value {
    match v {
        serde_json::Value::Null => Value::Null,
        serde_json::Value::Bool(b) => Value::Bool(*b),
        serde_json::Value::Number(n) => match n.as_i64() {
            Some(i) => Value::Int(i),
            None => match n.as_u64() {
                Some(u) => Value::Uint(u),
                None => Value::Double(n.as_f64().unwrap_or(f64::NAN)),
            },
        },
        serde_json::Value::String(s) => Value::from(s.as_str()),
        serde_json::Value::Array(items) => Value::List(items.iter().map(from_json).collect()),
        serde_json::Value::Object(fields) => {
            let entries = fields.iter().map(|(k, v)| (Key::String(Rc::from(k.as_str())), from_json(v))).collect();
            Value::Map(Rc::new(Map::from_entries(entries)))
        }
    }
}

/// Renders a value as JSON the way docs/design.md's `kubedv cel` output does: numbers as numbers,
/// timestamps as RFC 3339, durations in Go's form, bytes as base64, types by name.
pub fn to_json(v: &Value) -> serde_json::Value {
    use serde_json::Value as J;
    match v {
        Value::Null => J::Null,
        Value::Bool(b) => J::Bool(*b),
        Value::Int(i) => J::from(*i),
        Value::Uint(u) => J::from(*u),
        Value::Double(d) => {
            serde_json::Number::from_f64(*d).map(J::Number).unwrap_or_else(|| J::String(crate::field::go_float(*d)))
        }
        Value::String(s) => J::String(String::from(&**s)),
        Value::Bytes(b) => J::String(base64_encode(b)),
        Value::List(items) => J::Array(items.iter().map(to_json).collect()),
        Value::Map(m) => {
            let mut out = serde_json::Map::new();
            for (k, v) in m.iter() {
                let key = match k {
                    Key::String(s) => String::from(&**s),
                    Key::Bool(b) => b.to_string(),
                    Key::Int(i) => i.to_string(),
                    Key::Uint(u) => u.to_string(),
                };
                out.insert(key, to_json(v));
            }
            J::Object(out)
        }
        Value::Timestamp(t) => J::String(t.to_rfc3339()),
        Value::Duration(d) => J::String(super::time::duration_to_go(*d)),
        Value::Type(t) => J::String(String::from(t.name())),
        Value::Optional(None) => J::Null,
        Value::Optional(Some(v)) => to_json(v),
        Value::Object(o) => J::String(alloc::string::ToString::to_string(&**o)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same values as through `serde_json::Value`, for every kind of JSON value.
    #[test]
    fn agrees_with_from_json() {
        for text in [
            r#"{"a": 1, "b": [true, null, 2.5, -3, 18446744073709551615, 9223372036854775807], "c": {"d\n": "x\u00e9"}}"#,
            r#"[1e3, 0.1, -0, "", {}, []]"#,
            r#"{"k": 1, "k": 2}"#,
            r#"{"k": 1, "j": 0, "k": 2, "a": [], "k": 3}"#,
            r#"{"t":1,"s":2,"r":3,"q":4,"p":5,"o":6,"n":7,"m":8,"l":9,"k":10,"j":11,"i":12,"h":13,"g":14,"f":15,"e":16,"d":17,"k":18}"#,
            "12345678901234567890123",
        ] {
            let want = from_json(&serde_json::from_str(text).unwrap());
            let got = from_json_text(text).unwrap();
            assert!(got.equals(&want), "{text}: {got:?} vs {want:?}");
            assert_eq!(alloc::format!("{got:?}"), alloc::format!("{want:?}"), "{text}");
        }
        assert!(from_json_text("[".repeat(200).as_str()).unwrap_err().contains("recursion limit"));
        assert!(from_json_text("{\"a\": }").is_err());
    }
}
