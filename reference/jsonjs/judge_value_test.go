package jsonjs_test

import (
	"math"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// NaN equals only NaN (NumberValue allows it; shallowEqual's NaN clause):
// a comparator that took either side's NaN as a match would call
// NaN and 1 equal, and every harness that answered NaN would pass.
func TestJudgeEqualNaNOnlyMatchesNaN(t *testing.T) {
	nan := jsonjs.NumberValue(math.NaN())
	for _, c := range []struct {
		a, b  jsonjs.Value
		equal bool
	}{
		{nan, nan, true},
		{nan, jsonjs.NumberValue(1), false},
		{jsonjs.NumberValue(0), nan, false},
		{jsonjs.ArrayValue(nan), jsonjs.ArrayValue(jsonjs.NumberValue(math.Inf(1))), false},
	} {
		if got := jsonjs.Equal(c.a, c.b); got != c.equal {
			t.Errorf("Equal(%v, %v) = %v, want %v", c.a, c.b, got, c.equal)
		}
		if got, want := jsonjs.FirstDifference(c.a, c.b) == "", c.equal; got != want {
			t.Errorf("FirstDifference(%v, %v) = %q", c.a, c.b, jsonjs.FirstDifference(c.a, c.b))
		}
	}
}

// A member only b has is reported with InA false and InB true (and one
// only a has the other way round), whatever max is.
func TestJudgeDifferencesMarkTheSideThatHasAMember(t *testing.T) {
	a := jsonjs.ObjectValue(jsonjs.Member{Key: "x", Value: jsonjs.IntValue(1)})
	b := jsonjs.ObjectValue(jsonjs.Member{Key: "y", Value: jsonjs.IntValue(2)})
	ds := jsonjs.Differences(a, b, 0)
	if len(ds) != 2 {
		t.Fatalf("Differences = %v, want 2", ds)
	}
	if d := ds[0]; d.Path != "$.x" || !d.InA || d.InB {
		t.Errorf("first = %+v, want $.x in a only", d)
	}
	if d := ds[1]; d.Path != "$.y" || d.InA || !d.InB {
		t.Errorf("second = %+v, want $.y in b only", d)
	}
}

// Equal stops at the first difference: the deep array after it is never
// opened, so Equal allocates as much as on the same pair without it (a
// walk that went on would grow its stack, one frame a level).
func TestJudgeEqualStopsAtTheFirstDifference(t *testing.T) {
	deep := jsonjs.NullValue()
	for range 200 {
		deep = jsonjs.ArrayValue(deep)
	}
	short := testing.AllocsPerRun(50, func() {
		if jsonjs.Equal(jsonjs.ArrayValue(jsonjs.IntValue(1)), jsonjs.ArrayValue(jsonjs.IntValue(2))) {
			t.Fatal("equal")
		}
	})
	a, b := jsonjs.ArrayValue(jsonjs.IntValue(1), deep), jsonjs.ArrayValue(jsonjs.IntValue(2), deep)
	long := testing.AllocsPerRun(50, func() {
		if jsonjs.Equal(a, b) {
			t.Fatal("equal")
		}
	})
	if long > short {
		t.Errorf("Equal allocates %v times past a first difference, %v without the value after it", long, short)
	}
}

// FirstDifference builds the first difference's path only: as many
// allocations with 40 differences as with one.
func TestJudgeFirstDifferenceBuildsOnePath(t *testing.T) {
	pair := func(n int) (jsonjs.Value, jsonjs.Value) {
		as, bs := make([]jsonjs.Value, n), make([]jsonjs.Value, n)
		for i := range as {
			as[i], bs[i] = jsonjs.IntValue(i), jsonjs.IntValue(-i-1)
		}
		return jsonjs.ArrayValue(as...), jsonjs.ArrayValue(bs...)
	}
	a1, b1 := pair(1)
	a40, b40 := pair(40)
	one := testing.AllocsPerRun(50, func() { jsonjs.FirstDifference(a1, b1) })
	many := testing.AllocsPerRun(50, func() { jsonjs.FirstDifference(a40, b40) })
	if got := jsonjs.FirstDifference(a40, b40); got != "$[0]" {
		t.Fatalf("FirstDifference = %q", got)
	}
	if many != one {
		t.Errorf("FirstDifference allocates %v times with 40 differences, %v with one", many, one)
	}
}

// With sizes its members for one more: adding a key costs the same
// allocations as replacing one.
func TestJudgeWithAddsAMemberWithoutGrowing(t *testing.T) {
	v := jsonjs.ObjectValue(jsonjs.Member{Key: "a", Value: jsonjs.IntValue(1)}, jsonjs.Member{Key: "b", Value: jsonjs.IntValue(2)})
	replace := testing.AllocsPerRun(50, func() { v.With("a", jsonjs.IntValue(3)) })
	add := testing.AllocsPerRun(50, func() { v.With("c", jsonjs.IntValue(3)) })
	if got := string(jsonjs.Marshal(v.With("c", jsonjs.IntValue(3)))); got != `{"a":1,"b":2,"c":3}` {
		t.Fatalf("With = %s", got)
	}
	if add != replace {
		t.Errorf("With allocates %v times to add a key, %v to replace one", add, replace)
	}
}

// AppendPrefix of 0 bytes (or fewer) appends nothing and is never whole:
// Marshal is at least one byte.
func TestJudgeAppendPrefixOfNothing(t *testing.T) {
	for _, n := range []int{0, -1} {
		for _, v := range []jsonjs.Value{jsonjs.NullValue(), jsonjs.IntValue(7), jsonjs.ArrayValue()} {
			out, whole := jsonjs.AppendPrefix([]byte("x"), v, n)
			if string(out) != "x" || whole {
				t.Errorf("AppendPrefix(x, %s, %d) = %q, %v; want \"x\", false", jsonjs.Marshal(v), n, out, whole)
			}
		}
	}
}

// AppendPrefix appends to what dst holds the first n bytes of Marshal(v)
// and is whole exactly when n covers them all; the judge's excerpts and
// its MaxWholeBytes rest on both.
func TestJudgeAppendPrefixIsMarshalsPrefix(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v := genValue(3).Draw(t, "v")
		dst := []byte(rapid.StringN(0, 4, -1).Draw(t, "dst"))
		full := jsonjs.Marshal(v)
		n := rapid.IntRange(0, len(full)+2).Draw(t, "n")
		out, whole := jsonjs.AppendPrefix(append([]byte(nil), dst...), v, n)
		want := string(dst) + string(full[:min(n, len(full))])
		if string(out) != want || whole != (n >= len(full)) {
			t.Fatalf("AppendPrefix(%q, %s, %d) = %q, %v; want %q, %v", dst, full, n, out, whole, want, n >= len(full))
		}
	})
}

