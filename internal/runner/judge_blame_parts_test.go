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
	}{
		// blame.go:121: a spill text only one side has is about what it
		// holds (SPILL-2); null on either side is whether it fired (SPILL-1).
		{"a spill text the golden output lacks", "grep.result",
			`{"content":"c"}`, `{"content":"c","spillText":"s"}`, "$.spillText",
			[]string{"SEARCH-SPILL-1", "SEARCH-SPILL-2"}, []string{"SEARCH-SPILL-2"}},
		{"a spill text the answer lacks", "grep.result",
			`{"content":"c","spillText":"s"}`, `{"content":"c"}`, "$.spillText",
			[]string{"SEARCH-SPILL-1", "SEARCH-SPILL-2"}, []string{"SEARCH-SPILL-2"}},
		{"a spill text that is null in the golden output", "grep.result",
			`{"content":"c","spillText":null}`, `{"content":"c","spillText":"s"}`, "$.spillText",
			[]string{"SEARCH-SPILL-1", "SEARCH-SPILL-2"}, []string{"SEARCH-SPILL-1"}},
		// blame.go:165: the trailer starts after the blank line before it;
		// the first newline of "\n\n(" ends the body.
		{"a glob text differing at the newline that ends the body", "glob.result",
			`{"content":"a\nb\n\n(Showing 2 of 3 paths.)"}`, `{"content":"a\nbX\n(Showing 2 of 3 paths.)"}`, "$.content",
			[]string{"SEARCH-GLOB-2", "SEARCH-GLOB-5"}, []string{"SEARCH-GLOB-2"}},
		{"a glob text differing inside the blank line before the trailer", "glob.result",
			`{"content":"a\nb\n\n(Showing 2 of 3 paths.)"}`, `{"content":"a\nb\nX(Showing 2 of 3 paths.)"}`, "$.content",
			[]string{"SEARCH-GLOB-2", "SEARCH-GLOB-5"}, []string{"SEARCH-GLOB-5"}},
		// blame.go:179: "Line N: " is the row layout up to its space; the
		// preview starts after it.
		{"a grep row differing at its colon", "grep.result",
			`{"content":"` + grepText + `"}`, `{"content":"Found 3 matches\n\na.go\nLine 1; xa\nLine 2: xb\n\nb.go\nLine 3: xc"}`, "$.content",
			[]string{"SEARCH-GREP-3", "SEARCH-PREVIEW-1"}, []string{"SEARCH-GREP-3"}},
		{"a grep row differing at the space after its colon", "grep.result",
			`{"content":"` + grepText + `"}`, `{"content":"Found 3 matches\n\na.go\nLine 1:_xa\nLine 2: xb\n\nb.go\nLine 3: xc"}`, "$.content",
			[]string{"SEARCH-GREP-3", "SEARCH-PREVIEW-1"}, []string{"SEARCH-GREP-3"}},
		// blame.go:232: a group that is not the last one, cut short while
		// the text agrees, is no cap's doing (the cap drops whole groups
		// from the end): the retention or sampling and the meta's shape.
		{"a grep meta whose first group lost a match, the text agreeing", "grep.result",
			`{"content":"` + grepText + `","meta":` + grepMeta + `}`,
			`{"content":"` + grepText + `","meta":{"shape":"matches","files":[{"path":"a.go","matches":[{"lineNumber":1,"line":"xa"}]},{"path":"b.go","matches":[{"lineNumber":3,"line":"xc"}]}],"truncated":false,"total":3}}`,
			"$.meta.files[0].matches",
			[]string{"SEARCH-CAP-1", "SEARCH-META-2"}, []string{"SEARCH-META-2"}},
	} {
		golden, err := jsonjs.Parse([]byte(tc.golden))
		if err != nil {
			t.Fatalf("%s: golden: %v", tc.name, err)
		}
		answer, err := jsonjs.Parse([]byte(tc.answer))
		if err != nil {
			t.Fatalf("%s: answer: %v", tc.name, err)
		}
		c := runner.Case{ID: tc.op + "/judge", Op: tc.op, Requirements: tc.cites, InputValue: jsonjs.ObjectValue(), Want: runner.Want{Output: &golden}}
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
