package runner_test

import (
	"slices"
	"testing"

	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// The part of an answer a difference is in decides what it blames (blame.go
// located, searchTextPart, metaPart): each row is one golden output, one
// answer that differs from it at one place, and the one cited requirement
// that difference must blame, beside a cited one it must not (survivors of
// the judge's sampled run, issue 22).
func TestJudgeBlameByPart(t *testing.T) {
	grepText := `Found 3 matches\n\na.go\nLine 1: xa\nLine 2: xb\n\nb.go\nLine 3: xc`
	grepMeta := `{"shape":"matches","files":[{"path":"a.go","matches":[{"lineNumber":1,"line":"xa"},{"lineNumber":2,"line":"xb"}]},{"path":"b.go","matches":[{"lineNumber":3,"line":"xc"}]}],"truncated":false,"total":3}`
	for _, tc := range []struct {
		name, op, golden, answer, path string
		cites, want                    []string
		input                          string // the case input; "" is {}
	}{
		// blame.go:121: a spill text only one side has is about what it
		// holds (SPILL-2); null on either side is whether it fired (SPILL-1).
		{"a spill text the golden output lacks", "grep.result",
			`{"content":"c"}`, `{"content":"c","spillText":"s"}`, "$.spillText",
			[]string{"SEARCH-SPILL-1", "SEARCH-SPILL-2"}, []string{"SEARCH-SPILL-2"}, ""},
		{"a spill text the answer lacks", "grep.result",
			`{"content":"c","spillText":"s"}`, `{"content":"c"}`, "$.spillText",
			[]string{"SEARCH-SPILL-1", "SEARCH-SPILL-2"}, []string{"SEARCH-SPILL-2"}, ""},
		{"a spill text that is null in the golden output", "grep.result",
			`{"content":"c","spillText":null}`, `{"content":"c","spillText":"s"}`, "$.spillText",
			[]string{"SEARCH-SPILL-1", "SEARCH-SPILL-2"}, []string{"SEARCH-SPILL-1"}, ""},
		// blame.go:165: the trailer starts after the blank line before it;
		// the first newline of "\n\n(" ends the body.
		{"a glob text differing at the newline that ends the body", "glob.result",
			`{"content":"a\nb\n\n(Showing 2 of 3 paths.)"}`, `{"content":"a\nbX\n(Showing 2 of 3 paths.)"}`, "$.content",
			[]string{"SEARCH-GLOB-2", "SEARCH-GLOB-5"}, []string{"SEARCH-GLOB-2"}, ""},
		{"a glob text differing inside the blank line before the trailer", "glob.result",
			`{"content":"a\nb\n\n(Showing 2 of 3 paths.)"}`, `{"content":"a\nb\nX(Showing 2 of 3 paths.)"}`, "$.content",
			[]string{"SEARCH-GLOB-2", "SEARCH-GLOB-5"}, []string{"SEARCH-GLOB-5"}, ""},
		// blame.go:179: "Line N: " is the row layout up to its space; the
		// preview starts after it.
		{"a grep row differing at its colon", "grep.result",
			`{"content":"` + grepText + `"}`, `{"content":"Found 3 matches\n\na.go\nLine 1; xa\nLine 2: xb\n\nb.go\nLine 3: xc"}`, "$.content",
			[]string{"SEARCH-GREP-3", "SEARCH-PREVIEW-1"}, []string{"SEARCH-GREP-3"}, ""},
		{"a grep row differing at the space after its colon", "grep.result",
			`{"content":"` + grepText + `"}`, `{"content":"Found 3 matches\n\na.go\nLine 1:_xa\nLine 2: xb\n\nb.go\nLine 3: xc"}`, "$.content",
			[]string{"SEARCH-GREP-3", "SEARCH-PREVIEW-1"}, []string{"SEARCH-GREP-3"}, ""},
		// blame.go:232: a group that is not the last one, cut short while
		// the text agrees, is no cap's doing (the cap drops whole groups
		// from the end): the retention or sampling and the meta's shape.
		{"a grep meta whose first group lost a match, the text agreeing", "grep.result",
			`{"content":"` + grepText + `","meta":` + grepMeta + `}`,
			`{"content":"` + grepText + `","meta":{"shape":"matches","files":[{"path":"a.go","matches":[{"lineNumber":1,"line":"xa"}]},{"path":"b.go","matches":[{"lineNumber":3,"line":"xc"}]}],"truncated":false,"total":3}}`,
			"$.meta.files[0].matches",
			[]string{"SEARCH-CAP-1", "SEARCH-META-2"}, []string{"SEARCH-META-2"}, ""},
		// blame.go:286 (capActed): a golden grep meta showing fewer matches
		// than its text's "Line " rows was cut by the cap, so its last
		// group cut short is the cap's, even where the text differs too.
		{"a cut golden meta whose last group is cut further", "grep.result",
			`{"content":"Found 4 matches\n\na.go\nLine 1: xa\nLine 2: xb\n\nb.go\nLine 3: xc\nLine 4: xd","meta":{"shape":"matches","files":[{"path":"a.go","matches":[{"lineNumber":1,"line":"xa"},{"lineNumber":2,"line":"xb"}]},{"path":"b.go","matches":[{"lineNumber":3,"line":"xc"}]}],"truncated":true,"total":4}}`,
			`{"content":"Found 4 matchez\n\na.go\nLine 1: xa\nLine 2: xb\n\nb.go\nLine 3: xc\nLine 4: xd","meta":{"shape":"matches","files":[{"path":"a.go","matches":[{"lineNumber":1,"line":"xa"},{"lineNumber":2,"line":"xb"}]},{"path":"b.go","matches":[]}],"truncated":true,"total":4}}`,
			"$.meta.files[1].matches",
			[]string{"SEARCH-CAP-1", "SEARCH-META-2"}, []string{"SEARCH-CAP-1"}, ""},
		// blame.go jsonTokenPart and isKey (330, 349, 360, 365): inside a
		// JSON result's text, a key is CODE-KEYS-*, an escape or a quote
		// CODE-STR-1, and an escaped quote does not end its string.
		{"a run's JSON result differing inside a key", "run_code.result",
			`{"content":"{\"ab\":1}"}`, `{"content":"{\"ax\":1}"}`, "$.content",
			[]string{"CODE-KEYS-1", "CODE-NUM-1", "CODE-STR-1"}, []string{"CODE-KEYS-1", "CODE-STR-1"}, `{"run":{"logs":[],"result":{"ab":1}}}`},
		{"a run's JSON result differing at an escape in a key", "run_code.result",
			`{"content":"{\"\\\\n\":1}"}`, `{"content":"{\"ab\":1}"}`, "$.content",
			[]string{"CODE-KEYS-1", "CODE-NUM-1", "CODE-STR-1"}, []string{"CODE-STR-1"}, `{"run":{"logs":[],"result":{"\\n":1}}}`},
		{"a run's JSON result differing in a number after an escaped quote", "run_code.result",
			`{"content":"{\"a\":\"x\\\"y\",\"b\":1}"}`, `{"content":"{\"a\":\"x\\\"y\",\"b\":2}"}`, "$.content",
			[]string{"CODE-KEYS-1", "CODE-NUM-1", "CODE-STR-1"}, []string{"CODE-NUM-1"}, `{"run":{"logs":[],"result":{"a":"x\"y","b":1}}}`},
		{"a run's JSON result with a string where a number was", "run_code.result",
			`{"content":"{\"a\":\"x\"}"}`, `{"content":"{\"a\":1}"}`, "$.content",
			[]string{"CODE-JSON-2", "CODE-STR-1"}, []string{"CODE-STR-1"}, `{"run":{"logs":[],"result":{"a":"x"}}}`},
		// An answer that goes on past the whole golden text differs at its
		// end: the layout's, and read without indexing past it (349).
		{"a run's JSON result followed by more text", "run_code.result",
			`{"content":"{\"a\":\"x\"}"}`, `{"content":"{\"a\":\"x\"}x"}`, "$.content",
			[]string{"CODE-JSON-2", "CODE-STR-1"}, []string{"CODE-JSON-2"}, `{"run":{"logs":[],"result":{"a":"x"}}}`},
		// outcome.go:74: a harness that fails where the reference answers
		// breaks the one deciding requirement the case cites, not the op's
		// default "accepts its input" one.
		{"a grep answer that fails where the reference answers, one deciding citation", "grep.result",
			`{"content":"c","isError":false}`, `{"content":"e","isError":true}`, "$.isError",
			[]string{"SEARCH-ARGS-1"}, []string{"SEARCH-ARGS-1"}, ""},
		// A number the answer extends is the number's (inNumber: a digit
		// ends just before the difference, 341).
		{"a run's JSON number 9 extended", "run_code.result",
			`{"content":"{\"a\":9}"}`, `{"content":"{\"a\":90}"}`, "$.content",
			[]string{"CODE-JSON-2", "CODE-NUM-1"}, []string{"CODE-NUM-1"}, `{"run":{"logs":[],"result":{"a":9}}}`},
		{"a run's JSON number 0 extended", "run_code.result",
			`{"content":"{\"a\":0}"}`, `{"content":"{\"a\":0.5}"}`, "$.content",
			[]string{"CODE-JSON-2", "CODE-NUM-1"}, []string{"CODE-NUM-1"}, `{"run":{"logs":[],"result":{"a":0}}}`},
		// blame.go:376 and 384 (mirroredView): a search view that is the narrowing
		// of the answer's own meta blames nothing of its own; one that is
		// not blames the view's requirements.
		{"a glob view following its meta's wrong total", "glob.result",
			`{"content":"a\nb","meta":{"shape":"paths","paths":["a","b"],"truncated":false,"total":2},"view":{"card":"search","shape":"paths","paths":["a","b"],"truncated":false,"total":2}}`,
			`{"content":"a\nb","meta":{"shape":"paths","paths":["a","b"],"truncated":false,"total":3},"view":{"card":"search","shape":"paths","paths":["a","b"],"truncated":false,"total":3}}`,
			"$.view.total", []string{"SEARCH-CAP-4", "SEARCH-NARROW-7"}, []string{}, ""},
		{"a glob view with a wrong total of its own", "glob.result",
			`{"content":"a\nb","meta":{"shape":"paths","paths":["a","b"],"truncated":false,"total":2},"view":{"card":"search","shape":"paths","paths":["a","b"],"truncated":false,"total":2}}`,
			`{"content":"a\nb","meta":{"shape":"paths","paths":["a","b"],"truncated":false,"total":2},"view":{"card":"search","shape":"paths","paths":["a","b"],"truncated":false,"total":3}}`,
			"$.view.total", []string{"SEARCH-CAP-4", "SEARCH-NARROW-7"}, []string{"SEARCH-NARROW-7"}, ""},
		// With no meta difference to follow from, the view's difference is
		// its own, even where the answer's view is its meta's narrowing
		// (a golden view that is not, 384).
		{"a glob view differing from a golden one, the metas equal", "glob.result",
			`{"content":"a\nb","meta":{"shape":"paths","paths":["a","b"],"truncated":false,"total":2},"view":{"card":"search","shape":"paths","paths":["a","b"],"truncated":false,"total":5}}`,
			`{"content":"a\nb","meta":{"shape":"paths","paths":["a","b"],"truncated":false,"total":2},"view":{"card":"search","shape":"paths","paths":["a","b"],"truncated":false,"total":2}}`,
			"$.view.total", []string{"SEARCH-CAP-4", "SEARCH-NARROW-7"}, []string{"SEARCH-NARROW-7"}, ""},
	} {
		if tc.input == "" {
			tc.input = "{}"
		}
		input, err := jsonjs.Parse([]byte(tc.input))
		if err != nil {
			t.Fatalf("%s: input: %v", tc.name, err)
		}
		golden, err := jsonjs.Parse([]byte(tc.golden))
		if err != nil {
			t.Fatalf("%s: golden: %v", tc.name, err)
		}
		answer, err := jsonjs.Parse([]byte(tc.answer))
		if err != nil {
			t.Fatalf("%s: answer: %v", tc.name, err)
		}
		c := runner.Case{ID: tc.op + "/judge", Op: tc.op, Requirements: tc.cites, InputValue: input, Want: runner.Want{Output: &golden}}
		var got []string
		found := false
		for _, d := range runner.Compare(c, &answer, nil) {
			if d.Path == tc.path {
				found, got = true, d.Requirements
			}
		}
		slices.Sort(got)
		if !found || !slices.Equal(got, tc.want) {
			t.Errorf("%s: diff at %s found %v, blames %v, want %v", tc.name, tc.path, found, got, tc.want)
		}
	}
}
