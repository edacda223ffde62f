//! The CEL specification's "simple" conformance tests (textproto) run against kubedv's CEL
//! engine: `run_file` gives each test's outcome by name (`file/section/test`). The binary
//! (`main.rs`) prints them; `kubedv-diff` compares them with cel-go's (the oracle).

pub mod textproto;
use std::collections::BTreeMap;
use std::rc::Rc;

use kubedv_core::cel::{self, Program, Value};
use textproto::{Field, Message};

pub enum Outcome {
    Pass,
    Fail(String),
    Skip(&'static str),
}

/// Whether a test needs protobuf messages (kubedv has none) or a container.
fn needs_protobuf(test: &Message) -> Option<&'static str> {
    if test.get("container").is_some() {
        return Some("sets a container");
    }
    let expr = test.string("expr").unwrap_or_default();
    if expr.contains("TestAllTypes") || expr.contains("google.protobuf.") && has_message_literal(&expr) {
        return Some("constructs a protobuf message");
    }
    for wrapper in [
        "Int32Value",
        "Int64Value",
        "UInt32Value",
        "UInt64Value",
        "FloatValue",
        "DoubleValue",
        "BoolValue",
        "StringValue",
        "BytesValue",
        "google.protobuf.Any",
        "google.protobuf.Value",
        "google.protobuf.Struct",
        "google.protobuf.ListValue",
        "google.protobuf.NullValue",
    ] {
        if expr.contains(wrapper) {
            return Some("uses a protobuf wrapper or well-known message");
        }
    }
    if mentions(test, &["object_value", "message_type", "enum_value"]) {
        return Some("binds or expects a protobuf message");
    }
    None
}

fn has_message_literal(expr: &str) -> bool {
    let b = expr.as_bytes();
    b.windows(2).any(|w| (w[0].is_ascii_alphanumeric()) && w[1] == b'{')
}

fn mentions(m: &Message, names: &[&str]) -> bool {
    m.fields.iter().any(|(n, f)| {
        names.contains(&n.as_str())
            || match f {
                Field::Message(inner) => mentions(inner, names),
                _ => false,
            }
    })
}

struct Bindings(BTreeMap<String, Value>);

impl cel::Activation for Bindings {
    fn resolve(&self, name: &str) -> Option<&Value> {
        self.0.get(name)
    }
}

pub fn run(test: &Message) -> Outcome {
    if let Some(why) = needs_protobuf(test) {
        return Outcome::Skip(why);
    }
    let expr = test.string("expr").unwrap_or_default();
    let macros = !test.flag("disable_macros");
    let check = !test.flag("disable_check");
    let mut vars = BTreeMap::new();
    for b in test.messages("bindings") {
        let key = b.string("key").unwrap_or_default();
        let Some(v) = b.message("value").and_then(|v| v.message("value")) else {
            return Outcome::Skip("binding without a plain value");
        };
        match to_value(v) {
            Ok(v) => {
                vars.insert(key, v);
            }
            Err(e) => return Outcome::Fail(format!("bad binding: {e}")),
        }
    }
    let mut decls = cel::checker::Decls::from_pairs(test.messages("type_env").filter_map(decl).collect());
    for env in test.messages("type_env") {
        let (Some(name), Some(function)) = (env.string("name"), env.message("function")) else { continue };
        for o in function.messages("overloads") {
            let params = o.messages("params").map(to_type).collect();
            let result = o.message("result_type").map_or(cel::checker::CelType::Dyn, to_type);
            decls.declare_function(
                &name,
                cel::checker::Overload { member: o.flag("is_instance_function"), params, result },
            );
        }
    }
    let program = match Program::compile_with(&expr, macros) {
        Ok(p) => p,
        Err(e) => {
            return if expects_error(test) { Outcome::Pass } else { Outcome::Fail(format!("parse error: {e}")) };
        }
    };
    let typed = test.message("typed_result");
    if check || typed.is_some() || test.flag("check_only") {
        match cel::checker::check(&program, &decls) {
            Ok(t) => {
                if let Some(want) = typed.and_then(|t| t.message("deduced_type")) {
                    let want = type_name(want);
                    if want != t.to_string() {
                        return Outcome::Fail(format!("deduced type {t}, want {want}"));
                    }
                }
            }
            Err(e) => {
                return if expects_error(test) { Outcome::Pass } else { Outcome::Fail(format!("check error: {e}")) };
            }
        }
        if test.flag("check_only") {
            return Outcome::Pass;
        }
    }
    let result = program.eval_with_limit(&Bindings(vars), u64::MAX);
    let expected = test.message("value").or_else(|| typed.and_then(|t| t.message("result")));
    match (result, expected) {
        (Ok(got), Some(want)) => match to_value(want) {
            Ok(want) if same(&got.value, &want) => Outcome::Pass,
            Ok(want) => Outcome::Fail(format!("got {}, want {}", show(&got.value), show(&want))),
            Err(e) => Outcome::Fail(format!("bad expected value: {e}")),
        },
        (Ok(got), None) if expects_error(test) => Outcome::Fail(format!("got {}, want an error", show(&got.value))),
        (Ok(got), None) => {
            // No expectation given: the spec's default is `true`.
            if same(&got.value, &Value::Bool(true)) {
                Outcome::Pass
            } else {
                Outcome::Fail(format!("got {}, want true", show(&got.value)))
            }
        }
        (Err(_), _) if expects_error(test) => Outcome::Pass,
        (Err(e), _) => Outcome::Fail(format!("error: {e}")),
    }
}

fn expects_error(test: &Message) -> bool {
    test.get("eval_error").is_some() || test.get("any_eval_errors").is_some()
}

