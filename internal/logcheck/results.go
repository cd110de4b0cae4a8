package logcheck

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/dsh-conform/conform/reference/codemode"
	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/reference/registry"
)

// call is the state of one tool/call until its append result arrives.
type call struct {
	id     string
	seq    int64
	line   int
	turn   int64
	step   int64
	turnOK bool
	stepOK bool
	name   string // as logged
	tool   string // canonical name (grep, glob, run_code) or ""

	// run_code only.
	argsProblem string                // why the arguments fail LOG-CHECK-CODE-3; "" when fine
	groups      map[string]*dispGroup // parentCallId -> its dispatch events (nested parents included)
	groupOrder  []string
	subIDs      []string // subCallIds registered in checker.subs
}

// dispGroup is the dispatch events of one parent, in log order.
type dispGroup struct {
	events []codemode.DispatchEvent
	lines  []int
	args   []pendingArgs // parallel to events: a start's argument text (see dispargs.go)
}

func (g *dispGroup) lineOf(seq int64) int {
	for i, ev := range g.events {
		if ev.Seq == seq {
			return g.lines[i]
		}
	}
	return 0
}

// doneCall is what the checker remembers of a completed call.
type doneCall struct {
	id        string
	callSeq   int64
	resultSeq int64
	turn      int64
	step      int64
	turnOK    bool
	stepOK    bool
	tool      string
	hasErr    bool
	errKey    string
	hasMeta   bool
	metaHash  uint64
}

// recent is a fixed window of completed calls, keyed by call id: a ring
// of values (no allocation per call) and an index into it.
type recent struct {
	m    map[string]int
	ring []doneCall
	next int
	cap  int
}

func newRecent(n int) recent {
	return recent{m: map[string]int{}, cap: n}
}

func (r *recent) add(d doneCall) {
	at := len(r.ring)
	if at < r.cap {
		r.ring = append(r.ring, d)
	} else {
		at = r.next
		if old := r.ring[at].id; r.m[old] == at {
			delete(r.m, old)
		}
		r.ring[at] = d
		r.next = (r.next + 1) % r.cap
	}
	r.m[d.id] = at
}

// get returns the remembered call, valid until the next add; nil if none.
func (r *recent) get(id string) *doneCall {
	if at, ok := r.m[id]; ok {
		return &r.ring[at]
	}
	return nil
}

// toolCall checks a tool/call event (LOG-CALL-1) and opens the call.
func (c *checker) toolCall(ev *event) {
	ms, plain := c.plainObj(ev.data, callKeys)
	var p problems
	if !plain {
		keySet(ms, callKeys, nil, &p, "data")
	}
	cl := &call{seq: ev.seq, line: ev.line}
	if v, ok := get(ms, "turn"); ok {
		if cl.turn, cl.turnOK = nonNegInt(v, false); !cl.turnOK {
			p.add("turn is not a non-negative integer")
		}
	}
	if v, ok := get(ms, "step"); ok {
		if cl.step, cl.stepOK = nonNegInt(v, false); !cl.stepOK {
			p.add("step is not a non-negative integer")
		}
	}
	idRaw, _ := get(ms, "callId")
	id, idOK := c.str(idRaw)
	if idRaw != nil && !idOK {
		p.add("callId is not a string")
	} else if idOK && id == "" {
		p.add("callId is empty")
	}
	nameRaw, _ := get(ms, "name")
	name, nameOK := c.name(nameRaw)
	if nameRaw != nil && !nameOK {
		p.add("name is not a string")
	}
	argsRaw, hasArgs := get(ms, "arguments")
	argsOK := argsRaw.Kind() == jsonjs.String
	if hasArgs && !argsOK {
		p.add("arguments is a JSON " + argsRaw.Kind().String() + ", not the raw argument string")
	}
	if len(p) > 0 {
		c.report(ev.line, ev.seq, id, "LOG-CALL-1", Violation, "tool/call data: %s", p)
	}
	if !idOK || id == "" {
		return
	}
	cl.id, cl.name = id, name
	cl.tool = c.canon[name]
	if c.isNestedID(id) {
		c.report(ev.line, ev.seq, id, "LOG-CHECK-CODE-7", Violation, "a tool/call uses a Code Mode sub-call id; nested calls are logged only as dispatch events")
	}
	if old := c.open[id]; old != nil {
		c.report(ev.line, ev.seq, id, "LOG-CHECK-2", Violation, "call id reused while the tool/call at seq %d has no result yet", old.seq)
		c.drop(old)
	} else if d := c.done.get(id); d != nil {
		c.report(ev.line, ev.seq, id, "LOG-CHECK-2", Violation, "call id reused: the tool/call at seq %d already has its result at seq %d", d.callSeq, d.resultSeq)
	}
	if cl.tool == toolRunCode {
		args, _ := c.str(argsRaw)
		cl.argsProblem = runCodeArgsProblem(args, hasArgs && argsOK)
	}
	c.open[id] = cl
}

