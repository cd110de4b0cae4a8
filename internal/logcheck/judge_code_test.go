package logcheck_test

import (
	"sort"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Issue 22: check-log's run_code and dispatch rules (code.go), each log a
// rules fixture with one harness bug edited in.

// requirements lists the "REQ level" of each finding of log, sorted.
func requirements(log []byte, mods ...opts) []string {
	GinkgoHelper()
	out := []string{}
	for _, f := range findings(log, mods...) {
		req, _, _ := strings.Cut(f, ":")
		out = append(out, req)
	}
	sort.Strings(out)
	return out
}

// The dispatch events of valid-base.jsonl, as written there.
const (
	startHead  = `"type":"tool/code-dispatch-start","seq":11,"time":1785591990009,"data":{"rootCallId":"call_code","parentCallId":"call_code",`
	settleHead = `"type":"tool/code-dispatch","seq":12,"time":1785591990010,"data":{"rootCallId":"call_code","parentCallId":"call_code",`
)

var _ = Describe("check-log's judge, run_code results and dispatch events (issue 22)", func() {
	// code.go:56 `!ok || !found || ...`: a CODE_RUN_FAILED text must start
	// with "Error: code run failed (" (CODE-FAIL-1); a text that names a
	// real failure kind but lacks that start is still malformed.
	It("rejects a CODE_RUN_FAILED text that names a kind but lacks the envelope's start", func() {
		log := edited("valid-code-failure",
			`"text":"Error: code run failed (timeout): compute budget`, `"text":"timeout): compute budget`)
		Expect(requirements(log)).To(Equal([]string{v("LOG-CHECK-CODE-2")}))
		Expect(findings(log)[0]).To(ContainSubstring(`"Error: code run failed ("`))
	})

	It("accepts the same text with the envelope's start", func() {
		Expect(requirements(edited("valid-code-failure"))).To(BeEmpty())
	})

	// code.go:92 and :97 (`idsOK = false`): a dispatch event without a
	// string parentCallId is a shape violation (LOG-CHECK-CODE-4) and names
	// no parent, so it is not filed under one: no enclosure finding
	// (LOG-CHECK-CODE-5) against a parent "" that no log has.
	It("reports a dispatch pair without parentCallId as a shape violation only", func() {
		log := edited("valid-base",
			startHead, `"type":"tool/code-dispatch-start","seq":11,"time":1785591990009,"data":{"rootCallId":"call_code",`,
			settleHead, `"type":"tool/code-dispatch","seq":12,"time":1785591990010,"data":{"rootCallId":"call_code",`)
		got := findings(log)
		Expect(requirements(log)).To(Equal([]string{v("LOG-CHECK-CODE-4"), v("LOG-CHECK-CODE-4")}), "%q", got)
		Expect(got[0]).To(ContainSubstring("parentCallId"))
	})

	It("reports a dispatch pair whose parentCallId is a number as a shape violation only", func() {
		log := edited("valid-base",
			startHead, `"type":"tool/code-dispatch-start","seq":11,"time":1785591990009,"data":{"rootCallId":"call_code","parentCallId":10,`,
			settleHead, `"type":"tool/code-dispatch","seq":12,"time":1785591990010,"data":{"rootCallId":"call_code","parentCallId":10,`)
		got := findings(log)
		Expect(requirements(log)).To(Equal([]string{v("LOG-CHECK-CODE-4"), v("LOG-CHECK-CODE-4")}), "%q", got)
		Expect(got[0]).To(ContainSubstring("parentCallId is not a string"))
	})
})

// nestedBase is valid-base.jsonl with two more events inserted after the
// outer call's first start (seq 11) as seq 12 and 13, the later events
// renumbered.
func nestedBase(start, settle string) []byte {
	GinkgoHelper()
	first := `"subCallId":"call_code:code:1","name":"grep","arguments":{"pattern":"x"}}}` + "\n"
	return edited("valid-base",
		`"seq":15,`, `"seq":17,`, `"seq":14,`, `"seq":16,`, `"seq":13,`, `"seq":15,`, `"seq":12,`, `"seq":14,`,
		first, first+start+"\n"+settle+"\n")
}

var _ = Describe("check-log's judge, nested dispatch (issue 22)", func() {
	// LOG-CHECK-CODE-4 allows "future nesting": a parentCallId that is an
	// earlier subCallId with the same rootCallId. Such a dispatch is filed
	// under the sub-call's own outer call, so it lies inside it
	// (LOG-CHECK-CODE-5) and numbers from 1 under its own parent.
	It("accepts a dispatch pair whose parent is an earlier sub-call of the same root", func() {
		log := nestedBase(
			`{"type":"tool/code-dispatch-start","seq":12,"time":1785591990009,"data":{"rootCallId":"call_code","parentCallId":"call_code:code:1","subCallId":"call_code:code:1:code:1","name":"grep","arguments":{"pattern":"y"}}}`,
			`{"type":"tool/code-dispatch","seq":13,"time":1785591990009,"data":{"rootCallId":"call_code","parentCallId":"call_code:code:1","subCallId":"call_code:code:1:code:1","name":"grep","arguments":{"pattern":"y"},"isError":false,"content":[{"type":"text","text":"No matches found"}]}}`)
		Expect(findings(log)).To(BeEmpty())
	})
})

var _ = Describe("check-log's judge, the dispatch spill bound (issue 22)", func() {
	// LOG-CHECK-CODE-8 bounds a settle whose content is a single text
	// ending with a spill notice; the same words split over two text
	// blocks are not a dispatch-arm spill, so the bound does not apply.
	split := func() []byte {
		return edited("code8-spilled-settle",
			`"content":[{"type":"text","text":"Found 1 match\n\n(Omitted`,
			`"content":[{"type":"text","text":"Found 1 match\n\n"},{"type":"text","text":"(Omitted`)
	}
	It("bounds a single spilled text", func() {
		Expect(requirements(edited("code8-spilled-settle"), withInline(100))).To(Equal([]string{v("LOG-CHECK-CODE-8")}))
	})
	It("bounds a spilled text whatever the omitted byte count", func() {
		for _, n := range []string{"1", "10", "1418", "99999"} {
			log := edited("code8-spilled-settle", "(Omitted 1417 bytes.", "(Omitted "+n+" bytes.")
			Expect(requirements(log, withInline(100))).To(Equal([]string{v("LOG-CHECK-CODE-8")}), n)
			Expect(requirements(log)).To(Equal([]string{u("LOG-CHECK-CODE-8")}), n)
		}
	})
	It("does not bound a spill notice in the second of two text blocks", func() {
		Expect(findings(split(), withInline(100))).To(BeEmpty())
		Expect(findings(split())).To(BeEmpty())
	})
})

var _ = Describe("check-log's judge, a settle whose content is not an array (issue 22)", func() {
	// A settle's content must be an array of blocks (LOG-DISP-1 via
	// LOG-CHECK-CODE-4); when it is not, there is no text to hold to the
	// grep sub-call's envelope rule (SEARCH-ERR-1) or the spill bound, so
	// the shape violation is the only finding.
	for _, content := range []string{`"Error: grep failed"`, `{"type":"text","text":"Error: grep failed"}`, `7`, `true`, `null`} {
		It("reports only the shape of an error settle with content "+content, func() {
			log := edited("valid-base",
				`"isError":false,"content":[{"type":"text","text":"Found 1 match\n\na.ts\nLine 1: x"}]`,
				`"isError":true,"content":`+content)
			got := findings(log)
			Expect(requirements(log)).To(Equal([]string{v("LOG-CHECK-CODE-4")}), "%q", got)
			Expect(got[0]).To(ContainSubstring("settle content is"))
		})
	}
})

var _ = Describe("check-log's judge, a dispatch under a call that is not run_code (issue 22)", func() {
	// LOG-CHECK-CODE-5: the parent is an earlier tool/call named run_code.
	// Only a run_code program dispatches sub-calls, so a start and a settle
	// filed under an open bash call are each out of place.
	It("reports each dispatch event under an open bash call", func() {
		log := edited("valid-base", `"callId":"call_code","name":"run_code",`, `"callId":"call_code","name":"bash",`)
		got := findings(log)
		Expect(requirements(log)).To(Equal([]string{v("LOG-CHECK-CODE-5"), v("LOG-CHECK-CODE-5")}), "%q", got)
		Expect(got[0]).To(ContainSubstring(`a "bash" call, not run_code`))
	})
})

var _ = Describe("check-log's judge, a grep sub-call's error settle without a text block (issue 22)", func() {
	// SEARCH-ERR-1 via CODE-DISPATCH-3: an error settle of a grep sub-call
	// carries what its top-level result would, the registry's "Error: …"
	// text. Content without any text block lacks it; check-log reports
	// that (it used to index the first text block and panic when there was
	// none: code.go:247 tested the block count, not the text count).
	cases := map[string][]string{
		`[]`:                            {v("SEARCH-ERR-1")},
		`[{"type":"image","data":"x"}]`: {v("SEARCH-ERR-1")},
		`[5]`:                           {v("LOG-CHECK-CODE-4"), v("SEARCH-ERR-1")},
	}
	for content, want := range cases {
		It("reports the missing envelope of content "+content, func() {
			log := edited("valid-base",
				`"isError":false,"content":[{"type":"text","text":"Found 1 match\n\na.ts\nLine 1: x"}]`,
				`"isError":true,"content":`+content)
			Expect(requirements(log)).To(Equal(want), "%q", findings(log))
			// With content hooks on, the text rule only warns (a hook may
			// rewrite a text); the shape rule stays a violation.
			hooked := append(append([]string{}, want[:len(want)-1]...), w("SEARCH-ERR-1"))
			Expect(requirements(log, withHooks())).To(Equal(hooked), "%q", findings(log, withHooks()))
		})
	}
	It("accepts the envelope as the settle's one text", func() {
		log := edited("valid-base",
			`"isError":false,"content":[{"type":"text","text":"Found 1 match\n\na.ts\nLine 1: x"}]`,
			`"isError":true,"content":[{"type":"text","text":"Error: path not found: src"}]`)
		Expect(findings(log)).To(BeEmpty())
	})
})

var _ = Describe("check-log's judge, settle texts however the JSON spells them (issue 22)", func() {
	// The sub-call rules read a settle's text, so a text must be judged
	// the same whether the log's JSON writes a character plainly or as a
	// \u escape, and whether the text comes in one text block or two (the
	// settle's text is their concatenation). check-log used to skip the
	// decode when the raw line lacked the words as written, letting both
	// spellings of a violation pass.
	It("finds a nested grep's stored-result sentence written with a \\u escape (CODE-DISPATCH-6)", func() {
		log := edited("dispatch6-nested-grep-spill", `(Full grep result stored at: `, `(Full grep result\u0020stored at: `)
		Expect(requirements(log)).To(Equal([]string{v("CODE-DISPATCH-6")}), "%q", findings(log))
	})
	It("finds a nested grep's stored-result sentence split over two text blocks (CODE-DISPATCH-6)", func() {
		log := edited("dispatch6-nested-grep-spill", `(Full grep result stored at: `, `(Full grep result"},{"type":"text","text":" stored at: `)
		Expect(requirements(log)).To(Equal([]string{v("CODE-DISPATCH-6")}), "%q", findings(log))
	})
	It("bounds a spilled settle whose notice is written with a \\u escape (LOG-CHECK-CODE-8)", func() {
		log := edited("code8-spilled-settle", `Full formatted result stored at: `, `Full formatted result\u0020stored at: `)
		Expect(requirements(log, withInline(100))).To(Equal([]string{v("LOG-CHECK-CODE-8")}), "%q", findings(log, withInline(100)))
	})
})

var _ = Describe("check-log's judge, a nested dispatch after its root's result (issue 22)", func() {
	// LOG-CHECK-CODE-5: dispatch events lie before their parent's result.
	// Once call_code has its result, its sub-call call_code:code:1 is no
	// open parent either, so a dispatch under it is out of place.
	It("reports a dispatch pair whose parent sub-call's run_code call has its result", func() {
		result := `"role":"user","id":"msg-call_code"}},"surfaceOp":"append","sourceEventSeqs":[10]}` + "\n"
		log := edited("valid-base",
			`"seq":15,`, `"seq":17,`, `"seq":14,`, `"seq":16,`,
			result, result+
				`{"type":"tool/code-dispatch-start","seq":14,"time":1785591990011,"data":{"rootCallId":"call_code","parentCallId":"call_code:code:1","subCallId":"call_code:code:1:code:1","name":"grep","arguments":{"pattern":"y"}}}`+"\n"+
				`{"type":"tool/code-dispatch","seq":15,"time":1785591990011,"data":{"rootCallId":"call_code","parentCallId":"call_code:code:1","subCallId":"call_code:code:1:code:1","name":"grep","arguments":{"pattern":"y"},"isError":false,"content":[{"type":"text","text":"No matches found"}]}}`+"\n")
		got := findings(log)
		Expect(requirements(log)).To(Equal([]string{v("LOG-CHECK-CODE-5"), v("LOG-CHECK-CODE-5")}), "%q", got)
	})
})

var _ = Describe("check-log's judge, a nested glob's saved-result footer (issue 22)", func() {
	// A glob text's footer follows its paths after a blank line; a path is
	// never empty, so a text with no blank line is all paths, however a
	// path reads (code.go savedRecovery: a last segment at 0 is no footer).
	globSettle := func(text string) []byte {
		return edited("dispatch6-nested-grep-spill",
			`"subCallId":"call_code:code:1","name":"grep","arguments":{"pattern":"x"}}}`,
			`"subCallId":"call_code:code:1","name":"glob","arguments":{"pattern":"x"}}}`,
			`"name":"grep","arguments":{"pattern":"x"},"isError"`,
			`"name":"glob","arguments":{"pattern":"x"},"isError"`,
			`"text":"Found 1 of 3 matches\n\na.ts\nLine 1: x\n\n(Full grep result stored at: /spill/session-ab12/x1y2-grep-results.txt. Use read with offset/limit, or grep this path to search within it.)"`,
			`"text":"`+text+`"`)
	}
	const footer = `(Showing 1 of 3 paths. Full sorted result stored at: /spill/session-ab12/x1y2-glob-results.txt. Use read with offset/limit, or grep this path to search within it.)`
	It("finds a nested glob's stored-result footer (CODE-DISPATCH-6)", func() {
		log := globSettle(`a.ts\n\n` + footer)
		Expect(requirements(log)).To(Equal([]string{v("CODE-DISPATCH-6")}), "%q", findings(log))
	})
	It("reads a nested glob's one path named like that footer as a path", func() {
		log := globSettle(footer)
		Expect(findings(log)).To(BeEmpty())
	})
})
