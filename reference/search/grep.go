package search

import (
	"strconv"
	"strings"

	"github.com/dsh-conform/conform/reference/retention"
)

// Match is one grep match of the canonical value (SEARCH-VAL-1): the full
// line, or its preview once retained.
type Match struct {
	Path       string `json:"path"`
	LineNumber int    `json:"lineNumber"`
	Line       string `json:"line"`
}

// Ref is a saved spill artifact as the text cites it (SPILL-REF-1).
type Ref struct {
	Locator       string `json:"locator"`
	RetrievalHint string `json:"retrievalHint"`
}

// RetainGrep is the one retention pass that both the text and the meta
// consume (SEARCH-RETAIN-1): preview every line, then keep the first
// maxMatches. It is deterministic, so computing it once per projection, as
// upstream does, gives both the same items.
func RetainGrep(matches []Match, maxMatches, maxLineBytes int) retention.RetainedItems[Match] {
	r, _ := retention.NewItems[Match](maxMatches)
	for _, m := range matches {
		m.Line = PreviewLine(m.Line, maxLineBytes)
		r.Push(m)
	}
	return r.Finish()
}

// FileMatches is one file's group of matches, in first-seen order.
type FileMatches struct {
	Path    string
	Matches []Match
}

// GroupByFile groups matches by exact path, groups in first-seen order and
// matches in item order (SEARCH-GREP-3). Sorting the paths is a classic bug.
func GroupByFile(matches []Match) []FileMatches {
	index := make(map[string]int)
	var groups []FileMatches
	for _, m := range matches {
		i, ok := index[m.Path]
		if !ok {
			i = len(groups)
			index[m.Path] = i
			groups = append(groups, FileMatches{Path: m.Path})
		}
		groups[i].Matches = append(groups[i].Matches, m)
	}
	return groups
}

// formatGroups writes the grep body: path, then "Line N: text" rows, groups
// separated by one blank line (SEARCH-GREP-3).
func formatGroups(b *strings.Builder, groups []FileMatches) {
	for i, g := range groups {
		if i > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(g.Path)
		for _, m := range g.Matches {
			b.WriteString("\nLine ")
			b.WriteString(strconv.Itoa(m.LineNumber))
			b.WriteString(": ")
			b.WriteString(m.Line)
		}
	}
}

// grepHeader is "Found N match(es)" or "Found K of N matches" (SEARCH-GREP-2).
func grepHeader(kept, seen int, truncated bool) string {
	switch {
	case truncated:
		return "Found " + strconv.Itoa(kept) + " of " + strconv.Itoa(seen) + " matches"
	case seen == 1:
		return "Found 1 match"
	}
	return "Found " + strconv.Itoa(seen) + " matches"
}

// Recovery sentences (SEARCH-GREP-5, SEARCH-GLOB-5).
const (
	grepUnsaved = "The complete result could not be saved; narrow pattern, path, or include to see more."
	globUnsaved = "The complete result could not be saved; narrow pattern or path to see more."
)

func grepRecovery(ref *Ref) string {
	if ref == nil {
		return grepUnsaved
	}
	return "Full grep result stored at: " + ref.Locator + ". " + ref.RetrievalHint
}

// GrepText renders grep's model-facing text from the retention outcome
// (SEARCH-GREP-1..5). ref is the saved spill artifact, or nil.
func GrepText(r retention.RetainedItems[Match], ref *Ref) string {
	if r.Seen == 0 {
		return "No matches found" // SEARCH-GREP-1
	}
	var b strings.Builder
	b.WriteString(grepHeader(r.Kept, r.Seen, r.Truncated))
	b.WriteString("\n\n")
	formatGroups(&b, GroupByFile(r.Items))
	if r.Truncated {
		b.WriteString("\n\n(")
		b.WriteString(grepRecovery(ref))
		b.WriteString(")")
	}
	return b.String()
}

// GrepSpillText is the complete result grep hands to the spill store
// (SEARCH-SPILL-2): a header counting all N matches and every match grouped,
// each line previewed, with no footer. It only runs over the cap, so N >= 2.
func GrepSpillText(matches []Match, maxLineBytes int) string {
	previewed := make([]Match, len(matches))
	for i, m := range matches {
		m.Line = PreviewLine(m.Line, maxLineBytes)
		previewed[i] = m
	}
	var b strings.Builder
	b.WriteString(grepHeader(len(matches), len(matches), false))
	b.WriteString("\n\n")
	formatGroups(&b, GroupByFile(previewed))
	return b.String()
}
