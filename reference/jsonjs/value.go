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
//
// Speed (issue 10): Value's doc says why it is 32 bytes. Parse collects a
// container's elements on scratch stacks and moves them, on close, into
// blocks presized from the text's punctuation (one ':' per member, one
// node per '{' or '['), so a typical text makes one block of each kind.
// Only sizes are guessed: a wrong guess costs a block or some memory,
// never a different value, and dedupe's filter only skips key comparisons
// that cannot match. Lazy reads logs without trees: one scan records a
// tape of value spans, and it decodes only what its caller asks for.
package jsonjs

import (
	"math"
	"unsafe"
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
//
// Speed: a Value is 32 bytes (n, s and one pointer), small enough for the
// compiler to keep in registers, because every parsed byte allocates,
// clears and copies in proportion to it. A boolean is held in n, and the
// kind in the node c points to: a shared one per kind for scalars and
// empty containers, one of its own (carved by Parse from blocks, as the
// elements are) for a container with elements. The zero Value is null.
type Value struct {
	n float64 // a number; a boolean as 1 (true) or 0
	s string  // a string's WTF-8, or a parsed number's lexeme
	c *node   // the kind and a container's elements; nil for null
}

// node holds a value's kind and a container's elements: n of them from
// elems, Values for an array, Members for an object. Nodes are never
// written once made. A node is 24 bytes, not the 56 of a kind and two
// slices, because a deeply nested value (issue 23) holds one per level:
// [[[…]]] costs 56 bytes a level, a node and the element that holds the
// next one. So reflect.DeepEqual sees two containers as equal only when
// they share their elements: compare Values with Equal, or their bytes.
type node struct {
	kind  Kind
	deep  bool // a tape's node (deep.go): elems is the *deepTape, n is 0
	n     int
	elems unsafe.Pointer // *Value or *Member: the first element; nil when n is 0
}

// arrayNode is the node of an array of items (len > 0).
func arrayNode(items []Value) node {
	return node{kind: Array, n: len(items), elems: unsafe.Pointer(unsafe.SliceData(items))}
}

// objectNode is the node of an object of members (len > 0).
func objectNode(members []Member) node {
	return node{kind: Object, n: len(members), elems: unsafe.Pointer(unsafe.SliceData(members))}
}

// arr is an array node's elements (nil for other kinds).
func (c *node) arr() []Value {
	if c.kind != Array {
		return nil
	}
	return unsafe.Slice((*Value)(c.elems), c.n)
}

// obj is an object node's members (nil for other kinds).
func (c *node) obj() []Member {
	if c.kind != Object {
		return nil
	}
	return unsafe.Slice((*Member)(c.elems), c.n)
}

// size is the number of elements of a container node.
func (c *node) size() int { return c.n }

// kinds are the shared nodes of scalars and empty containers.
var kinds = [...]node{Null: {kind: Null}, Bool: {kind: Bool}, Number: {kind: Number},
	String: {kind: String}, Array: {kind: Array}, Object: {kind: Object}}

// arr is an array's elements (nil for other kinds and the empty array).
func (v Value) arr() []Value {
	if v.c == nil || v.c.deep {
		return v.deepArr()
	}
	return v.c.arr()
}

// obj is an object's members (nil for other kinds and the empty object).
func (v Value) obj() []Member {
	if v.c == nil || v.c.deep {
		return v.deepObj()
	}
	return v.c.obj()
}

// Member is one object member.
type Member struct {
	Key   string
	Value Value
}

// NullValue returns JSON null.
func NullValue() Value { return Value{} }

// BoolValue returns a JSON boolean.
func BoolValue(b bool) Value {
	if b {
		return Value{n: 1, c: &kinds[Bool]}
	}
	return Value{c: &kinds[Bool]}
}

// NumberValue returns a JSON number. NaN and ±Inf are allowed, as in
// JavaScript (JSON.parse("1e400") is Infinity); they serialize as null.
func NumberValue(f float64) Value { return Value{n: f, c: &kinds[Number]} }

// IntValue returns a JSON number holding i.
func IntValue(i int) Value { return Value{n: float64(i), c: &kinds[Number]} }

// StringValue returns a JSON string; s is WTF-8.
func StringValue(s string) Value { return Value{s: s, c: &kinds[String]} }

// ArrayValue returns a JSON array. A nil slice is the empty array.
func ArrayValue(items ...Value) Value {
	if len(items) == 0 {
		return Value{c: &kinds[Array]}
	}
	n := arrayNode(items)
	return Value{c: &n}
}

// ObjectValue returns a JSON object. Duplicate keys are resolved as JSON.parse
// does (CODE-KEYS-2): first position, last value.
func ObjectValue(members ...Member) Value {
	return objectOf(dedupe(members))
}

// objectOf is the object of members, which hold no duplicate key.
func objectOf(members []Member) Value {
	if len(members) == 0 {
		return Value{c: &kinds[Object]}
	}
	n := objectNode(members)
	return Value{c: &n}
}

// Kind reports the JSON type.
func (v Value) Kind() Kind {
	if v.c == nil {
		return Null
	}
	return v.c.kind
}

// IsNull reports whether v is null.
func (v Value) IsNull() bool { return v.Kind() == Null }

// Bool returns the boolean; ok is false for other kinds.
func (v Value) Bool() (b, ok bool) { return v.Kind() == Bool && v.n != 0, v.Kind() == Bool }

// Float returns the number; ok is false for other kinds.
func (v Value) Float() (f float64, ok bool) {
	if v.Kind() != Number {
		return 0, false // n holds a boolean
	}
	return v.n, true
}

// Str returns the string (WTF-8); ok is false for other kinds.
func (v Value) Str() (s string, ok bool) {
	if v.Kind() != String {
		return "", false // s holds a number's lexeme
	}
	return v.s, true
}

// Lexeme returns the source text of a number read by Parse ("1e2", "-0",
// "9007199254740993"), for callers that must see more than the double;
// ok is false for other kinds and for numbers built with NumberValue.
func (v Value) Lexeme() (lex string, ok bool) {
	return v.s, v.Kind() == Number && v.s != ""
}

// Items returns the array elements; ok is false for other kinds. The slice
// is shared: callers must not modify it.
func (v Value) Items() (items []Value, ok bool) { return v.arr(), v.Kind() == Array }

// Members returns the object members in insertion order; ok is false for
// other kinds. The slice is shared: callers must not modify it.
func (v Value) Members() (members []Member, ok bool) { return v.obj(), v.Kind() == Object }

// Get returns the member named key of an object.
func (v Value) Get(key string) (Value, bool) {
	if v.Kind() != Object {
		return Value{}, false
	} else if v.isDeep() {
		return v.c.tape().get(v.at(), key)
	}
	members := v.obj()
	for i := range members {
		if members[i].Key == key {
			return members[i].Value, true
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
	return v.Kind() == Number && !math.IsInf(v.n, 0) && v.n == math.Trunc(v.n)
}

// Equal reports JSON equality: same kinds, numbers equal as float64 (so 1 and
// 1.0 are equal, as are 0 and -0), strings byte-equal, arrays element-wise,
// objects with the same key set and equal values regardless of member order.
// It stops at the first difference and builds no path.
func Equal(a, b Value) bool {
	d := differ{} // max is read only when collecting: report stops Equal at the first difference
	d.run(a, b)
	return !d.found
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
// own path. An object's missing members are reported before the
// differences inside its members.
func Differences(a, b Value, max int) []Difference {
	d := differ{max: max, collect: true}
	d.run(a, b)
	return d.out
}

// differ walks two values in step, depth first, with an explicit stack of
// the containers open on both sides: 24 bytes a level and no allocation
// per value (issue 23), since a path is read off the stack only for a
// difference it reports.
type differ struct {
	stack   stack[diffFrame]
	max     int
	collect bool // keep the differences (Differences), or only whether there is one (Equal)
	found   bool
	out     []Difference
}

// diffFrame is a container open on both sides (same kind and size); next
// is the element after the one being compared.
type diffFrame struct {
	a, b   *node
	ja, jb int32 // a deep side's position (deep.go)
	next   int
}

func (d *differ) run(a, b Value) {
	if d.visit(a, b) {
		return
	}
	for d.stack.len() > 0 {
		top := d.stack.peek()
		if top.a.deep || top.b.deep {
			if d.stepDeep(top) {
				return
			}
			continue
		}
		var av, bv Value
		switch a := top.a; {
		case a.kind == Array && top.next < a.n:
			av, bv = a.arr()[top.next], top.b.arr()[top.next]
		case a.kind == Object && top.next < a.n:
			m := a.obj()[top.next]
			var ok bool
			if bv, ok = member(top.b.obj(), m.Key, top.next); !ok {
				top.next++ // reported missing when the object was visited
				continue
			}
			av = m.Value
		default:
			d.stack.pop()
			continue
		}
		top.next++
		if d.visit(av, bv) {
			return
		}
	}
}

// visit compares a and b at the path of the stack: it reports them when
// they differ shallowly, an object's members missing on either side, and
// opens a frame for their elements. It reports whether to stop.
func (d *differ) visit(a, b Value) bool {
	if !shallowEqual(a, b) {
		return d.report(nil, a, b, true, true)
	} else if a.isDeep() || b.isDeep() {
		return d.visitDeep(a, b)
	}
	switch a.Kind() {
	case Array:
		if len(a.arr()) > 0 {
			d.stack.push(diffFrame{a: a.c, b: b.c})
		}
	case Object:
		as, bs := a.obj(), b.obj()
		if len(as) == 0 {
			return false
		}
		for i, m := range as {
			if _, ok := member(bs, m.Key, i); !ok {
				if d.report(&m.Key, m.Value, Value{}, true, false) {
					return true
				}
			}
		}
		for i, m := range bs {
			if _, ok := member(as, m.Key, i); !ok {
				if d.report(&m.Key, Value{}, m.Value, false, true) {
					return true
				}
			}
		}
		d.stack.push(diffFrame{a: a.c, b: b.c})
	}
	return false
}

// member is the value of the member named key, looked up at index hint
// first: objects that agree mostly list their keys in the same order.
func member(ms []Member, key string, hint int) (Value, bool) {
	if hint < len(ms) && ms[hint].Key == key {
		return ms[hint].Value, true
	}
	for i := range ms {
		if ms[i].Key == key {
			return ms[i].Value, true
		}
	}
	return Value{}, false
}

// report records a difference at the stack's path, one member key further
// when key is not nil, and reports whether to stop.
func (d *differ) report(key *string, a, b Value, inA, inB bool) bool {
	d.found = true
	if !d.collect {
		return true
	}
	d.out = append(d.out, Difference{Path: d.path(key), A: a, B: b, InA: inA, InB: inB})
	return d.max > 0 && len(d.out) >= d.max
}

// path is the JSON path of the value being compared: a step for each open
// frame (the element before its next), then key.
func (d *differ) path(key *string) string {
	n := 1 // measured first, so that a deep path is built in one allocation
	d.stack.each(func(f *diffFrame) {
		if f.a.kind == Array {
			n += digits(f.next-1) + 2
		} else {
			n += keyStepSize(f.keyA())
		}
	})
	if key != nil {
		n += keyStepSize(*key)
	}
	path := append(make([]byte, 0, n), '$')
	d.stack.each(func(f *diffFrame) {
		i := f.next - 1
		if f.a.kind == Array {
			path = append(appendInt(append(path, '['), int64(i)), ']')
		} else {
			path = appendKeyStep(path, f.keyA())
		}
	})
	if key != nil {
		path = appendKeyStep(path, *key)
	}
	return unsafe.String(unsafe.SliceData(path), len(path)) // path is not written again
}

// digits is the number of decimal digits of i >= 0.
func digits(i int) int {
	n := 1
	for ; i >= 10; i /= 10 {
		n++
	}
	return n
}

// keyStepSize is the length appendKeyStep appends.
func keyStepSize(key string) int {
	if isIdentifier(key) {
		return 1 + len(key)
	}
	return StringSize(key) + 2
}

// appendKeyStep appends a member step: .name for an identifier, else
// ["name"].
func appendKeyStep(path []byte, key string) []byte {
	if isIdentifier(key) {
		return append(append(path, '.'), key...)
	}
	return append(AppendString(append(path, '['), key), ']')
}

// pathNode is one step of a Field's JSON path; nil is the root "$".
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
		if s := steps[i]; s.isKey {
			path = appendKeyStep(path, s.key)
		} else {
			path = append(appendInt(append(path, '['), int64(s.index)), ']')
		}
	}
	return string(path)
}

// shallowEqual compares kinds and scalar payloads, and container lengths.
func shallowEqual(a, b Value) bool {
	if a.Kind() != b.Kind() {
		return false
	}
	switch a.Kind() {
	case Bool:
		return a.n == b.n
	case Number:
		return a.n == b.n || (math.IsNaN(a.n) && math.IsNaN(b.n))
	case String:
		return a.s == b.s
	case Array:
		return a.len() == b.len()
	case Object:
		return a.len() == b.len()
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
	if len(members) <= 16 && !hasDuplicateKey(members) {
		return members
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

// hasDuplicateKey is dedupe's check for a few members: a key is compared
// with the earlier ones only when a 64-bit filter of their signatures says
// it may repeat one, so distinct keys cost one step each.
func hasDuplicateKey(members []Member) bool {
	var seen uint64
	for i, m := range members {
		bit := uint64(1) << (keySignature(m.Key) & 63)
		if seen&bit != 0 {
			for j := range i {
				if members[j].Key == m.Key {
					return true
				}
			}
		}
		seen |= bit
	}
	return false
}

// keySignature mixes a key's length and end bytes: equal keys have equal
// signatures, and most distinct keys of one object do not.
func keySignature(k string) uint {
	if k == "" {
		return 0
	}
	return uint(len(k))*7 + uint(k[0]) + uint(k[len(k)-1])*3
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
		switch top.Kind() {
		case Number:
			if pred(top.n) {
				return true
			}
		case Array:
			stack = append(stack, top.arr()...)
		case Object:
			for _, m := range top.obj() {
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
	out := make([]Member, 0, len(v.obj())+1)
	found := false
	for _, m := range v.obj() {
		if m.Key == key {
			m.Value, found = val, true
		}
		out = append(out, m)
	}
	if !found {
		out = append(out, Member{Key: key, Value: val})
	}
	return objectOf(out)
}
