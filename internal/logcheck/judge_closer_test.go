package logcheck_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Issue 22: crash closers (LOG-RES-4, results.go closerChecks). A
// closer's message id is "interrupted-tool-result-<callId>-<seq>"; a
// message id that is missing or not a string is a shape violation
// (LOG-RES-1), reported once, with no id to compare.
var _ = Describe("check-log's judge, a crash closer's message id (issue 22)", func() {
	const id = `"role":"user","id":"interrupted-tool-result-call_code-12"}`
	It("accepts the unedited closers", func() {
		Expect(findings(edited("valid-crash-closers"))).To(BeEmpty())
	})
	It("reports a wrong message id under LOG-RES-4", func() {
		log := edited("valid-crash-closers", id, `"role":"user","id":"interrupted-tool-result-call_code-11"}`)
		got := findings(log)
		Expect(requirements(log)).To(Equal([]string{v("LOG-RES-4")}), "%q", got)
		Expect(got[0]).To(ContainSubstring(`want "interrupted-tool-result-call_code-12"`))
	})
	It("reports a missing or non-string message id as its shape only", func() {
		for _, repl := range []string{`"role":"user"}`, `"role":"user","id":12}`} {
			log := edited("valid-crash-closers", id, repl)
			Expect(requirements(log)).To(Equal([]string{v("LOG-RES-1")}), "%s: %q", repl, findings(log))
		}
	})
})
