package jsonjs

import (
	"math"
	"sort"
)

// Marshal returns the compact JSON.stringify serialization of v.
func Marshal(v Value) []byte {
	return Append(nil, v)
}

// Append appends the compact JSON.stringify serialization of v: no
// whitespace, JS string escaping, JS number formatting (non-finite numbers as
// null), and object members in ECMAScript own-property order. It uses an
// explicit stack, so nesting depth is bounded only by memory (CODE-JSON-3).
func Append(dst []byte, v Value) []byte {
	return AppendLayout(dst, v, Layout{})
}

// Size returns len(Marshal(v)) in UTF-8 bytes without building the
// serialization (SEARCH-JSON-1).
func Size(v Value) int {
	n := 0
	w := walker{}
	w.walk(v, func(ev event) {
		switch ev.kind {
		case evScalar:
			n += scalarSize(ev.v)
		case evOpen, evClose, evComma:
			n++
		case evKey:
			n += StringSize(ev.key) + 1
		}
	})
	return n
}

func appendScalar(dst []byte, v Value) []byte {
	switch v.Kind() {
	case Null:
		return append(dst, "null"...)
	case Bool:
		if v.n != 0 {
			return append(dst, "true"...)
		}
		return append(dst, "false"...)
	case Number:
		if math.IsNaN(v.n) || math.IsInf(v.n, 0) {
			return append(dst, "null"...)
		}
		return AppendNumber(dst, v.n)
	case String:
		return AppendString(dst, v.s)
	case Array:
		return append(dst, "[]"...)
	}
	return append(dst, "{}"...)
}

func scalarSize(v Value) int {
	switch v.Kind() {
	case Null:
		return 4
	case Bool:
		if v.n != 0 {
			return 4
		}
		return 5
	case Number:
		if math.IsNaN(v.n) || math.IsInf(v.n, 0) {
			return 4
		}
		return NumberSize(v.n)
	case String:
		return StringSize(v.s)
	}
	return 2
}

// PropertyOrder returns the members of an object in ECMAScript own-property
// order (CODE-KEYS-1): array-index keys ascending, then the other keys in
// insertion order. The input is returned unchanged when it has no index key.
func PropertyOrder(members []Member) []Member {
	hasIndex := false
	for i := range members {
		if _, ok := ArrayIndex(members[i].Key); ok {
			hasIndex = true
			break
		}
	}
	if !hasIndex {
		return members
	}
	type indexed struct {
		n uint32
		m Member
	}
	var idx []indexed
	rest := make([]Member, 0, len(members))
	for _, m := range members {
		if n, ok := ArrayIndex(m.Key); ok {
			idx = append(idx, indexed{n, m})
		} else {
			rest = append(rest, m)
		}
	}
	sort.Slice(idx, func(i, j int) bool { return idx[i].n < idx[j].n })
	out := make([]Member, 0, len(members))
	for _, e := range idx {
		out = append(out, e.m)
	}
	return append(out, rest...)
}

type eventKind uint8

const (
	evScalar eventKind = iota // a scalar or an empty container
	evOpen                    // a non-empty container starts
	evClose                   // a non-empty container ends
	evComma                   // between two elements
	evKey                     // an object member's key, before its value
)

type event struct {
	kind  eventKind
	v     Value // the scalar or container
	key   string
	depth int // nesting depth of the value (root = 0)
}

// walker turns a Value into a flat event stream with an explicit stack, so
// that encoders and renderers need no recursion proportional to depth. A
// level of the stack is 16 bytes (issue 23: a value nested 10^7 levels
// deep is walked in 160 MB), since a frame holds the container's node,
// not a copy of the Value, and an object whose members must be reordered
// keeps its property order on a side stack, which only such objects use.
type walker struct {
	stack   stack[frame]
	ordered []ordered
	// insertionOrder keeps object members as written instead of in
	// ECMAScript property order.
	insertionOrder bool
	// stop ends the walk after the event being emitted (AppendPrefix).
	stop bool
}

type frame struct {
	c    *node // the open container
	next int   // its next element
}

// ordered is the property order of the object open at stack[level].
type ordered struct {
	level   int
	members []Member
}

// members is the members of the object on top of the stack, at level, in
// the order they are written.
func (w *walker) members(level int) []Member {
	if n := len(w.ordered); n > 0 && w.ordered[n-1].level == level {
		return w.ordered[n-1].members
	}
	return w.stack.peek().c.obj()
}

// walk emits root's events; a walker walks once.
func (w *walker) walk(root Value, emit func(event)) {
	w.value(root, emit)
	for w.stack.len() > 0 && !w.stop {
		depth := w.stack.len()
		level := depth - 1
		top := w.stack.peek()
		c := top.c
		if c.deep {
			w.stepDeep(top, depth, emit)
			continue
		}
		if top.next == c.size() {
			if k := len(w.ordered); k > 0 && w.ordered[k-1].level == level {
				w.ordered = w.ordered[:k-1]
			}
			w.stack.pop()
			emit(event{kind: evClose, v: Value{c: c}, depth: depth - 1})
			continue
		}
		i := top.next
		top.next++
		if i > 0 {
			emit(event{kind: evComma, depth: depth})
		}
		var child Value
		if c.kind == Array {
			child = c.arr()[i]
		} else {
			m := w.members(level)[i]
			emit(event{kind: evKey, key: m.Key, depth: depth})
			child = m.Value
		}
		if !w.stop {
			w.value(child, emit)
		}
	}
}

