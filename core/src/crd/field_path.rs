//! A JSON path into a CRD schema, as rules' `fieldPath` and `selectableFields` give it
//! (apiextensions-apiserver `pkg/apiserver/schema/cel/validation.go` `ValidFieldPath`):
//! `.name` and `['name']` steps through `properties` (or map keys through
//! `additionalProperties`); lists cannot be entered.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value as Json;

/// The tokens of a path, as its `bufio.Scanner` split function cuts them: `.`, `[`, `]`, a
/// quoted string from `'` to the next `'` not preceded by `\` (or to the end), or a run of
/// anything else.
fn tokens(path: &str) -> Vec<&str> {
    let b = path.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    while start < b.len() {
        let rest = &b[start..];
        let len = if rest[0] == b'\'' {
            (1..rest.len()).find(|&i| rest[i] == b'\'' && rest[i - 1] != b'\\').map_or(rest.len(), |i| i + 1)
        } else if matches!(rest[0], b'.' | b'[' | b']') {
            1
        } else {
            rest.iter().position(|c| matches!(c, b'.' | b'[' | b']')).unwrap_or(rest.len())
        };
        // Cuts fall on ASCII bytes, so on character boundaries.
        out.push(&path[start..start + len]);
        start += len;
    }
    out
}

/// `unescapeSingleQuote`: the escapes of a quoted string; a bad one is dropped and the last
/// bad one (its character) is the error.
fn unescape(s: &str) -> Result<String, char> {
    let mut out = String::new();
    let mut err = None;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        // Go's `\\.` does not match a backslash before a newline or at the end.
        let Some(next) = chars.clone().next().filter(|n| *n != '\n') else {
            out.push(c);
            continue;
        };
        chars.next();
        match next {
            'a' => out.push('\u{07}'),
            'b' => out.push('\u{08}'),
            'f' => out.push('\u{0c}'),
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            't' => out.push('\t'),
            'v' => out.push('\u{0b}'),
            '\'' => out.push('\''),
            '\\' => out.push('\\'),
            other => err = Some(other),
        }
    }
    match err {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

/// Why a path is not valid; [`Invalid::message`] is Go's error. (Kept apart so a build that
/// only needs the path, the npm module's rules, carries none of the messages.)
#[derive(Debug)]
pub(super) enum Invalid<'p> {
    Field,
    ArrayNotation,
    End,
    NotQuoted(&'p str),
    Escape(char),
    NotClosed(&'p str),
    NotStep(&'p str),
}

impl Invalid<'_> {
    pub(super) fn message(&self) -> String {
        match self {
            Invalid::Field => String::from("does not refer to a valid field"),
            Invalid::ArrayNotation => String::from("array notation is not allowed"),
            Invalid::End => String::from("unexpected end of JSON path"),
            Invalid::NotQuoted(tok) => format!("expected single quoted string but got {tok}"),
            Invalid::Escape(c) => format!("invalid string literal: invalid escape char \\{c}"),
            Invalid::NotClosed(tok) => format!("expected ] but got {tok}"),
            Invalid::NotStep(tok) => format!("expected [ or . but got: {tok}"),
        }
    }
}

/// Checks `path` against `schema`; gives the path as field paths print it (`spec.labels[foo]`)
/// and the schema it reaches (`None` past an `additionalProperties: true`), or why not.
/// `arrays`: whether `['name']` steps are allowed.
pub(super) fn valid<'s, 'p>(
    path: &'p str,
    schema: &'s Json,
    arrays: bool,
) -> Result<(String, Option<&'s Json>), Invalid<'p>> {
    let mut rendered = String::new();
    let mut current = Some(schema);
    let toks = tokens(path);
    let mut it = toks.into_iter();
    // One step: a property when the node has properties, else a map key.
    let mut step = |name: &str, current: &mut Option<&'s Json>| -> Result<(), Invalid<'p>> {
        let node = current.ok_or(Invalid::Field)?;
        let props = node.get("properties").and_then(Json::as_object).filter(|p| !p.is_empty());
        if let Some(props) = props {
            if !rendered.is_empty() {
                rendered.push('.');
            }
            rendered.push_str(name);
            *current = Some(props.get(name).ok_or(Invalid::Field)?);
        } else if let Some(ap) = node.get("additionalProperties").filter(|a| !a.is_null()) {
            rendered.push('[');
            rendered.push_str(name);
            rendered.push(']');
            *current = ap.is_object().then_some(ap);
        } else {
            return Err(Invalid::Field);
        }
        Ok(())
    };
    while let Some(tok) = it.next() {
        match tok {
            "[" => {
                if !arrays {
                    return Err(Invalid::ArrayNotation);
                }
                let tok = it.next().ok_or(Invalid::End)?;
                if tok.len() < 2 || !tok.starts_with('\'') || !tok.ends_with('\'') {
                    return Err(Invalid::NotQuoted(tok));
                }
                let name = unescape(&tok[1..tok.len() - 1]).map_err(Invalid::Escape)?;
                step(&name, &mut current)?;
                match it.next() {
                    None => return Err(Invalid::End),
                    Some("]") => {}
                    Some(other) => return Err(Invalid::NotClosed(other)),
                }
            }
            "." => {
                let name = it.next().ok_or(Invalid::End)?;
                step(name, &mut current)?;
            }
            other => return Err(Invalid::NotStep(other)),
        }
    }
    Ok((rendered, current))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    // Expectations: apiextensions-apiserver pkg/apiserver/schema/cel/validation.go
    // ValidFieldPath and its tests (validation_test.go TestValidFieldPath).
    #[test]
    fn paths() {
        let schema = json!({"type": "object", "properties": {
            "spec": {"type": "object", "properties": {"foo": {"type": "string"}, "a.b": {"type": "string"},
                "labels": {"type": "object", "additionalProperties": {"type": "string"}},
                "list": {"type": "array", "items": {"type": "string"}}}}}});
        let ok = |p: &str| valid(p, &schema, true).map(|(s, _)| s).map_err(|e| e.message());
        assert_eq!(ok(".spec.foo"), Ok("spec.foo".into()));
        assert_eq!(ok(".spec['a.b']"), Ok("spec.a.b".into()));
        assert_eq!(ok(".spec.labels.x"), Ok("spec.labels[x]".into()));
        assert_eq!(ok(".spec.labels['x']"), Ok("spec.labels[x]".into()));
        assert_eq!(ok(".spec.list[0]"), Err("expected single quoted string but got 0".into()));
        assert_eq!(ok(".spec.list.a"), Err("does not refer to a valid field".into()));
        assert_eq!(ok("spec"), Err("expected [ or . but got: spec".into()));
        assert_eq!(ok(".spec."), Err("unexpected end of JSON path".into()));
        assert_eq!(ok(".spec['foo'"), Err("unexpected end of JSON path".into()));
        assert_eq!(ok(".spec['foo'x"), Err("expected ] but got x".into()));
        assert_eq!(ok(".spec['f\\zo']"), Err("invalid string literal: invalid escape char \\z".into()));
        let arrays_off = valid(".spec['foo']", &schema, false).map(|(s, _)| s).map_err(|e| e.message());
        assert_eq!(arrays_off, Err("array notation is not allowed".into()));
        assert_eq!(valid(".spec.foo", &schema, true).unwrap().1.and_then(|s| s.get("type")), Some(&json!("string")));
    }
}
