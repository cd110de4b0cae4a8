// Package reference is the in-process reference harness: it runs every op
// of adapter protocol v1 (docs/ops.md) on JSON input and returns JSON
// output. The runner, the generators and the fuzzer all call it; the op
// implementations live in the concept packages below it.
package reference

import (
	"fmt"
	"maps"
	"slices"

	"github.com/dsh-conform/conform/reference/codemode"
	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/reference/retention"
	"github.com/dsh-conform/conform/reference/search"
	"github.com/dsh-conform/conform/reference/spill"
)

// Op names of adapter protocol v1.
const (
	OpGrepResult    = "grep.result"
	OpGlobResult    = "glob.result"
	OpSearchPresent = "search.present"
	OpRunCodeResult = "run_code.result"
	OpRetainItems   = "retain.items"
	OpRetainText    = "retain.text"
	OpSpillPreview  = "spill.preview"
)

// InputError reports input that does not decode into the op's input type:
// a malformed case rather than a harness behaviour.
type InputError struct {
	Op  string
	Err error
}

func (e *InputError) Error() string { return fmt.Sprintf("%s input: %v", e.Op, e.Err) }
func (e *InputError) Unwrap() error { return e.Err }

// Output is what every op returns: a JSON value, written by jsonjs alone
// (encoding/json re-scans what a Marshaler returns and refuses nesting
// deeper than 10,000 levels; CODE-JSON-3 has no limit).
type Output interface{ Value() jsonjs.Value }

// op adapts a typed op function to JSON in, JSON out. The input is read
// with JSON.parse semantics (jsonjs: no depth limit, lone surrogates kept,
// member names exact) and decoded by the op's own decoder, which ignores
// members it does not know (docs/protocol.md) and names the JSON path of a
// value of the wrong type.
func op[In any, Out Output](name string, decode func(jsonjs.Field) (In, error), run func(In) (Out, error)) func([]byte) ([]byte, error) {
	return func(input []byte) ([]byte, error) {
		v, err := jsonjs.Parse(input)
		if err != nil {
			return nil, &InputError{Op: name, Err: err}
		}
		in, err := decode(jsonjs.Root(v))
		if err != nil {
			return nil, &InputError{Op: name, Err: err}
		}
		out, err := run(in)
		if err != nil {
			return nil, err
		}
		return jsonjs.Marshal(out.Value()), nil
	}
}

var ops = map[string]func([]byte) ([]byte, error){
	OpGrepResult:    op(OpGrepResult, search.DecodeGrepInput, search.GrepResult),
	OpGlobResult:    op(OpGlobResult, search.DecodeGlobInput, search.GlobResult),
	OpSearchPresent: op(OpSearchPresent, search.DecodePresentInput, search.Present),
	OpRunCodeResult: op(OpRunCodeResult, codemode.DecodeResultInput, codemode.Result),
	OpRetainItems:   op(OpRetainItems, retention.DecodeItemsInput, retention.RetainItems),
	OpRetainText:    op(OpRetainText, retention.DecodeTextInput, retention.RetainText),
	OpSpillPreview:  op(OpSpillPreview, spill.DecodePreviewInput, spill.PreviewOp),
}

// Ops lists the op names, sorted.
func Ops() []string {
	return slices.Sorted(maps.Keys(ops))
}

// Run runs one op. A returned error is either an *InputError (the input is
// malformed) or the error the harness itself throws for this input (an
// invalid configuration or budget), whose message is the library's.
func Run(opName string, input []byte) ([]byte, error) {
	run, ok := ops[opName]
	if !ok {
		return nil, fmt.Errorf("unknown op %q", opName)
	}
	return run(input)
}

// Encode writes an op output as Run does, for callers that hold the
// output of a typed op call (tests, the wrong harnesses of internal/fuzz).
func Encode(v any) ([]byte, error) {
	out, ok := v.(Output)
	if !ok {
		return nil, fmt.Errorf("reference.Encode: %T is not an op output", v)
	}
	return jsonjs.Marshal(out.Value()), nil
}
