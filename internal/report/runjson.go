package report

import (
	"encoding/json"
	"io"

	"github.com/dsh-conform/conform/internal/runner"
)

// WriteRunJSON writes the report as indented JSON: encoding/json of
// runner.Report, format conform-run version 1, whose schema is
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
	copied := false
	for i := range out.Cases {
		if out.Cases[i].Requirements != nil {
			continue
		}
		if !copied { // never write to the caller's report
			out.Cases, copied = append([]runner.CaseResult(nil), out.Cases...), true
		}
		out.Cases[i].Requirements = []string{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(&out)
}
