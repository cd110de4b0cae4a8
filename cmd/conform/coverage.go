package main

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/dsh-conform/conform/internal/coverage"
	"github.com/dsh-conform/conform/internal/fixture"
	"github.com/dsh-conform/conform/spec"
)

type coverageCmd struct {
	Dir string `default:"." help:"The root of a conform checkout, whose fixtures/ it reads."`
}

// Run prints requirement → cases / exclusion and exits 1 on a gap or on a
// fixture naming an unknown requirement.
func (c *coverageCmd) Run() error {
	if err := checkout(c.Dir); err != nil {
		return runFail("coverage", exitUsage, "%v; coverage reads fixtures/ of a conform checkout (run it at the module root, or give --dir)", err)
	}
	reqs, err := spec.Catalogue()
	if err != nil {
		return err
	}
	fixtures, err := fixture.Load(os.DirFS(c.Dir))
	if err != nil {
		return err
	}
	proof, err := coverage.LogProof()
	if err != nil {
		return err
	}
	rep := coverage.Compute(reqs, fixtures, proof)
	w := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "REQUIREMENT\tCOVERED BY")
	for _, r := range rep.Rows {
		var by string
		switch {
		case len(r.Cases) > 0:
			by = fmt.Sprintf("%d cases: %s", len(r.Cases), strings.Join(first(r.Cases, 3), ", "))
		case len(r.LogChecks) > 0:
			by = "log checks: " + strings.Join(first(r.LogChecks, 3), ", ")
		case r.Exclusion != "":
			by = "excluded: " + r.Exclusion
		default:
			by = "GAP: nothing covers it"
		}
		fmt.Fprintf(w, "%s\t%s\n", r.ID, by)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	unknown := make([]string, 0, len(rep.Unknown))
	for id := range rep.Unknown {
		unknown = append(unknown, id)
	}
	sort.Strings(unknown)
	for _, id := range unknown {
		fmt.Printf("UNKNOWN %s named by %s\n", id, strings.Join(rep.Unknown[id], ", "))
	}
	gaps := rep.Gaps()
	fmt.Printf("%d requirements, %d covered, %d gaps, %d unknown IDs\n", len(rep.Rows), len(rep.Rows)-len(gaps), len(gaps), len(unknown))
	if len(gaps) > 0 || len(unknown) > 0 {
		return status{exitNonconform}
	}
	return nil
}

func first(xs []string, n int) []string {
	if len(xs) <= n {
		return xs
	}
	return append(append([]string{}, xs[:n]...), fmt.Sprintf("… (+%d)", len(xs)-n))
}