// value emits a scalar or an empty container, or opens a container.
func (w *walker) value(v Value, emit func(event)) {
	v, opened := w.openDeep(v, emit)
	if opened {
		return
	}
	depth := w.stack.len()
	switch {
	case v.Kind() == Array && len(v.arr()) > 0:
		emit(event{kind: evOpen, v: v, depth: depth})
		w.stack.push(frame{c: v.c})
	case v.Kind() == Object && len(v.obj()) > 0:
		emit(event{kind: evOpen, v: v, depth: depth})
		if members := v.obj(); !w.insertionOrder {
			if po := PropertyOrder(members); &po[0] != &members[0] {
				w.ordered = append(grown(w.ordered), ordered{level: depth, members: po})
			}
		}
		w.stack.push(frame{c: v.c})
	default:
		emit(event{kind: evScalar, v: v, depth: depth})
	}
}

// AppendPretty appends v laid out like JSON.stringify(v, null, indent), except
// that containers nested at depth >= compactFrom (root = 0) are written
// compactly, together with everything inside them. With compactFrom large
// enough the output equals JSON.stringify(v, null, indent). run_code uses
// indent 2 and compactFrom 5, which caps indentation at 10 spaces
// (CODE-JSON-2).
func AppendPretty(dst []byte, v Value, indent, compactFrom int) []byte {
	return AppendLayout(dst, v, Layout{Indent: indent, CompactFrom: compactFrom})
}

// Layout says how AppendLayout writes a value.
type Layout struct {
	Indent      int // spaces per level; 0 is compact
	CompactFrom int // containers at this depth or deeper are compact
	// InsertionOrder writes object members in the order they were parsed or
	// built instead of JavaScript's property order. Case files use it so
	// that a fixture keeps the key order its author wrote (an input whose
	// order matters, such as a run_code result with integer-like keys).
	InsertionOrder bool
}

// AppendLayout appends v in the given layout.
func AppendLayout(dst []byte, v Value, l Layout) []byte {
	out, _ := appendLayout(dst, v, l, nil)
	return out
}

// AppendPrefix appends the first n bytes (fewer when it is shorter) of
// Marshal(v), and reports whether that is all of it. It stops walking v
// once it has them, so an excerpt of a huge or deeply nested value (issue
// 23) costs what it shows, not what the value holds. The cut may fall
// inside a UTF-8 sequence.
//
// Only conform's judge cuts values (excerpts, MaxWholeBytes): the cut is
// here and not in appendLayout, which the adapter links, so that the
// judge's mutation run mutates it (issue 22).
func AppendPrefix(dst []byte, v Value, n int) (out []byte, whole bool) {
	start, n := len(dst), max(n, 0)
	// A byte more may be written after n: then it is not whole.
	out, whole = appendLayout(dst, v, Layout{}, func(b []byte) bool { return len(b)-start >= n })
	if len(out)-start > n {
		return out[:start+n], false
	}
	return out, whole
}

// appendLayout is AppendLayout stopping before an event once full(dst)
// (full nil: never); whole reports whether it wrote all of v.
func appendLayout(dst []byte, v Value, l Layout, full func([]byte) bool) (out []byte, whole bool) {
	indent, compactFrom := l.Indent, l.CompactFrom
	newline := func(depth int) {
		dst = append(dst, '\n')
		for i := 0; i < depth*indent; i++ {
			dst = append(dst, ' ')
		}
	}
	pretty := func(containerDepth int) bool { return indent > 0 && containerDepth < compactFrom }
	w := walker{insertionOrder: l.InsertionOrder}
	w.walk(v, func(ev event) {
		if full != nil && full(dst) {
			w.stop = true
			return
		}
		switch ev.kind {
		case evScalar:
			dst = appendScalar(dst, ev.v)
		case evOpen:
			if ev.v.Kind() == Array {
				dst = append(dst, '[')
			} else {
				dst = append(dst, '{')
			}
			if pretty(ev.depth) {
				newline(ev.depth + 1)
			}
		case evClose:
			if pretty(ev.depth) {
				newline(ev.depth)
			}
			if ev.v.Kind() == Array {
				dst = append(dst, ']')
			} else {
				dst = append(dst, '}')
			}
		case evComma:
			dst = append(dst, ',')
			if pretty(ev.depth - 1) {
				newline(ev.depth)
			}
		case evKey:
			dst = AppendString(dst, ev.key)
			dst = append(dst, ':')
			if pretty(ev.depth - 1) {
				dst = append(dst, ' ')
			}
		}
	})
	return dst, !w.stop
}

// SizeUpTo is Size(v) and true when that is at most n; else a size over
// n and false. It stops walking v once past n, so that measuring a huge
// or deeply nested value against a cap (issue 23) costs the cap, not the
// value.
func SizeUpTo(v Value, n int) (size int, whole bool) {
	w := walker{}
	w.walk(v, func(ev event) {
		switch ev.kind {
		case evScalar:
			size += scalarSize(ev.v)
		case evOpen, evClose, evComma:
			size++
		case evKey:
			size += StringSize(ev.key) + 1
		}
		w.stop = size > n
	})
	return size, size <= n
}
