//! Kubernetes' escaping of property names into CEL identifiers (apiserver `pkg/cel/escaping.go`
//! `Escape`), checked against every row of apiserver's own `TestEscaping`
//! (`pkg/cel/escaping_test.go`, copied unmodified to `tests/corpus/apiserver/`): the rows are
//! read out of the Go file.

use kubedv_core::cel::schema::escape;

const GO: &str = corpus!("apiserver/escaping_test.go");

/// The quoted Go string after `key: ` on a line, if any (these rows need no unescaping).
fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let rest = &line[line.find(&format!("{key}: \""))? + key.len() + 3..];
    Some(&rest[..rest.find('"')?])
}

#[test]
fn test_escaping_rows() {
    let body = &GO[GO.find("func TestEscaping(").unwrap()..GO.find("func TestUnescapeMalformed(").unwrap()];
    let mut rows = 0;
    for line in body.lines().filter(|l| l.trim_start().starts_with("{unescaped:")) {
        let unescaped = field(line, "unescaped").unwrap();
        let want = if line.contains("unescapable: true") { None } else { Some(field(line, ", escaped").unwrap()) };
        assert_eq!(escape(unescaped).as_deref(), want, "{unescaped}");
        rows += 1;
    }
    assert_eq!(rows, 59, "the rows of TestEscaping");
}