// runCodeArgsProblem tells why run_code arguments fail LOG-CHECK-CODE-3.
func runCodeArgsProblem(args string, ok bool) string {
	if !ok {
		return "the arguments are not a string"
	}
	v, err := jsonjs.Parse([]byte(args))
	if err != nil {
		return "the arguments are not JSON (" + err.Error() + ")"
	}
	if bad := codemode.CheckArgs(v); len(bad) > 0 {
		return strings.Join(bad, "; ")
	}
	if d, _ := v.Get("description"); jsonjs.IsBlank(mustStr(d)) {
		return "description is blank under ECMAScript trim"
	}
	return ""
}

func mustStr(v jsonjs.Value) string {
	s, _ := v.Str()
	return s
}

// result is a tool/result's payload in either shape. Its raws are views of
// the line (the next line reuses the buffer); its strings are copies.
type result struct {
	callID    string
	legacy    bool
	turn      int64
	step      int64
	turnOK    bool
	stepOK    bool
	blocks    raw // the final content blocks
	bi        blockInfo
	isError   bool
	isErrorOK bool
	errRaw    raw
	errOK     bool // error is {name: string, code: string}
	errName   string
	errCode   string
	meta      raw // nil when absent
	msgRaw    raw // message.id, decoded only by the closer checks
	hasMsgID  bool

	hashed   bool // metaHash is set
	metaHash uint64
}

// id decodes a call id; the id of an open call or of one of its sub-calls
// is not copied again.
func (c *checker) id(r raw) (string, bool) {
	if c.validUTF8 && r.Kind() == jsonjs.String && bytes.IndexByte(r, '\\') < 0 {
		body := r[1 : len(r)-1]
		if cl := c.open[string(body)]; cl != nil {
			return cl.id, true
		}
		if cl := c.subs[string(body)]; cl != nil {
			for _, s := range cl.subIDs {
				if s == string(body) {
					return s, true
				}
			}
		}
	}
	return c.str(r)
}

// internMax bounds the names name keeps.
const internMax = 256

// name decodes a tool name or an error name or code: a few distinct
// strings, each copied once (up to internMax of them).
func (c *checker) name(r raw) (string, bool) {
	if c.validUTF8 && r.Kind() == jsonjs.String {
		if s, ok := c.names[string(r[1:len(r)-1])]; ok {
			return s, true
		}
	}
	s, ok := c.str(r)
	if ok && c.validUTF8 && len(c.names) < internMax && bytes.IndexByte(r, '\\') < 0 {
		c.names[s] = s
	}
	return s, ok
}

// metaHash is hashValue of the line's meta, computed once.
func (c *checker) metaHash(r *result) uint64 {
	if !r.hashed {
		r.metaHash, r.hashed = c.hashMeta(r.meta), true
	}
	return r.metaHash
}

