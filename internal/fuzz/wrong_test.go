package fuzz_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/fuzz"
	"github.com/dsh-conform/conform/internal/fuzz/testdata/wrong"
	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/internal/verdict"
)

// wrongHarness is a deliberately wrong harness, the bug the fuzzer must
// find in it, and how small the shrunk case must be.
type wrongHarness struct {
	name    string
	harness adapter.Harness // in process; testdata/<name> serves the same code
	ops     []string        // the ops the bug can show in
	key     fuzz.Key        // the finding it must produce
	small   string          // the size bound, in words
	isSmall func(fuzz.Size) bool
}

func failKey(op, field, reqs string) fuzz.Key {
	return fuzz.Key{Op: op, Field: field, Requirements: reqs, Verdict: verdict.Fail}
}

// wrongHarnesses are the in-process Harness implementations under test:
// the reference with one classic porting bug each (testdata/wrong holds
// their code, which the adapter processes testdata/<name>/main.go serve
// too, so both forms are the same harness).
var wrongHarnesses = []wrongHarness{
	{
		name: "meta-ascii", harness: wrong.MetaASCII{}, ops: []string{"grep.result", "glob.result"},
		// The escape-ascii model (issue 20) names the measure's rule,
		// SEARCH-JSON-1, and the shrinker keeps it.
		key:   failKey("grep.result", "meta", "SEARCH-JSON-1"),
		small: "at most 4 matches in at most 2 files",
		isSmall: func(s fuzz.Size) bool {
			return s.Counts["matches"] <= 4 && s.Counts["files"] <= 2
		},
	},
	{
		name: "number-go", harness: wrong.NumberGo{}, ops: []string{"run_code.result"},
		key:     failKey("run_code.result", "content", "CODE-NUM-1"),
		small:   "a result of at most 12 nodes, at most 2 log entries",
		isSmall: func(s fuzz.Size) bool { return s.Counts["resultNodes"] <= 12 && s.Counts["logs"] <= 2 },
	},
	{
		name: "indent-uncapped", harness: wrong.IndentUncapped{}, ops: []string{"run_code.result"},
		key:   failKey("run_code.result", "content", "CODE-JSON-2"),
		small: "a result exactly 6 containers deep (the least that reaches the compact depth 5) of at most 10 nodes, no logs",
		isSmall: func(s fuzz.Size) bool {
			return s.Counts["resultDepth"] == 6 && s.Counts["resultNodes"] <= 10 && s.Counts["logs"] == 0
		},
	},
	{
		name: "drop-empty-logs", harness: wrong.DropEmptyLogs{}, ops: []string{"run_code.result"},
		key: failKey("run_code.result", "content", "CODE-RENDER-1"),
		// A shrunk input is never larger in bytes than its case (issue
		// 12), so a short case of a few logs can stay the minimal one.
		small: "at most 4 log entries and at most 3 result nodes",
		isSmall: func(s fuzz.Size) bool {
			return s.Counts["logs"] <= 4 && s.Counts["resultNodes"] <= 3
		},
	},
	{
		name: "grep-sorted-paths", harness: wrong.GrepSortedPaths{}, ops: []string{"grep.result"},
		// The groups-sorted model (issue 20) names SEARCH-GREP-3 alone.
		key:   failKey("grep.result", "content", "SEARCH-GREP-3"),
		small: "at most 4 matches in 2 or 3 files",
		isSmall: func(s fuzz.Size) bool {
			return s.Counts["matches"] <= 4 && s.Counts["files"] >= 2 && s.Counts["files"] <= 3
		},
	},
}

