package jsonjs_test

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// The comparator steps along tapes (deep.go) as it walks trees: pairs that
// differ in one drawn way, parsed with their containers on a tape from a
// drawn depth on (either side, or both), get the model's answers. Objects
// of one member stay on the tape, so a renamed member there is compared
// by key (visitDeep), and a walk goes on after a tape frame ends.
func TestJudgeComparatorOnTapesMatchesModel(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a0 := genJudgeValue(3).Draw(t, "a")
		b0 := vary(t, a0, 3)
		ta, tb := string(jsonjs.Marshal(a0)), string(jsonjs.Marshal(b0))
		a, b := parseJudge(t, ta, 1<<30), parseJudge(t, tb, 1<<30) // the model's (-0 written 0)
		var want []modelDiff
		modelDiffs(a, b, "$", &want)
		from := rapid.IntRange(0, 3).Draw(t, "from")
		switch rapid.IntRange(0, 2).Draw(t, "sides") {
		case 0:
			a, b = parseJudge(t, ta, from), parseJudge(t, tb, from)
		case 1:
			a = parseJudge(t, ta, from)
		default:
			b = parseJudge(t, tb, from)
		}
		if got := jsonjs.Equal(a, b); got != (len(want) == 0) {
			t.Fatalf("Equal(%s, %s) from %d = %v", ta, tb, from, got)
		}
		first := ""
		if len(want) > 0 {
			first = want[0].path
		}
		if got := jsonjs.FirstDifference(a, b); got != first {
			t.Fatalf("FirstDifference(%s, %s) from %d = %q, want %q", ta, tb, from, got, first)
		}
		got := jsonjs.Differences(a, b, 0)
		if fmt.Sprint(judgeDiffs(got)) != fmt.Sprint(modelDiffStrings(want)) {
			t.Fatalf("Differences(%s, %s) from %d =\n%v, want\n%v", ta, tb, from, judgeDiffs(got), modelDiffStrings(want))
		}
	})
}

func parseJudge(t interface{ Fatalf(string, ...any) }, text string, from int) jsonjs.Value {
	defer jsonjs.SetDeepFrom(from)()
	v, err := jsonjs.Parse([]byte(text))
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	return v
}

func judgeDiffs(ds []jsonjs.Difference) []string {
	var out []string
	for _, d := range ds {
		out = append(out, fmt.Sprintf("%s %s/%t %s/%t", d.Path, jsonjs.Marshal(d.A), d.InA, jsonjs.Marshal(d.B), d.InB))
	}
	return out
}

func modelDiffStrings(ds []modelDiff) []string {
	var out []string
	for _, d := range ds {
		out = append(out, fmt.Sprintf("%s %s/%t %s/%t", d.path, jsonjs.Marshal(d.a), d.inA, jsonjs.Marshal(d.b), d.inB))
	}
	return out
}

// The two ways a tape walk could call unequal values equal, pinned: one
// member objects on a tape with different keys (and equal values), and a
// difference after a tape container, which ends its frame.
func TestJudgeComparatorOnTapesSeesKeysAndGoesOn(t *testing.T) {
	for _, c := range []struct {
		a, b  string
		diffs []string
	}{
		{`[{"a":1}]`, `[{"b":1}]`, []string{"$[0].a 1/true null/false", "$[0].b null/false 1/true"}},
		{`[[1],1]`, `[[1],2]`, []string{"$[1] 1/true 2/true"}},
		{`{"k":{"a":[1]},"l":1}`, `{"k":{"a":[1]},"l":2}`, []string{"$.l 1/true 2/true"}},
	} {
		for _, from := range []int{0, 1} {
			for _, sides := range [][2]int{{from, from}, {from, 1 << 30}, {1 << 30, from}} {
				a, b := parseJudge(t, c.a, sides[0]), parseJudge(t, c.b, sides[1])
				if jsonjs.Equal(a, b) || jsonjs.Equal(b, a) {
					t.Errorf("Equal(%s, %s) from %v = true", c.a, c.b, sides)
				}
				if got := judgeDiffs(jsonjs.Differences(a, b, 0)); fmt.Sprint(got) != fmt.Sprint(c.diffs) {
					t.Errorf("Differences(%s, %s) from %v = %v, want %v", c.a, c.b, sides, got, c.diffs)
				}
			}
		}
	}
}

// Over is a lower bound: never over Size, whichever containers are on a
// tape (a tape's values are counted by its spans, each at least a byte).
func TestJudgeOverIsALowerBoundOnTapes(t *testing.T) {
	// A tape container after a long one sits far down the tape: its count
	// is its spans, not its index.
	for _, text := range []string{`[1]`, `{"a":1}`, `[[1],[2,3]]`, `[[],[[]]]`, `{"a":[1,{"b":2}],"c":[3]}`,
		`[[1,2,3,4,5,6,7,8],[9]]`, `{"a":[1,2,3,4,5,6,7,8],"b":[9]}`} {
		for _, from := range []int{0, 1, 2} {
			v := parseJudge(t, text, from)
			size := jsonjs.Size(v)
			if jsonjs.Over(v, size) {
				t.Errorf("Over(%s from %d, %d) = true, but that is its size", text, from, size)
			}
		}
	}
}
