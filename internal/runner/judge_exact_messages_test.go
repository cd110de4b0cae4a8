package runner_test

import (
	"strings"
	"testing"

	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// An exact diff of two strings names the first differing byte, its line
// and 1-based column, and when one string is a prefix of the other how
// many bytes the longer one has past it (compare.go exactDiff 406-418).
// Each expectation is counted by hand on the strings.
func TestJudgeExactDiffMessages(t *testing.T) {
	for _, tc := range []struct {
		golden, answer string
		says           string
	}{
		// "abcdef" against "abc": byte 3, and want has "def" past it.
		{"abcdef", "abc", "first difference at byte 3 (line 1, column 4); got ends there, want has 3 more bytes"},
		// "ab" against "abcde": got has "cde" past it.
		{"ab", "abcde", "first difference at byte 2 (line 1, column 3); want ends there, got has 3 more bytes"},
		// "a\nbc" against "a\nbd": byte 3 is the second byte of line 2.
		{"a\nbc", "a\nbd", "first difference at byte 3 (line 2, column 2)"},
		// "x\ny\nzzzz" against "x\ny\nz": byte 5, line 3, column 2, 3 more.
		{"x\ny\nzzzz", "x\ny\nz", "first difference at byte 5 (line 3, column 2); got ends there, want has 3 more bytes"},
	} {
		golden := jsonjs.ObjectValue(jsonjs.Member{Key: "content", Value: jsonjs.StringValue(tc.golden)})
		answer := jsonjs.ObjectValue(jsonjs.Member{Key: "content", Value: jsonjs.StringValue(tc.answer)})
		c := runner.Case{ID: "grep.result/judge-exact", Op: "grep.result", InputValue: jsonjs.ObjectValue(), Want: runner.Want{Output: &golden}}
		diffs := runner.Compare(c, &answer, nil)
		if len(diffs) != 1 || diffs[0].Message != tc.says {
			t.Errorf("content %q against %q: %+v, want one diff saying %q", tc.golden, tc.answer, diffs, tc.says)
		}
	}
}

// Where an exact field is not a string on one side, each side's excerpt
// is the value as it is: a string made visible from its start (up to
// contextBytes, 40, after byte 0: Excerpt at 0), anything else its JSON
// (compare.go kindExcerpt).
func TestJudgeExactDiffOfKinds(t *testing.T) {
	long := strings.Repeat("a", 50)
	for _, tc := range []struct {
		golden, answer       jsonjs.Value
		wantSide, answerSide string
	}{
		{jsonjs.StringValue("abc"), jsonjs.IntValue(5), "abc⟨end⟩", "5"},
		{jsonjs.ArrayValue(jsonjs.IntValue(1)), jsonjs.StringValue("a b "), "[1]", `a b\u0020⟨end⟩`},
		{jsonjs.StringValue(long), jsonjs.NullValue(), strings.Repeat("a", 40) + "…", "null"},
	} {
		golden := jsonjs.ObjectValue(jsonjs.Member{Key: "content", Value: tc.golden})
		answer := jsonjs.ObjectValue(jsonjs.Member{Key: "content", Value: tc.answer})
		c := runner.Case{ID: "grep.result/judge-kinds", Op: "grep.result", InputValue: jsonjs.ObjectValue(), Want: runner.Want{Output: &golden}}
		diffs := runner.Compare(c, &answer, nil)
		if len(diffs) != 1 || diffs[0].Want != tc.wantSide || diffs[0].Got != tc.answerSide {
			t.Errorf("content %s against %s: %+v, want sides %q and %q", jsonjs.Marshal(tc.golden), jsonjs.Marshal(tc.answer), diffs, tc.wantSide, tc.answerSide)
		}
	}
}
