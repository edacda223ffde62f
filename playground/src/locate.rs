//! Where a field is in an object's text: the line of `spec.containers[1].image` in the YAML or
//! JSON a person typed, so clicking an error can show its field. A missing field (a `Required
//! value`) resolves to its nearest present parent.

/// One step of a Kubernetes field path: `name`, `[0]` or `[key]`.
#[derive(Clone, PartialEq, Debug)]
enum Step {
    Key(String),
    Index(usize),
}

/// Parses `spec.containers[0].name` / `metadata.labels[app]` (field.Path's rendering).
fn steps(path: &str) -> Vec<Step> {
    let mut out = Vec::new();
    let mut rest = path;
    while !rest.is_empty() {
        if let Some(inner) = rest.strip_prefix('[') {
            let end = inner.find(']').unwrap_or(inner.len());
            let key = &inner[..end];
            out.push(key.parse().map_or_else(|_| Step::Key(key.to_string()), Step::Index));
            rest = inner.get(end + 1..).unwrap_or("");
        } else {
            let rest_trim = rest.strip_prefix('.').unwrap_or(rest);
            let end = rest_trim.find(['.', '[']).unwrap_or(rest_trim.len());
            if end > 0 {
                out.push(Step::Key(rest_trim[..end].to_string()));
            }
            rest = &rest_trim[end..];
        }
    }
    out
}

/// The 1-based line of `path` in `text` (YAML or JSON), or of its nearest ancestor present.
pub fn line_of(text: &str, path: &str) -> Option<usize> {
    let want = steps(path);
    let entries = if text.trim_start().starts_with(['{', '[']) { json_entries(text) } else { yaml_entries(text) };
    entries
        .iter()
        .filter(|(p, _)| want.starts_with(p) && !p.is_empty())
        .max_by_key(|(p, _)| p.len())
        .map(|(_, line)| *line)
}

/// Every key and list item of block-style YAML with its line. Flow collections (`{a: 1}`)
/// count as their key's line.
fn yaml_entries(text: &str) -> Vec<(Vec<Step>, usize)> {
    // Open frames: (column, step); a line at column c closes frames at or right of c.
    let mut frames: Vec<(usize, Step)> = Vec::new();
    let mut out = Vec::new();
    let mut block_scalar: Option<usize> = None;
    for (i, raw) in text.split('\n').enumerate() {
        let line_no = i + 1;
        let content = raw.trim_start();
        let mut col = raw.len() - content.len();
        if let Some(indent) = block_scalar {
            if content.is_empty() || col > indent {
                continue;
            }
            block_scalar = None;
        }
        if content.is_empty() || content.starts_with('#') || content.starts_with("---") || content.starts_with("...") {
            continue;
        }
        let mut content = content;
        // `- ` items (possibly several on one line: `- - a`).
        while content == "-" || content.starts_with("- ") {
            let mut next = 0;
            while let Some((c, step)) = frames.last() {
                if *c > col || (*c == col && matches!(step, Step::Index(_))) {
                    if let (true, Step::Index(n)) = (*c == col, step) {
                        next = n + 1;
                    }
                    frames.pop();
                } else {
                    break;
                }
            }
            frames.push((col, Step::Index(next)));
            out.push((frames.iter().map(|(_, s)| s.clone()).collect(), line_no));
            let after = content[1..].trim_start();
            col += content.len() - after.len();
            content = after;
        }
        if let Some((key, value)) = yaml_key(content) {
            while frames.last().is_some_and(|(c, _)| *c >= col) {
                frames.pop();
            }
            frames.push((col, Step::Key(key)));
            out.push((frames.iter().map(|(_, s)| s.clone()).collect(), line_no));
            if value.starts_with(['|', '>']) {
                block_scalar = Some(col);
            }
        }
    }
    out
}

/// `key: value` → (key, value); quoted keys are unquoted.
fn yaml_key(content: &str) -> Option<(String, &str)> {
    let (key, rest) = if let Some(q @ ('"' | '\'')) = content.chars().next() {
        let end = content[1..].find(q)? + 1;
        (content[1..end].to_string(), &content[end + 1..])
    } else {
        let end = content.find(": ").or_else(|| content.strip_suffix(':').map(|s| s.len()))?;
        (content[..end].trim_end().to_string(), &content[end..])
    };
    let value = rest.trim_start().strip_prefix(':')?;
    Some((key, value.trim()))
}

