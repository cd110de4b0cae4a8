package report

import (
	"fmt"
	"io"

	"github.com/dsh-conform/conform/internal/runner"
)

// RunFormats are the formats of a run report, each with its one writer.
var RunFormats = []string{"text", "json", "junit", "markdown"}

// WriteRun writes a run report in one of RunFormats: `conform run` for
// each --out, `conform report --format` for a saved report.
func WriteRun(w io.Writer, format string, r *runner.Report, opt RunText) error {
	switch format {
	case "text":
		return WriteRunText(w, r, opt)
	case "json":
		return WriteRunJSON(w, r)
	case "junit":
		return WriteRunJUnit(w, r)
	case "markdown":
		return WriteRunMarkdown(w, r)
	}
	return fmt.Errorf("unknown report format %q (the formats: text, json, junit, markdown)", format)
}
