// Package coverage maps every requirement of spec/ to what covers it: named
// fixtures, session-log checks, or a justified exclusion. A requirement with
// none of them is a gap, and so is a fixture naming an unknown ID.
package coverage

import (
	"sort"

	"github.com/dsh-conform/conform/generators/sessionlog"
	"github.com/dsh-conform/conform/internal/logcheck"

	"github.com/dsh-conform/conform/internal/fixture"
	"github.com/dsh-conform/conform/spec"
)

// Row is one requirement's coverage.
type Row struct {
	ID        string
	Cases     []string // fixture IDs naming the requirement
	LogChecks []string // session-log test cases proving it
	Exclusion string   // the catalogue's reason it is not observable
}

// Covered reports whether anything covers the requirement.
func (r Row) Covered() bool {
	return len(r.Cases) > 0 || len(r.LogChecks) > 0 || r.Exclusion != ""
}

// Report is the whole table.
type Report struct {
	Rows    []Row               // in catalogue order
	Unknown map[string][]string // requirement ID not in spec/ → fixtures naming it
}

// Gaps returns the rows that nothing covers.
func (r Report) Gaps() []Row {
	var gaps []Row
	for _, row := range r.Rows {
		if !row.Covered() {
			gaps = append(gaps, row)
		}
	}
	return gaps
}

// Compute builds the report. logChecks maps requirement IDs to the
// session-log test cases that prove them.
func Compute(reqs []spec.Requirement, fixtures []fixture.Fixture, logChecks map[string][]string) Report {
	byID := map[string][]string{}
	for _, f := range fixtures {
		for _, id := range f.Requirements {
			byID[id] = append(byID[id], f.ID)
		}
	}
	rep := Report{Unknown: map[string][]string{}}
	known := map[string]bool{}
	for _, q := range reqs {
		known[q.ID] = true
		row := Row{ID: q.ID, Cases: byID[q.ID], LogChecks: logChecks[q.ID]}
		if q.Exclusion != nil {
			row.Exclusion = q.Exclusion.Reason
		}
		sort.Strings(row.Cases)
		rep.Rows = append(rep.Rows, row)
	}
	for id, cases := range byID {
		if !known[id] {
			sort.Strings(cases)
			rep.Unknown[id] = cases
		}
	}
	return rep
}

// LogProof gathers the session-log test cases: the checker's rule fixtures
// (logcheck.Proof) and the session-log generator's mutations, each of which
// the generator's suite proves is caught under its requirement and no other.
func LogProof() (map[string][]string, error) {
	proof, err := logcheck.Proof()
	if err != nil {
		return nil, err
	}
	for _, m := range sessionlog.Mutations() {
		proof[m.Requirement] = append(proof[m.Requirement], "log mutation "+m.Name)
	}
	return proof, nil
}
