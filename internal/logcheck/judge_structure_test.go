package logcheck_test

import (
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/logcheck"
)

// Issue 22: survivors of the judge's run in structure.go, the envelope
// checks (LOG-2 header, LOG-3 event envelope, LOG-4 packed rows, LOG-5
// sequence). Most logs are testdata/rules/valid-base.jsonl with one bad
// member edited in (a few are valid-pruned-replacement.jsonl, or a header
// and a row); each expected finding is the one docs/contracts.md's rule
// (and spec/schemas/log-*.json) asks for, worded as the check words it.

// The base log's packed row (line 5, seqs 3..5) and its parts.
const (
	baseRow     = `{"type":"text-chunks","seq0":3,"time0":1785591990000,"data":{"turn":1,"step":1,"index":0,"dt":[1,0],"texts":["Loo","king","…"]}}`
	baseRowData = `{"turn":1,"step":1,"index":0,"dt":[1,0],"texts":["Loo","king","…"]}`
	baseHeader  = `{"type":"session","version":0,"id":"rules-0001","createdAt":1785591986068,"cwd":"/w","delegationDepth":0}`
	// The base's first event after the row: seq 6 on line 6.
	afterRow = `seq 6: `
)

// withRow is the base log with its packed row replaced.
func withRow(row string) []byte {
	GinkgoHelper()
	return edited("valid-base", baseRow, row)
}

// rowWith is the base row with each old replaced by new (each found once).
func rowWith(pairs ...string) string {
	GinkgoHelper()
	s := baseRow
	for i := 0; i+1 < len(pairs); i += 2 {
		Expect(strings.Count(s, pairs[i])).To(Equal(1), pairs[i])
		s = strings.Replace(s, pairs[i], pairs[i+1], 1)
	}
	return s
}

// events counts the events a log expands to (Stats.Events).
func events(log []byte) int {
	GinkgoHelper()
	r := checkBytes(log, logcheck.Defaults())
	Expect(r.err).NotTo(HaveOccurred())
	return r.stats.Events
}

var _ = Describe("check-log's session header (LOG-2, issue 22)", func() {
	header := func(old, new string) []string {
		GinkgoHelper()
		return findings(edited("valid-base", old, new))
	}

	It("requires a string id", func() {
		Expect(header(`"id":"rules-0001"`, `"id":"rules-0002"`)).To(BeEmpty())
		for _, bad := range []string{`7`, `null`, `["rules-0001"]`} {
			Expect(header(`"id":"rules-0001"`, `"id":`+bad)).To(Equal([]string{
				"LOG-2 violation: line 1: session header: id is not a string",
			}), bad)
		}
	})

	// spec/schemas/log-header.json: upstream refuses -0 for createdAt and
	// delegationDepth; seedLength is a plain non-negative integer, -0 being 0.
	It("requires delegationDepth to be a non-negative safe integer, not -0", func() {
		for _, good := range []string{`1`, `9007199254740991`, `2e0`} {
			Expect(header(`"delegationDepth":0}`, `"delegationDepth":`+good+`}`)).To(BeEmpty(), good)
		}
		for _, bad := range []string{`-1`, `2.5`, `9007199254740992`, `"0"`, `null`, `-0`, `-0.0`} {
			Expect(header(`"delegationDepth":0}`, `"delegationDepth":`+bad+`}`)).To(Equal([]string{
				"LOG-2 violation: line 1: session header: delegationDepth " + bad + " is not a non-negative safe integer",
			}), bad)
		}
	})

	It("reads a seedLength of -0 as 0", func() {
		Expect(header(`"delegationDepth":0}`, `"delegationDepth":0,"seedLength":-0}`)).To(BeEmpty())
	})

	It("requires cwd, parentSession and agentPreset to be strings", func() {
		Expect(header(`"cwd":"/w"`, `"cwd":"/w","parentSession":"p-1","agentPreset":"fast"`)).To(BeEmpty())
		Expect(header(`"cwd":"/w"`, `"cwd":1`)).To(Equal([]string{
			"LOG-2 violation: line 1: session header: cwd is not a string",
		}))
		Expect(header(`"cwd":"/w"`, `"cwd":"/w","parentSession":{}`)).To(Equal([]string{
			"LOG-2 violation: line 1: session header: parentSession is not a string",
		}))
		Expect(header(`"cwd":"/w"`, `"cwd":"/w","agentPreset":false`)).To(Equal([]string{
			"LOG-2 violation: line 1: session header: agentPreset is not a string",
		}))
		// All three in one finding, in the rule's order.
		Expect(header(`"cwd":"/w"`, `"agentPreset":null,"cwd":[],"parentSession":3`)).To(Equal([]string{
			"LOG-2 violation: line 1: session header: cwd is not a string; parentSession is not a string; agentPreset is not a string",
		}))
	})

	It("accepts origin subagent and names any other origin", func() {
		Expect(header(`"cwd":"/w"`, `"cwd":"/w","origin":"subagent"`)).To(BeEmpty())
		Expect(header(`"cwd":"/w"`, `"cwd":"/w","origin":"user"`)).To(Equal([]string{
			`LOG-2 violation: line 1: session header: origin is "user", not "subagent"`,
		}))
	})
})

