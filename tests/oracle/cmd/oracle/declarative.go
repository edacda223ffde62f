package main

// validation-gen for pasted types: each suite's types.go becomes a package of this module
// (gen/tN, with the package tags the code-generator's own output tests use:
// +k8s:validation-gen=TypesWithField=TypeMeta and the testscheme registry), validation-gen
// v0.37.2 generates its validations, and a harness compiled around every generated package
// validates the suite's objects as the generated code does (testscheme.Validate /
// ValidateUpdate with the case's options and subresources).
//
// A case (one suite of types): {"id": ..., "types": "<Go source>", "root": "TypeName",
// "cases": [{"object": JSON, "old": JSON|null, "options": [...], "subresource": "/status"}]}.
// The answer: {"refused": "why"} when validation-gen refuses the types (or its output does not
// compile), else {"results": [{"errors": [{"text", "stability"}]} | {"undecodable": "why"}]},
// one per case, the errors in the order the generated code returns them.
//
// The root type is tagged `+k8s:validation-gen=true` (a type's opt-in), so it is registered
// whatever fields it has. Objects are decoded as the API server decodes a request
// body into its Go type (sigs.k8s.io/json, case-sensitive, integers kept).

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

type declarativeSuite struct {
	ID    string            `json:"id"`
	Types string            `json:"types"`
	Root  string            `json:"root"`
	Cases []json.RawMessage `json:"cases"`
}

var (
	packageClause = regexp.MustCompile(`(?m)^package\s+(\w+)`)
	optionTag     = regexp.MustCompile(`\+k8s:if(?:Enabled|Disabled)\(\s*"?(\w+)"?\s*\)`)
)

