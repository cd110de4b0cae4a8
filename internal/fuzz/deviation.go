package fuzz

import (
	"github.com/dsh-conform/conform/generators"
	"github.com/dsh-conform/conform/internal/diagnosis"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// Deviation models group findings by cause: when the harness's answer to
// an input is the reference's answer to a model's variant of it, the
// variant's cause explains the failure, and every failure it explains is
// one finding (group.go). The models are internal/diagnosis's catalogue,
// the one `conform run` diagnoses failing cases with; a model that fails
// in words of its own has no variant to judge, so fuzz leaves it out.

// deviant is the reference run on another input: cause names it.
type deviant struct {
	cause string
	value jsonjs.Value
}

// deviants are the variants of an input value worth trying, in catalogue
// order, each named by its model and what it does.
func deviants(op string, v jsonjs.Value) []deviant {
	var out []deviant
	for _, m := range diagnosis.Catalogue() {
		for _, x := range m.Variants(op, v) {
			if !x.Plain() {
				continue // the reference in another dialect: Golden cannot run it
			}
			// The cause names what the harness does, not the rule each
			// place breaks: one bug is one finding wherever it shows.
			cause := x.Cause
			if cause == "" {
				cause = "behaves like the reference with " + m.Behaves
			}
			out = append(out, deviant{cause: cause, value: x.Input})
		}
	}
	return out
}

// variantInput is a variant's input text, as a case's.
func variantInput(v jsonjs.Value) []byte { return generators.Case{Input: v}.InputText() }