var _ = Describe("check-log's packed rows (LOG-4, issue 22)", func() {
	It("expands the base row to its three members", func() {
		Expect(findings(withRow(baseRow))).To(BeEmpty())
		Expect(events(withRow(baseRow))).To(Equal(16))
	})

	It("names a row with a bad seq0 by its line, and loses the sequence there", func() {
		for _, bad := range []string{`-3`, `1.5`, `"3"`, `9007199254740992`} {
			log := withRow(rowWith(`"seq0":3,`, `"seq0":`+bad+`,`))
			// The next event's seq 6 is not a jump: the row's seqs are unknown.
			Expect(findings(log)).To(Equal([]string{
				"LOG-4 violation: line 5: seq0 is not a non-negative safe integer",
			}), bad)
			// Its members cannot be counted: the 13 plain events remain.
			Expect(events(log)).To(Equal(13), bad)
		}
	})

	It("requires time0 to be a safe integer", func() {
		Expect(findings(withRow(rowWith(`"time0":1785591990000`, `"time0":-5`)))).To(BeEmpty())
		for _, bad := range []string{`1.5`, `"1785591990000"`, `9007199254740992`} {
			Expect(findings(withRow(rowWith(`"time0":1785591990000`, `"time0":`+bad)))).To(Equal([]string{
				"LOG-4 violation: seq 3: time0 is not a safe integer",
			}), bad)
		}
	})

	It("counts a row whose data is not an object as one event", func() {
		jump := "LOG-5 warning: " + afterRow + "seq jumps from 3 to 6 (2 missing; trimmed fixture?)"
		Expect(findings(withRow(rowWith(baseRowData, `["Loo","king","…"]`)))).To(Equal([]string{
			"LOG-4 violation: seq 3: data is not an object", jump,
		}))
		Expect(findings(withRow(rowWith(`,"data":`+baseRowData, ``)))).To(Equal([]string{
			"LOG-4 violation: seq 3: text-chunks row lacks data", jump,
		}))
		Expect(events(withRow(rowWith(baseRowData, `null`)))).To(Equal(14))
	})

	It("checks a tool-call-chunks row's id, name and args", func() {
		call := func(data string) []byte {
			return withRow(`{"type":"tool-call-chunks","seq0":3,"time0":1785591990000,"data":` + data + `}`)
		}
		good := `{"turn":1,"step":1,"index":0,"dt":[1,0],"id":"call_x","name":"grep","args":["{\"pat","tern\":","\"x\"}"]}`
		Expect(findings(call(good))).To(BeEmpty())
		Expect(events(call(good))).To(Equal(16))
		// name is optional.
		Expect(findings(call(strings.Replace(good, `,"name":"grep"`, ``, 1)))).To(BeEmpty())
		Expect(findings(call(strings.Replace(good, `"id":"call_x"`, `"id":7`, 1)))).To(Equal([]string{
			"LOG-4 violation: seq 3: data.id is not a string",
		}))
		Expect(findings(call(strings.Replace(good, `"name":"grep"`, `"name":["grep"]`, 1)))).To(Equal([]string{
			"LOG-4 violation: seq 3: data.name is not a string",
		}))
		// A tool-call row carries args, not texts; a text row the reverse.
		Expect(findings(call(strings.Replace(good, `"args":`, `"texts":`, 1)))).To(Equal([]string{
			`LOG-4 violation: seq 3: data lacks args; data has unexpected member(s) "texts"`,
			"LOG-5 warning: " + afterRow + "seq jumps from 3 to 6 (2 missing; trimmed fixture?)",
		}))
		Expect(findings(withRow(rowWith(`"texts":`, `"args":`)))).To(Equal([]string{
			`LOG-4 violation: seq 3: data lacks texts; data has unexpected member(s) "args"`,
			"LOG-5 warning: " + afterRow + "seq jumps from 3 to 6 (2 missing; trimmed fixture?)",
		}))
		// The row's type names it in a missing top member.
		Expect(findings(withRow(`{"type":"tool-call-chunks","seq0":3,"data":` + good + `}`))).To(Equal([]string{
			"LOG-4 violation: seq 3: tool-call-chunks row lacks time0",
		}))
	})

	It("requires turn, step and index to be non-negative integers", func() {
		Expect(findings(withRow(rowWith(`"turn":1,"step":1,"index":0`, `"turn":-1,"step":1.5,"index":"0"`)))).To(Equal([]string{
			"LOG-4 violation: seq 3: data.turn is not a non-negative integer; data.step is not a non-negative integer; data.index is not a non-negative integer",
		}))
		Expect(findings(withRow(rowWith(`"index":0`, `"index":2`)))).To(BeEmpty())
	})

	It("counts the members of texts, and one event when texts is empty or not an array", func() {
		jump := "LOG-5 warning: " + afterRow + "seq jumps from 3 to 6 (2 missing; trimmed fixture?)"
		for _, bad := range []string{`[]`, `"Looking…"`, `{"0":"Loo"}`} {
			Expect(findings(withRow(rowWith(`"dt":[1,0],"texts":["Loo","king","…"]`, `"dt":[],"texts":`+bad)))).To(Equal([]string{
				"LOG-4 violation: seq 3: data.texts is not a non-empty array of strings", jump,
			}), bad)
		}
		// Three members, one not a string: still three events, no jump.
		Expect(findings(withRow(rowWith(`"king"`, `7`)))).To(Equal([]string{
			"LOG-4 violation: seq 3: data.texts is not a non-empty array of strings",
		}))
		Expect(events(withRow(rowWith(`"king"`, `7`)))).To(Equal(16))
		// One member: an empty dt, seqs 3 only.
		Expect(findings(withRow(rowWith(`"dt":[1,0],"texts":["Loo","king","…"]`, `"dt":[],"texts":["Looking…"]`)))).To(Equal([]string{jump}))
	})

	It("requires dt to be an array of safe integers, one shorter than the members", func() {
		for _, bad := range []string{`[1,"0"]`, `[1,0.5]`, `{"0":1,"1":0}`, `"1,0"`, `[1,9007199254740992]`} {
			Expect(findings(withRow(rowWith(`"dt":[1,0]`, `"dt":`+bad)))).To(Equal([]string{
				"LOG-4 violation: seq 3: data.dt is not an array of safe integers",
			}), bad)
		}
		Expect(findings(withRow(rowWith(`"dt":[1,0]`, `"dt":[1,9007199254740991]`)))).To(Equal([]string{
			"LOG-4 violation: seq 3: member times leave the safe-integer range",
		}))
		Expect(findings(withRow(rowWith(`"dt":[1,0]`, `"dt":[1]`)))).To(Equal([]string{
			"LOG-4 violation: seq 3: len(dt) is 1, want 2 for 3 members",
		}))
		Expect(findings(withRow(rowWith(`"dt":[1,0]`, `"dt":[1,0,2]`)))).To(Equal([]string{
			"LOG-4 violation: seq 3: len(dt) is 3, want 2 for 3 members",
		}))
	})

	It("requires every member time to be a safe integer", func() {
		times := func(time0, dt string) []string {
			GinkgoHelper()
			return findings(withRow(rowWith(`"time0":1785591990000`, `"time0":`+time0, `"dt":[1,0]`, `"dt":`+dt)))
		}
		const leave = "LOG-4 violation: seq 3: member times leave the safe-integer range"
		// 2^53-2, +1 = 2^53-1 (the largest safe integer), +0.
		Expect(times(`9007199254740990`, `[1,0]`)).To(BeEmpty())
		Expect(times(`9007199254740990`, `[1,1]`)).To(Equal([]string{leave}))
		Expect(times(`9007199254740990`, `[2,0]`)).To(Equal([]string{leave}))
		// Reported once, though the later times are out too.
		Expect(times(`9007199254740990`, `[5,5]`)).To(Equal([]string{leave}))
		// Coming back into range after leaving it does not make it fine.
		Expect(times(`9007199254740990`, `[5,-10]`)).To(Equal([]string{leave}))
		Expect(times(`-9007199254740990`, `[-1,1]`)).To(BeEmpty())
		Expect(times(`-9007199254740990`, `[-1,-1]`)).To(Equal([]string{leave}))
		Expect(times(`-9007199254740990`, `[-2,0]`)).To(Equal([]string{leave}))
		// A bad time0 is its own finding; the members are not summed from it.
		Expect(times(`9007199254740992`, `[1,0]`)).To(Equal([]string{"LOG-4 violation: seq 3: time0 is not a safe integer"}))
	})

	It("requires every member seq to be a safe integer", func() {
		// A log of the header and one row: only the row's own seqs matter.
		row := func(seq0 string) []string {
			GinkgoHelper()
			return findings([]byte(baseHeader + "\n" + rowWith(`"seq0":3`, `"seq0":`+seq0) + "\n"))
		}
		first := func(seq0 string) string {
			return "LOG-5 warning: seq " + seq0 + ": the first event has seq " + seq0 + ", not 0 (trimmed fixture?)"
		}
		Expect(row(`0`)).To(BeEmpty())
		// Members 2^53-3, 2^53-2, 2^53-1.
		Expect(row(`9007199254740989`)).To(Equal([]string{first(`9007199254740989`)}))
		Expect(row(`9007199254740990`)).To(Equal([]string{
			"LOG-4 violation: seq 9007199254740990: member seqs leave the safe-integer range", first(`9007199254740990`),
		}))
	})
})

