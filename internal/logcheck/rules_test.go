package logcheck_test

import (
	"path/filepath"
	"sort"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/logcheck"
	"github.com/dsh-conform/conform/spec"
)

// testdata/rules holds small logs: valid-base.jsonl (a turn with a grep, a
// capped glob and a run_code call with one sub-call) and variants of it
// that each break one rule. Each entry lists EVERY finding the file must
// give ("REQ level", with repeats), so no other finding may appear.

type opts func(*logcheck.Options)

func withCap(n int) opts     { return func(o *logcheck.Options) { o.SearchMetaMaxBytes = n } }
func withInline(n int) opts  { return func(o *logcheck.Options) { o.MaxInlineBytes = n } }
func withGrepMax(n int) opts { return func(o *logcheck.Options) { o.GrepMaxMatches = n } }
func withGlobMax(n int) opts { return func(o *logcheck.Options) { o.GlobMaxResults = n } }
func withHooks() opts        { return func(o *logcheck.Options) { o.ContentHooks = true } }
func withTool(c, l string) opts {
	return func(o *logcheck.Options) { o.ToolNames = map[string]string{c: l} }
}
func none() []string            { return []string{} }
func v(req string) string       { return req + " violation" }
func w(req string) string       { return req + " warning" }
func u(req string) string       { return req + " unprovable" }
func all(xs ...string) []string { sort.Strings(xs); return xs }

func runRule(name string, mods ...opts) run {
	opt := logcheck.Defaults()
	for _, m := range mods {
		m(&opt)
	}
	return checkFile(filepath.Join("testdata", "rules", name+".jsonl"), opt)
}

