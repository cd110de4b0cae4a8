package baseline_test

import (
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/baseline"
	"github.com/dsh-conform/conform/spec"
)

func specKnown(id string) bool {
	_, ok := spec.Lookup(id)
	return ok
}

func mustParse(text string) *baseline.Baseline {
	b, err := baseline.Parse("b.yaml", []byte(text))
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	return b
}

var _ = Describe("Parse", func() {
	It("reads entries with their positions", func() {
		b := mustParse(`# accepted findings
- requirement: LOG-CHECK-SEARCH-5
  file: "logs/**/*.jsonl"
  reason: our post-tool hook rewrites grep output
  issue: HARNESS-123
- id: grep-capped-07
  requirement: SEARCH-GREP-1
  reason: upstream bug
`)
		Expect(b.Source).To(Equal("b.yaml"))
		Expect(b.Entries).To(HaveLen(2))
		e := b.Entries[0]
		Expect([]string{e.Requirement, e.File, e.ID, e.Reason, e.Issue}).To(Equal([]string{"LOG-CHECK-SEARCH-5", "logs/**/*.jsonl", "", "our post-tool hook rewrites grep output", "HARNESS-123"}))
		Expect(e.Pos.String()).To(Equal("b.yaml:2"))
		Expect(e.IsCase()).To(BeFalse())
		Expect(b.Entries[1].IsCase()).To(BeTrue())
		Expect(b.Entries[1].Pos.Line).To(Equal(6))
		Expect(e.String()).To(Equal(`b.yaml:2 {requirement: LOG-CHECK-SEARCH-5, file: "logs/**/*.jsonl"}`))
	})

	It("accepts an empty file, a comment-only file and an empty list", func() {
		for _, text := range []string{"", "# nothing yet\n", "[]\n", "~\n"} {
			Expect(mustParse(text).Entries).To(BeEmpty(), text)
		}
	})

	DescribeTable("reports problems with file and line",
		func(text, want string) {
			_, err := baseline.Parse("b.yaml", []byte(text))
			Expect(err).To(MatchError(ContainSubstring(want)))
		},
		Entry("YAML syntax", "- requirement: X\n  reason: [unclosed\n", "b.yaml:"),
		Entry("YAML syntax names the line", "- requirement: LOG-1\n  reason: ok\n- requirement: \"x\n", "b.yaml:3:"),
		Entry("tab indentation", "- requirement: LOG-1\n\treason: ok\n", "b.yaml:2:"),
		Entry("root is a mapping", "requirement: LOG-1\nreason: x\n", "b.yaml:1: a baseline is a YAML list"),
		Entry("entry is a scalar", "- LOG-1\n", "b.yaml:1: entry 1 is a scalar"),
		Entry("unknown key", "- requirement: LOG-1\n  reason: x\n  reasn: y\n", `b.yaml:3: entry 1: unknown key "reasn"`),
		Entry("duplicate key", "- requirement: LOG-1\n  reason: x\n  reason: y\n", "b.yaml:3:"),
		Entry("no requirement nor id", "- reason: x\n  file: a.jsonl\n", "b.yaml:1: entry 1: needs a requirement"),
		Entry("no reason", "- requirement: LOG-1\n", "b.yaml:1: entry 1: needs a non-empty reason"),
		Entry("blank reason", "- requirement: LOG-1\n  reason: \"  \"\n", "needs a non-empty reason"),
		Entry("list value", "- requirement: [LOG-1]\n  reason: x\n", "b.yaml:1: entry 1: requirement must be a string, not a list"),
		Entry("null value", "- requirement:\n  reason: x\n", "requirement must be a string, not a null"),
		Entry("file with id", "- id: c1\n  file: a.jsonl\n  reason: x\n", "file applies to log findings"),
		Entry("bad glob", "- requirement: LOG-1\n  file: \"a[.jsonl\"\n  reason: x\n", "unterminated ["),
		Entry("duplicate entry", "- requirement: LOG-1\n  reason: x\n- requirement: LOG-1\n  reason: y\n", "b.yaml:3: entry 2 repeats the entry at line 1"),
		Entry("second document", "- requirement: LOG-1\n  reason: x\n---\n- requirement: LOG-2\n  reason: y\n", "b.yaml:3: a baseline is one YAML document"),
	)

	It("reports every structural problem at once", func() {
		_, err := baseline.Parse("b.yaml", []byte("- reason: x\n- requirement: LOG-1\n"))
		Expect(err).To(MatchError(And(ContainSubstring("b.yaml:1:"), ContainSubstring("b.yaml:2:"))))
	})

	It("loads from disk and names a missing file", func() {
		p := filepath.Join(GinkgoT().TempDir(), "bl.yaml")
		Expect(os.WriteFile(p, []byte("- requirement: LOG-1\n  reason: x\n"), 0o644)).To(Succeed())
		b, err := baseline.Load(p)
		Expect(err).NotTo(HaveOccurred())
		Expect(b.Entries[0].Pos.String()).To(Equal(p + ":1"))
		_, err = baseline.Load(p + ".missing")
		Expect(err).To(MatchError(ContainSubstring("bl.yaml.missing")))
	})
})