var _ = Describe("check-log's event envelope (LOG-3, issue 22)", func() {
	It("names an event with a bad seq by its line, and loses the sequence there", func() {
		for _, bad := range []string{`-14`, `1.5`, `"14"`, `9007199254740992`, `null`} {
			log := edited("valid-base", `{"type":"step/end","seq":14,`, `{"type":"step/end","seq":`+bad+`,`)
			// turn/end's seq 15 is not a jump: the seq before it is unknown.
			Expect(findings(log)).To(Equal([]string{
				"LOG-3 violation: line 14: event envelope: seq " + bad + " is not a non-negative safe integer",
			}), bad)
			Expect(events(log)).To(Equal(15), bad)
		}
	})

	It("reads sourceEventSeqs in any spelling of an array of non-negative safe integers", func() {
		for _, good := range []string{`[6.0]`, `[ 6 ]`, `[6e0]`, `[60e-1]`} {
			log := edited("valid-base", `"sourceEventSeqs":[6]}`, `"sourceEventSeqs":`+good+`}`)
			Expect(findings(log)).To(BeEmpty(), good)
		}
		for _, bad := range []string{`[-6]`, `[6.5]`, `["6"]`, `6`, `[9007199254740992]`} {
			log := edited("valid-base", `"sourceEventSeqs":[6]}`, `"sourceEventSeqs":`+bad+`}`)
			Expect(findings(log)).To(Equal([]string{
				"LOG-3 violation: seq 7: event envelope: sourceEventSeqs is not an array of non-negative safe integers",
			}), bad)
		}
	})

	It("checks a replace surfaceOp's op, start and end", func() {
		op := func(v string) []string {
			GinkgoHelper()
			return findings(edited("valid-base", `"id":"u1"},"surfaceOp":"append"}`, `"id":"u1"},"surfaceOp":`+v+`}`))
		}
		Expect(op(`{"op":"replace","start":2,"end":2}`)).To(BeEmpty())
		Expect(op(`{"op":"rewrite","start":2,"end":2}`)).To(Equal([]string{
			`LOG-3 violation: seq 2: event envelope: surfaceOp.op is not "replace"`,
		}))
		Expect(op(`{"op":"replace","start":-2,"end":2.5}`)).To(Equal([]string{
			"LOG-3 violation: seq 2: event envelope: surfaceOp.start is not a non-negative safe integer; surfaceOp.end is not a non-negative safe integer",
		}))
		Expect(op(`{"op":"replace","start":2,"end":"2"}`)).To(Equal([]string{
			"LOG-3 violation: seq 2: event envelope: surfaceOp.end is not a non-negative safe integer",
		}))
		Expect(op(`"prepend"`)).To(Equal([]string{
			`LOG-3 violation: seq 2: event envelope: surfaceOp is "prepend", not "append" or a replace object`,
		}))
	})
})

