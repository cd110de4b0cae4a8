package runner_test

import (
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// Compare decides every case's verdict (issue 22: who judges the judge).
// On drawn golden outputs and answers that differ from them in one drawn
// place, or not at all, Compare finds no diff exactly when the answer is
// the golden one: JSON-equal, with the exact fields (strings or null)
// byte-equal. Each diff names a field the two outputs disagree on. An error
// answer agrees with a golden error only when the messages are the same
// bytes, and an output never agrees with a golden error or the reverse.

var judgeOps = []string{"grep.result", "glob.result", "search.present", "run_code.result", "retain.items", "retain.text", "spill.preview", "no.such.op"}

// judgeFields are the members drawn: the table's fields and others.
var judgeFields = []string{"content", "spillText", "isError", "error", "meta", "view", "callView", "items", "pushes", "text", "save", "other", "x y"}

func genScalar(t *rapid.T, label string) jsonjs.Value {
	switch rapid.IntRange(0, 4).Draw(t, label) {
	case 0:
		return jsonjs.NullValue()
	case 1:
		return jsonjs.BoolValue(rapid.Bool().Draw(t, label+"b"))
	case 2:
		return jsonjs.IntValue(rapid.IntRange(-2, 2).Draw(t, label+"n"))
	}
	return jsonjs.StringValue(rapid.SampledFrom([]string{"", "a", "ab", "a\nb", "a\nc", "é"}).Draw(t, label+"s"))
}

func genJSON(t *rapid.T, depth int) jsonjs.Value {
	if depth == 0 || rapid.IntRange(0, 2).Draw(t, "leaf") == 0 {
		return genScalar(t, "scalar")
	}
	n := rapid.IntRange(0, 3).Draw(t, "n")
	if rapid.Bool().Draw(t, "arr") {
		items := make([]jsonjs.Value, n)
		for i := range items {
			items[i] = genJSON(t, depth-1)
		}
		return jsonjs.ArrayValue(items...)
	}
	keys := rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"a", "b", "c", "d e"}), n, n, rapid.ID[string]).Draw(t, "keys")
	ms := make([]jsonjs.Member, n)
	for i, k := range keys {
		ms[i] = jsonjs.Member{Key: k, Value: genJSON(t, depth-1)}
	}
	return jsonjs.ObjectValue(ms...)
}

// genOutput draws an op output: an object of table fields whose exact
// fields are strings or null, or (rarely) not an object at all.
func genOutput(t *rapid.T, op string) jsonjs.Value {
	if rapid.IntRange(0, 9).Draw(t, "notObject") == 0 {
		return genJSON(t, 2)
	}
	keys := rapid.SliceOfDistinct(rapid.SampledFrom(judgeFields), rapid.ID[string]).Draw(t, "fields")
	ms := make([]jsonjs.Member, len(keys))
	for i, k := range keys {
		v := genJSON(t, 2)
		if cmp, _ := runner.ComparatorFor(op, k); cmp == runner.CmpExact {
			v = jsonjs.StringValue(rapid.SampledFrom([]string{"", "a", "ab\ncd", "ab\nce", "x"}).Draw(t, "exact"))
			if rapid.IntRange(0, 4).Draw(t, "null") == 0 {
				v = jsonjs.NullValue()
			}
		}
		ms[i] = jsonjs.Member{Key: k, Value: v}
	}
	return jsonjs.ObjectValue(ms...)
}

// varyJSON changes v in one drawn place, reorders it, or keeps it.
func varyJSON(t *rapid.T, v jsonjs.Value) jsonjs.Value {
	what := rapid.IntRange(0, 7).Draw(t, "vary")
	if items, ok := v.Items(); ok && len(items) > 0 && what <= 3 {
		out := append([]jsonjs.Value(nil), items...)
		i := rapid.IntRange(0, len(out)-1).Draw(t, "at")
		out[i] = varyJSON(t, out[i])
		return jsonjs.ArrayValue(out...)
	}
	if ms, ok := v.Members(); ok && len(ms) > 0 && what <= 4 {
		out := append([]jsonjs.Member(nil), ms...)
		i := rapid.IntRange(0, len(out)-1).Draw(t, "at")
		switch what {
		case 0: // dropped
			out = append(out[:i], out[i+1:]...)
		case 1: // reordered
			out[0], out[i] = out[i], out[0]
		case 2: // added
			for _, k := range judgeFields {
				if !v.Has(k) {
					out = append(out, jsonjs.Member{Key: k, Value: genScalar(t, "added")})
					break
				}
			}
		default:
			out[i].Value = varyJSON(t, out[i].Value)
		}
		return jsonjs.ObjectValue(out...)
	}
	switch what {
	case 5:
		return genScalar(t, "replaced")
	case 6:
		return genJSON(t, 1)
	}
	return v
}

func TestJudgeCompareAgreesIffEqual(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		op := rapid.SampledFrom(judgeOps).Draw(t, "op")
		want := genOutput(t, op)
		got := varyJSON(t, want)
		c := runner.Case{ID: "judge", Op: op, InputValue: jsonjs.ObjectValue(), Want: runner.Want{Output: &want}}
		diffs := runner.Compare(c, &got, nil)
		equal := jsonjs.Equal(want, got)
		if (len(diffs) == 0) != equal {
			t.Fatalf("%s: want %s, got %s: %d diffs (%v), JSON-equal %v", op, jsonjs.Marshal(want), jsonjs.Marshal(got), len(diffs), diffs, equal)
		}
		_, wantObj := want.Members()
		_, gotObj := got.Members()
		for _, d := range diffs {
			if !strings.HasPrefix(d.Path, "$") || d.Message == "" && d.Comparator == runner.CmpExact {
				t.Fatalf("diff %+v: no path or message", d)
			}
			if !wantObj || !gotObj {
				continue
			}
			w, inW := want.Get(d.Field)
			g, inG := got.Get(d.Field)
			if inW && inG && jsonjs.Equal(w, g) {
				t.Fatalf("%s: diff on field %q, whose values are equal (%s)", op, d.Field, jsonjs.Marshal(w))
			}
			if !inW && !inG {
				t.Fatalf("%s: diff on field %q, which neither output has", op, d.Field)
			}
		}
	})
}

func TestJudgeCompareErrors(t *testing.T) {
	msgs := []string{"", "boom", "boom ", "Error: boom", "bo\nom"}
	out := jsonjs.ObjectValue(jsonjs.Member{Key: "content", Value: jsonjs.StringValue("boom")})
	for _, w := range msgs {
		for _, g := range msgs {
			c := runner.Case{ID: "judge", Op: "grep.result", InputValue: jsonjs.ObjectValue(), Want: runner.Want{Error: &w}}
			diffs := runner.Compare(c, nil, &g)
			if (len(diffs) == 0) != (w == g) {
				t.Errorf("golden error %q, answer error %q: %d diffs", w, g, len(diffs))
			}
			if len(runner.Compare(c, &out, nil)) == 0 {
				t.Errorf("golden error %q, answer output: no diff", w)
			}
		}
		c := runner.Case{ID: "judge", Op: "grep.result", InputValue: jsonjs.ObjectValue(), Want: runner.Want{Output: &out}}
		if len(runner.Compare(c, nil, &w)) == 0 {
			t.Errorf("golden output, answer error %q: no diff", w)
		}
	}
}
