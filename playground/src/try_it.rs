//! "Try it" for a tag's documentation: its example as a types.go the declarative view can
//! compile, and an object that exercises it.

/// The object "Try it" starts with: empty, for the person to fill in.
pub const OBJECT: &str = "# Type an object of the example's type here (YAML or JSON).\n{}\n";

/// The example as a whole file: a field snippet goes into `type Example struct`, a type
/// snippet stays a type and `Example` gets a field of it.
pub fn types_for(example: &str) -> String {
    let declared =
        example.lines().find_map(|l| l.strip_prefix("type ")).and_then(|rest| rest.split_whitespace().next());
    let body = match declared {
        Some(_) if example.contains(" struct {") => format!("{example}\n"),
        Some(name) => format!("{example}\n\ntype Example struct {{\n\tValue {name} `json:\"value\"`\n}}\n"),
        None => {
            let indented: Vec<String> = example.lines().map(|l| format!("\t{l}")).collect();
            format!("type Example struct {{\n{}\n}}\n", indented.join("\n"))
        }
    };
    format!("package v1\n\n{body}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use kubedv_core::declarative::catalog::TAGS;
    use kubedv_core::declarative::Schema;

    #[test]
    fn every_tag_example_compiles() {
        let mut failures = Vec::new();
        for tag in TAGS {
            let src = types_for(tag.example);
            let schema = Schema::compile(&src);
            if schema.has_errors() {
                failures.push(format!(
                    "{}: {}\n{src}",
                    tag.name,
                    schema.diagnostics.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("; ")
                ));
            }
        }
        assert!(failures.is_empty(), "{} of {}:\n{}", failures.len(), TAGS.len(), failures.join("\n"));
    }
}
