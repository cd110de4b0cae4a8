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
