package logcheck_test

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Issue 22: pruned replacements (LOG-RES-3, results.go replaceResult).
// valid-pruned-replacement.jsonl prunes the grep result (seq 7) after a
// compaction/prune (seq 15) with a replacement at seq 16 that keeps the
// original's turn, step, error (none) and meta; each edit below breaks one
// of those.

const (
	replHead  = `{"type":"tool/result","seq":16,"time":1785591990014,"data":{"turn":1,"step":1,`
	replTail  = `"surfaceOp":{"op":"replace","start":7,"end":7},"sourceEventSeqs":[7]}`
	replPrune = `{"type":"compaction/prune","seq":15,"time":1785591990013,"data":{"seqs":[]}}`
)

func replaced(pairs ...string) []byte {
	GinkgoHelper()
	return edited("valid-pruned-replacement", pairs...)
}

var _ = Describe("check-log's judge, pruned replacements (issue 22)", func() {
	It("accepts the unedited replacement", func() {
		Expect(findings(replaced())).To(BeEmpty())
	})

	DescribeTable("reports a replacement that is not its original's",
		func(want string, pairs ...string) {
			log := replaced(pairs...)
			got := findings(log)
			Expect(requirements(log)).To(Equal([]string{v("LOG-RES-3")}), "%q", got)
			Expect(got[0]).To(ContainSubstring(want))
		},
		Entry("sources citing one more event", "sourceEventSeqs is not [7]",
			replTail, `"surfaceOp":{"op":"replace","start":7,"end":7},"sourceEventSeqs":[7,6]}`),
		Entry("sources citing another event", "sourceEventSeqs is not [7]",
			replTail, `"surfaceOp":{"op":"replace","start":7,"end":7},"sourceEventSeqs":[6]}`),
		Entry("a range of two events", "is not one event",
			replTail, `"surfaceOp":{"op":"replace","start":7,"end":8},"sourceEventSeqs":[7]}`),
		Entry("no prune before it", "no compaction/prune event precedes it",
			replPrune, `{"type":"future/other","seq":15,"time":1785591990013,"data":{},"ignorable":true}`),
		Entry("another turn", "turn/step differ",
			replHead, `{"type":"tool/result","seq":16,"time":1785591990014,"data":{"turn":2,"step":1,`),
		Entry("another step", "turn/step differ",
			replHead, `{"type":"tool/result","seq":16,"time":1785591990014,"data":{"turn":1,"step":2,`),
		Entry("replacing another call's result", "it replaces seq 9 but the call's result is seq 7",
			replTail, `"surfaceOp":{"op":"replace","start":9,"end":9},"sourceEventSeqs":[9]}`),
	)

	It("cannot compare a replacement for a call it does not remember", func() {
		// The original may be past the window of remembered calls: the
		// comparison is unprovable, not a violation.
		lines := strings.Split(string(replaced()), "\n")
		for i, l := range lines {
			if strings.HasPrefix(l, replHead) {
				lines[i] = strings.ReplaceAll(l, "call_grep", "call_gone")
			}
		}
		log := []byte(strings.Join(lines, "\n"))
		got := findings(log)
		Expect(requirements(log)).To(Equal([]string{u("LOG-RES-3")}), "%q", got)
		Expect(got[0]).To(ContainSubstring("not among the last"))
	})

	It("reports a replacement without its original's meta", func() {
		lines := strings.Split(string(replaced()), "\n")
		for i, l := range lines {
			if strings.HasPrefix(l, replHead) {
				at := strings.Index(l, `,"meta":`)
				end := strings.Index(l, `},"surfaceOp"`)
				Expect(at).To(BeNumerically(">", 0))
				lines[i] = l[:at] + l[end:]
			}
		}
		log := []byte(strings.Join(lines, "\n"))
		got := findings(log)
		Expect(requirements(log)).To(Equal([]string{v("LOG-RES-3")}), "%q", got)
		Expect(got[0]).To(ContainSubstring("meta differs"))
	})
})

// failureReplaced is valid-code-failure.jsonl with its run_code result
// (seq 13, error {CodeRunFailedError, CODE_RUN_FAILED}) pruned and
// replaced by a result whose error member is errMember ("" for none).
func failureReplaced(errMember string) []byte {
	GinkgoHelper()
	const end = `{"type":"turn/end","seq":15,"time":1785591990013,"data":{"turn":1,"reason":{"kind":"completed"}}}`
	repl := `{"type":"tool/result","seq":16,"time":1785591990014,"data":{"turn":1,"step":1,"message":{"source":{"kind":"tool","callId":"call_code"},"content":[{"type":"tool-result","toolCallId":"call_code","content":[{"type":"text","text":"[pruned]"}],"isError":true}],"role":"user","id":"msg-call_code"}` + errMember + `},"surfaceOp":{"op":"replace","start":13,"end":13},"sourceEventSeqs":[13]}`
	return edited("valid-code-failure", end,
		`{"type":"compaction/prune","seq":15,"time":1785591990013,"data":{"seqs":[]}}`+"\n"+repl+"\n"+
			`{"type":"turn/end","seq":17,"time":1785591990015,"data":{"turn":1,"reason":{"kind":"completed"}}}`)
}

var _ = Describe("check-log's judge, a pruned replacement's error (issue 22)", func() {
	It("accepts the original's error, members in any order (LOG-7)", func() {
		Expect(findings(failureReplaced(`,"error":{"name":"CodeRunFailedError","code":"CODE_RUN_FAILED"}`))).To(BeEmpty())
		Expect(findings(failureReplaced(`,"error":{"code":"CODE_RUN_FAILED","name":"CodeRunFailedError"}`))).To(BeEmpty())
	})
	DescribeTable("reports a replacement whose error is not the original's",
		func(errMember string) {
			log := failureReplaced(errMember)
			got := findings(log)
			Expect(requirements(log)).To(Equal([]string{v("LOG-RES-3")}), "%q", got)
			Expect(got[0]).To(ContainSubstring("error differs"))
		},
		Entry("no error", ``),
		Entry("another code", `,"error":{"name":"CodeRunFailedError","code":"CODE_RUN_FAILEDX"}`),
		Entry("another name", `,"error":{"name":"CodeRunFailed","code":"CODE_RUN_FAILED"}`),
	)
})
