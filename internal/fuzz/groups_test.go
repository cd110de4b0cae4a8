package fuzz_test

import (
	"bytes"
	"context"
	"slices"
	"sort"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/fuzz"
	"github.com/dsh-conform/conform/internal/fuzz/testdata/wrong"
	"github.com/dsh-conform/conform/internal/verdict"
	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/spec"
)

func inProcess(h adapter.Harness, name string) func(context.Context) (adapter.Session, error) {
	return func(context.Context) (adapter.Session, error) {
		return adapter.InProcess(h, wrong.Implementation(name)), nil
	}
}

var _ = Describe("grouping by cause (issues 12 and 23)", func() {
	It("keeps three distinct run_code content bugs distinct, each with its own minimal input", func() {
		rep, err := fuzz.Run(context.Background(), fuzz.Options{
			Seed: 5, Cases: 1400, Jobs: 2, Ops: []string{"run_code.result"}, ShrinkRuns: 3000, ShrinkTime: backstop,
			NewSession: inProcess(wrong.ThreeBugs{}, "three-bugs"),
		})
		Expect(err).NotTo(HaveOccurred())
		byKey := map[string]*fuzz.Finding{}
		bugs := map[string]string{"CODE-NUM-1": "numbers", "CODE-STR-1": "strings", "CODE-RENDER-1": "empty logs", "CODE-RENDER-2": "empty logs"}
		for i := range rep.Findings {
			f := &rep.Findings[i]
			Expect(f.Key.Verdict).To(Equal(verdict.Fail))
			byKey[f.Key.Requirements] = f
			// no finding mixes two bugs: its minimal input breaks one
			seen := map[string]bool{}
			for _, r := range f.Broken {
				if b, ok := bugs[r]; ok {
					seen[b] = true
				}
			}
			Expect(len(seen)).To(BeNumerically("<=", 1), "%s mixes bugs: %v", f.ID, f.Broken)
		}
		inputs := map[string]bool{}
		for _, reqs := range []string{"CODE-NUM-1", "CODE-STR-1", "CODE-RENDER-1"} {
			f := byKey[reqs]
			Expect(f).NotTo(BeNil(), "no finding %q among %v", reqs, findingIDs(rep))
			Expect(f.Key.Field).To(Equal("content"))
			Expect(f.Shrink.Shrunk).To(BeTrue(), "%s: %s", f.ID, f.Shrink.Note)
			broken := append([]string(nil), f.Broken...)
			sort.Strings(broken)
			Expect(strings.Join(broken, " ")).To(Equal(reqs), "the minimal input keeps its group's cause")
			Expect(f.Size.Bytes).To(BeNumerically("<=", f.OriginalSize.Bytes), "%s: shrunk larger than its case", f.ID)
			inputs[string(f.Input)] = true
		}
		Expect(inputs).To(HaveLen(3), "each group has its own minimal input")
		// Three findings: the empty-logs bug in a failure's text
		// (CODE-FAIL-1, as the run's diagnosis blames it there) joins its
		// finding, whose deviation model explains them all.
		Expect(rep.Findings).To(HaveLen(3), "%v", findingIDs(rep))
		logs := byKey["CODE-RENDER-1"]
		Expect(logs.Cause).To(Equal(`drops the empty strings of "run"."logs"`))
		Expect(logs.Keys).To(ContainElements("run_code.result content CODE-FAIL-1", "run_code.result content CODE-RENDER-1"))
		Expect(byKey["CODE-NUM-1"].Cause).To(BeEmpty(), "no model explains Go's %%g")
	})

	It("reports one bug with many symptoms (grep's maxLineBytes read one byte short) as one finding, with the smallest example of its group", func() {
		opt := fuzz.Options{Seed: 7, Cases: 3000, Jobs: 2, NewSession: inProcess(wrong.GrepLineShort{}, "grep-line-short")}
		// By key alone (no shrinking, no diagnosis) the bug is many kinds
		// of failure: where the difference shows, and what it blames.
		opt.ShrinkTime = -1
		kinds, err := fuzz.Run(context.Background(), opt)
		Expect(err).NotTo(HaveOccurred())
		Expect(len(kinds.Findings)).To(BeNumerically(">", 5), "%v", findingIDs(kinds))
		fields := map[string]bool{}
		smallest := 1 << 30
		for _, k := range kinds.Findings {
			fields[k.Key.Field] = true
			smallest = min(smallest, k.Size.Bytes)
		}
		Expect(fields).To(HaveKey("content"))
		Expect(fields).To(HaveKey("(answer)")) // maxLineBytes 1, read as 0: an error

		opt.ShrinkTime, opt.ShrinkRuns = backstop, 2000
		rep, err := fuzz.Run(context.Background(), opt)
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.Findings).To(HaveLen(1), "%v", findingIDs(rep))
		f := rep.Findings[0]
		Expect(f.Count).To(Equal(rep.FailingCases()))
		Expect(f.Keys).To(HaveLen(len(kinds.Findings)))
		for _, k := range kinds.Findings {
			Expect(f.Keys).To(ContainElement(k.ID))
		}
		Expect(f.Shrink.Shrunk).To(BeTrue(), f.Shrink.Note)
		Expect(f.Size.Bytes).To(BeNumerically("<=", smallest), "the example is the smallest of its group")
		v, err := jsonjs.Parse(f.Input)
		Expect(err).NotTo(HaveOccurred())
		cfg, _ := v.Get("config")
		_, ok := cfg.Get("maxLineBytes")
		Expect(ok).To(BeTrue(), "the example keeps the setting the bug is about: %s", f.Input)
		Expect(slices.Contains(f.Keys, f.First.Key)).To(BeTrue())
		Expect(f.Cause).To(Equal(`reads the setting "config"."maxLineBytes" as one less than given`))
		var text bytes.Buffer
		Expect(rep.WriteText(&text)).To(Succeed())
		Expect(text.String()).To(ContainSubstring("\n  cause: the harness reads the setting \"config\".\"maxLineBytes\" as one less than given\n"))
		Expect(text.String()).To(ContainSubstring("\n  groups %d kinds of failure: %s; ", len(f.Keys), f.Keys[0]))
		data := reportJSON(rep)
		Expect(spec.ValidateJSON("report-fuzz", data)).To(Succeed(), string(data))
	})
})
