package fuzz_test

import (
	"context"
	"testing"

	"github.com/dsh-conform/conform/generators"
	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/fuzz"
	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/reference"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// The benchmarks measure differential cases per second: each iteration is
// one case drawn, run through the adapter, run through the reference and
// judged. Run them with
//
//	go test -run '^$' -bench Fuzz -benchtime 20000x ./internal/fuzz/
//
// BenchmarkFuzzAdapter is the figure that matters: two jobs against two
// `conform adapter` processes. BenchmarkFuzzInProcess is the same without
// the protocol (the reference as an in-process session), and
// BenchmarkFuzzStage splits one job's work into its stages.

func benchCampaign(b *testing.B, jobs int, newSession func(context.Context) (adapter.Session, error)) {
	b.ReportAllocs()
	b.ResetTimer()
	rep, err := fuzz.Run(context.Background(), fuzz.Options{Seed: 1, Cases: b.N, Jobs: jobs, NewSession: newSession, ShrinkTime: -1})
	b.StopTimer()
	if err != nil {
		b.Fatal(err)
	}
	if !rep.Conformant() || rep.Cases != b.N {
		b.Fatalf("%d cases, %d findings", rep.Cases, len(rep.Findings))
	}
	b.ReportMetric(float64(rep.Cases)/b.Elapsed().Seconds(), "cases/s")
}

func BenchmarkFuzzAdapter(b *testing.B) {
	dir, err := buildBinaries()
	if err != nil {
		b.Fatal(err)
	}
	benchCampaign(b, 2, processSession(adapter.Config{Argv: []string{dir + "/conform", "adapter"}}))
}

func BenchmarkFuzzInProcess(b *testing.B) {
	benchCampaign(b, 2, referenceSession)
}

// BenchmarkFuzzStage times the stages of one case on one goroutine over
// the same case mix as a campaign (case k of seed 1):
//
//   - draw: Generator.Example(s_k) and the conversion to the input value
//     and its JSON text;
//   - golden: the reference on the input text, output parsed;
//   - judge: runner.RunCase against an in-process reference session
//     (the harness's run, output parsing, Compare, CheckProperties).
func BenchmarkFuzzStage(b *testing.B) {
	ops := generators.DrawnOps()
	type drawn struct {
		op    string
		value jsonjs.Value
		text  []byte
		want  runner.Want
	}
	const n = 2000
	cases := make([]drawn, n)
	draw := func(k int) drawn {
		op := fuzz.CaseOp(ops, k)
		s := fuzz.CaseSeed(1, k)
		gen, err := fuzz.CaseGenerator(op, fuzz.CaseVariant(op, s))
		if err != nil {
			b.Fatal(err)
		}
		in, err := fuzz.NewInput(gen.Example(int(s)))
		if err != nil {
			b.Fatal(err)
		}
		return drawn{op: op, value: in.Value, text: in.Text}
	}
	for k := range cases {
		cases[k] = draw(k)
		w, err := fuzz.Golden(cases[k].op, cases[k].text)
		if err != nil {
			b.Fatal(err)
		}
		cases[k].want = w
	}
	b.Run("draw", func(b *testing.B) {
		b.ReportAllocs()
		for i := range b.N {
			_ = draw(i % n)
		}
	})
	b.Run("golden", func(b *testing.B) {
		b.ReportAllocs()
		for i := range b.N {
			c := cases[i%n]
			out, err := reference.Run(c.op, c.text)
			if err == nil {
				_, _ = jsonjs.Parse(out)
			}
		}
	})
	b.Run("judge", func(b *testing.B) {
		s := adapter.InProcess(adapter.Reference(), adapter.ReferenceImplementation())
		ctx := context.Background()
		b.ReportAllocs()
		for i := range b.N {
			c := cases[i%n]
			r := runner.RunCase(ctx, s, runner.Case{ID: "x", Op: c.op, Input: c.text, InputValue: c.value, Want: c.want}, 0)
			if r.Verdict != "pass" {
				b.Fatalf("%s: %s %v", c.op, r.Verdict, r.Diffs)
			}
		}
	})
}