/// Every key and array element of JSON text with its line.
fn json_entries(text: &str) -> Vec<(Vec<Step>, usize)> {
    enum Open {
        Object(Option<String>),
        Array(usize),
    }
    let mut out = Vec::new();
    let mut stack: Vec<Open> = Vec::new();
    let mut path: Vec<Step> = Vec::new();
    let mut line = 1;
    let mut chars = text.chars().peekable();
    // Whether the next value starts a new array element (after `[` or `,` in an array).
    let mut element_due = false;
    let record_element = |stack: &[Open], path: &[Step], line: usize, out: &mut Vec<(Vec<Step>, usize)>| {
        if let Some(Open::Array(n)) = stack.last() {
            let mut p = path.to_vec();
            p.push(Step::Index(*n));
            out.push((p, line));
        }
    };
    while let Some(c) = chars.next() {
        match c {
            '\n' => line += 1,
            c if c.is_whitespace() => {}
            '"' => {
                let start_line = line;
                let mut s = String::new();
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => {
                            if let Some(e) = chars.next() {
                                s.push(e);
                            }
                        }
                        '"' => break,
                        '\n' => {
                            line += 1;
                            s.push(c);
                        }
                        c => s.push(c),
                    }
                }
                // A key is a string followed by `:` inside an object.
                let mut lookahead = chars.clone();
                let is_key = loop {
                    match lookahead.next() {
                        Some(w) if w.is_whitespace() => {}
                        Some(':') => break true,
                        _ => break false,
                    }
                };
                if is_key {
                    if let Some(Open::Object(key)) = stack.last_mut() {
                        *key = Some(s.clone());
                        let mut p = path.clone();
                        p.push(Step::Key(s));
                        out.push((p, start_line));
                    }
                } else if element_due {
                    record_element(&stack, &path, start_line, &mut out);
                    element_due = false;
                }
            }
            '{' | '[' => {
                if element_due {
                    record_element(&stack, &path, line, &mut out);
                    element_due = false;
                }
                match stack.last() {
                    Some(Open::Object(Some(k))) => path.push(Step::Key(k.clone())),
                    Some(Open::Array(n)) => path.push(Step::Index(*n)),
                    _ => {}
                }
                if c == '{' {
                    stack.push(Open::Object(None));
                } else {
                    stack.push(Open::Array(0));
                    element_due = true;
                }
            }
            '}' | ']' => {
                stack.pop();
                if !stack.is_empty() {
                    path.pop();
                }
                element_due = false;
            }
            ',' => {
                if let Some(Open::Array(n)) = stack.last_mut() {
                    *n += 1;
                    element_due = true;
                }
            }
            ':' => {}
            _ => {
                if element_due {
                    record_element(&stack, &path, line, &mut out);
                    element_due = false;
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const YAML: &str = "\
apiVersion: v1
kind: Pod
metadata:
  name: web
  labels:
    app: web
    \"app.kubernetes.io/name\": web
spec:
  description: |
    name: not a key
  containers:
  - name: a
    image: x
  - name: b
    ports:
    - containerPort: 80
    - containerPort: 81
";

    #[test]
    fn yaml_fields_items_and_map_keys() {
        assert_eq!(line_of(YAML, "metadata.name"), Some(4));
        assert_eq!(line_of(YAML, "metadata.labels[app.kubernetes.io/name]"), Some(7));
        assert_eq!(line_of(YAML, "spec.containers[0].image"), Some(13));
        assert_eq!(line_of(YAML, "spec.containers[1]"), Some(14));
        assert_eq!(line_of(YAML, "spec.containers[1].ports[1].containerPort"), Some(17));
        // Block scalar content is not a key; missing fields resolve to their parent.
        assert_eq!(line_of(YAML, "spec.name"), Some(8));
        assert_eq!(line_of(YAML, "spec.containers[1].image"), Some(14));
        assert_eq!(line_of(YAML, "status"), None);
    }

    #[test]
    fn yaml_items_at_the_key_column() {
        let text = "spec:\n  tags:\n  - a\n  - b\n  other: 1\n";
        assert_eq!(line_of(text, "spec.tags[1]"), Some(4));
        assert_eq!(line_of(text, "spec.other"), Some(5));
    }

    #[test]
    fn json_fields_and_elements() {
        let text =
            "{\n  \"spec\": {\n    \"ports\": [\n      80,\n      {\"port\": 81}\n    ],\n    \"name\": \"x\"\n  }\n}";
        assert_eq!(line_of(text, "spec.ports[0]"), Some(4));
        assert_eq!(line_of(text, "spec.ports[1].port"), Some(5));
        assert_eq!(line_of(text, "spec.name"), Some(7));
        assert_eq!(line_of(text, "spec.missing"), Some(2));
    }
}

#[cfg(test)]
mod robustness {
    use super::*;

    /// Every slice of awkward text (multi-byte characters, unbalanced brackets and quotes,
    /// odd indentation) and every path shape: an answer or `None`, never a panic.
    #[test]
    fn never_panics_on_odd_text() {
        let sample =
            "spéc:\n  - \"kéy\": [1, {\"a\": 'b'}\n\t- - x: |\n    ünïcode: ✓\n{\"a\": [\"\\\"\", {]]]}\n- :\n'q: \"\n";
        let paths = ["", ".", "[", "]", "a[", "spéc[0].kéy", "a[0][1].b", "[x].y", "a..b"];
        let bounds: Vec<usize> = (0..=sample.len()).filter(|i| sample.is_char_boundary(*i)).collect();
        for &i in &bounds {
            for &j in bounds.iter().filter(|j| **j >= i) {
                for path in paths {
                    let _ = line_of(&sample[i..j], path);
                }
            }
        }
    }
}
