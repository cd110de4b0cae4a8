package runner_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

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

// An isError flip (outcome.go, issue 20 item 3) against a model of the
// outcome rule: the isError diff blames the case's cited deciding
// requirements in citation order (less the failure-text ones when the
// reference did not fail); with none cited, the op's "accepts its input"
// requirement when the harness refused what the reference accepted. Every
// other diff then blames nothing and affects what it blamed.
func TestJudgeIsErrorFlipBlame(t *testing.T) {
	deciding := map[string][]string{ // outcome.go's decides, restated
		"grep.result":     {"SEARCH-ARGS-1", "SEARCH-VAL-3", "SEARCH-CFG-2", "SEARCH-EXEC-3", "SEARCH-ERR-1"},
		"glob.result":     {"SEARCH-ARGS-2", "SEARCH-VAL-2", "SEARCH-CFG-2", "SEARCH-EXEC-3", "SEARCH-ERR-1"},
		"run_code.result": {"SEARCH-ARGS-3", "CODE-ERR-1", "CODE-VALUE-1", "CODE-FAIL-1", "CODE-FAIL-2"},
	}
	failText := []string{"SEARCH-ERR-1", "CODE-FAIL-1", "CODE-FAIL-2"}
	refused := map[string]string{"grep.result": "SEARCH-VAL-1", "glob.result": "SEARCH-VAL-2", "run_code.result": "CODE-RENDER-1"}
	others := []string{"SEARCH-GREP-1", "SEARCH-CAP-3", "CODE-RENDER-2", "SEARCH-CFG-1"}
	rapid.Check(t, func(t *rapid.T) {
		op := rapid.SampledFrom([]string{"grep.result", "glob.result", "run_code.result"}).Draw(t, "op")
		pool := append(slices.Clone(deciding[op]), others...)
		cites := rapid.SliceOfNDistinct(rapid.SampledFrom(pool), 0, 5, rapid.ID[string]).Draw(t, "cites")
		wantFailed := rapid.Bool().Draw(t, "reference failed")
		text := func(isErr bool) jsonjs.Value {
			s := "a.go:1:fixed"
			if isErr {
				s = "Error: no"
			}
			return jsonjs.ObjectValue(
				jsonjs.Member{Key: "content", Value: jsonjs.ArrayValue(jsonjs.ObjectValue(
					jsonjs.Member{Key: "type", Value: jsonjs.StringValue("text")},
					jsonjs.Member{Key: "text", Value: jsonjs.StringValue(s)}))},
				jsonjs.Member{Key: "isError", Value: jsonjs.BoolValue(isErr)})
		}
		want, got := text(wantFailed), text(!wantFailed)
		c := runner.Case{ID: op + "/judge-flip", Op: op, InputValue: jsonjs.ObjectValue(), Requirements: cites}
		c.Want.Output = &want
		diffs := runner.Compare(c, &got, nil)

		var blame []string
		for _, id := range cites {
			if slices.Contains(deciding[op], id) && (wantFailed || !slices.Contains(failText, id)) {
				blame = append(blame, id)
			}
		}
		if len(blame) == 0 && !wantFailed {
			blame = []string{refused[op]}
		}
		at := slices.IndexFunc(diffs, func(d runner.Diff) bool { return d.Field == "isError" })
		if at < 0 {
			t.Fatalf("no isError diff in %+v", diffs)
		}
		for _, d := range diffs {
			if len(slices.Compact(slices.Sorted(slices.Values(d.Affects)))) != len(d.Affects) {
				t.Fatalf("the %s diff affects %v: a requirement twice", d.Field, d.Affects)
			}
		}
		if len(blame) == 0 { // no deciding requirement known: the part-by-part blame stays, of cited ones only
			for _, id := range diffs[at].Requirements {
				if !slices.Contains(cites, id) {
					t.Fatalf("the isError diff blames %s, which the case does not cite (cites %v, reference failed)", id, cites)
				}
			}
			return
		}
		if !slices.Equal(diffs[at].Requirements, blame) {
			t.Fatalf("the isError diff blames %v, want %v (cites %v, reference failed %v)", diffs[at].Requirements, blame, cites, wantFailed)
		}
		for i, d := range diffs {
			if i == at || d.Comparator == runner.CmpProperty {
				continue
			}
			if len(d.Requirements) != 0 {
				t.Fatalf("the %s diff blames %v beside the flipped outcome", d.Field, d.Requirements)
			}
			if d.Field == "content" && !strings.HasPrefix(op, "run_code") {
				for _, id := range d.Affects {
					if !slices.Contains(cites, id) && id != refused[op] {
						t.Fatalf("the content diff affects %s, which the case does not cite", id)
					}
				}
			}
		}
	})
}
