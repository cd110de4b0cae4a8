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
		// Its dispatch events find no open run_code call (LOG-CHECK-CODE-5),
		// and its result is not paired.
		Expect(requirements(log)).To(Equal([]string{v("LOG-CALL-1"), v("LOG-CHECK-CODE-5"), v("LOG-CHECK-CODE-5"), v("LOG-RES-1")}), "%q", got)
		Expect(got).To(ContainElement(HaveSuffix("tool/call data: callId is empty")))
		Expect(got).To(ContainElement(HaveSuffix("tool/result data: message.source.callId is empty; message.content[0].toolCallId is empty")))
	})
})

// resultsGrepResult is valid-base's grep result line with its data's
// message replaced.
func resultsGrepResult(message string) []byte {
	GinkgoHelper()
	const head = `{"type":"tool/result","seq":7,"time":1785591990005,"data":{"turn":1,"step":1,"message":`
	const tail = `,"meta":{"shape":"matches","files":[{"path":"b.ts","matches":[{"lineNumber":2,"line":"x"},{"lineNumber":5,"line":"z"}]},{"path":"a.ts","matches":[{"lineNumber":1,"line":"y"}]}],"truncated":false,"total":3}},"surfaceOp":"append","sourceEventSeqs":[6]}`
	lines := strings.SplitAfter(string(edited("valid-base")), "\n")
	Expect(lines[6]).To(HavePrefix(head))
	Expect(lines[6]).To(HaveSuffix(tail + "\n"))
	lines[6] = head + message + tail + "\n"
	return []byte(strings.Join(lines, ""))
}

// resultsBlock is valid-base's grep result block, and its text alone.
const (
	resultsText  = `[{"type":"text","text":"Found 3 matches\n\nb.ts\nLine 2: x\nLine 5: z\n\na.ts\nLine 1: y"}]`
	resultsBlock = `{"type":"tool-result","toolCallId":"call_grep","content":` + resultsText + `,"isError":false}`
)

