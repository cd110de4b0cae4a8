package logcheck

import (
	"math"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// The checker reads each line with jsonjs.Lazy: the line is validated once
// and only the values a check needs are decoded. Values and strings are
// copies (jsonjs.Lazy.Str, Lazy.Value), so they may be kept after the line.
// A line that is not UTF-8 is reported under LOG-1 and then read as a JS
// host decoding it would (U+FFFD), explicitly: str and value.

type (
	raw    = jsonjs.Raw
	member = jsonjs.RawMember
)

// str decodes a string of the current line.
func (c *checker) str(r raw) (string, bool) {
	if c.validUTF8 {
		return c.lz.Str(r)
	}
	return r.StrReplacing()
}

// value builds the tree of a value of the current line.
func (c *checker) value(r raw) jsonjs.Value {
	if c.validUTF8 {
		return c.lz.Value(r)
	}
	return r.ValueReplacing()
}

// tree is value for a tree used only until the next tree call.
func (c *checker) tree(r raw) jsonjs.Value {
	if c.validUTF8 {
		return c.lz.Tree(r)
	}
	return r.ValueReplacing()
}

// obj returns the members of an object, from the line's arena.
func (c *checker) obj(r raw) []member {
	start := len(c.marena)
	c.marena = c.lz.Members(c.marena, r)
	return c.marena[start:len(c.marena):len(c.marena)]
}

// arr returns the elements of an array, from the line's arena.
func (c *checker) arr(r raw) []raw {
	start := len(c.rarena)
	c.rarena = c.lz.Items(c.rarena, r)
	return c.rarena[start:len(c.rarena):len(c.rarena)]
}

// get returns the value of the last member named key (JSON.parse: the
// last duplicate wins).
func get(ms []member, key string) (raw, bool) {
	for i := len(ms) - 1; i >= 0; i-- {
		if string(ms[i].Key) == key {
			return ms[i].Value, true
		}
	}
	return nil, false
}

const maxSafe = 1<<53 - 1

// safeInt reports Number.isSafeInteger for a number.
func safeInt(r raw) (int64, bool) {
	if mag, neg, ok := r.SmallInt(); ok {
		if neg {
			return -mag, true
		}
		return mag, true
	}
	return floatSafeInt(r)
}

// floatSafeInt is safeInt for any text, through Float.
func floatSafeInt(r raw) (int64, bool) {
	f, ok := r.Float()
	if !ok || f != math.Trunc(f) || math.Abs(f) > maxSafe {
		return 0, false
	}
	return int64(f), true
}

// nonNegInt is a safe integer ≥ 0 (−0 counts as 0 unless noNegZero).
func nonNegInt(r raw, noNegZero bool) (int64, bool) {
	if mag, neg, ok := r.SmallInt(); ok {
		if neg && (mag != 0 || noNegZero) {
			return 0, false
		}
		return mag, true
	}
	return floatNonNegInt(r, noNegZero)
}

// floatNonNegInt is nonNegInt for any text, through Float.
func floatNonNegInt(r raw, noNegZero bool) (int64, bool) {
	f, ok := r.Float()
	if !ok || f != math.Trunc(f) || f < 0 || f > maxSafe {
		return 0, false
	}
	if noNegZero && f == 0 && math.Signbit(f) {
		return 0, false
	}
	return int64(f), true
}
