package jsonjs

import (
	"bytes"
	"slices"
	"unicode/utf8"
)

// Lazy is the validating, allocation-light mode for streams of JSON texts
// such as session logs: Scan accepts exactly the texts Parse accepts (both
// use lex.go; only strings with a non-ASCII byte have their UTF-8 checked,
// as an accepted text has none elsewhere) and records a tape, the span of
// every value with its key; Members, Items and the Raw accessors decode
// only what a caller asks for, stepping along it. A Lazy is reused.
//
// Speed (issue 10, lazyscan.go): Scan's state machine makes no call, so
// the compiler keeps its state in registers; it pauses for a string with
// an escape or a non-ASCII byte, a number other than a plain integer, or
// a tape to grow. It reads a string 8 bytes at a time up to its first
// '"', '\\', control or non-ASCII byte: when that is the closing quote the
// string is ASCII without an escape, valid by construction; anything else
// is read by scanStringFrom with escapeLen, scanString's grammar. Exact
// by construction too: the word tests flag a byte exactly where the byte
// tests would (a borrow or carry starts only at a flagged byte), and a
// paused step is taken again from where it stood.
//
// Safety by construction: a Raw is a []byte view of the scanned text, and
// every string a Raw yields (Str, Value) is a copy, so nothing that looks
// immutable aliases a buffer the caller reuses for the next text.
type Lazy struct {
	text    []byte
	badUTF8 bool
	tape    []span
	top     []RawMember
	tree    parser   // scratch stacks of Value
	members []Member // the blocks Tree carves containers from
	items   []Value
}

// Raw is one complete JSON value of a scanned text, without whitespace.
type Raw []byte

// RawMember is one object member: the key (decoded; a view of the text
// when it has no escape) and the value.
type RawMember struct {
	Key   []byte
	Value Raw
}

// lazyKeep is the scratch capacity a Lazy keeps from one text to the
// next; a larger one, needed by one huge text, is released.
const lazyKeep = 1 << 14

func trim[T any](s []T) []T {
	if cap(s) > lazyKeep {
		return nil
	}
	return s[:0]
}

// span is one value of a scanned text, text[start:end], and for a member
// of an object its key, text[key:keyEnd] (quotes included). next is the
// tape index after the value and everything inside it, so a walk over a
// container's members or items steps from sibling to sibling in O(1);
// while Scan is inside a container, its next holds the container around
// it (so the tape is the stack of open containers too). Scan appends a
// span without zeroing it (see push): every field a walk reads is
// written, key, keyEnd and keyEscaped for an object's members only.
// Positions and indexes are int32 (24 bytes a span, not 48: issue 23), so
// a tape holds a text of at most MaxTapeBytes.
type span struct {
	start, end, next, key, keyEnd int32
	keyEscaped                    bool
	last                          bool // the last element of its container (Parse's tapes only: deep.go)
}

// MaxTapeBytes is the longest text a tape holds: Lazy.Scan refuses a
// longer one, and Parse reads it as a tree. Every position and tape index
// of such a text fits an int32, and so does run's cur, an open
// container's index shifted by one bit (a text has fewer values than
// bytes).
const MaxTapeBytes = 1<<30 - 1

// tapeLimit is MaxTapeBytes, a variable so that tests can refuse a short
// text.
var tapeLimit = MaxTapeBytes

// push returns s one element longer, the new one not zeroed: it keeps
// what a previous text left there, and its fields are written in place
// (an appended literal is built on the stack and copied).
func push[T any](s []T) []T {
	return grown(s)[:len(s)+1]
}

// grown is s with room for one more element: doubled when full, so that
// a stack or tape grown to n elements has allocated about 2n of them,
// where append's growth of large slices (1.25x) would allocate about 5n
// (issue 23: the stacks of a deeply nested value).
func grown[T any](s []T) []T {
	if len(s) < cap(s) {
		return s
	}
	return slices.Grow(s, max(len(s), 8))
}

// Scan reports whether b is one JSON text, as Parse would (invalid UTF-8
// inside strings aside: see UTF8); it refuses a text longer than
// MaxTapeBytes, which callers bound first. b must not change while its
// Raws are used.
func (l *Lazy) Scan(b []byte) bool {
	l.text, l.badUTF8, l.top = b, false, trim(l.top)
	if len(b) > tapeLimit || !l.scan(b) {
		l.tape = l.tape[:0] // nothing of a refused text is navigated
		return false
	}
	if b[l.tape[0].start] == '{' {
		l.top = l.membersAt(l.top, 0)
	}
	return true
}

// UTF8 reports, after Scan accepted a text, whether it is valid UTF-8 (a
// text Parse accepts, not one only ParseReplacing does).
func (l *Lazy) UTF8() bool { return !l.badUTF8 }

