package runner_test

import (
	"slices"
	"testing"

	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// A spill text that is null on either side of a diff says whether the
// spill fired (SEARCH-SPILL-1, docs/ops.md: "spillText: SEARCH-SPILL-1
// (whether), -2 (text)"; blame.go located: null on either side), whatever
// made the diff: a member the answer lacks (compare.go 189), one the
// golden output lacks (219), or two values that differ (195). Two strings,
// or a string against a missing member, are the text's (SEARCH-SPILL-2).
func TestJudgeSpillTextSidesBlame(t *testing.T) {
	cites := []string{"SEARCH-SPILL-1", "SEARCH-SPILL-2"}
	whether, text := []string{"SEARCH-SPILL-1"}, []string{"SEARCH-SPILL-2"}
	for _, tc := range []struct {
		golden, answer string
		want           []string
	}{
		{`{"content":"c","spillText":null}`, `{"content":"c"}`, whether},
		{`{"content":"c"}`, `{"content":"c","spillText":null}`, whether},
		{`{"content":"c","spillText":"s"}`, `{"content":"c","spillText":null}`, whether},
		{`{"content":"c","spillText":null}`, `{"content":"c","spillText":"s"}`, whether},
		{`{"content":"c","spillText":"s"}`, `{"content":"c"}`, text},
		{`{"content":"c"}`, `{"content":"c","spillText":"s"}`, text},
		{`{"content":"c","spillText":"s"}`, `{"content":"c","spillText":"t"}`, text},
	} {
		for _, op := range []string{"grep.result", "glob.result"} {
			golden, err := jsonjs.Parse([]byte(tc.golden))
			if err != nil {
				t.Fatal(err)
			}
			answer, err := jsonjs.Parse([]byte(tc.answer))
			if err != nil {
				t.Fatal(err)
			}
			c := runner.Case{ID: op + "/judge-spill", Op: op, Requirements: cites, InputValue: jsonjs.ObjectValue(), Want: runner.Want{Output: &golden}}
			diffs := runner.Compare(c, &answer, nil)
			if len(diffs) != 1 || diffs[0].Path != "$.spillText" {
				t.Fatalf("%s %s against %s: %+v, want one diff at $.spillText", op, tc.golden, tc.answer, diffs)
			}
			if got := diffs[0].Requirements; !slices.Equal(got, tc.want) {
				t.Errorf("%s %s against %s blames %v, want %v", op, tc.golden, tc.answer, got, tc.want)
			}
		}
	}
}
