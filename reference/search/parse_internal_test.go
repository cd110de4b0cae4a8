package search

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// The parsers of parse.go are exact inverses of the renderers:
// render(parse(x)) == x on rendered texts and parse(render(v)) == v.

func noNewline(t *rapid.T, label string) string {
	return strings.ReplaceAll(rapid.String().Draw(t, label), "\n", " ")
}

func TestGrepHeaderInverse(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		seen := rapid.IntRange(1, 1<<40).Draw(t, "seen")
		capped := seen > 1 && rapid.Bool().Draw(t, "capped")
		kept := seen
		if capped {
			kept = rapid.IntRange(0, seen-1).Draw(t, "kept")
		}
		x := grepHeader(kept, seen, capped)
		h, ok := ParseGrepHeader(x)
		if !ok || h.Kept != int64(kept) || h.Seen != int64(seen) || h.Capped != capped || h.Plural != (capped || seen != 1) {
			t.Fatalf("ParseGrepHeader(%q) = %+v, %v", x, h, ok)
		}
		if h.Text() != x {
			t.Fatalf("Text() = %q, want %q", h.Text(), x)
		}
	})
}

func drawRef(t *rapid.T) *Ref {
	if rapid.Bool().Draw(t, "saved") {
		return nil
	}
	loc := noNewline(t, "locator")
	if rapid.Bool().Draw(t, "dotted") { // a locator may hold ". "; the hint cannot
		loc += savedSep + noNewline(t, "locatorTail")
	}
	hint := noNewline(t, "hint")
	for strings.Contains(hint, savedSep) { // one pass can make one: ".  " gives ".. "
		hint = strings.ReplaceAll(hint, savedSep, "..")
	}
	// Either may be empty: the tool writes what the store gave.
	if rapid.Bool().Draw(t, "locatorNonEmpty") {
		loc = "x" + loc
	}
	if rapid.Bool().Draw(t, "hintNonEmpty") {
		hint += "y"
	}
	return &Ref{Locator: loc, RetrievalHint: hint}
}

func TestRecoveryInverse(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ref, glob := drawRef(t), rapid.Bool().Draw(t, "glob")
		x := grepRecovery(ref)
		if glob {
			x = globRecovery(ref)
		}
		got, ok := ParseRecovery(x, glob)
		if !ok || !reflect.DeepEqual(got, ref) {
			t.Fatalf("ParseRecovery(%q) = %+v, %v; want %+v", x, got, ok, ref)
		}
		if back := recovery(got, map[bool]string{false: grepUnsaved, true: globUnsaved}[glob], map[bool]string{false: grepSavedHead, true: globSavedHead}[glob]); back != x {
			t.Fatalf("render(parse(%q)) = %q", x, back)
		}
		if _, ok := ParseRecovery(x, !glob); ok {
			t.Fatalf("%q parses as the other tool's sentence", x)
		}
	})
}

func TestGlobFooterInverse(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		seen := rapid.IntRange(2, 1<<30).Draw(t, "seen")
		p := GlobPage{Seen: seen, Truncated: true, Items: make([]string, rapid.IntRange(1, min(seen-1, 50)).Draw(t, "kept"))}
		if rapid.Bool().Draw(t, "sampled") {
			p.Sampled = true
			p.Groups = rapid.IntRange(1, seen).Draw(t, "groups")
			p.Shown = rapid.IntRange(1, p.Groups).Draw(t, "shown")
		}
		rec := globRecovery(drawRef(t))
		x := globFooter(len(p.Items), p.Seen, globBasis(p), rec)
		f, ok := ParseGlobFooter(x)
		sampled := p.Sampled && p.Groups != p.Seen
		want := GlobFooter{Kept: int64(len(p.Items)), Seen: int64(seen), Recovery: rec}
		if sampled {
			want.Sampled, want.Shown, want.Entries, want.Narrow = true, int64(p.Shown), int64(p.Groups), p.Shown < p.Groups
		}
		if !ok || f != want {
			t.Fatalf("ParseGlobFooter(%q) = %+v, %v; want %+v", x, f, ok, want)
		}
		if f.Text() != x {
			t.Fatalf("Text() = %q, want %q", f.Text(), x)
		}
		if !IsGlobFooter(x) {
			t.Fatalf("IsGlobFooter(%q) is false", x)
		}
	})
}

func TestGrepGroupsInverse(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var groups []FileMatches
		for i := rapid.IntRange(0, 4).Draw(t, "groups"); i > 0; i-- {
			g := FileMatches{Path: noNewline(t, "path")}
			for j := rapid.IntRange(1, 4).Draw(t, "matches"); j > 0; j-- {
				g.Matches = append(g.Matches, Match{Path: g.Path, LineNumber: drawLineNumber(t), Line: noNewline(t, "line")})
			}
			groups = append(groups, g)
		}
		x := FormatGroups(groups)
		got, ok := ParseGrepGroups(x)
		if !ok || !reflect.DeepEqual(got, groups) {
			t.Fatalf("ParseGrepGroups(%q) = %+v, %v; want %+v", x, got, ok, groups)
		}
		if FormatGroups(got) != x {
			t.Fatalf("render(parse(%q)) differs", x)
		}
	})
}

// The parsers refuse near misses of the wording.
func TestParsersRefuseOtherWording(t *testing.T) {
	for _, h := range []string{"Found 01 matches", "Found 3 of 5 match", "found 1 match", "Found 1 match ", "Found -1 matches", "Found 2 of 03 matches"} {
		if _, ok := ParseGrepHeader(h); ok {
			t.Errorf("ParseGrepHeader(%q) accepted", h)
		}
	}
	for _, f := range []string{"(Showing 3 of 5 paths.)", "(Showing 3 of 5 paths. x", "(showing 3 of 5 paths. x)", "(Showing 3 of 5 paths, sampled across 2 of the 4 top-level entries. x)"} {
		if _, ok := ParseGlobFooter(f); ok {
			t.Errorf("ParseGlobFooter(%q) accepted", f)
		}
	}
	for _, g := range []string{"a.ts", "a.ts\nLine x: y", "a.ts\nLine -0: y", "a.ts\nline 1: y", "a.ts\nLine 1:y",
		"a.ts\nLine +1: y", "a.ts\nLine 01: y", "a.ts\nLine 1.0: y", "a.ts\nLine 1.5: y", "a.ts\nLine 0x10: y",
		"a.ts\nLine 1e21: y", "a.ts\nLine 1E+21: y", "a.ts\nLine Infinity: y", "a.ts\nLine NaN: y", "a.ts\nLine : y"} {
		if _, ok := ParseGrepGroups(g); ok {
			t.Errorf("ParseGrepGroups(%q) accepted", g)
		}
	}
	if _, ok := ParseRecovery(grepSavedHead+"loc", false); ok {
		t.Error("a saved sentence without a hint accepted")
	}
}

// drawLineNumber draws an integer JavaScript number: a small one, or any
// integer-valued double (past 2^53, 2^63, 1e21: Number::toString's
// exponent form).
func drawLineNumber(t *rapid.T) float64 {
	if rapid.Bool().Draw(t, "smallLineNumber") {
		return float64(rapid.IntRange(-5, 1<<40).Draw(t, "n"))
	}
	// + 0 turns -0 into 0: a -0 never renders (the lossless check refuses it).
	return math.Trunc(rapid.Float64Range(-math.MaxFloat64, math.MaxFloat64).Draw(t, "n")) + 0
}
