package jsonjs_test

import (
	"math"
	"strconv"
	"testing"

	"pgregory.net/rapid"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// The comparator judges every answer (issue 22: who judges the judge):
// Equal, FirstDifference and Differences are checked against a plain
// recursive model on pairs of values that differ in one drawn way (a
// scalar, a kind, a container's size, a member renamed, added or dropped)
// or not at all (members reordered, 0 against -0), so a comparator that
// says "equal" too often, or names the wrong path, fails here.

// modelDiff is one expected difference.
type modelDiff struct {
	path     string
	a, b     jsonjs.Value
	inA, inB bool
}

// modelDiffs lists the differences of a and b in document order of a: a
// node that differs in kind, scalar or size is one difference at its path;
// an object's members missing on either side come before the differences
// inside its shared members.
func modelDiffs(a, b jsonjs.Value, path string, out *[]modelDiff) {
	if !modelShallow(a, b) {
		*out = append(*out, modelDiff{path, a, b, true, true})
		return
	}
	switch a.Kind() {
	case jsonjs.Array:
		as, _ := a.Items()
		bs, _ := b.Items()
		for i := range as {
			modelDiffs(as[i], bs[i], path+"["+strconv.Itoa(i)+"]", out)
		}
	case jsonjs.Object:
		as, _ := a.Members()
		bs, _ := b.Members()
		for _, m := range as {
			if !b.Has(m.Key) {
				*out = append(*out, modelDiff{path + modelStep(m.Key), m.Value, jsonjs.Value{}, true, false})
			}
		}
		for _, m := range bs {
			if !a.Has(m.Key) {
				*out = append(*out, modelDiff{path + modelStep(m.Key), jsonjs.Value{}, m.Value, false, true})
			}
		}
		for _, m := range as {
			if w, ok := b.Get(m.Key); ok {
				modelDiffs(m.Value, w, path+modelStep(m.Key), out)
			}
		}
	}
}

func modelShallow(a, b jsonjs.Value) bool {
	if a.Kind() != b.Kind() {
		return false
	}
	switch a.Kind() {
	case jsonjs.Bool:
		x, _ := a.Bool()
		y, _ := b.Bool()
		return x == y
	case jsonjs.Number:
		x, _ := a.Float()
		y, _ := b.Float()
		return x == y || math.IsNaN(x) && math.IsNaN(y)
	case jsonjs.String:
		x, _ := a.Str()
		y, _ := b.Str()
		return x == y
	case jsonjs.Array:
		x, _ := a.Items()
		y, _ := b.Items()
		return len(x) == len(y)
	case jsonjs.Object:
		x, _ := a.Members()
		y, _ := b.Members()
		return len(x) == len(y)
	}
	return true
}

// modelStep is .key for a JavaScript identifier (letters, _, $, digits
// after the first), else ["key"] with the key as a JSON string.
func modelStep(key string) string {
	ident := key != ""
	for i, c := range key {
		letter := c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !letter && !(i > 0 && c >= '0' && c <= '9') {
			ident = false
		}
	}
	if ident {
		return "." + key
	}
	return "[" + string(jsonjs.Marshal(jsonjs.StringValue(key))) + "]"
}

// judgeKeys mixes identifiers (with digits, _ and $) and keys that need
// brackets.
var judgeKeys = []string{"a", "b", "_x", "$", "a1", "Z", "z9_", "1a", "", "a b", "é", "\"q", "-"}

// genJudgeValue draws a small JSON value with unique member keys.
func genJudgeValue(depth int) *rapid.Generator[jsonjs.Value] {
	return rapid.Custom(func(t *rapid.T) jsonjs.Value {
		k := rapid.IntRange(0, 6).Draw(t, "kind")
		if depth <= 0 && k >= 5 {
			k = rapid.IntRange(0, 4).Draw(t, "leaf")
		}
		switch k {
		case 0:
			return jsonjs.NullValue()
		case 1:
			return jsonjs.BoolValue(rapid.Bool().Draw(t, "bool"))
		case 2:
			return jsonjs.NumberValue(rapid.SampledFrom([]float64{0, math.Copysign(0, -1), 1, -1, 2, 0.5, 1e21, 11, 10, 9}).Draw(t, "num"))
		case 3, 4:
			return jsonjs.StringValue(rapid.SampledFrom([]string{"", "a", "b", "ab", "\u00e9"}).Draw(t, "str"))
		case 5:
			n := rapid.IntRange(0, 12).Draw(t, "len")
			items := make([]jsonjs.Value, n)
			for i := range items {
				items[i] = genJudgeValue(depth-1).Draw(t, "item")
			}
			return jsonjs.ArrayValue(items...)
		default:
			keys := rapid.SliceOfDistinct(rapid.SampledFrom(judgeKeys), rapid.ID[string]).Draw(t, "keys")
			ms := make([]jsonjs.Member, len(keys))
			for i, key := range keys {
				ms[i] = jsonjs.Member{Key: key, Value: genJudgeValue(depth-1).Draw(t, "member")}
			}
			return jsonjs.ObjectValue(ms...)
		}
	})
}

// vary returns v changed in at most one drawn place, or reordered.
func vary(t *rapid.T, v jsonjs.Value, depth int) jsonjs.Value {
	items, isArr := v.Items()
	members, isObj := v.Members()
	switch what := rapid.IntRange(0, 9).Draw(t, "what"); {
	case what == 0:
		return genJudgeValue(depth).Draw(t, "other")
	case what == 1 && v.Kind() == jsonjs.Number:
		if f, _ := v.Float(); f == 0 {
			return jsonjs.NumberValue(math.Copysign(0, -1)) // equal: 0 is -0
		}
		return v
	case isArr && len(items) > 0 && what <= 5:
		i := rapid.IntRange(0, len(items)-1).Draw(t, "at")
		out := append([]jsonjs.Value(nil), items...)
		out[i] = vary(t, items[i], depth-1)
		return jsonjs.ArrayValue(out...)
	case isArr && what == 6:
		return jsonjs.ArrayValue(append(append([]jsonjs.Value(nil), items...), jsonjs.NullValue())...)
	case isObj && len(members) > 0 && what <= 4:
		i := rapid.IntRange(0, len(members)-1).Draw(t, "at")
		out := append([]jsonjs.Member(nil), members...)
		out[i].Value = vary(t, members[i].Value, depth-1)
		return jsonjs.ObjectValue(out...)
	case isObj && len(members) > 1 && what == 5: // reordered: equal
		out := append([]jsonjs.Member(nil), members...)
		i := rapid.IntRange(1, len(out)-1).Draw(t, "swap")
		out[0], out[i] = out[i], out[0]
		return jsonjs.ObjectValue(out...)
	case isObj && what == 6: // a member renamed to a key the object lacks
		for _, key := range judgeKeys {
			if !v.Has(key) && len(members) > 0 {
				out := append([]jsonjs.Member(nil), members...)
				i := rapid.IntRange(0, len(out)-1).Draw(t, "rename")
				out[i].Key = key
				return jsonjs.ObjectValue(out...)
			}
		}
		return v
	case isObj && len(members) > 0 && what == 7: // a member dropped
		i := rapid.IntRange(0, len(members)-1).Draw(t, "drop")
		out := append(append([]jsonjs.Member(nil), members[:i]...), members[i+1:]...)
		return jsonjs.ObjectValue(out...)
	}
	return v
}

func TestJudgeComparatorMatchesModel(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := genJudgeValue(3).Draw(t, "a")
		b := vary(t, a, 3)
		if rapid.Bool().Draw(t, "flip") {
			a, b = b, a
		}
		var want []modelDiff
		modelDiffs(a, b, "$", &want)
		ta, tb := string(jsonjs.Marshal(a)), string(jsonjs.Marshal(b))
		if got := jsonjs.Equal(a, b); got != (len(want) == 0) {
			t.Fatalf("Equal(%s, %s) = %v, want %v", ta, tb, got, len(want) == 0)
		}
		first := ""
		if len(want) > 0 {
			first = want[0].path
		}
		if got := jsonjs.FirstDifference(a, b); got != first {
			t.Fatalf("FirstDifference(%s, %s) = %q, want %q", ta, tb, got, first)
		}
		max := rapid.IntRange(0, 3).Draw(t, "max")
		wantN := len(want)
		if max > 0 && max < wantN {
			wantN = max
		}
		got := jsonjs.Differences(a, b, max)
		if len(got) != wantN {
			t.Fatalf("Differences(%s, %s, %d): %d, want %d (%v)", ta, tb, max, len(got), wantN, want)
		}
		for i, d := range got {
			w := want[i]
			if d.Path != w.path || d.InA != w.inA || d.InB != w.inB ||
				string(jsonjs.Marshal(d.A)) != string(jsonjs.Marshal(w.a)) || string(jsonjs.Marshal(d.B)) != string(jsonjs.Marshal(w.b)) {
				t.Fatalf("Differences(%s, %s)[%d] = %s %s %s %v %v, want %s %s %s %v %v", ta, tb, i,
					d.Path, jsonjs.Marshal(d.A), jsonjs.Marshal(d.B), d.InA, d.InB,
					w.path, jsonjs.Marshal(w.a), jsonjs.Marshal(w.b), w.inA, w.inB)
			}
		}
	})
}

