package runner_test

import (
	"context"
	"os"
	"testing"

	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/internal/verdict"
)

// A passing case has nothing to diagnose: the deviation models explain
// differences, and a case the reference answers has none (engine.go:436;
// CaseResult.Diagnosis is for failing cases).
func TestJudgePassingCasesHaveNoDiagnosis(t *testing.T) {
	cs, err := runner.LoadCases(os.DirFS(root))
	if err != nil {
		t.Fatal(err)
	}
	s := &session{h: adapter.Reference()}
	per := map[string]int{}
	for _, c := range cs {
		if per[c.Op] >= 40 {
			continue
		}
		per[c.Op]++
		r := runner.RunCase(context.Background(), s, c, 0)
		if r.Verdict != verdict.Pass || len(r.Diagnosis) != 0 {
			t.Errorf("%s: %s with %d explanations, want a pass with none", c.ID, r.Verdict, len(r.Diagnosis))
		}
	}
}
