// Command oracle answers kubedv's differential cases with Kubernetes v1.37.2's own code.
//
// Each mode reads cases as JSON lines on stdin ({"id": ..., ...}) and writes one answer per
// case as a JSON line on stdout, in the order read:
//
//	oracle apiserver --bin DIR   a real etcd and kube-apiserver (DIR/etcd, DIR/kube-apiserver)
//	                             on loopback; cases are API requests (apiserver.go)
//	oracle yaml                  kubectl's reading of a manifest file (yaml.go)
//	oracle cel-conformance       the CEL specification's conformance tests run by cel-go at the
//	                             version Kubernetes v1.37.2 builds with (celconformance.go)
//	oracle cel                   Kubernetes' CEL environment as a CRD rule sees it: compile
//	                             errors, types, values, costs (cel.go)
//	oracle cel-exprs FILE...     the `expr:` strings of Go test tables, as the cel corpus
//	                             (celexprs.go)
//	oracle declarative --bin DIR validation-gen on pasted types, a harness around its output
//	                             (declarative.go)
//	oracle version               the versions the answers come from
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: oracle <apiserver --bin DIR | yaml | cel-conformance | version>")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "apiserver":
		err = runAPIServer(os.Args[2:])
	case "declarative":
		err = runDeclarative(os.Args[2:])
	case "yaml":
		err = eachCase(yamlCase)
	case "cel-conformance":
		err = eachCase(celConformanceCase)
	case "cel":
		err = eachCase(celCase)
	case "cel-exprs":
		err = runCELExprs(os.Args[2:])
	case "version":
		fmt.Println(oracleVersion())
	default:
		err = fmt.Errorf("unknown mode %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "oracle:", err)
		os.Exit(1)
	}
}

// eachCase runs answer on every JSON line of stdin, writing its answer (with the case's id) as a
// JSON line on stdout.
func eachCase(answer func(raw json.RawMessage) (map[string]any, error)) error {
	return readCases(os.Stdin, func(id string, raw json.RawMessage) error {
		out, err := answer(raw)
		if err != nil {
			return fmt.Errorf("case %s: %w", id, err)
		}
		return writeAnswer(id, out)
	})
}

func readCases(r io.Reader, each func(id string, raw json.RawMessage) error) error {
	scanner := bufio.NewScanner(r)
	scanner.Buffer(make([]byte, 1<<20), 256<<20)
	for scanner.Scan() {
		line := scanner.Bytes()
		if len(line) == 0 {
			continue
		}
		var head struct {
			ID string `json:"id"`
		}
		if err := json.Unmarshal(line, &head); err != nil {
			return fmt.Errorf("reading a case: %w", err)
		}
		if err := each(head.ID, append(json.RawMessage(nil), line...)); err != nil {
			return err
		}
	}
	return scanner.Err()
}

var stdout = bufio.NewWriter(os.Stdout)

func writeAnswer(id string, answer map[string]any) error {
	answer["id"] = id
	b, err := json.Marshal(answer)
	if err != nil {
		return err
	}
	stdout.Write(b)
	stdout.WriteByte('\n')
	return stdout.Flush()
}

// oracleVersion names the modules the answers come from, as this binary was built with them.
func oracleVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	var parts []string
	for _, d := range info.Deps {
		switch d.Path {
		case "k8s.io/kubernetes", "k8s.io/apiserver", "k8s.io/apimachinery", "github.com/google/cel-go", "go.etcd.io/etcd/server/v3":
			v := d.Version
			if d.Replace != nil {
				v = d.Replace.Version
			}
			parts = append(parts, d.Path+"@"+v)
		}
	}
	return info.GoVersion + " " + strings.Join(parts, " ")
}
