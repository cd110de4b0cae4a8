package search

import (
	"github.com/dsh-conform/conform/reference/retention"
)

// Primitives are the library calls grep's rendering rests on; a nil member
// is JavaScript's. JS is the reference's; internal/diagnosis runs grep with
// other languages' to see whether a harness behaves like one of them
// (issue 20).
type Primitives struct {
	Decode retention.Decoder    // each line preview's decoder (SEARCH-PREVIEW-3); nil is retention.Decode
	Number func(float64) string // a row's line number as text (SEARCH-GREP-3); nil is Number::toString
	// MetaNumber writes a line number where the meta is measured
	// (SEARCH-JSON-1); nil is Number::toString. The meta itself is not
	// changed: a port that measures "1.0" still emits the number 1.
	MetaNumber func(float64) string
}

// JS is what upstream computes with: TextDecoder (retention.Decode) and
// Number::toString (jsonjs.FormatNumber), the direct calls the nil members
// stand for.
var JS = Primitives{}
