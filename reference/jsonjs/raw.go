package jsonjs

// Raw members: the text of an object's members as written, for callers
// that must keep what parsing loses (duplicate keys, number spellings such
// as 1e400 or -0) or that route on a few members of a line without
// parsing the rest. The text must be valid JSON (Parse or json.Valid
// accepted it); these functions do not validate.

// EachRawMember calls fn with the raw key token (quotes included) and the
// raw value of each member of obj, a JSON object's text, in order, until fn
// returns false.
func EachRawMember(obj []byte, fn func(key, val []byte) bool) {
	i := RawSkipSpace(obj, 0) + 1 // past '{'
	for {
		i = RawSkipSpace(obj, i)
		if i >= len(obj) || obj[i] == '}' {
			return
		}
		if obj[i] == ',' {
			i = RawSkipSpace(obj, i+1)
		}
		ks := i
		i = RawSkipString(obj, i)
		key := obj[ks:i]
		i = RawSkipSpace(obj, i) + 1 // past ':'
		i = RawSkipSpace(obj, i)
		vs := i
		i = RawSkipValue(obj, i)
		if !fn(key, obj[vs:i]) {
			return
		}
	}
}

// RawMembers returns, for each of names, the raw value of obj's member of
// that name (the last one when it repeats, as with JSON.parse; nil when it
// has none).
func RawMembers(obj []byte, names ...string) [][]byte {
	vals := make([][]byte, len(names))
	EachRawMember(obj, func(k, v []byte) bool {
		for j, name := range names {
			if RawKeyIs(k, name) {
				vals[j] = v
				break
			}
		}
		return true
	})
	return vals
}

// RawKeyIs reports whether a raw key token names name: compared exactly
// (names are case-sensitive), after decoding escapes as JSON.parse does.
func RawKeyIs(raw []byte, name string) bool {
	if len(raw) < 2 {
		return false
	}
	for _, c := range raw {
		if c == '\\' {
			v, err := Parse(raw)
			s, ok := v.Str()
			return err == nil && ok && s == name
		}
	}
	return string(raw[1:len(raw)-1]) == name
}

// CompactRaw returns the JSON text b without the whitespace outside its
// strings.
func CompactRaw(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); {
		switch c := b[i]; c {
		case '"':
			j := RawSkipString(b, i)
			out = append(out, b[i:j]...)
			i = j
			continue
		case ' ', '\t', '\n', '\r':
		default:
			out = append(out, c)
		}
		i++
	}
	return out
}

// RawSkipSpace returns the index of the first byte at or after i that is
// not JSON whitespace.
func RawSkipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// RawSkipString returns the index just past the string token starting at i
// (len(b) when it is unterminated).
func RawSkipString(b []byte, i int) int { return skipString(b, i) }

// RawSkipValue returns the index just past the value starting at i.
func RawSkipValue(b []byte, i int) int {
	if i >= len(b) {
		return len(b)
	}
	switch b[i] {
	case '"':
		return RawSkipString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				i = RawSkipString(b, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return len(b)
	default: // number, true, false, null
		for i < len(b) && b[i] != ',' && b[i] != '}' && b[i] != ']' && b[i] != ' ' &&
			b[i] != '\t' && b[i] != '\n' && b[i] != '\r' {
			i++
		}
		return i
	}
}
