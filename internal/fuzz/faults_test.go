package fuzz_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"slices"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/generators"
	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/fuzz"
	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/internal/verdict"
	"github.com/dsh-conform/conform/reference"
	"github.com/dsh-conform/conform/reference/codemode"
	"github.com/dsh-conform/conform/reference/search"
)

// panicky is the reference, except that it panics on a run_code result
// whose logs hold an empty entry: a crash, in process.
type panicky struct{}

func (panicky) Ops() []string { return reference.Ops() }

func (panicky) Run(op string, input []byte) ([]byte, error) {
	if op == "run_code.result" {
		var in codemode.ResultInput
		if err := json.Unmarshal(input, &in); err == nil && slices.Contains(in.Run.Logs, "") {
			panic("empty log entry")
		}
	}
	return reference.Run(op, input)
}

// grepAt returns a case seed whose grep.result input has at least n matches.
func grepAt(n int) (uint64, fuzz.Input) {
	gen, err := fuzz.CaseGenerator("grep.result", "")
	Expect(err).NotTo(HaveOccurred())
	for k := 0; ; k++ {
		s := fuzz.CaseSeed(1, k)
		typed := gen.Example(int(s))
		if len(typed.(search.GrepInput).Value.Matches) >= n {
			v, err := generators.InputValue(typed)
			Expect(err).NotTo(HaveOccurred())
			return s, fuzz.Input{Typed: typed, Value: v, Text: generators.Case{Input: v}.InputText()}
		}
	}
}

