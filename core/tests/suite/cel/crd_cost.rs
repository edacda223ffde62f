//! Runtime cost of validation rules on typed objects, as Kubernetes measures it when it
//! validates a custom resource: every expectation below is from apiextensions-apiserver
//! `pkg/apiserver/schema/cel/celcoststability_test.go` (`TestCelCostStability`), with the
//! schemas and objects of its cases (`schemas(...)`/`objs(...)` give `val1`, `val2`, ...).
//! Kubernetes compiles rules with cel-go's constant folding (`OptOptimize`), so constant parts
//! cost nothing: `Program::compile_optimized`.

use std::collections::BTreeMap;

use kubedv_core::cel::checker::{self, CelType, Decls};
use kubedv_core::cel::{schema, Program, Value};
use serde_json::{json, Value as Json};

use crate::common::schemas::{f, list, map_of, objs, schemas, set_of, t, vals_equal};

/// Compiles the rule as Kubernetes does, checks it against the schema, evaluates it on the
/// object (which must pass) and returns the runtime cost.
fn runtime_cost(schema_json: &Json, obj: &Json, rule: &str) -> Result<u64, String> {
    let program = Program::compile_optimized(rule).map_err(|e| format!("compile: {e}"))?;
    let self_type = schema::decl_type(schema_json, true).ok_or("schema has no CEL type")?;
    let mut decls = Decls::default();
    decls.declare("self", self_type);
    let t = checker::check(&program, &decls).map_err(|e| format!("check: {e}"))?;
    if t != CelType::Bool && t != CelType::Dyn {
        return Err(format!("rule type {t}"));
    }
    let mut vars = BTreeMap::new();
    vars.insert(String::from("self"), schema::value(obj, schema_json, true));
    let r = program.eval(&vars).map_err(|e| format!("eval: {e}"))?;
    match r.value {
        Value::Bool(true) => Ok(r.cost),
        other => Err(format!("evaluated to {}", kubedv_core::cel::to_json(&other))),
    }
}

struct Case {
    name: &'static str,
    schema: Json,
    obj: Json,
    costs: Vec<(String, u64)>,
}

