package search

import (
	"math"
	"strconv"
	"strings"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// The inverses of the text renderers, for readers of logged texts
// (check-log). Each parser accepts exactly the wording its renderer writes
// (the constants of grep.go) and returns what it was rendered from, so
// render(parse(x)) == x for every rendered x.

// GrepHeader is a parsed "Found N match(es)" or "Found K of N matches".
type GrepHeader struct {
	Kept, Seen int64
	Capped     bool // "Found K of N matches"
	// Plural is whether the uncapped form says "matches"; the renderer
	// says "match" exactly when N is 1, and a reader reports the others.
	Plural bool
}

// ParseGrepHeader parses a grep header line (SEARCH-GREP-2). Counts are
// decimal without leading zeros.
func ParseGrepHeader(h string) (GrepHeader, bool) {
	rest, ok := strings.CutPrefix(h, headFound)
	if !ok {
		return GrepHeader{}, false
	}
	n, rest, ok := cutCount(rest)
	if !ok {
		return GrepHeader{}, false
	}
	switch rest {
	case headMatch:
		return GrepHeader{Kept: n, Seen: n}, true
	case headMatches:
		return GrepHeader{Kept: n, Seen: n, Plural: true}, true
	}
	if rest, ok = strings.CutPrefix(rest, headOf); !ok {
		return GrepHeader{}, false
	}
	seen, rest, ok := cutCount(rest)
	if !ok || rest != headMatches {
		return GrepHeader{}, false
	}
	return GrepHeader{Kept: n, Seen: seen, Capped: true, Plural: true}, true
}

// Text renders the header: GrepText's form, or the uncapped one with the
// word Plural says.
func (h GrepHeader) Text() string {
	if h.Capped {
		return grepHeader(int(h.Kept), int(h.Seen), true)
	}
	word := headMatch
	if h.Plural {
		word = headMatches
	}
	return headFound + strconv.FormatInt(h.Seen, 10) + word
}

// ParseRecovery parses a recovery sentence of grep (glob false) or glob
// (SEARCH-GREP-5, SEARCH-GLOB-5): the unsaved sentence gives a nil Ref, the
// saved one the locator and the hint, either of them empty, split at the
// last ". " (a hint has none). ok is false for any other text, or one with
// a newline.
func ParseRecovery(s string, glob bool) (ref *Ref, ok bool) {
	unsaved, head := grepUnsaved, grepSavedHead
	if glob {
		unsaved, head = globUnsaved, globSavedHead
	}
	if s == unsaved {
		return nil, true
	}
	rest, ok := strings.CutPrefix(s, head)
	if !ok || strings.Contains(rest, "\n") {
		return nil, false
	}
	// An empty locator or hint is a saved sentence too: the tool writes
	// "stored at: . " for a store that returns them (docs/ops.md, absent
	// or null reads as empty).
	i := strings.LastIndex(rest, savedSep)
	if i < 0 {
		return nil, false
	}
	return &Ref{Locator: rest[:i], RetrievalHint: rest[i+len(savedSep):]}, true
}

// GlobFooter is a parsed "(Showing K of N paths<basis> <recovery>)".
type GlobFooter struct {
	Kept, Seen     int64
	Sampled        bool  // the basis is the sampling sentence, not "."
	Shown, Entries int64 // the sample's counts, when Sampled
	Narrow         bool  // the "Narrow path" sentence follows
	Recovery       string
}

// IsGlobFooter reports whether s starts like a footer, so a reader can
// tell a broken footer from a last path.
func IsGlobFooter(s string) bool { return strings.HasPrefix(s, globShowing) }

// ParseGlobFooter parses SEARCH-GLOB-3/4 exactly; the recovery sentence is
// left to ParseRecovery. ok is false on any other wording.
func ParseGlobFooter(s string) (f GlobFooter, ok bool) {
	rest, ok := strings.CutPrefix(s, globShowing)
	if !ok || !strings.HasSuffix(rest, ")") {
		return f, false
	}
	rest = rest[:len(rest)-1]
	if f.Kept, rest, ok = cutCount(rest); !ok {
		return f, false
	}
	if rest, ok = strings.CutPrefix(rest, headOf); !ok {
		return f, false
	}
	if f.Seen, rest, ok = cutCount(rest); !ok {
		return f, false
	}
	if rest, ok = strings.CutPrefix(rest, globPaths); !ok {
		return f, false
	}
	if r, isHead := strings.CutPrefix(rest, globHeadBasis); isHead {
		rest = r
	} else {
		if rest, ok = strings.CutPrefix(rest, globSampled); !ok {
			return f, false
		}
		f.Sampled = true
		if f.Shown, rest, ok = cutCount(rest); !ok {
			return f, false
		}
		if rest, ok = strings.CutPrefix(rest, globOfThe); !ok {
			return f, false
		}
		if f.Entries, rest, ok = cutCount(rest); !ok {
			return f, false
		}
		if rest, ok = strings.CutPrefix(rest, globSampledWhy); !ok {
			return f, false
		}
		rest, f.Narrow = strings.CutPrefix(rest, globNarrow)
	}
	if f.Recovery, ok = strings.CutPrefix(rest, " "); !ok {
		return f, false
	}
	return f, true
}

// Text renders the footer as GlobText does.
func (f GlobFooter) Text() string {
	basis := globHeadBasis
	if f.Sampled {
		basis = globSampled + strconv.FormatInt(f.Shown, 10) + globOfThe + strconv.FormatInt(f.Entries, 10) + globSampledWhy
		if f.Narrow {
			basis += globNarrow
		}
	}
	return globFooter(int(f.Kept), int(f.Seen), basis, f.Recovery)
}

// ParseGrepGroups reads grep groups back from a body (SEARCH-GREP-3): a
// path line, then "Line <n>: <line>" rows, groups separated by a blank
// line. ok is false when s does not have that form (e.g. a path with a
// newline, which the renderer writes but cannot be read back).
func ParseGrepGroups(s string) ([]FileMatches, bool) {
	if s == "" {
		return nil, true
	}
	var out []FileMatches
	for _, part := range strings.Split(s, GroupSep) {
		lines := strings.Split(part, "\n")
		if len(lines) < 2 {
			return nil, false
		}
		g := FileMatches{Path: lines[0]}
		for _, l := range lines[1:] {
			rest, ok := strings.CutPrefix(l, rowHead)
			if !ok {
				return nil, false
			}
			n, rest, ok := cutLineNumber(rest)
			if !ok {
				return nil, false
			}
			g.Matches = append(g.Matches, Match{Path: g.Path, LineNumber: n, Line: rest})
		}
		out = append(out, g)
	}
	return out, true
}

// FormatGroups renders groups as GrepText's body.
func FormatGroups(groups []FileMatches) string {
	var b strings.Builder
	formatGroups(&b, groups, nil)
	return b.String()
}

// cutCount cuts a decimal count without leading zeros off s.
// cutLineNumber reads the "N: " of a row head: N as formatGroups writes
// an integer (Number::toString: "12", "-3", "1152921504606847000",
// "1e+21"), and nothing else, so reading is the exact inverse of writing.
func cutLineNumber(s string) (float64, string, bool) {
	num, rest, ok := strings.Cut(s, rowSep)
	if !ok {
		return 0, s, false
	}
	// The round trip refuses every other spelling ParseFloat takes: "+1",
	// "1.0", "0x10", "-0", "1e21"; Infinity is no integer line number.
	n, err := strconv.ParseFloat(num, 64)
	if err != nil || math.IsInf(n, 0) || n != math.Trunc(n) || jsonjs.FormatNumber(n) != num {
		return 0, s, false
	}
	return n, rest, true
}

func cutCount(s string) (int64, string, bool) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 || (i > 1 && s[0] == '0') {
		return 0, s, false
	}
	n, err := strconv.ParseInt(s[:i], 10, 64)
	if err != nil {
		return 0, s, false
	}
	return n, s[i:], true
}