// Issue 22: the shapes of tool/call and tool/result data whose findings
// no test of the package named (results.go toolCall, resultShape,
// messageShape, appendResult, closerChecks, replaceResult).
var _ = Describe("check-log's judge, call and result shapes (issue 22)", func() {
	const grepCall = `"data":{"turn":1,"step":1,"callId":"call_grep","name":"grep",`
	const grepResult = `"data":{"turn":1,"step":1,"message":{"source":{"kind":"tool","callId":"call_grep"}`

	It("reads the unchanged grep result as valid-base's", func() {
		Expect(requirements(resultsGrepResult(`{"source":{"kind":"tool","callId":"call_grep"},"content":[` + resultsBlock + `],"role":"user","id":"msg-call_grep"}`))).To(BeEmpty())
	})

	It("reports a tool/call's turn or step that is not a non-negative integer", func() {
		for _, bad := range []string{"1.5", "-1", `"1"`, "null"} {
			log := edited("valid-base", grepCall, `"data":{"turn":`+bad+`,"step":1,"callId":"call_grep","name":"grep",`)
			got := findings(log)
			Expect(requirements(log)).To(Equal([]string{v("LOG-CALL-1")}), "turn %s: %q", bad, got)
			Expect(got[0]).To(HaveSuffix("tool/call data: turn is not a non-negative integer"))
			log = edited("valid-base", grepCall, `"data":{"turn":1,"step":`+bad+`,"callId":"call_grep","name":"grep",`)
			got = findings(log)
			Expect(requirements(log)).To(Equal([]string{v("LOG-CALL-1")}), "step %s: %q", bad, got)
			Expect(got[0]).To(HaveSuffix("tool/call data: step is not a non-negative integer"))
		}
	})

	It("reports a tool/result's turn or step that is not a non-negative integer", func() {
		for _, bad := range []string{"1.5", "-1", `"1"`} {
			log := edited("valid-base", grepResult, `"data":{"turn":`+bad+`,"step":1,"message":{"source":{"kind":"tool","callId":"call_grep"}`)
			got := findings(log)
			Expect(requirements(log)).To(Equal([]string{v("LOG-RES-1")}), "turn %s: %q", bad, got)
			Expect(got[0]).To(HaveSuffix("tool/result data: turn is not a non-negative integer"))
			log = edited("valid-base", grepResult, `"data":{"turn":1,"step":`+bad+`,"message":{"source":{"kind":"tool","callId":"call_grep"}`)
			got = findings(log)
			Expect(requirements(log)).To(Equal([]string{v("LOG-RES-1")}), "step %s: %q", bad, got)
			Expect(got[0]).To(HaveSuffix("tool/result data: step is not a non-negative integer"))
		}
	})

	It("reads a tool/result's turn or step -0 as 0, a non-negative integer", func() {
		// JSON.parse gives -0, an integer not below 0: no LOG-RES-1, and
		// the turn (step) 0 differs from the call's 1 (LOG-CHECK-2).
		log := edited("valid-base", grepResult, `"data":{"turn":-0,"step":1,"message":{"source":{"kind":"tool","callId":"call_grep"}`)
		got := findings(log)
		Expect(requirements(log)).To(Equal([]string{v("LOG-CHECK-2")}), "%q", got)
		Expect(got[0]).To(ContainSubstring("turn 0 differs from the call's turn 1"))
		log = edited("valid-base", grepResult, `"data":{"turn":1,"step":-0,"message":{"source":{"kind":"tool","callId":"call_grep"}`)
		got = findings(log)
		Expect(requirements(log)).To(Equal([]string{v("LOG-CHECK-2")}), "%q", got)
		Expect(got[0]).To(ContainSubstring("step 0 differs from the call's step 1"))
	})

	It("reports a call id reused after its result", func() {
		// The glob call and its result take the id call_grep, whose call
		// (seq 6) has its result (seq 7): the second tool/call (seq 8)
		// reuses it; its result (seq 9) pairs with it.
		log := []byte(strings.ReplaceAll(strings.ReplaceAll(string(edited("valid-base")), `"callId":"call_glob"`, `"callId":"call_grep"`), `"toolCallId":"call_glob"`, `"toolCallId":"call_grep"`))
		got := findings(log)
		Expect(requirements(log)).To(Equal([]string{v("LOG-CHECK-2")}), "%q", got)
		Expect(got[0]).To(HaveSuffix("call id reused: the tool/call at seq 6 already has its result at seq 7"))
	})

	It("reports a call id reused while its call has no result", func() {
		// The glob call (seq 8) takes the id call_code; its result (seq 9)
		// keeps call_glob, unpaired; the run_code call (seq 10) reuses
		// call_code while the glob call is open, and takes its place.
		log := edited("valid-base", `"callId":"call_glob","name":"glob"`, `"callId":"call_code","name":"glob"`)
		got := findings(log)
		Expect(requirements(log)).To(Equal([]string{v("LOG-CHECK-2"), v("LOG-CHECK-2")}), "%q", got)
		Expect(got).To(ContainElement(HaveSuffix("append result without an earlier tool/call for this call id")))
		Expect(got).To(ContainElement(HaveSuffix("call id reused while the tool/call at seq 8 has no result yet")))
	})

	It("reports a message that is not an object, and leaves its call without a result", func() {
		for _, msg := range []string{`"call_grep"`, `[]`, `null`} {
			log := resultsGrepResult(msg)
			got := findings(log)
			Expect(requirements(log)).To(Equal([]string{v("LOG-RES-1")}), "%s: %q", msg, got)
			Expect(got[0]).To(HaveSuffix("tool/result data: message is not an object"))
		}
	})

	It("reports a message.source that is not an object; the result pairs by its toolCallId", func() {
		log := resultsGrepResult(`{"source":"call_grep","content":[` + resultsBlock + `],"role":"user","id":"msg-call_grep"}`)
		got := findings(log)
		Expect(requirements(log)).To(Equal([]string{v("LOG-RES-1")}), "%q", got)
		Expect(got[0]).To(HaveSuffix("tool/result data: message.source is not an object"))
	})

	It("reports a message.content that is not one tool-result block", func() {
		for _, c := range []struct{ content, problem string }{
			{`{}`, "message.content is not an array"},
			{`"x"`, "message.content is not an array"},
			{`[]`, "message.content has 0 blocks, not exactly one tool-result block"},
			{`[` + resultsBlock + `,` + resultsBlock + `]`, "message.content has 2 blocks, not exactly one tool-result block"},
			{`[1]`, "message.content[0] is not an object"},
			{`["x",` + resultsBlock + `]`, "message.content has 2 blocks, not exactly one tool-result block; message.content[0] is not an object"},
		} {
			log := resultsGrepResult(`{"source":{"kind":"tool","callId":"call_grep"},"content":` + c.content + `,"role":"user","id":"msg-call_grep"}`)
			got := findings(log)
			Expect(got).To(ContainElement(HaveSuffix("tool/result data: "+c.problem)), "content %s", c.content)
			for _, g := range got {
				if strings.HasPrefix(g, "LOG-RES-1 ") {
					Expect(g).To(HaveSuffix("tool/result data: "+c.problem), "content %s: one LOG-RES-1, these problems only", c.content)
				}
			}
		}
	})

	It("reports a legacy result's callId that is not a string, and leaves its call without a result", func() {
		log := edited("valid-legacy-result", `"data":{"turn":1,"step":1,"callId":"call_grep","content"`, `"data":{"turn":1,"step":1,"callId":7,"content"`)
		got := findings(log)
		Expect(requirements(log)).To(Equal([]string{v("LOG-RES-5")}), "%q", got)
		Expect(got[0]).To(HaveSuffix("tool/result data: callId is not a string"))
	})

	It("reports a TOOL_NOT_STARTED closer for a call that has a tool/call", func() {
		log := edited("valid-crash-closers", `"error":{"name":"ToolOutcomeUnknownError","code":"TOOL_OUTCOME_UNKNOWN"}`, `"error":{"name":"ToolNotStartedError","code":"TOOL_NOT_STARTED"}`)
		got := findings(log)
		Expect(got).To(ContainElement(HaveSuffix("TOOL_NOT_STARTED closer for a call that has a tool/call at seq 10")), "%q", got)
		Expect(got).To(ContainElement(HaveSuffix("crash closer: a TOOL_NOT_STARTED closer has no sourceEventSeqs, got [10]")), "%q", got)
	})

	It("reports a crash closer whose error name is not its code's", func() {
		log := edited("valid-crash-closers", `"error":{"name":"ToolOutcomeUnknownError","code":"TOOL_OUTCOME_UNKNOWN"}`, `"error":{"name":"ToolNotStartedError","code":"TOOL_OUTCOME_UNKNOWN"}`)
		got := findings(log)
		Expect(requirements(log)).To(Equal([]string{v("LOG-RES-4")}), "%q", got)
		Expect(got[0]).To(HaveSuffix(`crash closer: error name "ToolNotStartedError" with code TOOL_OUTCOME_UNKNOWN, want ToolOutcomeUnknownError`))
	})

	It("reports a pruned replacement for a call that has no append result yet", func() {
		// The grep call's append result (seq 7) names another call: the
		// grep call is still open when its replacement (seq 16) arrives.
		log := edited("valid-pruned-replacement",
			`"message":{"source":{"kind":"tool","callId":"call_grep"},"content":[{"type":"tool-result","toolCallId":"call_grep","content":[{"type":"text","text":"Found 3 matches`,
			`"message":{"source":{"kind":"tool","callId":"call_x"},"content":[{"type":"tool-result","toolCallId":"call_x","content":[{"type":"text","text":"Found 3 matches`)
		got := findings(log)
		Expect(got).To(ContainElement(HaveSuffix("append result without an earlier tool/call for this call id")), "%q", got)
		Expect(got).To(ContainElement(HavePrefix("LOG-RES-3 violation")), "%q", got)
		Expect(got).To(ContainElement(ContainSubstring("pruned replacement: the call has no append result yet")), "%q", got)
	})
})

