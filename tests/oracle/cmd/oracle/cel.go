package main

// Kubernetes' CEL environment as a CRD validation rule sees it: apiserver v0.37.2's base
// environment (pkg/cel/environment, MustBaseEnvSet at DefaultCompatibilityVersion, its
// NewExpressions environment: what a rule written today may use) extended with `self` and
// `oldSelf` as apiextensions-apiserver's compilation.go extends it (prepareEnvSet), the
// program built with compileRule's options (the per-call cost limit, the Kubernetes library
// cost estimator, the interrupt frequency) on top of the base environment's (OptOptimize,
// OptTrackCost), and the static estimate made with that estimator (and, with a schema, the
// schema's sizes as compileRule's sizeEstimator reads them).
//
// A case: {"expr": "...", "schema": {...}?, "self": ..., "oldSelf": ...}. Without a schema
// `self`/`oldSelf` are `dyn` (declared only when given) and their JSON becomes CEL values as
// cel-go's default adapter makes them of what sigs.k8s.io/json decodes (integers as int64).
// With a schema (an OpenAPI v3 schema as a CRD holds it) they are typed by it and converted as
// the API server converts an object (model.SchemaDeclType, UnstructuredToVal).
//
// The answer: {"compile": cel-go's issues text (empty when it compiles), "type": the checked
// output type, "estimate": [min, max], and the evaluation: "value" (rendered, see render) and
// "valueType", or "error" (the evaluation's error text); "cost": the runtime cost}.

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	apiextensionscel "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/model"
	"k8s.io/apimachinery/pkg/util/version"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/environment"
	"k8s.io/apiserver/pkg/cel/library"
	sigsjson "sigs.k8s.io/json"
)

type celCaseInput struct {
	Expr    string          `json:"expr"`
	Schema  json.RawMessage `json:"schema"`
	Self    json.RawMessage `json:"self"`
	OldSelf json.RawMessage `json:"oldSelf"`
}

func celCase(raw json.RawMessage) (out map[string]any, err error) {
	var c celCaseInput
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, err
	}
	defer func() {
		if r := recover(); r != nil {
			out = map[string]any{"panic": fmt.Sprint(r)}
			err = nil
		}
	}()
	selfType := apiservercel.DynType
	var structural *structuralschema.Structural
	if len(c.Schema) > 0 && string(c.Schema) != "null" {
		var v1 apiextensionsv1.JSONSchemaProps
		if err := json.Unmarshal(c.Schema, &v1); err != nil {
			return nil, fmt.Errorf("schema: %w", err)
		}
		var internal apiextensions.JSONSchemaProps
		if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(&v1, &internal, nil); err != nil {
			return nil, fmt.Errorf("schema: %w", err)
		}
		s, err := structuralschema.NewStructural(&internal)
		if err != nil {
			return nil, fmt.Errorf("schema: %w", err)
		}
		structural = s
		if selfType = model.SchemaDeclType(s, false); selfType == nil {
			return nil, fmt.Errorf("schema: no CEL type")
		}
		selfType = selfType.MaybeAssignTypeName("selfType0")
	}
	hasSelf, hasOld := len(c.Self) > 0, len(c.OldSelf) > 0
	var first, second []cel.EnvOption
	var declTypes []*apiservercel.DeclType
	if hasSelf || structural != nil {
		first = append(first, cel.Variable("self", selfType.CelType()))
		if structural != nil {
			declTypes = append(declTypes, selfType)
		}
	}
	if hasOld || structural != nil {
		second = append(second, cel.Variable("oldSelf", selfType.CelType()))
	}
	envSet, err := environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion()).Extend(
		environment.VersionedOptions{IntroducedVersion: version.MajorMinor(1, 0), EnvOptions: first, DeclTypes: declTypes},
		environment.VersionedOptions{IntroducedVersion: version.MajorMinor(1, 24), EnvOptions: second},
	)
	if err != nil {
		return nil, err
	}
	env := envSet.NewExpressionsEnv()
	out = map[string]any{}
	ast, iss := env.Compile(c.Expr)
	if iss != nil && iss.Err() != nil {
		out["compile"] = iss.String()
		return out, nil
	}
	out["compile"] = ""
	out["type"] = ast.OutputType().String()
	estimator := &library.CostEstimator{}
	if structural != nil {
		estimator.SizeEstimator = &schemaSizes{root: selfType}
	}
	if est, err := env.EstimateCost(ast, estimator); err != nil {
		out["estimateError"] = err.Error()
	} else {
		out["estimate"] = []uint64{est.Min, est.Max}
	}
	prog, err := env.Program(ast,
		cel.CostLimit(celconfig.PerCallLimit),
		cel.CostTracking(estimator),
		cel.InterruptCheckFrequency(celconfig.CheckFrequency),
	)
	if err != nil {
		out["program"] = err.Error()
		return out, nil
	}
	vars := map[string]any{}
	for name, text := range map[string]json.RawMessage{"self": c.Self, "oldSelf": c.OldSelf} {
		if len(text) == 0 {
			continue
		}
		var v any
		if err := sigsjson.UnmarshalCaseSensitivePreserveInts(text, &v); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if structural != nil {
			vars[name] = apiextensionscel.UnstructuredToVal(v, structural)
		} else {
			vars[name] = v
		}
	}
	val, details, err := prog.Eval(vars)
	if details != nil && details.ActualCost() != nil {
		out["cost"] = *details.ActualCost()
	}
	if err != nil {
		out["error"] = err.Error()
		return out, nil
	}
	out["value"] = renderCEL(val)
	out["valueType"] = val.Type().TypeName()
	return out, nil
}

