package mutation

import (
	"fmt"
	"os"

	"go.yaml.in/yaml/v3"
)

// EquivalentsFile lists the surviving mutants no op can observe.
const EquivalentsFile = "spec/equivalent-mutants.yaml"

// Equivalent is one listed mutant with the one-line reason no op sees it.
type Equivalent struct {
	Mutant string `yaml:"mutant"` // Mutant.ID()
	Reason string `yaml:"reason"`
}

// Equivalents is the committed list.
type Equivalents []Equivalent

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

// LoadEquivalents reads the list; every entry needs a mutant and a reason,
// and no mutant is listed twice.
func LoadEquivalents(path string) (Equivalents, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var l Equivalents
	if err := yaml.Unmarshal(b, &l); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	seen := map[string]bool{}
	for i, e := range l {
		switch {
		case e.Mutant == "" || e.Reason == "":
			return nil, fmt.Errorf("%s: entry %d: needs both mutant and reason", path, i+1)
		case seen[e.Mutant]:
			return nil, fmt.Errorf("%s: entry %d: %q listed twice", path, i+1, e.Mutant)
		}
		seen[e.Mutant] = true
	}
	return l, nil
}