var _ = Describe("check-log's judge, empty call ids in malformed messages (issue 22)", func() {
	// The empty ids are looked for in whatever the message holds: a
	// missing or malformed source or content is reported as it was, and
	// only a present id that is "" is called empty.
	for _, c := range []struct {
		name, message   string
		empty, notEmpty []string
	}{
		{"no source", `{"content":[{"type":"tool-result","toolCallId":"","content":` + resultsText + `,"isError":false}],"role":"user","id":"m"}`,
			[]string{"message.content[0].toolCallId is empty"}, []string{"source.callId is empty"}},
		{"a source that is a string", `{"source":"call_grep","content":[{"type":"tool-result","toolCallId":"","content":` + resultsText + `,"isError":false}],"role":"user","id":"m"}`,
			[]string{"message.source is not an object", "message.content[0].toolCallId is empty"}, []string{"source.callId is empty"}},
		{"a source without callId", `{"source":{"kind":"tool"},"content":[{"type":"tool-result","toolCallId":"","content":` + resultsText + `,"isError":false}],"role":"user","id":"m"}`,
			[]string{"message.content[0].toolCallId is empty"}, []string{"source.callId is empty"}},
		{"content not an array", `{"source":{"kind":"tool","callId":""},"content":{},"role":"user","id":"m"}`,
			[]string{"message.content is not an array", "message.source.callId is empty"}, []string{"toolCallId is empty"}},
		{"no content block", `{"source":{"kind":"tool","callId":""},"content":[],"role":"user","id":"m"}`,
			[]string{"message.content has 0 blocks", "message.source.callId is empty"}, []string{"toolCallId is empty", "content[0] is not an object"}},
		{"a block that is not an object", `{"source":{"kind":"tool","callId":""},"content":[""],"role":"user","id":"m"}`,
			[]string{"message.content[0] is not an object", "message.source.callId is empty"}, []string{"toolCallId is empty"}},
		{"a block without toolCallId", `{"source":{"kind":"tool","callId":""},"content":[{"type":"tool-result","content":` + resultsText + `,"isError":false}],"role":"user","id":"m"}`,
			[]string{"message.source.callId is empty"}, []string{"toolCallId is empty"}},
		{"a second block with an empty id", `{"source":{"kind":"tool","callId":"call_grep"},"content":[` + resultsBlock + `,{"type":"tool-result","toolCallId":""}],"role":"user","id":"m"}`,
			[]string{"message.content has 2 blocks"}, []string{"is empty"}},
		{"an empty toolCallId only", `{"source":{"kind":"tool","callId":"call_grep"},"content":[{"type":"tool-result","toolCallId":"","content":` + resultsText + `,"isError":false}],"role":"user","id":"m"}`,
			[]string{"message.content[0].toolCallId is empty"}, []string{"source.callId is empty"}},
		{"an empty source.callId only", `{"source":{"kind":"tool","callId":""},"content":[` + resultsBlock + `],"role":"user","id":"m"}`,
			[]string{"message.source.callId is empty"}, []string{"toolCallId is empty"}},
	} {
		It("in a message with "+c.name, func() {
			log := resultsGrepResult(c.message)
			got := findings(log)
			var res1 []string
			for _, g := range got {
				if strings.HasPrefix(g, "LOG-RES-1 ") {
					res1 = append(res1, g)
				}
			}
			Expect(res1).To(HaveLen(1), "%q", got)
			for _, e := range c.empty {
				Expect(res1[0]).To(ContainSubstring(e))
			}
			for _, e := range c.notEmpty {
				Expect(res1[0]).NotTo(ContainSubstring(e))
			}
		})
	}
})

