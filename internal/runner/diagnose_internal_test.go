package runner

import "testing"

// TestCanShow keeps a variant that changes only some output members from
// being run where the harness differs in another: it could not reproduce
// the answer, and running it is the diagnosis's cost (issue 20's 1.2).
func TestCanShow(t *testing.T) {
	meta := []string{"meta", "view"}
	for _, tc := range []struct {
		diffs []Diff
		shows []string
		want  bool
	}{
		{[]Diff{{Field: "meta"}}, meta, true},
		{[]Diff{{Field: "meta"}, {Field: "content"}}, meta, false},
		{[]Diff{{Field: "meta"}, {Field: "", Comparator: CmpProperty}}, meta, true}, // a property follows the members
		{[]Diff{{Field: ""}}, meta, false},                                          // the whole answer: an error where a result was due
		{[]Diff{{Field: "content"}}, nil, true},                                     // nil: any member
	} {
		if got := canShow(tc.diffs)(tc.shows); got != tc.want {
			t.Errorf("canShow(%v)(%v) = %v, want %v", tc.diffs, tc.shows, got, tc.want)
		}
	}
}
