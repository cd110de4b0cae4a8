package jsonjs

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"unicode/utf8"
	"unsafe"
)

// SyntaxError describes text JSON.parse refuses, or bytes that are not
// UTF-8, with the position of the offending byte.
type SyntaxError struct {
	Offset int // byte offset into the input
	Line   int // 1-based
	Column int // 1-based, in bytes
	Msg    string
	// Bytes is the maximal invalid UTF-8 subsequence at Offset when the
	// input is not UTF-8, else nil.
	Bytes []byte
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Msg)
}

// Parse parses one JSON text with JSON.parse semantics:
//   - only space, tab, LF and CR are whitespace; no trailing text is allowed;
//   - numbers that overflow a double become ±Inf (JSON.parse("1e400") is
//     Infinity, which SEARCH-NARROW-3 accepts); Lexeme gives a number's
//     source text;
//   - a duplicate key keeps its first position and its last value (CODE-KEYS-2);
//   - \u escapes of lone surrogates are kept as WTF-8 (see the package doc);
//   - input that is not UTF-8 is refused with a *SyntaxError naming the
//     offset and the bytes: nothing is repaired silently. ParseReplacing
//     is the explicit way to read bytes as a JS host decoding them would.
//
// Nesting depth is limited only by memory: the parser keeps an explicit
// stack. All strings and number lexemes share one copy of the input (an
// escaped string is decoded within its own span of it), so a value keeps
// its whole input alive, and no more; strings.Clone what must outlive it
// cheaply.
func Parse(data []byte) (Value, error) {
	if off, bad := invalidUTF8(data); off >= 0 {
		p := parser{data: data, pos: off}
		err := p.fail("invalid UTF-8 at byte offset %d: bytes % X", off, bad)
		err.(*SyntaxError).Bytes = append([]byte(nil), bad...)
		return Value{}, err
	}
	p := scratch.Get().(*parser)
	v, err := parseWith(p, data)
	scratch.Put(p)
	return v, err
}

// scratch keeps parsers' scratch stacks between calls, so a stream of
// small texts does not grow new ones every time.
var scratch = sync.Pool{New: func() any { return new(parser) }}

// parseWith is Parse with the scratch stacks of p, which keeps them for
// the next call. data must be UTF-8.
func parseWith(p *parser, data []byte) (Value, error) {
	p.data, p.text, p.pos = data, bytes.Clone(data), 0
	p.presize(data)
	v, err := p.parse()
	// The scratch stacks keep no references: cleared once, as far as this text used them.
	clear(p.members[:max(p.used.members, len(p.members))])
	clear(p.items[:max(p.used.items, len(p.items))])
	p.objects.reset(p.used.objects) // their keys share the text
	p.open.reset(0)
	p.used = used{}
	p.members, p.items = trim(p.members), trim(p.items)
	// Blocks stay with this text's values: shared, a kept value would keep two texts alive.
	p.data, p.text, p.memberBlock, p.itemBlock, p.nodeBlock = nil, nil, nil, nil, nil
	p.tape, p.noDeep = nil, false
	return v, err
}

// ParseReplacing is Parse after decoding data as WHATWG UTF-8 with
// replacement (each maximal invalid subsequence becomes U+FFFD), which is
// what JSON.parse sees when a JS host decodes the bytes first. Use it only
// where the contract says the bytes are decoded that way.
func ParseReplacing(data []byte) (Value, error) {
	if !utf8.Valid(data) {
		data = []byte(DecodeUTF8(data))
	}
	return Parse(data)
}

type parser struct {
	data []byte
	// text is the parser's copy of data, which every string and number
	// lexeme of the tree shares: an unescaped string is a slice of it, and
	// an escaped one is decoded over its own escapes there (see str).
	text []byte
	pos  int // where an error is, for fail and describe
	// Scratch stacks of open containers' members and items (a closed one copies its tail out).
	members []Member
	items   []Value
	// Blocks that closed containers are carved from (see carve).
	memberBlock []Member
	itemBlock   []Value
	nodeBlock   []node
	treeNodes   []node // the node block a Lazy's Tree reuses (Lazy keeps the others)
	// open is the containers being parsed, each the start of its members
	// or items on the scratch stack, shifted left by one, or-ed with 1 for
	// an object; objects is the open objects' own state. An open array
	// costs 8 bytes, and the stacks are chunked (never copied), so that a
	// value nested 10^7 levels deep (issue 23) is parsed with 80 MB of
	// stack.
	open    stack[int]
	objects stack[object]
	used    used
	// tape holds the containers opened deepFrom levels down (deep.go);
	// noDeep is set once one of them was not JSON.
	tape   *deepTape
	noDeep bool
}

