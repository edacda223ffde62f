//! The `builtin` differential path: built-in objects of the kinds kubedv models whole (the
//! real projects' manifests of `tests/corpus/manifests`, the targeted cases of
//! `tests/oracle/cases/builtin`), mutated a few fields at a time with values the API server's
//! validation tells apart (bounds, names, enum members, quantities, wrong JSON types, unknown
//! fields), each created — or updated from its unmutated self — through the API server.

use serde_json::{json, Map, Value};

use crate::Rng;

/// Values a mutation puts in place of a field's.
fn interesting(rng: &mut Rng, current: &Value) -> Value {
    const STRINGS: &[&str] = &[
        "",
        "a",
        "Bad_Name",
        "UPPER",
        "-lead",
        "trail-",
        "x.y",
        "a/b",
        "TCPX",
        "Always",
        "Never",
        "OnFailure",
        "IfNotPresent",
        "ClusterIP",
        "NodePort",
        "None",
        "ReadWriteOnce",
        "RollingUpdate",
        "Recreate",
        "OnDelete",
        "Parallel",
        "100m",
        "1Gi",
        "-1",
        "0",
        "1.5",
        "abc",
        "25%",
        "150%",
        "http",
        "nginx",
        "nginx:latest",
        "/abs/path",
        "relative",
        "..",
        "*/5 * * * *",
        "@hourly",
        "1 2 3",
        "10.0.0.1",
        "not-an-ip",
        "Exists",
        "Equal",
        "NoSchedule",
        "kubernetes.io/hostname",
        "a.b.c/d",
        "averyveryveryverylongnamethatgoespastsixtythreecharactersinlengthxx",
    ];
    match rng.below(9) {
        0 => json!(STRINGS[rng.below(STRINGS.len())]),
        1 => json!([-1i64, 0, 1, 2, 65535, 65536, 70000, 2147483648i64, -2147483649i64][rng.below(9)]),
        2 => json!(rng.below(2) == 0),
        3 => Value::Null,
        4 => json!({}),
        5 => json!([]),
        6 => match current {
            Value::Number(n) => json!(n.as_i64().unwrap_or(0).saturating_add(rng.below(5) as i64 - 2)),
            Value::String(s) if !s.is_empty() => json!(format!("{s}{}", ["-x", "_", "X", ".", ""][rng.below(5)])),
            other => other.clone(),
        },
        7 => json!(1.5),
        _ => json!(STRINGS[rng.below(STRINGS.len())]),
    }
}

/// The paths to every value of `v` (object keys and list items), `apiVersion` and `kind` aside.
fn paths(v: &Value, at: &mut Vec<Value>, out: &mut Vec<Vec<Value>>, depth: usize) {
    if depth > 14 {
        return;
    }
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                // The request's URL comes from these (kubectl's, and the oracle's): they stay.
                if depth == 0 && (k == "apiVersion" || k == "kind") {
                    continue;
                }
                if depth == 0 && k == "metadata" {
                    at.push(json!(k));
                    if let Value::Object(meta) = x {
                        for (mk, mx) in meta.iter().filter(|(mk, _)| *mk != "name" && *mk != "namespace") {
                            at.push(json!(mk));
                            out.push(at.clone());
                            paths(mx, at, out, depth + 2);
                            at.pop();
                        }
                    }
                    at.pop();
                    continue;
                }
                at.push(json!(k));
                out.push(at.clone());
                paths(x, at, out, depth + 1);
                at.pop();
            }
        }
        Value::Array(items) => {
            for (i, x) in items.iter().enumerate() {
                at.push(json!(i));
                out.push(at.clone());
                paths(x, at, out, depth + 1);
                at.pop();
            }
        }
        _ => {}
    }
}

fn at_mut<'a>(v: &'a mut Value, path: &[Value]) -> Option<&'a mut Value> {
    let mut cur = v;
    for step in path {
        cur = match step {
            Value::String(k) => cur.get_mut(k.as_str())?,
            Value::Number(i) => cur.get_mut(usize::try_from(i.as_u64()?).ok()?)?,
            _ => return None,
        };
    }
    Some(cur)
}

