package diagnosis

import (
	"slices"

	"github.com/dsh-conform/conform/reference"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// The key-order models (CODE-KEYS-1): a run's completion value rendered
// with its object members in another order than ECMAScript's (array-index
// keys ascending, then the others in insertion order). The reference is run
// with that renderer (reference.Dialect.Render).

func keyOrderModels() []Model {
	return []Model{
		{
			Name: "keys-sorted", Requirement: "CODE-KEYS-1",
			Behaves:   "object members written in sorted order of their names (\"10\" before \"2\", \" 1\" before \"0\")",
			Functions: []string{"Rust: serde_json::Map without preserve_order (a BTreeMap)", "Python: json.dumps(sort_keys=True)", "Go: encoding/json.Marshal of a map[string]any"},
			Fix:       "keep insertion order (Rust: serde_json's preserve_order feature) and put array-index names first, ascending",
			variants:  renderVariant(slices.Compare[[]byte, byte]),
		},
		{
			Name: "keys-insertion", Requirement: "CODE-KEYS-1",
			Behaves:   "object members written in insertion order, array-index names not moved first",
			Functions: []string{"Python: dict, json.dumps", "Rust: serde_json with preserve_order (IndexMap)", "Java: LinkedHashMap", "C#: Dictionary<string, object>, System.Text.Json"},
			Fix:       "write array-index names (\"0\" … \"4294967294\") first, ascending, then the others in insertion order",
			variants:  renderVariant(nil),
		},
	}
}

// renderVariant runs run_code with a renderer that writes members sorted
// by cmp over their UTF-8 names (nil: as inserted), where that order
// differs from ECMAScript's in some object of the result.
func renderVariant(cmp func(a, b []byte) int) func(string, jsonjs.Value) []Variant {
	order := func(ms []jsonjs.Member) []jsonjs.Member {
		if cmp == nil {
			return ms
		}
		return slices.SortedStableFunc(slices.Values(ms), func(a, b jsonjs.Member) int { return cmp([]byte(a.Key), []byte(b.Key)) })
	}
	render := func(v jsonjs.Value) string {
		if s, ok := v.Str(); ok {
			return s // CODE-JSON-1 holds in every language's port
		}
		return string(jsonjs.AppendLayout(nil, reordered(v, order), jsonjs.Layout{Indent: 2, CompactFrom: 5, InsertionOrder: true}))
	}
	return func(op string, input jsonjs.Value) []Variant {
		if op != "run_code.result" {
			return nil
		}
		result, ok := at(input, []string{"run", "result"})
		if !ok || !anyObject(result, func(ms []jsonjs.Member) bool {
			return !sameKeys(order(ms), jsonjs.PropertyOrder(ms))
		}) {
			return nil
		}
		return []Variant{{Input: input, Dialect: reference.Dialect{Render: render}}}
	}
}

func sameKeys(a, b []jsonjs.Member) bool {
	return slices.EqualFunc(a, b, func(x, y jsonjs.Member) bool { return x.Key == y.Key })
}

// anyObject reports whether an object within v satisfies pred.
func anyObject(v jsonjs.Value, pred func([]jsonjs.Member) bool) bool {
	stack := []jsonjs.Value{v}
	for len(stack) > 0 {
		v, stack = stack[len(stack)-1], stack[:len(stack)-1]
		if items, ok := v.Items(); ok {
			stack = append(stack, items...)
		}
		if ms, ok := v.Members(); ok {
			if pred(ms) {
				return true
			}
			for _, m := range ms {
				stack = append(stack, m.Value)
			}
		}
	}
	return false
}

// reordered is v with every object's members in order's order.
func reordered(v jsonjs.Value, order func([]jsonjs.Member) []jsonjs.Member) jsonjs.Value {
	if items, ok := v.Items(); ok {
		out := make([]jsonjs.Value, len(items))
		for i, it := range items {
			out[i] = reordered(it, order)
		}
		return jsonjs.ArrayValue(out...)
	}
	if ms, ok := v.Members(); ok {
		ms = order(ms)
		out := make([]jsonjs.Member, len(ms))
		for i, m := range ms {
			out[i] = jsonjs.Member{Key: m.Key, Value: reordered(m.Value, order)}
		}
		return jsonjs.ObjectValue(out...)
	}
	return v
}
