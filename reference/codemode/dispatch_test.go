package codemode_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/reference/codemode"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// start and settle build dispatch events of the outer call "C".
func start(seq int64, n int, name, args string) codemode.DispatchEvent {
	return codemode.DispatchEvent{Seq: seq, Start: &codemode.DispatchStart{
		RootCallID: "C", ParentCallID: "C", SubCallID: codemode.SubCallID("C", n), Name: name, Arguments: parse(args),
	}}
}

func settle(seq int64, n int, name, args, content string) codemode.DispatchEvent {
	return codemode.DispatchEvent{Seq: seq, Settle: &codemode.DispatchSettle{
		RootCallID: "C", ParentCallID: "C", SubCallID: codemode.SubCallID("C", n), Name: name, Arguments: parse(args),
		Content: parse(content),
	}}
}

const (
	argsOne    = `{"command":"echo CODE_ONE","description":"Print CODE_ONE"}`
	argsTwo    = `{"command":"echo CODE_TWO","description":"Print CODE_TWO"}`
	contentOne = `[{"type":"text","text":"CODE_ONE\n"}]`
	contentTwo = `[{"type":"text","text":"CODE_TWO\n"}]`
)

// codeModeTurn is the dispatch part of the code-mode-turn snapshot
// (code-mode.md §7); the tool/call is seq 1 and the tool/result seq 6.
func codeModeTurn() []codemode.DispatchEvent {
	return []codemode.DispatchEvent{
		start(2, 1, "bash", argsOne),
		settle(3, 1, "bash", argsOne, contentOne),
		start(4, 2, "bash", argsTwo),
		settle(5, 2, "bash", argsTwo, contentTwo),
	}
}

// requirements lists the requirement IDs of violations.
func requirements(vs []codemode.Violation) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.Requirement
	}
	return out
}

var _ = Describe("sub-call ids (CODE-DISPATCH-1)", func() {
	It("numbers sub-calls from 1 under the outer call id", func() {
		Expect(codemode.SubCallID("C", 1)).To(Equal("C:code:1"))
		Expect(codemode.SubCallID("call_9", 12)).To(Equal("call_9:code:12"))
	})

	DescribeTable("ParseSubCallID",
		func(parent, sub string, n int, ok bool) {
			gotN, gotOK := codemode.ParseSubCallID(parent, sub)
			Expect(gotOK).To(Equal(ok))
			Expect(gotN).To(Equal(n))
		},
		Entry(nil, "C", "C:code:1", 1, true),
		Entry(nil, "C", "C:code:10", 10, true),
		Entry(nil, "C", "C:code:0", 0, false),
		Entry(nil, "C", "C:code:01", 0, false),
		Entry(nil, "C", "C:code:", 0, false),
		Entry(nil, "C", "C:code:1x", 0, false),
		Entry(nil, "C", "C:code:-1", 0, false),
		Entry(nil, "C", "D:code:1", 0, false),
		Entry(nil, "C", "CC:code:1", 0, false),
		Entry(nil, "C", "C:code:1:code:1", 0, false),
		Entry("the parent is literal, not a pattern", "a.b", "axb:code:1", 0, false),
		Entry("nested parent", "C:code:1", "C:code:1:code:2", 2, true),
		Entry("too large for an int", "C", "C:code:99999999999999999999", 0, false),
	)
})