func runDeclarative(args []string) error {
	fs := flag.NewFlagSet("declarative", flag.ContinueOnError)
	bin := fs.String("bin", "", "directory holding validation-gen")
	module := fs.String("module", ".", "the oracle's Go module directory (tests/oracle)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var suites []declarativeSuite
	if err := readCases(os.Stdin, func(id string, raw json.RawMessage) error {
		var s declarativeSuite
		if err := json.Unmarshal(raw, &s); err != nil {
			return fmt.Errorf("case %s: %w", id, err)
		}
		suites = append(suites, s)
		return nil
	}); err != nil {
		return err
	}
	gen := filepath.Join(*module, "gen")
	if err := os.RemoveAll(gen); err != nil {
		return err
	}
	refused := map[int]string{}
	var pkgs []int
	for i, s := range suites {
		if s.Root == "" {
			refused[i] = "no root type"
			continue
		}
		if err := writePackage(gen, i, s); err != nil {
			refused[i] = err.Error()
			continue
		}
		pkgs = append(pkgs, i)
	}
	// One validation-gen run for every package; when it fails, one run per package finds the
	// ones it refuses.
	vgen := filepath.Join(*bin, "validation-gen")
	if _, err := generate(vgen, *module, pkgs); err != nil {
		var ok []int
		for _, i := range pkgs {
			if out, err := generate(vgen, *module, []int{i}); err != nil {
				refused[i] = "validation-gen: " + lastLines(out, 5)
			} else {
				ok = append(ok, i)
			}
		}
		pkgs = ok
	}
	// The harness; a package whose generated code does not compile is refused and left out.
	var harness string
	for {
		var out string
		var err error
		harness, out, err = buildHarness(*module, gen, pkgs, suites)
		if err == nil {
			break
		}
		bad := map[int]bool{}
		for _, m := range regexp.MustCompile(`gen/t(\d+)/`).FindAllStringSubmatch(out, -1) {
			var n int
			fmt.Sscan(m[1], &n)
			bad[n] = true
		}
		if len(bad) == 0 {
			return fmt.Errorf("building the harness: %s", out)
		}
		var ok []int
		for _, i := range pkgs {
			if bad[i] {
				// The compiler's lines about this package only.
				var mine []string
				for _, line := range strings.Split(out, "\n") {
					if strings.Contains(line, fmt.Sprintf("gen/t%d/", i)) {
						mine = append(mine, line)
					}
				}
				refused[i] = "the generated code does not compile: " + lastLines(strings.Join(mine, "\n"), 5)
			} else {
				ok = append(ok, i)
			}
		}
		pkgs = ok
	}
	// Every case of the packages that compiled, through the harness at once.
	var input bytes.Buffer
	for _, i := range pkgs {
		// Every option the types mention is defined (off unless a case turns it on), as the API
		// server defines every gate: testscheme refuses an undefined one ("undefined validation
		// option").
		var options []string
		for _, m := range optionTag.FindAllStringSubmatch(suites[i].Types, -1) {
			options = append(options, m[1])
		}
		line, _ := json.Marshal(map[string]any{"pkg": fmt.Sprintf("t%d", i), "root": suites[i].Root, "options": options, "cases": suites[i].Cases})
		input.Write(line)
		input.WriteByte('\n')
	}
	cmd := exec.Command(harness)
	cmd.Stdin = &input
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("the harness: %w", err)
	}
	results := map[int]json.RawMessage{}
	lines := bytes.Split(bytes.TrimSpace(out), []byte("\n"))
	for n, i := range pkgs {
		if n < len(lines) {
			results[i] = lines[n]
		}
	}
	for i, s := range suites {
		answer := map[string]any{}
		if why, ok := refused[i]; ok {
			answer["refused"] = why
		} else if r, ok := results[i]; ok {
			answer["results"] = r
		} else {
			answer["refused"] = "no answer from the harness"
		}
		if err := writeAnswer(s.ID, answer); err != nil {
			return err
		}
	}
	return nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// writePackage writes gen/tN: doc.go with the package tags (unless the types carry their
// own) and types.go, the root opted in.
func writePackage(gen string, i int, s declarativeSuite) error {
	m := packageClause.FindStringSubmatchIndex(s.Types)
	if m == nil {
		return errors.New("the types have no package clause")
	}
	name := s.Types[m[2]:m[3]]
	// What precedes the package clause in the types as given (the root's opt-in below may be
	// written inside a malformed clause, "package\ntype T ...").
	head := s.Types[:m[0]]
	dir := filepath.Join(gen, fmt.Sprintf("t%d", i))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	// The root is made a validation root as a type may opt in (validation-gen targets.go:
	// `+k8s:validation-gen=true` in its comment), whatever its kind.
	types := s.Types
	root := regexp.MustCompile(`(?m)^type\s+` + regexp.QuoteMeta(s.Root) + `\b`)
	loc := root.FindStringIndex(types)
	if loc == nil {
		return fmt.Errorf("no type %s", s.Root)
	}
	types = types[:loc[0]] + "// +k8s:validation-gen=true\n" + types[loc[0]:]
	var doc strings.Builder
	// Package tags above the types' package clause (`+k8s:validation-gen-nolint`, ...) are read
	// by validation-gen from doc.go.
	for _, line := range strings.Split(head, "\n") {
		if t := strings.TrimSpace(line); strings.HasPrefix(t, "// +k8s:") {
			doc.WriteString(t + "\n")
		}
	}
	if !strings.Contains(s.Types, "+k8s:validation-gen=") {
		doc.WriteString("// +k8s:validation-gen=TypesWithField=TypeMeta\n")
	}
	if !strings.Contains(s.Types, "+k8s:validation-gen-scheme-registry") {
		doc.WriteString("// +k8s:validation-gen-scheme-registry=k8s.io/code-generator/cmd/validation-gen/testscheme.Scheme\n")
	}
	doc.WriteString("\npackage " + name + "\n\nimport \"k8s.io/code-generator/cmd/validation-gen/testscheme\"\n\nvar localSchemeBuilder = testscheme.New()\n")
	if err := os.WriteFile(filepath.Join(dir, "doc.go"), []byte(doc.String()), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "types.go"), []byte(types), 0o644)
}

func generate(vgen, module string, pkgs []int) (string, error) {
	if len(pkgs) == 0 {
		return "", nil
	}
	// The read-only packages of Kubernetes' own codegen (hack/update-codegen.sh) and meta/v1
	// (TypeMeta, ObjectMeta). Kubernetes generates ObjectMeta's validation as an input package
	// (meta/v1/validation); read-only here, it trips validation-gen's custom-validation check,
	// so code for types with an ObjectMeta field does not link (the case is refused).
	args := []string{"--output-file", "zz_generated.validations.go"}
	for _, p := range []string{"k8s.io/apimachinery/pkg/api/resource", "k8s.io/apimachinery/pkg/runtime",
		"k8s.io/apimachinery/pkg/types", "k8s.io/apimachinery/pkg/util/intstr", "time", "k8s.io/apimachinery/pkg/apis/meta/v1"} {
		args = append(args, "--readonly-pkg", p)
	}
	for _, i := range pkgs {
		args = append(args, fmt.Sprintf("kubedv.dev/oracle/gen/t%d", i))
	}
	cmd := exec.Command(vgen, args...)
	cmd.Dir = module
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// buildHarness writes gen/harness (every package registered) and builds it.
func buildHarness(module, gen string, pkgs []int, suites []declarativeSuite) (string, string, error) {
	dir := filepath.Join(gen, "harness")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", "", err
	}
	sort.Ints(pkgs)
	var b strings.Builder
	b.WriteString("package main\n\nimport (\n\t\"reflect\"\n\n")
	for _, i := range pkgs {
		fmt.Fprintf(&b, "\tt%d \"kubedv.dev/oracle/gen/t%d\"\n", i, i)
	}
	// (With no package to register, every case's types refused, reflect stays used.)
	b.WriteString(")\n\nvar _ = reflect.TypeOf\n\nfunc init() {\n")
	for _, i := range pkgs {
		// A package whose types declare no validation gets no registration function.
		register := "nil"
		if generated, _ := os.ReadFile(filepath.Join(gen, fmt.Sprintf("t%d", i), "zz_generated.validations.go")); bytes.Contains(generated, []byte("func RegisterValidations(")) {
			register = fmt.Sprintf("t%d.RegisterValidations", i)
		}
		fmt.Fprintf(&b, "\tpackages[%q] = pkg{register: %s, root: reflect.TypeOf((*t%d.%s)(nil)).Elem()}\n", fmt.Sprintf("t%d", i), register, i, suites[i].Root)
	}
	b.WriteString("}\n")
	if err := os.WriteFile(filepath.Join(dir, "packages.go"), []byte(b.String()), 0o644); err != nil {
		return "", "", err
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(harnessMain), 0o644); err != nil {
		return "", "", err
	}
	bin := filepath.Join(dir, "harness")
	cmd := exec.Command("go", "build", "-o", bin, "./gen/harness")
	cmd.Dir = module
	out, err := cmd.CombinedOutput()
	return bin, string(out), err
}

