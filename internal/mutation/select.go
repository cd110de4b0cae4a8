package mutation

import (
	"fmt"
	"math/rand/v2"
	"os"
	"regexp"

	"github.com/dsh-conform/conform/reference/jsonjs"
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
	b, err := os.ReadFile(reportPath)
	if err != nil {
		return nil, err
	}
	v, err := jsonjs.Parse(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", reportPath, err)
	}
	results, _ := v.Get("results")
	items, ok := results.Items()
	if !ok {
		return nil, fmt.Errorf("%s: $.results: not an array", reportPath)
	}
	survived := map[string]bool{}
	for i, it := range items {
		id, _ := it.Get("id")
		st, _ := it.Get("status")
		ids, ok1 := id.Str()
		sts, ok2 := st.Str()
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("%s: $.results[%d]: needs string id and status", reportPath, i)
		}
		if Status(sts) == Survived {
			survived[ids] = true
		}
	}
	var out []Mutant
	for _, m := range ms {
		if survived[m.ID()] {
			out = append(out, m)
		}
	}
	return out, nil
}
