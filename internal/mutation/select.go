package mutation

import (
	"math/rand/v2"
	"regexp"
)

// Sample returns n mutants drawn with seed (all of them when n <= 0 or n
// covers the set), kept in enumeration order.
func Sample(ms []Mutant, n int, seed uint64) []Mutant {
	if n <= 0 || n >= len(ms) {
		return ms
	}
	idx := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)).Perm(len(ms))[:n]
	keep := make([]bool, len(ms))
	for _, i := range idx {
		keep[i] = true
	}
	out := make([]Mutant, 0, n)
	for i, m := range ms {
		if keep[i] {
			out = append(out, m)
		}
	}
	return out
}

// Match keeps the mutants whose ID matches re.
func Match(ms []Mutant, re *regexp.Regexp) []Mutant {
	var out []Mutant
	for _, m := range ms {
		if re.MatchString(m.ID()) {
			out = append(out, m)
		}
	}
	return out
}

// SurvivorsOf keeps the mutants that survived in an earlier JSON report: a
// new case can only add kills, so rerunning them measures what it added.
func SurvivorsOf(ms []Mutant, reportPath string) ([]Mutant, error) {
	return StatusIn(ms, reportPath, Survived)
}
