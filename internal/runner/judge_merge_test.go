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

// mergeShard is shard k of n holding cases ids, each with its verdict
// (ids ending in "!" fail).
func mergeShard(k, n int, ids ...string) *runner.Report {
	r := &runner.Report{Format: runner.ReportFormat, Version: runner.ReportVersion, CaseSet: "set", Complete: true, Selected: len(ids), Shard: &runner.Shard{K: k, N: n}}
	for _, id := range ids {
		v := verdict.Pass
		if strings.HasSuffix(id, "!") {
			v = verdict.Fail
		}
		r.Cases = append(r.Cases, runner.CaseResult{ID: "grep.result/" + strings.TrimSuffix(id, "!"), Op: "grep.result", Verdict: v, Requirements: []string{}})
	}
	return r
}

func mergeSet(ids ...string) map[string]bool {
	set := map[string]bool{}
	for _, id := range ids {
		set["grep.result/"+id] = true
	}
	return set
}

// Merge refuses what would read as a whole run and is none (its doc
// comment, issue 21): no shard, a report that is no shard, shards of
// different splits, the same shard twice, a missing shard, a shard that
// did not complete or holds fewer cases than its slice, a case outside the
// case set, a shard of another run, a case in two shards. Each refusal
// names what it found.
func TestJudgeMergeRefusals(t *testing.T) {
	set := mergeSet("a", "b", "c", "d")
	for _, tc := range []struct {
		name   string
		shards func() []*runner.Report
		says   string
	}{
		{"no shard", func() []*runner.Report { return nil }, "no shard reports to merge"},
		{"a report that is no shard", func() []*runner.Report {
			r := mergeShard(0, 2, "a")
			r.Shard = nil
			return []*runner.Report{mergeShard(1, 2, "b"), r}
		}, "s1: not a shard report"},
		{"shards of two splits", func() []*runner.Report { return []*runner.Report{mergeShard(0, 2, "a"), mergeShard(1, 3, "b")} }, "s1: shard 1/3 of another split than s0 (N = 2)"},
		{"one shard twice", func() []*runner.Report { return []*runner.Report{mergeShard(0, 2, "a"), mergeShard(0, 2, "b")} }, "s1: shard 0/2 is s0 too"},
		{"a missing shard", func() []*runner.Report { return []*runner.Report{mergeShard(0, 3, "a"), mergeShard(2, 3, "b")} }, "shard 1/3 missing"},
		{"two missing shards", func() []*runner.Report { return []*runner.Report{mergeShard(1, 3, "a")} }, "shard 0/3, 2/3 missing"},
		{"an incomplete shard", func() []*runner.Report {
			r := mergeShard(1, 2, "b")
			r.Complete, r.Stopped = false, "interrupted: 1 of 2 selected cases ran"
			return []*runner.Report{mergeShard(0, 2, "a"), r}
		}, "s1: shard 1/2 did not complete (interrupted: 1 of 2 selected cases ran)"},
		{"an incomplete shard that does not say why", func() []*runner.Report {
			r := mergeShard(1, 2, "b")
			r.Complete = false
			return []*runner.Report{mergeShard(0, 2, "a"), r}
		}, "s1: shard 1/2 did not complete (it does not say it completed)"},
		{"a short shard", func() []*runner.Report {
			r := mergeShard(1, 2, "b")
			r.Selected = 2
			return []*runner.Report{mergeShard(0, 2, "a"), r}
		}, "s1: shard 1/2 has 1 cases of the 2 of its slice"},
		{"a case outside the set", func() []*runner.Report { return []*runner.Report{mergeShard(0, 2, "a"), mergeShard(1, 2, "z")} }, "s1: case grep.result/z is not in the case set set"},
		{"a shard of another case set", func() []*runner.Report {
			r := mergeShard(1, 2, "b")
			r.CaseSet = "other"
			return []*runner.Report{mergeShard(0, 2, "a"), r}
		}, "s1: another conform version or case set than s0"},
		{"a shard of another adapter", func() []*runner.Report {
			r := mergeShard(1, 2, "b")
			r.Adapter = []string{"x"}
			return []*runner.Report{mergeShard(0, 2, "a"), r}
		}, "s1: another adapter or protocol than s0"},
		{"a case in two shards", func() []*runner.Report { return []*runner.Report{mergeShard(0, 2, "a"), mergeShard(1, 2, "a")} }, "s1: case grep.result/a is in s0 too"},
		{"shard 0 missing", func() []*runner.Report { return []*runner.Report{mergeShard(1, 2, "a")} }, "shard 0/2 missing"},
		{"a shard of another report version", func() []*runner.Report {
			r := mergeShard(1, 2, "b")
			r.Version++
			return []*runner.Report{mergeShard(0, 2, "a"), r}
		}, "s1: another report format than s0"},
		{"a shard of another protocol", func() []*runner.Report {
			r := mergeShard(1, 2, "b")
			r.Protocol = 7
			return []*runner.Report{mergeShard(0, 2, "a"), r}
		}, "s1: another adapter or protocol than s0"},
		{"a shard of another conform", func() []*runner.Report {
			r := mergeShard(1, 2, "b")
			r.Conform = "v9"
			return []*runner.Report{mergeShard(0, 2, "a"), r}
		}, "s1: another conform version or case set than s0"},
		{"a shard of other fixtures", func() []*runner.Report {
			r := mergeShard(1, 2, "b")
			r.Fixtures = "elsewhere"
			return []*runner.Report{mergeShard(0, 2, "a"), r}
		}, "s1: another conform version or case set than s0"},
		{"a shard with accounting beside one without", func() []*runner.Report {
			r := mergeShard(1, 2, "b")
			r.Requirements = []runner.RequirementRow{{ID: "SEARCH-GREP-1"}}
			return []*runner.Report{mergeShard(0, 2, "a"), r}
		}, "s1: requirement accounting present in one report only than s0"},
	} {
		shards := tc.shards()
		names := make([]string, len(shards))
		for i := range names {
			names[i] = fmt.Sprintf("s%d", i)
		}
		got, err := runner.Merge(names, shards, set)
		if err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: Merge = %v, %v; want an error saying %q", tc.name, got != nil, err, tc.says)
		}
	}
}

