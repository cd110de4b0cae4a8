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
