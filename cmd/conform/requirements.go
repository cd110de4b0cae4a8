package main

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"text/tabwriter"

	conformroot "github.com/dsh-conform/conform"
	"github.com/dsh-conform/conform/internal/coverage"
	"github.com/dsh-conform/conform/internal/fixture"
	"github.com/dsh-conform/conform/spec"
)

type requirementsCmd struct {
	IDs    []string `arg:"" optional:"" name:"id" help:"Requirement IDs to show in full: statement, level, source and what covers them (cases, log checks or the exclusion)."`
	Format string   `enum:"text,table,json" default:"text" help:"Output format: text or json (table is an old name for text)."`
	Area   string   `help:"Only this area (retention, search, codemode, spill, log)."`
}

// Validate runs at parse time: an unknown area or ID is a usage error.
func (r *requirementsCmd) Validate() error {
	if r.Area != "" && !slices.Contains(spec.Areas, r.Area) {
		return fmt.Errorf("--area %q: no such area (the areas: %s)", r.Area, strings.Join(spec.Areas, ", "))
	}
	for _, id := range r.IDs {
		if _, ok := spec.Lookup(id); !ok {
			return fmt.Errorf("unknown requirement %s (`conform requirements` lists them)", id)
		}
	}
	return nil
}

func (r *requirementsCmd) Run() error {
	reqs, err := spec.Catalogue()
	if err != nil {
		return err
	}
	var sel []spec.Requirement
	for _, q := range reqs {
		if (r.Area == "" || q.Area == r.Area) && (len(r.IDs) == 0 || slices.Contains(r.IDs, q.ID)) {
			sel = append(sel, q)
		}
	}
	if len(r.IDs) > 0 {
		return r.detail(sel)
	}
	if r.Format == "json" {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(sel)
	}
	w := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "ID\tLEVEL\tAREA\tTITLE")
	for _, q := range sel {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", q.ID, q.Level, q.Area, q.Title)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	fmt.Printf("%d requirements\n", len(sel))
	return nil
}

// requirementDetail is one requirement with what covers it.
type requirementDetail struct {
	spec.Requirement
	Cases     []string `json:"cases"`
	LogChecks []string `json:"logChecks"`
}

// detail prints the requirements in full, with the embedded cases that
// cite them, the log checks that prove them or their exclusion.
func (r *requirementsCmd) detail(sel []spec.Requirement) error {
	fixtures, err := fixture.Load(conformroot.Files)
	if err != nil {
		return err
	}
	proof, err := coverage.LogProof()
	if err != nil {
		return err
	}
	rows := map[string]coverage.Row{}
	for _, row := range coverage.Compute(sel, fixtures, proof).Rows {
		rows[row.ID] = row
	}
	out := make([]requirementDetail, len(sel))
	for i, q := range sel {
		out[i] = requirementDetail{Requirement: q, Cases: nonNil(rows[q.ID].Cases), LogChecks: nonNil(rows[q.ID].LogChecks)}
	}
	if r.Format == "json" {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(out)
	}
	for i, d := range out {
		if i > 0 {
			fmt.Println()
		}
		fmt.Printf("%s  %s  %s: %s\n", d.ID, d.Level, d.Area, d.Title)
		fmt.Printf("  %s\n", d.Statement)
		fmt.Printf("  source: %s (digest %s)\n", d.Source, d.Digest)
		if d.Scope != "" {
			fmt.Printf("  scope: binds only a harness whose handshake names language %s (or none)\n", d.Scope)
		}
		switch {
		case len(d.Cases) > 0:
			fmt.Printf("  covered by %d cases: %s\n", len(d.Cases), strings.Join(first(d.Cases, 8), ", "))
		case len(d.LogChecks) > 0:
			fmt.Printf("  checked by conform check-log: %s\n", strings.Join(first(d.LogChecks, 8), ", "))
		case d.Exclusion != nil:
			fmt.Printf("  excluded: %s\n", d.Exclusion.Reason)
		default:
			fmt.Println("  GAP: nothing covers it")
		}
	}
	return nil
}

func nonNil(xs []string) []string {
	if xs == nil {
		return []string{}
	}
	return xs
}
