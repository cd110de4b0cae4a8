package runner_test

import (
	"slices"
	"testing"

	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// A grep answer whose meta says truncated where the golden one does not is
// the cap's fault when the text agrees (SEARCH-CAP-1, SEARCH-CAP-3), the
// retention's when the text differs too (SEARCH-RETAIN-1, -2): the blame
// reads whether any non-property content diff exists (blame.go's
// textDiffers, survivors of the judge's full run).
func TestJudgeTruncatedBlameReadsTheText(t *testing.T) {
	parse := func(s string) jsonjs.Value {
		v, err := jsonjs.Parse([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	golden := parse(`{"content":"Found 1 match\nx.ts:\n  Line 1: a","meta":{"shape":"matches","files":[{"path":"x.ts","matches":[{"lineNumber":1,"line":"a"}]}],"truncated":false,"total":1}}`)
	c := runner.Case{
		ID: "grep.result/judge-truncated", Op: "grep.result",
		Requirements: []string{"SEARCH-CAP-1", "SEARCH-CAP-3", "SEARCH-RETAIN-1", "SEARCH-RETAIN-2"},
		InputValue:   parse(`{"args":{"pattern":"a"},"value":{"matches":[{"path":"x.ts","lineNumber":1,"line":"a"}]}}`),
		Want:         runner.Want{Output: &golden},
	}
	for _, tc := range []struct {
		answer string
		want   []string
	}{
		{`{"content":"Found 1 match\nx.ts:\n  Line 1: a","meta":{"shape":"matches","files":[{"path":"x.ts","matches":[{"lineNumber":1,"line":"a"}]}],"truncated":true,"total":1}}`,
			[]string{"SEARCH-CAP-1", "SEARCH-CAP-3"}},
		{`{"content":"Found 1 match\nx.ts:\n  Line 1: b","meta":{"shape":"matches","files":[{"path":"x.ts","matches":[{"lineNumber":1,"line":"a"}]}],"truncated":true,"total":1}}`,
			[]string{"SEARCH-CAP-3", "SEARCH-RETAIN-1", "SEARCH-RETAIN-2"}},
	} {
		answer := parse(tc.answer)
		var got []string
		found := false
		for _, d := range runner.Compare(c, &answer, nil) {
			if d.Path == "$.meta.truncated" {
				found, got = true, d.Requirements
			}
		}
		slices.Sort(got)
		if !found || !slices.Equal(got, tc.want) {
			t.Errorf("%s: truncated diff found %v, blames %v, want %v", tc.answer, found, got, tc.want)
		}
	}
}
