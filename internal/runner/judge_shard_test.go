package runner_test

import (
	"slices"
	"testing"

	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/internal/verdict"
)

// ParseShard takes exactly K/N with 0 <= K < N: a shard past the last or
// before the first would run no case and look green (shard.go:27).
func TestJudgeParseShardBounds(t *testing.T) {
	for _, c := range []struct {
		in string
		ok bool
	}{
		{"0/1", true}, {"3/4", true}, {" 1 / 2 ", true},
		{"4/4", false}, {"5/4", false}, {"-1/4", false}, {"0/0", false}, {"1/-2", false},
		{"1", false}, {"a/2", false}, {"1/b", false},
		// strconv.Atoi's range error comes with the largest int, not 0.
		{"1/99999999999999999999", false}, {"99999999999999999999/2", false},
	} {
		s, err := runner.ParseShard("--shard", c.in)
		if (err == nil) != c.ok {
			t.Errorf("ParseShard(%q) = %+v, %v; want ok %v", c.in, s, err, c.ok)
		}
	}
}

// Merged shards list their cases in ID order, as the unsharded run does,
// whatever order the shards and their cases come in (merge.go:74).
func TestJudgeMergeListsCasesInIDOrder(t *testing.T) {
	set := map[string]bool{}
	shard := func(k int, ids ...string) *runner.Report {
		r := &runner.Report{Complete: true, Selected: len(ids), Shard: &runner.Shard{K: k, N: 2}}
		for _, id := range ids {
			set[id] = true
			r.Cases = append(r.Cases, runner.CaseResult{ID: id, Op: "grep.result", Verdict: verdict.Pass})
		}
		return r
	}
	shards := []*runner.Report{shard(1, "grep.result/d", "grep.result/b"), shard(0, "grep.result/c", "grep.result/a", "grep.result/e")}
	merged, err := runner.Merge([]string{"one", "zero"}, shards, set)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range merged.Cases {
		got = append(got, c.ID)
	}
	if want := []string{"grep.result/a", "grep.result/b", "grep.result/c", "grep.result/d", "grep.result/e"}; !slices.Equal(got, want) {
		t.Fatalf("merged cases %v, want %v", got, want)
	}
}
