//! Reading a decoded object as the Go validation reads its typed fields, and printing bad values
//! as `field.Error` prints them: scalars as `%v`/`%q`, anything else as Go's `json.Marshal`
//! (give the `serde_json::Value` itself as the error's value: `crate::field::Error` prints it so).
//!
//! The validation of `pkg/apis` reads Go structs, where an absent field is the zero value: an
//! absent string is `""`, an absent list is empty, an absent pointer is nil. These accessors
//! give the same reading of a `serde_json::Value` (a value of the wrong JSON type never gets
//! here: decoding refused it first), so ported code keeps Go's shape:
//! `if spec.RestartPolicy == ""` is `if str(spec, "restartPolicy").is_empty()`.

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{Map, Value as Json};

/// An empty object, for absent structs.
pub static EMPTY: Json = Json::Null;

/// The field `key` of an object: `None` when absent or `null` (a nil pointer).
pub fn get<'a>(v: &'a Json, key: &str) -> Option<&'a Json> {
    v.get(key).filter(|x| !x.is_null())
}

/// A string field; `""` when absent (Go's zero value).
pub fn str<'a>(v: &'a Json, key: &str) -> &'a str {
    v.get(key).and_then(Json::as_str).unwrap_or("")
}

/// A string field that may be absent (a `*string`).
pub fn opt_str<'a>(v: &'a Json, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Json::as_str)
}

/// An integer field; `None` when absent (a nil `*int32`).
pub fn int(v: &Json, key: &str) -> Option<i64> {
    v.get(key).and_then(Json::as_i64)
}

/// A boolean field; `None` when absent (a nil `*bool`).
pub fn bool(v: &Json, key: &str) -> Option<bool> {
    v.get(key).and_then(Json::as_bool)
}

/// A list field; empty when absent.
pub fn list<'a>(v: &'a Json, key: &str) -> &'a [Json] {
    v.get(key).and_then(Json::as_array).map_or(&[], Vec::as_slice)
}

/// A map or struct field; `None` when absent or `null`.
pub fn object<'a>(v: &'a Json, key: &str) -> Option<&'a Map<String, Json>> {
    v.get(key).and_then(Json::as_object)
}

/// A struct field as a value to read further (`&EMPTY`, reading as all zero values, when absent).
pub fn field<'a>(v: &'a Json, key: &str) -> &'a Json {
    v.get(key).unwrap_or(&EMPTY)
}

/// A `map[string]string` field's entries, in key order; empty when absent.
pub fn string_map<'a>(v: &'a Json, key: &str) -> Vec<(&'a str, &'a str)> {
    object(v, key).map_or_else(Vec::new, |m| m.iter().map(|(k, v)| (k.as_str(), v.as_str().unwrap_or(""))).collect())
}

/// Sets `key` to `value` when it is absent or `null` (a `SetDefaults_*` assignment guarded by
/// `if x == nil` or `if x == ""`: an empty string counts as absent).
pub fn default_to(v: &mut Json, key: &str, value: Json) {
    if let Json::Object(map) = v {
        let absent = match map.get(key) {
            None | Some(Json::Null) => true,
            Some(Json::String(s)) => s.is_empty(),
            Some(_) => false,
        };
        if absent {
            map.insert(String::from(key), value);
        }
    }
}

/// The struct field `key`, created empty when absent or `null` (Go: `if x.F == nil { x.F =
/// &T{} }`). A value that is not an object is left alone; `None` then.
pub fn struct_mut<'a>(v: &'a mut Json, key: &str) -> Option<&'a mut Json> {
    let map = v.as_object_mut()?;
    let slot = map.entry(String::from(key)).or_insert(Json::Null);
    if slot.is_null() {
        *slot = Json::Object(Map::new());
    }
    slot.is_object().then_some(slot)
}

/// The items of a list field, mutable (nothing when absent).
pub fn list_mut<'a>(v: &'a mut Json, key: &str) -> &'a mut [Json] {
    match v.get_mut(key) {
        Some(Json::Array(items)) => items,
        _ => &mut [],
    }
}

/// A `map[string]string` as `field.Error` prints a bad value that is not a scalar: Go's
/// `json.Marshal` (`{"app":"web"}`, keys sorted; `null` for a nil map). apimachinery 1.37
/// `ErrorBody`.
pub fn go_string_map(map: Option<&Map<String, Json>>) -> String {
    match map {
        Some(m) => crate::field::go_json(&Json::Object(m.clone())),
        None => String::from("null"),
    }
}

/// A `[]string` as `field.Error` prints it: Go's `json.Marshal` (`["a","b"]`).
pub fn go_string_slice(items: &[&str]) -> String {
    let list: Vec<Json> = items.iter().map(|s| Json::from(*s)).collect();
    crate::field::go_json(&Json::Array(list))
}
