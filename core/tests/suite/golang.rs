//! The Go declarations parser on what real `types.go` / `doc.go` files contain (Go language
//! specification: declarations, comments, automatic semicolons, struct tags per
//! reflect.StructTag).

use kubedv_core::golang::{parse_file, StructTag, TypeExpr};

const SRC: &str = r#"
// Package v1 is the v1 version of the API.
// +k8s:validation-gen=TypesWithField=TypeMeta
package v1

import (
	"fmt"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	. "strings"
)

import "k8s.io/apimachinery/pkg/util/intstr"

var SchemeGroupVersion = schema.GroupVersion{Group: "apps", Version: "v1"}

var (
	a, b = 1, 2
	c    = map[string]int{"}": 1}
)

func Resource(resource string) schema.GroupResource {
	if resource == "}" {
		return nil
	}
	s := `raw }
string`
	_ = '}'
	return SchemeGroupVersion.WithResource(resource).GroupResource()
}

func (w *Widget) DeepCopy() *Widget { x := struct{ A int }{1}; _ = x; return w }

/*
 * Widget is a thing.
 */
// +k8s:supportsSubresource="/status"
type Widget struct {
	metav1.TypeMeta `json:",inline"`
	// Standard object metadata.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec is the desired state.
	// +k8s:required
	Spec *WidgetSpec `json:"spec"` // trailing comment, not a doc comment

	// +k8s:maxLength=3
	A, B string
	private int
	Raw [16]byte `json:"raw" protobuf:"bytes,1,opt,name=raw"`
	Fn func(int) (string, error) `json:"-"`
	Ch chan<- int
	Recv <-chan string
	Any interface {
		Foo() string
	}
	Nested struct {
		// +k8s:minimum=1
		X int `json:"x"`
	} `json:"nested"`
	Port intstr.IntOrString `json:"port"`
}

type (
	// +k8s:enum
	Phase string

	Alias = Phase
	Pair  [2]Phase
)

const (
	// PhaseA is a.
	PhaseA Phase = "A"
	PhaseB Phase = `B`
	// +k8s:enumExclude
	PhaseC Phase = "C" // trailing
	Untyped      = "x"
	Computed Phase = "a" + "b"
	One, Two = 1, 2
)

const Single Phase = "single"
"#;

#[test]
fn reads_a_realistic_types_file() {
    let (file, diags) = parse_file(SRC);
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(file.package, "v1");
    assert_eq!(file.package_comments.len(), 2);
    let imports: Vec<(&str, &str)> = file.imports.iter().map(|i| (i.name.as_str(), i.path.as_str())).collect();
    assert_eq!(
        imports,
        [
            ("fmt", "fmt"),
            ("metav1", "k8s.io/apimachinery/pkg/apis/meta/v1"),
            (".", "strings"),
            ("intstr", "k8s.io/apimachinery/pkg/util/intstr")
        ]
    );
    let names: Vec<&str> = file.types.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["Widget", "Phase", "Alias", "Pair"]);

    let widget = &file.types[0];
    let doc: Vec<&str> = widget.comments.iter().map(|c| c.text.trim()).collect();
    assert_eq!(doc, ["", "* Widget is a thing.", "", "+k8s:supportsSubresource=\"/status\""]);
    let TypeExpr::Struct(fields) = &widget.ty else { panic!("struct") };
    let fnames: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(
        fnames,
        ["TypeMeta", "ObjectMeta", "Spec", "A", "B", "private", "Raw", "Fn", "Ch", "Recv", "Any", "Nested", "Port"]
    );
    assert!(fields[0].embedded && fields[1].embedded && !fields[2].embedded);
    let spec_doc: Vec<&str> = fields[2].comments.iter().map(|c| c.text.trim()).collect();
    assert_eq!(spec_doc, ["spec is the desired state.", "+k8s:required"]);
    assert_eq!(fields[3].comments, fields[4].comments, "A, B share the doc comment");
    assert!(fields[5].comments.is_empty(), "a trailing comment is not the next field's doc");
    assert!(matches!(&fields[6].ty, TypeExpr::Array(_)));
    assert_eq!(StructTag::parse(fields[6].tag.as_deref().unwrap()).name.as_deref(), Some("raw"));
    assert!(StructTag::parse(fields[7].tag.as_deref().unwrap()).skip);
    assert!(matches!(&fields[11].ty, TypeExpr::Struct(inner) if inner[0].comments[0].text.trim() == "+k8s:minimum=1"));

    let consts: Vec<(&str, Option<&str>, Option<&str>)> =
        file.consts.iter().map(|c| (c.name.as_str(), c.type_name.as_deref(), c.string_value.as_deref())).collect();
    assert_eq!(
        consts,
        [
            ("PhaseA", Some("Phase"), Some("A")),
            ("PhaseB", Some("Phase"), Some("B")),
            ("PhaseC", Some("Phase"), Some("C")),
            ("Untyped", None, Some("x")),
            ("Computed", Some("Phase"), None),
            ("One", None, None),
            ("Two", None, None),
            ("Single", Some("Phase"), Some("single")),
        ]
    );
    assert_eq!(file.consts[2].comments[0].text.trim(), "+k8s:enumExclude");
}

#[test]
fn struct_tags_follow_reflect() {
    let t = StructTag::parse(r#"json:"name,omitempty" protobuf:"bytes,1,opt,name=name""#);
    assert_eq!((t.name.as_deref(), t.omitempty, t.inline, t.skip), (Some("name"), true, false, false));
    let t = StructTag::parse(r#"json:",inline""#);
    assert_eq!((t.name, t.inline), (None, true));
    assert!(StructTag::parse(r#"json:"-""#).skip);
    assert_eq!(StructTag::parse(r#"json:"-,""#).name.as_deref(), Some("-"));
    assert_eq!(StructTag::parse(r#"yaml:"x""#).name, None);
    assert_eq!(StructTag::parse(r#"json:"a\"b""#).name.as_deref(), Some("a\"b"));
}

#[test]
fn hostile_input_gives_diagnostics_not_panics() {
    let deep = format!("package p\ntype T {}int\n", "[]".repeat(10_000));
    let (_, diags) = parse_file(&deep);
    assert!(diags.iter().any(|d| d.message == "types nest more than 64 levels deep"), "{diags:?}");
    for src in [
        "",
        "package",
        "package p\ntype",
        "type (",
        "type T struct {",
        "const (",
        "import (",
        "\"",
        "`",
        "/*",
        "'",
        "package p\nfunc f() {",
        "\u{0}\u{ffff}",
    ] {
        let _ = parse_file(src);
    }
    let (_, diags) = parse_file("package p\ntype A struct {\n\tB int `json:\"b\"\n}\n");
    assert_eq!(diags[0].to_string(), "3:8: error: unterminated raw string literal: add the closing `");
}