var _ = Describe("ValidateDispatches", func() {
	It("accepts the code-mode-turn example (code-mode.md §7)", func() {
		Expect(codemode.ValidateDispatches("C", codeModeTurn(), false)).To(BeEmpty())
	})

	It("accepts no events at all", func() {
		Expect(codemode.ValidateDispatches("C", nil, false)).To(BeEmpty())
	})

	It("accepts settles in any order after their starts (CODE-DISPATCH-4)", func() {
		events := []codemode.DispatchEvent{
			start(2, 1, "bash", argsOne),
			start(3, 2, "bash", argsTwo),
			settle(4, 2, "bash", argsTwo, contentTwo),
			start(5, 3, "grep", `{"pattern":"x"}`),
			settle(6, 1, "bash", argsOne, contentOne),
			settle(7, 3, "grep", `{"pattern":"x"}`, `[]`),
		}
		Expect(codemode.ValidateDispatches("C", events, false)).To(BeEmpty())
	})

	It("compares arguments by JSON value, not member order", func() {
		events := []codemode.DispatchEvent{
			start(2, 1, "bash", `{"a":1,"b":2}`),
			settle(3, 1, "bash", `{"b":2,"a":1.0}`, `[]`),
		}
		Expect(codemode.ValidateDispatches("C", events, false)).To(BeEmpty())
	})

	It("accepts legacy settles without any start (LOG-DISP-2)", func() {
		events := []codemode.DispatchEvent{
			settle(3, 2, "bash", argsTwo, contentTwo),
			settle(4, 1, "bash", argsOne, contentOne),
		}
		Expect(codemode.ValidateDispatches("C", events, false)).To(BeEmpty())
	})

	It("accepts a nested outer call whose root is its prefix (LOG-CHECK-CODE-4)", func() {
		outer := "C:code:1"
		events := []codemode.DispatchEvent{
			{Seq: 2, Start: &codemode.DispatchStart{RootCallID: "C", ParentCallID: outer, SubCallID: outer + ":code:1", Name: "bash", Arguments: parse(argsOne)}},
			{Seq: 3, Settle: &codemode.DispatchSettle{RootCallID: "C", ParentCallID: outer, SubCallID: outer + ":code:1", Name: "bash", Arguments: parse(argsOne), Content: parse(`[]`)}},
		}
		Expect(codemode.ValidateDispatches(outer, events, false)).To(BeEmpty())
	})

	It("reports a missing settle unless a crash closer excuses it (CODE-DISPATCH-3, LOG-CHECK-CODE-6)", func() {
		events := codeModeTurn()[:3]
		vs := codemode.ValidateDispatches("C", events, false)
		Expect(vs).To(Equal([]codemode.Violation{{Requirement: "CODE-DISPATCH-3", Seq: 4, Message: `start for subCallId "C:code:2" never settles`}}))
		Expect(codemode.ValidateDispatches("C", events, true)).To(BeEmpty())
	})

	Describe("rejects each single mutation of the example", func() {
		type mutation struct {
			mutate func([]codemode.DispatchEvent) []codemode.DispatchEvent
			want   []codemode.Violation
		}
		DescribeTable("mutations",
			func(m mutation) {
				Expect(codemode.ValidateDispatches("C", m.mutate(codeModeTurn()), false)).To(Equal(m.want))
			},
			Entry("a gap in the numbering", mutation{
				mutate: func(ev []codemode.DispatchEvent) []codemode.DispatchEvent {
					return []codemode.DispatchEvent{ev[0], ev[1], start(4, 3, "bash", argsTwo), settle(5, 3, "bash", argsTwo, contentTwo)}
				},
				want: []codemode.Violation{{Requirement: "CODE-DISPATCH-4", Seq: 4,
					Message: "start of sub-call 3 where 2 was expected (starts are numbered 1, 2, 3, … in log order without gaps)"}},
			}),
			Entry("a numbering that starts at 2", mutation{
				mutate: func(ev []codemode.DispatchEvent) []codemode.DispatchEvent {
					return []codemode.DispatchEvent{ev[2], ev[3]}
				},
				want: []codemode.Violation{{Requirement: "CODE-DISPATCH-4", Seq: 4,
					Message: "start of sub-call 2 where 1 was expected (starts are numbered 1, 2, 3, … in log order without gaps)"}},
			}),
			Entry("a duplicate start", mutation{
				mutate: func(ev []codemode.DispatchEvent) []codemode.DispatchEvent {
					dup := start(6, 2, "bash", argsTwo)
					return append(ev, dup)
				},
				want: []codemode.Violation{{Requirement: "LOG-CHECK-CODE-6", Seq: 6, Message: `second start for subCallId "C:code:2" (first at seq 4)`}},
			}),
			Entry("a duplicate settle", mutation{
				mutate: func(ev []codemode.DispatchEvent) []codemode.DispatchEvent {
					return append(ev, settle(6, 1, "bash", argsOne, contentOne))
				},
				want: []codemode.Violation{{Requirement: "LOG-CHECK-CODE-6", Seq: 6, Message: `second settle for subCallId "C:code:1" (first at seq 3)`}},
			}),
			Entry("a settle before its start", mutation{
				mutate: func(ev []codemode.DispatchEvent) []codemode.DispatchEvent {
					return []codemode.DispatchEvent{ev[0], ev[1], settle(3, 2, "bash", argsTwo, contentTwo), start(4, 2, "bash", argsTwo)}
				},
				want: []codemode.Violation{{Requirement: "CODE-DISPATCH-4", Seq: 3, Message: `settle for subCallId "C:code:2" precedes its start at seq 4`}},
			}),
			Entry("a settle with different arguments", mutation{
				mutate: func(ev []codemode.DispatchEvent) []codemode.DispatchEvent {
					ev[3] = settle(5, 2, "bash", `{"command":"echo CODE_3","description":"Print CODE_TWO"}`, contentTwo)
					return ev
				},
				want: []codemode.Violation{{Requirement: "CODE-DISPATCH-3", Seq: 5, Message: `settle arguments differ from its start's at $.command`}},
			}),
			Entry("a settle with a different name", mutation{
				mutate: func(ev []codemode.DispatchEvent) []codemode.DispatchEvent {
					ev[1].Settle.Name = "sh"
					return ev
				},
				want: []codemode.Violation{{Requirement: "CODE-DISPATCH-3", Seq: 3, Message: `settle name "sh" differs from its start's name "bash"`}},
			}),
			Entry("a wrong parent prefix in the subCallId", mutation{
				mutate: func(ev []codemode.DispatchEvent) []codemode.DispatchEvent {
					ev[0].Start.SubCallID = "D:code:1"
					ev[1].Settle.SubCallID = "D:code:1"
					return ev
				},
				want: []codemode.Violation{
					{Requirement: "CODE-DISPATCH-1", Seq: 2, Message: `subCallId "D:code:1" is not "C:code:" followed by a number >= 1 without leading zeros`},
					{Requirement: "CODE-DISPATCH-1", Seq: 3, Message: `subCallId "D:code:1" is not "C:code:" followed by a number >= 1 without leading zeros`},
				},
			}),
			Entry(":code:0", mutation{
				mutate: func(ev []codemode.DispatchEvent) []codemode.DispatchEvent {
					ev[0].Start.SubCallID = "C:code:0"
					ev[1].Settle.SubCallID = "C:code:0"
					return ev
				},
				want: []codemode.Violation{
					{Requirement: "CODE-DISPATCH-1", Seq: 2, Message: `subCallId "C:code:0" is not "C:code:" followed by a number >= 1 without leading zeros`},
					{Requirement: "CODE-DISPATCH-1", Seq: 3, Message: `subCallId "C:code:0" is not "C:code:" followed by a number >= 1 without leading zeros`},
				},
			}),
			Entry(":code:01", mutation{
				mutate: func(ev []codemode.DispatchEvent) []codemode.DispatchEvent {
					ev[0].Start.SubCallID = "C:code:01"
					return ev
				},
				want: []codemode.Violation{
					{Requirement: "CODE-DISPATCH-1", Seq: 2, Message: `subCallId "C:code:01" is not "C:code:" followed by a number >= 1 without leading zeros`},
					{Requirement: "CODE-DISPATCH-3", Seq: 2, Message: `start for subCallId "C:code:01" never settles`},
					{Requirement: "CODE-DISPATCH-2", Seq: 3, Message: `settle for subCallId "C:code:1" has no start, though this call logs starts (only legacy logs omit them)`},
				},
			}),
			Entry("a parentCallId that is not the outer call", mutation{
				mutate: func(ev []codemode.DispatchEvent) []codemode.DispatchEvent {
					ev[3].Settle.ParentCallID = "D"
					return ev
				},
				want: []codemode.Violation{{Requirement: "LOG-CHECK-CODE-4", Seq: 5, Message: `parentCallId "D" is not the run_code call "C"`}},
			}),
			Entry("a foreign rootCallId", mutation{
				mutate: func(ev []codemode.DispatchEvent) []codemode.DispatchEvent {
					ev[2].Start.RootCallID = "R"
					return ev
				},
				want: []codemode.Violation{{Requirement: "LOG-CHECK-CODE-4", Seq: 4, Message: `rootCallId "R" is neither the run_code call "C" nor the root of its nested call id`}},
			}),
			Entry("empty ids", mutation{
				mutate: func(ev []codemode.DispatchEvent) []codemode.DispatchEvent {
					ev[1].Settle.RootCallID = ""
					ev[1].Settle.ParentCallID = ""
					return ev
				},
				want: []codemode.Violation{
					{Requirement: "LOG-CHECK-CODE-4", Seq: 3, Message: "rootCallId is empty"},
					{Requirement: "LOG-CHECK-CODE-4", Seq: 3, Message: "parentCallId is empty"},
				},
			}),
			Entry("a lost start in a call that logs starts", mutation{
				mutate: func(ev []codemode.DispatchEvent) []codemode.DispatchEvent {
					return slices.Delete(ev, 2, 3)
				},
				want: []codemode.Violation{{Requirement: "CODE-DISPATCH-2", Seq: 5,
					Message: `settle for subCallId "C:code:2" has no start, though this call logs starts (only legacy logs omit them)`}},
			}),
			Entry("content that is not an array", mutation{
				mutate: func(ev []codemode.DispatchEvent) []codemode.DispatchEvent {
					ev[1].Settle.Content = jsonjs.StringValue("CODE_ONE\n")
					return ev
				},
				want: []codemode.Violation{{Requirement: "LOG-CHECK-CODE-4", Seq: 3, Message: "settle content is string, not an array of content blocks"}},
			}),
			Entry("an event that is neither start nor settle", mutation{
				mutate: func(ev []codemode.DispatchEvent) []codemode.DispatchEvent {
					return append(ev, codemode.DispatchEvent{Seq: 9})
				},
				want: []codemode.Violation{{Requirement: "LOG-CHECK-CODE-4", Seq: 9, Message: "dispatch event must be exactly one of a start or a settle"}},
			}),
		)
	})

	It("renders violations on one line", func() {
		v := codemode.Violation{Requirement: "CODE-DISPATCH-4", Seq: 7, Message: "m"}
		Expect(v.String()).To(Equal("CODE-DISPATCH-4 at seq 7: m"))
	})

	It("quotes ids so that messages stay on one line", func() {
		events := codeModeTurn()
		events[0].Start.SubCallID = "C:code:1\nX"
		for _, v := range codemode.ValidateDispatches("C", events, false) {
			Expect(v.Message).NotTo(ContainSubstring("\n"))
		}
	})

	It("accepts every well-formed sequence and rejects every single mutation (property)", func() {
		// A seeded generator keeps the run reproducible; a failure names its seed.
		for seed := range uint64(3000) {
			r := &draw{rand.New(rand.NewPCG(seed, 0x5eed))}
			events := wellFormed(r)
			Expect(codemode.ValidateDispatches("C", events, false)).To(BeEmpty(), "seed %d: well-formed sequence rejected", seed)
			mutated, what := mutate(r, events)
			if mutated == nil {
				continue
			}
			vs := codemode.ValidateDispatches("C", mutated, false)
			Expect(vs).NotTo(BeEmpty(), "seed %d: mutation %q accepted", seed, what)
			for _, v := range vs {
				Expect(v.Message).NotTo(ContainSubstring("\n"), "seed %d", seed)
				Expect(v.Requirement).NotTo(BeEmpty(), "seed %d", seed)
			}
		}
	})
})

