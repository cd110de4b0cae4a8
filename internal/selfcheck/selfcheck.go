// Package selfcheck runs the reference over a small embedded set of cases
// taken from the contract digest's worked examples, compares the outputs with
// the digest's expectations and validates them against the JSON Schemas in
// spec/. Its expectations are written from the digest, not computed by the
// reference, so its test catches a reference change that the regenerated
// goldens would silently follow.
package selfcheck

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"github.com/dsh-conform/conform/reference"
	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/spec"
)

//go:embed samples.json
var samplesJSON []byte

// Sample is one case: an op input and what the digest says about the output
// (a subset of its fields), or the error message the harness throws.
type Sample struct {
	Name         string                  `json:"name"`
	Op           string                  `json:"op"`
	Requirements []string                `json:"requirements"`
	Input        json.RawMessage         `json:"input"`
	Expect       map[string]jsonjs.Value `json:"expect"`
	Error        string                  `json:"error"`
}

// Samples returns the embedded cases.
func Samples() ([]Sample, error) {
	var s []Sample
	if err := json.Unmarshal(samplesJSON, &s); err != nil {
		return nil, fmt.Errorf("selfcheck: samples.json: %w", err)
	}
	return s, nil
}

// Result is the outcome of one sample.
type Result struct {
	Sample   Sample
	Problems []string
}

// Run runs every sample and returns one result per sample.
func Run() ([]Result, error) {
	samples, err := Samples()
	if err != nil {
		return nil, err
	}
	out := make([]Result, 0, len(samples))
	for _, s := range samples {
		out = append(out, Result{Sample: s, Problems: Check(s)})
	}
	return out, nil
}

// Check runs one sample and lists what is wrong with the output.
func Check(s Sample) []string {
	var problems []string
	for _, id := range s.Requirements {
		if _, ok := spec.Lookup(id); !ok {
			problems = append(problems, fmt.Sprintf("names requirement %s, which spec/ lacks", id))
		}
	}
	if err := spec.ValidateJSON("op-"+s.Op+".input", s.Input); err != nil {
		problems = append(problems, "input: "+err.Error())
	}
	output, err := reference.Run(s.Op, s.Input)
	if s.Error != "" {
		switch {
		case err == nil:
			problems = append(problems, fmt.Sprintf("expected the error %q, got output %s", s.Error, output))
		case err.Error() != s.Error:
			problems = append(problems, fmt.Sprintf("expected the error %q, got %q", s.Error, err.Error()))
		}
		return problems
	}
	if err != nil {
		var inErr *reference.InputError
		if errors.As(err, &inErr) {
			return append(problems, "malformed sample: "+err.Error())
		}
		return append(problems, "unexpected error: "+err.Error())
	}
	if err := spec.ValidateJSON("op-"+s.Op+".output", output); err != nil {
		problems = append(problems, "output: "+err.Error())
	}
	got, err := jsonjs.Parse(output)
	if err != nil {
		return append(problems, "output is not JSON: "+err.Error())
	}
	fields := make([]string, 0, len(s.Expect))
	for f := range s.Expect {
		fields = append(fields, f)
	}
	sort.Strings(fields)
	for _, f := range fields {
		g, ok := got.Get(f)
		if !ok {
			problems = append(problems, fmt.Sprintf("output has no field %q", f))
			continue
		}
		if d := jsonjs.FirstDifference(s.Expect[f], g); d != "" {
			problems = append(problems, fmt.Sprintf("%s differs at %s: want %s, got %s", f, d, jsonjs.Marshal(s.Expect[f]), jsonjs.Marshal(g)))
		}
	}
	return problems
}
