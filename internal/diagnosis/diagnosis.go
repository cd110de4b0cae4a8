// Package diagnosis says why a harness's answer differs from the golden
// one (issue 20): a catalogue of deviation models, each the reference with
// one documented difference that real implementations make, found in the
// standard libraries of the family's languages. A model that reproduces a
// failing answer names the requirement the harness breaks, the library
// calls that behave that way and a one-line fix.
package diagnosis

import (
	"github.com/dsh-conform/conform/reference"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// A Model is one deviation from the reference.
type Model struct {
	Name        string   // stable id, as reports name it
	Requirement string   // the one requirement the deviation breaks
	Behaves     string   // completes "behaves like the reference with …"
	Functions   []string // the language functions that behave so
	Fix         string   // one line
	// rewrite is the op input on which the reference answers as the model
	// answers the given one; ok is false where the model answers as the
	// reference does.
	rewrite func(op string, input jsonjs.Value) (jsonjs.Value, bool)
}

// Answer is the model's answer to an op input: an output, or the message
// of a thrown error. applies is false where the model and the reference
// agree by construction, so the model explains nothing there.
func (m Model) Answer(op string, input jsonjs.Value) (output []byte, thrown *string, applies bool) {
	in, ok := m.rewrite(op, input)
	if !ok {
		return nil, nil, false
	}
	out, err := reference.Run(op, jsonjs.Marshal(in))
	if err != nil {
		msg := err.Error()
		return nil, &msg, true
	}
	return out, nil, true
}

// Catalogue is every model, in the order docs/diagnosis.md lists them.
func Catalogue() []Model { return append([]Model(nil), catalogue...) }

var catalogue = trimModels()
