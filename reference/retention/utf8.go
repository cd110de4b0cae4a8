package retention

import "github.com/dsh-conform/conform/reference/jsonjs"

// TrimTrailingPartial drops an incomplete final UTF-8 sequence from a head
// cut, and nothing else (RET-UTF8-1): a complete sequence, a longer run of
// continuation bytes than its lead announces, or a byte that is no lead at
// all is left for the decoder.
func TrimTrailingPartial(b []byte) []byte {
	l := len(b)
	i := l - 1
	for i >= 0 && b[i]&0xC0 == 0x80 && l-i <= 3 {
		i--
	}
	if i < 0 {
		return b
	}
	var need int
	switch lead := b[i]; {
	case lead < 0x80:
		need = 1
	case lead < 0xE0:
		need = 2 // includes stray continuation bytes and C0/C1
	case lead < 0xF0:
		need = 3
	case lead < 0xF8:
		need = 4 // includes F5..F7
	default:
		return b
	}
	if l-i < need {
		return b[:i]
	}
	return b
}

// TrimLeadingContinuation drops every leading continuation byte from a tail
// cut (RET-UTF8-2).
func TrimLeadingContinuation(b []byte) []byte {
	i := 0
	for i < len(b) && b[i]&0xC0 == 0x80 {
		i++
	}
	return b[i:]
}

// Decode is the retainer's decoder (RET-UTF8-3): one leading BOM (EF BB BF)
// is removed, then WHATWG UTF-8 decoding with replacement. The removed BOM
// still counts as retained bytes (RET-UTF8-4).
func Decode(b []byte) string {
	if len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
		b = b[3:]
	}
	return jsonjs.DecodeUTF8(b)
}
