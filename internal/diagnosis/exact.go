package diagnosis

import (
	"math"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// inputText is an op input as JSON text the reference reads back to the
// same value, members in insertion order. jsonjs.Marshal is JSON.stringify,
// which writes array-index names first, -0 as 0 and an overflowing number
// as null: a model run on that text would answer
// another input (a -0 line number the reference refuses becomes a 0 it
// accepts). Where the value holds such a number, its numbers are written
// by their source text (Lexeme), or as -0 and ±1e400.
func inputText(v jsonjs.Value) []byte {
	if !lossy(v) { // members as inserted: JSON.stringify's order would lose it
		return jsonjs.AppendLayout(nil, v, jsonjs.Layout{InsertionOrder: true})
	}
	return appendExact(nil, v)
}

// lossy reports whether JSON.stringify would not write v back as read:
// it holds a -0 or a non-finite number.
func lossy(v jsonjs.Value) bool {
	stack := []jsonjs.Value{v}
	for len(stack) > 0 {
		v, stack = stack[len(stack)-1], stack[:len(stack)-1]
		if x, ok := v.Float(); ok && (math.IsInf(x, 0) || x == 0 && math.Signbit(x)) {
			return true
		}
		if items, ok := v.Items(); ok {
			stack = append(stack, items...)
		}
		if members, ok := v.Members(); ok {
			for _, m := range members {
				stack = append(stack, m.Value)
			}
		}
	}
	return false
}

// appendExact writes v, numbers by their source text.
func appendExact(dst []byte, v jsonjs.Value) []byte {
	if x, ok := v.Float(); ok {
		if lex, ok := v.Lexeme(); ok {
			return append(dst, lex...)
		}
		switch {
		case math.IsInf(x, 1):
			return append(dst, "1e400"...)
		case math.IsInf(x, -1):
			return append(dst, "-1e400"...)
		case x == 0 && math.Signbit(x):
			return append(dst, "-0"...)
		}
		return jsonjs.AppendNumber(dst, x)
	}
	if items, ok := v.Items(); ok {
		dst = append(dst, '[')
		for i, it := range items {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendExact(dst, it)
		}
		return append(dst, ']')
	}
	if members, ok := v.Members(); ok {
		dst = append(dst, '{')
		for i, m := range members {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(jsonjs.AppendString(dst, m.Key), ':')
			dst = appendExact(dst, m.Value)
		}
		return append(dst, '}')
	}
	return jsonjs.Append(dst, v)
}
