package logcheck_test

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// A line that is not UTF-8 is reported under LOG-1 and then read as a JS
// host decoding it would, each invalid byte as U+FFFD (lazy.go): its
// strings (str) and trees (value) are those of the text with U+FFFD
// spelt out. lazy.go:22:5 and 30:5 (`c.validUTF8` negated) read such a
// line with the UTF-8 reader, which refuses it.
var _ = Describe("a line that is not UTF-8, read as a JS host reads it (issue 22, lazy.go)", func() {
	// notLog1 are a log's findings other than LOG-1's.
	notLog1 := func(log []byte) []string {
		GinkgoHelper()
		var out []string
		for _, f := range findings(log) {
			if !strings.HasPrefix(f, "LOG-1 ") {
				out = append(out, f)
			}
		}
		return out
	}
	It("gives a grep text the meta's U+FFFD (str)", func() {
		log := edited("valid-base", `\na.ts\nLine 1: y"`, "\\na.ts\\nLine 1: y\xff\"", `{"lineNumber":1,"line":"y"}`, `{"lineNumber":1,"line":"y\ufffd"}`)
		Expect(findings(log)).To(ContainElement(HavePrefix("LOG-1 ")))
		Expect(notLog1(log)).To(BeEmpty())
		wrong := edited("valid-base", `\na.ts\nLine 1: y"`, "\\na.ts\\nLine 1: y\xff\"", `{"lineNumber":1,"line":"y"}`, `{"lineNumber":1,"line":"y?"}`)
		Expect(notLog1(wrong)).To(ContainElement(HavePrefix("LOG-CHECK-SEARCH-5 ")))
	})
	It("gives a sub-call settle's arguments the start's U+FFFD (value)", func() {
		log := edited("valid-base", `"name":"grep","arguments":{"pattern":"x"}}}`, `"name":"grep","arguments":{"pattern":"x\ufffd"}}}`,
			`"arguments":{"pattern":"x"},"isError":false`, "\"arguments\":{\"pattern\":\"x\xff\"},\"isError\":false")
		Expect(findings(log)).To(ContainElement(HavePrefix("LOG-1 ")))
		Expect(notLog1(log)).To(BeEmpty())
		wrong := edited("valid-base", `"name":"grep","arguments":{"pattern":"x"}}}`, `"name":"grep","arguments":{"pattern":"x?"}}}`,
			`"arguments":{"pattern":"x"},"isError":false`, "\"arguments\":{\"pattern\":\"x\xff\"},\"isError\":false")
		Expect(notLog1(wrong)).NotTo(BeEmpty())
	})
})
