package runner_test

import (
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/internal/verdict"
)

// Merge against a model of its doc comment (merge.go:11-20): the merged
// report is the unsharded run's, so a fault any shard had, a failing case
// any shard ran, and the whole run's span must survive the merge, or a
// sharded CI run of a broken harness reads green.
func TestJudgeMergeMatchesModel(t *testing.T) {
	base := time.Date(2026, 12, 2, 15, 0, 0, 0, time.UTC)
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 4).Draw(t, "shards")
		shards := make([]*runner.Report, n)
		for k := range shards {
			shards[k] = &runner.Report{Format: "conform-report", Version: 1, Implementation: adapter.Implementation{Name: "h", Version: "1"},
				Protocol: 1, Complete: true, Shard: &runner.Shard{K: k, N: n}, Cases: []runner.CaseResult{}}
		}
		set := map[string]bool{}
		var all []runner.CaseResult
		for i := range rapid.IntRange(0, 9).Draw(t, "cases") {
			c := runner.CaseResult{ID: fmt.Sprintf("grep.result/%02d", rapid.IntRange(0, 99).Draw(t, "id")), Op: "grep.result",
				Verdict: rapid.SampledFrom(verdict.All).Draw(t, "verdict")}
			if set[c.ID] {
				continue
			}
			set[c.ID] = true
			all = append(all, c)
			k := rapid.IntRange(0, n-1).Draw(t, fmt.Sprint("shard of ", i))
			shards[k].Cases = append(shards[k].Cases, c)
		}
		for _, s := range shards {
			s.Selected = len(s.Cases)
			if rapid.Bool().Draw(t, "started") { // a start fault has no start
				s.Started = base.Add(time.Duration(rapid.IntRange(0, 5000).Draw(t, "start ms")) * time.Millisecond)
			}
			s.DurationMS = float64(rapid.IntRange(0, 5000).Draw(t, "duration ms"))
			if rapid.IntRange(0, 3).Draw(t, "fault") == 0 {
				s.Fault = &runner.Fault{Kind: "start", Message: fmt.Sprint("shard ", s.Shard.K, " could not start")}
			}
			if rapid.Bool().Draw(t, "note") {
				s.Notes = []runner.Note{{Kind: "crash", Message: fmt.Sprint("shard ", s.Shard.K)}}
			}
		}
		order := rapid.Permutation(shards).Draw(t, "order")
		names := make([]string, n)
		for i, s := range order {
			names[i] = fmt.Sprint("shard", s.Shard.K, ".json")
		}

		got, err := runner.Merge(names, order, set)
		if err != nil {
			t.Fatalf("Merge: %v", err)
		}

		want := *order[0]
		want.Cases, want.Notes, want.Fault, want.Shard, want.Selected = slices.Clone(all), nil, nil, nil, len(all)
		slices.SortFunc(want.Cases, func(a, b runner.CaseResult) int { return strings.Compare(a.ID, b.ID) })
		want.Started = time.Time{}
		var end time.Time
		for _, s := range order {
			want.Notes = append(want.Notes, s.Notes...)
			if want.Fault == nil {
				want.Fault = s.Fault // the first fault, in the order given
			}
			if !s.Started.IsZero() && (want.Started.IsZero() || s.Started.Before(want.Started)) {
				want.Started = s.Started
			}
			if e := s.Started.Add(time.Duration(s.DurationMS) * time.Millisecond); e.After(end) {
				end = e
			}
		}
		want.DurationMS = float64(end.Sub(want.Started).Milliseconds())
		want.Totals = map[verdict.Verdict]int{}
		for _, c := range all {
			want.Totals[c.Verdict]++
		}
		want.Nonconformant = runner.Reasons(&want)

		switch {
		case !got.Complete || got.Stopped != "" || got.Shard != nil:
			t.Fatalf("merged complete %v, stopped %q, shard %v: want a whole, complete run", got.Complete, got.Stopped, got.Shard)
		case got.Selected != want.Selected:
			t.Fatalf("merged selected %d, want %d", got.Selected, want.Selected)
		case !reflect.DeepEqual(got.Fault, want.Fault):
			t.Fatalf("merged fault %+v, want %+v", got.Fault, want.Fault)
		case !got.Started.Equal(want.Started) || got.DurationMS != want.DurationMS:
			t.Fatalf("merged span %v + %v ms, want %v + %v ms", got.Started, got.DurationMS, want.Started, want.DurationMS)
		case !reflect.DeepEqual(got.Notes, want.Notes):
			t.Fatalf("merged notes %v, want %v", got.Notes, want.Notes)
		case !reflect.DeepEqual(ids(got.Cases), ids(want.Cases)):
			t.Fatalf("merged cases %v, want %v", ids(got.Cases), ids(want.Cases))
		case !totalsEqual(got.Totals, want.Totals):
			t.Fatalf("merged totals %v, want %v", got.Totals, want.Totals)
		case !reflect.DeepEqual(got.Nonconformant, want.Nonconformant):
			t.Fatalf("merged reasons %+v, want %+v", got.Nonconformant, want.Nonconformant)
		}
		if want.Fault != nil && got.Conformant() {
			t.Fatalf("a shard's fault merged into a conformant report")
		}
	})
}

