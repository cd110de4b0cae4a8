package runner_test

import (
	"context"
	"slices"
	"testing"

	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/runner"
)

// Each case result cites its case's requirements, and a case that cites
// none an empty list, never nil (engine.go:274-277): the report's
// accounting and blame count a case by what its result cites.
func TestJudgeCaseResultCitesItsCase(t *testing.T) {
	cs := stopCases()
	cs[1].Requirements = nil
	cs[2].Requirements = []string{"SEARCH-GREP-1", "SEARCH-CAP-3"}
	s := &session{h: adapter.Reference(), reply: func(id, _ string) (adapter.Reply, error) {
		if id == "grep.result/c" {
			return adapter.Reply{Output: []byte(`{"content":"no"}`)}, nil
		}
		return adapter.Reply{Output: []byte(`{"content":"ok"}`)}, nil
	}}
	rep, err := runner.Run(context.Background(), cs, runner.Options{Jobs: 1, NoDiagnosis: true, NewSession: func(context.Context) (adapter.Session, error) { return s, nil }})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range rep.Cases {
		want := cs[i].Requirements
		if want == nil {
			want = []string{}
		}
		if r.Requirements == nil || !slices.Equal(r.Requirements, want) {
			t.Errorf("%s cites %#v, want %#v", r.ID, r.Requirements, want)
		}
	}
}
