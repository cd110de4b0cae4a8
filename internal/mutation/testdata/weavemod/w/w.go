// Package w is the weave's test subject (weave_test.go): each function
// holds forms the weave writes differently, and its result shows whether
// a woven mutant computes what the same mutant applied to the source does.
package w

import (
	"strings"
	"time"
)

// Level is a named integer type: a helper instantiated with it must keep it.
type Level uint8

// Flag is a named bool type.
type Flag bool

const (
	base  = 1 << 3
	limit = base*2 + 1 // a constant expression: woven whole
)

var table [base + 1]int // an array length: left to the overlay path

// guard stops a loop a mutant makes endless.
type guard int

func (g *guard) tick() {
	if *g++; *g > 1000 {
		panic("endless")
	}
}

// Relational compares, within a logical chain.
func Relational(a, b int) (bool, bool, bool) {
	x := a < b && b <= limit || a == 0
	y := a >= b || !(a != b) && b > 1
	z := len("abc") > a
	return x, y, z
}

// Arith mixes typed, untyped and named operands and shifts.
func Arith(a, b int, l Level, f float64) (int, Level, float64, uint64, int64) {
	n := a*b + a/max(b, 1) - a%max(b, 1)
	l2 := l<<1 | l>>1&3
	g := f*1.5 - f/2
	u := uint64(a) << (uint(b) & 7)
	d := int64(time.Duration(a) * time.Millisecond / time.Microsecond)
	return n, l2, g, u, d
}

// Consts holds constants in constant and non-constant contexts.
func Consts(a int) (int, float64, int, bool) {
	x := a + 1
	f := 1 / 2 * float64(a) // 0: integer constants divide first
	s := []int{0, 1, 2}[1]
	t := true
	if a == 0 {
		t = false
	}
	return x, f, s, t
}

// Loops steps with ++, --, += and -= in statements and for-posts.
func Loops(n int) (int, int, Level) {
	var g guard
	s, i := 0, 0
	for j := 0; j < n; j++ {
		g.tick()
		s += j
	}
	for i = n; i > 0; i -= 2 {
		g.tick()
		s -= 1
	}
	var l Level
	l++
	l += 2
	m := map[string]int{}
	m["k"]++
	return s, i + m["k"], l
}

// Strings concatenates: + on strings has no woven form.
func Strings(a string, n int) (string, int) {
	out := a + "-" + strings.Repeat("x", n)
	out += "!"
	return out, len(out) - 1
}

// Named uses named bool types the woven bool forms do not fit.
func Named(a, b int) Flag {
	var f Flag = a < b
	if f && a > 0 {
		return true
	}
	return f
}

// Cond negates conditions of if and for, a bare bool among them.
func Cond(a int, ok bool) int {
	var g guard
	r := 0
	if ok {
		r++
	}
	for a > 0 {
		g.tick()
		a /= 2
		r++
	}
	table[0] = r
	return table[0]
}

// Union is a generic function whose type union has a |.
func Union[T ~int | ~int64](a, b T) T {
	if a > b {
		return a - b
	}
	return b - a
}
