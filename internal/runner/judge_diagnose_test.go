package runner_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/internal/verdict"
	"github.com/dsh-conform/conform/reference"
	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/reference/search"
)

// A port with two deviations at once, a decoder that keeps a leading BOM
// and grep groups sorted by path, is explained by the two models together
// where neither alone reproduces its answer: the joint pass tries the
// models whose answer here is not the golden one (diagnose.go golden, 85).
func TestJudgeDiagnosisNamesTwoModelsTogether(t *testing.T) {
	input := `{"args":{"pattern":"o"},"value":{"matches":[{"path":"b","lineNumber":1,"line":"\ufeffo"},{"path":"a","lineNumber":2,"line":"o"}]}}`
	out, err := reference.Run("grep.result", []byte(input))
	if err != nil {
		t.Fatal(err)
	}
	want := mustParse(t, string(out))
	c := runner.Case{ID: "grep.result/judge-joint", Op: "grep.result", Input: []byte(input), InputValue: mustParse(t, input),
		Want: runner.Want{Output: &want}, Requirements: []string{"SEARCH-PREVIEW-3", "SEARCH-GREP-3"}}
	byPath := func(ms []search.Match) []search.FileMatches {
		gs := search.GroupByFile(ms)
		slices.SortStableFunc(gs, func(a, b search.FileMatches) int { return strings.Compare(a.Path, b.Path) })
		return gs
	}
	h := inDialect{reference.Dialect{Decode: jsonjs.DecodeUTF8, Group: byPath}}
	r := runner.RunCase(context.Background(), adapter.InProcess(h, adapter.Implementation{Name: "port", Language: "rust"}), c, 0)
	var models []string
	for _, e := range r.Diagnosis {
		models = append(models, e.Model)
	}
	slices.Sort(models)
	if r.Verdict != verdict.Fail || !slices.Equal(models, []string{"groups-sorted", "utf8-bom-kept"}) {
		t.Fatalf("%s, diagnosed %v; want a failure explained by groups-sorted with utf8-bom-kept", r.Verdict, models)
	}
}
