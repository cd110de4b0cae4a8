package logcheck_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Issue 22: an append result's sourceEventSeqs (results.go appendResult).
// The result must cite its tool/call (LOG-CHECK-2); a missing member is
// that violation, while a member that is not a seq list is an envelope
// violation (LOG-3) reported once, not again as a missing citation.
var _ = Describe("check-log's judge, a result's sourceEventSeqs (issue 22)", func() {
	const grepTail = `"total":3}},"surfaceOp":"append","sourceEventSeqs":[6]}`
	It("reports a result without sourceEventSeqs as citing no tool/call", func() {
		log := edited("valid-base", grepTail, `"total":3}},"surfaceOp":"append"}`)
		got := findings(log)
		Expect(requirements(log)).To(Equal([]string{v("LOG-CHECK-2")}), "%q", got)
		Expect(got[0]).To(ContainSubstring("no sourceEventSeqs citing the tool/call at seq 6"))
	})
	It("reports a sourceEventSeqs that is not a seq list under LOG-3 only", func() {
		for _, bad := range []string{`"6"`, `[-1]`, `{}`, `null`} {
			log := edited("valid-base", grepTail, `"total":3}},"surfaceOp":"append","sourceEventSeqs":`+bad+`}`)
			Expect(requirements(log)).To(Equal([]string{v("LOG-3")}), "%s: %q", bad, findings(log))
		}
	})
})
