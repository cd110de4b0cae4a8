package runner

import (
	"strings"
	"testing"
)

// A text that stops inside the rendered meta (a harness that cut its text
// short) is named at the byte where it ends, not taken for a prefix, and
// the walk stays inside the shorter string (mutation: i < len(text) -> <=).
func TestPrefixFailureOfATextCutInsideTheMeta(t *testing.T) {
	text, rendered := "Found 2 matches\nLine 1: a", "Found 2 matches\nLine 1: ab"
	got := prefixFailure(text, rendered, "\n", "rows")
	if !strings.Contains(got, "are not a prefix of the text: they differ at text byte 25") {
		t.Fatalf("prefixFailure(%q, %q) = %q", text, rendered, got)
	}
	if got := prefixFailure(rendered, rendered, "\n", "rows"); got != "" {
		t.Fatalf("a text equal to the meta's rendering fails: %q", got)
	}
}
