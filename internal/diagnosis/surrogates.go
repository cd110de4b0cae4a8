package diagnosis

import (
	"regexp"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// The lone-surrogate models: strings that cannot hold a lone UTF-16
// surrogate, which JSON.parse keeps ("\ud800" is a string of one code
// unit). A reader either refuses the text or replaces each lone surrogate
// by U+FFFD. Which requirement that breaks depends on where the surrogate
// is: each place's rule says what JavaScript does with it there.

func surrogateModels() []Model {
	return []Model{
		{
			Name:      "surrogates-refused",
			Behaves:   "strings that cannot hold a lone surrogate: the input is refused (a thrown error or an error result)",
			Functions: []string{"Rust: serde_json::from_str, String", "Python: str.encode, json.dumps(...).encode"},
			Fix:       "read JSON with a reader that keeps lone surrogates (the kit's) and encode one as U+FFFD only where UTF-8 bytes are made",
			place:     surrogatePlace,
			fails:     func(string, jsonjs.Value) bool { return true },
			// serde_json: "lone leading surrogate in hex escape", "unexpected
			// end of hex escape"; Python: "'utf-8' codec can't encode …:
			// surrogates not allowed"
			says: regexp.MustCompile(`(?i)surrogate|utf-?8|unicode|encod|decod|escape`),
		},
		{
			Name:      "surrogates-replaced",
			Behaves:   "every lone surrogate of the input replaced by U+FFFD as it is read",
			Functions: []string{"Go: encoding/json.Unmarshal", "Rust: String::from_utf8_lossy", "C#: Encoding.UTF8.GetString"},
			Fix:       "keep the code unit as JSON.parse does; only a UTF-8 encoder of the text turns it into U+FFFD",
			variants: func(op string, input jsonjs.Value) []Variant {
				req, ok := surrogatePlace(op, input)
				if !ok {
					return nil
				}
				return []Variant{{Input: replaceSurrogates(input), Requirement: req}}
			},
		},
	}
}

// places are, per op, the input members whose strings each rule governs,
// in the order a harness meets them.
var places = map[string][]struct {
	path []string // member keys; "*" steps into every element of an array
	req  string
}{
	"retain.text":     {{[]string{"text"}, "RET-UTF8-3"}, {[]string{"chunks", "*"}, "RET-UTF8-3"}},
	"grep.result":     {{[]string{"value", "matches", "*", "line"}, "SEARCH-PREVIEW-3"}, {[]string{"value", "matches", "*", "path"}, "SEARCH-JSON-1"}},
	"glob.result":     {{[]string{"value", "paths", "*"}, "SEARCH-JSON-1"}},
	"spill.preview":   {{[]string{"text"}, "SPILL-RES-2"}, {[]string{"blocks", "*", "text"}, "SPILL-RES-2"}},
	"run_code.result": {{[]string{"run", "logs", "*"}, "CODE-RENDER-1"}, {[]string{"run", "result"}, "CODE-STR-1"}},
	"search.present":  {{[]string{"result", "meta"}, "SEARCH-NARROW-1"}},
	// the retainer holds any item as it is: refusing one refuses an input
	// the op accepts
	"retain.items": {{[]string{"items"}, "RET-ITEM-1"}},
}

// surrogatePlace is the rule of the first place holding a lone surrogate.
func surrogatePlace(op string, input jsonjs.Value) (string, bool) {
	for _, p := range places[op] {
		if anyAt(input, p.path, hasLoneSurrogate) {
			return p.req, true
		}
	}
	return "", false
}

// anyAt reports whether a value reached by path holds a string that pred
// accepts anywhere within it.
func anyAt(v jsonjs.Value, path []string, pred func(string) bool) bool {
	if len(path) == 0 {
		return anyString(v, pred)
	}
	if path[0] == "*" {
		items, _ := v.Items()
		for _, it := range items {
			if anyAt(it, path[1:], pred) {
				return true
			}
		}
		return false
	}
	m, ok := v.Get(path[0])
	return ok && anyAt(m, path[1:], pred)
}

// anyString walks v without recursion (values have no depth limit).
func anyString(v jsonjs.Value, pred func(string) bool) bool {
	stack := []jsonjs.Value{v}
	for len(stack) > 0 {
		v, stack = stack[len(stack)-1], stack[:len(stack)-1]
		if s, ok := v.Str(); ok && pred(s) {
			return true
		}
		if items, ok := v.Items(); ok {
			stack = append(stack, items...)
		}
		if members, ok := v.Members(); ok {
			for _, m := range members {
				if pred(m.Key) {
					return true
				}
				stack = append(stack, m.Value)
			}
		}
	}
	return false
}

func hasLoneSurrogate(s string) bool { return jsonjs.ToUTF8(s) != s }

// replaceSurrogates is v with every string and key made UTF-8 as Go's
// encoding/json reads it: each lone surrogate becomes U+FFFD. It rebuilds
// containers bottom-up from a stack of its own: values have no depth limit.
func replaceSurrogates(v jsonjs.Value) jsonjs.Value {
	type frame struct {
		items   []jsonjs.Value  // the array's elements, or nil
		members []jsonjs.Member // the object's members, or nil
		obj     bool
		done    []jsonjs.Value // the rebuilt children so far
	}
	leaf := func(v jsonjs.Value) (jsonjs.Value, *frame) {
		if s, ok := v.Str(); ok {
			return jsonjs.StringValue(jsonjs.ToUTF8(s)), nil
		}
		if items, ok := v.Items(); ok {
			return jsonjs.Value{}, &frame{items: items}
		}
		if members, ok := v.Members(); ok {
			return jsonjs.Value{}, &frame{members: members, obj: true}
		}
		return v, nil
	}
	out, f := leaf(v)
	if f == nil {
		return out
	}
	stack := []*frame{f}
	for {
		top := stack[len(stack)-1]
		n := len(top.items)
		if top.obj {
			n = len(top.members)
		}
		if len(top.done) < n {
			child := top.items
			if top.obj {
				child = []jsonjs.Value{top.members[len(top.done)].Value}
			} else {
				child = child[len(top.done):]
			}
			built, sub := leaf(child[0])
			if sub != nil {
				stack = append(stack, sub)
				continue
			}
			top.done = append(top.done, built)
			continue
		}
		var built jsonjs.Value
		if top.obj {
			ms := make([]jsonjs.Member, n)
			for i, m := range top.members {
				ms[i] = jsonjs.Member{Key: jsonjs.ToUTF8(m.Key), Value: top.done[i]}
			}
			built = jsonjs.ObjectValue(ms...)
		} else {
			built = jsonjs.ArrayValue(top.done...)
		}
		stack = stack[:len(stack)-1]
		if len(stack) == 0 {
			return built
		}
		parent := stack[len(stack)-1]
		parent.done = append(parent.done, built)
	}
}
