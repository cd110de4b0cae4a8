package runner_test

import (
	"slices"
	"testing"

	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// A member the answer lacks is compared with the golden value it should
// have held: a spill text that is null in the golden output says the spill
// did not fire, so an answer without the member breaks whether it fires
// (SEARCH-SPILL-1, docs/ops.md: "spillText: SEARCH-SPILL-1 (whether), -2
// (text)"; blame.go located: null on either side), not the spill text's
// content (SEARCH-SPILL-2). A golden spill text that is a string, missing
// from the answer, is the text's (the contrast, TestJudgeBlameByPart).
func TestJudgeMissingMemberBlamesItsGoldenValue(t *testing.T) {
	cites := []string{"SEARCH-SPILL-1", "SEARCH-SPILL-2"}
	for _, tc := range []struct {
		golden string
		want   []string
	}{
		{`{"content":"c","spillText":null}`, []string{"SEARCH-SPILL-1"}},
		{`{"content":"c","spillText":"s"}`, []string{"SEARCH-SPILL-2"}},
	} {
		for _, op := range []string{"grep.result", "glob.result"} {
			golden, err := jsonjs.Parse([]byte(tc.golden))
			if err != nil {
				t.Fatal(err)
			}
			answer, err := jsonjs.Parse([]byte(`{"content":"c"}`))
			if err != nil {
				t.Fatal(err)
			}
			c := runner.Case{ID: op + "/judge-missing", Op: op, Requirements: cites, InputValue: jsonjs.ObjectValue(), Want: runner.Want{Output: &golden}}
			diffs := runner.Compare(c, &answer, nil)
			if len(diffs) != 1 || diffs[0].Path != "$.spillText" || diffs[0].Got != "(missing)" {
				t.Fatalf("%s %s against an answer without spillText: %+v, want one diff at $.spillText, got (missing)", op, tc.golden, diffs)
			}
			if got := diffs[0].Requirements; !slices.Equal(got, tc.want) {
				t.Errorf("%s %s against an answer without spillText blames %v, want %v", op, tc.golden, got, tc.want)
			}
		}
	}
}
