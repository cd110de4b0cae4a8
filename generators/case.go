// Package generators builds conform's cases: named, hand-picked cases for
// every requirement, and seeded rapid generators that reach the edges of each
// op. The same generators feed the fixtures, the property tests and the
// fuzzer, so a case found by one is reproducible by all.
package generators

import (
	"encoding/json"
	"fmt"
	"regexp"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// Case is one conformance case: an op input with the requirements it
// exercises. Its ID is "<op>/<name>"; IDs are stable: a case is never
// renamed or reused for another meaning.
type Case struct {
	Name         string       // kebab-case, unique within the op
	Op           string       // an op of adapter protocol v1
	Requirements []string     // requirement IDs from spec/requirements.yaml
	Description  string       // one sentence: what the case pins down
	Input        jsonjs.Value // the op input, member order as written
	// RawInput, when set, is the exact JSON text of the input, and Input is
	// its parse. Only text can carry what a parsed value has lost:
	// duplicate keys (CODE-KEYS-2), numbers that overflow to Infinity
	// (SEARCH-NARROW-3) and -0 (CODE-LOSSLESS-1).
	RawInput []byte
}

// InRaw is In for a case whose input text matters: use it as
// Case{Input: v, RawInput: raw}.
func InRaw(text string) (v jsonjs.Value, raw []byte) {
	return In(text), []byte(text)
}

// InputText is the JSON text fed to a harness: RawInput when set, else the
// compact serialization of Input with members in the order written.
func (c Case) InputText() []byte {
	if c.RawInput != nil {
		return c.RawInput
	}
	return jsonjs.AppendLayout(nil, c.Input, jsonjs.Layout{InsertionOrder: true})
}

// ID returns "<op>/<name>".
func (c Case) ID() string { return c.Op + "/" + c.Name }

var namePattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// Validate checks the parts of a case that do not need the reference.
func (c Case) Validate() error {
	if !namePattern.MatchString(c.Name) {
		return fmt.Errorf("case %s: name must be kebab-case", c.ID())
	}
	if len(c.Requirements) == 0 {
		return fmt.Errorf("case %s: names no requirement", c.ID())
	}
	if c.Description == "" {
		return fmt.Errorf("case %s: has no description", c.ID())
	}
	if c.Input.Kind() != jsonjs.Object {
		return fmt.Errorf("case %s: input must be a JSON object", c.ID())
	}
	if c.RawInput != nil {
		v, err := jsonjs.Parse(c.RawInput)
		if err != nil {
			return fmt.Errorf("case %s: raw input: %w", c.ID(), err)
		}
		if !jsonjs.Equal(v, c.Input) {
			return fmt.Errorf("case %s: raw input does not parse to Input", c.ID())
		}
	}
	return nil
}

// In parses a JSON text into an input value; it panics on malformed text,
// which only a programming error in a hand-written case can produce.
func In(text string) jsonjs.Value {
	v, err := jsonjs.Parse([]byte(text))
	if err != nil {
		panic(fmt.Sprintf("generators.In: %v in %s", err, text))
	}
	return v
}

// FromTyped converts a typed op input (search.GrepInput, …) into a value.
func FromTyped(input any) (jsonjs.Value, error) {
	b, err := json.Marshal(input)
	if err != nil {
		return jsonjs.Value{}, err
	}
	return jsonjs.Parse(b)
}
