package fuzz_test

import (
	"context"
	"sort"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/fuzz"
	"github.com/dsh-conform/conform/internal/fuzz/testdata/wrong"
	"github.com/dsh-conform/conform/internal/verdict"
)

var _ = Describe("grouping by cause (issue 12)", func() {
	It("splits three distinct run_code content bugs into three findings, each with its own minimal input", func() {
		rep, err := fuzz.Run(context.Background(), fuzz.Options{
			Seed: 5, Cases: 1400, Jobs: 2, Ops: []string{"run_code.result"}, ShrinkTime: 3 * time.Second,
			NewSession: func(context.Context) (adapter.Session, error) {
				return adapter.InProcess(wrong.ThreeBugs{}, wrong.Implementation("three-bugs")), nil
			},
		})
		Expect(err).NotTo(HaveOccurred())
		byKey := map[string]*fuzz.Finding{}
		for i := range rep.Findings {
			f := &rep.Findings[i]
			Expect(f.Key.Verdict).To(Equal(verdict.Fail))
			byKey[f.Key.Requirements] = f
		}
		inputs := map[string]bool{}
		for _, reqs := range []string{"CODE-NUM-1", "CODE-STR-1", "CODE-RENDER-1 CODE-RENDER-2"} {
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
	})
})
