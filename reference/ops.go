// Package reference is the in-process reference harness: it runs every op
// of adapter protocol v1 (docs/ops.md) on JSON input and returns JSON
// output. The runner, the generators and the fuzzer all call it; the op
// implementations live in the concept packages below it.
package reference

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/dsh-conform/conform/reference/codemode"
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

// op adapts a typed op function to JSON in, JSON out.
func op[In, Out any](name string, run func(In) (Out, error)) func([]byte) ([]byte, error) {
	return func(input []byte) ([]byte, error) {
		var in In
		dec := json.NewDecoder(bytes.NewReader(input))
		dec.DisallowUnknownFields() // a misspelled field is a broken case, not a default
		if err := dec.Decode(&in); err != nil {
			return nil, &InputError{Op: name, Err: err}
		}
		if dec.More() {
			return nil, &InputError{Op: name, Err: fmt.Errorf("trailing data after the input object")}
		}
		out, err := run(in)
		if err != nil {
			return nil, err
		}
		return Encode(out)
	}
}

var ops = map[string]func([]byte) ([]byte, error){
	OpGrepResult:    op(OpGrepResult, search.GrepResult),
	OpGlobResult:    op(OpGlobResult, search.GlobResult),
	OpSearchPresent: op(OpSearchPresent, search.Present),
	OpRunCodeResult: op(OpRunCodeResult, codemode.Result),
	OpRetainItems:   op(OpRetainItems, retention.RetainItems),
	OpRetainText:    op(OpRetainText, retention.RetainText),
	OpSpillPreview:  op(OpSpillPreview, spill.PreviewOp),
}

// Ops lists the op names, sorted.
func Ops() []string {
	names := make([]string, 0, len(ops))
	for n := range ops {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
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

// Encode writes an op output as compact JSON without HTML escaping. Values
// that must match JSON.stringify byte for byte (meta, views) marshal
// themselves through jsonjs.
func Encode(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