// harnessMain validates each suite's objects, decoded into the root's Go type, with the
// functions its package registered.
const harnessMain = `package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/code-generator/cmd/validation-gen/testscheme"
	sigsjson "sigs.k8s.io/json"
)

type pkg struct {
	register func(*testscheme.Scheme) error
	root     reflect.Type
}

var packages = map[string]pkg{}

type testCase struct {
	Object      json.RawMessage ` + "`json:\"object\"`" + `
	Old         json.RawMessage ` + "`json:\"old\"`" + `
	Options     []string        ` + "`json:\"options\"`" + `
	Subresource string          ` + "`json:\"subresource\"`" + `
}

func stability(e *field.Error) string {
	switch {
	case e.IsAlpha():
		return "alpha"
	case e.IsBeta():
		return "beta"
	}
	return "stable"
}

// validate runs the generated code; a panic in it (the API server's handler would turn one into
// a 500) is returned, not raised.
func validate(s *testscheme.Scheme, options map[string]bool, obj, old reflect.Value, sub []string) (errs field.ErrorList, panicked any) {
	defer func() { panicked = recover() }()
	if old.IsValid() {
		return s.ValidateUpdate(context.Background(), options, obj.Interface(), old.Interface(), sub...), nil
	}
	return s.Validate(context.Background(), options, obj.Interface(), sub...), nil
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 256<<20)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for in.Scan() {
		var suite struct {
			Pkg   string     ` + "`json:\"pkg\"`" + `
			Root  string     ` + "`json:\"root\"`" + `
			Options []string ` + "`json:\"options\"`" + `
			Cases []testCase ` + "`json:\"cases\"`" + `
		}
		if err := json.Unmarshal(in.Bytes(), &suite); err != nil {
			panic(err)
		}
		s := testscheme.New()
		p := packages[suite.Pkg]
		if p.register != nil {
			s.Register(p.register)
		}
		t := p.root
		results := []any{}
		for _, c := range suite.Cases {
			obj := reflect.New(t)
			if err := sigsjson.UnmarshalCaseSensitivePreserveInts(c.Object, obj.Interface()); err != nil {
				results = append(results, map[string]any{"undecodable": err.Error()})
				continue
			}
			options := map[string]bool{}
			for _, o := range suite.Options {
				options[o] = false
			}
			for _, o := range c.Options {
				options[o] = true
			}
			var sub []string
			if c.Subresource != "" {
				sub = strings.Split(strings.TrimPrefix(c.Subresource, "/"), "/")
			}
			var old reflect.Value
			if len(c.Old) > 0 && string(c.Old) != "null" {
				old = reflect.New(t)
				if err := sigsjson.UnmarshalCaseSensitivePreserveInts(c.Old, old.Interface()); err != nil {
					results = append(results, map[string]any{"undecodable": "old: " + err.Error()})
					continue
				}
			}
			errs, panicked := validate(s, options, obj, old, sub)
			if panicked != nil {
				results = append(results, map[string]any{"panic": fmt.Sprint(panicked)})
				continue
			}
			list := []map[string]string{}
			for _, e := range errs {
				list = append(list, map[string]string{"text": e.Error(), "stability": stability(e)})
			}
			results = append(results, map[string]any{"errors": list})
		}
		b, _ := json.Marshal(results)
		out.Write(b)
		out.WriteByte('\n')
	}
}
`