var _ = Describe("check-log's pruned replacement with a malformed range (LOG-3, LOG-RES-3, issue 22)", func() {
	// valid-pruned-replacement's second result for call_grep.
	const op = `"surfaceOp":{"op":"replace","start":7,"end":7},"sourceEventSeqs":[7]}`
	replace := func(v string) []string {
		GinkgoHelper()
		return findings(edited("valid-pruned-replacement", op, `"surfaceOp":`+v+`,"sourceEventSeqs":[7]}`))
	}

	It("is checked against the original result only when start and end are both readable", func() {
		Expect(replace(`{"op":"replace","start":7,"end":7}`)).To(BeEmpty())
		// LOG-RES-3 compares the range; a range it cannot read is LOG-3's alone.
		Expect(replace(`{"op":"replace","start":7}`)).To(Equal([]string{
			"LOG-3 violation: seq 16: event envelope: surfaceOp lacks end",
		}))
		Expect(replace(`{"op":"replace","end":7}`)).To(Equal([]string{
			"LOG-3 violation: seq 16: event envelope: surfaceOp lacks start",
		}))
		Expect(replace(`{"op":"replace","start":7,"end":-7}`)).To(Equal([]string{
			"LOG-3 violation: seq 16: event envelope: surfaceOp.end is not a non-negative safe integer",
		}))
		Expect(replace(`{"op":"replace","start":"7","end":7}`)).To(Equal([]string{
			"LOG-3 violation: seq 16: event envelope: surfaceOp.start is not a non-negative safe integer",
		}))
		// A readable range is compared: one that is not one event is LOG-RES-3's.
		Expect(replace(`{"op":"replace","start":7,"end":8}`)).To(Equal([]string{
			"LOG-RES-3 violation: seq 16 (call_grep): pruned replacement: replace range 7..8 is not one event",
		}))
	})
})

