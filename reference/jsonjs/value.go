// Package jsonjs models JSON the way JavaScript sees it: JSON.parse semantics on
// the way in and JSON.stringify bytes on the way out.
//
// Go's encoding/json differs from JavaScript in ways that change bytes (see
// SEARCH-JSON-2): it escapes <, > and &, always escapes U+2028/U+2029, sorts map
// keys, prints -0 and formats floats with 'g'. Everything byte-sensitive in the
// reference (the meta byte measure, run_code rendering, golden outputs) goes
// through this package instead.
//
// Strings are held as WTF-8: valid UTF-8, except that a lone UTF-16 surrogate
// (which a JS string may contain) is stored as its 3-byte generalized encoding
// (ED A0..BF 80..BF). JSON.stringify escapes such a code unit as \udxxx, and a
// UTF-8 encoder turns it into U+FFFD; ToUTF8 does the latter.
package jsonjs

import (
	"math"
)

// Kind is the JSON type of a Value.
type Kind uint8

// The JSON kinds. The zero Value is null.
const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

func (k Kind) String() string {
	switch k {
	case Null:
		return "null"
	case Bool:
		return "boolean"
	case Number:
		return "number"
	case String:
		return "string"
	case Array:
		return "array"
	case Object:
		return "object"
	}
	return "invalid"
}

// Value is an immutable JSON value. Objects keep their members in insertion
// order; the encoder emits them in ECMAScript own-property order (CODE-KEYS-1).
type Value struct {
	kind Kind
	b    bool
	n    float64
	s    string
	arr  []Value
	obj  []Member
}

// Member is one object member.
type Member struct {
	Key   string
	Value Value
}

// NullValue returns JSON null.
func NullValue() Value { return Value{} }

// BoolValue returns a JSON boolean.
func BoolValue(b bool) Value { return Value{kind: Bool, b: b} }

// NumberValue returns a JSON number. NaN and ±Inf are allowed, as in
// JavaScript (JSON.parse("1e400") is Infinity); they serialize as null.
func NumberValue(f float64) Value { return Value{kind: Number, n: f} }

// IntValue returns a JSON number holding i.
func IntValue(i int) Value { return Value{kind: Number, n: float64(i)} }

// StringValue returns a JSON string; s is WTF-8.
func StringValue(s string) Value { return Value{kind: String, s: s} }

// ArrayValue returns a JSON array. A nil slice is the empty array.
func ArrayValue(items ...Value) Value { return Value{kind: Array, arr: items} }

// ObjectValue returns a JSON object. Duplicate keys are resolved as JSON.parse
// does (CODE-KEYS-2): first position, last value.
func ObjectValue(members ...Member) Value {
	return Value{kind: Object, obj: dedupe(members)}
}

// Kind reports the JSON type.
func (v Value) Kind() Kind { return v.kind }

// IsNull reports whether v is null.
func (v Value) IsNull() bool { return v.kind == Null }

// Bool returns the boolean; ok is false for other kinds.
func (v Value) Bool() (b, ok bool) { return v.b, v.kind == Bool }

// Float returns the number; ok is false for other kinds.
func (v Value) Float() (f float64, ok bool) { return v.n, v.kind == Number }

// Str returns the string (WTF-8); ok is false for other kinds.
func (v Value) Str() (s string, ok bool) { return v.s, v.kind == String }

// Items returns the array elements; ok is false for other kinds. The slice
// is shared: callers must not modify it.
func (v Value) Items() (items []Value, ok bool) { return v.arr, v.kind == Array }

// Members returns the object members in insertion order; ok is false for
// other kinds. The slice is shared: callers must not modify it.
func (v Value) Members() (members []Member, ok bool) { return v.obj, v.kind == Object }

// Get returns the member named key of an object.
func (v Value) Get(key string) (Value, bool) {
	if v.kind != Object {
		return Value{}, false
	}
	for i := range v.obj {
		if v.obj[i].Key == key {
			return v.obj[i].Value, true
		}
	}
	return Value{}, false
}

