package mutation

import (
	"fmt"
	"os"
)

// EquivalentsFile lists the surviving mutants no op can observe.
const EquivalentsFile = "spec/equivalent-mutants.yaml"

// Equivalent is one listed mutant with the one-line reason no op sees it.
type Equivalent struct {
	Mutant string // Mutant.ID()
	Reason string
}

// Equivalents is the committed list.
type Equivalents []Equivalent

// entry is one item of the file: one reason for one mutant or for several
// that share it.
type entry struct {
	Mutant  string   `yaml:"mutant"`
	Mutants []string `yaml:"mutants"`
	Reason  string   `yaml:"reason"`
}

// Reason reports whether m is listed, and why.
func (l Equivalents) Reason(m Mutant) (string, bool) {
	id := m.ID()
	for _, e := range l {
		if e.Mutant == id {
			return e.Reason, true
		}
	}
	return "", false
}

// Settle applies the listing rule to a judged result: a listed survivor
// is Listed, with the listed reason; a listed mutant that is killed,
// identical or uncovered makes the listing stale (the list never claims
// more than is true).
func (l Equivalents) Settle(r Result) Result {
	why, listed := l.Reason(r.Mutant)
	switch {
	case !listed:
	case r.Status == Survived:
		r.Status, r.Detail = Listed, why
	case r.Status == Killed || r.Status == Identical || r.Status == NotReached:
		r.Stale = true
	}
	return r
}

// LoadEquivalents reads the list; every entry needs a reason and either a
// mutant or a list of mutants, and no mutant is listed twice. Errors name
// the file and the entry's line.
func LoadEquivalents(path string) (Equivalents, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	items, err := yamlList(path, b)
	if err != nil {
		return nil, err
	}
	var l Equivalents
	seen := map[string]int{}
	for _, n := range items {
		var e entry
		if err := n.Decode(&e); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, n.Line, err)
		}
		ids := e.Mutants
		if e.Mutant != "" {
			ids = append([]string{e.Mutant}, ids...)
		}
		if len(ids) == 0 || e.Reason == "" {
			return nil, fmt.Errorf("%s:%d: an entry needs a reason and a mutant or mutants", path, n.Line)
		}
		for _, id := range ids {
			if id == "" {
				return nil, fmt.Errorf("%s:%d: an empty mutant id", path, n.Line)
			}
			if first, dup := seen[id]; dup {
				return nil, fmt.Errorf("%s:%d: %q is listed at line %d already", path, n.Line, id, first)
			}
			seen[id] = n.Line
			l = append(l, Equivalent{Mutant: id, Reason: e.Reason})
		}
	}
	return l, nil
}
