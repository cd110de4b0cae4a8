package report_test

import (
	"fmt"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/dsh-conform/conform/internal/report"
	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/internal/verdict"
)

// DiffRuns decides conform diff's exit status (issue 22: who judges the
// judge): a regression it misses passes CI. On drawn pairs of runs it
// sorts every case as a plain model of its doc does: newly failing (fails
// the run now, did not, or is new), fixed (passes now, failed or was an
// expected failure), changed (any other verdict change), added, removed;
// and Regressed is true exactly when a case newly fails or the new run is
// incomplete.
func TestJudgeDiffRunsMatchesModel(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		draw := func(label string) *runner.Report {
			r := &runner.Report{Complete: rapid.IntRange(0, 4).Draw(t, label+"complete") > 0, Stopped: "stopped"}
			for i := range 5 {
				if rapid.IntRange(0, 3).Draw(t, label+"present") > 0 {
					r.Cases = append(r.Cases, runner.CaseResult{ID: fmt.Sprintf("c%d", i), Op: "grep.result",
						Verdict: rapid.SampledFrom(verdict.All).Draw(t, label+"verdict")})
				}
			}
			// Reports list cases in any order.
			if rapid.Bool().Draw(t, label+"reverse") {
				slices.Reverse(r.Cases)
			}
			return r
		}
		old, cur := draw("old"), draw("new")
		d := report.DiffRuns("old.json", old, "new.json", cur)
		var newly, fixed, changed, added, removed []string
		byID := map[string]verdict.Verdict{}
		for _, c := range old.Cases {
			byID[c.ID] = c.Verdict
		}
		inNew := map[string]bool{}
		for _, n := range cur.Cases {
			inNew[n.ID] = true
			o, ok := byID[n.ID]
			switch {
			case !ok:
				added = append(added, n.ID)
				if n.Verdict.FailsRun() {
					newly = append(newly, n.ID)
				}
			case n.Verdict.FailsRun() && !o.FailsRun():
				newly = append(newly, n.ID)
			case n.Verdict == verdict.Pass && (o.FailsRun() || o == verdict.XFail):
				fixed = append(fixed, n.ID)
			case n.Verdict != o:
				changed = append(changed, n.ID)
			}
		}
		for _, o := range old.Cases {
			if !inNew[o.ID] {
				removed = append(removed, o.ID)
			}
		}
		ids := func(xs []report.VerdictChange) []string {
			var out []string
			for _, x := range xs {
				out = append(out, x.ID)
			}
			return out
		}
		cids := func(xs []report.CaseVerdict) []string {
			var out []string
			for _, x := range xs {
				out = append(out, x.ID)
			}
			return out
		}
		for _, c := range []struct {
			name      string
			got, want []string
		}{
			{"newly failing", ids(d.NewlyFailing), newly},
			{"fixed", ids(d.Fixed), fixed},
			{"changed", ids(d.Changed), changed},
			{"added", cids(d.Added), added},
			{"removed", cids(d.Removed), removed},
		} {
			slices.Sort(c.want)
			if !slices.Equal(c.got, c.want) {
				t.Fatalf("%s: got %v, want %v (old %+v complete %v, new %+v complete %v)", c.name, c.got, c.want, old.Cases, old.Complete, cur.Cases, cur.Complete)
			}
		}
		if want := len(newly) > 0 || !cur.Complete; d.Regressed() != want {
			t.Fatalf("Regressed() = %v, want %v (newly failing %v, new run complete %v)", d.Regressed(), want, newly, cur.Complete)
		}
	})
}
