package reference

import (
	"github.com/dsh-conform/conform/reference/codemode"
	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/reference/retention"
	"github.com/dsh-conform/conform/reference/search"
	"github.com/dsh-conform/conform/reference/spill"
)

// Dialect is a set of primitives the reference computes with in place of
// JavaScript's: a decoder of retained UTF-8, a number formatter, a value
// renderer, the meta's string measure, grep's grouping and line cut. A nil
// member is JavaScript's. internal/diagnosis runs the
// reference in another language's dialect to see whether a harness behaves
// like that language's standard library (issue 20); conform's verdicts
// never use it.
type Dialect struct {
	// Decode turns retained bytes into text: retain.text's window, grep's
	// line previews, spill.preview's cuts (RET-UTF8-3, SEARCH-PREVIEW-3,
	// SPILL-PREV-3); nil is retention.Decode.
	Decode retention.Decoder
	// GrepNumber writes a grep row's line number (SEARCH-GREP-3); nil is
	// Number::toString.
	GrepNumber func(float64) string
	// MetaNumber writes a line number where grep's meta is measured
	// (SEARCH-JSON-1); nil is Number::toString. The meta emitted is not
	// changed.
	MetaNumber func(float64) string
	// Render writes a run's completion value (CODE-JSON-*, CODE-KEYS-*,
	// CODE-NUM-1, CODE-STR-1): codemode.RenderValue.
	Render func(jsonjs.Value) string
	// MetaString measures one string of a grep or glob meta toward its
	// cap (SEARCH-JSON-1): nil is jsonjs.StringSize, the UTF-8 length of
	// its JSON.stringify literal.
	MetaString func(string) int
	// Group groups grep's matches by file (SEARCH-GREP-3): nil is
	// search.GroupByFile, groups in first-seen order.
	Group func([]search.Match) []search.FileMatches
	// PreviewCut measures and cuts each grep line for its preview
	// (SEARCH-PREVIEW-1): nil is the retainer's head cut in UTF-8 bytes.
	PreviewCut func(line string, max int) (kept string, cut bool)
}

// RunWith runs one op as Run does, computing with d's primitives.
func RunWith(opName string, input []byte, d Dialect) ([]byte, error) {
	dec, number := d.Decode, d.GrepNumber // nil members are the reference's
	prims := search.Primitives{Decode: dec, Number: number, MetaNumber: d.MetaNumber, StringSize: d.MetaString, Group: d.Group, Cut: d.PreviewCut}
	switch opName {
	case OpRetainText:
		return op(opName, retention.DecodeTextInput, func(in retention.TextInput) (retention.TextOutput, error) {
			return retention.RetainTextWith(in, dec)
		})(input)
	case OpGrepResult:
		return op(opName, search.DecodeGrepInput, func(in search.GrepInput) (search.ResultOutput, error) {
			return search.GrepResultWith(in, prims)
		})(input)
	case OpGlobResult:
		return op(opName, search.DecodeGlobInput, func(in search.GlobInput) (search.ResultOutput, error) {
			return search.GlobResultWith(in, prims)
		})(input)
	case OpRunCodeResult:
		render := d.Render
		if render == nil {
			render = codemode.RenderValue
		}
		return op(opName, codemode.DecodeResultInput, func(in codemode.ResultInput) (codemode.ResultOutput, error) {
			return codemode.ResultWith(in, render)
		})(input)
	case OpSpillPreview:
		return op(opName, spill.DecodePreviewInput, func(in spill.PreviewInput) (spill.PreviewOutput, error) {
			return spill.PreviewOpWith(in, dec)
		})(input)
	}
	return Run(opName, input)
}
