package diagnosis

import (
	"math"
	"strconv"
	"strings"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// The setting models: a cap or window read one off, and a list of strings
// read without its empty entries. Each place names the rule that reads it.

// settings are, per op, the integer settings and the rule each bounds.
var settings = map[string][]struct {
	path []string
	req  string
}{
	"grep.result":   {{[]string{"config", "maxLineBytes"}, "SEARCH-PREVIEW-2"}, {[]string{"config", "maxMatches"}, "SEARCH-RETAIN-1"}, {[]string{"config", "maxMetaBytes"}, "SEARCH-CAP-1"}},
	"glob.result":   {{[]string{"config", "maxResults"}, "SEARCH-RETAIN-2"}, {[]string{"config", "maxMetaBytes"}, "SEARCH-CAP-1"}},
	"retain.items":  {{[]string{"strategy", "maxItems"}, "RET-ITEM-2"}},
	"retain.text":   {{[]string{"strategy", "maxBytes"}, "RET-TEXT-1"}, {[]string{"strategy", "headBytes"}, "RET-TEXT-1"}, {[]string{"strategy", "tailBytes"}, "RET-TEXT-1"}},
	"spill.preview": {{[]string{"maxInlineBytes"}, "SPILL-PREV-1"}},
}

// stringLists are, per op, the lists of strings a port may filter, and the
// rule each place keeps: run_code's logs join into a successful run's text
// (CODE-RENDER-1) or a failure's captured output (CODE-FAIL-1).
func stringListRule(op string, input jsonjs.Value) (path []string, req string, ok bool) {
	if op != "run_code.result" {
		return nil, "", false
	}
	run, _ := input.Get("run")
	if e, failed := run.Get("error"); failed && !e.IsNull() {
		return []string{"run", "logs"}, "CODE-FAIL-1", true
	}
	return []string{"run", "logs"}, "CODE-RENDER-1", true
}

func settingModels() []Model {
	return []Model{
		{
			Name:      "setting-off-by-one",
			Coincides: true,
			Behaves:   "a cap or window read one less or one more than given (a < where <= is due, a length counted from 1)",
			Functions: []string{"any language: a comparison or a slice bound one off"},
			Fix:       "take exactly the setting's value: keep while kept < max, cut at byte max",
			variants:  offByOne,
		},
		{
			Name:      "drops-empty-strings",
			Behaves:   "a list of strings read without its empty entries (blank lines filtered before they are joined)",
			Functions: []string{"Python: filter(None, logs), [l for l in logs if l]", "Rust: lines().filter(|l| !l.is_empty())", "JavaScript: logs.filter(Boolean)"},
			Fix:       "join every entry, empty ones too: [\"\", \"\"] is \"\\n\"",
			variants:  dropsEmpty,
		},
	}
}

// offByOne is each known integer setting of the input read one less, then
// one more, than given.
func offByOne(op string, input jsonjs.Value) []Variant {
	var out []Variant
	for _, s := range settings[op] {
		v, ok := at(input, s.path)
		x, isNum := v.Float()
		if !ok || !isNum || x != math.Trunc(x) || math.Abs(x) >= 1<<53 {
			continue
		}
		for _, d := range []float64{-1, 1} {
			dir := "one less"
			if d > 0 {
				dir = "one more"
			}
			out = append(out, Variant{
				Input:       setAt(input, s.path, jsonjs.NumberValue(x+d)),
				Requirement: s.req,
				Cause:       "reads the setting " + quotedPath(s.path) + " as " + dir + " than given",
			})
		}
	}
	return out
}

// dropsEmpty is the input with the empty strings of its string list gone.
func dropsEmpty(op string, input jsonjs.Value) []Variant {
	path, req, ok := stringListRule(op, input)
	if !ok {
		return nil
	}
	v, _ := at(input, path)
	items, isArr := v.Items()
	if !isArr {
		return nil
	}
	kept := make([]jsonjs.Value, 0, len(items))
	for _, x := range items {
		s, isStr := x.Str()
		if !isStr {
			return nil
		}
		if s != "" {
			kept = append(kept, x)
		}
	}
	if len(kept) == len(items) {
		return nil
	}
	return []Variant{{
		Input:       setAt(input, path, jsonjs.ArrayValue(kept...)),
		Requirement: req,
		Cause:       "drops the empty strings of " + quotedPath(path),
	}}
}

// at is the member of v at path (objects only).
func at(v jsonjs.Value, path []string) (jsonjs.Value, bool) {
	for _, k := range path {
		var ok bool
		if v, ok = v.Get(k); !ok {
			return jsonjs.Value{}, false
		}
	}
	return v, true
}

// setAt returns v with the member at path (objects only) set to x.
func setAt(v jsonjs.Value, path []string, x jsonjs.Value) jsonjs.Value {
	if len(path) == 0 {
		return x
	}
	child, _ := v.Get(path[0])
	return v.With(path[0], setAt(child, path[1:], x))
}

// quotedPath is a member path as text: "config"."maxLineBytes".
func quotedPath(path []string) string {
	quoted := make([]string, len(path))
	for i, p := range path {
		quoted[i] = strconv.Quote(p)
	}
	return strings.Join(quoted, ".")
}