var _ = Describe("Validate", func() {
	b := mustParse(`- requirement: LOG-CHECK-2
  reason: ok
- requirement: LOG-CHECK-99
  reason: typo
- id: nosuchcase
  reason: gone
- id: case-1
  requirement: NOPE
  reason: bad
`)
	It("rejects unknown requirements, naming file and line", func() {
		err := b.Validate(baseline.Known{Requirement: specKnown})
		Expect(err).To(MatchError(ContainSubstring(`b.yaml:3: unknown requirement "LOG-CHECK-99"`)))
		Expect(err).To(MatchError(ContainSubstring(`b.yaml:7: unknown requirement "NOPE"`)))
		Expect(err).NotTo(MatchError(ContainSubstring("nosuchcase")), "case ids are not checked without a case catalogue")
	})
	It("rejects unknown case ids when a case catalogue is given", func() {
		err := b.Validate(baseline.Known{Requirement: specKnown, Case: func(id string) bool { return id == "case-1" }})
		Expect(err).To(MatchError(ContainSubstring(`b.yaml:5: unknown case id "nosuchcase"`)))
	})
	It("accepts known names and needs a requirement catalogue", func() {
		Expect(mustParse("- requirement: LOG-CHECK-2\n  reason: ok\n").Validate(baseline.Known{Requirement: specKnown})).To(Succeed())
		Expect(b.Validate(baseline.Known{})).NotTo(Succeed())
	})
})

var _ = Describe("findings matcher (check-log)", func() {
	b := mustParse(`- requirement: LOG-CHECK-SEARCH-5
  reason: hook rewrites grep output
- requirement: LOG-CHECK-2
  file: "logs/**/*.jsonl"
  reason: crash repair
- requirement: LOG-CHECK-3
  file: "old-*.jsonl"
  reason: legacy
- requirement: LOG-CHECK-1
  reason: never happens
- id: some-case
  reason: runner only
`)
	It("baselines a matching requirement anywhere, and reports unused entries as stale", func() {
		m := b.Findings()
		Expect(m.Entries()).To(HaveLen(4), "case entries are not applied to findings")
		Expect(m.Finding("LOG-CHECK-SEARCH-5", "x/y.jsonl")).To(Equal(b.Entries[0]))
		Expect(m.Finding("LOG-CHECK-SEARCH-4", "x/y.jsonl")).To(BeNil())
		Expect(m.Finding("LOG-CHECK-2", "logs/a/b/run.jsonl")).To(Equal(b.Entries[1]))
		Expect(m.Finding("LOG-CHECK-2", "./logs/run.jsonl")).To(Equal(b.Entries[1]))
		Expect(m.Finding("LOG-CHECK-2", "elsewhere/run.jsonl")).To(BeNil())
		Expect(m.Finding("LOG-CHECK-3", "archive/old-2025.jsonl")).To(Equal(b.Entries[2]), "a slash-free glob matches the base name")
		Expect(m.Finding("LOG-CHECK-3", "new.jsonl")).To(BeNil())
		Expect(m.Hits(b.Entries[1])).To(Equal(2))
		Expect(m.Stale()).To(Equal([]*baseline.Entry{b.Entries[3]}))
	})
	It("marks every matching entry used, so that overlapping entries are not stale", func() {
		b := mustParse("- requirement: LOG-1\n  reason: a\n- requirement: LOG-1\n  file: a.jsonl\n  reason: b\n")
		m := b.Findings()
		Expect(m.Finding("LOG-1", "a.jsonl")).To(Equal(b.Entries[0]))
		Expect(m.Stale()).To(BeEmpty())
	})
	It("matches nothing without a baseline", func() {
		var none *baseline.Baseline
		Expect(none.Findings().Finding("LOG-1", "a.jsonl")).To(BeNil())
		Expect(none.Findings().Stale()).To(BeEmpty())
	})
})

