package sessionlog

import (
	"github.com/dsh-conform/conform/reference/codemode"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// This file is the editing layer the mutations use: a log parsed into JSON
// values, value surgery by path, an index of calls, results and dispatch
// events, and renumbering after a structural edit.

// mlog is a log being edited. Lines not marked dirty keep their bytes.
type mlog struct {
	name  string
	raw   [][]byte
	val   []jsonjs.Value
	dirty []bool
}

func parseLog(l Log) (*mlog, bool) {
	m := &mlog{name: l.Name, raw: append([][]byte(nil), l.Lines...)}
	m.val = make([]jsonjs.Value, len(l.Lines))
	m.dirty = make([]bool, len(l.Lines))
	for i, line := range l.Lines {
		v, err := jsonjs.Parse(line)
		if err != nil {
			return nil, false
		}
		m.val[i] = v
	}
	return m, true
}

func (m *mlog) log() Log {
	out := Log{Name: m.name, Lines: make([][]byte, len(m.val))}
	for i := range m.val {
		if m.dirty[i] || m.raw[i] == nil {
			out.Lines[i] = jsonjs.Marshal(m.val[i])
		} else {
			out.Lines[i] = m.raw[i]
		}
	}
	return out
}

func (m *mlog) set(i int, v jsonjs.Value) {
	m.val[i] = v
	m.dirty[i] = true
}

// setAt sets the value at path inside line i.
func (m *mlog) setAt(i int, v jsonjs.Value, path ...any) { m.set(i, setPath(m.val[i], v, path...)) }

// insert puts v before line i.
func (m *mlog) insert(i int, v jsonjs.Value) {
	m.raw = append(m.raw[:i], append([][]byte{nil}, m.raw[i:]...)...)
	m.val = append(m.val[:i], append([]jsonjs.Value{v}, m.val[i:]...)...)
	m.dirty = append(m.dirty[:i], append([]bool{true}, m.dirty[i:]...)...)
}

func (m *mlog) remove(i int) {
	m.raw = append(m.raw[:i:i], m.raw[i+1:]...)
	m.val = append(m.val[:i:i], m.val[i+1:]...)
	m.dirty = append(m.dirty[:i:i], m.dirty[i+1:]...)
}

// move moves line from so that it ends up right before the line now at to
// (to is an index before the move; to may be len).
func (m *mlog) move(from, to int) {
	raw, v, d := m.raw[from], m.val[from], m.dirty[from]
	m.remove(from)
	if to > from {
		to--
	}
	m.insert(to, v)
	m.raw[to], m.dirty[to] = raw, d
}

// ---------------------------------------------------------------------------
// Value surgery (jsonjs values are immutable). A path is a list of object
// keys (string) and array indexes (int).

func getPath(v jsonjs.Value, path ...any) (jsonjs.Value, bool) {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			var ok bool
			if v, ok = v.Get(k); !ok {
				return jsonjs.Value{}, false
			}
		case int:
			items, ok := v.Items()
			if !ok || k < 0 || k >= len(items) {
				return jsonjs.Value{}, false
			}
			v = items[k]
		}
	}
	return v, true
}

func strAt(v jsonjs.Value, path ...any) string {
	x, _ := getPath(v, path...)
	s, _ := x.Str()
	return s
}

func intAt(v jsonjs.Value, path ...any) (int64, bool) {
	x, ok := getPath(v, path...)
	if !ok {
		return 0, false
	}
	f, ok := x.Float()
	return int64(f), ok && x.IsInteger()
}

func boolAt(v jsonjs.Value, path ...any) bool {
	x, _ := getPath(v, path...)
	b, _ := x.Bool()
	return b
}

// setPath returns v with the value at path replaced by nv; a missing last
// object key is appended.
func setPath(v jsonjs.Value, nv jsonjs.Value, path ...any) jsonjs.Value {
	if len(path) == 0 {
		return nv
	}
	switch k := path[0].(type) {
	case string:
		old, ok := v.Get(k)
		if !ok {
			old = jsonjs.ObjectValue() // a missing key is appended
		}
		return v.With(k, setPath(old, nv, path[1:]...))
	case int:
		items, _ := v.Items()
		out := append([]jsonjs.Value(nil), items...)
		out[k] = setPath(out[k], nv, path[1:]...)
		return jsonjs.ArrayValue(out...)
	}
	panic("sessionlog: bad path element")
}

// delPath returns v without the object member at path.
func delPath(v jsonjs.Value, path ...any) jsonjs.Value {
	if len(path) == 1 {
		members, _ := v.Members()
		out := make([]jsonjs.Member, 0, len(members))
		for _, mem := range members {
			if mem.Key != path[0].(string) {
				out = append(out, mem)
			}
		}
		return jsonjs.ObjectValue(out...)
	}
	inner, _ := getPath(v, path[0])
	return setPath(v, delPath(inner, path[1:]...), path[0])
}

// renameKey returns object v with member from renamed to to, in place.
func renameKey(v jsonjs.Value, from, to string) jsonjs.Value {
	members, _ := v.Members()
	out := make([]jsonjs.Member, len(members))
	for i, mem := range members {
		if mem.Key == from {
			mem.Key = to
		}
		out[i] = mem
	}
	return jsonjs.ObjectValue(out...)
}

func intList(xs ...int64) jsonjs.Value {
	vs := make([]jsonjs.Value, len(xs))
	for i, x := range xs {
		vs[i] = jsonjs.NumberValue(float64(x))
	}
	return jsonjs.ArrayValue(vs...)
}

// ---------------------------------------------------------------------------
// Result accessors (current shape, LOG-RES-1)

