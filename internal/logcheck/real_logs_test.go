package logcheck_test

import (
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/logcheck"
)

// The five real upstream logs (examples/acp-agent snapshots, copied from
// /work/shared/sessions). They come from a conforming implementation, so
// they must give no violation at all. They give no warning or unprovable
// finding either: their seqs start at 0 and are contiguous (no
// hand-trimming), every event type is in the vocabulary, the one search
// result (fs-glob-sampling) has its meta and a text that agrees with it,
// and no result carries a spill notice (so nothing depends on the unknown
// maxInlineBytes). The expected set is therefore empty for every file; if a
// future checker change makes one of them warn, the warning must be
// justified by a digest note and listed here.
var _ = Describe("the real upstream logs", func() {
	type expect struct {
		lines, events int
		results       map[string]int
	}
	DescribeTable("give no findings",
		func(name string, want expect) {
			r := checkFile(filepath.Join("testdata", "sessions", name), logcheck.Defaults())
			Expect(r.err).NotTo(HaveOccurred())
			Expect(r.findings).To(BeEmpty(), r.String())
			Expect(r.stats.Lines).To(Equal(want.lines))
			Expect(r.stats.Events).To(Equal(want.events))
			Expect(r.stats.MalformedLines).To(BeZero())
			Expect(r.stats.UnknownTypes).To(BeEmpty())
			Expect(r.stats.ResultsChecked).To(Equal(want.results))
			Expect(r.stats.Findings).To(BeEmpty())
		},
		Entry("advanced-toolchain", "advanced-toolchain.jsonl", expect{76, 75,
			map[string]int{"cordis_define": 1, "cordis_undefine": 1, "run_code": 1, "subagent": 1, "workflow": 1}}),
		Entry("code-mode-turn", "code-mode-turn.jsonl", expect{38, 255, map[string]int{"run_code": 1}}),
		Entry("fs-glob-sampling", "fs-glob-sampling.jsonl", expect{33, 121, map[string]int{"glob": 1}}),
		Entry("fs-read-window", "fs-read-window.jsonl", expect{35, 138, map[string]int{"read": 1}}),
		Entry("parallel-tool-calls", "parallel-tool-calls.jsonl", expect{33, 32, map[string]int{"read": 2}}),
	)

	It("stay clean with the deployment's known caps (globMaxResults 4, ACP snapshot config)", func() {
		opt := logcheck.Defaults()
		opt.GlobMaxResults = 4
		opt.MaxInlineBytes = 800
		r := checkFile(filepath.Join("testdata", "sessions", "fs-glob-sampling.jsonl"), opt)
		Expect(r.findings).To(BeEmpty(), r.String())
	})

	It("flag a wrong known cap", func() {
		opt := logcheck.Defaults()
		opt.GlobMaxResults = 5
		r := checkFile(filepath.Join("testdata", "sessions", "fs-glob-sampling.jsonl"), opt)
		Expect(r.kinds()).To(Equal([]string{"LOG-CHECK-SEARCH-5 violation"}), r.String())
		Expect(r.findings[0].Message).To(ContainSubstring("globMaxResults is 5"))
	})
})
