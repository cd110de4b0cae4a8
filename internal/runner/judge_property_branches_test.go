package runner_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// withMembers is base with each key set to the JSON value after it (a
// value of "-" removes the key).
func withMembers(t *testing.T, base string, kv ...string) string {
	t.Helper()
	v := mustParse(t, base)
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] == "-" {
			ms, _ := v.Members()
			ms = slices.DeleteFunc(slices.Clone(ms), func(m jsonjs.Member) bool { return m.Key == kv[i] })
			v = jsonjs.ObjectValue(ms...)
			continue
		}
		v = v.With(kv[i], mustParse(t, kv[i+1]))
	}
	return string(jsonjs.Marshal(v))
}

// propertyRow is one output and one property of its op that must fire on
// it, or must hold.
type propertyRow struct {
	name, input, output, req string
	fires                    bool
}

// checkPropertyRows also checks that a diff of a fired property is at its
// row's Path, or at its Field's member path when Path is "" (Property's
// doc comment).
func checkPropertyRows(t *testing.T, op string, rows []propertyRow) {
	t.Helper()
	paths := map[string][]string{}
	for _, p := range runner.PropertiesFor(op) {
		path := p.Path
		if path == "" {
			path = "$." + p.Field
		}
		paths[p.Requirement] = append(paths[p.Requirement], path)
	}
	for _, r := range rows {
		got := reqsOf(t, op, r.input, r.output)
		if slices.Contains(got, r.req) != r.fires {
			t.Errorf("%s %s: broken %v; want %s fired %v", op, r.name, got, r.req, r.fires)
		}
		out := mustParse(t, r.output)
		for _, d := range runner.CheckProperties(op, mustParse(t, r.input), out) {
			if d.Comparator != runner.CmpProperty || len(d.Requirements) != 1 || !slices.Contains(paths[d.Requirements[0]], d.Path) {
				t.Errorf("%s %s: a property diff %s %v at %q, want one of %v", op, r.name, d.Comparator, d.Requirements, d.Path, paths[d.Requirements[0]])
			}
			// What the property looked at: its field's value, whole.
			if v, ok := out.Get(d.Field); ok && (d.Got == "" || string(d.GotJSON) != string(jsonjs.Marshal(v))) {
				t.Errorf("%s %s: the %s diff shows %q (%s), want the %s field %s", op, r.name, d.Requirements, d.Got, d.GotJSON, d.Field, jsonjs.Marshal(v))
			}
		}
	}
}