// resultsRes1 is the one LOG-RES-1 or LOG-RES-5 finding of a log, "" when
// there is none.
func resultsRes1(log []byte) string {
	GinkgoHelper()
	var out []string
	for _, g := range findings(log) {
		if strings.HasPrefix(g, "LOG-RES-1 ") || strings.HasPrefix(g, "LOG-RES-5 ") {
			out = append(out, g)
		}
	}
	Expect(len(out)).To(BeNumerically("<=", 1), "%q", out)
	if len(out) == 0 {
		return ""
	}
	return out[0]
}

var _ = Describe("check-log's judge, a result's content blocks (issue 22)", func() {
	// blocks: "objects with a non-empty string type; text blocks carry a
	// string text. problem is the first break". The grep result's content
	// replaced, in the current shape and in the legacy flat one.
	for _, c := range []struct{ content, problem string }{
		{`[1]`, "content[0] is not an object"},
		{`[{"text":"x"}]`, "content[0].type is not a non-empty string"},
		{`[{"type":""}]`, "content[0].type is not a non-empty string"},
		{`[{"type":1}]`, "content[0].type is not a non-empty string"},
		{`[{"type":"text"}]`, "content[0] is a text block without a string text"},
		{`[{"type":"text","text":1}]`, "content[0] is a text block without a string text"},
		{`[{"type":"image"},{"type":""}]`, "content[1].type is not a non-empty string"},
		{`[{"type":"text","text":"a"},{"type":"text"}]`, "content[1] is a text block without a string text"},
		{`[{"type":""},1]`, "content[0].type is not a non-empty string"},
		{`[1,{"type":""}]`, "content[0] is not an object"},
		{`[{"type":"text"},{"type":""}]`, "content[0] is a text block without a string text"},
		{`{}`, "content is not an array of content blocks"},
		{`"x"`, "content is not an array of content blocks"},
		{`[{"type":"x"}]`, ""},
		{`[{"type":"a"}]`, ""},
		{`[]`, ""},
	} {
		It("reads content "+c.content, func() {
			current := edited("valid-base", `"content":[{"type":"text","text":"Found 3 matches\n\nb.ts\nLine 2: x\nLine 5: z\n\na.ts\nLine 1: y"}]`, `"content":`+c.content)
			legacy := edited("valid-legacy-result", `"content":[{"type":"text","text":"Found 3 matches\n\nb.ts\nLine 2: x\nLine 5: z\n\na.ts\nLine 1: y"}]`, `"content":`+c.content)
			if c.problem == "" {
				Expect(resultsRes1(current)).To(BeEmpty())
				Expect(resultsRes1(legacy)).To(BeEmpty())
				return
			}
			Expect(resultsRes1(current)).To(HaveSuffix("tool/result data: message.content[0]." + c.problem))
			Expect(resultsRes1(legacy)).To(HaveSuffix("tool/result data: " + c.problem))
		})
	}
})

