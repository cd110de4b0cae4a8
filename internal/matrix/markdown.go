package matrix

import (
	"fmt"
	"io"
	"strings"

	"github.com/dsh-conform/conform/internal/report"
)

// WriteMarkdown writes the matrix as a GitHub-flavoured Markdown table,
// for a step summary or docs: a header row per report, then one row per
// requirement that some report does not pass (all passing rows would
// drown the ones that matter), then the passing count.
func WriteMarkdown(w io.Writer, m *Matrix) error {
	var b strings.Builder
	b.WriteString("| | " + strings.Join(columnHeads(m), " | ") + " |\n")
	b.WriteString("|---|" + strings.Repeat("---|", len(m.Columns)) + "\n")
	b.WriteString("| **result** |")
	for _, c := range m.Columns {
		switch c.Result {
		case ResultConformant:
			b.WriteString(" ✓ conformant |")
		case ResultIncomplete:
			b.WriteString(" ⚠ incomplete (the run did not finish) ✗ nonconformant |")
		case ResultPartial:
			fmt.Fprintf(&b, " – partial (%d requirements not selected) |", c.NotSelected)
		default:
			b.WriteString(" ✗ nonconformant |")
		}
	}
	b.WriteString("\n| **requirements passed** |")
	for _, c := range m.Columns {
		fmt.Fprintf(&b, " %d/%d checked (%d failed, %d of %d not checked) |", c.Passed, c.Checked, c.Failed, c.RequirementsTotal-c.Checked, c.RequirementsTotal)
	}
	b.WriteString("\n")
	same := 0
	for _, a := range m.Areas {
		for _, r := range a.Rows {
			if uniform(r) {
				same++
				continue
			}
			fmt.Fprintf(&b, "| `%s` %s |", r.ID, r.Level)
			for _, c := range r.Cells {
				s := Icon(c.Status) + " " + Label(c.Status)
				if c.Status == Failed {
					s += fmt.Sprintf(" (%d)", c.Fail)
				}
				b.WriteString(" " + s + " |")
			}
			b.WriteString("\n")
		}
	}
	fmt.Fprintf(&b, "\n%d requirements have the same status in every report and are not listed.\n", same)
	_, err := io.WriteString(w, b.String())
	return err
}

func columnHeads(m *Matrix) []string {
	out := make([]string, len(m.Columns))
	for i, c := range m.Columns {
		out[i] = report.EscapeCell(report.MDCode(strings.TrimSpace(c.Name + " " + c.Version)))
	}
	return out
}

// uniform says whether every report gives a row the same status.
func uniform(r Row) bool {
	for _, c := range r.Cells {
		if c.Status != r.Cells[0].Status || c.Status == Failed {
			return false
		}
	}
	return true
}