var _ = Describe("rule fixtures", func() {
	DescribeTable("give exactly the expected findings",
		func(name string, want []string, mods ...opts) {
			r := runRule(name, mods...)
			Expect(r.err).NotTo(HaveOccurred())
			Expect(r.kinds()).To(Equal(all(want...)), r.String())
			for _, f := range r.findings {
				_, known := spec.Lookup(f.Requirement)
				Expect(known).To(BeTrue(), "requirement %s is not in the catalogue", f.Requirement)
				Expect(f.Message).NotTo(ContainSubstring("\n"))
				Expect(f.File).To(Equal(name + ".jsonl"))
			}
		},
		// Valid logs.
		Entry(nil, "valid-base", none()),
		Entry("with the inline caps it implies", "valid-base", none(), withGrepMax(250), withGlobMax(3)),
		Entry(nil, "valid-header-no-depth", none()),
		Entry(nil, "valid-legacy-result", none()),
		Entry(nil, "valid-crash-closers", none()),
		Entry(nil, "valid-pruned-replacement", none()),
		Entry(nil, "valid-grep-capped", none()),
		Entry("a saved recovery with an empty locator or hint (a store may give either)", "valid-saved-empty-ref", none()),
		Entry(nil, "valid-glob-sampled", none()),
		Entry(nil, "valid-code-failure", none()),
		Entry(nil, "valid-legacy-settle-only", none()),
		Entry("valid-base with every envelope and data object's members reversed (LOG-7)", "valid-member-order", none()),
		Entry("a run_code call still open at EOF may have unsettled sub-calls", "eof-unsettled-open-call", none()),
		Entry("an unmapped tool name is not a search tool", "toolnames-glob-renamed", none()),
		Entry("a mapped tool name is checked", "toolnames-glob-renamed", none(), withTool("glob", "rg_files")),

		// LOG-1 .. LOG-6
		Entry(nil, "log1-malformed-line", []string{v("LOG-1")}),
		Entry(nil, "log1-empty-line", []string{v("LOG-1")}),
		Entry(nil, "log1-no-final-lf", []string{w("LOG-1")}),
		Entry(nil, "log1-invalid-utf8", []string{v("LOG-1")}),
		Entry(nil, "log2-missing-header", []string{v("LOG-2")}),
		Entry(nil, "log2-version", []string{v("LOG-2")}),
		Entry(nil, "log2-created-at", []string{v("LOG-2")}),
		Entry(nil, "log2-created-at-negzero", []string{v("LOG-2")}),
		Entry(nil, "log2-origin-extra", []string{v("LOG-2")}),
		Entry(nil, "log3-extra-member", []string{v("LOG-3")}),
		Entry(nil, "log3-surfaceop-on-call", []string{v("LOG-3")}),
		Entry(nil, "log3-time-not-integer", []string{v("LOG-3")}),
		Entry(nil, "log3-data-not-object", []string{v("LOG-3")}),
		Entry(nil, "log3-surfaceop-shape", []string{v("LOG-3")}),
		Entry(nil, "log3-ignorable-false", []string{v("LOG-3")}),
		Entry(nil, "log4-dt-length", []string{v("LOG-4")}),
		Entry(nil, "log4-texts-not-strings", []string{v("LOG-4")}),
		Entry(nil, "log5-gap", []string{w("LOG-5")}),
		Entry(nil, "log5-first-not-zero", []string{w("LOG-5")}),
		Entry(nil, "log5-not-increasing", []string{v("LOG-CHECK-1")}),
		Entry("an unknown type warns; an ignorable one is only counted", "log6-unknown-types", []string{w("LOG-6")}),

		// Calls and results.
		Entry(nil, "logcall1-arguments-object", []string{v("LOG-CALL-1")}),
		Entry(nil, "logres1-role", []string{v("LOG-RES-1")}),
		Entry(nil, "logres2-no-surfaceop", []string{v("LOG-RES-2")}),
		Entry(nil, "logres2-extra-source", []string{v("LOG-RES-2")}),
		Entry(nil, "logres3-meta-changed", []string{v("LOG-RES-3")}),
		Entry(nil, "logres4-closer-id", []string{v("LOG-RES-4")}),
		Entry(nil, "logres5-legacy-content", []string{v("LOG-RES-5")}),
		Entry(nil, "check2-no-call", []string{v("LOG-CHECK-2")}),
		Entry(nil, "check2-wrong-source", []string{v("LOG-CHECK-2")}),
		Entry(nil, "check2-toolcallid", []string{v("LOG-CHECK-2")}),
		Entry(nil, "check2-step", []string{v("LOG-CHECK-2")}),
		Entry(nil, "check2-second-result", []string{v("LOG-CHECK-2")}),
		Entry(nil, "check3-error-shape", []string{v("LOG-CHECK-3")}),
		Entry(nil, "check3-error-not-iserror", []string{v("LOG-CHECK-3")}),

		// Search.
		Entry(nil, "search1-no-meta", []string{v("LOG-CHECK-SEARCH-1")}),
		Entry("meta is warn-only before 2026-07-30", "search1-no-meta-old-log", []string{w("LOG-CHECK-SEARCH-1")}),
		Entry(nil, "search1-error-with-meta", []string{v("LOG-CHECK-SEARCH-1")}),
		Entry(nil, "search2-not-narrowable", []string{v("LOG-CHECK-SEARCH-2")}),
		Entry(nil, "search2-wrong-shape", []string{v("LOG-CHECK-SEARCH-2")}),
		Entry(nil, "search2-member-order", []string{v("LOG-CHECK-SEARCH-2")}),
		Entry(nil, "search2-extra-member", []string{v("LOG-CHECK-SEARCH-2")}),
		Entry(nil, "search2-duplicate-path", []string{v("LOG-CHECK-SEARCH-2")}),
		Entry(nil, "search2-line-fraction", []string{v("LOG-CHECK-SEARCH-2")}),
		Entry("a line number below 1 only warns", "search2-line-zero", []string{w("LOG-CHECK-SEARCH-2")}),
		Entry(nil, "search3-over-cap", []string{v("LOG-CHECK-SEARCH-3")}, withCap(150)),
		Entry("the text cannot agree with an impossible total either", "search4-total-below-count",
			[]string{v("LOG-CHECK-SEARCH-4"), v("LOG-CHECK-SEARCH-5")}),
		Entry(nil, "search5-grep-header", []string{v("LOG-CHECK-SEARCH-5")}),
		Entry("content hooks downgrade it", "search5-grep-header", []string{w("LOG-CHECK-SEARCH-5")}, withHooks()),
		Entry(nil, "search5-grep-not-prefix", []string{v("LOG-CHECK-SEARCH-5")}),
		Entry(nil, "search5-grep-capped-no-footer", []string{v("LOG-CHECK-SEARCH-5")}),
		Entry(nil, "search5-glob-recovery", []string{v("LOG-CHECK-SEARCH-5")}),
		Entry(nil, "search5-glob-footer-missing", []string{v("LOG-CHECK-SEARCH-5")}),
		Entry(nil, "search5-glob-narrow-missing", []string{v("LOG-CHECK-SEARCH-5")}),
		Entry(nil, "search5-truncated-unexplained", []string{v("LOG-CHECK-SEARCH-5")}),
		Entry(nil, "search5-meta-dropped-fitting", []string{v("LOG-CHECK-SEARCH-5")}),
		Entry("a byte-capped meta under an uncapped text, inline cap unknown", "search5-byte-capped",
			[]string{u("LOG-CHECK-SEARCH-5")}, withCap(150)),
		Entry("a byte-capped meta under an uncapped text, inline cap known", "search5-byte-capped", none(), withCap(150), withGrepMax(250)),
		Entry("a byte-capped meta the cap does not explain", "search5-byte-capped", []string{v("LOG-CHECK-SEARCH-5")}, withGrepMax(250)),
		Entry("an uncapped text over a known grep cap", "valid-base", []string{v("LOG-CHECK-SEARCH-5")}, withGrepMax(2)),
		Entry("a page smaller than a known glob cap", "valid-base", []string{v("LOG-CHECK-SEARCH-5")}, withGlobMax(4)),
		Entry("a spilled text with maxInlineBytes unknown", "search6-spilled", []string{u("LOG-CHECK-SEARCH-6")}),
		Entry("a spilled text over maxInlineBytes", "search6-spilled", []string{v("LOG-CHECK-SEARCH-6")}, withInline(100)),
		Entry("a spilled text within maxInlineBytes", "search6-spilled", none(), withInline(800)),
		Entry("an error text without the envelope, whatever its error info (issue 22)", "searcherr1-no-envelope", []string{v("SEARCH-ERR-1")}),
		Entry("content hooks downgrade it", "searcherr1-no-envelope", []string{w("SEARCH-ERR-1")}, withHooks()),
		Entry("ToolArgsError on an argument-check error", "searcherr1-args-error-typed", []string{v("SEARCH-ERR-1")}),
		Entry("a sub-call's settle keeps the envelope too", "searcherr1-settle-no-envelope", []string{v("SEARCH-ERR-1")}),
		Entry("a grep preview never keeps a lone surrogate", "preview3-lone-surrogate", []string{v("SEARCH-PREVIEW-3")}),
		Entry("cut previews keeping 2000 and 1992 bytes", "preview2-inconsistent-cuts", []string{v("SEARCH-PREVIEW-2")}),
		Entry("cuts keeping 2000 and 1997 bytes and an uncut 2000-byte line", "valid-preview-cuts", none()),
		Entry("a sampled footer whose shown count is not the page's entries", "sample5-shown-not-page", []string{v("SEARCH-SAMPLE-5")}),

		// Code Mode.
		Entry(nil, "code1-meta", []string{v("LOG-CHECK-CODE-1")}),
		Entry(nil, "code2-empty-text", []string{v("LOG-CHECK-CODE-2")}),
		Entry(nil, "code2-two-blocks", []string{v("LOG-CHECK-CODE-2")}),
		Entry(nil, "code2-failure-kind", []string{v("LOG-CHECK-CODE-2")}),
		Entry("an error text is never empty (issue 10)", "code2-error-empty-text", []string{v("LOG-CHECK-CODE-2")}),
		Entry("a program may print the marker, so this only warns", "code2-marker-not-alone", []string{w("LOG-CHECK-CODE-2")}),
		Entry(nil, "code3-blank-description", []string{v("LOG-CHECK-CODE-3")}),
		Entry("a run_code error text without the envelope and no CODE_RUN_FAILED (issue 22)", "codeerr1-no-envelope", []string{v("CODE-ERR-1")}),
		Entry("a nested grep never names a stored full result", "dispatch6-nested-grep-spill", []string{v("CODE-DISPATCH-6")}),
		Entry("not even with an empty retrieval hint", "dispatch6-nested-grep-spill-empty-hint", []string{v("CODE-DISPATCH-6")}),
		Entry(nil, "code4-arguments-string", []string{v("LOG-CHECK-CODE-4"), v("LOG-CHECK-CODE-4")}),
		Entry("the sub-call id rule is reported as LOG-CHECK-CODE-4", "code4-subcallid",
			[]string{v("LOG-CHECK-CODE-4"), v("LOG-CHECK-CODE-4")}),
		Entry(nil, "code-dispatch-meta", []string{v("CODE-DISPATCH-6")}),
		Entry("a settle moved after the result leaves its start unsettled", "code5-after-result",
			[]string{v("LOG-CHECK-CODE-5"), v("LOG-CHECK-CODE-6")}),
		Entry(nil, "code6-numbering", []string{v("LOG-CHECK-CODE-6")}),
		Entry(nil, "code6-unsettled", []string{v("LOG-CHECK-CODE-6")}),
		Entry("LOG-DISP-2 excuses no start only when the call logs none (issue 10)", "code6-settle-without-start", []string{v("LOG-CHECK-CODE-6")}),
		Entry(nil, "code6-arguments-differ", []string{v("LOG-CHECK-CODE-6")}),
		Entry(nil, "code6-second-start", []string{v("LOG-CHECK-CODE-6")}),
		Entry("both the nested call and its result", "code7-nested-card", []string{v("LOG-CHECK-CODE-7"), v("LOG-CHECK-CODE-7")}),
		Entry(nil, "code8-spilled-settle", []string{u("LOG-CHECK-CODE-8")}),
		Entry(nil, "code8-spilled-settle", []string{v("LOG-CHECK-CODE-8")}, withInline(100)),
		Entry(nil, "code8-spilled-settle", none(), withInline(800)),
	)

	It("names the seq, the call id and the numbers", func() {
		r := runRule("search3-over-cap", withCap(150))
		Expect(r.findings).To(HaveLen(1))
		f := r.findings[0]
		Expect(f.Line).To(Equal(7))
		Expect(f.Seq).To(BeEquivalentTo(7))
		Expect(f.Message).To(Equal("seq 7 (call_grep): meta is 197 bytes, over searchMetaMaxBytes 150, with 2 files"))
	})

	It("counts unknown types, ignorable or not", func() {
		r := runRule("log6-unknown-types")
		Expect(r.stats.UnknownTypes).To(Equal(map[string]int{"future/thing": 1, "future/other": 1}))
	})

	It("fills the stats", func() {
		r := runRule("log1-malformed-line")
		Expect(r.stats.Lines).To(Equal(15))
		Expect(r.stats.MalformedLines).To(Equal(1))
		Expect(r.stats.Events).To(Equal(15)) // 16 events, one of them lost
		Expect(r.stats.ResultsChecked).To(Equal(map[string]int{"grep": 1, "glob": 1, "run_code": 1}))
		Expect(r.stats.Findings).To(Equal(map[logcheck.Level]int{logcheck.Violation: 1}))
		Expect(r.stats.Bytes).To(BeNumerically(">", 3000))
		r = runRule("toolnames-glob-renamed", withTool("glob", "rg_files"))
		Expect(r.stats.ResultsChecked).To(Equal(map[string]int{"grep": 1, "glob": 1, "run_code": 1}))
	})

	It("reports the parser's column for malformed JSON", func() {
		r := runRule("log1-malformed-line")
		Expect(r.findings[0].Message).To(MatchRegexp(`^line 3 is not JSON: column \d+: unexpected end of input inside an object$`))
		Expect(r.findings[0].Seq).To(BeEquivalentTo(-1))
	})
})
