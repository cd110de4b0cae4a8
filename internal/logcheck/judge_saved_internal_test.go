package logcheck

import "testing"

// TestJudgeSavedRecovery: savedRecovery is true exactly when a grep text
// (one starting "Found ") or a glob text ends, after a blank line, with
// the parenthesized recovery sentence of a saved full result
// (SEARCH-GREP-5, SEARCH-GLOB-5); a sentence that is not closed in
// parentheses as written, the unsaved sentence, or one with no text
// before it is not that form.
func TestJudgeSavedRecovery(t *testing.T) {
	const (
		grepSaved = "(Full grep result stored at: /spill/s/x.txt. Use read with offset/limit, or grep this path to search within it.)"
		globSaved = "(Showing 2 of 5 paths. Full sorted result stored at: /spill/s/y.txt. Use read with offset/limit to page through it.)"
		grepHead  = "Found 1 of 3 matches\n\na.ts\nLine 1: x\n\n"
		globHead  = "a.ts\nb.ts\n\n"
	)
	cases := []struct {
		text string
		glob bool
		want bool
	}{
		{grepHead + grepSaved, false, true},
		{globHead + globSaved, true, true},
		{grepHead + "(The complete result could not be saved; narrow pattern, path, or include to see more.)", false, false},
		{globHead + "(Showing 2 of 5 paths. The complete result could not be saved; narrow pattern or path to see more.)", true, false},
		// Not closed in parentheses as written.
		{grepHead + "[" + grepSaved[1:], false, false},
		{grepHead + grepSaved + ".", false, false},
		{grepHead + grepSaved[:len(grepSaved)-1], false, false},
		{globHead + globSaved + ".", true, false},
		// Another tool's form.
		{grepHead + grepSaved, true, false},
		{globHead + globSaved, false, false},
		// A grep text that is not a match listing.
		{"No matches found\n\n" + grepSaved, false, false},
	}
	for _, tc := range cases {
		if got := savedRecovery(tc.text, tc.glob); got != tc.want {
			t.Errorf("savedRecovery(%q, glob %v) = %v, want %v", tc.text, tc.glob, got, tc.want)
		}
	}
}
