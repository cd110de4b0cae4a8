package search

import (
	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/reference/retention"
)

// Primitives are the library calls grep's and glob's rendering rests on; a
// nil member is JavaScript's. JS is the reference's; internal/diagnosis
// runs the ops with other languages' to see whether a harness behaves like
// one of them (issue 20).
type Primitives struct {
	Decode retention.Decoder    // each line preview's decoder (SEARCH-PREVIEW-3); nil is retention.Decode
	Number func(float64) string // a row's line number as text (SEARCH-GREP-3); nil is Number::toString
	// MetaNumber writes a line number where the meta is measured
	// (SEARCH-JSON-1); nil is Number::toString. The meta itself is not
	// changed: a port that measures "1.0" still emits the number 1.
	MetaNumber func(float64) string
	// StringSize measures one string of the meta as its JSON literal
	// counts toward the cap (SEARCH-JSON-1); nil is jsonjs.StringSize.
	StringSize func(string) int
	// Group groups the matches by file (SEARCH-GREP-3) for the text, the
	// spill text and the meta; nil is GroupByFile.
	Group func([]Match) []FileMatches
	// Cut measures a line against its preview budget and keeps its head
	// (SEARCH-PREVIEW-1), cut reporting whether it dropped anything; the
	// kept text is then decoded as the retainer decodes. nil is the
	// retainer's head cut in UTF-8 bytes.
	Cut func(line string, max int) (kept string, cut bool)
}

// JS is what upstream computes with: TextDecoder (retention.Decode),
// Number::toString (jsonjs.FormatNumber), the UTF-8 length of
// JSON.stringify (jsonjs.StringSize) and first-seen grouping
// (GroupByFile), the direct calls the nil members stand for.
var JS = Primitives{}

// group is p's grouping, a direct call for the reference's.
func (p Primitives) group(matches []Match) []FileMatches {
	if p.Group == nil {
		return GroupByFile(matches)
	}
	return p.Group(matches)
}

// stringSize is p's measure of a meta string, a direct call for the
// reference's.
func (p Primitives) stringSize(s string) int {
	if p.StringSize == nil {
		return jsonjs.StringSize(s)
	}
	return p.StringSize(s)
}

// numberSize is the length of a line number where the meta is measured, a
// direct call for the reference's (SEARCH-JSON-1).
func (p Primitives) numberSize(n float64) int {
	if p.MetaNumber == nil {
		return jsonjs.NumberSize(n)
	}
	return len(p.MetaNumber(n)) // a diagnosis dialect's measure
}
