package runner_test

import (
	"context"
	"slices"
	"testing"

	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// A flipped outcome (outcome.go, issue 20 item 3) blames the case's cited
// deciding requirements on the isError diff; the text diff that follows
// from it blames nothing and affects what it blamed. When the reference
// answered, the requirements that only render a failure the input asks
// for (SEARCH-ERR-1) cannot be the cause, and with no deciding citation
// left the op's "accepts its input" requirement is blamed (grep
// SEARCH-VAL-1, glob SEARCH-VAL-2, run_code CODE-RENDER-1). When the
// reference failed and the case cites no deciding requirement, there is no
// flip blame: the part-by-part blame stands (every citation).
func TestJudgeFlipBlame(t *testing.T) {
	ok := `{"content":"ok","isError":false}`
	failed := `{"content":"boom","isError":true}`
	for _, tc := range []struct {
		name, op, golden, answer string
		cites, blames, affects   []string // affects: what the content diff affects
	}{
		{"refused, a deciding citation", "grep.result", ok, failed,
			[]string{"SEARCH-ARGS-1", "SEARCH-GREP-1"}, []string{"SEARCH-ARGS-1"}, []string{"SEARCH-GREP-1"}},
		// The reference's own member order: isError first, its diff the
		// first diff.
		{"refused, isError the first member", "grep.result", `{"isError":false,"content":"ok"}`, `{"isError":true,"content":"boom"}`,
			[]string{"SEARCH-ARGS-1", "SEARCH-GREP-1"}, []string{"SEARCH-ARGS-1"}, []string{"SEARCH-GREP-1"}},
		{"refused, SEARCH-ERR-1 cited", "grep.result", ok, failed,
			[]string{"SEARCH-ERR-1", "SEARCH-GREP-1"}, []string{"SEARCH-VAL-1"}, []string{"SEARCH-GREP-1"}},
		{"refused by glob, nothing deciding cited", "glob.result", ok, failed,
			[]string{"SEARCH-GLOB-1"}, []string{"SEARCH-VAL-2"}, []string{"SEARCH-GLOB-1"}},
		{"refused by run_code, nothing deciding cited", "run_code.result", ok, failed,
			[]string{"CODE-JSON-1"}, []string{"CODE-RENDER-1"}, []string{"CODE-JSON-1"}},
		// The golden text is a failure's: its part is the failure's
		// rendering (blame.go located), SEARCH-ERR-1, now only affected.
		{"answered where the reference failed, SEARCH-ERR-1 cited", "grep.result", failed, ok,
			[]string{"SEARCH-ERR-1", "SEARCH-GREP-1"}, []string{"SEARCH-ERR-1"}, []string{"SEARCH-ERR-1"}},
		{"answered where the reference failed, nothing deciding cited", "grep.result", failed, ok,
			[]string{"SEARCH-GREP-1"}, []string{"SEARCH-GREP-1"}, nil},
	} {
		golden, answer := mustParse(t, tc.golden), mustParse(t, tc.answer)
		c := runner.Case{ID: tc.op + "/judge-flip", Op: tc.op, Requirements: tc.cites, InputValue: jsonjs.ObjectValue(), Want: runner.Want{Output: &golden}}
		var isErr, content *runner.Diff
		diffs := runner.Compare(c, &answer, nil)
		for i := range diffs {
			switch diffs[i].Field {
			case "isError":
				isErr = &diffs[i]
			case "content":
				content = &diffs[i]
			}
		}
		if isErr == nil || content == nil {
			t.Fatalf("%s: diffs %+v, want isError and content", tc.name, diffs)
		}
		if !slices.Equal(isErr.Requirements, tc.blames) {
			t.Errorf("%s: the isError diff blames %v, want %v", tc.name, isErr.Requirements, tc.blames)
		}
		if tc.affects != nil && (len(content.Requirements) != 0 || !slices.Equal(content.Affects, tc.affects)) {
			t.Errorf("%s: the content diff blames %v, affects %v; want nothing, %v", tc.name, content.Requirements, content.Affects, tc.affects)
		}
	}
}

// A flipped case breaks its deciding requirement and only affects what
// the text diff that follows blamed (CaseResult.Affected: the diffs'
// Affects that bind the harness, less what the case breaks; outcome.go
// affected).
func TestJudgeFlipAffected(t *testing.T) {
	golden := mustParse(t, `{"content":"ok","isError":false}`)
	c := runner.Case{ID: "grep.result/judge-affected", Op: "grep.result", Input: []byte(`{}`), InputValue: jsonjs.ObjectValue(),
		Requirements: []string{"SEARCH-ARGS-1", "SEARCH-GREP-1"}, Want: runner.Want{Output: &golden}}
	s := &session{h: adapter.Reference(), reply: func(string, string) (adapter.Reply, error) {
		return adapter.Reply{Output: []byte(`{"content":"boom","isError":true}`)}, nil
	}}
	r := runner.RunCase(context.Background(), s, c, 0)
	if !slices.Equal(r.Broken, []string{"SEARCH-ARGS-1"}) || !slices.Equal(r.Affected, []string{"SEARCH-GREP-1"}) {
		t.Errorf("broken %v, affected %v; want [SEARCH-ARGS-1], [SEARCH-GREP-1]", r.Broken, r.Affected)
	}
}