var _ = Describe("shrinking with rapid", func() {
	key := fuzz.Key{Op: "grep.result", Field: "content", Verdict: verdict.Fail}
	failIf := func(pred func(search.GrepInput) bool) func(fuzz.Input) (runner.CaseResult, error) {
		return func(in fuzz.Input) (runner.CaseResult, error) {
			r := runner.CaseResult{Op: "grep.result", Verdict: verdict.Pass}
			if pred(in.Typed.(search.GrepInput)) {
				r.Verdict = verdict.Fail
				r.Diffs = []runner.Diff{{Field: "content", Comparator: runner.CmpExact, Message: "synthetic"}}
			}
			return r, nil
		}
	}

	It("shrinks a synthetic bug to its exact minimum, starting from the failing case", func() {
		seed, in := grepAt(6)
		gen, _ := fuzz.CaseGenerator("grep.result", "")
		before := map[string]string{}
		for _, name := range []string{"rapid.seed", "rapid.checks", "rapid.nofailfile", "rapid.shrinktime"} {
			before[name] = flag.Lookup(name).Value.String()
		}
		sh, err := fuzz.Shrink(fuzz.ShrinkSpec{
			Gen: gen, Seed: seed, Key: key, Input: in, Budget: &fuzz.Budget{Runs: 5000}, // until it converges
			Run: failIf(func(g search.GrepInput) bool { return len(g.Value.Matches) >= 3 }),
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(sh.Reproduced).To(BeTrue(), sh.Note)
		Expect(sh.FirstDrawMatches).To(BeTrue())
		Expect(sh.Input.Typed.(search.GrepInput).Value.Matches).To(HaveLen(3))
		Expect(sh.Result.Verdict).To(Equal(verdict.Fail))
		Expect(sh.Runs).To(BeNumerically(">", 1))
		fmt.Fprintf(GinkgoWriter, "converged in %v: %d exchanges, %d memo hits\n", sh.Elapsed, sh.Runs, sh.MemoHits)
		for name, v := range before {
			Expect(flag.Lookup(name).Value.String()).To(Equal(v), "rapid flag -%s not restored", name)
		}
		_, err = os.Stat("testdata/rapid")
		Expect(os.IsNotExist(err)).To(BeTrue(), "rapid wrote a fail file")
	})

	It("only accepts candidates with the finding's key, never another bug", func() {
		seed, in := grepAt(6)
		gen, _ := fuzz.CaseGenerator("grep.result", "")
		other := fuzz.Key{Op: "grep.result", Field: "meta", Verdict: verdict.Fail}
		sh, err := fuzz.Shrink(fuzz.ShrinkSpec{
			Gen: gen, Seed: seed, Key: key, Input: in, Budget: &fuzz.Budget{Runs: 5000}, // until it converges
			Run: func(in fuzz.Input) (runner.CaseResult, error) {
				n := len(in.Typed.(search.GrepInput).Value.Matches)
				r := runner.CaseResult{Op: "grep.result", Verdict: verdict.Fail}
				switch {
				case n >= 4: // the finding
					r.Diffs = []runner.Diff{{Field: "content", Message: "x"}}
				case n >= 1: // another bug: must not be shrunk into
					r.Diffs = []runner.Diff{{Field: other.Field, Message: "y"}}
				default:
					r.Verdict = verdict.Pass
				}
				return r, nil
			},
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(sh.Input.Typed.(search.GrepInput).Value.Matches).To(HaveLen(4))
	})

	It("reports a finding the case seed does not reproduce, without inventing a minimum", func() {
		seed, in := grepAt(1)
		gen, _ := fuzz.CaseGenerator("grep.result", "")
		sh, err := fuzz.Shrink(fuzz.ShrinkSpec{
			Gen: gen, Seed: seed, Key: key, Input: in, Budget: &fuzz.Budget{Runs: 100},
			Run: failIf(func(search.GrepInput) bool { return false }),
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(sh.Reproduced).To(BeFalse())
		Expect(sh.Note).To(ContainSubstring("did not fail"))
		Expect(sh.Runs).To(Equal(1))
	})
})

var _ = Describe("faults", func() {
	It("reports a harness panic as a crash finding, shrinks it and saves it", func() {
		dir := GinkgoT().TempDir()
		h := func(context.Context) (adapter.Session, error) {
			return adapter.InProcess(panicky{}, adapter.Implementation{Name: "panicky"}), nil
		}
		rep, err := fuzz.Run(context.Background(), fuzz.Options{
			Seed: 4, Cases: 400, Jobs: 2, Ops: []string{"run_code.result", "retain.items"},
			NewSession: h, ShrinkRuns: 1000, ShrinkTime: backstop, SaveDir: dir,
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.Crashes).To(BeNumerically(">", 10))
		Expect(rep.Mismatches).To(BeZero())
		Expect(rep.Findings).To(HaveLen(1))
		f := rep.Findings[0]
		Expect(f.ID).To(Equal("run_code.result (crash)"))
		Expect(f.Count).To(Equal(rep.Crashes))
		Expect(f.Message).To(ContainSubstring("empty log entry"))
		Expect(f.Stderr).To(ContainSubstring("panic: empty log entry"))
		Expect(f.Shrink.Shrunk).To(BeTrue())
		Expect(f.Size.Counts["logs"]).To(Equal(1))
		Expect(f.Broken).To(BeEmpty()) // a fault breaks no requirement in particular
		cases, err := runner.LoadCases(os.DirFS(dir))
		Expect(err).NotTo(HaveOccurred())
		Expect(cases).To(HaveLen(1))
		// the saved case cites what its input exercises, as a generated one does
		Expect(cases[0].Requirements).To(Equal(generators.Cite("run_code.result", cases[0].InputValue)))
		got, err := runner.Run(context.Background(), cases, runner.Options{NewSession: h})
		Expect(err).NotTo(HaveOccurred())
		Expect(got.Cases[0].Verdict).To(Equal(verdict.Crash))
	})

	It("survives an adapter process that crashes: the session restarts and the campaign finishes", func() {
		rep, err := fuzz.Run(context.Background(), fuzz.Options{
			Seed: 5, Cases: 60, Jobs: 2, ShrinkTime: -1,
			NewSession: processSession(adapter.Config{Argv: []string{bin("crash-third")}}),
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.Cases).To(Equal(60))
		Expect(rep.Crashes).To(BeNumerically("~", 20, 3)) // every third exchange of each process
		Expect(rep.Totals[verdict.Pass] + rep.Crashes).To(Equal(60))
		Expect(rep.Findings).NotTo(BeEmpty())
		for _, f := range rep.Findings {
			Expect(f.Key.Verdict).To(Equal(verdict.Crash))
			Expect(f.Message).To(ContainSubstring("exit status 3"))
			Expect(f.Stderr).To(ContainSubstring("crash-third: giving up on run 3"))
			Expect(f.Shrink.Note).To(Equal("shrinking disabled"))
		}
	})

	It("reports an adapter that hangs as timeouts, killed and restarted per case", func() {
		rep, err := fuzz.Run(context.Background(), fuzz.Options{
			Seed: 6, Cases: 8, Jobs: 2, Ops: []string{"retain.items", "retain.text"}, Timeout: 300 * time.Millisecond,
			ShrinkRuns: 3, ShrinkTime: backstop, // each timed-out candidate costs 300 ms
			NewSession: processSession(adapter.Config{Argv: []string{bin("hang"), "retain.items"}, Timeout: 300 * time.Millisecond}),
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.Timeouts).To(Equal(4))
		Expect(rep.Totals[verdict.Pass]).To(Equal(4))
		Expect(rep.Findings).To(HaveLen(1))
		Expect(rep.Findings[0].ID).To(Equal("retain.items (timeout)"))
		Expect(rep.Findings[0].Shrink.Shrunk).To(BeTrue())
	})
})