// toolResult checks a tool/result event.
func (c *checker) toolResult(ev *event) {
	res, ok := c.resultShape(ev)
	if !ok {
		return
	}
	c.errorInfo(ev, res)
	if ev.surfaceOp == nil {
		c.report(ev.line, ev.seq, res.callID, "LOG-RES-2", Violation, `tool/result has no surfaceOp; a result is appended with surfaceOp "append"`)
	} else if ev.surfaceOp.Kind() == jsonjs.Object {
		c.replaceResult(ev, res)
		return
	} else if !ev.surfaceOp.StrIs("append") {
		return // malformed surfaceOp, reported under LOG-3
	}
	c.appendResult(ev, res)
}

// resultShape checks LOG-RES-1 (or LOG-RES-5 for the legacy flat shape)
// and extracts the fields the other checks use. ok is false when no call
// id can be found.
func (c *checker) resultShape(ev *event) (*result, bool) {
	ms := c.obj(ev.data)
	c.resBuf = result{}
	res := &c.resBuf
	var p problems
	var toolCallID string
	var haveToolCallID bool
	req := "LOG-RES-1"
	if msg, ok := get(ms, "message"); ok {
		keySet(ms, []string{"turn", "step", "message"}, []string{"error", "meta"}, &p, "data")
		switch {
		case msg.Kind() != jsonjs.Object:
			p.add("message is not an object")
		default:
			var fast bool
			if toolCallID, haveToolCallID, fast = c.plainMessage(msg, res); !fast {
				toolCallID, haveToolCallID = c.messageShape(msg, res, &p)
			}
		}
		if res.callID == "" || haveToolCallID && toolCallID == "" {
			c.emptyMessageIDs(msg, &p)
		}
		if res.callID == "" && haveToolCallID {
			res.callID = toolCallID
		}
	} else {
		req = "LOG-RES-5"
		res.legacy = true
		keySet(ms, []string{"turn", "step", "callId", "content", "isError"}, []string{"error", "meta"}, &p, "legacy data")
		if v, ok := get(ms, "callId"); ok {
			if res.callID, ok = c.id(v); !ok {
				p.add("callId is not a string")
			} else if res.callID == "" {
				p.add("callId is empty")
			}
		}
		c.resultBlock(ms, res, &p, "")
	}
	if v, ok := get(ms, "turn"); ok {
		if res.turn, res.turnOK = nonNegInt(v, false); !res.turnOK {
			p.add("turn is not a non-negative integer")
		}
	}
	if v, ok := get(ms, "step"); ok {
		if res.step, res.stepOK = nonNegInt(v, false); !res.stepOK {
			p.add("step is not a non-negative integer")
		}
	}
	res.errRaw, _ = get(ms, "error")
	res.meta, _ = get(ms, "meta")
	if res.errRaw.Kind() == jsonjs.Object {
		em := c.obj(res.errRaw)
		n, ok1 := get(em, "name")
		k, ok2 := get(em, "code")
		res.errName, ok1 = c.name(n)
		res.errCode, ok2 = c.name(k)
		res.errOK = ok1 && ok2 && len(em) == 2
	}
	if res.blocks.Kind() != jsonjs.Array {
		res.blocks = nil // reported above; the content checks skip such a result
	}
	if len(p) > 0 {
		c.report(ev.line, ev.seq, res.callID, req, Violation, "tool/result data: %s", p)
	}
	if !res.legacy && haveToolCallID && res.callID != toolCallID {
		c.report(ev.line, ev.seq, res.callID, "LOG-CHECK-2", Violation, "message.source.callId %s differs from message.content[0].toolCallId %s", quote(res.callID), quote(toolCallID))
	}
	if res.callID == "" {
		return nil, false
	}
	return res, true
}

