package search

import (
	"strconv"
	"strings"

	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/reference/retention"
)

// Match is one grep match of the canonical value (SEARCH-VAL-1): the full
// line, or its preview once retained. LineNumber is the JavaScript number
// JSON.parse gave: the output schema asks for an integer, and upstream
// renders and projects any, 2^63 and 1e21 included (`Line 1e+21`).
type Match struct {
	Path       string  `json:"path"`
	LineNumber float64 `json:"lineNumber"`
	Line       string  `json:"line"`
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
	return retainGrep(matches, maxMatches, maxLineBytes, JS)
}

func retainGrep(matches []Match, maxMatches, maxLineBytes int, p Primitives) retention.RetainedItems[Match] {
	r, _ := retention.NewItems[Match](maxMatches)
	for _, m := range matches {
		m.Line = previewLine(m.Line, maxLineBytes, p)
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
// separated by one blank line (SEARCH-GREP-3); number writes a line number
// (nil: Number::toString).
func formatGroups(b *strings.Builder, groups []FileMatches, number func(float64) string) {
	for i, g := range groups {
		if i > 0 {
			b.WriteString(GroupSep)
		}
		b.WriteString(g.Path)
		var head [32]byte
		for _, m := range g.Matches {
			// `Line ${lineNumber}` is Number::toString: past 2^53 JavaScript
			// prints 2^60 as 1152921504606847000, not int64 digits (SEARCH-GREP-3).
			if number == nil { // Number::toString, a direct call: no number string on the heap
				b.Write(AppendRowHead(head[:0], jsonjs.FormatNumber(m.LineNumber)))
			} else { // a diagnosis dialect's formatter
				b.Write(AppendRowHead(head[:0], number(m.LineNumber)))
			}
			b.WriteString(m.Line)
		}
	}
}

// AppendRowHead appends "\nLine <number>: ", what precedes a match's line
// in a group (SEARCH-GREP-3).
func AppendRowHead(dst []byte, number string) []byte {
	return append(append(append(append(dst, '\n'), rowHead...), number...), rowSep...)
}

// grepHeader is "Found N match(es)" or "Found K of N matches" (SEARCH-GREP-2).
func grepHeader(kept, seen int, truncated bool) string {
	switch {
	case truncated:
		return headFound + strconv.Itoa(kept) + headOf + strconv.Itoa(seen) + headMatches
	case seen == 1:
		return headFound + "1" + headMatch
	}
	return headFound + strconv.Itoa(seen) + headMatches
}

// The wording of the texts, one statement each: the renderers here and the
// parsers of parse.go both use these (SEARCH-GREP-1..5, SEARCH-GLOB-1..5).
const (
	GrepNone       = "No matches found"
	GlobNone       = "No files found"
	grepUnsaved    = "The complete result could not be saved; narrow pattern, path, or include to see more."
	globUnsaved    = "The complete result could not be saved; narrow pattern or path to see more."
	grepSavedHead  = "Full grep result stored at: "
	globSavedHead  = "Full sorted result stored at: "
	savedSep       = ". " // between the locator and the retrieval hint
	headFound      = "Found "
	headOf         = " of "
	headMatches    = " matches"
	headMatch      = " match"
	rowHead        = "Line "
	rowSep         = ": "
	GroupSep       = "\n\n"
	globShowing    = "(Showing "
	globPaths      = " paths"
	globHeadBasis  = "."
	globSampled    = ", sampled across "
	globOfThe      = " of the "
	globSampledWhy = " top-level entries this pattern matched instead of taken in modification-time order."
	globNarrow     = " Narrow path to inspect a specific subtree."
)

func recovery(ref *Ref, unsaved, savedHead string) string {
	if ref == nil {
		return unsaved
	}
	return savedHead + ref.Locator + savedSep + ref.RetrievalHint
}

func grepRecovery(ref *Ref) string { return recovery(ref, grepUnsaved, grepSavedHead) }

// GrepText renders grep's model-facing text from the retention outcome
// (SEARCH-GREP-1..5). ref is the saved spill artifact, or nil.
func GrepText(r retention.RetainedItems[Match], ref *Ref) string {
	return grepText(r, ref, JS)
}

func grepText(r retention.RetainedItems[Match], ref *Ref, p Primitives) string {
	if r.Seen == 0 {
		return GrepNone // SEARCH-GREP-1
	}
	var b strings.Builder
	b.WriteString(grepHeader(r.Kept, r.Seen, r.Truncated))
	b.WriteString(GroupSep)
	formatGroups(&b, p.group(r.Items), p.Number)
	if r.Truncated {
		b.WriteString(GroupSep + "(")
		b.WriteString(grepRecovery(ref))
		b.WriteString(")")
	}
	return b.String()
}

// GrepSpillText is the complete result grep hands to the spill store
// (SEARCH-SPILL-2): a header counting all N matches and every match grouped,
// each line previewed, with no footer. It only runs over the cap, so N >= 2.
func GrepSpillText(matches []Match, maxLineBytes int) string {
	return grepSpillText(matches, maxLineBytes, JS)
}

func grepSpillText(matches []Match, maxLineBytes int, p Primitives) string {
	previewed := make([]Match, len(matches))
	for i, m := range matches {
		m.Line = previewLine(m.Line, maxLineBytes, p)
		previewed[i] = m
	}
	var b strings.Builder
	b.WriteString(grepHeader(len(matches), len(matches), false))
	b.WriteString("\n\n")
	formatGroups(&b, p.group(previewed), p.Number)
	return b.String()
}
