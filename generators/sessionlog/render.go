package sessionlog

import (
	"fmt"
	"math/rand/v2"

	"github.com/dsh-conform/conform/reference/codemode"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// renderer turns a turnSpec into line templates. Seqs and times are offsets
// from the instance's; every event takes the next seq and a strictly later
// time; a packed row takes len(texts|args) seqs.
type renderer struct {
	w     tw
	lines []lineTmpl
	seq   int64
	t     int64
	msg   int
	rng   *rand.Rand
}

func (r *renderer) tick() int64 {
	r.t += 1 + int64(r.rng.IntN(25))
	return r.t
}

// begin opens an event line up to `"data":`.
func (r *renderer) begin(typ string) int64 {
	s := r.seq
	r.seq++
	r.w.raw(`{"type":`)
	r.w.str(typ)
	r.w.raw(`,"seq":`)
	r.w.hole(holeSeq, s)
	r.w.raw(`,"time":`)
	r.w.hole(holeTime, r.tick())
	r.w.raw(`,"data":`)
	return s
}

// end closes the line.
func (r *renderer) end() {
	r.w.raw("}")
	r.lines = append(r.lines, r.w.line())
}

// turnStep writes `{"turn":N,"step":k` (object left open).
func (r *renderer) turnStep(step int) {
	r.w.raw(`{"turn":`)
	r.w.hole(holeTurn, 0)
	r.w.raw(`,"step":`)
	r.w.num(int64(step))
}

func (r *renderer) seqList(seqs []int64) {
	r.w.raw("[")
	for i, s := range seqs {
		if i > 0 {
			r.w.raw(",")
		}
		r.w.hole(holeSeq, s)
	}
	r.w.raw("]")
}

func (r *renderer) msgID() idRef {
	r.msg++
	return idRef{suf: fmt.Sprintf("-0000-4000-8000-%012x", r.msg)}
}

func callRef(idx int) idRef { return idRef{pre: fmt.Sprintf("call_%02d_", idx)} }

func subRef(idx, n int) idRef {
	return idRef{pre: fmt.Sprintf("call_%02d_", idx), suf: codemode.SubCallID("", n)}
}

// chunk writes one assistant/chunk event whose chunk object body is written
// by body, and returns its seq.
func (r *renderer) chunk(step int, body func()) int64 {
	s := r.begin("assistant/chunk")
	r.turnStep(step)
	r.w.raw(`,"chunk":{`)
	body()
	r.w.raw("}}")
	r.end()
	return s
}

// packed writes a text-chunks or tool-call-chunks row and returns the seqs
// of the chunk events it expands to (LOG-4).
func (r *renderer) packed(step, index int, pieces []string, call *idRef, name string) []int64 {
	seq0 := r.seq
	r.seq += int64(len(pieces))
	typ := "text-chunks"
	if call != nil {
		typ = "tool-call-chunks"
	}
	r.w.raw(`{"type":`)
	r.w.str(typ)
	r.w.raw(`,"seq0":`)
	r.w.hole(holeSeq, seq0)
	r.w.raw(`,"time0":`)
	r.w.hole(holeTime, r.tick())
	r.w.raw(`,"data":`)
	r.turnStep(step)
	r.w.raw(`,"index":`)
	r.w.num(int64(index))
	r.w.raw(`,"dt":[`)
	for i := 1; i < len(pieces); i++ {
		if i > 1 {
			r.w.raw(",")
		}
		dt := 1 + int64(r.rng.IntN(40))
		r.t += dt
		r.w.num(dt)
	}
	r.w.raw("]")
	if call != nil {
		r.w.raw(`,"id":`)
		r.w.id(*call)
		r.w.raw(`,"name":`)
		r.w.str(name)
		r.w.raw(`,"args":[`)
	} else {
		r.w.raw(`,"texts":[`)
	}
	for i, p := range pieces {
		if i > 0 {
			r.w.raw(",")
		}
		r.w.str(p)
	}
	r.w.raw("]}}")
	r.lines = append(r.lines, r.w.line())
	seqs := make([]int64, len(pieces))
	for i := range seqs {
		seqs[i] = seq0 + int64(i)
	}
	return seqs
}

func (r *renderer) textBlock(text string) {
	r.w.raw(`{"type":"text","text":`)
	r.w.str(text)
	r.w.raw("}")
}

// result writes a tool/result: the current shape (LOG-RES-1) with the
// single text block; a replacement (LOG-RES-3) when replaceOf >= 0.
func (r *renderer) result(step int, c *callSpec, text string, callSeq, replaceOf int64) int64 {
	s := r.begin("tool/result")
	ref := callRef(c.idx)
	r.turnStep(step)
	r.w.raw(`,"message":{"source":{"kind":"tool","callId":`)
	r.w.id(ref)
	r.w.raw(`},"content":[{"type":"tool-result","toolCallId":`)
	r.w.id(ref)
	r.w.raw(`,"content":[`)
	r.textBlock(text)
	r.w.raw(`],"isError":`)
	r.w.boolean(c.res.isError)
	r.w.raw(`}],"role":"user","id":`)
	r.w.id(r.msgID())
	r.w.raw("}")
	if !c.res.errInfo.IsNull() {
		r.w.raw(`,"error":`)
		r.w.val(c.res.errInfo)
	}
	if !c.res.meta.IsNull() {
		r.w.raw(`,"meta":`)
		r.w.val(c.res.meta)
	}
	r.w.raw("}")
	if replaceOf < 0 {
		r.w.raw(`,"sourceEventSeqs":`)
		r.seqList([]int64{callSeq})
		r.w.raw(`,"surfaceOp":"append"`)
	} else {
		r.w.raw(`,"sourceEventSeqs":`)
		r.seqList([]int64{replaceOf})
		r.w.raw(`,"surfaceOp":{"op":"replace","start":`)
		r.w.hole(holeSeq, replaceOf)
		r.w.raw(`,"end":`)
		r.w.hole(holeSeq, replaceOf)
		r.w.raw("}")
	}
	r.end()
	return s
}

// dispatch writes a tool/code-dispatch-start (settle=false) or
// tool/code-dispatch event of sub-call n of c (LOG-DISP-1).
func (r *renderer) dispatch(c *callSpec, n int, settle bool) {
	sub := c.subs[n-1]
	typ := codemode.EventDispatchStart
	if settle {
		typ = codemode.EventDispatchSettle
	}
	r.begin(typ)
	ref := callRef(c.idx)
	r.w.raw(`{"rootCallId":`)
	r.w.id(ref)
	r.w.raw(`,"parentCallId":`)
	r.w.id(ref)
	r.w.raw(`,"subCallId":`)
	r.w.id(subRef(c.idx, n))
	r.w.raw(`,"name":`)
	r.w.str(sub.name)
	r.w.raw(`,"arguments":`)
	r.w.val(sub.args)
	if settle {
		r.w.raw(`,"isError":`)
		r.w.boolean(sub.isError)
		r.w.raw(`,"content":[`)
		r.textBlock(sub.text)
		r.w.raw("]")
	}
	r.w.raw("}")
	r.end()
}

// prunedText is the shortened content of a compaction replacement.
func prunedText(text string) string {
	return fmt.Sprintf("[Old tool result content cleared: %d bytes]", len(text))
}

func (r *renderer) step(ts *turnSpec, k int) {
	st := &ts.steps[k]
	step := k + 1
	r.begin("step/start")
	r.turnStep(step)
	r.w.raw("}")
	r.end()
	if k == 0 {
		r.begin("user/message")
		r.w.raw(`{"content":[`)
		r.textBlock(ts.user)
		r.w.raw(`],"source":{"kind":"user"},"role":"user","id":`)
		r.w.id(r.msgID())
		r.w.raw(`},"surfaceOp":"append"`)
		r.end()
	}

	// The model's stream: chunks, then the assistant message citing them.
	var chunkSeqs []int64
	index := 0
	if st.text != "" {
		chunkSeqs = append(chunkSeqs, r.chunk(step, func() {
			r.w.raw(`"type":"block-start","index":0,"blockType":"text"`)
		}))
		if st.packed {
			chunkSeqs = append(chunkSeqs, r.packed(step, 0, st.pieces, nil, "")...)
		} else {
			for _, p := range st.pieces {
				chunkSeqs = append(chunkSeqs, r.chunk(step, func() {
					r.w.raw(`"type":"text-delta","index":0,"text":`)
					r.w.str(p)
				}))
			}
		}
		chunkSeqs = append(chunkSeqs, r.chunk(step, func() {
			r.w.raw(`"type":"block-end","index":0,"block":`)
			r.textBlock(st.text)
		}))
		index++
	}
	toolCallBlock := func(c *callSpec) {
		r.w.raw(`{"type":"tool-call","id":`)
		r.w.id(callRef(c.idx))
		r.w.raw(`,"name":`)
		r.w.str(c.name)
		r.w.raw(`,"arguments":`)
		r.w.str(c.args)
		r.w.raw("}")
	}
	for _, c := range st.calls {
		i := int64(index)
		chunkSeqs = append(chunkSeqs, r.chunk(step, func() {
			r.w.raw(`"type":"block-start","index":`)
			r.w.num(i)
			r.w.raw(`,"blockType":"tool-call"`)
		}))
		if c.pieces != nil {
			ref := callRef(c.idx)
			chunkSeqs = append(chunkSeqs, r.packed(step, index, c.pieces, &ref, c.name)...)
		} else {
			chunkSeqs = append(chunkSeqs, r.chunk(step, func() {
				r.w.raw(`"type":"tool-call-delta","index":`)
				r.w.num(i)
				r.w.raw(`,"id":`)
				r.w.id(callRef(c.idx))
				r.w.raw(`,"name":`)
				r.w.str(c.name)
				r.w.raw(`,"argumentsDelta":`)
				r.w.str(c.args)
			}))
		}
		chunkSeqs = append(chunkSeqs, r.chunk(step, func() {
			r.w.raw(`"type":"block-end","index":`)
			r.w.num(i)
			r.w.raw(`,"block":`)
			toolCallBlock(c)
		}))
		index++
	}
	in, out := 100+r.rng.IntN(5000), 1+r.rng.IntN(300)
	usage := fmt.Sprintf(`{"inputTokens":%d,"outputTokens":%d}`, in, out)
	chunkSeqs = append(chunkSeqs, r.chunk(step, func() {
		r.w.raw(`"type":"usage","usage":` + usage)
	}))
	reason := "stop"
	if len(st.calls) > 0 {
		reason = "tool-calls"
	}
	chunkSeqs = append(chunkSeqs, r.chunk(step, func() {
		r.w.raw(`"type":"finish","reason":{"kind":"` + reason + `"}`)
	}))
	r.begin("assistant/message")
	r.turnStep(step)
	r.w.raw(`,"message":{"role":"assistant","content":[`)
	first := true
	if st.text != "" {
		r.textBlock(st.text)
		first = false
	}
	for _, c := range st.calls {
		if !first {
			r.w.raw(",")
		}
		first = false
		toolCallBlock(c)
	}
	r.w.raw(`],"source":{"kind":"model","provider":"deepseek-official","model":"deepseek-v4-flash"},"id":`)
	r.w.id(r.msgID())
	r.w.raw(`},"usage":` + usage + `},"sourceEventSeqs":`)
	r.seqList(chunkSeqs)
	r.w.raw(`,"surfaceOp":"append"`)
	r.end()

	// Tool calls, then each call's dispatches and result.
	callSeqs := make([]int64, len(st.calls))
	for i, c := range st.calls {
		callSeqs[i] = r.begin("tool/call")
		r.turnStep(step)
		r.w.raw(`,"callId":`)
		r.w.id(callRef(c.idx))
		r.w.raw(`,"name":`)
		r.w.str(c.name)
		r.w.raw(`,"arguments":`)
		r.w.str(c.args)
		r.w.raw("}")
		r.end()
	}
	resultSeqs := make([]int64, len(st.calls))
	for _, i := range st.resultOrder {
		c := st.calls[i]
		for _, n := range c.order {
			if n > 0 {
				r.dispatch(c, n, false)
			} else {
				r.dispatch(c, -n, true)
			}
		}
		resultSeqs[i] = r.result(step, c, c.res.text, callSeqs[i], -1)
	}
	// Compaction replacing long results (LOG-RES-3).
	for _, i := range st.resultOrder {
		c := st.calls[i]
		if !c.prune {
			continue
		}
		r.begin("compaction/prune")
		r.w.raw(`{"reason":"tool-result-pruner","callIds":[`)
		r.w.id(callRef(c.idx))
		r.w.raw("]}")
		r.end()
		r.result(step, c, prunedText(c.res.text), callSeqs[i], resultSeqs[i])
	}
	r.begin("step/end")
	r.turnStep(step)
	r.w.raw("}")
	r.end()
}

// renderTurn renders a turn into templates.
func renderTurn(ts turnSpec) turnTmpl {
	r := &renderer{rng: rand.New(rand.NewPCG(ts.seed, 0x5e551011))}
	r.begin("turn/start")
	r.w.raw(`{"turn":`)
	r.w.hole(holeTurn, 0)
	r.w.raw("}")
	r.end()
	for k := range ts.steps {
		r.step(&ts, k)
	}
	r.begin("turn/end")
	r.w.raw(`{"turn":`)
	r.w.hole(holeTurn, 0)
	r.w.raw(`,"reason":{"kind":"completed"}}`)
	r.end()
	return turnTmpl{lines: r.lines, seqs: r.seq, span: r.t}
}

// headerLine writes the LOG-2 header.
func headerLine(id string, createdAt int64) []byte {
	b := []byte(`{"type":"session","version":0,"id":`)
	b = jsonjs.AppendString(b, id)
	b = fmt.Appendf(b, `,"createdAt":%d,"cwd":"{{cwd}}","delegationDepth":0}`, createdAt)
	return b
}

// uuid formats two random words as a version-4 UUID.
func uuid(a, b uint64) string {
	return fmt.Sprintf("%08x-%04x-4%03x-%04x-%012x", a>>32, (a>>16)&0xffff, a&0xfff, 0x8000|(b>>48)&0x3fff, b&0xffffffffffff)
}

// Logs start after 2026-07-30, so a checker treats a missing search meta
// as a violation, not a legacy warning (LOG-CHECK-SEARCH-1).
const minCreatedAt = 1786000000000