// messageShape checks a tool/result's message object (LOG-RES-1) and
// extracts its fields into res; it returns content[0].toolCallId.
func (c *checker) messageShape(msg raw, res *result, p *problems) (toolCallID string, haveToolCallID bool) {
	mm := c.obj(msg)
	keySet(mm, []string{"source", "content", "role", "id"}, nil, p, "message")
	if src, ok := get(mm, "source"); ok {
		if src.Kind() != jsonjs.Object {
			p.add("message.source is not an object")
		} else {
			sm := c.obj(src)
			keySet(sm, []string{"kind", "callId"}, nil, p, "message.source")
			if k, ok := get(sm, "kind"); ok && !k.StrIs("tool") {
				p.add(`message.source.kind is not "tool"`)
			}
			if v, ok := get(sm, "callId"); ok {
				if res.callID, ok = c.id(v); !ok {
					p.add("message.source.callId is not a string")
				}
			}
		}
	}
	if role, ok := get(mm, "role"); ok && !role.StrIs("user") {
		p.add(`message.role is not "user"`)
	}
	if v, ok := get(mm, "id"); ok {
		if res.msgRaw, res.hasMsgID = v, v.Kind() == jsonjs.String; !res.hasMsgID {
			p.add("message.id is not a string")
		}
	}
	if content, ok := get(mm, "content"); ok {
		items := c.arr(content)
		switch {
		case content.Kind() != jsonjs.Array:
			p.add("message.content is not an array")
		case len(items) != 1:
			p.add("message.content has " + strconv.Itoa(len(items)) + " blocks, not exactly one tool-result block")
		}
		if len(items) > 0 && items[0].Kind() == jsonjs.Object {
			bm := c.obj(items[0])
			keySet(bm, []string{"type", "toolCallId", "content", "isError"}, nil, p, "message.content[0]")
			if t, ok := get(bm, "type"); ok && !t.StrIs("tool-result") {
				p.add(`message.content[0].type is not "tool-result"`)
			}
			if v, ok := get(bm, "toolCallId"); ok {
				if toolCallID, haveToolCallID = c.id(v); !haveToolCallID {
					p.add("message.content[0].toolCallId is not a string")
				}
			}
			c.resultBlock(bm, res, p, "message.content[0].")
		} else if len(items) > 0 {
			p.add("message.content[0] is not an object")
		}
	}
	return toolCallID, haveToolCallID
}

// resultBlock reads a result's isError and content members (where: the
// path of the object holding them, "" for the legacy flat shape).
func (c *checker) resultBlock(ms []member, res *result, p *problems, where string) {
	if v, ok := get(ms, "isError"); ok {
		if res.isError, res.isErrorOK = v.Bool(); !res.isErrorOK {
			p.add(where + "isError is not a boolean")
		}
	}
	if v, ok := get(ms, "content"); ok {
		res.blocks = v
		var bad string
		if res.bi, bad = c.blocks(v, where+"content"); bad != "" {
			p.add(bad)
		}
	}
}

// blockInfo is what the text checks need of a content-block array, read
// in the same walk that checks it: the text members of its text blocks
// (views of the line), the number of blocks, whether all are text.
type blockInfo struct {
	texts   []raw
	n       int
	allText bool
}

// blocks walks a content-block array: objects with a non-empty string
// type; text blocks carry a string text. problem is the first break, ""
// when there is none; the info is read from every block all the same.
func (c *checker) blocks(v raw, what string) (bi blockInfo, problem string) {
	if v.Kind() != jsonjs.Array {
		return bi, what + " is not an array of content blocks"
	}
	items := c.arr(v)
	start := len(c.tarena)
	bi.n, bi.allText = len(items), true
	for i, b := range items {
		if b.Kind() != jsonjs.Object {
			if problem == "" {
				problem = what + "[" + strconv.Itoa(i) + "] is not an object"
			}
			bi.allText = false
			continue
		}
		bm := c.obj(b)
		t, _ := get(bm, "type")
		// A non-empty JSON string body never decodes to "".
		if t.Kind() != jsonjs.String || len(t) <= 2 {
			if problem == "" {
				problem = what + "[" + strconv.Itoa(i) + "].type is not a non-empty string"
			}
			bi.allText = false
			continue
		}
		if !t.StrIs("text") {
			bi.allText = false
			continue
		}
		x, _ := get(bm, "text")
		if x.Kind() != jsonjs.String && problem == "" {
			problem = what + "[" + strconv.Itoa(i) + "] is a text block without a string text"
		}
		c.tarena = append(c.tarena, x)
	}
	bi.texts = c.tarena[start:len(c.tarena):len(c.tarena)]
	return bi, problem
}

