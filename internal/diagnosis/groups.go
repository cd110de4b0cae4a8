package diagnosis

import (
	"slices"
	"strings"

	"github.com/dsh-conform/conform/reference"
	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/reference/search"
)

// The grouping model (SEARCH-GREP-3): grep's matches grouped by file with
// a sorted map, so the groups come in path order, not first-seen order, in
// the text, the spill text and the meta. The reference is run with that
// grouping (reference.Dialect.Group).

func groupModels() []Model {
	return []Model{{
		Name: "groups-sorted", Requirement: "SEARCH-GREP-3",
		Behaves:   "grep's file groups in sorted path order (by code point), not in the order their first match comes",
		Functions: []string{"Rust: BTreeMap<String, Vec<Match>>", "Go: sort.Strings over a map's keys", "Python: sorted(groups), itertools.groupby over sorted matches"},
		Fix:       "keep groups in first-seen order: an insertion-ordered map (Rust: IndexMap; Go: a slice of keys beside the map; Python: dict without sorted)",
		variants: func(op string, input jsonjs.Value) []Variant {
			if op != "grep.result" || !unsortedPaths(input) {
				return nil
			}
			return []Variant{{Input: input, Dialect: reference.Dialect{Group: sortedGroups}, Shows: []string{"content", "spillText", "meta", "view"}}}
		},
	}}
}

// sortedGroups groups as search.GroupByFile does, then sorts the groups by
// path (UTF-8 byte order, which is code point order).
func sortedGroups(matches []search.Match) []search.FileMatches {
	groups := search.GroupByFile(matches)
	slices.SortStableFunc(groups, func(a, b search.FileMatches) int { return strings.Compare(a.Path, b.Path) })
	return groups
}

// unsortedPaths reports whether grep's distinct paths, in first-seen
// order, are not sorted: only then can a sorted grouping show.
func unsortedPaths(input jsonjs.Value) bool {
	ms, _ := at(input, []string{"value", "matches"})
	items, _ := ms.Items()
	seen := map[string]bool{}
	last, first := "", true
	for _, m := range items {
		pv, _ := m.Get("path")
		p, ok := pv.Str()
		if !ok || seen[p] {
			continue
		}
		if !first && p < last {
			return true
		}
		seen[p], last, first = true, p, false
	}
	return false
}
