package runner_test

import (
	"context"
	"os"
	"testing"

	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/internal/verdict"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// A diagnosis explains a failure: a case that passes carries none, even
// where a model would answer as the harness did (engine.go judge: the
// models run only when there are diffs). The cases are the fixtures whose
// input holds a lone surrogate, each given as golden the error
// refusesSurrogates throws, which the surrogates-refused model's words
// match; the harness throws it, so each passes.
func TestJudgePassingCaseHasNoDiagnosis(t *testing.T) {
	all, err := runner.LoadCases(os.DirFS(root))
	if err != nil {
		t.Fatal(err)
	}
	var cs []runner.Case
	for _, c := range all {
		v, err := jsonjs.Parse(c.Input)
		if err != nil || !holdsLone(v) {
			continue
		}
		_, thrown := refusesSurrogates{}.Run(c.Op, c.Input)
		msg := thrown.Error()
		c.Want = runner.Want{Error: &msg}
		cs = append(cs, c)
	}
	if len(cs) < 5 {
		t.Fatalf("%d fixtures hold a lone surrogate, want at least 5", len(cs))
	}
	rep, err := runner.Run(context.Background(), cs, runner.Options{Jobs: 2,
		NewSession: func(context.Context) (adapter.Session, error) {
			return adapter.InProcess(refusesSurrogates{}, adapter.Implementation{Name: "serde", Language: "rust"}), nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range rep.Cases {
		if c.Verdict != verdict.Pass {
			t.Errorf("%s: %s, want pass (the harness throws the golden error)", c.ID, c.Verdict)
		}
		if len(c.Diagnosis) > 0 {
			t.Errorf("%s passes with a diagnosis: %+v", c.ID, c.Diagnosis)
		}
	}
}
