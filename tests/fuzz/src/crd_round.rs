//! CRDs: structured random schemas and mutated real CRDs, loaded and used on create and update.

use super::*;

/// A schema keyword or extension with a random value of the kinds that matter to it.
pub(crate) fn random_keyword(rng: &mut Rng, depth: usize) -> (String, Value) {
    let types = ["object", "array", "string", "integer", "number", "boolean", ""];
    let rules = [
        "self.size() > 0",
        "self == oldSelf",
        "has(self.a) || !has(self.b)",
        "self.all(k, k.matches('(?i)^a'))",
        "self.a.startsWith('x')",
        "format.dns1123Label().validate(self) == null",
        "self.map(x, x).size() < 3",
        "int(self) > 1",
        "self.exists(x, x == 1)",
        "'a(' .matches(self)",
        "self[0] == 1",
        "sign(quantity(self)) == 1",
    ];
    let key = [
        "type",
        "properties",
        "items",
        "additionalProperties",
        "required",
        "enum",
        "default",
        "nullable",
        "minItems",
        "maxItems",
        "minLength",
        "maxLength",
        "minProperties",
        "maxProperties",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "multipleOf",
        "pattern",
        "format",
        "allOf",
        "anyOf",
        "oneOf",
        "not",
        "x-kubernetes-list-type",
        "x-kubernetes-list-map-keys",
        "x-kubernetes-map-type",
        "x-kubernetes-int-or-string",
        "x-kubernetes-preserve-unknown-fields",
        "x-kubernetes-embedded-resource",
        "x-kubernetes-validations",
        "uniqueItems",
    ];
    let k = key[rng.below(key.len())];
    let v = match k {
        "type" => json!(types[rng.below(types.len())]),
        "properties" => Value::Object(
            (0..rng.below(3))
                .map(|i| (["a", "b", "name", "metadata"][i % 4].to_string(), random_schema(rng, depth + 1)))
                .collect(),
        ),
        "items" | "additionalProperties" | "not" => {
            if rng.below(5) == 0 {
                json!(rng.below(2) == 1)
            } else {
                random_schema(rng, depth + 1)
            }
        }
        "allOf" | "anyOf" | "oneOf" => {
            Value::Array((0..1 + rng.below(2)).map(|_| random_schema(rng, depth + 1)).collect())
        }
        "required" | "x-kubernetes-list-map-keys" => json!(["a", "name"][..1 + rng.below(2)]),
        "x-kubernetes-list-type" => json!(["set", "map", "atomic", "bogus"][rng.below(4)]),
        "x-kubernetes-map-type" => json!(["granular", "atomic"][rng.below(2)]),
        "pattern" => json!(["^a", "(?i)x", "a(", "[z-a]", "\\q", "^x(?i:ab)y$"][rng.below(6)]),
        "format" => {
            json!(["int32", "date-time", "uuid", "k8s-short-name", "byte", "duration", "ipv4", "cidr"][rng.below(8)])
        }
        "x-kubernetes-validations" => Value::Array(
            (0..1 + rng.below(2))
                .map(|_| {
                    let mut r = json!({"rule": rules[rng.below(rules.len())]});
                    if rng.below(3) == 0 {
                        r["messageExpression"] = json!("'bad ' + string(self)");
                    }
                    if rng.below(4) == 0 {
                        r["optionalOldSelf"] = json!(true);
                    }
                    r
                })
                .collect(),
        ),
        "default" | "enum" => random_json(rng, depth + 2),
        _ => random_json(rng, depth + 3),
    };
    (k.to_string(), v)
}

pub(crate) fn random_schema(rng: &mut Rng, depth: usize) -> Value {
    if depth > 5 {
        return json!({"type": "string"});
    }
    Value::Object((0..1 + rng.below(4)).map(|_| random_keyword(rng, depth)).collect())
}

/// One CRD round: a random schema under `spec` (or at the root), loaded, then a random object
/// checked on create and on update. Returns whether the CRD loaded; a property violated is an
/// error: loading and checking are deterministic.
pub(crate) fn crd_round(rng: &mut Rng) -> Result<bool, String> {
    let mut root = json!({"type": "object", "properties": {"spec": random_schema(rng, 0)}});
    if rng.below(4) == 0 {
        let (k, v) = random_keyword(rng, 1);
        root[k] = v;
    }
    let doc = json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition", "metadata": {"name": "ws.example.com"},
        "spec": {"group": "example.com", "scope": "Namespaced", "names": {"kind": "W", "plural": "ws"}, "versions": [{"name": "v1", "served": true, "storage": true,
            "schema": {"openAPIV3Schema": root}}]}});
    let mut doc = doc;
    if rng.below(2) == 0 {
        definition_fields(rng, &mut doc);
    }
    let Some(all) = load_twice(&doc)? else { return Ok(false) };
    // The storage version, as `Crd::load` picks it.
    let versions = doc["spec"]["versions"].as_array();
    let storage = versions.and_then(|vs| vs.iter().position(|v| v["storage"] == true)).unwrap_or(0);
    let Some(c) = all.get(storage) else { return Ok(true) };
    let object = |rng: &mut Rng| json!({"apiVersion": "example.com/v1", "kind": "W", "metadata": {"name": "w"}, "spec": random_json(rng, 0)});
    let (new, old) = (object(rng), object(rng));
    check_twice(c, &new, &old, &crds::Options { defaults: rng.below(2) == 0 })?;
    Ok(true)
}

