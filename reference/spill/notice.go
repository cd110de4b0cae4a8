package spill

import (
	"github.com/dsh-conform/conform/reference/retention"
)

// Ref is what a successful save returns and the notice shows: an opaque
// locator, rendered verbatim, and the backend's retrieval hint
// (SPILL-REF-1).
type Ref struct {
	Locator       string `json:"locator"`
	RetrievalHint string `json:"retrievalHint"`
}

// Notice is the spill notice for an exact omitted byte count (SPILL-PREV-1):
// "(Omitted <n> bytes. Full formatted result stored at: <locator>. <hint>)".
// The count always has the plural unit, as RET-OMIT-2 has no singular form.
func Notice(omitted int, locator, hint string) string {
	return notice(retention.Omission{Kind: retention.Exact, Count: omitted}, Ref{Locator: locator, RetrievalHint: hint})
}

// notice formats any omission value. Only Exact occurs on the policy's own
// path (something is always omitted, SPILL-PREV-5); None would give an empty
// clause, as upstream's describeOmitted does.
func notice(o retention.Omission, ref Ref) string {
	return "(" + retention.DescribeOmitted(o, "bytes") + " Full formatted result stored at: " + ref.Locator + ". " + ref.RetrievalHint + ")" // SPILL-PREV-1
}