// Root is the value of the text Scan accepted.
func (l *Lazy) Root() Raw {
	b := l.text
	start, end := skipWS(b, 0), len(b) // start first: a refused text may be all space
	for end > start && isSpace(b[end-1]) {
		end--
	}
	return Raw(b[start:end])
}

// Top is the members of the root object in text order, duplicates
// included (the last one is JSON.parse's value); nil for other roots.
func (l *Lazy) Top() []RawMember { return l.top }

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func skipWS(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

// inText reports whether r is part of the scanned text.
func (l *Lazy) inText(r Raw) bool {
	base := cap(l.text) - cap(r)
	return len(r) > 0 && base >= 0 && base+len(r) <= len(l.text) && &l.text[base] == &r[0]
}

// find returns the tape index of r, or -1 when r is not one of the
// scanned text's values.
func (l *Lazy) find(r Raw) int {
	if !l.inText(r) {
		return -1
	}
	off, t := int32(cap(l.text)-cap(r)), l.tape // inText: under len(l.text)
	lo, hi := 0, len(t)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if t[m].start < off {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(t) && t[lo].start == off && t[lo].end == off+int32(len(r)) {
		return lo
	}
	return -1
}

// Members appends the members of an object to dst in text order
// (duplicates included); it appends nothing for other kinds.
func (l *Lazy) Members(dst []RawMember, r Raw) []RawMember {
	if r.Kind() != Object {
		return dst
	}
	if k := l.find(r); k >= 0 {
		return l.membersAt(dst, k)
	}
	// Not a value of the scanned text: walk its bytes.
	for i := RawSkipSpace(r, 1); i < len(r) && r[i] == '"'; {
		ke := RawSkipString(r, i)
		key := decodeKey(r[i:ke])
		i = RawSkipSpace(r, RawSkipSpace(r, ke)+1) // past ':'
		e := RawSkipValue(r, i)
		dst = append(dst, RawMember{Key: key, Value: r[i:e]})
		if i = RawSkipSpace(r, e); i >= len(r) || r[i] != ',' {
			break
		}
		i = RawSkipSpace(r, i+1)
	}
	return dst
}

// membersAt appends the members of the object at tape index k.
func (l *Lazy) membersAt(dst []RawMember, k int) []RawMember {
	t, b := l.tape, l.text
	for j, stop := k+1, int(t[k].next); j < stop; j = int(t[j].next) {
		v := &t[j]
		dst = push(dst)
		m := &dst[len(dst)-1]
		m.Key, m.Value = b[v.key+1:v.keyEnd-1:v.keyEnd-1], b[v.start:v.end]
		if v.keyEscaped {
			m.Key = decodeKey(b[v.key:v.keyEnd])
		}
	}
	return dst
}

// Items appends the elements of an array to dst; nothing for other kinds.
func (l *Lazy) Items(dst []Raw, r Raw) []Raw {
	if r.Kind() != Array {
		return dst
	}
	if k := l.find(r); k >= 0 {
		t, b := l.tape, l.text
		for j := k + 1; j < int(t[k].next); j = int(t[j].next) {
			dst = append(dst, b[t[j].start:t[j].end])
		}
		return dst
	}
	// Not a value of the scanned text: walk its bytes.
	for i := RawSkipSpace(r, 1); i < len(r) && r[i] != ']'; {
		e := RawSkipValue(r, i)
		dst = append(dst, r[i:e])
		if i = RawSkipSpace(r, e); i >= len(r) || r[i] != ',' {
			break
		}
		i = RawSkipSpace(r, i+1)
	}
	return dst
}

// decodeKey returns the content of a quoted key: a view without escapes,
// a fresh decoding with them.
func decodeKey(q []byte) []byte {
	body := q[1 : len(q)-1 : len(q)-1]
	if bytes.IndexByte(body, '\\') < 0 {
		return body
	}
	out := make([]byte, len(body))
	return out[:unescapeInto(out, body)]
}

// Kind is the JSON type of the value, by its first byte.
func (r Raw) Kind() Kind {
	if len(r) == 0 {
		return Null
	}
	switch r[0] {
	case '{':
		return Object
	case '[':
		return Array
	case '"':
		return String
	case 't', 'f':
		return Bool
	case 'n':
		return Null
	}
	return Number
}

// Str returns a copy of the decoded string (WTF-8); ok is false for other
// kinds and for a string that is not UTF-8 (see StrReplacing).
func (r Raw) Str() (string, bool) {
	if r.Kind() != String {
		return "", false
	}
	body := r[1 : len(r)-1]
	if !utf8.Valid(body) {
		return "", false
	}
	return decodeBody(body), true
}

// decodeBody returns a copy of a string's body, escapes decoded.
func decodeBody(body []byte) string {
	if bytes.IndexByte(body, '\\') < 0 {
		return string(body)
	}
	return unescape(body)
}

// Str is Raw.Str for a string of the scanned text, without checking its
// UTF-8 again when Scan found the whole text valid: a part of a UTF-8 text
// cut at ASCII bytes (the quotes) is UTF-8.
func (l *Lazy) Str(r Raw) (string, bool) {
	if l.badUTF8 || !l.inText(r) {
		return r.Str()
	}
	if r.Kind() != String {
		return "", false
	}
	return decodeBody(r[1 : len(r)-1]), true
}

// StrReplacing is Str after decoding invalid UTF-8 as WHATWG UTF-8 with
// replacement, as ParseReplacing reads it.
func (r Raw) StrReplacing() (string, bool) {
	if s, ok := r.Str(); ok || r.Kind() != String {
		return s, ok
	}
	v, err := ParseReplacing(r)
	if err != nil {
		return "", false
	}
	return v.Str()
}

// StrIs reports whether r is the JSON string lit, escapes decoded, without
// allocating when r has no escape.
func (r Raw) StrIs(lit string) bool {
	if r.Kind() != String {
		return false
	}
	body := r[1 : len(r)-1]
	// An escape decodes shorter than it is written, so a body of lit's
	// bytes is lit only without one, and only a longer body can decode to lit.
	if len(body) <= len(lit) {
		return string(body) == lit && bytes.IndexByte(body, '\\') < 0
	}
	if bytes.IndexByte(body, '\\') < 0 {
		return false
	}
	s, ok := r.Str()
	return ok && s == lit
}

// Float returns JSON.parse's double for a number.
func (r Raw) Float() (float64, bool) {
	if r.Kind() != Number {
		return 0, false
	}
	return numberValue(r), true
}

// Bool returns the value of true or false.
func (r Raw) Bool() (b, ok bool) {
	switch string(r) {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	return false, false
}

// Value builds the tree of r with Parse (a copy: it may outlive the text);
// null when r is not UTF-8 (see ValueReplacing).
func (r Raw) Value() Value {
	v, err := Parse(r)
	if err != nil {
		return Value{}
	}
	return v
}

// Value is Raw.Value with scratch stacks kept from call to call.
func (l *Lazy) Value(r Raw) Value {
	if (!l.inText(r) || l.badUTF8) && !utf8.Valid(r) {
		return Value{}
	}
	v, err := parseWith(&l.tree, r)
	if err != nil {
		return Value{}
	}
	return v
}

// treeBlock is how many members and items Tree reuses; a larger tree
// allocates the rest as Value does.
const treeBlock = 1 << 10

// Tree is Value for a tree that is used only until the next Tree call:
// its containers are carved from blocks the Lazy keeps, so a stream of
// texts parses without allocating them anew. Its strings are still copies.
func (l *Lazy) Tree(r Raw) Value {
	if l.members == nil {
		l.members, l.items, l.tree.treeNodes = make([]Member, 0, treeBlock), make([]Value, 0, treeBlock), make([]node, 0, treeBlock)
	}
	l.tree.memberBlock, l.tree.itemBlock, l.tree.nodeBlock = l.members, l.items, l.tree.treeNodes
	return l.Value(r)
}

// ValueReplacing is Value with ParseReplacing.
func (r Raw) ValueReplacing() Value {
	v, err := ParseReplacing(r)
	if err != nil {
		return Value{}
	}
	return v
}

// SmallInt returns an integer written with up to 15 digits, maybe after
// '-', as its magnitude and sign (-0 is 0 and neg), without going through
// a double; ok is false for any other number and any other kind, which
// Float reads.
func (r Raw) SmallInt() (mag int64, neg, ok bool) { return smallInt(r) }

// growTape is tape with room for more spans: doubled while it is small;
// once it holds lazyKeep spans, room for every value the rest of the text
// b[i:] can start (issue 23): a text of n values then allocates about n
// spans, not the 2n of doubling (a line nested 10^6 levels deep: 24 MB of
// tape, not 48).
func growTape(tape []span, b []byte, i int) []span {
	if cap(tape) < lazyKeep {
		return grown(tape)
	}
	return slices.Grow(tape, max(valuesIn(b[min(i, len(b)):]), len(tape)/4))
}

// valuesIn bounds the values that start in b: one, and one after each '[',
// ',' or ':' outside strings (every value but a text's first follows one).
func valuesIn(b []byte) int {
	n := 1
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			i = skipString(b, i) - 1
		case '[', ',', ':':
			n++
		}
	}
	return n
}
