//! go-yaml v2's scalars (v2.4.0 `resolve.go`, `decode.go`: what kubectl's `sigs.k8s.io/yaml`
//! v1.6.0 decodes with) and how `YAMLToJSON` writes them (`convertToJSONableObject`, then
//! `encoding/json`, which the API server reads back).

use kubedv_core::field::exact::scientific;
use kubedv_core::field::shortest_digits;
use kubedv_core::field::strconv::{parse_int, parse_uint};
use libyaml_safer::ScalarStyle;
use serde_json::{Number, Value};

/// A decoded scalar, before it becomes JSON.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Scalar {
    Null,
    Bool(bool),
    Int(i64),
    Uint(u64),
    Float(f64),
    Str(String),
}

const CORE: &str = "tag:yaml.org,2002:";

/// A core-schema tag's name (`int` for `!!int` or `!<tag:yaml.org,2002:int>`: the parser
/// gives tags resolved).
fn core(tag: &str) -> Option<&str> {
    tag.strip_prefix(CORE)
}

/// The non-specific tag `!`.
fn bang(tag: &str) -> bool {
    tag == "!"
}

/// Whether a scalar is resolved from its text (go-yaml parserc.go `plain_implicit`): plain and
/// untagged, or tagged with the non-specific `!`.
pub(crate) fn implicit(style: ScalarStyle, tag: Option<&str>) -> bool {
    tag.map_or(style == ScalarStyle::Plain, bang)
}

/// Whether a key is the merge key `<<` (decode.go `isMerge`): plain (or `!`) or `!!merge`.
pub(crate) fn is_merge(text: &str, style: ScalarStyle, tag: Option<&str>) -> bool {
    text == "<<" && (implicit(style, tag) || tag.and_then(core) == Some("merge"))
}

/// decode.go `scalar` into `interface{}`: a quoted or block scalar without a tag is a string;
/// otherwise `resolve`, checked against an explicit tag; `!!binary` is base64; a timestamp
/// stays the text; the non-specific `!` and other tags give the text.
pub(crate) fn decode(text: &str, style: ScalarStyle, tag: Option<&str>) -> Result<Scalar, String> {
    let wanted = match tag {
        None if style != ScalarStyle::Plain => return Ok(Scalar::Str(String::from(text))),
        None => None,
        Some(t) => match core(t) {
            Some(name @ ("str" | "bool" | "int" | "float" | "null" | "timestamp")) => Some(name),
            Some("binary") => return binary(text).map(Scalar::Str),
            // `!`, custom tags, and !!merge, !!seq, !!map on a scalar.
            _ => return Ok(Scalar::Str(String::from(text))),
        },
    };
    if wanted == Some("str") {
        return Ok(Scalar::Str(String::from(text)));
    }
    let (resolved, value) = resolve(text, matches!(wanted, None | Some("timestamp")));
    match (wanted, value) {
        (None, value) => Ok(value),
        (Some(w), value) if w == resolved => Ok(value),
        (Some("float"), Scalar::Int(i)) => Ok(Scalar::Float(i as f64)),
        (Some(w), _) => Err(format!("cannot decode !!{resolved} `{text}` as a !!{w}")),
    }
}