pub(crate) fn texts(errors: &[kubedv_core::field::Error]) -> Vec<String> {
    errors.iter().map(|e| e.text()).collect()
}

/// Loads a CRD's versions twice: both loads must agree (`None`: refused both times).
pub(crate) fn load_twice(doc: &Value) -> Result<Option<Vec<Crd>>, String> {
    match (Crd::load_all(doc), Crd::load_all(doc)) {
        (Ok(all), Ok(_)) => Ok(Some(all)),
        (Err(a), Err(b)) if texts(&a) == texts(&b) => Ok(None),
        _ => Err(format!("loading twice differs:\n{doc}")),
    }
}

/// Checks `new` on create twice (the results must agree), then as an update of `old` and of
/// itself. (An unchanged update can have errors its create has not: ratcheting removes a
/// blocking type error, and then the rules run on the ill-typed value, in Kubernetes too.)
pub(crate) fn check_twice(c: &Crd, new: &Value, old: &Value, options: &crds::Options) -> Result<(), String> {
    if texts(&c.check(new, None, options).errors) != texts(&c.check(new, None, options).errors) {
        return Err(format!("checking twice differs:\n{new}"));
    }
    let _ = c.check(new, Some(old), options);
    let _ = c.check(new, Some(new), options);
    Ok(())
}

/// Released CRDs of the real-CRD corpus (`tests/corpus/crds`), whose schemas are mutated and
/// whose objects are drawn from the schemas.
pub(crate) const REAL_CRDS: &[&str] = &[
    include_str!("../../corpus/crds/keda/keda.sh_scaledobjects.yaml"),
    include_str!("../../corpus/crds/gateway-api/standard__gateway.networking.k8s.io_httproutes.yaml"),
    include_str!("../../corpus/crds/gateway-api/standard__gateway.networking.k8s.io_gateways.yaml"),
    include_str!("../../corpus/crds/crossplane/apiextensions.crossplane.io_compositions.yaml"),
    include_str!("../../corpus/crds/cert-manager/cert-manager.io_issuers.yaml"),
    include_str!("../../corpus/crds/flux-source-controller/source.toolkit.fluxcd.io_buckets.yaml"),
    include_str!("../../corpus/crds/istio/crd-all.gen.yaml"),
];

/// Every CRD document of [`REAL_CRDS`].
pub(crate) fn real_crds() -> Vec<Value> {
    REAL_CRDS.iter().flat_map(|text| kubedv_input::documents(text).expect("the corpus reads")).collect()
}