// blockTexts returns the text blocks of a content array: their
// concatenation (a copy), the number of blocks and whether all of them
// are text.
func (c *checker) blockTexts(bi blockInfo) (text string, n int, allText bool) {
	if bi.n == 1 && bi.allText {
		s, _ := c.str(bi.texts[0])
		return s, 1, true
	}
	var sb strings.Builder
	for _, x := range bi.texts {
		s, _ := c.str(x)
		sb.WriteString(s)
	}
	return sb.String(), bi.n, bi.allText
}

// argsErrorPrefix starts the text of every argument schema violation, the
// only failure that carries ToolArgsError (SEARCH-ERR-1, CODE-ERR-1).
var argsErrorPrefix = registry.ErrorText(registry.ArgsErrorMessage(nil))

// envelopeProblem tells why the text of an error result of grep, glob or
// run_code (or of a grep or glob sub-call) is not the registry's envelope,
// or "" when it is: every failure of these tools is thrown inside the
// registry, which writes "Error: " + message whatever the error info
// (SEARCH-ERR-1, CODE-ERR-1, CODE-FAIL-2), and only an argument schema
// violation carries {ToolArgsError, INVALID_ARGS}, with the message
// "invalid arguments: …". A spilled text is a preview, and a crash closer
// is the harness's own wording (LOG-RES-4): neither is checked.
func envelopeProblem(text, errName, errCode string, hasErr bool) string {
	if spilled(text) || hasErr && (errCode == codeNotStarted || errCode == codeOutcomeUnknown) {
		return ""
	}
	if !strings.HasPrefix(text, "Error: ") {
		return "error text " + quote(text) + " lacks the registry's \"Error: \" envelope"
	}
	if hasErr && errName == registry.ToolArgsError.Name && errCode == registry.ToolArgsError.Code && !strings.HasPrefix(text, argsErrorPrefix) {
		return "error {ToolArgsError, INVALID_ARGS} on text " + quote(text) + "; only an argument schema violation carries it, as " + quote(argsErrorPrefix+"…")
	}
	return ""
}

// errorInfo checks LOG-CHECK-3.
func (c *checker) errorInfo(ev *event, res *result) {
	if res.errRaw == nil {
		return
	}
	var p problems
	if !res.errOK {
		p.add("error is " + clip(res.errRaw) + ", not {name: string, code: string}")
	}
	if res.isErrorOK && !res.isError {
		p.add("error info on a result with isError false")
	}
	if len(p) > 0 {
		c.report(ev.line, ev.seq, res.callID, "LOG-CHECK-3", Violation, "%s", p)
	}
}

