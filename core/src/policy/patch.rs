//! Applying a mutation's result to an object: JSON Patch as evanphx/json-patch v4 applies it
//! (the library the API server uses, with its error texts), and the JSON Patch between two
//! objects for the report.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde_json::{json, Map, Value as Json};

/// Why a patch did not apply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PatchError {
    /// A `test` operation failed: the API server drops the whole mutation, without error.
    TestFailed,
    /// Anything else (the library's text).
    Failed(String),
}

fn decode(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

const MISSING: &str = "missing value";

/// Splits a pointer into its parent's tokens and the last one (`None` when it has fewer than
/// two parts: the operation does not apply).
fn split(path: &str) -> Option<(Vec<String>, String)> {
    let parts: Vec<&str> = path.split('/').collect();
    if parts.len() < 2 {
        return None;
    }
    let parent = parts[1..parts.len() - 1].iter().map(|t| decode(t)).collect();
    Some((parent, decode(parts[parts.len() - 1])))
}

/// `findObject`: the container the tokens lead to.
fn find<'a>(doc: &'a mut Json, tokens: &[String]) -> Option<&'a mut Json> {
    let mut cur = doc;
    for t in tokens {
        cur = match cur {
            Json::Object(m) => m.get_mut(t)?,
            Json::Array(a) => {
                let i: usize = t.parse().ok()?;
                a.get_mut(i)?
            }
            _ => return None,
        };
        if !matches!(cur, Json::Object(_) | Json::Array(_)) {
            return None;
        }
    }
    Some(cur)
}

fn array_index(key: &str, len: usize, allow_end: bool) -> Result<usize, String> {
    let i: i64 = key.parse().map_err(|_| {
        format!("value was not a proper array index: '{key}': strconv.Atoi: parsing {key:?}: invalid syntax")
    })?;
    let len = len as i64;
    let max = if allow_end { len } else { len - 1 };
    // SupportNegativeIndices: -1 is the last element.
    let idx = if i < 0 { i + len } else { i };
    if i < -len || idx > max || idx < 0 {
        return Err(format!("Unable to access invalid index: {i}: invalid index referenced"));
    }
    Ok(idx as usize)
}

fn add_at(container: &mut Json, key: &str, value: Json) -> Result<(), String> {
    match container {
        Json::Object(m) => {
            m.insert(key.to_string(), value);
            Ok(())
        }
        Json::Array(a) => {
            if key == "-" {
                a.push(value);
                return Ok(());
            }
            let i = array_index(key, a.len(), true)?;
            a.insert(i, value);
            Ok(())
        }
        _ => Err(String::from("unknown object type")),
    }
}

fn remove_at(container: &mut Json, key: &str) -> Result<Json, String> {
    match container {
        Json::Object(m) => m.remove(key).ok_or_else(|| format!("Unable to remove nonexistent key: {key}: {MISSING}")),
        Json::Array(a) => {
            let i = array_index(key, a.len(), false)?;
            Ok(a.remove(i))
        }
        _ => Err(String::from("unknown object type")),
    }
}

fn get_at(container: &Json, key: &str) -> Result<Option<Json>, String> {
    match container {
        Json::Object(m) => Ok(m.get(key).cloned()),
        Json::Array(a) => {
            let i = array_index(key, a.len(), false)?;
            Ok(a.get(i).cloned())
        }
        _ => Err(String::from("unknown object type")),
    }
}

/// Applies a JSON Patch (`[{op, path, from?, value?}]`) to `doc`.
pub fn apply_json_patch(doc: &Json, ops: &[Json]) -> Result<Json, PatchError> {
    let mut doc = doc.clone();
    for op in ops {
        apply_one(&mut doc, op)?;
    }
    Ok(doc)
}

