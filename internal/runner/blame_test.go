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
	"github.com/dsh-conform/conform/spec"
)

// blamedBy runs every case through a harness and returns the requirements
// the run fails (issue 12's requirement summary), sorted, with the cases
// that fail, for messages.
func blamedBy(h adapter.Harness) ([]string, string) {
	GinkgoHelper()
	return blamedIn(h, adapter.ReferenceImplementation())
}

// blamedIn is blamedBy for a harness whose handshake says impl.
func blamedIn(h adapter.Harness, impl adapter.Implementation) ([]string, string) {
	GinkgoHelper()
	rep, err := runner.Run(context.Background(), cases(), runner.Options{Jobs: 2,
		NewSession: func(context.Context) (adapter.Session, error) {
			return adapter.InProcess(h, impl), nil
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
		// Trimming keeps a partial group: groups are not whole (CAP-1), the
		// kept count is not the closed form's (CAP-2, where a group of five
		// has room for some of its matches), and the meta is no prefix of
		// the text (META-6). The size bound (CAP-5) holds.
		Entry("the meta cap trims matches inside the last file group", wrong.MetaTrimsMatches{}, []string{"SEARCH-CAP-1", "SEARCH-CAP-2", "SEARCH-META-6"}),
		Entry("numbers formatted with Go's %g", wrong.NumberGo{}, []string{"CODE-NUM-1"}),
		Entry("empty log lines dropped", wrong.DropEmptyLogs{}, []string{"CODE-FAIL-1", "CODE-RENDER-1", "CODE-RENDER-2", "CODE-RENDER-3"}),
		Entry("grep groups sorted by path", wrong.GrepSortedPaths{}, []string{"SEARCH-GREP-3", "SEARCH-META-2", "SEARCH-SPILL-2"}),
		Entry("a broken pushes", wrong.BrokenPushes{}, []string{"RET-ITEM-2"}),
	)
})

var _ = Describe("requirements scoped to a language (issue 20)", func() {
	It("blames SEARCH-JSON-2, about Go's encoding/json, only on a harness that says it is Go or says nothing", func() {
		in := func(lang string) []string {
			got, _ := blamedIn(wrong.MetaASCII{}, adapter.Implementation{Name: "meta-ascii", Language: lang})
			return got
		}
		for _, lang := range []string{"go", "Go", "golang", ""} {
			Expect(in(lang)).To(ContainElements("SEARCH-JSON-1", "SEARCH-JSON-2"), lang)
		}
		for _, lang := range []string{"python", "typescript", "rust", "c#"} {
			got := in(lang)
			Expect(got).To(ContainElement("SEARCH-JSON-1"), lang)
			Expect(got).NotTo(ContainElement("SEARCH-JSON-2"), lang)
		}
	})

	It("leaves every case that cites a scoped requirement a citation that binds any harness", func() {
		for _, c := range cases() {
			var scoped, open []string
			for _, id := range c.Requirements {
				if r, ok := spec.Lookup(id); ok && r.Scope != "" {
					scoped = append(scoped, id)
				} else {
					open = append(open, id)
				}
			}
			if len(scoped) > 0 {
				Expect(open).NotTo(BeEmpty(), "%s cites only %v", c.ID, scoped)
			}
		}
	})
})
