package runner

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/fuzz/testdata/wrong"
)

// TestMinimizerStopsAtItsEnd checks that a case's minimization stops at
// the end of its share of the budget (no candidate runs after it) and goes
// on from where it stopped in a later round.
func TestMinimizerStopsAtItsEnd(t *testing.T) {
	cs, err := LoadCases(os.DirFS("../.."))
	if err != nil {
		t.Fatal(err)
	}
	var c Case
	for _, k := range cs {
		if k.ID == "grep.result/meta-cap-group-of-five-dropped-whole" {
			c = k
		}
	}
	s := adapter.InProcess(wrong.MetaTrimsMatches{}, wrong.Implementation("test"))
	r := RunCase(context.Background(), s, c, 0)
	if len(r.Diffs) == 0 {
		t.Fatalf("the case passes on the wrong harness: %+v", r)
	}
	m := newMinimizer(context.Background(), c, r.Diffs[0], 0, "go")
	if m.run(s, time.Now()) || m.runs != 0 || m.done {
		t.Fatalf("an ended share ran: finished %v, %d runs", m.done, m.runs)
	}
	if !m.run(s, time.Now().Add(time.Hour)) || !m.done || m.runs == 0 || m.blame == nil || m.last != nil {
		t.Fatalf("a later round did not finish: done %v, %d runs", m.done, m.runs)
	}
	m.record(&r)
	if r.Minimized == nil || r.Minimized.Stopped || len(r.Minimized.Input) >= len(c.Input) {
		t.Fatalf("recorded %+v", r.Minimized)
	}
}