fn apply_one(doc: &mut Json, op: &Json) -> Result<(), PatchError> {
    let fail = |m: String| Err(PatchError::Failed(m));
    let s = |k: &str| op.get(k).and_then(Json::as_str);
    let kind = s("op").unwrap_or("");
    let path = s("path").unwrap_or("");
    let value = op.get("value").cloned().unwrap_or(Json::Null);
    match kind {
        "add" => {
            let Some((parent, key)) = split(path) else {
                return fail(format!("add operation does not apply: doc is missing path: {path:?}: {MISSING}"));
            };
            let Some(c) = find(doc, &parent) else {
                return fail(format!("add operation does not apply: doc is missing path: {path:?}: {MISSING}"));
            };
            add_at(c, &key, value).or_else(|e| fail(format!("error in add for path: '{path}': {e}")))
        }
        "remove" => {
            let Some((parent, key)) = split(path) else {
                return fail(format!("remove operation does not apply: doc is missing path: {path:?}: {MISSING}"));
            };
            let Some(c) = find(doc, &parent) else {
                return fail(format!("remove operation does not apply: doc is missing path: {path:?}: {MISSING}"));
            };
            remove_at(c, &key).map(|_| ()).or_else(|e| fail(format!("error in remove for path: '{path}': {e}")))
        }
        "replace" => {
            if path.is_empty() {
                if !matches!(value, Json::Object(_) | Json::Array(_)) {
                    return fail(String::from("replace operation value must be object or array: unknown object type"));
                }
                *doc = value;
                return Ok(());
            }
            let Some((parent, key)) = split(path) else {
                return fail(format!("replace operation does not apply: doc is missing path: {path}: {MISSING}"));
            };
            let Some(c) = find(doc, &parent) else {
                return fail(format!("replace operation does not apply: doc is missing path: {path}: {MISSING}"));
            };
            match c {
                // `get` on an object never fails: replacing a missing key adds it.
                Json::Object(m) => {
                    m.insert(key, value);
                    Ok(())
                }
                Json::Array(a) => {
                    let i = match key.parse::<i64>() {
                        Ok(_) => array_index(&key, a.len(), false),
                        Err(_) => {
                            return fail(format!(
                                "replace operation does not apply: doc is missing key: {path}: {MISSING}"
                            ))
                        }
                    };
                    match i {
                        Ok(i) => {
                            a[i] = value;
                            Ok(())
                        }
                        Err(_) => {
                            fail(format!("replace operation does not apply: doc is missing key: {path}: {MISSING}"))
                        }
                    }
                }
                _ => fail(format!("error in remove for path: '{path}': unknown object type")),
            }
        }
        "move" | "copy" => {
            let Some(from) = s("from") else {
                return fail(format!(
                    "{kind} operation failed to decode from: operation, missing from field: {MISSING}"
                ));
            };
            let Some((fparent, fkey)) = split(from) else {
                return fail(format!("{kind} operation does not apply: doc is missing from path: {from}: {MISSING}"));
            };
            let Some(fc) = find(doc, &fparent) else {
                return fail(format!("{kind} operation does not apply: doc is missing from path: {from}: {MISSING}"));
            };
            let moved = if kind == "move" {
                match remove_at(fc, &fkey) {
                    Ok(v) => v,
                    Err(e) => return fail(format!("error in move for path: '{fkey}': {e}")),
                }
            } else {
                match get_at(fc, &fkey) {
                    Ok(Some(v)) => v,
                    Ok(None) => return fail(format!("error in copy for from: '{from}': {MISSING}")),
                    Err(e) => return fail(format!("error in copy for from: '{from}': {e}")),
                }
            };
            let Some((parent, key)) = split(path) else {
                return fail(format!(
                    "{kind} operation does not apply: doc is missing destination path: {path}: {MISSING}"
                ));
            };
            let Some(c) = find(doc, &parent) else {
                return fail(format!(
                    "{kind} operation does not apply: doc is missing destination path: {path}: {MISSING}"
                ));
            };
            add_at(c, &key, moved).or_else(|e| match kind {
                "copy" => fail(format!("error while adding value during copy: {e}")),
                _ => fail(format!("error in move for path: '{key}': {e}")),
            })
        }
        "test" => {
            if path.is_empty() {
                return if *doc == value { Ok(()) } else { Err(PatchError::TestFailed) };
            }
            let Some((parent, key)) = split(path) else {
                return fail(format!("test operation does not apply: is missing path: {path}: {MISSING}"));
            };
            let Some(c) = find(doc, &parent) else {
                return fail(format!("test operation does not apply: is missing path: {path}: {MISSING}"));
            };
            match get_at(c, &key) {
                Ok(None) if value.is_null() => Ok(()),
                Ok(Some(v)) if v == value => Ok(()),
                Ok(_) => Err(PatchError::TestFailed),
                Err(e) => fail(format!("error in test for path: '{path}': {e}")),
            }
        }
        other => fail(format!("Unexpected kind: {other}")),
    }
}

fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// The JSON Patch that turns `from` into `to` (objects field by field, other values replaced).
pub fn diff(from: &Json, to: &Json) -> Vec<Json> {
    let mut out = Vec::new();
    diff_at(from, to, "", &mut out);
    out
}

fn diff_at(from: &Json, to: &Json, at: &str, out: &mut Vec<Json>) {
    match (from, to) {
        (Json::Object(a), Json::Object(b)) => {
            for (k, v) in a {
                let path = format!("{at}/{}", escape(k));
                match b.get(k) {
                    None => out.push(json!({"op": "remove", "path": path})),
                    Some(w) => diff_at(v, w, &path, out),
                }
            }
            let added: Map<String, Json> =
                b.iter().filter(|(k, _)| !a.contains_key(*k)).map(|(k, v)| (k.clone(), v.clone())).collect();
            for (k, v) in added {
                out.push(json!({"op": "add", "path": format!("{at}/{}", escape(&k)), "value": v}));
            }
        }
        (a, b) if a == b => {}
        (_, b) => out.push(json!({"op": "replace", "path": at, "value": b})),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn apply(doc: Json, ops: Json) -> Result<Json, PatchError> {
        apply_json_patch(&doc, ops.as_array().unwrap())
    }

    fn err(doc: Json, ops: Json) -> String {
        match apply(doc, ops) {
            Err(PatchError::Failed(m)) => m,
            other => panic!("{other:?}"),
        }
    }

    // json-patch v4 patch.go; the texts apiserver's mutating/patch tests assert.
    #[test]
    fn operations() {
        let doc = json!({"metadata": {"labels": {"a": "1"}}, "spec": {"list": [1, 2]}});
        let got = apply(doc.clone(), json!([{"op": "add", "path": "/metadata/labels/b", "value": "2"}])).unwrap();
        assert_eq!(got["metadata"]["labels"], json!({"a": "1", "b": "2"}));
        let got = apply(doc.clone(), json!([{"op": "add", "path": "/spec/list/-", "value": 3}, {"op": "add", "path": "/spec/list/0", "value": 0}])).unwrap();
        assert_eq!(got["spec"]["list"], json!([0, 1, 2, 3]));
        let got = apply(doc.clone(), json!([{"op": "replace", "path": "/spec/missing", "value": 1}])).unwrap();
        assert_eq!(got["spec"]["missing"], 1);
        assert_eq!(
            err(doc.clone(), json!([{"op": "add", "path": "/spec/foo/bar", "value": 1}])),
            "add operation does not apply: doc is missing path: \"/spec/foo/bar\": missing value"
        );
        assert_eq!(
            err(doc.clone(), json!([{"op": "replace", "path": "/spec/list/-", "value": 1}])),
            "replace operation does not apply: doc is missing key: /spec/list/-: missing value"
        );
        assert_eq!(
            err(doc.clone(), json!([{"op": "remove", "path": "/metadata/labels/zz"}])),
            "error in remove for path: '/metadata/labels/zz': Unable to remove nonexistent key: zz: missing value"
        );
        assert_eq!(err(doc.clone(), json!([{"op": "", "path": "/x"}])), "Unexpected kind: ");
        assert_eq!(
            apply(doc.clone(), json!([{"op": "test", "path": "/spec/list/0", "value": 9}])),
            Err(PatchError::TestFailed)
        );
        let got =
            apply(doc.clone(), json!([{"op": "copy", "from": "/metadata/labels", "path": "/spec/labels"}])).unwrap();
        assert_eq!(got["spec"]["labels"], json!({"a": "1"}));
        let got =
            apply(doc, json!([{"op": "add", "path": "/metadata/labels/k8s.io~1my~0label", "value": "x"}])).unwrap();
        assert_eq!(got["metadata"]["labels"]["k8s.io/my~label"], "x");
    }

    #[test]
    fn diffs() {
        let a = json!({"metadata": {"labels": {"a/b": "1"}}, "spec": {"n": 1}});
        let b = json!({"metadata": {"labels": {"a/b": "1", "c": "2"}}, "spec": {"n": 2}});
        assert_eq!(
            diff(&a, &b),
            [
                json!({"op": "add", "path": "/metadata/labels/c", "value": "2"}),
                json!({"op": "replace", "path": "/spec/n", "value": 2})
            ]
        );
        assert_eq!(apply_json_patch(&a, &diff(&a, &b)).unwrap(), b);
    }
}
