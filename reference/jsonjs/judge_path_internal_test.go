package jsonjs

import (
	"runtime"
	"testing"
)

// member looks at index hint first, then scans; a hint past the end is
// only a miss. Callers pass objects without repeated keys, where both
// lookups agree, so the hint is seen here on a slice that repeats one.
func TestJudgeMemberLooksAtTheHintFirst(t *testing.T) {
	ms := []Member{{Key: "k", Value: IntValue(1)}, {Key: "k", Value: IntValue(2)}, {Key: "z", Value: IntValue(3)}}
	if v, ok := member(ms, "k", 1); !ok || v.n != 2 {
		t.Errorf("member(k, hint 1) = %v, %v; want the hinted 2", v.n, ok)
	}
	if v, ok := member(ms, "z", 0); !ok || v.n != 3 {
		t.Errorf("member(z, hint 0) = %v, %v; want 3 by the scan", v.n, ok)
	}
	for _, key := range []string{"k", "x"} {
		v, ok := member(ms, key, len(ms))
		if want := key == "k"; ok != want || (ok && v.n != 1) {
			t.Errorf("member(%s, hint len) = %v, %v", key, v.n, ok)
		}
	}
}

// bytesPerRun is the bytes f allocates a call, as testing.AllocsPerRun
// counts its allocations.
func bytesPerRun(runs int, f func()) uint64 {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	f()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range runs {
		f()
	}
	runtime.ReadMemStats(&after)
	return (after.TotalAlloc - before.TotalAlloc) / uint64(runs)
}

// differ.path measures a path before it writes it: one allocation of
// exactly its length. Each path here is 16 or 24 bytes long, a size class
// of Go's allocator, so a measure one byte short shows as a second
// allocation and one a byte long as a larger block (issue 23: a deep
// path built in one allocation). The steps cover an index of one digit
// before a carry ([9]) and of two ([10]), an identifier and a key that
// needs brackets and escapes.
func TestJudgeDiffPathIsMeasuredExactly(t *testing.T) {
	items := make([]Value, 12)
	arr := ArrayValue(items...)
	obj := func(key string) Value { return ObjectValue(Member{Key: key, Value: NullValue()}) }
	type step struct {
		v    Value
		next int
	}
	for _, c := range []struct {
		steps []step
		key   string
		want  string
	}{
		{[]step{{arr, 10}}, "abcdefghijk", "$[9].abcdefghijk"},
		{[]step{{arr, 11}}, "abcdefghij", "$[10].abcdefghij"},
		{[]step{{obj("a b"), 1}}, "abcdefg", `$["a b"].abcdefg`},
		{[]step{{obj(`"q`), 1}, {arr, 2}}, "a-bcdefgh", `$["\"q"][1]["a-bcdefgh"]`},
		{[]step{{obj("ab_1"), 1}, {arr, 11}, {arr, 1}}, "abcdefghij", `$.ab_1[10][0].abcdefghij`},
	} {
		if len(c.want) != 16 && len(c.want) != 24 {
			t.Fatalf("%s: %d bytes, not a size class", c.want, len(c.want))
		}
		var d differ
		for _, s := range c.steps {
			d.stack.push(diffFrame{a: s.v.c, b: s.v.c, next: s.next})
		}
		key := c.key
		if got := d.path(&key); got != c.want {
			t.Fatalf("path = %s, want %s", got, c.want)
		}
		if allocs := testing.AllocsPerRun(100, func() { d.path(&key) }); allocs != 1 {
			t.Errorf("%s: %v allocations, want 1", c.want, allocs)
		}
		if bytes := bytesPerRun(100, func() { d.path(&key) }); bytes != uint64(len(c.want)) {
			t.Errorf("%s: %d bytes allocated, want %d", c.want, bytes, len(c.want))
		}
	}
}
