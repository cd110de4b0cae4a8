package runner_test

import (
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

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