fn show(v: &Value) -> String {
    format!("{} ({})", cel::to_json(v), v.type_name())
}

fn decl(m: &Message) -> Option<(String, cel::checker::CelType)> {
    let name = m.string("name")?;
    let t = m.message("ident")?.message("type")?;
    Some((name, to_type(t)))
}

fn to_type(m: &Message) -> cel::checker::CelType {
    use cel::checker::CelType as T;
    if let Some(Field::Scalar(p)) = m.get("primitive") {
        return match p.as_str() {
            "BOOL" => T::Bool,
            "INT64" => T::Int,
            "UINT64" => T::Uint,
            "DOUBLE" => T::Double,
            "STRING" => T::String,
            "BYTES" => T::Bytes,
            _ => T::Dyn,
        };
    }
    if let Some(Field::Scalar(w)) = m.get("well_known") {
        return match w.as_str() {
            "TIMESTAMP" => T::Timestamp,
            "DURATION" => T::Duration,
            _ => T::Dyn,
        };
    }
    if let Some(l) = m.message("list_type") {
        return T::List(Rc::new(l.message("elem_type").map_or(T::Dyn, to_type)));
    }
    if let Some(mt) = m.message("map_type") {
        return T::Map(
            Rc::new(mt.message("key_type").map_or(T::Dyn, to_type)),
            Rc::new(mt.message("value_type").map_or(T::Dyn, to_type)),
        );
    }
    if m.get("null").is_some() {
        return T::Null;
    }
    if let Some(t) = m.message("type") {
        return T::Type(Rc::new(to_type(t)));
    }
    if let Some(Field::Str(p)) = m.get("type_param") {
        return T::Param(Rc::from(String::from_utf8_lossy(p).as_ref()));
    }
    if let Some(a) = m.message("abstract_type") {
        let name = a.string("name").unwrap_or_default();
        let params: Vec<T> = a.messages("parameter_types").map(to_type).collect();
        if name == "optional_type" {
            return T::Optional(Rc::new(params.into_iter().next().unwrap_or(T::Dyn)));
        }
        return T::Opaque(Rc::from(name.as_str()), params.into());
    }
    T::Dyn
}

fn type_name(m: &Message) -> String {
    to_type(m).to_string()
}

fn to_value(m: &Message) -> Result<Value, String> {
    let (name, field) = m.fields.first().ok_or("empty value")?;
    let scalar = |f: &Field| match f {
        Field::Scalar(s) => Ok(s.clone()),
        Field::Str(b) => Ok(String::from_utf8_lossy(b).into_owned()),
        _ => Err(String::from("expected a scalar")),
    };
    Ok(match name.as_str() {
        "null_value" => Value::Null,
        "bool_value" => Value::Bool(scalar(field)? == "true"),
        "int64_value" => Value::Int(scalar(field)?.parse().map_err(|e| format!("{e}"))?),
        "uint64_value" => Value::Uint(scalar(field)?.parse().map_err(|e| format!("{e}"))?),
        "double_value" => {
            let s = scalar(field)?;
            Value::Double(match s.to_ascii_lowercase().as_str() {
                "inf" | "infinity" => f64::INFINITY,
                "-inf" | "-infinity" => f64::NEG_INFINITY,
                "nan" => f64::NAN,
                _ => s.parse().map_err(|e| format!("{e}"))?,
            })
        }
        "string_value" => match field {
            Field::Str(b) => Value::from(String::from_utf8(b.clone()).map_err(|_| "string_value is not UTF-8")?),
            _ => return Err("string_value must be quoted".into()),
        },
        "bytes_value" => match field {
            Field::Str(b) => Value::Bytes(b.clone().into()),
            _ => return Err("bytes_value must be quoted".into()),
        },
        "list_value" => {
            let Field::Message(l) = field else { return Err("list_value".into()) };
            Value::list(l.messages("values").map(to_value).collect::<Result<_, _>>()?)
        }
        "map_value" => {
            let Field::Message(mv) = field else { return Err("map_value".into()) };
            let mut map = cel::Map::default();
            for e in mv.messages("entries") {
                let k = to_value(e.message("key").ok_or("entry without key")?)?;
                let v = to_value(e.message("value").ok_or("entry without value")?)?;
                let key = cel::Key::from_value(&k).ok_or("bad key type")?;
                map.insert(key, v);
            }
            Value::Map(Rc::new(map))
        }
        "type_value" => Value::Type(cel::Type::Other(Rc::from(scalar(field)?.as_str()))),
        other => return Err(format!("unsupported value kind {other}")),
    })
}

/// Strict equality for test expectations: same type and value; NaN equals NaN.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Double(x), Value::Double(y)) => (x.is_nan() && y.is_nan()) || x == y,
        (Value::Int(x), Value::Int(y)) => x == y,
        (Value::Uint(x), Value::Uint(y)) => x == y,
        (Value::List(x), Value::List(y)) => x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| same(p, q)),
        (Value::Map(x), Value::Map(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get_key(k).is_some_and(|w| same(v, w)))
        }
        (Value::Type(x), Value::Type(y)) => x.name() == y.name(),
        _ => a.type_name() == b.type_name() && a.equals(b),
    }
}

/// Every test of a conformance file with its outcome, named `file/section/test`.
pub fn run_file(text: &str) -> Result<Vec<(String, Outcome)>, String> {
    let file = textproto::parse(text)?;
    let file_name = file.string("name").unwrap_or_default();
    let mut out = Vec::new();
    for section in file.messages("section") {
        let section_name = section.string("name").unwrap_or_default();
        for test in section.messages("test") {
            out.push((format!("{file_name}/{section_name}/{}", test.string("name").unwrap_or_default()), run(test)));
        }
    }
    Ok(out)
}