// appendResult pairs an append result with its call (LOG-CHECK-2) and runs
// the tool's checks on it.
func (c *checker) appendResult(ev *event, res *result) {
	id := res.callID
	code := ""
	if res.errOK {
		code = res.errCode
	}
	closer := code == codeNotStarted || code == codeOutcomeUnknown
	if closer {
		c.closerChecks(ev, res)
	}
	if c.isNestedID(id) {
		c.report(ev.line, ev.seq, id, "LOG-CHECK-CODE-7", Violation, "a tool/result uses a Code Mode sub-call id; nested calls are logged only as dispatch events")
	}
	cl := c.open[id]
	if cl == nil {
		switch d := c.done.get(id); {
		case code == codeNotStarted:
			// LOG-RES-4: the call never reached a tool/call.
		case d != nil:
			c.report(ev.line, ev.seq, id, "LOG-CHECK-2", Violation, "second append result for this call (the first is seq %d)", d.resultSeq)
		default:
			c.report(ev.line, ev.seq, id, "LOG-CHECK-2", Violation, "append result without an earlier tool/call for this call id")
		}
		return
	}
	if code == codeNotStarted {
		c.report(ev.line, ev.seq, id, "LOG-RES-4", Violation, "TOOL_NOT_STARTED closer for a call that has a tool/call at seq %d", cl.seq)
	} else {
		srcs, good := ev.srcs, ev.srcsOK
		cites := false
		for _, s := range srcs {
			if s == cl.seq {
				cites = true
			}
		}
		switch {
		case !good:
			if ev.sources == nil {
				c.report(ev.line, ev.seq, id, "LOG-CHECK-2", Violation, "no sourceEventSeqs citing the tool/call at seq %d", cl.seq)
			}
		case !cites:
			c.report(ev.line, ev.seq, id, "LOG-CHECK-2", Violation, "sourceEventSeqs %s does not cite the tool/call at seq %d", seqsString(srcs), cl.seq)
		case len(srcs) != 1:
			c.report(ev.line, ev.seq, id, "LOG-RES-2", Violation, "sourceEventSeqs is %s, want exactly [%d]", seqsString(srcs), cl.seq)
		}
	}
	var p problems
	if res.turnOK && cl.turnOK && res.turn != cl.turn {
		p.add("turn " + strconv.FormatInt(res.turn, 10) + " differs from the call's turn " + strconv.FormatInt(cl.turn, 10))
	}
	if res.stepOK && cl.stepOK && res.step != cl.step {
		p.add("step " + strconv.FormatInt(res.step, 10) + " differs from the call's step " + strconv.FormatInt(cl.step, 10))
	}
	if len(p) > 0 {
		c.report(ev.line, ev.seq, id, "LOG-CHECK-2", Violation, "%s (tool/call at seq %d)", p, cl.seq)
	}
	key := cl.tool
	if key == "" {
		key = cl.name
	}
	c.st.ResultsChecked[key]++
	switch cl.tool {
	case toolGrep, toolGlob:
		c.checkSearch(ev, cl, res)
	case toolRunCode:
		c.checkRunCode(ev, cl, res, code)
		c.validateDispatches(cl, closer)
	}
	c.complete(cl, ev, res)
}

func seqsString(xs []int64) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.FormatInt(x, 10)
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// closerChecks checks a crash closer's fixed parts (LOG-RES-4).
func (c *checker) closerChecks(ev *event, res *result) {
	var p problems
	wantName := nameOutcomeUnknown
	if res.errCode == codeNotStarted {
		wantName = nameNotStarted
		if srcs := ev.srcs; len(srcs) > 0 {
			p.add("a TOOL_NOT_STARTED closer has no sourceEventSeqs, got " + seqsString(srcs))
		}
	}
	if res.errName != wantName {
		p.add("error name " + quote(res.errName) + " with code " + res.errCode + ", want " + wantName)
	}
	if res.hasMsgID && ev.seq >= 0 {
		want := closerIDPrefix + res.callID + "-" + strconv.FormatInt(ev.seq, 10)
		if msgID, _ := c.str(res.msgRaw); msgID != want {
			p.add("message id " + quote(msgID) + ", want " + quote(want))
		}
	}
	if len(p) > 0 {
		c.report(ev.line, ev.seq, res.callID, "LOG-RES-4", Violation, "crash closer: %s", p)
	}
}

