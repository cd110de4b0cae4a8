package logcheck

import (
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// problems collects the broken parts of one rule for one line, so that a
// line breaking a rule in several places gives one finding.
type problems []string

func (p *problems) add(s string) { *p = append(*p, s) }

func (p problems) String() string { return strings.Join(p, "; ") }

// keySet checks an object's member names against the allowed and required
// ones (LOG-7: order is ignored).
func keySet(ms []member, required, optional []string, p *problems, what string) {
	if !keysFine(ms, required, optional) {
		keyProblems(ms, required, optional, p, what)
	}
}

// keyProblems is keySet's general walk: the strays and the missing keys.
func keyProblems(ms []member, required, optional []string, p *problems, what string) {
	var extra []string
	for _, m := range ms {
		if !contains(required, string(m.Key)) && !contains(optional, string(m.Key)) {
			extra = append(extra, quote(string(m.Key)))
		}
	}
	var missing []string
	for _, k := range required {
		if _, ok := get(ms, k); !ok {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		p.add(what + " lacks " + strings.Join(missing, ", "))
	}
	if len(extra) > 0 {
		p.add(what + " has unexpected member(s) " + strings.Join(dedupeStrings(extra), ", "))
	}
}

// keysFine reports, without allocating, that every member is required
// or optional and every required one is present: keySet has nothing to
// report. required has no duplicate; the harness writes the required keys
// first and in that order, so member i is compared with required[i] first
// (a hit is the match the loop would find).
func keysFine(ms []member, required, optional []string) bool {
	if len(required) > 64 {
		return false
	}
	var seen uint64
next:
	for i, m := range ms {
		if i < len(required) && string(m.Key) == required[i] {
			seen |= 1 << i
			continue
		}
		for j, k := range required {
			if string(m.Key) == k {
				seen |= 1 << j
				continue next
			}
		}
		for _, k := range optional {
			if string(m.Key) == k {
				continue next
			}
		}
		return false
	}
	return seen == 1<<len(required)-1
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func dedupeStrings(xs []string) []string {
	out := xs[:0]
	for i, x := range xs {
		if !contains(xs[:i], x) {
			out = append(out, x)
		}
	}
	return out
}

// checkHeader checks the session header line (LOG-2).
func (c *checker) checkHeader(line int, top []member) {
	var p problems
	keySet(top, []string{"type", "version", "id", "createdAt"},
		[]string{"delegationDepth", "cwd", "parentSession", "seedLength", "origin", "agentPreset"}, &p, "header")
	if v, ok := get(top, "version"); ok {
		if f, isNum := v.Float(); !isNum || f != 0 {
			p.add("version is " + clip(v) + ", not 0")
		}
	}
	if v, ok := get(top, "id"); ok && v.Kind() != jsonjs.String {
		p.add("id is not a string")
	}
	if v, ok := get(top, "createdAt"); ok {
		if n, isInt := nonNegInt(v, true); isInt {
			c.createdAt = n
		} else {
			p.add("createdAt " + clip(v) + " is not a non-negative safe integer (nor -0)")
		}
	}
	if v, ok := get(top, "delegationDepth"); ok {
		if _, isInt := nonNegInt(v, true); !isInt {
			p.add("delegationDepth " + clip(v) + " is not a non-negative safe integer")
		}
	}
	if v, ok := get(top, "seedLength"); ok {
		if _, isInt := nonNegInt(v, false); !isInt {
			p.add("seedLength " + clip(v) + " is not a non-negative integer")
		}
	}
	if v, ok := get(top, "origin"); ok && !v.StrIs("subagent") {
		p.add("origin is " + clip(v) + `, not "subagent"`)
	}
	for _, k := range []string{"cwd", "parentSession", "agentPreset"} {
		if v, ok := get(top, k); ok && v.Kind() != jsonjs.String {
			p.add(k + " is not a string")
		}
	}
	if len(p) > 0 {
		c.report(line, -1, "", "LOG-2", Violation, "session header: %s", p)
	}
}

// clip renders a raw value for a message: at most 40 bytes, cut at a
// character boundary, invalid UTF-8 replaced.
func clip(r raw) string {
	s, more := string(r), ""
	if len(s) > 40 {
		cut := 40
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s, more = s[:cut], "…"
	}
	return strings.ToValidUTF8(s, "\uFFFD") + more
}

// checkRow checks a packed chunk row (LOG-4) and feeds its expanded seqs
// to the sequence check.
func (c *checker) checkRow(line int, top []member, typ string) {
	var p problems
	if rowKeys := []string{"type", "seq0", "time0", "data"}; !keysFine(top, rowKeys, nil) {
		keyProblems(top, rowKeys, nil, &p, typ+" row") // the label built only when needed
	}
	seq0, seqOK := int64(-1), false
	if v, ok := get(top, "seq0"); ok {
		if seq0, seqOK = nonNegInt(v, false); !seqOK {
			p.add("seq0 is not a non-negative safe integer")
			seq0 = -1
		}
	}
	time0, timeOK := int64(0), false
	if v, ok := get(top, "time0"); ok {
		if time0, timeOK = safeInt(v); !timeOK {
			p.add("time0 is not a safe integer")
		}
	}
	n := 1 // events the row stands for; 1 when it cannot be told
	data, _ := get(top, "data")
	if data.Kind() != jsonjs.Object {
		if data != nil {
			p.add("data is not an object")
		}
	} else {
		ms := c.obj(data)
		payload := "texts"
		if typ == rowToolCall {
			payload = "args"
			keySet(ms, []string{"turn", "step", "index", "dt", "id", "args"}, []string{"name"}, &p, "data")
			if v, ok := get(ms, "id"); ok && v.Kind() != jsonjs.String {
				p.add("data.id is not a string")
			}
			if v, ok := get(ms, "name"); ok && v.Kind() != jsonjs.String {
				p.add("data.name is not a string")
			}
		} else {
			keySet(ms, []string{"turn", "step", "index", "dt", "texts"}, nil, &p, "data")
		}
		for _, k := range []string{"turn", "step", "index"} {
			if v, ok := get(ms, k); ok {
				if _, isInt := nonNegInt(v, false); !isInt {
					p.add("data." + k + " is not a non-negative integer")
				}
			}
		}
		members := -1
		if v, ok := get(ms, payload); ok {
			items := c.arr(v)
			allStr := v.Kind() == jsonjs.Array
			for _, it := range items {
				if it.Kind() != jsonjs.String {
					allStr = false
				}
			}
			if len(items) > 0 {
				members = len(items)
				n = members // the row still stands for one event per member
			}
			if !allStr || len(items) == 0 {
				p.add("data." + payload + " is not a non-empty array of strings")
			}
		}
		if v, ok := get(ms, "dt"); ok {
			dts := c.arr(v)
			good := v.Kind() == jsonjs.Array
			t, tOK := time0, timeOK
			for _, d := range dts {
				g, isInt := safeInt(d)
				if !isInt {
					good = false
					continue
				}
				if tOK {
					if math.Abs(float64(t)+float64(g)) > maxSafe {
						tOK = false
						p.add("member times leave the safe-integer range")
					}
					t += g
				}
			}
			switch {
			case !good:
				p.add("data.dt is not an array of safe integers")
			case members >= 0 && len(dts) != members-1:
				p.add("len(dt) is " + itoa(len(dts)) + ", want " + itoa(members-1) + " for " + itoa(members) + " members")
			}
		}
		if seqOK && seq0+int64(n)-1 > maxSafe {
			p.add("member seqs leave the safe-integer range")
		}
	}
	if len(p) > 0 {
		c.report(line, seq0, "", "LOG-4", Violation, "%s", p)
	}
	if seqOK {
		c.sequence(line, seq0, int64(n))
		c.st.Events += n
	} else {
		c.lost = true
	}
}

// sequence checks LOG-5 for n events seq, seq+1, … on one line.
func (c *checker) sequence(line int, seq, n int64) {
	lost := c.lost
	c.lost = false
	switch {
	case !c.hasPrev:
		if seq != 0 && !lost {
			c.report(line, seq, "", "LOG-5", Warning, "the first event has seq %d, not 0 (trimmed fixture?)", seq)
		}
	case seq <= c.prevSeq:
		c.report(line, seq, "", "LOG-CHECK-1", Violation, "seq %d does not increase (previous seq %d on line %d)", seq, c.prevSeq, c.prevLine)
	case seq != c.prevSeq+1 && !lost:
		c.report(line, seq, "", "LOG-5", Warning, "seq jumps from %d to %d (%d missing; trimmed fixture?)", c.prevSeq, seq, seq-c.prevSeq-1)
	}
	c.hasPrev, c.prevSeq, c.prevLine = true, seq+n-1, line
}

// event is one event line being checked.
type event struct {
	line      int
	seq       int64 // -1 when the envelope has no usable seq
	typ       string
	kind      evKind
	data      raw // nil unless an object
	surfaceOp raw
	sources   raw
	srcs      []int64 // sources decoded (seqList: valid for this line), when allowed
	srcsOK    bool
}

var envelopeKeys = []string{"type", "seq", "time", "data", "surfaceOp", "sourceEventSeqs", "ignorable"}

// envelope is an event's top members, by name (nil when absent).
type envelope struct {
	seq, time, data, ign, surf, src raw
	// extra: a member that is not in envelopeKeys.
	extra bool
}

// read sorts the top members into e (zero). Fast path: the harness writes
// type, seq, time and data first, in that order; those four are taken by
// position and the general scan reads only the rest, whose duplicates
// still win, so the result is scan's over all of top.
func (e *envelope) read(top []member) {
	rest := top
	if len(top) >= 4 && string(top[0].Key) == "type" && string(top[1].Key) == "seq" &&
		string(top[2].Key) == "time" && string(top[3].Key) == "data" {
		e.seq, e.time, e.data, rest = top[1].Value, top[2].Value, top[3].Value, top[4:]
	}
	e.scan(rest)
}

// scan reads members in one pass; a later duplicate wins, as in get.
func (e *envelope) scan(ms []member) {
	for _, m := range ms {
		switch string(m.Key) {
		case "type": // read by lineDone: typeOf
		case "seq":
			e.seq = m.Value
		case "time":
			e.time = m.Value
		case "data":
			e.data = m.Value
		case "ignorable":
			e.ign = m.Value
		case "surfaceOp":
			e.surf = m.Value
		case "sourceEventSeqs":
			e.src = m.Value
		default:
			e.extra = true
		}
	}
}

// checkEvent checks an event envelope (LOG-3, LOG-5, LOG-6) and hands the
// event to its type's checks.
func (c *checker) checkEvent(line int, top []member, ti typeInfo, typeOK bool) {
	c.evBuf = event{line: line, seq: -1}
	ev := &c.evBuf
	var p problems
	var e envelope
	e.read(top)
	typ, kind, known := ti.name, ti.kind, ti.known
	if !typeOK || typ == "" {
		p.add("type is missing or not a non-empty string")
	}
	ev.typ = typ
	if v := e.seq; v == nil {
		p.add("seq is missing")
	} else if s, isInt := nonNegInt(v, false); !isInt {
		p.add("seq " + clip(v) + " is not a non-negative safe integer")
	} else {
		ev.seq = s
	}
	if v := e.time; v == nil {
		p.add("time is missing")
	} else if _, isInt := safeInt(v); !isInt {
		p.add("time " + clip(v) + " is not a safe integer")
	}
	if v := e.data; v == nil {
		p.add("data is missing")
	} else if v.Kind() != jsonjs.Object {
		p.add("data is a JSON " + v.Kind().String() + ", not an object")
	} else {
		ev.data = v
	}
	ignorable := false
	if v := e.ign; v != nil {
		if string(v) != "true" {
			p.add("ignorable is " + clip(v) + ", not true")
		} else {
			ignorable = true
		}
	}
	if e.extra {
		var extra []string
		for _, m := range top {
			if !contains(envelopeKeys, string(m.Key)) {
				extra = append(extra, quote(string(m.Key)))
			}
		}
		p.add("unexpected envelope member(s) " + strings.Join(dedupeStrings(extra), ", "))
	}
	ev.kind = kind
	surfaceAllowed := kind == evMessage || kind == evToolResult
	if v := e.surf; v != nil {
		ev.surfaceOp = v
		if !surfaceAllowed {
			p.add("surfaceOp on a " + quote(typ) + " event (only user/message, assistant/message and tool/result may carry it)")
		} else if msg := c.surfaceOpProblem(v); msg != "" {
			p.add(msg)
		}
	}
	if v := e.src; v != nil {
		ev.sources = v
		if !surfaceAllowed {
			p.add("sourceEventSeqs on a " + quote(typ) + " event (only user/message, assistant/message and tool/result may carry it)")
		} else if ev.srcs, ev.srcsOK = c.seqList(v); !ev.srcsOK {
			p.add("sourceEventSeqs is not an array of non-negative safe integers")
		}
	}
	if len(p) > 0 {
		c.report(line, ev.seq, "", "LOG-3", Violation, "event envelope: %s", p)
	}
	if ev.seq >= 0 {
		c.sequence(line, ev.seq, 1)
		c.st.Events++
	} else {
		c.lost = true
	}
	if typ == "" {
		return
	}
	if !known {
		c.st.UnknownTypes[typ]++
		if !ignorable {
			// Upstream refuses such a log, but a newer harness may simply
			// have added the type: the issue asks for counting, not flagging.
			c.report(line, ev.seq, "", "LOG-6", Warning, "unknown event type %s without ignorable:true (a reader of this vocabulary would refuse the log)", quote(typ))
		}
		return
	}
	switch kind {
	case evTurnStart:
		c.turnOpen = true
	case evTurnEnd:
		c.turnOpen = false
	case evPrune:
		c.pruneSeen = true
	}
	if ev.data == nil {
		return
	}
	switch kind {
	case evToolCall:
		c.toolCall(ev)
	case evToolResult:
		c.toolResult(ev)
	case evDispatchStart, evDispatchSettle:
		c.dispatch(ev)
	}
}

// surfaceOpProblem checks surfaceOp: "append" or
// {"op":"replace","start":s,"end":e} (LOG-3).
func (c *checker) surfaceOpProblem(v raw) string {
	if v.StrIs("append") {
		return ""
	}
	if v.Kind() != jsonjs.Object {
		return "surfaceOp is " + clip(v) + `, not "append" or a replace object`
	}
	ms := c.obj(v)
	var p problems
	keySet(ms, []string{"op", "start", "end"}, nil, &p, "surfaceOp")
	if op, ok := get(ms, "op"); ok && !op.StrIs("replace") {
		p.add(`surfaceOp.op is not "replace"`)
	}
	for _, k := range []string{"start", "end"} {
		if x, ok := get(ms, k); ok {
			if _, isInt := nonNegInt(x, false); !isInt {
				p.add("surfaceOp." + k + " is not a non-negative safe integer")
			}
		}
	}
	return p.String()
}

// replaceOp returns the start and end of a replace surfaceOp.
func (c *checker) replaceOp(v raw) (start, end int64, ok bool) {
	if v.Kind() != jsonjs.Object {
		return 0, 0, false
	}
	ms := c.obj(v)
	s, ok1 := get(ms, "start")
	e, ok2 := get(ms, "end")
	if !ok1 || !ok2 {
		return 0, 0, false
	}
	start, ok1 = nonNegInt(s, false)
	end, ok2 = nonNegInt(e, false)
	return start, end, ok1 && ok2
}

// seqList decodes an array of non-negative safe integers. The slice is
// the checker's scratch: it is valid until the next seqList call.
func (c *checker) seqList(v raw) ([]int64, bool) {
	if v.Kind() != jsonjs.Array {
		return nil, false
	}
	if out, ok := plainSeqs(c.seqBuf[:0], v); ok {
		if cap(out) <= arenaKeep {
			c.seqBuf = out
		}
		return out, true
	}
	out := c.seqBuf[:0]
	for _, it := range c.arr(v) {
		n, ok := nonNegInt(it, false)
		if !ok {
			return nil, false
		}
		out = append(out, n)
	}
	if cap(out) <= arenaKeep {
		c.seqBuf = out
	}
	return out, true
}

// plainSeqs reads an array written as [d,d,…] (no whitespace, each d at
// most 15 digits: integers below 2^53, exact as doubles) straight from its
// text; ok is false for any other spelling, which seqList reads in full.
func plainSeqs(out []int64, v raw) ([]int64, bool) {
	if len(v) == 2 {
		return out, true // []
	}
	for i := 1; i < len(v); i++ {
		n, digits := int64(0), 0
		for ; i < len(v) && v[i] >= '0' && v[i] <= '9'; i++ {
			n, digits = n*10+int64(v[i]-'0'), digits+1
		}
		if digits == 0 || digits > 15 || i >= len(v) || (v[i] != ',' && v[i] != ']') {
			return out, false
		}
		out = append(out, n)
		if v[i] == ']' {
			return out, true // the array's own ], as v is one value
		}
	}
	return out, false
}

// typeOf decodes a line's type; the names the checker knows are not
// copied. ok is false when the type is not a string.
func (c *checker) typeOf(r raw) (t typeInfo, ok bool) {
	if c.validUTF8 && r.Kind() == jsonjs.String {
		if t, found := lookupType(r[1 : len(r)-1]); found {
			return t, true
		}
	}
	name, ok := c.str(r)
	if t, found := lookupType(name); found {
		return t, ok
	}
	return typeInfo{name: name}, ok
}

func itoa(n int) string { return strconv.Itoa(n) }

// openInOrder lists the open calls by call seq.
func (c *checker) openInOrder() []*call {
	out := make([]*call, 0, len(c.open))
	for _, cl := range c.open {
		out = append(out, cl)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].seq < out[j].seq })
	return out
}
