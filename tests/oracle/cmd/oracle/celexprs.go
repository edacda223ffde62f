package main

// `oracle cel-exprs FILE...`: every CEL expression of Go test tables, as JSON lines
// {"expr", "source"}: the string value of each `expr:` field of a composite literal (the shape
// of apiserver pkg/cel/library's tables), with the file's base name and line. This is how the
// `cel` suite's corpus of Kubernetes' own expressions is made (tests/corpus/cel).

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	gotoken "go/token"
	"path/filepath"
	"strconv"
)

func runCELExprs(files []string) error {
	fset := gotoken.NewFileSet()
	for _, path := range files {
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		var werr error
		ast.Inspect(f, func(n ast.Node) bool {
			kv, ok := n.(*ast.KeyValueExpr)
			if !ok {
				return true
			}
			key, ok := kv.Key.(*ast.Ident)
			lit, isLit := kv.Value.(*ast.BasicLit)
			if !ok || key.Name != "expr" || !isLit || lit.Kind != gotoken.STRING {
				return true
			}
			expr, err := strconv.Unquote(lit.Value)
			if err != nil {
				werr = err
				return false
			}
			source := filepath.Base(path) + ":" + strconv.Itoa(fset.Position(lit.Pos()).Line)
			b, _ := json.Marshal(map[string]string{"expr": expr, "source": source})
			stdout.Write(b)
			stdout.WriteByte('\n')
			return true
		})
		if werr != nil {
			return werr
		}
	}
	return stdout.Flush()
}