/// resolve.go `resolve` for a resolvable tag: the resolved tag's name and the value.
/// `timestamps` says whether a timestamp is looked for (untagged or `!!timestamp`).
fn resolve(text: &str, timestamps: bool) -> (&'static str, Scalar) {
    let hint = match text.as_bytes().first() {
        None => b'N',
        Some(b'+' | b'-') => b'S',
        Some(b'0'..=b'9') => b'D',
        Some(b'y' | b'Y' | b'n' | b'N' | b't' | b'T' | b'f' | b'F' | b'o' | b'O' | b'~') => b'M',
        Some(b'.') => b'.',
        Some(_) => 0,
    };
    if hint == 0 {
        return ("str", Scalar::Str(String::from(text)));
    }
    // resolve.go `resolveMap`.
    const WORDS: &[(&str, &str)] = &[
        ("y Y yes Yes YES true True TRUE on On ON", "true"),
        ("n N no No NO false False FALSE off Off OFF", "false"),
        ("~ null Null NULL", "null"),
        (".nan .NaN .NAN", "nan"),
        (".inf .Inf .INF +.inf +.Inf +.INF", "inf"),
        ("-.inf -.Inf -.INF", "-inf"),
    ];
    if text.is_empty() {
        return ("null", Scalar::Null);
    }
    if let Some((_, word)) = WORDS.iter().find(|(spellings, _)| spellings.split(' ').any(|w| w == text)) {
        return match *word {
            "true" => ("bool", Scalar::Bool(true)),
            "false" => ("bool", Scalar::Bool(false)),
            "null" => ("null", Scalar::Null),
            "nan" => ("float", Scalar::Float(f64::NAN)),
            "inf" => ("float", Scalar::Float(f64::INFINITY)),
            _ => ("float", Scalar::Float(f64::NEG_INFINITY)),
        };
    }
    match hint {
        b'.' => {
            if let Some(f) = go_parse_float(text) {
                return ("float", Scalar::Float(f));
            }
        }
        b'D' | b'S' => {
            if timestamps && is_timestamp(text) {
                return ("timestamp", Scalar::Str(String::from(text)));
            }
            let plain: String = text.chars().filter(|c| *c != '_').collect();
            if let Some(i) = parse_int(&plain) {
                return ("int", Scalar::Int(i));
            }
            if let Some(u) = parse_uint(&plain) {
                return ("int", Scalar::Uint(u));
            }
            if is_float_text(&plain) {
                if let Some(f) = plain.parse::<f64>().ok().filter(|f| f.is_finite()) {
                    return ("float", Scalar::Float(f));
                }
            }
        }
        _ => {}
    }
    ("str", Scalar::Str(String::from(text)))
}

/// resolve.go `yamlStyleFloat`: `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`.
fn is_float_text(s: &str) -> bool {
    let b = s.strip_prefix(['-', '+']).unwrap_or(s).as_bytes();
    let digits = |b: &[u8], at: usize| b[at..].iter().take_while(|c| c.is_ascii_digit()).count();
    let mut i = digits(b, 0);
    if i == 0 {
        if b.first() != Some(&b'.') || digits(b, 1) == 0 {
            return false;
        }
        i = 1 + digits(b, 1);
    } else if b.get(i) == Some(&b'.') {
        i += 1 + digits(b, i + 1);
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'-' | b'+')) {
            i += 1;
        }
        let n = digits(b, i);
        if n == 0 {
            return false;
        }
        i += n;
    }
    i == b.len()
}

/// Go's `strconv.ParseFloat(s, 64)` on a scalar that starts with `.`: decimal digits (with `_`
/// only between two digits) and an exponent; out of range is an error.
fn go_parse_float(s: &str) -> Option<f64> {
    let b = s.as_bytes();
    for (i, c) in b.iter().enumerate() {
        if *c == b'_' && !(i > 0 && b[i - 1].is_ascii_digit() && b.get(i + 1).is_some_and(u8::is_ascii_digit)) {
            return None;
        }
    }
    let plain: String = s.chars().filter(|c| *c != '_').collect();
    if !is_float_text(&plain) {
        return None;
    }
    plain.parse::<f64>().ok().filter(|f| f.is_finite())
}

/// resolve.go `parseTimestamp`: four digits and a `-`, then a date, optionally with a time.
/// (Timestamps come out as their text either way; this only decides `!!timestamp` errors and
/// keeps `2001-12-14` from being read as anything else.)
fn is_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 8 && b[..4].iter().all(u8::is_ascii_digit) && b[4] == b'-' && {
        let rest = &s[5..];
        let date_end = rest.find(['T', 't', ' ']).unwrap_or(rest.len());
        let mut parts = rest[..date_end].split('-');
        let ok = |p: Option<&str>, max: u32| {
            p.is_some_and(|p| (1..=2).contains(&p.len()) && p.parse::<u32>().is_ok_and(|v| (1..=max).contains(&v)))
        };
        ok(parts.next(), 12) && ok(parts.next(), 31) && parts.next().is_none()
    }
}