// hunt runs a campaign against a wrong harness and checks the whole path:
// the bug is found, shrunk through the harness to a small case and saved,
// and the saved case fails when the runner replays the saved directory
// with the same harness (and passes with the reference).
func hunt(h wrongHarness, mode string, opt fuzz.Options, replay func(context.Context) (adapter.Session, error)) {
	GinkgoHelper()
	dir := GinkgoT().TempDir()
	opt.SaveDir = dir
	rep, err := fuzz.Run(context.Background(), opt)
	Expect(err).NotTo(HaveOccurred())
	Expect(rep.Conformant()).To(BeFalse())

	// The finding that groups the bug's kind of failure (issue 23: its
	// key is its minimal input's, whose blame may be narrower).
	var f *fuzz.Finding
	for i := range rep.Findings {
		g := &rep.Findings[i]
		Expect(h.ops).To(ContainElement(g.Key.Op), "a finding outside the bug's ops: %s", g.ID)
		Expect(g.Key.Verdict).To(Equal(verdict.Fail), "only mismatches, no faults: %s", g.ID)
		if slices.Contains(g.Keys, h.key.String()) {
			Expect(f).To(BeNil(), "two findings group %s", h.key)
			f = g
		}
	}
	Expect(f).NotTo(BeNil(), "no finding %s among %v", h.key, findingIDs(rep))
	Expect(f.Count).To(BeNumerically(">=", 1))
	Expect(rep.FirstFailing).NotTo(BeNil())
	Expect(f.First.Seed).To(Equal(fuzz.CaseSeed(opt.Seed, f.First.Case)))
	Expect(f.Repro).To(Equal(fuzz.DefaultRepro(h.key.Op, opt.Seed, f.First.Case)))
	Expect(f.Key.Field).To(Equal(h.key.Field))
	Expect(strings.Fields(f.Key.Requirements)).To(ContainElement(BeElementOf(strings.Fields(h.key.Requirements))), "the cause keeps the bug's requirements")

	// Shrunk, from rapid's re-draw of the very case the campaign found.
	Expect(f.Shrink.Shrunk).To(BeTrue(), "not shrunk: %s", f.Shrink.Note)
	Expect(f.Shrink.FirstDrawMatches).To(BeTrue())
	Expect(f.Diffs).NotTo(BeEmpty())
	Expect(f.Diffs[0].Field).To(Equal(h.key.Field))
	Expect(f.Broken).NotTo(BeEmpty())
	Expect(h.isSmall(f.Size)).To(BeTrue(), "minimal case not small (%s): %s (from %s; %s)\n%s", h.small, f.Size.Summary, f.OriginalSize.Summary, f.Shrink.Note, f.Input)
	fmt.Fprintf(GinkgoWriter, "%-17s %-8s %-24s minimal: %s (from %s; %d cases; %d exchanges, %d memo hits, %.1f s)\n            %s\n",
		h.name, mode, f.ID, f.Size.Summary, f.OriginalSize.Summary, f.Count, f.Shrink.Runs, f.Shrink.MemoHits, f.Shrink.DurationMS/1000, f.Input)
	AddReportEntry(h.name+" "+mode+" minimal case", f.Size.Summary+"\n"+string(f.Input))

	// Saved as a regression case: fixtures/<op>/fuzz-<hash>.json and its golden.
	Expect(f.Saved).NotTo(BeNil())
	Expect(f.Saved.ID).To(MatchRegexp(`^` + h.key.Op + `/fuzz-[0-9a-f]{12}$`))
	Expect(f.Saved.Fixture).To(BeAnExistingFile())
	Expect(f.Saved.Golden).To(BeAnExistingFile())

	// `conform run --fixtures dir` with the wrong harness: a fail verdict.
	cases, err := runner.LoadCases(os.DirFS(dir))
	Expect(err).NotTo(HaveOccurred())
	Expect(cases).To(HaveLen(len(rep.Findings)))
	sel := runner.Select(cases, runner.Selection{IDs: map[string]bool{f.Saved.ID: true}})
	Expect(sel).To(HaveLen(1))
	Expect(sel[0].Input).To(Equal([]byte(f.Input)))
	got, err := runner.Run(context.Background(), sel, runner.Options{NewSession: replay})
	Expect(err).NotTo(HaveOccurred())
	Expect(got.Cases[0].Verdict).To(Equal(verdict.Fail))
	// What a diff affects besides its cause is the case's citations it
	// touches, and the saved case cites only what the finding broke.
	Expect(withoutAffects(got.Cases[0].Diffs)).To(Equal(withoutAffects(f.Diffs)))
	ref, err := runner.Run(context.Background(), cases, runner.Options{NewSession: referenceSession})
	Expect(err).NotTo(HaveOccurred())
	Expect(ref.Conformant()).To(BeTrue(), "the reference fails its own saved case")
}

// Shrink budgets of the suite are steps (Options.ShrinkRuns),
// which do not depend on the machine's load (issue 23); backstop is the
// time limit beside them, a watchdog that a loaded machine never reaches.
const backstop = 10 * time.Minute

func findingIDs(rep *fuzz.Report) []string {
	var ids []string
	for _, f := range rep.Findings {
		ids = append(ids, f.ID)
	}
	return ids
}

var _ = Describe("deliberately wrong harnesses", func() {
	for _, h := range wrongHarnesses {
		Describe(h.name, func() {
			inProcess := func(context.Context) (adapter.Session, error) {
				return adapter.InProcess(h.harness, wrong.Implementation(h.name)), nil
			}

			It("is found in process over every op, shrunk, saved, and the saved case fails on replay", func() {
				hunt(h, "process-less", fuzz.Options{
					Seed: 7, Cases: 3000, Jobs: 2, ShrinkRuns: 30000, ShrinkTime: backstop, NewSession: inProcess,
				}, inProcess)
			})

			It("is found through its adapter process (testdata/"+h.name+"), shrunk through it, saved, and the saved case fails on replay", func() {
				cfg := adapter.Config{Argv: []string{bin(h.name)}}
				hunt(h, "adapter", fuzz.Options{
					Seed: 11, Cases: 800, Jobs: 2, Ops: []string{h.key.Op}, ShrinkRuns: 20000, ShrinkTime: backstop,
					NewSession: processSession(cfg), Adapter: cfg.Argv,
				}, processSession(cfg))
			})
		})
	}
})

func withoutAffects(ds []runner.Diff) []runner.Diff {
	out := append([]runner.Diff(nil), ds...)
	for i := range out {
		out[i].Affects = nil
	}
	return out
}
