package logcheck_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Issue 22: a tool/call's data (LOG-CALL-1) and its pairing with the
// result's turn and step (LOG-CHECK-2), results.go toolCall.
var _ = Describe("check-log's judge, tool/call data (issue 22)", func() {
	const grepCall = `"data":{"turn":1,"step":1,"callId":"call_grep","name":"grep",`

	It("reports an unexpected member of a tool/call's data", func() {
		log := edited("valid-base", grepCall, `"data":{"turn":1,"step":1,"callId":"call_grep","x":0,"name":"grep",`)
		got := findings(log)
		Expect(requirements(log)).To(Equal([]string{v("LOG-CALL-1")}), "%q", got)
	})

	It("reports a result whose turn is not its call's", func() {
		// −0 is a turn of 0 (a JSON number of value 0), not the result's 1.
		for _, turn := range []string{"2", "0", "-0"} {
			log := edited("valid-base", grepCall, `"data":{"turn":`+turn+`,"step":1,"callId":"call_grep","name":"grep",`)
			got := findings(log)
			Expect(requirements(log)).To(Equal([]string{v("LOG-CHECK-2")}), "turn %s: %q", turn, got)
			Expect(got[0]).To(ContainSubstring("turn 1 differs from the call's turn"))
		}
	})

	It("reports a result whose step is not its call's", func() {
		for _, step := range []string{"2", "-0"} {
			log := edited("valid-base", grepCall, `"data":{"turn":1,"step":`+step+`,"callId":"call_grep","name":"grep",`)
			got := findings(log)
			Expect(requirements(log)).To(Equal([]string{v("LOG-CHECK-2")}), "step %s: %q", step, got)
			Expect(got[0]).To(ContainSubstring("step 1 differs from the call's step"))
		}
	})

	It("reports a callId that is not a string, and its result as unpaired", func() {
		log := edited("valid-base", grepCall, `"data":{"turn":1,"step":1,"callId":6,"name":"grep",`)
		got := findings(log)
		Expect(requirements(log)).To(Equal([]string{v("LOG-CALL-1"), v("LOG-CHECK-2")}), "%q", got)
		Expect(got[0]).To(ContainSubstring("callId is not a string"))
	})

	It("reports a name that is not a string", func() {
		log := edited("valid-base", grepCall, `"data":{"turn":1,"step":1,"callId":"call_grep","name":6,`)
		got := findings(log)
		Expect(got).To(ContainElement(ContainSubstring("name is not a string")), "%q", got)
		Expect(got[0]).To(HavePrefix("LOG-CALL-1 violation"))
	})
})
