package jsonjs_test

import (
	"math"

	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// mustParse parses JSON text with JS semantics and fails the spec on error.
func mustParse(text string) jsonjs.Value {
	v, err := jsonjs.Parse([]byte(text))
	ExpectWithOffset(1, err).NotTo(HaveOccurred(), "%q", text)
	return v
}

// marshal returns the compact JSON.stringify text of v.
func marshal(v jsonjs.Value) string { return string(jsonjs.Marshal(v)) }

// pretty returns JSON.stringify(v, null, 2) (no compact cut-off).
func pretty(v jsonjs.Value) string { return string(jsonjs.AppendPretty(nil, v, 2, 1000)) }

// lone returns the WTF-8 encoding of a lone UTF-16 surrogate code unit, as
// jsonjs stores it (ED A0..BF 80..BF).
func lone(u uint16) string {
	return string([]byte{0xE0 | byte(u>>12), 0x80 | byte(u>>6)&0x3F, 0x80 | byte(u)&0x3F})
}

// jsRoundTrip is what JSON.parse(JSON.stringify(v)) gives in JavaScript:
// non-finite numbers become null, everything else is unchanged.
func jsRoundTrip(v jsonjs.Value) jsonjs.Value {
	switch v.Kind() {
	case jsonjs.Number:
		f, _ := v.Float()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return jsonjs.NullValue()
		}
	case jsonjs.Array:
		items, _ := v.Items()
		out := make([]jsonjs.Value, len(items))
		for i, it := range items {
			out[i] = jsRoundTrip(it)
		}
		return jsonjs.ArrayValue(out...)
	case jsonjs.Object:
		members, _ := v.Members()
		out := make([]jsonjs.Member, len(members))
		for i, m := range members {
			out[i] = jsonjs.Member{Key: m.Key, Value: jsRoundTrip(m.Value)}
		}
		return jsonjs.ObjectValue(out...)
	}
	return v
}

// keysOf lists the keys of members in order.
func keysOf(members []jsonjs.Member) []string {
	out := make([]string, len(members))
	for i, m := range members {
		out[i] = m.Key
	}
	return out
}