// Each branch of each search result property (properties.go
// searchResultProperties, narrowProperty), from the property's Doc: an
// output that breaks it in exactly that way, and one next to it that
// keeps it. The base outputs are the reference's answers (grep's printed
// by reference.Run on the input below; glob's written the same way), on
// which no property fires.
func TestJudgeSearchPropertyBranches(t *testing.T) {
	type tool struct {
		op, input, nested, base, other, malformed, present, shapeReq string
		shortMeta, view3, cutText                                    string
	}
	for _, tl := range []tool{
		{
			op:        "grep.result",
			input:     `{"args":{"pattern":"x"},"value":{"matches":[{"path":"a","lineNumber":1,"line":"x"},{"path":"b","lineNumber":2,"line":"y"}]}}`,
			nested:    `{"nested":true,"args":{"pattern":"x"},"value":{"matches":[{"path":"a","lineNumber":1,"line":"x"},{"path":"b","lineNumber":2,"line":"y"}]}}`,
			base:      `{"isError":false,"content":"Found 2 matches\n\na\nLine 1: x\n\nb\nLine 2: y","error":null,"meta":{"shape":"matches","files":[{"path":"a","matches":[{"lineNumber":1,"line":"x"}]},{"path":"b","matches":[{"lineNumber":2,"line":"y"}]}],"truncated":false,"total":2},"view":{"card":"search","shape":"matches","files":[{"path":"a","matches":[{"lineNumber":1,"line":"x"}]},{"path":"b","matches":[{"lineNumber":2,"line":"y"}]}],"truncated":false,"total":2},"callView":{"card":"generic","title":"Grep x","kind":"search","rawInput":"x"},"spillText":null}`,
			other:     `{"shape":"paths","paths":["a","b"],"truncated":false,"total":2}`,
			malformed: `{"shape":"matches","files":[{"path":"a","matches":[{"lineNumber":"1","line":"x"}]}],"truncated":false,"total":2}`,
			present:   "SEARCH-PRESENT-1", shapeReq: "SEARCH-NARROW-5",
			shortMeta: `{"shape":"matches","files":[{"path":"a","matches":[{"lineNumber":1,"line":"x"}]}],"truncated":false,"total":2}`,
			view3:     `{"card":"search","shape":"matches","files":[{"path":"a","matches":[{"lineNumber":1,"line":"x"}]},{"path":"b","matches":[{"lineNumber":2,"line":"y"}]}],"truncated":false,"total":3}`,
			cutText:   `"Found 2 matches\n\na\nLine 1: x\n\nb"`,
		},
		{
			op:        "glob.result",
			input:     `{"args":{"pattern":"*"},"value":{"root":".","paths":["a","b"]}}`,
			nested:    `{"nested":true,"args":{"pattern":"*"},"value":{"root":".","paths":["a","b"]}}`,
			base:      `{"isError":false,"content":"a\nb","error":null,"meta":{"shape":"paths","paths":["a","b"],"truncated":false,"total":2},"view":{"card":"search","shape":"paths","paths":["a","b"],"truncated":false,"total":2},"callView":{"card":"generic","title":"Glob *","kind":"search","rawInput":"*"},"spillText":null}`,
			other:     `{"shape":"matches","files":[],"truncated":false,"total":2}`,
			malformed: `{"shape":"paths","paths":["a",2],"truncated":false,"total":2}`,
			present:   "SEARCH-PRESENT-2", shapeReq: "SEARCH-NARROW-6",
			shortMeta: `{"shape":"paths","paths":["a"],"truncated":false,"total":2}`,
			view3:     `{"card":"search","shape":"paths","paths":["a","b"],"truncated":false,"total":3}`,
			cutText:   `"a"`,
		},
	} {
		w := func(kv ...string) string { return withMembers(t, tl.base, kv...) }
		nestedNulls := w("meta", "null", "view", "null", "callView", "null")
		errorOut := w("isError", "true", "content", `"boom"`, "meta", "null", "view", "null")
		if got := reqsOf(t, tl.op, tl.input, tl.base); len(got) != 0 {
			t.Fatalf("%s: the base output breaks %v", tl.op, got)
		}
		if got := reqsOf(t, tl.op, tl.nested, nestedNulls); len(got) != 0 {
			t.Fatalf("%s: the nested base output breaks %v", tl.op, got)
		}
		checkPropertyRows(t, tl.op, []propertyRow{
			// SEARCH-META-1: an error result carries no meta; a successful
			// top-level result always has one.
			{"an error result with a meta", tl.input, w("isError", "true", "view", "null"), "SEARCH-META-1", true},
			{"an error result with a null meta", tl.input, errorOut, "SEARCH-META-1", false},
			{"a success with a null meta", tl.input, w("meta", "null", "view", "null"), "SEARCH-META-1", true},
			{"a success without meta", tl.input, w("meta", "-", "view", "null"), "SEARCH-META-1", true},
			{"a nested success with a null meta", tl.nested, nestedNulls, "SEARCH-META-1", false},
			// CODE-DISPATCH-6: a nested call has no meta and no spill.
			{"a nested call with a meta", tl.nested, withMembers(t, nestedNulls, "meta", tl.shortMeta), "CODE-DISPATCH-6", true},
			{"a nested call with a spill text", tl.nested, withMembers(t, nestedNulls, "spillText", `"s"`), "CODE-DISPATCH-6", true},
			{"a top-level call with a spill text", tl.input, w("spillText", `"s"`), "CODE-DISPATCH-6", false},
			// CODE-PRESENT-4: a nested call has no view and no callView.
			{"a nested call with a view", tl.nested, withMembers(t, nestedNulls, "view", tl.view3), "CODE-PRESENT-4", true},
			{"a nested call with a callView", tl.nested, withMembers(t, nestedNulls, "callView", `{"card":"generic","title":"t","kind":"search","rawInput":"x"}`), "CODE-PRESENT-4", true},
			{"a top-level call with a callView", tl.input, tl.base, "CODE-PRESENT-4", false},
			// The tool's presenter: an error result gets no view.
			{"an error result with a view", tl.input, withMembers(t, errorOut, "view", tl.view3), tl.present, true},
			{"an error result without view", tl.input, errorOut, tl.present, false},
			// Narrowing: -2 envelope, -4 discriminant, -5/-6 the list.
			{"a meta without total", tl.input, w("meta", withMembers(t, tl.shortMeta, "total", "-"), "view", "null"), "SEARCH-NARROW-2", true},
			{"a meta whose total is a string", tl.input, w("meta", withMembers(t, tl.shortMeta, "total", `"2"`), "view", "null"), "SEARCH-NARROW-2", true},
			{"a meta whose truncated is a string", tl.input, w("meta", withMembers(t, tl.shortMeta, "truncated", `"no"`), "view", "null"), "SEARCH-NARROW-2", true},
			{"a meta that is an array", tl.input, w("meta", "[]", "view", "null"), "SEARCH-NARROW-2", true},
			{"a meta of shape Matches", tl.input, w("meta", withMembers(t, tl.shortMeta, "shape", `"Matches"`), "view", "null"), "SEARCH-NARROW-4", true},
			{"a meta of shape Matches (not -2)", tl.input, w("meta", withMembers(t, tl.shortMeta, "shape", `"Matches"`), "view", "null"), "SEARCH-NARROW-2", false},
			{"a meta whose list is malformed", tl.input, w("meta", tl.malformed, "view", "null"), tl.shapeReq, true},
			{"a meta whose list is malformed (not -4)", tl.input, w("meta", tl.malformed, "view", "null"), "SEARCH-NARROW-4", false},
			// The meta has the tool's own shape.
			{"a meta of the other tool's shape", tl.input, w("meta", tl.other, "view", "null"), tl.present, true},
			{"a meta of its own shape", tl.input, tl.base, tl.present, false},
			// SEARCH-NARROW-7: the view of a successful top-level result is
			// the narrowed meta.
			{"a view whose total differs from the meta's", tl.input, w("view", tl.view3), "SEARCH-NARROW-7", true},
			{"a view that is null", tl.input, w("view", "null"), "SEARCH-NARROW-7", true},
			{"a nested result's view is no narrowing", tl.nested, withMembers(t, nestedNulls, "view", tl.view3), "SEARCH-NARROW-7", false},
			// SEARCH-CAP-4: meta.total is the input value's count (2).
			{"a total of 3", tl.input, w("meta", withMembers(t, tl.shortMeta, "truncated", "true", "total", "3"), "view", "null"), "SEARCH-CAP-4", true},
			{"a total of 1", tl.input, w("meta", withMembers(t, tl.shortMeta, "truncated", "true", "total", "1"), "view", "null"), "SEARCH-CAP-4", true},
			{"a total of 2", tl.input, w("meta", withMembers(t, tl.shortMeta, "truncated", "true"), "view", "null"), "SEARCH-CAP-4", false},
			// SEARCH-CAP-3: truncated whenever the meta shows fewer than 2.
			{"1 of 2 shown, truncated false", tl.input, w("meta", tl.shortMeta, "view", "null"), "SEARCH-CAP-3", true},
			{"1 of 2 shown, truncated true", tl.input, w("meta", withMembers(t, tl.shortMeta, "truncated", "true"), "view", "null"), "SEARCH-CAP-3", false},
			{"2 of 2 shown, truncated false", tl.input, tl.base, "SEARCH-CAP-3", false},
			// SEARCH-META-6: the meta list is the first groups or lines of
			// the text; a text that stops inside it (a prefix of the
			// rendered list) breaks it.
			{"a text that stops inside the meta list", tl.input, w("content", tl.cutText), "SEARCH-META-6", true},
			{"a text that holds the meta list", tl.input, tl.base, "SEARCH-META-6", false},
		})
	}
}

