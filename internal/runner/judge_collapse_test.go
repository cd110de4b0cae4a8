package runner_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// runUnexpected answers stopCases' first case (golden {"content":"ok"})
// with {"content":"ok"} and n more members key(0), key(1), …, and
// returns the comparison's diffs.
func runUnexpected(t *testing.T, n int, key func(i int) string) []runner.Diff {
	t.Helper()
	var b strings.Builder
	b.WriteString(`{"content":"ok"`)
	for i := range n {
		fmt.Fprintf(&b, `,%q:0`, key(i))
	}
	b.WriteString("}")
	out := b.String()
	s := &session{h: adapter.Reference(), reply: func(string, string) (adapter.Reply, error) {
		return adapter.Reply{Output: []byte(out)}, nil
	}}
	var diffs []runner.Diff
	for _, d := range runner.RunCase(context.Background(), s, stopCases()[0], 0).Diffs {
		if d.Comparator != runner.CmpProperty { // grep's properties judge the missing meta
			diffs = append(diffs, d)
		}
	}
	return diffs
}

// The first 10 unexpected output fields are diffs of their own; past 10,
// the rest are one diff that counts them, names the first 20 of them as
// JSON strings, each cut to 64 bytes, and says how many it did not name
// (engine.go collapseUnexpected, 337-370; issue 21).
func TestJudgeUnexpectedFieldsCollapse(t *testing.T) {
	k := func(i int) string { return fmt.Sprintf("k%d", i) }
	for _, tc := range []struct {
		n     int
		extra string // the collapsed diff's message; "" for none
	}{
		{9, ""},
		{10, ""},
		{11, `1 more unexpected output fields: "k10"`},
		{30, `20 more unexpected output fields: "k10", "k11", "k12", "k13", "k14", "k15", "k16", "k17", "k18", "k19", "k20", "k21", "k22", "k23", "k24", "k25", "k26", "k27", "k28", "k29"`},
		{31, `21 more unexpected output fields: "k10", "k11", "k12", "k13", "k14", "k15", "k16", "k17", "k18", "k19", "k20", "k21", "k22", "k23", "k24", "k25", "k26", "k27", "k28", "k29", … 1 more`},
	} {
		diffs := runUnexpected(t, tc.n, k)
		own := min(tc.n, 10)
		want := own
		if tc.extra != "" {
			want++
		}
		if len(diffs) != want {
			t.Fatalf("%d unexpected fields: %d diffs, want %d", tc.n, len(diffs), want)
		}
		for i := range own {
			if d := diffs[i]; d.Field != k(i) || d.Path != "$."+k(i) || d.Want != "(missing)" {
				t.Errorf("%d unexpected fields: diff %d is %+v, want k%d's own", tc.n, i, d, i)
			}
		}
		if tc.extra == "" {
			continue
		}
		last := diffs[len(diffs)-1]
		if last.Message != tc.extra || last.Field != "(answer)" || last.Path != "$" || !slices.Equal(last.Requirements, []string{"SEARCH-GREP-1"}) {
			t.Errorf("%d unexpected fields: the collapsed diff is %+v, want message %q blaming SEARCH-GREP-1", tc.n, last, tc.extra)
		}
	}
	// A long name is cut to 64 bytes.
	long := func(i int) string { return fmt.Sprintf("%02d", i) + strings.Repeat("n", 100) }
	diffs := runUnexpected(t, 11, long)
	if want := `1 more unexpected output fields: "10` + strings.Repeat("n", 62) + `…"`; diffs[len(diffs)-1].Message != want {
		t.Errorf("a long name: %q, want %q", diffs[len(diffs)-1].Message, want)
	}
}

// Only unexpected top-level output fields fold: an unexpected member deeper
// in the answer (its Want is "(missing)" too) stays a diff of its own and
// does not count toward the 10 (engine.go collapseUnexpected's test: all
// three of its parts).
func TestJudgeUnexpectedNestedMemberDoesNotFold(t *testing.T) {
	want := jsonjs.ObjectValue(jsonjs.Member{Key: "error", Value: jsonjs.ObjectValue(jsonjs.Member{Key: "a", Value: jsonjs.NumberValue(1)})})
	c := runner.Case{ID: "grep.result/nested", Op: "grep.result", Input: []byte(`{}`), InputValue: jsonjs.ObjectValue(),
		Requirements: []string{"SEARCH-GREP-1"}, Want: runner.Want{Output: &want}}
	for _, n := range []int{10, 11} {
		var b strings.Builder
		b.WriteString(`{"error":{"deep":1}`)
		for i := range n {
			fmt.Fprintf(&b, `,"k%d":0`, i)
		}
		b.WriteString("}")
		out := b.String()
		s := &session{h: adapter.Reference(), reply: func(string, string) (adapter.Reply, error) {
			return adapter.Reply{Output: []byte(out)}, nil
		}}
		var paths []string
		for _, d := range runner.RunCase(context.Background(), s, c, 0).Diffs {
			if d.Comparator != runner.CmpProperty {
				paths = append(paths, d.Path)
			}
		}
		want := []string{"$.error.a", "$.error.deep"} // a missing, deep unexpected
		for i := range min(n, 10) {
			want = append(want, fmt.Sprintf("$.k%d", i))
		}
		if n > 10 {
			want = append(want, "$") // the fold of k10
		}
		if !slices.Equal(paths, want) {
			t.Errorf("%d unexpected fields beside a nested one: diff paths %q, want %q", n, paths, want)
		}
	}
}
