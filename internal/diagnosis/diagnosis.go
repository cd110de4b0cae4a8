// Package diagnosis says why a harness's answer differs from the golden
// one (issue 20): a catalogue of deviation models, each the reference with
// one documented difference that real implementations make, found in the
// standard libraries of the family's languages. A model that reproduces a
// failing answer names the requirement the harness breaks, the library
// calls that behave that way and a one-line fix. `conform run` diagnoses
// failing cases with it; `conform fuzz` groups findings by it.
package diagnosis

import (
	"regexp"
	"slices"

	"github.com/dsh-conform/conform/reference"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// A Model is one deviation from the reference.
type Model struct {
	Name string // stable id, as reports name it
	// Requirement is the one requirement the deviation breaks; "" where it
	// depends on the input (each Variant's, or place's).
	Requirement string
	Behaves     string   // completes "behaves like the reference with …"
	Functions   []string // "Language: function, function", as docs/diagnosis.md lists them
	Fix         string   // one line
	// Coincides is set where the model's variants often equal another
	// deviation's answer: a meta measured one byte long is, on that input,
	// a cap read one less. Such a model groups fuzz findings (one bug, one
	// finding) but names no case's cause in a run.
	Coincides bool
	// Scoped is set where the model's evidence is an outcome that other
	// deviations share (a cap's kept count, a number two formatters write
	// alike): it names a cause only on a harness whose handshake names the
	// language of one of its Functions, or no language.
	Scoped bool
	// variants are the op inputs on which the reference answers as the
	// model answers the given one; none where they agree by construction.
	variants func(op string, input jsonjs.Value) []Variant
	// fails, for a model that fails in words of its own (a thrown error or
	// an error result), reports where it does; says is what such words
	// always mention, so that a harness failing for another reason is not
	// taken for it; place is the requirement the input tests.
	fails func(op string, input jsonjs.Value) bool
	says  *regexp.Regexp
	place func(op string, input jsonjs.Value) (string, bool)
}

// A Variant is one input the reference is run on in the model's stead.
type Variant struct {
	Input       jsonjs.Value
	Requirement string // the requirement this variant breaks
	Cause       string // what the model does here, e.g. `reads "config"."maxLineBytes" as one less than given`
	// Perturbs are output members the variant changes whatever the model
	// does (a stand-in argument shows in the call view): they are compared
	// only where the harness's differ from the golden answer.
	Perturbs []string
	// Dialect is the primitives the reference computes with on this
	// variant (another language's decoder, number formatter); the zero
	// Dialect is JavaScript's.
	Dialect reference.Dialect
	// Numbers rewrites each number token of a run's rendered result (a
	// JSON library's reader and writer, serde.go); nil keeps them.
	Numbers func(token string) string
	// Shows are the output members the variant can change (a meta measure
	// changes meta and view only); nil where any. A harness differing in
	// another member cannot be explained by it, so it is not run.
	Shows []string
}

// Answer is a model's answer to one op input.
type Answer struct {
	Output      []byte  // its output, when it answers with one
	Thrown      *string // the message of its thrown error
	Requirement string
	Cause       string
	Perturbs    []string
	// Fails is true when it fails in words of its own: a thrown error, or
	// an error result where the reference's is not one, whose text Says
	// matches.
	Fails bool
	Says  *regexp.Regexp
}

// Variants are the inputs the reference answers in the model's stead,
// each naming its requirement (the model's, unless the place decides);
// none for a model that fails in words of its own, or where the model and
// the reference agree by construction.
func (m Model) Variants(op string, input jsonjs.Value) []Variant {
	if m.variants == nil {
		return nil
	}
	vs := m.variants(op, input)
	for i := range vs {
		if vs[i].Requirement == "" {
			vs[i].Requirement = m.Requirement
		}
	}
	return vs
}

// Answers are the model's possible answers to an op input, one a variant;
// none where the model explains nothing.
func (m Model) Answers(op string, input jsonjs.Value) []Answer { return m.AnswersIf(op, input, nil) }

// AnswersIf is Answers without the variants whose Shows keep refuses
// (nil keeps all): the reference is not run on them.
func (m Model) AnswersIf(op string, input jsonjs.Value, keep func(shows []string) bool) []Answer {
	if m.fails != nil {
		req, ok := m.place(op, input)
		if !ok || !m.fails(op, input) {
			return nil
		}
		return []Answer{{Fails: true, Says: m.says, Requirement: req}}
	}
	var out []Answer
	for _, v := range m.Variants(op, input) {
		if keep != nil && !keep(v.Shows) {
			continue
		}
		a := Answer{Requirement: v.Requirement, Cause: v.Cause, Perturbs: v.Perturbs}
		o, err := reference.RunWith(op, inputText(v.Input), v.dialect())
		if err != nil {
			msg := err.Error()
			a.Thrown = &msg
		} else {
			a.Output = o
		}
		out = append(out, a)
	}
	return out
}

// Catalogue is every model, in the order docs/diagnosis.md lists them.
func Catalogue() []Model { return append([]Model(nil), catalogue...) }

var catalogue = slices.Concat(trimModels(), surrogateModels(), settingModels(),
	decoderModels(), numberModels(), nullModels(), keyOrderModels(), readerModels(), serdeModels(),
	escapeModels(), lengthModels(), previewModels(), groupModels())

// one is a model's single variant, for the models whose rewrite is one
// input; it breaks the model's Requirement.
func one(rewrite func(op string, input jsonjs.Value) (jsonjs.Value, bool), perturbs ...string) func(string, jsonjs.Value) []Variant {
	return func(op string, input jsonjs.Value) []Variant {
		in, ok := rewrite(op, input)
		if !ok {
			return nil
		}
		return []Variant{{Input: in, Perturbs: perturbs}}
	}
}