// SEARCH-CAP-5 at the cap: a meta of two list elements whose compact JSON
// is exactly maxMetaBytes keeps it, one byte more breaks it; a meta of one
// element is never over (properties.go metaOverCap and the n <= 1 rule).
func TestJudgeCap5AtTheCap(t *testing.T) {
	for _, tc := range []struct {
		op, meta string
	}{
		{"glob.result", `{"shape":"paths","paths":["a","b"],"truncated":false,"total":2}`},
		{"grep.result", `{"shape":"matches","files":[{"path":"a","matches":[]},{"path":"b","matches":[]}],"truncated":false,"total":2}`},
	} {
		size := len(tc.meta)
		value := `"value":{"root":".","paths":["a","b"]}`
		if tc.op == "grep.result" {
			value = `"value":{"matches":[]}`
		}
		out := `{"isError":false,"content":"x","meta":` + tc.meta + `}`
		for _, c := range []struct {
			cap   int
			fires bool
		}{{size, false}, {size + 1, false}, {size - 1, true}, {0, true}} {
			input := `{"args":{"pattern":"x"},"config":{"maxMetaBytes":` + itoa(c.cap) + `},` + value + `}`
			if got := reqsOf(t, tc.op, input, out); slices.Contains(got, "SEARCH-CAP-5") != c.fires {
				t.Errorf("%s: a %d-byte meta of 2 elements, cap %d: broken %v, want SEARCH-CAP-5 %v", tc.op, size, c.cap, got, c.fires)
			}
		}
		one := strings.Replace(strings.Replace(tc.meta, `,"b"`, "", 1), `,{"path":"b","matches":[]}`, "", 1)
		input := `{"args":{"pattern":"x"},"config":{"maxMetaBytes":1},` + value + `}`
		if got := reqsOf(t, tc.op, input, `{"isError":false,"content":"x","meta":`+one+`}`); slices.Contains(got, "SEARCH-CAP-5") {
			t.Errorf("%s: a meta of one element over the cap breaks SEARCH-CAP-5: %v", tc.op, got)
		}
	}
}

func itoa(n int) string { return string(jsonjs.Marshal(jsonjs.IntValue(n))) }
