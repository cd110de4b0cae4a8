package runner_test

import (
	"testing"

	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// PropertiesFor is how the rapid suite (generators/properties_test.go)
// reaches the table: an op's properties are exactly its rows, in table
// order, and no op's list is empty or borrows another op's rows (a list of
// the wrong op checks the reference against the wrong invariants).
func TestJudgePropertiesForIsTheOpsRows(t *testing.T) {
	ops := map[string]bool{}
	for _, p := range runner.Properties {
		ops[p.Op] = true
	}
	if len(ops) < 2 {
		t.Fatalf("the table has %d ops", len(ops))
	}
	total := 0
	for op := range ops {
		got := runner.PropertiesFor(op)
		var want []runner.Property
		for _, p := range runner.Properties {
			if p.Op == op {
				want = append(want, p)
			}
		}
		if len(got) == 0 || len(got) != len(want) {
			t.Fatalf("PropertiesFor(%q): %d properties, the table has %d", op, len(got), len(want))
		}
		for i, p := range got {
			if p.Op != op || p.Requirement != want[i].Requirement || p.Doc != want[i].Doc {
				t.Fatalf("PropertiesFor(%q)[%d] = %s %s, want %s %s", op, i, p.Op, p.Requirement, want[i].Op, want[i].Requirement)
			}
		}
		total += len(got)
	}
	if total != len(runner.Properties) {
		t.Fatalf("the ops' lists hold %d properties, the table %d", total, len(runner.Properties))
	}
	if got := runner.PropertiesFor("no.such.op"); len(got) != 0 {
		t.Fatalf("PropertiesFor of an unknown op: %d properties", len(got))
	}
}

// The search.present properties name why a view is wrong: a result with no
// meta at all is told apart from a meta that does not narrow (member's
// missing key is not a zero value found: properties.go:98).
func TestJudgePresentViewMessages(t *testing.T) {
	view := jsonjs.ObjectValue(jsonjs.Member{Key: "view", Value: jsonjs.ObjectValue()})
	for _, tc := range []struct{ input, want string }{
		{`{"tool":"grep","args":{},"result":{"isError":false}}`, "a view for a result without meta"},
		{`{"tool":"grep","args":{},"result":{"isError":false,"meta":null}}`, "a view for a meta that does not narrow (SEARCH-NARROW-2): null"},
		{`{"tool":"grep","args":{},"result":{"isError":true}}`, "a view for an error result"},
	} {
		in, err := jsonjs.Parse([]byte(tc.input))
		if err != nil {
			t.Fatal(err)
		}
		diffs := runner.CheckProperties("search.present", in, view)
		if len(diffs) != 1 || diffs[0].Requirements[0] != "SEARCH-PRESENT-1" || diffs[0].Message != tc.want {
			t.Fatalf("%s: %+v, want one SEARCH-PRESENT-1 diff %q", tc.input, diffs, tc.want)
		}
	}
}