// An equal empty container is no reason to stop the walk: the difference
// after it is still one (a comparator that stopped there would call
// [{}, 1] and [{}, 2] equal).
func TestJudgeComparatorWalksPastEmptyContainers(t *testing.T) {
	for _, c := range []struct{ a, b, path string }{
		{`[{}, 1]`, `[{}, 2]`, "$[1]"},
		{`[[], 1]`, `[[], 2]`, "$[1]"},
		{`{"a": {}, "b": 1}`, `{"a": {}, "b": 2}`, "$.b"},
		{`{"a": [], "b": [{}, {"c": 1}]}`, `{"a": [], "b": [{}, {"c": 2}]}`, "$.b[1].c"},
	} {
		a, err := jsonjs.Parse([]byte(c.a))
		if err != nil {
			t.Fatal(err)
		}
		b, err := jsonjs.Parse([]byte(c.b))
		if err != nil {
			t.Fatal(err)
		}
		if jsonjs.Equal(a, b) {
			t.Errorf("Equal(%s, %s) = true", c.a, c.b)
		}
		if got := jsonjs.FirstDifference(a, b); got != c.path {
			t.Errorf("FirstDifference(%s, %s) = %q, want %q", c.a, c.b, got, c.path)
		}
		if ds := jsonjs.Differences(a, b, 0); len(ds) != 1 || ds[0].Path != c.path {
			t.Errorf("Differences(%s, %s) = %v, want one at %s", c.a, c.b, ds, c.path)
		}
	}
}

// Differences stops at max wherever the max-th difference is found,
// missing members included (value.go's object walk: `return true` after
// report -> `return false` reported every missing member past max).
func TestJudgeDifferencesStopsAtMaxAmongMissingMembers(t *testing.T) {
	for _, c := range []struct{ a, b string }{
		// Objects of one size (a size that differs is one difference),
		// then more differences after them.
		{`[{"x": 1, "y": 2}, 1, 2]`, `[{"u": 1, "v": 2}, 3, 4]`},
		{`{"k": {"x": 1}, "l": 1, "m": 2}`, `{"k": {"u": 1}, "l": 3, "m": 4}`},
	} {
		a, err := jsonjs.Parse([]byte(c.a))
		if err != nil {
			t.Fatal(err)
		}
		b, err := jsonjs.Parse([]byte(c.b))
		if err != nil {
			t.Fatal(err)
		}
		for max := 1; max <= 2; max++ {
			if ds := jsonjs.Differences(a, b, max); len(ds) != max {
				t.Errorf("Differences(%s, %s, %d) = %d differences %v, want %d", c.a, c.b, max, len(ds), ds, max)
			}
		}
	}
}
