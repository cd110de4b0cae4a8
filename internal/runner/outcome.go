package runner

import (
	"slices"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// Outcome flips (issue 20, item 3). When the harness fails where the
// reference answers, or answers where the reference fails, one decision
// differs: an argument, value, configuration or budget check. Every other
// difference (the text, the meta, the view of a result that was never
// rendered) follows from it and blames nothing; the decision's
// requirements are the blame.

// decides lists, per op, the requirements whose checks decide whether a
// call fails. failText are those that only say how a failure the input
// asks for is rendered: when the reference did not fail, the input asked
// for none, so they cannot be the cause.
var (
	decides = map[string][]string{
		"grep.result":     {"SEARCH-ARGS-*", "SEARCH-VAL-*", "SEARCH-CFG-2", "SEARCH-EXEC-3", "SEARCH-ERR-1"},
		"glob.result":     {"SEARCH-ARGS-*", "SEARCH-VAL-*", "SEARCH-CFG-2", "SEARCH-EXEC-3", "SEARCH-ERR-1"},
		"run_code.result": {"SEARCH-ARGS-3", "CODE-ERR-1", "CODE-VALUE-1", "CODE-FAIL-1", "CODE-FAIL-2"},
		"retain.items":    {"RET-ITEM-1"},
		"retain.text":     {"RET-TEXT-1", "RET-TEXT-2"},
		"spill.preview":   {"SPILL-CFG-1", "SPILL-REF-1"},
		"search.present":  {"SEARCH-NARROW-1", "SEARCH-PRESENT-3"},
	}
	failText = []string{"SEARCH-ERR-1", "CODE-FAIL-1", "CODE-FAIL-2"}
	// refused is the requirement a harness breaks by failing on an input
	// the reference accepts, when the case cites no deciding one.
	refused = map[string]string{
		"grep.result":     "SEARCH-VAL-1",
		"glob.result":     "SEARCH-VAL-2",
		"run_code.result": "CODE-RENDER-1",
		"retain.items":    "RET-ITEM-1",
		"retain.text":     "RET-TEXT-2",
		"spill.preview":   "SPILL-CFG-1",
		"search.present":  "SEARCH-NARROW-1",
	}
)

// outcomeFlip reports whether the answer's outcome differs from the golden
// one, whether the reference failed, and which diff carries the decision.
func outcomeFlip(c Case, output *jsonjs.Value, diffs []Diff) (flipped, wantFailed bool, at int) {
	at = -1
	for i, d := range diffs {
		switch {
		case d.Comparator == CmpProperty:
		case d.Field == "" && c.Want.Error != nil: // an output where the op must throw
			return true, true, i
		case d.Field == "": // a throw says nothing of which check: every citation
			return false, false, -1
		case d.Field == "isError":
			at = i
		}
	}
	if at < 0 || c.Want.Output == nil || output == nil {
		return false, false, -1
	}
	w, g := boolAt(*c.Want.Output, "isError"), boolAt(*output, "isError")
	return w != g, w, at
}

// flipBlame is the blame of a flipped outcome: the case's cited deciding
// requirements; with none cited, the op's own "accepts its input"
// requirement when the harness refused what the reference accepted.
func flipBlame(c Case, wantFailed bool) []string {
	pats := decides[c.Op]
	if !wantFailed {
		pats = slices.DeleteFunc(slices.Clone(pats), func(p string) bool { return slices.Contains(failText, p) })
	}
	if got := cited(c.Requirements, pats); len(got) > 0 {
		return got
	}
	if r, ok := refused[c.Op]; ok && !wantFailed {
		return []string{r}
	}
	return nil
}

// blameFlip applies the outcome rule over the part-by-part blame, whose
// requirements become what the derived diffs affect; it reports false when
// the outcome did not flip or no deciding requirement is known.
func blameFlip(c Case, output *jsonjs.Value, diffs []Diff) bool {
	flipped, wantFailed, at := outcomeFlip(c, output, diffs)
	if !flipped {
		return false
	}
	reqs := flipBlame(c, wantFailed)
	if reqs == nil {
		return false
	}
	for i := range diffs {
		if diffs[i].Comparator != CmpProperty {
			affect(&diffs[i], nil)
		}
	}
	diffs[at].Requirements = reqs
	return true
}

// affect makes d blame reqs; what it blamed besides becomes what it affects.
func affect(d *Diff, reqs []string) {
	for _, id := range d.Requirements {
		if !slices.Contains(reqs, id) && !slices.Contains(d.Affects, id) {
			d.Affects = append(d.Affects, id)
		}
	}
	d.Requirements = append([]string{}, reqs...)
}

// affected is what the diffs affect without breaking: their Affects that
// bind the harness, less broken, in first-seen order.
func affected(diffs []Diff, broken []string, language string) []string {
	var out []string
	for _, d := range diffs {
		for _, id := range binding(d.Affects, language) {
			if !slices.Contains(broken, id) && !slices.Contains(out, id) {
				out = append(out, id)
			}
		}
	}
	return out
}