// Has reports whether v is an object with a member named key.
func (v Value) Has(key string) bool {
	_, ok := v.Get(key)
	return ok
}

// IsInteger reports whether v is a finite number with no fractional part.
func (v Value) IsInteger() bool {
	return v.kind == Number && !math.IsInf(v.n, 0) && v.n == math.Trunc(v.n)
}

// Equal reports JSON equality: same kinds, numbers equal as float64 (so 1 and
// 1.0 are equal, as are 0 and -0), strings byte-equal, arrays element-wise,
// objects with the same key set and equal values regardless of member order.
func Equal(a, b Value) bool {
	return FirstDifference(a, b) == ""
}

// FirstDifference returns "" when a and b are JSON-equal, else the JSON
// path of the first difference in document order ("$" for the root,
// "$.files[2].path", `$["a b"]`).
func FirstDifference(a, b Value) string {
	diffs := Differences(a, b, 1)
	if len(diffs) == 0 {
		return ""
	}
	return diffs[0].Path
}

// Difference is one place where two values differ: its JSON path and the
// value on each side. A side without a member there has InA or InB false
// (and a zero Value).
type Difference struct {
	Path     string
	A, B     Value
	InA, InB bool
}

// Differences returns up to max places where a and b differ (max <= 0
// means all), in document order of a. Members missing on either side are
// reported at the member's path; containers of different sizes at their
// own path.
func Differences(a, b Value, max int) []Difference {
	var out []Difference
	// Paths are built only for reported differences: formatting every
	// visited path would cost O(depth²) on deeply nested values.
	type pair struct {
		a, b Value
		path *pathNode
	}
	report := func(p *pathNode, av, bv Value, inA, inB bool) bool {
		out = append(out, Difference{Path: p.String(), A: av, B: bv, InA: inA, InB: inB})
		return max > 0 && len(out) >= max
	}
	stack := []pair{{a, b, nil}}
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if !shallowEqual(p.a, p.b) {
			if report(p.path, p.a, p.b, true, true) {
				return out
			}
			continue
		}
		switch p.a.kind {
		case Array:
			for i := len(p.a.arr) - 1; i >= 0; i-- {
				stack = append(stack, pair{p.a.arr[i], p.b.arr[i], &pathNode{parent: p.path, index: i}})
			}
		case Object:
			var next []pair
			for _, m := range p.a.obj {
				bv, ok := p.b.Get(m.Key)
				member := &pathNode{parent: p.path, key: m.Key, isKey: true}
				if !ok {
					if report(member, m.Value, Value{}, true, false) {
						return out
					}
					continue
				}
				next = append(next, pair{m.Value, bv, member})
			}
			for _, m := range p.b.obj {
				if !p.a.Has(m.Key) {
					if report(&pathNode{parent: p.path, key: m.Key, isKey: true}, Value{}, m.Value, false, true) {
						return out
					}
				}
			}
			for i := len(next) - 1; i >= 0; i-- {
				stack = append(stack, next[i])
			}
		}
	}
	return out
}

// pathNode is one step of a JSON path; nil is the root "$".
type pathNode struct {
	parent *pathNode
	index  int
	key    string
	isKey  bool
}

func (n *pathNode) String() string {
	var steps []*pathNode
	for ; n != nil; n = n.parent {
		steps = append(steps, n)
	}
	path := []byte{'$'}
	for i := len(steps) - 1; i >= 0; i-- {
		switch s := steps[i]; {
		case !s.isKey:
			path = append(appendInt(append(path, '['), int64(s.index)), ']')
		case isIdentifier(s.key):
			path = append(append(path, '.'), s.key...)
		default:
			path = append(AppendString(append(path, '['), s.key), ']')
		}
	}
	return string(path)
}