var _ = Describe("check-log's judge, a result's error info (issue 22)", func() {
	// LOG-CHECK-3: error, when present, is {name: string, code: string}
	// (nothing else) and the result has isError true. The grep result
	// given an error (and isError as stated); only LOG-CHECK-3 is looked
	// at (an error result of grep has other rules of its own).
	const tail = `"isError":false}],"role":"user","id":"msg-call_grep"},"meta":`
	check3 := func(errInfo, isError string) []string {
		GinkgoHelper()
		log := edited("valid-base", tail, isError+`}],"role":"user","id":"msg-call_grep"},"error":`+errInfo+`,"meta":`)
		out := []string{}
		for _, g := range findings(log) {
			if strings.HasPrefix(g, "LOG-CHECK-3 ") {
				out = append(out, g)
			}
		}
		return out
	}
	It("accepts {name, code} strings on an error result, in either order", func() {
		Expect(check3(`{"name":"FsError","code":"FS_NOT_FOUND"}`, `"isError":true`)).To(BeEmpty())
		Expect(check3(`{"code":"FS_NOT_FOUND","name":"FsError"}`, `"isError":true`)).To(BeEmpty())
	})
	for _, bad := range []string{
		`{"name":1,"code":"FS_NOT_FOUND"}`,
		`{"name":"FsError","code":2}`,
		`{"name":"FsError"}`,
		`{"code":"FS_NOT_FOUND"}`,
		`{"name":"E","code":"C","x":1}`,
		`{}`,
		`"FsError"`,
		`null`,
	} {
		It("reports the error "+bad, func() {
			got := check3(bad, `"isError":true`)
			Expect(got).To(HaveLen(1))
			Expect(got[0]).To(HaveSuffix(": error is " + bad + ", not {name: string, code: string}"))
		})
	}
	It("reports error info on a result whose isError is false, not on one whose isError is not a boolean or missing", func() {
		got := check3(`{"name":"FsError","code":"FS_NOT_FOUND"}`, `"isError":false`)
		Expect(got).To(HaveLen(1))
		Expect(got[0]).To(HaveSuffix(": error info on a result with isError false"))
		got = check3(`{"name":1,"code":"FS_NOT_FOUND"}`, `"isError":false`)
		Expect(got).To(HaveLen(1))
		Expect(got[0]).To(HaveSuffix(`: error is {"name":1,"code":"FS_NOT_FOUND"}, not {name: string, code: string}; error info on a result with isError false`))
		Expect(check3(`{"name":"FsError","code":"FS_NOT_FOUND"}`, `"isError":"false"`)).To(BeEmpty())
		Expect(check3(`{"name":"FsError","code":"FS_NOT_FOUND"}`, `"x":0`)).To(BeEmpty())
	})
})