// spec/schemas/log-event.json and log-packed-chunks.json give seqs, turns
// and ranges as JSON integers with minimum 0, which -0 is (JSON Schema
// cannot tell it from 0); only the header's createdAt and delegationDepth
// refuse it (log-header.json).
var _ = Describe("check-log's -0 outside the header (issue 22)", func() {
	It("reads a -0 seq, seq0, turn, source seq or replace start as 0", func() {
		Expect(findings(edited("valid-base", `{"type":"turn/start","seq":0,`, `{"type":"turn/start","seq":-0,`))).To(BeEmpty())
		Expect(findings([]byte(baseHeader + "\n" + rowWith(`"seq0":3`, `"seq0":-0`) + "\n"))).To(BeEmpty())
		Expect(findings(withRow(rowWith(`"turn":1,"step":1,"index":0`, `"turn":1,"step":1,"index":-0`)))).To(BeEmpty())
		Expect(findings(edited("valid-base", `"id":"u1"},"surfaceOp":"append"}`, `"id":"u1"},"surfaceOp":"append","sourceEventSeqs":[-0]}`))).To(BeEmpty())
		Expect(findings(edited("valid-base", `"id":"u1"},"surfaceOp":"append"}`, `"id":"u1"},"surfaceOp":{"op":"replace","start":-0,"end":-0}}`))).To(BeEmpty())
	})
})

