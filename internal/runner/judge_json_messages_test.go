package runner_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// A JSON diff's message says what differs at its path (compare.go
// jsonDiff): two objects of different sizes (jsonjs.Differences reports
// those at the object's own path) by their member counts, two arrays by
// their element counts, and two scalars of one kind by neither: a number
// or a string has no members to count.
func TestJudgeJSONDiffMessages(t *testing.T) {
	for _, tc := range []struct {
		golden, answer string
		says           string // the message holds it
		counts         bool   // the message may count members or elements
	}{
		{`{"a":1}`, `{"a":1,"b":2}`, "want 1 members, got 2", true},
		{`{"a":1,"b":2,"c":3}`, `{}`, "want 3 members, got 0", true},
		{`[1,2]`, `[1,2,3]`, "want 2 elements, got 3", true},
		{`1`, `2`, "", false},
		{`"a"`, `"b"`, "", false},
		{`true`, `false`, "", false},
	} {
		golden, err := jsonjs.Parse([]byte(fmt.Sprintf(`{"meta":%s}`, tc.golden)))
		if err != nil {
			t.Fatal(err)
		}
		answer, err := jsonjs.Parse([]byte(fmt.Sprintf(`{"meta":%s}`, tc.answer)))
		if err != nil {
			t.Fatal(err)
		}
		c := runner.Case{ID: "grep.result/judge-json", Op: "grep.result", InputValue: jsonjs.ObjectValue(), Want: runner.Want{Output: &golden}}
		diffs := runner.Compare(c, &answer, nil)
		if len(diffs) != 1 || diffs[0].Path != "$.meta" {
			t.Fatalf("meta %s against %s: %+v, want one diff at $.meta", tc.golden, tc.answer, diffs)
		}
		msg := diffs[0].Message
		if !strings.Contains(msg, tc.says) {
			t.Errorf("meta %s against %s: message %q, want it to say %q", tc.golden, tc.answer, msg, tc.says)
		}
		if !tc.counts && (strings.Contains(msg, "members") || strings.Contains(msg, "elements")) {
			t.Errorf("meta %s against %s: message %q counts what two scalars do not have", tc.golden, tc.answer, msg)
		}
	}
}
