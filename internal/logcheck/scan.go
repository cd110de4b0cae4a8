package logcheck

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/bits"
	"strconv"
	"unicode/utf8"
	"unsafe"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// This file is the fast path of the checker: a validating scanner that
// accepts exactly the texts JSON.parse (and jsonjs.Parse) accepts and
// records the members of the top-level object, and a lazy navigator over
// the spans of an already validated text. Only the values a check needs are
// decoded; whole values are built with jsonjs.Parse only where the checks
// need a tree (search meta, dispatch arguments, call arguments). When the
// scanner rejects a line, jsonjs.Parse is run on it for the error message,
// so the two parsers never have to agree on wording.

// raw is one complete JSON value inside a validated text, without
// surrounding whitespace.
type raw []byte

// member is one object member: the key (decoded) and the value span.
type member struct {
	key []byte
	val raw
}

// Character classes for the string loop.
var strStop = func() (t [256]bool) {
	for c := 0; c < 0x20; c++ {
		t[c] = true
	}
	t['"'], t['\\'] = true, true
	return
}()

func isWS(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func skipWS(b []byte, i int) int {
	for i < len(b) && isWS(b[i]) {
		i++
	}
	return i
}

// validator checks JSON.parse syntax. Its stacks are reused across lines.
type validator struct {
	badUTF8 bool // a string of the line is not valid UTF-8 (see utf8OK)
	stack   []byte
	top     []member // members of the root object, in text order
	tape    tape     // where each non-empty container of the line ends
	open    []int    // tape indexes of the containers being scanned
}

// tape records, for every non-empty container of a validated line, where
// it starts and ends, in order of the starts. Skipping a container is then
// a binary search instead of a scan, so nested values are not rescanned at
// every level of navigation.
type tape struct {
	line   []byte
	starts []int
	ends   []int
}

// end returns the index after the container that starts at b[i], where b
// is a sub-slice of the taped line; -1 when it is not on the tape.
func (t *tape) end(b []byte, i int) int {
	if t == nil || len(t.starts) == 0 {
		return -1
	}
	base := cap(t.line) - cap(b) // b == t.line[base:…] when b is part of the line
	if base < 0 || base+i >= len(t.line) || &t.line[base+i] != &b[i] {
		return -1
	}
	off := base + i
	lo, hi := 0, len(t.starts)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if t.starts[m] < off {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(t.starts) && t.starts[lo] == off {
		return t.ends[lo] - base
	}
	return -1
}

// validate reports whether b is one JSON text. When the root is an object,
// v.top holds its members in text order (duplicates included; the last one
// wins, as in JSON.parse).
func (v *validator) validate(b []byte) bool {
	v.badUTF8 = false
	v.stack = v.stack[:0]
	v.top = v.top[:0]
	v.open = v.open[:0]
	v.tape = tape{line: b, starts: v.tape.starts[:0], ends: v.tape.ends[:0]}
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
			if len(v.stack) == 1 && v.stack[0] == '{' {
				valStart = i
			}
			switch c := b[i]; {
			case c == '{' || c == '[':
				start := i
				i = skipWS(b, i+1)
				if i < n && b[i] == closer(c) {
					i++
					state = stAfter
					break
				}
				v.stack = append(v.stack, c)
				v.push(start)
				if c == '{' {
					state = stKey
				} else {
					state = stValue
				}
			case c == '"':
				if i = v.scanString(b, i); i < 0 {
					return false
				}
				state = stAfter
			case c == '-' || (c >= '0' && c <= '9'):
				if i = scanNumber(b, i); i < 0 {
					return false
				}
				state = stAfter
			case c == 't':
				if i = scanLit(b, i, "true"); i < 0 {
					return false
				}
				state = stAfter
			case c == 'f':
				if i = scanLit(b, i, "false"); i < 0 {
					return false
				}
				state = stAfter
			case c == 'n':
				if i = scanLit(b, i, "null"); i < 0 {
					return false
				}
				state = stAfter
			default:
				return false
			}
		case stKey:
			if i >= n || b[i] != '"' {
				return false
			}
			ks := i
			if i = v.scanString(b, i); i < 0 {
				return false
			}
			if len(v.stack) == 1 {
				key = decodeKey(b[ks:i])
			}
			i = skipWS(b, i)
			if i >= n || b[i] != ':' {
				return false
			}
			i = skipWS(b, i+1)
			state = stValue
		case stAfter:
			// A value just ended at i.
			if len(v.stack) == 1 && v.stack[0] == '{' {
				v.top = append(v.top, member{key: key, val: raw(b[valStart:i])})
			}
			i = skipWS(b, i)
			if len(v.stack) == 0 {
				return i == n
			}
			if i >= n {
				return false
			}
			top := v.stack[len(v.stack)-1]
			switch c := b[i]; {
			case c == ',':
				i = skipWS(b, i+1)
				if top == '{' {
					state = stKey
				} else {
					state = stValue
				}
			case c == '}' && top == '{', c == ']' && top == '[':
				i++
				v.stack = v.stack[:len(v.stack)-1]
				v.tape.ends[v.open[len(v.open)-1]] = i
				v.open = v.open[:len(v.open)-1]
				// state stays stAfter: the container is the value that ended.
			default:
				return false
			}
		}
	}
}