/// `!!binary`: base64 (line breaks ignored, padding required, as Go's `StdEncoding`), bytes
/// that are not UTF-8 written as U+FFFD each, as `encoding/json` writes them.
fn binary(text: &str) -> Result<String, String> {
    let clean: String = text.chars().filter(|c| !matches!(c, '\r' | '\n')).collect();
    let bytes = Some(&clean)
        .filter(|c| c.len() % 4 == 0)
        .and_then(|c| kubedv_core::field::base64::base64_decode(c))
        .ok_or("!!binary value contains invalid base64 data")?;
    let mut s = String::new();
    for chunk in bytes.utf8_chunks() {
        s.push_str(chunk.valid());
        s.extend(chunk.invalid().iter().map(|_| '\u{FFFD}'));
    }
    Ok(s)
}

/// The JSON value, as the API server reads what kubectl sends: `encoding/json` writes a float
/// without an exponent from 1e-6 to 1e21 (so 1.0 is `1`), and a number without `.` or
/// exponent that fits an int64 is read back as an integer; NaN and the infinities are
/// `json: unsupported value`; an integer past int64 is sent as a float.
pub(crate) fn to_json(s: Scalar) -> Result<Value, String> {
    Ok(match s {
        Scalar::Null => Value::Null,
        Scalar::Bool(b) => Value::Bool(b),
        Scalar::Int(i) => Value::from(i),
        Scalar::Uint(u) => Value::from(u as f64),
        Scalar::Str(s) => Value::String(s),
        Scalar::Float(f) if f.is_nan() => return Err(String::from("json: unsupported value: NaN")),
        Scalar::Float(f) if f.is_infinite() => {
            return Err(format!("json: unsupported value: {}Inf", if f > 0.0 { "+" } else { "-" }))
        }
        Scalar::Float(f) => {
            // Written with its shortest digits (`strconv.AppendFloat(f, 'f', -1, 64)`), zeros
            // after them: `9.223372036854775e18` is sent as 9223372036854775000.
            let plain = f.abs() == 0.0 || (1e-6..1e21).contains(&f.abs());
            let written = (plain && f.fract() == 0.0).then(|| {
                let (neg, digits, exp) = shortest_digits(f);
                let mut text = String::from(if neg { "-" } else { "" });
                text.push_str(&digits);
                text.extend((digits.len() as i32..exp + 1).map(|_| '0'));
                text
            });
            match written.as_deref().map(str::parse::<i64>) {
                Some(Ok(i)) => Value::from(i),
                _ => Number::from_f64(f).map_or(Value::Null, Value::Number),
            }
        }
    })
}

/// A map key as `convertToJSONableObject` writes it: a string; an int in decimal; a float as
/// Go's `FormatFloat(k, 'g', -1, 32)` (`.inf`, `-.inf`, `.nan` for those); a bool as
/// `true`/`false`. null and uint64 keys are refused.
pub(crate) fn key(s: &Scalar) -> Result<String, String> {
    Ok(match s {
        Scalar::Str(s) => s.clone(),
        Scalar::Int(i) => format!("{i}"),
        Scalar::Bool(b) => format!("{b}"),
        Scalar::Float(f) if f.is_nan() => String::from(".nan"),
        Scalar::Float(f) if f.is_infinite() || f.abs() > f64::from(f32::MAX) => {
            String::from(if *f > 0.0 { ".inf" } else { "-.inf" })
        }
        Scalar::Float(f) => go_g32(*f as f32),
        Scalar::Null => return Err(String::from("unsupported map key of type: %!s(<nil>), key: <nil>")),
        Scalar::Uint(u) => return Err(format!("unsupported map key of type: uint64, key: {u:#x}")),
    })
}

