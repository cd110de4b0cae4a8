package runner_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/fuzz/testdata/wrong"
	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/internal/verdict"
)

// manyBugs is a harness with one porting bug per op family, from the
// wrong harnesses: Go number formatting, an uncapped indent and dropped
// empty logs in run_code (ThreeBugs), grep lines cut one byte short,
// ASCII-escaped glob metas, broken push decisions in retain.items. On the
// embedded cases it fails about a hundred (issue 20's benchmark).
type manyBugs struct{}

func (manyBugs) Ops() []string { return wrong.ThreeBugs{}.Ops() }

func (manyBugs) Run(op string, input []byte) ([]byte, error) {
	switch op {
	case "run_code.result":
		return wrong.ThreeBugs{}.Run(op, input)
	case "grep.result":
		return wrong.GrepLineShort{}.Run(op, input)
	case "glob.result":
		return wrong.MetaASCII{}.Run(op, input)
	case "retain.items":
		return wrong.BrokenPushes{}.Run(op, input)
	}
	return wrong.ThreeBugs{}.Run(op, input)
}

func benchCases(tb testing.TB) []runner.Case {
	cs, err := runner.LoadCases(os.DirFS(root))
	if err != nil {
		tb.Fatal(err)
	}
	return cs
}

// runMany runs every case through manyBugs on one in-process session.
func runMany(tb testing.TB, cs []runner.Case, noDiagnosis bool, explain time.Duration) *runner.Report {
	rep, err := runner.Run(context.Background(), cs, runner.Options{Jobs: 1, NoDiagnosis: noDiagnosis, ExplainTime: explain,
		NewSession: func(context.Context) (adapter.Session, error) {
			return adapter.InProcess(manyBugs{}, wrong.Implementation("many-bugs")), nil
		}})
	if err != nil {
		tb.Fatal(err)
	}
	return rep
}

// TestManyBugsFailsAboutAHundred keeps the benchmark's subject what it
// says: about a hundred failing cases, the same verdicts with the models
// on and off, and some cases the models explain.
func TestManyBugsFailsAboutAHundred(t *testing.T) {
	cs := benchCases(t)
	on, off := runMany(t, cs, false, 0), runMany(t, cs, true, 0)
	failing, diagnosed := 0, 0
	for i, r := range on.Cases {
		if r.Verdict != off.Cases[i].Verdict {
			t.Fatalf("%s: %s with the models, %s without", r.ID, r.Verdict, off.Cases[i].Verdict)
		}
		if len(off.Cases[i].Diagnosis) > 0 {
			t.Fatalf("%s: diagnosed with the models off", r.ID)
		}
		if r.Verdict == verdict.Fail {
			failing++
		}
		if len(r.Diagnosis) > 0 {
			diagnosed++
		}
	}
	t.Logf("%d failing cases, %d diagnosed", failing, diagnosed)
	if failing < 90 || failing > 110 || diagnosed == 0 {
		t.Fatalf("%d failing cases, %d diagnosed; want about 100, some diagnosed", failing, diagnosed)
	}
}

// BenchmarkDiagnosisOverhead runs the whole case set through manyBugs on
// one session with the deviation models off and on, alternately so that
// both see the same load, and reports on/off (issue 20: at most 1.2) of
// wall time ("ratio") and of the process's CPU time ("cpu-ratio", which
// other processes' load does not blur). Minimization is off here: it is
// bounded by its own budget (--explain-time), not by the run. ns/op is one
// pair of runs.
//
//	go test -run '^$' -bench DiagnosisOverhead -benchtime 10x ./internal/runner
func BenchmarkDiagnosisOverhead(b *testing.B) {
	cs := benchCases(b)
	var on, off, cpuOn, cpuOff time.Duration
	for b.Loop() {
		t0, c0 := time.Now(), cpuTime()
		runMany(b, cs, true, 0)
		t1, c1 := time.Now(), cpuTime()
		runMany(b, cs, false, 0)
		off, on = off+t1.Sub(t0), on+time.Since(t1)
		cpuOff, cpuOn = cpuOff+c1-c0, cpuOn+cpuTime()-c1
	}
	b.ReportMetric(float64(on)/float64(off), "ratio")
	b.ReportMetric(float64(cpuOn)/float64(cpuOff), "cpu-ratio")
	b.ReportMetric(float64(off.Milliseconds())/float64(b.N), "ms-off/run")
	b.ReportMetric(float64(on.Milliseconds())/float64(b.N), "ms-on/run")
}