// utf8OK reports, after validate accepted a text, whether the text is
// valid UTF-8: outside strings a valid text has only ASCII bytes, and
// scanString checked every string that has a non-ASCII byte.
func (v *validator) utf8OK() bool { return !v.badUTF8 }

// SWAR helpers: byte-parallel tests on 8 bytes at a time.
const (
	swarLo = 0x0101010101010101
	swarHi = 0x8080808080808080
)

// swarStopMask flags (0x80 in the byte) the bytes of the word that are a
// '"', a '\\' or below 0x20. Bits above the lowest flagged byte may be
// false positives (borrows), so only the lowest one is meaningful.
func swarStopMask(x uint64) uint64 {
	q := x ^ (swarLo * '"')
	s := x ^ (swarLo * '\\')
	return ((x-swarLo*0x20)&^x | (q-swarLo)&^q | (s-swarLo)&^s) & swarHi
}

// swarQuote reports whether the word holds a '"' or a '\\'.
func swarQuote(x uint64) bool {
	q := x ^ (swarLo * '"')
	s := x ^ (swarLo * '\\')
	return ((q-swarLo)&^q|(s-swarLo)&^s)&swarHi != 0
}

// closer returns the byte that closes a container opened by c ('{' or '[').
func closer(c byte) byte {
	if c == '{' {
		return '}'
	}
	return ']'
}

func (v *validator) push(start int) {
	v.open = append(v.open, len(v.tape.starts))
	v.tape.starts = append(v.tape.starts, start)
	v.tape.ends = append(v.tape.ends, -1)
}

// scanString returns the index after the string starting at b[i] == '"', or
// -1 when it is not a valid JSON string. A string with a non-ASCII byte
// is checked with utf8.Valid; an invalid one sets v.badUTF8.
func (v *validator) scanString(b []byte, i int) int {
	start := i
	i++
	n := len(b)
	var high uint64
	for {
		for i+8 <= n {
			x := binary.LittleEndian.Uint64(b[i:])
			high |= x
			if m := swarStopMask(x); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				goto stop
			}
			i += 8
		}
		for i < n && !strStop[b[i]] {
			high |= uint64(b[i])
			i++
		}
		if i >= n {
			return -1
		}
	stop:
		switch c := b[i]; c {
		case '"':
			if high&swarHi != 0 && !utf8.Valid(b[start:i]) {
				v.badUTF8 = true
			}
			return i + 1
		case '\\':
			if i+1 >= n {
				return -1
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > n {
					return -1
				}
				for _, h := range b[i+2 : i+6] {
					if !isHex(h) {
						return -1
					}
				}
				i += 6
			default:
				return -1
			}
		default: // control character
			return -1
		}
	}
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// scanNumber returns the index after the number starting at b[i], or -1.
func scanNumber(b []byte, i int) int {
	n := len(b)
	if b[i] == '-' {
		i++
	}
	switch {
	case i >= n:
		return -1
	case b[i] == '0':
		i++
	case b[i]-'1' < 9:
		i++
		for i < n && b[i]-'0' < 10 {
			i++
		}
	default:
		return -1
	}
	if i < n && b[i] == '.' {
		i++
		s := i
		for i < n && b[i]-'0' < 10 {
			i++
		}
		if i == s {
			return -1
		}
	}
	if i < n && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < n && (b[i] == '+' || b[i] == '-') {
			i++
		}
		s := i
		for i < n && b[i]-'0' < 10 {
			i++
		}
		if i == s {
			return -1
		}
	}
	return i
}