// shallowEqual compares kinds and scalar payloads, and container lengths.
func shallowEqual(a, b Value) bool {
	if a.kind != b.kind {
		return false
	}
	switch a.kind {
	case Bool:
		return a.b == b.b
	case Number:
		return a.n == b.n || (math.IsNaN(a.n) && math.IsNaN(b.n))
	case String:
		return a.s == b.s
	case Array:
		return len(a.arr) == len(b.arr)
	case Object:
		return len(a.obj) == len(b.obj)
	}
	return true
}

func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' || c == '$' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (i > 0 && c >= '0' && c <= '9') {
			continue
		}
		return false
	}
	return true
}

func appendInt(dst []byte, i int64) []byte {
	if i < 0 {
		dst = append(dst, '-')
		i = -i
	}
	var buf [20]byte
	n := len(buf)
	for {
		n--
		buf[n] = byte('0' + i%10)
		i /= 10
		if i == 0 {
			break
		}
	}
	return append(dst, buf[n:]...)
}

// dedupe applies JSON.parse's duplicate-key rule: a repeated key keeps the
// position of its first occurrence and the value of its last.
func dedupe(members []Member) []Member {
	if len(members) < 2 {
		return members
	}
	if len(members) <= 16 {
		dup := false
		for i := 1; i < len(members) && !dup; i++ {
			for j := 0; j < i; j++ {
				if members[i].Key == members[j].Key {
					dup = true
					break
				}
			}
		}
		if !dup {
			return members
		}
	}
	index := make(map[string]int, len(members))
	out := make([]Member, 0, len(members))
	for _, m := range members {
		if at, seen := index[m.Key]; seen {
			out[at].Value = m.Value
			continue
		}
		index[m.Key] = len(out)
		out = append(out, m)
	}
	return out
}

// Optional is a JSON member that may be absent, as distinct from present
// and null (a presenter treats absent arguments and null arguments
// differently). Tag fields `json:",omitzero"` so that absent stays absent.
type Optional struct {
	Value   Value
	Present bool
}

// Some returns a present Optional.
func Some(v Value) Optional { return Optional{Value: v, Present: true} }

// IsZero reports absence, for the omitzero tag.
func (o Optional) IsZero() bool { return !o.Present }

// MarshalJSON writes the value (null when absent).
func (o Optional) MarshalJSON() ([]byte, error) { return Marshal(o.Value), nil }

// UnmarshalJSON marks the member present; encoding/json calls it for null
// too, so null is present.
func (o *Optional) UnmarshalJSON(data []byte) error {
	v, err := Parse(data)
	if err != nil {
		return err
	}
	*o = Optional{Value: v, Present: true}
	return nil
}

// Ptr returns a pointer to the value, or nil when absent.
func (o Optional) Ptr() *Value {
	if !o.Present {
		return nil
	}
	v := o.Value
	return &v
}

// AnyNumber reports whether some number inside v satisfies pred. It walks
// with an explicit stack, so any depth is fine.
func AnyNumber(v Value, pred func(float64) bool) bool {
	stack := []Value{v}
	for len(stack) > 0 {
		top := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch top.kind {
		case Number:
			if pred(top.n) {
				return true
			}
		case Array:
			stack = append(stack, top.arr...)
		case Object:
			for _, m := range top.obj {
				stack = append(stack, m.Value)
			}
		}
	}
	return false
}

// With returns a copy of object v whose member key holds val: in place when
// the key exists, appended otherwise (Values are immutable, so generators,
// mutators and tests that edit a value build a new one). A v that is not an
// object is treated as the empty object.
func (v Value) With(key string, val Value) Value {
	out := make([]Member, 0, len(v.obj)+1)
	found := false
	for _, m := range v.obj {
		if m.Key == key {
			m.Value, found = val, true
		}
		out = append(out, m)
	}
	if !found {
		out = append(out, Member{Key: key, Value: val})
	}
	return Value{kind: Object, obj: out}
}
