package logcheck_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/logcheck"
)

// Issue 22 item 3: tests that kill the surviving mutants of check-log's
// judge. Each log is testdata/rules/valid-base.jsonl (or a given one)
// with one realistic harness bug edited in; the test asserts the finding a
// user of check-log must get, so a rule that says "fine" too often fails.

// edited is a rules log with each old replaced by new, each old found
// exactly once.
func edited(name string, pairs ...string) []byte {
	GinkgoHelper()
	b, err := os.ReadFile(filepath.Join("testdata", "rules", name+".jsonl"))
	Expect(err).NotTo(HaveOccurred())
	s := string(b)
	for i := 0; i+1 < len(pairs); i += 2 {
		Expect(strings.Count(s, pairs[i])).To(Equal(1), "%q in %s", pairs[i], name)
		s = strings.Replace(s, pairs[i], pairs[i+1], 1)
	}
	return []byte(s)
}

// findings checks a log with the default options, and returns its
// findings as "REQ level: message".
func findings(log []byte, mods ...opts) []string {
	GinkgoHelper()
	opt := logcheck.Defaults()
	for _, m := range mods {
		m(&opt)
	}
	r := checkBytes(log, opt)
	Expect(r.err).NotTo(HaveOccurred())
	out := []string{}
	for _, f := range r.findings {
		out = append(out, f.Requirement+" "+string(f.Level)+": "+f.Message)
	}
	return out
}

const grepBaseText = `"Found 3 matches\n\nb.ts\nLine 2: x\nLine 5: z\n\na.ts\nLine 1: y"`

var _ = Describe("check-log's judge (issue 22)", func() {
	It("the unedited base log is valid", func() {
		Expect(findings(edited("valid-base"))).To(BeEmpty())
	})

	// structure.go header: `!isInt` -> `isInt` on seedLength read every
	// valid header as wrong and let a negative or fractional one pass.
	It("checks a header's seedLength is a non-negative integer", func() {
		header := `"cwd":"/w","delegationDepth":0}`
		Expect(findings(edited("valid-base", header, `"cwd":"/w","delegationDepth":0,"seedLength":3}`))).To(BeEmpty())
		for _, bad := range []string{"-1", "1.5", `"3"`} {
			got := findings(edited("valid-base", header, `"cwd":"/w","delegationDepth":0,"seedLength":`+bad+`}`))
			Expect(got).To(HaveLen(1), bad)
			Expect(got[0]).To(ContainSubstring("seedLength " + bad + " is not a non-negative integer"))
		}
	})

	// search.go agreement.grep: the uncapped branch's `len(last)-1` -> `-0`
	// (the recovery sentence read with its closing parenthesis never
	// parses, so the footer went unnoticed and the log passed).
	It("rejects an uncapped grep text that ends with a recovery footer", func() {
		log := edited("valid-base", grepBaseText,
			`"Found 3 matches\n\nb.ts\nLine 2: x\nLine 5: z\n\na.ts\nLine 1: y\n\n(The complete result could not be saved; narrow pattern, path, or include to see more.)"`)
		Expect(findings(log)).To(Equal([]string{
			"LOG-CHECK-SEARCH-5 violation: seq 7 (call_grep): text and meta disagree: the header is not capped but the text ends with a recovery footer",
		}))
	})

	// results.go closerChecks: `ev.seq >= 0` -> `>= 1`. A log resumed
	// after a crash may open with a closer; its message id still names
	// its own seq.
	It("checks a crash closer's message id at seq 0", func() {
		closer := func(id string) []byte {
			return []byte(`{"type":"session","version":0,"id":"rules-0001","createdAt":1785591986068,"cwd":"/w","delegationDepth":0}` + "\n" +
				`{"type":"tool/result","seq":0,"time":1785591990000,"data":{"turn":1,"step":1,"message":{"source":{"kind":"tool","callId":"call_lost"},"content":[{"type":"tool-result","toolCallId":"call_lost","content":[{"type":"text","text":"The tool call was interrupted before the Harness recorded it as started. Retry it if it is still needed."}],"isError":true}],"role":"user","id":"` + id + `"},"error":{"name":"ToolNotStartedError","code":"TOOL_NOT_STARTED"}},"surfaceOp":"append"}` + "\n")
		}
		good := findings(closer("interrupted-tool-result-call_lost-0"))
		bad := findings(closer("interrupted-tool-result-call_lost-7"))
		Expect(bad).To(ConsistOf(append(good,
			`LOG-RES-4 violation: seq 0 (call_lost): crash closer: message id "interrupted-tool-result-call_lost-7", want "interrupted-tool-result-call_lost-0"`)))
	})

	// results.go closerChecks: `len(srcs) > 0` -> `> 1`. A call that never
	// started has no event to name: one source seq is already one too many.
	It("rejects a TOOL_NOT_STARTED closer that names one source event", func() {
		closer := func(tail string) []byte {
			return []byte(`{"type":"session","version":0,"id":"rules-0001","createdAt":1785591986068,"cwd":"/w","delegationDepth":0}` + "\n" +
				`{"type":"tool/result","seq":0,"time":1785591990000,"data":{"turn":1,"step":1,"message":{"source":{"kind":"tool","callId":"call_lost"},"content":[{"type":"tool-result","toolCallId":"call_lost","content":[{"type":"text","text":"The tool call was interrupted before the Harness recorded it as started. Retry it if it is still needed."}],"isError":true}],"role":"user","id":"interrupted-tool-result-call_lost-0"},"error":{"name":"ToolNotStartedError","code":"TOOL_NOT_STARTED"}},"surfaceOp":"append"` + tail + "}\n")
		}
		good := findings(closer(""))
		Expect(findings(closer(`,"sourceEventSeqs":[0]`))).To(ContainElement(ContainSubstring("a TOOL_NOT_STARTED closer has no sourceEventSeqs, got")), "%v", good)
	})
})