func scanLit(b []byte, i int, lit string) int {
	if len(b)-i >= len(lit) && string(b[i:i+len(lit)]) == lit {
		return i + len(lit)
	}
	return -1
}

// decodeKey returns the decoded content of a quoted key span; keys without
// escapes are returned as a sub-slice (no copy).
func decodeKey(q []byte) []byte {
	body := q[1 : len(q)-1]
	for _, c := range body {
		if c == '\\' {
			v, err := jsonjs.Parse(q)
			if err != nil {
				return body
			}
			s, _ := v.Str()
			return []byte(s)
		}
	}
	return body
}

// skipValue returns the end of the valid value starting at b[i], using
// the tape for containers when it has them.
func skipValue(b []byte, i int, t *tape) int {
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		if e := t.end(b, i); e >= 0 {
			return e
		}
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				i = skipString(b, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return i
	default:
		for i < len(b) {
			switch b[i] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				return i
			}
			i++
		}
		return i
	}
}

// skipString returns the index after a valid string starting at b[i],
// 8 bytes at a time up to the next quote or backslash.
func skipString(b []byte, i int) int {
	i++
	n := len(b)
	for {
		for i+8 <= n && !swarQuote(binary.LittleEndian.Uint64(b[i:])) {
			i += 8
		}
		for i < n && b[i] != '"' && b[i] != '\\' {
			i++
		}
		if i >= n {
			return n
		}
		if b[i] == '"' {
			return i + 1
		}
		i += 2 // an escape; \uXXXX's hex digits are plain bytes
	}
}

// kind is the JSON type of a span, by its first byte.
func (r raw) kind() jsonjs.Kind {
	if len(r) == 0 {
		return jsonjs.Null
	}
	switch r[0] {
	case '{':
		return jsonjs.Object
	case '[':
		return jsonjs.Array
	case '"':
		return jsonjs.String
	case 't', 'f':
		return jsonjs.Bool
	case 'n':
		return jsonjs.Null
	}
	return jsonjs.Number
}

// members appends the members of an object span to dst, in text order.
func (r raw) members(dst []member, t *tape) []member {
	if r.kind() != jsonjs.Object {
		return dst
	}
	b := []byte(r)
	i := skipWS(b, 1)
	for i < len(b) && b[i] == '"' {
		ke := skipString(b, i)
		key := decodeKey(b[i:ke])
		i = skipWS(b, ke)
		i = skipWS(b, i+1) // ':'
		ve := skipValue(b, i, t)
		dst = append(dst, member{key: key, val: raw(b[i:ve])})
		i = skipWS(b, ve)
		if i < len(b) && b[i] == ',' {
			i = skipWS(b, i+1)
			continue
		}
		break
	}
	return dst
}

// items appends the elements of an array span to dst.
func (r raw) items(dst []raw, t *tape) []raw {
	if r.kind() != jsonjs.Array {
		return dst
	}
	b := []byte(r)
	i := skipWS(b, 1)
	for i < len(b) && b[i] != ']' {
		ve := skipValue(b, i, t)
		dst = append(dst, raw(b[i:ve]))
		i = skipWS(b, ve)
		if i < len(b) && b[i] == ',' {
			i = skipWS(b, i+1)
			continue
		}
		break
	}
	return dst
}

