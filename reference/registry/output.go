package registry

import (
	"math"
	"strconv"
	"strings"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// The typed error info of a tool value the registry refuses
// (CODE-LOSSLESS-1, SEARCH-VAL-3).
const (
	ToolOutputErrorName = "ToolOutputError"
	ToolOutputErrorCode = "INVALID_TOOL_OUTPUT"
)

// ToolOutputError returns a fresh copy of the invalid-output error info.
func ToolOutputError() *ErrorInfo {
	return &ErrorInfo{Name: ToolOutputErrorName, Code: ToolOutputErrorCode}
}

// NotLossless is the violation of a value that does not survive a JSON round
// trip (a -0, a non-finite number).
const NotLossless = "value is not lossless JSON"

// InvalidOutputMessage is the registry's message for a refused tool value:
// `tool "<name>" returned invalid output: <violations joined by "; ">`
// (wording probed from @deepseek-ai/dsh-tools 0.1.0-rc.8).
func InvalidOutputMessage(tool string, violations []string) string {
	return `tool "` + tool + `" returned invalid output: ` + strings.Join(violations, "; ")
}

// IsLossless reports whether v survives a JSON round trip unchanged: every
// number finite and not -0. JSON text can still produce both (JSON.parse
// reads "-0" as -0 and "1e400" as Infinity), and the registry's snapshot of
// a tool value refuses them before the schema check.
func IsLossless(v jsonjs.Value) bool {
	return !jsonjs.AnyNumber(v, func(f float64) bool {
		return math.IsNaN(f) || math.IsInf(f, 0) || (f == 0 && math.Signbit(f))
	})
}

// Schema is the subset of the registry's value-schema DSL the tools here
// declare: objects (declared properties, some required, no others allowed
// when Closed), arrays of one item schema, strings and integers.
type Schema struct {
	Type   string // "object", "array", "string", "integer"
	Props  []Prop // objects, in declaration order
	Closed bool   // additionalProperties: false
	Items  *Schema
}

// Prop is one declared object property.
type Prop struct {
	Name     string
	Required bool
	Schema   *Schema
}

// CheckOutput returns the registry's violations of value against schema in
// its walk order, or nil: a value that is not lossless first (the snapshot),
// then per object the missing required properties, the declared members'
// own violations in declaration order and the undeclared members in
// property order; per array the items in order.
func CheckOutput(schema *Schema, value jsonjs.Value) []string {
	if !IsLossless(value) {
		return []string{NotLossless}
	}
	return check(schema, value, "value")
}

func check(s *Schema, v jsonjs.Value, path string) []string {
	switch s.Type {
	case "object":
		members, ok := v.Members()
		if !ok {
			return []string{`"` + path + `" must be an object`}
		}
		var out, tail []string
		for _, p := range s.Props {
			if p.Required && !v.Has(p.Name) {
				out = append(out, `missing required property "`+path+`.`+p.Name+`"`)
			}
		}
		for _, p := range s.Props {
			if pv, ok := v.Get(p.Name); ok {
				out = append(out, check(p.Schema, pv, path+"."+p.Name)...)
			}
		}
		if s.Closed {
			for _, m := range jsonjs.PropertyOrder(members) {
				if !s.declares(m.Key) {
					tail = append(tail, `"`+path+`.`+m.Key+`" is not a declared property (additionalProperties: false)`)
				}
			}
		}
		return append(out, tail...)
	case "array":
		items, ok := v.Items()
		if !ok {
			return []string{`"` + path + `" must be an array`}
		}
		var out []string
		for i, it := range items {
			out = append(out, check(s.Items, it, path+"["+strconv.Itoa(i)+"]")...)
		}
		return out
	case "string":
		if v.Kind() != jsonjs.String {
			return []string{`"` + path + `" must be a string`}
		}
	case "integer":
		if !v.IsInteger() {
			return []string{`"` + path + `" must be an integer`}
		}
	}
	return nil
}

func (s *Schema) declares(key string) bool {
	for _, p := range s.Props {
		if p.Name == key {
			return true
		}
	}
	return false
}
