// Command show prints what package w's functions compute on fixed inputs,
// a panic as its message.
package main

import (
	"fmt"

	"example.com/weavemod/w"
)

func main() {
	for _, a := range []int{-3, 0, 1, 2, 7} {
		for _, b := range []int{0, 1, 5, 9} {
			show(func() any { x, y, z := w.Relational(a, b); return []any{x, y, z} })
			show(func() any {
				n, l, f, u, d := w.Arith(a, b, w.Level(a+b), float64(a)/3)
				return []any{n, l, f, u, d}
			})
			show(func() any { return w.Named(a, b) })
			show(func() any { return w.Union(a, b) })
		}
		show(func() any { x, f, s, t := w.Consts(a); return []any{x, f, s, t} })
		show(func() any { s, i, l := w.Loops(a); return []any{s, i, l} })
		show(func() any { s, n := w.Strings("a", a+3); return []any{s, n} })
		show(func() any { return []any{w.Cond(a, a > 1), w.Cond(a, false)} })
	}
}

func show(f func() any) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Println("panic:", r)
		}
	}()
	fmt.Printf("%v\n", f())
}
