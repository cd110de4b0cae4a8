package logcheck_test

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// resultsEmptyID replaces every "call_grep" of a rule fixture with the
// empty id, and one more pair of edits (a text that disagrees with the
// meta, say).
func resultsEmptyID(name string, pairs ...string) []byte {
	GinkgoHelper()
	log := string(edited(name, pairs...))
	Expect(log).To(ContainSubstring(`"call_grep"`))
	return []byte(strings.ReplaceAll(log, `"call_grep"`, `""`))
}

// Issue 22, results.go:832:7 (a run_code call with the empty id): the
// harness gives every call a non-empty id (its tools pipeline refuses a
// result "without non-empty name and callId", and replaying a log its
// session refuses a tool/result whose source.callId is ""), and a run_code
// call's id is the parentCallId of its dispatch events, non-empty under
// LOG-CHECK-CODE-4. The empty string is no call id: a tool/call or
// tool/result that gives it is malformed (LOG-CALL-1, LOG-RES-1/5), and
// the checker neither opens nor pairs it. Before, such a call was opened
// and its result dropped as having no id: a log whose calls all had the
// id "" passed with none of its results checked.
var _ = Describe("check-log's judge, the empty call id (issue 22)", func() {
	It("reports a grep call and result with the empty id, which no longer pass unchecked", func() {
		// The text counts 9 matches, the meta 3: with the id call_grep this
		// is LOG-CHECK-SEARCH-5; with "" the result is not checked, but the
		// empty ids are violations of their own.
		wrong := []string{`"text":"Found 3 matches`, `"text":"Found 9 matches`}
		Expect(requirements(edited("valid-base", wrong...))).To(Equal([]string{v("LOG-CHECK-SEARCH-5")}))
		log := resultsEmptyID("valid-base", wrong...)
		got := findings(log)
		Expect(requirements(log)).To(Equal([]string{v("LOG-CALL-1"), v("LOG-RES-1")}), "%q", got)
		Expect(got).To(ContainElement(HaveSuffix("tool/call data: callId is empty")))
		Expect(got).To(ContainElement(HaveSuffix("tool/result data: message.source.callId is empty; message.content[0].toolCallId is empty")))
	})

	It("reports the empty id of a legacy flat result (LOG-RES-5)", func() {
		log := resultsEmptyID("valid-legacy-result")
		got := findings(log)
		Expect(requirements(log)).To(Equal([]string{v("LOG-CALL-1"), v("LOG-RES-5")}), "%q", got)
		Expect(got).To(ContainElement(HaveSuffix("tool/result data: callId is empty")))
	})

	It("reports an empty source.callId even when toolCallId names the call", func() {
		// The id falls back to toolCallId only when source.callId is
		// missing; an empty one is reported, and the result still pairs
		// with call_grep by its toolCallId.
		log := edited("valid-base", `"source":{"kind":"tool","callId":"call_grep"}`, `"source":{"kind":"tool","callId":""}`)
		got := findings(log)
		Expect(requirements(log)).To(Equal([]string{v("LOG-RES-1")}), "%q", got)
		Expect(got[0]).To(HaveSuffix("tool/result data: message.source.callId is empty"))
		log = edited("valid-base", `"toolCallId":"call_grep"`, `"toolCallId":""`)
		got = findings(log)
		Expect(got).To(ContainElement(HaveSuffix("message.content[0].toolCallId is empty")), "%q", got)
	})

	It("reports the same empty ids in a message not in the harness's member order", func() {
		// messageShape's path, not plainMessage's: role first.
		log := resultsEmptyID("valid-base",
			`"message":{"source":{"kind":"tool","callId":"call_grep"},`, `"message":{"role":"user","source":{"kind":"tool","callId":"call_grep"},`,
			`"isError":false}],"role":"user","id":"msg-call_grep"}`, `"isError":false}],"id":"msg-call_grep"}`)
		got := findings(log)
		Expect(requirements(log)).To(Equal([]string{v("LOG-CALL-1"), v("LOG-RES-1")}), "%q", got)
		Expect(got).To(ContainElement(HaveSuffix("message.source.callId is empty; message.content[0].toolCallId is empty")))
	})

	It("knows no run_code call of the empty id: :code:1 is an ordinary call id after it", func() {
		// A run_code tool/call with callId "" opens no call, so a later
		// glob call ":code:1" is not <x>:code:<n> for a known run_code
		// call x (LOG-CHECK-CODE-7).
		const end = `{"type":"step/end","seq":14,"time":1785591990012,"data":{"turn":1,"step":1}}` + "\n" +
			`{"type":"turn/end","seq":15,"time":1785591990013,`
		glob := `{"type":"tool/call","seq":14,"time":1785591990012,"data":{"turn":1,"step":1,"callId":":code:1","name":"glob","arguments":"{\"pattern\":\"*\"}"}}` + "\n" +
			`{"type":"tool/result","seq":15,"time":1785591990013,"data":{"turn":1,"step":1,"message":{"source":{"kind":"tool","callId":":code:1"},"content":[{"type":"tool-result","toolCallId":":code:1","content":[{"type":"text","text":"a.ts"}],"isError":false}],"role":"user","id":"msg-glob"},"meta":{"shape":"paths","paths":["a.ts"],"truncated":false,"total":1}},"surfaceOp":"append","sourceEventSeqs":[14]}` + "\n" +
			`{"type":"step/end","seq":16,"time":1785591990014,"data":{"turn":1,"step":1}}` + "\n" +
			`{"type":"turn/end","seq":17,"time":1785591990015,`
		named := edited("valid-base", end, glob)
		Expect(requirements(named)).To(BeEmpty(), "the added glob call is fine after call_code")
		log := []byte(strings.ReplaceAll(string(named), `"call_code"`, `""`))
		got := findings(log)
		Expect(got).NotTo(ContainElement(HavePrefix("LOG-CHECK-CODE-7")), "%q", got)
		Expect(requirements(log)).To(ContainElements(v("LOG-CALL-1"), v("LOG-RES-1")), "%q", got)
		Expect(got).To(ContainElement(HaveSuffix("tool/call data: callId is empty")))
		Expect(got).To(ContainElement(HaveSuffix("tool/result data: message.source.callId is empty; message.content[0].toolCallId is empty")))
	})
})