// schemaSizes: the sizes a schema allows, as apiextensions-apiserver's compilation.go
// sizeEstimator reads them (the element path below `self`, MaxElements of the type reached).
type schemaSizes struct{ root *apiservercel.DeclType }

func (s *schemaSizes) EstimateSize(element checker.AstNode) *checker.SizeEstimate {
	path := element.Path()
	if len(path) == 0 {
		return nil
	}
	node := s.root
	for _, name := range path[1:] {
		switch name {
		case "@items", "@values":
			node = node.ElemType
		case "@keys":
			node = node.KeyType
		default:
			f, ok := node.Fields[name]
			if !ok {
				return nil
			}
			node = f.Type
		}
		if node == nil {
			return nil
		}
	}
	return &checker.SizeEstimate{Min: 0, Max: uint64(node.MaxElements)}
}

func (s *schemaSizes) EstimateCallCost(function, overloadID string, target *checker.AstNode, args []checker.AstNode) *checker.CallEstimate {
	return nil
}

// renderCEL writes a value in a typed text kubedv's side writes the same way: ints as digits,
// uints with `u`, doubles as `double(` Go's shortest 'g' text `)`, strings and map keys quoted
// as JSON, bytes as `b64(...)`, lists and maps bracketed (map entries sorted by their text),
// timestamps, durations, types and optionals named, and the Kubernetes library's objects as
// `TypeName(text)` (a quantity's text its plain decimal value).
func renderCEL(v ref.Val) string {
	switch v.Type() {
	case types.NullType:
		return "null"
	case types.BoolType:
		return strconv.FormatBool(bool(v.(types.Bool)))
	case types.IntType:
		return strconv.FormatInt(int64(v.(types.Int)), 10)
	case types.UintType:
		return strconv.FormatUint(uint64(v.(types.Uint)), 10) + "u"
	case types.DoubleType:
		return "double(" + renderDouble(float64(v.(types.Double))) + ")"
	case types.StringType:
		b, _ := json.Marshal(string(v.(types.String)))
		return string(b)
	case types.BytesType:
		return "b64(" + base64.StdEncoding.EncodeToString([]byte(v.(types.Bytes))) + ")"
	case types.DurationType:
		return "duration(" + v.(types.Duration).Duration.String() + ")"
	case types.TimestampType:
		return "timestamp(" + v.(types.Timestamp).Time.Format(time.RFC3339Nano) + ")"
	case types.TypeType:
		return "type(" + v.(ref.Type).TypeName() + ")"
	case types.OptionalType:
		o := v.(*types.Optional)
		if !o.HasValue() {
			return "optional.none()"
		}
		return "optional.of(" + renderCEL(o.GetValue()) + ")"
	}
	if l, ok := v.(traits.Lister); ok && v.Type() == types.ListType {
		var parts []string
		n, _ := l.Size().(types.Int)
		for i := types.Int(0); i < n; i++ {
			parts = append(parts, renderCEL(l.Get(i)))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	if m, ok := v.(traits.Mapper); ok && v.Type() == types.MapType {
		var parts []string
		it := m.Iterator()
		for it.HasNext() == types.True {
			k := it.Next()
			parts = append(parts, renderCEL(k)+": "+renderCEL(m.Get(k)))
		}
		sort.Strings(parts)
		return "{" + strings.Join(parts, ", ") + "}"
	}
	if q, ok := v.(apiservercel.Quantity); ok {
		// The plain decimal value (kubedv does not keep a quantity's suffix format, which
		// no CEL function shows).
		text := q.Quantity.AsDec().String()
		if strings.Contains(text, ".") {
			text = strings.TrimSuffix(strings.TrimRight(text, "0"), ".")
		}
		return v.Type().TypeName() + "(" + text + ")"
	}
	native := v.Value()
	if s, ok := native.(fmt.Stringer); ok && native != nil && !(reflect.ValueOf(native).Kind() == reflect.Pointer && reflect.ValueOf(native).IsNil()) {
		return v.Type().TypeName() + "(" + s.String() + ")"
	}
	return v.Type().TypeName() + "(?)"
}

func renderDouble(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "+Inf"
	case math.IsInf(f, -1):
		return "-Inf"
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}