var _ = Describe("check-log's judge, a pruned replacement's meta (issue 22)", func() {
	// LOG-RES-3 compares the replacement's meta with the original's by
	// hash (fnvString for strings). A string's length was folded into the
	// same low bits as its last bytes, so "\u0003" (one byte) and
	// "\u0000\u0000" (two) hashed alike, as did "b" and "\u0000a": a
	// replacement that changed such a grep line passed (bug fixed:
	// results.go fnvString).
	for _, c := range []struct{ original, replaced string }{
		{`\u0003`, `\u0000\u0000`},
		{`b`, `\u0000a`},
		{`x`, `x\u0000`},
	} {
		It("reports a meta line "+c.original+" replaced by "+c.replaced, func() {
			lines := strings.SplitAfter(string(edited("valid-pruned-replacement")), "\n")
			Expect(lines[6]).To(HavePrefix(`{"type":"tool/result","seq":7,`))
			Expect(lines[15]).To(HavePrefix(`{"type":"tool/result","seq":16,`))
			for _, i := range []int{6, 15} {
				Expect(strings.Count(lines[i], `"line":"x"`)).To(Equal(1))
			}
			Expect(strings.Count(lines[6], `Line 2: x\n`)).To(Equal(1))
			lines[6] = strings.Replace(strings.Replace(lines[6], `"line":"x"`, `"line":"`+c.original+`"`, 1), `Line 2: x\n`, `Line 2: `+c.original+`\n`, 1)
			same := strings.Join(lines, "")
			lines[15] = strings.Replace(lines[15], `"line":"x"`, `"line":"`+c.original+`"`, 1)
			Expect(requirements([]byte(strings.Join(lines, "")))).To(BeEmpty(), "the same meta")
			lines[15] = strings.Replace(lines[15], `"line":"`+c.original+`"`, `"line":"`+c.replaced+`"`, 1)
			Expect(same).NotTo(Equal(strings.Join(lines, "")))
			Expect(findings([]byte(strings.Join(lines, "")))).To(Equal([]string{metaDiffers}))
		})
	}
})