// The merged requirement accounting is the unsharded run's (merge.go:77-80,
// 104-120): every case-cited row counted over all shards, and each row no
// case cites (not selected, check-log, excluded) once.
func TestJudgeMergedAccountingIsTheWholeRuns(t *testing.T) {
	all, err := runner.LoadCases(os.DirFS(root))
	if err != nil {
		t.Fatal(err)
	}
	sel := runner.Select(all, runner.Selection{Op: "grep.result,spill.preview"})
	verdicts := []verdict.Verdict{verdict.Pass, verdict.Fail, verdict.XFail, verdict.Unsupported}
	result := func(i int, c runner.Case) runner.CaseResult {
		r := runner.CaseResult{ID: c.ID, Op: c.Op, Requirements: c.Requirements, Verdict: verdicts[i%len(verdicts)]}
		if r.Verdict == verdict.Fail && len(c.Requirements) > 0 {
			r.Broken = c.Requirements[:1]
		}
		return r
	}
	report := func(cs []runner.Case, byID map[string]int) *runner.Report {
		r := &runner.Report{Format: "conform-report", Version: 1, Complete: true, Selected: len(cs), Cases: []runner.CaseResult{}}
		for _, c := range cs {
			r.Cases = append(r.Cases, result(byID[c.ID], c))
		}
		r.Totals = runner.Totals(r.Cases)
		r.Finish(runner.Finishing{Conform: "test", CaseSet: "sha256:x", Cases: cs, All: all})
		return r
	}
	byID := map[string]int{}
	set := map[string]bool{}
	for i, c := range sel {
		byID[c.ID], set[c.ID] = i, true
	}
	whole := report(sel, byID)
	for _, n := range []int{1, 2, 3} {
		var shards []*runner.Report
		var names []string
		for k := range n {
			s, err := runner.ParseShard("--shard", fmt.Sprintf("%d/%d", k, n))
			if err != nil {
				t.Fatal(err)
			}
			r := report(runner.Select(sel, runner.Selection{Shard: s}), byID)
			r.Shard = &s
			shards, names = append(shards, r), append(names, fmt.Sprint("shard", k))
		}
		merged, err := runner.Merge(names, shards, set)
		if err != nil {
			t.Fatalf("%d shards: %v", n, err)
		}
		if !reflect.DeepEqual(merged.Requirements, whole.Requirements) {
			t.Fatalf("%d shards: the merged accounting differs from the whole run's:\n got %d rows %+v\nwant %d rows %+v", n, len(merged.Requirements), merged.Requirements, len(whole.Requirements), whole.Requirements)
		}
	}
}

func ids(cs []runner.CaseResult) []string {
	out := []string{}
	for _, c := range cs {
		out = append(out, c.ID)
	}
	return out
}

// totalsEqual compares verdict counts, a zero count the same as none.
func totalsEqual(a, b map[verdict.Verdict]int) bool {
	for _, v := range verdict.All {
		if a[v] != b[v] {
			return false
		}
	}
	return true
}
