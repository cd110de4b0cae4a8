package jsonjs

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"strconv"
	"unicode/utf8"
	"unsafe"
)

// The lexical layer shared by Parse (trees) and Lazy (spans): one string
// scanner, one unescaper, one number scanner, so the two modes accept the
// same texts by construction.

// SWAR helpers: byte-parallel tests on 8 bytes at a time.
const (
	swarLo = 0x0101010101010101
	swarHi = 0x8080808080808080
)

// stopMask flags (0x80 in the byte) the bytes of the word that end the
// plain run of a string: '"', '\\' and the C0 controls, which JSON.parse
// refuses raw. Bits above the lowest flagged byte may be false positives
// (borrows), so only the lowest one is meaningful. stopBits is it before
// its masks (one &^x for the three tests: their words share x's high bits).
func stopMask(x uint64) uint64 { return stopBits(x) &^ x & swarHi }
func stopBits(x uint64) uint64 {
	return (x - swarLo*0x20) | (x ^ (swarLo * '"') - swarLo) | (x ^ (swarLo * '\\') - swarLo)
}

// isStop is stopMask for one byte.
func isStop(c byte) bool { return c < 0x20 || c == '"' || c == '\\' }

// scanString scans the string whose opening quote is b[i]. It returns the
// index after the closing quote and whether the body has an escape; end is
// -1 when the text is not a valid JSON string (raw control, bad escape,
// unterminated). UTF-8 is not checked here: Parse and Lazy check the whole
// text once, since a non-ASCII byte outside a string is refused anyway.
func scanString(b []byte, i int) (end int, escaped bool) {
	i++
	n := len(b)
	for {
		for i+8 <= n {
			if m := stopMask(binary.LittleEndian.Uint64(b[i : i+8])); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				goto stop
			}
			i += 8
		}
		for i < n && !isStop(b[i]) {
			i++
		}
		if i >= n {
			break
		}
	stop:
		if b[i] == '"' {
			return i + 1, escaped
		}
		k := escapeLen(b, i)
		if k == 0 {
			break // a raw control character or a bad escape
		}
		i, escaped = i+k, true
	}
	return -1, escaped // escaped is not read then
}

// escapeLen is the length of the valid escape at b[i] (2, or 6 for \uXXXX),
// 0 when b[i] starts none: the escape grammar of every string scanner.
func escapeLen(b []byte, i int) int {
	if b[i] != '\\' || i+1 >= len(b) {
		return 0
	}
	switch b[i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2
	case 'u':
		if i+6 <= len(b) && isHex(b[i+2]) && isHex(b[i+3]) && isHex(b[i+4]) && isHex(b[i+5]) {
			return 6
		}
	}
	return 0
}

