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
	Behaves     string   `json:"behaves"` // completes "behaves like the reference with …"
	Functions   []string `json:"functions"`
	Fix         string   `json:"fix"`
}

// diagnose returns the models whose answer to the case's input equals the
// harness's in every field that differs from the golden answer (issue 20),
// those naming a function of the harness's language first.
func diagnose(c Case, output *jsonjs.Value, errMsg *string, diffs []Diff, language string) []Explanation {
	var out []Explanation
	for _, m := range diagnosis.Catalogue() {
		a, ok := m.Answer(c.Op, c.InputValue)
		if ok && reproduces(c, a, output, errMsg, diffs) {
			req, _ := m.RequirementOf(c.Op, c.InputValue)
			out = append(out, Explanation{Model: m.Name, Requirement: req, Behaves: m.Behaves, Functions: m.Functions, Fix: m.Fix})
		}
	}
	slices.SortStableFunc(out, func(a, b Explanation) int { return ofLanguage(b, language) - ofLanguage(a, language) })
	return out
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
	compared := false
	for _, d := range diffs {
		if d.Comparator == CmpProperty {
			continue
		}
		compared = true
		if d.Field == "" {
			if !jsonjs.Equal(mv, *output) {
				return false
			}
			continue
		}
		a, inModel := mv.Get(d.Field)
		b, inHarness := output.Get(d.Field)
		if inModel != inHarness || (inModel && !jsonjs.Equal(a, b)) {
			return false
		}
	}
	return compared
}

// explain makes the explaining models' requirements the blame of every
// compared diff: what differs is what the deviation produces.
func explain(diffs []Diff, ex []Explanation) {
	var reqs []string
	for _, e := range ex {
		if !slices.Contains(reqs, e.Requirement) {
			reqs = append(reqs, e.Requirement)
		}
	}
	for i := range diffs {
		if diffs[i].Comparator != CmpProperty {
			affect(&diffs[i], reqs)
		}
	}
}
