package logcheck_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// plainMessage (plain.go) reads a tool/result's message in the harness's
// layout in one pass; any other message takes the general walk, which
// names what is wrong with it. A fast path that answers "read" where the
// layout breaks off (plain.go:26:21 `false` -> `true`, and the like) left
// the result without its ids and blocks and the message's problem unsaid.
var _ = Describe("a tool/result message off the harness's layout (issue 22, plain.go)", func() {
	const head = `"message":{"source":{"kind":"tool","callId":"call_grep"},"content":[{"type":"tool-result","toolCallId":"call_grep","content":[{"type":"text","text":"Found 3 matches`
	It("is read by the general walk: a toolCallId that is no string is reported", func() {
		log := edited("valid-base", head, `"message":{"source":{"kind":"tool","callId":"call_grep"},"content":[{"type":"tool-result","toolCallId":7,"content":[{"type":"text","text":"Found 3 matches`)
		Expect(findings(log)).To(Equal([]string{"LOG-RES-1 violation: seq 7 (call_grep): tool/result data: message.content[0].toolCallId is not a string"}))
	})
	// Each spelling is read in full: valid as it is, and its text compared
	// with its meta (a header that says 4 matches for 3 is reported).
	It("is read by the general walk: a message spelt with whitespace is read in full", func() {
		const tail = `Line 1: y"}],"isError":false}],"role":"user","id":"msg-call_grep"}`
		for _, edit := range [][2]string{
			{head, `"message":{"source":{"kind":"tool","callId":"call_grep"}, "content":[{"type":"tool-result","toolCallId":"call_grep","content":[{"type":"text","text":"Found 3 matches`},
			{head, `"message":{"source":{"kind":"tool","callId":"call_grep"},"content":[{"type":"tool-result","toolCallId":"call_grep" ,"content":[{"type":"text","text":"Found 3 matches`},
			{head, `"message":{"source":{"kind":"tool","callId":"call_grep"},"content":[{"type":"tool-result","toolCallId":"call_grep","content": [{"type":"text","text":"Found 3 matches`},
			{head, `"message":{"source":{"kind":"tool","callId":"call_grep"},"content":[{"type":"tool-result","toolCallId":"call_grep","content":[{"type":"text", "text":"Found 3 matches`},
			{tail, `Line 1: y" }],"isError":false}],"role":"user","id":"msg-call_grep"}`},
			{tail, `Line 1: y"}] ,"isError":false}],"role":"user","id":"msg-call_grep"}`},
			{tail, `Line 1: y"}],"isError": false}],"role":"user","id":"msg-call_grep"}`},
			{tail, `Line 1: y"}],"isError":false} ],"role":"user","id":"msg-call_grep"}`},
			{tail, `Line 1: y"}],"isError":false}],"role":"user","id":"msg-call_grep" }`},
		} {
			Expect(findings(edited("valid-base", edit[0], edit[1]))).To(BeEmpty(), edit[1])
			wrong := edited("valid-base", edit[0], edit[1], `"text":"Found 3 matches`, `"text":"Found 4 matches`)
			Expect(findings(wrong)).To(ConsistOf(HavePrefix("LOG-CHECK-SEARCH-5 violation: seq 7 (call_grep): text and meta disagree")), edit[1])
		}
	})
})

// plainObj (plain.go) reads a tool/call's data in the harness's member
// order; other data takes the general walk, which names the members that
// are missing or extra. plain.go:81:46 `len(r)-k.i` -> `len(r)+k.i`
// sliced a member's key past the end of the data when the data's last key
// is shorter than the one the fast path looks for.
var _ = Describe("a tool/call's data off the harness's layout (issue 22, plain.go)", func() {
	It("is read by the general walk, which reports its members", func() {
		const args = `"name":"grep","arguments":"{\"pattern\": \"x\"}"}}`
		for _, data := range []string{`"name":"grep","a":1}}`, `"name":"grep","x":"y"}}`, `"name":"grep","a":{}}}`} {
			got := findings(edited("valid-base", args, data))
			Expect(got).To(ContainElement(HavePrefix("LOG-CALL-1 violation: seq 6 (call_grep): ")), data)
		}
	})
})
