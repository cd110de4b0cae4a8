// Package diagnosis says why a harness's answer differs from the golden
// one (issue 20): a catalogue of deviation models, each the reference with
// one documented difference that real implementations make, found in the
// standard libraries of the family's languages. A model that reproduces a
// failing answer names the requirement the harness breaks, the library
// calls that behave that way and a one-line fix.
package diagnosis

import (
	"regexp"

	"github.com/dsh-conform/conform/reference"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// A Model is one deviation from the reference.
type Model struct {
	Name string // stable id, as reports name it
	// Requirement is the one requirement the deviation breaks; "" where it
	// depends on the input (RequirementOf).
	Requirement string
	Behaves     string   // completes "behaves like the reference with …"
	Functions   []string // "Language: function, function", as docs/diagnosis.md lists them
	Fix         string   // one line
	// rewrite is the op input on which the reference answers as the model
	// answers the given one; ok is false where the model answers as the
	// reference does.
	rewrite func(op string, input jsonjs.Value) (jsonjs.Value, bool)
	// fails, for a model that fails in words of its own (a thrown error or
	// an error result), reports where it does; says is what such words
	// always mention, so that a harness failing for another reason is not
	// taken for it.
	fails func(op string, input jsonjs.Value) bool
	says  *regexp.Regexp
	// place is the requirement an input tests, for a model whose
	// Requirement is "".
	place func(op string, input jsonjs.Value) (string, bool)
}

// Answer is a model's answer to one op input.
type Answer struct {
	Output []byte  // its output, when it answers with one
	Thrown *string // the message of its thrown error
	// Fails is true when it fails in words of its own: a thrown error, or
	// an error result where the reference's is not one, whose text Says
	// matches.
	Fails bool
	Says  *regexp.Regexp
}

// Answer is the model's answer to an op input; applies is false where the
// model and the reference agree by construction, so the model explains
// nothing there.
func (m Model) Answer(op string, input jsonjs.Value) (a Answer, applies bool) {
	if _, ok := m.RequirementOf(op, input); !ok {
		return Answer{}, false
	}
	if m.fails != nil {
		return Answer{Fails: true, Says: m.says}, m.fails(op, input)
	}
	in, ok := m.rewrite(op, input)
	if !ok {
		return Answer{}, false
	}
	out, err := reference.Run(op, jsonjs.Marshal(in))
	if err != nil {
		msg := err.Error()
		return Answer{Thrown: &msg}, true
	}
	return Answer{Output: out}, true
}

// RequirementOf is the requirement the model breaks on this input; false
// where the input tests none the model knows.
func (m Model) RequirementOf(op string, input jsonjs.Value) (string, bool) {
	if m.Requirement != "" {
		return m.Requirement, true
	}
	return m.place(op, input)
}

// Catalogue is every model, in the order docs/diagnosis.md lists them.
func Catalogue() []Model { return append([]Model(nil), catalogue...) }

var catalogue = append(trimModels(), surrogateModels()...)
