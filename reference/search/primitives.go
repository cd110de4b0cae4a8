package search

import (
	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/reference/retention"
)

// Primitives are the library calls grep's rendering rests on, every
// member set. JS is the reference's; internal/diagnosis runs grep with
// other languages' to see whether a harness behaves like one of them
// (issue 20).
type Primitives struct {
	Decode retention.Decoder    // each line preview's decoder (SEARCH-PREVIEW-3)
	Number func(float64) string // a row's line number as text (SEARCH-GREP-3)
}

// JS is what upstream computes with: TextDecoder and Number::toString.
var JS = Primitives{Decode: retention.Decode, Number: jsonjs.FormatNumber}