var _ = Describe("check-log's judge, call ids and names written with escapes (issue 22)", func() {
	// A call id is the JSON string's value: "a\u0041" is aA, and
	// "a\\u0041" the six characters a\u0041; the two are different
	// calls, however the checker looks an id up among the open calls.
	It("pairs a result by its id's value, not by its spelling", func() {
		log := []byte(strings.ReplaceAll(string(edited("valid-base")), `"call_grep"`, `"a\u0041"`))
		Expect(requirements(log)).To(BeEmpty(), "the same id, spelled alike")
		spelled := []byte(strings.Replace(string(log), `"callId":"a\u0041","name":"grep"`, `"callId":"aA","name":"grep"`, 1))
		Expect(requirements(spelled)).To(BeEmpty(), "the same id, spelled otherwise")
		other := []byte(strings.Replace(string(log), `"callId":"a\u0041","name":"grep"`, `"callId":"a\\u0041","name":"grep"`, 1))
		got := findings(other)
		Expect(requirements(other)).To(Equal([]string{v("LOG-CHECK-2")}), "%q", got)
		Expect(got[0]).To(HaveSuffix("append result without an earlier tool/call for this call id"))
	})

	It("pairs a result with its call, not with an open call whose id adds a quote", func() {
		// The glob call takes an id that is call_code with a quote before
		// or after it (and the next character of the line), and stays
		// open (its result keeps call_glob: unpaired, the one finding);
		// the run_code result names call_code and pairs with call_code's
		// tool/call at seq 10, whatever bytes surround its id on the line.
		for _, decoy := range []string{`\"call_code`, `call_code\"`, `call_code\"}`, `call_code\",`} {
			log := edited("valid-base", `"callId":"call_glob","name":"glob"`, `"callId":"`+decoy+`","name":"glob"`)
			got := findings(log)
			Expect(requirements(log)).To(Equal([]string{v("LOG-CHECK-2")}), "decoy %s: %q", decoy, got)
			Expect(got[0]).To(HaveSuffix("seq 9 (call_glob): append result without an earlier tool/call for this call id"))
		}
	})

	It("names a nested result by its own sub-call id, not another of its call's", func() {
		// call_code dispatches two sub-calls, then a tool/result carries
		// the first's id: LOG-CHECK-CODE-7 and an unpaired result, both
		// naming call_code:code:1.
		lines := strings.SplitAfter(string(edited("valid-base")), "\n")
		Expect(lines[10]).To(HavePrefix(`{"type":"tool/code-dispatch-start","seq":11,`))
		Expect(lines[12]).To(HavePrefix(`{"type":"tool/result","seq":13,`))
		second := strings.ReplaceAll(strings.ReplaceAll(lines[10]+lines[11], `"call_code:code:1"`, `"call_code:code:2"`), `"seq":11,`, `"seq":13,`)
		second = strings.Replace(second, `"seq":12,`, `"seq":14,`, 1)
		nested := `{"type":"tool/result","seq":15,"time":1785591990011,"data":{"turn":1,"step":1,"message":{"source":{"kind":"tool","callId":"call_code:code:1"},"content":[{"type":"tool-result","toolCallId":"call_code:code:1","content":[{"type":"text","text":"Found 1 match\n\na.ts\nLine 1: x"}],"isError":false}],"role":"user","id":"msg-nested"}},"surfaceOp":"append","sourceEventSeqs":[10]}` + "\n"
		rest := strings.Join(lines[12:], "")
		for old, seq := range map[string]string{`"seq":13,`: `"seq":16,`, `"seq":14,`: `"seq":17,`, `"seq":15,`: `"seq":18,`} {
			Expect(strings.Count(rest, old)).To(Equal(1))
			rest = strings.Replace(rest, old, seq, 1)
		}
		log := []byte(strings.Join(lines[:12], "") + second + nested + rest)
		got := findings(log)
		Expect(requirements(log)).To(Equal([]string{v("LOG-CHECK-2"), v("LOG-CHECK-CODE-7")}), "%q", got)
		for _, g := range got {
			Expect(g).To(ContainSubstring("seq 15 (call_code:code:1): "))
		}
	})

	It("reads an error name by its value, not by its spelling", func() {
		// The closer's name ToolOutcomeUnknownError spelled with an
		// escape is the same name. The first closer's name "A\\bB" is the
		// four characters A\bB; the second's "A\bB" is A, a backspace, B,
		// not the name the first spelled alike.
		const unknown = `"error":{"name":"ToolOutcomeUnknownError","code":"TOOL_OUTCOME_UNKNOWN"}`
		const notStarted = `"error":{"name":"ToolNotStartedError","code":"TOOL_NOT_STARTED"}`
		log := edited("valid-crash-closers", unknown, `"error":{"name":"ToolOutcome\u0055nknownError","code":"TOOL_OUTCOME_UNKNOWN"}`)
		Expect(requirements(log)).To(BeEmpty())
		log = edited("valid-crash-closers",
			unknown, `"error":{"name":"A\\bB","code":"TOOL_OUTCOME_UNKNOWN"}`,
			notStarted, `"error":{"name":"A\bB","code":"TOOL_NOT_STARTED"}`)
		got := findings(log)
		Expect(requirements(log)).To(Equal([]string{v("LOG-RES-4"), v("LOG-RES-4")}), "%q", got)
		Expect(got[0]).To(HaveSuffix(`crash closer: error name "A\\bB" with code TOOL_OUTCOME_UNKNOWN, want ToolOutcomeUnknownError`))
		Expect(got[1]).To(HaveSuffix(`crash closer: error name "A\bB" with code TOOL_NOT_STARTED, want ToolNotStartedError`))
	})
})