var _ = Describe("check-log's envelope members (LOG-3, issue 22)", func() {
	const stepEnd = `{"type":"step/end","seq":14,"time":1785591990012,"data":{"turn":1,"step":1}}`
	env := func(line string) []string {
		GinkgoHelper()
		return findings(edited("valid-base", stepEnd, line))
	}

	It("requires type to be a non-empty string", func() {
		for _, bad := range []string{`""`, `5`, `null`, `["step/end"]`} {
			Expect(env(`{"type":`+bad+`,"seq":14,"time":1785591990012,"data":{"turn":1,"step":1}}`)).To(Equal([]string{
				"LOG-3 violation: seq 14: event envelope: type is missing or not a non-empty string",
			}), bad)
		}
		Expect(env(`{"seq":14,"time":1785591990012,"data":{"turn":1,"step":1}}`)).To(Equal([]string{
			"LOG-3 violation: seq 14: event envelope: type is missing or not a non-empty string",
		}))
	})

	It("requires time and data", func() {
		Expect(env(`{"type":"step/end","seq":14,"data":{"turn":1,"step":1}}`)).To(Equal([]string{
			"LOG-3 violation: seq 14: event envelope: time is missing",
		}))
		Expect(env(`{"type":"step/end","seq":14,"time":1785591990012}`)).To(Equal([]string{
			"LOG-3 violation: seq 14: event envelope: data is missing",
		}))
		Expect(env(`{"type":"step/end","seq":14,"time":-1785591990012,"data":{}}`)).To(BeEmpty())
		Expect(env(`{"type":"step/end","seq":14,"time":1785591990012,"data":"x"}`)).To(Equal([]string{
			"LOG-3 violation: seq 14: event envelope: data is a JSON string, not an object",
		}))
	})

	It("allows sourceEventSeqs only on messages and results", func() {
		Expect(env(`{"type":"step/end","seq":14,"time":1785591990012,"data":{"turn":1,"step":1},"sourceEventSeqs":[13]}`)).To(Equal([]string{
			`LOG-3 violation: seq 14: event envelope: sourceEventSeqs on a "step/end" event (only user/message, assistant/message and tool/result may carry it)`,
		}))
		Expect(env(`{"type":"step/end","seq":14,"time":1785591990012,"data":{"turn":1,"step":1},"surfaceOp":"append"}`)).To(Equal([]string{
			`LOG-3 violation: seq 14: event envelope: surfaceOp on a "step/end" event (only user/message, assistant/message and tool/result may carry it)`,
		}))
	})

	It("accepts ignorable true and names any other value", func() {
		Expect(env(`{"type":"step/end","seq":14,"time":1785591990012,"data":{"turn":1,"step":1},"ignorable":true}`)).To(BeEmpty())
		Expect(env(`{"type":"step/end","seq":14,"time":1785591990012,"data":{"turn":1,"step":1},"ignorable":1}`)).To(Equal([]string{
			"LOG-3 violation: seq 14: event envelope: ignorable is 1, not true",
		}))
	})

	It("counts unknown types, and warns only for one without ignorable", func() {
		unknown := func(tail string) string {
			return `{"type":"future/thing","seq":14,"time":1785591990012,"data":{"x":1}` + tail + "}"
		}
		log := edited("valid-base", stepEnd, unknown(""))
		Expect(findings(log)).To(Equal([]string{
			`LOG-6 warning: seq 14: unknown event type "future/thing" without ignorable:true (a reader of this vocabulary would refuse the log)`,
		}))
		log = edited("valid-base", stepEnd, unknown(`,"ignorable":true`)+"\n"+stepEnd)
		Expect(findings(log)).To(ContainElement(HavePrefix("LOG-CHECK-1 ")))
		Expect(findings(log)).NotTo(ContainElement(HavePrefix("LOG-6 ")))
		r := checkBytes(edited("valid-base", stepEnd, unknown(`,"ignorable":true`)+"\n"+strings.Replace(unknown(""), `"seq":14`, `"seq":15`, 1),
			`{"type":"turn/end","seq":15,`, `{"type":"turn/end","seq":16,`), logcheck.Defaults())
		Expect(r.err).NotTo(HaveOccurred())
		Expect(r.stats.UnknownTypes).To(Equal(map[string]int{"future/thing": 2}))
		Expect(r.stats.Events).To(Equal(17))
	})
})