// replaceResult checks a pruned replacement (LOG-RES-3) against the
// original result, when the checker still remembers it.
func (c *checker) replaceResult(ev *event, res *result) {
	start, end, ok := c.replaceOp(ev.surfaceOp)
	if !ok {
		return // reported under LOG-3
	}
	id := res.callID
	var p problems
	if start != end {
		p.add("replace range " + strconv.FormatInt(start, 10) + ".." + strconv.FormatInt(end, 10) + " is not one event")
	}
	if srcs, good := ev.srcs, ev.srcsOK; !good || len(srcs) != 1 || srcs[0] != start {
		p.add("sourceEventSeqs is not [" + strconv.FormatInt(start, 10) + "]")
	}
	if !c.pruneSeen {
		p.add("no compaction/prune event precedes it")
	}
	d := c.done.get(id)
	switch {
	case d != nil:
		if d.resultSeq != start {
			p.add("it replaces seq " + strconv.FormatInt(start, 10) + " but the call's result is seq " + strconv.FormatInt(d.resultSeq, 10))
		}
		if res.turnOK && d.turnOK && res.turn != d.turn || res.stepOK && d.stepOK && res.step != d.step {
			p.add("turn/step differ from the original result's")
		}
		if res.errRaw != nil != d.hasErr || res.errRaw != nil && errKey(res) != d.errKey {
			p.add("error differs from the original result's")
		}
		if res.meta != nil != d.hasMeta || res.meta != nil && c.metaHash(res) != d.metaHash {
			p.add("meta differs from the original result's")
		}
	case c.open[id] != nil:
		p.add("the call has no append result yet")
	default:
		c.report(ev.line, ev.seq, id, "LOG-RES-3", Unprovable, "the original result is not among the last %d completed calls; cannot compare the replacement with it", recentWindow)
	}
	if len(p) > 0 {
		c.report(ev.line, ev.seq, id, "LOG-RES-3", Violation, "pruned replacement: %s", p)
	}
}

// errKey identifies an error info for comparison, ignoring member order.
func errKey(res *result) string {
	if res.errOK {
		return res.errName + "\x00" + res.errCode
	}
	return string(res.errRaw)
}

// hashFrame is one open container of hashValue's walk: 48 bytes, the
// container itself rather than its element slices, since a value nested
// 10^6 levels deep (issue 23) opens that many.
type hashFrame struct {
	v    jsonjs.Value
	next int
	acc  uint64
}

// hash is hashValue with the checker's reusable stack.
func (c *checker) hash(v jsonjs.Value) uint64 {
	h := hashValue(v, &c.hashStack)
	clear(c.hashStack[:cap(c.hashStack)])
	if cap(c.hashStack) > arenaKeep {
		c.hashStack = nil
	}
	return h
}

// hashValue hashes a JSON value for equality under JSON.parse semantics:
// object members in any order (LOG-7), numbers by value (-0 = 0). It walks
// with an explicit stack, *buf (emptied first), so any depth is fine.
func hashValue(v jsonjs.Value, buf *[]hashFrame) uint64 {
	stack := (*buf)[:0]
	var done uint64 // the hash of the value just finished
	push := func(v jsonjs.Value) bool {
		if len(stack) == cap(stack) { // doubled: append's 1.25x would allocate 5x a deep stack
			stack = append(make([]hashFrame, 0, max(2*cap(stack), 8)), stack...)
		}
		switch v.Kind() {
		case jsonjs.Object: // Expanded: the loop asks for its elements once per element
			stack = append(stack, hashFrame{v: v.Expanded()})
			return true
		case jsonjs.Array:
			stack = append(stack, hashFrame{v: v.Expanded(), acc: hashArrayInit})
			return true
		case jsonjs.String:
			s, _ := v.Str()
			done = hashString(s)
		case jsonjs.Number:
			f, _ := v.Float()
			done = hashNumber(f)
		case jsonjs.Bool:
			b, _ := v.Bool()
			done = hashBool(b)
		default:
			done = hashNull()
		}
		return false
	}
	if !push(v) {
		*buf = stack[:0]
		return done
	}
	for {
		top := &stack[len(stack)-1]
		members, obj := top.v.Members()
		items, _ := top.v.Items()
		if top.next > 0 { // fold the child that just finished
			if obj {
				top.acc = foldMember(top.acc, members[top.next-1].Key, done)
			} else {
				top.acc = foldItem(top.acc, done)
			}
		}
		n := len(items)
		if obj {
			n = len(members)
		}
		if top.next < n {
			var child jsonjs.Value
			if obj {
				child = members[top.next].Value
			} else {
				child = items[top.next]
			}
			top.next++
			push(child) // a scalar sets done now; a container when it is popped
			continue
		}
		if obj {
			done = endObject(top.acc)
		} else {
			done = endArray(top.acc)
		}
		stack = stack[:len(stack)-1]
		if len(stack) == 0 {
			*buf = stack
			return done
		}
	}
}