// draw is the random source of the property test.
type draw struct{ r *rand.Rand }

func (d *draw) intRange(lo, hi int) int { return lo + d.r.IntN(hi-lo+1) }
func (d *draw) bool() bool              { return d.r.IntN(2) == 0 }

// wellFormed draws a valid event sequence of outer call "C": m starts in
// order, each settled later, settles interleaved arbitrarily.
func wellFormed(t *draw) []codemode.DispatchEvent {
	m := t.intRange(0, 6)
	names := []string{"bash", "grep", "read"}
	var events []codemode.DispatchEvent
	var pending []int
	started := 0
	args := map[int]string{}
	name := map[int]string{}
	for started < m || len(pending) > 0 {
		seq := int64(len(events) + 2)
		if started < m && (len(pending) == 0 || t.bool()) {
			started++
			args[started] = fmt.Sprintf(`{"n":%d,"v":%d}`, started, t.intRange(0, 3))
			name[started] = names[t.intRange(0, len(names)-1)]
			events = append(events, start(seq, started, name[started], args[started]))
			pending = append(pending, started)
			continue
		}
		i := t.intRange(0, len(pending)-1)
		n := pending[i]
		pending = slices.Delete(pending, i, i+1)
		events = append(events, settle(seq, n, name[n], args[n], `[{"type":"text","text":"ok"}]`))
	}
	return events
}

