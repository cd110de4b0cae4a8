package report

import (
	"io"

	"github.com/dsh-conform/conform/internal/runner"
)

// WriteRunJSON writes the report as indented JSON: runner.Report through
// WriteIndentedJSON (inputs and diff values verbatim, compact; one holding
// a lone surrogate also as its text), format conform-run version 1, whose schema is
// spec/schemas/report-run.json. A nil case list or totals map is written
// as an empty one, as the schema requires.
func WriteRunJSON(w io.Writer, r *runner.Report) error {
	out := *r
	if out.Cases == nil {
		out.Cases = []runner.CaseResult{}
	}
	if out.Totals == nil {
		out.Totals = runner.Totals(out.Cases)
	}
	// A copy down to the diffs: the writer swaps their raw values.
	out.Cases = append(make([]runner.CaseResult, 0, len(out.Cases)), out.Cases...)
	var raws []RawValue
	for i := range out.Cases {
		c := &out.Cases[i]
		if c.Requirements == nil {
			c.Requirements = []string{}
		}
		raws = append(raws, RawValue{&c.Input, &c.InputText})
		if c.Minimized != nil { // a copy: the writer swaps its raw value
			m := *c.Minimized
			c.Minimized, raws = &m, append(raws, RawValue{&m.Input, &m.InputText})
		}
		c.Diffs = append([]runner.Diff(nil), c.Diffs...)
		for j := range c.Diffs {
			d := &c.Diffs[j]
			raws = append(raws, RawValue{&d.WantJSON, &d.WantText}, RawValue{&d.GotJSON, &d.GotText})
		}
	}
	return WriteIndentedJSON(w, &out, raws)
}
