package report

import (
	"fmt"
	"io"
	"strings"
)

// Align is a Markdown table column's alignment.
type Align int

// Column alignments (GitHub-flavoured Markdown).
const (
	AlignDefault Align = iota
	AlignLeft
	AlignCenter
	AlignRight
)

// Table is a GitHub-flavoured Markdown table, as rendered in pull-request
// comments and CI step summaries ($GITHUB_STEP_SUMMARY).
type Table struct {
	Header []string
	Align  []Align // per column; missing entries are AlignDefault
	Rows   [][]string
}

// Write renders the table. Cells are escaped with EscapeCell; a row
// shorter than the header is padded with empty cells, a longer one is an
// error.
func (t Table) Write(w io.Writer) error {
	if len(t.Header) == 0 {
		return fmt.Errorf("report: markdown table without columns")
	}
	var b strings.Builder
	row := func(cells []string) {
		b.WriteString("|")
		for i := range t.Header {
			c := ""
			if i < len(cells) {
				c = EscapeCell(cells[i])
			}
			b.WriteString(" " + c + " |")
		}
		b.WriteString("\n")
	}
	row(t.Header)
	b.WriteString("|")
	for i := range t.Header {
		a := AlignDefault
		if i < len(t.Align) {
			a = t.Align[i]
		}
		switch a {
		case AlignLeft:
			b.WriteString(":---|")
		case AlignCenter:
			b.WriteString(":---:|")
		case AlignRight:
			b.WriteString("---:|")
		default:
			b.WriteString("---|")
		}
	}
	b.WriteString("\n")
	for n, r := range t.Rows {
		if len(r) > len(t.Header) {
			return fmt.Errorf("report: markdown table row %d has %d cells, the header %d", n+1, len(r), len(t.Header))
		}
		row(r)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

var cellEscaper = strings.NewReplacer("|", `\|`, "\r\n", "<br>", "\n", "<br>", "\r", "<br>")

// EscapeCell makes s safe inside one table cell: pipes are escaped, line
// breaks become <br>, and surrounding blanks are trimmed.
func EscapeCell(s string) string {
	return cellEscaper.Replace(strings.TrimSpace(s))
}

// writeMarkdown is the one Markdown writer: run (runmarkdown.go), fuzz
// (fuzz.go) and check-log (checklog_markdown.go) bodies, every outside
// string a code span or fenced block (MDCode, MDFence, HTMLCode), notes
// through mdNote.
func writeMarkdown(w io.Writer, m *Model) error {
	switch {
	case m.Run != nil:
		return WriteRunMarkdown(w, m.Run)
	case m.Fuzz != nil:
		return m.Fuzz.WriteMarkdown(w)
	case m.CheckLog != nil:
		return WriteCheckLogMarkdown(w, m.CheckLog)
	}
	return errNoBody
}
