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
// that encoders and renderers need no recursion proportional to depth.
type walker struct {
	stack []frame
	// insertionOrder keeps object members as written instead of in
	// ECMAScript property order.
	insertionOrder bool
}

type frame struct {
	v       Value
	members []Member // objects, in property order
	next    int
}

func (w *walker) walk(root Value, emit func(event)) {
	w.stack = w.stack[:0]
	w.value(root, emit)
	for len(w.stack) > 0 {
		top := &w.stack[len(w.stack)-1]
		depth := len(w.stack)
		var n int
		if top.v.Kind() == Array {
			n = len(top.v.arr())
		} else {
			n = len(top.members)
		}
		if top.next == n {
			v := top.v
			w.stack = w.stack[:len(w.stack)-1]
			emit(event{kind: evClose, v: v, depth: depth - 1})
			continue
		}
		i := top.next
		top.next++
		if i > 0 {
			emit(event{kind: evComma, depth: depth})
		}
		var child Value
		if top.v.Kind() == Array {
			child = top.v.arr()[i]
		} else {
			m := top.members[i]
			emit(event{kind: evKey, key: m.Key, depth: depth})
			child = m.Value
		}
		w.value(child, emit)
	}
}

// value emits a scalar or an empty container, or opens a container.
func (w *walker) value(v Value, emit func(event)) {
	depth := len(w.stack)
	switch {
	case v.Kind() == Array && len(v.arr()) > 0:
		emit(event{kind: evOpen, v: v, depth: depth})
		w.stack = append(w.stack, frame{v: v})
	case v.Kind() == Object && len(v.obj()) > 0:
		emit(event{kind: evOpen, v: v, depth: depth})
		members := v.obj()
		if !w.insertionOrder {
			members = PropertyOrder(members)
		}
		w.stack = append(w.stack, frame{v: v, members: members})
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
	return dst
}