// AppendPrefix stops before the event that would start past n: an excerpt
// of a value holding one huge string writes the bracket, not the string.
func TestJudgeAppendPrefixStopsAtTheCut(t *testing.T) {
	v := jsonjs.ArrayValue(jsonjs.StringValue(strings.Repeat("a", 1<<20)))
	var out []byte
	bytes := allocated(func() { out, _ = jsonjs.AppendPrefix(nil, v, 1) })
	if string(out) != "[" || bytes >= 1<<16 {
		t.Errorf("AppendPrefix([1 MiB string], 1) = %q after %d bytes allocated; want \"[\" and under 64 KiB", out, bytes)
	}
}

// SizeUpTo agrees with Marshal's length: whole at n = size, over n (and
// not whole) at n = size-1; members count their key, quotes and colon.
func TestJudgeSizeUpToMatchesMarshal(t *testing.T) {
	obj := jsonjs.ObjectValue(jsonjs.Member{Key: "a b", Value: jsonjs.IntValue(1)})
	if got, whole := jsonjs.SizeUpTo(obj, 100); got != len(`{"a b":1}`) || !whole {
		t.Fatalf("SizeUpTo({\"a b\":1}, 100) = %d, %v", got, whole)
	}
	rapid.Check(t, func(t *rapid.T) {
		v := genJudgeValue(3).Draw(t, "v")
		size := len(jsonjs.Marshal(v))
		if got, whole := jsonjs.SizeUpTo(v, size); got != size || !whole {
			t.Fatalf("SizeUpTo(%s, %d) = %d, %v", jsonjs.Marshal(v), size, got, whole)
		}
		if got, whole := jsonjs.SizeUpTo(v, size-1); got <= size-1 || whole {
			t.Fatalf("SizeUpTo(%s, %d) = %d, %v", jsonjs.Marshal(v), size-1, got, whole)
		}
	})
}

// The walks' chunked stack (stack.go) pops back through every chunk in
// order: a value 3,200 levels deep (objects outside, arrays inside) spans
// three chunks (the first grows as a slice does, past 1,024), and each
// closer must be its own container's.
func TestJudgeStackPopsThroughEveryChunk(t *testing.T) {
	const n = 1600
	v := jsonjs.IntValue(1)
	for range n {
		v = jsonjs.ArrayValue(v)
	}
	for range n {
		v = jsonjs.ObjectValue(jsonjs.Member{Key: "a", Value: v})
	}
	want := strings.Repeat(`{"a":`, n) + strings.Repeat("[", n) + "1" + strings.Repeat("]", n) + strings.Repeat("}", n)
	if got := string(jsonjs.Marshal(v)); got != want {
		i := 0
		for i < min(len(got), len(want)) && got[i] == want[i] {
			i++
		}
		t.Fatalf("Marshal of %d objects around %d arrays differs at byte %d of %d", n, n, i, len(want))
	}
}

// A text refused while deeper than one chunk of Parse's stack of open
// containers leaves chunks below the first; the reset after it keeps the
// first for the next text, which then parses as usual.
func TestJudgeParseResetsAfterADeepRefusal(t *testing.T) {
	for _, depth := range []int{1500, 3000} {
		if _, err := jsonjs.Parse([]byte(strings.Repeat("[", depth))); err == nil {
			t.Fatalf("Parse of %d unclosed brackets: no error", depth)
		}
		if v, err := jsonjs.Parse([]byte(`{"a":[1,2]}`)); err != nil || string(jsonjs.Marshal(v)) != `{"a":[1,2]}` {
			t.Fatalf("Parse after %d unclosed brackets: %s, %v", depth, jsonjs.Marshal(v), err)
		}
	}
}
