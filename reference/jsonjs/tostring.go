package jsonjs

import (
	"fmt"
	"strings"
)

// ToString is ECMAScript ToString (String(v)) of a JSON value, as a template
// literal prints it. Arrays join their elements with "," (null elements
// print as nothing, nested arrays flatten the same way); it walks with an
// explicit stack so that no input depth can exhaust the Go stack.
func ToString(v Value) string {
	var b strings.Builder
	type frame struct {
		items []Value
		next  int
	}
	var stack []frame
	write := func(v Value) {
		switch v.Kind() {
		case Array:
			items, _ := v.Items()
			stack = append(stack, frame{items: items})
		case Object:
			b.WriteString("[object Object]")
		case String:
			s, _ := v.Str()
			b.WriteString(s)
		case Number:
			f, _ := v.Float()
			b.WriteString(FormatNumber(f))
		case Bool:
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