var _ = Describe("check-log's judge, run_code arguments and the two call ids of a result (issue 22)", func() {
	const codeArgs = `"arguments":"{\"code\": \"const r = await tools.grep({pattern: 'x'});\\nreturn 1;\", \"description\": \"Search and return\"}"`
	code3 := func(log []byte) []string {
		GinkgoHelper()
		out := []string{}
		for _, g := range findings(log) {
			if strings.HasPrefix(g, "LOG-CHECK-CODE-3 ") {
				out = append(out, g)
			}
		}
		return out
	}
	It("reads valid-base's run_code arguments as fine", func() {
		Expect(code3(edited("valid-base", codeArgs, codeArgs))).To(BeEmpty())
	})
	It("reports a successful run_code call whose arguments are a JSON object, not a string", func() {
		got := code3(edited("valid-base", codeArgs, `"arguments":{"code":"return 1;","description":"Search and return"}`))
		Expect(got).To(HaveLen(1))
		Expect(got[0]).To(HaveSuffix("successful run_code call with invalid arguments (tool/call at seq 10): the arguments are not a string"))
	})
	It("reports a successful run_code call whose arguments break one rule of the schema", func() {
		// One problem is enough: code not a string, description fine.
		for _, args := range []string{
			`"arguments":"{\"code\": 1, \"description\": \"Search and return\"}"`,
			`"arguments":"{\"description\": \"Search and return\"}"`,
			`"arguments":"{\"code\": \"return 1;\", \"description\": 2}"`,
		} {
			got := code3(edited("valid-base", codeArgs, args))
			Expect(got).To(HaveLen(1), args)
			Expect(got[0]).To(ContainSubstring("successful run_code call with invalid arguments (tool/call at seq 10): "), args)
		}
	})
	It("reports a result whose source.callId and toolCallId differ, paired by its source.callId", func() {
		log := edited("valid-base", `"source":{"kind":"tool","callId":"call_grep"},"content":[{"type":"tool-result","toolCallId":"call_grep"`,
			`"source":{"kind":"tool","callId":"call_x"},"content":[{"type":"tool-result","toolCallId":"call_grep"`)
		got := findings(log)
		Expect(requirements(log)).To(Equal([]string{v("LOG-CHECK-2"), v("LOG-CHECK-2")}), "%q", got)
		Expect(got).To(ContainElement(HaveSuffix(`message.source.callId "call_x" differs from message.content[0].toolCallId "call_grep"`)))
		Expect(got).To(ContainElement(HaveSuffix("seq 7 (call_x): append result without an earlier tool/call for this call id")))
	})
})