var _ = Describe("check-log's judge, sampled survivors (issue 22)", func() {
	// search.go agreement.grep: `diff >= 0` -> `diff >= 1`.
	It("names the first meta group that is not the text's", func() {
		log := edited("valid-base", `{"lineNumber":2,"line":"x"}`, `{"lineNumber":2,"line":"X"}`)
		Expect(findings(log)).To(Equal([]string{
			"LOG-CHECK-SEARCH-5 violation: seq 7 (call_grep): text and meta disagree: the meta's groups are not a prefix of the text body (first difference in group 0)",
		}))
	})

	// structure.go clip: `len(s) > 40` -> `>= 40` (a neighbour of the
	// sampled `cut > 0` -> `>= 0`, which is equivalent: a raw value starts
	// with an ASCII byte, a rune start, so the loop stops at 0 anyway).
	It("quotes a 40-byte value whole, without a cut mark", func() {
		v40 := `"` + strings.Repeat("t", 38) + `"`
		log := edited("valid-base", `"seq":1,"time":1785591990001`, `"seq":1,"time":`+v40)
		Expect(findings(log)).To(Equal([]string{
			"LOG-3 violation: seq 1: event envelope: time " + v40 + " is not a safe integer",
		}))
	})
})

var _ = Describe("check-log's input sniffing (issue 22)", func() {
	// run_input.go sniff: `i >= 0` -> `i >= 1` (a NUL as the first byte).
	It("names a log that starts with a NUL byte as binary, in one finding", func() {
		s, err := logcheck.Run(context.Background(), []string{"-"}, logcheck.RunOptions{
			Options: logcheck.Defaults(),
			Stdin:   bytes.NewReader(append([]byte{0}, edited("valid-base")...)),
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(s.Files).To(HaveLen(1))
		var got []string
		for _, fd := range s.Files[0].Listed {
			got = append(got, fmt.Sprintf("%d %s %s %s", fd.Line, fd.Requirement, fd.Level, fd.Message))
		}
		Expect(got).To(Equal([]string{"0 LOG-1 violation binary data, not JSONL text (a NUL byte at offset 0); the file is not checked further"}))
	})
})

var _ = Describe("check-log's content blocks (issue 22)", func() {
	// results.go blockInfo: `x.Kind() != jsonjs.String && problem == ""`
	// -> `problem != ""` (the first such block went unreported).
	It("rejects a text block whose text is not a string", func() {
		log := edited("valid-base", `"content":[{"type":"text","text":"1"}]`, `"content":[{"type":"text","text":1}]`)
		Expect(findings(log)).To(Equal([]string{
			"LOG-RES-1 violation: seq 13 (call_code): tool/result data: message.content[0].content[0] is a text block without a string text",
			`LOG-CHECK-CODE-2 violation: seq 13 (call_code): successful run_code result has an empty text; an empty run renders "(run_code completed with no output)"`,
		}))
	})
})

var _ = Describe("check-log's file snapshot (issue 22)", func() {
	// run_input.go newSnapshot: `end > floor` -> `end >= floor` (a file
	// of one line without its LF: the backward scan for the last LF never
	// ended).
	It("checks a file that is one line without a final LF", func() {
		header := `{"type":"session","version":0,"id":"rules-0001","createdAt":1785591986068,"cwd":"/w","delegationDepth":0}`
		p := filepath.Join(GinkgoT().TempDir(), "one.jsonl")
		Expect(os.WriteFile(p, []byte(header), 0o644)).To(Succeed())
		s, err := logcheck.Run(context.Background(), []string{p}, logcheck.RunOptions{Options: logcheck.Defaults()})
		Expect(err).NotTo(HaveOccurred())
		Expect(s.Files).To(HaveLen(1))
		var got []string
		for _, fd := range s.Files[0].Listed {
			got = append(got, fmt.Sprintf("%d %s %s %s", fd.Line, fd.Requirement, fd.Level, fd.Message))
		}
		Expect(got).To(Equal([]string{"1 LOG-1 warning line 1: the final line has no terminating LF (truncated write?)"}))
		Expect(s.Files[0].Stats.Bytes).To(Equal(int64(len(header))))
	})
})

var _ = Describe("check-log's sampled survivors, second batch (issue 22)", func() {
	const turnEnd = `{"type":"turn/end","seq":15,"time":1785591990013,"data":{"turn":1,"reason":{"kind":"completed"}}}`

	// check.go lineDone: a second header's finding has seq -1 -> -0.
	It("names a second session header by its line, not by a seq", func() {
		header := `{"type":"session","version":0,"id":"rules-0001","createdAt":1785591986068,"cwd":"/w","delegationDepth":0}`
		log := edited("valid-base", turnEnd, turnEnd+"\n"+header)
		Expect(findings(log)).To(Equal([]string{"LOG-2 violation: line 16 is a second session header; only the first line may be one"}))
	})

	// structure.go checkEvent: an event's seq starts as -1 -> +1 (an event
	// without a valid seq then borrowed seq 1 in its findings).
	It("names an event without a seq by its line", func() {
		log := edited("valid-base", `{"type":"step/end","seq":14,`, `{"type":"step/end",`)
		Expect(findings(log)).To(Equal([]string{"LOG-3 violation: line 14: event envelope: seq is missing"}))
	})

	// check.go newChecker: `ok && v != ""` -> `ok || v != ""`. An empty
	// mapping leaves the tool's own name; it never unmaps grep.
	It("ignores an empty --tool-name mapping and still checks grep", func() {
		log := edited("valid-base", `{"lineNumber":2,"line":"x"}`, `{"lineNumber":2,"line":"X"}`)
		Expect(findings(log, withTool("grep", ""))).To(Equal(findings(log)))
		Expect(findings(log)).To(HaveLen(1))
	})
})

var _ = Describe("check-log's grep previews (issue 22)", func() {
	// search.go hasLoneSurrogate: `i < 0` -> `i < 1` (a lone surrogate as
	// a line's first bytes went unseen, and the log passed).
	It("rejects a grep line that starts with a lone surrogate", func() {
		log := edited("valid-base", `{"lineNumber":2,"line":"x"}`, `{"lineNumber":2,"line":"\udc80x"}`,
			`Line 2: x\n`, `Line 2: \udc80x\n`)
		Expect(findings(log)).To(Equal([]string{
			`SEARCH-PREVIEW-3 violation: seq 7 (call_grep): grep line "\xed\xb2\x80x" keeps a lone surrogate; a preview is decoded UTF-8, where it is U+FFFD`,
		}))
	})
})

var _ = Describe("check-log's sampled survivors, third batch (issue 22)", func() {
	// structure.go checkRow: a row's seq0 starts as -1 -> -0 (a row
	// without seq0 then borrowed seq 0 in its findings).
	It("names a packed row without seq0 by its line", func() {
		log := edited("valid-base", `{"type":"text-chunks","seq0":3,`, `{"type":"text-chunks",`)
		Expect(findings(log)).To(Equal([]string{"LOG-4 violation: line 5: text-chunks row lacks seq0"}))
	})

	// run_input.go sniff: `len(head)-i >= utf8.UTFMax` -> `>`: an invalid
	// byte with 4 bytes left counts, so 5 invalid bytes are binary.
	It("names a 5-byte log of invalid UTF-8 as binary, in one finding", func() {
		s, err := logcheck.Run(context.Background(), []string{"-"}, logcheck.RunOptions{
			Options: logcheck.Defaults(),
			Stdin:   strings.NewReader("\xff\xff\xff\xff\xff"),
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(s.Files).To(HaveLen(1))
		var got []string
		for _, fd := range s.Files[0].Listed {
			got = append(got, fmt.Sprintf("%d %s %s %s", fd.Line, fd.Requirement, fd.Level, fd.Message))
		}
		Expect(got).To(Equal([]string{"0 LOG-1 violation binary data, not JSONL text (2 of the first 5 bytes are not UTF-8); the file is not checked further"}))
	})
})

var _ = Describe("check-log's envelope reading (issue 22)", func() {
	// structure.go envelope.read: `string(top[2].Key) == "time"` -> `!=`
	// (the fast path then took an unknown third member for time and never
	// saw it as extra).
	It("rejects an unknown member in the third place of an envelope", func() {
		log := edited("valid-base", `{"type":"step/end","seq":14,"time":1785591990012,"data":{"turn":1,"step":1}}`,
			`{"type":"step/end","seq":14,"when":1785591990012,"data":{"turn":1,"step":1},"time":1785591990012}`)
		Expect(findings(log)).To(Equal([]string{`LOG-3 violation: seq 14: event envelope: unexpected envelope member(s) "when"`}))
	})
})
