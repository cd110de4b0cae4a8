package runner_test

import (
	"slices"
	"testing"

	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// Which requirements a whole-answer or error-message diff blames
// (outcome.go outcomeFlip, 51-52; flipBlame): an output where the op must
// throw is a flipped outcome, blamed on the case's cited deciding
// requirements, SEARCH-ERR-1 among them since the reference failed; the
// other citations (SEARCH-GREP-1) are only affected. A thrown error where the
// reference answers, or another error message, says nothing of which check
// decided: every citation.
func TestJudgeFlippedOutcomeBlame(t *testing.T) {
	cites := []string{"SEARCH-ARGS-1", "SEARCH-GREP-1", "SEARCH-ERR-1"}
	out := jsonjs.ObjectValue(jsonjs.Member{Key: "isError", Value: jsonjs.BoolValue(false)})
	for _, tc := range []struct {
		name    string
		wantErr string // "" for an output
		gotErr  *string
		blames  []string
		affects bool // SEARCH-GREP-1 is affected
	}{
		{"an output where the op must throw", "boom", nil, []string{"SEARCH-ARGS-1", "SEARCH-ERR-1"}, true},
		{"another error message", "boom", str("bam"), cites, false},
		{"a thrown error where the reference answers", "", str("boom"), cites, false},
	} {
		c := runner.Case{ID: "grep.result/judge-flip", Op: "grep.result", InputValue: jsonjs.ObjectValue(), Requirements: cites}
		var output *jsonjs.Value
		if tc.wantErr != "" {
			c.Want.Error = &tc.wantErr
		} else {
			c.Want.Output = &out
		}
		if tc.gotErr == nil {
			output = &out
		}
		diffs := runner.Compare(c, output, tc.gotErr)
		if len(diffs) != 1 {
			t.Fatalf("%s: %d diffs, want 1", tc.name, len(diffs))
		}
		if d := diffs[0]; !slices.Equal(d.Requirements, tc.blames) || slices.Contains(d.Affects, "SEARCH-GREP-1") != tc.affects {
			t.Errorf("%s: blames %v, affects %v; want %v, SEARCH-GREP-1 affected %v", tc.name, d.Requirements, d.Affects, tc.blames, tc.affects)
		}
	}
}