/// A value drawn from a schema: mostly of the declared shape (enum members, bounds, required
/// and optional properties, map entries, list items), sometimes of another.
pub(crate) fn sample(rng: &mut Rng, schema: &Value, depth: usize) -> Value {
    if depth > 12 || rng.below(25) == 0 {
        return random_json(rng, 3);
    }
    if let Some(members) = schema.get("enum").and_then(Value::as_array).filter(|m| !m.is_empty()) {
        if rng.below(5) != 0 {
            return members[rng.below(members.len())].clone();
        }
    }
    if schema.get("x-kubernetes-int-or-string") == Some(&Value::Bool(true)) {
        return if rng.below(2) == 0 {
            json!(rng.below(200) as i64 - 50)
        } else {
            json!(format!("{}%", rng.below(150)))
        };
    }
    let bound = |key: &str| schema.get(key).and_then(Value::as_i64);
    match schema.get("type").and_then(Value::as_str) {
        Some("object") => {
            let mut out = serde_json::Map::new();
            let required: Vec<&str> = schema
                .get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            for (k, v) in schema.get("properties").and_then(Value::as_object).into_iter().flatten() {
                if required.contains(&k.as_str()) && rng.below(12) != 0 || rng.below(3) == 0 {
                    out.insert(k.clone(), sample(rng, v, depth + 1));
                }
            }
            if let Some(ap) = schema.get("additionalProperties").filter(|a| a.is_object()) {
                for i in 0..rng.below(3) {
                    out.insert(
                        ["a", "b.c/d", "x", "*", ""][(i + rng.below(5)) % 5].to_string(),
                        sample(rng, ap, depth + 1),
                    );
                }
            }
            Value::Object(out)
        }
        Some("array") => {
            let item = schema.get("items").cloned().unwrap_or(Value::Null);
            let n = rng.below(4) + usize::from(bound("minItems").is_some_and(|m| m > 0));
            let mut items: Vec<Value> = (0..n).map(|_| sample(rng, &item, depth + 1)).collect();
            if n > 1 && rng.below(4) == 0 {
                items[1] = items[0].clone();
            }
            Value::Array(items)
        }
        Some("integer") => {
            let (lo, hi) = (bound("minimum").unwrap_or(-5), bound("maximum").unwrap_or(100));
            json!(lo
                .saturating_sub(1)
                .saturating_add(rng.below(hi.saturating_sub(lo).clamp(0, 1000) as usize + 3) as i64))
        }
        Some("number") => json!(rng.below(1000) as f64 / 7.0),
        Some("boolean") => json!(rng.below(2) == 0),
        Some("string") => {
            let pick =
                ["", "a", "web", "/path", "http://example.com", "1m", "10.0.0.1", "Bad_Value", "ä", "*.example.com"];
            let s = pick[rng.below(pick.len())].repeat(1 + rng.below(2));
            let max = bound("maxLength").unwrap_or(i64::MAX) as usize;
            if rng.below(6) == 0 && max < 1000 {
                json!("x".repeat(max + 1))
            } else {
                json!(s)
            }
        }
        _ => random_json(rng, 2),
    }
}

/// Replaces a random node of a schema (reached through properties, items and
/// additionalProperties) by a random schema, or adds a random keyword to it.
pub(crate) fn mutate_schema(rng: &mut Rng, schema: &mut Value, depth: usize) {
    let children: Vec<String> =
        schema.get("properties").and_then(Value::as_object).map_or(Vec::new(), |p| p.keys().cloned().collect());
    if depth < 8 && rng.below(3) != 0 {
        if !children.is_empty() {
            let k = children[rng.below(children.len())].clone();
            return mutate_schema(rng, &mut schema["properties"][k], depth + 1);
        }
        for key in ["items", "additionalProperties"] {
            if schema.get(key).is_some_and(Value::is_object) {
                return mutate_schema(rng, &mut schema[key], depth + 1);
            }
        }
    }
    if rng.below(2) == 0 {
        *schema = random_schema(rng, 1);
    } else if schema.is_object() {
        let (k, v) = random_keyword(rng, 1);
        schema[k] = v;
    }
}

/// A real CRD, its schema mutated at one node or not, loaded; then objects drawn from its
/// schema checked on create and as updates of one another. Loading and checking must be
/// deterministic. Returns whether the CRD loaded.
pub(crate) fn real_crd_round(rng: &mut Rng, crds: &[Value]) -> Result<bool, String> {
    let mut doc = crds[rng.below(crds.len())].clone();
    let versions = doc["spec"]["versions"].as_array().map_or(0, Vec::len);
    let v = rng.below(versions.max(1));
    if rng.below(2) == 0 {
        mutate_schema(rng, &mut doc["spec"]["versions"][v]["schema"]["openAPIV3Schema"], 0);
    }
    let Some(all) = load_twice(&doc)? else { return Ok(false) };
    let Some(c) = all.get(v) else { return Ok(true) };
    let schema = &doc["spec"]["versions"][v]["schema"]["openAPIV3Schema"];
    let group = doc["spec"]["group"].as_str().unwrap_or("");
    let object = |rng: &mut Rng| {
        let mut o = sample(rng, schema, 0);
        if o.is_object() {
            o["apiVersion"] = json!(format!("{group}/{}", c.version));
            o["kind"] = json!(c.kind);
            o["metadata"] = json!({"name": "x", "namespace": "y"});
        }
        o
    };
    let (new, old) = (object(rng), object(rng));
    check_twice(c, &new, &old, &crds::Options { defaults: rng.below(4) != 0 })?;
    Ok(true)
}

