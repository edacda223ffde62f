//! The static cost estimate of validation rules, as Kubernetes computes it when a CRD is
//! written: each expectation is from apiextensions-apiserver
//! `pkg/apiserver/schema/cel/celcoststability_test.go` (`TestCelEstimatedCostStability`), with
//! the schemas of its cases. Unbounded strings, lists and maps are sized from the 3 MiB request
//! limit, so the numbers are large.

use kubedv_core::cel::estimate::{estimate, sized_type};
use kubedv_core::cel::Program;
use serde_json::{json, Value as Json};

mod common;
use common::{f, list, map_of, schemas, t, vals_equal};

/// A case: its name, the schema of `self`, and rules with their estimated costs.
type Case = (&'static str, Json, Vec<(String, u64)>);

fn estimated(schema: &Json, rule: &str) -> Result<u64, String> {
    let program = Program::compile(rule).map_err(|e| e.to_string())?;
    let sized = sized_type(schema).ok_or("schema has no CEL type")?;
    Ok(estimate(&program, &[("self", sized)]).max)
}

#[test]
fn estimated_costs_match_kubernetes() {
    let s = |x: &str| String::from(x);
    let cases: Vec<Case> = vec![
        (
            "integers",
            schemas(&[
                t("integer"),
                t("integer"),
                f("integer", "int32"),
                f("integer", "int32"),
                f("integer", "int64"),
                f("integer", "int64"),
            ]),
            vec![
                (vals_equal("self.val1", "self.val2", &i64::MAX.to_string()), 8),
                (s("self.val1 == self.val6"), 4),
                (s("type(self.val1) == int"), 4),
            ],
        ),
        (
            "numbers",
            schemas(&[
                t("number"),
                t("number"),
                f("number", "float"),
                f("number", "float"),
                f("number", "double"),
                f("number", "double"),
                f("number", "double"),
            ]),
            vec![
                (s("self.val1 == self.val6"), 4),
                (s("type(self.val1) == double"), 4),
                (s("type(self.val7) == double"), 4),
                (s("self.val7 == 1.0"), 2),
            ],
        ),
        (
            "numeric comparisons",
            schemas(&[
                t("integer"),
                t("number"),
                f("number", "float"),
                f("number", "double"),
                t("number"),
                f("number", "float"),
                f("number", "double"),
            ]),
            vec![
                (s("double(self.val1) < self.val4"), 6),
                (s("self.val1 < int(self.val4)"), 6),
                (s("double(5) < 10.0"), 2),
                (s("5 < int(10.0)"), 2),
                (s("double(self.val1) < 10.0"), 4),
            ],
        ),
        (
            "unicode strings",
            schemas(&[t("string"), t("string")]),
            vec![
                (vals_equal("self.val1", "self.val2", "'Rook takes 👑'"), 314585),
                (s("self.val1.startsWith('Rook')"), 3),
                (s("!self.val1.startsWith('knight')"), 4),
                (s("self.val1.matches('^[^0-9]*$')"), 943721),
                (s("!self.val1.matches('^[0-9]*$')"), 629149),
                (s("type(self.val1) == string"), 4),
                (s("size(self.val1) == 12"), 4),
                (s("self.val1.charAt(3) == 'k'"), 4),
                (s("self.val1.indexOf('o') == 1"), 314576),
                (s("self.val1.indexOf('o', 2) == 2"), 314576),
                (s("self.val1.replace(' ', 'x') == 'Rookxtakesx👑'"), 629150),
                (s("self.val1.replace(' ', 'x', 1) == 'Rookxtakes 👑'"), 629150),
                (s("self.val1.split(' ') == ['Rook', 'takes', '👑']"), 629159),
                (s("self.val1.split(' ', 2) == ['Rook', 'takes 👑']"), 629159),
                (s("self.val1.substring(5) == 'takes 👑'"), 314576),
                (s("self.val1.substring(0, 4) == 'Rook'"), 314576),
                (s("self.val1.substring(4, 10).trim() == 'takes'"), 629149),
                (s("self.val1.upperAscii() == 'ROOK TAKES 👑'"), 314577),
                (s("self.val1.lowerAscii() == 'rook takes 👑'"), 314577),
                (s("self.val1.lowerAscii() == self.val1.lowerAscii()"), 943723),
            ],
        ),
        (
            "escaped strings",
            schemas(&[t("string"), t("string")]),
            vec![(vals_equal("self.val1", "self.val2", "'l1\\nl2'"), 314583), (s("self.val1 == '''l1\nl2'''"), 3)],
        ),
        (
            "bytes",
            schemas(&[f("string", "byte"), f("string", "byte")]),
            vec![
                (s("self.val1 == self.val2"), 314577),
                (s("self.val1 == b'AB'"), 3),
                (s("type(self.val1) == bytes"), 4),
                (s("size(self.val1) == 2"), 4),
            ],
        ),
        (
            "booleans",
            schemas(&[t("boolean"), t("boolean"), t("boolean"), t("boolean")]),
            vec![
                (vals_equal("self.val1", "self.val2", "true"), 8),
                (s("self.val1 != self.val4"), 4),
                (s("type(self.val1) == bool"), 4),
            ],
        ),
        (
            "duration format",
            schemas(&[f("string", "duration"), f("string", "duration")]),
            vec![
                (vals_equal("self.val1", "self.val2", "duration('1h2m3s4ms')"), 16),
                (s("self.val1 == duration('1h2m') + duration('3s4ms')"), 6),
                (s("self.val1.getHours() == 1"), 4),
                (s("type(self.val1) == google.protobuf.Duration"), 4),
            ],
        ),
        (
            "date format",
            schemas(&[f("string", "date"), f("string", "date")]),
            vec![
                (vals_equal("self.val1", "self.val2", "timestamp('1997-07-16T00:00:00.000Z')"), 14),
                (s("self.val1.getDate() == 16"), 4),
            ],
        ),
        (
            "date-time format",
            schemas(&[f("string", "date-time"), f("string", "date-time")]),
            vec![
                (vals_equal("self.val1", "self.val2", "timestamp('2011-08-18T19:03:37.010+01:00')"), 16),
                (s("self.val1 == timestamp('2011-08-18T00:00:00.000+01:00') + duration('19h3m37s10ms')"), 6),
                (s("self.val1.getDate('01:00') == 18"), 4),
            ],
        ),
        (
            "enums",
            json!({"type": "object", "properties": {"enumStr": {"type": "string", "enum": ["Pending", "Available", "Bound", "Released", "Failed"]}}}),
            vec![(s("self.enumStr == 'Pending'"), 3), (s("self.enumStr in ['Pending', 'Available']"), 14)],
        ),
        (
            "conversions",
            schemas(&[
                t("integer"),
                t("number"),
                t("number"),
                t("number"),
                t("boolean"),
                t("string"),
                f("string", "byte"),
                t("string"),
                f("string", "duration"),
                t("string"),
                f("string", "date-time"),
                t("string"),
                f("string", "date"),
            ]),
            vec![
                (s("int(self.val2) == self.val1"), 5),
                (s("double(self.val1) == self.val2"), 5),
                (s("bytes(self.val6) == self.val7"), 629150),
                (s("string(self.val1) == self.val6"), 314578),
                (s("string(self.val4) == '10.5'"), 4),
                (s("string(self.val7) == self.val6"), 629150),
                (s("duration(self.val8) == self.val9"), 6),
                (s("timestamp(self.val10) == self.val11"), 6),
                (s("string(self.val11) == self.val10"), 314578),
                (s("timestamp(self.val12) == self.val13"), 6),
                (s("string(self.val13) == self.val12"), 314578),
            ],
        ),
        (
            "lists",
            schemas(&[list(t("integer")), list(t("integer"))]),
            vec![
                (vals_equal("self.val1", "self.val2", "[1, 2, 3]"), 157317),
                (s("1 in self.val1"), 1572865),
                (s("self.val2[0] in self.val1"), 1572868),
                (s("!(0 in self.val1)"), 1572866),
                (s("self.val1 + self.val2 == [1, 2, 3, 1, 2, 3]"), 16),
                (s("self.val1 + [4, 5] == [1, 2, 3, 4, 5]"), 24),
                (s("has(self.val1)"), 1),
                (s("has(self.val1) && has(self.val2)"), 2),
                (s("!has(self.val1)"), 2),
                (s("self.val1.all(k, size(self.val1) > 0)"), 11010044),
                (s("self.val1.exists_one(k, self.val1 == [2])"), 23592949),
                (s("!self.val1.exists_one(k, size(self.val1) > 0)"), 9437183),
                (s("size(self.val1) == 2"), 4),
                (s("size(self.val1.filter(k, size(self.val1) > 1)) == 1"), 26738686),
            ],
        ),
        (
            "maps",
            schemas(&[map_of(t("string")), map_of(t("string"))]),
            vec![
                (s("self.val1 == self.val2"), 39326),
                (s("'k1' in self.val1"), 3),
                (s("!('k3' in self.val1)"), 4),
                (s("self.val1 == {'k1': 'a', 'k2': 'b'}"), 33),
                (s("has(self.val1)"), 1),
                (s("self.val1.all(k, size(self.val1) > 0)"), 2752508),
                (s("self.val1.exists_one(k, size(self.val1) > 0)"), 2359294),
                (s("!self.val1.exists_one(k, size(self.val1) > 0)"), 2359295),
                (s("size(self.val1) == 2"), 4),
                (s("size(self.val1.filter(k, size(self.val1) > 1)) == 1"), 6684670),
            ],
        ),
    ];
    let mut failures = Vec::new();
    let mut total = 0;
    for (name, schema, rules) in &cases {
        for (rule, want) in rules {
            total += 1;
            match estimated(schema, rule) {
                Ok(got) if got == *want => {}
                Ok(got) => failures.push(format!("[{name}] {rule}: estimated {got}, Kubernetes says {want}")),
                Err(e) => failures.push(format!("[{name}] {rule}: {e}")),
            }
        }
    }
    assert!(total >= 85, "the table lost cases ({total})");
    assert!(failures.is_empty(), "{} of {total} differ:\n{}", failures.len(), failures.join("\n"));
}

/// apiextensions-apiserver validation.go `getCostErrorMessage`: the factor's three forms.
#[test]
fn cost_error_messages_match_kubernetes() {
    use kubedv_core::cel::estimate::{cost_error_message, STATIC_ESTIMATED_COST_LIMIT};
    let tail = "(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)";
    assert_eq!(
        cost_error_message("estimated rule cost", 25_000_000, STATIC_ESTIMATED_COST_LIMIT),
        format!("estimated rule cost exceeds budget by factor of 2.5x {tail}")
    );
    assert_eq!(
        cost_error_message("estimated rule cost", 12_000_000, STATIC_ESTIMATED_COST_LIMIT),
        format!("estimated rule cost exceeds budget by factor of 1.200000x {tail}")
    );
    assert_eq!(
        cost_error_message("estimated rule cost", u64::MAX, STATIC_ESTIMATED_COST_LIMIT),
        format!("estimated rule cost exceeds budget by factor of more than 100x {tail}")
    );
}
