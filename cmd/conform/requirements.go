package main

import (
	"encoding/json"
	"fmt"
	"os"
	"text/tabwriter"

	"github.com/dsh-conform/conform/spec"
)

type requirementsCmd struct {
	Format string `enum:"table,json" default:"table" help:"Output format (table or json)."`
	Area   string `help:"Only this area (retention, search, codemode, spill, log)."`
}

func (r *requirementsCmd) Run() error {
	reqs, err := spec.Catalogue()
	if err != nil {
		return err
	}
	var sel []spec.Requirement
	for _, q := range reqs {
		if r.Area == "" || q.Area == r.Area {
			sel = append(sel, q)
		}
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