// str decodes a string span (JSON.parse semantics; WTF-8 for lone
// surrogates, replacement for invalid UTF-8 input).
func (r raw) str(validUTF8 bool) (string, bool) {
	if r.kind() != jsonjs.String {
		return "", false
	}
	body := r[1 : len(r)-1]
	if validUTF8 {
		if !hasBackslash(body) {
			return string(body), true
		}
	}
	if validUTF8 {
		return unescape(body), true
	}
	v, err := jsonjs.Parse(r)
	if err != nil {
		return "", false
	}
	return v.Str()
}

// unescape decodes the body of a valid JSON string with escapes, as
// jsonjs.Parse does: a surrogate pair becomes its code point, a lone
// surrogate its 3-byte generalized (WTF-8) encoding. The decoded text is
// never longer than the escaped one.
func unescape(body []byte) string {
	out := make([]byte, len(body))
	j := unescapeInto(out, body)
	return unsafe.String(unsafe.SliceData(out), j) // out is never written again
}

// unescapeInto writes the decoded body to out (len(out) >= len(body)) and
// returns the decoded length.
func unescapeInto(out, body []byte) int {
	j := 0
	for i := 0; i < len(body); {
		k := bytes.IndexByte(body[i:], '\\')
		if k < 0 {
			j += copy(out[j:], body[i:])
			break
		}
		j += copy(out[j:], body[i:i+k])
		i += k
		e := body[i+1]
		i += 2
		switch e {
		case 'b':
			out[j] = '\b'
		case 'f':
			out[j] = '\f'
		case 'n':
			out[j] = '\n'
		case 'r':
			out[j] = '\r'
		case 't':
			out[j] = '\t'
		case 'u':
			u := hex4(body[i:])
			i += 4
			if u >= 0xD800 && u <= 0xDBFF && i+6 <= len(body) && body[i] == '\\' && body[i+1] == 'u' {
				if lo := hex4(body[i+2:]); lo >= 0xDC00 && lo <= 0xDFFF {
					j += utf8.EncodeRune(out[j:], 0x10000+(rune(u)-0xD800)<<10+(rune(lo)-0xDC00))
					i += 6
					continue
				}
			}
			if u >= 0xD800 && u <= 0xDFFF {
				out[j], out[j+1], out[j+2] = 0xE0|byte(u>>12), 0x80|byte(u>>6)&0x3F, 0x80|byte(u)&0x3F
				j += 3
			} else {
				j += utf8.EncodeRune(out[j:], rune(u))
			}
			continue
		default: // '"', '\\', '/'
			out[j] = e
		}
		j++
	}
	return j
}

func hex4(b []byte) uint16 {
	var u uint16
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		default:
			c -= 'A' - 10
		}
		u = u<<4 | uint16(c)
	}
	return u
}

// strIs reports whether r is the JSON string lit (escapes decoded).
func (r raw) strIs(lit string) bool {
	if r.kind() != jsonjs.String {
		return false
	}
	body := r[1 : len(r)-1]
	if string(body) == lit {
		return true
	}
	if hasBackslash(body) {
		s, ok := r.str(true)
		return ok && s == lit
	}
	return false
}

// num parses a number span as JSON.parse would.
func (r raw) num() (float64, bool) {
	if r.kind() != jsonjs.Number || len(r) == 0 {
		return 0, false
	}
	// Fast path: up to 15 plain digits are exact in an int64 and a double.
	if len(r) <= 15 {
		neg := r[0] == '-'
		d := r
		if neg {
			d = r[1:]
		}
		var x int64
		plain := len(d) > 0
		for _, c := range d {
			if c < '0' || c > '9' {
				plain = false
				break
			}
			x = x*10 + int64(c-'0')
		}
		if plain {
			f := float64(x)
			if neg {
				f = -f // -0 keeps its sign, as in JS
			}
			return f, true
		}
	}
	// The span is a valid JSON number: ParseFloat can only report range
	// errors, and its ±Inf / 0 answers are JSON.parse's too.
	f, _ := strconv.ParseFloat(string(r), 64)
	return f, true
}

const maxSafe = 1<<53 - 1

// safeInt reports Number.isSafeInteger for a number span.
func (r raw) safeInt() (int64, bool) {
	f, ok := r.num()
	if !ok || f != math.Trunc(f) || math.Abs(f) > maxSafe {
		return 0, false
	}
	return int64(f), true
}

