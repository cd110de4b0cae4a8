package jsonjs

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// SyntaxError describes malformed JSON text, with the position of the
// offending byte.
type SyntaxError struct {
	Offset int // byte offset into the (UTF-8 decoded) input
	Line   int // 1-based
	Column int // 1-based, in bytes
	Msg    string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Msg)
}

// Parse parses one JSON text with JSON.parse semantics:
//   - only space, tab, LF and CR are whitespace; no trailing text is allowed;
//   - numbers that overflow a double become ±Inf (JSON.parse("1e400") is
//     Infinity, which SEARCH-NARROW-3 accepts);
//   - a duplicate key keeps its first position and its last value (CODE-KEYS-2);
//   - \u escapes of lone surrogates are kept as WTF-8 (see the package doc);
//   - input bytes that are not UTF-8 are first decoded as WHATWG UTF-8 with
//     replacement, as a JS host decoding the bytes would.
//
// Nesting depth is limited only by memory: the parser keeps an explicit
// stack.
func Parse(data []byte) (Value, error) {
	if !utf8.Valid(data) {
		data = []byte(DecodeUTF8(data))
	}
	p := parser{data: data}
	return p.parse()
}

type parser struct {
	data []byte
	pos  int
}

type container struct {
	obj     bool
	items   []Value
	members []Member
	key     string
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

func (p *parser) skipSpace() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) describe() string {
	if p.pos >= len(p.data) {
		return "end of input"
	}
	r, _ := utf8.DecodeRune(p.data[p.pos:])
	return strconv.QuoteRune(r)
}

func (p *parser) parse() (Value, error) {
	var stack []container
	for {
		p.skipSpace()
		// Parse one value start.
		if p.pos >= len(p.data) {
			return Value{}, p.fail("unexpected end of input, expecting a value")
		}
		var v Value
		complete := true
		switch c := p.data[p.pos]; {
		case c == '{':
			p.pos++
			p.skipSpace()
			if p.pos < len(p.data) && p.data[p.pos] == '}' {
				p.pos++
				v = Value{kind: Object}
				break
			}
			key, err := p.key()
			if err != nil {
				return Value{}, err
			}
			stack = append(stack, container{obj: true, key: key})
			complete = false
		case c == '[':
			p.pos++
			p.skipSpace()
			if p.pos < len(p.data) && p.data[p.pos] == ']' {
				p.pos++
				v = Value{kind: Array}
				break
			}
			stack = append(stack, container{})
			complete = false
		case c == '"':
			s, err := p.str()
			if err != nil {
				return Value{}, err
			}
			v = StringValue(s)
		case c == '-' || (c >= '0' && c <= '9'):
			f, err := p.number()
			if err != nil {
				return Value{}, err
			}
			v = NumberValue(f)
		case p.literal("true"):
			v = BoolValue(true)
		case p.literal("false"):
			v = BoolValue(false)
		case p.literal("null"):
			v = Value{}
		default:
			return Value{}, p.fail("unexpected %s, expecting a value", p.describe())
		}
		if !complete {
			continue
		}
		// Attach the finished value and close containers as far as possible.
		for {
			if len(stack) == 0 {
				p.skipSpace()
				if p.pos != len(p.data) {
					return Value{}, p.fail("unexpected %s after the JSON value", p.describe())
				}
				return v, nil
			}
			top := &stack[len(stack)-1]
			if top.obj {
				top.members = append(top.members, Member{Key: top.key, Value: v})
			} else {
				top.items = append(top.items, v)
			}
			p.skipSpace()
			if p.pos >= len(p.data) {
				return Value{}, p.fail("unexpected end of input inside an %s", map[bool]string{true: "object", false: "array"}[top.obj])
			}
			c := p.data[p.pos]
			if c == ',' {
				p.pos++
				if top.obj {
					p.skipSpace()
					key, err := p.key()
					if err != nil {
						return Value{}, err
					}
					top.key = key
				}
				break
			}
			if top.obj && c == '}' {
				p.pos++
				v = ObjectValue(top.members...)
			} else if !top.obj && c == ']' {
				p.pos++
				v = Value{kind: Array, arr: top.items}
			} else if top.obj {
				return Value{}, p.fail("unexpected %s, expecting ',' or '}'", p.describe())
			} else {
				return Value{}, p.fail("unexpected %s, expecting ',' or ']'", p.describe())
			}
			stack = stack[:len(stack)-1]
		}
	}
}