/// Strings for the CRD's own fields: names, paths, URLs, with mutations.
pub(crate) const DEFINITION_STRINGS: &[&str] = &[
    "ws.example.com",
    "W",
    "ws",
    "w",
    "WList",
    "v1",
    "v1beta1",
    "V1",
    "",
    "Ä",
    "a-b",
    ".spec.replicas",
    ".status.replicas",
    ".spec.labels['a.b']",
    ".metadata.name",
    "spec",
    ".spec[0]",
    "'x'",
    "https://example.com/convert",
    "http://u:p@h:99999/p?q#f",
    "https://[::1]:443/x",
    "integer",
    "string",
    "date",
    "int32",
    "None",
    "Webhook",
    "v1beta1",
    "https://github.com/kubernetes/enhancements/pull/1111",
    "unapproved, x",
    "\u{0}",
];

pub(crate) fn definition_string(rng: &mut Rng) -> Value {
    let base = DEFINITION_STRINGS[rng.below(DEFINITION_STRINGS.len())];
    let s = if rng.below(3) == 0 { mutate(rng, base) } else { String::from(base) };
    if rng.below(20) == 0 {
        return Value::String(s.repeat(1 + rng.below(400)));
    }
    if rng.below(15) == 0 {
        return random_json(rng, 2);
    }
    Value::String(s)
}

/// Random values for the fields `ValidateCustomResourceDefinition` checks beyond the schema:
/// metadata, names, several versions (shared or distinct schemas, storage flags, deprecation),
/// subresources, printer columns, selectable fields, conversion and the API approval annotation.
pub(crate) fn definition_fields(rng: &mut Rng, doc: &mut Value) {
    let s = |rng: &mut Rng| definition_string(rng);
    if rng.below(3) == 0 {
        doc["metadata"]["name"] = s(rng);
    }
    if rng.below(4) == 0 {
        doc["metadata"]["annotations"] = json!({"api-approved.kubernetes.io": s(rng)});
        doc["spec"]["group"] = json!(["k8s.io", "x.k8s.io", "example.com", "ex"][rng.below(4)]);
    }
    for key in ["singular", "listKind", "kind", "plural"] {
        if rng.below(5) == 0 {
            doc["spec"]["names"][key] = s(rng);
        }
    }
    for key in ["shortNames", "categories"] {
        if rng.below(5) == 0 {
            doc["spec"]["names"][key] = Value::Array((0..rng.below(4)).map(|_| s(rng)).collect());
        }
    }
    if rng.below(4) == 0 {
        doc["spec"]["scope"] = s(rng);
    }
    if rng.below(6) == 0 {
        doc["spec"]["preserveUnknownFields"] = json!(rng.below(2) == 0);
    }
    let first = doc["spec"]["versions"][0].clone();
    let mut versions = Vec::new();
    for _ in 0..1 + rng.below(3) {
        let mut v = first.clone();
        if rng.below(2) == 0 {
            v["name"] = s(rng);
        }
        v["storage"] = json!(rng.below(3) != 0);
        v["served"] = json!(rng.below(4) != 0);
        if rng.below(4) == 0 {
            v["deprecated"] = json!(rng.below(2) == 0);
            v["deprecationWarning"] = s(rng);
        }
        if rng.below(3) == 0 {
            let mut sub = json!({});
            if rng.below(2) == 0 {
                sub["status"] = json!({});
            }
            if rng.below(2) == 0 {
                sub["scale"] =
                    json!({"specReplicasPath": s(rng), "statusReplicasPath": s(rng), "labelSelectorPath": s(rng)});
            }
            v["subresources"] = sub;
        }
        if rng.below(3) == 0 {
            let columns = (0..1 + rng.below(3))
                .map(|_| json!({"name": s(rng), "type": s(rng), "format": s(rng), "jsonPath": s(rng), "priority": rng.below(3) as i64 - 1}))
                .collect();
            v["additionalPrinterColumns"] = Value::Array(columns);
        }
        if rng.below(3) == 0 {
            v["selectableFields"] = Value::Array((0..1 + rng.below(3)).map(|_| json!({"jsonPath": s(rng)})).collect());
        }
        if rng.below(4) == 0 {
            v["schema"]["openAPIV3Schema"]["properties"]["spec"] = random_schema(rng, 0);
        }
        versions.push(v);
    }
    doc["spec"]["versions"] = Value::Array(versions);
    if rng.below(3) == 0 {
        let mut config = json!({});
        if rng.below(2) == 0 {
            config["url"] = s(rng);
        }
        if rng.below(2) == 0 {
            config["service"] =
                json!({"name": s(rng), "namespace": s(rng), "path": s(rng), "port": rng.below(70_000) as i64 - 10});
        }
        if rng.below(3) == 0 {
            config["caBundle"] = s(rng);
        }
        let review: Vec<Value> = (0..rng.below(4)).map(|_| s(rng)).collect();
        doc["spec"]["conversion"] =
            json!({"strategy": s(rng), "webhook": {"clientConfig": config, "conversionReviewVersions": review}});
    }
}