fn cases() -> Vec<Case> {
    let s = |x: &str| String::from(x);
    let max_f32 = f32::MAX as f64;
    vec![
        Case {
            name: "integers",
            schema: schemas(&[t("integer"), t("integer"), f("integer", "int32"), f("integer", "int32"), f("integer", "int64"), f("integer", "int64")]),
            obj: objs(&[json!(i64::MAX), json!(i64::MAX), json!(i32::MAX), json!(i32::MAX), json!(i64::MAX), json!(i64::MAX)]),
            costs: vec![
                (vals_equal("self.val1", "self.val2", &i64::MAX.to_string()), 11),
                (s("self.val1 == self.val6"), 5),
                (s("type(self.val1) == int"), 4),
                (format!("self.val3 + 1 == {} + 1", i32::MAX), 5),
            ],
        },
        Case {
            name: "numbers",
            schema: schemas(&[t("number"), t("number"), f("number", "float"), f("number", "float"), f("number", "double"), f("number", "double"), f("number", "double")]),
            obj: objs(&[json!(f64::MAX), json!(f64::MAX), json!(max_f32), json!(max_f32), json!(f64::MAX), json!(f64::MAX), json!(1)]),
            costs: vec![
                (vals_equal("self.val1", "self.val2", &format!("{:.6}", f64::MAX)), 11),
                (s("self.val1 == self.val6"), 5),
                (s("type(self.val1) == double"), 4),
                (s("type(self.val7) == double"), 4),
                (s("self.val7 == 1.0"), 3),
            ],
        },
        Case {
            name: "numeric comparisons",
            schema: schemas(&[t("integer"), t("number"), f("number", "float"), f("number", "double"), t("number"), f("number", "float"), f("number", "double")]),
            obj: objs(&[json!(5), json!(10.0), json!(10.0), json!(10.0), json!(10), json!(10), json!(10)]),
            costs: vec![
                (s("double(self.val1) < self.val4"), 6),
                (s("self.val1 < int(self.val4)"), 6),
                (s("double(self.val1) < self.val5"), 6),
                (s("self.val1 < int(self.val5)"), 6),
                (s("double(self.val1) < self.val6"), 6),
                (s("self.val1 < int(self.val6)"), 6),
                (s("double(5) < 10.0"), 1),
                (s("5 < int(10.0)"), 1),
                (s("double(self.val1) < 10.0"), 4),
            ],
        },
        Case {
            name: "unicode strings",
            schema: schemas(&[t("string"), t("string")]),
            obj: objs(&[json!("Rook takes 👑"), json!("Rook takes 👑")]),
            costs: vec![
                (vals_equal("self.val1", "self.val2", "'Rook takes 👑'"), 14),
                (s("self.val1.startsWith('Rook')"), 3),
                (s("!self.val1.startsWith('knight')"), 4),
                (s("self.val1.matches('^[^0-9]*$')"), 8),
                (s("!self.val1.matches('^[0-9]*$')"), 7),
                (s("type(self.val1) == string"), 4),
                (s("size(self.val1) == 12"), 4),
                (s("self.val1.charAt(3) == 'k'"), 4),
                (s("self.val1.indexOf('o') == 1"), 4),
                (s("self.val1.indexOf('o', 2) == 2"), 4),
                (s("self.val1.replace(' ', 'x') == 'Rookxtakesx👑'"), 7),
                (s("self.val1.replace(' ', 'x', 1) == 'Rookxtakes 👑'"), 7),
                (s("self.val1.split(' ') == ['Rook', 'takes', '👑']"), 6),
                (s("self.val1.split(' ', 2) == ['Rook', 'takes 👑']"), 6),
                (s("self.val1.substring(5) == 'takes 👑'"), 5),
                (s("self.val1.substring(0, 4) == 'Rook'"), 5),
                (s("self.val1.substring(4, 10).trim() == 'takes'"), 6),
                (s("self.val1.upperAscii() == 'ROOK TAKES 👑'"), 6),
                (s("self.val1.lowerAscii() == 'rook takes 👑'"), 6),
                (s("self.val1.lowerAscii() == self.val1.lowerAscii()"), 10),
                (s("'%d %s %f %s %s'.format([1, 'abc', 1.0, duration('1m'), timestamp('2000-01-01T00:00:00.000Z')]) == '1 abc 1.000000 60s 2000-01-01T00:00:00Z'"), 6),
                // No spaces around ×: Kubernetes' golang.org/x/text prints none (1.33 to 1.37's
                // test; cel-go's own ext/formatting_test.go, at cel-go's pin, has narrow spaces).
                (s("'%e'.format([3.14]) == '3.140000×10⁰⁰'"), 3),
                (s("'%o %o %o'.format([7, 8, 9]) == '7 10 11'"), 2),
                (s("'%b %b %b'.format([7, 8, 9]) == '111 1000 1001'"), 3),
            ],
        },
        Case {
            name: "escaped strings",
            schema: schemas(&[t("string"), t("string")]),
            obj: objs(&[json!("l1\nl2"), json!("l1\nl2")]),
            costs: vec![(vals_equal("self.val1", "self.val2", "'l1\\nl2'"), 11), (s("self.val1 == '''l1\nl2'''"), 3)],
        },
        Case {
            name: "bytes",
            schema: schemas(&[f("string", "byte"), f("string", "byte")]),
            obj: objs(&[json!("QUI="), json!("QUI=")]),
            costs: vec![
                (s("self.val1 == self.val2"), 5),
                (s("self.val1 == b'AB'"), 3),
                (s("type(self.val1) == bytes"), 4),
                (s("size(self.val1) == 2"), 4),
            ],
        },
        Case {
            name: "booleans",
            schema: schemas(&[t("boolean"), t("boolean"), t("boolean"), t("boolean")]),
            obj: objs(&[json!(true), json!(true), json!(false), json!(false)]),
            costs: vec![
                (vals_equal("self.val1", "self.val2", "true"), 11),
                (s("self.val1 != self.val4"), 5),
                (s("type(self.val1) == bool"), 4),
            ],
        },
        Case {
            name: "duration format",
            schema: schemas(&[f("string", "duration"), f("string", "duration")]),
            obj: objs(&[json!("1h2m3s4ms"), json!("1h2m3s4ms")]),
            costs: vec![
                (vals_equal("self.val1", "self.val2", "duration('1h2m3s4ms')"), 11),
                (s("self.val1 == duration('1h2m') + duration('3s4ms')"), 4),
                (s("self.val1.getHours() == 1"), 4),
                (s("type(self.val1) == google.protobuf.Duration"), 4),
            ],
        },
        Case {
            name: "date format",
            schema: schemas(&[f("string", "date"), f("string", "date")]),
            obj: objs(&[json!("1997-07-16"), json!("1997-07-16")]),
            costs: vec![
                (vals_equal("self.val1", "self.val2", "timestamp('1997-07-16T00:00:00.000Z')"), 11),
                (s("self.val1.getDate() == 16"), 4),
                (s("type(self.val1) == google.protobuf.Timestamp"), 4),
            ],
        },
        Case {
            name: "date-time format",
            schema: schemas(&[f("string", "date-time"), f("string", "date-time")]),
            obj: objs(&[json!("2011-08-18T19:03:37.010000000+01:00"), json!("2011-08-18T19:03:37.010000000+01:00")]),
            costs: vec![
                (vals_equal("self.val1", "self.val2", "timestamp('2011-08-18T19:03:37.010+01:00')"), 11),
                (s("self.val1 == timestamp('2011-08-18T00:00:00.000+01:00') + duration('19h3m37s10ms')"), 4),
                (s("self.val1.getDate('01:00') == 18"), 4),
                (s("type(self.val1) == google.protobuf.Timestamp"), 4),
            ],
        },
        Case {
            name: "enums",
            schema: json!({"type": "object", "properties": {"enumStr": {"type": "string", "enum": ["Pending", "Available", "Bound", "Released", "Failed"]}}}),
            obj: json!({"enumStr": "Pending"}),
            costs: vec![(s("self.enumStr == 'Pending'"), 3), (s("self.enumStr in ['Pending', 'Available']"), 2)],
        },
        Case {
            name: "conversions",
            schema: schemas(&[
                t("integer"), t("number"), t("number"), t("number"), t("boolean"), t("string"), f("string", "byte"), t("string"),
                f("string", "duration"), t("string"), f("string", "date-time"), t("string"), f("string", "date"),
            ]),
            obj: objs(&[
                json!(10), json!(10.0), json!(10.49), json!(10.5), json!(true), json!("10"), json!("MTA="), json!("3723.004s"),
                json!("1h2m3s4ms"), json!("2011-08-18T19:03:37.01+01:00"), json!("2011-08-18T19:03:37.01+01:00"),
                json!("2011-08-18T00:00:00Z"), json!("2011-08-18"),
            ]),
            costs: vec![
                (s("int(self.val2) == self.val1"), 6),
                (s("double(self.val1) == self.val2"), 6),
                (s("bytes(self.val6) == self.val7"), 6),
                (s("string(self.val1) == self.val6"), 6),
                (s("string(self.val4) == '10.5'"), 4),
                (s("string(self.val7) == self.val6"), 6),
                (s("duration(self.val8) == self.val9"), 6),
                (s("timestamp(self.val10) == self.val11"), 6),
                (s("string(self.val11) == self.val10"), 8),
                (s("timestamp(self.val12) == self.val13"), 6),
                (s("string(self.val13) == self.val12"), 7),
            ],
        },
        Case {
            name: "lists",
            schema: schemas(&[list(t("integer")), list(t("integer"))]),
            obj: objs(&[json!([1, 2, 3]), json!([1, 2, 3])]),
            costs: vec![
                (vals_equal("self.val1", "self.val2", "[1, 2, 3]"), 11),
                (s("1 in self.val1"), 5),
                (s("self.val2[0] in self.val1"), 8),
                (s("!(0 in self.val1)"), 6),
                (s("self.val1 + self.val2 == [1, 2, 3, 1, 2, 3]"), 6),
                (s("self.val1 + [4, 5] == [1, 2, 3, 4, 5]"), 4),
                (s("has(self.val1)"), 1),
                (s("has(self.val1) && has(self.val2)"), 2),
            ],
        },
        Case {
            name: "listSets",
            schema: schemas(&[set_of(t("string")), set_of(t("string")), set_of(t("integer"))]),
            obj: objs(&[json!(["a", "b", "c"]), json!(["a", "c", "b"]), Json::Array((0..1000).map(Json::from).collect())]),
            costs: vec![
                (s("self.val1 == ['c', 'b', 'a']"), 3),
                (s("self.val1 == self.val2"), 5),
                (s("'a' in self.val1"), 5),
                (s("self.val2[0] in self.val1"), 8),
                (s("!('x' in self.val1)"), 6),
                (s("self.val1 + self.val2 == ['a', 'b', 'c']"), 6),
                (s("self.val1 + ['c', 'd'] == ['a', 'b', 'c', 'd']"), 4),
                (s("sets.contains(self.val1, ['a'])"), 6),
                (s("sets.equivalent(self.val1, ['a', 'b', 'c'])"), 21),
                (s("sets.intersects(self.val1, ['a'])"), 6),
                (s("sets.contains(self.val3, [1])"), 1003),
                (s("!sets.equivalent(self.val3, [1, 2, 3])"), 6004),
                (s("sets.intersects(self.val3, [1])"), 1003),
            ],
        },
        Case {
            name: "listMaps",
            schema: json!({"type": "object", "properties": {"objs": list(json!({"type": "array", "x-kubernetes-list-type": "map",
                "x-kubernetes-list-map-keys": ["k"], "items": {"type": "object", "properties": {"k": t("string"), "v": t("string")}}}))}}),
            obj: json!({"objs": [
                [{"k": "a", "v": "1"}, {"k": "b", "v": "2"}],
                [{"k": "b", "v": "2"}, {"k": "a", "v": "1"}],
                [{"k": "b", "v": "3"}, {"k": "a", "v": "1"}],
                [{"k": "c", "v": "4"}]
            ]}),
            costs: vec![
                (s("self.objs[0] == self.objs[1]"), 7),
                (s("self.objs[0] + self.objs[2] == self.objs[2]"), 11),
                (s("self.objs[2] + self.objs[0] == self.objs[0]"), 11),
                (s("self.objs[0] == [self.objs[0][0], self.objs[0][1]]"), 22),
                (s("self.objs[0] == [self.objs[0][1], self.objs[0][0]]"), 22),
                (s("self.objs[2] + [self.objs[0][0], self.objs[0][1]] == self.objs[0]"), 26),
                (s("size(self.objs[0] + [self.objs[3][0]]) == 3"), 20),
            ],
        },
        Case {
            name: "maps",
            schema: schemas(&[map_of(t("string")), map_of(t("string"))]),
            obj: objs(&[json!({"k1": "a", "k2": "b"}), json!({"k2": "b", "k1": "a"})]),
            costs: vec![
                (s("self.val1 == self.val2"), 5),
                (s("'k1' in self.val1"), 3),
                (s("!('k3' in self.val1)"), 4),
                (s("self.val1 == {'k1': 'a', 'k2': 'b'}"), 3),
            ],
        },
        Case {
            name: "objects",
            schema: json!({"type": "object", "properties": {"objs": list(json!({"type": "object", "properties": {"f1": t("string"), "f2": t("string")}}))}}),
            obj: json!({"objs": [{"f1": "a", "f2": "b"}, {"f1": "a", "f2": "b"}]}),
            costs: vec![(s("self.objs[0] == self.objs[1]"), 7)],
        },
        Case {
            name: "object access",
            schema: json!({"type": "object", "properties": {
                "a": {"type": "object", "properties": {"b": t("integer"), "c": t("integer"), "d": {"type": "integer", "nullable": true}}},
                "a1": {"type": "object", "properties": {
                    "b1": {"type": "object", "properties": {"c1": t("integer")}},
                    "d2": {"type": "object", "properties": {"e2": t("integer")}}
                }}
            }}),
            obj: json!({"a": {"b": 1, "d": null}, "a1": {"b1": {"c1": 4}}, "a3": {}}),
            costs: vec![
                (s("has(self.a.b)"), 2),
                (s("has(self.a1.b1.c1)"), 3),
                (s("!(has(self.a1.d2) && has(self.a1.d2.e2))"), 3),
                (s("!has(self.a1.d2)"), 3),
            ],
        },
        Case {
            name: "map access",
            schema: json!({"type": "object", "properties": {"val": map_of(t("integer"))}}),
            obj: json!({"val": {"b": 1, "d": 2}}),
            costs: vec![
                (s("!('a' in self.val)"), 4),
                (s("'b' in self.val"), 3),
                (s("!('c' in self.val)"), 4),
                (s("'d' in self.val"), 3),
                (s("!has(self.val.a)"), 3),
                (s("has(self.val.b)"), 2),
                (s("!has(self.val.c)"), 3),
                (s("has(self.val.d)"), 2),
                (s("self.val.all(k, self.val[k] > 0)"), 17),
                (s("!self.val.exists(k, self.val[k] == 3)"), 20),
                (s("self.val.exists_one(k, self.val[k] == 2)"), 14),
                (s("!self.val.exists_one(k, self.val[k] > 0)"), 17),
                (s("size(self.val) == 2"), 4),
                (s("size(self.val.filter(k, self.val[k] > 1)) == 1"), 26),
                (s("self.val.all(k, v, v > 0)"), 13),
                (s("!self.val.exists(k, v, v == 3)"), 16),
                (s("self.val.existsOne(k, v, v == 2)"), 10),
                (s("self.val.transformMap(k, v, v > 1, v + 1).size() == 1"), 14),
                (s("self.val.transformMap(k, v, v + 1).size() == 2"), 15),
                (s("self.val.transformMapEntry(k, v, v > 1, {k + '2': v + 1}).size() == 1"), 45),
                (s("self.val.transformMapEntry(k, v, {k + '2': v + 1}).size() == 2"), 77),
            ],
        },
        Case {
            name: "list access",
            schema: json!({"type": "object", "properties": {"array": list(t("integer"))}}),
            obj: json!({"array": [1, 1, 2, 2, 3, 3, 4, 5]}),
            costs: vec![
                (s("2 in self.array"), 10),
                (s("self.array.all(e, e > 0)"), 43),
                (s("self.array.exists(e, e > 2)"), 36),
                (s("self.array.exists_one(e, e > 4)"), 22),
                (s("!self.array.all(e, e < 2)"), 21),
                (s("!self.array.exists(e, e < 0)"), 52),
                (s("!self.array.exists_one(e, e == 2)"), 25),
                (s("self.array.all(e, e < 100)"), 43),
                (s("size(self.array.filter(e, e%2 == 0)) == 3"), 68),
                (s("self.array.map(e, e * 20).filter(e, e > 50).exists(e, e == 60)"), 194),
                (s("size(self.array) == 8"), 4),
                (s("self.array.all(i, e, e > 0)"), 43),
                (s("self.array.exists(i, e, e > 2)"), 36),
                (s("self.array.existsOne(i, e, e > 4)"), 22),
                (s("self.array.transformList(i, e, e > 2, e * 2).size() > 0"), 77),
                (s("self.array.transformList(i, e, e * 2).size() > 0"), 117),
            ],
        },
        Case {
            name: "quantity",
            schema: schemas(&[t("string"), t("string")]),
            obj: objs(&[json!("20"), json!("200M")]),
            costs: vec![
                (s("isQuantity(self.val1)"), 3),
                (s("isQuantity(self.val2)"), 3),
                (s("isQuantity(\"200M\")"), 1),
                (s("isQuantity(\"20Mi\")"), 1),
                (s("quantity(\"200M\") == quantity(\"0.2G\") && quantity(\"0.2G\") == quantity(\"200M\")"), 6),
                (s("quantity(self.val1).isLessThan(quantity(self.val2))"), 7),
                (s("quantity(\"50M\").isLessThan(quantity(\"100M\"))"), 3),
                (s("quantity(\"200M\").compareTo(quantity(\"0.2G\")) == 0"), 4),
                (s("quantity(\"50k\").add(quantity(\"20\")) == quantity(\"50.02k\")"), 5),
                (s("quantity(\"50\").isInteger()"), 2),
                (s("quantity(self.val1).isInteger()"), 4),
                (s(r#"quantity("2M") == quantity("0.002G") && quantity("2000k") == quantity("2M") && quantity("0.002G") == quantity("2000k")"#), 9),
                (s(r#"quantity("50Mi").isGreaterThan(quantity("50M"))"#), 3),
                (s(r#"quantity("50k").sub(20) == quantity("49980")"#), 4),
            ],
        },
        Case {
            name: "listMap access",
            schema: json!({"type": "object", "properties": {"listMap": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k"], "items": {"type": "object", "properties": {"k": t("string"), "v": t("string"), "v2": t("string")}}}}}),
            obj: json!({"listMap": [{"k": "a1", "v": "b1"}, {"k": "a2", "v": "b2"}, {"k": "a3", "v": "b3", "v2": "z"}]}),
            costs: vec![
                (s("has(self.listMap[0].v)"), 3),
                (s("self.listMap.all(m, m.k.startsWith('a'))"), 21),
                (s("self.listMap.all(m, !has(m.v2) || m.v2 == 'z')"), 21),
                (s("self.listMap.exists(m, m.k.endsWith('1'))"), 13),
                (s("self.listMap.exists_one(m, m.k == 'a3')"), 15),
                (s("!self.listMap.all(m, m.k.endsWith('1'))"), 18),
                (s("!self.listMap.exists(m, m.v == 'x')"), 25),
                (s("!self.listMap.exists_one(m, m.k.startsWith('a'))"), 20),
                (s("size(self.listMap.filter(m, m.k == 'a1')) == 1"), 27),
                (s("self.listMap.exists(m, m.k == 'a1' && m.v == 'b1')"), 16),
                (s("self.listMap.map(m, m.v).exists(v, v == 'b1')"), 55),
                (s("self.listMap.exists(m, has(m.v2) && m.v2 == 'z')"), 21),
                (s("!self.listMap.all(m, has(m.v2) && m.v2 != 'z')"), 10),
                (s("self.listMap.exists_one(m, has(m.v2) && m.v2 == 'z')"), 12),
                (s("self.listMap.filter(m, has(m.v2) && m.v2 == 'z').size() == 1"), 24),
                (s("self.listMap.map(m, has(m.v2) && m.v2 == 'z', m.v2).size() == 1"), 25),
                (s("self.listMap.filter(m, has(m.v2) && m.v2 == 'z').map(m, m.v2).size() == 1"), 39),
                (s("self.listMap.exists(m, m.v2 == 'z')"), 24),
                (s("!self.listMap.all(m, m.v2 != 'z')"), 22),
                (s("!self.listMap.all(i, m, has(m.v2) && m.v2 != 'z')"), 10),
                (s("self.listMap.exists(i, m, has(m.v2) && m.v2 == 'z')"), 21),
                (s("self.listMap.existsOne(i, m, has(m.v2) && m.v2 == 'z')"), 12),
                (s("self.listMap.transformList(i, m, has(m.v2) && m.v2 == 'z', m.v2).size() == 1"), 25),
                (s("self.listMap.transformList(i, m, m.v).size() == 3"), 47),
            ],
        },
        Case {
            name: "listSet access",
            schema: json!({"type": "object", "properties": {"set": list(t("integer"))}}) /* Go: listType (atomic), not listSetType */,
            obj: json!({"set": [1, 2, 3, 4, 5]}),
            costs: vec![
                (s("3 in self.set"), 7),
                (s("self.set.all(e, e > 0)"), 28),
                (s("self.set.exists(e, e > 3)"), 30),
                (s("self.set.exists_one(e, e == 3)"), 16),
                (s("!self.set.all(e, e < 3)"), 21),
                (s("!self.set.exists(e, e < 0)"), 34),
                (s("!self.set.exists_one(e, e > 3)"), 19),
                (s("self.set.all(e, e < 10)"), 28),
                (s("size(self.set.filter(e, e%2 == 0)) == 2"), 46),
                (s("self.set.map(e, e * 20).filter(e, e > 50).exists_one(e, e == 60)"), 133),
                (s("size(self.set) == 5"), 4),
            ],
        },
        Case {
            name: "container type composition",
            schema: json!({"type": "object", "properties": {
                "obj": {"type": "object", "properties": {"field": t("string")}},
                "mapOfMap": map_of(map_of(t("string"))),
                "mapOfObj": map_of(json!({"type": "object", "properties": {"field2": t("string")}})),
                "mapOfListMap": map_of(json!({"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k"], "items": {"type": "object", "properties": {"k": t("string"), "v": t("string")}}})),
                "mapOfList": map_of(list(t("string"))),
                "listMapOfObj": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k2"], "items": {"type": "object", "properties": {"k2": t("string"), "v2": t("string")}}},
                "listOfMap": list(map_of(t("string"))),
                "listOfObj": list(json!({"type": "object", "properties": {"field3": t("string")}})),
                "listOfListMap": list(json!({"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k3"], "items": {"type": "object", "properties": {"k3": t("string"), "v3": t("string")}}}))}}),
            obj: json!({
                "obj": {"field": "a"}, "mapOfMap": {"x": {"y": "b"}}, "mapOfObj": {"k": {"field2": "c"}},
                "mapOfListMap": {"o": [{"k": "1", "v": "d"}]}, "mapOfList": {"l": ["e"]}, "listMapOfObj": [{"k2": "2", "v2": "f"}],
                "listOfMap": [{"z": "g"}], "listOfObj": [{"field3": "h"}], "listOfListMap": [[{"k3": "3", "v3": "i"}]]}),
            costs: vec![
                (s("self.obj.field == 'a'"), 4),
                (s("self.mapOfMap['x']['y'] == 'b'"), 5),
                (s("self.mapOfObj['k'].field2 == 'c'"), 5),
                (s("self.mapOfListMap['o'].exists(e, e.k == '1' && e.v == 'd')"), 14),
                (s("self.mapOfList['l'][0] == 'e'"), 5),
                (s("self.listMapOfObj.exists(e, e.k2 == '2' && e.v2 == 'f')"), 13),
                (s("self.listOfMap[0]['z'] == 'g'"), 5),
                (s("self.listOfObj[0].field3 == 'h'"), 5),
                (s("self.listOfListMap[0].exists(e, e.k3 == '3' && e.v3 == 'i')"), 14),
                (s("self.mapOfMap.map(k, k).map(k, k).size() == 1"), 32),
                (s("self.mapOfListMap.map(k, k).map(k, k).size() == 1"), 32),
                (s("self.mapOfList.map(k, k).map(k, k).size() == 1"), 32),
                (s("self.listOfMap.map(e, e).map(e, e).size() == 1"), 32),
                (s("self.listOfListMap.map(e, e).map(e, e).size() == 1"), 32),
                (s("self.mapOfMap.map(k, self.mapOfMap[k].map(m, m)).size() == 1"), 34),
                (s("self.mapOfListMap.map(k, self.mapOfListMap[k].map(m, m)).size() == 1"), 34),
                (s("self.mapOfList.map(k, self.mapOfList[k].map(l, l)).size() == 1"), 34),
                (s("self.listOfMap.map(e, e.map(m, m)).size() == 1"), 32),
                (s("self.listOfListMap.map(e, e.map(e, e)).size() == 1"), 32),
            ],
        },
        Case {
            name: "ext lists version 3",
            schema: schemas(&[list(t("integer")), list(t("integer"))]),
            obj: objs(&[json!([1, 2, 3]), json!([1, 2, 3])]),
            costs: vec![
                (s("lists.range(4) == [0,1,2,3]"), 16),
                (s("lists.range(0) == []"), 11),
                (s("[5,1,2,3].reverse() == [3,2,1,5]"), 16),
                (s("[].reverse() == []"), 11),
                (s("[1].reverse() == [1]"), 13),
                (s("['are', 'you', 'as', 'bored', 'as', 'I', 'am'].reverse() == ['am', 'I', 'as', 'bored', 'as', 'you', 'are']"), 19),
                (s("[false, true, true].reverse().reverse() == [false, true, true]"), 29),
                (s("[1,2,3,4].slice(0, 4) == [1,2,3,4]"), 16),
                (s("[1,2,3,4].slice(0, 0) == []"), 11),
                (s("[1,2,3,4].slice(1, 1) == []"), 11),
                (s("[1,2,3,4].slice(4, 4) == []"), 11),
                (s("[1,2,3,4].slice(1, 3) == [2, 3]"), 14),
                (s("dyn([]).flatten() == []"), 11),
                (s("dyn([1,2,3,4]).flatten() == [1,2,3,4]"), 16),
                (s("[].sort() == []"), 11),
                (s("[1].sort() == [1]"), 14),
                (s("[4, 3, 2, 1].sort() == [1, 2, 3, 4]"), 44),
                (s(r#"["d", "a", "b", "c"].sort() == ["a", "b", "c", "d"]"#), 45),
                (s("[].sortBy(e, e) == []"), 14),
                (s(r#"["a"].sortBy(e, e) == ["a"]"#), 30),
                (s("[-3, 1, -5, -2, 4].sortBy(e, -(e * e)) == [-5, 4, -3, -2, 1]"), 145),
                (s("[-3, 1, -5, -2, 4].map(e, e * 2).sortBy(e, -(e * e)) == [-10, 8, -6, -4, 2]"), 216),
                (s("lists.range(3).sortBy(e, -e) == [2, 1, 0]"), 89),
                (s(r#"["a", "c", "b", "first"].sortBy(e, e == "first" ? "" : e) == ["first", "a", "b", "c"]"#), 104),
                (s("[{'name': 'foo'}, {'name': 'bar'}, {'name': 'baz'}].sortBy(e, e.name) == [{'name': 'bar'}, {'name': 'baz'}, {'name': 'foo'}]"), 75),
                (s("[].distinct() == []"), 11),
                (s("[1].distinct() == [1]"), 14),
                (s("[-2, 5, -2, 1, 1, 5, -2, 1].distinct() == [-2, 5, 1]"), 140),
                (s("['c', 'a', 'a', 'b', 'a', 'b', 'c', 'c'].distinct() == ['c', 'a', 'b']"), 146),
                (s("[[1], [1], [2]].distinct() == [[1], [2]]"), 30),
                (s("[{'name': 'a'}, {'name': 'b'}, {'name': 'a'}].distinct() == [{'name': 'a'}, {'name': 'b'}]"), 30),
            ],
        },
        Case {
            name: "percent comparison using intOrString",
            schema: json!({"type": "object", "properties": {"min": {"x-kubernetes-int-or-string": true}, "current": t("integer"), "available": t("integer")}}),
            obj: json!({"min": "50%", "current": 5, "available": 10}),
            costs: vec![
                (s(r#"type(self.min) == string && self.min.matches(r'(\d+(\.\d+)?%)')"#), 10),
                (s("type(self.min) == int ? self.current <= self.min : double(self.current) / double(self.available) >= double(self.min.replace('%', '')) / 100.0"), 17),
            ],
        },
        Case {
            name: "optionals",
            schema: json!({"type": "object", "properties": {
                "obj": {"type": "object", "properties": {"field": t("string"), "absentField": t("string")}},
                "m": map_of(t("string")), "l": list(t("string"))}}),
            obj: json!({"obj": {"field": "a"}, "m": {"k": "v"}, "l": ["a"]}),
            costs: vec![
                (s("optional.of('a') != optional.of('b')"), 3),
                (s("optional.of('a') != optional.none()"), 3),
                (s("optional.of('a').hasValue()"), 2),
                (s("optional.of('a').or(optional.of('a')).hasValue()"), 2),
                (s("optional.none().or(optional.of('a')).hasValue()"), 3),
                (s("optional.of('a').optMap(v, v == 'value').hasValue()"), 8),
                (s("self.obj.?field == optional.of('a')"), 5),
                (s("self.obj.?absentField == optional.none()"), 4),
                (s("self.obj.?field.orValue('v') == 'a'"), 4),
                (s("self.m[?'k'] == optional.of('v')"), 5),
                (s("self.l[?0] == optional.of('a')"), 5),
                (s("optional.ofNonZeroValue(1).hasValue()"), 2),
            ],
        },
        Case {
            name: "string in intOrString",
            schema: json!({"type": "object", "properties": {"something": {"x-kubernetes-int-or-string": true}}}),
            obj: json!({"something": "25%"}),
            costs: vec![
                (s("type(self.something) == int ? self.something == 1 : self.something == '25%'"), 7),
                (s("type(self.something) == string && self.something == '25%'"), 7),
                (s("self.something == '25%'"), 3),
                (s("self.something != 1"), 3),
                (s("self.something == 1 || self.something == '25%'"), 6),
                (s("self.something == '25%' || self.something == 1"), 3),
                (s("self.something != ['anything']"), 3),
            ],
        },
        Case {
            name: "int in intOrString",
            schema: json!({"type": "object", "properties": {"something": {"x-kubernetes-int-or-string": true}}}),
            obj: json!({"something": 1}),
            costs: vec![
                (s("type(self.something) == int ? self.something == 1 : self.something == '25%'"), 7),
                (s("type(self.something) == int && self.something == 1"), 7),
                (s("self.something == 1"), 3),
                (s("self.something != 'some string'"), 3),
                (s("self.something == 1 || self.something == '25%'"), 3),
                (s("self.something == '25%' || self.something == 1"), 6),
                (s("self.something != ['anything']"), 3),
            ],
        },
        Case {
            name: "null in intOrString",
            schema: json!({"type": "object", "properties": {"something": {"x-kubernetes-int-or-string": true, "nullable": true}}}),
            obj: json!({"something": null}),
            costs: vec![
                (s("!has(self.something)"), 2),
            ],
        },
        Case {
            name: "object types are not accessible",
            schema: json!({"type": "object", "properties": {
                "nestedInMap": map_of(json!({"type": "object", "properties": {"inMapField": t("integer")}})),
                "nestedInList": list(json!({"type": "object", "properties": {"inListField": t("integer")}}))}}),
            obj: json!({"nestedInMap": {"k1": {"inMapField": 1}, "k2": {"inMapField": 2}}, "nestedInList": [{"inListField": 1}, {"inListField": 2}]}),
            costs: vec![
                (s("type(self) == type(self)"), 5),
                (s("type(self.nestedInMap['k1']) == type(self.nestedInMap['k2'])"), 9),
            ],
        },
        Case {
            name: "listMaps with unsupported identity characters in property names",
            schema: json!({"type": "object", "properties": {"objs": list(json!({"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k!", "k."],
                "items": {"type": "object", "properties": {"k!": t("string"), "k.": t("string")}}}))}}),
            obj: json!({"objs": [
                [{"k!": "a", "k.": "1"}, {"k!": "b", "k.": "2"}],
                [{"k!": "b", "k.": "2"}, {"k!": "a", "k.": "1"}],
                [{"k!": "b", "k.": "2"}, {"k!": "c", "k.": "1"}],
                [{"k!": "b", "k.": "2"}, {"k!": "a", "k.": "3"}]
            ]}),
            costs: vec![
                (s("self.objs[0] == self.objs[1]"), 7),
                (s("self.objs[0][0].k__dot__ == '1'"), 6),
            ],
        },
        Case {
            name: "typemeta and objectmeta access specified",
            schema: json!({"type": "object", "properties": {"kind": t("string"), "apiVersion": t("string"),
                "metadata": {"type": "object", "properties": {"name": t("string"), "generateName": t("string")}}}}),
            obj: json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "foo", "generateName": "pickItForMe", "namespace": "xyz"}}),
            costs: vec![
                (s("self.kind == 'Pod'"), 3),
                (s("self.apiVersion == 'v1'"), 3),
                (s("self.metadata.name == 'foo'"), 4),
                (s("self.metadata.generateName == 'pickItForMe'"), 5),
            ],
        },
        Case {
            name: "typemeta and objectmeta access not specified",
            schema: json!({"type": "object", "properties": {"spec": {"type": "object", "properties": {"field1": t("string")}}}}),
            obj: json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "foo", "generateName": "pickItForMe", "namespace": "xyz"}, "spec": {"field1": "a"}}),
            costs: vec![
                (s("self.kind == 'Pod'"), 3),
                (s("self.apiVersion == 'v1'"), 3),
                (s("self.metadata.name == 'foo'"), 4),
                (s("self.metadata.generateName == 'pickItForMe'"), 5),
                (s("self.spec.field1 == 'a'"), 4),
            ],
        },
        Case {
            name: "embedded object",
            schema: json!({"type": "object", "properties": {"embedded": {"type": "object", "x-kubernetes-embedded-resource": true}}}),
            obj: json!({"embedded": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "foo", "generateName": "pickItForMe", "namespace": "xyz"}, "spec": {"field1": "a"}}}),
            costs: vec![
                (s("self.embedded.kind == 'Pod'"), 4),
                (s("self.embedded.apiVersion == 'v1'"), 4),
                (s("self.embedded.metadata.name == 'foo'"), 5),
                (s("self.embedded.metadata.generateName == 'pickItForMe'"), 6),
            ],
        },
        Case {
            name: "embedded object with properties",
            schema: json!({"type": "object", "properties": {"embedded": {"type": "object", "x-kubernetes-embedded-resource": true, "properties": {
                "kind": t("string"), "apiVersion": t("string"),
                "metadata": {"type": "object", "properties": {"name": t("string"), "generateName": t("string")}},
                "spec": {"type": "object", "properties": {"field1": t("string")}}}}}}),
            obj: json!({"embedded": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "foo", "generateName": "pickItForMe", "namespace": "xyz"}, "spec": {"field1": "a"}}}),
            costs: vec![
                (s("self.embedded.kind == 'Pod'"), 4),
                (s("self.embedded.apiVersion == 'v1'"), 4),
                (s("self.embedded.metadata.name == 'foo'"), 5),
                (s("self.embedded.metadata.generateName == 'pickItForMe'"), 6),
                (s("self.embedded.spec.field1 == 'a'"), 5),
            ],
        },
        Case {
            name: "embedded object with preserve unknown",
            schema: json!({"type": "object", "properties": {"embedded": {"type": "object", "x-kubernetes-preserve-unknown-fields": true, "x-kubernetes-embedded-resource": true}}}),
            obj: json!({"embedded": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "foo", "generateName": "pickItForMe", "namespace": "xyz"}, "spec": {"field1": "a"}}}),
            costs: vec![
                (s("self.embedded.kind == 'Pod'"), 4),
                (s("self.embedded.apiVersion == 'v1'"), 4),
                (s("self.embedded.metadata.name == 'foo'"), 5),
                (s("self.embedded.metadata.generateName == 'pickItForMe'"), 6),
                (s("has(self.embedded)"), 1),
            ],
        },
        Case {
            name: "preserve unknown fields",
            schema: json!({"type": "object", "properties": {
                "withUnknown": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
                "withUnknownList": list(json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true})),
                "withUnknownFieldList": list(json!({"type": "object", "properties": {"fieldOfUnknownType": {"x-kubernetes-preserve-unknown-fields": true}}})),
                "anyvalList": list(json!({"x-kubernetes-preserve-unknown-fields": true})),
                "anyvalMap": map_of(json!({"x-kubernetes-preserve-unknown-fields": true})),
                "anyvalField1": {"x-kubernetes-preserve-unknown-fields": true},
                "anyvalField2": {"x-kubernetes-preserve-unknown-fields": true}}}),
            obj: json!({
                "withUnknown": {"field1": "a", "field2": "b"},
                "withUnknownList": [{"field1": "a", "field2": "b"}, {"field1": "x", "field2": "y"}, {"field1": "x", "field2": "y"}, {}, {}],
                "withUnknownFieldList": [{"fieldOfUnknownType": "a"}, {"fieldOfUnknownType": 1}, {"fieldOfUnknownType": 1}],
                "anyvalList": ["a", 2], "anyvalMap": {"k": "1"}, "anyvalField1": 1, "anyvalField2": "a"}),
            costs: vec![
                (s("has(self.withUnknown)"), 1),
                (s("self.withUnknownList.size() == 5"), 4),
                (s("self.withUnknownList[0] != self.withUnknownList[1]"), 7),
                (s("self.withUnknownList[1] == self.withUnknownList[2]"), 7),
                (s("self.withUnknownList[3] == self.withUnknownList[4]"), 6),
                (s("self.withUnknownFieldList[0] != self.withUnknownFieldList[1]"), 7),
                (s("self.withUnknownFieldList[1] == self.withUnknownFieldList[2]"), 7),
            ],
        },
        Case {
            name: "known and unknown fields",
            schema: json!({"type": "object", "properties": {
                "withUnknown": {"type": "object", "x-kubernetes-preserve-unknown-fields": true, "properties": {"known": t("integer")}},
                "withUnknownList": list(json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true, "properties": {"known": t("integer")}}))}}),
            obj: json!({"withUnknown": {"known": 1, "unknown": "a"}, "withUnknownList": [
                {"known": 1, "unknown": "a"}, {"known": 1, "unknown": "b"}, {"known": 1, "unknown": "b"}, {"known": 1}, {"known": 1}, {"known": 2}]}),
            costs: vec![
                (s("self.withUnknown.known == 1"), 4),
                (s("self.withUnknownList[1] == self.withUnknownList[2]"), 7),
                (s("self.withUnknownList[0] != self.withUnknownList[1]"), 7),
                (s("self.withUnknownList[0] != self.withUnknownList[3]"), 7),
                (s("self.withUnknownList[0] != self.withUnknownList[5]"), 7),
                (s("self.withUnknownList[3] == self.withUnknownList[4]"), 7),
                (s("self.withUnknownList[4] != self.withUnknownList[5]"), 7),
            ],
        },
        Case {
            name: "field nullability",
            schema: json!({"type": "object", "properties": {
                "unsetPlainStr": t("string"), "unsetDefaultedStr": {"type": "string", "default": "default value"}, "unsetNullableStr": {"type": "string", "nullable": true},
                "setPlainStr": t("string"), "setDefaultedStr": {"type": "string", "default": "default value"}, "setNullableStr": {"type": "string", "nullable": true},
                "setToNullNullableStr": {"type": "string", "nullable": true}}}),
            // Go fakes the defaulter: unsetDefaultedStr is set to its default in the object.
            obj: json!({"setPlainStr": "v1", "setDefaultedStr": "v2", "setNullableStr": "v3", "setToNullNullableStr": null, "unsetDefaultedStr": "default value"}),
            costs: vec![
                (s("!has(self.unsetPlainStr)"), 2),
                (s("has(self.unsetDefaultedStr) && self.unsetDefaultedStr == 'default value'"), 5),
                (s("!has(self.unsetNullableStr)"), 2),
                (s("has(self.setPlainStr) && self.setPlainStr == 'v1'"), 4),
                (s("has(self.setDefaultedStr) && self.setDefaultedStr == 'v2'"), 4),
                (s("has(self.setNullableStr) && self.setNullableStr == 'v3'"), 4),
                (s("type(self.setNullableStr) != null_type"), 4),
                (s("!has(self.setToNullNullableStr)"), 2),
            ],
        },
        Case {
            name: "null values in container types",
            schema: json!({"type": "object", "properties": {"m": map_of(json!({"type": "string", "nullable": true})), "l": list(json!({"type": "string", "nullable": true})), "s": set_of(json!({"type": "string", "nullable": true}))}}),
            obj: json!({"m": {"a": null, "b": "not-nil"}, "l": [null, "not-nil"], "s": [null, "not-nil"]}),
            costs: vec![
                (s("self.m.size() == 2"), 4),
                (s("'a' in self.m"), 3),
                (s("type(self.m['a']) == null_type"), 5),
            ],
        },
    ]
}

#[test]
fn crd_rule_runtime_costs_match_kubernetes() {
    let mut failures = Vec::new();
    let mut total = 0;
    for case in cases() {
        for (rule, want) in &case.costs {
            total += 1;
            match runtime_cost(&case.schema, &case.obj, rule) {
                Ok(cost) if cost == *want => {}
                Ok(cost) => failures.push(format!("[{}] {rule}: cost {cost}, Kubernetes says {want}", case.name)),
                Err(e) => failures.push(format!("[{}] {rule}: {e}", case.name)),
            }
        }
    }
    assert!(total >= 329, "the table lost cases ({total})");
    assert!(failures.is_empty(), "{} of {total} differ:\n{}", failures.len(), failures.join("\n"));
}
