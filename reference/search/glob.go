package search

import (
	"strconv"
	"strings"
)

// GlobPage is the inline page of a glob result, shared by the text and the
// meta (SEARCH-RETAIN-2).
type GlobPage struct {
	Items     []string
	Truncated bool // N > maxResults
	Seen      int  // N
	// Sampled is set when the page came from top-level sampling; Shown and
	// Groups are then the sample's group counts (SEARCH-SAMPLE-5).
	Sampled bool
	Shown   int
	Groups  int
}

// PageGlob computes the page: every path when they fit, else the
// modification-time head, or a top-level sample when sampling is on.
func PageGlob(paths []string, maxResults int, sampleOverCap bool, root string) GlobPage {
	n := len(paths)
	switch {
	case n <= maxResults:
		return GlobPage{Items: paths, Seen: n}
	case !sampleOverCap:
		return GlobPage{Items: paths[:maxResults], Truncated: true, Seen: n}
	}
	s := SampleAcrossTopLevel(paths, maxResults, root)
	return GlobPage{Items: s.Items, Truncated: true, Seen: n, Sampled: true, Shown: s.Shown, Groups: s.Total}
}

func globRecovery(ref *Ref) string { return recovery(ref, globUnsaved, globSavedHead) }

// globBasis explains how the page was chosen (SEARCH-GLOB-4). A sample in
// which every path is its own top-level entry equals the head, so it reads
// like the head.
func globBasis(p GlobPage) string {
	if !p.Sampled || p.Groups == p.Seen {
		return globHeadBasis
	}
	s := globSampled + strconv.Itoa(p.Shown) + globOfThe + strconv.Itoa(p.Groups) + globSampledWhy
	if p.Shown < p.Groups {
		s += globNarrow
	}
	return s
}

// GlobText renders glob's model-facing text (SEARCH-GLOB-1..5).
func GlobText(p GlobPage, ref *Ref) string {
	if p.Seen == 0 {
		return GlobNone // SEARCH-GLOB-1
	}
	body := strings.Join(p.Items, "\n")
	if !p.Truncated {
		return body // SEARCH-GLOB-2
	}
	return body + GroupSep + globFooter(len(p.Items), p.Seen, globBasis(p), globRecovery(ref))
}

// globFooter is "(Showing K of N paths<basis> <recovery>)" (SEARCH-GLOB-3).
func globFooter(kept, seen int, basis, recovery string) string {
	return globShowing + strconv.Itoa(kept) + headOf + strconv.Itoa(seen) + globPaths + basis + " " + recovery + ")"
}

// GlobSpillText is the complete result glob hands to the spill store: every
// path in canonical order, never the sampled page, with no header or footer
// (SEARCH-SPILL-3).
func GlobSpillText(paths []string) string {
	return strings.Join(paths, "\n")
}
