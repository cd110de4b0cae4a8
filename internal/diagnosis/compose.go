package diagnosis

import (
	"github.com/dsh-conform/conform/reference"
	"github.com/dsh-conform/conform/reference/jsonjs"
	"reflect"
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
func JointAnswers(op string, input jsonjs.Value) []Joint { return JointAnswersIf(op, input, nil, nil) }

// JointAnswersIf is JointAnswers over the models among admits (nil: all),
// without the pairs whose Shows together keep refuses (nil keeps all).
func JointAnswersIf(op string, input jsonjs.Value, among func(Model) bool, keep func(shows []string) bool) []Joint {
	type applied struct {
		m  Model
		vs []Variant
	}
	var ms []applied
	for _, m := range catalogue {
		if m.Coincides || m.fails != nil || among != nil && !among(m) {
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
					if !ok || va.Numbers != nil && vb.Numbers != nil || keep != nil && !keep(bothShow(va.Shows, vb.Shows)) {
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
	// Every member is a primitive (a func, nil for JavaScript's): walking
	// them keeps a member added to Dialect merged too.
	av, bv := reflect.ValueOf(&a).Elem(), reflect.ValueOf(b)
	for i := range av.NumField() {
		if bv.Field(i).IsNil() {
			continue
		}
		if !av.Field(i).IsNil() {
			return reference.Dialect{}, false
		}
		av.Field(i).Set(bv.Field(i))
	}
	return a, true
}

// bothShow is what two variants together can change: nil (any) where
// either can change any member.
func bothShow(a, b []string) []string {
	if a == nil || b == nil {
		return nil
	}
	return append(append([]string{}, a...), b...)
}