var _ = Describe("check-log's packed rows, more members (LOG-4, issue 22)", func() {
	It("does not sum member times from a missing time0", func() {
		Expect(findings(withRow(rowWith(`"time0":1785591990000,`, ``, `"dt":[1,0]`, `"dt":[9007199254740991,1]`)))).To(Equal([]string{
			"LOG-4 violation: seq 3: text-chunks row lacks time0",
		}))
	})
})

var _ = Describe("check-log's sequence (LOG-5, LOG-CHECK-1, issue 22)", func() {
	It("does not warn about the first seq after an event whose seq is unknown", func() {
		Expect(findings(edited("valid-base", `{"type":"turn/start","seq":0,`, `{"type":"turn/start",`))).To(Equal([]string{
			"LOG-3 violation: line 2: event envelope: seq is missing",
		}))
		Expect(findings(edited("valid-base", `{"type":"turn/start","seq":0,`, `{"type":"turn/start","seq":1,`,
			`{"type":"step/start","seq":1,`, `{"type":"step/start","seq":2,`))).To(Equal([]string{
			"LOG-5 warning: seq 1: the first event has seq 1, not 0 (trimmed fixture?)",
			"LOG-CHECK-1 violation: seq 2: seq 2 does not increase (previous seq 2 on line 3)",
		}))
	})

	It("names a repeated seq and the line that had it", func() {
		Expect(findings(edited("valid-base", `{"type":"step/end","seq":14,`, `{"type":"step/end","seq":13,`))).To(Equal([]string{
			"LOG-CHECK-1 violation: seq 13: seq 13 does not increase (previous seq 13 on line 13)",
			// The repeat is the previous seq now: turn/end's 15 skips 14.
			"LOG-5 warning: seq 15: seq jumps from 13 to 15 (1 missing; trimmed fixture?)",
		}))
		// After a row: its last member's seq is the previous one.
		Expect(findings(edited("valid-base", `{"type":"tool/call","seq":6,`, `{"type":"tool/call","seq":5,`,
			`"sourceEventSeqs":[6]}`, `"sourceEventSeqs":[5]}`))).To(Equal([]string{
			"LOG-CHECK-1 violation: seq 5: seq 5 does not increase (previous seq 5 on line 5)",
			"LOG-5 warning: seq 7: seq jumps from 5 to 7 (1 missing; trimmed fixture?)",
		}))
	})
})

var _ = Describe("check-log's calls open at EOF (issue 22)", func() {
	// Each run_code call files a sub-call numbered 2 with no 1 and never
	// ends: the end-of-log check reports each call's dispatches, by call seq.
	It("reports the open calls in seq order", func() {
		var b strings.Builder
		b.WriteString(baseHeader + "\n")
		b.WriteString(`{"type":"turn/start","seq":0,"time":1785591990000,"data":{"turn":1}}` + "\n")
		b.WriteString(`{"type":"step/start","seq":1,"time":1785591990001,"data":{"turn":1,"step":1}}` + "\n")
		ids := []string{"call_d", "call_a", "call_c", "call_b"}
		for i, id := range ids {
			seq := 2 + 2*i
			b.WriteString(`{"type":"tool/call","seq":` + itoa(seq) + `,"time":1785591990002,"data":{"turn":1,"step":1,"callId":"` + id + `","name":"run_code","arguments":"{\"code\": \"return 1;\", \"description\": \"Run\"}"}}` + "\n")
			b.WriteString(`{"type":"tool/code-dispatch-start","seq":` + itoa(seq+1) + `,"time":1785591990003,"data":{"rootCallId":"` + id + `","parentCallId":"` + id + `","subCallId":"` + id + `:code:2","name":"grep","arguments":{"pattern":"x"}}}` + "\n")
		}
		got := findings([]byte(b.String()))
		Expect(got).To(HaveLen(len(ids)), "%q", got)
		for i, id := range ids {
			Expect(got[i]).To(HavePrefix("LOG-CHECK-CODE-6 violation: seq "+itoa(3+2*i)+" ("+id+"): "), "%q", got)
		}
	})
})

