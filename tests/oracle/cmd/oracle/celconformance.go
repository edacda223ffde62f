package main

// The CEL specification's "simple" conformance tests run by cel-go at the version Kubernetes
// v1.37.2 builds with (github.com/google/cel-go v0.29.2, go.mod), with every cel-go extension
// library kubedv's conformance runner enables (strings, math, encoders, bindings, lists, sets,
// two-variable comprehensions, optionals, protos) and cross-type numeric comparisons, as the
// Kubernetes environment has them (apiserver pkg/cel/environment/base.go).
//
// A case: {"id": FILE, "text": "<textproto of a SimpleTestFile>"}. The answer: {"tests":
// {"file/section/test": {"pass": bool, "why": "..."}}}. Which expectation a test has is the
// specification's; "pass" says whether cel-go meets it.

import (
	"encoding/json"
	"fmt"

	celpb "cel.dev/expr"
	"cel.dev/expr/conformance/proto2"
	"cel.dev/expr/conformance/proto3"
	conformance "cel.dev/expr/conformance/test"
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/ext"
	exprpb "google.golang.org/genproto/googleapis/api/expr/v1alpha1"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"
)

func celConformanceCase(raw json.RawMessage) (map[string]any, error) {
	var c struct {
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, err
	}
	var file conformance.SimpleTestFile
	if err := (prototext.UnmarshalOptions{DiscardUnknown: true}).Unmarshal([]byte(c.Text), &file); err != nil {
		return nil, fmt.Errorf("reading the textproto: %w", err)
	}
	tests := map[string]any{}
	for _, section := range file.GetSection() {
		for _, t := range section.GetTest() {
			name := file.GetName() + "/" + section.GetName() + "/" + t.GetName()
			why := runConformanceTest(t)
			tests[name] = map[string]any{"pass": why == "", "why": why}
		}
	}
	return map[string]any{"tests": tests}, nil
}

func conformanceEnv(t *conformance.SimpleTest) (*cel.Env, error) {
	opts := []cel.EnvOption{
		cel.Container(t.GetContainer()),
		cel.Types(&proto2.TestAllTypes{}, &proto3.TestAllTypes{}),
		cel.CrossTypeNumericComparisons(true),
		cel.OptionalTypes(),
		ext.Strings(),
		ext.Math(),
		ext.Encoders(),
		ext.Protos(),
		ext.Bindings(),
		ext.Lists(),
		ext.Sets(),
		ext.TwoVarComprehensions(),
	}
	if t.GetDisableMacros() {
		opts = append(opts, cel.ClearMacros())
	}
	for _, d := range t.GetTypeEnv() {
		b, err := proto.Marshal(d)
		if err != nil {
			return nil, err
		}
		var alpha exprpb.Decl
		if err := proto.Unmarshal(b, &alpha); err != nil {
			return nil, err
		}
		opts = append(opts, cel.Declarations(&alpha))
	}
	return cel.NewEnv(opts...)
}

// runConformanceTest returns "" when cel-go meets the test's expectation, else what it gave.
func runConformanceTest(t *conformance.SimpleTest) (why string) {
	defer func() {
		if r := recover(); r != nil {
			why = fmt.Sprintf("panic: %v", r)
		}
	}()
	env, err := conformanceEnv(t)
	if err != nil {
		return "environment: " + err.Error()
	}
	expectsError := t.GetEvalError() != nil || t.GetAnyEvalErrors() != nil
	var ast *cel.Ast
	var iss *cel.Issues
	typed := t.GetTypedResult()
	if t.GetDisableCheck() && typed == nil && !t.GetCheckOnly() {
		ast, iss = env.Parse(t.GetExpr())
	} else {
		ast, iss = env.Compile(t.GetExpr())
	}
	if iss.Err() != nil {
		if expectsError {
			return ""
		}
		return "compile error: " + iss.Err().Error()
	}
	if typed != nil && typed.GetDeducedType() != nil {
		want, err := cel.ExprTypeToType(alphaType(typed.GetDeducedType()))
		if err == nil && !want.IsExactType(ast.OutputType()) {
			return fmt.Sprintf("deduced type %s, want %s", ast.OutputType(), want)
		}
	}
	if t.GetCheckOnly() {
		return ""
	}
	if t.GetUnknown() != nil || t.GetAnyUnknowns() != nil {
		return "unknowns are not evaluated by this runner"
	}
	prg, err := env.Program(ast)
	if err != nil {
		if expectsError {
			return ""
		}
		return "program: " + err.Error()
	}
	vars := map[string]any{}
	for k, v := range t.GetBindings() {
		val, err := cel.ProtoAsValue(types.DefaultTypeAdapter, v.GetValue())
		if err != nil {
			return "binding " + k + ": " + err.Error()
		}
		vars[k] = val
	}
	out, _, err := prg.Eval(vars)
	if err != nil || types.IsError(out) {
		if expectsError {
			return ""
		}
		return fmt.Sprintf("error: %v", err)
	}
	if expectsError {
		return fmt.Sprintf("got %v, want an error", out)
	}
	want := t.GetValue()
	if want == nil && typed != nil {
		want = typed.GetResult()
	}
	if want == nil {
		want = &celpb.Value{Kind: &celpb.Value_BoolValue{BoolValue: true}}
	}
	if !sameValue(out, want) {
		return fmt.Sprintf("got %v (%s), want %v", out, out.Type().TypeName(), prototext.Format(want))
	}
	return ""
}

func alphaType(t *celpb.Type) *exprpb.Type {
	b, _ := proto.Marshal(t)
	var out exprpb.Type
	_ = proto.Unmarshal(b, &out)
	return &out
}

// sameValue: the value's proto form equals the expectation's, or (for maps, whose proto form has
// no order) the two are equal CEL values of the same type.
func sameValue(got ref.Val, want *celpb.Value) bool {
	if p, err := cel.ValueAsProto(got); err == nil && proto.Equal(p, want) {
		return true
	}
	w, err := cel.ProtoAsValue(types.DefaultTypeAdapter, want)
	if err != nil {
		return false
	}
	return got.Type() == w.Type() && got.Equal(w) == types.True
}