var _ = Describe("cases matcher (runner)", func() {
	b := mustParse(`- id: grep-1
  reason: known failure
- id: grep-2
  requirement: SEARCH-GREP-1
  reason: only for this requirement
- id: grep-3
  reason: fixed upstream?
- requirement: LOG-CHECK-1
  reason: findings only
`)
	It("classifies listed failing cases as xfail and listed passing cases as xpass", func() {
		m := b.Cases()
		Expect(m.Entries()).To(HaveLen(3))
		o, e := m.Case("grep-1", []string{"SEARCH-GREP-2"}, true)
		Expect(o).To(Equal(baseline.XFail))
		Expect(e).To(Equal(b.Entries[0]))
		Expect(o.FailsRun()).To(BeFalse())

		o, _ = m.Case("grep-3", nil, false)
		Expect(o).To(Equal(baseline.XPass))
		Expect(o.FailsRun()).To(BeTrue())

		o, e = m.Case("grep-2", []string{"SEARCH-GREP-2"}, true)
		Expect(o).To(Equal(baseline.Fail), "the entry is limited to another requirement")
		Expect(e).To(BeNil())
		o, _ = m.Case("grep-2", []string{"SEARCH-GREP-1"}, true)
		Expect(o).To(Equal(baseline.XFail))

		o, _ = m.Case("other", nil, false)
		Expect(o).To(Equal(baseline.Pass))
		Expect(o.String()).To(Equal("pass"))
		Expect(m.Stale()).To(BeEmpty())
	})
})

var _ = Describe("file globs", func() {
	DescribeTable("MatchFile",
		func(glob, name string, want bool) {
			b := mustParse("- requirement: LOG-1\n  file: '" + glob + "'\n  reason: x\n")
			Expect(b.Entries[0].MatchFile(name)).To(Equal(want))
		},
		Entry("star stays in a segment", "logs/*.jsonl", "logs/a/b.jsonl", false),
		Entry("star", "logs/*.jsonl", "logs/b.jsonl", true),
		Entry("double star spans segments", "logs/**", "logs/a/b.jsonl", true),
		Entry("**/ matches zero segments", "logs/**/b.jsonl", "logs/b.jsonl", true),
		Entry("question mark", "run-?.jsonl", "run-7.jsonl", true),
		Entry("class", "run-[0-9].jsonl", "run-x.jsonl", false),
		Entry("negated class", "run-[!0-9].jsonl", "run-x.jsonl", true),
		Entry("dot is literal", "a.jsonl", "abjsonl", false),
		Entry("escape", `a\*.jsonl`, "a*.jsonl", true),
		Entry("stdin by name", "<stdin>", "<stdin>", true),
		Entry("non-ASCII", "résumé-*.jsonl", "logs/résumé-1.jsonl", true),
	)
})
