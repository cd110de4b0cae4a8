package fuzz_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/fuzz"
	"github.com/dsh-conform/conform/internal/fuzz/testdata/wrong"
	"github.com/dsh-conform/conform/internal/report"
	"github.com/dsh-conform/conform/internal/verdict"
)

// twoBugs has two causes: run_code drops empty log entries, retain.items
// reports every push as kept.
type twoBugs struct{ wrong.DropEmptyLogs }

func (h twoBugs) Run(op string, input []byte) ([]byte, error) {
	if op == "retain.items" {
		return wrong.BrokenPushes{}.Run(op, input)
	}
	return h.DropEmptyLogs.Run(op, input)
}

var _ = Describe("reports", func() {
	var failing, clean *fuzz.Report
	// render is the index of the finding of empty logs dropped.
	render := func() int {
		for i, f := range failing.Findings {
			if f.Key.Op == "run_code.result" {
				return i
			}
		}
		Fail("no run_code finding")
		return -1
	}

	BeforeEach(func() {
		if failing != nil {
			return
		}
		var err error
		failing, err = fuzz.Run(context.Background(), fuzz.Options{
			Seed: 3, Cases: 500, Jobs: 2, ShrinkRuns: 2000, ShrinkTime: backstop, SaveDir: GinkgoT().TempDir(),
			NewSession: func(context.Context) (adapter.Session, error) {
				return adapter.InProcess(twoBugs{}, wrong.Implementation("drop-empty-logs")), nil
			},
			Repro: func(op string, seed uint64, k int) string {
				return "conform fuzz --adapter ./x --op " + op + " --seed 3 --case " + strconv.Itoa(k) + " --cases 1"
			},
		})
		Expect(err).NotTo(HaveOccurred())
		// two causes: empty logs dropped (from a rendered result and from
		// a failure's captured output: one finding) and retain.items'
		// push decisions
		Expect(failing.Findings).To(HaveLen(2))
		clean, err = fuzz.Run(context.Background(), fuzz.Options{Seed: 3, Cases: 70, NewSession: referenceSession})
		Expect(err).NotTo(HaveOccurred())
	})

	It("writes text: throughput, cases per op, counts, the first failing case and each finding", func() {
		var b bytes.Buffer
		Expect(failing.WriteText(&b)).To(Succeed())
		out := b.String()
		f := failing.Findings[render()]
		Expect(out).To(HavePrefix("conform fuzz: wrong/drop-empty-logs 0 (go), in process\nseed 3, cases 0..499, 2 jobs\n500 cases in "))
		Expect(out).To(MatchRegexp(`\(\d+ cases/s\)`))
		Expect(out).To(MatchRegexp(`run_code.result +71 +\d+ +\d+ +0 +0 +0 +0 +0 +key-order \d+`))
		Expect(out).To(ContainSubstring("mismatches %d, crashes 0, timeouts 0, errors 0", failing.Mismatches))
		Expect(out).To(ContainSubstring("first failing: case %d (run_code.result, case seed %d)", failing.FirstFailing.Case, failing.FirstFailing.Seed))
		Expect(out).To(ContainSubstring("FINDING %d/2 %s: %d of 500 cases", render()+1, f.ID, f.Count))
		Expect(out).To(ContainSubstring("FINDING %d/2 %s: ", 2-render(), failing.Findings[1-render()].ID))
		Expect(failing.Findings[1-render()].Key.Op).To(Equal("retain.items"))
		Expect(out).To(ContainSubstring("  minimal input (" + f.Size.Summary))
		Expect(out).To(ContainSubstring(report.Text(string(f.Input)))) // escaped: the input is outside text
		Expect(out).To(ContainSubstring("  diff:\n    content $.content [exact]: first difference at byte"))
		Expect(out).To(ContainSubstring("      want: "))
		Expect(out).To(ContainSubstring("  breaks: " + strings.Join(f.Broken, ", ") + "\n"))
		Expect(f.Broken).To(ContainElement(HavePrefix("CODE-")))
		Expect(out).To(ContainSubstring("  cause: the harness drops the empty strings of \"run\".\"logs\"\n"))
		Expect(out).To(ContainSubstring("  reproduce: conform fuzz --adapter ./x --op run_code.result --seed 3 --case %d --cases 1\n", f.First.Case))
		Expect(out).To(ContainSubstring("  saved: " + f.Saved.Fixture))
		Expect(out).To(HaveSuffix("\nFAIL: 2 findings in %d failing cases\n", failing.FailingCases()))

		b.Reset()
		Expect(clean.WriteText(&b)).To(Succeed())
		Expect(b.String()).To(HaveSuffix("\nOK: no mismatch in 70 cases\n"))
		Expect(b.String()).NotTo(ContainSubstring("FINDING"))
	})

	It("writes JSON that round-trips", func() {
		var b bytes.Buffer
		Expect(failing.WriteJSON(&b)).To(Succeed())
		var back fuzz.Report
		Expect(json.Unmarshal(b.Bytes(), &back)).To(Succeed())
		Expect(back.Format).To(Equal("conform-fuzz"))
		Expect(back.Version).To(Equal(1))
		Expect(back.Cases).To(Equal(500))
		Expect(back.Totals).To(HaveLen(len(verdict.All)))
		Expect(back.Findings).To(HaveLen(2))
		Expect(back.Findings[0].Key).To(Equal(failing.Findings[0].Key))
		Expect(back.Findings[0].Saved).To(Equal(failing.Findings[0].Saved))
		Expect(back.FirstFailing).To(Equal(failing.FirstFailing))
		var raw map[string]any
		Expect(json.Unmarshal(b.Bytes(), &raw)).To(Succeed())
		Expect(raw["findings"].([]any)[render()].(map[string]any)["input"]).To(HaveKey("run")) // the input as JSON, not a string
		Expect(raw).To(HaveKey("casesPerSecond"))
		Expect(raw["perOp"]).To(HaveLen(7))
	})

	It("writes JUnit XML: a suite per op, a failing test case per finding", func() {
		var b bytes.Buffer
		Expect(failing.WriteJUnit(&b)).To(Succeed())
		got, err := report.ReadJUnit(&b)
		Expect(err).NotTo(HaveOccurred())
		Expect(got.Suites).To(HaveLen(7))
		Expect(got.Tests).To(Equal(9))
		Expect(got.Failures).To(Equal(2))
		Expect(got.Errors).To(BeZero())
		for _, s := range got.Suites {
			if s.Name != "fuzz run_code.result" {
				continue
			}
			Expect(s.Cases).To(HaveLen(2))
			f := failing.Findings[render()]
			Expect(s.Cases[1].Name).To(Equal(f.ID))
			Expect(s.Cases[1].Failure.Text).To(ContainSubstring("reproduce: conform fuzz"))
			Expect(s.Cases[1].Failure.Text).To(ContainSubstring(string(f.Input)))
		}
	})

	It("writes Markdown: a status line, the per-op table and the findings", func() {
		var b bytes.Buffer
		Expect(failing.WriteMarkdown(&b)).To(Succeed())
		out := b.String()
		Expect(out).To(HavePrefix("## conform fuzz: ❌ 2 findings\n"))
		Expect(out).To(ContainSubstring("| op | cases | pass | fail | crash | timeout | error | unsupported | skipped | variants |"))
		Expect(out).To(ContainSubstring("| `run_code.result` | 71 |"))
		Expect(out).To(ContainSubstring("### Findings"))
		f := failing.Findings[render()]
		Expect(out).To(ContainSubstring("| %d | `%s` | %d |", render()+1, f.ID, f.Count))
		Expect(out).To(ContainSubstring(report.MDFence("json", string(f.Input))))
		b.Reset()
		Expect(clean.WriteMarkdown(&b)).To(Succeed())
		Expect(b.String()).To(HavePrefix("## conform fuzz: ✅ no mismatch\n"))
	})
})