/// Go's `%g` with the shortest float32 digits: an exponent (`e+06`, at least two digits) below
/// 1e-4 and from 1e6 up. The digits are the fewest of the value's exact f64 renderings that
/// read back as `f` (formatting an f32 itself would bring Rust's f32 printing, 1.5 KB, into
/// WebAssembly); nine always do.
fn go_g32(f: f32) -> String {
    let d = f64::from(f);
    let sci = (0..9)
        .map(|p| scientific(d, p))
        .find(|s| s.parse::<f64>().is_ok_and(|v| v as f32 == f))
        .unwrap_or_else(|| scientific(d, 8));
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if !(-4..6).contains(&exp) {
        let sign = if exp < 0 { '-' } else { '+' };
        return format!("{mantissa}e{sign}{:02}", exp.unsigned_abs());
    }
    let (sign, mantissa) = mantissa.split_at(usize::from(mantissa.starts_with('-')));
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let point = exp + 1;
    let plain = if point <= 0 {
        format!("0.{}{digits}", "0".repeat(point.unsigned_abs() as usize))
    } else if digits.len() > point as usize {
        format!("{}.{}", &digits[..point as usize], &digits[point as usize..])
    } else {
        format!("{digits}{}", "0".repeat(point as usize - digits.len()))
    };
    format!("{sign}{plain}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(text: &str) -> Result<Value, String> {
        decode(text, ScalarStyle::Plain, None).and_then(to_json)
    }

    /// The value table of go-yaml v2.4.0 resolve.go as YAMLToJSON writes it (sigs.k8s.io/yaml
    /// v1.6.0 yaml_test.go `TestYAMLToJSON` and go-yaml decode_test.go rows among them).
    #[test]
    fn plain_scalars() {
        use serde_json::json;
        for (text, want) in [
            ("", json!(null)),
            ("~", json!(null)),
            ("Null", json!(null)),
            ("nULL", json!("nULL")),
            ("yes", json!(true)),
            ("Y", json!(true)),
            ("on", json!(true)),
            ("off", json!(false)),
            ("n", json!(false)),
            ("yES", json!("yES")),
            ("0", json!(0)),
            ("-0", json!(0)),
            ("+12", json!(12)),
            ("1_000", json!(1000)),
            ("_1", json!("_1")),
            ("0644", json!(420)),
            ("-0644", json!(-420)),
            ("08", json!(8)),
            ("0o17", json!(15)),
            ("0x1F", json!(31)),
            ("-0x1F", json!(-31)),
            ("0x_1F", json!(31)),
            ("0b101", json!(5)),
            ("0x", json!("0x")),
            ("0x1G", json!("0x1G")),
            // Go's ParseInt takes one sign, and only digits after a base prefix.
            ("-+1", json!("-+1")),
            ("0x+1", json!("0x+1")),
            ("9223372036854775807", json!(9223372036854775807i64)),
            ("18446744073709551615", json!(18446744073709551615u64 as f64)),
            ("1000000000000000000000000000000000000", json!(1e36)),
            ("0x10000000000000000", json!("0x10000000000000000")),
            ("1.0", json!(1)),
            ("1.", json!(1)),
            (".5", json!(0.5)),
            ("-.5", json!(-0.5)),
            (".5_0", json!(0.5)),
            ("._5", json!("._5")),
            ("685_230.15", json!(685230.15)),
            ("1e3", json!(1000)),
            ("1e20", json!(100000000000000000000.0)),
            // encoding/json writes the shortest digits, then zeros (go1.26 `json.Marshal`:
            // 9223372036854775000, 123456789012345680), which the API server reads as int64.
            ("9.223372036854775e18", json!(9223372036854775000i64)),
            ("1.2345678901234568e17", json!(123456789012345680i64)),
            ("1e21", json!(1e21)),
            ("1e-7", json!(1e-7)),
            ("1e400", json!("1e400")),
            ("1e-400", json!(0)),
            ("inf", json!("inf")),
            ("NaN", json!("NaN")),
            ("2001-12-14", json!("2001-12-14")),
            ("1:30", json!("1:30")),
            ("500m", json!("500m")),
            ("1,000", json!("1,000")),
            ("<<", json!("<<")),
        ] {
            assert_eq!(plain(text), Ok(want), "{text:?}");
        }
        assert_eq!(plain(".inf"), Err(String::from("json: unsupported value: +Inf")));
        assert_eq!(plain("-.INF"), Err(String::from("json: unsupported value: -Inf")));
        assert_eq!(plain(".nan"), Err(String::from("json: unsupported value: NaN")));
    }

    #[test]
    fn quoted_and_tagged_scalars() {
        use serde_json::json;
        let tag = |suffix: &str| format!("{CORE}{suffix}");
        let custom = String::from("!foo");
        let tagged = |text: &str, t: &str| decode(text, ScalarStyle::Plain, Some(t)).and_then(to_json);
        assert_eq!(decode("0644", ScalarStyle::DoubleQuoted, None).and_then(to_json), Ok(json!("0644")));
        assert_eq!(decode("yes", ScalarStyle::Folded, None).and_then(to_json), Ok(json!("yes")));
        assert_eq!(tagged("0644", &tag("str")), Ok(json!("0644")));
        assert_eq!(tagged("0x1F", &tag("int")), Ok(json!(31)));
        assert_eq!(decode("12", ScalarStyle::DoubleQuoted, Some(&tag("int"))).and_then(to_json), Ok(json!(12)));
        assert_eq!(tagged("1", &tag("float")), Ok(json!(1)));
        assert_eq!(tagged("yes", &tag("bool")), Ok(json!(true)));
        assert_eq!(tagged("12", &custom), Ok(json!("12")));
        assert_eq!(tagged("12", "!"), Ok(json!("12")));
        assert_eq!(tagged("aGVsbG8=", &tag("binary")), Ok(json!("hello")));
        assert_eq!(tagged("gIGC", &tag("binary")), Ok(json!("\u{FFFD}\u{FFFD}\u{FFFD}")));
        assert_eq!(tagged("==", &tag("binary")), Err(String::from("!!binary value contains invalid base64 data")));
        assert_eq!(tagged("1.5", &tag("int")), Err(String::from("cannot decode !!float `1.5` as a !!int")));
        assert_eq!(tagged("error", &tag("float")), Err(String::from("cannot decode !!str `error` as a !!float")));
        assert_eq!(tagged("1", &tag("bool")), Err(String::from("cannot decode !!int `1` as a !!bool")));
        assert_eq!(tagged("2015-01-01", &tag("timestamp")), Ok(json!("2015-01-01")));
        assert_eq!(
            tagged("18446744073709551615", &tag("float")),
            Err(String::from("cannot decode !!int `18446744073709551615` as a !!float"))
        );
    }

    /// sigs.k8s.io/yaml v1.6.0 yaml.go: keys as strings (float keys through float32 `%g`).
    #[test]
    fn keys() {
        let k = |text: &str| decode(text, ScalarStyle::Plain, None).and_then(|s| key(&s));
        for (text, want) in [
            ("1", "1"),
            ("0x10", "16"),
            ("010", "8"),
            ("1.0", "1"),
            ("1.2", "1.2"),
            ("1e3", "1000"),
            ("123456.0", "123456"),
            ("1e6", "1e+06"),
            ("1234567.0", "1.234567e+06"),
            ("3.14159265358979", "3.1415927"),
            ("0.0001", "0.0001"),
            ("0.00001", "1e-05"),
            ("1e+36", "1e+36"),
            ("1e39", ".inf"),
            ("-0.0", "-0"),
            ("-1.5", "-1.5"),
            ("-0.00012", "-0.00012"),
            ("0.1", "0.1"),
            ("16777217.0", "1.6777216e+07"),
            ("999999.9", "999999.9"),
            ("1.17549435e-38", "1.1754944e-38"),
            ("yes", "true"),
            ("off", "false"),
            ("2001-12-14", "2001-12-14"),
        ] {
            assert_eq!(k(text).as_deref(), Ok(want), "{text:?}");
        }
        assert!(k("~").is_err());
        assert!(k("18446744073709551615").is_err());
    }
}