// A merge is the whole run's report: complete, the shards' cases in ID
// order, their selections summed, their notes in shard order, the first
// shard's fault, totals and reasons of the merged cases, and a span from
// the earliest start (a shard with no start does not count) to the
// latest end (merge.go Merge).
func TestJudgeMergeJoins(t *testing.T) {
	t0 := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	s0, s1, s2 := mergeShard(0, 3, "c", "a!"), mergeShard(1, 3, "b"), mergeShard(2, 3)
	s0.Started, s0.DurationMS = t0.Add(time.Second), 500 // ends at 1.5 s
	s1.Started, s1.DurationMS = t0, 4000                 // ends at 4 s
	s2.Started, s2.DurationMS = time.Time{}, 0           // no start
	s0.Notes = []runner.Note{{Kind: "crash", Message: "zero"}}
	s1.Notes = []runner.Note{{Kind: "timeout", Message: "one"}}
	s1.Fault = &runner.Fault{Kind: "start", Message: "one's"}
	s2.Fault = &runner.Fault{Kind: "start", Message: "two's"}
	m, err := runner.Merge([]string{"s0", "s1", "s2"}, []*runner.Report{s0, s1, s2}, mergeSet("a", "b", "c"))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"grep.result/a", "grep.result/b", "grep.result/c"}; !slices.Equal(ids(m.Cases), want) {
		t.Errorf("cases %v, want %v", ids(m.Cases), want)
	}
	if !m.Complete || m.Stopped != "" || m.Shard != nil || m.Selected != 3 {
		t.Errorf("complete %v, stopped %q, shard %v, selected %d; want true, \"\", nil, 3", m.Complete, m.Stopped, m.Shard, m.Selected)
	}
	if want := []runner.Note{{Kind: "crash", Message: "zero"}, {Kind: "timeout", Message: "one"}}; !slices.Equal(m.Notes, want) {
		t.Errorf("notes %+v, want %+v", m.Notes, want)
	}
	if m.Fault == nil || m.Fault.Message != "one's" {
		t.Errorf("fault %+v, want the first shard's that has one", m.Fault)
	}
	if !m.Started.Equal(t0) || m.DurationMS != 4000 {
		t.Errorf("started %v, %v ms; want %v, 4000 ms", m.Started, m.DurationMS, t0)
	}
	if m.Totals[verdict.Pass] != 2 || m.Totals[verdict.Fail] != 1 {
		t.Errorf("totals %v, want 2 pass, 1 fail", m.Totals)
	}
	if len(m.Nonconformant) == 0 {
		t.Errorf("a merge with a failing case has no reason it fails")
	}
	if m.Requirements != nil {
		t.Errorf("shards without requirement accounting merge into one with %d rows", len(m.Requirements))
	}
	// The shards' own fields are left as they were.
	if s0.Shard == nil || s0.Selected != 2 || len(s0.Notes) != 1 {
		t.Errorf("shard 0 changed: %+v", s0)
	}
	// The span grows with a later end in an earlier-listed shard too.
	s0.DurationMS = 9000 // ends at 10 s
	m, err = runner.Merge([]string{"s0", "s1", "s2"}, []*runner.Report{s0, s1, s2}, mergeSet("a", "b", "c"))
	if err != nil {
		t.Fatal(err)
	}
	if !m.Started.Equal(t0) || m.DurationMS != 10000 {
		t.Errorf("started %v, %v ms; want %v, 10000 ms", m.Started, m.DurationMS, t0)
	}
}

// The one shard of a split of one merges into a complete report of its
// cases; shards with requirement accounting merge into a report with one
// (merge.go 22, 45, 77).
func TestJudgeMergeOneShardWithAccounting(t *testing.T) {
	s := mergeShard(0, 1, "b", "a")
	s.Requirements = []runner.RequirementRow{{ID: "SEARCH-GREP-1", Status: "not-selected"}}
	m, err := runner.Merge([]string{"only"}, []*runner.Report{s}, mergeSet("a", "b"))
	if err != nil {
		t.Fatal(err)
	}
	if !m.Complete || len(m.Cases) != 2 || m.Cases[0].ID != "grep.result/a" || m.Requirements == nil {
		t.Errorf("merge of 0/1: complete %v, %d cases, requirements %v", m.Complete, len(m.Cases), m.Requirements)
	}
}

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