func (p *parser) literal(word string) bool {
	if len(p.data)-p.pos >= len(word) && string(p.data[p.pos:p.pos+len(word)]) == word {
		p.pos += len(word)
		return true
	}
	return false
}

// key parses `"name" :` at the current position.
func (p *parser) key() (string, error) {
	if p.pos >= len(p.data) || p.data[p.pos] != '"' {
		return "", p.fail("unexpected %s, expecting a string key", p.describe())
	}
	k, err := p.str()
	if err != nil {
		return "", err
	}
	p.skipSpace()
	if p.pos >= len(p.data) || p.data[p.pos] != ':' {
		return "", p.fail("unexpected %s, expecting ':'", p.describe())
	}
	p.pos++
	return k, nil
}

func (p *parser) number() (float64, error) {
	start := p.pos
	d := p.data
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
		return 0, p.fail("invalid number: expecting a digit")
	}
	if p.pos < len(d) && d[p.pos] == '.' {
		p.pos++
		if digits() == 0 {
			return 0, p.fail("invalid number: expecting a digit after '.'")
		}
	}
	if p.pos < len(d) && (d[p.pos] == 'e' || d[p.pos] == 'E') {
		p.pos++
		if p.pos < len(d) && (d[p.pos] == '+' || d[p.pos] == '-') {
			p.pos++
		}
		if digits() == 0 {
			return 0, p.fail("invalid number: expecting an exponent digit")
		}
	}
	// ParseFloat rounds correctly, and returns ±Inf with ErrRange on
	// overflow, which is JavaScript's answer too.
	f, _ := strconv.ParseFloat(string(d[start:p.pos]), 64)
	return f, nil
}

func (p *parser) str() (string, error) {
	d := p.data
	p.pos++ // opening quote
	start := p.pos
	// Fast path: no escapes.
	for p.pos < len(d) {
		c := d[p.pos]
		if c == '"' {
			s := string(d[start:p.pos])
			p.pos++
			return s, nil
		}
		if c == '\\' {
			break
		}
		if c < 0x20 {
			return "", p.fail("control character U+%04X in a string", c)
		}
		p.pos++
	}
	buf := append([]byte(nil), d[start:p.pos]...)
	for p.pos < len(d) {
		c := d[p.pos]
		switch {
		case c == '"':
			p.pos++
			return string(buf), nil
		case c < 0x20:
			return "", p.fail("control character U+%04X in a string", c)
		case c != '\\':
			buf = append(buf, c)
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
		case '"', '\\', '/':
			buf = append(buf, e)
		case 'b':
			buf = append(buf, '\b')
		case 'f':
			buf = append(buf, '\f')
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		case 'u':
			u, err := p.hex4()
			if err != nil {
				return "", err
			}
			if u >= 0xD800 && u <= 0xDBFF && p.pos+1 < len(d) && d[p.pos] == '\\' && d[p.pos+1] == 'u' {
				save := p.pos
				p.pos += 2
				lo, err := p.hex4()
				if err == nil && lo >= 0xDC00 && lo <= 0xDFFF {
					buf = utf8.AppendRune(buf, 0x10000+(rune(u)-0xD800)<<10+(rune(lo)-0xDC00))
					continue
				}
				p.pos = save
			}
			if u >= 0xD800 && u <= 0xDFFF {
				buf = appendSurrogate(buf, u)
			} else {
				buf = utf8.AppendRune(buf, rune(u))
			}
		default:
			p.pos--
			return "", p.fail("invalid escape '\\%c' in a string", e)
		}
	}
	return "", p.fail("unterminated string")
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
