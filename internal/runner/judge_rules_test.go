package runner_test

import (
	"testing"

	"github.com/dsh-conform/conform/internal/runner"
)

// RuleFor and ComparatorFor say false when the table has no row for a
// field: neither the field's own row nor its op's OtherFields row (compare.go
// RuleFor's doc comment). Each expectation is read off the table of
// docs/fixtures.md as Rules holds it: grep.result has no OtherFields row,
// retain.items and retain.text have one, and ErrorField has its AnyOp row.
func TestJudgeRuleForWithoutARow(t *testing.T) {
	for _, tc := range []struct {
		op, field string
		ok        bool
		cmp       string
	}{
		{"grep.result", "content", true, runner.CmpExact},
		{"grep.result", "meta", true, runner.CmpJSON},
		{"grep.result", "items", false, ""},  // retain.items' field, not grep's
		{"grep.result", "nosuch", false, ""}, // no row, no OtherFields row
		{"search.present", "content", false, ""},
		{"spill.preview", "text", false, ""},
		{"no.such.op", "content", false, ""},
		{"retain.items", "nosuch", true, runner.CmpJSON}, // its OtherFields row
		{"retain.text", "text", true, runner.CmpExact},
		{"retain.text", "omitted", true, runner.CmpJSON},
		{"no.such.op", runner.ErrorField, true, runner.CmpExact}, // the AnyOp row
	} {
		cmp, ok := runner.ComparatorFor(tc.op, tc.field)
		if ok != tc.ok || cmp != tc.cmp {
			t.Errorf("ComparatorFor(%q, %q) = %q, %v; want %q, %v", tc.op, tc.field, cmp, ok, tc.cmp, tc.ok)
		}
		r, ok := runner.RuleFor(tc.op, tc.field)
		if ok != tc.ok || r.Comparator != tc.cmp {
			t.Errorf("RuleFor(%q, %q) = %+v, %v; want comparator %q, %v", tc.op, tc.field, r, ok, tc.cmp, tc.ok)
		}
		if !ok && (r.Op != "" || r.Field != "" || r.Requirements != nil) {
			t.Errorf("RuleFor(%q, %q) without a row gives %+v, want the zero Rule", tc.op, tc.field, r)
		}
	}
}
