//! JSON text straight to CEL values, without building a `serde_json::Value` first (half the
//! allocations on the npm package's hot path). Values are those [`super::from_json`] gives
//! for the same text: integers as `int` (`uint` beyond `int`'s range), other numbers as
//! `double`, objects as maps (a repeated key keeps its last value). serde_json's parser and
//! its nesting limit (128) apply.

use alloc::rc::Rc;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

use super::eval::Activation;
use super::value::{Key, Map, Value};

/// Parses JSON text into a CEL value; the error is serde_json's message.
pub fn from_json_text(text: &str) -> Result<Value, String> {
    serde_json::from_str::<Cel>(text).map(|c| c.0).map_err(|e| e.to_string())
}

/// Variables as the entries of a CEL map (a parsed JSON object of variables).
pub struct MapVars(pub Rc<Map>);

impl Activation for MapVars {
    fn resolve(&self, name: &str) -> Option<&Value> {
        self.0.get_str(name)
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cel::from_json;

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
        let Value::Map(m) = from_json_text(r#"{"self": {"n": 1}}"#).unwrap() else { panic!() };
        assert!(MapVars(m).resolve("self").is_some());
    }
}
