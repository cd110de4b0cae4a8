package runner

import (
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// The spill policy's decision (issue 20, item 3): whether the arm applies
// and saves the text is SPILL-RES-2's conditions (over the cap, all text,
// not read, top-level …). When the harness saves where the reference keeps
// the content, or the reverse, that decision differs, and the preview it
// built or did not build (SPILL-PREV-*, SPILL-CAP-1) follows from it: the
// case blames the deciding rule alone, as an outcome flip does.

// spillDecides are the rules that decide whether the policy applies.
var spillDecides = []string{"SPILL-RES-2", "SPILL-CFG-1"}

// blameSpillDecision applies that rule to a spill.preview case whose
// save is null on one side only; it reports whether it did.
func blameSpillDecision(c Case, output *jsonjs.Value, diffs []Diff) bool {
	if c.Op != "spill.preview" || output == nil || c.Want.Output == nil {
		return false
	}
	saves := func(v jsonjs.Value) bool { s, ok := v.Get("save"); return ok && !s.IsNull() }
	if saves(*c.Want.Output) == saves(*output) {
		return false
	}
	reqs := cited(c.Requirements, spillDecides)
	if len(reqs) == 0 {
		reqs = spillDecides[:1]
	}
	at := -1
	for i := range diffs {
		if diffs[i].Comparator != CmpProperty && diffs[i].Field == "save" {
			at = i
		}
	}
	if at < 0 {
		return false // an answer that is no object: its diffs are the whole answer's
	}
	for i := range diffs {
		if diffs[i].Comparator != CmpProperty {
			affect(&diffs[i], nil)
		}
	}
	diffs[at].Requirements = reqs
	return true
}