func itoa(n int) string { return strconv.Itoa(n) }

var _ = Describe("check-log's envelope reading, every place (issue 22)", func() {
	// envelope.read takes type, seq, time and data by position only when
	// all four are in the harness's order; an unknown member in any of
	// those places is still an unexpected member (LOG-3), and LOG-7 lets
	// the known ones come in any order.
	const stepEnd = `{"type":"step/end","seq":14,"time":1785591990012,"data":{"turn":1,"step":1}}`
	It("rejects an unknown member in each of the first four places", func() {
		for _, line := range []string{
			`{"when":1,"seq":14,"time":1785591990012,"data":{"turn":1,"step":1},"type":"step/end"}`,
			`{"type":"step/end","when":1,"time":1785591990012,"data":{"turn":1,"step":1},"seq":14}`,
			`{"type":"step/end","seq":14,"time":1785591990012,"when":1,"data":{"turn":1,"step":1}}`,
		} {
			Expect(findings(edited("valid-base", stepEnd, line))).To(Equal([]string{
				`LOG-3 violation: seq 14: event envelope: unexpected envelope member(s) "when"`,
			}), line)
		}
		Expect(findings(edited("valid-base", stepEnd, `{"data":{"turn":1,"step":1},"time":1785591990012,"seq":14,"type":"step/end"}`))).To(BeEmpty())
	})
})

var _ = Describe("check-log's packed rows of one member (LOG-4, issue 22)", func() {
	It("wants an empty dt for one member", func() {
		one := func(dt string) []string {
			GinkgoHelper()
			return findings(withRow(rowWith(`"dt":[1,0],"texts":["Loo","king","…"]`, `"dt":`+dt+`,"texts":["Looking…"]`)))
		}
		jump := "LOG-5 warning: " + afterRow + "seq jumps from 3 to 6 (2 missing; trimmed fixture?)"
		Expect(one(`[]`)).To(Equal([]string{jump}))
		Expect(one(`[1]`)).To(Equal([]string{"LOG-4 violation: seq 3: len(dt) is 1, want 0 for 1 members", jump}))
	})
})

var _ = Describe("check-log's pruned replacement with a -0 range (LOG-RES-3, issue 22)", func() {
	// LOG-3 accepts -0 as a replace range's start or end (it is a JSON
	// integer >= 0), so LOG-RES-3 must compare it as 0, not skip the
	// replacement as if LOG-3 had reported its range.
	const op = `"surfaceOp":{"op":"replace","start":7,"end":7},"sourceEventSeqs":[7]}`
	replace := func(v string) []string {
		GinkgoHelper()
		return findings(edited("valid-pruned-replacement", op, v))
	}

	It("compares a -0 start or end as 0", func() {
		Expect(replace(`"surfaceOp":{"op":"replace","start":-0,"end":-0},"sourceEventSeqs":[-0]}`)).To(Equal([]string{
			"LOG-RES-3 violation: seq 16 (call_grep): pruned replacement: it replaces seq 0 but the call's result is seq 7",
		}))
		Expect(replace(`"surfaceOp":{"op":"replace","start":7,"end":-0},"sourceEventSeqs":[7]}`)).To(Equal([]string{
			"LOG-RES-3 violation: seq 16 (call_grep): pruned replacement: replace range 7..0 is not one event",
		}))
	})
})