// fnvString hashes a string 8 bytes at a time (FNV-style multiply; the
// tail's byte count in its top byte), then the splitmix finalizer.
func fnvString[T string | []byte](s T) uint64 {
	h := uint64(14695981039346656037) ^ uint64(len(s))
	i := 0
	for ; i+8 <= len(s); i += 8 {
		x := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		h = (h ^ x) * 1099511628211
	}
	var tail uint64
	for ; i < len(s); i++ {
		tail = tail<<8 | uint64(s[i])
	}
	return mix((h ^ tail ^ uint64(len(s)&7)<<56) * 1099511628211)
}

// mix is the splitmix64 finalizer.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// complete forgets an open call and remembers its summary.
func (c *checker) complete(cl *call, ev *event, res *result) {
	c.drop(cl)
	d := doneCall{
		id: cl.id, callSeq: cl.seq, resultSeq: ev.seq,
		turn: res.turn, step: res.step, turnOK: res.turnOK, stepOK: res.stepOK,
		tool: cl.tool, hasErr: res.errRaw != nil, errKey: errKey(res), hasMeta: res.meta != nil,
	}
	if res.meta != nil {
		d.metaHash = c.metaHash(res)
	}
	c.done.add(d)
}

// drop removes an open call and its sub-call ids.
func (c *checker) drop(cl *call) {
	if c.open[cl.id] == cl {
		delete(c.open, cl.id)
	}
	for _, s := range cl.subIDs {
		if c.subs[s] == cl {
			delete(c.subs, s)
		}
	}
}

// isNestedID reports LOG-CHECK-CODE-7: id is a sub-call id seen in a
// dispatch, or has the form <x>:code:<n> for a known run_code call x.
func (c *checker) isNestedID(id string) bool {
	if _, ok := c.subs[id]; ok {
		return true
	}
	if strings.IndexByte(id, ':') < 0 {
		return false // the common case, without LastIndex's search
	}
	i := strings.LastIndex(id, ":code:")
	if i <= 0 {
		return false
	}
	x := id[:i]
	if _, ok := codemode.ParseSubCallID(x, id); !ok {
		return false
	}
	if cl := c.open[x]; cl != nil && cl.tool == toolRunCode {
		return true
	}
	if _, ok := c.subs[x]; ok {
		return true
	}
	d := c.done.get(x)
	return d != nil && d.tool == toolRunCode
}

// emptyMessageIDs adds a problem for each call id of a tool/result's
// message that is the empty string. The harness gives every call a
// non-empty id (the tools pipeline's invariant: "non-empty name and
// callId"; replaying a log, the session refuses a tool/result whose
// source.callId is ""), and a run_code call's id is the parentCallId of
// its dispatch events, non-empty under LOG-CHECK-CODE-4. The empty id is
// no id: such a call is not opened nor such a result paired.
func (c *checker) emptyMessageIDs(msg raw, p *problems) {
	if msg.Kind() != jsonjs.Object {
		return // reported: message is not an object
	}
	mm := c.obj(msg)
	if src, ok := get(mm, "source"); ok && src.Kind() == jsonjs.Object {
		if v, ok := get(c.obj(src), "callId"); ok && v.StrIs("") {
			p.add("message.source.callId is empty")
		}
	}
	if content, ok := get(mm, "content"); ok && content.Kind() == jsonjs.Array {
		if items := c.arr(content); len(items) > 0 && items[0].Kind() == jsonjs.Object {
			if v, ok := get(c.obj(items[0]), "toolCallId"); ok && v.StrIs("") {
				p.add("message.content[0].toolCallId is empty")
			}
		}
	}
}