// nonNegInt is a safe integer ≥ 0 (−0 counts as 0 unless noNegZero).
func (r raw) nonNegInt(noNegZero bool) (int64, bool) {
	f, ok := r.num()
	if !ok || f != math.Trunc(f) || f < 0 || f > maxSafe {
		return 0, false
	}
	if noNegZero && f == 0 && math.Signbit(f) {
		return 0, false
	}
	return int64(f), true
}

// boolean returns the value of a true/false span.
func (r raw) boolean() (b, ok bool) {
	switch string(r) {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	return false, false
}

// parse builds the jsonjs value of a span with jsonjs.Parse.
func (r raw) parse() jsonjs.Value {
	v, err := jsonjs.Parse(r)
	if err != nil {
		return jsonjs.NullValue()
	}
	return v
}

// internKey returns the common member names of search meta and content
// blocks without allocating; building them is much of the cost of a meta.
func internKey(k []byte) (string, bool) {
	switch string(k) {
	case "shape":
		return "shape", true
	case "files":
		return "files", true
	case "paths":
		return "paths", true
	case "truncated":
		return "truncated", true
	case "total":
		return "total", true
	case "path":
		return "path", true
	case "matches":
		return "matches", true
	case "lineNumber":
		return "lineNumber", true
	case "line":
		return "line", true
	case "type":
		return "type", true
	case "text":
		return "text", true
	}
	return "", false
}

// maxBuildDepth bounds the recursion of value; deeper subtrees are handed
// to jsonjs.Parse, which keeps an explicit stack.
const maxBuildDepth = 64

// value builds the jsonjs value of a validated span: the same value
// jsonjs.Parse returns (JSON.parse semantics, member order kept, duplicate
// keys resolved by jsonjs.ObjectValue), in one pass and without
// re-validating the text. The value may be kept after the line.
func (c *checker) value(r raw, depth int) jsonjs.Value {
	if !c.validUTF8 {
		return r.parse()
	}
	v, _ := c.build(r, 0, depth)
	return v
}

// lineValue is value for a value that is dropped with the line: strings
// without escapes share the line's bytes instead of being copied. Nothing
// built from it may outlive the line (findings copy what they quote).
func (c *checker) lineValue(r raw) jsonjs.Value {
	if !c.validUTF8 {
		return r.parse()
	}
	c.shareStrings = true
	v, _ := c.build(r, 0, 0)
	c.shareStrings = false
	return v
}

// build parses the valid value at b[i] (no leading space) and returns it
// with the index after it. Containers nested deeper than maxBuildDepth are
// handed to jsonjs.Parse, which keeps an explicit stack.
func (c *checker) build(b []byte, i, depth int) (jsonjs.Value, int) {
	if (b[i] == '{' || b[i] == '[') && depth >= maxBuildDepth {
		end := skipValue(b, i, c.tape())
		return raw(b[i:end]).parse(), end
	}
	switch b[i] {
	case '{':
		base := len(c.vmembers)
		i = skipWS(b, i+1)
		for b[i] == '"' {
			ke := skipString(b, i)
			kq := b[i:ke]
			key, ok := internKey(kq[1 : len(kq)-1])
			if !ok {
				key = string(decodeKey(kq))
			}
			i = skipWS(b, ke)
			i = skipWS(b, i+1) // ':'
			var v jsonjs.Value
			v, i = c.build(b, i, depth+1)
			c.vmembers = append(c.vmembers, jsonjs.Member{Key: key, Value: v})
			i = skipWS(b, i)
			if b[i] == ',' {
				i = skipWS(b, i+1)
			}
		}
		ms := c.newMembers(len(c.vmembers) - base)
		c.vmembers = popTail(ms, c.vmembers, base)
		return jsonjs.ObjectValue(ms...), i + 1 // '}'
	case '[':
		base := len(c.vitems)
		i = skipWS(b, i+1)
		for b[i] != ']' {
			var v jsonjs.Value
			v, i = c.build(b, i, depth+1)
			c.vitems = append(c.vitems, v)
			i = skipWS(b, i)
			if b[i] == ',' {
				i = skipWS(b, i+1)
			}
		}
		items := c.newItems(len(c.vitems) - base)
		c.vitems = popTail(items, c.vitems, base)
		return jsonjs.ArrayValue(items...), i + 1
	case '"':
		end := skipString(b, i)
		body := b[i+1 : end-1]
		if c.shareStrings {
			return jsonjs.StringValue(c.lineString(body)), end
		}
		s, _ := raw(b[i:end]).str(true)
		return jsonjs.StringValue(s), end
	case 't':
		return jsonjs.BoolValue(true), i + 4
	case 'f':
		return jsonjs.BoolValue(false), i + 5
	case 'n':
		return jsonjs.NullValue(), i + 4
	}
	end := skipValue(b, i, nil)
	f, _ := raw(b[i:end]).num()
	return jsonjs.NumberValue(f), end
}

// popTail moves the tail s[base:] of a scratch stack into dst (of its
// length), zeroing the tail so the stack keeps no references, and returns
// the stack cut back to s[:base].
func popTail[T any](dst, s []T, base int) []T {
	copy(dst, s[base:])
	clear(s[base:])
	return s[:base]
}

// get returns the value of the last member named key (JSON.parse: the
// last duplicate wins).
func get(ms []member, key string) (raw, bool) {
	for i := len(ms) - 1; i >= 0; i-- {
		if string(ms[i].key) == key {
			return ms[i].val, true
		}
	}
	return nil, false
}

func hasBackslash(b []byte) bool {
	return bytes.IndexByte(b, '\\') >= 0
}

// Line-scoped storage. lineValue's members, items and unescaped strings,
// and the texts of content blocks, live only while their line is checked,
// so they are carved from arenas that the next line reuses instead of
// being allocated one by one. Nothing carved from them may outlive the
// line (findings copy what they quote).

var emptyMembers = []jsonjs.Member{}
var emptyItems = []jsonjs.Value{}

// newMembers returns n members from the line arena (zeroed or about to be
// overwritten by the caller), with no spare capacity.
func (c *checker) newMembers(n int) []jsonjs.Member {
	if !c.shareStrings {
		return make([]jsonjs.Member, n)
	}
	if n == 0 {
		return emptyMembers
	}
	return carve(&c.lineMembers, n)
}

// newItems is newMembers for array items.
func (c *checker) newItems(n int) []jsonjs.Value {
	if !c.shareStrings {
		return make([]jsonjs.Value, n)
	}
	if n == 0 {
		return emptyItems
	}
	return carve(&c.lineItems, n)
}

// carve returns n elements from the end of the arena *a (growing it when it
// is short), with no spare capacity.
func carve[T any](a *[]T, n int) []T {
	s := *a
	if cap(s)-len(s) < n {
		s = make([]T, 0, max(n, 2*cap(s), 64))
	}
	out := s[len(s) : len(s)+n : len(s)+n]
	*a = s[:len(s)+n]
	return out
}

// lineString decodes the body of a valid JSON string of the current line
// (valid UTF-8): without escapes it shares the line's bytes, else it is
// unescaped into the line's byte arena.
func (c *checker) lineString(body []byte) string {
	if len(body) == 0 {
		return ""
	}
	if !hasBackslash(body) {
		return unsafe.String(&body[0], len(body))
	}
	a := c.lineBytes
	if cap(a)-len(a) < len(body) {
		a = make([]byte, 0, max(len(body), 2*cap(a), 4096))
	}
	out := a[len(a) : len(a)+len(body)]
	n := unescapeInto(out, body)
	c.lineBytes = a[:len(a)+n]
	if n == 0 {
		return ""
	}
	return unsafe.String(&out[0], n)
}

// lineStr is raw.str for a string span of the current line whose result
// is dropped with the line.
func (c *checker) lineStr(r raw) (string, bool) {
	if !c.validUTF8 || r.kind() != jsonjs.String {
		return r.str(c.validUTF8)
	}
	return c.lineString(r[1 : len(r)-1]), true
}
