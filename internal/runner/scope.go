package runner

import "github.com/dsh-conform/conform/spec"

// inScope drops from each diff's requirements those scoped to another
// implementation language than the harness's handshake names (issue 20:
// SEARCH-JSON-2, about Go's encoding/json, is never blamed on a Python
// harness). A diff left with none blames the case's citations that bind
// the harness instead; every case cites one (tested).
func inScope(c Case, diffs []Diff, language string) {
	for i := range diffs {
		d := &diffs[i]
		kept := binding(d.Requirements, language)
		if len(kept) == 0 && len(d.Requirements) > 0 {
			kept = binding(c.Requirements, language)
		}
		d.Requirements = kept
	}
}

// binding keeps the requirements of ids that bind a harness in language.
func binding(ids []string, language string) []string {
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		if r, ok := spec.Lookup(id); ok && !r.Binds(language) {
			continue
		}
		out = append(out, id)
	}
	return out
}
