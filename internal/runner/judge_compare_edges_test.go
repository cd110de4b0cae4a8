package runner_test

import (
	"strings"
	"testing"

	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// A diff keeps a side's whole JSON only up to MaxWholeBytes; a larger side
// is flagged too large and kept as its excerpt, never as a JSON text that
// is missing without a word (compare.go wholeJSON, 240).
func TestJudgeWholeValueOverTheBound(t *testing.T) {
	golden := jsonjs.ObjectValue(jsonjs.Member{Key: "content", Value: jsonjs.StringValue("a")})
	for _, big := range []jsonjs.Value{
		jsonjs.StringValue(strings.Repeat("b", runner.MaxWholeBytes)),
		jsonjs.ArrayValue(jsonjs.StringValue(strings.Repeat("b", runner.MaxWholeBytes/2)), jsonjs.StringValue(strings.Repeat("c", runner.MaxWholeBytes/2))),
	} {
		answer := jsonjs.ObjectValue(jsonjs.Member{Key: "content", Value: big})
		c := runner.Case{ID: "grep.result/judge-big", Op: "grep.result", InputValue: jsonjs.ObjectValue(), Want: runner.Want{Output: &golden}}
		diffs := runner.Compare(c, &answer, nil)
		if len(diffs) != 1 {
			t.Fatalf("%d diffs", len(diffs))
		}
		d := diffs[0]
		if !d.GotTooLarge || d.GotJSON != nil || d.Got == "" {
			t.Errorf("a %d-byte answer side: GotTooLarge %v, GotJSON %d bytes, Got %q", len(jsonjs.Marshal(big)), d.GotTooLarge, len(d.GotJSON), d.Got)
		}
		if d.WantTooLarge || string(d.WantJSON) != `"a"` {
			t.Errorf("the golden side: WantTooLarge %v, WantJSON %q", d.WantTooLarge, d.WantJSON)
		}
	}
}

// An error message cut for its excerpt keeps a space before the cut as a
// space: the text goes on after it, so it is no trailing space (compare.go
// excerptText, 370).
func TestJudgeErrorExcerptCutAtASpace(t *testing.T) {
	golden := jsonjs.ObjectValue(jsonjs.Member{Key: "content", Value: jsonjs.StringValue("a")})
	c := runner.Case{ID: "grep.result/judge-error", Op: "grep.result", InputValue: jsonjs.ObjectValue(), Want: runner.Want{Output: &golden}}
	for msg, want := range map[string]string{
		strings.Repeat("x", 159) + " " + strings.Repeat("y", 40): "error " + strings.Repeat("x", 159) + " …",
		strings.Repeat("x", 159) + " ":                           "error " + strings.Repeat("x", 159) + `\u0020`,
	} {
		diffs := runner.Compare(c, nil, &msg)
		if len(diffs) != 1 || diffs[0].Got != want {
			t.Errorf("error of %d bytes: %+v, want got %q", len(msg), diffs, want)
		}
	}
}