// clone deep-copies events so that a mutation never touches the original.
func clone(events []codemode.DispatchEvent) []codemode.DispatchEvent {
	out := make([]codemode.DispatchEvent, len(events))
	for i, ev := range events {
		out[i] = ev
		if ev.Start != nil {
			s := *ev.Start
			out[i].Start = &s
		}
		if ev.Settle != nil {
			s := *ev.Settle
			out[i].Settle = &s
		}
	}
	return out
}

// indexes returns the positions of starts and settles.
func indexes(events []codemode.DispatchEvent) (starts, settles []int) {
	for i, ev := range events {
		if ev.Start != nil {
			starts = append(starts, i)
		} else {
			settles = append(settles, i)
		}
	}
	return starts, settles
}

// mutate applies one drawn single mutation, or returns nil when the
// sequence is too short for the drawn kind.
func mutate(t *draw, events []codemode.DispatchEvent) ([]codemode.DispatchEvent, string) {
	ev := clone(events)
	starts, settles := indexes(ev)
	kinds := []string{
		"drop start", "drop settle", "duplicate start", "duplicate settle", "settle before start",
		"settle name", "settle arguments", "start arguments", "parent", "root", "sub number",
		"sub zero", "sub leading zero", "sub empty", "swap starts",
	}
	kind := kinds[t.intRange(0, len(kinds)-1)]
	pick := func(list []int) int { return list[t.intRange(0, len(list)-1)] }
	anyEvent := func() int { return t.intRange(0, len(ev)-1) }
	setSub := func(i int, sub string) {
		if ev[i].Start != nil {
			ev[i].Start.SubCallID = sub
		} else {
			ev[i].Settle.SubCallID = sub
		}
	}
	switch {
	case len(ev) == 0:
		return nil, kind
	case kind == "drop start" && len(starts) >= 2: // dropping the only start leaves a legal legacy log
		i := pick(starts)
		return slices.Delete(ev, i, i+1), kind
	case kind == "drop settle":
		i := pick(settles)
		return slices.Delete(ev, i, i+1), kind
	case kind == "duplicate start" || kind == "duplicate settle":
		src := pick(starts)
		if kind == "duplicate settle" {
			src = pick(settles)
		}
		dup := clone(ev[src : src+1])[0]
		at := t.intRange(0, len(ev))
		return slices.Insert(ev, at, dup), kind
	case kind == "settle before start":
		i := pick(settles)
		s := ev[i]
		ev = slices.Delete(ev, i, i+1)
		for j := range ev {
			if ev[j].Start != nil && ev[j].Start.SubCallID == s.Settle.SubCallID {
				return slices.Insert(ev, t.intRange(0, j), s), kind
			}
		}
	case kind == "settle name":
		ev[pick(settles)].Settle.Name += "x"
		return ev, kind
	case kind == "settle arguments":
		i := pick(settles)
		ev[i].Settle.Arguments = parse(`{"other":true}`)
		return ev, kind
	case kind == "start arguments":
		i := pick(starts)
		ev[i].Start.Arguments = parse(`[1]`)
		return ev, kind
	case kind == "parent":
		i := anyEvent()
		if ev[i].Start != nil {
			ev[i].Start.ParentCallID = "D"
		} else {
			ev[i].Settle.ParentCallID = "D"
		}
		return ev, kind
	case kind == "root":
		i := anyEvent()
		if ev[i].Start != nil {
			ev[i].Start.RootCallID = "R"
		} else {
			ev[i].Settle.RootCallID = "R"
		}
		return ev, kind
	case kind == "sub number":
		setSub(anyEvent(), codemode.SubCallID("C", 100))
		return ev, kind
	case kind == "sub zero":
		setSub(anyEvent(), "C:code:0")
		return ev, kind
	case kind == "sub leading zero":
		i := anyEvent()
		sub := ev[i].Start
		if sub == nil {
			setSub(i, strings.Replace(ev[i].Settle.SubCallID, ":code:", ":code:0", 1))
		} else {
			setSub(i, strings.Replace(sub.SubCallID, ":code:", ":code:0", 1))
		}
		return ev, kind
	case kind == "sub empty":
		setSub(anyEvent(), "")
		return ev, kind
	case kind == "swap starts" && len(starts) >= 2:
		k := t.intRange(0, len(starts)-2)
		a, b := starts[k], starts[k+1]
		ev[a], ev[b] = ev[b], ev[a]
		return ev, kind
	}
	return nil, kind
}
