package spill

import (
	"fmt"
	"math"
	"strings"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// ParseMaxInlineBytes validates the policy's one setting (SPILL-CFG-1): a
// number holding an integer >= 0 (-0 passes, as it does in JavaScript).
// Anything else fails with upstream's exact message, the value printed as
// JavaScript's String(value) prints it: "-1", "1.5", "Infinity", "null",
// "abc" for a string, "[object Object]", "1,2" for an array. Integers beyond
// what an int holds are clamped: such a cap keeps everything anyway.
func ParseMaxInlineBytes(v jsonjs.Value) (int, error) {
	f, ok := v.Float()
	if !ok || !v.IsInteger() || f < 0 {
		return 0, fmt.Errorf("spill-policy: maxInlineBytes must be a non-negative integer (got %s)", jsString(v))
	}
	if f >= math.MaxInt {
		return math.MaxInt, nil
	}
	return int(f), nil
}

// jsString is JavaScript's String(v) for a JSON value, as a template
// literal prints it. Arrays join their elements with "," (null elements
// print as nothing, nested arrays flatten the same way); it walks with an
// explicit stack so that no input depth can exhaust the Go stack.
func jsString(v jsonjs.Value) string {
	var b strings.Builder
	type frame struct {
		items []jsonjs.Value
		next  int
	}
	var stack []frame
	write := func(v jsonjs.Value) {
		switch v.Kind() {
		case jsonjs.Array:
			items, _ := v.Items()
			stack = append(stack, frame{items: items})
		case jsonjs.Object:
			b.WriteString("[object Object]")
		case jsonjs.String:
			s, _ := v.Str()
			b.WriteString(s)
		case jsonjs.Number:
			f, _ := v.Float()
			b.WriteString(jsonjs.FormatNumber(f))
		case jsonjs.Bool:
			t, _ := v.Bool()
			fmt.Fprint(&b, t)
		default:
			if len(stack) == 0 { // String(null); inside an array null is ""
				b.WriteString("null")
			}
		}
	}
	write(v)
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next == len(top.items) {
			stack = stack[:len(stack)-1]
			continue
		}
		if top.next > 0 {
			b.WriteByte(',')
		}
		item := top.items[top.next]
		top.next++
		write(item)
	}
	return b.String()
}
