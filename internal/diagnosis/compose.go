package diagnosis

import (
	"github.com/dsh-conform/conform/reference"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// A harness can deviate in two ways at once (a BOM kept in a line preview
// and a null hint written None): no one model reproduces its answer, the
// two together do. A Joint is the reference with both deviations; it
// blames both requirements (issue 20: "where models explain parts, the
// blame is their union").

// A Joint is two models' variants applied together.
type Joint struct {
	Models [2]Model
	// Answer is their joint answer; Answer.Requirement is the first's, and
	// Requirements both, in catalogue order.
	Answer       Answer
	Requirements [2]string
	Causes       [2]string
}

// JointAnswers are the answers of every pair of catalogue models whose
// variants apply to the input together (models that fail in words of
// their own, or coincide with others, take no part).
func JointAnswers(op string, input jsonjs.Value) []Joint {
	type applied struct {
		m  Model
		vs []Variant
	}
	var ms []applied
	for _, m := range catalogue {
		if m.Coincides || m.fails != nil {
			continue
		}
		if vs := m.Variants(op, input); len(vs) > 0 {
			ms = append(ms, applied{m, vs})
		}
	}
	var out []Joint
	for i := range ms {
		for j := i + 1; j < len(ms); j++ {
			for _, va := range ms[i].vs {
				for _, vb := range ms[j].m.Variants(op, va.Input) {
					d, ok := mergeDialects(va.Dialect, vb.Dialect)
					if !ok || va.Numbers != nil && vb.Numbers != nil {
						continue
					}
					numbers := va.Numbers
					if numbers == nil {
						numbers = vb.Numbers
					}
					d = Variant{Dialect: d, Numbers: numbers}.dialect()
					a := Answer{Requirement: va.Requirement, Perturbs: append(append([]string(nil), va.Perturbs...), vb.Perturbs...)}
					if o, err := reference.RunWith(op, inputText(vb.Input), d); err != nil {
						msg := err.Error()
						a.Thrown = &msg
					} else {
						a.Output = o
					}
					out = append(out, Joint{
						Models: [2]Model{ms[i].m, ms[j].m}, Answer: a,
						Requirements: [2]string{va.Requirement, vb.Requirement},
						Causes:       [2]string{va.Cause, vb.Cause},
					})
				}
			}
		}
	}
	return out
}

// mergeDialects is a and b together; false where both replace the same
// primitive.
func mergeDialects(a, b reference.Dialect) (reference.Dialect, bool) {
	if a.Decode != nil && b.Decode != nil || a.GrepNumber != nil && b.GrepNumber != nil || a.Render != nil && b.Render != nil ||
		a.MetaNumber != nil && b.MetaNumber != nil {
		return reference.Dialect{}, false
	}
	if b.Decode != nil {
		a.Decode = b.Decode
	}
	if b.GrepNumber != nil {
		a.GrepNumber = b.GrepNumber
	}
	if b.Render != nil {
		a.Render = b.Render
	}
	if b.MetaNumber != nil {
		a.MetaNumber = b.MetaNumber
	}
	return a, true
}
