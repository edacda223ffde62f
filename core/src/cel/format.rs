//! `"...".format([args])` of cel-go's extended strings library.

use alloc::format;
use alloc::string::String;

use super::functions::{self as f, Fail};
use super::value::Value;

/// Formats `args` into `template` with the verbs `%s %d %f %e %x %X %o %b %%` (and a precision,
/// `%.2f`).
pub fn format(template: &str, args: &[Value]) -> Result<String, Fail> {
    let mut out = String::new();
    let mut chars = template.chars().peekable();
    let mut next = 0usize;
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let mut precision: Option<usize> = None;
        if chars.peek() == Some(&'.') {
            chars.next();
            let mut p = 0usize;
            while let Some(d) = chars.peek().and_then(|c| c.to_digit(10)) {
                p = p.saturating_mul(10).saturating_add(d as usize);
                chars.next();
            }
            if p > 1000 {
                return Err(format!("precision {p} is too large (the most is 1000)"));
            }
            precision = Some(p);
        }
        let Some(verb) = chars.next() else {
            return Err("could not parse formatting clause: unterminated '%'".into());
        };
        if verb == '%' {
            out.push('%');
            continue;
        }
        let arg = args.get(next).ok_or_else(|| format!("index {next} out of range"))?;
        next += 1;
        let text = match verb {
            's' => display(arg)?,
            'd' => match arg {
                Value::Int(i) => format!("{i}"),
                Value::Uint(u) => format!("{u}"),
                Value::Double(d) if !d.is_finite() => {
                    f::double_to_string(*d).replace("+Inf", "Infinity").replace("-Inf", "-Infinity")
                }
                _ => {
                    return Err(format!(
                        "error during formatting: decimal clause can only be used on integers, was given {}",
                        arg.type_name()
                    ))
                }
            },
            'f' | 'e' => {
                let d = match arg {
                    Value::Double(d) => *d,
                    Value::Int(i) => *i as f64,
                    Value::Uint(u) => *u as f64,
                    _ => {
                        return Err(format!(
                            "error during formatting: fixed-point clause can only be used on doubles, was given {}",
                            arg.type_name()
                        ))
                    }
                };
                let p = precision.unwrap_or(6);
                if d.is_nan() {
                    String::from("NaN")
                } else if d.is_infinite() {
                    String::from(if d > 0.0 { "Infinity" } else { "-Infinity" })
                } else if verb == 'f' {
                    format!("{d:.p$}")
                } else {
                    // cel-go writes the exponent as a power of ten in superscript digits
                    // (celcoststability: `'%e'.format([3.14]) == '3.140000×10⁰⁰'`).
                    let s = format!("{d:.p$e}");
                    let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
                    let e: i32 = e.parse().unwrap_or(0);
                    const SUPERSCRIPT: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
                    let digits: String =
                        format!("{:02}", e.abs()).bytes().map(|b| SUPERSCRIPT[usize::from(b - b'0')]).collect();
                    format!("{m}×10{}{digits}", if e < 0 { "⁻" } else { "" })
                }
            }
            'x' | 'X' | 'o' | 'b' => {
                let s = match (arg, verb) {
                    (Value::Int(i), 'x') => if *i < 0 { format!("-{:x}", i.unsigned_abs()) } else { format!("{i:x}") },
                    (Value::Int(i), 'X') => if *i < 0 { format!("-{:X}", i.unsigned_abs()) } else { format!("{i:X}") },
                    (Value::Int(i), 'o') => if *i < 0 { format!("-{:o}", i.unsigned_abs()) } else { format!("{i:o}") },
                    (Value::Int(i), _) => if *i < 0 { format!("-{:b}", i.unsigned_abs()) } else { format!("{i:b}") },
                    (Value::Uint(u), 'x') => format!("{u:x}"),
                    (Value::Uint(u), 'X') => format!("{u:X}"),
                    (Value::Uint(u), 'o') => format!("{u:o}"),
                    (Value::Uint(u), _) => format!("{u:b}"),
                    (Value::String(s), 'x') => s.bytes().map(|b| format!("{b:02x}")).collect(),
                    (Value::String(s), 'X') => s.bytes().map(|b| format!("{b:02X}")).collect(),
                    (Value::Bytes(b), 'x') => b.iter().map(|b| format!("{b:02x}")).collect(),
                    (Value::Bytes(b), 'X') => b.iter().map(|b| format!("{b:02X}")).collect(),
                    _ => return Err(format!("error during formatting: only integers, byte buffers, and strings can be formatted as hex, was given {}", arg.type_name())),
                };
                s
            }
            other => {
                return Err(format!("could not parse formatting clause: unrecognized formatting clause \"{other}\""))
            }
        };
        out.push_str(&text);
    }
    Ok(out)
}

/// How `%s` shows a value.
fn display(v: &Value) -> Result<String, Fail> {
    Ok(match v {
        Value::Null => String::from("null"),
        Value::List(items) => {
            let parts: Result<alloc::vec::Vec<String>, Fail> = items.iter().map(display_quoted).collect();
            format!("[{}]", parts?.join(", "))
        }
        Value::Map(m) => {
            let mut parts = alloc::vec::Vec::new();
            for (k, val) in m.iter() {
                parts.push(format!("{}: {}", display_quoted(&k.to_value())?, display_quoted(val)?));
            }
            format!("{{{}}}", parts.join(", "))
        }
        Value::Type(t) => String::from(t.name()),
        other => f::to_string(other)?,
    })
}

fn display_quoted(v: &Value) -> Result<String, Fail> {
    match v {
        Value::String(s) => Ok(format!("{s:?}")),
        other => display(other),
    }
}
