package jsonjs

import (
	"bytes"
	"unicode/utf8"
)

// Lazy is the validating, allocation-light mode for streams of JSON texts
// such as session logs: Scan accepts exactly the texts Parse accepts
// (both use lex.go), records the members of a root object and where every
// container ends, and then Members, Items and the Raw accessors decode only
// what a caller asks for. A Lazy is reused from text to text.
//
// Safety by construction: a Raw is a []byte view of the scanned text, and
// every string a Raw yields (Str, Value) is a copy, so nothing that looks
// immutable aliases a buffer the caller reuses for the next text.
type Lazy struct {
	text    []byte
	badUTF8 bool
	stack   []byte // open containers, '{' or '['
	top     []RawMember
	starts  []int    // offset of every non-empty container, in text order
	ends    []int    // its end, parallel to starts
	open    []int    // indexes into starts of the containers being scanned
	tree    parser   // scratch stacks of Value
	members []Member // the blocks Tree carves containers from
	items   []Value
}

// Raw is one complete JSON value inside a scanned text, without
// surrounding whitespace.
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

// Scan reports whether b is one JSON text, as Parse would (invalid UTF-8
// inside strings aside: see UTF8). b must not change while its Raws are
// used.
func (l *Lazy) Scan(b []byte) bool {
	// An accepted text has non-ASCII bytes only inside its strings.
	l.text, l.badUTF8 = b, !utf8.Valid(b)
	l.stack, l.top, l.open = trim(l.stack), trim(l.top), trim(l.open)
	l.starts, l.ends = trim(l.starts), trim(l.ends)
	n := len(b)
	i := skipWS(b, 0)
	var key []byte
	valStart := 0
	const (
		stValue = iota
		stKey
		stAfter
	)
	state := stValue
	for {
		switch state {
		case stValue:
			if i >= n {
				return false
			}
			if len(l.stack) == 1 && l.stack[0] == '{' {
				valStart = i
			}
			switch c := b[i]; {
			case c == '{' || c == '[':
				start := i
				i = skipWS(b, i+1)
				if i < n && b[i] == c+2 { // '}' is '{'+2, ']' is '['+2
					i++
					state = stAfter
					break
				}
				l.stack = append(l.stack, c)
				l.open = append(l.open, len(l.starts))
				l.starts = append(l.starts, start)
				l.ends = append(l.ends, -1)
				state = stValue
				if c == '{' {
					state = stKey
				}
			case c == '"':
				if i = l.str(b, i); i < 0 {
					return false
				}
				state = stAfter
			case c == '-' || (c >= '0' && c <= '9'):
				if i = scanNumber(b, i); i < 0 {
					return false
				}
				state = stAfter
			case c == 't' && bytes.HasPrefix(b[i:], []byte("true")):
				i, state = i+4, stAfter
			case c == 'f' && bytes.HasPrefix(b[i:], []byte("false")):
				i, state = i+5, stAfter
			case c == 'n' && bytes.HasPrefix(b[i:], []byte("null")):
				i, state = i+4, stAfter
			default:
				return false
			}
		case stKey:
			if i >= n || b[i] != '"' {
				return false
			}
			ks := i
			if i = l.str(b, i); i < 0 {
				return false
			}
			if len(l.stack) == 1 {
				key = decodeKey(b[ks:i])
			}
			i = skipWS(b, i)
			if i >= n || b[i] != ':' {
				return false
			}
			i = skipWS(b, i+1)
			state = stValue
		case stAfter:
			if len(l.stack) == 1 && l.stack[0] == '{' {
				l.top = append(l.top, RawMember{Key: key, Value: Raw(b[valStart:i])})
			}
			i = skipWS(b, i)
			if len(l.stack) == 0 {
				return i == n
			}
			if i >= n {
				return false
			}
			top := l.stack[len(l.stack)-1]
			switch c := b[i]; {
			case c == ',':
				i = skipWS(b, i+1)
				state = stValue
				if top == '{' {
					state = stKey
				}
			case c == top+2:
				i++
				l.stack = l.stack[:len(l.stack)-1]
				l.ends[l.open[len(l.open)-1]] = i
				l.open = l.open[:len(l.open)-1]
			default:
				return false
			}
		}
	}
}

// str scans a string.
func (l *Lazy) str(b []byte, i int) int {
	end, _ := scanString(b, i)
	return end
}

// UTF8 reports, after Scan accepted a text, whether it is valid UTF-8 (a
// text Parse accepts, not one only ParseReplacing does).
func (l *Lazy) UTF8() bool { return !l.badUTF8 }

// Root is the value of the text Scan accepted.
func (l *Lazy) Root() Raw {
	b := l.text
	end := len(b)
	for end > 0 && isSpace(b[end-1]) {
		end--
	}
	return Raw(b[skipWS(b, 0):end])
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

// end returns the index after the container that starts at r[i], from the
// container table, or -1 when r is not part of the scanned text.
func (l *Lazy) end(r Raw, i int) int {
	base := cap(l.text) - cap(r) // r == l.text[base:…] when r is part of the text
	if base < 0 || base+i >= len(l.text) || &l.text[base+i] != &r[i] {
		return -1
	}
	off := base + i
	lo, hi := 0, len(l.starts)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if l.starts[m] < off {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(l.starts) && l.starts[lo] == off {
		return l.ends[lo] - base
	}
	return -1
}

// skip returns the end of the valid value starting at r[i].
func (l *Lazy) skip(r Raw, i int) int {
	switch r[i] {
	case '"':
		return skipString(r, i)
	case '{', '[':
		if e := l.end(r, i); e >= 0 {
			return e
		}
		return RawSkipValue(r, i)
	case 't', 'n':
		return i + 4
	case 'f':
		return i + 5
	}
	return scanNumber(r, i)
}

// Members appends the members of an object to dst in text order
// (duplicates included); it appends nothing for other kinds.
func (l *Lazy) Members(dst []RawMember, r Raw) []RawMember {
	if r.Kind() != Object {
		return dst
	}
	i := skipWS(r, 1)
	for i < len(r) && r[i] == '"' {
		ke := l.skip(r, i)
		key := decodeKey(r[i:ke])
		i = skipWS(r, skipWS(r, ke)+1) // ':'
		ve := l.skip(r, i)
		dst = append(dst, RawMember{Key: key, Value: r[i:ve]})
		if i = skipWS(r, ve); i < len(r) && r[i] == ',' {
			i = skipWS(r, i+1)
			continue
		}
		break
	}
	return dst
}

// Items appends the elements of an array to dst; nothing for other kinds.
func (l *Lazy) Items(dst []Raw, r Raw) []Raw {
	if r.Kind() != Array {
		return dst
	}
	i := skipWS(r, 1)
	for i < len(r) && r[i] != ']' {
		ve := l.skip(r, i)
		dst = append(dst, r[i:ve])
		if i = skipWS(r, ve); i < len(r) && r[i] == ',' {
			i = skipWS(r, i+1)
			continue
		}
		break
	}
	return dst
}

// decodeKey returns the content of a quoted key: a view without escapes,
// a fresh decoding with them.
func decodeKey(q []byte) []byte {
	body := q[1 : len(q)-1]
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
	if bytes.IndexByte(body, '\\') < 0 {
		return string(body), true
	}
	return unescape(body), true
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
	if string(body) == lit {
		return true
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
