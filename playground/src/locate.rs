//! Where a field is in an object's text: the line of `spec.containers[1].image` in the YAML or
//! JSON a person typed, so clicking an error can show its field. A missing field (a `Required
//! value`) resolves to its nearest present parent. The positions are the YAML parser's
//! (`kubedv_input::positions`, which `kubedv check` uses too); text past a syntax error has none.

use kubedv_input::positions::Positions;

/// The 1-based line of `path` in `text` (YAML or JSON), or of its nearest ancestor present;
/// `None` when not even the path's first field is there.
pub fn line_of(text: &str, path: &str) -> Option<usize> {
    let ((line, _), depth) = Positions::of(text).locate_depth(path)?;
    (depth > 0).then_some(line)
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
