package jsonjs

import (
	"unicode/utf8"
)

const hexDigits = "0123456789abcdef"

// isSurrogateAt reports whether s[i:] starts with the WTF-8 encoding of a lone
// surrogate (U+D800..U+DFFF as ED A0..BF 80..BF).
func isSurrogateAt(s string, i int) bool {
	return i+2 < len(s) && s[i] == 0xED && s[i+1] >= 0xA0 && s[i+1] <= 0xBF && s[i+2]&0xC0 == 0x80
}

// surrogateUnit returns the UTF-16 code unit encoded at s[i:i+3].
func surrogateUnit(s string, i int) uint16 {
	return uint16(s[i]&0x0F)<<12 | uint16(s[i+1]&0x3F)<<6 | uint16(s[i+2]&0x3F)
}

// appendSurrogate appends the WTF-8 encoding of a surrogate code unit.
func appendSurrogate(dst []byte, u uint16) []byte {
	return append(dst, 0xE0|byte(u>>12), 0x80|byte(u>>6)&0x3F, 0x80|byte(u)&0x3F)
}

// ToUTF8 converts a WTF-8 string to UTF-8 the way a JavaScript UTF-8 encoder
// (TextEncoder, Buffer.from) does: every lone surrogate becomes U+FFFD. Bytes
// that are not WTF-8 at all (impossible for a JS string) also become U+FFFD,
// one per byte.
func ToUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	out := make([]byte, 0, len(s)+8)
	for i := 0; i < len(s); {
		if isSurrogateAt(s, i) {
			out = append(out, "\uFFFD"...)
			i += 3
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 {
			out = append(out, "\uFFFD"...)
			i++
			continue
		}
		out = append(out, s[i:i+size]...)
		i += size
	}
	return string(out)
}

// UTF8Len returns len(ToUTF8(s)) without allocating: the byte length a JS
// UTF-8 encoder produces for s.
func UTF8Len(s string) int {
	if utf8.ValidString(s) {
		return len(s)
	}
	n := 0
	for i := 0; i < len(s); {
		if isSurrogateAt(s, i) {
			n += 3
			i += 3
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 {
			n += 3
			i++
			continue
		}
		n += size
		i += size
	}
	return n
}

// DecodeUTF8 decodes bytes with the WHATWG Encoding Standard "UTF-8 decode
// without BOM" algorithm in replacement mode (RET-UTF8-3 step 2): each
// maximal invalid subsequence becomes one U+FFFD. Neither ranging over a Go
// string nor strings.ToValidUTF8 gives the same count of replacements.
func DecodeUTF8(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	out := make([]byte, 0, len(b)+8)
	for i := 0; i < len(b); {
		size, ok := utf8Step(b, i)
		if ok {
			out = append(out, b[i:i+size]...)
		} else {
			out = append(out, "\uFFFD"...)
		}
		i += size
	}
	return string(out)
}

// AppendString appends s (WTF-8) as a JSON.stringify string literal: only ",
// \, the C0 controls and lone surrogates are escaped (SEARCH-JSON-1,
// CODE-STR-1); <, >, &, U+007F, U+2028, U+2029 and all other non-ASCII are
// written raw.
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < 0x80 {
			i++
			continue
		}
		if c >= 0x80 {
			if isSurrogateAt(s, i) {
				dst = append(dst, s[start:i]...)
				u := surrogateUnit(s, i)
				dst = append(dst, '\\', 'u', hexDigits[u>>12], hexDigits[u>>8&0xF], hexDigits[u>>4&0xF], hexDigits[u&0xF])
				i += 3
				start = i
				continue
			}
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size <= 1 {
				dst = append(dst, s[start:i]...)
				dst = append(dst, "\uFFFD"...)
				i++
				start = i
				continue
			}
			i += size
			continue
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"':
			dst = append(dst, '\\', '"')
		case '\\':
			dst = append(dst, '\\', '\\')
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
		}
		i++
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// StringSize returns len(AppendString(nil, s)) measured in UTF-8 bytes
// (lone surrogates are escaped, so they cost 6), without allocating.
func StringSize(s string) int {
	n := 2
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '"' || c == '\\' || c == '\b' || c == '\f' || c == '\n' || c == '\r' || c == '\t':
			n += 2
			i++
		case c < 0x20:
			n += 6
			i++
		case c < 0x80:
			n++
			i++
		case isSurrogateAt(s, i):
			n += 6
			i += 3
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size <= 1 {
				n += 3
				i++
				continue
			}
			n += size
			i += size
		}
	}
	return n
}

// ArrayIndex reports whether key is an ECMAScript array index: the canonical
// decimal form of an integer in [0, 2^32-2] (CODE-KEYS-1).
func ArrayIndex(key string) (uint32, bool) {
	if key == "" || len(key) > 10 || (len(key) > 1 && key[0] == '0') {
		return 0, false
	}
	var n uint64
	for i := 0; i < len(key); i++ {
		c := key[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
	}
	if n > 4294967294 {
		return 0, false
	}
	return uint32(n), true
}

// IsBlank reports whether s is empty after ECMAScript String.prototype.trim
// (SEARCH-ARGS-3): the JS whitespace and line terminators include U+FEFF and
// exclude U+0085, U+180E and U+200B, unlike Go's unicode.IsSpace.
func IsBlank(s string) bool {
	for _, r := range s {
		if !isJSWhitespace(r) {
			return false
		}
	}
	return true
}

func isJSWhitespace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0x00A0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}

// Concat joins two JS strings as JavaScript's + does. Its strings are UTF-16
// units side by side, so a lead surrogate ending a and a trail surrogate
// starting b become one code point: their two lone WTF-8 halves are replaced
// by the pair's 4-byte UTF-8 ("\ud800" + "\udc00" is U+10000, 4 bytes, not
// 6). Every other join is plain byte concatenation.
func Concat(a, b string) string {
	n := len(a)
	if n < 3 || !isSurrogateAt(a, n-3) || !isSurrogateAt(b, 0) {
		return a + b
	}
	lead, trail := surrogateUnit(a, n-3), surrogateUnit(b, 0)
	if lead >= 0xDC00 || trail < 0xDC00 {
		return a + b
	}
	var pair [utf8.UTFMax]byte
	k := utf8.EncodeRune(pair[:], 0x10000+(rune(lead)-0xD800)<<10+(rune(trail)-0xDC00))
	return a[:n-3] + string(pair[:k]) + b[3:]
}