// used is how far this text has filled each scratch stack (its high-water
// mark), so that only that much is cleared at the end.
type used struct{ members, items, objects int }

// object is an open object's pending key, its keySignature bits so far,
// and whether two of its keys had the same signature: only then can it
// have a duplicate key.
type object struct {
	key      string
	seen     uint64
	maybeDup bool
}

// sign notes the signature of key, the next one of the object c.
func (c *object) sign(key string) {
	bit := uint64(1) << (keySignature(key) & 63)
	c.maybeDup = c.maybeDup || c.seen&bit != 0
	c.seen |= bit
}

func (p *parser) fail(format string, args ...any) error {
	line, col := 1, 1
	for i := 0; i < p.pos && i < len(p.data); i++ {
		if p.data[i] == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return &SyntaxError{Offset: p.pos, Line: line, Column: col, Msg: fmt.Sprintf(format, args...)}
}

// failAt is fail for an error at d[i], whose byte describe names.
func (p *parser) failAt(i int, format string) error {
	p.pos = i
	return p.fail(format, p.describe())
}

// space returns the index of the first byte at or after d[i] that is not
// JSON whitespace (space, tab, LF, CR: all at most ' ', so a byte above it
// ends the run with one comparison).
func space(d []byte, i int) int {
	for i < len(d) && d[i] <= ' ' && (d[i] == ' ' || d[i] == '\t' || d[i] == '\n' || d[i] == '\r') {
		i++
	}
	return i
}

func (p *parser) describe() string {
	if p.pos >= len(p.data) {
		return "end of input"
	}
	r, _ := utf8.DecodeRune(p.data[p.pos:])
	return strconv.QuoteRune(r)
}

// parse reads the text with the position in a local (i), not in p, so
// that the loop keeps it in a register; errors store it in p.pos.
func (p *parser) parse() (Value, error) {
	d, i := p.data, 0
	p.open.reset(0)
	p.objects.reset(p.used.objects)
	for {
		i = space(d, i)
		// Parse one value start.
		if i >= len(d) {
			return Value{}, p.failAt(i, "unexpected %s, expecting a value")
		}
		var v Value
		switch c := d[i]; {
		case p.tapes(c, &v, &i):
		case c == '{':
			i = space(d, i+1)
			if i < len(d) && d[i] == '}' {
				v, i = Value{c: &kinds[Object]}, i+1
				break
			}
			key, end := p.key(i)
			if end < 0 {
				return Value{}, p.keyError(i)
			}
			p.pushObject(key)
			i = end
			continue
		case c == '[':
			i = space(d, i+1)
			if i < len(d) && d[i] == ']' {
				v, i = Value{c: &kinds[Array]}, i+1
				break
			}
			p.open.push(len(p.items) << 1)
			continue
		case c == '"':
			end, escaped := scanString(d, i)
			if end < 0 {
				return Value{}, p.strError(i)
			}
			s := p.lexeme(i+1, end-1)
			if escaped {
				s = p.decode(i+1, end-1)
			}
			v, i = StringValue(s), end
		case c == '-' || (c >= '0' && c <= '9'):
			f, end := integer(d, i)
			if end < 0 {
				if end = scanNumber(d, i); end < 0 {
					return Value{}, p.numberError(i)
				}
				f = numberValue(d[i:end])
			}
			v, i = Value{n: f, s: p.lexeme(i, end), c: &kinds[Number]}, end
		case hasWord(d, i, "true"):
			v, i = BoolValue(true), i+len("true")
		case hasWord(d, i, "false"):
			v, i = BoolValue(false), i+len("false")
		case hasWord(d, i, "null"):
			i += len("null")
		default:
			return Value{}, p.failAt(i, "unexpected %s, expecting a value")
		}
		// Attach the finished value and close containers as far as possible.
		for {
			if p.open.len() == 0 {
				if i = space(d, i); i != len(d) {
					return Value{}, p.failAt(i, "unexpected %s after the JSON value")
				}
				return v, nil
			}
			top := *p.open.peek()
			obj := top&1 != 0
			var o *object
			if obj {
				o = p.objects.peek()
				p.members = append(p.members, Member{Key: o.key, Value: v})
			} else {
				p.items = append(p.items, v)
			}
			if i = space(d, i); i >= len(d) {
				if obj {
					return Value{}, p.failAt(i, "unexpected %s inside an object")
				}
				return Value{}, p.failAt(i, "unexpected %s inside an array")
			}
			c := d[i]
			i++
			if c == ',' {
				if obj {
					i = space(d, i)
					key, end := p.key(i)
					if end < 0 {
						return Value{}, p.keyError(i)
					}
					o.key, i = key, end
					o.sign(key)
				}
				break
			}
			if obj && c == '}' {
				members := popTail(&p.members, top>>1, &p.used.members, &p.memberBlock, len(d)-i)
				if o.maybeDup {
					members = dedupe(members)
				}
				v = Value{c: p.node(objectNode(members), len(d)-i)}
				p.objects.pop()
			} else if !obj && c == ']' {
				items := popTail(&p.items, top>>1, &p.used.items, &p.itemBlock, len(d)-i)
				v = Value{c: p.node(arrayNode(items), len(d)-i)}
			} else if obj {
				return Value{}, p.failAt(i-1, "unexpected %s, expecting ',' or '}'")
			} else {
				return Value{}, p.failAt(i-1, "unexpected %s, expecting ',' or ']'")
			}
			p.open.pop()
		}
	}
}

// pushObject opens an object whose first key is key.
func (p *parser) pushObject(key string) {
	p.open.push(len(p.members)<<1 | 1)
	p.objects.push(object{key: key, seen: 1 << (keySignature(key) & 63)})
	p.used.objects = max(p.used.objects, p.objects.len())
}

// node carves a container's node, as carve does its elements.
func (p *parser) node(n node, rest int) *node {
	out := carve(&p.nodeBlock, 1, rest)
	out[0] = n
	return &out[0]
}

// popTail moves the tail (*s)[base:] of a scratch stack into a slice
// carved from *block. The tail is left as it is, and *used, the stack's
// high-water mark, says how much parseWith clears at the end.
func popTail[T any](s *[]T, base int, used *int, block *[]T, rest int) []T {
	*used = max(*used, len(*s))
	out := carve(block, len(*s)-base, rest)
	copy(out, (*s)[base:])
	*s = (*s)[:base]
	return out
}

// blockSize is how many elements carve allocates at once: small
// containers share one allocation instead of one each.
const blockSize = 32

// carve hands out the next n unused elements of *block, with no spare
// capacity, allocating when it is short: a slice of its own for a large
// container, else a new block of at most blockSize elements, fewer when
// the rest of the text (rest bytes) cannot hold more values (each takes
// at least 2 bytes). An element is handed out once and never written
// again by the parser, so values that share a block are independent; a
// block lives as long as any value carved from it.
func carve[T any](block *[]T, n, rest int) []T {
	b := *block
	if cap(b)-len(b) < n {
		if n > blockSize/2 {
			return make([]T, n)
		}
		b = slices.Grow([]T(nil), n+min(blockSize-n, rest/2))
	}
	out := b[len(b) : len(b)+n : len(b)+n]
	*block = b[:len(b)+n]
	return out
}

// slabMax bounds the first blocks of a text (see presize).
const slabMax = 1 << 12

// presize makes the first blocks of a text, unless the caller gave some,
// as large as its punctuation predicts, so that a typical text carves all
// its containers from one block of each kind: a member per ':', a node
// per '{' or '[', and an item for every ',' that does not part members
// and every array's first. Strings holding such bytes only make the guess
// wrong, which costs memory or a block more, never a value; slabMax keeps
// a text of punctuation inside one string from reserving without bound.
func (p *parser) presize(data []byte) {
	if p.memberBlock != nil {
		return
	}
	objects, arrays := bytes.Count(data, []byte{'{'}), bytes.Count(data, []byte{'['})
	members := bytes.Count(data, []byte{':'})
	items := bytes.Count(data, []byte{','}) - members + objects + arrays
	p.memberBlock = slices.Grow(p.memberBlock, min(members, slabMax))
	p.itemBlock = slices.Grow(p.itemBlock, min(max(items, 0), slabMax))
	p.nodeBlock = slices.Grow(p.nodeBlock, min(objects+arrays, slabMax))
}

// integer reads the number at d[i] in one pass when it is an integer of
// at most 15 digits, which an int64 and a double hold exactly, and
// returns it and the index after it; end < 0 leaves every other number
// (a fraction, an exponent, more digits, a leading zero, no digit) to
// scanNumber and numberValue, which give the same answer for these.
func integer(d []byte, i int) (f float64, end int) {
	j := i
	if d[j] == '-' {
		j++
	}
	var x int64
	digits := j
	for j < len(d) && d[j]-'0' < 10 {
		x = x*10 + int64(d[j]-'0')
		j++
	}
	if n := j - digits; n == 0 || n > 15 || (n > 1 && d[digits] == '0') {
		return 0, -1
	}
	if j < len(d) && (d[j] == '.' || d[j] == 'e' || d[j] == 'E') {
		return 0, -1
	}
	if f = float64(x); d[i] == '-' {
		f = -f
	}
	return f, j
}

func hasWord(d []byte, i int, word string) bool {
	return len(d)-i >= len(word) && string(d[i:i+len(word)]) == word
}

// key reads `"name" :` at d[i] and returns the name and the index after
// the colon, or end < 0 when there is none (keyError says why).
func (p *parser) key(i int) (k string, end int) {
	d := p.data
	if i >= len(d) || d[i] != '"' {
		return "", -1
	}
	end, escaped := scanString(d, i)
	if end < 0 {
		return "", -1
	}
	if k = p.lexeme(i+1, end-1); escaped {
		k = p.decode(i+1, end-1)
	}
	if end = space(d, end); end >= len(d) || d[end] != ':' {
		return "", -1
	}
	return k, end + 1
}

// keyError is the error of the key that key refused at d[i].
func (p *parser) keyError(i int) error {
	d := p.data
	if i >= len(d) || d[i] != '"' {
		return p.failAt(i, "unexpected %s, expecting a string key")
	}
	if end, _ := scanString(d, i); end < 0 {
		return p.strError(i)
	}
	return p.failAt(space(d, skipString(d, i)), "unexpected %s, expecting ':'")
}

// numberError says what scanNumber refused in the number at d[i].
func (p *parser) numberError(i int) error {
	d := p.data
	p.pos = i
	if d[p.pos] == '-' {
		p.pos++
	}
	digits := func() int {
		n := 0
		for p.pos < len(d) && d[p.pos] >= '0' && d[p.pos] <= '9' {
			p.pos++
			n++
		}
		return n
	}
	if p.pos < len(d) && d[p.pos] == '0' {
		p.pos++
	} else if digits() == 0 {
		return p.fail("invalid number: expecting a digit")
	}
	if p.pos < len(d) && d[p.pos] == '.' {
		p.pos++
		if digits() == 0 {
			return p.fail("invalid number: expecting a digit after '.'")
		}
	}
	p.pos++ // 'e' or 'E', after which scanNumber found no digit
	if p.pos < len(d) && (d[p.pos] == '+' || d[p.pos] == '-') {
		p.pos++
	}
	return p.fail("invalid number: expecting an exponent digit")
}

// decode returns the escaped string body d[start:end], decoded into
// p.text over its own bytes, which decoding never lengthens and no other
// value shares, so that the strings of a text need no allocation of
// their own.
func (p *parser) decode(start, end int) string {
	return p.lexeme(start, start+unescapeInto(p.text[start:end], p.data[start:end]))
}

// lexeme is p.text[start:end] as a string. Its bytes are final: only
// decode writes p.text, in a body no string covers yet, and the parser
// drops p.text when the parse ends.
func (p *parser) lexeme(start, end int) string {
	return unsafe.String(&p.text[start], end-start) // start < end or at a closing quote
}

// strError locates what scanString refused in the string at d[i].
func (p *parser) strError(i int) error {
	d := p.data
	p.pos = i + 1 // after the opening quote
	for p.pos < len(d) {
		c := d[p.pos]
		switch {
		case c == '"':
			return p.fail("unterminated string") // not reached: scanString accepts it
		case c < 0x20:
			return p.fail("control character U+%04X in a string", c)
		case c != '\\':
			p.pos++
			continue
		}
		p.pos++
		if p.pos >= len(d) {
			break
		}
		e := d[p.pos]
		p.pos++
		switch e {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		case 'u':
			if _, err := p.hex4(); err != nil {
				return err
			}
		default:
			p.pos--
			return p.fail("invalid escape '\\%c' in a string", e)
		}
	}
	return p.fail("unterminated string")
}

func (p *parser) hex4() (uint16, error) {
	if p.pos+4 > len(p.data) {
		return 0, p.fail("incomplete \\u escape")
	}
	var u uint16
	for i := 0; i < 4; i++ {
		c := p.data[p.pos+i]
		var n byte
		switch {
		case c >= '0' && c <= '9':
			n = c - '0'
		case c >= 'a' && c <= 'f':
			n = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			n = c - 'A' + 10
		default:
			return 0, p.fail("invalid \\u escape")
		}
		u = u<<4 | uint16(n)
	}
	p.pos += 4
	return u, nil
}

// MarshalJSON implements json.Marshaler with JSON.stringify bytes.
func (v Value) MarshalJSON() ([]byte, error) {
	return Marshal(v), nil
}

// UnmarshalJSON implements json.Unmarshaler with JSON.parse semantics.
func (v *Value) UnmarshalJSON(data []byte) error {
	parsed, err := Parse(data)
	if err != nil {
		return err
	}
	*v = parsed
	return nil
}
