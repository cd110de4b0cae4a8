package diagnosis

import (
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// The absent-member models: how a port reads a member that is null or
// absent, where upstream's `??` default and template literals decide
// (SEARCH-CFG-1: a null setting is an omitted one; CODE-FAIL-1: an absent
// member prints "undefined"; SPILL-RES-3: a block without text joins as
// "undefined"). Each is the reference on the input the port in effect
// reads.

func nullModels() []Model {
	return []Model{
		{
			Name:      "null-as-given",
			Behaves:   "an explicit null read as a given value, not as an omitted one: the default is not applied and the null is refused",
			Functions: []string{"Python: dict.get(key, default) (returns None for a null)", "Rust: serde_json Value::get (Some(Null)), Option<Value> matched as Some"},
			Fix:       "treat null as absent before applying a default: Python `v = c.get(k); v = default if v is None else v`; Rust `.filter(|v| !v.is_null())`",
			variants:  nullAsGiven,
		},
		{
			Name:      "none-printed",
			Behaves:   "an absent or null member written into a text as Python's None, where JavaScript writes undefined, null or (for a null spill locator) nothing",
			Functions: []string{"Python: str(None), f-strings of dict.get(...)"},
			Fix:       "write what the template literal writes: \"undefined\" for an absent member, \"null\" for null; a null locator or hint reads as absent (\"\")",
			variants:  nonePrinted,
		},
		{
			Name: "absent-text-empty", Requirement: "SPILL-RES-3",
			Behaves:   "a text block without a string text joined as \"\", where JavaScript's concatenation writes \"undefined\" (or \"null\")",
			Functions: []string{"Python: block.get('text', '')", "Rust: b[\"text\"].as_str().unwrap_or(\"\")"},
			Fix:       "concatenate String(block.text): \"undefined\" for an absent text, \"null\" for null",
			variants:  absentTextEmpty,
		},
	}
}

// nullAsGiven is the input with each null setting replaced by a value the
// reference refuses as the port refuses a null: 0 for an integer setting
// ("must be a positive integer", SEARCH-CFG-1), the string "null" for
// glob's sampleOverCap ("expected boolean but got null", SEARCH-CFG-2).
func nullAsGiven(op string, input jsonjs.Value) []Variant {
	var out []Variant
	for _, s := range settings[op] {
		if s.path[0] != "config" {
			continue
		}
		if v, ok := at(input, s.path); ok && v.IsNull() {
			out = append(out, Variant{Input: setAt(input, s.path, jsonjs.NumberValue(0)), Requirement: "SEARCH-CFG-1",
				Cause: "reads the null " + quotedPath(s.path) + " as given, not as omitted"})
		}
	}
	sample := []string{"config", "sampleOverCap"}
	if v, ok := at(input, sample); op == "glob.result" && ok && v.IsNull() {
		out = append(out, Variant{Input: setAt(input, sample, jsonjs.StringValue("null")), Requirement: "SEARCH-CFG-2",
			Cause: "reads the null " + quotedPath(sample) + " as given, not as missing"})
	}
	return out
}

// noneAt are, per op, the members a Python port formats with str(), and
// the rule that says how JavaScript writes them.
var noneAt = map[string][]struct {
	path []string
	req  string
}{
	"grep.result":     {{[]string{"spill", "locator"}, "SEARCH-GREP-5"}, {[]string{"spill", "retrievalHint"}, "SEARCH-GREP-5"}},
	"glob.result":     {{[]string{"spill", "locator"}, "SEARCH-GLOB-5"}, {[]string{"spill", "retrievalHint"}, "SEARCH-GLOB-5"}},
	"run_code.result": {{[]string{"run", "error", "kind"}, "CODE-FAIL-1"}, {[]string{"run", "error", "message"}, "CODE-FAIL-1"}},
}

// nonePrinted is the input with each absent or null member the op writes
// into its text replaced by the string "None".
func nonePrinted(op string, input jsonjs.Value) []Variant {
	in, req := input, ""
	for _, p := range noneAt[op] {
		parent, ok := at(input, p.path[:len(p.path)-1])
		if _, isObj := parent.Members(); !ok || !isObj {
			continue
		}
		if v, ok := parent.Get(p.path[len(p.path)-1]); ok && !v.IsNull() {
			continue
		}
		in, req = setAt(in, p.path, jsonjs.StringValue("None")), p.req
	}
	if req == "" {
		return nil
	}
	return []Variant{{Input: in, Requirement: req}}
}

// absentTextEmpty is the input with the text of every text block that has
// none set to "": first only absent texts (Python's get), then any that is
// not a string (Rust's unwrap_or).
func absentTextEmpty(op string, input jsonjs.Value) []Variant {
	if op != "spill.preview" {
		return nil
	}
	blocks, _ := input.Get("blocks")
	items, _ := blocks.Items()
	var out []Variant
	for _, anyNonString := range []bool{false, true} {
		changed := false
		fixed := make([]jsonjs.Value, len(items))
		for i, b := range items {
			fixed[i] = b
			if t, _ := b.Get("type"); !isString(t, "text") {
				continue
			}
			text, ok := b.Get("text")
			_, isStr := text.Str()
			if !ok || (anyNonString && !isStr) {
				fixed[i], changed = b.With("text", jsonjs.StringValue("")), true
			}
		}
		if changed {
			out = append(out, Variant{Input: input.With("blocks", jsonjs.ArrayValue(fixed...))})
		}
	}
	if len(out) == 2 && jsonjs.Equal(out[0].Input, out[1].Input) {
		out = out[:1]
	}
	return out
}

func isString(v jsonjs.Value, want string) bool {
	s, ok := v.Str()
	return ok && s == want
}