// skipString returns the index after the string at b[i] in a text Scan or
// Parse accepted: only '"' and '\\' matter there, 8 bytes at a time.
func skipString(b []byte, i int) int {
	i++
	b, n := b[:len(b):len(b)], len(b) // capped: a word read past the end panics, never reads beyond it
	for {
		for i+8 <= n {
			x := binary.LittleEndian.Uint64(b[i : i+8])
			q := x ^ (swarLo * '"')
			s := x ^ (swarLo * '\\')
			if m := ((q-swarLo)&^q | (s-swarLo)&^s) & swarHi; m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
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

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

func hexVal(c byte) uint16 {
	switch {
	case c >= '0' && c <= '9':
		return uint16(c - '0')
	case c >= 'a' && c <= 'f':
		return uint16(c - 'a' + 10)
	}
	return uint16(c - 'A' + 10)
}

func hex4(b []byte) uint16 {
	return hexVal(b[0])<<12 | hexVal(b[1])<<8 | hexVal(b[2])<<4 | hexVal(b[3])
}

// unescapeInto decodes the body of a string scanString accepted into out
// (len(out) >= len(body): decoding never lengthens) and returns the decoded
// length. A surrogate pair becomes its code point, a lone surrogate its
// 3-byte generalized (WTF-8) encoding, as JSON.parse keeps it.
func unescapeInto(out, body []byte) int {
	j := 0
	// No loop condition: at the body's end IndexByte finds no backslash.
	for i := 0; ; {
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
				j += copy(out[j:], appendSurrogate(out[j:j], u))
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

// unescape returns the decoded body of a string scanString accepted that
// holds an escape (so it decodes to at least one byte), in one allocation: the string is made from a fresh buffer that nothing else
// references or writes, as strings.Builder does.
func unescape(body []byte) string {
	out := make([]byte, len(body))
	return unsafe.String(&out[0], unescapeInto(out, body))
}

// scanNumber returns the index after the JSON number starting at b[i], or
// -1 when there is none. Every caller has seen b[i], a '-' or a digit.
func scanNumber(b []byte, i int) int {
	n := len(b)
	if b[i] == '-' {
		i++
	}
	switch {
	case i < n && b[i] == '0':
		i++
	case i < n && b[i]-'1' < 9:
		i = skipDigits(b, i)
	default:
		return -1
	}
	if i < n && b[i] == '.' {
		s := i + 1
		if i = skipDigits(b, s); i == s {
			return -1
		}
	}
	if i < n && (b[i] == 'e' || b[i] == 'E') {
		s := i + 1
		if s < n && (b[s] == '+' || b[s] == '-') {
			s++
		}
		if i = skipDigits(b, s); i == s {
			return -1
		}
	}
	return i
}

// skipDigits returns the index after the digits, if any, at b[i].
func skipDigits(b []byte, i int) int {
	for i < len(b) && b[i]-'0' < 10 {
		i++
	}
	return i
}

// numberValue is JSON.parse's double for a valid number lexeme: correctly
// rounded, ±Inf on overflow (JSON.parse("1e400") is Infinity), -0 kept.
func numberValue(lex []byte) float64 {
	if x, neg, ok := smallInt(lex); ok {
		f := float64(x)
		if neg {
			f = -f // -0 kept
		}
		return f
	}
	f, _ := strconv.ParseFloat(string(lex), 64) // only range errors, with JS's answers
	return f
}

// invalidUTF8 returns the offset and the bytes of the first maximal
// invalid UTF-8 subsequence of b (WHATWG), or -1 when b is valid UTF-8.
func invalidUTF8(b []byte) (int, []byte) {
	if utf8.Valid(b) {
		return -1, nil
	}
	// No loop condition: b is not UTF-8, so the walk meets a bad step.
	for i := 0; ; {
		size, ok := utf8Step(b, i)
		if !ok {
			return i, b[i : i+size]
		}
		i += size
	}
}

// utf8Step reads one WHATWG UTF-8 step at b[i]: a valid sequence (ok) or a
// maximal invalid subsequence, which a replacing decoder turns into one
// U+FFFD. size is at least 1.
func utf8Step(b []byte, i int) (size int, ok bool) {
	c := b[i]
	if c < 0x80 {
		return 1, true
	}
	need, lo, hi := 0, byte(0x80), byte(0xBF)
	switch {
	case c >= 0xC2 && c <= 0xDF:
		need = 1
	case c >= 0xE0 && c <= 0xEF:
		need = 2
		if c == 0xE0 {
			lo = 0xA0
		} else if c == 0xED {
			hi = 0x9F
		}
	case c >= 0xF0 && c <= 0xF4:
		need = 3
		if c == 0xF0 {
			lo = 0x90
		} else if c == 0xF4 {
			hi = 0x8F
		}
	default:
		return 1, false
	}
	j := i + 1
	for k := 0; k < need; k++ {
		if j >= len(b) || b[j] < lo || b[j] > hi {
			// The offending byte starts the next step.
			return j - i, false
		}
		lo, hi = 0x80, 0xBF
		j++
	}
	return j - i, true
}

// smallInt reads a lexeme of up to 15 digits, maybe after '-': its
// magnitude and sign, exact in an int64 and in a double (below 2^53). ok
// is false for any other text, which only ParseFloat reads exactly.
func smallInt(lex []byte) (mag int64, neg, ok bool) {
	d := lex
	if len(d) > 0 && d[0] == '-' {
		d, neg = d[1:], true
	}
	if len(d) == 0 || len(d) > 15 {
		return 0, false, false
	}
	for _, c := range d {
		if c-'0' >= 10 {
			return 0, false, false
		}
		mag = mag*10 + int64(c-'0')
	}
	return mag, neg, true
}