/// One mutation: a value replaced, a key removed, an unknown key added, or a list item copied.
fn mutate(rng: &mut Rng, object: &mut Value) {
    let mut all = Vec::new();
    paths(object, &mut Vec::new(), &mut all, 0);
    if all.is_empty() {
        return;
    }
    let path = all[rng.below(all.len())].clone();
    let (last, parent_path) = path.split_last().expect("a path has a step");
    let Some(parent) = at_mut(object, parent_path) else { return };
    match (rng.below(6), parent) {
        (0, Value::Object(m)) => {
            if let Some(k) = last.as_str() {
                m.remove(k);
            }
        }
        (1, Value::Object(m)) => {
            // Not `Name`: the oracle's harness reads the request's name case-insensitively.
            m.insert(String::from(["extra", "replica", "image_"][rng.below(3)]), json!("x"));
        }
        (2, Value::Array(items)) => {
            if let Some(i) = last.as_u64().and_then(|i| usize::try_from(i).ok()) {
                if let Some(item) = items.get(i).cloned() {
                    items.push(item);
                }
            }
        }
        (_, parent) => {
            if let Some(slot) = at_mut(parent, std::slice::from_ref(last)) {
                *slot = interesting(rng, slot);
            }
        }
    }
}

/// The modeled built-in objects of the repository's manifests (of one API group, when given),
/// each with whether it comes from a real project (`tests/corpus/manifests`: a sound old
/// object for an update) rather than the targeted mistakes of `tests/oracle/cases/builtin`.
pub(crate) fn bases(only: Option<&str>) -> Vec<(Value, bool)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut out = Vec::new();
    let mut stack = vec![root.join("tests/corpus/manifests"), root.join("tests/oracle/cases/builtin")];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            if !p.extension().is_some_and(|x| x == "yaml" || x == "yml") {
                continue;
            }
            let Ok(text) = std::fs::read_to_string(&p) else { continue };
            let Ok(docs) = kubedv_input::documents(&text) else { continue };
            let real = p.to_string_lossy().contains("corpus/manifests");
            for d in docs {
                let api_version = d["apiVersion"].as_str().unwrap_or_default();
                let group = api_version.rsplit_once('/').map_or("", |(g, _)| g);
                let wanted = only.is_none_or(|g| g == group);
                // A version 1.37 no longer serves is the lifecycle's to judge, not validation's.
                let version = api_version.rsplit_once('/').map_or(api_version, |(_, v)| v);
                let kind = d["kind"].as_str().unwrap_or_default();
                let removed = kubedv_core::lifecycle::lookup(group, version, kind)
                    .and_then(|api| api.status(37))
                    .is_some_and(|s| matches!(s, kubedv_core::lifecycle::Status::Removed(_)));
                if wanted && !removed && kubedv_core::apis::handles(group, kind) {
                    out.push((d, real));
                }
            }
        }
    }
    out
}

/// A case: a base object, renamed into namespace `fuzz`, mutated one to three times; a third
/// of the time (for a real project's object) an update from the unmutated object.
pub(crate) fn case(rng: &mut Rng, bases: &[(Value, bool)], i: usize) -> Value {
    let (mut base, real) = bases[rng.below(bases.len())].clone();
    let api_version = base["apiVersion"].as_str().unwrap_or_default();
    let group = api_version.rsplit_once('/').map_or("", |(g, _)| g);
    let kind = base["kind"].as_str().unwrap_or_default();
    let namespaced = kubedv_core::objectmeta::builtin(group, kind).is_none_or(|m| m.namespaced);
    let mut meta = base.get("metadata").and_then(Value::as_object).cloned().unwrap_or_else(Map::new);
    meta.insert(String::from("name"), json!(format!("f{i}")));
    if namespaced {
        meta.insert(String::from("namespace"), json!("fuzz"));
    } else {
        meta.remove("namespace");
    }
    base["metadata"] = Value::Object(meta);
    let mut object = base.clone();
    for _ in 0..=rng.below(3) {
        mutate(rng, &mut object);
    }
    let validation = ["Strict", "Warn"][rng.below(2)];
    let mut case = json!({"object": object, "fieldValidation": validation});
    // Namespaces are not updated: without a controller manager a namespace is never removed,
    // so the oracle cannot store one afresh for each update.
    if rng.below(3) == 0 && namespaced && real {
        case["old"] = base;
    }
    case
}
