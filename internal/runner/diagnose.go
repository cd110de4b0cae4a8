package runner

import (
	"slices"
	"strings"

	"github.com/dsh-conform/conform/internal/diagnosis"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// Explanation is a deviation model that reproduces a failing answer: the
// harness behaves like the reference with that one difference.
type Explanation struct {
	Model       string   `json:"model"`
	Requirement string   `json:"requirement"`
	Cause       string   `json:"cause,omitempty"` // what it does on this input, where the model says
	Behaves     string   `json:"behaves"`         // completes "behaves like the reference with …"
	Functions   []string `json:"functions"`
	Fix         string   `json:"fix"`
}

// diagnose returns the models whose answer to the case's input equals the
// harness's in every field that differs from the golden answer (issue 20),
// those naming a function of the harness's language first.
func diagnose(c Case, output *jsonjs.Value, errMsg *string, diffs []Diff, language string) []Explanation {
	keep := canShow(diffs)
	var out []Explanation
	moved := map[string]bool{} // the models whose answer here is not the golden one
	for _, m := range diagnosis.Catalogue() {
		if m.Coincides || !modelInScope(m, language) {
			continue
		}
		for _, a := range m.AnswersIf(c.Op, c.InputValue, keep) {
			if !golden(c, a) {
				moved[m.Name] = true
			}
			if reproduces(c, a, output, errMsg, diffs) {
				out = append(out, Explanation{Model: m.Name, Requirement: a.Requirement, Cause: a.Cause, Behaves: m.Behaves, Functions: m.Functions, Fix: m.Fix})
				break
			}
		}
	}
	if out == nil {
		// A model that answers as the reference here adds nothing to
		// another's answer, but where the two interact, which the pass
		// gives up for its cost (issue 20's bound of 1.2).
		out = diagnoseJoint(c, output, errMsg, diffs, language, func(m diagnosis.Model) bool { return moved[m.Name] }, keep)
	}
	slices.SortStableFunc(out, func(a, b Explanation) int { return ofLanguage(b, language) - ofLanguage(a, language) })
	return out
}

// diagnoseJoint returns the two models of the first pair whose joint answer
// reproduces the harness's, where no one model does.
func diagnoseJoint(c Case, output *jsonjs.Value, errMsg *string, diffs []Diff, language string, among func(diagnosis.Model) bool, keep func([]string) bool) []Explanation {
	for _, j := range diagnosis.JointAnswersIf(c.Op, c.InputValue, among, keep) {
		if !modelInScope(j.Models[0], language) || !modelInScope(j.Models[1], language) || !reproduces(c, j.Answer, output, errMsg, diffs) {
			continue
		}
		var out []Explanation
		for k, m := range j.Models {
			out = append(out, Explanation{Model: m.Name, Requirement: j.Requirements[k], Cause: j.Causes[k], Behaves: m.Behaves, Functions: m.Functions, Fix: m.Fix})
		}
		return out
	}
	return nil
}

// modelInScope reports whether model m may name a cause on a harness of
// language: an unscoped model anywhere, a scoped one where language is
// unknown or one of its functions is of it.
func modelInScope(m diagnosis.Model, language string) bool {
	return !m.Scoped || strings.TrimSpace(language) == "" || ofLanguage(Explanation{Functions: m.Functions}, language) == 1
}

// golden reports whether a model's answer is the case's golden one.
func golden(c Case, a diagnosis.Answer) bool {
	switch {
	case a.Fails:
		return false
	case a.Thrown != nil || c.Want.Error != nil:
		return a.Thrown != nil && c.Want.Error != nil && *a.Thrown == *c.Want.Error
	}
	v, err := jsonjs.Parse(a.Output)
	return err == nil && c.Want.Output != nil && jsonjs.Equal(v, *c.Want.Output)
}

// canShow is whether a variant that changes only the output members shows
// (nil: any) can reproduce an answer with these diffs: every compared
// field that differs must be one of them. A thrown error or a whole answer
// that differs (field "") only a variant that can change anything can.
func canShow(diffs []Diff) func(shows []string) bool {
	return func(shows []string) bool {
		if shows == nil {
			return true
		}
		for _, d := range diffs {
			if d.Comparator != CmpProperty && !slices.Contains(shows, d.Field) {
				return false
			}
		}
		return true
	}
}

// ofLanguage is 1 when one of e's functions is of language, else 0.
func ofLanguage(e Explanation, language string) int {
	for _, f := range e.Functions {
		if lang, _, ok := strings.Cut(f, ": "); ok && language != "" && strings.EqualFold(lang, strings.TrimSpace(language)) {
			return 1
		}
	}
	return 0
}

// reproduces reports whether a model's answer equals the harness's in
// every compared field that differs; a model that fails in words of its
// own reproduces any thrown error, and any error result where the golden
// answer is none.
func reproduces(c Case, a diagnosis.Answer, output *jsonjs.Value, errMsg *string, diffs []Diff) bool {
	if a.Fails {
		switch {
		case errMsg != nil:
			return a.Says.MatchString(*errMsg)
		case output != nil && c.Want.Output != nil && boolAt(*output, "isError") && !boolAt(*c.Want.Output, "isError"):
			text, _ := stringAt(*output, "content")
			return a.Says.MatchString(text)
		}
		return false
	}
	if (a.Thrown != nil) != (errMsg != nil) {
		return false
	}
	if a.Thrown != nil {
		return *a.Thrown == *errMsg
	}
	mv, err := jsonjs.Parse(a.Output)
	if err != nil || output == nil {
		return false
	}
	// The whole answer, not only the fields that differ: a model that
	// predicts a difference the harness does not show explains nothing.
	// Only the fields its variant changes whatever the harness does (a
	// stand-in argument's call view) are left out where they agree with
	// the golden answer.
	differs := map[string]bool{}
	for _, d := range diffs {
		if d.Comparator != CmpProperty {
			differs[d.Field] = true
		}
	}
	if differs[""] {
		return jsonjs.Equal(mv, *output)
	}
	modelMembers, ok1 := mv.Members()
	harnessMembers, ok2 := output.Members()
	if !ok1 || !ok2 {
		return false
	}
	for _, m := range modelMembers {
		if slices.Contains(a.Perturbs, m.Key) && !differs[m.Key] {
			continue
		}
		if y, ok := output.Get(m.Key); !ok || !jsonjs.Equal(m.Value, y) {
			return false
		}
	}
	for _, m := range harnessMembers { // what the harness has and the model lacks
		if !mv.Has(m.Key) && !(slices.Contains(a.Perturbs, m.Key) && !differs[m.Key]) {
			return false
		}
	}
	return len(differs) > 0
}

// explain makes the explaining models' requirements the blame of every
// diff: what differs is what the deviation produces, and a property the
// answer breaks the model's answer breaks too (it equals the answer in
// every member), so the property's failure is the deviation's as well.
func explain(diffs []Diff, ex []Explanation) {
	if len(ex) == 0 {
		return
	}
	var reqs []string
	for _, e := range ex {
		if !slices.Contains(reqs, e.Requirement) {
			reqs = append(reqs, e.Requirement)
		}
	}
	for i := range diffs {
		affect(&diffs[i], reqs)
	}
}
