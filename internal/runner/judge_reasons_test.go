package runner_test

import (
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/internal/verdict"
	"github.com/dsh-conform/conform/spec"
)

// Reasons decides conform run's exit status (issue 12: no false green;
// issue 22: who judges the judge). On drawn reports it gives exactly the
// kinds of reason a plain model of its doc comment gives, so a run is
// conformant only when nothing makes it nonconformant: no fault, complete,
// no failing case, no stale baseline entry, every required op present
// supported with a case that ran to a verdict, and every MUST requirement
// its supported cases cite checked by one of them.

var judgeReqs = []string{"RET-OMIT-1", "LOG-RES-4", "SEARCH-VAL-1"}

func judgeReasonsModel(r *runner.Report) []string {
	kinds := map[string]bool{}
	if r.Fault != nil {
		kinds[runner.ReasonStart] = true
	}
	if !r.Complete && r.Fault == nil {
		kinds[runner.ReasonIncomplete] = true
	}
	supported, ran, present := map[string]bool{}, map[string]bool{}, map[string]bool{}
	checked, cited := map[string]bool{}, map[string]bool{}
	for _, c := range r.Cases {
		switch c.Verdict {
		case verdict.Fail, verdict.Error, verdict.Timeout, verdict.Crash:
			kinds[runner.ReasonFailingCases] = true
		case verdict.XPass:
			kinds[runner.ReasonStaleBaseline] = true
		}
		present[c.Op] = true
		if c.Verdict != verdict.Unsupported {
			supported[c.Op] = true
			for _, id := range c.Requirements {
				cited[id] = true
				if c.Verdict != verdict.Skipped {
					checked[id] = true
				}
			}
		}
		if c.Verdict != verdict.Unsupported && c.Verdict != verdict.Skipped {
			ran[c.Op] = true
		}
	}
	for op := range present {
		switch {
		case !runner.Required(op):
		case !supported[op]:
			kinds[runner.ReasonUnsupportedOp] = true
		case !ran[op]:
			kinds[runner.ReasonOpNeverPassed] = true
		}
	}
	for id := range cited {
		if q, ok := spec.Lookup(id); ok && q.Level == "MUST" && !checked[id] {
			kinds[runner.ReasonReqNeverPassed] = true
		}
	}
	var out []string
	for k := range kinds {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func TestJudgeReasonsMatchModel(t *testing.T) {
	for _, id := range judgeReqs[:2] {
		if _, ok := spec.Lookup(id); !ok {
			t.Fatalf("%s is not in the catalogue: pick another", id)
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		r := &runner.Report{Complete: rapid.IntRange(0, 5).Draw(t, "incomplete") > 0}
		if rapid.IntRange(0, 9).Draw(t, "fault") == 0 {
			r.Fault = &runner.Fault{Kind: "start", Message: "no"}
		}
		n := rapid.IntRange(0, 6).Draw(t, "cases")
		for i := range n {
			c := runner.CaseResult{
				ID:      "c" + string(rune('a'+i)),
				Op:      rapid.SampledFrom([]string{"grep.result", "glob.result", "retain.items"}).Draw(t, "op"),
				Verdict: rapid.SampledFrom(verdict.All).Draw(t, "verdict"),
			}
			c.Requirements = rapid.SliceOfDistinct(rapid.SampledFrom(judgeReqs), rapid.ID[string]).Draw(t, "reqs")
			if c.Verdict == verdict.Fail {
				c.Broken = c.Requirements
			}
			r.Cases = append(r.Cases, c)
		}
		var got []string
		for _, why := range runner.Reasons(r) {
			if !slices.Contains(got, why.Kind) {
				got = append(got, why.Kind)
			}
		}
		slices.Sort(got)
		want := judgeReasonsModel(r)
		if !slices.Equal(got, want) {
			t.Fatalf("reasons %v, want %v (complete %v, fault %v, cases %+v)", got, want, r.Complete, r.Fault != nil, r.Cases)
		}
		if r.Conformant() != (len(want) == 0) {
			t.Fatalf("Conformant() = %v with reasons %v", r.Conformant(), want)
		}
	})
}
