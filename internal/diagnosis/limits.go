package diagnosis

import (
	"math"
	"regexp"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// Models of how a port reads its input JSON: a parser with a nesting limit
// (CODE-JSON-3 asks for none), and numbers that do not survive the reader
// (-0 read as the integer 0, an overflowing number refused or read as
// null), which the reference keeps and judges by place.

// depthLimit is the nesting beyond which the models' parsers refuse:
// serde_json's default is 128, Python's recursion limit about 1000.
const depthLimit = 128

// lossyPlaces are, per op, where a -0 or an overflowing number is judged,
// and the rule that judges it.
var lossyPlaces = map[string][]struct {
	path []string
	req  string
}{
	"run_code.result": {{[]string{"run", "result"}, "CODE-LOSSLESS-1"}},
	"grep.result":     {{[]string{"value"}, "SEARCH-VAL-1"}},
	"glob.result":     {{[]string{"value"}, "SEARCH-VAL-2"}},
	"search.present":  {{[]string{"result", "meta"}, "SEARCH-NARROW-3"}},
	"spill.preview":   {{[]string{"maxInlineBytes"}, "SPILL-CFG-1"}},
	"retain.items":    {{[]string{"strategy"}, "RET-ITEM-1"}},
	"retain.text":     {{[]string{"strategy"}, "RET-TEXT-2"}},
}

func readerModels() []Model {
	return []Model{
		{
			Name: "depth-limit", Requirement: "CODE-JSON-3",
			Behaves:   "a JSON reader or writer with a nesting limit: a value nested deeper is refused",
			Functions: []string{"Rust: serde_json::from_str (128 levels without unbounded_depth)", "Python: json.loads, json.dumps, recursive functions (RecursionError)"},
			Fix:       "read and render without a depth limit: serde_json's unbounded_depth feature with serde_stacker, an explicit stack instead of recursion",
			place: func(op string, input jsonjs.Value) (string, bool) {
				result, ok := at(input, []string{"run", "result"})
				return "CODE-JSON-3", op == "run_code.result" && ok && deeper(result, depthLimit)
			},
			fails: func(string, jsonjs.Value) bool { return true },
			says:  regexp.MustCompile(`(?i)recursion|depth|nest|too deep|stack`),
		},
		{
			Name:      "numbers-read-lossy",
			Behaves:   "numbers read as the port's reader reads them: -0 as 0 and an overflowing number (1e400) as null, so the checks that refuse them never see them",
			Functions: []string{"Python: json.loads ('-0' is the int 0)", "Rust: serde_json::from_str of a JSON.stringify text (-0 written 0, Infinity null)"},
			Fix:       "keep the double the text denotes: -0 stays -0 and 1e400 is Infinity, as JSON.parse reads them, so the lossless checks refuse them",
			variants:  lossyNumbers,
		},
	}
}

// deeper reports whether v nests containers more than limit levels deep.
func deeper(v jsonjs.Value, limit int) bool {
	type at struct {
		v     jsonjs.Value
		depth int
	}
	stack := []at{{v, 0}}
	for len(stack) > 0 {
		top := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		var children []jsonjs.Value
		if items, ok := top.v.Items(); ok {
			children = items
		} else if ms, ok := top.v.Members(); ok {
			for _, m := range ms {
				children = append(children, m.Value)
			}
		} else {
			continue
		}
		if top.depth+1 > limit {
			return true
		}
		for _, c := range children {
			stack = append(stack, at{c, top.depth + 1})
		}
	}
	return false
}

// lossyNumbers is the input with each -0 made 0 and each overflowing
// number null, blaming the rule of the first place holding one.
func lossyNumbers(op string, input jsonjs.Value) []Variant {
	lossyNum := func(x float64) bool { return math.IsInf(x, 0) || x == 0 && math.Signbit(x) }
	for _, p := range lossyPlaces[op] {
		v, ok := at(input, p.path)
		if !ok || !jsonjs.AnyNumber(v, lossyNum) {
			continue
		}
		return []Variant{{Input: mapNumbers(input, func(x float64) jsonjs.Value {
			switch {
			case math.IsInf(x, 0):
				return jsonjs.NullValue()
			case x == 0:
				return jsonjs.NumberValue(0)
			}
			return jsonjs.NumberValue(x)
		}, lossyNum), Requirement: p.req}}
	}
	return nil
}

// mapNumbers is v with each number pred accepts replaced by f's value.
func mapNumbers(v jsonjs.Value, f func(float64) jsonjs.Value, pred func(float64) bool) jsonjs.Value {
	if x, ok := v.Float(); ok && pred(x) {
		return f(x)
	}
	if !jsonjs.AnyNumber(v, pred) {
		return v
	}
	if items, ok := v.Items(); ok {
		out := make([]jsonjs.Value, len(items))
		for i, it := range items {
			out[i] = mapNumbers(it, f, pred)
		}
		return jsonjs.ArrayValue(out...)
	}
	ms, _ := v.Members()
	out := make([]jsonjs.Member, len(ms))
	for i, m := range ms {
		out[i] = jsonjs.Member{Key: m.Key, Value: mapNumbers(m.Value, f, pred)}
	}
	return jsonjs.ObjectValue(out...)
}
