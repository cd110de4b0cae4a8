package runner_test

import (
	"context"
	"fmt"
	"sort"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/fuzz/testdata/wrong"
	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/internal/verdict"
)

// blamedBy runs every case through a harness and returns the requirements
// the run fails (issue 12's requirement summary), sorted, with the cases
// that fail, for messages.
func blamedBy(h adapter.Harness) ([]string, string) {
	GinkgoHelper()
	rep, err := runner.Run(context.Background(), cases(), runner.Options{Jobs: 2,
		NewSession: func(context.Context) (adapter.Session, error) {
			return adapter.InProcess(h, adapter.ReferenceImplementation()), nil
		}})
	Expect(err).NotTo(HaveOccurred())
	var failed []string
	for _, row := range runner.Summarize(rep) {
		if row.Fail > 0 {
			failed = append(failed, row.ID)
		}
	}
	sort.Strings(failed)
	var b strings.Builder
	for _, c := range rep.Cases {
		if c.Verdict != verdict.Pass {
			fmt.Fprintf(&b, "%s %s %v\n", c.ID, c.Verdict, c.Broken)
		}
	}
	return failed, b.String()
}

var _ = Describe("blame (issue 12)", func() {
	DescribeTable("a one-bug harness fails exactly the requirements its bug breaks",
		func(h adapter.Harness, want []string) {
			got, detail := blamedBy(h)
			Expect(got).To(Equal(want), detail)
		},
		Entry("the meta cap trims matches inside the last file group", wrong.MetaTrimsMatches{}, []string{"SEARCH-CAP-1", "SEARCH-META-6"}),
		Entry("numbers formatted with Go's %g", wrong.NumberGo{}, []string{"CODE-NUM-1"}),
		Entry("empty log lines dropped", wrong.DropEmptyLogs{}, []string{"CODE-FAIL-1", "CODE-RENDER-1", "CODE-RENDER-2", "CODE-RENDER-3"}),
		Entry("grep groups sorted by path", wrong.GrepSortedPaths{}, []string{"SEARCH-GREP-3", "SEARCH-META-2", "SEARCH-SPILL-2"}),
		Entry("a broken pushes", wrong.BrokenPushes{}, []string{"RET-ITEM-2"}),
	)
})
