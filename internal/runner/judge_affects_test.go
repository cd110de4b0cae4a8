package runner_test

import (
	"context"
	"os"
	"slices"
	"testing"

	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/fuzz/testdata/wrong"
	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// A diff's Affects are what it touches without breaking: never one of its
// own Requirements, never twice (outcome.go affect, which the outcome
// flip, the spill decision and the diagnosis's narrowing all use). Checked
// on every diff of every case of harnesses that break in each of those
// ways.
func TestJudgeAffectsNeitherRepeatNorBreak(t *testing.T) {
	cs, err := runner.LoadCases(os.DirFS(root))
	if err != nil {
		t.Fatal(err)
	}
	hs := []adapter.Harness{manyBugs{}, pyStrip{}, refusesSurrogates{}, wrong.DropEmptyLogs{}, wrong.MetaTrimsMatches{},
		wrong.NumberGo{}, wrong.GrepSortedPaths{}, wrong.BrokenPushes{}, wrong.ThreeBugs{}, wrong.GrepLineShort{}, wrong.MetaASCII{}, wrong.IndentUncapped{}}
	withAffects := 0
	for _, h := range hs {
		rep, err := runner.Run(context.Background(), cs, runner.Options{Jobs: 2, NewSession: sessionsOf(h)})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range rep.Cases {
			for _, d := range c.Diffs {
				if len(d.Affects) > 0 {
					withAffects++
				}
				for i, id := range d.Affects {
					if slices.Contains(d.Requirements, id) {
						t.Errorf("%T %s %s: %s is both broken and affected", h, c.ID, d.Path, id)
					}
					if slices.Contains(d.Affects[:i], id) {
						t.Errorf("%T %s %s: %s is affected twice: %q", h, c.ID, d.Path, id, d.Affects)
					}
				}
			}
		}
	}
	if withAffects < 20 {
		t.Fatalf("%d diffs affect a requirement, want at least 20: the harnesses no longer exercise affect", withAffects)
	}
}

// An outcome flip is blamed before the spill decision, and then alone
// (blame.go blame): a spill.preview answer that says isError, which the
// reference's never does, and saves where the reference keeps the content,
// blames the flip's requirement, and the save's difference only affects.
func TestJudgeFlipBlameComesBeforeTheSpillDecision(t *testing.T) {
	cs, err := runner.LoadCases(os.DirFS(root))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range cs {
		if c.Op != "spill.preview" || c.Want.Output == nil {
			continue
		}
		if s, ok := c.Want.Output.Get("save"); !ok || !s.IsNull() {
			continue
		}
		members, _ := c.Want.Output.Members()
		var out []jsonjs.Member
		for _, m := range members {
			if m.Key == "save" {
				m.Value = jsonjs.ObjectValue(jsonjs.Member{Key: "label", Value: jsonjs.StringValue("result")})
			}
			out = append(out, m)
		}
		out = append(out, jsonjs.Member{Key: "isError", Value: jsonjs.BoolValue(true)})
		answer := jsonjs.Marshal(jsonjs.ObjectValue(out...))
		s := &session{h: adapter.Reference(), reply: func(string, string) (adapter.Reply, error) {
			return adapter.Reply{Output: answer}, nil
		}}
		r := runner.RunCase(context.Background(), s, c, 0)
		want := []string{"SPILL-CFG-1"}
		if slices.Contains(c.Requirements, "SPILL-REF-1") || slices.Contains(c.Requirements, "SPILL-CFG-1") {
			want = nil
			for _, id := range c.Requirements {
				if id == "SPILL-CFG-1" || id == "SPILL-REF-1" {
					want = append(want, id)
				}
			}
		}
		if !slices.Equal(r.Broken, want) {
			t.Errorf("%s: broken %q, want %q (the flip's)", c.ID, r.Broken, want)
		}
		n++
	}
	if n == 0 {
		t.Fatal("no spill.preview case keeps its content")
	}
}
