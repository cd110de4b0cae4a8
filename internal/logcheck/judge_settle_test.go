package logcheck_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// code.go dispatch: a settle without isError reads as a success
// (mutation: `isError := false` -> `true`, which took the saved-result
// settle below for an error text without its envelope and blamed
// SEARCH-ERR-1 instead of CODE-DISPATCH-6).
var _ = Describe("check-log's judge, a sub-call settle without isError (issue 22)", func() {
	It("is read as a success, so its stored-result sentence is the finding", func() {
		log := edited("dispatch6-nested-grep-spill", `"name":"grep","arguments":{"pattern":"x"},"isError":false,`, `"name":"grep","arguments":{"pattern":"x"},`)
		got := findings(log)
		Expect(got).To(ContainElement(HavePrefix("CODE-DISPATCH-6 ")))
		Expect(got).NotTo(ContainElement(HavePrefix("SEARCH-ERR-1 ")))
	})
})