var (
	pText    = []any{"data", "message", "content", 0, "content", 0, "text"}
	pIsError = []any{"data", "message", "content", 0, "isError"}
	pMeta    = []any{"data", "meta"}
	pError   = []any{"data", "error"}
)

func typeOf(v jsonjs.Value) string { return strAt(v, "type") }

func isPacked(v jsonjs.Value) bool { return v.Has("seq0") }

// seqSpan returns the first seq of a line and how many it takes.
func seqSpan(v jsonjs.Value) (int64, int64, bool) {
	if isPacked(v) {
		s, ok := intAt(v, "seq0")
		n := int64(0)
		for _, k := range []string{"texts", "args"} {
			if items, ok := getPath(v, "data", k); ok {
				xs, _ := items.Items()
				n = int64(len(xs))
			}
		}
		return s, n, ok
	}
	s, ok := intAt(v, "seq")
	return s, 1, ok
}

// ---------------------------------------------------------------------------
// Index

type callInfo struct {
	id, name string
	line     int
	seq      int64
	result   int // line of the append result, -1 when none
	replace  int // line of a replacement result, -1 when none
	// dispatch lines by sub-call number n (subCallId = id:code:n)
	starts  map[int]int
	settles map[int]int
	lastSub int // highest n with a start
}

func (c *callInfo) isSearch() bool { return c.name == toolGrep || c.name == toolGlob }
func (c *callInfo) isPlain() bool  { return c.name == toolRead || c.name == toolBash }

type index struct {
	calls []*callInfo
	byID  map[string]*callInfo
}

func (m *mlog) index() index {
	ix := index{byID: map[string]*callInfo{}}
	for i, v := range m.val {
		switch typeOf(v) {
		case "tool/call":
			s, _ := intAt(v, "seq")
			c := &callInfo{id: strAt(v, "data", "callId"), name: strAt(v, "data", "name"), line: i, seq: s, result: -1, replace: -1, starts: map[int]int{}, settles: map[int]int{}}
			ix.calls = append(ix.calls, c)
			ix.byID[c.id] = c
		case "tool/result":
			c := ix.byID[strAt(v, "data", "message", "source", "callId")]
			if c == nil {
				continue
			}
			if op, _ := getPath(v, "surfaceOp"); op.Kind() == jsonjs.String {
				if c.result < 0 {
					c.result = i
				}
			} else {
				c.replace = i
			}
		case codemode.EventDispatchStart, codemode.EventDispatchSettle:
			parent := strAt(v, "data", "parentCallId")
			c := ix.byID[parent]
			if c == nil {
				continue
			}
			n, ok := codemode.ParseSubCallID(parent, strAt(v, "data", "subCallId"))
			if !ok {
				continue
			}
			if typeOf(v) == codemode.EventDispatchStart {
				c.starts[n] = i
				c.lastSub = max(c.lastSub, n)
			} else {
				c.settles[n] = i
			}
		}
	}
	return ix
}

// pick returns the first call satisfying ok, trying the predicates in
// order of preference.
func (ix index) pick(prefs ...func(*callInfo) bool) *callInfo {
	for _, ok := range prefs {
		for _, c := range ix.calls {
			if ok(c) {
				return c
			}
		}
	}
	return nil
}

// ---------------------------------------------------------------------------
// Renumbering

// renumber reassigns seqs contiguously from 0 in line order (packed rows
// take len(texts|args)) and maps every reference (sourceEventSeqs,
// surfaceOp start/end) from the old seqs to the new ones. Inserted lines
// carry seq -1 so they map nothing; their references use old seqs.
func (m *mlog) renumber() {
	mp := map[int64]int64{}
	next := int64(0)
	for i, v := range m.val {
		if i == 0 && typeOf(v) == "session" {
			continue
		}
		old, n, ok := seqSpan(v)
		if !ok {
			continue
		}
		if old >= 0 {
			for k := int64(0); k < n; k++ {
				mp[old+k] = next + k
			}
		}
		if old != next {
			key := "seq"
			if isPacked(v) {
				key = "seq0"
			}
			m.setAt(i, jsonjs.NumberValue(float64(next)), key)
		}
		next += n
	}
	remap := func(x jsonjs.Value) (jsonjs.Value, bool) {
		f, ok := x.Float()
		if !ok {
			return x, false
		}
		if to, ok := mp[int64(f)]; ok && to != int64(f) {
			return jsonjs.NumberValue(float64(to)), true
		}
		return x, false
	}
	for i, v := range m.val {
		if refs, ok := getPath(v, "sourceEventSeqs"); ok {
			items, _ := refs.Items()
			out := make([]jsonjs.Value, len(items))
			changed := false
			for k, x := range items {
				var c bool
				out[k], c = remap(x)
				changed = changed || c
			}
			if changed {
				m.setAt(i, jsonjs.ArrayValue(out...), "sourceEventSeqs")
			}
		}
		if op, ok := getPath(m.val[i], "surfaceOp"); ok && op.Kind() == jsonjs.Object {
			for _, k := range []string{"start", "end"} {
				x, _ := op.Get(k)
				if nx, c := remap(x); c {
					m.setAt(i, nx, "surfaceOp", k)
				}
			}
		}
	}
}

// timeBefore returns the time of the event line before i (for inserted
// events: same time, so times never decrease).
func (m *mlog) timeBefore(i int) int64 {
	for j := i - 1; j > 0; j-- {
		if t, ok := intAt(m.val[j], "time"); ok {
			return t
		}
		if t, ok := intAt(m.val[j], "time0"); ok {
			dts, _ := getPath(m.val[j], "data", "dt")
			items, _ := dts.Items()
			for _, d := range items {
				f, _ := d.Float()
				t += int64(f)
			}
			return t
		}
	}
	t, _ := intAt(m.val[0], "createdAt")
	return t
}
